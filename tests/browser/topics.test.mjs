// SNS topics on the stage: a card per topic, an arrow per subscribed queue
// with its counts, and a broken arrow with SQS's reason when a delivery is
// refused (here the queue is deleted mid-run with el.sqs), as the engine's
// snapshot says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { artifacts, open } from "./harness.mjs";
import { neighbourQueue } from "../node/neighbours-policy.mjs";

const scenario = {
  title: "SNS fan-out", durationMs: 10000,
  queues: ["billing", "analytics", "orders", "sns-dlq"].map((name) => neighbourQueue(name)),
  topics: [{ name: "orders-topic", subscriptions: [
    { queue: "billing", filterPolicy: { type: ["order"] } },
    { queue: "analytics", rawMessageDelivery: true },
    { queue: "orders", deadLetterQueue: "sns-dlq" },
  ], publishes: [
    { atMs: 1000, message: "{\"id\":\"A-1\"}", attributes: { type: "order" } },
    { atMs: 2000, message: "{\"id\":\"R-1\"}", attributes: { type: "refund" } },
    { atMs: 3000, message: "{\"id\":\"A-2\"}", attributes: { type: "order" } },
  ] }],
};

const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Topics</title>
<script type="module" src="web/queue-lab.js"></script></head><body>
<queue-lab id="lab" checkpoints="off"><script type="application/json">${JSON.stringify(scenario)}</script></queue-lab></body></html>`;

test("a topic's card draws an arrow per queue, filtered messages, and a broken arrow with SQS's reason", async () => {
  const { page, problems, close } = await open("sns.html", {
    routes: { "sns.html": { body: html, contentType: "text/html" } },
    readyWhen: "#lab[data-ready='true']",
  });
  const lab = page.locator("#lab");
  await lab.evaluate((el) => el.controls.scrub(2500, false));
  await lab.evaluate((el) => el.sqs.deleteQueue({ QueueUrl: "https://sqs.us-east-1.amazonaws.com/000000000000/orders" }));
  await lab.evaluate((el) => el.controls.scrub(5000, false));
  const drawn = await page.waitForFunction(() => {
    const root = document.getElementById("lab").shadowRoot;
    const box = root.getElementById("topics");
    const arrows = [...root.querySelectorAll(".topic-arrow")];
    if (box.hidden || arrows.length !== 3 || !root.querySelector(".topic-reason")) return null;
    return {
      heading: root.querySelector(".topic-name").textContent,
      arrows: arrows.map((a) => ({ broken: a.classList.contains("broken"), text: a.textContent })),
    };
  }).then((h) => h.jsonValue());
  const topic = await lab.evaluate((el) => el.controls.playground.snapshot().simulation.topics[0]);
  assert.equal(drawn.heading, `orders-topic · ${topic.published} messages published`);
  assert.deepEqual(drawn.arrows.map((a) => a.broken), [false, false, true]);
  assert.match(drawn.arrows[0].text, /^→ billing 2 delivered · 1 filtered out$/);
  assert.match(drawn.arrows[1].text, /^→ analytics 3 delivered · raw$/);
  assert.match(drawn.arrows[2].text, /^⇢✕ orders 2 delivered · 1 refused · 1 to sns-dlqAWS\.SimpleQueueService\.NonExistentQueue: The specified queue does not exist\. \(client-side: SNS does not retry; then to sns-dlq\)$/);
  assert.equal(topic.subscriptions[2].deadLettered, 1);
  await page.locator("#lab").screenshot({ path: `${artifacts}topics.png` });
  assert.deepEqual(problems, []);
  await close();
});

// The queue "orders" has no policy: SQS refuses SNS, which does not retry
// a client-side error and sends the message to the subscription's
// dead-letter queue.
const refusedScenario = {
  title: "SNS refused", durationMs: 5000,
  queues: [neighbourQueue("billing"), { name: "orders" }, neighbourQueue("sns-dlq")],
  topics: [{ name: "orders-topic", subscriptions: [
    { queue: "billing" },
    { queue: "orders", deadLetterQueue: "sns-dlq" },
  ], publishes: [
    { atMs: 1000, message: "{\"id\":\"A-1\"}" },
    { atMs: 2000, message: "{\"id\":\"A-2\"}" },
  ] }],
};

test("a delivery the queue's policy refuses breaks the arrow with AccessDenied in AWS's words", async () => {
  const refused = html.replace(JSON.stringify(scenario), JSON.stringify(refusedScenario));
  const { page, problems, close } = await open("sns-refused.html", {
    routes: { "sns-refused.html": { body: refused, contentType: "text/html" } },
    readyWhen: "#lab[data-ready='true']",
  });
  const lab = page.locator("#lab");
  await lab.evaluate((el) => el.controls.scrub(4000, false));
  const arrows = await page.waitForFunction(() => {
    const root = document.getElementById("lab").shadowRoot;
    const drawn = [...root.querySelectorAll(".topic-arrow")];
    if (drawn.length !== 2 || !root.querySelector(".topic-reason")) return null;
    return drawn.map((a) => ({ broken: a.classList.contains("broken"), text: a.textContent }));
  }).then((h) => h.jsonValue());
  assert.deepEqual(arrows.map((a) => a.broken), [false, true]);
  assert.match(arrows[0].text, /^→ billing 2 delivered$/);
  assert.match(
    arrows[1].text,
    /^⇢✕ orders 0 delivered · 2 refused · 2 to sns-dlqAccessDenied: User: sns\.amazonaws\.com is not authorized to perform: sqs:sendmessage on resource: arn:aws:sqs:us-east-1:000000000000:orders because no resource-based policy allows the sqs:sendmessage action \(client-side: SNS does not retry; then to sns-dlq\)$/,
  );
  await page.locator("#lab").screenshot({ path: `${artifacts}topics-access-denied.png` });
  assert.deepEqual(problems, []);
  await close();
});
