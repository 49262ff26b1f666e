// The scenario format's words, from the engine (the binding's
// `vocabulary()`: every field's path, label, name in a sentence, unit,
// range and choices). The settings form, the "you changed" line and the
// field errors read a field's words here and keep no copy of them, so a
// field the engine adds is shown, set and explained with no word added to
// the page. No DOM.

import { vocabulary } from "../engine/engine.js";
import { span } from "./format.js";

let rows = null; // path pattern -> the field's words (the vocabulary never changes in a page's life)
const byPath = () => (rows ??= new Map(vocabulary().fields.map((f) => [f.path, f])));

/** A field's path with its list indexes taken out: "consumers.0.behaviour.x" and "consumers[0].behaviour.x" both give "consumers[].behaviour.x". */
export const pattern = (path) => path.replace(/\[\d+\]/g, "[]").replace(/\.\d+(?=\.|$)/g, "[]");

/** The words of the field at `path` (in any of those forms), or undefined for a path the format has no words for. */
export const fieldAt = (path) => byPath().get(pattern(path));

/** Every field of the format, in the engine's order. */
export const fields = () => [...byPath().values()];

/** The fields directly inside the group whose pattern is `group`. */
export const fieldsIn = (group) => fields().filter((f) => f.path.startsWith(`${group}.`) && !f.path.slice(group.length + 1).includes("."));

const isOff = (value) => value === undefined || value === null || value === false || (Array.isArray(value) && !value.length);

/** A field's value in words: "off", "on", "2 s", "5 min", "a, b", or a group's fields each with its name. */
export function shown(value, field) {
  const unit = field?.unit ?? "";
  if (isOff(value)) return "off";
  if (value === true) return "on";
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "object") {
    const inner = field ? fieldsIn(field.path) : [];
    const key = (f) => f.path.slice(field.path.length + 1);
    if (!inner.length) return JSON.stringify(value);
    return inner.filter((f) => !isOff(value[key(f)])).map((f) => `${f.name} ${shown(value[key(f)], f)}`).join(", ");
  }
  if (typeof value === "number" && unit === "ms") return span(value);
  if (typeof value === "number" && unit === "s") return value < 120 ? `${value} s` : span(value * 1000);
  return String(value);
}
