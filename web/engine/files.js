// Where Queuelab's own files come from: the engine (its wasm and the glue
// wasm-bindgen writes for it), the styles and the shipped scenarios. On
// the web they are files next to these modules, so any host serves them
// with no configuration. The one-file build (scripts/build-dist.mjs) swaps
// this module for files-inline.js, which carries them all inside
// dist/queuelab.js: no fetches, so it works from file:// and from another
// origin without CORS. Both export the same names.

import * as firstGlue from "../pkg/queuelab.js";
import { fetchText } from "./fetch-text.js";

/** For a host's own files (a scenario's src="…"), which are fetched in both builds. */
export { fetchText };

/** The glue module the page starts with (a namespace: `default` is its init, plus `Playground` etc.). */
export { firstGlue };

/**
 * A fresh copy of the glue, with its own instance, after a trap broke the
 * first. A query string makes the browser (and Node) load a separate copy;
 * a URL object rather than a literal, so the page's bundler leaves it be.
 */
export const freshGlue = (number) => import(new URL(`../pkg/queuelab.js?instance=${number}`, import.meta.url).href);

const WASM_URL = new URL("../pkg/queuelab_bg.wasm", import.meta.url);

/** The compiled engine (a WebAssembly.Module). */
export async function compileEngine() {
  const response = await fetch(WASM_URL);
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  // Compiling while the bytes arrive needs the wasm MIME type; a host
  // serving the file as anything else still works, a little later.
  if (response.headers.get("content-type")?.startsWith("application/wasm")) return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** One of Queuelab's style sheets ("styles.css", "queue-lab.css") as text. */
export const styleText = (file) => fetchText(new URL(`../${file}`, import.meta.url), `Queuelab's styles (${file})`);

/** A file of web/scenarios/ ("index.json", "02-slow-consumer-duplicate.json") as text. */
export const scenarioFile = (file) => fetchText(new URL(`../scenarios/${file}`, import.meta.url), file === "index.json" ? "the list of scenarios" : `the scenario “${file.replace(/\.json$/, "")}”`);
