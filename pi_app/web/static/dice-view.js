/* Dice as the table's dice: attack red, defence blue, highest first, each pair's loser
   marked (`battle`: a `battle` event, or the dice on the table now). Shown in the table
   pages' "Last roll" card. */

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
