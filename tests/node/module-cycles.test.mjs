// No import cycle between the modules of any Rust crate: a module that
// reaches, through the modules it uses, back to itself cannot be read,
// tested or moved on its own (issue 26, "Done when"). Every crate's
// src/**/*.rs is read (comments and string literals left out), each
// `crate::…` and `super::…` path is resolved to the module it names, and the
// graph of those references must have no cycle.
//
// - The crate root (lib.rs, main.rs, bin/*.rs) is a facade of declarations
//   and re-exports, not a node: every module is declared there.
// - `super::` inside a module points at its parent (`super::x` at the
//   parent's child `x` when there is one), so a folder module's file that
//   uses its parent's vocabulary depends on the parent.
// - A module naming its own descendants (a folder module's mod.rs listing
//   its files, `self::child`, `child::X`) is containment, not an import:
//   not an edge. A descendant reached through `crate::` is not one either.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
// Where the crates are read from: this checkout, or another one named by
// QUEUELAB_CYCLES_ROOT (to check a branch's worktree with this test).
const cratesRoot = process.env.QUEUELAB_CYCLES_ROOT ?? root;

/** The code of a Rust file with comments, strings and char literals blanked (newlines kept). */
export function codeOnly(text) {
  let out = "";
  let i = 0;
  const blank = (s) => s.replace(/[^\n]/g, " ");
  while (i < text.length) {
    const rest = text.slice(i, i + 2);
    let end = -1;
    if (rest === "//") {
      end = text.indexOf("\n", i);
      if (end < 0) end = text.length;
    } else if (rest === "/*") {
      let depth = 0;
      let j = i;
      do {
        if (text.startsWith("/*", j)) { depth++; j += 2; }
        else if (text.startsWith("*/", j)) { depth--; j += 2; }
        else j++;
      } while (depth > 0 && j < text.length);
      end = j;
    } else {
      const raw = /^b?r(#*)"/.exec(text.slice(i, i + 300));
      const prev = text[i - 1] ?? " ";
      if (raw && !/[\w]/.test(prev)) {
        const close = `"${raw[1]}`;
        const at = text.indexOf(close, i + raw[0].length);
        end = at < 0 ? text.length : at + close.length;
      } else if (text[i] === '"') {
        let j = i + 1;
        while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
        end = j + 1;
      } else if (text[i] === "'") {
        const char = /^'(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\'])'/u.exec(text.slice(i, i + 16));
        if (char) end = i + char[0].length;
      }
    }
    if (end > i) {
      out += blank(text.slice(i, end));
      i = end;
    } else {
      out += text[i];
      i++;
    }
  }
  return out;
}

/** Expands a `use` tree's text after a prefix (`a::b`, `a::{b, c::{d, e}}`, `a::*`) into paths. */
function expandTree(code, start) {
  const paths = [];
  let i = start;
  const skipSpace = () => { while (/\s/.test(code[i] ?? "")) i++; };
  // Returns the paths of one tree, each a list of segments.
  const tree = () => {
    const segments = [];
    for (;;) {
      skipSpace();
      if (code[i] === "{") {
        i++;
        const inner = [];
        for (;;) {
          skipSpace();
          if (code[i] === "}") { i++; break; }
          inner.push(...tree());
          skipSpace();
          if (code[i] === ",") i++;
          else if (code[i] !== "}") break;
        }
        return inner.length ? inner.map((p) => [...segments, ...p]) : [segments];
      }
      const word = /^[A-Za-z_][A-Za-z0-9_]*|^\*/.exec(code.slice(i, i + 100));
      if (!word) return [segments];
      i += word[0].length;
      if (word[0] !== "self" && word[0] !== "*") segments.push(word[0]);
      skipSpace();
      if (code.startsWith("::", i)) { i += 2; continue; }
      if (/^as\s/.test(code.slice(i, i + 3))) {
        i += 2;
        skipSpace();
        i += (/^[A-Za-z_][A-Za-z0-9_]*/.exec(code.slice(i, i + 100)) ?? [""])[0].length;
      }
      return [segments];
    }
  };
  paths.push(...tree());
  return paths;
}

/** The module path of a file under src/ ("queue", "behaviours", "behaviours::naive"), or null for a crate root. */
export function moduleOf(file) {
  const parts = file.replace(/\.rs$/, "").split("/");
  if (parts.length === 1 && (parts[0] === "lib" || parts[0] === "main")) return null;
  if (parts[0] === "bin") return null;
  if (parts.at(-1) === "mod") parts.pop();
  return parts.join("::");
}

/**
 * The references between the modules of one crate: `files` maps a path
 * under src/ ("queue.rs", "behaviours/mod.rs") to its text. Returns
 * Map(module -> Map(module it uses -> "file:line" of the first reference)).
 */
export function moduleGraph(files) {
  const modules = new Map();
  for (const [file, text] of Object.entries(files)) {
    const name = moduleOf(file);
    if (name !== null) modules.set(name, { file, text });
  }
  const graph = new Map([...modules.keys()].map((m) => [m, new Map()]));
  for (const [name, { file, text }] of modules) {
    const code = codeOnly(text);
    const here = name.split("::");
    for (const m of code.matchAll(/(?<![\w$])(crate|super)(?=\s*::)/g)) {
      // The absolute segments the path starts from, then the tree after it.
      let base = m[1] === "crate" ? [] : here.slice(0, -1);
      let at = m.index + m[0].length;
      at = code.indexOf("::", at) + 2;
      for (;;) {
        const more = /^\s*super\s*::/.exec(code.slice(at, at + 40));
        if (!more) break;
        base = base.slice(0, -1);
        at += more[0].length;
      }
      const line = code.slice(0, m.index).split("\n").length;
      for (const path of expandTree(code, at)) {
        const target = resolve([...base, ...path], modules);
        const isDescendant = target !== null && (target + "::").startsWith(name + "::");
        if (target !== null && !isDescendant && !graph.get(name).has(target)) {
          graph.get(name).set(target, `${file}:${line}`);
        }
      }
      // `super` alone (`use super::*;`, `super::Thing` where Thing is no module) still names the parent.
    }
  }
  return graph;
}

/** The longest prefix of `segments` that is a module, or null (the crate root). */
function resolve(segments, modules) {
  for (let k = segments.length; k > 0; k--) {
    const candidate = segments.slice(0, k).join("::");
    if (modules.has(candidate)) return candidate;
  }
  return null;
}

/**
 * Every cycle of the graph, one per strongly connected part: `path`, a
 * shortest cycle [a, b, …, a] with the reference behind each step, and
 * `modules`, all the modules of the part (each reaches every other).
 */
export function cycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const parts = [];
  const strongConnect = (v) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v).keys()) {
      if (!index.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const part = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) parts.push(part);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) strongConnect(v);
  return parts.map((part) => ({ path: shortestCycle(graph, new Set(part)), modules: part.sort() }));
}

/** A shortest cycle through the part's first module (by name), inside the part. */
function shortestCycle(graph, part) {
  const start = [...part].sort()[0];
  const previous = new Map();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of [...graph.get(v).keys()].sort()) {
      if (!part.has(w) || previous.has(w)) continue;
      previous.set(w, v);
      if (w === start) queue.length = 0;
      else queue.push(w);
      if (w === start) break;
    }
  }
  const path = [start];
  for (let v = previous.get(start); v !== start; v = previous.get(v)) path.unshift(v);
  path.unshift(start);
  return path.map((m, k) => (k === path.length - 1 ? m : `${m} (${graph.get(m).get(path[k + 1])})`));
}

/** The .rs files under a crate's src/, as { "path/under/src.rs": text }. */
export function readCrate(dir) {
  const src = join(dir, "src");
  const files = {};
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".rs")) files[relative(src, path).split(sep).join("/")] = readFileSync(path, "utf8");
    }
  };
  walk(src);
  return files;
}

/** Every crate of the workspace: crates/* with a Cargo.toml and a src/. */
function crates() {
  const dir = join(cratesRoot, "crates");
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, "Cargo.toml")) && existsSync(join(dir, name, "src")))
    .sort();
}

const FAKE = {
  "lib.rs": "mod a;\nmod b;\nmod c;\nmod d;\npub use a::A;\n",
  "a.rs": "use crate::b::B; // crate::c::C in a comment\nconst S: &str = \"crate::d\";\n",
  "b.rs": "use crate::{\n    c::{self, C as See},\n    d::*,\n};\n",
  "c.rs": "pub struct C;\nfn f<'a>(x: &'a str) -> char { '\"' }\n",
  "d/mod.rs": "mod e;\npub use self::e::E;\nuse crate::d::e::Inner;\n",
  "d/e.rs": "use super::super::c::C;\nuse super::Vocabulary;\n",
};

test("the graph follows crate:: and super:: paths, use groups and renames, but not comments, strings or containment", () => {
  const edges = Object.fromEntries([...moduleGraph(FAKE)].map(([m, to]) => [m, [...to.keys()].sort()]));
  assert.deepEqual(edges, { a: ["b"], b: ["c", "d"], c: [], d: [], "d::e": ["c", "d"] });
  assert.deepEqual(cycles(moduleGraph(FAKE)), []);
});

test("a cycle is found and named with the reference behind each step, in a crate read from disk", () => {
  const dir = mkdtempSync(join(tmpdir(), "queuelab-cycles-"));
  try {
    const files = { ...FAKE, "c.rs": "use crate::a::helper;\n" };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, "src", file)), { recursive: true });
      writeFileSync(join(dir, "src", file), text);
    }
    const found = cycles(moduleGraph(readCrate(dir)));
    assert.deepEqual(found, [{ path: ["a (a.rs:1)", "b (b.rs:1)", "c (c.rs:1)", "a"], modules: ["a", "b", "c"] }]);
  } finally {
    rmSync(dir, { recursive: true });
  }
  // A child using its parent, whose file reaches the child through another module, is a cycle too.
  const parent = { ...FAKE, "c.rs": "use crate::d::e::E;\n" };
  assert.deepEqual(cycles(moduleGraph(parent)), [{ path: ["c (c.rs:1)", "d::e (d/e.rs:1)", "c"], modules: ["c", "d::e"] }]);
});

test("no module of any crate reaches itself through the modules it uses", () => {
  const names = crates();
  assert.ok(names.includes("engine") && names.includes("simulation"), `found ${names}`);
  const found = [];
  for (const name of names) {
    const files = readCrate(join(cratesRoot, "crates", name));
    for (const { path, modules } of cycles(moduleGraph(files))) {
      const all = modules.length + 1 > path.length ? ` (all of ${modules.join(", ")} reach each other)` : "";
      found.push(`crates/${name}: ${path.join(" -> ")}${all}`);
    }
  }
  assert.deepEqual(found, [], `import cycles (break each by moving what both sides need into a module of its own):\n${found.join("\n")}`);
});
