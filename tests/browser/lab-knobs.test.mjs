// Every kind of lab knob set through the page's form as a learner sets it
// (a number typed then Enter, a number's "On" box, a checkbox, a list), and
// the run restarted with it: read back from the engine's new run (the
// scenario it runs, at 0 s), not from the form.
import { test } from "node:test";
import assert from "node:assert/strict";
import { clockMs, open } from "./harness.mjs";

/** The scenario the engine on screen runs. */
const running = (page) => page.evaluate(() => document.getElementById("lab").playground.scenario());

/** Steps the run on, so that a restart shows as the clock going back to 0 s; remembers the engine running. */
async function moveOn(page) {
  await page.locator("#step").click();
  await page.waitForFunction(() => Number(document.getElementById("clock").dataset.timeMs) > 0);
  await page.evaluate(() => (window.before = document.getElementById("lab").playground));
}

/** Waits for the run that replaced the one moveOn remembered, and says where it stands. */
async function restarted(page) {
  await page.waitForFunction(() => document.getElementById("lab").playground !== window.before);
  return { clock: await clockMs(page), engine: await page.evaluate(() => document.getElementById("lab").playground.now()), scenario: await running(page) };
}

test("a lab's number knob, a number knob that may be off, and a toggle each restart the run with the value set in the form", async () => {
  const { page, problems, close } = await open("?lab=duplicate-orders&checkpoints=off");
  const behaviours = (s) => s.consumers.map((c) => c.behaviour);

  // A number: typed, then Enter.
  await moveOn(page);
  await page.locator("#knob-visibility").fill("10");
  await page.locator("#knob-visibility").press("Enter");
  let run = await restarted(page);
  assert.deepEqual([run.clock, run.engine], [0, 0], "the run starts again");
  assert.equal(run.scenario.queues[0].visibilityTimeoutSeconds, 10);

  // A number that may be off: its "On" box, then the value typed.
  await moveOn(page);
  await page.locator("#knob-heartbeat-on").check();
  await page.locator("#knob-heartbeat").fill("1000");
  await page.locator("#knob-heartbeat").press("Enter");
  await page.waitForFunction(() => document.getElementById("lab").playground.scenario().consumers.every((c) => c.behaviour?.heartbeatEveryMs === 1000));
  run = await restarted(page);
  assert.deepEqual([run.clock, run.engine], [0, 0], "the run starts again");
  assert.deepEqual(behaviours(run.scenario).map((b) => b.heartbeatEveryMs), [1000, 1000], "every worker beats every second");
  assert.equal(run.scenario.queues[0].visibilityTimeoutSeconds, 10, "the knob set before is kept");

  // A toggle: checked.
  await moveOn(page);
  await page.locator("#knob-idempotent").check();
  run = await restarted(page);
  assert.deepEqual([run.clock, run.engine], [0, 0], "the run starts again");
  assert.deepEqual(behaviours(run.scenario).map((b) => b.idempotent), [true, true], "every worker's handler is idempotent");

  // The lab reads the run's settings back as the form set them.
  const settings = await page.evaluate(() => document.getElementById("lab").lab.settings);
  assert.deepEqual([settings.visibility, settings.heartbeat, settings.idempotent], [10, 1000, true]);
  assert.deepEqual(problems, []);
  await close();
});

test("a lab's choice knobs, picked from their lists, restart the run with a FIFO queue and a group per message", async () => {
  const { page, problems, close } = await open("?lab=fifo-order&checkpoints=off");
  await moveOn(page);
  await page.locator("#knob-queueType").selectOption("fifo");
  let run = await restarted(page);
  assert.deepEqual([run.clock, run.engine], [0, 0], "the run starts again");
  assert.equal(run.scenario.queues[0].name, "orders.fifo");
  assert.equal(await page.evaluate(() => document.getElementById("lab").playground.snapshot().queues[0].fifo), true, "the engine holds a FIFO queue");

  await moveOn(page);
  await page.locator("#knob-groupId").selectOption("perMessage");
  run = await restarted(page);
  assert.deepEqual([run.clock, run.engine], [0, 0], "the run starts again");
  const groups = run.scenario.producers[0].sends.map((s) => s.groupId);
  assert.equal(new Set(groups).size, groups.length, `each order its own group: ${groups.join(", ")}`);
  assert.equal(run.scenario.queues[0].name, "orders.fifo", "the queue type picked before is kept");
  assert.deepEqual(await page.evaluate(() => document.getElementById("lab").lab.settings), { queueType: "fifo", groupId: "perMessage" });
  assert.deepEqual(problems, []);
  await close();
});

test("a Lambda mapping's toggle and an alarm's choices restart the run with the function's and the alarm's fields set", async () => {
  const { page, problems, close } = await open("?lab=lost-batches&checkpoints=off");
  await moveOn(page);
  await page.locator("#knob-reportBatchItemFailures").check();
  let run = await restarted(page);
  assert.deepEqual([run.clock, run.engine], [0, 0], "the run starts again");
  assert.deepEqual(run.scenario.lambdas[0].functionResponseTypes, ["ReportBatchItemFailures"]);
  await moveOn(page);
  await page.locator("#knob-response").selectOption("empty");
  run = await restarted(page);
  assert.equal(run.scenario.lambdas[0].handler.response, "empty");
  assert.deepEqual(problems, []);
  await close();

  const dlq = await open("?lab=unwatched-dlq&checkpoints=off");
  assert.deepEqual(await dlq.page.locator("#knob-dlqAlarm option").allTextContents(), [
    "No alarm",
    ...["NumberOfMessagesSent", "NumberOfMessagesReceived", "NumberOfMessagesDeleted", "NumberOfEmptyReceives", "NumberOfDeduplicatedSentMessages", "SentMessageSize", "ApproximateNumberOfMessagesVisible", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed", "ApproximateAgeOfOldestMessage"].map((m) => `On orders-dlq's ${m}`),
  ]);
  await moveOn(dlq.page);
  await dlq.page.locator("#knob-dlqAlarm").selectOption("ApproximateNumberOfMessagesVisible");
  run = await restarted(dlq.page);
  const added = run.scenario.alarms.find((a) => a.name === "dlq-not-empty");
  assert.equal(added.metricName, "ApproximateNumberOfMessagesVisible");
  assert.deepEqual(added.alarmActions, ["ops-pager"]);
  assert.ok(await dlq.page.evaluate(() => document.getElementById("lab").playground.snapshot({ messagesPerQueue: 0 }).simulation.alarms.some((a) => a.name === "dlq-not-empty")), "the engine evaluates the added alarm");
  assert.deepEqual(dlq.problems, []);
  await dlq.close();
});
