/* Dice as the table's dice: attack red, defence blue, highest first, each pair's loser
   marked (`battle`: a `battle` event, or the dice on the table now). Shown in the table
   pages' "Last roll" card, and on My view beside the Attack button (`rollOfThePhase`). */

import { t, colourName as who } from "./words.js";
import { el } from "./dom.js";

export function diceRows(battle) {
  const a = [...battle.attack_dice].sort((x, y) => y - x), d = [...battle.defence_dice].sort((x, y) => y - x);
  const pairs = Math.min(a.length, d.length);
  const die = (face, side, lost) => el("span", { class: `die ${side}${lost ? " lost" : ""}`, role: "img",
    "aria-label": t(lost ? "dice.face_lost" : "dice.face", { face }) }, String(face));
  const row = (label, list, side, lostAt) => el("div", { class: "dice-row", "data-side": side },
    el("span", { class: "who", text: label }), ...list.map((f, i) => die(f, side, i < pairs && lostAt(i))));
  return [row(t("dice.attack", { player: who(battle.attacker) }), a, "attack", (i) => a[i] <= d[i]),
    row(t("dice.defence", { player: who(battle.defender) }), d, "defence", (i) => a[i] > d[i])];
}

/* Events that start a phase afresh: a roll before them is no longer the one at hand. */
const PHASE_START = new Set(["phase", "turn_started", "game_started"]);

/* The last roll of the phase under way, from the log (`entries`: [{seq, ev}], oldest
   first): its last `battle` event and the losses of the command that rolled it (a blitz:
   all its rolls, `rolls` of them); null when the phase has had no roll. */
export function rollOfThePhase(entries) {
  let last = null, rolls = 0, attackerLosses = 0, defenderLosses = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const { seq, ev } = entries[i];
    if (PHASE_START.has(ev.type)) break;
    if (ev.type !== "battle") continue;
    if (last && (seq !== last.seq || ev.from !== last.ev.from || ev.to !== last.ev.to)) break;
    last = last || entries[i];
    rolls += 1;
    attackerLosses += ev.attacker_losses || 0;
    defenderLosses += ev.defender_losses || 0;
  }
  return last && { battle: last.ev, rolls, attackerLosses, defenderLosses };
}
