// The page's layers, held: every module under web/ (but the wasm build) is
// parsed with acorn, its imports (static, re-exports and literal dynamic
// ones) are resolved to files, and each import must be one its folder's row
// of LAYERS allows. The table below is the one statement of the rules; the
// sentence beside each row says why. Views are also held apart from each
// other: a view (every module web/lab/views.js lists, and every file under
// web/views/) imports no other view; what one view needs from another
// comes from derive's record or a part the lab owns and hands it at mount.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "acorn";
import { simple } from "acorn-walk";

const root = fileURLToPath(new URL("../../", import.meta.url));
const web = join(root, "web");

/**
 * Folder -> the folders its modules may import ("." is web/'s own files,
 * the public entry points), `dom: false` where no DOM global may be named,
 * `viewsOnlyIn` the one file of the folder that may name views.
 */
export const LAYERS = {
  engine: { may: ["engine", "pkg"], why: "loading the wasm and containing its traps is the bottom floor: it knows nothing of what is drawn" },
  client: { may: ["client"], why: "the SQS client and the SDK adapter are published on their own (queuelab/client, queuelab/sdk): they stand alone" },
  text: { may: ["text", "engine"], dom: false, why: "words are computed, not drawn: the engine's vocabulary in, strings out, testable in Node" },
  run: { may: ["run", "engine", "text"], dom: false, why: "a run is headless (Run, derive, history, slicer): Node tests and other hosts drive it with no page" },
  ui: { may: ["ui", "text"], why: "DOM helpers are the views' toolbox: one that reached up into a view, the lab or the page would tie the toolbox to one of its users" },
  views: { may: ["ui", "text", "run", "engine", "client"], why: "a view draws what derive hands it and asks the lab through its context: it never reaches the lab, the page or another view" },
  lab: { may: ["lab", "views", "ui", "text", "run", "engine"], viewsOnlyIn: "lab/views.js", why: "the lab composes a run, its clock and its views (named in its list of views alone: its parts see a view only as { mount }); it never knows the page that hosts it" },
  examples: { may: [], dom: false, why: "a course's example code is text the code cell runs in its own scope: it imports nothing and draws nothing" },
  page: { may: ["page", "lab", "views", "ui", "text", "run", "engine", "client", "examples", "."], why: "the full page is the top floor: it hosts labs and may use anything below, the course's example code among it" },
  ".": { may: ["lab", "views", "ui", "text", "run", "engine", "client", "."], why: "the element (queue-lab.js) is a host like the page, and is no part of it: the page is not below it" },
};


/** DOM globals a no-DOM folder may not name. */
const DOM_GLOBALS = new Set(["document", "window", "customElements", "HTMLElement", "getComputedStyle", "matchMedia"]);

/** Names a view may not use: making a Playground or starting a check is starting an engine run, which the lab owns. */
const RUN_STARTERS = new Set(["Playground", "startCheck"]);

function* jsFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== join(web, "pkg")) yield* jsFiles(path);
    } else if (entry.name.endsWith(".js") && !entry.name.endsWith(".min.js")) yield path;
  }
}

/** A path under web/ ("run/run.js", "queue-lab.js") and its folder ("run", "."). */
const under = (path) => relative(web, path).split(sep).join("/");
const folderOf = (rel) => (rel.includes("/") ? rel.split("/")[0] : ".");

/**
 * What a module's source uses: `imports` [{ from, line, names }] (relative
 * specifiers only: bare ones are virtual modules of the one-file build),
 * `identifiers` the free-looking names it reads ({ name, line }), and
 * `properties` the member names it reads.
 */
export function usesOf(source) {
  const ast = parse(source, { ecmaVersion: "latest", sourceType: "module", locations: true });
  const imports = [];
  const add = (node, names = []) => {
    const from = node.source?.value;
    if (typeof from === "string" && from.startsWith(".")) imports.push({ from, line: node.loc.start.line, names });
  };
  const identifiers = [];
  const properties = [];
  simple(ast, {
    ImportDeclaration: (n) => add(n, n.specifiers.map((s) => s.local.name)),
    ExportNamedDeclaration: (n) => add(n),
    ExportAllDeclaration: (n) => add(n),
    ImportExpression: (n) => n.source.type === "Literal" && add(n),
    Identifier: (n) => identifiers.push({ name: n.name, line: n.loc.start.line }),
    MemberExpression: (n) => !n.computed && properties.push({ name: n.property.name, line: n.loc.start.line }),
  });
  return { ast, imports, identifiers, properties };
}

/** Every module under web/ as Map(rel -> { folder, imports: [{ to (rel), line, names }], uses }). */
function readWeb() {
  const modules = new Map();
  for (const file of jsFiles(web)) {
    const rel = under(file);
    const uses = usesOf(readFileSync(file, "utf8"));
    const imports = uses.imports.map((i) => ({ ...i, to: under(resolve(dirname(file), i.from)) }));
    modules.set(rel, { folder: folderOf(rel), imports, uses });
  }
  return modules;
}

/** The modules lab/views.js lists in VIEWS, by the file each name is imported from. */
function listedViews(modules) {
  const list = modules.get("lab/views.js");
  const byName = new Map(list.imports.flatMap((i) => i.names.map((n) => [n, i.to])));
  const listed = [];
  simple(list.uses.ast, {
    VariableDeclarator: (n) => {
      if (n.id.name === "VIEWS") for (const el of n.init.elements) listed.push(byName.get(el.name));
    },
  });
  return listed.filter(Boolean);
}

/** Where a view's `mount(root, lab)` writes into the context it was handed (`lab.stage = view`), as [{ name, line }]. */
function contextWrites(ast) {
  const writes = [];
  simple(ast, {
    Property(n) {
      if (n.key.name !== "mount" || n.value.type !== "FunctionExpression" || n.value.params[1]?.type !== "Identifier") return;
      const ctx = n.value.params[1].name;
      simple(n.value.body, {
        AssignmentExpression(a) {
          if (a.left.type === "MemberExpression" && a.left.object.type === "Identifier" && a.left.object.name === ctx) writes.push({ name: `${ctx}.${a.left.property.name ?? "[…]"}`, line: a.loc.start.line });
        },
      });
    },
  });
  return writes;
}

/** Every import, DOM use or run start the rules forbid, as "file:line what (why)". */
export function breaches(modules) {
  const out = [];
  const views = new Set([...listedViews(modules), ...[...modules.keys()].filter((rel) => rel.startsWith("views/"))]);
  for (const [rel, m] of modules) {
    const row = LAYERS[m.folder];
    if (!row) {
      out.push(`${rel}: folder ${m.folder}/ has no row in LAYERS (add one, with why)`);
      continue;
    }
    for (const i of m.imports) {
      const to = folderOf(i.to);
      const at = `${rel}:${i.line} imports ${i.to}`;
      if (views.has(rel) && views.has(i.to)) out.push(`${at}: a view imports no other view (what it needs comes from derive or a part the lab owns; a drawing helper two views share lives in ui/)`);
      else if (!row.may.includes(to)) out.push(`${at}: ${m.folder}/ may import only ${row.may.join(", ")} (${row.why})`);
      else if (to === "views" && row.viewsOnlyIn && rel !== row.viewsOnlyIn) out.push(`${at}: in ${m.folder}/, only ${row.viewsOnlyIn} names views (logic a view file holds moves down into run/ or lab/)`);
    }
    if (row.dom === false) {
      for (const id of m.uses.identifiers) if (DOM_GLOBALS.has(id.name)) out.push(`${rel}:${id.line} names ${id.name}: ${m.folder}/ has no DOM (${row.why})`);
    }
    if (views.has(rel)) {
      for (const w of contextWrites(m.uses.ast)) out.push(`${rel}:${w.line} sets ${w.name} on the lab's context: views talk to each other through nothing (a lab-owned part or derive carries what one needs)`);
      const imported = m.imports.flatMap((i) => i.names.map((name) => ({ name, line: i.line })));
      const named = [...imported, ...m.uses.identifiers, ...m.uses.properties].filter((x) => RUN_STARTERS.has(x.name));
      for (const x of named) out.push(`${rel}:${x.line} names ${x.name}: a view starts no engine run (the lab owns runs: lab/copies.js, lab/goal.js)`);
    }
  }
  return out.sort();
}

const fake = (files) => new Map(Object.entries(files).map(([rel, src]) => {
  const uses = usesOf(src);
  const imports = uses.imports.map((i) => ({ ...i, to: under(resolve(dirname(join(web, rel)), i.from)) }));
  return [rel, { folder: folderOf(rel), imports, uses }];
}));

test("the rules catch each kind of breach in a made-up web/", () => {
  const found = breaches(fake({
    "lab/views.js": 'import { a } from "../views/a.js";\nimport { g } from "../ui/g.js";\nexport const VIEWS = [a, g];\n',
    "lab/lab.js": 'import { helper } from "../views/a.js";\n',
    "views/a.js": 'import { b } from "./b.js";\nimport { g } from "../ui/g.js";\nimport { main } from "../page/main.js";\nnew Playground();\nexport const a = { mount(root, lab) { lab.stage = 1; } };\n',
    "views/b.js": "export const b = 1;\n",
    "ui/g.js": 'import { x } from "../lab/x.js";\n',
    "run/r.js": 'import { h } from "../ui/dom.js";\nconst w = window.innerWidth;\nexport const f = (o) => o.document;\n',
    "text/t.js": 'import { makeGlue } from "queuelab:glue";\ndocument.title = "x";\n',
    "engine/e.js": 'export * from "../run/r.js";\n',
    "page/main.js": 'import("../lab/lab.js");\n',
  }));
  assert.deepEqual(found.map((b) => b.split(": ")[0]), [
    "engine/e.js:1 imports run/r.js",
    "lab/lab.js:1 imports views/a.js",
    "run/r.js:1 imports ui/dom.js",
    "run/r.js:2 names window",
    "text/t.js:2 names document",
    "ui/g.js:1 imports lab/x.js",
    "views/a.js:1 imports views/b.js",
    "views/a.js:2 imports ui/g.js",
    "views/a.js:3 imports page/main.js",
    "views/a.js:4 names Playground",
    "views/a.js:5 sets lab.stage on the lab's context",
  ]);
});

test("web/ keeps its layers: run/ and text/ draw nothing, views import no view, nothing below page/ imports it", () => {
  const modules = readWeb();
  assert.ok(modules.size > 40 && modules.has("run/run.js") && modules.has("lab/lab.js"), `read ${modules.size} modules`);
  const found = breaches(modules);
  assert.deepEqual(found, [], `layers crossed:\n${found.join("\n")}`);
});
