/* My view's own part in the board game: this seat's colour, its sentence, the decision the
   table asks of it (`table.waits.decide`), its cards (a set to trade), its secrets (a
   mission, an HQ) and the buttons of its turn; and the cue (buzz, beep, title) when a
   decision becomes its own. Commands go to the table from here (`send`). */

import { t, colourName as who, territory as place, errorText } from "./words.js";
import { say, waits } from "./saying.js";
import { $, el, colour, sayIn, faces } from "./dom.js";
import { seatApi } from "./seat.js";
import { cardLabel } from "./log-lines.js";
import { diceRows } from "./dice-view.js";
import * as V from "./variants.js";
import { keepAim } from "./aim.js";
import { aimOf } from "./aims.js";

/* `command` to the table as this seat; a tap faster than the table takes them waits its
   turn quietly, never an error. */
export async function send(command) {
  $("me-error").textContent = "";
  const typed = $("faces-row").hidden ? [] : faces($("faces").value);
  if (typed.length) command = Object.assign({}, command, { faces: typed });
  for (let attempt = 0; ; attempt++) {
    try {
      await seatApi("POST", "/api/command", { command });
      if (typed.length) $("faces").value = "";
      return;
    } catch (e) {
      if (e.code === "rate_limited" && attempt < 4) { await new Promise((r) => setTimeout(r, 700 * (attempt + 1))); continue; }
      $("me-error").textContent = errorText(e);
      return;
    }
  }
}

/* The sentences that tell this player what to do now, or whom the table waits for. */
export function renderSeatSentence(state) {
  const w = waits(state);
  if (!state.players || w.status === "none") { $("state-sentence").textContent = t("state.no_game"); return; }
  sayIn($("state-sentence"), w.says.seat || [], w, " ");
}
export function seatLine(me) {
  $("seat-line").hidden = false;
  $("seat-swatch").style.background = colour(me);
  $("seat-name").textContent = t("me.you_are", { colour: who(me) });
  $("me-name").textContent = who(me);
}

/* The set of this player's hand its one button trades: the table's choice (`waits.best_trade`,
   pi_app/table/gestures.py `best_set`), the one a long Confirm on the board trades; null
   when this seat may trade nothing now. */
function bestSet(view) {
  const best = waits(view.state).best_trade;
  return Array.isArray(best) && best.length === 3 ? best : null;
}

function untick() {
  document.querySelectorAll("#hand input:checked").forEach((i) => { i.checked = false; });
  $("trade-btn").hidden = true;
}

let handMark = null, lastHand = [];
function renderHand(view, out, mayTrade) {
  const { state } = view;
  const label = (card) => cardLabel(card, (view.layout || {}).card_symbols);
  const hand = Array.isArray(state.my_hand) ? state.my_hand : [];
  // ticks last while the turn (and its phase) does (the table's `mark`) and until a set is
  // traded (here or on the board): none stays ticked into the next trade (issue 32.4)
  const mark = waits(state).mark;
  if (mark !== handMark || lastHand.some((card) => !hand.includes(card))) untick();
  handMark = mark;
  lastHand = hand;
  // the render keeps which cards were ticked (and never steals focus from a ticked box)
  const chosen = new Set([...document.querySelectorAll("#hand input:checked")].map((i) => i.value));
  const focused = document.activeElement && document.activeElement.closest("#hand")
    ? document.activeElement.value : null;
  $("hand-title").hidden = out && !hand.length;
  $("hand").replaceChildren(...(hand.length ? hand.map((card) => {
    const box = el("input", { type: "checkbox", value: card });
    box.checked = chosen.has(card);
    box.hidden = !mayTrade;
    return el("label", { class: "cardchip" }, box, " " + label(card));
  }) : (out ? [] : [el("span", { class: "small", text: t("me.no_cards") })])));
  if (focused) { const f = document.querySelector(`#hand input[value="${CSS.escape(focused)}"]`); if (f) f.focus(); }
  const update = () => {
    $("trade-btn").hidden = !mayTrade || document.querySelectorAll("#hand input:checked").length !== 3;
  };
  $("hand").querySelectorAll("input").forEach((i) => i.addEventListener("change", update));
  update();
  // a set that can be traded is announced: one button trades the best one
  const best = mayTrade ? bestSet(view) : null;
  $("best-trade-btn").hidden = !best;
  if (best) $("best-trade-btn").textContent = t("me.trade_best", { cards: best.map(label).join(t("list.separator")) });
  return hand;
}

function secretsOf(view) {
  const { state, me } = view;
  const secrets = [];
  const mission = state.my_mission;
  if (mission) {
    const note = mission.fallback ? t("mission.fallback") : "";
    secrets.push(el("div", { class: "mission-card", id: "my-mission" },
      el("strong", { text: t("mission.mine") }), el("p", { text: V.missionText(mission) }),
      note ? el("p", { class: "small", text: note }) : null));
  }
  if (state.variant === "capital") {
    const hq = state.my_hq || (state.hq || {})[me];
    const open = waits(state).step === "hq_pick";
    secrets.push(el("p", { id: "my-hq" }, el("strong", { text: t("hq.mine") + " " }),
      hq ? place(String(hq)) : t("hq.not_picked"),
      open ? el("span", { class: "small", text: " · " + (hq ? t("hq.change") : t("hq.tap")) }) : null));
    // the HQ cards this player holds (their own, and any captured), never part of the hand
    const hqCards = Array.isArray(state.my_hq_cards) ? state.my_hq_cards : [];
    if (hqCards.length) {
      secrets.push(el("div", { id: "my-hq-cards" }, el("strong", { text: t("hq.my_cards") }),
        el("div", { class: "hand" }, ...hqCards.map((card) => el("span", { class: "cardchip",
          text: cardLabel(card, (view.layout || {}).card_symbols) })))));
    }
  }
  return secrets;
}

/* The question the table asks of this seat now and its answers, as big buttons. */
function renderDecision(w) {
  const box = $("decision");
  const decide = w.you ? w.decide : null;
  if (!decide) { box.replaceChildren(); return; }
  box.replaceChildren(el("p", { text: say(decide.ask) }), ...(decide.choices || []).map((c) =>
    el("button", { class: "big", text: say(c.says), onclick: () => send(c.command) })));
}

export function renderPrivate(view) {
  const { state, me } = view;
  const w = waits(state);
  const out = (state.eliminated || []).includes(me) || w.status === "over";
  $("faces-row").hidden = out || !(state.house_rules || {}).physical_dice || !w.you;
  // the table's answers to its step: this seat may trade cards now
  const mayTrade = !out && w.you && w.answers.some((a) => a.by === "command" && a.type === "trade_cards");
  const hand = renderHand(view, out, mayTrade);
  const secrets = secretsOf(view);
  $("secrets").replaceChildren(...secrets);
  // out of the game (or over) with nothing secret to keep: no empty box under the sentence
  $("private").hidden = out && !secrets.length && !hand.length;
  const mine = !out && w.you;
  $("end-attack-btn").hidden = !(mine && ["attack", "allied_attack"].includes(w.step));
  $("end-turn-btn").hidden = !(mine && ["attack", "fortify"].includes(w.step));
  renderDecision(mine ? w : {});
  renderAllHere(view, mine ? w : {});
  renderRoll(view, out, w);
}

/* The phase's last roll (`view.lastRoll`, table.js) right above the Attack button and the
   move-in question, on the phones of the seats it concerns (its two sides, and the seat the
   table waits for: the Allied Army's commander): its dice, each pair's loser marked, and
   what each side lost (issue 32.4, as Strike's controls show theirs). */
function renderRoll(view, out, w) {
  const { me } = view;
  const roll = out ? null : view.lastRoll;
  const b = roll && roll.battle;
  const ours = !!b && (w.you || [b.attacker, b.defender].includes(me));
  $("my-roll").hidden = !ours;
  if (!ours) { $("my-roll").replaceChildren(); return; }
  $("my-roll").replaceChildren(...diceRows(b), el("p", { class: "losses", text: t("me.roll_losses", {
    n: roll.rolls, attacker: who(b.attacker), al: roll.attackerLosses, defender: who(b.defender), dl: roll.defenderLosses }) }));
}

/* "All here": the rest of the armies to place, on the territory this seat tapped last (the
   table's `tap.all`, issue 32.4). */
function renderAllHere(view, w) {
  const all = w.tap && w.tap.all;
  const where = all && view.lastPlaced;
  $("all-here-btn").hidden = !where;
  if (where) $("all-here-btn").textContent = t("me.all_here", { n: all.count, territory: place(where) });
}

/* The phone buzzes (and beeps, once the player has touched the page) when a decision
   becomes theirs; the tab's title says so too. */
let wasMine = false, audio = null;
document.addEventListener("pointerdown", () => {
  try { audio = audio || new (window.AudioContext || window.webkitAudioContext)(); audio.resume(); } catch (e) { audio = null; }
}, { once: true });
export function decisionCue(state) {
  const mine = waits(state).you;
  if (mine && !wasMine) {
    // phones refuse (and log) a buzz before the first touch on the page
    const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (navigator.vibrate && touched) navigator.vibrate([200, 100, 200]);
    if (audio) {
      try {
        const osc = audio.createOscillator(); osc.frequency.value = 880;
        osc.connect(audio.destination); osc.start(); osc.stop(audio.currentTime + 0.15);
      } catch (e) { /* no sound: the buzz and the title still tell */ }
    }
  }
  document.title = mine ? t("title.your_turn") : `riskboard · ${t("nav.me")}`;
  wasMine = mine;
}

/* My view's buttons, once: they act on the aim (`view.pick`) and the state of the moment. */
export function wireMyButtons(view) {
  const count = () => Math.max(1, parseInt($("stop-at").value, 10) || 1);
  $("attack-btn").addEventListener("click", () => {
    const [source, target] = view.pick;
    const aim = aimOf(waits(view.state), view.pick);
    if (!aim) return;
    if (aim.type === "fortify") send({ type: "fortify", source, target, count: count() });
    else send({ type: "attack", source, target, dice: aim.dice });
  });
  $("blitz-btn").addEventListener("click", () => send({ type: "blitz", source: view.pick[0], target: view.pick[1],
    stop_at: count() }));
  $("abort-btn").addEventListener("click", () => { view.pick = []; view.map.mark(view.pick); keepAim(view); view.showOdds(); });
  $("end-attack-btn").addEventListener("click", () => send({ type: "end_attack" }));
  $("end-turn-btn").addEventListener("click", () => send({ type: "end_turn" }));
  $("all-here-btn").addEventListener("click", () => {
    const all = (waits(view.state).tap || {}).all;
    if (all && view.lastPlaced) send(Object.assign({}, all, { territory: view.lastPlaced }));
  });
  $("all-but-one-btn").addEventListener("click", () => {
    const [source, target] = view.pick;
    const aim = aimOf(waits(view.state), view.pick);
    if (aim && aim.type === "fortify") send({ type: "fortify", source, target, count: aim.most });
  });
  $("best-trade-btn").addEventListener("click", () => { const best = bestSet(view); if (best) send({ type: "trade_cards", cards: best }); });
  $("trade-btn").addEventListener("click", () => send({ type: "trade_cards",
    cards: [...document.querySelectorAll("#hand input:checked")].map((i) => i.value) }));
}
