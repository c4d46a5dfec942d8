/* Dice as the table's dice: attack red, defence blue, highest first, each pair's loser
   marked, and each side's losses said beside its dice (`battle`: a `battle` event, or the
   dice on the table now). Shown in the table pages' "Last roll" card and, after a roll, next
   to the button that rolls again (issue 32.4). */

import { t, colourName as who } from "./words.js";
import { el } from "./dom.js";

export function diceRows(battle, { losses = false } = {}) {
  const a = [...battle.attack_dice].sort((x, y) => y - x), d = [...battle.defence_dice].sort((x, y) => y - x);
  const pairs = Math.min(a.length, d.length);
  const die = (face, side, lost) => el("span", { class: `die ${side}${lost ? " lost" : ""}`, role: "img",
    "aria-label": t(lost ? "dice.face_lost" : "dice.face", { face }) }, String(face));
  const lostBy = (side) => (side === "attack" ? battle.attacker_losses : battle.defender_losses);
  const row = (label, list, side, lostAt) => el("div", { class: "dice-row", "data-side": side },
    el("span", { class: "who", text: label }), ...list.map((f, i) => die(f, side, i < pairs && lostAt(i))),
    losses && lostBy(side) !== undefined ? el("span", { class: "lost-n", text: t("dice.lost_n", { n: lostBy(side) }) }) : null);
  return [row(t("dice.attack", { player: who(battle.attacker) }), a, "attack", (i) => a[i] <= d[i]),
    row(t("dice.defence", { player: who(battle.defender) }), d, "defence", (i) => a[i] > d[i])];
}
