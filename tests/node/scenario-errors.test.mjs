// A scenario that cannot run says why in plain words, and where: the
// Error from Playground.fromScenario carries the field's path, what the
// field must be (rule) and its line, for the page to show it beside the
// field or the editor line (web/views/panels/settings.js). The words are the binding's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import "./load.mjs";
import { Playground } from "../../web/engine/engine.js";

const DUP = JSON.parse(readFileSync(new URL("../../web/scenarios/02-slow-consumer-duplicate.json", import.meta.url), "utf8"));
const refusal = (text) => {
  try {
    Playground.fromScenario(text).free();
  } catch (e) {
    return e;
  }
  assert.fail("the scenario ran");
};
const withConsumer = (change) => {
  const s = structuredClone(DUP);
  Object.assign(s.consumers[0], change);
  return JSON.stringify(s, null, 2);
};
const lineOf = (text, needle) => text.slice(0, text.indexOf(needle)).split("\n").length;

test("a batch size of 2.5 says it must be a whole number from 1 to 10, never serde's 'invalid type'", () => {
  const text = withConsumer({ batchSize: 2.5 });
  const e = refusal(text);
  assert.equal(e.path, "consumers[0].batchSize");
  assert.equal(e.rule, "a whole number from 1 to 10");
  assert.equal(e.line, lineOf(text, '"batchSize"'));
  assert.doesNotMatch(e.message, /invalid type|expected i64/);
  assert.match(e.message, /consumers\[0\]\.batchSize must be a whole number from 1 to 10, got 2\.5/);
});

test("a batch size of 11 is refused by Scenario::validate with its path, rule and line", () => {
  const text = withConsumer({ batchSize: 11 });
  const e = refusal(text);
  assert.equal(e.path, "consumers[0].batchSize");
  assert.equal(e.rule, "a whole number from 1 to 10");
  assert.equal(e.line, lineOf(text, '"batchSize"'));
  assert.match(e.message, /^invalid scenario: line \d+ column \d+: consumers\[0\]\.batchSize must be a whole number from 1 to 10, got 11$/);
});

test("a negative processing time and a text wait time say what the field takes", () => {
  const neg = refusal(withConsumer({ processing: { fixedMs: -5 } }));
  assert.equal(neg.path, "consumers[0].processing.fixedMs");
  assert.match(neg.rule, /^a whole number of milliseconds from 0 to /);
  const text = refusal(withConsumer({ waitTimeSeconds: "ten" }));
  assert.equal(text.path, "consumers[0].waitTimeSeconds");
  assert.equal(text.rule, "a whole number of seconds from 0 to 20");
  const flag = refusal(withConsumer({ behaviour: { idempotent: "yes" } }));
  assert.equal(flag.path, "consumers[0].behaviour.idempotent");
  assert.equal(flag.rule, "true or false");
});

test("a queue setting out of range, or a fraction, says the engine's range in words with its path and line", () => {
  const withQueue = (change) => {
    const s = structuredClone(DUP);
    Object.assign(s.queues[0], change);
    return JSON.stringify(s, null, 2);
  };
  for (const value of [50000, 2.5]) {
    const text = withQueue({ visibilityTimeoutSeconds: value });
    const e = refusal(text);
    assert.equal(e.path, "queues[0].visibilityTimeoutSeconds");
    assert.equal(e.rule, "a whole number of seconds from 0 to 43200 (12 hours), the range SQS allows for VisibilityTimeout");
    assert.equal(e.line, lineOf(text, '"visibilityTimeoutSeconds"'));
    assert.doesNotMatch(e.message, /Invalid value for the parameter|invalid type/);
    assert.match(e.message, new RegExp(`queues\\[0\\]\\.visibilityTimeoutSeconds must be a whole number of seconds from 0 to 43200 \\(12 hours\\), the range SQS allows for VisibilityTimeout, got ${value}`));
  }
});

test("bad JSON names its line and column and says it is not valid JSON", () => {
  const e = refusal('{\n  "title": "x",\n  "queues": [\n');
  assert.equal(e.line, 4);
  assert.equal(e.path, undefined);
  assert.match(e.message, /line 4 column \d+: this is not valid JSON/);
});

test("a megabyte-long worker name is refused at once with its path, instead of filling memory event by event", () => {
  const text = withConsumer({ name: "w".repeat(1 << 20) });
  const e = refusal(text);
  assert.equal(e.path, "consumers[0].name");
  assert.equal(e.rule, "at most 80 characters");
  assert.match(e.message, /consumers\[0\]\.name must be at most 80 characters, got 1048576 characters$/);
  assert.ok(e.message.length < 300, "the error does not repeat the name");
});

test("a scenario with 3,000 consumers is refused naming the list and its bound, instead of drawing 143,000 nodes", () => {
  const s = structuredClone(DUP);
  s.consumers = Array.from({ length: 3000 }, (_, i) => ({ ...DUP.consumers[0], name: `w${i}` }));
  const e = refusal(JSON.stringify(s, null, 2));
  assert.equal(e.path, "consumers");
  assert.equal(e.rule, "a list of at most 100 workers (replicas counted)");
  assert.match(e.message, /consumers must be a list of at most 100 workers \(replicas counted\), got 3000 workers/);
});

test("processing: {} names the kinds a processing time takes, never serde's 'expected value'", () => {
  const text = withConsumer({ processing: {} });
  const e = refusal(text);
  assert.equal(e.path, "consumers[0].processing");
  assert.match(e.rule, /^one of fixedMs \(ms\), uniformMs \{ min, max \} or exponentialMs \{ mean \}/);
  assert.doesNotMatch(e.message, /expected value/);
});

test("a repeated queue or worker name is refused at the field that repeats it", () => {
  const queues = structuredClone(DUP);
  queues.queues.push({ ...queues.queues[0] });
  const q = refusal(JSON.stringify(queues, null, 2));
  assert.equal(q.path, `queues[${queues.queues.length - 1}].name`);
  assert.match(q.message, /must be a name no other queue has \(queues\[0\] is also named so\)/);
  const workers = structuredClone(DUP);
  workers.consumers[1].name = workers.consumers[0].name;
  const w = refusal(JSON.stringify(workers, null, 2));
  assert.equal(w.path, "consumers[1].name");
  assert.match(w.rule, /^a name no other producer or worker has/);
});
