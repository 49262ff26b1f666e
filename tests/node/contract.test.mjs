// The wasm contract in Node: the same build the page loads, driven through
// initSync, dispatch, advance, events and snapshot.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Playground, call } from "./load.mjs";

async function queue(pg, name, Attributes = {}) {
  const res = await call(pg, "CreateQueue", { QueueName: name, Attributes });
  assert.equal(res.status, 200);
  return res.body.QueueUrl;
}

test("initSync with module bytes gives a working Playground", async () => {
  const pg = new Playground({ seed: 7 });
  assert.equal(pg.now(), 0);
  const url = await queue(pg, "orders");
  assert.match(url, /\/000000000000\/orders$/);
});

test("dispatch resolves with status, headers and JSON body text", async () => {
  const pg = new Playground({ seed: 7 });
  const url = await queue(pg, "orders");
  const res = await pg.dispatch("AmazonSQS.SendMessage", JSON.stringify({ QueueUrl: url, MessageBody: "hi" }));
  assert.equal(res.status, 200);
  assert.equal(res.headers["content-type"], "application/x-amz-json-1.0");
  assert.ok(res.headers["x-amzn-requestid"]);
  assert.equal(typeof res.body, "string");
  assert.equal(JSON.parse(res.body).MD5OfMessageBody, "49f68a5c8493ec2c0bf489821c21fc3b");
});

test("errors carry __type, message and the x-amzn-query-error header", async () => {
  const pg = new Playground();
  const res = await call(pg, "GetQueueUrl", { QueueName: "nope" });
  assert.equal(res.status, 400);
  assert.equal(res.body.__type, "com.amazonaws.sqs#QueueDoesNotExist");
  assert.equal(res.headers["x-amzn-query-error"], "AWS.SimpleQueueService.NonExistentQueue;Sender");
});

test("a long poll waits in virtual time and resolves when a message is sent", async () => {
  const pg = new Playground();
  const url = await queue(pg, "jobs");
  let answered = null;
  const poll = call(pg, "ReceiveMessage", { QueueUrl: url, WaitTimeSeconds: 20 }).then((r) => (answered = r));
  pg.advance(5_000);
  await new Promise((r) => setImmediate(r));
  assert.equal(answered, null, "still waiting at 5 s");
  await call(pg, "SendMessage", { QueueUrl: url, MessageBody: "job-1" }, { caller: "producer" });
  await poll;
  assert.equal(answered.body.Messages[0].Body, "job-1");
  assert.equal(pg.now(), 5_000);
});

test("a long poll resolves empty, without Messages, when its wait ends", async () => {
  const pg = new Playground();
  const url = await queue(pg, "idle");
  const poll = call(pg, "ReceiveMessage", { QueueUrl: url, WaitTimeSeconds: 2 });
  pg.advance(2_000);
  const res = await poll;
  assert.equal(res.status, 200);
  assert.equal("Messages" in res.body, false);
});

test("advance moves visibility timeouts, and events tell who held what", async () => {
  const pg = new Playground({ seed: 3 });
  const url = await queue(pg, "work", { VisibilityTimeout: "2" });
  await call(pg, "SendMessage", { QueueUrl: url, MessageBody: "A-1001" });
  await call(pg, "ReceiveMessage", { QueueUrl: url }, { caller: "worker-1" });
  assert.equal(pg.advance(2_000), 2_000);
  const again = await call(pg, "ReceiveMessage", { QueueUrl: url, AttributeNames: ["All"] }, { caller: "worker-2" });
  assert.equal(again.body.Messages[0].Attributes.ApproximateReceiveCount, "2");
  const events = pg.events(0);
  const types = events.map((e) => e.type);
  assert.deepEqual(types, ["queueCreated", "sent", "received", "visibilityExpired", "received"]);
  const second = events.at(-1);
  assert.equal(second.by, "worker-2");
  assert.equal(second.previousHolder, "worker-1");
  assert.equal(second.receiveCount, 2);
  assert.deepEqual(pg.events(4).map((e) => e.seq), [5]);
});

test("snapshot shows every message with state, group, receive count and deadline", async () => {
  const pg = new Playground();
  const url = await queue(pg, "orders.fifo", { FifoQueue: "true", ContentBasedDeduplication: "true" });
  await call(pg, "SendMessage", { QueueUrl: url, MessageBody: "a", MessageGroupId: "customer-A" });
  await call(pg, "SendMessage", { QueueUrl: url, MessageBody: "b", MessageGroupId: "customer-A" });
  await call(pg, "ReceiveMessage", { QueueUrl: url, VisibilityTimeout: 5 });
  const snap = pg.snapshot();
  const [q] = snap.queues;
  assert.equal(q.fifo, true);
  assert.deepEqual(q.messages.map((m) => [m.body, m.state, m.group, m.receiveCount, m.visibleAt]), [
    ["a", "in-flight", "customer-A", 1, 5_000],
    ["b", "visible", "customer-A", 0, null],
  ]);
  assert.deepEqual(q.groups, [{ group: "customer-A", locked: true, messages: 2 }]);
});

test("the same seed and calls give the same bytes", async () => {
  async function run() {
    const pg = new Playground({ seed: 99 });
    const url = await queue(pg, "det");
    const out = [];
    for (const body of ["a", "b", "c"]) out.push((await call(pg, "SendMessage", { QueueUrl: url, MessageBody: body })).body);
    out.push((await call(pg, "ReceiveMessage", { QueueUrl: url, MaxNumberOfMessages: 10 })).body);
    return JSON.stringify([out, pg.events(0)]);
  }
  assert.equal(await run(), await run());
});

test("misuse throws real Error objects", () => {
  assert.throws(() => new Playground({ sed: 1 }), (e) => e instanceof Error && /sed/.test(e.message));
  assert.throws(() => new Playground({ realism: { fewerMessagesProbability: -1 } }), Error);
  const pg = new Playground();
  assert.throws(() => pg.advance(-5), Error);
  assert.throws(() => pg.dispatch("AmazonSQS.ListQueues", "{}", { who: "x" }), Error);
});

test("no input, however malformed, breaks the instance", async () => {
  const pg = new Playground();
  const junk = ["", "{", "null", "[]", '{"QueueUrl": 5}', '{"Entries": "x"}', "\u0000", '{"MessageBody":"\\ud800"}'];
  for (const op of ["SendMessage", "SendMessageBatch", "ReceiveMessage", "CreateQueue", "Nope"]) {
    for (const body of junk) {
      const res = await pg.dispatch(`AmazonSQS.${op}`, body);
      assert.ok(res.status >= 400 && res.status < 500, `${op} ${body} -> ${res.status}`);
    }
  }
  const url = await queue(pg, "still-alive");
  assert.ok(url);
});

test("fromScenario runs a scenario's workers in virtual time", async () => {
  const { readFileSync } = await import("node:fs");
  const text = readFileSync(new URL("../../web/scenarios/02-slow-consumer-duplicate.json", import.meta.url), "utf8");
  const pg = Playground.fromScenario(text);
  assert.equal(pg.snapshot().simulation.title, "Slow consumer, duplicate delivery");
  pg.advance(2_000);
  const held = pg.snapshot().simulation.workers.map((w) => [w.name, w.state, w.holding.length]);
  assert.deepEqual(held, [["worker-1", "processing", 1], ["worker-2", "processing", 1]]);
  assert.ok(pg.events(0).some((e) => e.type === "duplicateDelivery" && e.consumer === "worker-2"));
  pg.advance(8_000);
  const [effect] = pg.snapshot().simulation.sideEffects;
  assert.equal(effect.count, 2);
  assert.deepEqual(effect.by, ["worker-1", "worker-2"]);
});

test("nextEventTime steps to the next moment something happens", () => {
  const text = JSON.stringify({ title: "t", durationMs: 5000, queues: [{ name: "q" }],
    producers: [{ name: "p", queue: "q", sends: [{ atMs: 1500, body: "x" }] }] });
  const pg = Playground.fromScenario(text);
  assert.equal(pg.nextEventTime(), 1500);
  pg.advance(pg.nextEventTime() - pg.now());
  assert.equal(pg.snapshot().queues[0].messages.length, 1);
});

test("peek shows a message, its attributes and every receipt handle without changing it", async () => {
  const pg = new Playground();
  const { QueueUrl } = (await call(pg, "CreateQueue", { QueueName: "peeked", Attributes: { VisibilityTimeout: "1" } })).body;
  const { MessageId } = (await call(pg, "SendMessage", { QueueUrl, MessageBody: "<b>hi</b>",
    MessageAttributes: { kind: { DataType: "String", StringValue: "test" } } })).body;
  await call(pg, "ReceiveMessage", { QueueUrl });
  pg.advance(1_000);
  await call(pg, "ReceiveMessage", { QueueUrl });
  const before = JSON.stringify(pg.snapshot());
  const peek = pg.peek(MessageId);
  assert.equal(peek.message.body, "<b>hi</b>");
  assert.equal(peek.message.receiveCount, 2);
  assert.equal(peek.receiptHandles.length, 2);
  assert.equal(peek.receiptHandles[1], peek.message.receiptHandle);
  assert.deepEqual(peek.attributes, [{ name: "kind", dataType: "String", value: "test" }]);
  assert.equal(JSON.stringify(pg.snapshot()), before, "peeking changes nothing");
  assert.equal(pg.peek("no-such-id"), null);
});

test("a malformed scenario names the field and what was expected", () => {
  const bad = { title: "t", durationMs: 1000, queues: [{ name: "q" }],
    consumers: [{ name: "w", queue: "q", processing: { fixed: 10 } }] };
  assert.throws(() => Playground.fromScenario(JSON.stringify(bad)), (e) =>
    e instanceof Error && /unknown variant `fixed`, expected one of `fixedMs`/.test(e.message) && /line 1 column \d+/.test(e.message));
  assert.throws(() => Playground.fromScenario("{"), /invalid scenario/);
  const badQueue = { title: "t", durationMs: 1000, queues: [{ name: "q", visibilityTimeoutSeconds: 99999 }] };
  assert.throws(() => Playground.fromScenario(JSON.stringify(badQueue)), /VisibilityTimeout/);
  const unknownQueue = { title: "t", durationMs: 1000, queues: [], producers: [{ name: "p", queue: "nope" }] };
  assert.throws(() => Playground.fromScenario(JSON.stringify(unknownQueue)), /"nope" is not one of the scenario's queues/);
});
