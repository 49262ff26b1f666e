// The built-in client (web/client/sqs-client.js): its two calling styles, its
// errors, swapping engines, and parity with the real SDK, so that code
// written against one runs unchanged against the other.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as sdk from "@aws-sdk/client-sqs";
import { operations, Playground } from "./load.mjs";
import { assertQueueDoesNotExist, sdkClient } from "./sdk-client.mjs";
import {
  OPERATIONS, SqsClient, SqsError, commands, CreateQueueCommand, DeleteMessageCommand,
  GetQueueUrlCommand, ListQueuesCommand, ReceiveMessageCommand, SendMessageCommand,
} from "../../web/client/sqs-client.js";

// The engine's list of operations (its Action enum), as the binding gives it.
const EXPECTED_OPERATIONS = operations();

test("every operation has a command named as in the SDK and a camelCase method", () => {
  assert.deepEqual([...OPERATIONS], EXPECTED_OPERATIONS);
  const client = new SqsClient(new Playground());
  for (const operation of OPERATIONS) {
    const CommandClass = commands[operation];
    assert.equal(CommandClass.name, `${operation}Command`);
    assert.equal(typeof sdk[`${operation}Command`], "function", `the SDK has ${operation}Command too`);
    assert.equal(typeof client[operation[0].toLowerCase() + operation.slice(1)], "function");
  }
  const input = { QueueUrl: "u", MessageBody: "b" };
  assert.equal(new SendMessageCommand(input).input, input, "input is kept as given");
});

test("method calls and send(Command) give the same results, with $metadata", async () => {
  // Same seed, same calls: the engine gives the same ids and handles, so the
  // two styles must produce identical answers, request ids included.
  async function flow(style) {
    const sqs = new SqsClient(new Playground({ seed: 11 }));
    const out = [];
    const { QueueUrl } = await style(sqs, "CreateQueue", { QueueName: "styles" });
    out.push(await style(sqs, "SendMessage", { QueueUrl, MessageBody: "hello" }));
    const received = await style(sqs, "ReceiveMessage", { QueueUrl, MessageSystemAttributeNames: ["All"] });
    out.push(received);
    out.push(await style(sqs, "DeleteMessage", { QueueUrl, ReceiptHandle: received.Messages[0].ReceiptHandle }));
    out.push(await style(sqs, "ListQueues"));
    return out;
  }
  const byMethod = await flow((sqs, op, input) => sqs[op[0].toLowerCase() + op.slice(1)](input));
  const bySend = await flow((sqs, op, input) => sqs.send(new commands[op](input)));
  assert.deepEqual(byMethod, bySend);

  const [sent, received, deleted] = byMethod;
  assert.equal(sent.$metadata.httpStatusCode, 200);
  assert.match(sent.$metadata.requestId, /^[0-9a-f-]{36}$/);
  assert.equal(received.Messages[0].Body, "hello");
  assert.deepEqual(Object.keys(deleted), ["$metadata"], "an empty answer is just $metadata");
});

test("an error is an SqsError with the SDK's name, the awsQuery Code, the fault and $metadata", async () => {
  const sqs = new SqsClient(new Playground());
  const missing = await sqs.getQueueUrl({ QueueName: "nope" }).catch((e) => e);
  assert.ok(missing instanceof SqsError && missing instanceof Error);
  assertQueueDoesNotExist(missing);

  // On the wire this is InvalidParameterValueException; the SDK, having no
  // class for it, names it by its query code, and so does SqsError.
  const { QueueUrl } = await sqs.createQueue({ QueueName: "q" });
  const invalid = await sqs.receiveMessage({ QueueUrl, MaxNumberOfMessages: 11 }).catch((e) => e);
  assert.equal(invalid.name, "InvalidParameterValue");
  assert.equal(invalid.Code, "InvalidParameterValue");
  const renamed = await sqs.createQueue({ QueueName: "q", Attributes: { DelaySeconds: "3" } }).catch((e) => e);
  assert.deepEqual([renamed.name, renamed.Code], ["QueueNameExists", "QueueAlreadyExists"]);
});

test("a target function is asked for the engine on every request, so a page can swap engines", async () => {
  const first = new Playground();
  const second = new Playground();
  let current = first;
  const sqs = new SqsClient(() => current);
  await sqs.createQueue({ QueueName: "only-in-first" });
  assert.equal((await sqs.listQueues()).QueueUrls.length, 1);
  current = second;
  assert.equal((await sqs.listQueues()).QueueUrls, undefined);
  current = null;
  await assert.rejects(sqs.listQueues(), { name: "TypeError", message: /target function returned null/ });
});

test("send rejects anything but this module's commands with a TypeError that says what to pass", async () => {
  const sqs = new SqsClient(new Playground());
  await assert.rejects(sqs.send({ input: { QueueName: "x" } }), { name: "TypeError", message: /new SendMessageCommand/ });
  await assert.rejects(sqs.send(undefined), { name: "TypeError", message: /got undefined/ });
  await assert.rejects(sqs.send(new sdk.ListQueuesCommand({})), {
    name: "TypeError", message: /got a ListQueuesCommand from @aws-sdk\/client-sqs/,
  });
  assert.throws(() => new SqsClient({}), TypeError);
});

test("requests leave out undefined members and carry the caller; binary values travel as base64", async () => {
  const seen = [];
  const fake = {
    async dispatch(target, body, options) {
      seen.push({ target, body: JSON.parse(body), options });
      return { status: 200, headers: { "X-Amzn-RequestId": "req-1" }, body: JSON.stringify({
        Messages: [{ Body: "b", MessageAttributes: { raw: { DataType: "Binary", BinaryValue: "AAH+/w==" } } }],
      }) };
    },
  };
  const sqs = new SqsClient(fake, { caller: "worker-3" });
  const res = await sqs.sendMessage({
    QueueUrl: "u", MessageBody: "b", DelaySeconds: undefined,
    MessageAttributes: { raw: { DataType: "Binary", BinaryValue: new Uint8Array([0, 1, 254, 255]) } },
  });
  assert.deepEqual(seen[0], {
    target: "AmazonSQS.SendMessage",
    body: { QueueUrl: "u", MessageBody: "b", MessageAttributes: { raw: { DataType: "Binary", BinaryValue: "AAH+/w==" } } },
    options: { caller: "worker-3" },
  });
  assert.deepEqual(res.Messages[0].MessageAttributes.raw.BinaryValue, new Uint8Array([0, 1, 254, 255]));
  assert.deepEqual(res.$metadata, { httpStatusCode: 200, requestId: "req-1" });
});

test("the built-in client and the real SDK give the same answers and errors for the same session", async () => {
  // Both run the same calls on playgrounds with the same seed, so even ids
  // and receipt handles agree; only $metadata differs (the SDK adds retry
  // counts), so it is compared on status and request id alone.
  async function session(send) {
    const log = [];
    const step = async (name, input) => {
      try {
        const { $metadata, ...output } = await send(name, input);
        log.push([name, output, $metadata.httpStatusCode, $metadata.requestId]);
        return output;
      } catch (e) {
        log.push([name, { name: e.name, message: e.message, Code: e.Code, $fault: e.$fault }, e.$metadata.httpStatusCode, e.$metadata.requestId]);
        return {};
      }
    };
    const { QueueUrl: dlq } = await step("CreateQueue", { QueueName: "parity-dlq" });
    const { Attributes } = await step("GetQueueAttributes", { QueueUrl: dlq, AttributeNames: ["QueueArn"] });
    const { QueueUrl } = await step("CreateQueue", { QueueName: "parity", Attributes: {
      VisibilityTimeout: "0", RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes.QueueArn, maxReceiveCount: 1 }),
    } });
    await step("SendMessage", { QueueUrl, MessageBody: "one", MessageAttributes: {
      n: { DataType: "Number", StringValue: "7" }, b: { DataType: "Binary", BinaryValue: new Uint8Array([9, 8, 7]) },
    } });
    await step("SendMessageBatch", { QueueUrl, Entries: [{ Id: "ok", MessageBody: "two" }, { Id: "bad", MessageBody: "\u0000" }] });
    const { Messages } = await step("ReceiveMessage", { QueueUrl, MaxNumberOfMessages: 10, MessageAttributeNames: ["All"], MessageSystemAttributeNames: ["All"] });
    await step("ChangeMessageVisibilityBatch", { QueueUrl, Entries: [{ Id: "x", ReceiptHandle: "bogus", VisibilityTimeout: 5 }] });
    await step("ReceiveMessage", { QueueUrl });
    await step("ListDeadLetterSourceQueues", { QueueUrl: dlq });
    await step("DeleteMessageBatch", { QueueUrl, Entries: [{ Id: "m", ReceiptHandle: Messages[0].ReceiptHandle }, { Id: "x", ReceiptHandle: "bogus" }] });
    await step("GetQueueUrl", { QueueName: "missing" });
    await step("ReceiveMessage", { QueueUrl, WaitTimeSeconds: 99 });
    await step("CreateQueue", { QueueName: "parity", Attributes: { DelaySeconds: "1" } });
    await step("SendMessage", { QueueUrl });
    await step("ListQueues", {});
    return log;
  }
  const builtIn = new SqsClient(new Playground({ seed: 4 }));
  const real = sdkClient(new Playground({ seed: 4 }));
  const ours = await session((name, input) => builtIn.send(new commands[name](input)));
  const theirs = await session((name, input) => real.send(new sdk[`${name}Command`](input)));
  assert.deepEqual(ours, theirs);
  assert.ok(ours.some(([, output]) => output.name === "QueueDoesNotExist"), "the session did reach its errors");
});

test("SDK-style imports read the same with the built-in client", async () => {
  const sqs = new SqsClient(new Playground());
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: "imports" }));
  await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: "m" }));
  const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl }));
  await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: Messages[0].ReceiptHandle }));
  assert.equal((await sqs.send(new GetQueueUrlCommand({ QueueName: "imports" }))).QueueUrl, QueueUrl);
  assert.deepEqual((await sqs.send(new ListQueuesCommand())).QueueUrls, [QueueUrl]);
});
