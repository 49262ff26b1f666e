// The timeline's landmarks: when each narration line fires and each
// checkpoint is asked in a run, as { t, text, checkpoint? }. Both fire on
// what happens (story.rs), so the moments come from a copy of the run
// played to its end (same seed, same story: run/copy-run.js); when that
// is too much work to do unasked, only those that wait for time alone,
// whose moments the engine knows beforehand (plannedMoments), are marked.
// The lab owns the copies (lab/copies.js); the quiet-time view draws what
// they find. No DOM. Tested in Node: tests/node/quiet-time.test.mjs.

import { Playground, limits } from "../engine/engine.js";
import { Slicer, runSliced } from "./slicer.js";
import { runCopyToEnd } from "./copy-run.js";

/** @typedef {{ t: number, text: string, checkpoint?: boolean }} Moment a landmark: its virtual ms and its words */

/**
 * A checkpoint's moment on the timeline: where it was asked in a run's events.
 * @param {Array<{ type: string, timeMs: number, question?: string }>} events
 * @returns {Moment[]}
 */
export function askedMoments(events) {
  return events.filter((e) => e.type === "checkpointAsked").map((e) => ({ t: e.timeMs, text: `Checkpoint: ${e.question}`, checkpoint: true }));
}

/**
 * The moments the timeline marks, as { t, text, checkpoint? }: when each
 * narration line fires and each checkpoint is asked in this run. Both
 * fire on what happens (story.rs), so the moments come from a copy of the
 * run played to its end (same seed, same story); when that is too much
 * work to do unasked, only those that wait for time alone, whose moments
 * are known beforehand, are marked.
 * @param {object | null} scenario the scenario (an object)
 * @param {string} [text] its JSON text
 * @returns {Moment[]}
 */
export function narrationMoments(scenario, text = scenario && JSON.stringify(scenario)) {
  if (!scenario) return [];
  return runCopyToEnd(text, firedNarration) ?? sceneSetting(text);
}

/**
 * narrationMoments without holding the page: the copy of the run goes to
 * its end in slices (slicer.js), and `done(moments)` gets them when it
 * gets there (at once for a short run). A run of 300 bodies of 1 MiB took
 * 2.4 s here (8–10 s at 4x CPU throttling) in one task when the copy ran
 * in one call. Returns a function that stops the copy (a new run started).
 * @param {{ durationMs: number }} scenario
 * @param {string} text the scenario's JSON text
 * @param {(moments: Moment[]) => void} done
 * @returns {() => void}
 */
export function narrationMomentsInSlices(scenario, text, done) {
  let pg;
  let end;
  try {
    pg = Playground.fromScenario(text, undefined);
    end = scenario.durationMs;
    if (pg.workEstimate(end) > limits().maxWorkWithoutAsking) end = null;
  } catch {
    end = null;
  }
  if (end == null) {
    pg?.free();
    done(sceneSetting(text));
    return () => {};
  }
  const slicer = new Slicer({ advance: (to) => (pg.advance(to - pg.now()), pg.now()), estimate: (to) => pg.workEstimate(to) });
  let stopped = false;
  const job = runSliced(slicer, {
    from: 0,
    target: end,
    onEnd: (job) => {
      let moments = null;
      try {
        if (!stopped) moments = job.state === "done" ? firedNarration(pg) : sceneSetting(text);
      } catch {
        moments = sceneSetting(text);
      } finally {
        pg.free();
      }
      if (moments) done(moments);
    },
  });
  return () => {
    stopped = true;
    job.cancel();
  };
}

function firedNarration(pg) {
  const events = [...pg.events(0)];
  const lines = events.filter((e) => e.type === "narration").map((e) => ({ t: e.timeMs, text: e.text }));
  // Stable: a checkpoint asked at a line's moment comes after it, as in the run.
  return [...lines, ...askedMoments(events)].sort((a, b) => a.t - b.t);
}

/** Lines and checkpoints that wait only for time: their moments are known before the run (the engine fills in their words). */
function sceneSetting(text) {
  let pg;
  try {
    pg = Playground.fromScenario(text, undefined);
    return pg.plannedMoments().map((m) => (m.checkpoint ? { ...m, text: `Checkpoint: ${m.text}` } : m));
  } catch {
    return [];
  } finally {
    pg?.free();
  }
}
