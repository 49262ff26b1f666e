// The one wasm module of a page. Every lab on the page (the full page's,
// or any number of <queue-lab> elements) imports this module, so the
// engine is fetched and compiled once; each lab then makes its own
// Playground. The wasm file is found next to this script (wasm-bindgen's
// init resolves it from import.meta.url), so hosts configure nothing.

import init, { Playground, defaults as engineDefaults, limits as engineLimits, operations as engineOperations } from "./pkg/queuelab.js";

let loading = null;

/** Resolves once the wasm module is ready; safe to call any number of times. */
export function ready() {
  loading ??= init().catch((e) => {
    loading = null; // a later element may retry (e.g. after a network blip)
    throw new Error(`Could not load the Queuelab engine (web/pkg/queuelab_bg.wasm): ${e.message ?? e}`);
  });
  return loading;
}

export { Playground };

let known = null;
const facts = () => (known ??= Object.freeze({ defaults: engineDefaults(), operations: Object.freeze(engineOperations()), limits: Object.freeze(engineLimits()) }));

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
