/* What the table waits for, in words (issue 32.1). The table computes it, in Python
   (pi_app/table/awaiting.py), and every view carries it as `table.waits`: catalogue keys and
   parameters, never words. `say(sentence)` words one in the page's language; `waits(state)`
   is the view's object. Pure (tests/js/awaited.test.mjs renders every case of the fixture
   tests/js/awaited.json in every language). */

import { t, has, colourName, territory, continent } from "./words.js";

/* A parameter is a number or plain text, or a typed value: {colour}, {colours} (listed, "–"
   for none), {territory}, {continent}, {word, of} (the catalogue's `word.of`), a nested
   sentence, or {list, join} (sentences one after another, joined by the catalogue's
   `list.<join>`). */
function sayValue(v) {
  if (v === null || v === undefined) return "";
  if (typeof v !== "object") return v;  // numbers stay numbers (`key.one` when n is 1)
  if (v.key !== undefined) return say(v);
  if (v.colour !== undefined) return v.colour === null ? "" : colourName(v.colour);
  if (v.colours !== undefined) return v.colours.length ? v.colours.map(colourName).join(t("list.separator")) : "–";
  if (v.territory !== undefined) return v.territory ? territory(v.territory) : "";
  if (v.continent !== undefined) return continent(v.continent);
  if (v.word !== undefined) return has(`${v.word}.${v.of}`) ? t(`${v.word}.${v.of}`) : String(v.of).replace(/_/g, " ");
  // joined as the language joins them: list.steps, list.comma, else list.separator
  if (v.list !== undefined) return v.list.map(sayValue).join(t(has(`list.${v.join}`) ? `list.${v.join}` : "list.separator"));
  return "";
}

/* One sentence ({key, params}) in the page's language. */
export function say(sentence) {
  if (!sentence) return "";
  if (sentence.key === undefined) return String(sayValue(sentence));
  const params = {};
  for (const [k, v] of Object.entries(sentence.params || {})) params[k] = sayValue(v);
  return t(sentence.key, params);
}

/* Several sentences as one line, joined with `sep`. */
export function sayAll(sentences, sep = " · ") {
  return (sentences || []).map(say).filter(Boolean).join(sep);
}

/* What the table waits for in `state` (the view's `table.waits`; a view from before it
   reads as no game). */
export function waits(state) {
  const w = state && state.table && state.table.waits;
  return w || { status: "none", seats: [], says: { banner: [], line: [], seat: null }, you: false };
}
