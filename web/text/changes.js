// What the learner changed against the scenario file, and how the run's
// outcome differs from the file's run: the words of the "you changed" line
// and of the recap. Pure functions over scenario objects and the engine's
// `outcome` (snapshot().simulation), so Node tests them without a page.

import { span } from "./format.js";

// Fields a learner changes, as people name them, with their unit.
const NAMES = {
  visibilityTimeoutSeconds: ["visibility timeout", "s"],
  delaySeconds: ["delay", "s"],
  messageRetentionPeriodSeconds: ["retention period", "s"],
  receiveMessageWaitTimeSeconds: ["receive wait time", "s"],
  maxReceiveCount: ["maxReceiveCount", ""],
  fixedMs: ["processing time", "ms"],
  min: ["shortest processing time", "ms"],
  max: ["longest processing time", "ms"],
  mean: ["mean processing time", "ms"],
  batchSize: ["batch size", ""],
  waitTimeSeconds: ["wait time", "s"],
  idempotent: ["idempotent handler", ""],
  heartbeatEveryMs: ["heartbeat", "ms"],
  heartbeatVisibilitySeconds: ["heartbeat's visibility", "s"],
  deletesBeforeProcessing: ["delete before processing", ""],
  failsOn: ["fails on", ""],
  failsEveryNth: ["fails every nth receive", ""],
  crashesAfterSideEffectOn: ["crashes after the side effect on", ""],
  crashesBeforeSideEffectOn: ["crashes before the side effect on", ""],
  lambdaBatch: ["Lambda batch", ""],
  reportBatchItemFailures: ["reports batch item failures", ""],
  seed: ["seed", ""],
};

/** Leaf values of an object by path ("queues.0.visibilityTimeoutSeconds"); arrays of scalars are one leaf. */
function leaves(value, path = "", out = new Map()) {
  const scalarArray = Array.isArray(value) && value.every((v) => v === null || typeof v !== "object");
  if (value !== null && typeof value === "object" && !scalarArray) {
    for (const [k, v] of Object.entries(value)) leaves(v, path ? `${path}.${k}` : k, out);
  } else out.set(path, value);
  return out;
}

/** "worker-1's", "orders'". */
const poss = (name) => (name.endsWith("s") ? `${name}'` : `${name}'s`);

function shown(value, unit) {
  if (value === undefined || value === false || (Array.isArray(value) && !value.length)) return "off";
  if (value === true) return "on";
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "number" && unit === "ms") return span(value);
  if (typeof value === "number" && unit === "s") return value < 120 ? `${value} s` : span(value * 1000);
  return String(value);
}

/**
 * The learner's changes: [{ path, owner, name, from, to, text }], in the
 * file's order. `queueDefaults` (the engine's `defaults().queue`) stands in
 * for a queue field the file leaves out, so "2 s → 5 s" is never "off → 5 s".
 * Narration, title and summary are not settings and are left out.
 */
export function changes(file, now, queueDefaults = {}) {
  if (!file || !now) return [];
  const before = leaves(file);
  const after = leaves(now);
  const out = [];
  const paths = [...new Set([...before.keys(), ...after.keys()])];
  for (const path of paths) {
    if (/^(narration|title|summary)(\.|$)/.test(path)) continue;
    let from = before.get(path);
    const to = after.get(path);
    const parts = path.split(".");
    const key = parts.at(-1);
    if (parts[0] === "queues" && parts.length === 3 && from === undefined) from = queueDefaults[key];
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    // Heartbeat turned off (or on) takes its visibility with it: one change,
    // not two. A heartbeat that only beats at another pace keeps both.
    if (key === "heartbeatVisibilitySeconds") {
      const beat = path.replace(/heartbeatVisibilitySeconds$/, "heartbeatEveryMs");
      if ((before.get(beat) === undefined) !== (after.get(beat) === undefined)) continue;
    }
    const list = parts[0] === "queues" ? now.queues ?? file.queues : parts[0] === "consumers" ? now.consumers ?? file.consumers : parts[0] === "producers" ? now.producers ?? file.producers : null;
    const owner = list ? (list[Number(parts[1])]?.name ?? `${parts[0]} ${parts[1]}`) : "";
    const [name, unit] = NAMES[key] ?? [parts.slice(list ? 2 : 0).join("."), ""];
    const text = `${owner ? `${poss(owner)} ` : ""}${name} ${shown(from, unit)} → ${shown(to, unit)}`;
    out.push({ path, owner, name, from, to, unit, text });
  }
  return out;
}

/** "You raised orders' visibility timeout to 5 s" (the first change; "and 2 more"). */
export function changeSentence(list) {
  if (!list.length) return "";
  const c = list[0];
  const whose = c.owner ? `${poss(c.owner)} ` : "the ";
  let verb;
  if (typeof c.from === "number" && typeof c.to === "number") verb = `${c.to > c.from ? "raised" : "lowered"} ${whose}${c.name} to ${shown(c.to, c.unit)}`;
  else if (shown(c.to, c.unit) === "off") verb = `turned off ${whose}${c.name}`;
  else if (shown(c.from, c.unit) === "off") verb = `turned on ${whose}${c.name}${c.to === true ? "" : ` (${shown(c.to, c.unit)})`}`;
  else verb = `changed ${whose}${c.name} to ${shown(c.to, c.unit)}`;
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
