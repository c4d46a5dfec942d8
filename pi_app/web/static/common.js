/* Shared by every page (a classic script, so the host and dice pages use it too): API
   calls, the seat token, the live event stream, and the words: `RB.t(key, params)` reads
   the language catalogue (inline in the page when it is the chosen language, else
   /i18n/<lang>.json), chosen from the phone's language, switchable in the header and
   remembered per phone (its storage, and a cookie that tells the server). Elements with
   `data-i18n="key"` (and `data-i18n-aria-label`, `-title`, `-placeholder`) are translated
   in place. */
"use strict";

const RB = (() => {
  const COLOURS = {
    red: "#d62828", blue: "#1d5fd8", green: "#16863f", yellow: "#f2c417",
    black: "#2b2b2b", pink: "#e64da0", neutral: "#8a8a8a", allied: "#7e57c2",
  };
  const DARK_TEXT = new Set(["yellow"]);
  const TOKEN_KEY = "riskboard.seatToken";
  const PHONE_KEY = "riskboard.phone";
  const LANG_KEY = "riskboard.lang";
  const LANGS = ["en", "ko", "ja", "fr"];

  // ----- words ------------------------------------------------------------------------------
  const parsed = document.readyState === "loading"
    ? new Promise((done) => document.addEventListener("DOMContentLoaded", done, { once: true }))
    : Promise.resolve();
  let words = {};
  let lang = "en";
  const langListeners = [];
  function chooseLang() {
    const kept = localStorage.getItem(LANG_KEY);
    if (LANGS.includes(kept)) return kept;
    for (const l of navigator.languages || [navigator.language || "en"]) {
      const base = String(l).toLowerCase().split("-")[0];
      if (LANGS.includes(base)) return base;
    }
    return "en";
  }
  /* The words the page came with (base.html's data block, in the language the server chose
     from this phone's cookie or Accept-Language): no request when they are the chosen ones. */
  function inlineWords(code) {
    const block = document.getElementById("rb-words");
    if (!block || block.dataset.lang !== code) return null;
    try { return JSON.parse(block.textContent); } catch (e) { return null; }
  }
  /* The chosen language goes with the next page request too (a preference, not a secret), so
     the server sends that page in it. */
  function rememberLang(code) {
    document.cookie = `${LANG_KEY}=${code}; path=/; max-age=31536000; SameSite=Strict`;
  }
  async function loadLang(code) {
    let fresh = inlineWords(code);
    if (!fresh) {
      const res = await fetch(`/i18n/${code}.json`, { credentials: "omit" });
      if (!res.ok) throw new Error(`no words for ${code}`);
      fresh = await res.json();
      rememberLang(code);
    }
    words = fresh;
    lang = code;
    document.documentElement.lang = code;
    await parsed;  // this script runs from the head: the page may still be arriving
    translate(document);
  }
  /* The sentence for `key` with {placeholders} filled from `params`; `key.one` is used when
     params.n is 1 (every catalogue has the same keys). A missing key shows as itself. */
  function t(key, params) {
    let text = words[key];
    if (params && params.n === 1 && words[key + ".one"] !== undefined) text = words[key + ".one"];
    if (text === undefined) return key;
    return params ? text.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined ? m : String(params[k]))) : text;
  }
  function has(key) { return words[key] !== undefined; }
  /* Words already right (the page came in this language) are left alone: no new layout. */
  function translate(root) {
    for (const node of root.querySelectorAll("[data-i18n]")) {
      const text = t(node.dataset.i18n);
      if (node.textContent !== text) node.textContent = text;
    }
    for (const attr of ["aria-label", "title", "placeholder"]) {
      for (const node of root.querySelectorAll(`[data-i18n-${attr}]`)) {
        const text = t(node.getAttribute(`data-i18n-${attr}`));
        if (node.getAttribute(attr) !== text) node.setAttribute(attr, text);
      }
    }
  }
  const ready = loadLang(chooseLang()).catch(() => loadLang("en"));
  async function setLang(code) {
    if (!LANGS.includes(code)) return;
    localStorage.setItem(LANG_KEY, code);
    rememberLang(code);
    await loadLang(code);
    for (const f of langListeners) f(code);
  }
  function onLang(f) { langListeners.push(f); }
  function wireLangPicker() {
    const pick = document.getElementById("lang");
    if (!pick) return;
    ready.then(() => { pick.value = lang; });
    pick.addEventListener("change", () => setLang(pick.value));
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wireLangPicker);
  else wireLangPicker();

  /* Names as a player of the chosen language knows them. */
  const colourName = (p) => (has(`colour.${p}`) ? t(`colour.${p}`) : String(p));
  const territory = (id) => (has(`territory.${id}`) ? t(`territory.${id}`) : String(id));
  const continent = (id) => (has(`continent.${id}`) ? t(`continent.${id}`) : String(id));
  const variantName = (id) => (has(`variant.${id}`) ? t(`variant.${id}`) : String(id));
  /* A house rule's words (`houserule.<rule>`, `houserule.<rule>.<choice>`), else as given. */
  const ruleWord = (key) => (has(`houserule.${key}`) ? t(`houserule.${key}`) : String(key));
  /* A refusal's parameters in the page's words: a colour, territory, variant or house rule
     by its name here, a list of choices joined; numbers and typed values as they are. */
  function wordParams(params) {
    const p = Object.assign({}, params || {});
    const rule = p.rule;
    if (p.colour !== undefined) p.colour = colourName(p.colour);
    if (p.territory !== undefined) p.territory = territory(p.territory);
    if (p.variant !== undefined) p.variant = variantName(p.variant);
    for (const part of ["first", "second"]) if (p[part] !== undefined) p[part] = ruleWord(`${rule}.${p[part]}`);
    if (rule !== undefined) p.rule = ruleWord(rule);
    if (Array.isArray(p.choices)) {
      p.choices = p.choices.map((c) => (rule !== undefined ? ruleWord(`${rule}.${c}`)
        : has(`variant.${c}`) ? variantName(c) : has(`colour.${c}`) ? colourName(c) : String(c))).join(t("list.separator"));
    }
    return p;
  }
  /* `key`'s words filled from the server's parameters; `fallback` (the server's English)
     when the catalogue lacks the key or a placeholder stays unfilled. */
  function worded(key, params, fallback) {
    if (!has(key)) return fallback;
    const text = t(key, wordParams(params));
    return /\{\w+\}/.test(text) && fallback ? fallback : text;
  }
  /* A refusal as a sentence in the page's language: its stable code's words
     (`error.<code>`), filled from its parameters (e.g. the seconds to wait), else the
     server's sentence. */
  function errorText(e) {
    const code = e && e.code;
    const fallback = (e && e.message) || t("error.unknown");
    return code ? worded(`error.${code}`, e.params, fallback) : fallback;
  }
  /* One field's problem in a refused form ({code, params} from the answer's `problems`). */
  function problemText(problem, fallback) {
    return problem && problem.code ? worded(`problem.${problem.code}`, problem.params, fallback) : fallback;
  }

  /* What the table waits for (`table.waits`, pi_app/table/awaiting.py) carries catalogue
     keys and parameters, never words: `say(sentence)` words one in the page's language. A
     parameter is a number or plain text, or a typed value: {colour}, {colours} (listed, "–"
     for none), {territory}, {continent}, {word, of} (the catalogue's `word.of`), a nested
     sentence, or {list, join} (sentences one after another). */
  function sayValue(v) {
    if (v === null || v === undefined) return "";
    if (typeof v !== "object") return v;  // numbers stay numbers (`key.one` when n is 1)
    if (v.key !== undefined) return say(v);
    if (v.colour !== undefined) return v.colour === null ? "" : colourName(v.colour);
    if (v.colours !== undefined) return v.colours.length ? v.colours.map(colourName).join(t("list.separator")) : "–";
    if (v.territory !== undefined) return v.territory ? territory(v.territory) : "";
    if (v.continent !== undefined) return continent(v.continent);
    if (v.word !== undefined) return has(`${v.word}.${v.of}`) ? t(`${v.word}.${v.of}`) : String(v.of).replace(/_/g, " ");
    // joined as the language joins them: list.steps, list.comma, else list.separator
    if (v.list !== undefined) return v.list.map(sayValue).join(t(has(`list.${v.join}`) ? `list.${v.join}` : "list.separator"));
    return "";
  }
  function say(sentence) {
    if (!sentence) return "";
    if (sentence.key === undefined) return String(sayValue(sentence));
    const params = {};
    for (const [k, v] of Object.entries(sentence.params || {})) params[k] = sayValue(v);
    return t(sentence.key, params);
  }
  /* `node` says `sentences` (joined with `sep`); once the game is over (`waits.over`), with
     a link to the page that checks its dice. */
  function sayIn(node, sentences, waits, sep) {
    const text = (sentences || []).map(say).filter(Boolean).join(sep === undefined ? " · " : sep);
    const over = waits && waits.status === "over" && waits.over;
    if (!over) { if (node.textContent !== text) node.textContent = text; return; }
    // one flowing line (a banner lays out its children side by side)
    node.replaceChildren(el("span", { class: "over-line" }, text, " · ", el("a", { href: over.dice,
      class: "dice-link", "data-dice-link": "1", text: t("over.check_dice") })));
  }
  /* What the table waits for in `state` (the view's `table.waits`; a view from before it
     reads as no game). */
  function waits(state) {
    const w = state && state.table && state.table.waits;
    return w || { status: "none", seats: [], says: { banner: [], line: [], seat: null }, you: false };
  }

  /* A seat link carries the token in the fragment (#t=...): move it to localStorage and
     drop it from the address bar so it is never shown, shared, bookmarked or logged. */
  function adoptTokenFromFragment() {
    const m = /(?:^#|&)t=([A-Za-z0-9_-]{20,})/.exec(location.hash);
    if (m) {
      localStorage.setItem(TOKEN_KEY, m[1]);
      history.replaceState(null, "", location.pathname);
    }
  }
  /* A seat link opened again in a tab already on the page (a QR scanned twice, a new code
     after a seat moved) changes only the fragment: take the new token and start afresh. */
  window.addEventListener("hashchange", () => {
    if (/(?:^#|&)t=/.test(location.hash)) { adoptTokenFromFragment(); location.reload(); }
  });
  function token() { return localStorage.getItem(TOKEN_KEY); }
  function forgetToken() { localStorage.removeItem(TOKEN_KEY); }

  async function api(method, path, body, extraHeaders) {
    const headers = Object.assign({}, extraHeaders || {});
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer",
    });
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) {
      const err = (data && data.error) || { code: "http_" + res.status, message: res.statusText };
      const e = new Error(err.message); e.code = err.code; e.status = res.status; e.fields = err.fields;
      e.params = err.params; e.problems = err.problems;
      throw e;
    }
    return data;
  }
  /* This browser's own random key, sent with the seat token: the first phone that uses a
     seat's code holds the seat, and another is told it is taken (SECURITY.md). */
  function phone() {
    let key = localStorage.getItem(PHONE_KEY);
    if (!key) {
      key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem(PHONE_KEY, key);
    }
    return key;
  }
  function seatApi(method, path, body) {
    return api(method, path, body, { "X-Seat-Token": token() || "", "X-Seat-Phone": phone() });
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const c of children) if (c != null) node.append(c);
    return node;
  }
  /* Dice typed from physical dice: every digit is one die ("6 4 1", "641"); the server
     refuses anything but faces 1 to 6 with a sentence. */
  function faces(text) {
    return String(text || "").replace(/[^0-9]/g, "").split("").filter(Boolean).map(Number);
  }
  /* `f` at most once a frame: the function returned asks for it, and however often it is
     asked before then (a burst of stream messages), `f` runs once, in the next animation
     frame, or after `fallbackMs` where no frame comes (a hidden tab paints none, and the
     page must not wait for it forever). Its `now()` runs an asked-for `f` at once. */
  function oncePerFrame(f, fallbackMs = 250) {
    let queued = false, frame = 0, timer = 0;
    function run() {
      if (!queued) return;
      queued = false;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      f();
    }
    function ask() {
      if (queued) return;
      queued = true;
      frame = requestAnimationFrame(run);
      timer = setTimeout(run, fallbackMs);
    }
    ask.now = run;
    return ask;
  }
  function colour(player) { return COLOURS[player] || COLOURS.neutral; }
  function textOn(player) { return DARK_TEXT.has(player) ? "#111" : "#fff"; }

  /* The connection badge: `text`, or a catalogue key ("conn.live") kept on the badge so the
     words that arrive after it (or a language change) translate it. */
  function setConn(text, ok) {
    const c = document.getElementById("conn");
    if (!c) {  // a stream started from the head may answer before the header is parsed
      if (document.readyState === "loading") parsed.then(() => setConn(text, ok));
      return;
    }
    if (/^conn\.\w+$/.test(text)) {
      c.dataset.i18n = text;
      if (has(text)) c.textContent = t(text);
    } else {
      delete c.dataset.i18n;
      c.textContent = text;
    }
    c.classList.toggle("ok", !!ok);
  }

  /* Live updates: a public EventSource (browser reconnects with Last-Event-ID), or a private
     one opened with a single-use ticket; on error the private one re-tickets and resumes
     from the last event id it saw (its mark makes a restarted server send a reset), so a
     sleeping phone never shows a stale board.
     A private stream whose seat token was replaced (new game, new code) gets `unseated`:
     unless the token still names a seat (a game the table began by itself), it stops for
     good and `onUnseated(error)` tells the player to scan again.
     A public stream (the table view's, /virtual's) in a tab hidden for HIDDEN_RELEASE_MS
     lets go and resumes when the tab is shown again: a browser keeps 6 connections per
     server, and table views left open in the background would otherwise hold them all, and
     the next page would never load. A seat's stream stays, so My view in a background tab
     still turns its title when the turn comes; there is one per seat (a newer tab of the
     seat replaces it, and takes it back when shown again). */
  function stream(privateStream, onMessage, onUnseated) {
    const early = prestarted && prestarted.live;
    if (early && early.privateStream === privateStream) {
      prestarted.live = null;
      early.attach(onMessage, onUnseated);
    } else openStream(privateStream).attach(onMessage, onUnseated);
  }
  /* The stream itself; what it receives before `attach(onMessage, onUnseated)` is kept and
     handed over then, in order. */
  const HIDDEN_RELEASE_MS = 5000;
  function openStream(privateStream) {
    let handlers = null;
    const kept = [];
    const emit = (kind, arg) => {
      if (!handlers) { kept.push([kind, arg]); return; }
      if (handlers[kind]) handlers[kind](arg);
    };
    const onMessage = (msg) => emit("message", msg);
    const onUnseated = (err) => emit("unseated", err);
    let last = null; let es = null; let retry = 500;
    let released = false;  /* let go while the tab was hidden: opened again when shown */
    let replaced = false;
    async function open() {
      let url = "/api/events";
      if (!privateStream && last !== null) url += "?last_event_id=" + encodeURIComponent(last);
      if (privateStream) {
        try {
          const t = await seatApi("POST", "/api/stream-ticket", {});
          url += "?ticket=" + encodeURIComponent(t.ticket);
          if (last !== null) url += "&last_event_id=" + encodeURIComponent(last);
        } catch (e) {
          /* another phone holds this seat: no retry, the page says why (issue 21.4) */
          if (e.code === "seat_held") { setConn("conn.no_seat", false); return; }
          setConn("conn.offline", false);
          if (e.status === 403 || e.status === 401) return;
          setTimeout(open, retry); retry = Math.min(retry * 2, 8000); return;
        }
      }
      es = new EventSource(url);
      es.addEventListener("open", () => { setConn("conn.live", true); retry = 500; });
      es.addEventListener("update", (ev) => {
        const msg = JSON.parse(ev.data);
        last = ev.lastEventId || String(msg.seq);  /* "<seq>.<mark>": a restarted server resets */
        onMessage(msg);
      });
      es.addEventListener("unseated", (ev) => {
        es.close(); es = null; last = null;
        let err = {}; try { err = JSON.parse(ev.data); } catch (e) { err = {}; }
        seatApi("GET", "/api/me").then(open, () => {
          setConn("conn.no_seat", false);
          if (onUnseated) onUnseated(err);
        });
      });
      /* a newer page or tab of this seat took over its live updates: stop (taken back only when
         this tab is shown again, below) */
      es.addEventListener("replaced", () => {
        es.close(); es = null; replaced = true; setConn("conn.replaced", false);
      });
      es.addEventListener("error", () => {
        if (!es) return;
        setConn("conn.reconnecting", false);
        if (privateStream) { es.close(); es = null; setTimeout(open, retry); retry = Math.min(retry * 2, 8000); }
      });
    }
    let hiddenTimer = null;
    document.addEventListener("visibilitychange", () => {
      clearTimeout(hiddenTimer);
      if (document.hidden) {
        if (privateStream) return;
        hiddenTimer = setTimeout(() => {
          if (!document.hidden || !es) return;
          es.close(); es = null; released = true;
        }, HIDDEN_RELEASE_MS);
      } else if (released || replaced) {
        /* the tab in front is the seat's live one: a tab replaced while in the background
           takes its updates back once it is looked at again */
        released = false; replaced = false; retry = 500;
        open();
      }
    });
    open();
    return {
      privateStream,
      attach(message, unseated) {
        handlers = { message, unseated };
        for (const [kind, arg] of kept.splice(0)) emit(kind, arg);
      },
    };
  }

  /* A table page (base.html's `data-stream`: "private" on My view, "public" on the table
     view) starts its seat check and live stream from here in the head, while its modules
     are still arriving; the page takes them over with `seatCheck()` and `stream()`. */
  let prestarted = null;
  function prestart() {
    const kind = document.documentElement.dataset.stream;
    if (kind !== "private" && kind !== "public") return;
    adoptTokenFromFragment();
    if (kind === "private" && !token()) return;
    const seat = kind === "private" ? askSeat() : null;
    if (seat) seat.catch(() => {});
    prestarted = { seat, live: openStream(kind === "private") };
  }
  /* The seat check is the seat's own snapshot (`/api/state` with the token: the server's one
     redaction for this seat, refused as /api/me refuses), so My view can draw its first
     render from it without waiting for the stream's first message: {player, state}. */
  function askSeat() {
    return seatApi("GET", "/api/state").then((answer) => ({ player: answer.viewer.player, state: answer.state }));
  }
  /* This phone's seat ({player, state}) as the server knows it: the check started from the
     head, once, else a new one. */
  function seatCheck() {
    const early = prestarted && prestarted.seat;
    if (early) { prestarted.seat = null; return early; }
    return askSeat();
  }
  prestart();
  /* My view holds its layout back until its first render has drawn it (table.js, style.css);
     should no render come (its module failed to load), the page shows what it has. */
  if (document.documentElement.dataset.stream === "private") {
    setTimeout(() => { document.documentElement.dataset.drawn = "1"; }, 5000);
  }

  return { adoptTokenFromFragment, token, forgetToken, phone, api, seatApi, seatCheck, el, faces, oncePerFrame,
           colour, textOn, setConn, stream, COLOURS, t, has, ready, setLang, onLang, translate, colourName,
           territory, continent, variantName, errorText, problemText, lang: () => lang, LANGS,
           say, sayIn, waits };
})();
