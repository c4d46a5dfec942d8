/* The page's language: chosen from the phone's languages, switchable in the header and
   remembered per phone (its storage, and a cookie that tells the server). The catalogue is
   inline in the page when it is the chosen language, else /i18n/<lang>.json. Elements with
   `data-i18n="key"` (and `data-i18n-aria-label`, `-title`, `-placeholder`) are translated
   in place. `ready` resolves once the words are there. */

import { t, useCatalogue } from "./words.js";

const LANG_KEY = "riskboard.lang";
export const LANGS = ["en", "ko", "ja", "fr"];
/* The document is parsed (the head's modules may run before it is). */
export const parsed = document.readyState === "loading"
  ? new Promise((done) => document.addEventListener("DOMContentLoaded", done, { once: true }))
  : Promise.resolve();
let current = "en";
const listeners = [];
export const lang = () => current;

function chooseLang() {
  const kept = localStorage.getItem(LANG_KEY);
  if (LANGS.includes(kept)) return kept;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}
/* The words the page came with (base.html's data block, in the language the server chose
   from this phone's cookie or Accept-Language): no request when they are the chosen ones. */
function inlineWords(code) {
  const block = document.getElementById("rb-words");
  if (!block || block.dataset.lang !== code) return null;
  try { return JSON.parse(block.textContent); } catch (e) { return null; }
}
/* The chosen language goes with the next page request too (a preference, not a secret), so
   the server sends that page in it. */
function rememberLang(code) {
  document.cookie = `${LANG_KEY}=${code}; path=/; max-age=31536000; SameSite=Strict`;
}
async function loadLang(code) {
  let fresh = inlineWords(code);
  if (!fresh) {
    const res = await fetch(`/i18n/${code}.json`, { credentials: "omit" });
    if (!res.ok) throw new Error(`no words for ${code}`);
    fresh = await res.json();
    rememberLang(code);
  }
  useCatalogue(fresh);
  current = code;
  document.documentElement.lang = code;
  await parsed;  // the head's module may run while the page is still arriving
  translate(document);
}
/* Words already right (the page came in this language) are left alone: no new layout. */
export function translate(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    const text = t(node.dataset.i18n);
    if (node.textContent !== text) node.textContent = text;
  }
  for (const attr of ["aria-label", "title", "placeholder"]) {
    for (const node of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      const text = t(node.getAttribute(`data-i18n-${attr}`));
      if (node.getAttribute(attr) !== text) node.setAttribute(attr, text);
    }
  }
}
export const ready = loadLang(chooseLang()).catch(() => loadLang("en"));
export async function setLang(code) {
  if (!LANGS.includes(code)) return;
  localStorage.setItem(LANG_KEY, code);
  rememberLang(code);
  await loadLang(code);
  for (const f of listeners) f(code);
}
/* `f(code)` after each change of language. */
export function onLang(f) { listeners.push(f); }
parsed.then(() => {
  const pick = document.getElementById("lang");
  if (!pick) return;
  ready.then(() => { pick.value = current; });
  pick.addEventListener("change", () => setLang(pick.value));
});
