/* RISK Strike on the pages. Table view: each player's face-up continent cards (per
   continent, against its domination number), coin holders (the map lights each continent in
   its holder's colour), the battle in progress, the reaction window and the dice.
   A player's phone: the tactics hand, and one control per command the game accepts from
   them now (`available_commands` in their view): Draw choices, Declare attack, Deploy, Roll,
   Pass, each playable tactics card (in one chooser when more buttons than fit a phone), the
   reaction window's Pass; and the seat's standing passing choice. A Spy's report is in the
   spy's own view only (`spied_hand`). Words through RB.t. */

const el = (...a) => RB.el(...a);
const t = (k, p) => RB.t(k, p);
const who = (p) => RB.colourName(p);
const kindOf = (card) => String(card).replace(/\.\d+$/, "");
const cn = (c) => RB.continent(c);
const word = (prefix, k) => (RB.has(`${prefix}.${k}`) ? t(`${prefix}.${k}`) : String(k).replace(/_/g, " "));
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
function tableCounts(state, p) {
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

export function playersRows(state, me, layout, waits) {
  const dom = layout.strike.domination;
  const rows = [el("tr", {}, ...["", t("players.player"), t("strike.continent_cards"), t("strike.tactics"),
    t("strike.coins")].map((h, i) => el("th", { text: h, scope: "col" },
    i === 0 ? el("span", { class: "visually-hidden", text: t("players.colour") }) : null)))];
  for (const p of state.players) {
    const sw = el("span", { class: "swatch", "aria-hidden": "true" }); sw.style.background = RB.colour(p);
    const counts = tableCounts(state, p);
    const cards = Object.entries(counts).map(([c, n]) =>
      el("span", { class: "ccard" + (n >= dom[c] ? " full" : ""), "data-continent": c,
                   text: `${cn(c)} ${n}/${dom[c]}` }));
    const coins = coinsOf(state, p).map((c) => `● ${cn(c)}`).join(", ");
    const row = el("tr", { class: (waits || RB.waits(state)).seats.includes(p) ? "current" : "" },
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
    if (holder) li.style.borderLeftColor = RB.colour(holder);
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
      kind: word("strike.window_kind", w.kind), waiting: RB.say({ colours: RB.waits(state).seats }) }), windowClock(state)));
    for (const play of w.plays || []) {
      parts.push(el("p", { class: "small", text: playLine(play) + (play.cancelled ? ` (${t("strike.cancelled")})` : "") }));
    }
  }
  return parts;
}

/* The reaction window's timer as this page saw it open (the table closes the window
   `reaction_seconds` after opening it; a page that joins late counts from its join). */
let clock = { id: null, until: 0 };
function windowClock(state, lead) {
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

/* The seat's standing passing choice (RULES §7, "Passing"): said once, public, kept. A
   select on My view's first screen; changing it sends the choice to the table. */
export function passingChoice(state, me, send) {
  const mine = state.passing_choice;
  if (!mine || RB.waits(state).status === "over") return [];  // no choice once the game is over
  const choice = select("passing", t("strike.passing"), mine.choices.map((c) => [c, t(`strike.passing_${c}`)]),
    (e) => send({ type: "strike_choose_passing", choice: e.target.value }));
  inner(choice).value = mine.choice;
  return [el("div", { class: "row strike-row", id: "strike-passing" }, choice)];
}

export function handChips(state) {
  const hand = state.my_hand || [];
  if (!hand.length) return [el("span", { class: "small", text: t("strike.no_tactics") })];
  return hand.map((c) => el("span", { class: "cardchip tactic", "data-card": c, text: tacticName(c) }));
}

function select(name, label, options, onchange) {
  const s = el("select", { name }, ...options.map(([v, text]) => el("option", { value: v, text })));
  if (onchange) s.addEventListener("change", onchange);
  return el("label", {}, label + " ", s);
}
const inner = (label) => label.querySelector("select");
function button(text, type, build, send, cls) {
  return el("button", { class: cls || "big", text, "data-command": type,
                        onclick: () => send(Object.assign({ type }, build ? build() : {})) });
}
function group(title, ...children) {
  return el("div", { class: "row strike-row" }, title ? el("span", { class: "what", text: title }) : null, ...children);
}
const others = (ctx) => ctx.state.players.filter((p) => p !== ctx.me).map((p) => [p, who(p)]);

/* The controls of each command type the game accepts from `me` now. */
const CONTROLS = {
  strike_draw: (ctx) => group(t("strike.draw"),
    ...[[2, 0, "strike.draw_2c"], [1, 1, "strike.draw_1_1"], [0, 2, "strike.draw_2t"]].map(([c, k, key]) => {
      const b = button(t(key), "strike_draw", () => ({ continents: c, tactics: k }), ctx.send);
      b.dataset.draw = `${c}-${k}`;
      return b;
    })),
  strike_declare_attack: (ctx) => {
    const { state, me } = ctx;
    const option = (c) => el("option", { value: c, text: cn(c) });
    // only the attacks the table allows: opponents holding a card the player can reach,
    // in seat order after them (`attack_choices`), so the form never starts on one who has none
    const choices = state.attack_choices || {};
    const preview = el("p", { class: "small dice-preview", "data-dice-preview": "1" });
    const theirs = select("defence_continent", t("strike.their"), [], () => showDice());
    const attack = select("attack_continent", t("strike.from_my"), [], () => fillTheirs());
    const defender = select("defender", t("strike.opponent"), Object.keys(choices).map((p) => [p, who(p)]), () => refill());
    // the dice each side would roll before troop cards: its cards of the continent in play
    const showDice = () => {
      const from = inner(attack).value, to = inner(theirs).value, whom = inner(defender).value;
      preview.textContent = from && to ? t("strike.dice_preview", { a: Math.min(3, tableCounts(state, me)[from] || 0),
        player: who(whom), d: Math.min(2, tableCounts(state, whom)[to] || 0) }) : "";
    };
    const fillTheirs = () => {
      inner(theirs).replaceChildren(...((choices[inner(defender).value] || {})[inner(attack).value] || []).map(option));
      showDice();
    };
    const refill = () => {
      inner(attack).replaceChildren(...Object.keys(choices[inner(defender).value] || {}).map(option));
      fillTheirs();
    };
    refill();
    return group(t("strike.attack"), defender, attack, theirs, preview,
      button(t("strike.declare"), "strike_declare_attack", () => ({ defender: inner(defender).value,
        attack_continent: inner(attack).value, defence_continent: inner(theirs).value }), ctx.send));
  },
  strike_pass_turn: (ctx) => group(null, button(t("strike.pass_turn"), "strike_pass_turn", null, ctx.send, "big secondary")),
  strike_deploy: (ctx) => {
    const { state } = ctx;
    const troops = (state.my_hand || []).filter((c) => kindOf(c) === "troops").length;
    const support = !!state.window;  // in a window, Deploy is a supporter's (RULES §7)
    const counts = [];
    for (let n = support ? 1 : 0; n <= troops; n++) counts.push([String(n), String(n)]);
    if (!counts.length) return group(t("strike.deploy"), el("span", { class: "small", text: t("strike.no_troops") }));
    const count = select("count", t("strike.how_many"), counts);
    // your own side: all your troops; supporting someone else's fight: one, more by choice
    inner(count).value = support ? "1" : String(troops);
    const side = support ? select("side", t("strike.for_side"), [
      ["attacker", t("strike.side_attacker", { player: who(state.battle.attacker) })],
      ["defender", t("strike.side_defender", { player: who(state.battle.defender) })]]) : null;
    // the defender's or a supporter's deploy is also their pass: for how long (RULES §7)
    const b = state.battle || {};
    const until = support || ctx.me === b.defender ? select("until", t("strike.deploy_then"), [
      ["window", t("strike.then_window")], ["card", t("strike.then_card")], ["battle", t("strike.then_battle")]]) : null;
    return group(t("strike.deploy_troops"), count, side, until,
      button(t("strike.deploy"), "strike_deploy", () => Object.assign({ count: parseInt(inner(count).value, 10) },
        side ? { side: inner(side).value } : {},
        until && inner(until).value !== "window" ? { until: inner(until).value } : {}), ctx.send));
  },
  // in the window after deployment or a roll, the attacker's Roll is their pass: the dice roll
  // by themselves once the others are done (RULES §7)
  strike_roll: (ctx) => group(null, button(t(ctx.state.window ? "strike.roll_when_closed" : "strike.roll"), "strike_roll", null, ctx.send)),
  strike_end_attack: (ctx) => group(null, button(t(ctx.state.window ? "strike.stop_when_closed" : "strike.stop_attack"), "strike_end_attack", null, ctx.send, "big secondary")),
  // the plain Pass only: how long a seat passes is its standing choice (passingChoice)
  strike_pass: (ctx) => group(null, button(t("strike.pass"), "strike_pass", null, ctx.send, "big secondary"),
    windowClock(ctx.state, "")),
};

/* Each tactics card's play: its title, the choices it names (selects) and what it sends. */
const PLAYS = {
  strike_play_spy: (ctx) => {
    const target = select("target", t("strike.look_at"), others(ctx));
    return { card: "spy", fields: [target], params: () => ({ target: inner(target).value }) };
  },
  strike_play_expand: () => {
    const take = select("take", t("strike.draw_what"), [["continents", t("strike.expand_continents")],
      ["tactics", t("strike.expand_tactics")]]);
    return { card: "expand", fields: [take], params: () => ({ take: inner(take).value }) };
  },
  strike_play_cancel_orders: (ctx) => {
    const plays = ((ctx.state.window || {}).plays || []).filter((p) => p.player !== ctx.me && !p.cancelled);
    const play = select("play", t("strike.cancel_which"), plays.map((p) => [String(p.id),
      t("strike.play", { player: who(p.player), card: tacticName(p.card) })]));
    return { card: "cancel-orders", fields: [play], params: () => ({ play: parseInt(inner(play).value, 10) }) };
  },
  strike_play_rally: () => ({ card: "rally", fields: [], label: t("strike.play_rally") }),
  strike_play_bombard: (ctx) => {
    const b = ctx.state.battle || {}, dice = (b.dice || {})[b.attacker === ctx.me ? "attacker" : "defender"] || [];
    const die = select("die", t("strike.make_six"), dice.length
      ? dice.map((f, i) => [String(i), t("strike.die_n", { i: i + 1, face: f })]) : [["-1", t("strike.lowest_die")]]);
    if (dice.length) inner(die).value = String(dice.length - 1);
    return { card: "bombard", fields: [die], params: () => ({ die: parseInt(inner(die).value, 10) }) };
  },
  strike_play_artillery: (ctx) => {
    // Artillery hits another player's troops, never your own (RULES §7)
    const troopers = [...new Set(((ctx.state.battle || {}).troops || []).map((x) => x.player))].filter((p) => p !== ctx.me);
    const target = select("target", t("strike.artillery_who"), (troopers.length ? troopers : ctx.state.players).map((p) => [p, who(p)]));
    return { card: "artillery", fields: [target], params: () => ({ target: inner(target).value }) };
  },
  strike_play_sabotage: () => ({ card: "sabotage", fields: [], label: t("strike.play_sabotage") }),
};
for (const [type, play] of Object.entries(PLAYS)) {
  CONTROLS[type] = (ctx) => {
    const p = play(ctx);
    return group(p.fields.length ? tacticName(p.card) : null, ...p.fields,
      button(p.label || t("strike.play_card", { card: tacticName(p.card) }), type, p.params, ctx.send));
  };
}

/* Several cards to play in one control: which card, its choices, one Play button. */
function playChooser(ctx, types) {
  const plays = types.map((type) => [type, PLAYS[type](ctx)]);
  const fields = plays.map(([type, p]) => el("span", { class: "play-fields", "data-play": type }, ...p.fields));
  const show = () => fields.forEach((f) => { f.hidden = f.dataset.play !== inner(which).value; });
  const which = select("card", t("strike.which_card"), plays.map(([type, p]) => [type, tacticName(p.card)]), show);
  show();
  return group(t("strike.play_a_card"), which, ...fields,
    el("button", { class: "big", text: t("strike.play_chosen"), "data-command": "strike_play",
      onclick: () => {
        const [type, p] = plays.find(([k]) => k === inner(which).value);
        ctx.send(Object.assign({ type }, p.params ? p.params() : {}));
      } }));
}

/* At most this many buttons at once: they fit a 360 px phone's screen (issue 32.5). */
const MAX_BUTTONS = 4;

/* One control per command the game accepts from `me` now; `send(command)` posts it.
   Nothing to do: no controls at all (the state sentence says whom the game waits for). */
export function actions(state, layout, me, send) {
  const list = Array.isArray(state.available_commands) ? state.available_commands : [];
  const ctx = { state, layout, me, send };
  // more buttons than fit: the cards to play share one chooser with one Play button
  const plays = list.filter((type) => PLAYS[type]);
  const buttons = list.reduce((n, type) => n + (type === "strike_draw" ? 3 : 1), 0);
  const fold = plays.length > 1 && buttons > MAX_BUTTONS;
  const controls = list.filter((type) => !fold || !PLAYS[type] || type === plays[0]).map((type) =>
    (fold && PLAYS[type] ? playChooser(ctx, plays) : CONTROLS[type] ? CONTROLS[type](ctx)
      : group(null, button(word("strike.command", type), type, null, send))));
  const b = state.battle;
  // after a roll the dice stand right above Rally / Bombard / Pass, not screens below them
  if (controls.length && b && b.dice) controls.unshift(diceRow(b));
  return controls;
}

function diceRow(b) {
  const die = (face, side) => el("span", { class: `die ${side}`, role: "img",
    "aria-label": t("dice.face", { face }), text: String(face) });
  const row = (label, list, side) => el("div", { class: "dice-row" }, el("span", { class: "who", text: label }),
    ...list.map((f) => die(f, side)));
  return el("div", { class: "dice strike-dice", id: "strike-dice" },
    row(t("dice.attack", { player: who(b.attacker) }), b.dice.attacker || [], "attack"),
    row(t("dice.defence", { player: who(b.defender) }), b.dice.defender || [], "defence"));
}

/* The spy's report (their own view only). */
export function spyReport(state) {
  const spied = state.spied_hand;
  if (!spied) return [];
  const cards = spied.cards.map(tacticName).join(", ") || t("strike.no_cards");
  return [el("p", { id: "spy-report" }, el("strong", { text: t("strike.spy_report", { player: who(spied.player) }) }),
    " " + t("strike.spy_report_cards", { turn: spied.as_of_turn, cards }))];
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
