// What the learner changed against the scenario file, and how the run's
// outcome differs from the file's run: the words of the "you changed" line
// and of the recap. Pure functions over scenario objects and the engine's
// `outcome` (snapshot().simulation), so Node tests them without a page.

import { fieldAt, shown } from "./field-words.js";
import { cut } from "./format.js";

// The lab's and the story's words, not settings of the system: never listed as changed.
const NOT_SETTINGS = /^(narration|checkpoints|title|summary|goal|knobs|explain)(\.|$)/;

const isObject = (v) => v !== null && typeof v === "object" && !(Array.isArray(v) && v.every((x) => x === null || typeof x !== "object"));

/**
 * Every place `before` and `after` may differ, as [path, from, to]
 * ("queues.0.visibilityTimeoutSeconds"): both walked together, so a group
 * the engine names as one field (a backoff, an outage window) that
 * appears or goes is one entry, and an object it does not name (a queue,
 * a consumer's behaviour) is its fields, each one entry. Arrays of
 * scalars (body patterns) are one value.
 */
function pairs(before, after, path = "", out = []) {
  const named = path && fieldAt(path);
  // A document (a queue policy, a filter policy) is one value: it was edited, not its members.
  if (named?.kind === "text" && (isObject(before) || isObject(after))) out.push([path, before, after]);
  else if (isObject(before) && isObject(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) pairs(before[key], after[key], path ? `${path}.${key}` : key, out);
  } else if ((isObject(before) || isObject(after)) && !named) {
    pairs(isObject(before) ? before : {}, isObject(after) ? after : {}, path, out);
  } else out.push([path, before, after]);
  return out;
}

/** "worker-1's", "orders'". */
const poss = (name) => (name.endsWith("s") ? `${name}'` : `${name}'s`);

/**
 * The learner's changes: [{ path, owner, name, from, to, field, text }], in
 * the file's order, each named and shown in the engine's words (its
 * vocabulary, field-words.js). `queueDefaults` (the engine's
 * `defaults().queue`) stands in for a queue field the file leaves out, so
 * "2 s → 5 s" is never "off → 5 s". Narration, title and summary are not
 * settings and are left out.
 */
export function changes(file, now, queueDefaults = {}) {
  if (!file || !now) return [];
  const out = [];
  const all = pairs(file, now);
  const at = new Map(all.map(([path, from, to]) => [path, { from, to }]));
  for (let [path, from, to] of all) {
    if (NOT_SETTINGS.test(path)) continue;
    const parts = path.split(".");
    const key = parts.at(-1);
    if (parts[0] === "queues" && parts.length === 3 && from === undefined) from = queueDefaults[key];
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    // Heartbeat turned off (or on) takes its visibility with it: one change,
    // not two. A heartbeat that only beats at another pace keeps both.
    if (key === "heartbeatVisibilitySeconds") {
      const beat = at.get(path.replace(/heartbeatVisibilitySeconds$/, "heartbeatEveryMs"));
      if ((beat?.from === undefined) !== (beat?.to === undefined)) continue;
    }
    const list = parts[0] === "queues" ? now.queues ?? file.queues : parts[0] === "consumers" ? now.consumers ?? file.consumers : parts[0] === "producers" ? now.producers ?? file.producers : parts[0] === "operators" ? now.operators ?? file.operators : null;
    const owner = list ? (list[Number(parts[1])]?.name ?? `${parts[0]} ${parts[1]}`) : "";
    const field = fieldAt(path);
    const name = field?.name ?? parts.slice(list ? 2 : 0).join(".");
    const edited = field?.kind === "text" && (isObject(from) || isObject(to));
    const text = edited ? `${owner ? `${poss(owner)} ` : ""}${name} edited` : `${owner ? `${poss(owner)} ` : ""}${name} ${shown(from, field)} → ${shown(to, field)}`;
    out.push({ path, owner, name, from, to, unit: field?.unit ?? "", field, text });
  }
  return out;
}

/** "Standard" -> "standard" inside a sentence; "FIFO" stays. */
const inSentence = (words) => (/^[A-Z][a-z]/.test(words) ? words[0].toLowerCase() + words.slice(1) : words);

/**
 * A lab's changes in its knobs' words, one per knob whose value differs:
 * [{ path, owner, name, from, to, field, words, text }] with text
 * "Message group id: One group for every message (shop) → A group per
 * customer". `knobs` are labs.view(file).knobs; `before` and `after` the
 * settings of the file and of the run (labs.view(…).settings).
 */
export function knobChanges(knobs, before, after) {
  const out = [];
  for (const knob of knobs) {
    const [from, to] = [before?.[knob.id], after?.[knob.id]];
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    const field = knob.field ? fieldAt(knob.field) : undefined;
    // A document (a queue policy) is not quoted in a sentence: it was edited.
    if (knob.kind === "text") {
      const label = knob.label;
      out.push({ path: `knobs.${knob.id}`, owner: "", knob: true, name: `“${label}”`, from, to, unit: "", field, words: ["the file's", "yours"], edited: true, text: `${label}: edited` });
      continue;
    }
    const word = (v) => (knob.kind === "choice" ? (knob.choices.find((c) => c.value === v)?.label ?? String(v)) : shown(v === "off" ? undefined : v, field));
    const words = [word(from), word(to)];
    // "Visibility timeout (s)": the values carry the unit, so the label need not.
    const label = knob.label.replace(/\s*\((s|ms|min|h|d)\)/g, "");
    // In a sentence the label is quoted: it is the lab's name for the knob ("You turned off “Release a failed order at once”").
    out.push({ path: `knobs.${knob.id}`, owner: "", knob: true, name: `“${label}”`, from, to, unit: field?.unit ?? "", field, words, text: `${label}: ${words[0]} → ${words[1]}` });
  }
  return out;
}

/** "You raised orders' visibility timeout to 5 s" (the first change; "and 2 more"). */
export function changeSentence(list) {
  if (!list.length) return "";
  const c = list[0];
  const whose = c.owner ? `${poss(c.owner)} ` : c.knob ? "" : "the ";
  const [from, to] = c.words ? c.words.map(inSentence) : [shown(c.from, c.field), shown(c.to, c.field)];
  let verb;
  if (c.edited) verb = `edited ${whose}${c.name}`;
  else if (typeof c.from === "number" && typeof c.to === "number") verb = `${c.to > c.from ? "raised" : "lowered"} ${whose}${c.name} to ${to}`;
  else if (to === "off") verb = `turned off ${whose}${c.name}`;
  else if (from === "off") verb = `turned on ${whose}${c.name}${c.to === true ? "" : ` (${to})`}`;
  else verb = `changed ${whose}${c.name} to ${to}`;
  const more = list.length > 1 ? ` (and ${list.length - 1} more change${list.length > 2 ? "s" : ""})` : "";
  return `You ${verb}${more}`;
}

/**
 * The largest side-effect count of any message the ledger keeps in detail
 * (0 when none happened): the simulation keeps the first
 * limits().maxSideEffectDetails messages' entries, and counts the rest in
 * `sideEffectsOmitted` (see keptOnly).
 */
export const mostSideEffects = (sim) => sim.sideEffects.reduce((m, s) => Math.max(m, s.count), 0);

const count = (n) => n.toLocaleString("en-US");

/** A body as the recap says it: each run of whitespace one space, at most 80 characters (an SNS envelope, S3's event JSON). */
const recapBody = (body) => cut(body.replace(/\s+/g, " "), 80);

/**
 * The recap's line for each ledger entry: "reading #1: stored ×1". Where
 * two messages read the same (two producers' "reading #1"), each line
 * names the queue it was sent to (`queueOf`: message id -> queue).
 */
export function effectLines(sideEffects, queueOf) {
  const seen = new Map();
  for (const s of sideEffects) seen.set(recapBody(s.body), (seen.get(recapBody(s.body)) ?? 0) + 1);
  return sideEffects.map((s) => {
    const body = recapBody(s.body);
    const queue = seen.get(body) > 1 ? queueOf(s.messageId) : undefined;
    return `${body}${queue ? ` (in ${queue})` : ""}: ${s.effect} ×${s.count}`;
  });
}

/**
 * The ledger's note when the simulation kept the details of only the
 * first `details` messages (limits().maxSideEffectDetails): "details of
 * 1,234 more messages not kept: the ledger keeps the first 10,000", or ""
 * when it kept them all.
 */
export function omittedNote(sim, details) {
  const n = sim.sideEffectsOmitted ?? 0;
  if (!(n > 0)) return "";
  return `details of ${count(n)} more message${n === 1 ? "" : "s"} not kept: the ledger keeps the first ${count(details)}`;
}

/** " among the first 10,000" when a run's ledger left messages out (its side-effect phrases cover only those kept), else "". */
const keptOnly = (sims, details) => (sims.some((s) => s.sideEffectsOmitted > 0) ? ` among the first ${count(details)}` : "");

/**
 * How this run's outcome differs from the file's: phrases, empty when the
 * same. The counts are the simulation's over every message (`outcome`);
 * the side-effect phrase reads the ledger's entries, so when either run
 * kept the details of only the first `details` messages, it says so.
 */
export function differences(file, now, details = 0) {
  const out = [];
  const effect = now.sideEffects[0]?.effect ?? file.sideEffects[0]?.effect ?? "side effect";
  const [a, b] = [mostSideEffects(file), mostSideEffects(now)];
  const among = keptOnly([file, now], details);
  if (a !== b) {
    if (b === 1) out.push(`${effect} exactly once per message${among} this time (the file's run: up to ×${a})`);
    else if (b === 0) out.push(`no ${effect} at all${among} this time (the file's run: up to ×${a})`);
    else out.push(`${effect} up to ×${b}${among} this time (the file's run: ${a === 0 ? "never" : `up to ×${a}`})`);
  }
  const counted = [
    ["duplicateDeliveries", "duplicate delivery", "duplicate deliveries"],
    ["lost", "message lost", "messages lost"],
    ["expired", "message expired", "messages expired"],
    ["deadLettered", "message dead-lettered", "messages dead-lettered"],
    ["emptyReceives", "empty receive", "empty receives"],
  ];
  for (const [key, one, many] of counted) {
    const [x, y] = [file.outcome[key], now.outcome[key]];
    if (x === y) continue;
    if (y === 0) out.push(`no ${one} this time (the file's run: ${x})`);
    else out.push(`${y} ${y === 1 ? one : many} this time (the file's run: ${x})`);
  }
  return out;
}
