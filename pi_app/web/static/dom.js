/* Building the pages: `el(tag, attrs, ...children)`, the players' colours, a node that
   says the table's sentences (`sayIn`), dice typed from physical dice, and `oncePerFrame`
   for a burst of stream messages. */

import { t } from "./words.js";
import { sayAll } from "./saying.js";

export const COLOURS = {
  red: "#d62828", blue: "#1d5fd8", green: "#16863f", yellow: "#f2c417",
  black: "#2b2b2b", pink: "#e64da0", neutral: "#8a8a8a", allied: "#7e57c2",
};
const DARK_TEXT = new Set(["yellow"]);
export function colour(player) { return COLOURS[player] || COLOURS.neutral; }
export function textOn(player) { return DARK_TEXT.has(player) ? "#111" : "#fff"; }

export function el(tag, attrs, ...children) {
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
export const $ = (id) => document.getElementById(id);

/* A colour swatch for `player`. */
export function swatch(player, cls = "swatch") {
  const sw = el("span", { class: cls, "aria-hidden": "true" });
  sw.style.background = colour(player);
  return sw;
}

/* `node` says `sentences` (joined with `sep`); once the game is over (`waits.over`), with
   a link to the page that checks its dice. A node already saying it is left alone. */
export function sayIn(node, sentences, waits, sep) {
  const text = sayAll(sentences, sep === undefined ? " · " : sep);
  const over = waits && waits.status === "over" && waits.over;
  if (!over) { if (node.textContent !== text) node.textContent = text; return; }
  // one flowing line (a banner lays out its children side by side)
  node.replaceChildren(el("span", { class: "over-line" }, text, " · ", el("a", { href: over.dice,
    class: "dice-link", "data-dice-link": "1", text: t("over.check_dice") })));
}

/* Dice typed from physical dice: every digit is one die ("6 4 1", "641"); the server
   refuses anything but faces 1 to 6 with a sentence. */
export function faces(text) {
  return String(text || "").replace(/[^0-9]/g, "").split("").filter(Boolean).map(Number);
}

/* `f` at most once a frame: the function returned asks for it, and however often it is
   asked before then (a burst of stream messages), `f` runs once, in the next animation
   frame, or after `fallbackMs` where no frame comes (a hidden tab paints none, and the
   page must not wait for it forever). Its `now()` runs an asked-for `f` at once. */
export function oncePerFrame(f, fallbackMs = 250) {
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
