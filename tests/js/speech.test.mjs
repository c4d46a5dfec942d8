/* The checks awaited.test.mjs makes can fail: each fault it looks for, made on purpose. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { useCatalogue } from "../../pi_app/web/static/words.js";
import { say } from "../../pi_app/web/static/saying.js";
import { faults, keysOf } from "./speech.mjs";

const WORDS = { "state.waiting": "Waiting for {player}: {what}", "colour.red": "Red", "phase.attack": "attack",
  "state.claim": "Touch an empty territory" };

function check(sentence, words) {
  useCatalogue(words);
  return faults(say(sentence), keysOf(sentence), words);
}

test("a right sentence has no fault", () => {
  assert.deepEqual(check({ key: "state.waiting", params: { player: { colour: "red" }, what: { word: "phase", of: "attack" } } }, WORDS), []);
});

test("a key the language lacks is found, and shown raw", () => {
  const found = check({ key: "state.fortify", params: {} }, WORDS);
  assert.ok(found.includes("missing key state.fortify"), found);
  assert.ok(found.some((f) => f.startsWith("raw key state.fortify")), found);
});

test("a typed value's missing name is found", () => {
  const found = check({ key: "state.waiting", params: { player: { colour: "blue" }, what: { word: "phase", of: "attack" } } }, WORDS);
  assert.deepEqual(found, ["missing key colour.blue"]);
});

test("a placeholder left unfilled is found", () => {
  const found = check({ key: "state.waiting", params: { player: { colour: "red" } } }, WORDS);
  assert.deepEqual(found, ['unfilled {what} in "Waiting for Red: {what}"']);
});

test("a value lost on the way is found", () => {
  const found = check({ key: "state.waiting", params: { player: { colour: "red" }, what: { word: "phase" } } }, WORDS);
  assert.ok(found.some((f) => f.startsWith("undefined")), found);
  assert.deepEqual(faults("Waiting for Red: [object Object]", new Set(), WORDS), ['[object Object] in "Waiting for Red: [object Object]"']);
});
