// web/text/topics.js: what the stage says of an SNS topic's arrows, from a
// real run's snapshot (a queue deleted mid-run: the arrow breaks, with
// SQS's reason).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Playground } from "./load.mjs";
import { subscriptionArrow, topicHeading } from "../../web/text/topics.js";
import { neighbourQueue } from "./neighbours-policy.mjs";

const scenario = {
  title: "topics", durationMs: 10000,
  queues: [neighbourQueue("billing"), neighbourQueue("orders")],
  topics: [{ name: "orders-topic", subscriptions: [
    { queue: "billing", filterPolicy: { type: ["order"] } },
    { queue: "orders" },
  ], publishes: [
    { atMs: 1000, message: "a", attributes: { type: "order" } },
    { atMs: 2000, message: "b", attributes: { type: "refund" } },
  ] }],
};

test("a topic's arrows count deliveries and filtered messages, and a refused delivery breaks the arrow with SQS's reason", () => {
  const pg = Playground.fromScenario(JSON.stringify(scenario));
  pg.advance(1500);
  pg.dispatch("AmazonSQS.DeleteQueue", JSON.stringify({ QueueUrl: "https://sqs.us-east-1.amazonaws.com/000000000000/orders" }));
  pg.advance(5000);
  const [topic] = pg.snapshot().simulation.topics;
  assert.equal(topicHeading(topic), "orders-topic · 2 messages published");
  const [billing, orders] = topic.subscriptions.map(subscriptionArrow);
  assert.deepEqual(billing, { queue: "billing", broken: false, counts: "1 delivered · 1 filtered out", reason: "" });
  assert.equal(orders.broken, true);
  assert.equal(orders.counts, "1 delivered · 1 refused · 1 dropped");
  assert.match(orders.reason, /^AWS\.SimpleQueueService\.NonExistentQueue: .* \(client-side: SNS does not retry; no dead-letter queue, so dropped\)$/);
});
