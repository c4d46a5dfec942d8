/* The virtual board's LEDs: every LED (on the territories and the status LEDs beside the
   board) drawn from the LED strip's frames as the strip shows them, never re-derived from the
   game. The frames come as the strip moves on, a frame period apart at most, on an event
   stream (/api/virtual/frames), or where the server has none to spare, by a long-poll
   (/api/virtual/board?after=<the version drawn>); nothing comes while the LEDs stand still,
   and only the LEDs that changed are drawn again. */

import { el } from "./dom.js";
import { api } from "./seat.js";

const FRAME_MS = 100;
const tiles = {};  // id -> {g, leds: [circle]}: the LED dots drawn on each map tile

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
    box.replaceChildren(...idx.map((led) => el("span", { class: "v-led", "data-led": String(led) })));
  }
}
let layoutKey = null, map = null, heard = () => {}, failed = () => {};
let drawn = [];  // LED index -> the colour it is drawn in
function drawFrame(frame) {
  const key = JSON.stringify([frame.territory_leds, frame.status_leds]);
  if (key !== layoutKey) { layoutKey = key; ledDots(frame); drawn = []; }
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
  heard(frame);
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
      frameCame(await api("GET", `/api/virtual/board${after}`));
    } catch (e) {
      failed(e);
      if (e.status === 404) { polling = false; return; }
      version = null;
      wait = 5000;  // a failing table is not asked again at frame rate
    }
  }
  if (version !== null && performance.now() >= streamAt) { polling = false; streamFrames(); return; }
  setTimeout(() => followFrames(streamAt), wait);
}


/* Draw the frames on `map` from now on; `onFrame(board)` after each one drawn (the board's
   whole last frame: its tags, its sensors), `onError(e)` when the table cannot be asked. */
export function showFrames(onMap, onFrame, onError) {
  map = onMap; heard = onFrame; failed = onError;
  followFrames(0);
}
