// The lab's copies of its run: what only a whole run can say, found on a
// Playground of its own (run/copy-run.js), never the one on screen, and
// bounded as a link is (work past limits().maxWorkWithoutAsking is not
// done). Views ask the lab for these (lab.fileOutcome, lab.moments); no
// view starts an engine run (tests/node/layers.test.mjs).
// - fileOutcome(text): the file's own run to its end, its simulation
//   snapshot (the recap compares the learner's run with it), once per file;
// - moments(scenario, text, done): the timeline's landmarks, found in
//   slices so a long copy never holds the page (run/moments.js); returns
//   a function that stops the copy. The lab stops every copy still
//   running when it is destroyed.

import { fileOutcome } from "../run/copy-run.js";
import { narrationMomentsInSlices } from "../run/moments.js";

export class Copies {
  constructor() {
    this.files = new Map(); // file text -> its run's simulation snapshot (or null)
    this.running = new Set(); // copies finding moments, each { stop }
  }

  /** The file's own run to its end: its simulation snapshot, or null when too long to run here. */
  fileOutcome(text) {
    if (!this.files.has(text)) this.files.set(text, fileOutcome(text));
    return this.files.get(text);
  }

  /** The moments of `scenario` (its JSON `text`), handed to `done` when its copy gets to its end; returns stop(). */
  moments(scenario, text, done) {
    const copy = { stop: () => {}, ended: false };
    copy.stop = narrationMomentsInSlices(scenario, text, (moments) => {
      copy.ended = true;
      this.running.delete(copy);
      done(moments);
    });
    if (!copy.ended) this.running.add(copy);
    return () => {
      this.running.delete(copy);
      copy.stop();
    };
  }

  /** Stops every copy still running (the lab is destroyed). */
  stopAll() {
    for (const copy of this.running) copy.stop();
    this.running.clear();
  }
}
