// The shipped scenarios and their JSON Schema agree, and the engine accepts
// every file the schema accepts (and names what is wrong in one it rejects).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import Ajv from "ajv";
import { Playground } from "./load.mjs";

const dir = new URL("../../web/scenarios/", import.meta.url);
const schema = JSON.parse(readFileSync(new URL("scenario.schema.json", dir), "utf8"));
const validate = new Ajv({ allErrors: true }).compile(schema);
const files = readdirSync(dir).filter((f) => /^\d\d-.*\.json$/.test(f));

for (const file of files) {
  test(`${file} matches the scenario schema and loads`, () => {
    const text = readFileSync(new URL(file, dir), "utf8");
    assert.ok(validate(JSON.parse(text)), JSON.stringify(validate.errors));
    const pg = Playground.fromScenario(text);
    assert.ok(pg.snapshot().queues.length > 0);
    pg.free();
  });
}

test("the schema and the engine reject the same unknown field", () => {
  const bad = { title: "t", durationMs: 1, queues: [{ name: "q", visibilityTimeout: 5 }] };
  assert.equal(validate(bad), false);
  assert.throws(() => Playground.fromScenario(JSON.stringify(bad)), /unknown field `visibilityTimeout`/);
});
