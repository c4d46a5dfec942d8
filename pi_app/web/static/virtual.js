/* The virtual board: the whole board in a browser. Territories are touched by clicking them,
   the four control buttons are pressed with the mouse, a finger or keys (held for a long
   press: the server drives the simulated button, whose own hold time decides), and every LED
   (territories and the status LEDs beside the board) is drawn from the LED strip's frames as
   the strip shows them, never re-derived from the game. The frames come as the strip moves
   on, a frame period apart at most, on an event stream (/api/virtual/frames), or where the
   server has none to spare, by a long-poll (/api/virtual/board?after=<the version drawn>);
   nothing comes while the LEDs stand still, and only the LEDs that changed are drawn again.
   Every word via RB.t (pi_app/web/i18n). */

import { drawMap } from "./map.js";
import * as V from "./variants.js";
import * as S from "./strike.js";

{
  const $ = (id) => document.getElementById(id);
  const t = (k, p) => RB.t(k, p);
  const who = (p) => RB.colourName(p);
  const PIN_KEY = "riskboard.hostPin";
  const DEVICE_KEY = "riskboard.hostDevice";  // as on the host page (SECURITY.md)
  const FRAME_MS = 100;
  const MIN_HOLD_MS = 80;  // a click is a press, never a contact glitch the debounce ignores
  const KEYS = { c: "confirm", Enter: "confirm", u: "undo", Backspace: "undo", e: "end_phase",
    r: "roll", " ": "roll" };
  let layout = null, map = null, state = null, pending = Promise.resolve();
  const tiles = {};  // id -> {g, leds: [circle]}: the LED dots drawn on each map tile
  const logItems = [];

  const nameOf = (id) => RB.territory(id);
  const phaseName = (phase) => (RB.has(`phase.${phase}`) ? t(`phase.${phase}`) : phase);

  // ----- who may press: the host PIN (kept per tab) or this phone's seat token ---------------
  function headers() {
    const pin = sessionStorage.getItem(PIN_KEY);
    if (pin) return { "X-Host-Pin": pin, "X-Host-Device": localStorage.getItem(DEVICE_KEY) || "" };
    if (RB.token()) return { "X-Seat-Token": RB.token(), "X-Seat-Phone": RB.phone() };
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
        const signedIn = await RB.api("GET", "/api/host/check", undefined,
          { "X-Host-Pin": pin, "X-Host-Device": localStorage.getItem(DEVICE_KEY) || "" });
        if (signedIn.device) localStorage.setItem(DEVICE_KEY, signedIn.device);
        sessionStorage.setItem(PIN_KEY, pin);
        $("v-pin").value = ""; $("pin-ask").hidden = true;
      } catch (e) { $("pin-error").textContent = RB.errorText(e); }
    });
    if (!headers()) askPin();
  }
  /* Requests go one after another: a button's release never overtakes its press. */
  function send(path, body) {
    const h = headers();
    if (!h) { askPin(); return pending; }
    pending = pending.then(() => RB.api("POST", path, body, h)).catch((e) => {
      if (e.code === "bad_pin") { sessionStorage.removeItem(PIN_KEY); askPin(RB.errorText(e)); }
      else if (e.code === "bad_token" && !h["X-Host-Pin"]) { RB.forgetToken(); askPin(RB.errorText(e)); }
      else $("refusal").textContent = RB.errorText(e);
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
      return RB.el("option", { value: v, text: tag ? t("vboard.marker_of", { player: who(c), n: tag.slice(7) }) : who(c) });
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
      const pick = RB.el("select", { "aria-label": t("vboard.port_pick") },
        ...(ports.free || []).map((c) => RB.el("option", { value: String(c), text: String(c) })));
      const move = RB.el("button", { type: "button", text: t("vboard.replug") });
      move.addEventListener("click", () => {
        const h = headers();
        if (!h || !h["X-Host-Pin"]) { askPin(); return; }
        RB.api("POST", "/api/virtual/replug", { territory: s.territory, port: Number(pick.value) }, h)
          .then((answer) => { board.sensors = answer; sensorPorts(answer); })
          .catch((e) => { $("refusal").textContent = RB.errorText(e); });
      });
      return RB.el("p", {}, t("vboard.unscanned", { territory: nameOf(s.territory), port: s.port }), " ", pick, " ", move);
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

  // ----- LEDs: drawn from the strip's frames --------------------------------------------------
  function rgb(px) { return px ? `rgb(${px[0]},${px[1]},${px[2]})` : "rgb(0,0,0)"; }
  function ledDots(frame) {
    const NS = "http://www.w3.org/2000/svg";
    for (const [id, idx] of Object.entries(frame.territory_leds || {})) {
      if (tiles[id]) continue;
      const g = document.querySelector(`#map g.tile[data-id="${id}"]`);
      if (!g) continue;
      const land = g.querySelector("rect.land");
      const width = Number(land && land.getAttribute("width")) || 78;
      tiles[id] = { g, leds: null };
      const tile = tiles[id];
      tile.leds = idx.map((led, k) => {
        const dot = document.createElementNS(NS, "circle");
        dot.setAttribute("cx", String(width * (k + 1) / (idx.length + 1)));
        dot.setAttribute("cy", "0"); dot.setAttribute("r", "5");
        dot.setAttribute("class", "led"); dot.dataset.led = String(led);
        tile.g.append(dot);
        return dot;
      });
    }
    for (const box of document.querySelectorAll(".v-leds")) {
      const idx = (frame.status_leds || {})[box.dataset.leds] || [];
      if (box.childElementCount === idx.length) continue;
      box.replaceChildren(...idx.map((led) => RB.el("span", { class: "v-led", "data-led": String(led) })));
    }
  }
  let layoutKey = null, nfc = false;
  let drawn = [];  // LED index -> the colour it is drawn in
  function drawFrame(frame) {
    const key = JSON.stringify([frame.territory_leds, frame.status_leds]);
    if (key !== layoutKey) { layoutKey = key; ledDots(frame); drawn = []; }
    nfc = !!frame.nfc;
    tokenChoices();
    sensorPorts(frame.sensors);
    const px = frame.leds || [];
    const colours = px.map(rgb);
    const now = (led) => colours[led] || rgb(null);
    const glowing = {};  // the territories with an LED that changed: only their glow is redrawn
    for (const [id, idx] of Object.entries(frame.territory_leds || {})) {
      if (idx.every((led) => drawn[led] === now(led))) continue;
      glowing[id] = idx;
      const tile = tiles[id];
      if (tile && tile.leds) idx.forEach((led, k) => { if (tile.leds[k]) tile.leds[k].setAttribute("fill", now(led)); });
    }
    map.glow({ leds: px, territory_leds: glowing });
    for (const dot of document.querySelectorAll(".v-led")) {
      const led = Number(dot.dataset.led);
      if (drawn[led] !== now(led)) dot.style.background = now(led);
    }
    drawn = colours;
  }
  /* The frames, as they move on (see the top): the first asked for at once, then the
     stream's; a stream's frame leaves out the LED map while it stays the same. A stream the
     server has no room for (`busy`) or that fails is stood in for by the long-poll, and
     tried again a while later; a server gone away is asked again by the stream itself. */
  const STREAM_AGAIN_MS = 10000;
  let version = null, board = {}, es = null, polling = false;
  function frameCame(frame) {
    board = Object.assign({}, board, frame);
    if (board.version !== version) drawFrame(board);
    version = board.version;
  }
  function streamFrames() {
    if (es || document.hidden) return;
    es = new EventSource("/api/virtual/frames");
    es.addEventListener("frame", (ev) => frameCame(JSON.parse(ev.data)));
    const instead = () => { es.close(); es = null; followFrames(performance.now() + STREAM_AGAIN_MS); };
    es.addEventListener("busy", instead);
    es.addEventListener("error", () => { if (es && es.readyState === EventSource.CLOSED) instead(); });
  }
  /* A hidden tab draws nothing: it lets its stream go, and opens it again when shown. */
  document.addEventListener("visibilitychange", () => {
    if (document.hidden && es) { es.close(); es = null; }
    else if (!document.hidden && version !== null && !polling) streamFrames();
  });
  /* The long-poll: each ask names the version drawn, and the server answers once the strip
     shows another (or after a while with the same); asks are a frame period apart. Until
     `streamAt` (a performance.now() time), then the stream. */
  async function followFrames(streamAt) {
    polling = true;
    let wait = FRAME_MS;
    if (!document.hidden) {
      try {
        const after = version === null ? "" : `?after=${encodeURIComponent(version)}`;
        frameCame(await RB.api("GET", `/api/virtual/board${after}`));
      } catch (e) {
        $("odds").textContent = RB.errorText(e);
        if (e.status === 404) { polling = false; return; }
        version = null;
        wait = 5000;  // a failing table is not asked again at frame rate
      }
    }
    if (version !== null && performance.now() >= streamAt) { polling = false; streamFrames(); return; }
    setTimeout(() => followFrames(streamAt), wait);
  }

  const isStrike = () => !!(state && state.table && state.table.kind === "strike" && state.players);
  /* The buttons' help and the continents' numbers follow the game's kind. */
  let controlsFor = null;
  function strikeControls() {
    const kind = isStrike() ? "strike" : "board";
    if (kind === controlsFor) return;
    controlsFor = kind;
    const help = document.querySelector("[data-i18n='vboard.keys'], [data-i18n='vboard.keys_strike']");
    if (help) { help.dataset.i18n = kind === "strike" ? "vboard.keys_strike" : "vboard.keys"; help.textContent = t(help.dataset.i18n); }
    if (map) map.relabel();
  }

  // ----- the state line: as the table says it (`table.waits.says.line`), the count being set
  function stateLine() {
    const box = $("v-state");
    strikeControls();
    const w = RB.waits(state);
    box.dataset.step = w.step;
    if (isStrike() || w.status !== "playing" && w.status !== "paused") {
      const line = RB.el("span", { class: "v-line" });
      RB.sayIn(line, w.says.line, w);
      box.replaceChildren(line);
      box.style.borderColor = RB.colour(w.says.colour || (state && state.current_player));
      box.dataset.phase = (state && state.phase) || "";
      return;
    }
    const table = state.table || {};
    const deciding = w.says.colour;
    const sw = RB.el("span", { class: "swatch" }); sw.style.background = RB.colour(deciding);
    const parts = [sw, RB.el("span", { class: "who", text: who(deciding) }),
      ...w.says.line.map((part) => " · " + RB.say(part))];
    if (layout && tradeOffer(state, seqToShow)) parts.push(" · " + t("vboard.can_trade"));
    const count = table.count;
    if (count) {
      const edge = count.value >= count.high ? t("vboard.count.most")
        : count.value <= count.low ? t("vboard.count.least") : "";
      const text = `${t(`vboard.count.${count.what}`, { n: count.value })}${edge ? " " + edge : ""}`;
      const c = RB.el("span", { class: "count" + (edge ? " at-limit" : ""), text });
      c.dataset.what = count.what; c.dataset.value = String(count.value);
      parts.push(" ", c);
    }
    // one flowing line after the swatch (the banner lays out its children side by side)
    box.replaceChildren(parts[0], RB.el("span", { class: "v-line" }, ...parts.slice(1)));
    box.style.borderColor = RB.colour(deciding);
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
    const aimed = state && ["attack", "allied"].includes(state.phase) && !state.pending && sel.source
      && sel.target && state.owner[sel.source] !== state.owner[sel.target];
    if (!aimed) { oddsKey = null; box.textContent = t("vboard.hint"); return; }
    const key = `${sel.source}>${sel.target}:${state.armies[sel.source]}:${state.armies[sel.target]}`;
    if (key === oddsKey) return;
    oddsKey = key;
    try {
      const o = await RB.api("GET", `/api/odds?source=${encodeURIComponent(sel.source)}&target=${encodeURIComponent(sel.target)}`);
      if (oddsKey !== key) return;
      box.textContent = t("vboard.odds", { from: nameOf(o.source), a: o.attackers, to: nameOf(o.target),
        d: o.defenders, p: (o.p_conquer * 100).toFixed(1) });
    } catch (e) { box.textContent = RB.errorText(e); }
  }

  // ----- the log -------------------------------------------------------------------------------
  function describe(ev) {
    if (isStrike()) {
      const own = S.describe(ev);  // Strike's events have no territories or army counts
      if (own !== null) return own || null;
    }
    const p = who(ev.player || ev.attacker || "");
    switch (ev.type) {
      case "claimed": return t("log.claimed", { player: p, territory: nameOf(ev.territory) });
      case "placed": return t("log.placed", { player: p, n: ev.count || 1, territory: nameOf(ev.territory) });
      case "battle": return t("log.battle", { attacker: who(ev.attacker), to: nameOf(ev.to), from: nameOf(ev.from),
        a: (ev.attack_dice || []).join(" "), d: (ev.defence_dice || []).join(" "),
        al: ev.attacker_losses, dl: ev.defender_losses });
      case "conquered": return t("log.conquered", { player: p, to: nameOf(ev.to), defender: who(ev.defender) });
      case "moved_in": return t("log.moved_in", { player: p, n: ev.count, to: nameOf(ev.to) });
      case "fortified": return t("log.fortified", { player: p, n: ev.count, to: nameOf(ev.to), from: nameOf(ev.from) });
      case "cards_traded": return t("log.cards_traded", { player: p });
      case "eliminated": return t("log.eliminated", { player: who(ev.player) });
      case "game_won": return t("log.game_won", { player: who(ev.winner) });
      case "turn_started": return ev.reinforcements ? t("log.turn_started", { player: p, n: ev.reinforcements }) : null;
      case "card_drawn": return t("log.card_drawn", { player: p });
      case "territory_bonus": return t("log.territory_bonus", { player: p, territory: nameOf(ev.territory) });
      case "blitz_stopped": return t("log.blitz_stopped", { player: who(ev.attacker), n: ev.armies, from: nameOf(ev.from) });
      case "setup_started": return t("log.setup_started", { player: who(ev.first_player), n: ev.starting_armies });
      case "undone": return t(ev.by === "board" ? "log.undone_board" : "log.undone",
        { n: (ev.seqs || []).length || 1 });
      default: return null;
    }
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
      RB.el("li", { "data-seq": i.seq }, describe(i.ev))));
  }

  /* The board's refusal, addressed as the table says it (see table.js boardRefusal). */
  function boardRefusal(refusal) {
    const w = RB.waits(state);
    const hold = refusal.code === "computer_turn" ? w.says.computer : null;
    if (hold) return RB.say(hold);
    // the board's refusal names its territory beside its code: the words place it; a code
    // the Strike board gives with its own meaning (continents, not territories) has its own words
    const code = isStrike() && RB.has(`error.strike.${refusal.code}`) ? `strike.${refusal.code}` : refusal.code;
    const text = RB.errorText(Object.assign({ params: { territory: refusal.territory || undefined } }, refusal, { code }));
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
  function onMessage(msg) {
    state = msg.state;
    addLog(msg.updates, msg.reset);
    seqToShow = String(msg.seq);
    renderSoon();
  }
  const renderSoon = RB.oncePerFrame(() => {
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
    RB.adoptTokenFromFragment();
    await RB.ready;
    layout = await RB.api("GET", "/api/map");
    map = drawMap($("map"), layout, { onPick: touch, onHold: touch, t, names: nameOf, lang: RB.lang(),
      abbr: (id) => (RB.has(`abbr.${id}`) ? t(`abbr.${id}`) : id),
      continentName: (id) => RB.continent(id), ownerName: who,
      continentBadge: (id, bonus) => (isStrike() ? S.continentBadge(layout, id) : `+${bonus}`) });
    wirePin();
    wireButtons();
    RB.stream(false, onMessage);
    followFrames(0);
  }
  RB.onLang(() => { if (map) map.relabel(); renderLog(); stateLine(); });
  start();
}
