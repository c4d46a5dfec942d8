/* The log's lines of the board game's events (every variant's common moves), as the table
   view, My view and /virtual say them; a variant's own events are variants.js's, Strike's
   strike.js's. */

import { t, colourName as who, territory as place, variantName } from "./words.js";

/* A card as its holder reads it: its territory and symbol, or "wild". */
export function cardLabel(card, symbols) {
  const sym = (symbols || {})[card];
  if (sym === "wild" || String(card).startsWith("wild")) return t("card.wild");
  return `${place(card)}${sym ? " · " + t(`card.${sym}`) : ""}`;
}

/* A computer seat's step as the log says it ("Blue (computer) attacks Alaska from
   Kamchatka with 3 dice"), from its `computer_move` announcement. */
export function computerLine(ev) {
  const c = ev.command || {};
  const key = `log.computer.${c.type}`;
  const said = t(key, { player: t("log.computer.who", { player: who(ev.player) }),
    from: place(c.source || ""), to: place(c.target || c.territory || ""),
    territory: place(c.territory || ""), n: c.count !== undefined ? c.count : c.dice });
  return said === key ? ev.text || "" : said;
}

/* `ev`'s line; "" for an event players need no line for, null for one that is not the board
   game's. /virtual says the dice's faces (`faces`) and leaves out what only a seat's view
   holds (`plain`: no armies a trade gave, no eliminator, no card drawn). */
export function boardLine(ev, { faces = false, plain = false, symbols = null } = {}) {
  const p = who(ev.player || ev.attacker || "");
  switch (ev.type) {
    case "battle": return t("log.battle", { attacker: who(ev.attacker), to: place(ev.to), from: place(ev.from),
      a: faces ? (ev.attack_dice || []).join(" ") : ev.attack_dice.length,
      d: faces ? (ev.defence_dice || []).join(" ") : ev.defence_dice.length,
      al: ev.attacker_losses, dl: ev.defender_losses });
    case "conquered": return t("log.conquered", { player: p, to: place(ev.to), defender: who(ev.defender) });
    case "claimed": return t("log.claimed", { player: p, territory: place(ev.territory) });
    case "moved_in": return t("log.moved_in", { player: p, n: ev.count, to: place(ev.to) });
    case "blitz_stopped": return t("log.blitz_stopped", { player: who(ev.attacker), n: ev.armies, from: place(ev.from) });
    case "placed": return t("log.placed", { player: p, n: ev.count || 1, territory: place(ev.territory) });
    case "game_won": return t("log.game_won", { player: who(ev.winner) });
    case "eliminated": return ev.by && !plain ? t("log.eliminated_by", { player: who(ev.player), by: who(ev.by) })
      : t("log.eliminated", { player: who(ev.player) });
    case "card_drawn": return ev.card && !plain ? t("log.card_drawn_you", { card: cardLabel(ev.card, symbols) })
      : t("log.card_drawn", { player: p });
    case "game_started": return t("log.game_started", { variant: variantName(ev.variant),
      players: (ev.players || []).map(who).join(", ") });
    case "first_player_roll": return t("log.first_player_roll", { rolls: Object.entries(ev.rolls || {})
      .map(([x, face]) => `${who(x)} ${face}`).join(", ") });
    case "deck_shuffled": return t("log.deck_shuffled");
    case "setup_started": return t("log.setup_started", { player: who(ev.first_player), n: ev.starting_armies });
    case "cards_traded": return ev.armies && !plain ? t("log.cards_traded_for", { player: p, n: ev.armies })
      : t("log.cards_traded", { player: p });
    case "undone": return t(ev.by === "board" ? "log.undone_board" : "log.undone", { n: (ev.seqs || []).length || 1 });
    case "cards_taken": return t("log.cards_taken", { player: p, source: who(ev.source), n: ev.count || (ev.cards || []).length });
    case "fortified": return t("log.fortified", { player: p, n: ev.count, to: place(ev.to), from: place(ev.from) });
    case "territory_bonus": return t("log.territory_bonus", { player: p, territory: place(ev.territory) });
    case "turn_started": return ev.reinforcements ? t("log.turn_started", { player: p, n: ev.reinforcements }) : "";
    case "computer_move": return ev.shadowed ? "" : computerLine(ev);
    default: return null;
  }
}

/* A computer's step is announced and played in one update: when a line of the update already
   says what it did (placed, claimed, the battle, the move), the announcement is not said
   again, so the log shows each computer move once. */
const RESULT_OF = { place: "placed", place_neutral: "placed", claim: "claimed", attack: "battle",
  blitz: "battle", fortify: "fortified", move_in: "moved_in", trade_cards: "cards_traded",
  choose_defence: "battle" };
export function shadowAnnouncements(events) {
  events.forEach((ev, i) => {
    if (ev.type !== "computer_move") return;
    const result = RESULT_OF[(ev.command || {}).type];
    if (result && events.slice(i + 1).some((e) => e.type === result)) ev.shadowed = true;
  });
}
