/* Host console: PIN login, new game, seat QR codes, undo/pause/resume/end, journal. */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const PIN_KEY = "riskboard.hostPin";
  const pin = () => sessionStorage.getItem(PIN_KEY) || "";
  const hostApi = (method, path, body) => RB.api(method, path, body, { "X-Host-Pin": pin() });
  const out = (x) => { $("host-out").textContent = typeof x === "string" ? x : JSON.stringify(x, null, 1); };

  function renderSeats(seats) {
    $("seats").replaceChildren(...seats.map((s) => {
      const box = RB.el("figure", { class: "seat" });
      const qr = new DOMParser().parseFromString(s.qr_svg, "image/svg+xml").documentElement;
      qr.setAttribute("class", "qr");
      const cap = RB.el("figcaption", { text: s.player });
      cap.style.color = RB.colour(s.player);
      const again = RB.el("button", { text: "New code", onclick: async () => {
        try { renderSeats((await hostApi("POST", `/api/host/seats/${encodeURIComponent(s.player)}/reissue`)).seats); }
        catch (e) { out(e.message); } } });
      box.append(document.importNode(qr, true), cap, again);
      return box;
    }));
  }

  async function unlock() {
    sessionStorage.setItem(PIN_KEY, $("pin").value.trim() || pin());
    try {
      await hostApi("GET", "/api/host/check");
      $("login").hidden = true; $("console").hidden = false;
      renderSeats((await hostApi("GET", "/api/host/seats")).seats);
      RB.setConn("host", true);
    } catch (e) { $("login-error").textContent = e.message; }
  }

  function colours() {
    const box = $("colours");
    for (const c of ["red", "blue", "green", "yellow", "black", "pink"]) {
      const cb = RB.el("input", { type: "checkbox", value: c });
      if (c === "red" || c === "blue" || c === "green") cb.checked = true;
      const lab = RB.el("label", { class: "colour" }, cb, " " + c);
      lab.style.borderColor = RB.colour(c);
      box.append(lab);
    }
  }

  async function act(action, body) {
    try { out(await hostApi("POST", `/api/host/${action}`, body)); }
    catch (e) { out(`${e.message} (${e.code})`); }
  }

  async function newGame() {
    const players = [...document.querySelectorAll("#colours input:checked")].map((i) => i.value);
    const house_rules = {
      physical_dice: $("hr-physical").checked,
      defender_chooses_dice: $("hr-defender").checked,
      fortify: $("hr-fortify").value,
      setup: $("hr-setup").value,
      mission_deck: $("hr-missions").value,
    };
    try {
      const r = await hostApi("POST", "/api/host/new_game", { variant: $("variant").value, players, house_rules });
      renderSeats(r.seats); out(r.result);
    } catch (e) { out(`${e.message} (${e.code})`); }
  }

  async function journal() {
    const res = await fetch("/api/host/journal", { headers: { "X-Host-Pin": pin() }, cache: "no-store" });
    if (!res.ok) { out("journal: " + res.status); return; }
    const url = URL.createObjectURL(await res.blob());
    const a = RB.el("a", { href: url, download: "riskboard-journal.sqlite" });
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
  }

  colours();
  $("login-btn").addEventListener("click", unlock);
  $("pin").addEventListener("keydown", (e) => { if (e.key === "Enter") unlock(); });
  $("new-game-btn").addEventListener("click", newGame);
  $("undo-btn").addEventListener("click", () => act("undo", {}));
  $("pause-btn").addEventListener("click", () => act("pause", {}));
  $("resume-btn").addEventListener("click", () => act("resume", {}));
  $("end-btn").addEventListener("click", () => {
    if (confirm("End the game and reveal the dice seed?")) act("end_game", {});
  });
  $("journal-btn").addEventListener("click", journal);
  if (pin()) unlock();
})();
