/* The pages' words: one language's catalogue (pi_app/web/i18n/<lang>.json) and `t(key,
   params)` over it, the names players know (colours, territories, continents, variants,
   house rules) and a refusal as a sentence. Pure: it neither asks for nor chooses a
   catalogue (language.js does, in the page; node's tests hand it one). */

let words = {};

/* The catalogue `t` reads from now on. */
export function useCatalogue(catalogue) { words = catalogue || {}; }

/* The sentence for `key` with {placeholders} filled from `params`; `key.one` is used when
   params.n is 1 (every catalogue has the same keys). A missing key shows as itself. */
export function t(key, params) {
  let text = words[key];
  if (params && params.n === 1 && words[key + ".one"] !== undefined) text = words[key + ".one"];
  if (text === undefined) return key;
  return params ? text.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined ? m : String(params[k]))) : text;
}
export function has(key) { return words[key] !== undefined; }

/* Names as a player of the chosen language knows them. */
const named = (prefix) => (id) => (has(`${prefix}.${id}`) ? t(`${prefix}.${id}`) : String(id));
export const colourName = named("colour");
export const territory = named("territory");
export const continent = named("continent");
export const variantName = named("variant");
export const phaseName = (p) => (has(`phase.${p}`) ? t(`phase.${p}`) : String(p).replace(/_/g, " "));
/* A house rule's words (`houserule.<rule>`, `houserule.<rule>.<choice>`), else as given. */
const ruleWord = named("houserule");

/* A refusal's parameters in the page's words: a colour, territory, variant or house rule
   by its name here, a list of choices joined; numbers and typed values as they are. */
function wordParams(params) {
  const p = Object.assign({}, params || {});
  const rule = p.rule;
  if (p.colour !== undefined) p.colour = colourName(p.colour);
  if (p.territory !== undefined) p.territory = territory(p.territory);
  if (p.variant !== undefined) p.variant = variantName(p.variant);
  for (const part of ["first", "second"]) if (p[part] !== undefined) p[part] = ruleWord(`${rule}.${p[part]}`);
  if (rule !== undefined) p.rule = ruleWord(rule);
  if (Array.isArray(p.choices)) {
    p.choices = p.choices.map((c) => (rule !== undefined ? ruleWord(`${rule}.${c}`)
      : has(`variant.${c}`) ? variantName(c) : has(`colour.${c}`) ? colourName(c) : String(c))).join(t("list.separator"));
  }
  return p;
}
/* `key`'s words filled from the server's parameters; `fallback` (the server's English)
   when the catalogue lacks the key or a placeholder stays unfilled. */
function worded(key, params, fallback) {
  if (!has(key)) return fallback;
  const text = t(key, wordParams(params));
  return /\{\w+\}/.test(text) && fallback ? fallback : text;
}
/* A refusal as a sentence in the page's language: its stable code's words
   (`error.<code>`), filled from its parameters (e.g. the seconds to wait), else the
   server's sentence. */
export function errorText(e) {
  const code = e && e.code;
  const fallback = (e && e.message) || t("error.unknown");
  return code ? worded(`error.${code}`, e.params, fallback) : fallback;
}
/* One field's problem in a refused form ({code, params} from the answer's `problems`). */
export function problemText(problem, fallback) {
  return problem && problem.code ? worded(`problem.${problem.code}`, problem.params, fallback) : fallback;
}
