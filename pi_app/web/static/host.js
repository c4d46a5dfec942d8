/* Host console: PIN login, new game, seat QR codes (and how many phones opened each seat's
   link), undo/pause/resume/end, journal, the board's health and the riskboard version. */

import { colourName, errorText, has, problemText, t, territory, variantName } from "./words.js";
import { waits } from "./saying.js";
import { colour, el, sayIn } from "./dom.js";
import { adoptGame, chosenPlayers, facesTyped, houseRules, loadForm, relabelForm } from "./host-form.js";
import { api } from "./seat.js";
import { lang, onLang, ready } from "./language.js";
import { setConn } from "./live.js";
(() => {
  const $ = (id) => document.getElementById(id);
  const PIN_KEY = "riskboard.hostPin";
  const pin = () => sessionStorage.getItem(PIN_KEY) || "";
  const DEVICE_KEY = "riskboard.hostDevice";  // this device signed in as host (SECURITY.md)
  const hostHeaders = () => ({ "X-Host-Pin": pin(), "X-Host-Device": localStorage.getItem(DEVICE_KEY) || "" });
  const hostApi = (method, path, body) => api(method, path, body, hostHeaders());
  /* What the last action did, or why it was refused, as one sentence in the page's
     language (worded again when the language changes); hidden while there is none. It
     stands in the page's flow right under where the host acted (`near`: the Start button,
     the seats, the game's or the computer's row), so it covers no control (issue 32.6). */
  let said = null;
  function say(words, refused, near) {
    said = words ? { words, refused: !!refused } : null;
    if (near && near.nextElementSibling !== $("host-said")) near.after($("host-said"));
    $("host-out").textContent = said ? said.words() : "";
    $("host-said").classList.toggle("refused", !!(said && said.refused));
    $("host-said").hidden = !said;
  }
  const refused = (e, near) => say(() => errorText(e), true, near);
  const gameRow = () => $("undo-btn").parentElement;
  /* A finished host action in words: `result` is the table's answer to `action`. */
  function doneText(action, result) {
    const r = result || {};
    if (action === "undo") return t("host.done.undo", { n: Array.isArray(r.undone) ? r.undone.length : 1 });
    if (action === "new_game") return t("host.done.new_game", { game: r.game_id });
    return t(`host.done.${action}`);
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
    qr.setAttribute("aria-label", t("host.qr_of", { colour: colourName(seat.player) }));
    const sw = el("span", { class: "swatch big-swatch", "aria-hidden": "true" });
    sw.style.background = colour(seat.player);
    const cap = el("figcaption", {}, sw, " " + t("host.scan_with", { colour: colourName(seat.player) }));
    const box = $("seat-code");
    const full = el("button", { class: "big", "data-full": "1", text: t("host.full_screen"),
      onclick: () => { full.textContent = t(box.classList.toggle("full") ? "host.close" : "host.full_screen"); } });
    // beside the code, its link for a laptop or a phone that cannot scan
    const link = el("p", { class: "seat-link" }, el("span", { text: t("host.or_open") + " " }),
      el("a", { href: seat.url, text: seat.url, target: "_blank", rel: "noreferrer" }));
    // and its short code, typed on /join by a device with no camera
    const typed = el("p", { class: "seat-typed" }, el("span", { text: t("host.type_code", { url: seat.join_url }) + " " }),
      el("code", { class: "seat-typed-code", text: seat.code }));
    box.replaceChildren(document.importNode(qr, true), cap, typed, link, el("div", { class: "row" }, full,
      el("button", { text: t("host.hide_code"), onclick: hideCode })));
    box.style.setProperty("--seat", colour(seat.player));
    box.hidden = false;
  }
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !$("seat-code").classList.contains("full")) return;
    $("seat-code").classList.remove("full");
    const full = $("seat-code").querySelector("[data-full]");
    if (full) full.textContent = t("host.full_screen");
  });
  async function requestCode(player) {
    try { showCode((await hostApi("GET", `/api/host/seats/${encodeURIComponent(player)}/code`)).seat); }
    catch (e) { refused(e, $("seat-code")); refreshSeats(); }
  }
  async function newCode(s) {
    if (s.claimed && !confirm(t("host.move_confirm", { colour: colourName(s.player) }))) return;
    try {
      const r = await hostApi("POST", `/api/host/seats/${encodeURIComponent(s.player)}/reissue`);
      renderSeats(r.seats); showCode(r.seat); say(null);
    } catch (e) { refused(e, $("seat-code")); }
  }
  /* Computer seats (issue 16): each seat is played by a phone or by the Pi at a level. */
  let computers = {};
  async function loadComputers() {
    try {
      const now = (await api("GET", "/api/state")).state;
      computers = (now.table || {}).computers || {};
      showGame(now);
    } catch (e) { computers = {}; }
    // a number the host is typing (or typed and has not set yet) is theirs, not the server's
    const wait = $("computer-wait");
    if (document.activeElement !== wait && !wait.dataset.edited) wait.value = computers.confirm_after_s || 0;
    $("computer-trust").checked = !!computers.trust_lights;
    $("computer-state").textContent = computers.seats && Object.keys(computers.seats).length
      ? t(computers.paused ? "host.computer_paused" : "host.computer_playing") : "";
  }
  /* `near`: the seats (a seat's "played by"), else the computer's row */
  async function setComputer(body, near = $("computer-state")) {
    try {
      await hostApi("POST", "/api/host/computer", body);
      say(() => doneText("computer"), false, near);
      await refreshSeats();
    } catch (e) { refused(e, near); }
  }
  const LEVELS = ["easy", "normal", "hard"];
  const levelName = (v) => (has(`host.level.${v}`) ? t(`host.level.${v}`) : String(v));
  function playedBy(s) {
    const level = (computers.seats || {})[s.player] || "";
    const pick = el("select", { class: "played-by",
      "aria-label": t("host.played_by_label", { colour: colourName(s.player) }) },
      el("option", { value: "", text: t("host.by_phone") }),
      ...LEVELS.map((v) => el("option", { value: v, text: t("host.computer", { level: levelName(v) }) })));
    pick.value = level;
    pick.addEventListener("change", () => setComputer({ seats: { [s.player]: pick.value || null } }, $("seat-code")));
    return el("label", { class: "rule" }, t("host.played_by") + " ", pick);
  }
  function renderSeats(seats) {
    if (shownSeat && seats.some((s) => s.player === shownSeat && s.claimed)) hideCode();
    $("seats").replaceChildren(...seats.map((s) => {
      const box = el("figure", { class: "seat" });
      const computer = (computers.seats || {})[s.player];
      const where = computer ? t("host.computer", { level: levelName(computer) })
        : t(s.claimed ? "host.on_phone" : "host.waiting_phone");
      const cap = el("figcaption", { text: t("host.seat_caption", { player: colourName(s.player), where }) });
      cap.style.color = colour(s.player);
      box.append(cap, playedBy(s));
      /* the seat's link reached more than one phone (only the first holds the seat): the
         host sees it, and moves the seat if the wrong phone holds it */
      if (!computer && s.phones > 1) box.append(el("p", { class: "seat-phones", text: t("host.seat_phones", { n: s.phones }) }));
      if (!computer && !s.claimed) box.append(el("button", { class: "show-code", text: t("host.show_code"), onclick: () => requestCode(s.player) }));
      if (!computer) box.append(el("button", { class: "new-code", text: t(s.claimed ? "host.move_seat" : "host.new_code"), onclick: () => newCode(s) }));
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
      if (!has(`host.part_missing.${name}`)) continue;
      named.push(t(`host.part_missing.${name}`, { why: String(part.fault).replace(/\.$/, "") }));
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
      $("faults").replaceChildren(...faults.map((f) => el("p", { text: f })));
      $("faults").hidden = !faults.length;
      const link = s.link || {}, mism = s.mismatches || [];
      $("host-version").textContent = s.version ? t("host.version", { version: s.version }) : "";
      $("health").replaceChildren(
        el("p", { text: t("host.link", { state: has(`host.link_state.${link.state}`)
          ? t(`host.link_state.${link.state}`) : (link.state || "?") }) }),
        el("p", { text: mism.length ? t("fault.mismatch", { list: mism.map((m) => territory(m.territory || m)).join(", ") })
          : t("host.board_ok") }),
        el("details", {}, el("summary", { text: t("host.all_stats") }),
          el("pre", { class: "out", text: JSON.stringify(s, null, 1) })));
    } catch (e) { /* the next poll tries again */ }
  }

  /* The dice's full commitment, for the host (players see only the "fair dice" badge). */
  async function showCommitment() {
    try {
      const d = await api("GET", "/api/dice");
      $("host-commitment").textContent = d.commitment || t("dicepage.no_roll");
    } catch (e) { /* the next poll tries again */ }
  }

  /* Someone guessing the host PIN (a burst of wrong PINs at the whole table). */
  async function showPinGuessing() {
    try {
      const g = (await hostApi("GET", "/api/host/check")).pin_guessing;
      $("pin-alert").hidden = !g;
      if (g) {
        $("pin-alert").textContent = t(g.active ? "host.pin_guessing_now" : "host.pin_guessing_was",
          { wrong: g.wrong, addresses: g.addresses, since: new Date(g.since).toLocaleTimeString(lang()) });
      }
    } catch (e) { /* this device is limited: the login says so */ }
  }

  async function unlock() {
    await ready;  // the seat list speaks the page's language
    sessionStorage.setItem(PIN_KEY, $("pin").value.trim() || pin());
    try {
      const signedIn = await hostApi("GET", "/api/host/check");
      if (signedIn.device) localStorage.setItem(DEVICE_KEY, signedIn.device);
      $("login").hidden = true; $("console").hidden = false;
      await loadComputers();
      renderSeats((await hostApi("GET", "/api/host/seats")).seats);
      setInterval(refreshSeats, 5000);
      setConn(t("conn.host"), true);
      showFaults(); setInterval(showFaults, 15000);
      showCommitment(); setInterval(showCommitment, 15000);
      showPinGuessing(); setInterval(showPinGuessing, 15000);
    } catch (e) { $("login-error").textContent = errorText(e); }
  }

  /* The game the table is playing (a reload must not forget it: RISK Strike has no map to
     show it), or who won it; the new-game form starts from it once. */
  let gameShown = null, adopted = false;
  function showGame(now) {
    if (now !== undefined) gameShown = now;
    const g = gameShown;
    let line = $("game-now");
    if (!line) {
      line = el("p", { id: "game-now", class: "game-now", role: "status" });
      $("console").prepend(line);
    }
    line.hidden = !(g && g.players && g.variant);
    if (line.hidden) return;
    const variant = variantName(g.variant);
    // a game over says so as the table does (won, or ended by the host), with its seed
    const w = waits(g), over = w.status === "over";
    if (over && w.over.winner) {
      sayIn(line, [{ key: "host.game_won", params: { variant, player: { colour: w.over.winner } } },
        ...w.says.banner.slice(1)], w);
    } else if (over) sayIn(line, [{ key: "host.game_over", params: { variant } }, ...w.says.banner], w);
    else line.textContent = t("host.game_now", { variant, turn: g.turn, players: g.players.map(colourName).join(", ") });
    if (!adopted && !over && adoptGame(g)) adopted = true;
  }

  async function act(action, body) {
    try { const r = await hostApi("POST", `/api/host/${action}`, body); say(() => doneText(action, r.result), false, gameRow()); }
    catch (e) { refused(e, gameRow()); return; }
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
    const sentences = names.map((name) => problemText(problems[name], fields[name]));
    names.forEach((name, i) => {
      const slot = document.querySelector(`[data-error="${name}"]`);
      if (slot) slot.textContent = " " + sentences[i];
    });
    $("new-game-error").textContent = sentences.length ? sentences.join(" ") : errorText(e);
    say(null);
  }
  async function newGame() {
    gameRefusal = null;
    $("new-game-error").textContent = "";
    document.querySelectorAll("[data-error]").forEach((n) => { n.textContent = ""; });
    try {
      const body = { variant: $("variant").value, players: chosenPlayers(), house_rules: houseRules() };
      const typed = facesTyped();
      if (typed.length) body.faces = typed;
      const r = await hostApi("POST", "/api/host/new_game", body);
      // the new game at once (the answer holds its view), not the old one until the next read
      if (r.state) { computers = (r.state.table || {}).computers || {}; showGame(r.state); }
      hideCode(); renderSeats(r.seats); say(() => doneText("new_game", r.result), false, $("new-game-btn"));
    } catch (e) { refusedGame(e); }
  }

  async function journal() {
    const res = await fetch("/api/host/journal", { headers: hostHeaders(), cache: "no-store" });
    if (!res.ok) {
      let e = { code: `http_${res.status}`, message: t("host.journal_failed", { status: res.status }) };
      try { e = (await res.json()).error || e; } catch (err) { /* not JSON: the status says it */ }
      refused(e, gameRow()); return;
    }
    const url = URL.createObjectURL(await res.blob());
    const a = el("a", { href: url, download: "riskboard-journal.sqlite" });
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
  }

  loadForm(() => { gameRefusal = null; }).then(() => showGame());  // a game already known sets the form now
  $("login-btn").addEventListener("click", unlock);
  $("pin").addEventListener("keydown", (e) => { if (e.key === "Enter") unlock(); });
  $("new-game-btn").addEventListener("click", newGame);
  $("undo-btn").addEventListener("click", () => act("undo", {}));
  $("pause-btn").addEventListener("click", () => act("pause", {}));
  $("resume-btn").addEventListener("click", () => act("resume", {}));
  $("end-btn").addEventListener("click", () => {
    if (confirm(t("host.end_confirm"))) act("end_game", {});
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
  onLang(() => {
    relabelForm();
    if (gameRefusal) refusedGame(gameRefusal);
    if (said) say(said.words, said.refused);
    if (!$("console").hidden) { refreshSeats(); showFaults(); showGame(); }
  });
})();
