// The documents a newcomer reads stay true to the tree: every file path
// README.md and ARCHITECTURE.md name exists, every link between the
// documents lands on a file (and a heading, when it names one), and
// ARCHITECTURE.md's code map names every crate, every top-level folder and
// every folder of the page. A path exists when git tracks it (a file, or a
// folder holding tracked files) or when git ignores it: a build output such
// as `web/pkg/` or `dist/queuelab.js`, which a fresh clone does not have yet.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, posix } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv from "ajv";

const root = fileURLToPath(new URL("../../", import.meta.url));
const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" });
const tracked = git("ls-files", "-z").split("\0").filter(Boolean);
const trackedSet = new Set(tracked);
const folders = new Set(tracked.flatMap((f) => f.split("/").slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join("/"))));
const basenames = new Set(tracked.map((f) => posix.basename(f)));
const read = (path) => readFileSync(`${root}${path}`, "utf8");
const docs = tracked.filter((f) => /^docs\/[^/]+\.md$/.test(f));

const topLevel = new Set(tracked.map((f) => f.split("/")[0]));
const FILE_NAME = /^[\w.-]+\.(rs|js|mjs|d\.ts|ts|json|jsonl|md|css|html|sh|toml|png|txt)$/;

function ignored(path) {
  try {
    git("check-ignore", "-q", "--no-index", path);
    return true;
  } catch {
    return false;
  }
}

/** Whether `path` (relative to the repository, no leading ./) is in the tree or is a build output. */
function exists(path) {
  const clean = path.replace(/\/$/, "");
  if (clean.includes("*")) {
    const pattern = new RegExp(`^${clean.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^/]*")}$`);
    return tracked.some((f) => pattern.test(f)) || [...folders].some((f) => pattern.test(f));
  }
  return trackedSet.has(clean) || folders.has(clean) || ignored(clean);
}

/** The backticked tokens and link targets of a Markdown text, outside fenced blocks for tokens. */
function tokens(text) {
  const prose = text.replace(/```[\s\S]*?```/g, "");
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1].trim());
}
function links(text) {
  return [...text.replace(/```[\s\S]*?```/g, "").matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

/** A token names a repository path when its first segment is a top-level entry; placeholders are skipped. */
function repoPath(token) {
  if (/[<>{}\s]|NN|\.\.\./.test(token)) return null;
  const path = token.replace(/^\.\//, "").replace(/[,.:;]$/, "").replace(/#.*$/, "");
  if (!/^[\w.\-/*]+$/.test(path)) return null;
  return topLevel.has(path.split("/")[0]) ? path : null;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
const anchors = (text) => new Set(text.replace(/```[\s\S]*?```/g, "").split("\n").filter((l) => /^#{1,6}\s/.test(l)).map((l) => slug(l.replace(/^#+\s/, "").replace(/`/g, ""))));

function missingIn(doc) {
  const text = read(doc);
  const missing = [];
  const front = doc === "README.md" || doc === "ARCHITECTURE.md";
  for (const token of tokens(text)) {
    const path = repoPath(token);
    if (path && !exists(path)) missing.push(`\`${token}\``);
    // A bare file name is checked in the two front documents, where every one is meant as a file.
    else if (front && !path && FILE_NAME.test(token) && !basenames.has(token) && !ignored(token)) missing.push(`\`${token}\` (no such file anywhere)`);
  }
  for (const target of links(text)) {
    if (/^[a-z]+:/i.test(target)) continue;
    const [file, anchor] = target.split("#");
    const path = file ? posix.normalize(posix.join(dirname(doc) === "." ? "" : dirname(doc), file)) : doc;
    if (file && !exists(path)) missing.push(`link ${target}`);
    else if (anchor && path.endsWith(".md") && !anchors(read(path)).has(anchor)) missing.push(`link ${target} (no such heading)`);
  }
  return missing;
}

test("every file path README.md names exists, and every link it makes lands", () => {
  assert.deepEqual(missingIn("README.md"), []);
});

test("every file path ARCHITECTURE.md names exists, and every link it makes lands", () => {
  assert.deepEqual(missingIn("ARCHITECTURE.md"), []);
});

test("every repository path a document in docs/ names exists, and every link it makes lands", () => {
  for (const doc of docs) assert.deepEqual(missingIn(doc), [], doc);
});

test("ARCHITECTURE.md's code map names every crate, every top-level folder and every folder of the page", () => {
  const text = read("ARCHITECTURE.md");
  const start = text.indexOf("\n## Code map");
  assert.ok(start >= 0, "ARCHITECTURE.md has a \"## Code map\" section");
  const end = text.indexOf("\n## ", start + 1);
  const named = new Set(tokens(text.slice(start, end < 0 ? undefined : end)).map((t) => t.replace(/\/$/, "")));
  const crates = [...folders].filter((f) => /^crates\/[^/]+$/.test(f));
  const top = [...folders].filter((f) => !f.includes("/"));
  const webFolders = [...folders].filter((f) => /^web\/[^/]+$/.test(f) || (f.startsWith("web/") && tracked.some((t) => posix.dirname(t) === f && t.endsWith(".js"))));
  assert.ok(crates.includes("crates/simulation"), "the tree is read");
  const unnamed = [...crates, ...top, ...webFolders].filter((f) => !named.has(f));
  assert.deepEqual(unnamed, [], "the code map names each of these as a backticked path (`crates/engine/`)");
});

test("README.md stays a front door: at most about 250 lines, its two commands (the test command the one CI runs), no issue numbers", () => {
  const text = read("README.md");
  const lines = text.split("\n").length;
  assert.ok(lines <= 260, `README.md has ${lines} lines`);
  const commands = text.match(/## Two commands\n[\s\S]*?```sh\n([\s\S]*?)```/);
  assert.ok(commands, "README.md has a \"Two commands\" section with a sh block");
  const ci = read(".ci/run").match(/^exec (\S+)/m);
  assert.ok(ci, ".ci/run execs one command");
  assert.ok(commands[1].includes(ci[1]), `the README's commands include CI's ${ci[1]}`);
  assert.ok(commands[1].includes("./scripts/serve.sh"));
  assert.deepEqual(text.match(/\b(issue|session)s? \d+/gi) ?? [], []);
});

test("the user documents speak of the product, not of its issues", () => {
  for (const doc of ["README.md", ...docs]) {
    assert.deepEqual(read(doc).match(/\b(issue|session)s? \d+/gi) ?? [], [], doc);
  }
});

test("README.md's scenario in one look is a valid scenario, each of its fields copied from the shipped file it names", () => {
  const text = read("README.md");
  const block = text.match(/```json\n([\s\S]*?)\n```/);
  assert.ok(block, "README.md shows a scenario");
  const shown = JSON.parse(block[1]);
  const schema = JSON.parse(read("web/scenarios/scenario.schema.json"));
  const validate = new Ajv({ allErrors: true }).compile(schema);
  assert.ok(validate(shown), JSON.stringify(validate.errors));
  const file = tracked.find((f) => /^web\/scenarios\/\d+-[^/]+\.json$/.test(f) && JSON.parse(read(f)).title === shown.title);
  assert.ok(file, `a shipped scenario is titled "${shown.title}"`);
  const shipped = JSON.parse(read(file));
  for (const [key, value] of Object.entries(shown)) assert.deepEqual(value, shipped[key], `${key} as in ${file}`);
});
