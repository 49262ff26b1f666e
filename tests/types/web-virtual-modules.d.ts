// The two modules scripts/build-dist.mjs makes while it bundles the one-file
// build, which web/engine/files-inline.js imports: their shapes, for the
// type check of web/ (web.tsconfig.json).

declare module "queuelab:glue" {
  /** A fresh copy of wasm-bindgen's glue (web/pkg/queuelab.js) and its exports. */
  export function makeGlue(): typeof import("../../web/pkg/queuelab.js");
}

declare module "queuelab:files" {
  /** Minified style sheets by file name ("styles.css", "queue-lab.css"). */
  export const styles: Record<string, string>;
  /** Every shipped scenario and lab, keyed by its path under web/scenarios/. */
  export const scenarios: Record<string, string>;
  /** The engine's wasm bytes as base64. */
  export const wasmBase64: string;
}
