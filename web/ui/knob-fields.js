// A lab's knobs as form fields, from the engine's KnobView (labs.view):
// a number knob is a number field (with an "on" box when it may be off),
// a toggle a checkbox, a choice a list, a text knob (a queue policy) a
// text area with an Apply button, spanning the form's width. The fields hold what the learner
// typed; the engine judges it (labs.scenario), and a refusal is said
// under the field in the knob's own words.

import { h } from "./dom.js";
import { fieldAt } from "../text/field-words.js";

const fieldId = (knob) => `knob-${knob.id}`;

/** A number knob's range: the lab's own, else its field's, as the engine holds it (the vocabulary). */
const rangeOf = (knob) => {
  const field = knob.field ? fieldAt(knob.field) : undefined;
  return { min: knob.min ?? field?.min, max: knob.max ?? field?.max };
};

/** One knob's field, with its label, help and an "on" box for a knob that may be off. */
export function knobField(knob) {
  const id = fieldId(knob);
  const help = knob.help ? h("p", { class: "knob-help", id: `${id}-help`, text: knob.help }) : null;
  const described = help ? `${id}-help` : null;
  const data = { "data-knob": knob.id, "aria-describedby": described };
  if (knob.kind === "toggle") {
    return h("div", { class: "set chk knob", "data-knob-field": knob.id }, h("input", { type: "checkbox", id, ...data }), h("label", { for: id, text: knob.label }), help);
  }
  const label = h("label", { for: id, text: knob.label });
  if (knob.kind === "text") {
    // The document applies on Apply (or leaving the area): its change event.
    const area = h("textarea", { id, rows: 16, spellcheck: "false", autocapitalize: "off", autocomplete: "off", class: "knob-text", ...data });
    const apply = h("button", { type: "button", class: "knob-apply", "data-knob-apply": knob.id, text: "Apply" });
    apply.addEventListener("click", () => area.dispatchEvent(new Event("change", { bubbles: true })));
    return h("div", { class: "set knob knob-wide", "data-knob-field": knob.id }, label, area, help, h("div", { class: "knob-actions" }, apply));
  }
  if (knob.kind === "choice") {
    const select = h("select", { id, ...data }, ...knob.choices.map((c) => h("option", { value: c.value, text: c.label })));
    return h("div", { class: "set knob", "data-knob-field": knob.id }, label, select, help);
  }
  const { min, max } = rangeOf(knob);
  const input = h("input", { type: "number", id, min, max, step: 1, inputmode: "numeric", ...data });
  if (!knob.off) return h("div", { class: "set knob", "data-knob-field": knob.id }, label, input, help);
  const on = h("input", { type: "checkbox", id: `${id}-on`, "data-knob": knob.id, "data-knob-on": "", "aria-label": `${knob.label}: on` });
  const pair = h("span", { class: "knob-pair" }, h("label", { class: "check" }, on, "On"), input);
  return h("div", { class: "set knob", "data-knob-field": knob.id }, label, pair, help);
}

/** The value a knob's field holds: a toggle's true/false, "off", a whole number, or the text typed (for the engine to refuse). */
export function readKnob(box, knob) {
  const input = box.querySelector(`#${fieldId(knob)}`);
  if (knob.kind === "toggle") return input.checked;
  if (knob.kind === "choice" || knob.kind === "text") return input.value;
  const on = box.querySelector(`#${fieldId(knob)}-on`);
  if (on && !on.checked) return "off";
  const typed = input.value.trim();
  if (on && typed === "") return rangeOf(knob).min; // just switched on: the knob's smallest value
  return /^-?\d+$/.test(typed) ? Number(typed) : typed;
}

/** Shows `value` (the run's) in the knob's field. */
export function writeKnob(box, knob, value) {
  const input = box.querySelector(`#${fieldId(knob)}`);
  if (!input) return;
  if (knob.kind === "toggle") input.checked = value === true;
  else if (knob.kind === "choice") input.value = String(value);
  else if (knob.kind === "text") {
    // The learner's text stays while it is the run's document, however laid out.
    if (input.dataset.applied !== String(value)) input.value = String(value);
  }
  else {
    const on = box.querySelector(`#${fieldId(knob)}-on`);
    const off = value === "off";
    if (on) on.checked = !off;
    input.disabled = off;
    input.value = off ? "" : String(value);
  }
  input.dataset.applied = String(value);
}

/**
 * The engine refused a knob's value: its rule under the field, in the
 * knob's words ("Visibility timeout (s) must be a whole number of seconds
 * from 1 to 180. You entered “0”."), and the field back to the run's value.
 */
export function showKnobError(box, knob, error, applied) {
  clearKnobErrors(box);
  const field = box.querySelector(`[data-knob-field="${CSS.escape(knob.id)}"]`);
  const input = box.querySelector(`#${fieldId(knob)}`);
  const entered = input.type === "checkbox" ? (input.checked ? "on" : "off") : input.value.trim() === "" ? "nothing" : `“${input.value.trim()}”`;
  const why = error?.rule ? `${knob.label} must be ${error.rule}.` : String(error?.message ?? error).replace(/^invalid (settings|scenario): /, "");
  const back = applied === undefined ? "" : ` Back to ${applied === "off" ? "off" : applied}, the value running now.`;
  const id = `${fieldId(knob)}-error`;
  // A document is not echoed back: SQS's refusal names what is wrong in it, and the
  // learner's text stays in the area to fix (the run keeps the document running now).
  const text = knob.kind === "text" ? `${why} SQS refuses this one: ${refusedWith(error)} The run keeps the policy it had.` : `${why} You entered ${entered}.${back}`;
  field.append(h("p", { class: "field-error", id, "data-knob-error": knob.id, role: "alert", text }));
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", [input.getAttribute("aria-describedby"), id].filter(Boolean).join(" "));
  if (applied !== undefined && knob.kind !== "text") writeKnob(box, knob, applied);
}

/** What the engine said of the value itself: its message after the rule ("… must be <rule>, got <this>"). */
function refusedWith(error) {
  const message = String(error?.message ?? "");
  const at = error?.rule ? message.indexOf(error.rule) : -1;
  const got = at < 0 ? "" : message.slice(at + error.rule.length).replace(/^, got /, "");
  return got || "it cannot be read as a policy.";
}

export function clearKnobErrors(box) {
  for (const note of box.querySelectorAll("[data-knob-error]")) note.remove();
  for (const el of box.querySelectorAll("[aria-invalid]")) {
    el.removeAttribute("aria-invalid");
    const kept = (el.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id && !id.endsWith("-error"));
    if (kept.length) el.setAttribute("aria-describedby", kept.join(" "));
    else el.removeAttribute("aria-describedby");
  }
}
