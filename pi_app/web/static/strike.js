/* RISK Strike on the pages: continents lit by coin holders, players' continent cards and
   coins, the battle, and on a player's phone their tactics hand and a form per command the
   game accepts from them now (`available_commands` in their view). */
"use strict";

const RBStrike = (() => {
  // fields of each command (pi_app/rules/strike/commands.py): [name, kind, default]
  const FIELDS = {
    strike_draw: [["continents", "number", 1], ["tactics", "number", 1]],
    strike_pass_turn: [],
    strike_declare_attack: [["defender", "player"], ["attack_continent", "continent"],
                            ["defence_continent", "continent"]],
    strike_deploy: [["count", "number", 1], ["side", "side"]],
    strike_roll: [], strike_end_attack: [], strike_pass: [], strike_play_rally: [],
    strike_play_sabotage: [],
    strike_play_spy: [["target", "player"]],
    strike_play_expand: [["take", "text", ""]],
    strike_play_cancel_orders: [["play", "number", 1]],
    strike_play_bombard: [["die", "number", -1]],
    strike_play_artillery: [["target", "player"]],
  };
  const label = (type) => type.replace(/^strike_(play_)?/, "").replace(/_/g, " ")
    .replace(/^./, (c) => c.toUpperCase());

  function ownerByTerritory(layout, state) {
    const coins = state.continent_colours || state.coins || {};
    const owner = {};
    for (const t of layout.territories) owner[t.id] = coins[t.continent] || null;
    return owner;
  }

  function coinsOf(state, p) {
    return Object.entries(state.coins || {}).filter(([, who]) => who === p).map(([c]) => c);
  }

  function playersRows(state, me) {
    const rows = [RB.el("tr", {}, ...["", "player", "continent cards", "tactics", "coins"]
      .map((h) => RB.el("th", { text: h })))];
    for (const p of state.players) {
      const sw = RB.el("span", { class: "swatch" }); sw.style.background = RB.colour(p);
      rows.push(RB.el("tr", { class: (state.waiting_for || []).includes(p) ? "current" : "" },
        RB.el("td", {}, sw), RB.el("td", { text: p + (p === me ? " (you)" : "") }),
        RB.el("td", { text: ((state.tables || {})[p] || []).join(", ") || "–" }),
        RB.el("td", { text: String((state.hand_counts || {})[p] || 0) }),
        RB.el("td", { text: coinsOf(state, p).join(", ") || "–" })));
    }
    return rows;
  }

  function info(state) {
    const parts = [RB.el("p", { text: `Decks: ${state.continent_deck_count} continent cards, `
      + `${state.tactics_deck_count} tactics cards` })];
    const b = state.battle;
    if (b) {
      parts.push(RB.el("p", { text: `Battle: ${b.attacker} (${b.attack_continent}) against `
        + `${b.defender} (${b.defence_continent}), step ${String(b.step).replace(/_/g, " ")}` }));
      const troops = (b.troops || []).map((t) => `${t.player} ${t.side}: ${t.card}`).join(" · ");
      if (troops) parts.push(RB.el("p", { class: "small", text: `Troops: ${troops}` }));
    }
    const w = state.window;
    if (w) {
      parts.push(RB.el("p", { text: `Reaction window (${w.kind}): waiting for `
        + (w.eligible || []).filter((p) => !(w.passed || []).includes(p)).join(", ") }));
      for (const play of w.plays || []) {
        parts.push(RB.el("p", { class: "small", text: `#${play.id} ${play.player} played ${play.card}` }));
      }
    }
    return parts;
  }

  function lastDice(state) {
    const d = state.battle && state.battle.dice;
    if (!d) return null;
    return { attacker: state.battle.attacker, defender: state.battle.defender,
             attack_dice: d.attacker || [], defence_dice: d.defender || [] };
  }

  function input(kind, name, dflt, state, layout, me) {
    if (kind === "player") {
      return RB.el("select", { name }, ...state.players.filter((p) => p !== me)
        .map((p) => RB.el("option", { value: p, text: p })));
    }
    if (kind === "continent") {
      return RB.el("select", { name }, ...layout.continents
        .map((c) => RB.el("option", { value: c.id, text: c.name })));
    }
    if (kind === "side") {
      return RB.el("select", { name }, RB.el("option", { value: "", text: "my side" }),
        RB.el("option", { value: "attacker", text: "attacker" }),
        RB.el("option", { value: "defender", text: "defender" }));
    }
    const el = RB.el("input", { name, type: kind === "number" ? "number" : "text",
                                inputmode: kind === "number" ? "numeric" : "text" });
    el.value = dflt == null ? "" : String(dflt);
    return el;
  }

  /* One form per command the game accepts from me now; `send(command)` posts it. */
  function actions(state, layout, me, send) {
    const list = state.available_commands || [];
    if (!list.length) return [RB.el("p", { class: "small", text: "Nothing to do now." })];
    return list.map((type) => {
      const fields = FIELDS[type] || [];
      const inputs = fields.map(([name, kind, dflt]) => input(kind, name, dflt, state, layout, me));
      const go = RB.el("button", { class: "big", text: label(type), "data-command": type,
        onclick: () => {
          const command = { type };
          fields.forEach(([name, kind], i) => {
            const v = inputs[i].value;
            if (kind === "number") command[name] = parseInt(v, 10);
            else if (v !== "") command[name] = v;
          });
          send(command);
        } });
      return RB.el("div", { class: "row" }, ...fields.map(([name], i) =>
        RB.el("label", {}, name.replace(/_/g, " ") + " ", inputs[i])), go);
    });
  }

  return { ownerByTerritory, playersRows, info, lastDice, actions };
})();
