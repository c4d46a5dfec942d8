/* The host page's new-game form: the variants the table plays (/api/variants), the players'
   colours, one input per house rule of the chosen variant, and the first roll typed from
   physical dice; its words again when the language changes, keeping what was entered. */

import { colourName, has, t } from "./words.js";
import { $, colour, el, faces } from "./dom.js";
import { api } from "./seat.js";
import { ready } from "./language.js";

let catalogue = null;
/* A variant's name as the table's rule book calls it (the server's English otherwise). */
const specName = (v) => (has(`variant.${v.id}`) ? t(`variant.${v.id}`) : v.name);
const spec = () => catalogue.variants.find((v) => v.id === $("variant").value);

function colours() {
  const box = $("colours");
  for (const c of catalogue.colours) {
    const cb = el("input", { type: "checkbox", value: c, onchange: playerHint });
    if (c === "red" || c === "blue" || c === "green") cb.checked = true;
    const lab = el("label", { class: "colour" }, cb, " ", el("span", { "data-colour": c, text: colourName(c) }));
    lab.style.borderColor = colour(c);
    box.append(lab);
  }
}
export function chosenPlayers() {
  return [...document.querySelectorAll("#colours input:checked")].map((i) => i.value);
}
function playerHint() {
  const v = spec(), n = chosenPlayers().length;
  $("player-hint").textContent = v.min_players === v.max_players
    ? t("host.players_exact", { count: v.min_players, chosen: n })
    : t("host.players_range", { min: v.min_players, max: v.max_players, chosen: n });
  $("player-hint").classList.toggle("error", n < v.min_players || n > v.max_players);
}

/* A house rule's words in the page's language (the server's English otherwise). */
const ruleWords = (key, english) => (has(`houserule.${key}`) ? t(`houserule.${key}`) : english);

/* One input per house rule of the chosen variant (from /api/variants). */
function ruleInput(f) {
  const label = ruleWords(f.name, f.label);
  const id = `hr-${f.name}`;
  if (f.kind === "bool") {
    const cb = el("input", { type: "checkbox", id, "data-rule": f.name });
    cb.checked = !!f.default;
    return el("label", { class: "rule" }, cb, " " + label);
  }
  if (f.kind === "choice") {
    const sel = el("select", { id, "data-rule": f.name },
      ...f.choices.map((c) => el("option", { value: c, text: ruleWords(`${f.name}.${c}`, c) })));
    sel.value = f.default;
    return el("label", { class: "rule" }, label + " ", sel);
  }
  if (f.kind === "int") {
    const inp = el("input", { type: "number", id, "data-rule": f.name, min: f.low, max: f.high, inputmode: "numeric" });
    inp.value = String(f.default);
    return el("label", { class: "rule" }, label + " ", inp);
  }
  const parts = f.parts.map((p, i) => {
    const inp = el("input", { type: "number", id: `${id}-${i}`, "data-part": String(i), min: i ? f.low : 1, max: f.high, inputmode: "numeric" });
    inp.value = String(f.default[i]);
    return el("label", {}, ` ${ruleWords(`${f.name}.${p}`, p)} `, inp);
  });
  return el("span", { class: "rule", "data-rule": f.name, "data-kind": "pair" }, label + ":", ...parts);
}
export function renderRules() {
  $("new-game-error").textContent = "";
  const box = $("house-rules");
  box.replaceChildren(el("legend", { id: "house-rules-title", text: t("host.house_rules_of", { variant: specName(spec()) }) }),
    ...spec().house_rules.map((f) => el("div", {}, ruleInput(f),
      el("span", { class: "error field-error", "data-error": `house_rules.${f.name}` }))),
    el("div", { id: "faces-box", hidden: "" },
      el("label", { class: "rule" }, el("span", { "data-i18n": "host.first_roll", text: t("host.first_roll") }), " ",
        el("input", { id: "setup-faces", inputmode: "numeric", "data-i18n-placeholder": "host.first_roll_example",
          placeholder: t("host.first_roll_example") })),
      el("span", { class: "error field-error", "data-error": "faces" })));
  const physical = document.querySelector('[data-rule="physical_dice"]');
  const showFaces = () => { $("faces-box").hidden = !(physical && physical.checked); };
  if (physical) physical.addEventListener("change", showFaces);
  showFaces();
  playerHint();
}
export function houseRules() {
  const out = {};
  for (const f of spec().house_rules) {
    const node = document.querySelector(`[data-rule="${f.name}"]`);
    if (f.kind === "bool") out[f.name] = node.checked;
    else if (f.kind === "choice") out[f.name] = node.value;
    else if (f.kind === "int") out[f.name] = Number(node.value);
    else out[f.name] = [...node.querySelectorAll("input")].map((i) => Number(i.value));
  }
  return out;
}


/* The new-game form's words again in a newly chosen language (choices kept). */
export function relabelForm() {
  if (!catalogue) return;
  for (const o of $("variant").options) o.textContent = specName(catalogue.variants.find((v) => v.id === o.value));
  for (const n of document.querySelectorAll("#colours [data-colour]")) n.textContent = colourName(n.dataset.colour);
  // the house rules' inputs are built again in the new words, keeping what was entered
  const kept = houseRules(), typed = $("setup-faces").value;
  renderRules();
  for (const f of spec().house_rules) {
    const node = document.querySelector(`[data-rule="${f.name}"]`);
    if (f.kind === "bool") node.checked = kept[f.name];
    else if (f.kind === "pair") node.querySelectorAll("input").forEach((i, n) => { i.value = String(kept[f.name][n]); });
    else node.value = String(kept[f.name]);
  }
  $("setup-faces").value = typed;
  const physical = document.querySelector('[data-rule="physical_dice"]');
  $("faces-box").hidden = !(physical && physical.checked);
}


/* The form, from the table's catalogue of variants; `changed()` when the host picks another. */
export async function loadForm(changed) {
  catalogue = await api("GET", "/api/variants");
  await ready;
  $("variant").replaceChildren(...catalogue.variants.map((v) => el("option", { value: v.id, text: specName(v) })));
  $("variant").addEventListener("change", () => { changed(); renderRules(); });
  colours();
  renderRules();
}

/* The form starts from the game the table plays (once): false while it cannot. */
export function adoptGame(g) {
  if (!catalogue || !catalogue.variants.some((v) => v.id === g.variant)) return false;
  $("variant").value = g.variant;
  for (const box of document.querySelectorAll("#colours input")) box.checked = g.players.includes(box.value);
  renderRules();
  return true;
}

/* The first roll's faces typed from physical dice (none unless the house rule is on). */
export function facesTyped() {
  return $("faces-box").hidden ? [] : faces($("setup-faces").value);
}
