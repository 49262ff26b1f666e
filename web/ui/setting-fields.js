// The settings form's fields, made from the engine's vocabulary (its
// `setting` rows: path, label, unit, range, kind), never from a list kept
// here: a queue's or a consumer's fieldset, and a changed field written
// back into a copy of the scenario. A new field or behaviour the engine
// offers is in the form without a line added to this file.
//
// Each field carries data-setting (its name in the file: "batchSize"),
// data-path (its place: "consumers[0].batchSize", where the engine's
// refusals point) and data-queue-index or data-consumer-index.

import { h } from "./dom.js";
import { fields } from "../text/field-words.js";

/**
 * A switched-on time starts at 1 s (or its minimum, when that is more):
 * the engine's smallest heartbeat, 1 ms, would flood the run. The page's
 * choice of a starting value, not a rule; the learner types another.
 */
const START_MS = 1000;

/** The value at a dotted path of an object ("behaviour.retryBackoff.baseSeconds"). */
const get = (obj, rel) => rel.split(".").reduce((o, k) => (o == null ? undefined : o[k]), obj);

function set(obj, rel, value) {
  const keys = rel.split(".");
  const last = keys.pop();
  const at = keys.reduce((o, k) => (o[k] ??= {}), obj);
  if (value === undefined) delete at[last];
  else at[last] = value;
}

/** A field with an "on" box: a group the format switches as one (a backoff, an outage) or a time left out to mean off (a heartbeat). */
const switched = (f) => f.kind === "group" || (f.kind === "number" && f.optional && f.unit === "ms");

/** An on-box's name: the group's, or the time's without its unit ("heartbeatEveryMs" → "heartbeat"). */
const switchName = (key) => key.replace(/(Every)?Ms$/, "");

/** The words in brackets after a label: the unit or the range, then the form's hint. */
function hint(f) {
  const range = f.unit === "" && f.min != null && f.max != null ? `${f.min}–${f.max}` : "";
  return [f.unit || range, f.help].filter(Boolean).join(", ");
}

/**
 * One queue's or consumer's fieldset: each setting the engine offers for
 * `part` ("queues", "consumers"), showing `item`'s value or the default
 * (`fallback`). A field inside a group shows when its group is set in
 * `item` (the redrive policy's maxReceiveCount), or always when the group
 * is switched by a box (a backoff's delays, disabled while it is off).
 */
export function fieldset(part, i, item, fallback, legend) {
  const rows = fields().filter((f) => f.setting && f.path.startsWith(`${part}[].`));
  const boxes = new Set(rows.filter(switched).map((f) => f.path));
  const groups = new Set(fields().filter((f) => f.kind === "group").map((f) => f.path));
  const used = new Set();
  const out = [];
  for (const f of rows) {
    const rel = f.path.slice(part.length + 3);
    const key = rel.split(".").at(-1);
    const parent = f.path.slice(0, f.path.lastIndexOf("."));
    const inBox = boxes.has(parent);
    // A field of a group the form does not switch (a redrive policy, a processing
    // distribution) shows only where the item has that group; a behaviour is no
    // group, so every behaviour shows even for a consumer without a `behaviour`.
    if (!inBox && groups.has(parent) && get(item, rel.slice(0, rel.lastIndexOf("."))) == null) continue;
    let id = `${part[0]}${i}-${key}`;
    if (used.has(id)) id = `${part[0]}${i}-${rel.replaceAll(".", "-")}`;
    used.add(id);
    const attrs = { "data-setting": key, [`data-${part === "queues" ? "queue" : "consumer"}-index`]: i, "data-path": `${part}[${i}].${rel}` };
    const value = get(item, rel) ?? get(fallback, rel);
    const label = hint(f) ? `${f.label} (${hint(f)})` : f.label;
    if (switched(f)) {
      const on = value != null;
      const box = { ...attrs, "data-setting": switchName(key), "data-switch": rel };
      if (f.kind === "group") out.push(check(id, label, on, box));
      else out.push(check(`${id}-on`, `${f.name[0].toUpperCase()}${f.name.slice(1)}${f.help ? ` (${f.help})` : ""}`, on, box), num(id, `${f.label} (${f.unit})`, value ?? "", { ...attrs, "data-in-switch": rel }));
      continue;
    }
    if (inBox) attrs["data-in-switch"] = parent.slice(part.length + 3);
    if (f.kind === "toggle") out.push(check(id, label, !!value, attrs));
    else if (f.kind === "list") out.push(list(id, label, value, attrs));
    else if (f.kind === "choice") out.push(choice(id, label, value, f.choices, attrs));
    else if (f.kind === "number") out.push(num(id, label, value ?? "", { ...attrs, ...(f.optional ? { placeholder: "none", "data-optional": "" } : {}) }));
  }
  return h("fieldset", null, h("legend", { text: legend }), ...out);
}

/**
 * Shows (and enables) the fields inside each on-box only while it is
 * checked: a consumer offers every behaviour, and the times of the ones
 * it does not use would make its column long and say nothing.
 */
export function syncSwitches(form) {
  for (const box of form.querySelectorAll("[data-switch]")) {
    const index = box.dataset.queueIndex ?? box.dataset.consumerIndex;
    for (const el of form.querySelectorAll(`[data-in-switch="${CSS.escape(box.dataset.switch)}"]`)) {
      if ((el.dataset.queueIndex ?? el.dataset.consumerIndex) !== index) continue;
      el.disabled = !box.checked;
      const row = el.closest(".set");
      if (row instanceof HTMLElement) row.hidden = !box.checked;
    }
  }
}

/** What a field holds: on/off, a list, a whole number, NaN (not a number), or undefined (an optional field left empty). */
function readValue(input) {
  if (input.type === "checkbox") return input.checked;
  if (input.tagName === "SELECT") return input.value;
  if (input.dataset.list != null) return input.value.split(",").map((s) => s.trim()).filter(Boolean);
  if (input.value.trim() === "") return input.dataset.optional != null ? undefined : NaN;
  return Number(input.value);
}

/**
 * Writes the changed `input` into `next` (a copy of the running scenario),
 * at its data-path. An on-box switched on sets its fields from the form
 * (a field still empty starts at its minimum, a time at START_MS);
 * switched off, it drops them, and the fields of the same behaviour with
 * them (a heartbeat's visibility). False when a number field holds no number.
 */
export function readInto(next, input, form) {
  const [part, i] = input.dataset.queueIndex != null ? ["queues", input.dataset.queueIndex] : ["consumers", input.dataset.consumerIndex];
  const item = next[part][i];
  const rel = input.dataset.path.slice(`${part}[${i}].`.length);
  const value = readValue(input);
  if (Number.isNaN(value)) return false;
  if (input.dataset.switch == null) {
    set(item, rel, value);
    return true;
  }
  if (!value) {
    const owner = rel.slice(0, rel.lastIndexOf(".") + 1);
    const name = input.dataset.setting;
    for (const key of Object.keys(get(item, owner.slice(0, -1)) ?? item)) if (key === rel.slice(owner.length) || key.startsWith(name)) set(item, owner + key, undefined);
    return true;
  }
  const start = (f) => (f.unit === "ms" ? Math.max(f.min ?? 0, START_MS) : f.min ?? 0);
  const inside = form.querySelectorAll(`[data-in-switch="${CSS.escape(rel)}"]`);
  for (const el of inside) {
    if ((el.dataset.queueIndex ?? el.dataset.consumerIndex) !== String(i)) continue;
    const f = fields().find((x) => x.path === `${part}[].${el.dataset.path.slice(`${part}[${i}].`.length)}`);
    let typed = readValue(el);
    if (!Number.isFinite(typed)) {
      typed = start(f);
      el.value = String(typed); // the form says what the run now has
    }
    set(item, el.dataset.path.slice(`${part}[${i}].`.length), typed);
  }
  return true;
}

function list(id, label, values, attrs) {
  return h("div", { class: "set" }, h("label", { for: id, text: label }), h("input", { id, type: "text", value: (values ?? []).join(", "), "data-list": "", placeholder: "none", spellcheck: "false", autocomplete: "off", ...attrs }));
}

function num(id, label, value, attrs) {
  return h("div", { class: "set" }, h("label", { for: id, text: label }), h("input", { id, type: "number", value, step: "any", inputmode: "decimal", ...attrs }));
}

function check(id, label, checked, attrs) {
  return h("div", { class: "set chk" }, h("input", { id, type: "checkbox", checked, ...attrs }), h("label", { for: id, text: label }));
}

function choice(id, label, value, choices, attrs) {
  const select = h("select", { id, ...attrs }, ...choices.map((c) => h("option", { value: c.value, text: c.label })));
  select.value = value ?? choices[0]?.value ?? "";
  return h("div", { class: "set" }, h("label", { for: id, text: label }), select);
}
