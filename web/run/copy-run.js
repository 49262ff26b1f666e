// A copy of a run played to its end, bounded: the same scenario text on a
// Playground of its own, never the one on screen. The lab's copies
// (lab/copies.js) use it for what only a whole run can say: the file's
// own outcome (the recap's comparison) and the timeline's moments
// (run/moments.js). A copy past the work a link may do without asking
// (limits().maxWorkWithoutAsking, as link-check.js) is not run.

import { Playground, limits } from "../engine/engine.js";

/**
 * Runs a copy of a scenario (its JSON text) to its end and answers
 * `read(playground)`, or null when that is more work than a link may do
 * without asking (link-check.js) or the text does not run.
 * @template T
 * @param {string} text
 * @param {(pg: import("../pkg/queuelab.js").Playground) => T} read
 * @returns {T | null}
 */
export function runCopyToEnd(text, read) {
  let pg;
  try {
    pg = Playground.fromScenario(text, undefined);
    const end = JSON.parse(text).durationMs;
    if (pg.workEstimate(end) > limits().maxWorkWithoutAsking) return null;
    pg.advance(end);
    return read(pg);
  } catch {
    return null;
  } finally {
    pg?.free();
  }
}

/** A file's own run to its end: its simulation snapshot (outcome, side effects), or null when too long to run here. @param {string} text */
export function fileOutcome(text) {
  return runCopyToEnd(text, (pg) => pg.snapshot({ messagesPerQueue: 0 }).simulation);
}
