// web/text/changes.js: the "you changed" list and how a run's outcome differs
// from the file's run, from scenario objects and simulation snapshots.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { changes, changeSentence, differences, knobChanges, mostSideEffects, omittedNote } from "../../web/text/changes.js";
import { Playground } from "./load.mjs";
import { limits } from "../../web/pkg/queuelab.js";
import { labs } from "../../web/engine/engine.js";

const file = (stem) => JSON.parse(readFileSync(new URL(`../../web/scenarios/${stem}.json`, import.meta.url), "utf8"));

test("the you-changed list names each changed setting with its old and new value", () => {
  const before = file("02-slow-consumer-duplicate");
  const after = structuredClone(before);
  after.queues[0].visibilityTimeoutSeconds = 5;
  const list = changes(before, after);
  assert.deepEqual(list.map((c) => c.text), ["orders' visibility timeout 2 s → 5 s"]);
  assert.equal(changeSentence(list), "You raised orders' visibility timeout to 5 s");
});

test("turning heartbeat off is one change, not one per field it drops", () => {
  const before = file("04-heartbeat");
  const after = structuredClone(before);
  delete after.consumers[0].behaviour.heartbeatEveryMs;
  delete after.consumers[0].behaviour.heartbeatVisibilitySeconds;
  const list = changes(before, after);
  assert.deepEqual(list.map((c) => c.text), ["worker-1's heartbeat 1 s → off"]);
  assert.equal(changeSentence(list), "You turned off worker-1's heartbeat");
});

test("a heartbeat at another pace with another visibility is two changes, both said", () => {
  const before = file("04-heartbeat");
  const after = structuredClone(before);
  const beat = after.consumers[0].behaviour;
  beat.heartbeatEveryMs = 2000;
  beat.heartbeatVisibilitySeconds += 5;
  const list = changes(before, after);
  assert.deepEqual(list.map((c) => c.name), ["heartbeat", "heartbeat's visibility"]);
  assert.equal(list[1].to, before.consumers[0].behaviour.heartbeatVisibilitySeconds + 5);
});

test("a queue field the file leaves out is compared with the engine's default", () => {
  const before = file("02-slow-consumer-duplicate");
  const after = structuredClone(before);
  after.queues[0].delaySeconds = 3;
  assert.deepEqual(changes(before, after, { delaySeconds: 0 }).map((c) => c.text), ["orders' delay 0 s → 3 s"]);
  assert.deepEqual(changes(before, structuredClone(before), { delaySeconds: 0 }), [], "nothing changed: nothing listed");
});

test("the outcome's differences say what changed in the run, and nothing when it is the same", () => {
  const sim = (counts, o = {}) => ({
    sideEffects: counts.map((count) => ({ effect: "charged", count })),
    outcome: { duplicateDeliveries: 0, lost: 0, expired: 0, deadLettered: 0, emptyReceives: 0, ...o },
  });
  const original = sim([2], { duplicateDeliveries: 1 });
  assert.deepEqual(differences(original, sim([1])), ["charged exactly once per message this time (the file's run: up to ×2)", "no duplicate delivery this time (the file's run: 1)"]);
  assert.deepEqual(differences(original, original), []);
  assert.equal(mostSideEffects(sim([1, 3, 2])), 3);
  assert.equal(mostSideEffects(sim([])), 0);
});

/** A producer of `n` messages a millisecond apart and a worker charging each once, in batches of 10. */
const manyMessages = (n) =>
  JSON.stringify({
    title: `${n} messages`,
    durationMs: n + 2000,
    queues: [{ name: "q" }],
    producers: [{ name: "p", queue: "q", rate: { everyMs: 1, count: n, body: "order {n}" } }],
    consumers: [{ name: "w", queue: "q", batchSize: 10, processing: { fixedMs: 0 }, sideEffect: "charged" }],
  });

test("past the ledger's kept details, its note says how many messages' details were not kept, and the recap's side-effect phrase says it covers only the first ones", () => {
  const details = limits().maxSideEffectDetails;
  assert.equal(details, 10_000, "the engine's MAX_SIDE_EFFECT_DETAILS, through limits()");
  // A real run past the details: the snapshot counts the messages left out.
  const pg = Playground.fromScenario(manyMessages(details + 50));
  pg.advance(details + 2050);
  const run = pg.snapshot({ messagesPerQueue: 0 }).simulation;
  pg.free();
  assert.equal(run.sideEffects.length, details);
  assert.equal(run.sideEffectsOmitted, 50);
  assert.equal(omittedNote(run, details), "details of 50 more messages not kept: the ledger keeps the first 10,000");
  assert.equal(omittedNote({ ...run, sideEffectsOmitted: 1 }, details), "details of 1 more message not kept: the ledger keeps the first 10,000");
  assert.equal(omittedNote({ ...run, sideEffectsOmitted: 0 }, details), "", "no note when every message was kept");
  // The recap: its side-effect phrase covers the kept messages only, and says so; the counts are the outcome's, over all.
  const sim = (counts, omitted, o = {}) => ({
    sideEffects: counts.map((count) => ({ effect: "charged", count })),
    sideEffectsOmitted: omitted,
    outcome: { duplicateDeliveries: 0, lost: 0, expired: 0, deadLettered: 0, emptyReceives: 0, ...o },
  });
  assert.deepEqual(differences(sim([2], 0, { duplicateDeliveries: 1 }), sim([1], 50), details), ["charged exactly once per message among the first 10,000 this time (the file's run: up to ×2)", "no duplicate delivery this time (the file's run: 1)"]);
  assert.deepEqual(differences(sim([1], 7), sim([3], 0), details), ["charged up to ×3 among the first 10,000 this time (the file's run: up to ×1)"]);
  assert.deepEqual(differences(sim([1], 0), sim([2], 0), details), ["charged up to ×2 this time (the file's run: up to ×1)"], "every message kept: no qualifier");
});

const labFile = (stem) => readFileSync(new URL(`../../web/scenarios/labs/${stem}.json`, import.meta.url), "utf8");
/** A lab as the page compares it: the file as labScenario writes it, and with `settings`. */
const labPair = (text, settings) => [JSON.parse(labs.scenario(text, {})), JSON.parse(labs.scenario(text, settings))];

test("lab 07's fix is said in the engine's words: the immediate retry turned off and the backoff turned on, for each worker", () => {
  const text = labFile("07-retry-storm");
  const fix = JSON.parse(text).explain.fixes[0].settings;
  const list = changes(...labPair(text, fix));
  assert.deepEqual(list.map((c) => c.text), [
    "worker-1's immediate retry on → off",
    "worker-1's retry backoff off → backoff's first delay 2 s, backoff's longest delay 5 min",
    "worker-2's immediate retry on → off",
    "worker-2's retry backoff off → backoff's first delay 2 s, backoff's longest delay 5 min",
  ]);
  assert.equal(changeSentence(list), "You turned off worker-1's immediate retry (and 3 more changes)");
});

test("every change a shipped lab's fixes and non-fixes make is a field the engine has words for", () => {
  const stems = JSON.parse(readFileSync(new URL("../../web/scenarios/labs/index.json", import.meta.url), "utf8")).map((l) => l.file ?? l).map((f) => String(f).replace(/^.*\//, "").replace(/\.json$/, ""));
  let said = 0;
  for (const stem of stems) {
    const text = labFile(stem);
    const { fixes = [], nonFixes = [] } = JSON.parse(text).explain ?? {};
    for (const { name, settings } of [...fixes, ...nonFixes]) {
      for (const c of changes(...labPair(text, settings))) {
        assert.ok(c.field, `${stem}, "${name}": ${c.path} has words from the engine`);
        assert.doesNotMatch(c.text, /\bbehaviour\.|\bnull\b|\[object/, `${stem}, "${name}": ${c.text}`);
        said++;
      }
    }
  }
  assert.ok(said > 10, `the labs' fixes change settings (${said})`);
});

test("a lab's policy text knob is said as edited, never quoted: the document is the learner's", () => {
  const text = labFile("10-lost-notifications");
  const view = labs.view(text);
  const fix = JSON.parse(text).explain.fixes[0].settings;
  const list = knobChanges(view.knobs, view.settings, labs.view(labs.scenario(text, fix)).settings);
  assert.deepEqual(list.map((c) => c.text), ["orders' access policy: edited"]);
  assert.equal(changeSentence(list), "You edited “orders' access policy”");
  // The same document, laid out as the page shows it, is no change.
  assert.deepEqual(knobChanges(view.knobs, view.settings, { ...view.settings }), []);
});
