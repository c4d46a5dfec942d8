/* The pages' rendering of what the table waits for (issue 32.7): every case of
   tests/js/awaited.json (every pending decision of every variant, from the table's own
   Python: tests/table/awaited_cases.py) said by saying.js in every language from its own
   catalogue. A sentence fails on a key its language lacks, an unfilled {param} or a key shown
   raw. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { useCatalogue } from "../../pi_app/web/static/words.js";
import { say } from "../../pi_app/web/static/saying.js";
import { LANGS, catalogue, faults, keysOf } from "./speech.mjs";

const CASES = JSON.parse(readFileSync(new URL("awaited.json", import.meta.url), "utf-8"));

/* Each sentence a page shows of one view: the banner, /virtual's line, the seat's, the
   computer's step, My view's question and its buttons, a tap's hint, why it cannot attack. */
function sentencesOf(view) {
  const says = view.says || {};
  return [...(says.banner || []), ...(says.line || []), ...(says.seat || []),
    ...(says.computer ? [says.computer] : []),
    ...(view.decide ? [view.decide.ask, ...view.decide.choices.map((c) => c.says)] : []),
    ...(view.tap && view.tap.hint ? [view.tap.hint] : []),
    ...(view.no_attack ? [view.no_attack.says] : [])];
}

for (const lang of LANGS) {
  test(`every awaited case said in ${lang}`, () => {
    const words = catalogue(lang);
    useCatalogue(words);
    const wrong = [];
    let said = 0;
    for (const c of CASES) {
      for (const [viewer, view] of Object.entries(c.views)) {
        for (const sentence of sentencesOf(view)) {
          const text = say(sentence);
          said++;
          if (!String(text).trim()) wrong.push(`${c.case} / ${viewer}: nothing said for ${JSON.stringify(sentence)}`);
          for (const f of faults(String(text), keysOf(sentence), words)) wrong.push(`${c.case} / ${viewer}: ${f}`);
        }
      }
    }
    assert.ok(said > 1000, `only ${said} sentences`);
    assert.deepEqual(wrong, []);
  });
}

test("the fixture holds every variant and the table's own states", () => {
  const names = CASES.map((c) => c.case);
  for (const v of ["classic", "mission", "capital", "two-player", "allied", "strike"]) {
    assert.ok(names.includes(`${v} won`), v);
  }
  assert.ok(names.includes("ended by the host") && names.includes("no game"));
});
