// SQS's request quotas with the realism knob `throttling` on, as a
// learner's tools meet them: the real @aws-sdk/client-sqs, through the
// adapter, sees RequestThrottled (403) and retries it as its standard
// retry mode does (three attempts in all, each throttled again within
// the same virtual second); the built-in client reports SQS's code; a
// new virtual second takes the call.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { Playground } from "./load.mjs";
import { sdkClient } from "./sdk-client.mjs";
import { SqsClient } from "../../web/client/sqs-client.js";

/** A throttled engine with a FIFO queue, and a count of the calls that reach it. */
async function throttledFifo() {
  const pg = new Playground({ realism: { throttling: true } });
  const counted = { calls: 0, dispatch: (...args) => (counted.calls++, pg.dispatch(...args)) };
  const sqs = new SqsClient(pg);
  const { QueueUrl } = await sqs.createQueue({ QueueName: "orders.fifo", Attributes: { FifoQueue: "true", ContentBasedDeduplication: "true" } });
  const send = (i) => ({ QueueUrl, MessageBody: `order ${i}`, MessageGroupId: "orders" });
  for (let i = 0; i < 300; i++) await sqs.sendMessage(send(i));
  return { pg, sqs, counted, send };
}

test("the SDK retries a RequestThrottled SendMessage, and gives up after its three attempts within the second", async () => {
  const { counted, send } = await throttledFifo();
  const client = sdkClient(counted);
  const error = await client.send(new SendMessageCommand(send(300))).catch((e) => e);
  assert.equal(error.name, "RequestThrottled");
  assert.equal(error.message, "Request is throttled.");
  assert.equal(error.$metadata.httpStatusCode, 403);
  assert.equal(error.$metadata.attempts, 3, "the SDK's standard retry mode: 3 attempts");
  assert.equal(counted.calls, 3, "each attempt reached SQS, and each was throttled");
});

test("the next virtual second takes the call the SDK sends", async () => {
  const { pg, counted, send } = await throttledFifo();
  pg.advance(1000);
  const answer = await sdkClient(counted).send(new SendMessageCommand(send(300)));
  assert.ok(answer.MessageId);
  assert.equal(answer.$metadata.attempts, 1);
});

test("the built-in client reports SQS's RequestThrottled with its query code and status", async () => {
  const { sqs, send } = await throttledFifo();
  const error = await sqs.sendMessage(send(300)).catch((e) => e);
  assert.equal(error.name, "RequestThrottled");
  assert.equal(error.Code, "RequestThrottled");
  assert.equal(error.$metadata.httpStatusCode, 403);
});

test("a standard queue is never throttled, and neither is anything with the knob off", async () => {
  const pg = new Playground({ realism: { throttling: true } });
  const sqs = new SqsClient(pg);
  const { QueueUrl } = await sqs.createQueue({ QueueName: "orders" });
  for (let i = 0; i < 400; i++) await sqs.sendMessage({ QueueUrl, MessageBody: `o${i}` });
  const off = new SqsClient(new Playground());
  const fifo = await off.createQueue({ QueueName: "o.fifo", Attributes: { FifoQueue: "true", ContentBasedDeduplication: "true" } });
  for (let i = 0; i < 400; i++) await off.sendMessage({ QueueUrl: fifo.QueueUrl, MessageBody: `o${i}`, MessageGroupId: "g" });
});
