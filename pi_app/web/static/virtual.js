/* The virtual board: the whole board in a browser. Territories are touched by clicking them,
   the four control buttons are pressed with the mouse, a finger or keys (held for a long
   press: the server drives the simulated button, whose own hold time decides), and every LED
   (territories and the status LEDs beside the board) is drawn from the LED strip's frames as
   the strip shows them (virtual-leds.js), never re-derived from the game. */

import { colourName as who, continent, errorText, has, t, territory } from "./words.js";
import { say, waits } from "./saying.js";
import { colour, el, oncePerFrame, sayIn } from "./dom.js";
import { adoptTokenFromFragment, api, forgetToken, phone, token } from "./seat.js";
import { lang, onLang, ready } from "./language.js";
import { stream } from "./live.js";
import { drawMap } from "./map.js";
import { showFrames } from "./virtual-leds.js";
import * as V from "./variants.js";
import { inOrder, kindOf, onKindChange } from "./kinds.js";

{
  const $ = (id) => document.getElementById(id);
  const PIN_KEY = "riskboard.hostPin";
  const DEVICE_KEY = "riskboard.hostDevice";  // as on the host page (SECURITY.md)
  const MIN_HOLD_MS = 80;  // a click is a press, never a contact glitch the debounce ignores
  const KEYS = { c: "confirm", Enter: "confirm", u: "undo", Backspace: "undo", e: "end_phase",
    r: "roll", " ": "roll" };
  let layout = null, map = null, state = null, pending = Promise.resolve();
  let board = {}, nfc = false;  // the LED strip's last frame, and whether the board reads NFC tags
  const logItems = [];


  // ----- who may press: the host PIN (kept per tab) or this phone's seat token ---------------
  function headers() {
    const pin = sessionStorage.getItem(PIN_KEY);
    if (pin) return { "X-Host-Pin": pin, "X-Host-Device": localStorage.getItem(DEVICE_KEY) || "" };
    if (token()) return { "X-Seat-Token": token(), "X-Seat-Phone": phone() };
    return null;
  }
  function askPin(message) {
    $("pin-ask").hidden = false;
    $("pin-error").textContent = message || "";
    $("v-pin").focus();
  }
  function wirePin() {
    $("pin-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const pin = $("v-pin").value.trim();
      try {
        const signedIn = await api("GET", "/api/host/check", undefined,
          { "X-Host-Pin": pin, "X-Host-Device": localStorage.getItem(DEVICE_KEY) || "" });
        if (signedIn.device) localStorage.setItem(DEVICE_KEY, signedIn.device);
        sessionStorage.setItem(PIN_KEY, pin);
        $("v-pin").value = ""; $("pin-ask").hidden = true;
      } catch (e) { $("pin-error").textContent = errorText(e); }
    });
    if (!headers()) askPin();
  }
  /* Requests go one after another: a button's release never overtakes its press. */
  function send(path, body) {
    const h = headers();
    if (!h) { askPin(); return pending; }
    pending = pending.then(() => api("POST", path, body, h)).catch((e) => {
      if (e.code === "bad_pin") { sessionStorage.removeItem(PIN_KEY); askPin(errorText(e)); }
      else if (e.code === "bad_token" && !h["X-Host-Pin"]) { forgetToken(); askPin(errorText(e)); }
      else $("refusal").textContent = errorText(e);
    });
    return pending;
  }
  /* On NFC boards the host may touch with any player's token (to see a wrong touch
     refused by name) or marker (to enrol it at bring-up); a seat's phone always touches
     with its own. `action`: "touch", or "down" / "up" for a territory held (map.js onHold). */
  function touch(id, action = "touch") {
    const [player, tag] = $("token").value.split("|");
    const host = headers() && headers()["X-Host-Pin"];
    const body = { territory: id, action };
    if (player && host) Object.assign(body, { player }, tag ? { tag } : {});
    send("/api/virtual/touch", body);
  }
  /* The tags a touch may carry: every colour's token and markers the board has (the
     board's own list), else the players' tokens. */
  function tokenChoices() {
    if (!nfc) return;
    const tags = board.tags || {};
    const colours = Object.keys(tags.tokens || {}).length ? Object.keys(tags.tokens)
      : (state && state.players) || [];
    const values = colours.flatMap((c) => [c, ...Array.from({ length: (tags.markers || {})[c] || 0 },
      (_, k) => `${c}|marker-${k + 1}`)]);
    $("token-row").hidden = !values.length;
    const select = $("token");
    const have = [...select.options].map((o) => o.value).filter(Boolean).join(",");
    if (have === values.join(",")) return;
    const keep = select.value;
    select.replaceChildren(select.options[0], ...values.map((v) => {
      const [c, tag] = v.split("|");
      return el("option", { value: v, text: tag ? t("vboard.marker_of", { player: who(c), n: tag.slice(7) }) : who(c) });
    }));
    select.value = values.includes(keep) ? keep : "";
  }
  /* The practice board's cables: a sensor plugged into a port the Pico does not scan is
     said, with the ports it could move to, as the maker's hands would move it. */
  function sensorPorts(ports) {
    const row = $("v-ports");
    const loose = (ports && ports.unscanned) || [];
    row.hidden = !loose.length;
    row.replaceChildren(...loose.map((s) => {
      const pick = el("select", { "aria-label": t("vboard.port_pick") },
        ...(ports.free || []).map((c) => el("option", { value: String(c), text: String(c) })));
      const move = el("button", { type: "button", text: t("vboard.replug") });
      move.addEventListener("click", () => {
        const h = headers();
        if (!h || !h["X-Host-Pin"]) { askPin(); return; }
        api("POST", "/api/virtual/replug", { territory: s.territory, port: Number(pick.value) }, h)
          .then((answer) => { board.sensors = answer; sensorPorts(answer); })
          .catch((e) => { $("refusal").textContent = errorText(e); });
      });
      return el("p", {}, t("vboard.unscanned", { territory: territory(s.territory), port: s.port }), " ", pick, " ", move);
    }));
  }
  const downDone = {};
  function button(name, action) {
    if (action === "down") {
      send("/api/virtual/button", { button: name, action });
      pending = pending.then(() => { downDone[name] = performance.now(); });
      return;
    }
    pending = pending.then(() => new Promise((ok) =>
      setTimeout(ok, Math.max(0, MIN_HOLD_MS - (performance.now() - (downDone[name] || 0))))));
    send("/api/virtual/button", { button: name, action });
  }

  // ----- the control buttons: pointer and keys, down and up ----------------------------------
  const held = new Set();
  function down(name) {
    if (held.has(name)) return;
    held.add(name);
    const b = document.querySelector(`.v-btn[data-button="${name}"]`);
    if (b) b.classList.add("down");
    button(name, "down");
  }
  function up(name) {
    if (!held.has(name)) return;
    held.delete(name);
    const b = document.querySelector(`.v-btn[data-button="${name}"]`);
    if (b) b.classList.remove("down");
    button(name, "up");
  }
  function wireButtons() {
    for (const b of document.querySelectorAll(".v-btn")) {
      const name = b.dataset.button;
      b.addEventListener("pointerdown", (ev) => { ev.preventDefault(); b.setPointerCapture(ev.pointerId); down(name); });
      b.addEventListener("pointerup", () => up(name));
      b.addEventListener("pointercancel", () => up(name));
      b.addEventListener("contextmenu", (ev) => ev.preventDefault());
    }
    document.addEventListener("keydown", (ev) => {
      if (ev.target && ["INPUT", "TEXTAREA"].includes(ev.target.tagName)) return;
      const name = KEYS[ev.key] || KEYS[ev.key.toLowerCase()];
      if (!name) return;
      ev.preventDefault();
      if (!ev.repeat) down(name);
    });
    document.addEventListener("keyup", (ev) => {
      const name = KEYS[ev.key] || KEYS[ev.key.toLowerCase()];
      if (name) { ev.preventDefault(); up(name); }
    });
    window.addEventListener("blur", () => { for (const name of [...held]) up(name); });
  }

  /* The buttons' help and the continents' numbers follow the game's kind. */
  let kind = kindOf(null);
  onKindChange((now) => {
    kind = now;
    const help = document.querySelector("[data-i18n='vboard.keys'], [data-i18n='vboard.keys_strike']");
    if (help) { help.dataset.i18n = kind.keysHelp; help.textContent = t(help.dataset.i18n); }
    if (map) map.relabel();
  });

  // ----- the state line: as the table says it (`table.waits.says.line`), the count being set
  function stateLine() { sayLine(); fitLine($("v-state")); }
  /* A sentence longer than the line's box (three lines on a phone, virtual.css) is set
     smaller, down to FIT_MIN_PX, before it covers the top of the map; measured only when its
     words or the window's width change. */
  const FIT_MIN_PX = 13;
  let fitted = "";
  function fitLine(box) {
    const key = `${innerWidth}|${box.textContent}`;
    if (key === fitted) return;
    fitted = key;
    box.style.fontSize = "";
    const room = box.parentElement.clientHeight;
    for (let px = parseFloat(getComputedStyle(box).fontSize); box.offsetHeight > room + 1 && px > FIT_MIN_PX; ) {
      px -= 1;
      box.style.fontSize = `${px}px`;
    }
  }
  addEventListener("resize", () => fitLine($("v-state")));
  function sayLine() {
    const box = $("v-state");
    const w = waits(state);
    box.dataset.step = w.step;
    if (!kind.namesDecider || w.status !== "playing" && w.status !== "paused") {
      const line = el("span", { class: "v-line" });
      sayIn(line, w.says.line, w);
      box.replaceChildren(line);
      box.style.borderColor = colour(w.says.colour);
      box.dataset.phase = (state && state.phase) || "";
      return;
    }
    const table = state.table || {};
    const deciding = w.says.colour;
    const sw = el("span", { class: "swatch" }); sw.style.background = colour(deciding);
    const parts = [sw, el("span", { class: "who", text: who(deciding) }),
      ...w.says.line.map((part) => " · " + say(part))];
    if (layout && tradeOffer(state, seqToShow)) parts.push(" · " + t("vboard.can_trade"));
    const count = table.count;
    if (count) {
      const edge = count.value >= count.high ? t("vboard.count.most")
        : count.value <= count.low ? t("vboard.count.least") : "";
      const text = `${t(`vboard.count.${count.what}`, { n: count.value })}${edge ? " " + edge : ""}`;
      const c = el("span", { class: "count" + (edge ? " at-limit" : ""), text });
      c.dataset.what = count.what; c.dataset.value = String(count.value);
      parts.push(" ", c);
    }
    // one flowing line after the swatch (the banner lays out its children side by side)
    box.replaceChildren(parts[0], el("span", { class: "v-line" }, ...parts.slice(1)));
    box.style.borderColor = colour(deciding);
    box.dataset.phase = state.phase;
  }

  /* A set the player on the move may trade now, said with the board's gesture
     (V.tradeOfferWatch: only on a device holding that player's seat token). */
  const tradeOffer = V.tradeOfferWatch(() => { if (state) stateLine(); });

  // ----- odds: only for an aimed attack, asked again when the armies change -------------------
  let oddsKey = null;
  async function odds() {
    const box = $("odds");
    const sel = (state && state.table && state.table.selection) || {};
    const aimed = state && ["attack", "allied_attack"].includes(waits(state).step) && sel.source
      && sel.target && state.owner[sel.source] !== state.owner[sel.target];
    if (!aimed) { oddsKey = null; box.textContent = t("vboard.hint"); return; }
    const key = `${sel.source}>${sel.target}:${state.armies[sel.source]}:${state.armies[sel.target]}`;
    if (key === oddsKey) return;
    oddsKey = key;
    try {
      const o = await api("GET", `/api/odds?source=${encodeURIComponent(sel.source)}&target=${encodeURIComponent(sel.target)}`);
      if (oddsKey !== key) return;
      box.textContent = t("vboard.odds", { from: territory(o.source), a: o.attackers, to: territory(o.target),
        d: o.defenders, p: (o.p_conquer * 100).toFixed(1) });
    } catch (e) { box.textContent = errorText(e); }
  }

  // ----- the log: the moves, as the board's (log-lines.js: the dice's faces, no secrets) ------
  const NOT_HERE = new Set(["game_started", "first_player_roll", "deck_shuffled", "cards_taken", "computer_move"]);
  function describe(ev) {
    if (NOT_HERE.has(ev.type)) return null;
    return kind.describe(ev, { faces: true, plain: true }) || null;
  }
  function addLog(updates, reset) {
    if (reset) logItems.length = 0;
    for (const u of updates || []) for (const ev of u.events) {
      if (describe(ev)) logItems.push({ seq: u.seq, ev });
    }
    while (logItems.length > 200) logItems.shift();
  }
  function renderLog() {
    $("log").replaceChildren(...logItems.slice().reverse().map((i) =>
      el("li", { "data-seq": i.seq }, describe(i.ev))));
  }

  /* The board's refusal, addressed as the table says it (see table.js boardRefusal). */
  function boardRefusal(refusal) {
    const w = waits(state);
    const hold = refusal.code === "computer_turn" ? w.says.computer : null;
    if (hold) return say(hold);
    // the board's refusal names its territory beside its code: the words place it; a code
    // the Strike board gives with its own meaning (continents, not territories) has its own words
    const code = kind.refusalCode(refusal.code);
    const text = errorText(Object.assign({ params: { territory: refusal.territory || undefined } }, refusal, { code }));
    // addressed to the toucher (NFC), else to the player whose move it is (the computer's
    // seat while it plays), named once
    const computerSeat = refusal.code === "computer_turn" ? w.seats[0] : null;
    const to = refusal.player || refusal.turn || computerSeat;
    return to ? t("vboard.refusal_to", { player: who(to), words: text }) : text;
  }

  /* Each message's state and log lines are kept as it comes; the page is drawn once a frame
     (a burst of messages, a fast computer seat, is one render), and the body's `data-seq`
     (and `data-phase`) written once the render that shows them is done. */
  let seqToShow = null;
  const onMessage = inOrder((msg) => {
    state = msg.state;
    addLog(msg.updates, msg.reset);
    seqToShow = String(msg.seq);
    renderSoon();
  });
  const renderSoon = oncePerFrame(() => {
    renderLog();
    if (state && state.owner) map.paint(state.owner, state.armies || {}, state.hq_revealed ? state.hq : null);
    stateLine();
    tokenChoices();
    odds();
    const refusal = state && state.table ? state.table.refusal : null;
    $("refusal").textContent = refusal ? boardRefusal(refusal) : "";
    document.body.dataset.seq = seqToShow;
    document.body.dataset.phase = (state && state.phase) || "";
  });

  async function start() {
    adoptTokenFromFragment();
    await ready;
    layout = await api("GET", "/api/map");
    map = drawMap($("map"), layout, { onPick: touch, onHold: touch, t, names: territory, lang: lang(),
      abbr: (id) => (has(`abbr.${id}`) ? t(`abbr.${id}`) : id),
      continentName: (id) => continent(id), ownerName: who,
      continentBadge: (id, bonus) => kind.continentBadge(layout, id, bonus) });
    wirePin();
    wireButtons();
    stream(false, onMessage);
    showFrames(map, (frame) => { board = frame; nfc = !!frame.nfc; tokenChoices(); sensorPorts(frame.sensors); },
      (e) => { $("odds").textContent = errorText(e); });
  }
  onLang(() => { if (map) map.relabel(); renderLog(); stateLine(); });
  start();
}
