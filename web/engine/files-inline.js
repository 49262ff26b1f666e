// files.js for the one-file build (scripts/build-dist.mjs, dist/queuelab.js):
// the engine, the glue, the styles and the shipped scenarios are inside
// the script, put there by the build as the virtual modules below. Nothing
// is fetched, so a lesson opened from disk (file://) or served from
// another origin works. Same names as files.js.

import { makeGlue } from "queuelab:glue";
import { scenarios, styles, wasmBase64 } from "queuelab:files";
import { fetchText } from "./fetch-text.js";

export { fetchText };

/** The first copy of the glue; `freshGlue` makes another (a trap kills an instance, and the glue keeps its instance in its own scope). */
export const firstGlue = makeGlue();
export const freshGlue = async () => makeGlue();

/** The engine, from the base64 text inside this script. */
export const compileEngine = () => WebAssembly.compile(Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0)));

export async function styleText(file) {
  if (!Object.hasOwn(styles, file)) throw new Error(`Queuelab's one-file build has no style sheet “${file}”.`);
  return styles[file];
}

export async function scenarioFile(file) {
  if (!Object.hasOwn(scenarios, file)) throw new Error(`Queuelab's one-file build has no scenario file “${file}”.`);
  return scenarios[file];
}
