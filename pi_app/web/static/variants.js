/* The board variants on the pages: phase names, the third army (Neutral or Allied Army) in
   its own colour with its reserve, Capital HQs (who has picked, never what, before the
   reveal; markers and card holders after), Secret Mission cards, and what a tap on a
   player's phone means in each phase. Reads only the redacted view. */
"use strict";

const RBVariant = (() => {
  const PHASES = {
    claim: "claiming territories", setup_place: "placing starting armies",
    hq_pick: "secret HQ pick", reinforce: "reinforce", attack: "attack",
    allied: "Allied Army phase", fortify: "fortify", game_over: "game over",
  };
  const ARMY_NAMES = { neutral: "Neutral", allied: "Allied Army" };
  const phaseName = (p) => PHASES[p] || String(p).replace(/_/g, " ");
  const data = (state) => state.variant_data || {};
  const armyName = (id) => ARMY_NAMES[id] || id;
  const thirdArmy = (state) => data(state).army || null;

  function missionText(m) {
    if (!m) return "";
    if (typeof m !== "object") return String(m);
    return m.text || m.card || JSON.stringify(m);
  }

  /* The banner's text (without pending, pause or winner, which table.js adds). */
  function banner(state) {
    const d = data(state);
    if (state.phase === "hq_pick") {
      const chosen = state.hq_chosen || [];
      const waiting = state.players.filter((p) => !chosen.includes(p));
      return `Secret HQ pick · picked: ${chosen.join(", ") || "nobody yet"} · `
        + `waiting for ${waiting.join(", ") || "nobody"}`;
    }
    if (state.phase === "allied" && d.allied_turn) {
      return `${d.allied_turn.turn_of}'s turn · Allied Army phase: ${d.allied_turn.commander} `
        + `commands the Allied Army` + (d.reserve ? ` · ${d.reserve} Allied armies to place` : "");
    }
    let text = `${state.current_player}'s turn · ${phaseName(state.phase)}`;
    if (state.phase === "setup_place" && d.placing) {
      text += ` · this placing turn: ${d.placing.own} own`
        + (d.placing.third ? ` + ${d.placing.third} ${armyName(d.army)}` : "");
    } else {
      const left = (state.reserves || {})[state.current_player];
      if (left) text += ` · ${left} to place`;
    }
    return text;
  }

  /* Extra column of the players table: Capital's HQ (picked? / where, held by whom). */
  function hqCell(state, p, nameOf) {
    if (state.variant !== "capital") return null;
    if (!state.hq_revealed) return (state.hq_chosen || []).includes(p) ? "picked ✓" : "picking…";
    const where = (state.hq || {})[p];
    const holder = (data(state).hq_holders || {})[p];
    if (!where) return "–";
    return `★ ${nameOf(where)}` + (holder && holder !== p ? ` (held by ${holder})` : "");
  }

  /* The third army's own row: [name, lands, armies, reserve text]. */
  function thirdArmyRow(state) {
    const army = thirdArmy(state);
    if (!army) return null;
    const lands = Object.keys(state.owner).filter((t) => state.owner[t] === army);
    const armies = lands.reduce((s, t) => s + (state.armies[t] || 0), 0);
    const d = data(state);
    const status = d.destroyed ? "destroyed" : `reserve ${d.reserve || 0}`;
    return { army, name: armyName(army), lands: lands.length, armies, status };
  }

  /* The side card about the variant: missions, HQs, the third army. */
  function info(state, nameOf) {
    const el = RB.el, out = [];
    if (state.variant === "mission") {
      const revealed = state.missions_revealed || {};
      const shown = Object.entries(revealed);
      if (shown.length) {
        for (const [p, m] of shown) {
          out.push(el("div", { class: "mission-card revealed", "data-mission-of": p },
            el("strong", { text: `${p}'s mission` }), el("p", { text: missionText(m) })));
        }
        out.push(el("p", { class: "small", text: "The other missions stay secret." }));
      } else {
        out.push(el("p", { text: "Every player has a secret mission, shown only on their own phone. "
          + "The winner's mission is revealed to all." }));
      }
    }
    if (state.variant === "capital") {
      const need = data(state).hq_needed;
      if (!state.hq_revealed) {
        const chosen = state.hq_chosen || [];
        out.push(el("p", { text: `HQs are picked in secret and revealed together. Picked: `
          + (chosen.join(", ") || "nobody yet") }));
      } else {
        const holders = data(state).hq_holders || {};
        out.push(el("ul", { class: "hq-list" }, ...Object.entries(state.hq || {}).map(([p, t]) => {
          const li = el("li", { "data-hq-of": p, text: `★ ${p}: ${nameOf(t)}`
            + (holders[p] && holders[p] !== p ? ` (held by ${holders[p]})` : "") });
          return li;
        })));
      }
      if (need != null) out.push(el("p", { class: "small", text: `To win: hold your own HQ and ${need} enemy HQs.` }));
    }
    const row = thirdArmyRow(state);
    if (row) {
      const sw = el("span", { class: "swatch" }); sw.style.background = RB.colour(row.army);
      out.push(el("p", { "data-army": row.army }, sw, ` ${row.name}: ${row.lands} territories, `
        + `${row.armies} armies, ${row.status}.`));
      if (row.army === "allied" && data(state).allied_turn) {
        out.push(el("p", { text: `${data(state).allied_turn.commander} commands the Allied Army now.` }));
      }
    }
    return out;
  }

  /* What a tap on territory `id` means on `me`'s phone now: a command, a hint, or null
     (then the tap selects a source and target for attacking or fortifying). */
  function tap(state, me, id, awaited) {
    if (state.winner) return null;
    const owner = state.owner[id];
    if (state.phase === "hq_pick") {
      if (owner === me) return { command: { type: "pick_hq", territory: id } };
      return { hint: "Tap one of your own territories to make it your secret HQ." };
    }
    const pend = state.pending;
    if (pend && pend.kind === "trade_down" && pend.player === me && owner === me) {
      return { command: { type: "place", territory: id, count: 1 } };  // refused until traded
    }
    if (pend || awaited !== me) return null;
    const d = data(state);
    if (state.phase === "claim") return { command: { type: "claim", territory: id } };
    if (state.phase === "setup_place" && d.placing) {
      if (owner === me && d.placing.own) return { command: { type: "place", territory: id, count: 1 } };
      if (owner === d.army && d.placing.third) return { command: { type: "place_neutral", territory: id, count: 1 } };
      return { hint: d.placing.own ? "Tap one of your territories to place an army."
        : `Tap a ${armyName(d.army)} territory to place its army.` };
    }
    if (state.phase === "setup_place" || state.phase === "reinforce") {
      if (owner === me) return { command: { type: "place", territory: id, count: 1 } };
      return null;
    }
    if (state.phase === "allied" && d.reserve) {
      if (owner === d.army) return { command: { type: "place", territory: id, count: 1 } };
      return { hint: "First place the Allied Army's reserve on its territories." };
    }
    return null;
  }

  /* The question of a pending defence or move-in decision, as its decider reads it. */
  function question(state, me, pend, nameOf) {
    if (pend.kind === "defend") {
      const owner = state.owner[pend.to];
      const attacker = ARMY_NAMES[pend.attacker] ? `the ${armyName(pend.attacker)}` : pend.attacker;
      if (owner && owner !== me) {
        return `${armyName(owner)}'s ${nameOf(pend.to)} is attacked by ${attacker} from `
          + `${nameOf(pend.from)}: you roll its defence. How many dice?`;
      }
      return `Your ${nameOf(pend.to)} is attacked by ${attacker} from ${nameOf(pend.from)}: `
        + `how many dice do you defend with?`;
    }
    if (pend.kind === "move_in") {
      return pend.army ? `The ${armyName(pend.army)} conquered ${nameOf(pend.to)}: how many of its armies move in?`
        : `You conquered ${nameOf(pend.to)}: how many armies move in?`;
    }
    return `The game waits for you: ${pend.kind.replace(/_/g, " ")}.`;
  }

  /* Log lines of the variants' own events (null: not a variant event). */
  function describe(ev, nameOf) {
    const names = (ts) => (ts || []).map(nameOf).join(", ");
    switch (ev.type) {
      case "hq_chosen": return `you picked ${nameOf(ev.territory)} as your secret HQ`;
      case "hq_revealed": return "HQs revealed: " + Object.entries(ev.hq || {})
        .map(([p, t]) => `${p} ${nameOf(t)}`).join(", ");
      case "hq_captured": return `${ev.player} captured ${ev.hq_of}'s HQ ${nameOf(ev.territory)}`;
      case "mission_dealt": return `your secret mission: ${missionText(ev.mission)}`;
      case "mission_changed": return `your mission changed: ${missionText(ev.mission)}`;
      case "missions_dealt": return `secret missions dealt to ${(ev.players || []).join(", ")}`;
      case "mission_revealed": return `${ev.player}'s mission: ${missionText(ev.mission)}`;
      case "territories_dealt": return "territories dealt: " + Object.entries(ev.territories || {})
        .map(([p, ts]) => `${armyName(p)} ${ts.length}`).join(", ");
      case "allied_deployed": return `the Allied Army holds ${(ev.territories || []).length} territories`;
      case "allied_reinforced": return `the Allied Army gets ${ev.armies} armies (reserve ${ev.reserve})`;
      case "allied_skipped": return "the Allied Army has nothing to do this turn";
      case "army_destroyed": return `the ${armyName(ev.army)} has lost its last territory`;
      default: return null;
    }
  }

  return { describe, phaseName, banner, hqCell, thirdArmyRow, info, tap, question, missionText, armyName };
})();
