// Bundles the full page's modules and styles into two minified files next
// to their sources: web/page/main.min.js (index.html's one script) and
// web/styles.min.css. One script instead of forty modules loaded one
// import level at a time, and no comments on the wire: the page starts
// sooner and weighs less (README "The page's speed and size").
//
// The bundle stays beside its entry (web/page/, one folder below web/, as
// web/engine/ is) because the modules find their neighbours from their own
// URL (files.js the wasm in ../pkg/ and the scenarios in ../scenarios/).
// The wasm glue (../pkg/queuelab.js) stays a file of its own: engine.js
// imports a second copy of it under another URL after a trap.
// Usage: node scripts/build-page.mjs [--no-minify]   (scripts/test.sh and
// serve.sh run it; --no-minify keeps names, for reading CPU profiles)
import { build } from "esbuild";

const root = new URL("..", import.meta.url).pathname;
const common = { absWorkingDir: root, bundle: true, minify: !process.argv.includes("--no-minify"), logLevel: "warning", legalComments: "none", target: ["chrome111", "firefox114", "safari16.4"] };

const results = await Promise.all([
  build({ ...common, entryPoints: ["web/page/main.js"], outfile: "web/page/main.min.js", format: "esm", external: ["../pkg/queuelab.js"], metafile: true }),
  build({ ...common, entryPoints: ["web/styles.css"], outfile: "web/styles.min.css", metafile: true }),
]);
for (const { metafile } of results) {
  for (const [file, { bytes }] of Object.entries(metafile.outputs)) console.log(`[build] ${file}: ${bytes} bytes`);
}
