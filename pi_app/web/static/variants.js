/* The board variants on the pages: the third army (Neutral or Allied Army) in its own colour
   with its reserve, Capital HQs (who has picked, never what, before the reveal; markers and
   card holders after), Secret Mission cards, the sets a hand holds, and a tap on a player's
   phone as the table says it means (what the table waits for, and whom: the view's
   `table.waits`, pi_app/table/awaiting.py). Reads only the redacted view. */

import { t, has, colourName as who, territory } from "./words.js";
import { say, waits } from "./saying.js";
import { el, colour } from "./dom.js";
import { seatApi, token } from "./seat.js";

const data = (state) => state.variant_data || {};
const names = (list) => list.map(who).join(", ");

/* A mission card in the page's language: its card id's words, with the printed colour. */
export function missionText(m) {
  if (!m) return "";
  if (typeof m !== "object") return String(m);
  const id = m.id || m.card;
  if (id && has(`mission.${id}`)) return t(`mission.${id}`);
  return m.text || String(id || "");
}

/* Extra column of the players table: Capital's HQ (picked? / where, held by whom). */
export function hqCell(state, p) {
  if (state.variant !== "capital") return null;
  if (!state.hq_revealed) return (state.hq_chosen || []).includes(p) ? t("hq.picked") : t("hq.picking");
  const where = (state.hq || {})[p];
  const holder = (data(state).hq_holders || {})[p];
  if (!where) return "–";
  return `★ ${territory(where)}` + (holder && holder !== p ? ` (${t("hq.held_by", { player: who(holder) })})` : "");
}

/* The third army's own row: {army, name, lands, armies, status}. */
export function thirdArmyRow(state) {
  const army = data(state).army || null;
  if (!army) return null;
  const lands = Object.keys(state.owner).filter((tid) => state.owner[tid] === army);
  const armies = lands.reduce((s, tid) => s + (state.armies[tid] || 0), 0);
  const d = data(state);
  const status = d.destroyed ? t("third.destroyed") : t("third.reserve", { n: d.reserve || 0 });
  return { army, name: who(army), lands: lands.length, armies, status };
}

/* The side card about the variant: missions, HQs, the third army. */
export function info(state) {
  const out = [];
  if (state.variant === "mission") {
    const shown = Object.entries(state.missions_revealed || {});
    if (shown.length) {
      for (const [p, m] of shown) {
        out.push(el("div", { class: "mission-card revealed", "data-mission-of": p },
          el("strong", { text: t("mission.of", { player: who(p) }) }), el("p", { text: missionText(m) })));
      }
      out.push(el("p", { class: "small", text: t("mission.others_secret") }));
    } else {
      out.push(el("p", { text: t("mission.explain") }));
    }
  }
  if (state.variant === "capital") {
    const need = data(state).hq_needed;
    if (!state.hq_revealed) {
      const chosen = state.hq_chosen || [];
      out.push(el("p", { text: t("hq.explain", { picked: names(chosen) || t("hq.nobody") }) }));
    } else {
      const holders = data(state).hq_holders || {};
      out.push(el("ul", { class: "hq-list" }, ...Object.entries(state.hq || {}).map(([p, where]) =>
        el("li", { "data-hq-of": p, text: `★ ${t("list.labelled", { label: who(p), value: territory(where) })}`
          + (holders[p] && holders[p] !== p ? ` (${t("hq.held_by", { player: who(holders[p]) })})` : "") }))));
    }
    if (need != null) out.push(el("p", { class: "small", text: t("hq.to_win", { n: need }) }));
  }
  const row = thirdArmyRow(state);
  if (row) {
    const sw = el("span", { class: "swatch", "aria-hidden": "true" }); sw.style.background = colour(row.army);
    out.push(el("p", { "data-army": row.army }, sw, " " + t("third.summary",
      { army: row.name, lands: row.lands, armies: row.armies, status: row.status })));
    if (row.army === "allied" && data(state).allied_turn) {
      out.push(el("p", { text: t("third.commands", { player: who(data(state).allied_turn.commander) }) }));
    }
  }
  return out;
}

/* What a tap on territory `id` means on this phone now, as the table says it (`waits.tap`,
   pi_app/table/awaiting.py): a command, a hint, or null (then the tap selects a source and
   target for attacking or fortifying). */
export function tap(w, state, me, id) {
  const tapping = w.tap;
  if (!tapping) return null;
  const owner = state.owner[id];
  const on = (command) => ({ command: Object.assign({}, command, { territory: id }) });
  if (tapping.any) return on(tapping.any);
  if (tapping.own && owner === me) return on(tapping.own);
  if (tapping.third && owner === tapping.army) return on(tapping.third);
  if (tapping.hint) return { hint: say(tapping.hint) };
  return null;
}

/* Log lines of the variants' own events (null: not a variant event). */
export function describe(ev) {
  switch (ev.type) {
    case "hq_chosen": return t("log.hq_chosen", { territory: territory(ev.territory) });
    case "hq_revealed": return t("log.hq_revealed", { list: Object.entries(ev.hq || {})
      .map(([p, where]) => `${who(p)} ${territory(where)}`).join(", ") });
    case "hq_cards_set_apart": return t("log.hq_cards_set_apart", {
      list: (ev.cards || []).map((c) => territory(c)).join(", "), deck: ev.deck });
    case "hq_captured": return t("log.hq_captured", { player: who(ev.player), owner: who(ev.hq_of),
                                                      territory: territory(ev.territory) });
    case "mission_dealt": return t("log.mission_dealt", { mission: missionText(ev.mission) });
    case "mission_changed": return t("log.mission_changed", { mission: missionText(ev.mission) });
    case "missions_dealt": return t("log.missions_dealt", { players: names(ev.players || []) });
    case "mission_revealed": return t("log.mission_revealed", { player: who(ev.player), mission: missionText(ev.mission) });
    case "territories_dealt": return t("log.territories_dealt", { list: Object.entries(ev.territories || {})
      .map(([p, ts]) => `${who(p)} ${ts.length}`).join(", ") });
    case "allied_deployed": return t("log.allied_deployed", { n: (ev.territories || []).length });
    case "allied_reinforced": return t("log.allied_reinforced", { n: ev.armies, reserve: ev.reserve });
    case "allied_skipped": return t("log.allied_skipped");
    case "army_destroyed": return t("log.army_destroyed", { army: who(ev.army) });
    default: return null;
  }
}

/* For a board page (the table view, /virtual): whether the player on the move holds a set
   they may trade now, to say it with the board's gesture ("You can trade a set: hold
   Confirm"; a forced trade has its own duty sentence). Hands are secret
   (pi_app/web/SECURITY.md): the public view has only their counts, so a page learns it only
   on a device holding that player's seat token (on a virtual board, the phone of the player
   whose move it is), from the seat's own snapshot (its `table.waits.can_trade`, which the
   table works out from that seat's hand), asked again with each message (`seq`) while the
   table waits for a seat's reinforcements; elsewhere it says nothing (that player's phone
   says it). Returns `offer(state, seq)`, the answer so far; `changed()` is called when it
   changes. */
export function tradeOfferWatch(changed) {
  let offerFor = null, offerAsked = null, offerHeld = false;
  return function offer(state, seq) {
    const w = waits(state);
    const p = w.seats[0];
    const open = w.status === "playing" && w.hand === "seat" && w.step === "reinforce" && !!token();
    if (!open) { offerFor = offerAsked = null; offerHeld = false; return false; }
    if (offerFor !== `${state.turn}:${p}`) { offerFor = `${state.turn}:${p}`; offerHeld = false; }
    const ask = `${offerFor}:${seq}`;
    if (ask !== offerAsked) {
      offerAsked = ask;
      seatApi("GET", "/api/state").then((answer) => {
        if (offerAsked !== ask) return;
        const held = answer.viewer.player === p && !!waits(answer.state).can_trade;
        if (held !== offerHeld) { offerHeld = held; changed(); }
      }, () => { /* no seat here, or not this one: the phone says it */ });
    }
    return offerHeld;
  };
}
