// Check my fix in wasm (`checkLab(text, settings)`): the same reports as
// the native check (tests/fixtures/labs, written by crates/simulation/
// tests/labs.rs), and settings refused with their knob's rule at
// `settings.<id>`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import "./load.mjs";
import { checkLab } from "../../web/pkg/queuelab.js";

const labs = new URL("../../web/scenarios/labs/", import.meta.url);
const fixtures = new URL("../fixtures/labs/", import.meta.url);
const files = JSON.parse(readFileSync(new URL("index.json", labs), "utf8"));
const text = (file) => readFileSync(new URL(file, labs), "utf8");

test("checkLab answers the native check's report for every lab, fix and non-fix", () => {
  assert.ok(files.length >= 4, files.join(", "));
  for (const file of files) {
    const expected = JSON.parse(readFileSync(new URL(file, fixtures), "utf8"));
    for (const { case: name, settings, report } of expected) {
      assert.deepEqual(checkLab(text(file), settings), report, `${file}: ${name}`);
    }
  }
});

test("checkLab with no settings checks the lab's own (broken) settings", () => {
  const report = checkLab(text(files[0]));
  assert.equal(report.met, false);
  assert.deepEqual(report.seeds, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  assert.equal(report.failures[0].seed, 1);
  assert.match(report.failures[0].message, /^with seed 1, order A-\d+ was charged twice at t = [\d.]+ s/);
});

test("a setting outside its knob throws an Error with the knob's path and rule", () => {
  const lab = text("01-duplicate-orders.json");
  assert.throws(
    () => checkLab(lab, { visibility: 0 }),
    (e) =>
      e instanceof Error &&
      e.message === "invalid settings: settings.visibility must be a whole number of seconds from 1 to 180, got 0" &&
      e.path === "settings.visibility" &&
      e.rule === "a whole number of seconds from 1 to 180",
  );
  assert.throws(() => checkLab(lab, { colour: 1 }), /settings\.colour must be the id of one of this lab's knobs \(visibility, heartbeat, heartbeatVisibility, idempotent\)/);
  assert.throws(() => checkLab(lab, { visibility: "ten" }), /^Error: invalid settings: settings\.visibility must be a whole number of seconds from 1 to 180, got "ten"$/);
  assert.throws(() => checkLab(lab, { visibility: [1] }), /^TypeError: checkLab: settings must be an object of knob values by knob id/);
  assert.throws(() => checkLab(lab, 5), TypeError);
});

test("a scenario without a goal is not a lab", () => {
  const plain = readFileSync(new URL("../../web/scenarios/02-slow-consumer-duplicate.json", import.meta.url), "utf8");
  assert.throws(() => checkLab(plain, {}), /^Error: not a lab: goal must be given/);
  assert.throws(() => checkLab("{", {}), /invalid scenario/);
});
