// Check my fix in slices. The engine's LabCheck runs the lab's seeds a
// bounded amount of work per step; web/run/slicer.js sizes the steps so a
// slice stays within its wall-clock budget (SLICE_MS), and the browser
// gets its turn between slices: each slice waits for the next frame (as
// the lab's replays do), so the page paints the progress and hears a
// click on Cancel, however long the check runs. (A bare task turn,
// scheduler.yield, is served before input and rendering in Chromium: a
// check paced by it ran to its end before Cancel could be clicked.) The check's total is bounded by
// the engine (CHECK_WORK_BUDGET, refused before it starts).
// Tested in Node: tests/node/labs.test.mjs.

import { SLICE_MS, Slicer, nextFrame, runSliced } from "../run/slicer.js";

/** The slicer's axis is units of work done; where it ends is known only when the last seed ends. */
const END = Number.MAX_SAFE_INTEGER;

/** The error a cancelled check's promise rejects with (as a cancelled fetch does). */
export const cancelledCheck = () => new DOMException("Check my fix was cancelled.", "AbortError");

/**
 * Runs `check` (a LabCheck: `step(units)`, `progress`, `report()`,
 * `free()`) to its end in slices, freeing it when it stops. Returns
 * `{ done, cancel(), state }`: `done` resolves to the CheckReport, or
 * rejects with a step's error or, after `cancel()`, an AbortError.
 * `onProgress(progress)` is called at once and after every slice that
 * leaves the check running.
 */
export function runCheck(check, { onProgress = () => {}, budgetMs = SLICE_MS, pause = nextFrame, clock = () => performance.now() } = {}) {
  let units = 0;
  const slicer = new Slicer({
    clock,
    // A chunk of the axis is a number of units: the step runs about that many.
    advance: (to) => {
      const ended = check.step(Math.max(1, to - units));
      units = check.progress.units;
      return ended ? END : units;
    },
  });
  let settle;
  const done = new Promise((resolve, reject) => (settle = { resolve, reject }));
  const onEnd = (job) => {
    try {
      if (job.state === "done") settle.resolve(check.report());
      else settle.reject(job.state === "cancelled" ? cancelledCheck() : job.error);
    } catch (e) {
      settle.reject(e);
    } finally {
      check.free();
    }
  };
  onProgress(check.progress);
  const job = runSliced(slicer, { from: 0, target: END, budgetMs, pause, onSlice: () => onProgress(check.progress), onEnd });
  return {
    done,
    cancel: () => job.cancel(),
    get state() {
      return job.state;
    },
  };
}
