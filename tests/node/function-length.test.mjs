// No function in web/ is longer than MAX_LINES: long functions are where
// the page's state and its drawing tangle (lab.js's createLab once held a
// whole run in 535 lines). Every web/**/*.js file except the wasm build is
// parsed with a real JS parser (acorn) and each function's line span is
// measured, from its first line to its last.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "acorn";
import { simple } from "acorn-walk";

const MAX_LINES = 150;
const root = fileURLToPath(new URL("../../", import.meta.url));
const web = join(root, "web");

function* jsFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== join(web, "pkg")) yield* jsFiles(path);
    } else if (entry.name.endsWith(".js")) yield path;
  }
}

/** Every function in `source` as { name, line, lines }. */
export function functionSpans(source) {
  const ast = parse(source, { ecmaVersion: "latest", sourceType: "module", locations: true });
  const spans = [];
  // Class methods and object methods carry their name on the enclosing node.
  const names = new Map();
  const named = (node) => names.set(node.value, node.key.name ?? node.key.value ?? "?");
  simple(ast, { MethodDefinition: named, Property: (n) => n.method && named(n) });
  const visit = (node) => {
    const name = node.id?.name ?? names.get(node) ?? "(anonymous)";
    spans.push({ name, line: node.loc.start.line, lines: node.loc.end.line - node.loc.start.line + 1 });
  };
  simple(ast, { FunctionDeclaration: visit, FunctionExpression: visit, ArrowFunctionExpression: visit });
  return spans;
}

test("the measure sees every kind of function", () => {
  const src = "function a() {\n}\nconst b = () => {\n\n};\nclass C { m() {\n} }\nconst o = { p() { return 1; } };\n";
  assert.deepEqual(functionSpans(src).map((s) => `${s.name}:${s.lines}`).sort(), ["(anonymous):3", "a:2", "m:2", "p:1"]);
});

test(`no function in web/ is longer than ${MAX_LINES} lines`, () => {
  const files = [...jsFiles(web)];
  assert.ok(files.length > 10, `found only ${files.length} files under web/`);
  const offenders = [];
  for (const file of files) {
    for (const s of functionSpans(readFileSync(file, "utf8"))) {
      if (s.lines > MAX_LINES) offenders.push(`${relative(root, file)}:${s.line} ${s.name} is ${s.lines} lines`);
    }
  }
  assert.deepEqual(offenders, [], `split these functions:\n${offenders.join("\n")}`);
});
