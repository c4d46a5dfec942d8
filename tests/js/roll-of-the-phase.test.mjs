/* My view's last roll (issue 32.4): the phase's last `battle` from the log, with the losses of
   the command that rolled it, and its losses said in every language. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rollOfThePhase } from "../../pi_app/web/static/dice-view.js";
import { t, useCatalogue } from "../../pi_app/web/static/words.js";
import { LANGS, catalogue, faults } from "./speech.mjs";

const battle = (seq, from, to, al, dl) => ({ seq, ev: { type: "battle", attacker: "red", defender: "blue",
  from, to, attack_dice: [6, 3, 2], defence_dice: [5, 4], attacker_losses: al, defender_losses: dl } });
const event = (seq, type) => ({ seq, ev: { type } });

test("no roll in the phase: none", () => {
  assert.equal(rollOfThePhase([]), null);
  assert.equal(rollOfThePhase([battle(3, "ural", "china", 1, 1), event(4, "phase")]), null);
  assert.equal(rollOfThePhase([battle(3, "ural", "china", 1, 1), event(5, "turn_started")]), null);
});

test("the last single roll, not the ones before it", () => {
  const roll = rollOfThePhase([event(1, "turn_started"), battle(2, "ural", "china", 2, 0),
    battle(3, "ural", "china", 1, 1), event(3, "conquered"), event(4, "moved_in")]);
  assert.deepEqual([roll.rolls, roll.attackerLosses, roll.defenderLosses], [1, 1, 1]);
  assert.equal(roll.battle.attacker_losses, 1);
});

test("a blitz: the losses of all its rolls, the dice of its last", () => {
  const last = battle(7, "ural", "china", 0, 2);
  const roll = rollOfThePhase([battle(6, "siam", "china", 2, 0), battle(7, "ural", "china", 1, 1),
    battle(7, "ural", "china", 2, 0), last, event(7, "conquered")]);
  assert.deepEqual([roll.rolls, roll.attackerLosses, roll.defenderLosses], [3, 3, 3]);
  assert.equal(roll.battle, last.ev);
});

for (const lang of LANGS) {
  test(`the losses are said in ${lang}`, () => {
    const words = catalogue(lang);
    useCatalogue(words);
    for (const n of [1, 4]) {
      const text = t("me.roll_losses", { n, attacker: words["colour.red"], al: 3, defender: words["colour.blue"], dl: 5 });
      assert.deepEqual(faults(text, new Set(["me.roll_losses", "colour.red", "colour.blue"]), words), []);
      assert.ok(text.includes(words["colour.red"]) && text.includes("3") && text.includes("5"), text);
      assert.equal(text.includes("4"), n === 4, text);
    }
  });
}
