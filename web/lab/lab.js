// One playground: a Run (run/run.js) of a scenario and the views that draw
// it (views.js), inside a root that holds labMarkup() (the page's document
// or a <queue-lab>'s shadow root). No queue logic lives here: the engine
// decides, the lab draws. Hosts fetch scenario text and call load(); the
// lab never knows where it came from.
//
// The Lab composes named parts, each holding its own state: clock.js
// (virtual time, the frame loop, play/pause, Step, speed, scrub),
// replay.js (a moment rebuilt in slices, Cancel, Restart), recovery.js (a
// trapped engine), checkpoints.js (the learner's predictions), actions.js
// (your requests), frames.js (derive, and every view draws), and what
// views share or ask for: stage-rows.js, copies.js, goal.js, context.js.
// This file starts runs (load, apply, a seed) and makes a lab for a host
// (createLab; what the host may ask of it is context.js's hostApi).

import { Run } from "../run/run.js";
import { Slicer } from "../run/slicer.js";
import { VIEWS } from "./views.js";
import { Announcer } from "../ui/announce.js";
import { Clock } from "./clock.js";
import { Replay } from "./replay.js";
import { Recovery } from "./recovery.js";
import { Checkpoints } from "./checkpoints.js";
import { Actions } from "./actions.js";
import { Frames } from "./frames.js";
import { StageRows } from "./stage-rows.js";
import { Copies } from "./copies.js";
import { asLabFile } from "./goal.js";
import { hostApi, labCommands, viewContext } from "./context.js";

/** A seed written as text: a whole number from 0 to 2^53-1, else null. */
export function parseSeed(text) {
  const n = String(text).trim() === "" ? NaN : Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

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
 * What hosts may ask of the lab it returns: context.js's hostApi.
 * @param {Document | ShadowRoot} root
 * @param {{ host?: HTMLElement, keys?: Document | ShadowRoot, onEvent?: (event: import("../pkg/queuelab.js").QueuelabEvent, how: { replay: boolean }) => void, onEnd?: () => void, onRun?: () => void, onError?: (message: string, detail?: object) => void, checkpoints?: boolean }} [options]
 */
export function createLab(root, { host, keys = root, onEvent = () => {}, onEnd = () => {}, onRun = () => {}, onError = () => {}, checkpoints = true } = {}) {
  const lab = new Lab(root, { host, keys, onEvent, onEnd, onRun, onError, checkpoints });
  return hostApi(lab);
}

class Lab {
  constructor(root, { host, keys, onEvent, onEnd, onRun, onError, checkpoints }) {
    this.$ = (id) => root.getElementById(id);
    this.asks = checkpoints !== false; // whether the run stops to ask a scenario's checkpoints
    this.onEnd = onEnd;
    this.onRun = onRun;
    this.onError = onError;
    this.dead = false; // destroyed: no frame is asked for again
    this.fileId = null; // the lab's id ("duplicate-orders"), for its progress and events
    this.refusal = null; // why the last run asked for could not start
    this.liveSource = ""; // the host a live run follows (its address), for the words
    this.run = new Run({ sample: !!this.$("chart"), onEvent, haltsAt: this.asks ? (e) => this.checkpoints.haltsAt(e) : null });
    // All simulation work goes through one slicer, in chunks that fit a frame.
    this.slicer = new Slicer({ advance: (to) => this.run.advanceChunk(to), estimate: (to) => this.run.workEstimate(to), halted: () => this.run.halted != null || this.run.yielded, pending: () => this.run.pending });
    // Its parts: each reaches the others through the lab, when called.
    this.clock = new Clock(this);
    this.replay = new Replay(this);
    this.recovery = new Recovery(this);
    this.checkpoints = new Checkpoints(this);
    this.actions = new Actions(this);
    this.frames = new Frames(this);
    this.copies = new Copies();
    this.rows = this.$("rows") ? new StageRows(this.$("rows")) : null;
    this.announcer = new Announcer(this.$("announcer"));
    this.$("error-close").addEventListener("click", () => this.clearError());
    this.commands = labCommands(this);
    this.views = VIEWS.map((v) => v.mount(root, viewContext(this, { host, keys }))).filter(Boolean);
    this.goal = this.views.find((v) => v.goal)?.goal ?? null;
  }

  showError(message) {
    this.$("error-text").textContent = message;
    this.$("error").hidden = false;
  }

  clearError() {
    this.$("error-text").textContent = "";
    this.$("error").hidden = true;
  }

  load(text, label, id) {
    this.fileId = id ?? null;
    const file = asLabFile(text);
    this.run.fileText = file;
    return this.start(file, { fromFile: true, label });
  }

  /** Starts `text` at time 0; false (and the engine's message shown) when it cannot run. */
  start(text, { fromFile = false, reload = fromFile, keepPlaying = false, label = "The scenario" } = {}) {
    const refused = `${fromFile ? `${label} cannot run` : "That change cannot run"}`;
    return this.begin(() => this.run.start(text), { reload, playing: keepPlaying && this.clock.playing, refused });
  }

  /**
   * Starts following another host's run (run.startLive: `head` is its
   * journal's scenario, options, seed and a title): playing, which for a
   * live run is following the host's clock. False (and why shown) when it
   * cannot run.
   */
  startLive(head, refused) {
    const ok = this.begin(() => this.run.startLive(head), { reload: true, playing: true, refused });
    if (ok) this.clock.loop();
    return ok;
  }

  /** A live run follows its host again: it plays on to the host's moment (a long way in slices, with the replay's progress bar). */
  backToLive() {
    if (!this.run.live || !this.run.pg) return;
    this.checkpoints.skip();
    this.clock.playing = true;
    this.replay.to(this.run.duration, { forward: true });
  }

  /** Starts a run with `make()` (which throws, changing nothing, when it cannot run); the views start over. */
  begin(make, { reload, playing, refused }) {
    this.replay.abandon();
    // A new run (a file, a changed setting): its answers may differ, so predict again.
    const putBack = this.checkpoints.forget();
    try {
      make();
      this.refusal = null;
    } catch (e) {
      putBack(); // the run on screen goes on
      this.refusal = e;
      this.showError(`${refused}: ${e.message ?? e}`);
      return false;
    }
    this.clearError();
    this.frames.next.started = { text: this.run.text, reload };
    this.fresh();
    this.clock.playing = playing;
    this.clock.lastTs = performance.now();
    this.frames.draw({ animate: false, silent: true });
    return true;
  }

  /** The run was read from its start: views start over on the next frame. */
  fresh() {
    this.clock.vt = this.run.now;
    this.clock.quiet = null;
    this.frames.next.fresh = true;
    this.announcer.clear();
    this.onRun();
  }

  /** Runs a changed scenario (object or text) from time 0, keeping play/pause. */
  apply(s, opts) {
    const text = typeof s === "string" ? s : JSON.stringify(s, null, 2);
    const ok = this.start(text, { keepPlaying: true, reload: typeof s === "string", ...opts });
    if (ok) this.clock.loop();
    return ok;
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

  play() {
    if (!this.clock.playing) this.clock.togglePlay();
  }

  /**
   * The timeline's moments of a scenario (copies.js). A live run has none:
   * its moments are its host's calls, not a scenario's copy run to its end.
   */
  moments(scenario, text, done) {
    if (!this.run.live) return this.copies.moments(scenario, text, done);
    done([]);
    return () => {};
  }

  closePeek() {
    for (const v of this.views) v.escape?.();
  }

  destroy() {
    this.dead = true;
    this.recovery.unwatch();
    this.replay.abandon();
    this.clock.stop();
    this.run.replace(null);
    this.announcer.clear();
    this.copies.stopAll();
    for (const v of this.views) v.destroy();
  }
}
