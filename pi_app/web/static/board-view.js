/* The board game's table view and My view (every variant but RISK Strike): the map's owners
   and armies, everyone's status line as the table says it (`table.waits.says.banner`), the
   players' table with the variant's own card, and on My view this seat's own part
   (my-view.js) and its aim (aim.js). `render(view)` with table.js's `view`. */

import { t, colourName as who, continent, variantName } from "./words.js";
import { waits } from "./saying.js";
import { $, el, colour, sayIn, swatch } from "./dom.js";
import { attackPanel, showOdds } from "./aim.js";
import { decisionCue, renderSeatSentence, renderPrivate, seatLine } from "./my-view.js";
import * as V from "./variants.js";

/* The table view says a set the player on the move may trade (V.tradeOfferWatch). */
let shown = null;
const tradeOffer = V.tradeOfferWatch(() => { if (shown && shown.state && shown.state.owner) renderBanner(shown); });

function renderBanner(view) {
  const { state } = view;
  const b = $("banner");
  const w = waits(state);
  b.dataset.phase = state.phase;
  b.dataset.step = w.step;
  b.style.borderColor = colour(w.says.colour);
  if (w.status === "over") {
    const missions = Object.entries(state.missions_revealed || {}).map(([p, m]) =>
      ({ key: "list.labelled", params: { label: { colour: p }, value: V.missionText(m) } }));
    sayIn(b, [...w.says.banner.slice(0, 1), ...missions, ...w.says.banner.slice(1)], w);
    return;
  }
  // the count the board is setting (dice, armies to move in or fortify), as the board shows it
  const count = (state.table || {}).count;
  const extra = [];
  if (view.page === "table" && view.layout && tradeOffer(state, (view.lastMsg || {}).seq)) extra.push({ key: "vboard.can_trade" });
  if (count) extra.push({ key: `vboard.count.${count.what}`, params: { n: count.value } });
  sayIn(b, [...w.says.banner, ...extra], w);
}

function continentsHeld(view, player) {
  return view.layout.continents.filter((c) => c.territories.every((tid) => view.state.owner[tid] === player));
}

function players(view) {
  const { state, me } = view;
  const capital = state.variant === "capital";
  const heads = ["", t("players.player"), t("players.lands"), t("players.armies"), t("players.cards"),
    t("players.continents"), ...(capital ? [t("players.hq")] : [])];
  const th = (h, i) => el("th", { scope: "col", text: h },
    i === 0 ? el("span", { class: "visually-hidden", text: t("players.colour") }) : null);
  const rows = [el("tr", {}, ...heads.map(th))];
  const seats = waits(state).seats;
  for (const p of state.players) {
    const lands = Object.keys(state.owner).filter((tid) => state.owner[tid] === p);
    const armies = lands.reduce((s, tid) => s + (state.armies[tid] || 0), 0);
    const held = continentsHeld(view, p).map((c) => `${continent(c.id)} +${c.bonus}`).join(", ");
    const out = (state.eliminated || []).includes(p);
    const cards = (state.hand_counts || {})[p];
    const row = el("tr", { class: seats.includes(p) ? "current" : "" },
      el("td", {}, swatch(p)), el("td", { text: who(p) + (p === me ? " " + t("players.you") : "")
        + (out ? " — " + t("players.out") : "") }),
      el("td", { text: String(lands.length) }), el("td", { text: String(armies) }),
      el("td", { text: String(typeof cards === "number" ? cards : 0) }),
      el("td", { text: held || "–" }),
      capital ? el("td", { class: "hq", text: V.hqCell(state, p) }) : null);
    row.dataset.player = p;
    if (out) row.classList.add("out");
    rows.push(row);
  }
  const third = V.thirdArmyRow(state);
  if (third) {
    const row = el("tr", { class: "third-army" }, el("td", {}, swatch(third.army)),
      el("td", { text: third.name }), el("td", { text: String(third.lands) }),
      el("td", { text: String(third.armies) }), el("td", { text: "–" }),
      el("td", { text: third.status }), capital ? el("td", { text: "–" }) : null);
    row.dataset.player = third.army;
    rows.push(row);
  }
  $("players").replaceChildren(...rows);
  const info = V.info(state);
  $("variant-card").hidden = !info.length;
  $("variant-title").textContent = variantName(state.variant);
  $("variant-info").replaceChildren(...info);
}

export function render(view) {
  const { state, page, me, map } = view;
  shown = view;
  $("strike-board").hidden = true;
  if (page === "me") {
    $("strike-actions").hidden = true;
    $("hand-title").textContent = t("me.cards");
  }
  renderBanner(view);
  players(view);
  if (page === "me" && me) {
    seatLine(me); renderPrivate(view); attackPanel(view); decisionCue(state);
    renderSeatSentence(state);
    view.sentenceReady();
  }
  if (view.pick.length) showOdds(view); else $("odds").textContent = t("odds.hint");
  const board = waits(state).board;
  if (!view.pick.length) map.mark(board && board.move ? board.move : []);  // what the table must move now
}
