// The binding's budgets and bounds (docs/limits.md): the
// budget options of `new Playground(options)`, refused with their range;
// `limits()`, the one place hosts read the bounds from; and
// `workEstimate(untilMs)`, asked before replaying a link.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Playground, call } from "./load.mjs";
import { limits } from "../../web/pkg/queuelab.js";

const idlePoller = (pollIntervalMs, durationMs) =>
  JSON.stringify({
    title: "idle",
    durationMs,
    queues: [{ name: "q" }],
    consumers: [{ name: "c", queue: "q", pollIntervalMs, processing: { fixedMs: 10 } }],
  });

test("limits() gives the work limits, the end of time and every budget's default and largest value", () => {
  const l = limits();
  assert.equal(l.maxVirtualMs, 2 ** 53 - 1);
  assert.ok(l.maxWorkWithoutAsking > 0 && l.maxWorkWithoutAsking < l.maxScenarioWork);
  assert.equal(l.defaultBudgets.maxStoredBytes, 256 * 1024 * 1024);
  for (const key of ["maxStoredBytes", "maxStoredMessages", "maxQueues", "eventCapacity"]) {
    assert.ok(l.defaultBudgets[key] <= l.largestBudgets[key], key);
  }
  assert.ok(new Date(l.maxStartEpochMs).getUTCFullYear() === 9999);
});

test("budget options out of range are refused with an Error naming the option and its range", () => {
  const l = limits();
  const cases = [
    [{ maxStoredBytes: 0 }, /maxStoredBytes must be a whole number from 1 to/],
    [{ maxStoredBytes: 1.5 }, /maxStoredBytes must be a whole number from 1 to \d+, got 1.5/],
    [{ maxStoredMessages: -1 }, /maxStoredMessages must be a whole number from 1/],
    [{ maxQueues: l.largestBudgets.maxQueues + 1 }, /maxQueues must be a whole number from 1 to/],
    [{ eventCapacity: 2 ** 32 - 1 }, /eventCapacity must be a whole number from 0 to 1000000/],
    [{ startEpochMs: 2 ** 64 }, /startEpochMs must be a whole number from 0 to/],
    [{ startEpochMs: Infinity }, /startEpochMs/],
  ];
  for (const [options, message] of cases) {
    assert.throws(() => new Playground(options), (e) => e instanceof Error && message.test(e.message), JSON.stringify(options));
    assert.throws(() => Playground.fromScenario(idlePoller(1000, 1000), options), message);
  }
});

test("maxStoredMessages is a budget SQS calls answer with OverLimit naming the option", async () => {
  const pg = new Playground({ maxStoredMessages: 2 });
  const { body } = await call(pg, "CreateQueue", { QueueName: "q" });
  const url = body.QueueUrl;
  for (const text of ["a", "b"]) assert.equal((await call(pg, "SendMessage", { QueueUrl: url, MessageBody: text })).status, 200);
  const refused = await call(pg, "SendMessage", { QueueUrl: url, MessageBody: "c" });
  assert.equal(refused.status, 403);
  assert.equal(refused.headers["x-amzn-query-error"], "OverLimit;Sender");
  assert.match(refused.body.message, /maxStoredMessages/);
  pg.free();
});

test("workEstimate(untilMs) grows with how often a consumer polls, and is 0 for a moment reached", () => {
  const slow = Playground.fromScenario(idlePoller(1000, 60_000));
  const fast = Playground.fromScenario(idlePoller(10, 60_000));
  assert.ok(fast.workEstimate(60_000) > 50 * slow.workEstimate(60_000));
  slow.advance(30_000);
  assert.equal(slow.workEstimate(30_000), 0);
  assert.ok(slow.workEstimate(1e300) > 0, "a moment past the end of time is estimated to it");
  assert.throws(() => slow.workEstimate(-1), /^RangeError: workEstimate: untilMs must be a whole number/);
  slow.free();
  fast.free();
});

test("a scenario estimated past maxScenarioWork is refused in plain words", () => {
  const days35 = 35 * 24 * 3_600_000;
  assert.throws(
    () => Playground.fromScenario(idlePoller(1, days35)),
    (e) => /pollIntervalMs/.test(e.message) && e.message.includes(String(limits().maxScenarioWork)),
  );
  assert.throws(() => Playground.fromScenario(idlePoller(0, 1000)), /consumers\[0\]\.pollIntervalMs must be a whole number of milliseconds from 1/);
});

// Issue 25: a 1.5 GB request (a queue name of 3-byte characters) trapped
// the module while its text was copied in. Past limits().maxRequestBytes a
// request is answered 413, and a string with more UTF-16 units than that is
// refused before it is copied (its UTF-8 is at least as long).
test("a dispatch past maxRequestBytes answers 413 naming the limit, and the playground goes on", () => {
  const max = limits().maxRequestBytes;
  assert.equal(max, 4 * 1024 * 1024);
  const pg = new Playground({ seed: 1 });
  const tooLarge = (res) => {
    assert.equal(res.status, 413);
    const body = JSON.parse(res.body);
    assert.equal(body.__type, "com.amazon.coral.service#RequestEntityTooLargeException");
    assert.match(body.message, /4194304 bytes \(4 MiB, MAX_REQUEST_BYTES\)/);
  };
  // More UTF-16 units than the limit: refused unread.
  tooLarge(pg.dispatchSync("AmazonSQS.CreateQueue", `{"QueueName":"${"n".repeat(max)}"}`));
  // Fewer units but more UTF-8 bytes (1.4 million 3-byte characters): counted after the copy.
  tooLarge(pg.dispatchSync("AmazonSQS.CreateQueue", `{"QueueName":"${"€".repeat(1_400_000)}"}`));
  // The target counts too.
  tooLarge(pg.dispatchSync("x".repeat(max), "{}"));
  const created = pg.dispatchSync("AmazonSQS.CreateQueue", JSON.stringify({ QueueName: "after" }));
  assert.equal(created.status, 200);
  pg.free();
});
