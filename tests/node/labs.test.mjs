// Labs in wasm: Check my fix (`checkLab(text, settings)`) gives the same
// reports as the native check (tests/fixtures/labs, written by
// crates/simulation/tests/labs.rs) and refuses settings with their knob's
// rule at `settings.<id>`; `labView` and `labScenario` give a page the
// lab's words, knobs and the scenario a learner's settings make.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import "./load.mjs";
import { checkLab, LabCheck, labScenario, labView, Playground } from "../../web/pkg/queuelab.js";

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

test("labView gives the goal in words, the knobs and the settings the scenario has now", () => {
  const lab = text("01-duplicate-orders.json");
  const view = labView(lab);
  assert.deepEqual(view.conditions.map((c) => c.id), ["sideEffectsAtMost", "noneLost", "processedByMs"]);
  assert.equal(view.conditions[2].text, "Every message is charged by t = 50 s");
  assert.deepEqual(view.knobs.map((k) => [k.id, k.kind]), [["visibility", "number"], ["heartbeat", "number"], ["heartbeatVisibility", "number"], ["idempotent", "toggle"]]);
  assert.deepEqual(view.settings, { heartbeat: "off", heartbeatVisibility: "off", idempotent: false, visibility: 2 });
  assert.equal(view.seeds.length, 12);
  assert.equal(view.explain.hints.length, 3);
  // The settings read back from the scenario they made.
  assert.deepEqual(labView(JSON.stringify(labScenario(lab, { heartbeat: 1000, heartbeatVisibility: 3 }))).settings, { heartbeat: 1000, heartbeatVisibility: 3, idempotent: false, visibility: 2 });
  const plain = readFileSync(new URL("../../web/scenarios/02-slow-consumer-duplicate.json", import.meta.url), "utf8");
  assert.equal(labView(plain), null);
  assert.throws(() => labView("{"), /invalid scenario/);
});

test("labScenario makes the scenario a learner's settings and a failing seed run, and it runs", () => {
  const lab = text("06-fifo-order.json");
  const made = labScenario(lab, { queueType: "fifo", groupId: "perAttribute" }, 7);
  assert.equal(made.seed, 7);
  assert.ok(made.queues.some((q) => q.name === "orders.fifo" && q.contentBasedDeduplication === true), JSON.stringify(made.queues));
  assert.equal(made.queues[0].delaySeconds, null, "every field is there: a field not set is null");
  const pg = Playground.fromScenario(JSON.stringify(made));
  pg.advance(made.durationMs);
  assert.ok(pg.snapshot({ messagesPerQueue: 0 }).simulation.sideEffects.length > 0);
  pg.free();
  // Two texts differ exactly where their settings do.
  const [a, b] = [labScenario(lab), labScenario(lab, { groupId: "perMessage" })];
  assert.deepEqual(Object.keys(a), Object.keys(b));
  assert.deepEqual(a.queues, b.queues);
  assert.notDeepEqual(a.producers, b.producers);
  assert.throws(() => labScenario(lab, { queueType: "lifo" }), (e) => e.path === "settings.queueType" && e.rule === '"standard" or "fifo"');
  assert.throws(() => labScenario(lab, {}, -1), RangeError);
});

test("a check of a non-fix says why it only moves the problem, in the lab's words", () => {
  const lab = text("01-duplicate-orders.json");
  const report = checkLab(lab, { visibility: 180 });
  assert.equal(report.met, false);
  assert.equal(report.movesTheProblem.name, "A three-minute visibility timeout");
  assert.match(report.movesTheProblem.why, /retry delay/);
  assert.equal(checkLab(lab, { visibility: 170 }).movesTheProblem, undefined, "a near miss is not the non-fix its words describe");
});

test("a lab's link names it by lab=, and its element snippet embeds the lab itself, never a learner's changes", async () => {
  const { elementSnippet, makeLink, readLink } = await import("../../web/page/share.js");
  const fileText = text("01-duplicate-orders.json");
  const changed = JSON.stringify(labScenario(fileText, { visibility: 10 }));
  const state = { fileText, text: changed, scenario: JSON.parse(changed), journal: [], now: 0, speed: "1", checkpoints: true };
  const { href } = await makeLink("https://queuelab.example/?scenario=old", { stem: "labs/01-duplicate-orders", state });
  const link = new URL(href);
  assert.equal(link.searchParams.get("lab"), "duplicate-orders");
  assert.equal(link.searchParams.get("scenario"), null);
  assert.equal(readLink(link.search, link.hash).lab, "duplicate-orders");
  assert.ok(link.hash.includes("run="), "the learner's settings travel in the run");
  const snippet = elementSnippet("https://queuelab.example/dist/queuelab.js", { stem: "labs/01-duplicate-orders", state });
  assert.match(snippet, /<queue-lab lab="duplicate-orders" seed="1"/);
  assert.doesNotMatch(snippet, /application\/json/);
  assert.match(snippet, /your changed settings are in the link only/);
});

test("absurd settings get a clear, bounded error naming the knob", () => {
  const lab = text("01-duplicate-orders.json");
  for (const [value, shown] of [[1.5, "1.5"], [2 ** 64, "1.8446744073709552e+19"], [{ seconds: 10 }, '{"seconds":10}'], [NaN, "null"]]) {
    assert.throws(() => checkLab(lab, { visibility: value }), (e) => e instanceof TypeError && e.message.endsWith(`settings.visibility is ${shown}, not a whole number, true or false, a choice or "off"`), String(value));
  }
  // A megabyte of knob id or value is echoed in at most about a thousand characters.
  for (const settings of [{ ["k".repeat(1 << 20)]: 1 }, { visibility: "x".repeat(1 << 20) }]) {
    assert.throws(() => labScenario(lab, settings), (e) => e.message.length < 2500 && (e.path ?? "").length < 1100);
  }
});

test("LabCheck runs a check a slice at a time, says which seed it is on, and ends with checkLab's report", () => {
  const lab = text("01-duplicate-orders.json");
  for (const settings of [undefined, { visibility: 10 }]) {
    const check = new LabCheck(lab, settings);
    const seen = [];
    let progress = check.progress;
    assert.deepEqual([progress.seedsDone, progress.seeds, progress.seed, progress.units, progress.done], [0, 12, 1, 0, false]);
    assert.ok(progress.estimatedUnits > 0 && progress.durationMs === 60000, JSON.stringify(progress));
    while (!check.step(10)) {
      const now = check.progress;
      assert.ok(now.units > progress.units, "every step does some work");
      assert.equal(check.report(), null, "no verdict before the last seed");
      if (seen.at(-1) !== now.seed) seen.push(now.seed);
      progress = now;
    }
    assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], "every seed runs in turn, none in one step");
    assert.equal(check.progress.done, true);
    assert.equal(check.progress.seedsDone, 12);
    assert.deepEqual(check.report(), checkLab(lab, settings));
    check.free();
  }
});

test("a check past its work budget is refused before it runs, naming the budget", () => {
  // One consumer short-polling every millisecond for 2,000 s: about 4 million units a seed, 48 million for 12.
  const busy = JSON.stringify({
    title: "A busy poller",
    durationMs: 2_000_000,
    queues: [{ name: "orders" }],
    producers: [{ name: "shop", queue: "orders", sends: [{ atMs: 0, body: "order A-1001" }] }],
    consumers: [{ name: "worker", queue: "orders", pollIntervalMs: 1, processing: { fixedMs: 10 } }],
    goal: { sideEffectsAtMost: 1 },
  });
  const refused = (e) =>
    e instanceof Error &&
    e.path === "check" &&
    e.message.startsWith("check refused: check must be at most 24,000,000 units of work (the check's budget: its 12 seeds' runs together), got about ") &&
    /\(12 seeds of about [\d,]+\): poll less often \(consumers' pollIntervalMs\), send less \(producers' rate\), or shorten durationMs$/.test(e.message);
  assert.throws(() => new LabCheck(busy), refused);
  assert.throws(() => checkLab(busy), refused);
});

test("LabCheck.step refuses a number of units that is not a whole number", () => {
  const check = new LabCheck(text("01-duplicate-orders.json"));
  assert.throws(() => check.step(-1), RangeError);
  assert.throws(() => check.step(1.5), RangeError);
  assert.throws(() => check.step("10"), TypeError);
  assert.equal(check.progress.units, 0, "a refused step does no work");
  assert.equal(check.step(), false, "no units: one moment");
  assert.ok(check.progress.units > 0);
  check.free();
});

/** A LabCheck that records its calls: steps asked for, and whether it was freed. */
function recorded(check) {
  const calls = { steps: [], freed: 0 };
  return {
    calls,
    step: (units) => (calls.steps.push(units), check.step(units)),
    get progress() {
      return check.progress;
    },
    report: () => check.report(),
    free: () => (calls.freed++, check.free()),
  };
}

test("runCheck runs a check in slices, shows progress between them, and ends with checkLab's report", async () => {
  const { runCheck } = await import("../../web/lab/check-run.js");
  const lab = text("01-duplicate-orders.json");
  const check = recorded(new LabCheck(lab, { visibility: 10 }));
  let ms = 0;
  const shown = [];
  let turns = 0;
  // A clock where every reading is 5 ms later: a slice holds about ten steps.
  const job = runCheck(check, { clock: () => (ms += 5), pause: async () => turns++, onProgress: (p) => shown.push(p) });
  assert.equal(job.state, "running", "the first slice does not finish the check");
  assert.deepEqual([shown[0].seedsDone, shown[0].units], [0, 0], "progress is shown before any work");
  const report = await job.done;
  assert.deepEqual(report, checkLab(lab, { visibility: 10 }));
  assert.equal(job.state, "done");
  assert.ok(turns > 1 && shown.length > 2, `${turns} turns, ${shown.length} progress lines`);
  assert.ok(shown.every((p, i) => i === 0 || p.units >= shown[i - 1].units));
  assert.equal(check.calls.freed, 1, "the check is freed once it ends");
});

test("cancelling a check stops it between slices, frees it, and rejects with an AbortError", async () => {
  const { runCheck } = await import("../../web/lab/check-run.js");
  const check = recorded(new LabCheck(text("01-duplicate-orders.json")));
  let ms = 0;
  let resume;
  const job = runCheck(check, { clock: () => (ms += 5), pause: () => new Promise((r) => (resume = r)) });
  const stepsBefore = check.calls.steps.length;
  assert.ok(stepsBefore > 0);
  job.cancel();
  assert.equal(job.state, "cancelled");
  await assert.rejects(job.done, (e) => e.name === "AbortError" && e.message === "Check my fix was cancelled.");
  assert.equal(check.calls.freed, 1);
  resume(); // the browser's turn comes back: nothing more runs
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(check.calls.steps.length, stepsBefore);
});
