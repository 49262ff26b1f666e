// docs/scenario-format.md cannot fall behind the scenario JSON Schema:
// every property and enum value anywhere in the schema (definitions, array
// items, oneOf/anyOf branches, ...) must be named in the reference in
// backticks, and the reference's examples must be valid scenarios (and
// equal to the shipped files they say they are copied from).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import Ajv from "ajv";

const root = new URL("../../", import.meta.url);
const schema = JSON.parse(readFileSync(new URL("web/scenarios/scenario.schema.json", root), "utf8"));
const doc = readFileSync(new URL("docs/scenario-format.md", root), "utf8");

// Keywords whose value is one subschema, an array of subschemas, or a map
// of name -> subschema (draft-07 and 2019-09/2020-12).
const ONE = ["items", "additionalItems", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "propertyNames", "contains", "not", "if", "then", "else"];
const MANY = ["allOf", "anyOf", "oneOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "definitions", "$defs", "dependentSchemas"];
// Keywords that hold no subschema.
const LEAF = [
  "$schema", "$id", "$ref", "$comment", "$anchor", "title", "description", "type", "required", "enum", "const",
  "default", "examples", "format", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "multipleOf", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
  "dependentRequired", "readOnly", "writeOnly", "deprecated", "contentMediaType", "contentEncoding",
];
const KNOWN = new Set([...ONE, ...MANY, ...MAP, ...LEAF, "dependencies"]);

/**
 * Walks the schema, collecting property names and string enum/const values
 * with the path where each appears. A keyword the walker does not know
 * fails the walk, so a new way of nesting subschemas cannot be skipped.
 */
function walk(node, path, found) {
  if (typeof node !== "object" || node === null) return; // `true`/`false` schemas
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}/${key}`;
    if (!KNOWN.has(key)) throw new Error(`${at}: schema keyword "${key}" is unknown to this test; teach walk() about it`);
    if (key === "properties") for (const name of Object.keys(value)) found.push({ name, kind: "property", at: `${at}/${name}` });
    if (key === "enum") for (const v of value) if (typeof v === "string") found.push({ name: v, kind: "enum value", at });
    if (key === "const" && typeof value === "string") found.push({ name: value, kind: "const value", at });
    if (ONE.includes(key)) {
      if (Array.isArray(value)) value.forEach((s, i) => walk(s, `${at}/${i}`, found)); // draft-07 tuple `items`
      else walk(value, at, found);
    } else if (MANY.includes(key)) value.forEach((s, i) => walk(s, `${at}/${i}`, found));
    else if (MAP.includes(key)) for (const [k, s] of Object.entries(value)) walk(s, `${at}/${k}`, found);
    else if (key === "dependencies") for (const [k, s] of Object.entries(value)) if (!Array.isArray(s)) walk(s, `${at}/${k}`, found);
  }
  return found;
}

/** The contents of every inline code span (`...`) in the Markdown, outside fenced blocks. */
function codeSpans(markdown) {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, "");
  const spans = new Set();
  for (const m of prose.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)) spans.add(m[2].trim());
  return spans;
}

/** A name is documented when a code span is exactly it, or it in double quotes. */
const documented = (spans, name) => spans.has(name) || spans.has(`"${name}"`);

const found = walk(schema, "#", []);
const spans = codeSpans(doc);

test("the walker reaches every level of the schema", () => {
  const names = new Set(found.map((f) => f.name));
  // One from each kind of nesting: top level, a definition, array items
  // inside a definition, an object inside an object, oneOf branches and the
  // objects inside them, inline items of a top-level array, and an enum.
  for (const name of ["durationMs", "visibilityTimeoutSeconds", "atMs", "maxReceiveCount", "fixedMs", "uniformMs", "min", "mean", "threshold", "alarmStatistic", "messageGroup"]) {
    assert.ok(names.has(name), `walk() did not find "${name}" in the schema`);
  }
});

test("every schema property and enum value is documented in docs/scenario-format.md", () => {
  const missing = found.filter((f) => !documented(spans, f.name));
  assert.deepEqual(
    missing.map((f) => `${f.kind} \`${f.name}\` (${f.at})`),
    [],
    "docs/scenario-format.md must name these in backticks, e.g. in its field tables",
  );
});

/** The ```json blocks of the reference that are whole scenarios, with the file each says it copies. */
function examples(markdown) {
  const out = [];
  for (const m of markdown.matchAll(/(?:<!--\s*example:\s*(\S+)\s*-->\s*\n)?```json\n([\s\S]*?)\n```/g)) {
    const value = JSON.parse(m[2]);
    if (value && typeof value === "object" && "title" in value && "queues" in value) out.push({ file: m[1], text: m[2], value });
  }
  return out;
}

const docExamples = examples(doc);
const validate = new Ajv({ allErrors: true }).compile(schema);

test("the reference has examples, and each copied one names its file", () => {
  assert.ok(docExamples.length >= 2, "expected at least a minimal and a richer example");
  assert.ok(docExamples.filter((e) => e.file).length >= 2, "expected at least two examples taken from web/scenarios/");
});

for (const [i, ex] of docExamples.entries()) {
  const label = ex.file ?? `example ${i + 1} (“${ex.value.title}”)`;
  test(`${label} in the reference matches the schema`, () => {
    assert.ok(validate(ex.value), JSON.stringify(validate.errors));
  });
  if (ex.file) {
    test(`the reference's copy of ${ex.file} equals the file`, () => {
      const file = JSON.parse(readFileSync(new URL(ex.file, root), "utf8"));
      assert.deepEqual(ex.value, file, `docs/scenario-format.md shows an out-of-date copy of ${ex.file}`);
    });
  }
}

const built = existsSync(new URL("web/pkg/queuelab_bg.wasm", root));
test("the reference's examples load and run in the engine", { skip: !built && "web/pkg is not built" }, async () => {
  const { Playground } = await import("./load.mjs");
  for (const ex of docExamples) {
    const pg = Playground.fromScenario(ex.text);
    pg.advance(ex.value.durationMs);
    const failed = pg.events(0).filter((e) => e.type === "actionFailed");
    pg.free();
    assert.deepEqual(failed, [], `${ex.file ?? ex.value.title}: calls failed while it ran`);
  }
});
