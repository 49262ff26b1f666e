// What views and hosts may ask of a lab (lab.js). Its commands (the
// controls' and every host's), the host's API (createLab returns it: the
// page and <queue-lab> use it), and the context handed to each view's
// mount (views.js): a view finds its part of the markup in the root and
// asks the lab for everything else here. Views talk to each other
// through nothing: what two views share is a part the lab owns (the
// stage's rows, the caller name), and runs a view needs (a copy to the
// end, Check my fix) are the lab's.

import { checkFix, isSolved } from "./goal.js";

/** What the controls (and hosts) can ask of `lab`; bound, so hosts and views can pass them around. */
export function labCommands(lab) {
  return {
    togglePlay: () => lab.clock.togglePlay(),
    step: () => lab.clock.step(),
    restart: () => lab.replay.restart(),
    setSpeed: (v) => lab.clock.setSpeed(v),
    scrub: (t, live) => lab.clock.scrub(t, live),
    setSeed: (value) => lab.setSeed(value),
    closePeek: () => lab.closePeek(),
    cancelReplay: () => lab.replay.cancel(),
    answerCheckpoint: (id, choice) => lab.checkpoints.answer(id, choice),
  };
}

/** What a host (the page, a <queue-lab>) may ask of `lab`: createLab returns it. */
export function hostApi(lab) {
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
      return lab.clock.playing;
    },
    get speed() {
      return lab.clock.speed;
    },
    /** Loads scenario text as a file (its settings become the reset point); false if it cannot run. `id`: a lab's id ("duplicate-orders"), for its progress and events. @param {string} text @param {{ label?: string, id?: string | null }} [options] */
    load: (text, { label, id } = {}) => lab.load(text, label, id),
    /** A lab's goal, knobs and Check my fix (LabGoal in queue-lab.d.ts); null where the markup has no lab panel. */
    get goal() {
      return lab.goal;
    },
    /** Runs a changed scenario (object or text) from time 0 with the same playing state. */
    apply: (s) => lab.apply(s),
    dispatch: (target, bodyText, opts) => lab.actions.dispatch(target, bodyText, opts),
    /** The run as a host can share it: what is running, your actions, and the moment. */
    state() {
      const run = lab.run;
      return { fileText: run.fileText, text: run.text, scenario: run.scenario, journal: run.journal.map((a) => ({ ...a })), now: run.now, speed: lab.clock.speed, checkpoints: lab.asks };
    },
    /**
     * Follows another host's run (a `queuelab serve`, page/live.js): the
     * run made again here from its journal. `begin(head, source)` starts it
     * (`head`: { text, options, seed, title }; `source` names the host in
     * refusals); `append(calls, from)` adds its calls from the `from`-th
     * (false when they do not follow on); `reach(t)`: the host is at `t`;
     * `back()`: play to the host's moment and follow it again; `state`:
     * { now, until, following }, or null for a run that is not live.
     */
    live: {
      begin: (head, source) => {
        lab.liveSource = source;
        return lab.startLive(head, `The run at ${source} cannot be shown here`);
      },
      append: (calls, from) => lab.run.follow(calls, from),
      reach: (t) => lab.run.reach(t),
      back: () => lab.backToLive(),
      get state() {
        const run = lab.run;
        return run.live ? { now: run.now, until: run.live.until, following: lab.clock.playing } : null;
      },
    },
    /** Replays `journal` into the current run up to `t` (a shared link's moment). */
    restore({ journal = [], t = 0 }) {
      lab.run.journal = [...journal].sort((a, b) => a.t - b.t);
      lab.replay.to(t);
    },
    play: () => lab.play(),
    pause() {
      if (lab.clock.playing) lab.clock.togglePlay();
    },
    /** Play does not pass virtual moment `t` until the returned function is called (the code cell's sleep). @param {number} t @returns {() => void} */
    holdAt: (t) => lab.clock.hold(t),
    showError: (m) => lab.showError(m),
    clearError: () => lab.clearError(),
    /** Stops the loop and frees the engine; the lab is unusable afterwards. */
    destroy: () => lab.destroy(),
  };
}

/** The context of the views of `lab` (lab.js), in `host` with shortcuts on `keys`. */
export function viewContext(lab, { host, keys }) {
  return {
    host,
    keys,
    commands: lab.commands,
    playground: () => lab.run.pg,
    scenario: () => lab.run.scenario,
    apply: (s) => lab.apply(s),
    resetToFile: () => lab.apply(lab.run.fileText, { fromFile: true }),
    fileText: () => lab.run.fileText,
    fileId: () => lab.fileId,
    playing: () => lab.clock.playing,
    act: (op, body, caller) => lab.actions.act(op, body, caller),
    /** Who the page's forms act as; Act yourself's field sets it. */
    callerName: () => lab.actions.caller,
    setCallerName: (name) => (lab.actions.caller = name),
    asksCheckpoints: lab.asks,
    say: (text) => lab.announcer.say(text),
    showError: (m) => lab.showError(m),
    lastError: () => lab.refusal, // why the last run asked for could not start (an Error with path, rule, line)
    /** The stage's rows (stage-rows.js), laid out by the lab before views draw; null without a stage. */
    rows: lab.rows,
    /** The file's own run to its end (copies.js): its simulation snapshot, or null. */
    fileOutcome: (text) => lab.copies.fileOutcome(text),
    /** The timeline's moments of a scenario, found by a copy in slices; returns stop(). */
    moments: (scenario, text, done) => lab.moments(scenario, text, done),
    /** Check my fix (goal.js): `{ done, cancel() }`; throws the engine's refusal. */
    checkFix: (file, settings, onProgress) => checkFix(file, settings, { id: lab.fileId ?? null, onProgress }),
    /** Whether this lab was solved in this browser. */
    solved: () => isSolved(lab.fileId),
  };
}
