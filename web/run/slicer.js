// Long simulation work in time slices, so the page never freezes.
//
// Virtual time can be cheap (an idle queue for a day) or very expensive
// (one consumer polling every millisecond for 35 days: billions of engine
// steps). So work is never "advance to the target" in one call: it is
// many chunks of virtual time, each sized from what the last ones cost on
// this computer, with the wall clock checked after every chunk. A slice
// ends before it would pass its budget (SLICE_MS), and the caller gives the
// browser back its turn (a frame, a click) before the next slice.
//
// Used by the lab's replays (scrub, share links, restart) and its play
// loop, and meant for any later long run (issue 13's "Check my fix").
// Tested in Node with a fake clock: tests/node/slicer.test.mjs.

/** The most wall-clock time (ms) one slice of work may take before the browser gets its turn back. */
export const SLICE_MS = 50;

/** What one chunk should cost, as a share of the budget: small enough that a misjudged chunk still fits. */
const CHUNK_SHARE = 1 / 8;

/** Thrown when a chunk does not move virtual time: the work would otherwise spin forever. */
export class Stalled extends Error {
  constructor(at, to) {
    super(`The simulation's clock did not move past ${at} ms when asked to reach ${to} ms, so it stopped there.`);
    this.name = "Stalled";
    this.at = at;
  }
}

/**
 * Moves something along virtual time in chunks sized to fit a wall-clock budget.
 * - `advance(to)`: does the work up to virtual moment `to` (or less) and
 *   returns the moment it reached;
 * - `estimate(to)` (optional): the engine's estimate of the steps from
 *   now to `to`, so a chunk never strays into a much busier stretch than
 *   the last one measured;
 * - `clock()`: wall-clock ms (performance.now in a page);
 * - `halted()` (optional): true when the work must stop where it is (a
 *   run waiting at a checkpoint for the learner's answer);
 * - `pending()` (optional): how much work is left at the moment reached
 *   (a run's recorded actions due there, made a bounded number a chunk):
 *   the work is done only when none is, and a chunk that lessens it
 *   without moving the clock made progress.
 */
export class Slicer {
  constructor({ advance, estimate = null, clock = () => performance.now(), halted = () => false, pending = () => 0 }) {
    Object.assign(this, { advance, estimate, clock, halted, pending });
    this.chunk = 1; // virtual ms in the next chunk; grows while chunks are cheap
    this.steps = 64; // estimated steps a chunk may hold; learned from measured cost
    this.cost = 0; // wall ms the last chunk took
  }

  /**
   * Works from `from` toward `target` until it reaches it or the next chunk
   * would pass `budgetMs` of wall time; at least one chunk always runs, so
   * every slice makes progress or throws `Stalled`. Returns the moment reached.
   */
  slice(from, target, budgetMs = SLICE_MS) {
    const began = this.clock();
    let now = from;
    let left = this.pending();
    while ((now < target || left > 0) && !this.halted()) {
      const to = this.pick(now, target);
      const t0 = this.clock();
      const reached = this.advance(to.at);
      const [cost, before] = [this.clock() - t0, left];
      left = this.pending();
      // A chunk cut short by its work at one moment says nothing about virtual time's cost: only its cost counts.
      if (left > 0) this.cost = cost;
      else this.learn(cost, reached - now, to.steps);
      if (!(reached > now) && !(left < before) && !this.halted()) throw new Stalled(now, to.at);
      now = reached;
      // Stop before a chunk like the last one would pass the budget.
      if (this.clock() - began + this.cost > budgetMs) break;
    }
    return now;
  }

  /** The next chunk's end: `chunk` ms ahead, halved while the engine estimates more steps than a chunk may hold. */
  pick(now, target) {
    let span = Math.min(target - now, this.chunk);
    let steps = this.estimate ? this.estimate(now + span) : null;
    while (steps != null && span > 1 && steps > this.steps) {
      span = Math.max(1, Math.floor(span / 2));
      steps = this.estimate(now + span);
    }
    return { at: now + span, steps };
  }

  /** Sizes the next chunk from what this one cost: double while cheap, shrink in proportion when dear. */
  learn(cost, span, steps) {
    this.cost = cost;
    const aim = SLICE_MS * CHUNK_SHARE;
    if (cost < aim / 2) this.chunk = Math.min(Number.MAX_SAFE_INTEGER, this.chunk * 2);
    else if (cost > aim) this.chunk = Math.max(1, Math.floor(span * (aim / cost)));
    if (steps != null && steps > 0) {
      // Steps per wall ms on this computer, scaled to the aim; a cheap chunk raises the ceiling gently.
      const fit = Math.floor((steps / Math.max(cost, 0.05)) * aim);
      this.steps = Math.max(1, cost < aim / 2 ? Math.max(this.steps, Math.min(fit, this.steps * 2)) : fit);
    }
  }
}

/** Gives the browser its turn: resolves on a fresh task (after pending input and rendering), not a microtask. */
export function nextTurn() {
  if (globalThis.scheduler?.yield) return globalThis.scheduler.yield();
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

/** Resolves on the next animation frame (so a page can draw between slices). */
export const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));

/**
 * Runs `slicer` from `from` to `target` in slices, waiting on `pause()`
 * between them. The first slice runs at once (a short job finishes before
 * this returns). Returns the job:
 * - `reached`, `target` (may be raised while running), `state`
 *   ("running", "done", "cancelled" or "failed"), `error`;
 * - `cancel()`: stops at the moment reached (the work in hand finishes first);
 * - `done`: a promise of the job once it stops.
 * `onSlice(job)` is called after every slice that leaves it running, and
 * `onEnd(job)` once, at the moment it stops (inside `cancel()` for a cancel).
 */
export function runSliced(slicer, { from, target, budgetMs = SLICE_MS, pause = nextTurn, onSlice = () => {}, onEnd = () => {} }) {
  let finish;
  const job = {
    reached: from,
    target,
    state: "running",
    error: null,
    done: new Promise((resolve) => (finish = resolve)),
    cancel() {
      if (job.state === "running") end("cancelled");
    },
  };
  const end = (state, error = null) => {
    Object.assign(job, { state, error });
    onEnd(job);
    finish(job);
  };
  const slice = () => {
    try {
      job.reached = slicer.slice(job.reached, job.target, budgetMs);
    } catch (e) {
      if (e instanceof Stalled) job.reached = e.at;
      return end("failed", e);
    }
    if (job.reached >= job.target && slicer.pending() === 0) return end("done");
    onSlice(job);
    pause().then(() => job.state === "running" && slice());
  };
  slice();
  return job;
}
