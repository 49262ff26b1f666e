// The lab's replays: a moment rebuilt by replaying the run from time 0
// (or, for a scrub forward, going on from now), in slices (run/slicer.js)
// so the page keeps answering. A short replay is done before replayTo
// returns; a long one shows a progress bar with Cancel (frames.js's
// drawProgress) and draws the moment it reached at its end. A new run or
// replay abandons the one running; a trap drops it without asking the
// engine anything (recovery.js). Restart is a replay to 0 s without your
// recorded actions.

import { nextFrame, runSliced } from "../run/slicer.js";
import { secs } from "../text/format.js";
import { WORK_MS } from "./clock.js";

/** A replay still running after this long (wall ms) shows its progress bar and Cancel. */
const PROGRESS_AFTER_MS = 250;

export class Replay {
  /** @param {any} lab the Lab (lab.js) whose run this replays */
  constructor(lab) {
    this.lab = lab;
    this.job = null; // the replay running in slices (runSliced's job), if any
  }

  /**
   * Rebuilds moment `t` (clamped to the run). Asking for a later moment
   * while one runs extends it. With `forward` (the timeline's scrubs), a
   * later moment than now is reached by going on from now instead
   * (Run.beginOnward).
   */
  to(t, { forward = false } = {}) {
    const lab = this.lab;
    const run = lab.run;
    const target = run.clamp(t);
    if (this.job && target >= this.job.reached) {
      this.job.target = target;
      return;
    }
    this.abandon();
    let onward = false;
    try {
      // A scrub to a later moment goes on from here; anything else from 0 s.
      onward = forward && !lab.recovery.suspended && target >= run.now;
      if (onward) run.beginOnward();
      else run.beginReplay();
    } catch (e) {
      lab.showError(`Replay failed: ${e.message}`);
      return;
    }
    if (onward) {
      lab.clock.quiet = null; // the note of a quiet stretch skipped while playing
      lab.onRun();
    } else {
      lab.fresh();
      lab.frames.next.rebuild = true;
    }
    const began = performance.now();
    const job = runSliced(lab.slicer, {
      from: run.now,
      target,
      budgetMs: WORK_MS,
      pause: nextFrame,
      onSlice: (job) => {
        job.shown ||= performance.now() - began >= PROGRESS_AFTER_MS;
        lab.clock.vt = run.now;
        if (this.job) lab.frames.drawProgress(); // (not yet set while the first slice runs)
      },
      onEnd: (job) => this.ended(job),
    });
    if (job.state === "running") this.job = job;
  }

  /** A replay stopped (done, cancelled or failed): the run stays at the moment it reached, and says so. */
  ended(job) {
    if (job.abandoned) return;
    const { run, clock, frames } = this.lab;
    // A replay that ran over several slices drew only its progress (drawProgress): its views draw this moment as a rebuild, from the run's facts.
    if (this.job === job) frames.next.rebuild = true;
    this.job = null;
    run.endReplay();
    clock.vt = run.now;
    const at = `t = ${secs(run.now)} s`;
    if (job.state === "failed") this.lab.showError(`The replay stopped at ${at}: ${job.error?.message ?? job.error}`);
    if (job.state === "cancelled") this.lab.announcer.say(`Replay cancelled at ${at}.`);
    if (job.state !== "done" || (run.now >= run.duration && !run.live)) clock.playing = false;
    frames.draw({ animate: false, silent: true });
    if (clock.playing) clock.loop();
  }

  /** Restart: your actions dropped, the run replayed from 0 s (after this lab's own trap, started again on the fresh engine). */
  restart() {
    const { run, clock, recovery } = this.lab;
    if (!run.pg) return void recovery.startAgain();
    // A live run's calls are its host's, not yours: Restart goes back to 0 s with them, and stops following.
    if (run.live) clock.playing = false;
    else run.journal = [];
    this.to(0);
    if (clock.playing) {
      clock.lastTs = performance.now();
      clock.loop();
    }
  }

  /** Cancel on the progress bar: stops the replay where it is and pauses there. */
  cancel() {
    this.job?.cancel();
  }

  /** Drops a running replay because a new run or replay replaces it. */
  abandon() {
    if (this.drop()) this.lab.run.endReplay();
  }

  /** Stops a running replay without asking the engine anything (it may have trapped); true if one ran. */
  drop() {
    const job = this.job;
    if (!job) return false;
    this.job = null;
    job.abandoned = true;
    job.cancel();
    return true;
  }
}
