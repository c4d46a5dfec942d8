/* The table view and My view: the live, redacted state as a player reads it. My view opens with one sentence saying what this
   player does now; only the decisions they may take now are shown. Every word via RB.t. */

import { drawMap } from "./map.js";
import * as V from "./variants.js";

/* RISK Strike's page code (strike.js) is fetched only when the table plays Strike: a classic
   game's first render neither loads nor compiles it. Messages wait for it in order. */
let S = null;
let strikeLoading = null;
const strikeState = (s) => !!(s && s.table && s.table.kind === "strike");
function deliver(msg) {
  if (!S && !strikeLoading && strikeState(msg.state)) {
    strikeLoading = import("./strike.js").then((module) => { S = module; });
  }
  if (!strikeLoading) { onMessage(msg); return; }
  const queued = strikeLoading = strikeLoading.then(() => onMessage(msg))
    .catch((e) => { console.error(e); })
    .finally(() => { if (strikeLoading === queued) strikeLoading = null; });
}

const page = document.body.dataset.page;          // "table" | "me"
const $ = (id) => document.getElementById(id);
const t = (k, p) => RB.t(k, p);
const who = (p) => RB.colourName(p);
const place = (id) => RB.territory(id);
let layout = null, map = null, state = null, me = null, lastMsg = null;
let pick = [];                                      // [source, target] being set up
let logEntries = [];                                // [{seq, ev}] as received
const eliminatedBy = {};
let neighbours = {};

function continentsHeld(player) {
  return layout.continents.filter((c) => c.territories.every((tid) => state.owner[tid] === player));
}
function handCount(p) {
  const n = (state.hand_counts || {})[p];
  return typeof n === "number" ? n : 0;
}
function cardLabel(card) {
  const sym = (layout.card_symbols || {})[card];
  if (sym === "wild" || String(card).startsWith("wild")) return t("card.wild");
  return `${place(card)}${sym ? " · " + t(`card.${sym}`) : ""}`;
}
/* What the table waits for (`table.waits`, pi_app/table/awaiting.py): the page says it and
   decides nothing of it. */
function waits() { return RB.waits(state); }
/* The game's kind as the table names it (`table.kind`, "board" or "strike"), not a variant's name. */
function isStrike() { return strikeState(state); }

// ----- the log: sentences, grouped by turn, newest on top --------------------------------
const QUIET = new Set(["phase", "refused", "attack_declared", "turn_ended", "selection"]);
function describe(ev) {
  const own = isStrike() ? S.describe(ev) : V.describe(ev);
  if (own !== null) return own;
  const p = who(ev.player || ev.attacker || "");
  switch (ev.type) {
    case "battle": return t("log.battle", { attacker: who(ev.attacker), to: place(ev.to), from: place(ev.from),
      a: ev.attack_dice.length, d: ev.defence_dice.length, al: ev.attacker_losses, dl: ev.defender_losses });
    case "conquered": return t("log.conquered", { player: p, to: place(ev.to), defender: who(ev.defender) });
    case "claimed": return t("log.claimed", { player: p, territory: place(ev.territory) });
    case "moved_in": return t("log.moved_in", { player: p, n: ev.count, to: place(ev.to) });
    case "blitz_stopped": return t("log.blitz_stopped", { player: who(ev.attacker), n: ev.armies, from: place(ev.from) });
    case "placed": return t("log.placed", { player: p, n: ev.count || 1, territory: place(ev.territory) });
    case "game_won": return t("log.game_won", { player: who(ev.winner) });
    case "eliminated": return ev.by ? t("log.eliminated_by", { player: who(ev.player), by: who(ev.by) })
      : t("log.eliminated", { player: who(ev.player) });
    case "card_drawn": return ev.card ? t("log.card_drawn_you", { card: cardLabel(ev.card) }) : t("log.card_drawn", { player: p });
    case "game_started": return t("log.game_started", { variant: V.variantName(ev.variant),
      players: (ev.players || []).map(who).join(", ") });
    case "first_player_roll": return t("log.first_player_roll", { rolls: Object.entries(ev.rolls || {})
      .map(([x, face]) => `${who(x)} ${face}`).join(", ") });
    case "deck_shuffled": return t("log.deck_shuffled");
    case "setup_started": return t("log.setup_started", { player: who(ev.first_player), n: ev.starting_armies });
    case "cards_traded": return ev.armies ? t("log.cards_traded_for", { player: p, n: ev.armies }) : t("log.cards_traded", { player: p });
    case "undone": return t(ev.by === "board" ? "log.undone_board" : "log.undone", { n: (ev.seqs || []).length || 1 });
    case "cards_taken": return t("log.cards_taken", { player: p, source: who(ev.source), n: ev.count || (ev.cards || []).length });
    case "fortified": return t("log.fortified", { player: p, n: ev.count, to: place(ev.to), from: place(ev.from) });
    case "territory_bonus": return t("log.territory_bonus", { player: p, territory: place(ev.territory) });
    case "turn_started": return ev.reinforcements ? t("log.turn_started", { player: p, n: ev.reinforcements }) : "";
    case "computer_move": return ev.shadowed ? "" : V.computerLine(ev);
    default: return "";
  }
}
/* A computer's step is announced and played in one update: when a line of the update already
   says what it did (placed, claimed, the battle, the move), the announcement is not said
   again, so the log shows each computer move once. */
const RESULT_OF = { place: "placed", place_neutral: "placed", claim: "claimed", attack: "battle",
  blitz: "battle", fortify: "fortified", move_in: "moved_in", trade_cards: "cards_traded",
  choose_defence: "battle" };
function shadowAnnouncements(events) {
  events.forEach((ev, i) => {
    if (ev.type !== "computer_move") return;
    const result = RESULT_OF[(ev.command || {}).type];
    if (result && events.slice(i + 1).some((e) => e.type === result)) ev.shadowed = true;
  });
}
function addLog(updates, reset) {
  if (reset) logEntries = [];
  for (const u of updates) {
    for (const ev of u.events) {
      logEntries.push({ seq: u.seq, ev });
      if (ev.type === "eliminated" && ev.by) eliminatedBy[ev.player] = ev.by;
    }
    shadowAnnouncements(u.events);
  }
  if (logEntries.length > 600) logEntries = logEntries.slice(-600);
}
function renderLog() {
  if (!streamed) return;  // not yet received: not "nothing happened"
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
  $("log").replaceChildren(...shown.map((g) => RB.el("li", { class: "turn" },
    RB.el("h3", { class: "turn-title", text: g.title }),
    RB.el("ol", {}, ...g.items.slice().reverse().map((text) => RB.el("li", { text }))))));
  if (!shown.length) $("log").replaceChildren(RB.el("li", { class: "small", text: t("log.empty") }));
}

// ----- dice as the table's dice: attack red, defence blue, each pair's loser marked --------
function lastBattle() {
  const strike = isStrike() && S.lastDice(state);
  if (strike) return strike;  // else the last roll of the log (a Strike battle ended, too)
  for (let i = logEntries.length - 1; i >= 0; i--) if (logEntries[i].ev.type === "battle") return logEntries[i].ev;
  return null;
}
function renderDice() {
  const box = $("dice");
  const b = lastBattle();
  if (!b && !streamed) return;  // the log that holds the last roll is not here yet
  if (!b) { box.replaceChildren(RB.el("p", { class: "small", text: t("dice.none") })); return; }
  const a = [...b.attack_dice].sort((x, y) => y - x), d = [...b.defence_dice].sort((x, y) => y - x);
  const pairs = Math.min(a.length, d.length);
  const die = (face, side, lost) => RB.el("span", { class: `die ${side}${lost ? " lost" : ""}`, role: "img",
    "aria-label": t(lost ? "dice.face_lost" : "dice.face", { face }) }, String(face));
  const row = (label, faces, side, lostAt) => RB.el("div", { class: "dice-row" },
    RB.el("span", { class: "who", text: label }), ...faces.map((f, i) => die(f, side, i < pairs && lostAt(i))));
  box.replaceChildren(
    row(t("dice.attack", { player: who(b.attacker) }), a, "attack", (i) => a[i] <= d[i]),
    row(t("dice.defence", { player: who(b.defender) }), d, "defence", (i) => a[i] > d[i]));
}

// ----- everyone's status line and My view's sentence, as the table says them ----------------
function renderBanner() {
  const b = $("banner");
  const w = waits();
  b.dataset.phase = state.phase;
  b.dataset.step = w.step;
  b.style.borderColor = RB.colour(w.says.colour || state.current_player);
  if (w.status === "over") {
    const missions = Object.entries(state.missions_revealed || {}).map(([p, m]) =>
      ({ key: "list.labelled", params: { label: { colour: p }, value: V.missionText(m) } }));
    RB.sayIn(b, [...w.says.banner.slice(0, 1), ...missions, ...w.says.banner.slice(1)], w);
    return;
  }
  // the count the board is setting (dice, armies to move in or fortify), as the board shows it
  const count = (state.table || {}).count;
  const extra = [];
  if (page === "table" && layout && tradeOffer(state, (lastMsg || {}).seq)) extra.push({ key: "vboard.can_trade" });
  if (count) extra.push({ key: `vboard.count.${count.what}`, params: { n: count.value } });
  RB.sayIn(b, [...w.says.banner, ...extra], w);
}

/* The table view says a set the player on the move may trade (V.tradeOfferWatch). */
const tradeOffer = V.tradeOfferWatch(() => { if (state && state.owner && !isStrike()) renderBanner(); });

/* The sentences that tell this player what to do now, or whom the table waits for. */
function renderMySentence() {
  const w = waits();
  if (!state.players || w.status === "none") { $("state-sentence").textContent = t("state.no_game"); return; }
  RB.sayIn($("state-sentence"), w.says.seat || [], w, " ");
}
function renderSeatLine() {
  if (page !== "me" || !me) return;
  $("seat-line").hidden = false;
  $("seat-swatch").style.background = RB.colour(me);
  $("seat-name").textContent = t("me.you_are", { colour: who(me) });
  $("me-name").textContent = who(me);
}

function renderPlayers() {
  const capital = state.variant === "capital";
  const heads = ["", t("players.player"), t("players.lands"), t("players.armies"), t("players.cards"),
    t("players.continents"), ...(capital ? [t("players.hq")] : [])];
  const th = (h, i) => RB.el("th", { scope: "col", text: h },
    i === 0 ? RB.el("span", { class: "visually-hidden", text: t("players.colour") }) : null);
  const rows = [RB.el("tr", {}, ...heads.map(th))];
  for (const p of state.players) {
    const lands = Object.keys(state.owner).filter((tid) => state.owner[tid] === p);
    const armies = lands.reduce((s, tid) => s + (state.armies[tid] || 0), 0);
    const held = continentsHeld(p).map((c) => `${RB.continent(c.id)} +${c.bonus}`).join(", ");
    const sw = RB.el("span", { class: "swatch", "aria-hidden": "true" }); sw.style.background = RB.colour(p);
    const out = (state.eliminated || []).includes(p);
    const row = RB.el("tr", { class: waits().seats.includes(p) ? "current" : "" },
      RB.el("td", {}, sw), RB.el("td", { text: who(p) + (p === me ? " " + t("players.you") : "")
        + (out ? " — " + t("players.out") : "") }),
      RB.el("td", { text: String(lands.length) }), RB.el("td", { text: String(armies) }),
      RB.el("td", { text: String(handCount(p)) }),
      RB.el("td", { text: held || "–" }),
      capital ? RB.el("td", { class: "hq", text: V.hqCell(state, p) }) : null);
    row.dataset.player = p;
    if (out) row.classList.add("out");
    rows.push(row);
  }
  const third = V.thirdArmyRow(state);
  if (third) {
    const sw = RB.el("span", { class: "swatch", "aria-hidden": "true" }); sw.style.background = RB.colour(third.army);
    const row = RB.el("tr", { class: "third-army" }, RB.el("td", {}, sw),
      RB.el("td", { text: third.name }), RB.el("td", { text: String(third.lands) }),
      RB.el("td", { text: String(third.armies) }), RB.el("td", { text: "–" }),
      RB.el("td", { text: third.status }), capital ? RB.el("td", { text: "–" }) : null);
    row.dataset.player = third.army;
    rows.push(row);
  }
  $("players").replaceChildren(...rows);
  const info = V.info(state);
  $("variant-card").hidden = !info.length;
  $("variant-title").textContent = V.variantName(state.variant);
  $("variant-info").replaceChildren(...info);
}

// ----- a board fault, only when it affects play, as one plain sentence ---------------------
let link = null, linkAsked = 0, linkChecks = false;
async function checkLink() {
  if (Date.now() - linkAsked < 15000) return;
  linkAsked = Date.now();
  try { link = (await RB.api("GET", "/api/status")).link || null; } catch (e) { link = null; }
  renderFault();
}
function renderFault() {
  const box = $("fault");
  const mism = ((state && state.table) || {}).mismatches || [];
  let text = "";
  if (link && ["disconnected", "refused"].includes(link.state)) text = t("fault.link");
  else if (mism.length) text = t("fault.mismatch", { list: mism.map((m) => place(m.territory || m)).join(", ") });
  box.textContent = text;
  box.hidden = !text;
}

// ----- odds: once per (source, target, armies), never an error on the page ----------------
const oddsCache = new Map();
function attackable(a, b) {
  return state && state.owner && (neighbours[a] || new Set()).has(b)
    && state.owner[a] && state.owner[b] && state.owner[a] !== state.owner[b];
}
async function showOdds() {
  const box = $("odds");
  // a tap on a phone that is not to move only shows the odds: it says so
  const only = page === "me" && me && state && state.owner && !isStrike() && !myMove() ? t("odds.only") + " " : "";
  if (pick.length < 2) {
    box.textContent = pick.length ? only + t("odds.pick_target", { from: place(pick[0]) }) : t("odds.hint");
    if (page === "me") $("attack-panel").hidden = true;
    return;
  }
  const [src, tgt] = pick;
  renderAttackPanel();
  if (!attackable(src, tgt) || isStrike()) {
    // why this seat cannot attack now, as the table says it (`waits.no_attack`), else the pair's
    const no = page === "me" && !isStrike() ? waits().no_attack : null;
    box.dataset.code = no ? no.code : "";
    box.textContent = no ? RB.say(no.says)
      : state && state.phase === "fortify" ? "" : t("odds.no_battle", { from: place(src), to: place(tgt) });
    return;
  }
  const armies = state.armies || {};
  const key = `${src}>${tgt}:${armies[src]}:${armies[tgt]}`;
  if (!oddsCache.has(key)) {
    const asked = RB.api("GET", `/api/odds?source=${encodeURIComponent(src)}&target=${encodeURIComponent(tgt)}`);
    oddsCache.set(key, asked);
    asked.catch(() => setTimeout(() => oddsCache.delete(key), 30000));  // ask again later, quietly
  }
  try {
    const o = await oddsCache.get(key);
    if (pick[0] !== src || pick[1] !== tgt) return;
    box.textContent = only + t("odds.line", { from: place(o.source), a: o.attackers, to: place(o.target), d: o.defenders,
      p: (o.p_conquer * 100).toFixed(0), al: o.expected_attacker_losses.toFixed(1), dl: o.expected_defender_losses.toFixed(1) });
  } catch (e) {
    box.textContent = t("odds.unavailable");
  }
}
/* Whether this phone's player may act on the board now (the table waits for this seat). */
function myMove() { return waits().you; }
function renderAttackPanel() {
  if (page !== "me") return;
  const w = waits();
  const mine = w.you && ["attack", "fortify"].includes(w.step);
  const phase = state.phase;
  const d = state.variant_data || {};
  const commanding = w.you && w.step === "allied_attack";
  const myArmy = phase === "allied" ? d.army : me;
  const ok = pick.length === 2 && (mine || commanding) && state.owner[pick[0]] === myArmy
    && ((phase === "attack" || commanding) ? attackable(pick[0], pick[1])
      : phase === "fortify" && state.owner[pick[1]] === me && pick[0] !== pick[1]);
  $("attack-panel").hidden = !ok;
  if (!ok) return;
  const fortify = phase === "fortify";
  const what = fortify ? t("me.fortify_title") : commanding ? t("me.allied_attack_title") : t("me.attack_title");
  $("attack-title").textContent = t("list.labelled", { label: what, value: `${place(pick[0])} → ${place(pick[1])}` });
  $("attack-btn").textContent = fortify ? t("me.move") : t("me.attack");
  $("blitz-btn").hidden = fortify || (state.house_rules || {}).physical_dice;
  $("n-label").textContent = fortify ? t("me.armies_to_move") : t("me.blitz_stop");
  $("stop-label").hidden = !fortify && $("blitz-btn").hidden;
}

function onPick(id) {
  if (page === "me" && state && state.owner && !isStrike()) {
    $("me-error").textContent = "";
    const intent = V.tap(waits(), state, me, id);
    if (intent && intent.command) { send(intent.command); return; }
    if (intent && intent.hint) { $("me-error").textContent = intent.hint; return; }
  }
  if (pick.length === 1 && pick[0] !== id) pick = [pick[0], id]; else pick = [id];
  pickFromBoard = false;
  map.mark(pick);
  showOdds();
}

// ----- my view ---------------------------------------------------------------------------
async function send(command) {
  $("me-error").textContent = "";
  const typed = $("faces-row").hidden ? [] : RB.faces($("faces").value);
  if (typed.length) command = Object.assign({}, command, { faces: typed });
  // a tap faster than the table takes them waits its turn quietly, never an error
  for (let attempt = 0; ; attempt++) {
    try {
      await RB.seatApi("POST", "/api/command", { command });
      if (typed.length) $("faces").value = "";
      return;
    } catch (e) {
      if (e.code === "rate_limited" && attempt < 4) { await new Promise((r) => setTimeout(r, 700 * (attempt + 1))); continue; }
      $("me-error").textContent = RB.errorText(e);
      return;
    }
  }
}
function bigButton(label, command) {
  return RB.el("button", { class: "big", text: label, onclick: () => send(command) });
}
function renderPrivate() {
  const w = waits();
  const out = (state.eliminated || []).includes(me) || w.status === "over";
  $("faces-row").hidden = out || !(state.house_rules || {}).physical_dice || !w.you;
  const hand = Array.isArray(state.my_hand) ? state.my_hand : [];
  // the render keeps which cards were ticked (and never steals focus from a ticked box)
  const chosen = new Set([...document.querySelectorAll("#hand input:checked")].map((i) => i.value));
  const focused = document.activeElement && document.activeElement.closest("#hand")
    ? document.activeElement.value : null;
  const pend = state.pending;
  // the table's answers to its step: this seat may trade cards now
  const mayTrade = !out && w.you && w.answers.some((a) => a.by === "command" && a.type === "trade_cards");
  $("hand-title").hidden = out && !hand.length;
  $("hand").replaceChildren(...(hand.length ? hand.map((card) => {
    const box = RB.el("input", { type: "checkbox", value: card });
    box.checked = chosen.has(card);
    box.hidden = !mayTrade;
    return RB.el("label", { class: "cardchip" }, box, " " + cardLabel(card));
  }) : (out ? [] : [RB.el("span", { class: "small", text: t("me.no_cards") })])));
  if (focused) { const f = document.querySelector(`#hand input[value="${CSS.escape(focused)}"]`); if (f) f.focus(); }
  const update = () => {
    $("trade-btn").hidden = !mayTrade || document.querySelectorAll("#hand input:checked").length !== 3;
  };
  $("hand").querySelectorAll("input").forEach((i) => i.addEventListener("change", update));
  update();
  // a set that can be traded is announced: one button trades the best one
  const best = mayTrade ? bestSet() : null;
  $("best-trade-btn").hidden = !best;
  if (best) $("best-trade-btn").textContent = t("me.trade_best", { cards: best.map(cardLabel).join(t("list.separator")) });
  const secrets = [];
  const mission = state.my_mission;
  if (mission) {
    const note = mission.fallback ? t("mission.fallback") : "";
    secrets.push(RB.el("div", { class: "mission-card", id: "my-mission" },
      RB.el("strong", { text: t("mission.mine") }), RB.el("p", { text: V.missionText(mission) }),
      note ? RB.el("p", { class: "small", text: note }) : null));
  }
  if (state.variant === "capital") {
    const hq = state.my_hq || (state.hq || {})[me];
    const open = state.phase === "hq_pick";
    secrets.push(RB.el("p", { id: "my-hq" }, RB.el("strong", { text: t("hq.mine") + " " }),
      hq ? place(String(hq)) : t("hq.not_picked"),
      open ? RB.el("span", { class: "small", text: " · " + (hq ? t("hq.change") : t("hq.tap")) }) : null));
    // the HQ cards this player holds (their own, and any captured), never part of the hand
    const hqCards = Array.isArray(state.my_hq_cards) ? state.my_hq_cards : [];
    if (hqCards.length) {
      secrets.push(RB.el("div", { id: "my-hq-cards" }, RB.el("strong", { text: t("hq.my_cards") }),
        RB.el("div", { class: "hand" }, ...hqCards.map((card) => RB.el("span", { class: "cardchip", text: cardLabel(card) })))));
    }
  }
  $("secrets").replaceChildren(...secrets);
  // out of the game (or over) with nothing secret to keep: no empty box under the sentence
  $("private").hidden = out && !secrets.length && !hand.length;
  const mine = !out && w.you;
  $("end-attack-btn").hidden = !(mine && ["attack", "allied_attack"].includes(w.step));
  $("end-turn-btn").hidden = !(mine && ["attack", "fortify"].includes(w.step));
  const box = $("decision");
  if (mine && pend) {
    const ask = RB.el("p", { text: V.question(state, me, pend, w) });
    if (pend.kind === "defend") {
      const max = pend.max_dice || 2;
      box.replaceChildren(ask, ...Array.from({ length: max }, (_, i) =>
        bigButton(t("me.dice_n", { n: i + 1 }), { type: "choose_defence", dice: i + 1 })));
    } else if (pend.kind === "move_in") {
      const lo = pend.min || 1, hi = pend.max || lo;
      box.replaceChildren(ask, ...[...new Set([lo, Math.round((lo + hi) / 2), hi])].map((n) =>
        bigButton(t("me.move_n", { n }), { type: "move_in", count: n })));
    } else box.replaceChildren(ask);
  } else box.replaceChildren();
  renderAttackPanel();
}
/* The set of this player's hand a long Confirm on the board trades (pi_app/table/gestures.py
   `best_set`, GESTURES.md), so the button and the board trade the same one: one showing a
   territory this player owns first (its +2 armies), then the fewest wilds, then hand order;
   null if the hand holds no set (the sets themselves: V.tradeableSets). */
function bestSet() {
  const hand = Array.isArray(state.my_hand) ? state.my_hand : [];
  if (hand.length < 3 || !layout) return null;
  const symbols = layout.card_symbols || {};
  const wild = (c) => String(c).startsWith("wild") || symbols[c] === "wild";
  /* the +2 of a card showing an owned territory counts while this turn can still give it */
  const bonus = !((state.house_rules || {}).territory_bonus_once_per_turn && state.territory_bonus_used);
  const rank = (cards) => [bonus && cards.some((c) => state.owner[c] === me) ? 0 : 1,
    cards.filter(wild).length, ...cards.map((c) => hand.indexOf(c)).sort((a, b) => a - b)];
  const before = (a, b) => { for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i]; return false; };
  let best = null, bestRank = null;
  for (const cards of V.tradeableSets(hand, symbols)) {
    const r = rank(cards);
    if (!best || before(r, bestRank)) { best = cards; bestRank = r; }
  }
  return best && [...best].sort((a, b) => hand.indexOf(a) - hand.indexOf(b));
}

/* The phone buzzes (and beeps, once the player has touched the page) when a decision
   becomes theirs; the tab's title says so too. */
let wasMine = false, audio = null;
document.addEventListener("pointerdown", () => {
  try { audio = audio || new (window.AudioContext || window.webkitAudioContext)(); audio.resume(); } catch (e) { audio = null; }
}, { once: true });
function decisionCue() {
  const mine = waits().you;
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

function wireMyButtons() {
  $("attack-btn").addEventListener("click", () => {
    if (state.phase === "fortify") {
      send({ type: "fortify", source: pick[0], target: pick[1],
             count: Math.max(1, parseInt($("stop-at").value, 10) || 1) });
    } else {
      send({ type: "attack", source: pick[0], target: pick[1],
             dice: Math.max(1, Math.min(3, (state.armies[pick[0]] || 1) - 1)) });
    }
  });
  $("blitz-btn").addEventListener("click", () => send({ type: "blitz", source: pick[0], target: pick[1],
    stop_at: Math.max(1, parseInt($("stop-at").value, 10) || 1) }));
  $("abort-btn").addEventListener("click", () => { pick = []; map.mark(pick); showOdds(); });
  $("end-attack-btn").addEventListener("click", () => send({ type: "end_attack" }));
  $("end-turn-btn").addEventListener("click", () => send({ type: "end_turn" }));
  $("best-trade-btn").addEventListener("click", () => { const best = bestSet(); if (best) send({ type: "trade_cards", cards: best }); });
  $("trade-btn").addEventListener("click", () => send({ type: "trade_cards",
    cards: [...document.querySelectorAll("#hand input:checked")].map((i) => i.value) }));
}

// ----- wiring ------------------------------------------------------------------------------
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
  if (!state) return;
  if (isStrike() && state.players) { renderStrike(); return; }
  // the first render paints the sentence and the map first; the log and dice (below them)
  // follow once that frame is painted, so a slow phone shows what to do sooner
  if (!streamed) { /* the log and the last roll come with the stream's first message */ }
  else if (firstRendered) { renderLog(); renderDice(); }
  else { firstRendered = true; afterFrame(() => { renderLog(); renderDice(); }); }
  renderFault();
  if (!state.players || !state.owner) {
    $("banner").textContent = t("state.no_game");
    if (page === "me" && me) $("state-sentence").textContent = t("state.no_game");
    showLayout();
    return;
  }
  $("strike-board").hidden = true;
  if (badgesFor === "strike") { badgesFor = null; map.relabel(); }  // the bonuses again
  if (page === "me") {
    $("strike-actions").hidden = true;
    $("hand-title").textContent = t("me.cards");
  }
  map.paint(state.owner || {}, state.armies || {}, state.hq_revealed ? state.hq : null);
  openOnPlayersArea();
  renderBanner(); renderPlayers();
  if (page === "me" && me) {
    renderSeatLine(); renderPrivate(); decisionCue();
    renderMySentence();
    sentenceReady();
  }
  if (pick.length) showOdds(); else $("odds").textContent = t("odds.hint");
  const board = waits().board;
  if (!pick.length) map.mark(board && board.move ? board.move : []);  // what the table must move now
}

let turnMark = null, pickFromBoard = false;
/* On a phone (a touch screen under 600 px) the whole map is too small to read or touch: the
   first paint opens it zoomed on the player's own area (My view: this seat's; the table view:
   the player to move), in the continent where they hold the most. A mouse in a narrow window
   still aims at the whole map. */
const PHONE_MAP_PX = 600, PHONE_ZOOM = 2.4;
let focused = false;
function openOnPlayersArea() {
  if (focused || !state.owner) return;
  const who = page === "me" ? me : state.current_player;
  const mine = Object.keys(state.owner).filter((id) => state.owner[id] === who);
  if (!who || !mine.length) return;
  focused = true;
  if (!matchMedia("(pointer: coarse)").matches) return;
  let best = [];
  for (const c of layout.continents) {
    const here = c.territories.filter((id) => state.owner[id] === who);
    if (here.length > best.length) best = here;
  }
  // the map's width is read in the frame that draws it, whose layout it then is, rather than
  // laying the page out once more before the first render
  requestAnimationFrame(() => {
    if ($("map").getBoundingClientRect().width < PHONE_MAP_PX) map.focus(best, PHONE_ZOOM);
  });
}
function onMessage(msg) {
  if (msg.snapshot && streamed) return;  // the stream has already said more
  if (!msg.snapshot) streamed = true;
  lastMsg = msg;
  state = msg.state;
  addLog(msg.updates, msg.reset);
  // a new turn (or phase, or decision) starts clean: nobody's old selection, odds or refusal
  const mark = state ? `${state.turn}:${state.current_player}:${state.phase}` : null;
  if (mark !== turnMark) {
    turnMark = mark; pick = []; pickFromBoard = false;
    if (map) map.mark(pick);
    if (page === "me") $("me-error").textContent = "";
  }
  if (!isStrike() && state) {
    const sel = (state.table || {}).selection || {};
    if (sel.source && sel.target && (sel.source !== pick[0] || sel.target !== pick[1])) {
      pick = [sel.source, sel.target];  // the attack being set up on the board itself
      pickFromBoard = true;
      map.mark(pick);
    } else if (pickFromBoard && !sel.source) {
      pick = []; pickFromBoard = false; map.mark(pick);  // the board let it go
    }
  }
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
/* The body's `data-seq` says which stream message the page shows: written only once the
   render that shows it is done (tests wait for it, then read the page). */
let drawn = false, painted = false, heldBack = false, seqToShow = null;
const renderSoon = RB.oncePerFrame(() => {
  render();
  if (seqToShow !== null) { document.body.dataset.seq = seqToShow; seqToShow = null; }
});

let badgesFor = null;  // the variant the map's continent numbers were written for
function renderStrike() {
  renderLog(); renderFault();
  if (badgesFor !== "strike") { badgesFor = "strike"; map.relabel(); }
  map.paint(S.ownerByTerritory(layout, state), {});
  const b = $("banner");
  const w = waits();
  b.style.borderColor = RB.colour(w.says.colour);
  RB.sayIn(b, w.says.banner, w);
  b.dataset.phase = state.phase;
  b.dataset.step = w.step;
  $("players").replaceChildren(...S.playersRows(state, me, layout, w));
  $("strike-board").hidden = false;
  $("variant-card").hidden = true;
  $("odds").textContent = t("strike.map_hint");
  $("strike-info").replaceChildren(...S.info(state, layout));
  renderDice();
  if (page === "me" && me) {
    $("private").hidden = false;
    renderSeatLine();
    renderMySentence();
    sentenceReady();
    for (const id of ["end-attack-btn", "end-turn-btn", "trade-btn", "attack-panel"]) $(id).hidden = true;
    $("decision").replaceChildren();
    $("faces-row").hidden = !(state.house_rules || {}).physical_dice || !w.you;
    $("hand-title").textContent = t("strike.my_tactics");
    $("hand-title").hidden = false;
    $("hand").replaceChildren(...S.handChips(state));
    $("secrets").replaceChildren(...S.passingChoice(state, me, send), ...S.spyReport(state));
    const box = $("strike-actions");
    const controls = S.actions(state, layout, me, send);
    box.hidden = !controls.length;
    box.replaceChildren(...controls);
    decisionCue();
  }
}

/* The live stream opens at once, beside the words, the map and the seat check (its ticket
   and first message no longer wait for them); what it sends before the page is ready is
   kept and shown then. */
let early = [];
function fromStream(msg) { if (early) early.push(msg); else deliver(msg); }
function lostSeat(err) {
  $("private").hidden = true;
  $("seat-line").hidden = true;  // no longer this phone's colour
  $("no-seat").hidden = false;
  $("no-seat").firstElementChild.textContent = RB.errorText(err) || t("me.lost_seat");
  $("state-sentence").textContent = t("me.lost_seat");
  showLayout();
}

let snapshot = null;
async function start() {
  RB.adoptTokenFromFragment();
  // the seat check travels with the words and the map, not after them (first render sooner)
  const seat = page === "me" && RB.token() ? RB.seatCheck() : null;
  if (seat) seat.catch(() => {});
  if (page !== "me" || RB.token()) RB.stream(page === "me", fromStream, (err) => { if (me) lostSeat(err); });
  // the map comes with the page (table.html's data block); asked for only if it did not
  const block = document.getElementById("rb-map");
  const [, mapData] = await Promise.all([RB.ready, block ? JSON.parse(block.textContent) : RB.api("GET", "/api/map")]);
  layout = mapData;
  for (const tile of layout.territories) neighbours[tile.id] = new Set();
  for (const [a, b] of layout.edges) { neighbours[a].add(b); neighbours[b].add(a); }
  map = drawMap($("map"), layout, { onPick, t, names: place, ownerName: who, lang: RB.lang(),
    abbr: (id) => (RB.has(`abbr.${id}`) ? t(`abbr.${id}`) : id), continentName: (id) => RB.continent(id),
    continentBadge: (id, bonus) => (isStrike() ? S.continentBadge(layout, id) : `+${bonus}`) });
  RB.onLang(() => { map.relabel(); render(); });
  $("odds").textContent = t("odds.hint");
  if (page === "me") {
    if (!RB.token()) {
      $("no-seat").hidden = false; $("state-sentence").textContent = t("me.no_seat");
      showLayout();
      RB.setConn(t("conn.no_seat"), false); return;
    }
    try { ({ player: me, state: snapshot } = await seat); }
    catch (e) {
      $("no-seat").hidden = false; $("no-seat").firstElementChild.textContent = RB.errorText(e);
      // a seat held by another phone is not "no seat yet": the sentence says what to do
      $("state-sentence").textContent = e.code === "seat_held" ? RB.errorText(e) : t("me.no_seat");
      $("no-seat").hidden = e.code === "seat_held";
      showLayout();
      RB.setConn(t("conn.no_seat"), false); return;
    }
    wireMyButtons();
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
