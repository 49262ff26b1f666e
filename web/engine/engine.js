// The wasm module of a page, and what happens when it breaks.
//
// Every lab on the page (the full page's, or any number of <queue-lab>
// elements) makes its Playgrounds here, so the engine is fetched and
// compiled once. The wasm file is found next to this script, so hosts
// configure nothing.
//
// Containment. The release build aborts on a panic, and any trap (a panic,
// a stack overflow, running out of memory) leaves the whole wasm instance
// broken: every Playground in it, not only the one that trapped. So every
// call into the engine goes through a guard. The first
// `WebAssembly.RuntimeError` marks the instance (a "generation") dead,
// tells every watching host at once (`watch`), and instantiates a fresh
// module from the same compiled `WebAssembly.Module`, so nothing is
// downloaded again. wasm-bindgen's glue keeps its instance in module scope,
// so a fresh instance needs a fresh copy of the glue: the same file
// imported under another URL (`./pkg/queuelab.js?instance=N`). Hosts then
// rebuild their runs by replay (lab.js); a run is deterministic, so it
// comes back exactly where it was.

import { compileEngine, firstGlue, freshGlue } from "./files.js";

/** Thrown by a call that trapped: its message is for a learner, `during` names the call. */
export class EngineTrap extends Error {
  constructor(during, cause) {
    super(`The engine stopped with an internal error while ${describeCall(during)} (WebAssembly trap: ${cause.message}).`, { cause });
    this.name = "EngineTrap";
    this.during = during;
  }
}

/** Thrown by a call into an instance that already broke, before its replacement is ready. */
export class EngineRestarting extends Error {
  constructor() {
    super("The engine is restarting after an internal error in a playground on this page; try again in a moment.");
    this.name = "EngineRestarting";
  }
}

const CALLS = {
  fromScenario: "loading the scenario",
  construct: "creating a playground",
  dispatch: "answering an SQS request",
  dispatchSync: "answering an SQS request",
  advance: "moving virtual time forward",
  now: "reading the clock",
  nextEventTime: "finding the next event",
  snapshot: "taking a snapshot",
  counts: "counting messages",
  events: "reading the event log",
  peek: "looking at a message",
  scenario: "reading the scenario",
  defaults: "reading the defaults",
  consumerTraits: "describing a worker",
  checkLab: "checking a fix",
  "new LabCheck": "starting a check of a fix",
  "LabCheck.step": "checking a fix",
};
const describeCall = (name) => CALLS[name] ?? `running ${name}()`;

/** One instance of the module: its glue, whether it broke, the Playgrounds made in it. */
class Generation {
  constructor(glue, number) {
    this.glue = glue;
    this.number = number;
    this.dead = false;
    this.made = new Set(); // WeakRefs of the Playgrounds made here, to disarm them when it dies
    guardMethods(this);
  }

  /** Runs `fn` (a call into this instance); a trap kills the instance and is rethrown as an EngineTrap. */
  call(pg, during, fn) {
    if (this.dead) throw new EngineRestarting();
    let result;
    try {
      result = fn();
    } catch (e) {
      if (!(e instanceof WebAssembly.RuntimeError)) throw e;
      const trap = new EngineTrap(during, e);
      died(this, { error: trap, during, message: trap.message, playground: pg });
      throw trap;
    }
    if (result instanceof this.glue.Playground || result instanceof this.glue.LabCheck) this.made.add(new WeakRef(result));
    return result;
  }

  /**
   * A dead instance's Playgrounds (and checks) must never call into it again, not even
   * their finalizers (which free memory in the broken instance): detach
   * each from its pointer without freeing.
   */
  disarm() {
    for (const ref of this.made) ref.deref()?.__destroy_into_raw();
    this.made.clear();
  }
}

/** Puts the guard in front of every method of this glue copy's Playground class. */
function guardMethods(gen) {
  const P = gen.glue.Playground;
  for (const name of Object.getOwnPropertyNames(P.prototype)) {
    const method = Object.getOwnPropertyDescriptor(P.prototype, name).value;
    if (name === "constructor" || name.startsWith("__") || typeof method !== "function") continue;
    P.prototype[name] =
      name === "free"
        ? /** @this {object} a Playground */ function free() {
            if (!gen.dead) method.call(this); // a dead instance's memory is gone with it
          }
        : /** @this {object} a Playground */ function guarded(...args) {
            const result = gen.call(this, name, () => method.apply(this, args));
            if (name === "advance" || name === "now") times.set(this, result);
            return result;
          };
  }
  const fromScenario = P.fromScenario;
  P.fromScenario = (...args) => gen.call(null, "fromScenario", () => fromScenario.apply(P, args));
}

// The last virtual time each Playground reported: after a trap its
// instance cannot be asked, and a host replays its run to this moment.
const times = new WeakMap();

/** The virtual time `pg` last reported (0 if it never did); safe to ask after a trap. */
export const lastKnownTime = (pg) => times.get(pg) ?? 0;

let current = new Generation(firstGlue, 0);
let compiled = null; // Promise<WebAssembly.Module>
let loading = null;
let restarting = null; // Promise of the next generation while one is being made
const hosts = new Set();

/**
 * Resolves once the wasm module is ready; safe to call any number of
 * times. `module` (a compiled WebAssembly.Module) is for hosts without
 * fetch of files, such as Node; browsers fetch the file next to this script.
 * @param {{ module?: WebAssembly.Module }} [options]
 */
export function ready({ module } = {}) {
  loading ??= (async () => {
    compiled = module ? Promise.resolve(module) : compileEngine();
    await firstGlue.default({ module_or_path: await compiled });
  })().catch((e) => {
    loading = null; // a later element may retry (e.g. after a network blip)
    compiled = null;
    throw new Error(`Could not load the Queuelab engine (web/pkg/queuelab_bg.wasm): ${e.message ?? e}`);
  });
  return loading;
}

/**
 * The Playground class of the live instance. `new Playground(options)`
 * and `Playground.fromScenario(text, options)` always make it in the
 * instance that works now (after a trap, the fresh one).
 */
export class Playground {
  constructor(options) {
    const gen = current;
    // Returning an object from a constructor makes `new` give that object.
    return gen.call(null, "construct", () => new gen.glue.Playground(options));
  }

  static fromScenario(text, options) {
    return current.glue.Playground.fromScenario(text, options);
  }
}

/**
 * Registers a host of runs for trap news; returns a function that
 * unregisters it. `host.trapped(trap)` is called at once when the
 * instance breaks (trap: { message, during, error, playground }: the
 * Playground whose call trapped, or null); `host.restarted()` once the
 * fresh instance works, or `host.restartFailed(error)` if it cannot be made.
 */
export function watch(host) {
  hosts.add(host);
  return () => hosts.delete(host);
}

/** The instance number (0 for the first); it grows by one after every trap. */
export const generation = () => current.number;

/** Resolves when no restart is under way (at once if none is). */
export const settled = () => restarting ?? Promise.resolve();

function died(gen, trap) {
  if (gen.dead) return;
  gen.dead = true;
  gen.disarm();
  for (const host of [...hosts]) host.trapped?.(trap);
  restarting = restart(gen.number + 1).finally(() => (restarting = null));
}

async function restart(number) {
  try {
    const glue = await freshGlue(number);
    await glue.default({ module_or_path: await (compiled ??= compileEngine()) });
    current = new Generation(glue, number);
  } catch (e) {
    const error = new Error(`The engine could not be restarted after an internal error (${e.message ?? e}); reload the page.`);
    for (const host of [...hosts]) host.restartFailed?.(error);
    return;
  }
  for (const host of [...hosts]) host.restarted?.();
}

let known = null;
const facts = () =>
  (known ??= current.call(null, "defaults", () => Object.freeze({ defaults: current.glue.defaults(), operations: Object.freeze(current.glue.operations()), limits: Object.freeze(current.glue.limits()), vocabulary: Object.freeze(current.glue.vocabulary()) })));

/**
 * What a queue, consumer and producer get for a setting they leave out,
 * from the engine (queue attributes) and the scenario format (workers):
 * the page keeps no copy. Call after `ready()`.
 */
export const defaults = () => facts().defaults;

/** The SQS operations the engine answers ("SendMessage", ...). Call after `ready()`. */
export const operations = () => facts().operations;

/** The engine's bounds of work and time ({ maxWorkWithoutAsking, maxScenarioWork, maxVirtualMs }). Call after `ready()`. */
export const limits = () => facts().limits;

/**
 * The scenario format in words: every field's path, label, name in a
 * sentence, unit, range and choices (text/field-words.js reads it). Call
 * after `ready()`.
 */
export const vocabulary = () => facts().vocabulary;

/** A worker's card line in parts, each behaviour in the engine's words (the binding's consumerTraits). */
export const consumerTraits = (consumer) => current.call(null, "consumerTraits", () => current.glue.consumerTraits(consumer));

/**
 * Labs (see the binding's labView, labScenario, checkLab and LabCheck),
 * called in the instance that works now; a trap is reported like a
 * Playground's.
 * - `view(text)`: the goal in words, the knobs, the settings the scenario
 *   has now and the explanation (null for a scenario without a goal);
 * - `scenario(text, settings, seed)`: the scenario those settings make, as
 *   JSON text that leaves out what it does not set (as a file would);
 * - `check(text, settings)`: Check my fix over every check seed, in one call;
 * - `startCheck(text, settings)`: the same check as a job to step in
 *   slices (web/lab/check-run.js): `{ step(units), progress, report(), free() }`,
 *   each call guarded. It throws at once for a check past its budget.
 */
export const labs = {
  view: (text) => current.call(null, "labView", () => current.glue.labView(text)),
  scenario: (text, settings, seed) => scenarioText(current.call(null, "labScenario", () => current.glue.labScenario(text, settings, seed))),
  check: (text, settings) => current.call(null, "checkLab", () => current.glue.checkLab(text, settings)),
  startCheck: (text, settings) => guardedCheck(current, text, settings),
};

/** A LabCheck made in `gen`, whose every call goes through its guard (a dead instance answers EngineRestarting). */
function guardedCheck(gen, text, settings) {
  const check = gen.call(null, "new LabCheck", () => new gen.glue.LabCheck(text, settings));
  return {
    step: (units) => gen.call(null, "LabCheck.step", () => check.step(units)),
    get progress() {
      return gen.call(null, "LabCheck.progress", () => check.progress);
    },
    report: () => gen.call(null, "LabCheck.report", () => check.report()),
    free: () => {
      if (!gen.dead) check.free(); // a dead instance's memory is gone with it
    },
  };
}

/** A scenario object as a file's text: fields left unset (null) are left out. */
const scenarioText = (scenario) => JSON.stringify(scenario, (key, value) => (value === null ? undefined : value), 2);
