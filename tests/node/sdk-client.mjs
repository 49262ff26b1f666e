// The real @aws-sdk/client-sqs, sending into a Playground through
// web/client/sdk.js, and helpers for waiting on long polls in virtual time.
import assert from "node:assert/strict";
import { SQSClient } from "@aws-sdk/client-sqs";
import { queuelabHandler } from "../../web/client/sdk.js";

// The SDK warns once per process that its releases after January 2027 need
// Node 22; it has nothing to say about these tests, so use its own off switch.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

/** An SQSClient configured as a learner would, but answered by `target`. */
export function sdkClient(target, options) {
  return new SQSClient({
    region: "us-east-1",
    credentials: { accessKeyId: "x", secretAccessKey: "x" },
    requestHandler: queuelabHandler(target, options),
  });
}

/** Waits until `count` long polls are parked in the engine. */
export async function untilWaiting(pg, count = 1) {
  for (let i = 0; i < 200; i++) {
    if (pg.snapshot().waitingPolls >= count) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`expected ${count} long poll(s) waiting in the engine, found ${pg.snapshot().waitingPolls}`);
}

/** The error both the SDK and the built-in client give for GetQueueUrl of a missing queue. */
export function assertQueueDoesNotExist(error) {
  assert.equal(error.name, "QueueDoesNotExist");
  assert.equal(error.message, "The specified queue does not exist.");
  assert.equal(error.Code, "AWS.SimpleQueueService.NonExistentQueue");
  assert.equal(error.$fault, "client");
  assert.equal(error.$metadata.httpStatusCode, 400);
  assert.ok(error.$metadata.requestId);
}
