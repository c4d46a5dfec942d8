/* The SVG world map shared by the table view, My view and the virtual board: 42 rounded
   tiles placed geographically, continents, adjacency lines; two-finger (or drag) zoom and
   pan plus buttons; a text alternative listing every territory, owner and armies.

   The page comes with the map drawn (pi_app/web/pages.py `map_svg`, from the same layout, in
   the page's words, unpainted): drawMap takes that drawing over, so the page's first paint
   already holds the board and its first render only colours it.

   Stable API (the virtual board imports it too):
     const map = drawMap(container, layout, { onPick, t, names });
     map.paint(owner, armies, hq)   colours, army counts, revealed HQ stars
     map.glow(board)                the virtual board's LED frame as a glow per tile
     map.mark(ids)                  outline the picked territories
     map.relabel()                  redraw the words after a language change
     map.zoomBy(factor) / map.reset() / map.scale()
   A paint never rebuilds the SVG, so zoom, pan and focus survive every update. */

import { colour, textOn } from "./dom.js";

const NS = "http://www.w3.org/2000/svg";
const MAX_SCALE = 4;
const HOLD_MS = 300;  // a tile held this long still is held down (onHold), not tapped
const ident = (key, p) => (p && p.name) || key;

function html(tag, attrs, ...children) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") n.textContent = v; else n.setAttribute(k, v);
  }
  for (const c of children) if (c != null) n.append(c);
  return n;
}

/* Take over the map drawn in `container` (its page's `map_svg`) for `layout` (from /api/map).
   Options: `onPick(id)` on a tile tap or Enter; `onHold(id, "down" | "up")`, when given, for a
   tile held still for HOLD_MS (then "up" when the finger lifts; the tap is not also a pick);
   `t(key, params)` the page's words; `names(id)`
   a territory's name, `abbr(id)` its short label, `continentName(id)`, `ownerName(player)`
   (all default to the layout's); `lang`, the words' language: when it is not the drawing's,
   the words are written again. */
export function drawMap(container, layout, options = {}) {
  const onPick = options.onPick || (() => {});
  const onHold = options.onHold || null;
  const pos = {};
  for (const tile of layout.territories) pos[tile.id] = tile;
  const o = {
    t: options.t || ident,
    names: options.names || ((id) => (pos[id] ? pos[id].name : id)),
    abbr: options.abbr || ((id) => (pos[id] ? pos[id].abbr : id)),
    continentName: options.continentName
      || ((id) => (layout.continents.find((c) => c.id === id) || { name: id }).name),
    ownerName: options.ownerName || ((p) => p),
    continentBadge: options.continentBadge || ((id, bonus) => `+${bonus}`),
  };

  const root = container.querySelector("svg.worldmap");
  const [, , W, H] = root.getAttribute("viewBox").split(" ").map(Number);
  const continentLabels = {};
  for (const c of layout.continents) {
    continentLabels[c.id] = { node: root.querySelector(`text.continent-label[data-id="${c.id}"]`), bonus: c.bonus };
  }
  const tiles = {};
  for (const g of root.querySelectorAll("g.tile")) {
    tiles[g.dataset.id] = { g, rect: g.querySelector("rect.land"), abbr: g.querySelector("tspan.abbr"),
      count: g.querySelector("tspan.count"), glow: null, hq: null };
  }
  const land = Object.values(tiles)[0].rect;
  const TW = Number(land.getAttribute("width")), TH = Number(land.getAttribute("height"));
  let dragged = false;  // a pan that ends on a tile is not a tap
  const tileOf = (e) => { const g = e.target.closest && e.target.closest("g.tile"); return g && tiles[g.dataset.id] ? g.dataset.id : null; };
  let held = null, holdTimer = null, heldTap = false;  // a tile held down (onHold)
  root.addEventListener("click", (e) => {
    const id = tileOf(e);
    if (heldTap) { heldTap = false; return; }
    if (id && !dragged) onPick(id);
  });
  root.addEventListener("keydown", (e) => {
    const id = tileOf(e);
    if (id && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); onPick(id); }
  });

  // ----- zoom and pan: the viewBox moves; buttons, two fingers, or a drag when zoomed ----
  let view = { x: 0, y: 0, w: W, h: H };
  function apply() {
    root.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
    const zoomed = view.w < W - 0.5;
    frame.classList.toggle("zoomed", zoomed);
    frame.dataset.scale = (W / view.w).toFixed(2);
    outBtn.disabled = !zoomed;
    resetBtn.disabled = !zoomed;
    inBtn.disabled = W / view.w >= MAX_SCALE - 0.01;
    note.textContent = o.t(zoomed ? "map.zoomed_note" : "map.zoom_note");
  }
  function clamp(v) {
    const w = Math.min(W, Math.max(W / MAX_SCALE, v.w)), h = w * H / W;
    return { w, h, x: Math.min(W - w, Math.max(0, v.x)), y: Math.min(H - h, Math.max(0, v.y)) };
  }
  /* Zoom by `factor` around the map point (cx, cy) in SVG units (default: the centre). */
  function zoomBy(factor, cx, cy) {
    const px = cx === undefined ? view.x + view.w / 2 : cx;
    const py = cy === undefined ? view.y + view.h / 2 : cy;
    const w = view.w / factor, h = view.h / factor;
    view = clamp({ w, h, x: px - (px - view.x) / factor, y: py - (py - view.y) / factor });
    apply();
  }
  function reset() { view = { x: 0, y: 0, w: W, h: H }; apply(); }
  /* Zoom to `scale` centred on the territories `ids` (a phone opens on its player's area,
     where names read and tiles are big enough for a finger). */
  function focus(ids, scale) {
    const pts = ids.map((id) => pos[id]).filter(Boolean);
    if (!pts.length) return;
    const cx = pts.reduce((sum, p) => sum + p.x, 0) / pts.length;
    const cy = pts.reduce((sum, p) => sum + p.y, 0) / pts.length;
    const w = W / scale, h = H / scale;
    view = clamp({ w, h, x: cx - w / 2, y: cy - h / 2 });
    apply();
  }
  function toMap(clientX, clientY) {
    const r = root.getBoundingClientRect();
    // the SVG keeps its aspect ratio, so one scale serves both axes
    const k = view.w / r.width;
    return { x: view.x + (clientX - r.left) * k, y: view.y + (clientY - r.top) * k, k };
  }
  const pointers = new Map();
  let gesture = null;
  const endHold = () => {
    clearTimeout(holdTimer); holdTimer = null;
    if (held) { onHold(held, "up"); held = null; heldTap = true; }
  };
  root.addEventListener("pointerdown", (e) => {
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    dragged = false;
    gesture = null;
    heldTap = false;
    const id = onHold && pointers.size === 1 ? tileOf(e) : null;
    clearTimeout(holdTimer);
    if (id) holdTimer = setTimeout(() => { holdTimer = null; if (!dragged) { held = id; onHold(id, "down"); } }, HOLD_MS);
  });
  if (onHold) root.addEventListener("contextmenu", (e) => { if (tileOf(e)) e.preventDefault(); });
  root.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId)) return;
    const prev = pointers.get(e.pointerId);
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size >= 2) {
      const [a, b] = [...pointers.values()];
      const dist = Math.hypot(a.x - b.x, a.y - b.y);
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      if (gesture && gesture.dist > 0) {
        const at = toMap(mid.x, mid.y);
        zoomBy(dist / gesture.dist, at.x, at.y);
        const k = view.w / root.getBoundingClientRect().width;
        view = clamp({ ...view, x: view.x - (mid.x - gesture.mid.x) * k,
                       y: view.y - (mid.y - gesture.mid.y) * k });
        apply();
      }
      gesture = { dist, mid };
      dragged = true;
      if (onHold) endHold();
      return;
    }
    if (view.w >= W - 0.5) return;  // not zoomed: the finger scrolls the page
    const dx = e.clientX - prev.x, dy = e.clientY - prev.y;
    if (!dragged && Math.hypot(e.clientX - prev.x, e.clientY - prev.y) < 1) return;
    const k = view.w / root.getBoundingClientRect().width;
    view = clamp({ ...view, x: view.x - dx * k, y: view.y - dy * k });
    apply();
    if (Math.abs(dx) + Math.abs(dy) > 2) dragged = true;
  });
  const lift = (e) => {
    if (onHold) endHold();
    pointers.delete(e.pointerId);
    gesture = null;
    if (!pointers.size) setTimeout(() => { dragged = false; }, 0);
  };
  root.addEventListener("pointerup", lift);
  root.addEventListener("pointercancel", lift);
  root.addEventListener("wheel", (e) => {  // ctrl+wheel (and trackpad pinch) zooms
    if (!e.ctrlKey) return;
    e.preventDefault();
    const at = toMap(e.clientX, e.clientY);
    zoomBy(e.deltaY < 0 ? 1.25 : 0.8, at.x, at.y);
  }, { passive: false });

  const button = (kind) => container.querySelector(`button[data-zoom="${kind}"]`);
  const inBtn = button("in"), outBtn = button("out"), resetBtn = button("reset");
  inBtn.addEventListener("click", () => zoomBy(1.6));
  outBtn.addEventListener("click", () => zoomBy(1 / 1.6));
  resetBtn.addEventListener("click", reset);
  // says that the map zooms (and how to see all of it when it is zoomed)
  const note = container.querySelector(".zoom-note");
  const frame = container.querySelector(".map-frame");

  // ----- the text alternative: every territory, its owner and armies, by continent -------
  // written when it is opened, and at each paint while it is open
  const list = container.querySelector("details.map-list");
  const summary = list.querySelector("summary");
  const listBody = list.querySelector(".map-list-body");
  list.addEventListener("toggle", () => { if (list.open) writeList(); });

  let last = { owner: {}, armies: {}, hq: null };
  /* A continent's number beside its name: the board game's bonus (+7), or what the page's
     variant counts instead (`options.continentBadge`, e.g. Strike's domination number). */
  const badge = (id, bonus) => o.continentBadge(id, bonus);

  function relabel() {
    apply();  // the zoom note in the new words
    root.setAttribute("aria-label", o.t("map.label"));
    inBtn.setAttribute("aria-label", o.t("map.zoom_in"));
    outBtn.setAttribute("aria-label", o.t("map.zoom_out"));
    resetBtn.setAttribute("aria-label", o.t("map.zoom_reset"));
    inBtn.title = o.t("map.zoom_in"); outBtn.title = o.t("map.zoom_out");
    resetBtn.title = o.t("map.zoom_reset");
    summary.textContent = o.t("map.list");
    for (const [id, c] of Object.entries(continentLabels)) {
      c.node.textContent = `${o.continentName(id)} ${badge(id, c.bonus)}`;
    }
    paint(last.owner, last.armies, last.hq);
  }

  /* A label wider than its tile (a long Japanese or French name) is squeezed into it rather
     than spilling over the next tile; measured only when its words change. All labels are
     written first and measured after, so a repaint costs one layout, not one per tile (42
     forced layouts took most of a slow phone's first render). */
  let unfitted = new Set(Object.values(tiles).map((tile) => tile.abbr));  // as drawn: not yet measured
  let fitFrame = 0, fitTimer = 0;
  function fitSoon(nodes) {
    for (const node of nodes) unfitted.add(node);
    if (fitFrame) return;
    const run = () => {
      cancelAnimationFrame(fitFrame); clearTimeout(fitTimer); fitFrame = 0;
      const now = [...unfitted];
      unfitted = new Set();
      fitLabels(now);
    };
    fitFrame = requestAnimationFrame(run);
    fitTimer = setTimeout(run, 250);  // no frame comes to a hidden tab
  }
  function fitLabels(nodes) {
    for (const node of nodes) { node.removeAttribute("textLength"); node.removeAttribute("lengthAdjust"); }
    const room = TW - 6;
    const wide = nodes.filter((node) => node.getComputedTextLength() > room);
    for (const node of wide) {
      node.setAttribute("textLength", String(room));
      node.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }

  function tileLabel(id, who, armies, hqOf) {
    const parts = [o.names(id)];
    if (who) parts.push(o.t("map.tile_owner", { owner: o.ownerName(who), n: armies }));
    else parts.push(o.t("map.tile_free"));
    if (hqOf) parts.push(o.t("map.tile_hq", { owner: o.ownerName(hqOf) }));
    return parts.join(", ");
  }

  /* Colour every tile by owner and write its army count; `hq` ({player: territory}) marks
     revealed capitals with a star and `data-hq` = whose HQ it is. */
  function paint(owner, armies, hq) {
    last = { owner: owner || {}, armies: armies || {}, hq: hq || null };
    const capitals = {};
    for (const [player, where] of Object.entries(hq || {})) capitals[where] = player;
    const relabelled = [...unfitted];
    for (const [id, tile] of Object.entries(tiles)) {
      const who = last.owner[id];
      const n = last.armies[id];
      const label = (capitals[id] ? "★ " : "") + o.abbr(id);
      if (tile.abbr.textContent !== label) { tile.abbr.textContent = label; relabelled.push(tile.abbr); }
      if (capitals[id]) tile.g.dataset.hq = capitals[id]; else delete tile.g.dataset.hq;
      tile.rect.setAttribute("fill", who ? colour(who) : "#d0d4da");
      const ink = who ? textOn(who) : "#111";
      tile.abbr.setAttribute("fill", ink); tile.count.setAttribute("fill", ink);
      tile.count.textContent = !who || n == null ? "" : String(n);
      tile.g.dataset.owner = who || "";
      // the accessible name starts with the tile's visible text (its label and count)
      const shown = `${tile.abbr.textContent} ${tile.count.textContent}`.trim();
      tile.g.setAttribute("aria-label", `${shown} · ${tileLabel(id, who, n, capitals[id])}`);
    }
    if (relabelled.length) fitSoon(relabelled);
    if (list.open) writeList();
  }
  function writeList() {
    const capitals = {};
    for (const [player, where] of Object.entries(last.hq || {})) capitals[where] = player;
    listBody.replaceChildren(...layout.continents.map((c) => html("div", {},
      html("h3", { text: `${o.continentName(c.id)} (${badge(c.id, c.bonus)})` }),
      html("ul", {}, ...c.territories.map((id) => html("li", { "data-id": id,
        text: tileLabel(id, last.owner[id], last.armies[id], capitals[id]) }))))));
  }

  /* The virtual board's LEDs: a glow in the mean colour of each territory's LEDs. */
  function glow(board) {
    for (const [id, idx] of Object.entries(board.territory_leds || {})) {
      const tile = tiles[id]; if (!tile || !idx.length) continue;
      const sum = [0, 0, 0];
      for (const i of idx) {
        const px = board.leds[i] || [0, 0, 0];
        for (let k = 0; k < 3; k++) sum[k] += px[k];
      }
      const [r, g, b] = sum.map((v) => Math.round(v / idx.length));
      if (!tile.glow) {  // behind the tile; only the virtual board draws LEDs
        tile.glow = document.createElementNS(NS, "rect");
        for (const [k, v] of Object.entries({ x: -5, y: -5, width: TW + 10, height: TH + 10, rx: 14, class: "glow", fill: "none" })) {
          tile.glow.setAttribute(k, v);
        }
        tile.g.prepend(tile.glow);
      }
      tile.glow.setAttribute("stroke", `rgb(${r},${g},${b})`);
      tile.glow.setAttribute("stroke-width", (r + g + b) > 0 ? "6" : "0");
    }
  }

  function mark(ids) {
    for (const [id, tile] of Object.entries(tiles)) tile.g.classList.toggle("picked", ids.includes(id));
  }

  apply();
  if (options.lang && options.lang !== root.dataset.lang) relabel();
  return { tiles, paint, glow, mark, relabel, zoomBy, reset, focus, scale: () => W / view.w,
           element: root };
}
