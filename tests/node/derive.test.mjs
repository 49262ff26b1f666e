// derive (web/run/derive.js) on real engine runs: the facts the views draw
// (who holds a message at once with whom, which queue is whose dead-letter
// queue, the stage order, the chart's metrics) agree with the engine's own
// events and snapshot.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import "./load.mjs";
import { Run } from "../../web/run/run.js";
import { derive, retime } from "../../web/run/derive.js";
import { neighbourQueue } from "./neighbours-policy.mjs";
import { LAMBDA_SCENARIO } from "./lambda-scenario.mjs";

const scenario = (file) => readFileSync(new URL(`../../web/scenarios/${file}`, import.meta.url), "utf8");

/** Runs `file` step by step, deriving after each step like the lab does; calls `each(d)`. */
function walk(file, each) {
  const run = new Run();
  run.start(scenario(file));
  let steps = 0;
  while (run.now < run.duration && steps++ < 5000) {
    run.step();
    const { events, leftNow } = run.take();
    each(derive({ snap: run.snap, now: run.now, events, facts: run.facts, leftNow, scenario: run.scenario }), run);
  }
  return run;
}

test("two consumers holding one message: seen exactly while the engine says so", () => {
  let seen = 0;
  walk("02-slow-consumer-duplicate.json", (d, run) => {
    // The engine's word for it: a duplicateDelivery whose pair still both work on the message.
    const working = new Map(run.snap.simulation.workers.map((w) => [w.name, new Set(w.holding.filter((x) => !x.done).map((x) => x.messageId))]));
    const pairs = run.pg.events(0).filter((e) => e.type === "duplicateDelivery" && working.get(e.consumer)?.has(e.messageId) && working.get(e.alsoHeldBy)?.has(e.messageId));
    assert.deepEqual(d.duplicates.map(([id, names]) => `${id} ${[...names].sort()}`), pairs.map((e) => `${e.messageId} ${[e.consumer, e.alsoHeldBy].sort()}`), `at t=${d.now}`);
    for (const e of pairs) {
      assert.deepEqual(d.othersHolding(e.messageId, e.consumer), [e.alsoHeldBy]);
      assert.deepEqual(d.othersHolding(e.messageId, e.alsoHeldBy), [e.consumer]);
      seen++;
    }
    for (const [id, names] of d.holders) if (names.length === 1) assert.deepEqual(d.othersHolding(id, names[0]), []);
  });
  assert.ok(seen > 0, "the scenario shows a duplicate delivery");
});

test("a dead-letter queue is known by its source; the stage puts it under its source", () => {
  let moved = false;
  walk("05-poison-message.json", (d, run) => {
    assert.equal(d.sourceOf.get("orders-dlq")?.name, "orders");
    assert.equal(d.sourceOf.has("orders"), false);
    assert.deepEqual(d.order, ["orders", "orders-dlq"], "the scenario lists the DLQ first, the stage shows it under its source");
    const dlq = run.snap.queues.find((q) => q.name === "orders-dlq");
    assert.equal(d.metrics.dlq, dlq.visible + dlq.inFlight + dlq.delayed);
    const orders = run.snap.queues.find((q) => q.name === "orders");
    assert.deepEqual([d.metrics.visible, d.metrics.inFlight, d.metrics.delayed], [orders.visible, orders.inFlight, orders.delayed]);
    if (d.events.some((e) => e.type === "movedToDeadLetterQueue")) {
      moved = true;
      assert.equal(d.maxReceive("orders"), 3, "the log can say the source's maxReceiveCount");
    }
  });
  assert.ok(moved, "the poison message reached the DLQ");
});

test("labels, side effects and leavers come from the run's events", () => {
  const left = [];
  const run = walk("02-slow-consumer-duplicate.json", (d) => {
    left.push(...d.leftNow);
    for (const [id, fx] of d.fx) assert.equal(fx.messageId, id);
  });
  const sent = run.pg.events(0).filter((e) => e.type === "sent");
  const d = derive({ snap: run.snap, now: run.now, events: [], facts: run.facts, leftNow: [], scenario: run.scenario });
  for (const e of sent) assert.equal(d.label(e.messageId), e.label);
  assert.deepEqual(left, run.pg.events(0).filter((e) => e.type === "deleted").map((e) => e.messageId));
  assert.deepEqual([...d.fx.values()].map((s) => s.count), [2], "A-1001 charged twice");
  const later = retime(d, d.now + 5000);
  assert.equal(later.now, d.now + 5000);
  assert.deepEqual(later.events, []);
  assert.equal(later.duplicates, d.duplicates);
});

test("messages you send and hold by hand make you a producer and a consumer", async () => {
  const run = new Run();
  run.start(scenario("01-process-then-delete.json"));
  const now = () => derive({ snap: run.snap, now: run.now, ...run.take(), facts: run.facts, scenario: run.scenario });
  // Until a simulated worker holds a message its producer sent.
  while (!run.snap.simulation.workers.some((w) => w.holding.some((x) => !x.done)) && run.now < run.duration) run.step();
  assert.ok(run.now < run.duration);
  // A queue of your own, so no simulated worker takes your message first.
  const queue = "mine";
  const url = JSON.parse((await run.dispatch("AmazonSQS.CreateQueue", JSON.stringify({ QueueName: queue }))).body).QueueUrl;
  await run.dispatch("AmazonSQS.SendMessage", JSON.stringify({ QueueUrl: url, MessageBody: "by hand" }), { caller: "you" });
  await run.dispatch("AmazonSQS.ReceiveMessage", JSON.stringify({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }), { caller: "you" });
  run.collect();
  const d = now();
  const mine = d.producers.find((p) => p.name === "you");
  assert.deepEqual({ queue: mine.queue, spec: mine.spec, sent: mine.sent }, { queue, spec: null, sent: 1 });
  assert.deepEqual(d.producers.slice(0, -1).map((p) => p.spec?.name), run.scenario.producers.map((p) => p.name), "the scenario's producers first, once each");
  assert.ok(d.producers[0].sent > 0);
  const held = d.handHolders.get("you");
  assert.ok(held?.holding.length > 0, "you hold what you received");
  for (const x of held.holding) {
    const m = run.snap.queues.flatMap((q) => q.messages).find((n) => n.messageId === x.messageId);
    assert.equal(m.holder, "you");
    assert.equal(d.inFlightSince(x.messageId), run.now, "in flight since your receive");
  }
  assert.equal(d.handHolders.size, 1, "simulated workers are not hand holders");
});

test("a schedule is drawn as one of the scenario's senders, counted by the engine, not as a sender by hand", () => {
  const run = new Run();
  run.start(JSON.stringify({
    title: "reminders",
    durationMs: 5000,
    queues: [{ name: "reminders" }],
    schedule: [{ name: "cron", queue: "reminders", sends: [{ atMs: 1000, body: "first" }, { atMs: 2000, body: "second" }] }],
  }));
  while (run.now < run.duration) run.step();
  const d = derive({ snap: run.snap, now: run.now, ...run.take(), facts: run.facts, scenario: run.scenario });
  const cron = d.producers.find((p) => p.name === "cron");
  assert.deepEqual({ queue: cron.queue, spec: cron.spec, sent: cron.sent, dropped: cron.dropped }, { queue: "reminders", spec: run.scenario.schedule[0], sent: 2, dropped: 0 });
  assert.equal(cron.last.at, 2000, "its last send, from the run's events");
  assert.deepEqual(run.snap.simulation.producers.map((p) => [p.name, p.sent]), [["cron", 2]], "the engine's count");
});

test("a bucket's arrows count what its queue took, and break with S3's words when its configuration is refused", async () => {
  const text = JSON.stringify({
    title: "s3", durationMs: 10000,
    queues: [neighbourQueue("uploads-queue"), neighbourQueue("thumbs")],
    buckets: [
      { name: "uploads", notifications: [{ queue: "uploads-queue", events: ["s3:ObjectCreated:*"], prefix: "images/" }],
        objects: [{ atMs: 1000, put: "images/cat.jpg", sizeBytes: 2048 }, { atMs: 1000, put: "docs/a.txt" }] },
      { name: "thumbnails", configuredAtMs: 500, notifications: [{ queue: "thumbs", events: ["s3:ObjectCreated:*"] }] },
    ],
  });
  const run = new Run();
  run.start(text);
  const thumbs = run.snap.queues.find((q) => q.name === "thumbs").url;
  await run.dispatch("AmazonSQS.DeleteQueue", JSON.stringify({ QueueUrl: thumbs }));
  let d;
  for (let steps = 0; run.now < run.duration && steps < 100; steps++) {
    run.step();
    const { events, leftNow } = run.take();
    d = derive({ snap: run.snap, now: run.now, events, facts: run.facts, leftNow, scenario: run.scenario });
  }
  const [uploads, thumbnails] = d.buckets;
  assert.deepEqual(uploads.arrows, [{ queue: "uploads-queue", events: "s3:ObjectCreated:*", filter: "prefix images/", sent: 1, lost: 0, broken: null }]);
  assert.deepEqual([uploads.configuration, uploads.puts, uploads.recentKeys], ["valid", 2, ["images/cat.jpg", "docs/a.txt"]]);
  assert.equal(thumbnails.configuration, "failed");
  assert.match(thumbnails.arrows[0].broken, /^InvalidArgument: Unable to validate the following destination configurations: arn:aws:sqs:[^:]+:\d{12}:thumbs \(AWS\.SimpleQueueService\.NonExistentQueue: /);
});

test("a bucket's notifications are drawn with the bucket, not as sends by hand", () => {
  const text = JSON.stringify({
    title: "s3", durationMs: 3000, queues: [neighbourQueue("jobs")],
    buckets: [{ name: "uploads", notifications: [{ queue: "jobs", events: ["s3:ObjectCreated:*"] }], objects: [{ atMs: 1000, put: "a.jpg" }] }],
  });
  const run = new Run();
  run.start(text);
  let d;
  for (let steps = 0; run.now < run.duration && steps < 100; steps++) {
    run.step();
    const { events, leftNow } = run.take();
    d = derive({ snap: run.snap, now: run.now, events, facts: run.facts, leftNow, scenario: run.scenario });
  }
  assert.equal(run.snap.queues[0].visible, 2, "the test event and the notification");
  assert.deepEqual(d.producers, []);
  assert.equal(d.buckets[0].arrows[0].sent, 1);
});

test("a topic's deliveries are drawn with the topic, not as sends by hand", () => {
  const run = new Run();
  run.start(scenario("16-sns-fan-out.json"));
  let d;
  for (let steps = 0; run.now < run.duration && steps < 200; steps++) {
    run.step();
    const { events, leftNow } = run.take();
    d = derive({ snap: run.snap, now: run.now, events, facts: run.facts, leftNow, scenario: run.scenario });
  }
  assert.equal(run.facts.sentBy.get("orders-topic"), 8, "three publishes: 3 + 2 + 3 deliveries");
  assert.deepEqual(d.producers, []);
});

test("a Lambda function's batches, results and refusal are drawn as the snapshot and its events say", () => {
  const run = new Run();
  run.start(JSON.stringify(LAMBDA_SCENARIO));
  const seen = new Set();
  for (let steps = 0; run.now < run.duration && steps < 2000; steps++) {
    run.step();
    const { events, leftNow } = run.take();
    const d = derive({ snap: run.snap, now: run.now, events, facts: run.facts, leftNow, scenario: run.scenario });
    const at = `at t=${run.now}`;
    const snapped = run.snap.simulation.lambdas;
    assert.deepEqual(d.lambdas.map((l) => [l.name, l.queue, l.state, l.pollers, l.concurrency, l.invocations, l.errors, l.throttles]), snapped.map((l) => [l.name, l.queue, l.state, l.pollers, l.concurrency, l.invocations, l.errors, l.throttles]), at);
    for (const [i, l] of d.lambdas.entries()) {
      assert.deepEqual(l.running.map((r) => [r.invocation, r.size, r.startedAt, r.endsAt, r.messages.map((m) => m.id)]), snapped[i].running.map((r) => [r.invocation, r.size, r.startedAt, r.endsAt, r.messages]), at);
      for (const r of l.running) for (const m of r.messages) assert.equal(m.label, run.facts.label(m.id), "a message is named as its token is");
    }
    // The Lambda pollers hold their batches: no hand holds them.
    assert.deepEqual([...d.handHolders.keys()], [], at);
    for (const e of events) {
      const l = d.lambdas.find((x) => x.name === e.function);
      if (e.type === "lambdaReturned") {
        const end = l.ended.find((x) => x.invocation === e.invocation);
        assert.equal(end.kind, e.result, at);
        assert.deepEqual(end.messages.filter((m) => m.back).map((m) => m.id), e.failed, "the failed ones are marked going back");
        assert.equal(end.messages.length, end.size);
        seen.add(e.result);
      } else if (e.type === "lambdaThrottled") {
        assert.ok(l.ended.some((x) => x.kind === "throttled" && x.at === e.timeMs && x.size === e.messages.length), at);
        seen.add("throttled");
      }
    }
  }
  const last = derive({ snap: run.snap, now: run.now, events: [], facts: run.facts, leftNow: [], scenario: run.scenario });
  const orders = last.lambdas.find((l) => l.name === "process-orders");
  assert.deepEqual([orders.batchSize, orders.windowSeconds, orders.reportsItemFailures, orders.maximumConcurrency], [4, 1, true, 2], "the mapping's settings as the scenario wrote them");
  const emails = last.lambdas.find((l) => l.name === "send-emails");
  assert.deepEqual([emails.batchSize, emails.windowSeconds, emails.reportsItemFailures, emails.maximumConcurrency], [null, null, false, null], "left to Lambda's defaults, which the page does not copy");
  assert.equal(emails.state, "refused");
  assert.deepEqual(emails.refused, { queue: "emails", code: "InvalidParameterValueException", error: "Queue visibility timeout: 10 seconds is less than Function timeout: 20 seconds" });
  assert.equal(orders.refused, null);
  const poison = orders.ended.flatMap((e) => e.messages).find((m) => m.back);
  assert.match(poison.label, /malformed/, "the poison order goes back");
  assert.deepEqual([...seen].sort(), ["partial", "success", "throttled"]);
  const reports = last.lambdas.find((l) => l.name === "build-reports");
  assert.deepEqual(reports.ended.map((e) => [e.kind, e.times]), [["throttled", run.snap.simulation.lambdas.find((l) => l.name === "build-reports").throttles]], "one batch throttled again and again is one mark, counted");
  assert.ok(orders.ended.length <= 4 && orders.ended.every((e, i, all) => i === 0 || all[i - 1].at >= e.at), "the latest few, newest first");
});

test("a scenario without Lambda functions derives one empty list, every time", () => {
  const runs = [];
  walk("01-process-then-delete.json", (d) => runs.push(d.lambdas));
  assert.ok(runs.length > 1);
  assert.ok(runs.every((l) => l === runs[0] && l.length === 0));
});
