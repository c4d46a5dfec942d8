/* The bring-up page (issue 25): the maker holds the phone in one hand and touches the board
   with the other. It shows the step's prompt, big buttons for the answers the step takes,
   every sensor channel heard (for finding a bad joint) and the progress; at the end the
   diff against the profile in use, then Save, which the table loads at once. Host PIN as
   on the host page (the same session key). The state is long-polled from
   /api/host/bringup. */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const PIN_KEY = "riskboard.hostPin";
  const DEVICE_KEY = "riskboard.hostDevice";
  const headers = () => ({ "X-Host-Pin": sessionStorage.getItem(PIN_KEY) || "",
    "X-Host-Device": localStorage.getItem(DEVICE_KEY) || "" });
  const call = (method, path, body) => RB.api(method, "/api/host/bringup" + path, body, headers());
  let state = null;
  let shownRefusal = 0;
  let shownStep = null;
  let said = null;  // a refusal of the last tap, worded again when the language changes

  /* A sentence's parameters in the page's words. */
  function words(params) {
    const p = Object.assign({}, params || {});
    if (p.territory) p.territory = RB.territory(p.territory);
    if (p.colour) p.colour = RB.colourName(p.colour);
    if (p.control) p.control = RB.t(`bringup.control.${p.control}`);
    if (p.owner) p.owner = RB.has(`territory.${p.owner}`) ? RB.territory(p.owner) : RB.t(`bringup.status.${p.owner}`);
    if (Array.isArray(p.territories)) p.territories = p.territories.map(RB.territory).join(RB.t("list.separator"));
    return p;
  }
  const sentence = (prompt) => (prompt ? RB.t(prompt.key, words(prompt.params)) : "");
  function refusalText(code, params, fallback) {
    const key = `bringup.refused.${code}`;
    if (RB.has(key)) return RB.t(key, words(params));
    return RB.errorText({ code, params, message: fallback });
  }
  function refuse(e) {
    if (e && e.status === 401) { showLogin(RB.errorText(e)); return; }
    said = () => refusalText(e && e.code, e && e.params, e && e.message);
    $("bu-refusal").textContent = said();
  }
  async function answer(what, value) {
    try {
      said = null; $("bu-refusal").textContent = "";
      render(await call("POST", "/answer", value === undefined ? { what } : { what, value }));
    } catch (e) { refuse(e); }
  }

  /* The readers the Pico hears nothing from, named while they matter (learning the sensors):
     the territory the profile puts there, the reader's channel and where the Pico looks. */
  function silentReaders(s) {
    if (s.step !== "sensors") return [];
    return (s.silent_readers || []).map((r) => {
      const territory = r.territory ? RB.territory(r.territory) : RB.t("bringup.page.channel", { channel: r.channel });
      const key = r.mux ? "bringup.silent.mux" : "bringup.silent.any";
      return RB.t(key, { territory, channel: r.channel, mux: r.mux, port: r.port });
    });
  }

  /* A big answer button; `data-answer` (and `data-value`) say which answer it gives. */
  const button = (text, onclick, cls, what, value) => RB.el("button", Object.assign(
    { class: "big " + (cls || ""), type: "button", text, onclick, "data-answer": what || "" },
    value === undefined ? {} : { "data-value": value }));
  function picker(what, options, label, go, verb) {
    const select = RB.el("select", { "aria-label": label, "data-choice": what });
    for (const [value, text] of options) select.append(RB.el("option", { value, text }));
    return RB.el("div", { class: "bu-wide" }, select, button(verb || RB.t("bringup.page.pick"), () => go(select.value), "", what));
  }
  const COLOUR_SWATCH = { R: "#d62828", G: "#16863f", B: "#1d5fd8" };
  function answerButtons(s) {
    const box = $("bu-answers");
    box.replaceChildren();
    for (const what of s.answers) {
      if (what === "count") {
        const input = RB.el("input", { type: "number", min: "1", max: "4096", inputmode: "numeric",
          value: String(s.led_count), "aria-label": RB.t("bringup.page.count_label"), "data-choice": "count" });
        box.append(RB.el("div", { class: "bu-wide" }, input,
          button(RB.t("bringup.page.set_count"), () => answer("count", parseInt(input.value, 10)), "", "count")));
      } else if (what === "colour") {
        for (const c of ["R", "G", "B"]) {
          const b = button(RB.t(`bringup.colour.${c}`), () => answer("colour", c), "bu-colour", "colour", c);
          b.style.background = COLOUR_SWATCH[c];
          box.append(b);
        }
      } else if (what === "pick") {
        const ids = s.step === "sensors" ? s.unmapped : [...s.unlit, ...s.territories.filter((t) => !s.unlit.includes(t))];
        box.append(picker("pick", ids.map((t) => [t, RB.territory(t)]), RB.t("bringup.page.pick_label"), (t) => answer("pick", t)));
      } else if (what === "status") {
        box.append(picker("status", s.status_groups.map((g) => [g, RB.t(`bringup.status.${g}`)]), RB.t("bringup.page.status_label"), (g) => answer("status", g), RB.t("bringup.page.status_label")));
      } else if (what === "order_free" || what === "order_map") {
        box.append(button(RB.t(`bringup.answer.${what}`), () => answer("order", what.slice(6)), "secondary", "order", what.slice(6)));
      } else if (what === "save") {
        box.append(button(RB.t("bringup.page.review"), review, "", "save"));
      } else if (what === "undo") {
        box.append(button(RB.t("bringup.answer.undo"), () => answer("undo"), "bu-undo", "undo"));
      } else {
        box.append(button(RB.t(`bringup.answer.${what}`), () => answer(what), "", what));
      }
    }
  }

  function render(s) {
    state = s;
    $("bu-login").hidden = true;
    $("bu-idle").hidden = s.active;
    $("bu-run").hidden = !s.active;
    RB.setConn(RB.t(s.active ? "bringup.page.running" : "conn.host"), true);
    if (!s.active) {
      $("bu-review").hidden = true;
      const saved = s.last_saved;
      $("bu-saved").hidden = !saved;
      if (saved) {
        $("bu-saved").textContent = RB.t(saved.backup ? "bringup.page.saved_backup" : "bringup.page.saved",
          { path: saved.path, backup: saved.backup, crc: saved.sensor_crc }) +
          (saved.restart_for && saved.restart_for.length ? " " + RB.t("bringup.page.restart_for") : "");
      }
      return;
    }
    $("bu-run").dataset.revision = String(s.revision);
    const p = s.progress;
    $("bu-step").textContent = RB.t("bringup.page.step", { n: p.index + 1, total: p.steps.length,
      step: RB.t(`bringup.step.${s.step}`) });
    $("bu-bar").max = p.steps.length; $("bu-bar").value = p.index;
    $("bu-counts").textContent = RB.t("bringup.page.counts", { sensors: p.sensors[0], leds: p.leds[0], total: p.sensors[1],
      placed: p.leds_placed[0], chain: p.leds_placed[1] });
    $("bu-prompt").textContent = sentence(s.prompt);
    $("bu-silent").replaceChildren(...silentReaders(s).map((text) => RB.el("span", { text })));
    $("bu-notice").hidden = !s.notice;
    $("bu-notice").textContent = sentence(s.notice);
    if (s.refusal && s.refusal.at > shownRefusal) {  // a touch the board sent was refused
      shownRefusal = s.refusal.at;
      said = () => refusalText(s.refusal.code, s.refusal.params);
      $("bu-refusal").textContent = said();
    }
    if (s.step !== "done") $("bu-review").hidden = true;
    if (s.step !== shownStep) {  // the live view opens for the sensors, folds after
      shownStep = s.step;
      $("bu-live").open = s.step === "sensors" || s.step === "led_count" || s.step === "colour_order";
    }
    answerButtons(s);
    const list = $("bu-channels");
    list.replaceChildren(...s.channels.map((c) => RB.el("li",
      { class: `${c.state}${c.territory ? "" : " unmapped"}`, "data-channel": String(c.channel) },
      RB.el("b", { text: RB.t("bringup.page.channel", { channel: c.channel }) }),
      c.territory ? RB.territory(c.territory) : RB.t("bringup.page.unmapped"),
      c.last ? ` · ${RB.t(`bringup.event.${c.last}`)} ×${c.events}` : "")));
    $("bu-log").replaceChildren(...s.log.slice().reverse().map((e) => RB.el("li", { text:
      `${RB.t(`bringup.event.${e.what}`)} · ${RB.t("bringup.page.channel", { channel: e.channel })}` +
      (e.territory ? ` · ${RB.territory(e.territory)}` : "") })));
  }

  async function review() {
    try {
      const r = await call("GET", "/preview");
      $("bu-crc").textContent = RB.t("bringup.page.crc", { crc: r.sensor_crc, count: r.sensor_count });
      $("bu-crc-warn").hidden = r.crc_matches;
      $("bu-crc-warn").textContent = r.crc_matches ? "" : RB.t("bringup.page.crc_differs", { pico: r.pico_crc, crc: r.sensor_crc });
      $("bu-diff").textContent = r.diff || RB.t("bringup.page.no_diff");
      $("bu-save").dataset.picoLater = r.crc_matches ? "" : "1";
      $("bu-review").hidden = false;
      $("bu-review").scrollIntoView({ block: "start" });
    } catch (e) { refuse(e); }
  }
  $("bu-save").addEventListener("click", async () => {
    try { render(await call("POST", "/save", $("bu-save").dataset.picoLater ? { pico_later: true } : {})); }
    catch (e) { refuse(e); }
  });
  $("bu-start").addEventListener("click", async () => {
    try { render(await call("POST", "/start", { pace: parseFloat($("bu-pace").value) })); }
    catch (e) { refuse(e); $("bu-saved").hidden = false; $("bu-saved").textContent = said ? said() : ""; }
  });
  $("bu-stop").addEventListener("click", async () => {
    try { render(await call("POST", "/stop")); } catch (e) { refuse(e); }
  });

  function showLogin(message) {
    $("bu-login").hidden = false; $("bu-idle").hidden = true; $("bu-run").hidden = true;
    $("bu-login-error").textContent = message || "";
  }
  $("bu-unlock").addEventListener("click", () => {
    sessionStorage.setItem(PIN_KEY, $("bu-pin").value.trim());
    follow();
  });

  /* Long-poll: each answer comes when something changed (a touch, a tap) or after 8 s. */
  let following = false;
  async function follow() {
    if (following) return;
    following = true;
    try {
      for (;;) {
        const after = state ? state.desk_revision : -1;
        const s = await call("GET", `?after=${after}&wait=8`);
        render(s);
      }
    } catch (e) {
      following = false;
      if (e && e.status === 401) { showLogin(sessionStorage.getItem(PIN_KEY) ? RB.errorText(e) : ""); return; }
      RB.setConn(RB.t("conn.offline"), false);
      setTimeout(follow, 2000);
    }
  }
  RB.onLang(() => { if (state) render(state); if (said) $("bu-refusal").textContent = said(); });
  RB.ready.then(follow);
})();
