/* RISK Strike's kind, in the face kinds.js gives each kind: its log lines, dice and map (each
   continent in its coin holder's colour), and its render of the table view and My view (the
   tactics hand and one control per command the game accepts: strike-controls.js). */

import { t, has } from "./words.js";
import { waits } from "./saying.js";
import { $, colour, sayIn } from "./dom.js";
import { boardLine } from "./log-lines.js";
import { decisionCue, renderSeatSentence, seatLine } from "./my-view.js";
import * as S from "./strike.js";
import * as C from "./strike-controls.js";

export function describe(ev, opts) {
  const own = S.describe(ev);
  return own !== null ? own : boardLine(ev, opts);
}
export const lastDice = S.lastDice;
export const continentBadge = (layout, id) => S.continentBadge(layout, id);
export function paint(map, layout, state) { map.paint(S.ownerByTerritory(layout, state), {}); }
export const inPlay = (state) => !!state.players;
export const keysHelp = "vboard.keys_strike";
/* /virtual's line is the table's alone (it names whom it waits for). */
export const namesDecider = false;
/* A code the Strike board gives with its own meaning (continents, not territories). */
export const refusalCode = (code) => (has(`error.strike.${code}`) ? `strike.${code}` : code);

export function render(view) {
  const { state, page, me, layout, send } = view;
  const b = $("banner");
  const w = waits(state);
  b.style.borderColor = colour(w.says.colour);
  sayIn(b, w.says.banner, w);
  b.dataset.phase = state.phase;
  b.dataset.step = w.step;
  $("players").replaceChildren(...S.playersRows(state, me, layout, w));
  $("strike-board").hidden = false;
  $("variant-card").hidden = true;
  $("odds").textContent = t("strike.map_hint");
  $("strike-info").replaceChildren(...S.info(state, layout));
  if (page !== "me" || !me) return;
  $("private").hidden = false;
  seatLine(me);
  renderSeatSentence(state);
  view.sentenceReady();
  for (const id of ["end-attack-btn", "end-turn-btn", "trade-btn", "attack-panel", "my-roll"]) $(id).hidden = true;
  $("decision").replaceChildren();
  $("faces-row").hidden = !(state.house_rules || {}).physical_dice || !w.you;
  $("hand-title").textContent = t("strike.my_tactics");
  $("hand-title").hidden = false;
  $("hand").replaceChildren(...C.handChips(state));
  $("secrets").replaceChildren(...C.passingChoice(state, me, send), ...C.spyReport(state));
  const box = $("strike-actions");
  const controls = C.actions(state, layout, me, send);
  box.hidden = !controls.length;
  box.replaceChildren(...controls);
  decisionCue(state);
}
