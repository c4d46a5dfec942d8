/* The aim on the table view and My view: the source and target a player taps (or the board
   sets up: its selection), their odds once per (source, target, armies), never an error on
   the page, and on My view the attack (or fortify) panel for them. A tap that means a
   command on this phone now (`table.waits.tap`) is sent instead. */

import { t, territory as place } from "./words.js";
import { $ } from "./dom.js";
import { api } from "./seat.js";
import { say, waits } from "./saying.js";
import * as V from "./variants.js";
import { aimOf } from "./aims.js";

let neighbours = {};
/* The map's adjacency, from its layout. */
export function learnEdges(layout) {
  neighbours = {};
  for (const tile of layout.territories) neighbours[tile.id] = new Set();
  for (const [a, b] of layout.edges) { neighbours[a].add(b); neighbours[b].add(a); }
}
function attackable(state, a, b) {
  return state && state.owner && (neighbours[a] || new Set()).has(b)
    && state.owner[a] && state.owner[b] && state.owner[a] !== state.owner[b];
}

const oddsCache = new Map();
export async function showOdds(view) {
  const { state, pick } = view;
  const box = $("odds");
  // a tap on a phone that is not to move only shows the odds: it says so
  const only = view.page === "me" && view.me && state && state.owner && !waits(state).you ? t("odds.only") + " " : "";
  if (pick.length < 2) {
    box.textContent = pick.length ? only + t("odds.pick_target", { from: place(pick[0]) }) : t("odds.hint");
    if (view.page === "me") $("attack-panel").hidden = true;
    return;
  }
  const [src, tgt] = pick;
  attackPanel(view);
  if (!attackable(state, src, tgt)) {
    // why this seat cannot attack now, as the table says it (`waits.no_attack`), else the pair's
    const w = waits(state);
    const no = view.page === "me" ? w.no_attack : null;
    box.dataset.code = no ? no.code : "";
    // a pair the table lets this seat fortify between is a move, not a battle
    const move = w.step === "fortify" || (view.page === "me" && aimOf(w, pick));
    box.textContent = no ? say(no.says) : move ? "" : t("odds.no_battle", { from: place(src), to: place(tgt) });
    return;
  }
  const armies = state.armies || {};
  const key = `${src}>${tgt}:${armies[src]}:${armies[tgt]}`;
  if (!oddsCache.has(key)) {
    const asked = api("GET", `/api/odds?source=${encodeURIComponent(src)}&target=${encodeURIComponent(tgt)}`);
    oddsCache.set(key, asked);
    asked.catch(() => setTimeout(() => oddsCache.delete(key), 30000));  // ask again later, quietly
  }
  try {
    const o = await oddsCache.get(key);
    if (view.pick[0] !== src || view.pick[1] !== tgt) return;
    box.textContent = only + t("odds.line", { from: place(o.source), a: o.attackers, to: place(o.target), d: o.defenders,
      p: (o.p_conquer * 100).toFixed(0), al: o.expected_attacker_losses.toFixed(1), dl: o.expected_defender_losses.toFixed(1) });
  } catch (e) {
    box.textContent = t("odds.unavailable");
  }
}

/* My view's panel for an aim this seat may act on now, as the table allows it: attack (or
   command the Allied Army's attack) from a source at a target, or fortify between two of
   its own. */
export function attackPanel(view) {
  if (view.page !== "me") return;
  const { state, pick } = view;
  const w = waits(state);
  const aim = aimOf(w, pick);
  $("attack-panel").hidden = !aim;
  if (!aim) return;
  const fortify = aim.type === "fortify";
  const what = fortify ? t("me.fortify_title") : w.step === "allied_attack" ? t("me.allied_attack_title") : t("me.attack_title");
  $("attack-title").textContent = t("list.labelled", { label: what, value: `${place(pick[0])} → ${place(pick[1])}` });
  $("attack-btn").textContent = fortify ? t("me.move") : t("me.attack");
  $("blitz-btn").hidden = fortify || !aim.blitz;
  // fortify: every army but the one that must stay behind, in one tap (issue 32.4)
  $("all-but-one-btn").hidden = !fortify || aim.most < 2;
  $("all-but-one-btn").textContent = t("me.all_but_one", { n: fortify ? aim.most : 0 });
  $("n-label").textContent = fortify ? t("me.armies_to_move") : t("me.blitz_stop");
  $("stop-label").hidden = !fortify && $("blitz-btn").hidden;
}

/* The aim outlives a reload of the page while the turn it was made in goes on (issue 32.4):
   kept for this tab with the table's `mark`, and given back only under the same mark. */
const AIM_KEY = "riskboard.aim";
export function keepAim(view) {
  try {
    sessionStorage.setItem(AIM_KEY, JSON.stringify({ mark: waits(view.state).mark, pick: view.pick }));
  } catch (e) { /* no storage: a reload aims afresh */ }
}
export function keptAim(mark) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(AIM_KEY) || "null");
    return kept && mark && kept.mark === mark && Array.isArray(kept.pick) ? kept.pick.slice(0, 2) : [];
  } catch (e) { return []; }
}

/* A tap on territory `id`: on My view the command it means now, or its hint; else (and on
   the table view) it aims: a source, then a target. */
export function onPick(view, id) {
  const { state } = view;
  if (view.page === "me" && state && state.owner) {
    $("me-error").textContent = "";
    const intent = V.tap(waits(state), state, view.me, id);
    if (intent && intent.command) {
      if (intent.command.type === "place") view.lastPlaced = id;  // where "all here" places
      view.send(intent.command);
      return;
    }
    if (intent && intent.hint) { $("me-error").textContent = intent.hint; return; }
  }
  view.pick = view.pick.length === 1 && view.pick[0] !== id ? [view.pick[0], id] : [id];
  view.pickFromBoard = false;
  view.map.mark(view.pick);
  keepAim(view);
  showOdds(view);
}

/* The attack being set up on the board itself (`table.selection`) is this page's aim too,
   until the board lets it go. */
export function followBoard(view) {
  const { state } = view;
  if (!state || !state.owner) return;
  const sel = (state.table || {}).selection || {};
  if (sel.source && sel.target && (sel.source !== view.pick[0] || sel.target !== view.pick[1])) {
    view.pick = [sel.source, sel.target];
    view.pickFromBoard = true;
    view.map.mark(view.pick);
  } else if (view.pickFromBoard && !sel.source) {
    view.pick = []; view.pickFromBoard = false; view.map.mark(view.pick);
  }
}
