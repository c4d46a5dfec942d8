/* What the node tests need to hear the pages speak: a language's catalogue as the pages read
   it (pi_app/web/i18n/<lang>.json itself, not filled from English, so a key one language
   lacks shows), and the checks a rendered sentence must pass. */
import { readFileSync } from "node:fs";

export const LANGS = ["en", "fr", "ko", "ja"];
const I18N = new URL("../../pi_app/web/i18n/", import.meta.url);

export function catalogue(lang) {
  return JSON.parse(readFileSync(new URL(`${lang}.json`, I18N), "utf-8"));
}

/* Every catalogue key a sentence tree names: its sentences' keys, and the typed values'
   (a colour's `colour.<c>`, a territory's, a continent's, a word's `<word>.<of>`). */
export function keysOf(value, out = new Set()) {
  if (Array.isArray(value)) { value.forEach((v) => keysOf(v, out)); return out; }
  if (!value || typeof value !== "object") return out;
  if (value.key !== undefined) {
    out.add(value.key);
    for (const v of Object.values(value.params || {})) keysOf(v, out);
  } else if (value.colour !== undefined) { if (value.colour) out.add(`colour.${value.colour}`); }
  else if (value.colours !== undefined) value.colours.forEach((c) => out.add(`colour.${c}`));
  else if (value.territory !== undefined) { if (value.territory) out.add(`territory.${value.territory}`); }
  else if (value.continent !== undefined) out.add(`continent.${value.continent}`);
  else if (value.word !== undefined) out.add(`${value.word}.${value.of}`);
  else if (value.list !== undefined) keysOf(value.list, out);
  return out;
}

/* What is wrong with `text`, the words of the sentences naming `keys`, in a catalogue:
   a key it lacks, a {placeholder} left unfilled, a value lost on the way (undefined, null, NaN, an object),
   a key shown raw instead of its words. */
export function faults(text, keys, words) {
  const found = [];
  for (const key of keys) if (words[key] === undefined) found.push(`missing key ${key}`);
  const lost = text.match(/\b(?:undefined|null|NaN)\b|\[object Object\]/g);
  if (lost) found.push(`${lost.join(" ")} in "${text}"`);
  const unfilled = text.match(/\{\w+\}/g);
  if (unfilled) found.push(`unfilled ${unfilled.join(" ")} in "${text}"`);
  for (const token of text.match(/\b[a-z][a-z_]*(?:\.[a-z0-9_-]+)+\b/g) || []) {
    if (keys.has(token) || words[token] !== undefined) found.push(`raw key ${token} in "${text}"`);
  }
  return found;
}
