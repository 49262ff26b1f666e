// The lab's frames: each one takes the run's new events, derives what to
// draw (run/derive.js) and hands that record, with the frame's flags, to
// every view (views.js describes the contract). The stage's rows
// (stage-rows.js) are laid out first, so the views that draw into them
// need nothing from each other. While a replay runs in slices, only the
// views that show its progress draw.

import { derive, retime } from "../run/derive.js";

export class Frames {
  /** @param {any} lab the Lab (lab.js) whose views this draws */
  constructor(lab) {
    this.lab = lab;
    this.next = { fresh: false, started: null, rebuild: false }; // what the next frame tells the views
    this.lastSnap = null;
    this.derived = null;
  }

  /**
   * Hands every view the derived record of this moment (derive.js) and the
   * frame's flags. While a replay runs in slices, only its progress draws
   * (drawProgress): the moment is drawn once, at its end.
   */
  draw({ animate, silent }) {
    const { run, clock, replay, checkpoints, rows, views } = this.lab;
    if (replay.job) return this.drawProgress();
    if (!run.pg || !run.snap) return;
    const now = run.now;
    const { events, leftNow } = run.take();
    const changed = events.length > 0 || run.snap !== this.lastSnap;
    const next = this.next;
    this.next = { fresh: false, started: null, rebuild: false };
    if (changed) {
      this.lastSnap = run.snap;
      this.derived = derive({ snap: run.snap, now, events, facts: run.facts, leftNow: next.rebuild ? run.facts.leftOrder.slice(-40) : leftNow, scenario: run.scenario });
    }
    const d = changed ? this.derived : retime(this.derived, now);
    Object.assign(d, next, {
      changed, animate, silent,
      animMs: Math.max(140, Math.min(520, 520 / Math.max(1, Number(clock.speed) || 16))),
      samples: run.samples, quiet: clock.quiet, checkpointAnswers: checkpoints.answers, halted: run.halted, playing: clock.playing, speed: clock.speed, duration: run.duration, journal: run.journal.length, live: run.live != null,
      replay: replay.job?.shown ? { reached: replay.job.reached, target: replay.job.target } : null,
    });
    if (rows) {
      if (d.fresh) rows.reset();
      if (d.changed) rows.layout(d.order);
    }
    for (const v of views) v.update(d);
    for (const v of views) v.settle?.();
  }

  /**
   * A frame of a replay running in slices: the views that show its
   * progress (the clock, the timeline, the bar: `duringReplay`) draw; the
   * others keep the moment they drew, marked busy, until the replay ends.
   * Drawing the stage and the log between slices cost more than the slices
   * (a replay of 40,002 actions: layout, paint and 400 log lines a frame,
   * tasks of up to 1.5 s at 4x CPU throttling). Nothing is read from the
   * engine here: the events wait in the run for the end's one draw.
   */
  drawProgress() {
    const { run, clock, replay, views } = this.lab;
    const job = replay.job;
    if (!job.shown) return; // a replay that ends soon draws only its end
    const d = {
      now: run.now, duration: run.duration, playing: clock.playing, speed: clock.speed, journal: run.journal.length, live: run.live != null,
      changed: false, fresh: false, started: null, rebuild: false, animate: false, silent: true,
      replay: { reached: job.reached, target: job.target },
    };
    for (const v of views) if (v.duringReplay) v.update(d);
  }
}
