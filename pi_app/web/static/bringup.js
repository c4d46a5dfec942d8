/* The bring-up page (issue 25): the maker holds the phone in one hand and touches the board
   with the other. It shows the step's prompt, big buttons for the answers the step takes,
   every sensor channel heard (for finding a bad joint) and the progress; at the end the
   diff against the profile in use, then Save, which the table loads at once. Host PIN as
   on the host page (the same session key). The state is long-polled from
   /api/host/bringup. */

import { colourName, errorText, has, t, territory } from "./words.js";
import { el } from "./dom.js";
import { api } from "./seat.js";
import { onLang, ready } from "./language.js";
import { setConn } from "./live.js";
(() => {
  const $ = (id) => document.getElementById(id);
  const PIN_KEY = "riskboard.hostPin";
  const DEVICE_KEY = "riskboard.hostDevice";
  const headers = () => ({ "X-Host-Pin": sessionStorage.getItem(PIN_KEY) || "",
    "X-Host-Device": localStorage.getItem(DEVICE_KEY) || "" });
  const call = (method, path, body) => api(method, "/api/host/bringup" + path, body, headers());
  let state = null;
  let shownRefusal = 0;
  let shownStep = null;
  let said = null;  // a refusal of the last tap, worded again when the language changes

  /* A sentence's parameters in the page's words. */
  function words(params) {
    const p = Object.assign({}, params || {});
    if (p.territory) p.territory = territory(p.territory);
    if (p.colour) p.colour = colourName(p.colour);
    if (p.control) p.control = t(`bringup.control.${p.control}`);
    if (p.owner) p.owner = has(`territory.${p.owner}`) ? territory(p.owner) : t(`bringup.status.${p.owner}`);
    if (Array.isArray(p.territories)) p.territories = p.territories.map(territory).join(t("list.separator"));
    return p;
  }
  const sentence = (prompt) => (prompt ? t(prompt.key, words(prompt.params)) : "");
  function refusalText(code, params, fallback) {
    const key = `bringup.refused.${code}`;
    if (has(key)) return t(key, words(params));
    return errorText({ code, params, message: fallback });
  }
  function refuse(e) {
    if (e && e.status === 401) { showLogin(errorText(e)); return; }
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
      const where = r.territory ? territory(r.territory) : t("bringup.page.channel", { channel: r.channel });
      const key = r.mux ? "bringup.silent.mux" : "bringup.silent.any";
      return t(key, { territory: where, channel: r.channel, mux: r.mux, port: r.port });
    });
  }

  /* A big answer button; `data-answer` (and `data-value`) say which answer it gives. */
  const button = (text, onclick, cls, what, value) => el("button", Object.assign(
    { class: "big " + (cls || ""), type: "button", text, onclick, "data-answer": what || "" },
    value === undefined ? {} : { "data-value": value }));
  function picker(what, options, label, go, verb) {
    const select = el("select", { "aria-label": label, "data-choice": what });
    for (const [value, text] of options) select.append(el("option", { value, text }));
    return el("div", { class: "bu-wide" }, select, button(verb || t("bringup.page.pick"), () => go(select.value), "", what));
  }
  const COLOUR_SWATCH = { R: "#d62828", G: "#16863f", B: "#1d5fd8" };
  function answerButtons(s) {
    const box = $("bu-answers");
    box.replaceChildren();
    for (const what of s.answers) {
      if (what === "count") {
        const input = el("input", { type: "number", min: "1", max: "4096", inputmode: "numeric",
          value: String(s.led_count), "aria-label": t("bringup.page.count_label"), "data-choice": "count" });
        box.append(el("div", { class: "bu-wide" }, input,
          button(t("bringup.page.set_count"), () => answer("count", parseInt(input.value, 10)), "", "count")));
      } else if (what === "colour") {
        for (const c of ["R", "G", "B"]) {
          const b = button(t(`bringup.colour.${c}`), () => answer("colour", c), "bu-colour", "colour", c);
          b.style.background = COLOUR_SWATCH[c];
          box.append(b);
        }
      } else if (what === "pick") {
        const ids = s.step === "sensors" ? s.unmapped : [...s.unlit, ...s.territories.filter((id) => !s.unlit.includes(id))];
        box.append(picker("pick", ids.map((id) => [id, territory(id)]), t("bringup.page.pick_label"), (id) => answer("pick", id)));
      } else if (what === "status") {
        box.append(picker("status", s.status_groups.map((g) => [g, t(`bringup.status.${g}`)]), t("bringup.page.status_label"), (g) => answer("status", g), t("bringup.page.status_label")));
      } else if (what === "order_free" || what === "order_map") {
        box.append(button(t(`bringup.answer.${what}`), () => answer("order", what.slice(6)), "secondary", "order", what.slice(6)));
      } else if (what === "save") {
        box.append(button(t("bringup.page.review"), review, "", "save"));
      } else if (what === "undo") {
        box.append(button(t("bringup.answer.undo"), () => answer("undo"), "bu-undo", "undo"));
      } else {
        box.append(button(t(`bringup.answer.${what}`), () => answer(what), "", what));
      }
    }
  }

  function render(s) {
    state = s;
    $("bu-login").hidden = true;
    $("bu-idle").hidden = s.active;
    $("bu-run").hidden = !s.active;
    setConn(t(s.active ? "bringup.page.running" : "conn.host"), true);
    if (!s.active) {
      $("bu-review").hidden = true;
      const saved = s.last_saved;
      $("bu-saved").hidden = !saved;
      if (saved) {
        $("bu-saved").textContent = t(saved.backup ? "bringup.page.saved_backup" : "bringup.page.saved",
          { path: saved.path, backup: saved.backup, crc: saved.sensor_crc }) +
          (saved.restart_for && saved.restart_for.length ? " " + t("bringup.page.restart_for") : "");
      }
      return;
    }
    $("bu-run").dataset.revision = String(s.revision);
    const p = s.progress;
    $("bu-step").textContent = t("bringup.page.step", { n: p.index + 1, total: p.steps.length,
      step: t(`bringup.step.${s.step}`) });
    $("bu-bar").max = p.steps.length; $("bu-bar").value = p.index;
    $("bu-counts").textContent = t("bringup.page.counts", { sensors: p.sensors[0], leds: p.leds[0], total: p.sensors[1],
      placed: p.leds_placed[0], chain: p.leds_placed[1] });
    $("bu-prompt").textContent = sentence(s.prompt);
    $("bu-silent").replaceChildren(...silentReaders(s).map((text) => el("span", { text })));
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
    list.replaceChildren(...s.channels.map((c) => el("li",
      { class: `${c.state}${c.territory ? "" : " unmapped"}`, "data-channel": String(c.channel) },
      el("b", { text: t("bringup.page.channel", { channel: c.channel }) }),
      c.territory ? territory(c.territory) : t("bringup.page.unmapped"),
      c.last ? ` · ${t(`bringup.event.${c.last}`)} ×${c.events}` : "")));
    $("bu-log").replaceChildren(...s.log.slice().reverse().map((e) => el("li", { text:
      `${t(`bringup.event.${e.what}`)} · ${t("bringup.page.channel", { channel: e.channel })}` +
      (e.territory ? ` · ${territory(e.territory)}` : "") })));
  }

  async function review() {
    try {
      const r = await call("GET", "/preview");
      $("bu-crc").textContent = t("bringup.page.crc", { crc: r.sensor_crc, count: r.sensor_count });
      $("bu-crc-warn").hidden = r.crc_matches;
      $("bu-crc-warn").textContent = r.crc_matches ? "" : t("bringup.page.crc_differs", { pico: r.pico_crc, crc: r.sensor_crc });
      $("bu-diff").textContent = r.diff || t("bringup.page.no_diff");
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
      if (e && e.status === 401) { showLogin(sessionStorage.getItem(PIN_KEY) ? errorText(e) : ""); return; }
      setConn(t("conn.offline"), false);
      setTimeout(follow, 2000);
    }
  }
  onLang(() => { if (state) render(state); if (said) $("bu-refusal").textContent = said(); });
  ready.then(follow);
})();
