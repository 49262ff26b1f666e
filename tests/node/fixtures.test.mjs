// The scripted sessions of tests/fixtures/scripts, run in wasm: they must
// produce exactly the responses, events and snapshots the native run
// recorded in NAME.expected.json (same seed, same calls, same bytes).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Playground } from "./load.mjs";

const dir = fileURLToPath(new URL("../fixtures/scripts/", import.meta.url));
const scripts = readdirSync(dir).filter((f) => f.endsWith(".json") && !f.endsWith(".expected.json"));

/** Replaces "$N.path" strings with fields of earlier response bodies. */
function resolve(value, responses) {
  if (typeof value === "string" && value.startsWith("$")) {
    const [step, ...path] = value.slice(1).split(".");
    return path.reduce((v, key) => v?.[key], responses[Number(step)].body);
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, responses));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, responses)]));
  }
  return value;
}

async function run(script) {
  const pg = new Playground({ seed: script.seed ?? 0 });
  const responses = [];
  for (const step of script.steps) {
    if (step.advance !== undefined) {
      pg.advance(step.advance);
      responses.push({ advance: step.advance });
    } else {
      const index = responses.length;
      responses.push("waiting");
      const body = JSON.stringify(resolve(step.body, responses));
      pg.dispatch(`AmazonSQS.${step.call}`, body, step.caller ? { caller: step.caller } : undefined).then((res) => {
        responses[index] = { status: res.status, body: JSON.parse(res.body) };
      });
    }
    // Let resolved promises record their answers before the next step.
    await new Promise((r) => setImmediate(r));
  }
  // The native expectation is the engine's snapshot; the wasm one adds the
  // (here empty) scenario part beside it.
  const { simulation, ...snapshot } = pg.snapshot();
  return { responses, events: pg.events(0), snapshot };
}

for (const file of scripts) {
  test(`scripted session ${file} gives the native build's exact responses, events and snapshot`, async () => {
    const script = JSON.parse(readFileSync(dir + file, "utf8"));
    const expected = JSON.parse(readFileSync(dir + file.replace(/\.json$/, ".expected.json"), "utf8"));
    const actual = await run(script);
    assert.deepStrictEqual(actual.responses, expected.responses);
    assert.deepStrictEqual(actual.events, expected.events);
    assert.deepStrictEqual(actual.snapshot, expected.snapshot);
  });
}
