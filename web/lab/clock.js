// The lab's clock: virtual time as a float (for slow speeds), one
// requestAnimationFrame loop, play and pause, Step, the speed, a scrub's
// live drag, and the quiet stretches it skips while playing (the rule:
// run/quiet.js). Each frame it moves the run on by the frame's length
// times the speed, in one slice of work (lab.slicer), and has the lab's
// frames (frames.js) draw the moment. While a replay runs in slices
// (replay.js), the replay draws its own frames and the clock waits.

import { addSkip, quietJump } from "../run/quiet.js";
import { SLICE_MS } from "../run/slicer.js";
import { secs } from "../text/format.js";

const SPEEDS = ["0.25", "0.5", "1", "2", "4", "8", "16", "max"];
export const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
/** Wall ms of simulation per frame: a slice's budget, less room for drawing what it did. */
export const WORK_MS = SLICE_MS * 0.7;

export class Clock {
  /** @param {any} lab the Lab (lab.js) this clock drives */
  constructor(lab) {
    this.lab = lab;
    Object.assign(this, { playing: false, speed: "1", vt: 0, lastTs: 0, raf: 0, scrubTo: null });
    this.quiet = null; // the quiet stretches skipped since the last replay, for their note (d.quiet)
    this.holds = new Set(); // moments play may not pass yet (hold())
    this.frame = this.frame.bind(this);
  }

  /**
   * Play does not pass virtual moment `t` until the returned release is
   * called: the code cell's sleep(ms) wakes at its moment, not wherever a
   * frame at full speed happened to stop. A scrub or replay is not held.
   */
  hold(t) {
    const h = { t };
    this.holds.add(h);
    return () => this.holds.delete(h);
  }

  /** The earliest moment held, or Infinity. */
  heldAt() {
    let t = Infinity;
    for (const h of this.holds) t = Math.min(t, h.t);
    return t;
  }

  frame(ts) {
    const lab = this.lab;
    this.raf = 0;
    if (lab.dead) return;
    if (this.scrubTo != null) {
      const t = this.scrubTo;
      this.scrubTo = null;
      lab.replay.to(t, { forward: true });
      this.lastTs = ts;
    } else if (lab.replay.job) {
      this.lastTs = ts; // the replay draws its own frames; its end restarts the loop
      return;
    } else if (this.playing && lab.run.pg) this.advancePlay(ts);
    lab.frames.draw({ animate: this.speed !== "max" && !reducedMotion.matches, silent: this.speed === "max" });
    if (this.playing) this.raf = requestAnimationFrame(this.frame);
  }

  /**
   * One frame of playing: virtual time moves by the frame's length times the
   * speed (or as far as fits, at "max"), in one slice of work. When a heavy
   * run cannot keep up, the clock falls behind (it plays slower than asked)
   * rather than the page freezing.
   */
  advancePlay(ts) {
    const dt = Math.min(250, Math.max(0, ts - this.lastTs));
    this.lastTs = ts;
    const run = this.lab.run;
    const max = this.speed === "max";
    // A live run plays to the moment its host has reached (its length so
    // far): the host's clock, not the speed, says how fast time goes.
    const follow = run.live != null;
    if (!max && !follow) this.skipQuiet();
    const held = Math.max(run.now, this.heldAt());
    if (!max && !follow) this.vt = Math.min(run.duration, held, this.vt + dt * Number(this.speed));
    const target = Math.min(held, max || follow ? run.duration : Math.floor(this.vt));
    run.yielded = false; // a pause for your code's handler lasts until this frame
    try {
      if (target > run.now) this.lab.slicer.slice(run.now, target, WORK_MS);
    } catch (e) {
      this.playing = false;
      this.lab.showError(`The run stopped at t = ${secs(run.now)} s: ${e.message}`);
    }
    if ((!max && run.now < target) || follow) this.vt = run.now;
    if (run.halted) {
      // A checkpoint's question: the clock waits for the learner's answer.
      this.playing = false;
      this.vt = run.now;
    }
    this.checkEnd();
  }

  /**
   * Long quiet stretches are skipped: when the simulation says nothing is
   * due for more than QUIET_MS, the clock jumps to just before its next
   * event (or your next recorded action), and the note says how much.
   */
  skipQuiet() {
    const run = this.lab.run;
    if (this.vt > run.now + 1) return; // still catching up: the clock is not idle yet
    const to = quietJump({ now: run.now, nextEvent: run.pg.nextEventTime(), nextAction: run.journal[run.made]?.t, duration: run.duration });
    if (to == null) return;
    const from = run.now;
    run.advanceTo(to); // nothing is due before `to`, so this is cheap
    this.vt = run.now;
    this.quiet = addSkip(this.quiet, from, run.now);
  }

  /** Stops at the scenario's end, once per arrival. */
  checkEnd() {
    const lab = this.lab;
    if (!lab.run.markEnded()) return;
    this.playing = false;
    if (!lab.run.replaying) {
      lab.announcer.say(`Run finished at ${(lab.run.duration / 1000).toFixed(1)} seconds.`);
      lab.onEnd();
    }
  }

  loop() {
    if (!this.raf && !this.lab.dead) this.raf = requestAnimationFrame(this.frame);
  }

  /** Pauses and drops the frame asked for, if any. */
  stop() {
    this.playing = false;
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
  }

  /** Goes on from now (the time a frame measures from, and where virtual time stands). */
  resume() {
    this.lastTs = performance.now();
    this.vt = this.lab.run.now;
    this.loop();
  }

  togglePlay() {
    const lab = this.lab;
    if (!lab.run.pg) return;
    if (this.playing) this.playing = false;
    else {
      // A live run goes back to following its host, from wherever it stands.
      if (lab.run.live) return lab.backToLive();
      lab.checkpoints.skip();
      if (lab.run.now >= lab.run.duration) lab.replay.to(0);
      this.playing = true;
      this.resume();
    }
    lab.frames.draw({ animate: false, silent: true });
  }

  step() {
    const lab = this.lab;
    const run = lab.run;
    if (!run.pg || lab.replay.job) return;
    this.playing = false;
    lab.checkpoints.skip();
    // A replay cancelled among a link's actions due at one moment: the next step makes the rest, in slices.
    if (run.pending > 0) return lab.replay.to(run.now, { forward: true });
    if (run.now >= run.duration) return lab.frames.draw({ animate: false, silent: true });
    run.step();
    this.vt = run.now;
    this.checkEnd();
    lab.frames.draw({ animate: !reducedMotion.matches, silent: false });
  }

  /** Sets the speed; an unknown one runs at 1× and says why. */
  setSpeed(v) {
    const ok = SPEEDS.includes(String(v));
    if (!ok) this.lab.showError(`speed="${v}" is not a speed: use one of ${SPEEDS.join(", ")}. Running at 1×.`);
    this.speed = ok ? String(v) : "1";
    this.vt = this.lab.run.now;
    this.lab.frames.draw({ animate: false, silent: true }); // shows the speed
    return ok;
  }

  /** The timeline: a live drag replays at the next frame (the latest moment wins); a release replays at once. */
  scrub(t, live) {
    const lab = this.lab;
    if (!lab.run.pg) return;
    // Scrubbing a live run leaves the host's moment: it stops following (Play, "Back to live", follows again).
    if (lab.run.live) this.playing = false;
    if (live) {
      this.scrubTo = t;
      this.loop();
    } else {
      this.scrubTo = null;
      lab.replay.to(t, { forward: true });
    }
  }
}
