/* RISK Strike on a player's phone: the tactics hand, and one control per command the game
   accepts from them now (`available_commands` in their view): Draw choices, Declare attack,
   Deploy, Roll, Pass, each playable tactics card (in one chooser when more buttons than fit a
   phone), the reaction window's Pass; the seat's standing passing choice, and a Spy's report
   (in the spy's own view only: `spied_hand`). */

import { t, colourName as who, continent as cn } from "./words.js";
import { waits } from "./saying.js";
import { el } from "./dom.js";
import { kindOf, tableCounts, tacticName, windowClock, word } from "./strike.js";

/* The seat's standing passing choice (RULES §7, "Passing"): said once, public, kept. A
   select on My view's first screen; changing it sends the choice to the table. */
export function passingChoice(state, me, send) {
  const mine = state.passing_choice;
  if (!mine || waits(state).status === "over") return [];  // no choice once the game is over
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

