// The golden event logs of tests/fixtures/scenario-logs/, recorded by the
// native build (crates/protocol/tests/scenario_logs.rs), replayed in wasm:
// every scenario, realism knobs off and on, must give the same bytes, run in
// one advance or in random chunks with read-only calls between them, the way
// the page plays, scrubs and lets code read queue state.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { Playground, call } from "./load.mjs";

const logs = new URL("../fixtures/scenario-logs/", import.meta.url);
const sources = [new URL("../../web/scenarios/", import.meta.url), new URL("../fixtures/scenarios/", import.meta.url)];

// The same numbers as `variants()` in the native test.
const variants = {
  plain: undefined,
  realism: { shortPollSampleRate: 0.5, duplicateDeliveryProbability: 0.5, fewerMessagesProbability: 0.5 },
};

/** Scenario text by file stem, from wherever it lives. */
function scenarioText(stem) {
  for (const dir of sources) {
    if (readdirSync(dir).includes(`${stem}.json`)) return readFileSync(new URL(`${stem}.json`, dir), "utf8");
  }
  throw new Error(`no scenario file for golden log ${stem}`);
}

const goldens = readdirSync(logs).filter((f) => f.endsWith(".jsonl")).sort();

/** The log as the golden files hold it: one event per line. serde_json and
 * JSON.stringify agree on integers, strings and key order, so equal events
 * are equal text. */
function logText(pg) {
  const events = pg.events(0);
  assert.equal(events[0]?.seq, 1, "the event log lost its first events");
  return events.map((e) => JSON.stringify(e) + "\n").join("");
}

/** Random but reproducible chunk sizes, a different mix from the native test's. */
function* chunks(seed, pg) {
  let x = seed >>> 0 || 1;
  for (;;) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    const next = pg.nextEventTime();
    switch (x % 6) {
      case 0: yield next === null || next === undefined ? 1 : next - pg.now(); break;
      case 1: yield 0; break;
      case 2: yield 16; break; // one 60 Hz frame at 1x
      case 3: yield 1 + (x >>> 8) % 200; break;
      default: yield 1 + (x >>> 8) % 4_000;
    }
  }
}

async function readOnlyCalls(pg) {
  const { queues } = pg.snapshot();
  const ok = async (operation, body) => {
    const res = await call(pg, operation, body, { caller: "reader" });
    assert.equal(res.status, 200, `${operation}: ${JSON.stringify(res.body)}`);
  };
  await ok("ListQueues", {});
  for (const q of queues) {
    await ok("GetQueueUrl", { QueueName: q.name });
    await ok("GetQueueAttributes", { QueueUrl: q.url, AttributeNames: ["All"] });
    await ok("ListQueueTags", { QueueUrl: q.url });
    for (const m of q.messages) assert.ok(pg.peek(m.messageId), `peek ${m.messageId}`);
  }
}

test("there is a golden log for every shipped scenario, plain and with realism", () => {
  const shipped = readdirSync(sources[0]).filter((f) => /^\d\d-.*\.json$/.test(f));
  for (const file of shipped) {
    for (const variant of Object.keys(variants)) {
      assert.ok(goldens.includes(file.replace(/\.json$/, `.${variant}.jsonl`)), `${file} ${variant}`);
    }
  }
});

for (const golden of goldens) {
  const [, stem, variant] = golden.match(/^(.*)\.(plain|realism)\.jsonl$/);
  const expected = readFileSync(new URL(golden, logs), "utf8");
  const start = () => Playground.fromScenario(scenarioText(stem), variants[variant] && { realism: variants[variant] });

  test(`wasm replays ${stem} (${variant}) to the native golden log, in one advance and in random chunks`, async () => {
    const whole = start();
    const duration = JSON.parse(scenarioText(stem)).durationMs;
    whole.advance(duration);
    assert.ok(logText(whole) === expected, `${golden}: the one-advance run differs from the native log`);
    whole.free();

    const chunked = start();
    const sizes = chunks(goldens.indexOf(golden) + 7, chunked);
    // A run of hours goes in longer chunks: its steps stay a few thousand,
    // each with the read-only calls over every message (as the native test).
    const scale = Math.max(1, Math.floor(duration / 200_000));
    for (let step = 0; chunked.now() < duration; step++) {
      assert.ok(step < 100_000, `${golden}: still at ${chunked.now()} ms after ${step} chunks`);
      chunked.advance(Math.min(sizes.next().value * scale, duration - chunked.now()));
      await readOnlyCalls(chunked);
    }
    const actual = logText(chunked);
    if (actual !== expected) {
      const a = actual.split("\n"), e = expected.split("\n");
      const i = e.findIndex((line, n) => line !== a[n]);
      assert.fail(`${golden}: the chunked run differs at line ${i + 1}:\n  expected ${e[i]}\n  actual   ${a[i]}`);
    }
    chunked.free();
  });
}
