/* The dice page: face counts, chi-square, luck, and in-browser verification of every draw
   against the revealed seed with WebCrypto (derivation: see pi_app/dice.py). */

import { colourName, errorText, t } from "./words.js";
import { el } from "./dom.js";
import { api } from "./seat.js";
import { onLang, ready } from "./language.js";
import { setConn } from "./live.js";
(() => {
  const $ = (id) => document.getElementById(id);
  const enc = (n, bytes) => { const b = new Uint8Array(bytes); for (let i = bytes - 1; i >= 0; i--) { b[i] = Number(n & 0xffn); n >>= 8n; } return b; };
  const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const unhex = (h) => new Uint8Array(h.match(/../g).map((x) => parseInt(x, 16)));
  let data = null;

  /* The two derivations of pi_app/dice.py (worked vectors: pi_app/DICE.md). A byte b < 252
     is the die b % 6 + 1; below(n) reads a whole block as a big-endian integer x and keeps
     x % n when x < floor(2^256 / n) * n.
     Version 2 ("v2:" commitment): block i = HMAC-SHA256(seed, i (8 bytes BE)); the dice read
     the blocks' bytes one after another, a below starts at a fresh block.
     Version 1: block(counter, attempt) = HMAC-SHA256(seed, counter (8 BE) + attempt (4 BE)),
     one counter step per die or below. */
  async function makeDice(seedHex, version) {
    const key = await crypto.subtle.importKey("raw", unhex(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const mac = async (msg) => new Uint8Array(await crypto.subtle.sign("HMAC", key, msg));
    const accept = (x, n) => { const N = BigInt(n); return x < ((1n << 256n) / N) * N ? Number(x % N) : null; };
    if (version === 2) {
      let block = 0n, offset = 0, bytes = null;  // bytes: block `block`, once derived
      const blockBytes = async () => (bytes = bytes || await mac(enc(block, 8)));
      const next = () => { block++; offset = 0; bytes = null; };
      return {
        async die() {
          for (;;) {
            const b = (await blockBytes())[offset++];
            if (offset === 32) next();
            if (b < 252) return (b % 6) + 1;
          }
        },
        async below(n) {
          if (offset > 0) next();
          for (;;) {
            const got = accept(BigInt("0x" + hex(await blockBytes())), n);
            next();
            if (got !== null) return got;
          }
        },
      };
    }
    let counter = 0n;
    const block = (attempt) => {
      const msg = new Uint8Array(12);
      msg.set(enc(counter, 8), 0); msg.set(enc(BigInt(attempt), 4), 8);
      return mac(msg);
    };
    return {
      async die() {
        for (let attempt = 0; ; attempt++) {
          for (const b of await block(attempt)) if (b < 252) { counter++; return (b % 6) + 1; }
        }
      },
      async below(n) {
        for (let attempt = 0; ; attempt++) {
          const got = accept(BigInt("0x" + hex(await block(attempt))), n);
          if (got !== null) { counter++; return got; }
        }
      },
    };
  }

  async function verify() {
    const out = $("verify-out");
    if (!(window.crypto && crypto.subtle)) {  // only in a secure context (https or this machine)
      out.textContent = t("dicepage.needs_secure"); return;
    }
    out.textContent = t("dicepage.checking");
    const version = data.commitment.startsWith("v2:") ? 2 : 1;  // the commitment names it
    const digest = hex(await crypto.subtle.digest("SHA-256", unhex(data.seed)));
    if ((version === 2 ? "v2:" : "") + digest !== data.commitment) { out.textContent = t("dicepage.bad_commitment"); return; }
    const dice = await makeDice(data.seed, version);
    let n = 0;
    for (const [i, draw] of data.draws.entries()) {
      if (draw[0] === "d" && data.physical_dice) {
        continue;  // faces typed in from real dice use no seed counter
      } else if (draw[0] === "d") {
        for (const face of draw[1]) {
          const got = await dice.die();
          if (got !== face) { out.textContent = t("dicepage.bad_draw", { index: i + 1, recorded: face, derived: got }); return; }
          n++;
        }
      } else if (draw[0] === "u") {
        const got = await dice.below(draw[1]);
        if (got !== draw[2]) { out.textContent = t("dicepage.bad_draw", { index: i + 1, recorded: draw[2], derived: got }); return; }
        n++;
      }
    }
    out.textContent = t("dicepage.all_match", { n, records: data.draws.length, version });
    out.className = "ok";
  }

  async function load() {
    await ready;
    data = await api("GET", "/api/dice");
    render();
    setConn(t("conn.loaded"), true);
  }

  /* The record on the page, in the chosen language (again when the language changes). */
  function render() {
    $("d-commitment").textContent = data.commitment || t("dicepage.no_roll");
    $("d-rolls").textContent = String(data.rolls);
    $("d-chi").textContent = data.chi_square.toFixed(2);
    $("d-p").textContent = data.p_value == null ? "–" : data.p_value.toFixed(3);
    const max = Math.max(1, ...data.faces);
    $("d-faces").replaceChildren(...data.faces.map((c, i) => {
      const bar = el("div", { class: "bar" }); bar.style.height = `${Math.round(100 * c / max)}%`;
      return el("div", { class: "face" }, el("span", { class: "count", text: String(c) }), bar,
        el("span", { class: "die", text: "⚀⚁⚂⚃⚄⚅"[i] }));
    }));
    const rows = [el("tr", {}, ...["player", "battles", "lost", "expected", "luck"].map((h) => el("th", { text: t(`dicepage.col.${h}`) })))];
    for (const [p, l] of Object.entries(data.luck)) {
      rows.push(el("tr", {}, el("td", { text: colourName(p) }), el("td", { text: String(l.battles) }),
        el("td", { text: String(l.lost) }), el("td", { text: l.expected_lost.toFixed(2) }),
        el("td", { text: (l.luck > 0 ? "+" : "") + l.luck.toFixed(2) })));
    }
    $("d-luck").replaceChildren(...rows);
    if (data.seed) { $("d-seed").removeAttribute("data-i18n"); $("d-seed").textContent = data.seed; $("verify-btn").disabled = false; }
  }
  onLang(() => { if (data) render(); });
  $("verify-btn").addEventListener("click", () => verify().catch((e) => { $("verify-out").textContent = t("dicepage.error", { message: errorText(e) }); }));
  const es = new EventSource("/api/events");
  /* Many updates in a burst (a blitz) load the record once after it; a refusal (rate
     limit) tries again a little later, so the page never stays behind. */
  let queued = null;
  function loadSoon(delay) {
    if (queued) return;
    queued = setTimeout(() => {
      queued = null;
      load().catch(() => loadSoon(2000));
    }, delay);
  }
  es.addEventListener("update", () => loadSoon(300));
})();
