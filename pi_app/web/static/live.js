/* The live table: the connection badge, and the live event stream of the table's views
   (a public one, or a seat's private one), with the seat check My view draws its first
   render from. A table page (base.html's `data-stream`) starts both from the head
   (common.js `prestart`), while its own modules are still arriving; the page takes them over
   with `seatCheck()` and `stream()`. */

import { t, has } from "./words.js";
import { parsed } from "./language.js";
import { adoptTokenFromFragment, seatApi, token } from "./seat.js";

/* The connection badge: `text`, or a catalogue key ("conn.live") kept on the badge so the
   words that arrive after it (or a language change) translate it. */
export function setConn(text, ok) {
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
export function stream(privateStream, onMessage, onUnseated) {
  prestart();
  const early = prestarted && prestarted.live;
  if (early && early.privateStream === privateStream) {
    prestarted.live = null;
    early.attach(onMessage, onUnseated);
  } else openStream(privateStream).attach(onMessage, onUnseated);
}
/* The stream itself; what it receives before `attach(onMessage, onUnseated)` is kept and
   handed over then, in order. */
export const HIDDEN_RELEASE_MS = 5000;
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
        const ticket = await seatApi("POST", "/api/stream-ticket", {});
        url += "?ticket=" + encodeURIComponent(ticket.ticket);
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
   are still arriving; the page takes them over with `seatCheck()` and `stream()`.
   common.js (an async module) and the page's own module may run in either order: whichever
   asks first starts them, once. A second start would open a second stream of the seat,
   which replaces the first, the one the page listens to: the page would stand still (seen
   under load as a phone that never caught up). */
let prestarted = null, started = false;
export function prestart() {
  if (started) return;
  started = true;
  const which = document.documentElement.dataset.stream;
  if (which !== "private" && which !== "public") return;
  adoptTokenFromFragment();
  if (which === "private" && !token()) return;
  const seat = which === "private" ? askSeat() : null;
  if (seat) seat.catch(() => {});
  prestarted = { seat, live: openStream(which === "private") };
}
/* The seat check is the seat's own snapshot (`/api/state` with the token: the server's one
   redaction for this seat, refused as /api/me refuses), so My view can draw its first
   render from it without waiting for the stream's first message: {player, state}. */
function askSeat() {
  return seatApi("GET", "/api/state").then((answer) => ({ player: answer.viewer.player, state: answer.state }));
}
/* This phone's seat ({player, state}) as the server knows it: the check started from the
   head, once, else a new one. */
export function seatCheck() {
  prestart();
  const early = prestarted && prestarted.seat;
  if (early) { prestarted.seat = null; return early; }
  return askSeat();
}
