// A broken engine (engine/engine.js: containment), as one lab lives it.
// The page's wasm instance trapped: if the trapping call was this lab's,
// its run is over (it says so in its box and tells the host, and Restart
// starts the scenario again on the fresh instance); every other lab
// pauses until the fresh instance is ready, then replays to where it was.

import { lastKnownTime, watch } from "../engine/engine.js";

export class Recovery {
  /** @param {any} lab the Lab (lab.js) this recovers */
  constructor(lab) {
    this.lab = lab;
    this.suspended = null; // { t, playing } while the engine restarts after a trap elsewhere
    this.broken = false; // this lab's own engine call trapped; Restart starts it again
    this.unwatch = watch({ trapped: (t) => this.trapped(t), restarted: () => this.restarted(), restartFailed: (e) => this.restartFailed(e) });
  }

  trapped(trap) {
    const { run, replay, clock } = this.lab;
    const failed = trap.playground != null && trap.playground === run.pg;
    const at = lastKnownTime(run.pg); // the engine cannot be asked any more
    if (!failed && run.pg && !this.suspended) this.suspended = { t: replay.job ? replay.job.target : at, playing: clock.playing };
    replay.drop();
    clock.stop();
    if (!failed) return;
    this.broken = true;
    this.suspended = null;
    run.replace(null);
    const message = `${trap.message} This playground stopped at ${(at / 1000).toFixed(1)} s; other playgrounds on the page carry on. Press Restart to run it again from the start.`;
    this.lab.showError(message);
    this.lab.onError(message, { trap: true, during: trap.during });
  }

  restarted() {
    if (!this.suspended) return;
    const { run, replay, clock } = this.lab;
    const { t, playing } = this.suspended;
    this.suspended = null;
    // Playing is set first, so a replay that ends later (in slices) resumes the loop itself.
    clock.playing = playing;
    replay.to(t);
    if (replay.job) return; // still replaying in slices: its end resumes the loop (Replay.ended)
    if (clock.playing && run.now < run.duration) clock.resume();
    else clock.playing = false;
  }

  restartFailed(error) {
    this.suspended = null;
    this.lab.showError(error.message);
    this.lab.onError(error.message, { trap: true, during: "restarting the engine" });
  }

  /** Restart after this lab's own trap: the scenario again from 0 s on the fresh engine. */
  startAgain() {
    if (this.broken && this.lab.start(this.lab.run.text)) this.broken = false;
  }
}
