/* Table view, my view and the virtual board: render the live, redacted state. */
"use strict";

(() => {
  const page = document.body.dataset.page;          // "table" | "me" | "virtual"
  const $ = (id) => document.getElementById(id);
  let layout = null, tiles = null, state = null, me = null;
  let pick = [];                                      // [source, target] being set up
  const logItems = [];
  let lastBattle = null;

  const SHORT = { "north-america": "N.Am", "south-america": "S.Am", europe: "Eur", africa: "Afr",
                  asia: "Asia", australia: "Aus" };
  function continentsHeld(player) {
    return layout.continents.filter((c) => c.territories.every((t) => state.owner[t] === player));
  }
  function handCount(p) {
    const n = (state.hand_counts || {})[p];
    return typeof n === "number" ? n : 0;
  }
  function nameOf(id) {
    const t = layout.territories.find((x) => x.id === id);
    return t ? t.name : id;
  }
  function cardLabel(card) {
    const sym = (layout.card_symbols || {})[card];
    return sym === "wild" ? "Wild card" : `${nameOf(card)}${sym ? " · " + sym : ""}`;
  }

  function describe(ev) {
    const own = (state && state.variant === "strike") ? RBStrike.describe(ev, layout)
      : RBVariant.describe(ev, nameOf);
    if (own) return own;
    const p = ev.player || ev.attacker || "";
    switch (ev.type) {
      case "battle":
        return `${ev.attacker} attacked ${nameOf(ev.to)} from ${nameOf(ev.from)}: [${ev.attack_dice}] vs [${ev.defence_dice}], `
          + `attacker −${ev.attacker_losses}, defender −${ev.defender_losses}`;
      case "conquered": return `${p} conquered ${nameOf(ev.to)} from ${ev.defender}`;
      case "claimed": return `${p} claimed ${nameOf(ev.territory)}`;
      case "phase": return (p ? `${p}: ` : "") + `${RBVariant.phaseName(ev.phase)} phase`;
      case "turn_ended": return `${p} ended the turn`;
      case "moved_in": return `${p} moved ${ev.count} armies in`;
      case "attack_declared": return `${ev.attacker} attacks ${nameOf(ev.to)} from ${nameOf(ev.from)} with ${ev.attack_dice} dice`;
      case "blitz_stopped": return `${ev.attacker}'s blitz stopped at ${ev.armies} armies`;
      case "placed": return `${p} placed ${ev.count || 1} on ${nameOf(ev.territory)}`;
      case "turn_started": return `${p}'s turn`;
      case "game_won": return `${ev.winner} won the game!`;
      case "eliminated": return `${ev.player} was eliminated`;
      case "card_drawn": return ev.card ? `${p} drew ${cardLabel(ev.card)}` : `${p} drew a card`;
      case "game_started": return `new ${ev.variant} game: ${(ev.players || []).join(", ")}`;
      case "first_player_roll": return `first player roll: ` + Object.entries(ev.rolls || {})
        .map(([who, face]) => `${who} ${"⚀⚁⚂⚃⚄⚅"[face - 1] || face}`).join(", ");
      case "deck_shuffled": return `the deck of ${ev.cards} cards was shuffled`;
      case "setup_started": return `setup by ${ev.method}: ${ev.first_player} starts, ${ev.starting_armies} armies each`;
      case "cards_traded": return `${p} traded a set` + (ev.armies ? ` for ${ev.armies} armies` : "");
      case "undone": return `the host undid ${(ev.seqs || []).length || 1} move${(ev.seqs || []).length > 1 ? "s" : ""}`;
      case "cards_taken": return `${p} took ${ev.source}'s cards`
        + (ev.cards ? `: ${ev.cards.map(cardLabel).join(", ")}` : ` (${ev.count})`);
      case "fortified": return `${p} fortified ${nameOf(ev.to)} from ${nameOf(ev.from)}`;
      case "territory_bonus": return `${p} got the territory bonus on ${nameOf(ev.territory)}`;
      default: {
        const rest = Object.entries(ev).filter(([k]) => k !== "type")
          .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`).join(" ");
        return `${ev.type.replace(/_/g, " ")} ${rest}`;
      }
    }
  }

  function addLog(updates, reset) {
    if (reset) { logItems.length = 0; lastBattle = null; }
    for (const u of updates) for (const ev of u.events) {
      logItems.push({ seq: u.seq, text: describe(ev) });
      if (ev.type === "battle") lastBattle = ev;
    }
    while (logItems.length > 200) logItems.shift();
    const ol = $("log");
    ol.replaceChildren(...logItems.slice().reverse().map((i) =>
      RB.el("li", { "data-seq": i.seq }, RB.el("span", { class: "seq", text: String(i.seq) }), i.text)));
  }

  function die(face, side) {
    return RB.el("span", { class: `die ${side}`, "aria-label": `${side} die ${face}`, text: "⚀⚁⚂⚃⚄⚅"[face - 1] || "?" });
  }
  function renderDice() {
    const box = $("dice");
    if (!lastBattle) { box.textContent = "No roll yet."; return; }
    box.replaceChildren(
      RB.el("div", { class: "dice-row" }, RB.el("span", { class: "who", text: lastBattle.attacker }),
            ...lastBattle.attack_dice.map((f) => die(f, "attack"))),
      RB.el("div", { class: "dice-row" }, RB.el("span", { class: "who", text: lastBattle.defender }),
            ...lastBattle.defence_dice.map((f) => die(f, "defence"))));
  }

  function renderBanner() {
    const b = $("banner");
    b.style.borderColor = RB.colour(state.current_player);
    if (state.winner) {
      const missions = Object.entries(state.missions_revealed || {}).map(([p, m]) =>
        `${p}: ${RBVariant.missionText(m)}`).join(" · ");
      b.textContent = `★ ${state.winner} won the game` + (missions ? ` — mission: ${missions}` : "");
      return;
    }
    const paused = state.paused ? " · paused by the host" : "";
    const pend = state.pending ? ` · waiting for ${state.pending.player} (${state.pending.kind.replace(/_/g, " ")})` : "";
    b.replaceChildren(RB.el("span", { class: "swatch" }), `${RBVariant.banner(state)}${pend}${paused}`);
    b.firstChild.style.background = RB.colour(state.current_player);
    b.dataset.phase = state.phase;
  }

  function renderPlayers() {
    const capital = state.variant === "capital";
    const heads = ["", "player", "lands", "armies", "cards", "continents", ...(capital ? ["HQ"] : [])];
    const rows = [RB.el("tr", {}, ...heads.map((h) => RB.el("th", { text: h })))];
    for (const p of state.players) {
      const lands = Object.keys(state.owner).filter((t) => state.owner[t] === p);
      const armies = lands.reduce((s, t) => s + (state.armies[t] || 0), 0);
      const held = continentsHeld(p).map((c) => `${SHORT[c.id] || c.name} +${c.bonus}`).join(", ");
      const sw = RB.el("span", { class: "swatch" }); sw.style.background = RB.colour(p);
      const row = RB.el("tr", { class: p === state.current_player ? "current" : "" },
        RB.el("td", {}, sw), RB.el("td", { text: p + (p === me ? " (you)" : "") }),
        RB.el("td", { text: String(lands.length) }), RB.el("td", { text: String(armies) }),
        RB.el("td", { text: String(handCount(p)) }),
        RB.el("td", { text: held || "–" }),
        capital ? RB.el("td", { class: "hq", text: RBVariant.hqCell(state, p, nameOf) }) : null);
      row.dataset.player = p;
      if ((state.eliminated || []).includes(p)) row.classList.add("out");
      rows.push(row);
    }
    const third = RBVariant.thirdArmyRow(state);
    if (third) {
      const sw = RB.el("span", { class: "swatch" }); sw.style.background = RB.colour(third.army);
      const row = RB.el("tr", { class: "third-army" }, RB.el("td", {}, sw),
        RB.el("td", { text: third.name }), RB.el("td", { text: String(third.lands) }),
        RB.el("td", { text: String(third.armies) }), RB.el("td", { text: "–" }),
        RB.el("td", { text: third.status }));
      row.dataset.player = third.army;
      rows.push(row);
    }
    $("players").replaceChildren(...rows);
    const info = RBVariant.info(state, nameOf);
    $("variant-card").hidden = !info.length;
    $("variant-title").textContent = { mission: "Secret Mission", capital: "Capital RISK",
      "two-player": "Neutral army", allied: "Allied Army" }[state.variant] || state.variant;
    $("variant-info").replaceChildren(...info);
    $("commitment").textContent = state.commitment || "–";
  }

  const LINK_KEYS = ["port", "firmware_version", "board_id", "reconnects", "retransmits",
    "events_delivered", "events_lost", "crc_errors", "pico_resets", "led_frames_dropped"];
  function flatLink(link) {
    const flat = Object.assign({}, link.stats || {}, link);
    const parts = LINK_KEYS.filter((k) => flat[k] !== undefined && flat[k] !== null)
      .map((k) => `${k.replace(/_/g, " ")} ${flat[k]}`);
    if (link.rtt_ms && link.rtt_ms.median != null) parts.push(`rtt ${link.rtt_ms.median} ms`);
    return parts.join(" · ");
  }
  async function renderHealth() {
    try {
      const s = await RB.api("GET", "/api/status");
      const link = s.link || {};
      const mism = s.mismatches || [];
      const details = RB.el("details", {}, RB.el("summary", { text: "all statistics" }),
        RB.el("pre", { class: "out", text: JSON.stringify(s, null, 1) }));
      $("health").replaceChildren(
        RB.el("div", { text: `link: ${link.state || "?"}` }),
        RB.el("div", { class: "small", text: flatLink(link) }),
        RB.el("div", { text: `LEDs: ${(s.leds && s.leds.backend) || "?"}` }),
        RB.el("div", { class: mism.length ? "error" : "", text: mism.length
          ? `mismatched territories: ${mism.map((m) => nameOf(m.territory || m)).join(", ")}`
          : "board matches the game" }),
        details);
    } catch (e) { $("health").textContent = "health unavailable: " + e.message; }
  }

  let oddsMemo = null;
  async function showOdds() {
    const box = $("odds");
    if (pick.length < 2) {
      box.textContent = pick.length ? `From ${nameOf(pick[0])}: now tap the territory to attack.`
        : "Tap a territory, then a neighbour, to see the odds.";
      if (page === "me") $("attack-panel").hidden = true;
      return;
    }
    try {
      // the same attack with the same armies has the same odds: ask the server once
      const armies = (state && state.armies) || {};
      const key = `${pick[0]}>${pick[1]}:${armies[pick[0]]}:${armies[pick[1]]}`;
      if (!oddsMemo || oddsMemo.key !== key) {
        oddsMemo = { key, odds: RB.api("GET", `/api/odds?source=${encodeURIComponent(pick[0])}&target=${encodeURIComponent(pick[1])}`) };
        oddsMemo.odds.catch(() => { oddsMemo = null; });
      }
      const o = await oddsMemo.odds;
      box.textContent = `${nameOf(o.source)} (${o.attackers}) → ${nameOf(o.target)} (${o.defenders}): `
        + `${(o.p_conquer * 100).toFixed(1)}% to conquer, expected losses `
        + `${o.expected_attacker_losses.toFixed(1)} vs ${o.expected_defender_losses.toFixed(1)}`;
      if (page === "me") {
        const fortify = state.phase === "fortify";
        $("attack-panel").hidden = false;
        const what = fortify ? "Fortify" : state.phase === "allied" ? "Allied Army attack" : "Attack";
        $("attack-title").textContent = `${what}: ${nameOf(pick[0])} → ${nameOf(pick[1])}`;
        $("attack-btn").textContent = fortify ? "Move armies" : "Attack";
        $("blitz-btn").hidden = fortify;
        $("n-label").textContent = fortify ? "Armies to move" : "Blitz: stop when my source is down to";
      }
    } catch (e) { box.textContent = e.message; }
  }

  function awaited() { return state.pending ? state.pending.player : state.current_player; }

  // ----- virtual board: a touch needs the host PIN (kept per tab, as the host page keeps
  // it) or this phone's seat token; with neither the page asks for the PIN once --------------
  const PIN_KEY = "riskboard.hostPin";
  function touchHeaders() {
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
  function wirePinForm() {
    $("pin-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const pin = $("v-pin").value.trim();
      try {
        await RB.api("GET", "/api/host/check", undefined, { "X-Host-Pin": pin });
        sessionStorage.setItem(PIN_KEY, pin);
        $("v-pin").value = ""; $("pin-ask").hidden = true;
      } catch (e) { $("pin-error").textContent = e.message; }
    });
    if (!touchHeaders()) askPin();
  }
  async function touch(id) {
    const headers = touchHeaders();
    if (!headers) { askPin(); return; }
    try { await RB.api("POST", "/api/virtual/touch", { territory: id }, headers); }
    catch (e) {
      if (e.code === "bad_pin") { sessionStorage.removeItem(PIN_KEY); askPin(e.message); }
      else if (e.code === "bad_token" && !headers["X-Host-Pin"]) { RB.forgetToken(); askPin(e.message); }
      else $("odds").textContent = e.message;
    }
  }

  function onPick(id) {
    if (page === "virtual") { touch(id); return; }
    if (page === "me" && state && state.owner) {
      const intent = RBVariant.tap(state, me, id, awaited());
      if (intent && intent.command) { send(intent.command); return; }
      if (intent && intent.hint) { $("me-error").textContent = intent.hint; return; }
    }
    if (pick.length === 1 && pick[0] !== id) pick = [pick[0], id]; else pick = [id];
    RBMap.mark(tiles, pick);
    showOdds();
  }

  // ----- my view ---------------------------------------------------------------------------
  async function send(command) {
    $("me-error").textContent = "";
    const typed = $("faces-row").hidden ? [] : RB.faces($("faces").value);
    if (typed.length) command = Object.assign({}, command, { faces: typed });
    try {
      await RB.seatApi("POST", "/api/command", { command });
      if (typed.length) $("faces").value = "";
    } catch (e) { $("me-error").textContent = `${e.message} (${e.code})`; }
  }
  function bigButton(label, command) {
    return RB.el("button", { class: "big", text: label, onclick: () => send(command) });
  }
  function renderPrivate() {
    $("private").hidden = false;
    $("faces-row").hidden = !(state.house_rules || {}).physical_dice;
    $("me-name").textContent = me;
    $("me-name").style.color = RB.colour(me);
    const hand = Array.isArray(state.my_hand) ? state.my_hand : [];
    const chosen = new Set([...document.querySelectorAll("#hand input:checked")].map((i) => i.value));
    $("hand").replaceChildren(...(hand.length ? hand.map((card) => RB.el("label", { class: "cardchip" },
      Object.assign(RB.el("input", { type: "checkbox", value: card }), { checked: chosen.has(card) }),
      " " + cardLabel(card))) : [RB.el("span", { class: "small", text: "No cards." })]));
    $("trade-btn").hidden = hand.length < 3;
    const update = () => { $("trade-btn").disabled = document.querySelectorAll("#hand input:checked").length !== 3; };
    $("hand").querySelectorAll("input").forEach((i) => i.addEventListener("change", update));
    update();
    const secrets = [];
    const mission = state.my_mission;
    if (mission) {
      const note = mission.fallback ? "(the printed card could not apply, so this is your mission)" : "";
      secrets.push(RB.el("div", { class: "mission-card", id: "my-mission" },
        RB.el("strong", { text: "My secret mission" }), RB.el("p", { text: RBVariant.missionText(mission) }),
        note ? RB.el("p", { class: "small", text: note }) : null));
    }
    if (state.variant === "capital") {
      const hq = state.my_hq || (state.hq || {})[me];
      const open = state.phase === "hq_pick";
      secrets.push(RB.el("p", { id: "my-hq" }, RB.el("strong", { text: "My HQ: " }),
        hq ? nameOf(String(hq)) : "not picked yet",
        open ? RB.el("span", { class: "small", text: hq
          ? " · tap another of your territories to change it until everyone has picked"
          : " · tap one of your territories to make it your secret HQ" }) : null));
    }
    $("secrets").replaceChildren(...secrets);
    const mine = awaited() === me && !state.winner && !state.pending;
    $("end-attack-btn").disabled = !mine || !["attack", "allied"].includes(state.phase);
    $("end-turn-btn").disabled = !mine || !["attack", "fortify", "allied"].includes(state.phase);
    const d = $("decision");
    const pend = state.pending;
    if (pend && pend.player === me) {
      const ask = RB.el("p", { text: RBVariant.question(state, me, pend, nameOf) });
      if (pend.kind === "defend") {
        const max = pend.max_dice || 2;
        d.replaceChildren(ask,
          ...Array.from({ length: max }, (_, i) => bigButton(`${i + 1} ${i ? "dice" : "die"}`, { type: "choose_defence", dice: i + 1 })));
      } else if (pend.kind === "move_in") {
        const lo = pend.min || 1, hi = pend.max || lo;
        const btns = [];
        for (const n of new Set([lo, Math.round((lo + hi) / 2), hi])) btns.push(bigButton(`Move ${n}`, { type: "move_in", count: n }));
        d.replaceChildren(ask, ...btns);
      } else {
        d.replaceChildren(ask);
      }
    } else {
      d.replaceChildren();
    }
  }

  let wasMyTurn = false;
  function turnCue() {
    const mine = !state.winner && (state.phase === "hq_pick"
      ? !(state.hq_chosen || []).includes(me) : awaited() === me);
    if (mine && !wasMyTurn) {
      if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
      try {
        const ctx = new (window.AudioContext || window.webkitAudioContext)();
        const osc = ctx.createOscillator(); osc.frequency.value = 880;
        osc.connect(ctx.destination); osc.start(); osc.stop(ctx.currentTime + 0.15);
      } catch (e) { /* sound needs a user gesture first on some phones */ }
      document.title = "Your turn · riskboard";
    } else if (!mine) document.title = "riskboard · My seat";
    wasMyTurn = mine;
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
    // a blitz runs to its end in one command, so "abort" cancels the attack being set up
    $("abort-btn").addEventListener("click", () => { pick = []; RBMap.mark(tiles, pick); showOdds(); });
    $("end-attack-btn").addEventListener("click", () => send({ type: "end_attack" }));
    $("end-turn-btn").addEventListener("click", () => send({ type: "end_turn" }));
    $("trade-btn").addEventListener("click", () => send({ type: "trade_cards",
      cards: [...document.querySelectorAll("#hand input:checked")].map((i) => i.value) }));
  }

  // ----- wiring ------------------------------------------------------------------------------
  function onMessage(msg) {
    state = msg.state;
    if (state.variant === "strike" && state.players) { renderStrike(msg); return; }
    if (!state.players || !state.owner) {
      $("banner").textContent = "No game yet: the host starts one on the host page.";
      addLog(msg.updates, msg.reset);
      return;
    }
    addLog(msg.updates, msg.reset);
    $("strike-board").hidden = true;
    if (page === "me") {
      $("strike-actions").hidden = true;
      for (const id of ["end-attack-btn", "end-turn-btn", "trade-btn"]) $(id).hidden = false;
      $("hand-title").textContent = "My cards";
    }
    RBMap.paint(tiles, state.owner || {}, state.armies || {}, state.hq_revealed ? state.hq : null);
    renderBanner(); renderPlayers(); renderDice();
    if (page === "me" && me) { renderPrivate(); turnCue(); }
    if (page === "virtual") refreshVirtual();
    renderHealth();
    const sel = (state.table || {}).selection || {};
    if (sel.source && sel.target && (sel.source !== pick[0] || sel.target !== pick[1])) {
      pick = [sel.source, sel.target];  // the attack being set up on the board itself
      RBMap.mark(tiles, pick);
    }
    if (pick.length === 2) showOdds();
    const refusal = (state.table || {}).refusal;
    $("refusal").textContent = refusal ? (refusal.message || String(refusal)) : "";
    document.body.dataset.seq = String(msg.seq);
  }

  function renderStrike(msg) {
    addLog(msg.updates, msg.reset);
    RBMap.paint(tiles, RBStrike.ownerByTerritory(layout, state), {});
    const b = $("banner");
    b.style.borderColor = RB.colour((state.waiting_for || [])[0]);
    b.textContent = RBStrike.banner(state);
    b.dataset.phase = state.phase;
    $("players").replaceChildren(...RBStrike.playersRows(state, me, layout));
    $("strike-board").hidden = false;
    $("variant-card").hidden = true;
    $("odds").textContent = "Continents are lit in the colour of their domination coin's holder.";
    $("strike-info").replaceChildren(...RBStrike.info(state, layout));
    const roll = RBStrike.lastDice(state);
    if (roll) { lastBattle = roll; }
    renderDice();
    $("commitment").textContent = state.commitment || "–";
    if (page === "me" && me) {
      $("private").hidden = false;
      $("me-name").textContent = me;
      $("me-name").style.color = RB.colour(me);
      for (const id of ["end-attack-btn", "end-turn-btn", "trade-btn"]) $(id).hidden = true;
      $("faces-row").hidden = !(state.house_rules || {}).physical_dice;
      $("hand-title").textContent = "My tactics cards";
      $("hand").replaceChildren(...RBStrike.handChips(state, layout));
      $("secrets").replaceChildren(...RBStrike.spyReport(state, layout));
      const box = $("strike-actions");
      box.hidden = false;
      box.replaceChildren(...RBStrike.actions(state, layout, me, send));
      const mine = (state.waiting_for || []).includes(me);
      if (mine && !wasMyTurn && navigator.vibrate) navigator.vibrate([200, 100, 200]);
      wasMyTurn = mine;
    }
    renderHealth();
    document.body.dataset.seq = String(msg.seq);
  }

  async function refreshVirtual() {
    try { RBMap.glow(tiles, await RB.api("GET", "/api/virtual/board")); }
    catch (e) { $("odds").textContent = e.message; }
  }

  async function start() {
    RB.adoptTokenFromFragment();
    layout = await RB.api("GET", "/api/map");
    tiles = RBMap.draw($("map"), layout, onPick);
    if (page === "virtual") {
      $("odds").textContent = "Click a territory: a touch on its sensor.";
      wirePinForm();
    }
    if (page === "me") {
      if (!RB.token()) { $("no-seat").hidden = false; RB.setConn("no seat", false); return; }
      try { me = (await RB.seatApi("GET", "/api/me")).player; }
      catch (e) {
        $("no-seat").hidden = false; $("no-seat").firstElementChild.textContent = e.message;
        RB.setConn("no seat", false); return;
      }
      wireMyButtons();
    }
    RB.stream(page === "me", onMessage, (err) => {
      $("private").hidden = true;
      $("no-seat").hidden = false;
      $("no-seat").firstElementChild.textContent = err.message || "This phone lost its seat.";
    });
  }
  start();
})();
