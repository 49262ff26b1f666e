// The one wasm module of a page. Every lab on the page (the full page's,
// or any number of <queue-lab> elements) imports this module, so the
// engine is fetched and compiled once; each lab then makes its own
// Playground. The wasm file is found next to this script (wasm-bindgen's
// init resolves it from import.meta.url), so hosts configure nothing.

import init, { Playground } from "./pkg/queuelab.js";

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
