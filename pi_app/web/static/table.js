/* The table view and My view: the live, redacted state as a player reads it. My view opens
   with one sentence saying what this player does now; only the decisions they may take now
   are shown. This module is the page: the live stream and the seat, the first render, the
   log, the last roll and a board fault; what it renders of a game is its kind's (kinds.js:
   board-view.js or strike-kind.js), on the object `view` they share. */

import { drawMap } from "./map.js";
import { t, has, colourName as who, territory as place, continent, errorText } from "./words.js";
import { waits } from "./saying.js";
import { $, el, oncePerFrame } from "./dom.js";
import { api, adoptTokenFromFragment, token } from "./seat.js";
import { ready, lang, onLang } from "./language.js";
import { setConn, stream, seatCheck } from "./live.js";
import { inOrder, onKindChange } from "./kinds.js";
import { shadowAnnouncements } from "./log-lines.js";
import { diceRows, rollOfThePhase } from "./dice-view.js";
import { followBoard, keptAim, learnEdges, onPick, showOdds } from "./aim.js";
import { send, wireMyButtons } from "./my-view.js";

/* What the page shows now, shared with the kind that renders it. */
const view = {
  page: document.body.dataset.page,  // "table" | "me"
  state: null, me: null, layout: null, map: null, lastMsg: null, kind: null,
  pick: [], pickFromBoard: false,  // [source, target] being set up, and whether the board set it
  lastRoll: null,  // the phase's last roll (dice-view.js rollOfThePhase)
  send, sentenceReady, showOdds: () => showOdds(view),
};
let logEntries = [];  // [{seq, ev}] as received

// ----- the log: sentences, grouped by turn, newest on top --------------------------------
const QUIET = new Set(["phase", "refused", "attack_declared", "turn_ended", "selection"]);
function describe(ev) {
  const line = view.kind.describe(ev, { symbols: (view.layout || {}).card_symbols });
  return line || "";
}
function addLog(updates, reset) {
  if (reset) logEntries = [];
  for (const u of updates) {
    for (const ev of u.events) logEntries.push({ seq: u.seq, ev });
    shadowAnnouncements(u.events);
  }
  if (logEntries.length > 600) logEntries = logEntries.slice(-600);
}
function renderLog() {
  const groups = [];
  // lines before the first new game or turn in view: the log was trimmed, so they came earlier
  let current = { title: t("log.earlier"), items: [] };
  const open = (title) => { if (current.items.length) groups.push(current); current = { title, items: [] }; };
  for (const { ev } of logEntries) {
    if (ev.type === "game_started") open(t("log.new_game"));
    if (ev.type === "turn_started") open(t("log.turn", { n: ev.turn || "", player: who(ev.player) }));
    if (QUIET.has(ev.type)) continue;
    const text = describe(ev);
    if (text) current.items.push(text);
  }
  if (current.items.length) groups.push(current);
  const shown = groups.slice(-30).reverse();
  $("log").replaceChildren(...shown.map((g) => el("li", { class: "turn" },
    el("h3", { class: "turn-title", text: g.title }),
    el("ol", {}, ...g.items.slice().reverse().map((text) => el("li", { text }))))));
  if (!shown.length) $("log").replaceChildren(el("li", { class: "small", text: t("log.empty") }));
}

/* The dice on the table now, else the log's last roll (a Strike battle ended, too). */
function lastBattle() {
  const onTable = view.kind.lastDice(view.state);
  if (onTable) return onTable;
  for (let i = logEntries.length - 1; i >= 0; i--) if (logEntries[i].ev.type === "battle") return logEntries[i].ev;
  return null;
}
function renderDice() {
  const b = lastBattle();
  $("dice").replaceChildren(...(b ? diceRows(b) : [el("p", { class: "small", text: t("dice.none") })]));
}

// ----- a board fault, only when it affects play, as one plain sentence ---------------------
let link = null, linkAsked = 0, linkChecks = false;
async function checkLink() {
  if (Date.now() - linkAsked < 15000) return;
  linkAsked = Date.now();
  try { link = (await api("GET", "/api/status")).link || null; } catch (e) { link = null; }
  renderFault();
}
function renderFault() {
  const box = $("fault");
  const mism = ((view.state && view.state.table) || {}).mismatches || [];
  let text = "";
  if (link && ["disconnected", "refused"].includes(link.state)) text = t("fault.link");
  else if (mism.length) text = t("fault.mismatch", { list: mism.map((m) => place(m.territory || m)).join(", ") });
  box.textContent = text;
  box.hidden = !text;
}

// ----- the first render, and every one after it ---------------------------------------------
let firstRendered = false, streamed = false;
/* My view's sentence is this seat's: the first render is done (bench.page_weight waits for
   it; the mark tells tests what the page asked for before it). */
function sentenceReady() {
  const sentence = $("state-sentence");
  if (sentence.dataset.ready) return;
  sentence.dataset.ready = "1";
  showLayout();
  performance.mark("riskboard:first-render");
}
/* My view comes with its layout (the seat's card, the map, the side cards) held back
   (style.css, `html:not([data-drawn])`) while its sentence says it is loading: a slow phone
   then lays the map out once, painted, rather than once blank and again at the first render.
   Shown by the first render, or as soon as there is none to wait for (no seat, a refusal, no
   game); common.js shows it anyway if no render comes. */
function showLayout() { document.documentElement.dataset.drawn = "1"; }
/* `f` once the next frame is painted (a task queued from its animation frame), or after
   half a second where no frame comes (a tab in the background). */
function afterFrame(f) {
  let done = false;
  const once = () => { if (!done) { done = true; f(); } };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 500);
}
function render() {
  const { state, page, me } = view;
  if (!state) return;
  // the first render paints the sentence and the map first; the log and dice (below them)
  // follow once that frame is painted, so a slow phone shows what to do sooner
  if (!streamed) { /* the log and the last roll come with the stream's first message */ }
  else if (firstRendered) { renderLog(); renderDice(); }
  else { firstRendered = true; afterFrame(() => { renderLog(); renderDice(); }); }
  renderFault();
  if (!view.kind.inPlay(state)) {
    $("banner").textContent = t("state.no_game");
    if (page === "me" && me) $("state-sentence").textContent = t("state.no_game");
    showLayout();
    return;
  }
  view.kind.paint(view.map, view.layout, state);
  openOnPlayersArea();
  view.kind.render(view);
}

/* On a phone (a touch screen under 600 px) the whole map is too small to read or touch: the
   first paint opens it zoomed on the player's own area (My view: this seat's; the table view:
   the seat the table waits for), in the continent where they hold the most. A mouse in a
   narrow window still aims at the whole map. */
const PHONE_MAP_PX = 600, PHONE_ZOOM = 2.4;
let focused = false;
function openOnPlayersArea() {
  const { state } = view;
  if (focused || !state.owner) return;
  const whose = view.page === "me" ? view.me : waits(state).says.colour;
  const mine = Object.keys(state.owner).filter((id) => state.owner[id] === whose);
  if (!whose || !mine.length) return;
  focused = true;
  if (!matchMedia("(pointer: coarse)").matches) return;
  let best = [];
  for (const c of view.layout.continents) {
    const here = c.territories.filter((id) => state.owner[id] === whose);
    if (here.length > best.length) best = here;
  }
  // the map's width is read in the frame that draws it, whose layout it then is, rather than
  // laying the page out once more before the first render
  requestAnimationFrame(() => {
    if ($("map").getBoundingClientRect().width < PHONE_MAP_PX) view.map.focus(best, PHONE_ZOOM);
  });
}

let turnMark = null;
function onMessage(msg, kind) {
  if (msg.snapshot && streamed) return;  // the stream has already said more
  if (!msg.snapshot) streamed = true;
  view.lastMsg = msg;
  view.state = msg.state;
  view.kind = kind;
  addLog(msg.updates, msg.reset);
  view.lastRoll = rollOfThePhase(logEntries);  // My view shows it beside the Attack button
  // a new turn (or phase) starts clean: nobody's old selection, odds or refusal (the table
  // says when: `table.waits.mark`)
  const mark = waits(view.state).mark;
  if (mark !== turnMark) {
    // (a reload in the middle of a turn keeps this tab's aim: aim.js keptAim)
    turnMark = mark; view.pick = keptAim(mark); view.pickFromBoard = false; view.lastPlaced = null;
    if (view.map) view.map.mark(view.pick);
    if (view.page === "me") $("me-error").textContent = "";
  }
  followBoard(view);
  if (!msg.snapshot) seqToShow = String(msg.seq);  // the stream's, log and all
  // the first render is drawn at once (a slow phone's first frame holds it); after it, a
  // burst of messages (computer seats moving fast, a phone waking up) is drawn once a frame
  if (!drawn) {
    drawn = true; renderSoon(); renderSoon.now();
    // what comes before that render's frame is painted (the stream's first message, often)
    // waits for it rather than delaying it
    afterFrame(() => { painted = true; if (heldBack) renderSoon(); });
  } else if (painted) renderSoon();
  else heldBack = true;
  // the board's health is first asked once the first frame is painted: it waits for nothing
  if (linkChecks) checkLink(); else { linkChecks = true; afterFrame(checkLink); }
}
const deliver = inOrder(onMessage);
/* The map's continent numbers are the kind's (a bonus, or Strike's domination number). */
onKindChange((kind) => { view.kind = kind; if (view.map) view.map.relabel(); });
/* The body's `data-seq` says which stream message the page shows: written only once the
   render that shows it is done (tests wait for it, then read the page). */
let drawn = false, painted = false, heldBack = false, seqToShow = null;
const renderSoon = oncePerFrame(() => {
  render();
  if (seqToShow !== null) { document.body.dataset.seq = seqToShow; seqToShow = null; }
});

/* The live stream opens at once, beside the words, the map and the seat check (its ticket
   and first message no longer wait for them); what it sends before the page is ready is
   kept and shown then. */
let early = [];
function fromStream(msg) { if (early) early.push(msg); else deliver(msg); }
function lostSeat(err) {
  $("private").hidden = true;
  $("seat-line").hidden = true;  // no longer this phone's colour
  $("no-seat").hidden = false;
  $("no-seat").firstElementChild.textContent = errorText(err) || t("me.lost_seat");
  $("state-sentence").textContent = t("me.lost_seat");
  showLayout();
}
function noSeat(text, held) {
  $("no-seat").hidden = held;
  if (text) $("no-seat").firstElementChild.textContent = text;
  showLayout();
  setConn(t("conn.no_seat"), false);
}

async function start() {
  const { page } = view;
  adoptTokenFromFragment();
  // the seat check travels with the words and the map, not after them (first render sooner)
  const seat = page === "me" && token() ? seatCheck() : null;
  if (seat) seat.catch(() => {});
  if (page !== "me" || token()) stream(page === "me", fromStream, (err) => { if (view.me) lostSeat(err); });
  // the map comes with the page (table.html's data block); asked for only if it did not
  const block = document.getElementById("rb-map");
  const [, layout] = await Promise.all([ready, block ? JSON.parse(block.textContent) : api("GET", "/api/map")]);
  view.layout = layout;
  learnEdges(layout);
  view.map = drawMap($("map"), layout, { onPick: (id) => onPick(view, id), t, names: place, ownerName: who, lang: lang(),
    abbr: (id) => (has(`abbr.${id}`) ? t(`abbr.${id}`) : id), continentName: (id) => continent(id),
    continentBadge: (id, bonus) => (view.kind ? view.kind.continentBadge(layout, id, bonus) : `+${bonus}`) });
  onLang(() => { view.map.relabel(); render(); });
  $("odds").textContent = t("odds.hint");
  let snapshot = null;
  if (page === "me") {
    if (!token()) { $("state-sentence").textContent = t("me.no_seat"); noSeat(null, false); return; }
    try { ({ player: view.me, state: snapshot } = await seat); }
    catch (e) {
      // a seat held by another phone is not "no seat yet": the sentence says what to do
      $("state-sentence").textContent = e.code === "seat_held" ? errorText(e) : t("me.no_seat");
      noSeat(errorText(e), e.code === "seat_held");
      return;
    }
    wireMyButtons(view);
  }
  const kept = early;
  early = null;
  if (kept.length) deliver(mergeKept(kept));
  // the stream has not spoken yet: the first render is drawn from the seat's snapshot; the
  // stream's first message brings the log and whatever changed since
  else if (snapshot) deliver({ seq: snapshot.seq, reset: false, updates: [], state: snapshot, snapshot: true });
}
/* Messages that came before the page was ready, as one: the newest state with the updates
   since the last reset among them. */
function mergeKept(kept) {
  let from = 0;
  kept.forEach((m, i) => { if (m.reset) from = i; });
  const since = kept.slice(from);
  return Object.assign({}, kept[kept.length - 1], { reset: since[0].reset,
    updates: since.flatMap((m) => m.updates || []) });
}
start();
