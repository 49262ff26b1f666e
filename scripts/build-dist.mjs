// Builds dist/queuelab.js: the <queue-lab> element in one classic script,
// with the engine (wasm, as base64), its glue, the styles and every
// shipped scenario inside. A course page needs one line,
//   <script src="queuelab.js"></script>
// and it works from any folder, from another origin without CORS, and
// from a lesson opened by double-click (file://): nothing is fetched.
//
// How: esbuild bundles web/queue-lab.js as an IIFE, with files.js swapped
// for files-inline.js, whose two virtual modules this script writes:
// - queuelab:glue — wasm-bindgen's glue as a factory: the glue keeps its
//   wasm instance in module scope, and after a trap the page needs a fresh
//   copy (engine.js), which a file:// page cannot import; so the glue's
//   text is turned into a function that makes a new copy each call;
// - queuelab:files — the wasm bytes, the minified styles, the scenarios.
// Needs web/pkg (./scripts/build-wasm.sh). Usage: node scripts/build-dist.mjs
import { readFileSync, readdirSync } from "node:fs";
import { build, transform } from "esbuild";

const root = new URL("..", import.meta.url).pathname;
const read = (path) => readFileSync(`${root}${path}`);

/** The glue module's text as a function returning a fresh module object (its exports). */
async function glueFactory() {
  const { code } = await transform(read("web/pkg/queuelab.js").toString(), { format: "cjs", logLevel: "error" });
  return `export function makeGlue() {\n  const module = { exports: {} };\n  (function (module, exports) {\n${code}\n  })(module, module.exports);\n  return module.exports;\n}\n`;
}

async function files() {
  const styles = {};
  for (const file of ["styles.css", "queue-lab.css"]) {
    styles[file] = (await transform(read(`web/${file}`).toString(), { loader: "css", minify: true })).code;
  }
  // Every shipped scenario and lab, keyed by its path under web/scenarios/ (scenarioFile's names).
  const scenarios = {};
  for (const dir of ["", "labs/"]) {
    const index = read(`web/scenarios/${dir}index.json`).toString();
    scenarios[`${dir}index.json`] = index;
    for (const file of JSON.parse(index)) scenarios[`${dir}${file}`] = read(`web/scenarios/${dir}${file}`).toString();
  }
  const wasmBase64 = read("web/pkg/queuelab_bg.wasm").toString("base64");
  return `export const styles = ${JSON.stringify(styles)};\nexport const scenarios = ${JSON.stringify(scenarios)};\nexport const wasmBase64 = ${JSON.stringify(wasmBase64)};\n`;
}

const inline = {
  name: "queuelab-inline-files",
  setup(b) {
    b.onResolve({ filter: /(^|\/)files\.js$/ }, () => ({ path: `${root}web/engine/files-inline.js` }));
    b.onResolve({ filter: /^queuelab:/ }, (args) => ({ path: args.path, namespace: "queuelab" }));
    b.onLoad({ filter: /.*/, namespace: "queuelab" }, async (args) => ({
      contents: args.path === "queuelab:glue" ? await glueFactory() : await files(),
      loader: "js",
      resolveDir: `${root}web`,
    }));
  },
};

const result = await build({
  absWorkingDir: root,
  entryPoints: ["web/queue-lab.js"],
  outfile: "dist/queuelab.js",
  bundle: true,
  format: "iife",
  minify: true,
  legalComments: "none",
  target: ["chrome111", "firefox114", "safari16.4"],
  plugins: [inline],
  banner: { js: "/* Queuelab: Amazon SQS, simulated in the browser. The <queue-lab> element, its engine and scenarios in one file. MIT licence. */" },
  metafile: true,
  logLevel: "warning",
});
for (const [file, { bytes }] of Object.entries(result.metafile.outputs)) console.log(`[build] ${file}: ${bytes} bytes`);
