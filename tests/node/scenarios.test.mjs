// The shipped scenarios and their JSON Schema agree, and the engine accepts
// every file the schema accepts. (What the schema rejects, the engine
// rejects naming the field: schema-violations.test.mjs.)
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
