// The learner's predictions at a scenario's checkpoints, as the lab keeps
// them (views/panels/checkpoint.js draws them): checkpoint id -> the
// choice's index, or null when skipped; and the checkpoints whose answer
// the learner has seen. Playing halts at a question not answered yet, and
// where the run answers a prediction (Run's haltsAt); a new run forgets
// them, since its answers may differ.

export class Checkpoints {
  /** @param {any} lab the Lab (lab.js) whose run halts at them */
  constructor(lab) {
    this.lab = lab;
    this.answers = new Map();
    this.seen = new Set();
  }

  /** A new run: predict again. Returns a function that puts the last run's back (the new one could not start). */
  forget() {
    const { answers, seen } = this;
    this.answers = new Map();
    this.seen = new Set();
    return () => {
      this.answers = answers;
      this.seen = seen;
    };
  }

  /** Whether the run stops at checkpoint event `e`: a question not answered, or the run's answer to a prediction not yet seen. */
  haltsAt(e) {
    if (e.type === "checkpointAsked") return !this.answers.has(e.id);
    return Number.isInteger(this.answers.get(e.id)) && !this.seen.has(e.id);
  }

  /**
   * Play, Step or Continue where the run waits at a checkpoint: an
   * unanswered question is skipped (the run still shows its answer), an
   * answer counts as seen. The run goes on.
   */
  skip() {
    const run = this.lab.run;
    const halted = run.halted;
    if (!halted) return;
    if (halted.type === "checkpointAsked") this.answers.set(halted.id, null);
    else this.seen.add(halted.id);
    run.resume();
  }

  /**
   * The learner's prediction at checkpoint `id`: a choice's index, or null
   * to skip it. The run goes on from where it halted, playing.
   */
  answer(id, choice) {
    const { run, clock, frames } = this.lab;
    if (!run.pg) return;
    this.answers.set(id, Number.isInteger(choice) ? choice : null);
    const halted = run.halted?.id === id;
    if (halted) run.resume();
    if ((halted || !clock.playing) && run.now < run.duration) {
      if (!clock.playing) clock.togglePlay();
    } else frames.draw({ animate: false, silent: true });
  }
}
