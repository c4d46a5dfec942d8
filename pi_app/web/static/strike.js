/* RISK Strike on the pages. Table view: each player's face-up continent cards (per
   continent, against its domination number), coin holders (the map lights each continent in
   its holder's colour), the battle in progress, the reaction window and the dice.
   A player's phone: the tactics hand, and one control per command the game accepts from
   them now (`available_commands` in their view): Draw choices, Declare attack, Deploy, Roll,
   Pass, each playable tactics card, the reaction window's Pass. A Spy's report is in the
   spy's own view only (`spied_hand`). */
"use strict";

const RBStrike = (() => {
  const el = (...a) => RB.el(...a);
  const PHASES = { draw: "drawing 2 cards", choose: "attack or pass", battle: "battle",
                   game_over: "game over" };
  const STEPS = { attacker_deploy: "attacker deploys troops", defender_deploy: "defender deploys troops",
                  support: "other players may support a side", deployed: "troops deployed",
                  ready: "ready to roll", rolled: "dice rolled" };
  const WINDOWS = { tactics: "answer a tactics card", support: "support a side",
                    deployed: "after deployment", rolled: "after the roll" };
  const kindOf = (card) => String(card).replace(/\.\d+$/, "");

  function names(layout) {
    const n = {};
    for (const c of layout.continents) n[c.id] = c.name;
    return n;
  }
  const tacticName = (layout, card) => (layout.strike.tactic_names || {})[kindOf(card)] || kindOf(card);

  function ownerByTerritory(layout, state) {
    const coins = state.continent_colours || state.coins || {};
    const owner = {};
    for (const t of layout.territories) owner[t.id] = coins[t.continent] || null;
    return owner;
  }

  function coinsOf(state, p) {
    return Object.entries(state.coins || {}).filter(([, who]) => who === p).map(([c]) => c);
  }

  /* {continent: count} of a player's face-up continent cards. */
  function tableCounts(state, p) {
    const counts = {};
    for (const card of (state.tables || {})[p] || []) counts[kindOf(card)] = (counts[kindOf(card)] || 0) + 1;
    return counts;
  }

  function banner(state) {
    if (state.winner) return `★ ${state.winner} won RISK Strike`;
    const w = state.window;
    const what = w ? `reaction window: ${WINDOWS[w.kind] || w.kind}` : (PHASES[state.phase] || state.phase);
    return `RISK Strike · turn ${state.turn} · ${state.current_player}'s turn · ${what} · waiting for `
      + ((state.waiting_for || []).join(", ") || "nobody");
  }

  function playersRows(state, me, layout) {
    const cn = names(layout), dom = layout.strike.domination;
    const rows = [el("tr", {}, ...["", "player", "continent cards", "tactics", "coins"]
      .map((h) => el("th", { text: h })))];
    for (const p of state.players) {
      const sw = el("span", { class: "swatch" }); sw.style.background = RB.colour(p);
      const counts = tableCounts(state, p);
      const cards = Object.entries(counts).map(([c, n]) =>
        el("span", { class: "ccard" + (n >= dom[c] ? " full" : ""), "data-continent": c,
                     text: `${cn[c] || c} ${n}/${dom[c]}` }));
      const coins = coinsOf(state, p).map((c) => `● ${cn[c] || c}`).join(", ");
      const row = el("tr", { class: (state.waiting_for || []).includes(p) ? "current" : "" },
        el("td", {}, sw), el("td", { text: p + (p === me ? " (you)" : "") }),
        el("td", { class: "ccards" }, ...(cards.length ? cards : ["–"])),
        el("td", { text: String((state.hand_counts || {})[p] || 0) }),
        el("td", { class: "coins", text: coins || "–" }));
      row.dataset.player = p;
      rows.push(row);
    }
    return rows;
  }

  function info(state, layout) {
    const cn = names(layout);
    const parts = [el("p", { class: "small", text: `Decks: ${state.continent_deck_count} continent cards, `
      + `${state.tactics_deck_count} tactics cards · ${layout.strike.coins_to_win} coins win` })];
    parts.push(el("ul", { class: "coin-list" }, ...Object.entries(state.coins || {}).map(([c, who]) => {
      const li = el("li", { "data-coin": c, text: `${cn[c] || c} (${layout.strike.domination[c]}): `
        + (who ? `coin held by ${who}` : "coin in the pile") });
      if (who) li.style.borderLeftColor = RB.colour(who);
      return li;
    })));
    const b = state.battle;
    if (b) {
      const side = (s) => (b.troops || []).filter((t) => t.side === s).length;
      parts.push(el("div", { class: "battle", id: "strike-battle" },
        el("strong", { text: `Battle: ${b.attacker} (${cn[b.attack_continent] || b.attack_continent}) `
          + `attacks ${b.defender} (${cn[b.defence_continent] || b.defence_continent})` }),
        el("p", { text: `${STEPS[b.step] || b.step} · troops: attacker ${side("attacker")}, defender ${side("defender")}`
          + (Object.keys(b.supporters || {}).length ? ` · support: ${Object.entries(b.supporters)
            .map(([p, s]) => `${p} → ${s}`).join(", ")}` : "") + ` · rolls ${b.rolls || 0}` })));
    }
    const w = state.window;
    if (w) {
      const waiting = (w.eligible || []).filter((p) => !(w.passed || []).includes(p));
      parts.push(el("p", { id: "strike-window" }, `Reaction window (${WINDOWS[w.kind] || w.kind}): `
        + `waiting for ${waiting.join(", ") || "nobody"}`, windowClock(state)));
      for (const play of w.plays || []) {
        parts.push(el("p", { class: "small", text: `#${play.id} ${play.player} played ${tacticName(layout, play.card)}`
          + (play.target ? ` on ${play.target}` : "") + (play.cancelled ? " (cancelled)" : "") }));
      }
    }
    return parts;
  }

  /* The reaction window's timer as this page saw it open (the table closes the window
     `reaction_seconds` after opening it; a page that joins late counts from its join). */
  let clock = { id: null, until: 0 };
  function windowClock(state, lead) {
    const w = state.window, secs = (state.house_rules || {}).reaction_seconds;
    if (!w || !secs) { clock = { id: null, until: 0 }; return null; }
    if (clock.id !== w.id) clock = { id: w.id, until: Date.now() + secs * 1000 };
    const span = el("span", { class: "window-clock", "data-until": String(clock.until),
                              "data-lead": lead === undefined ? " · " : lead });
    tick(span);
    return span;
  }
  function tick(node) {
    const left = Math.max(0, Math.round((Number(node.dataset.until) - Date.now()) / 1000));
    node.textContent = `${node.dataset.lead || ""}closes in about ${left} s`;
  }
  setInterval(() => document.querySelectorAll(".window-clock").forEach(tick), 500);

  function lastDice(state) {
    const d = state.battle && state.battle.dice;
    if (!d) return null;
    return { attacker: state.battle.attacker, defender: state.battle.defender,
             attack_dice: d.attacker || [], defence_dice: d.defender || [] };
  }

  function handChips(state, layout) {
    const hand = state.my_hand || [];
    if (!hand.length) return [el("span", { class: "small", text: "No tactics cards." })];
    return hand.map((c) => el("span", { class: "cardchip tactic", "data-card": c, text: tacticName(layout, c) }));
  }

  function select(name, options, onchange) {
    const s = el("select", { name }, ...options.map(([v, t]) => el("option", { value: v, text: t })));
    if (onchange) s.addEventListener("change", onchange);
    return s;
  }
  function button(text, type, build, send, cls) {
    return el("button", { class: cls || "big", text, "data-command": type,
                          onclick: () => send(Object.assign({ type }, build ? build() : {})) });
  }
  function group(title, ...children) {
    return el("div", { class: "row strike-row" }, title ? el("span", { class: "what", text: title }) : null, ...children);
  }

  /* The controls of each command type the game accepts from `me` now. */
  const CONTROLS = {
    strike_draw: (ctx) => group("Draw 2 cards:",
      ...[[2, 0, "2 continent"], [1, 1, "1 + 1"], [0, 2, "2 tactics"]].map(([c, t, label]) => {
        const b = button(label, "strike_draw", () => ({ continents: c, tactics: t }), ctx.send);
        b.dataset.draw = `${c}-${t}`;
        return b;
      })),
    strike_declare_attack: (ctx) => {
      const { state, me, layout } = ctx, cn = names(layout);
      const option = (c) => el("option", { value: c, text: cn[c] || c });
      const mine = Object.keys(tableCounts(state, me));
      // defending continents: the same or a linked one, of which the defender holds a card
      const targets = (from, who) => [from, ...(layout.strike.links[from] || [])]
        .filter((c) => tableCounts(state, who)[c]);
      const theirs = select("defence_continent", []);
      const attack = select("attack_continent", [], () => fillTheirs());
      const fillTheirs = () => theirs.replaceChildren(...targets(attack.value, defender.value).map(option));
      const refill = () => {
        const good = mine.filter((c) => targets(c, defender.value).length);
        attack.replaceChildren(...(good.length ? good : mine).map(option));
        fillTheirs();
      };
      const defender = select("defender", state.players.filter((p) => p !== me).map((p) => [p, p]), refill);
      refill();
      return group("Attack:", el("label", {}, "opponent ", defender), el("label", {}, "from my ", attack),
        el("label", {}, "their ", theirs),
        button("Declare attack", "strike_declare_attack", () => ({ defender: defender.value,
          attack_continent: attack.value, defence_continent: theirs.value }), ctx.send));
    },
    strike_pass_turn: (ctx) => group(null, button("Pass: draw 1 tactics card, end turn", "strike_pass_turn", null, ctx.send, "big secondary")),
    strike_deploy: (ctx) => {
      const { state } = ctx;
      const troops = (state.my_hand || []).filter((c) => kindOf(c) === "troops").length;
      const support = state.window && state.window.kind === "support";
      const counts = [];
      for (let n = support ? 1 : 0; n <= troops; n++) counts.push([String(n), String(n)]);
      if (!counts.length) return group("Deploy:", el("span", { class: "small", text: "No troop cards in your hand." }));
      const count = select("count", counts);
      count.value = String(troops);
      const side = support ? select("side", [["attacker", `attacker (${state.battle.attacker})`],
        ["defender", `defender (${state.battle.defender})`]]) : null;
      return group("Deploy troop cards:", el("label", {}, "how many ", count),
        side ? el("label", {}, "for the ", side) : null,
        button("Deploy", "strike_deploy", () => Object.assign({ count: parseInt(count.value, 10) },
          side ? { side: side.value } : {}), ctx.send));
    },
    strike_roll: (ctx) => group(null, button("Roll the dice", "strike_roll", null, ctx.send)),
    strike_end_attack: (ctx) => group(null, button("Stop the attack", "strike_end_attack", null, ctx.send, "big secondary")),
    strike_pass: (ctx) => group(null, button("Pass (do nothing)", "strike_pass", null, ctx.send, "big secondary"),
      windowClock(ctx.state, "")),
    strike_play_spy: (ctx) => {
      const target = select("target", ctx.state.players.filter((p) => p !== ctx.me).map((p) => [p, p]));
      return group("Spy:", el("label", {}, "look at ", target),
        button("Play Spy", "strike_play_spy", () => ({ target: target.value }), ctx.send));
    },
    strike_play_expand: (ctx) => {
      const take = select("take", [["continents", "2 continent cards"], ["tactics", "1 tactics card"]]);
      return group("Expand:", el("label", {}, "draw ", take),
        button("Play Expand", "strike_play_expand", () => ({ take: take.value }), ctx.send));
    },
    strike_play_cancel_orders: (ctx) => {
      const plays = ((ctx.state.window || {}).plays || []).filter((p) => p.player !== ctx.me && !p.cancelled);
      const play = select("play", plays.map((p) => [String(p.id), `#${p.id} ${p.player}'s ${tacticName(ctx.layout, p.card)}`]));
      return group("Cancel Orders:", el("label", {}, "cancel ", play),
        button("Play Cancel Orders", "strike_play_cancel_orders", () => ({ play: parseInt(play.value, 10) }), ctx.send));
    },
    strike_play_rally: (ctx) => group(null, button("Play Rally (+2 on each of my dice)", "strike_play_rally", null, ctx.send)),
    strike_play_bombard: (ctx) => {
      const b = ctx.state.battle || {}, dice = (b.dice || {})[b.attacker === ctx.me ? "attacker" : "defender"] || [];
      const die = select("die", dice.length ? dice.map((f, i) => [String(i), `die ${i + 1} (${f})`]) : [["-1", "my lowest die"]]);
      if (dice.length) die.value = String(dice.length - 1);
      return group("Bombard:", el("label", {}, "make a 6 of ", die),
        button("Play Bombard", "strike_play_bombard", () => ({ die: parseInt(die.value, 10) }), ctx.send));
    },
    strike_play_artillery: (ctx) => {
      const troopers = [...new Set(((ctx.state.battle || {}).troops || []).map((t) => t.player))];
      const target = select("target", (troopers.length ? troopers : ctx.state.players).map((p) => [p, p]));
      return group("Artillery:", el("label", {}, "player discards up to 2 troops: ", target),
        button("Play Artillery", "strike_play_artillery", () => ({ target: target.value }), ctx.send));
    },
    strike_play_sabotage: (ctx) => group(null, button("Play Sabotage (troops back to hands, turn ends)", "strike_play_sabotage", null, ctx.send)),
  };

  /* One control per command the game accepts from `me` now; `send(command)` posts it. */
  function actions(state, layout, me, send) {
    if (!Array.isArray(state.available_commands)) {
      return [el("p", { class: "error", text: "This table does not list your choices yet "
        + "(its view lacks available_commands)." })];
    }
    const list = state.available_commands;
    if (!list.length) {
      return [el("p", { class: "small", text: state.winner ? "The game is over."
        : `Nothing to do now; waiting for ${(state.waiting_for || []).join(", ") || "the table"}.` })];
    }
    const ctx = { state, layout, me, send };
    return list.map((type) => (CONTROLS[type] ? CONTROLS[type](ctx)
      : group(null, button(type.replace(/^strike_/, "").replace(/_/g, " "), type, null, send))));
  }

  /* The spy's report (their own view only). */
  function spyReport(state, layout) {
    const spied = state.spied_hand;
    if (!spied) return [];
    const cards = spied.cards.map((c) => tacticName(layout, c)).join(", ") || "no cards";
    return [el("p", { id: "spy-report" }, el("strong", { text: `Spy report on ${spied.player}` }),
      ` (turn ${spied.as_of_turn}, may have changed since): ${cards}`)];
  }

  /* Log lines of Strike's events (null: not a Strike event). */
  function describe(ev, layout) {
    const cn = names(layout);
    const c = (id) => cn[id] || id;
    const tn = (card) => tacticName(layout, card);
    switch (ev.type) {
      case "continents_drawn": return `${ev.player} drew ${(ev.cards || []).map((k) => c(kindOf(k))).join(", ")}`;
      case "tactics_drawn": return ev.cards ? `you drew ${ev.cards.map(tn).join(", ")}`
        : `${ev.player} drew ${ev.count} tactics card${ev.count === 1 ? "" : "s"}`;
      case "drew": return `${ev.player} drew ${ev.continents} continent and ${ev.tactics} tactics cards`;
      case "first_player": return `${ev.player} goes first`;
      case "attack_declared": return `${ev.attacker} attacks ${ev.defender}: ${c(ev.attack_continent)} → ${c(ev.defence_continent)}`;
      case "troops_deployed": return `${ev.player} deployed ${ev.count} troops for the ${ev.side}`;
      case "window_opened": return `reaction window: ${WINDOWS[ev.kind] || ev.kind}`;
      case "window_closed": return `reaction window closed (${ev.by === "passes" ? "everyone passed" : ev.by})`;
      case "passed": return `${ev.player} passed`;
      case "tactic_played": return `${ev.player} played ${tn(ev.card)}` + (ev.target ? ` on ${ev.target}` : "");
      case "tactic_resolved": return `${ev.player}'s ${tn(ev.card)} took effect`;
      case "tactic_cancelled": return `${ev.player}'s ${tn(ev.card)} was cancelled`;
      case "tactic_fizzled": return `${ev.player}'s ${tn(ev.card)} had no effect`;
      case "spied": return ev.hand ? `you saw ${ev.target}'s hand: ${ev.hand.map(tn).join(", ") || "empty"}`
        : `${ev.player} spied on ${ev.target}'s hand`;
      case "dice_rolled": return `${ev.attacker} rolled [${ev.attack_dice}] against ${ev.defender}'s [${ev.defence_dice}]`;
      case "dice_changed": return `${ev.player}'s ${tn(ev.card)}: ${ev.side} dice now [${ev.dice}]`;
      case "battle": return `battle: [${ev.attack_dice}] vs [${ev.defence_dice}], losers ${(ev.losers || []).join(", ")}`;
      case "troop_lost": return `${ev.player} lost a troop card (${ev.side})`;
      case "troops_discarded": return `${ev.player}'s ${tn(ev.card)}: ${ev.count} troops discarded`;
      case "continent_captured": return `${ev.player} took ${ev.source}'s ${c(ev.continent)} card`;
      case "continent_surrendered": return `${ev.player} surrendered a ${c(ev.continent)} card`;
      case "coin_taken": return `${ev.player} took the ${c(ev.continent)} coin` + (ev.source ? ` from ${ev.source}` : "");
      case "attack_ended": return `${ev.attacker}'s attack ended (${String(ev.reason).replace(/_/g, " ")})`;
      case "sabotaged": return `${ev.player} sabotaged the battle: ${ev.troops_returned} troops went back to hands`;
      case "turn_passed": return `${ev.player} passed the turn`;
      case "game_won": return `${ev.winner} won with the coins of ${(ev.coins || []).map(c).join(" and ")}!`;
      default: return null;
    }
  }

  return { describe, ownerByTerritory, banner, playersRows, info, lastDice, handChips, actions, spyReport };
})();
