/* My view's attack panel follows the table's aims (`waits.aims`, pi_app/table/aims.py,
   whose shape tests/table/test_aims.py holds): a tapped pair is an attack or a fortify only
   when the table lists it, with the table's dice and the armies that may move. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { aimOf } from "../../pi_app/web/static/aims.js";

const waits = { aims: {
  attack: { alaska: { to: ["kamchatka"], dice: 2 } },
  fortify: { alaska: { to: ["alberta", "ontario"], most: 2 } },
  blitz: true,
} };

test("a listed attack carries the table's dice and its blitz", () => {
  assert.deepEqual(aimOf(waits, ["alaska", "kamchatka"]), { type: "attack", dice: 2, blitz: true });
  const noBlitz = { aims: { ...waits.aims, blitz: false } };
  assert.equal(aimOf(noBlitz, ["alaska", "kamchatka"]).blitz, false);
});

test("a listed fortify carries the most armies that may move", () => {
  assert.deepEqual(aimOf(waits, ["alaska", "ontario"]), { type: "fortify", most: 2 });
});

test("a pair the table does not list is nothing, whatever the map says", () => {
  assert.equal(aimOf(waits, ["kamchatka", "alaska"]), null);      // the other way round
  assert.equal(aimOf(waits, ["alaska", "northwest-territory"]), null);
  assert.equal(aimOf(waits, ["alaska"]), null);                   // one territory is no aim
  assert.equal(aimOf({ aims: null }, ["alaska", "kamchatka"]), null);  // not this seat's step
  assert.equal(aimOf({}, ["alaska", "kamchatka"]), null);
});
