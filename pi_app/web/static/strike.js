/* RISK Strike on the pages: each player's face-up continent cards (per continent, against
   its domination number), coin holders (the map lights each continent in its holder's
   colour), the battle in progress, the reaction window and the dice, and the log's lines of
   its events. A player's phone's controls: strike-controls.js; the kind's face and render:
   strike-kind.js. */

import { t, has, colourName as who, continent as cn } from "./words.js";
import { say, waits } from "./saying.js";
import { el, colour } from "./dom.js";

export const kindOf = (card) => String(card).replace(/\.\d+$/, "");
export const word = (prefix, k) => (has(`${prefix}.${k}`) ? t(`${prefix}.${k}`) : String(k).replace(/_/g, " "));
export const tacticName = (card) => word("tactic", kindOf(card));

export function ownerByTerritory(layout, state) {
  const coins = state.continent_colours || state.coins || {};
  const owner = {};
  for (const tile of layout.territories) owner[tile.id] = coins[tile.continent] || null;
  return owner;
}

/* A continent's number on the map: how many of its cards take its coin. */
export const continentBadge = (layout, c) => t("strike.continent_badge", { n: ((layout.strike || {}).domination || {})[c] });

function coinsOf(state, p) {
  return Object.entries(state.coins || {}).filter(([, holder]) => holder === p).map(([c]) => c);
}

/* {continent: count} of a player's face-up continent cards. */
export function tableCounts(state, p) {
  const counts = {};
  for (const card of (state.tables || {})[p] || []) counts[kindOf(card)] = (counts[kindOf(card)] || 0) + 1;
  return counts;
}

/* Tactics plays seen (id -> {player, card}), so a Cancel Orders names the card it cancels
   even once its window has closed. */
const playsSeen = new Map();
function notePlays(state) {
  for (const play of ((state && state.window) || {}).plays || []) playsSeen.set(play.id, play);
}
/* "Red played Spy on Blue", "Blue played Cancel Orders on Red's Rally". */
function playLine(play) {
  const base = { player: who(play.player), card: tacticName(play.card) };
  if (kindOf(play.card) === "cancel-orders" || play.card === "cancel-orders") {
    const target = playsSeen.get(play.target);
    return target ? t("strike.play_cancel", { ...base, target: who(target.player), target_card: tacticName(target.card) })
      : t("strike.play", base);
  }
  return play.target ? t("strike.play_on", { ...base, target: who(play.target) }) : t("strike.play", base);
}

/* Whose turn it is, the battle and the window, and whom the table waits for: said by the
   table (`table.waits`, pi_app/table/awaiting.py), rendered by table.js and virtual.js. */

export function playersRows(state, me, layout, w) {
  const dom = layout.strike.domination;
  const rows = [el("tr", {}, ...["", t("players.player"), t("strike.continent_cards"), t("strike.tactics"),
    t("strike.coins")].map((h, i) => el("th", { text: h, scope: "col" },
    i === 0 ? el("span", { class: "visually-hidden", text: t("players.colour") }) : null)))];
  for (const p of state.players) {
    const sw = el("span", { class: "swatch", "aria-hidden": "true" }); sw.style.background = colour(p);
    const counts = tableCounts(state, p);
    const cards = Object.entries(counts).map(([c, n]) =>
      el("span", { class: "ccard" + (n >= dom[c] ? " full" : ""), "data-continent": c,
                   text: `${cn(c)} ${n}/${dom[c]}` }));
    const coins = coinsOf(state, p).map((c) => `● ${cn(c)}`).join(", ");
    const row = el("tr", { class: (w || waits(state)).seats.includes(p) ? "current" : "" },
      el("td", {}, sw), el("td", { text: who(p) + (p === me ? " " + t("players.you") : "") }),
      el("td", { class: "ccards" }, ...(cards.length ? cards : ["–"])),
      el("td", { text: String((state.hand_counts || {})[p] || 0) }),
      el("td", { class: "coins", text: coins || "–" }));
    row.dataset.player = p;
    rows.push(row);
  }
  return rows;
}

export function info(state, layout) {
  notePlays(state);
  const parts = [el("p", { class: "small", text: t("strike.decks", { continents: state.continent_deck_count,
    tactics: state.tactics_deck_count, coins: layout.strike.coins_to_win }) })];
  parts.push(el("ul", { class: "coin-list" }, ...Object.entries(state.coins || {}).map(([c, holder]) => {
    const li = el("li", { "data-coin": c, text: `${cn(c)} (${layout.strike.domination[c]}): `
      + (holder ? t("strike.coin_held", { player: who(holder) }) : t("strike.coin_pile")) });
    if (holder) li.style.borderLeftColor = colour(holder);
    return li;
  })));
  const b = state.battle;
  if (b) {
    const side = (s) => (b.troops || []).filter((x) => x.side === s).length;
    const support = Object.entries(b.supporters || {}).map(([p, s]) => `${who(p)} → ${word("strike.side", s)}`).join(", ");
    parts.push(el("div", { class: "battle", id: "strike-battle" },
      el("strong", { text: t("strike.battle", { attacker: who(b.attacker), from: cn(b.attack_continent),
                                                defender: who(b.defender), to: cn(b.defence_continent) }) }),
      el("p", { text: t("strike.battle_step", { step: word("strike.step", b.step), a: side("attacker"),
                                                d: side("defender"), rolls: b.rolls || 0 })
        + (support ? " · " + t("strike.support", { list: support }) : "") })));
  }
  // the seats' passing choices are public: who asked to be asked in every window
  const every = state.players.filter((p) => (state.passing || {})[p] === "every");
  if (every.length) parts.push(el("p", { class: "small", id: "strike-passing-every",
    text: t("strike.passing_every_list", { players: every.map(who).join(", ") }) }));
  const w = state.window;
  if (w) {
    parts.push(el("p", { id: "strike-window" }, t("strike.window_waiting", {
      kind: word("strike.window_kind", w.kind), waiting: say({ colours: waits(state).seats }) }), windowClock(state)));
    for (const play of w.plays || []) {
      parts.push(el("p", { class: "small", text: playLine(play) + (play.cancelled ? ` (${t("strike.cancelled")})` : "") }));
    }
  }
  return parts;
}

/* The reaction window's timer as this page saw it open (the table closes the window
   `reaction_seconds` after opening it; a page that joins late counts from its join). */
let clock = { id: null, until: 0 };
export function windowClock(state, lead) {
  const w = state.window, secs = (state.house_rules || {}).reaction_seconds;
  if (!w || !secs) { clock = { id: null, until: 0 }; return null; }
  if (clock.id !== w.id) clock = { id: w.id, until: Date.now() + secs * 1000 };
  const span = el("span", { class: "window-clock", "data-until": String(clock.until),
                            "data-lead": lead === undefined ? " · " : lead });
  tick(span);
  return span;
}
function tick(node) {
  const left = Math.max(0, Math.round((Number(node.dataset.until) - Date.now()) / 1000));
  node.textContent = (node.dataset.lead || "") + t("strike.closes_in", { n: left });
}
setInterval(() => document.querySelectorAll(".window-clock").forEach(tick), 500);

/* The dice on the table now: the open roll, else the battle's last compared roll (null
   once the battle is over: the page then shows the log's last `battle` event). */
export function lastDice(state) {
  const b = state.battle;
  const d = b && (b.dice || b.last_roll);
  if (!d) return null;
  return { attacker: b.attacker, defender: b.defender, attack_dice: d.attacker || [], defence_dice: d.defender || [] };
}

/* Log lines of Strike's events (null: not a Strike event; "" : nothing players need). */
export function describe(ev) {
  const c = cn, tn = tacticName;
  const list = (xs) => `${(xs || []).join(", ")}`;
  switch (ev.type) {
    case "continents_drawn": return t("slog.continents_drawn", { player: who(ev.player),
      cards: (ev.cards || []).map((k) => c(kindOf(k))).join(", ") });
    case "tactics_drawn": return ev.cards ? t("slog.tactics_drawn_you", { cards: ev.cards.map(tn).join(", ") })
      : t("slog.tactics_drawn", { player: who(ev.player), n: ev.count });
    case "drew": {
      const parts = [];
      if (ev.continents) parts.push(t("slog.n_continent_cards", { n: ev.continents }));
      if (ev.tactics) parts.push(t("slog.n_tactics_cards", { n: ev.tactics }));
      return t("slog.drew_cards", { player: who(ev.player),
        cards: parts.length === 2 ? t("slog.and", { a: parts[0], b: parts[1] }) : parts[0] || "–" });
    }
    case "first_player": return t("slog.first_player", { player: who(ev.player) });
    case "attack_declared": return t("slog.attack_declared", { attacker: who(ev.attacker), defender: who(ev.defender),
      from: c(ev.attack_continent), to: c(ev.defence_continent) });
    case "troops_deployed": return ev.auto ? t("slog.troops_auto", { player: who(ev.player) })
      : t(ev.count ? "slog.troops_deployed" : "slog.troops_none", { player: who(ev.player), n: ev.count,
                                                                    side: word("strike.side", ev.side) });
    case "window_opened": case "window_renewed": case "window_closed": case "tactic_resolved": case "dice_rolled": return "";
    case "passed": return t({ battle: "slog.passed_battle", card: "slog.passed_card", turn: "slog.passed_turn" }[ev.until]
      || "slog.passed", { player: who(ev.player) });
    case "passing_chosen": return t(`slog.passing_${ev.choice}`, { player: who(ev.player) });
    case "roll_next": return t("slog.roll_next", { player: who(ev.player) });
    case "stop_next": return t("slog.stop_next", { player: who(ev.player) });
    case "roll_next_undone": case "stop_next_undone": return "";
    case "tactic_played": {
      const play = { id: ev.play, player: ev.player, card: ev.card, target: ev.target };
      const line = playLine(play);
      playsSeen.set(ev.play, play);
      return line;
    }
    case "tactic_cancelled": return t("slog.tactic_cancelled", { player: who(ev.player), card: tn(ev.card) });
    case "tactic_fizzled": return t("slog.tactic_fizzled", { player: who(ev.player), card: tn(ev.card) });
    case "spied": return ev.hand ? t("slog.spied_you", { player: who(ev.target), cards: ev.hand.map(tn).join(", ") || "–" })
      : t("slog.spied", { player: who(ev.player), target: who(ev.target) });
    case "dice_changed": return t("slog.dice_changed", { player: who(ev.player), card: tn(ev.card),
      side: word("strike.side", ev.side), dice: list(ev.dice) });
    case "battle": {
      const lost = (side) => (ev.losers || []).filter((s) => s === side).length;
      return t("slog.strike_battle", { attacker: who(ev.attacker), defender: who(ev.defender),
        a: list(ev.attack_dice), d: list(ev.defence_dice), al: lost("attacker"), dl: lost("defender") });
    }
    case "troop_lost": return t("slog.troop_lost", { player: who(ev.player), side: word("strike.side", ev.side) });
    case "troops_discarded": return t("slog.troops_discarded", { player: who(ev.player), card: tn(ev.card), n: ev.count });
    case "continent_captured": return t("slog.continent_captured", { player: who(ev.player), source: who(ev.source), continent: c(ev.continent) });
    case "continent_surrendered": return t("slog.continent_surrendered", { player: who(ev.player), continent: c(ev.continent) });
    case "coin_taken": return ev.source ? t("slog.coin_taken_from", { player: who(ev.player), continent: c(ev.continent), source: who(ev.source) })
      : t("slog.coin_taken", { player: who(ev.player), continent: c(ev.continent) });
    case "attack_ended": return t("slog.attack_ended", { attacker: who(ev.attacker), reason: word("strike.reason", ev.reason) });
    case "sabotaged": return t("slog.sabotaged", { player: who(ev.player), n: ev.troops_returned });
    case "turn_passed": return t("slog.turn_passed", { player: who(ev.player) });
    case "game_won": return t("slog.game_won", { player: who(ev.winner), coins: (ev.coins || []).map(c).join(", ") });
    default: return null;
  }
}
