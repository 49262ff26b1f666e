// One playground: a Run (run.js) of a scenario and the views that draw it
// (views.js), inside a root that holds labMarkup() (the page's document or
// a <queue-lab>'s shadow root). The lab owns the clock: one
// requestAnimationFrame loop over virtual time, speed, play and pause.
// Each frame it takes the run's new events, derives what to draw
// (derive.js) and hands that record to every view. No queue logic lives
// here: the engine decides, the lab draws. Hosts fetch scenario text and
// call load(); the lab never knows where it came from.

import { Run } from "../run/run.js";
import { derive, retime } from "../run/derive.js";
import { VIEWS } from "./views.js";
import { Announcer } from "../ui/announce.js";
import { SLICE_MS, Slicer, nextFrame, runSliced } from "../run/slicer.js";
import { secs } from "../text/format.js";
import { lastKnownTime, watch } from "../engine/engine.js";
import { addSkip, quietJump } from "../views/panels/quiet-time.js";
import { asLabFile } from "../views/panels/goal-panel.js";

const SPEEDS = ["0.25", "0.5", "1", "2", "4", "8", "16", "max"];

/** A seed written as text: a whole number from 0 to 2^53-1, else null. */
export function parseSeed(text) {
  const n = String(text).trim() === "" ? NaN : Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
/** Wall ms of simulation per frame: a slice's budget, less room for drawing what it did. */
const WORK_MS = SLICE_MS * 0.7;
/** A replay still running after this long (wall ms) shows its progress bar and Cancel. */
const PROGRESS_AFTER_MS = 250;

/**
 * Creates a lab in `root`. Options:
 * - `host`: the element that carries data-finished (body, or the custom element);
 * - `keys`: where keyboard shortcuts listen (document, or the shadow root);
 * - `onEvent(event, { replay })`: each engine event as it is read; `replay`
 *   is true while the timeline rebuilds a moment;
 * - `onEnd()`: the run reached the scenario's end;
 * - `onRun()`: a new run started (load, setting, seed, restart, scrub);
 * - `onError(message, detail)`: this lab's engine broke (detail: { trap: true,
 *   during }) or could not be restarted; the message is already in its box;
 * - `checkpoints`: false plays a scenario's checkpoints without asking
 *   them (a demo that just plays; `checkpoints=off`).
 */
export function createLab(root, { host, keys = root, onEvent = () => {}, onEnd = () => {}, onRun = () => {}, onError = () => {}, checkpoints = true } = {}) {
  const lab = new Lab(root, { host, keys, onEvent, onEnd, onRun, onError, checkpoints });
  return {
    ...lab.commands,
    /** The engine running now (a new one after every replay). */
    get playground() {
      return lab.run.pg;
    },
    get scenario() {
      return lab.run.scenario;
    },
    get playing() {
      return lab.playing;
    },
    get speed() {
      return lab.speed;
    },
    /** Loads scenario text as a file (its settings become the reset point); false if it cannot run. `id`: a lab's id ("duplicate-orders"), for its progress and events. */
    load: (text, { label, id } = {}) => lab.load(text, label, id),
    /** A lab's goal, knobs and Check my fix (LabGoal in queue-lab.d.ts); null where the markup has no lab panel. */
    get goal() {
      return lab.goal;
    },
    /** Runs a changed scenario (object or text) from time 0 with the same playing state. */
    apply: (s) => lab.apply(s),
    dispatch: (target, bodyText, opts) => lab.dispatch(target, bodyText, opts),
    /** The run as a host can share it: what is running, your actions, and the moment. */
    state() {
      const run = lab.run;
      return { fileText: run.fileText, text: run.text, scenario: run.scenario, journal: run.journal.map((a) => ({ ...a })), now: run.now, speed: lab.speed, checkpoints: lab.asks };
    },
    /** Replays `journal` into the current run up to `t` (a shared link's moment). */
    restore({ journal = [], t = 0 }) {
      lab.run.journal = [...journal].sort((a, b) => a.t - b.t);
      lab.replayTo(t);
    },
    play() {
      if (!lab.playing) lab.togglePlay();
    },
    pause() {
      if (lab.playing) lab.togglePlay();
    },
    showError: (m) => lab.showError(m),
    clearError: () => lab.clearError(),
    /** Stops the loop and frees the engine; the lab is unusable afterwards. */
    destroy: () => lab.destroy(),
  };
}

/** What the controls (and hosts) can ask of a lab. */
const COMMANDS = ["togglePlay", "step", "restart", "setSpeed", "scrub", "setSeed", "closePeek", "cancelReplay", "answerCheckpoint"];

class Lab {
  constructor(root, { host, keys, onEvent, onEnd, onRun, onError, checkpoints }) {
    this.$ = (id) => root.getElementById(id);
    this.asks = checkpoints !== false; // whether the run stops to ask a scenario's checkpoints
    this.onEnd = onEnd;
    this.onRun = onRun;
    this.onError = onError;
    this.suspended = null; // { t, playing } while the engine restarts after a trap elsewhere
    this.broken = false; // this lab's own engine call trapped; Restart starts it again
    this.unwatch = watch({ trapped: (t) => this.trapped(t), restarted: () => this.restarted(), restartFailed: (e) => this.restartFailed(e) });
    // The learner's predictions at checkpoints (checkpoint.js): id -> the
    // choice's index, or null when skipped; and the checkpoints whose
    // answer the learner has seen. Playing halts at a question not
    // answered yet, and where the run answers a prediction.
    this.checkpointAnswers = new Map();
    this.checkpointSeen = new Set();
    this.run = new Run({ sample: !!this.$("chart"), onEvent, haltsAt: this.asks ? (e) => this.haltsAt(e) : null });
    // All simulation work goes through one slicer, in chunks that fit a frame.
    this.slicer = new Slicer({ advance: (to) => this.run.advanceChunk(to), estimate: (to) => this.run.workEstimate(to), halted: () => this.run.halted != null, pending: () => this.run.pending });
    this.replay = null; // the replay running in slices (runSliced's job), if any
    // The clock: virtual time as a float (for slow speeds) and the frame loop.
    Object.assign(this, { playing: false, speed: "1", vt: 0, lastTs: 0, raf: 0, scrubTo: null, dead: false });
    this.next = { fresh: false, started: null, rebuild: false }; // what the next frame tells the views
    this.lastSnap = null;
    this.derived = null;
    this.frame = this.frame.bind(this);
    this.announcer = new Announcer(this.$("announcer"));
    this.$("error-close").addEventListener("click", () => this.clearError());
    this.commands = {}; // bound, so hosts and views can pass them around
    for (const name of COMMANDS) this.commands[name] = (...args) => this[name](...args);
    // What a view may use (views.js): its part of the markup is found in `root`.
    const ctx = {
      host,
      keys,
      commands: this.commands,
      playground: () => this.run.pg,
      scenario: () => this.run.scenario,
      apply: (s) => this.apply(s),
      resetToFile: () => this.apply(this.run.fileText, { fromFile: true }),
      fileText: () => this.run.fileText,
      fileId: () => this.fileId,
      playing: () => this.playing,
      act: (op, body, caller) => this.act(op, body, caller),
      callerName: () => "you", // the manual view (if any) replaces it with its field
      asksCheckpoints: this.asks,
      say: (text) => this.announcer.say(text),
      showError: (m) => this.showError(m),
      lastError: () => this.refusal, // why the last run asked for could not start (an Error with path, rule, line)
    };
    this.views = VIEWS.map((v) => v.mount(root, ctx)).filter(Boolean);
    this.goal = this.views.find((v) => v.goal)?.goal ?? null;
  }

  // ---- errors -----------------------------------------------------------

  showError(message) {
    this.$("error-text").textContent = message;
    this.$("error").hidden = false;
  }

  clearError() {
    this.$("error-text").textContent = "";
    this.$("error").hidden = true;
  }

  // ---- starting a run -----------------------------------------------------

  load(text, label, id) {
    this.fileId = id ?? null;
    const file = asLabFile(text);
    this.run.fileText = file;
    return this.start(file, { fromFile: true, label });
  }

  /** Starts `text` at time 0; false (and the engine's message shown) when it cannot run. */
  start(text, { fromFile = false, reload = fromFile, keepPlaying = false, label = "The scenario" } = {}) {
    this.abandonReplay();
    // A new run (a file, a changed setting): its answers may differ, so predict again.
    const [answers, seen] = [this.checkpointAnswers, this.checkpointSeen];
    this.checkpointAnswers = new Map();
    this.checkpointSeen = new Set();
    try {
      this.run.start(text);
      this.refusal = null;
    } catch (e) {
      [this.checkpointAnswers, this.checkpointSeen] = [answers, seen]; // the run on screen goes on
      this.refusal = e;
      this.showError(`${fromFile ? `${label} cannot run` : "That change cannot run"}: ${e.message ?? e}`);
      return false;
    }
    this.clearError();
    this.next.started = { text, reload };
    this.fresh();
    this.playing = keepPlaying && this.playing;
    this.lastTs = performance.now();
    this.draw({ animate: false, silent: true });
    return true;
  }

  /** The run was read from its start: views start over on the next frame. */
  fresh() {
    this.vt = this.run.now;
    this.quiet = null; // the quiet stretch skipped last (quiet-time.js), for its note
    this.next.fresh = true;
    this.announcer.clear();
    this.onRun();
  }

  /** Runs a changed scenario (object or text) from time 0, keeping play/pause. */
  apply(s, opts) {
    const text = typeof s === "string" ? s : JSON.stringify(s, null, 2);
    const ok = this.start(text, { keepPlaying: true, reload: typeof s === "string", ...opts });
    if (ok) this.loop();
    return ok;
  }

  /**
   * Rebuilds moment `t` (clamped to the run) by replaying from time 0, in
   * slices (slicer.js): a short replay is done before this returns; a long
   * one shows a progress bar with Cancel as it goes (drawProgress), keeps
   * the page answering, and draws the moment it reached at its end. Asking for a later moment while one runs extends it.
   * With `forward` (the timeline's scrubs), a later moment than now is
   * reached by going on from now instead (Run.beginOnward).
   */
  replayTo(t, { forward = false } = {}) {
    const target = this.run.clamp(t);
    if (this.replay && target >= this.replay.reached) {
      this.replay.target = target;
      return;
    }
    this.abandonReplay();
    let onward = false;
    try {
      // A scrub to a later moment goes on from here; anything else from 0 s.
      onward = forward && !this.suspended && target >= this.run.now;
      if (onward) this.run.beginOnward();
      else this.run.beginReplay();
    } catch (e) {
      this.showError(`Replay failed: ${e.message}`);
      return;
    }
    if (onward) {
      this.quiet = null; // the note of a quiet stretch skipped while playing
      this.onRun();
    } else {
      this.fresh();
      this.next.rebuild = true;
    }
    const began = performance.now();
    const job = runSliced(this.slicer, {
      from: this.run.now,
      target,
      budgetMs: WORK_MS,
      pause: nextFrame,
      onSlice: (job) => {
        job.shown ||= performance.now() - began >= PROGRESS_AFTER_MS;
        this.vt = this.run.now;
        if (this.replay) this.drawProgress(); // (not yet set while the first slice runs)
      },
      onEnd: (job) => this.replayEnded(job),
    });
    if (job.state === "running") this.replay = job;
  }

  /** A replay stopped (done, cancelled or failed): the run stays at the moment it reached, and says so. */
  replayEnded(job) {
    if (job.abandoned) return;
    // A replay that ran over several slices drew only its progress (drawProgress): its views draw this moment as a rebuild, from the run's facts.
    if (this.replay === job) this.next.rebuild = true;
    this.replay = null;
    this.run.endReplay();
    this.vt = this.run.now;
    const at = `t = ${secs(this.run.now)} s`;
    if (job.state === "failed") this.showError(`The replay stopped at ${at}: ${job.error?.message ?? job.error}`);
    if (job.state === "cancelled") this.announcer.say(`Replay cancelled at ${at}.`);
    if (job.state !== "done" || this.run.now >= this.duration) this.playing = false;
    this.draw({ animate: false, silent: true });
    if (this.playing) this.loop();
  }

  /** Cancel on the progress bar: stops the replay where it is and pauses there. */
  cancelReplay() {
    this.replay?.cancel();
  }

  /** Drops a running replay because a new run or replay replaces it. */
  abandonReplay() {
    if (this.dropReplay()) this.run.endReplay();
  }

  /** Stops a running replay without asking the engine anything (it may have trapped); true if one ran. */
  dropReplay() {
    const job = this.replay;
    if (!job) return false;
    this.replay = null;
    job.abandoned = true;
    job.cancel();
    return true;
  }

  // ---- a broken engine (engine.js: containment) ----------------------------

  /**
   * The page's wasm instance trapped. If the trapping call was this lab's,
   * its run is over: it says so in its box and tells the host. Every other
   * lab pauses until the fresh instance is ready, then replays to where
   * it was (restarted).
   */
  trapped(trap) {
    const failed = trap.playground != null && trap.playground === this.run.pg;
    const at = lastKnownTime(this.run.pg); // the engine cannot be asked any more
    if (!failed && this.run.pg && !this.suspended) this.suspended = { t: this.replay ? this.replay.target : at, playing: this.playing };
    this.dropReplay();
    this.stopClock();
    if (!failed) return;
    this.broken = true;
    this.suspended = null;
    this.run.replace(null);
    const message = `${trap.message} This playground stopped at ${(at / 1000).toFixed(1)} s; other playgrounds on the page carry on. Press Restart to run it again from the start.`;
    this.showError(message);
    this.onError(message, { trap: true, during: trap.during });
  }

  restarted() {
    if (!this.suspended) return;
    const { t, playing } = this.suspended;
    this.suspended = null;
    // Playing is set first, so a replay that ends later (in slices) resumes the loop itself.
    this.playing = playing;
    this.replayTo(t);
    if (this.replay) return; // still replaying in slices: its end resumes the loop (replayEnded)
    if (this.playing && this.run.now < this.duration) {
      this.lastTs = performance.now();
      this.vt = this.run.now;
      this.loop();
    } else this.playing = false;
  }

  restartFailed(error) {
    this.suspended = null;
    this.showError(error.message);
    this.onError(error.message, { trap: true, during: "restarting the engine" });
  }

  stopClock() {
    this.playing = false;
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
  }

  // ---- virtual time --------------------------------------------------------

  get duration() {
    return this.run.duration;
  }

  /** Stops at the scenario's end, once per arrival. */
  checkEnd() {
    if (!this.run.markEnded()) return;
    this.playing = false;
    if (!this.run.replaying) {
      this.announcer.say(`Run finished at ${(this.duration / 1000).toFixed(1)} seconds.`);
      this.onEnd();
    }
  }

  frame(ts) {
    this.raf = 0;
    if (this.dead) return;
    if (this.scrubTo != null) {
      const t = this.scrubTo;
      this.scrubTo = null;
      this.replayTo(t, { forward: true });
      this.lastTs = ts;
    } else if (this.replay) {
      this.lastTs = ts; // the replay draws its own frames; replayEnded restarts the loop
      return;
    } else if (this.playing && this.run.pg) this.advancePlay(ts);
    this.draw({ animate: this.speed !== "max" && !reducedMotion.matches, silent: this.speed === "max" });
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
    const run = this.run;
    const max = this.speed === "max";
    if (!max) this.skipQuiet();
    if (!max) this.vt = Math.min(this.duration, this.vt + dt * Number(this.speed));
    const target = max ? this.duration : Math.floor(this.vt);
    try {
      if (target > run.now) this.slicer.slice(run.now, target, WORK_MS);
    } catch (e) {
      this.playing = false;
      this.showError(`The run stopped at t = ${secs(run.now)} s: ${e.message}`);
    }
    if (!max && run.now < target) this.vt = run.now;
    if (run.halted) {
      // A checkpoint's question: the clock waits for the learner's answer.
      this.playing = false;
      this.vt = run.now;
    }
    this.checkEnd();
  }

  /**
   * The learner's prediction at checkpoint `id`: a choice's index, or null
   * to skip it. The run goes on from where it halted, playing.
   */
  answerCheckpoint(id, choice) {
    if (!this.run.pg) return;
    this.checkpointAnswers.set(id, Number.isInteger(choice) ? choice : null);
    const halted = this.run.halted?.id === id;
    if (halted) this.run.resume();
    if ((halted || !this.playing) && this.run.now < this.duration) {
      if (!this.playing) this.togglePlay();
    } else this.draw({ animate: false, silent: true });
  }

  /**
   * Long quiet stretches are skipped: when the simulation says nothing is
   * due for more than QUIET_MS, the clock jumps to just before its next
   * event (or your next recorded action), and the note says how much.
   */
  skipQuiet() {
    const run = this.run;
    if (this.vt > run.now + 1) return; // still catching up: the clock is not idle yet
    const to = quietJump({ now: run.now, nextEvent: run.pg.nextEventTime(), nextAction: run.journal[run.made]?.t, duration: this.duration });
    if (to == null) return;
    const from = run.now;
    run.advanceTo(to); // nothing is due before `to`, so this is cheap
    this.vt = run.now;
    this.quiet = addSkip(this.quiet, from, run.now);
  }

  loop() {
    if (!this.raf && !this.dead) this.raf = requestAnimationFrame(this.frame);
  }

  // ---- drawing -------------------------------------------------------------

  /**
   * Hands every view the derived record of this moment (derive.js) and the
   * frame's flags. While a replay runs in slices, only its progress draws
   * (drawProgress): the moment is drawn once, at its end.
   */
  draw({ animate, silent }) {
    const run = this.run;
    if (this.replay) return this.drawProgress();
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
      animMs: Math.max(140, Math.min(520, 520 / Math.max(1, Number(this.speed) || 16))),
      samples: run.samples, quiet: this.quiet, checkpointAnswers: this.checkpointAnswers, halted: run.halted, playing: this.playing, speed: this.speed, duration: this.duration, journal: run.journal.length,
      replay: this.replay?.shown ? { reached: this.replay.reached, target: this.replay.target } : null,
    });
    for (const v of this.views) v.update(d);
    for (const v of this.views) v.settle?.();
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
    const job = this.replay;
    if (!job.shown) return; // a replay that ends soon draws only its end
    const d = {
      now: this.run.now, duration: this.duration, playing: this.playing, speed: this.speed, journal: this.run.journal.length,
      changed: false, fresh: false, started: null, rebuild: false, animate: false, silent: true,
      replay: { reached: job.reached, target: job.target },
    };
    for (const v of this.views) if (v.duringReplay) v.update(d);
  }

  // ---- the controls' commands -------------------------------------------------

  togglePlay() {
    if (!this.run.pg) return;
    if (this.playing) this.playing = false;
    else {
      this.skipCheckpoint();
      if (this.run.now >= this.duration) this.replayTo(0);
      this.playing = true;
      this.lastTs = performance.now();
      this.vt = this.run.now;
      this.loop();
    }
    this.draw({ animate: false, silent: true });
  }

  /** Whether the run stops at checkpoint event `e`: a question not answered, or the run's answer to a prediction not yet seen. */
  haltsAt(e) {
    if (e.type === "checkpointAsked") return !this.checkpointAnswers.has(e.id);
    return Number.isInteger(this.checkpointAnswers.get(e.id)) && !this.checkpointSeen.has(e.id);
  }

  /**
   * Play, Step or Continue where the run waits at a checkpoint: an
   * unanswered question is skipped (the run still shows its answer), an
   * answer counts as seen. The run goes on.
   */
  skipCheckpoint() {
    const halted = this.run.halted;
    if (!halted) return;
    if (halted.type === "checkpointAsked") this.checkpointAnswers.set(halted.id, null);
    else this.checkpointSeen.add(halted.id);
    this.run.resume();
  }

  step() {
    if (!this.run.pg || this.replay) return;
    this.playing = false;
    this.skipCheckpoint();
    // A replay cancelled among a link's actions due at one moment: the next step makes the rest, in slices.
    if (this.run.pending > 0) return this.replayTo(this.run.now, { forward: true });
    if (this.run.now >= this.duration) return this.draw({ animate: false, silent: true });
    this.run.step();
    this.vt = this.run.now;
    this.checkEnd();
    this.draw({ animate: !reducedMotion.matches, silent: false });
  }

  restart() {
    if (!this.run.pg) {
      // After this lab's own trap: the scenario again from 0 s on the fresh engine.
      if (this.broken && this.start(this.run.text)) this.broken = false;
      return;
    }
    this.run.journal = [];
    this.replayTo(0);
    if (this.playing) {
      this.lastTs = performance.now();
      this.loop();
    }
  }

  /** Sets the speed; an unknown one runs at 1× and says why. */
  setSpeed(v) {
    const ok = SPEEDS.includes(String(v));
    if (!ok) this.showError(`speed="${v}" is not a speed: use one of ${SPEEDS.join(", ")}. Running at 1×.`);
    this.speed = ok ? String(v) : "1";
    this.vt = this.run.now;
    this.draw({ animate: false, silent: true }); // shows the speed
    return ok;
  }

  scrub(t, live) {
    if (!this.run.pg) return;
    if (live) {
      this.scrubTo = t;
      this.loop();
    } else {
      this.scrubTo = null;
      this.replayTo(t, { forward: true });
    }
  }

  setSeed(value) {
    const seed = parseSeed(value);
    if (seed == null) {
      this.showError(`The seed must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}; “${value}” is not.`);
      this.$("seed")?.setAttribute("aria-invalid", "true");
      return false;
    }
    this.$("seed")?.removeAttribute("aria-invalid");
    if (!this.run.scenario) return false;
    return this.apply({ ...this.run.scenario, seed });
  }

  closePeek() {
    for (const v of this.views) v.escape?.();
  }

  // ---- your requests -------------------------------------------------------------

  /**
   * Sends a request into the engine as `caller`; the run records it (see
   * Run.dispatch). Draws what it changed at once, and the replay note
   * once it is recorded.
   */
  dispatch(target, bodyText, opts) {
    if (this.replay) return Promise.reject(new Error(`The run is still replaying to t = ${secs(this.replay.target)} s; wait for it or press Cancel, then send again.`));
    // Making them first here would be one long task; Step makes them in slices.
    if (this.run.pending > 0) return Promise.reject(new Error(`The replay was cancelled with ${this.run.pending} recorded actions of this moment still to make; press Step to make them, then send again.`));
    const answer = this.run.dispatch(target, bodyText, opts);
    if (!this.run.pg) return answer;
    this.run.collect();
    this.draw({ animate: !reducedMotion.matches, silent: false });
    return answer.then((res) => {
      this.draw({ animate: !reducedMotion.matches, silent: false });
      return res;
    });
  }

  /** A manual SQS call from the page's forms: errors shown in the lab's box. */
  async act(op, body, caller) {
    let res;
    try {
      res = await this.dispatch(`AmazonSQS.${op}`, JSON.stringify(body), { caller });
    } catch (e) {
      this.showError(`${op} could not be sent: ${e.message}`);
      return { status: 0, body: { message: e.message } };
    }
    const parsed = JSON.parse(res.body);
    if (res.status >= 400) this.showError(`${op} failed (${res.status}): ${parsed.message ?? res.body}`);
    else this.clearError();
    this.run.collect();
    this.draw({ animate: !reducedMotion.matches, silent: false });
    return { status: res.status, body: parsed };
  }

  destroy() {
    this.dead = true;
    this.unwatch();
    this.abandonReplay();
    this.stopClock();
    this.run.replace(null);
    this.announcer.clear();
    for (const v of this.views) v.destroy();
  }
}
