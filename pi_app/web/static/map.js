/* The SVG world map: 42 rounded tiles placed geographically, continents, adjacency lines. */
"use strict";

const RBMap = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const W = 1000, H = 535, TW = 78, TH = 46;
  const CONTINENT_FILL = {
    "north-america": "#fff3d6", "south-america": "#ffe1d6", "europe": "#dde8ff",
    "africa": "#f6e6c8", "asia": "#dff3e0", "australia": "#f3ddf3",
  };
  function svg(tag, attrs) {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, v);
    return n;
  }

  /* Draw `layout` (from /api/map) into `container`; `onPick(id)` on a tile click. */
  function draw(container, layout, onPick) {
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "worldmap" });
    const pos = {};
    for (const t of layout.territories) pos[t.id] = t;
    const bg = svg("g", { class: "continents" });
    const labels = svg("g", { class: "continent-labels" });
    for (const c of layout.continents) {
      const ts = c.territories.map((id) => pos[id]);
      const x0 = Math.min(...ts.map((t) => t.x)) - TW / 2 - 8;
      const x1 = Math.max(...ts.map((t) => t.x)) + TW / 2 + 8;
      const y0 = Math.min(...ts.map((t) => t.y)) - TH / 2 - 8;
      const y1 = Math.max(...ts.map((t) => t.y)) + TH / 2 + 24;
      bg.append(svg("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 18,
                               fill: CONTINENT_FILL[c.id] || "#eee", class: "continent" }));
      const right = c.id === "asia";  // Asia's lower left corner lies over Africa
      const label = svg("text", { x: right ? x1 - 8 : x0 + 8, y: y1 - 6, class: "continent-label",
                                  "text-anchor": right ? "end" : "start" });
      label.textContent = `${c.name} +${c.bonus}`;
      labels.append(label);
    }
    root.append(bg, labels);
    const lines = svg("g", { class: "edges" });
    for (const [a, b] of layout.edges) {
      const p = pos[a], q = pos[b];
      if (Math.abs(p.x - q.x) > W / 2) {  // the Pacific lane wraps around the map's edge
        const [west, east] = p.x < q.x ? [p, q] : [q, p];
        lines.append(svg("line", { x1: west.x, y1: west.y, x2: 0, y2: west.y, class: "edge sea" }));
        lines.append(svg("line", { x1: east.x, y1: east.y, x2: W, y2: east.y, class: "edge sea" }));
      } else {
        const sea = pos[a].continent !== pos[b].continent;
        lines.append(svg("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y,
                                   class: sea ? "edge sea" : "edge" }));
      }
    }
    root.append(lines);
    const tiles = {};
    for (const t of layout.territories) {
      const g = svg("g", { class: "tile", "data-id": t.id, tabindex: "0", role: "button",
                           transform: `translate(${t.x - TW / 2},${t.y - TH / 2})` });
      const title = svg("title", {}); title.textContent = t.name; g.append(title);
      const glow = svg("rect", { x: -5, y: -5, width: TW + 10, height: TH + 10, rx: 14,
                                 class: "glow", fill: "none" });
      const rect = svg("rect", { width: TW, height: TH, rx: 10, class: "land" });
      const abbr = svg("text", { x: TW / 2, y: 13, class: "abbr", "data-abbr": t.abbr });
      abbr.textContent = t.abbr;
      const count = svg("text", { x: TW / 2, y: 39, class: "count" }); count.textContent = "";
      g.append(glow, rect, abbr, count);
      g.addEventListener("click", () => onPick(t.id));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter") onPick(t.id); });
      tiles[t.id] = { g, rect, abbr, count, glow };
      root.append(g);
    }
    container.replaceChildren(root);
    return tiles;
  }

  /* Colour every tile by owner and write its army count; `hq` ({player: territory}) marks
     revealed capitals with a star and `data-hq` = whose HQ it is. */
  function paint(tiles, owner, armies, hq) {
    const capitals = {};
    for (const [player, where] of Object.entries(hq || {})) capitals[where] = player;
    for (const [id, tile] of Object.entries(tiles)) {
      tile.abbr.textContent = (capitals[id] ? "★ " : "") + tile.abbr.dataset.abbr;
      if (capitals[id]) tile.g.dataset.hq = capitals[id]; else delete tile.g.dataset.hq;
      const who = owner[id];
      tile.rect.setAttribute("fill", who ? RB.colour(who) : "#ccc");
      const ink = who ? RB.textOn(who) : "#111";
      tile.abbr.setAttribute("fill", ink); tile.count.setAttribute("fill", ink);
      tile.count.textContent = !who || armies[id] == null ? "" : String(armies[id]);
      tile.g.dataset.owner = who || "";
    }
  }

  /* The virtual board's LEDs: a glow in the mean colour of each territory's LEDs. */
  function glow(tiles, board) {
    for (const [id, idx] of Object.entries(board.territory_leds || {})) {
      const tile = tiles[id]; if (!tile || !idx.length) continue;
      const sum = [0, 0, 0];
      for (const i of idx) { const px = board.leds[i] || [0, 0, 0]; for (let k = 0; k < 3; k++) sum[k] += px[k]; }
      const [r, g, b] = sum.map((v) => Math.round(v / idx.length));
      tile.glow.setAttribute("stroke", `rgb(${r},${g},${b})`);
      tile.glow.setAttribute("stroke-width", (r + g + b) > 0 ? "6" : "0");
    }
  }

  function mark(tiles, ids) {
    for (const [id, tile] of Object.entries(tiles)) tile.g.classList.toggle("picked", ids.includes(id));
  }

  return { draw, paint, glow, mark };
})();
