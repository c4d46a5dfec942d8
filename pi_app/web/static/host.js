/* Host console: PIN login, new game, seat QR codes (and how many phones opened each seat's
   link), undo/pause/resume/end, journal, the board's health and the riskboard version. */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const PIN_KEY = "riskboard.hostPin";
  const pin = () => sessionStorage.getItem(PIN_KEY) || "";
  const DEVICE_KEY = "riskboard.hostDevice";  // this device signed in as host (SECURITY.md)
  const hostHeaders = () => ({ "X-Host-Pin": pin(), "X-Host-Device": localStorage.getItem(DEVICE_KEY) || "" });
  const hostApi = (method, path, body) => RB.api(method, path, body, hostHeaders());
  /* What the last action did, or why it was refused, as one sentence in the page's
     language (worded again when the language changes); hidden while there is none. */
  let said = null;
  function say(words, refused) {
    said = words ? { words, refused: !!refused } : null;
    $("host-out").textContent = said ? said.words() : "";
    $("host-said").classList.toggle("refused", !!(said && said.refused));
    $("host-said").hidden = !said;
  }
  const refused = (e) => say(() => RB.errorText(e), true);
  /* A finished host action in words: `result` is the table's answer to `action`. */
  function doneText(action, result) {
    const r = result || {};
    if (action === "undo") return RB.t("host.done.undo", { n: Array.isArray(r.undone) ? r.undone.length : 1 });
    if (action === "new_game") return RB.t("host.done.new_game", { game: r.game_id });
    return RB.t(`host.done.${action}`);
  }

  /* Seats: the host sees whether a phone holds each seat, and one seat's QR code at a time,
     on request, only while no phone holds it (a held seat moves with a new code). */
  let shownSeat = null;
  function hideCode() {
    shownSeat = null; $("seat-code").replaceChildren(); $("seat-code").hidden = true;
    $("seat-code").classList.remove("full");
  }
  /* One seat's code, its colour named in words; "Full screen" makes it fill the screen to
     be scanned at arm's length (Escape or Close goes back). */
  function showCode(seat) {
    shownSeat = seat.player;
    const qr = new DOMParser().parseFromString(seat.qr_svg, "image/svg+xml").documentElement;
    qr.setAttribute("class", "qr");
    qr.setAttribute("role", "img");
    qr.setAttribute("aria-label", RB.t("host.qr_of", { colour: RB.colourName(seat.player) }));
    const sw = RB.el("span", { class: "swatch big-swatch", "aria-hidden": "true" });
    sw.style.background = RB.colour(seat.player);
    const cap = RB.el("figcaption", {}, sw, " " + RB.t("host.scan_with", { colour: RB.colourName(seat.player) }));
    const box = $("seat-code");
    const full = RB.el("button", { class: "big", "data-full": "1", text: RB.t("host.full_screen"),
      onclick: () => { full.textContent = RB.t(box.classList.toggle("full") ? "host.close" : "host.full_screen"); } });
    // beside the code, its link for a laptop or a phone that cannot scan
    const link = RB.el("p", { class: "seat-link" }, RB.el("span", { text: RB.t("host.or_open") + " " }),
      RB.el("a", { href: seat.url, text: seat.url, target: "_blank", rel: "noreferrer" }));
    // and its short code, typed on /join by a device with no camera
    const typed = RB.el("p", { class: "seat-typed" }, RB.el("span", { text: RB.t("host.type_code", { url: seat.join_url }) + " " }),
      RB.el("code", { class: "seat-typed-code", text: seat.code }));
    box.replaceChildren(document.importNode(qr, true), cap, typed, link, RB.el("div", { class: "row" }, full,
      RB.el("button", { text: RB.t("host.hide_code"), onclick: hideCode })));
    box.style.setProperty("--seat", RB.colour(seat.player));
    box.hidden = false;
  }
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !$("seat-code").classList.contains("full")) return;
    $("seat-code").classList.remove("full");
    const full = $("seat-code").querySelector("[data-full]");
    if (full) full.textContent = RB.t("host.full_screen");
  });
  async function requestCode(player) {
    try { showCode((await hostApi("GET", `/api/host/seats/${encodeURIComponent(player)}/code`)).seat); }
    catch (e) { refused(e); refreshSeats(); }
  }
  async function newCode(s) {
    if (s.claimed && !confirm(RB.t("host.move_confirm", { colour: RB.colourName(s.player) }))) return;
    try {
      const r = await hostApi("POST", `/api/host/seats/${encodeURIComponent(s.player)}/reissue`);
      renderSeats(r.seats); showCode(r.seat); say(null);
    } catch (e) { refused(e); }
  }
  /* Computer seats (issue 16): each seat is played by a phone or by the Pi at a level. */
  let computers = {};
  async function loadComputers() {
    try {
      const now = (await RB.api("GET", "/api/state")).state;
      computers = (now.table || {}).computers || {};
      showGame(now);
    } catch (e) { computers = {}; }
    // a number the host is typing (or typed and has not set yet) is theirs, not the server's
    const wait = $("computer-wait");
    if (document.activeElement !== wait && !wait.dataset.edited) wait.value = computers.confirm_after_s || 0;
    $("computer-trust").checked = !!computers.trust_lights;
    $("computer-state").textContent = computers.seats && Object.keys(computers.seats).length
      ? RB.t(computers.paused ? "host.computer_paused" : "host.computer_playing") : "";
  }
  async function setComputer(body) {
    try { await hostApi("POST", "/api/host/computer", body); say(() => doneText("computer")); await refreshSeats(); }
    catch (e) { refused(e); }
  }
  const LEVELS = ["easy", "normal", "hard"];
  const levelName = (v) => (RB.has(`host.level.${v}`) ? RB.t(`host.level.${v}`) : String(v));
  function playedBy(s) {
    const level = (computers.seats || {})[s.player] || "";
    const pick = RB.el("select", { class: "played-by",
      "aria-label": RB.t("host.played_by_label", { colour: RB.colourName(s.player) }) },
      RB.el("option", { value: "", text: RB.t("host.by_phone") }),
      ...LEVELS.map((v) => RB.el("option", { value: v, text: RB.t("host.computer", { level: levelName(v) }) })));
    pick.value = level;
    pick.addEventListener("change", () => setComputer({ seats: { [s.player]: pick.value || null } }));
    return RB.el("label", { class: "rule" }, RB.t("host.played_by") + " ", pick);
  }
  function renderSeats(seats) {
    if (shownSeat && seats.some((s) => s.player === shownSeat && s.claimed)) hideCode();
    $("seats").replaceChildren(...seats.map((s) => {
      const box = RB.el("figure", { class: "seat" });
      const computer = (computers.seats || {})[s.player];
      const where = computer ? RB.t("host.computer", { level: levelName(computer) })
        : RB.t(s.claimed ? "host.on_phone" : "host.waiting_phone");
      const cap = RB.el("figcaption", { text: RB.t("host.seat_caption", { player: RB.colourName(s.player), where }) });
      cap.style.color = RB.colour(s.player);
      box.append(cap, playedBy(s));
      /* the seat's link reached more than one phone (only the first holds the seat): the
         host sees it, and moves the seat if the wrong phone holds it */
      if (!computer && s.phones > 1) box.append(RB.el("p", { class: "seat-phones", text: RB.t("host.seat_phones", { n: s.phones }) }));
      if (!computer && !s.claimed) box.append(RB.el("button", { class: "show-code", text: RB.t("host.show_code"), onclick: () => requestCode(s.player) }));
      if (!computer) box.append(RB.el("button", { class: "new-code", text: RB.t(s.claimed ? "host.move_seat" : "host.new_code"), onclick: () => newCode(s) }));
      return box;
    }));
  }
  async function refreshSeats() {
    try { await loadComputers(); renderSeats((await hostApi("GET", "/api/host/seats")).seats); } catch (e) { /* next time */ }
  }

  /* Each missing part (LED strip, buttons) in the page's words, with the system's own
     reason (English, for whoever fixes it); a part this page has no words for, as the
     table says it. */
  function partFaults(s) {
    const parts = s.parts || {}, named = [];
    let worded = 0;
    for (const [name, part] of Object.entries(parts)) {
      if (!part || part.state !== "missing" || !part.fault) continue;
      if (!RB.has(`host.part_missing.${name}`)) continue;
      named.push(RB.t(`host.part_missing.${name}`, { why: String(part.fault).replace(/\.$/, "") }));
      worded++;
    }
    const faults = s.faults || [];
    return worded === faults.length ? named : faults;
  }

  /* A part of the table that is not working (LED strip, buttons): one sentence each; and
     the board's health (link, mismatches, LEDs) with every statistic, for the host only. */
  async function showFaults() {
    try {
      const s = await hostApi("GET", "/api/status");
      const faults = partFaults(s);
      $("faults").replaceChildren(...faults.map((f) => RB.el("p", { text: f })));
      $("faults").hidden = !faults.length;
      const link = s.link || {}, mism = s.mismatches || [];
      $("host-version").textContent = s.version ? RB.t("host.version", { version: s.version }) : "";
      $("health").replaceChildren(
        RB.el("p", { text: RB.t("host.link", { state: RB.has(`host.link_state.${link.state}`)
          ? RB.t(`host.link_state.${link.state}`) : (link.state || "?") }) }),
        RB.el("p", { text: mism.length ? RB.t("fault.mismatch", { list: mism.map((m) => RB.territory(m.territory || m)).join(", ") })
          : RB.t("host.board_ok") }),
        RB.el("details", {}, RB.el("summary", { text: RB.t("host.all_stats") }),
          RB.el("pre", { class: "out", text: JSON.stringify(s, null, 1) })));
    } catch (e) { /* the next poll tries again */ }
  }

  /* The dice's full commitment, for the host (players see only the "fair dice" badge). */
  async function showCommitment() {
    try {
      const d = await RB.api("GET", "/api/dice");
      $("host-commitment").textContent = d.commitment || RB.t("dicepage.no_roll");
    } catch (e) { /* the next poll tries again */ }
  }

  /* Someone guessing the host PIN (a burst of wrong PINs at the whole table). */
  async function showPinGuessing() {
    try {
      const g = (await hostApi("GET", "/api/host/check")).pin_guessing;
      $("pin-alert").hidden = !g;
      if (g) {
        $("pin-alert").textContent = RB.t(g.active ? "host.pin_guessing_now" : "host.pin_guessing_was",
          { wrong: g.wrong, addresses: g.addresses, since: new Date(g.since).toLocaleTimeString(RB.lang()) });
      }
    } catch (e) { /* this device is limited: the login says so */ }
  }

  async function unlock() {
    await RB.ready;  // the seat list speaks the page's language
    sessionStorage.setItem(PIN_KEY, $("pin").value.trim() || pin());
    try {
      const signedIn = await hostApi("GET", "/api/host/check");
      if (signedIn.device) localStorage.setItem(DEVICE_KEY, signedIn.device);
      $("login").hidden = true; $("console").hidden = false;
      await loadComputers();
      renderSeats((await hostApi("GET", "/api/host/seats")).seats);
      setInterval(refreshSeats, 5000);
      RB.setConn(RB.t("conn.host"), true);
      showFaults(); setInterval(showFaults, 15000);
      showCommitment(); setInterval(showCommitment, 15000);
      showPinGuessing(); setInterval(showPinGuessing, 15000);
    } catch (e) { $("login-error").textContent = RB.errorText(e); }
  }

  /* The game the table is playing (a reload must not forget it: RISK Strike has no map to
     show it), or who won it; the new-game form starts from it once. */
  let gameShown = null, adopted = false;
  function showGame(now) {
    if (now !== undefined) gameShown = now;
    const g = gameShown;
    let line = $("game-now");
    if (!line) {
      line = RB.el("p", { id: "game-now", class: "game-now", role: "status" });
      $("console").prepend(line);
    }
    line.hidden = !(g && g.players && g.variant);
    if (line.hidden) return;
    const variant = RB.variantName(g.variant);
    // a game over says so as the table does (won, or ended by the host), with its seed
    const w = RB.waits(g), over = w.status === "over";
    if (over && w.over.winner) {
      RB.sayIn(line, [{ key: "host.game_won", params: { variant, player: { colour: w.over.winner } } },
        ...w.says.banner.slice(1)], w);
    } else if (over) RB.sayIn(line, [{ key: "host.game_over", params: { variant } }, ...w.says.banner], w);
    else line.textContent = RB.t("host.game_now", { variant, turn: g.turn, players: g.players.map(RB.colourName).join(", ") });
    if (!adopted && catalogue && !over && catalogue.variants.some((v) => v.id === g.variant)) {
      adopted = true;
      $("variant").value = g.variant;
      for (const box of document.querySelectorAll("#colours input")) box.checked = g.players.includes(box.value);
      renderRules();
    }
  }

  let catalogue = null;
  /* A variant's name as the table's rule book calls it (the server's English otherwise). */
  const variantName = (v) => (RB.has(`variant.${v.id}`) ? RB.t(`variant.${v.id}`) : v.name);
  const spec = () => catalogue.variants.find((v) => v.id === $("variant").value);

  function colours() {
    const box = $("colours");
    for (const c of catalogue.colours) {
      const cb = RB.el("input", { type: "checkbox", value: c, onchange: playerHint });
      if (c === "red" || c === "blue" || c === "green") cb.checked = true;
      const lab = RB.el("label", { class: "colour" }, cb, " ", RB.el("span", { "data-colour": c, text: RB.colourName(c) }));
      lab.style.borderColor = RB.colour(c);
      box.append(lab);
    }
  }
  function chosenPlayers() {
    return [...document.querySelectorAll("#colours input:checked")].map((i) => i.value);
  }
  function playerHint() {
    const v = spec(), n = chosenPlayers().length;
    $("player-hint").textContent = v.min_players === v.max_players
      ? RB.t("host.players_exact", { count: v.min_players, chosen: n })
      : RB.t("host.players_range", { min: v.min_players, max: v.max_players, chosen: n });
    $("player-hint").classList.toggle("error", n < v.min_players || n > v.max_players);
  }

  /* A house rule's words in the page's language (the server's English otherwise). */
  const ruleWords = (key, english) => (RB.has(`houserule.${key}`) ? RB.t(`houserule.${key}`) : english);

  /* One input per house rule of the chosen variant (from /api/variants). */
  function ruleInput(f) {
    const label = ruleWords(f.name, f.label);
    const id = `hr-${f.name}`;
    if (f.kind === "bool") {
      const cb = RB.el("input", { type: "checkbox", id, "data-rule": f.name });
      cb.checked = !!f.default;
      return RB.el("label", { class: "rule" }, cb, " " + label);
    }
    if (f.kind === "choice") {
      const sel = RB.el("select", { id, "data-rule": f.name },
        ...f.choices.map((c) => RB.el("option", { value: c, text: ruleWords(`${f.name}.${c}`, c) })));
      sel.value = f.default;
      return RB.el("label", { class: "rule" }, label + " ", sel);
    }
    if (f.kind === "int") {
      const inp = RB.el("input", { type: "number", id, "data-rule": f.name, min: f.low, max: f.high, inputmode: "numeric" });
      inp.value = String(f.default);
      return RB.el("label", { class: "rule" }, label + " ", inp);
    }
    const parts = f.parts.map((p, i) => {
      const inp = RB.el("input", { type: "number", id: `${id}-${i}`, "data-part": String(i), min: i ? f.low : 1, max: f.high, inputmode: "numeric" });
      inp.value = String(f.default[i]);
      return RB.el("label", {}, ` ${ruleWords(`${f.name}.${p}`, p)} `, inp);
    });
    return RB.el("span", { class: "rule", "data-rule": f.name, "data-kind": "pair" }, label + ":", ...parts);
  }
  function renderRules() {
    $("new-game-error").textContent = "";
    const box = $("house-rules");
    box.replaceChildren(RB.el("legend", { id: "house-rules-title", text: RB.t("host.house_rules_of", { variant: variantName(spec()) }) }),
      ...spec().house_rules.map((f) => RB.el("div", {}, ruleInput(f),
        RB.el("span", { class: "error field-error", "data-error": `house_rules.${f.name}` }))),
      RB.el("div", { id: "faces-box", hidden: "" },
        RB.el("label", { class: "rule" }, RB.el("span", { "data-i18n": "host.first_roll", text: RB.t("host.first_roll") }), " ",
          RB.el("input", { id: "setup-faces", inputmode: "numeric", "data-i18n-placeholder": "host.first_roll_example",
            placeholder: RB.t("host.first_roll_example") })),
        RB.el("span", { class: "error field-error", "data-error": "faces" })));
    const physical = document.querySelector('[data-rule="physical_dice"]');
    const showFaces = () => { $("faces-box").hidden = !(physical && physical.checked); };
    if (physical) physical.addEventListener("change", showFaces);
    showFaces();
    playerHint();
  }
  function houseRules() {
    const out = {};
    for (const f of spec().house_rules) {
      const node = document.querySelector(`[data-rule="${f.name}"]`);
      if (f.kind === "bool") out[f.name] = node.checked;
      else if (f.kind === "choice") out[f.name] = node.value;
      else if (f.kind === "int") out[f.name] = Number(node.value);
      else out[f.name] = [...node.querySelectorAll("input")].map((i) => Number(i.value));
    }
    return out;
  }

  async function act(action, body) {
    try { const r = await hostApi("POST", `/api/host/${action}`, body); say(() => doneText(action, r.result)); }
    catch (e) { refused(e); return; }
    refreshSeats();  // the game line says at once what the action changed (a game ended)
  }

  /* A refused new game: each bad field's problem in the page's words, at its input when it
     has one, and all of them above the Start button (or the refusal's own sentence). */
  let gameRefusal = null;
  function refusedGame(e) {
    gameRefusal = e;
    document.querySelectorAll("[data-error]").forEach((n) => { n.textContent = ""; });
    const fields = e.fields || {}, problems = e.problems || {};
    const names = Object.keys(fields);
    const sentences = names.map((name) => RB.problemText(problems[name], fields[name]));
    names.forEach((name, i) => {
      const slot = document.querySelector(`[data-error="${name}"]`);
      if (slot) slot.textContent = " " + sentences[i];
    });
    $("new-game-error").textContent = sentences.length ? sentences.join(" ") : RB.errorText(e);
    say(null);
  }
  async function newGame() {
    gameRefusal = null;
    $("new-game-error").textContent = "";
    document.querySelectorAll("[data-error]").forEach((n) => { n.textContent = ""; });
    try {
      const body = { variant: $("variant").value, players: chosenPlayers(), house_rules: houseRules() };
      const typed = $("faces-box").hidden ? [] : RB.faces($("setup-faces").value);
      if (typed.length) body.faces = typed;
      const r = await hostApi("POST", "/api/host/new_game", body);
      // the new game at once (the answer holds its view), not the old one until the next read
      if (r.state) { computers = (r.state.table || {}).computers || {}; showGame(r.state); }
      hideCode(); renderSeats(r.seats); say(() => doneText("new_game", r.result));
    } catch (e) { refusedGame(e); }
  }

  async function journal() {
    const res = await fetch("/api/host/journal", { headers: hostHeaders(), cache: "no-store" });
    if (!res.ok) {
      let e = { code: `http_${res.status}`, message: RB.t("host.journal_failed", { status: res.status }) };
      try { e = (await res.json()).error || e; } catch (err) { /* not JSON: the status says it */ }
      refused(e); return;
    }
    const url = URL.createObjectURL(await res.blob());
    const a = RB.el("a", { href: url, download: "riskboard-journal.sqlite" });
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
  }

  /* The new-game form's words again in a newly chosen language (choices kept). */
  function relabelForm() {
    if (!catalogue) return;
    for (const o of $("variant").options) o.textContent = variantName(catalogue.variants.find((v) => v.id === o.value));
    for (const n of document.querySelectorAll("#colours [data-colour]")) n.textContent = RB.colourName(n.dataset.colour);
    // the house rules' inputs are built again in the new words, keeping what was entered
    const kept = houseRules(), faces = $("setup-faces").value;
    renderRules();
    for (const f of spec().house_rules) {
      const node = document.querySelector(`[data-rule="${f.name}"]`);
      if (f.kind === "bool") node.checked = kept[f.name];
      else if (f.kind === "pair") node.querySelectorAll("input").forEach((i, n) => { i.value = String(kept[f.name][n]); });
      else node.value = String(kept[f.name]);
    }
    $("setup-faces").value = faces;
    const physical = document.querySelector('[data-rule="physical_dice"]');
    $("faces-box").hidden = !(physical && physical.checked);
  }

  async function setUp() {
    catalogue = await RB.api("GET", "/api/variants");
    await RB.ready;
    $("variant").replaceChildren(...catalogue.variants.map((v) => RB.el("option", { value: v.id, text: variantName(v) })));
    $("variant").addEventListener("change", () => { gameRefusal = null; renderRules(); });
    colours();
    renderRules();
    showGame();  // a game already known (the console opened first) sets the form now
  }

  setUp();
  $("login-btn").addEventListener("click", unlock);
  $("pin").addEventListener("keydown", (e) => { if (e.key === "Enter") unlock(); });
  $("new-game-btn").addEventListener("click", newGame);
  $("undo-btn").addEventListener("click", () => act("undo", {}));
  $("pause-btn").addEventListener("click", () => act("pause", {}));
  $("resume-btn").addEventListener("click", () => act("resume", {}));
  $("end-btn").addEventListener("click", () => {
    if (confirm(RB.t("host.end_confirm"))) act("end_game", {});
  });
  $("journal-btn").addEventListener("click", journal);
  $("host-out-close").addEventListener("click", () => say(null));
  $("computer-pause-btn").addEventListener("click", () => setComputer({ paused: true }));
  $("computer-go-btn").addEventListener("click", () => setComputer({ paused: false }));
  $("computer-wait").addEventListener("input", (e) => { e.target.dataset.edited = "1"; });
  // issue 32.2: the table copies a whole computer turn with one Confirm
  $("computer-trust").addEventListener("change", (e) => setComputer({ trust_lights: e.target.checked }));
  $("computer-wait-btn").addEventListener("click", () => {
    const wait = $("computer-wait");
    delete wait.dataset.edited;
    setComputer({ confirm_after_s: Number(wait.value) || 0 });
  });
  if (pin()) unlock();
  RB.onLang(() => {
    relabelForm();
    if (gameRefusal) refusedGame(gameRefusal);
    if (said) say(said.words, said.refused);
    if (!$("console").hidden) { refreshSeats(); showFaults(); showGame(); }
  });
})();
