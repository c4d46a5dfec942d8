/* The virtual board: the whole board in a browser. Territories are touched by clicking them,
   the four control buttons are pressed with the mouse, a finger or keys (held for a long
   press: the server drives the simulated button, whose own hold time decides), and every LED
   (territories and the status LEDs beside the board) is drawn from the LED strip's frames as
   the strip shows them, polled several times a second, never re-derived from the game. */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const PIN_KEY = "riskboard.hostPin";
  const FRAME_MS = 100;
  const MIN_HOLD_MS = 80;  // a click is a press, never a contact glitch the debounce ignores
  const PHASES = { claim: "claiming", setup_place: "setup: placing", hq_pick: "picking headquarters",
    reinforce: "reinforce", attack: "attack", allied: "Allied Army", fortify: "fortify",
    game_over: "game over" };
  const KEYS = { c: "confirm", Enter: "confirm", u: "undo", Backspace: "undo", e: "end_phase",
    r: "roll", " ": "roll" };
  let layout = null, tiles = null, state = null, leds = {}, pending = Promise.resolve();
  const logItems = [];

  function nameOf(id) {
    const t = layout && layout.territories.find((x) => x.id === id);
    return t ? t.name : id;
  }

  // ----- who may press: the host PIN (kept per tab) or this phone's seat token ---------------
  function headers() {
    const pin = sessionStorage.getItem(PIN_KEY);
    if (pin) return { "X-Host-Pin": pin };
    if (RB.token()) return { "X-Seat-Token": RB.token() };
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
        await RB.api("GET", "/api/host/check", undefined, { "X-Host-Pin": pin });
        sessionStorage.setItem(PIN_KEY, pin);
        $("v-pin").value = ""; $("pin-ask").hidden = true;
      } catch (e) { $("pin-error").textContent = e.message; }
    });
    if (!headers()) askPin();
  }
  /* Requests go one after another: a button's release never overtakes its press. */
  function send(path, body) {
    const h = headers();
    if (!h) { askPin(); return pending; }
    pending = pending.then(() => RB.api("POST", path, body, h)).catch((e) => {
      if (e.code === "bad_pin") { sessionStorage.removeItem(PIN_KEY); askPin(e.message); }
      else if (e.code === "bad_token" && !h["X-Host-Pin"]) { RB.forgetToken(); askPin(e.message); }
      else $("refusal").textContent = e.message;
    });
    return pending;
  }
  const touch = (id) => send("/api/virtual/touch", { territory: id });
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
  function ledDots(map) {
    const NS = "http://www.w3.org/2000/svg";
    for (const [id, idx] of Object.entries(map.territory_leds || {})) {
      const tile = tiles[id];
      if (!tile || tile.leds) continue;
      const width = Number(tile.rect.getAttribute("width")) || 78;
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
      const idx = (map.status_leds || {})[box.dataset.leds] || [];
      if (box.childElementCount === idx.length) continue;
      box.replaceChildren(...idx.map((led) => RB.el("span", { class: "v-led", "data-led": String(led) })));
    }
  }
  function drawFrame(frame) {
    ledDots(frame);
    const px = frame.leds || [];
    for (const [id, idx] of Object.entries(frame.territory_leds || {})) {
      const tile = tiles[id];
      if (!tile) continue;
      const sum = [0, 0, 0];
      idx.forEach((led, k) => {
        const p = px[led] || [0, 0, 0];
        for (let c = 0; c < 3; c++) sum[c] += p[c];
        if (tile.leds && tile.leds[k]) tile.leds[k].setAttribute("fill", rgb(p));
      });
      const mean = sum.map((v) => Math.round(v / Math.max(idx.length, 1)));
      tile.glow.setAttribute("stroke", rgb(mean));
      tile.glow.setAttribute("stroke-width", mean[0] + mean[1] + mean[2] > 0 ? "6" : "0");
    }
    for (const dot of document.querySelectorAll(".v-led")) {
      dot.style.background = rgb(px[Number(dot.dataset.led)]);
    }
    leds = frame;
  }
  async function pollFrames() {
    if (!document.hidden) {
      try { drawFrame(await RB.api("GET", "/api/virtual/board")); }
      catch (e) { $("odds").textContent = e.message; if (e.status === 404) return; }
    }
    setTimeout(pollFrames, FRAME_MS);
  }

  // ----- the state line: whose move, the phase, what to do, the count being set -------------
  function stateLine() {
    const box = $("v-state");
    if (!state || !state.players || !state.owner) {
      box.textContent = state && state.variant === "strike"
        ? "RISK Strike: see GESTURES.md for the board's gestures; the table view shows the cards."
        : "No game yet: the host starts one on the host page.";
      return;
    }
    const table = state.table || {};
    if (state.winner) { box.textContent = `★ ${state.winner} won the game`; return; }
    const who = state.pending ? state.pending.player : state.current_player;
    const sw = RB.el("span", { class: "swatch" }); sw.style.background = RB.colour(who);
    const parts = [sw, RB.el("span", { class: "who", text: who }), ` · ${PHASES[state.phase] || state.phase}`];
    const reserve = (state.reserves || {})[state.current_player];
    if (state.pending && state.pending.kind === "defend") {
      parts.push(` · ${who} defends ${nameOf(state.pending.to)}: Roll, or touch it first for one die fewer`);
    } else if (state.pending && state.pending.kind === "move_in") {
      parts.push(` · move armies into ${nameOf(state.pending.to)}: Confirm`);
    } else if (["claim"].includes(state.phase)) {
      parts.push(" · touch an empty territory");
    } else if (["setup_place", "reinforce"].includes(state.phase) && reserve) {
      parts.push(` · ${reserve} to place`);
    }
    const count = table.count;
    if (count) {
      const label = { attack_dice: "attack dice", defence_dice: "defence dice", move_in: "armies to move in",
        fortify: "armies to move" }[count.what] || count.what;
      const edge = count.value >= count.high ? " (most)" : count.value <= count.low ? " (least)" : "";
      const c = RB.el("span", { class: "count" + (edge ? " at-limit" : ""), text: `${label}: ${count.value}${edge}` });
      c.dataset.what = count.what; c.dataset.value = String(count.value);
      parts.push(" ", c);
    }
    if (state.paused) parts.push(" · paused by the host");
    box.replaceChildren(...parts);
    box.style.borderColor = RB.colour(who);
    box.dataset.phase = state.phase;
  }

  // ----- odds: only for an aimed attack, asked again when the armies change -------------------
  let oddsKey = null;
  async function odds() {
    const box = $("odds");
    const sel = (state && state.table && state.table.selection) || {};
    const aimed = state && ["attack", "allied"].includes(state.phase) && !state.pending && sel.source
      && sel.target && state.owner[sel.source] !== state.owner[sel.target];
    if (!aimed) { oddsKey = null; box.textContent = "Click a territory: a touch on its sensor."; return; }
    const key = `${sel.source}>${sel.target}:${state.armies[sel.source]}:${state.armies[sel.target]}`;
    if (key === oddsKey) return;
    oddsKey = key;
    try {
      const o = await RB.api("GET", `/api/odds?source=${encodeURIComponent(sel.source)}&target=${encodeURIComponent(sel.target)}`);
      if (oddsKey !== key) return;
      box.textContent = `${nameOf(o.source)} (${o.attackers}) → ${nameOf(o.target)} (${o.defenders}): `
        + `${(o.p_conquer * 100).toFixed(1)}% to conquer`;
    } catch (e) { box.textContent = e.message; }
  }

  // ----- the log -------------------------------------------------------------------------------
  function describe(ev) {
    const p = ev.player || ev.attacker || "";
    switch (ev.type) {
      case "claimed": return `${p} claimed ${nameOf(ev.territory)}`;
      case "placed": return `${p} placed ${ev.count || 1} on ${nameOf(ev.territory)}`;
      case "battle": return `${ev.attacker} attacked ${nameOf(ev.to)} from ${nameOf(ev.from)}: `
        + `[${ev.attack_dice}] vs [${ev.defence_dice}]`;
      case "conquered": return `${p} conquered ${nameOf(ev.to)}`;
      case "moved_in": return `${p} moved ${ev.count} in`;
      case "fortified": return `${p} fortified ${nameOf(ev.to)} from ${nameOf(ev.from)}`;
      case "turn_started": return `${p}'s turn`;
      case "phase": return `${p ? p + ": " : ""}${PHASES[ev.phase] || ev.phase}`;
      case "cards_traded": return `${p} traded a set`;
      case "eliminated": return `${ev.player} was eliminated`;
      case "game_won": return `${ev.winner} won the game!`;
      case "undone": {
        const n = (ev.seqs || []).length || 1;
        return `${ev.by === "board" ? "the board" : "the host"} undid ${n} move${n > 1 ? "s" : ""}`;
      }
      default: return null;
    }
  }
  function addLog(updates, reset) {
    if (reset) logItems.length = 0;
    for (const u of updates || []) for (const ev of u.events) {
      const text = describe(ev);
      if (text) logItems.push({ seq: u.seq, text });
    }
    while (logItems.length > 200) logItems.shift();
    $("log").replaceChildren(...logItems.slice().reverse().map((i) =>
      RB.el("li", { "data-seq": i.seq }, i.text)));
  }

  function onMessage(msg) {
    state = msg.state;
    addLog(msg.updates, msg.reset);
    if (state && state.owner) RBMap.paint(tiles, state.owner, state.armies || {}, state.hq_revealed ? state.hq : null);
    stateLine();
    odds();
    const refusal = state && state.table ? state.table.refusal : null;
    $("refusal").textContent = refusal ? refusal.message : "";
    document.body.dataset.seq = String(msg.seq);
    document.body.dataset.phase = (state && state.phase) || "";
  }

  async function start() {
    RB.adoptTokenFromFragment();
    layout = await RB.api("GET", "/api/map");
    tiles = RBMap.draw($("map"), layout, touch);
    wirePin();
    wireButtons();
    RB.stream(false, onMessage);
    pollFrames();
  }
  start();
})();
