// The npm package a course author hosts as static files: what `npm pack`
// puts in it, and that every `exports` entry points at a packed file.
// (tests/browser/embed.test.mjs serves the unpacked tarball and opens the
// course page from it.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("package.json", `file://${root}`), "utf8"));
const packed = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" }))[0];
const files = new Set(packed.files.map((f) => f.path));

test("npm pack includes the element (as modules and as the one file dist/queuelab.js), the SDK adapter, the client, the wasm build, styles, scenarios and the pages", () => {
  for (const f of [
    "web/queue-lab.js", "web/queue-lab.d.ts", "web/queue-lab.css", "web/styles.css",
    "web/client/sdk.js", "web/client/sdk.d.ts", "web/client/sqs-client.js", "web/client/sqs-client.d.ts",
    "web/pkg/queuelab.js", "web/pkg/queuelab.d.ts", "web/pkg/queuelab_bg.wasm",
    "web/scenarios/index.json", "web/scenarios/scenario.schema.json", "web/examples/course.html",
    "index.html", "web/page/main.min.js", "web/styles.min.css", "dist/queuelab.js", "docs/scenario-format.md", "README.md",
  ]) assert.ok(files.has(f), `${f} is packed`);
  const stems = JSON.parse(readFileSync(`${root}web/scenarios/index.json`, "utf8"));
  for (const s of stems) assert.ok(files.has(`web/scenarios/${s}`), `scenario ${s} is packed`);
});

test("npm pack leaves out the sources, tests and tooling a static host does not need", () => {
  const stray = [...files].filter((f) => /^(crates|tests|scripts|target|node_modules|\.ci)\//.test(f) || f.endsWith(".rs"));
  assert.deepEqual(stray, []);
});

test("every exports entry names a packed file", () => {
  const targets = [];
  for (const [key, value] of Object.entries(manifest.exports)) {
    for (const target of typeof value === "string" ? [value] : Object.values(value)) targets.push([key, target]);
  }
  for (const [key, target] of targets) {
    const path = target.replace(/^\.\//, "");
    if (path.includes("*")) {
      const prefix = path.slice(0, path.indexOf("*"));
      assert.ok([...files].some((f) => f.startsWith(prefix)), `exports["${key}"] matches packed files`);
    } else assert.ok(files.has(path), `exports["${key}"] -> ${target} is packed`);
  }
  assert.ok(files.has(manifest.types.replace(/^\.\//, "")));
});

test("the SDK adapter and the client load by their package names", async () => {
  // A package may import itself by name through its exports.
  const { queuelabHandler } = await import("queuelab/sdk");
  const { SqsClient, SendMessageCommand } = await import("queuelab/client");
  assert.equal(typeof queuelabHandler, "function");
  assert.equal(typeof SqsClient, "function");
  assert.equal(new SendMessageCommand({ QueueUrl: "q" }).input.QueueUrl, "q");
  const wasm = await import("queuelab/wasm");
  assert.equal(typeof wasm.Playground, "function");
});
