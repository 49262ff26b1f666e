// What views and hosts may ask of a lab. Its commands (the controls',
// and every host's: createLab spreads them), and the context handed to
// each view's mount (views.js): a view finds its part of the markup in
// the root and asks the lab for everything else here. Views talk to each other through nothing: what two views
// share is a part the lab owns (the stage's rows, the caller name), and
// runs a view needs (a copy to the end, Check my fix) are the lab's.

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
    moments: (scenario, text, done) => lab.copies.moments(scenario, text, done),
    /** Check my fix (goal.js): `{ done, cancel() }`; throws the engine's refusal. */
    checkFix: (file, settings, onProgress) => checkFix(file, settings, { id: lab.fileId ?? null, onProgress }),
    /** Whether this lab was solved in this browser. */
    solved: () => isSolved(lab.fileId),
  };
}
