// The real AWS SDK for JavaScript v3 against the engine, through
// web/client/sdk.js: requests built, signed and parsed by @aws-sdk/client-sqs
// exactly as for AWS, so exception classes, MD5 checks and response shapes
// are the SDK's own verdict on the engine's wire format.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  AddPermissionCommand, ChangeMessageVisibilityBatchCommand, ChangeMessageVisibilityCommand, CreateQueueCommand,
  DeleteMessageBatchCommand, DeleteMessageCommand, EmptyBatchRequest, GetQueueAttributesCommand,
  GetQueueUrlCommand, ListDeadLetterSourceQueuesCommand, ListMessageMoveTasksCommand,
  ListQueuesCommand, OverLimit, PurgeQueueCommand, PurgeQueueInProgress, QueueDoesNotExist, QueueNameExists,
  ReceiptHandleIsInvalid, ReceiveMessageCommand, RemovePermissionCommand, SendMessageBatchCommand, SendMessageCommand,
  SQSClient, SQSServiceException, StartMessageMoveTaskCommand,
} from "@aws-sdk/client-sqs";
import { Playground } from "./load.mjs";
import { queuelabHandler } from "../../web/client/sdk.js";
import { assertQueueDoesNotExist, sdkClient, untilWaiting } from "./sdk-client.mjs";

const md5 = (text) => createHash("md5").update(text, "utf8").digest("hex");

function setup(seed = 1) {
  const pg = new Playground({ seed });
  const sqs = sdkClient(pg);
  const queue = async (QueueName, Attributes) => (await sqs.send(new CreateQueueCommand({ QueueName, Attributes }))).QueueUrl;
  const attributes = async (QueueUrl) =>
    (await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["All"] }))).Attributes;
  const receive = (QueueUrl, input = {}) => sqs.send(new ReceiveMessageCommand({ QueueUrl, ...input }));
  return { pg, sqs, queue, attributes, receive };
}

test("the SDK creates standard and FIFO queues and finds them again", async () => {
  const { sqs, queue, attributes } = setup();
  const orders = await queue("orders");
  const fifo = await queue("orders.fifo", { FifoQueue: "true" });
  assert.equal(orders, "https://sqs.us-east-1.amazonaws.com/000000000000/orders");
  assert.equal((await attributes(fifo)).FifoQueue, "true");
  assert.equal((await attributes(orders)).FifoQueue, undefined);
  assert.deepEqual((await sqs.send(new ListQueuesCommand({}))).QueueUrls, [orders, fifo]);
  assert.equal((await sqs.send(new GetQueueUrlCommand({ QueueName: "orders.fifo" }))).QueueUrl, fifo);
});

test("a message sent with attributes comes back with its body, attributes and the SDK-checked body MD5", async () => {
  const { sqs, queue, receive } = setup();
  const QueueUrl = await queue("mail");
  const MessageAttributes = {
    kind: { DataType: "String", StringValue: "invoice" },
    amount: { DataType: "Number", StringValue: "12.50" },
    blob: { DataType: "Binary", BinaryValue: new Uint8Array([0, 1, 254, 255]) },
  };
  const body = "Grüße, 世界 🎉";
  const sent = await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: body, MessageAttributes }));
  assert.equal(sent.MD5OfMessageBody, md5(body));
  assert.match(sent.MD5OfMessageAttributes, /^[0-9a-f]{32}$/);

  const { Messages } = await receive(QueueUrl, { MessageAttributeNames: ["All"] });
  assert.equal(Messages.length, 1);
  const [message] = Messages;
  assert.equal(message.MessageId, sent.MessageId);
  assert.equal(message.Body, body);
  assert.equal(message.MD5OfBody, md5(body));
  assert.equal(message.MD5OfMessageAttributes, sent.MD5OfMessageAttributes);
  assert.deepEqual(message.MessageAttributes, MessageAttributes);
});

test("the SDK's MD5 checks are live: a tampered digest fails the send and the receive", async () => {
  // Proves the passing MD5s above were really checked, not skipped.
  const pg = new Playground();
  const honest = queuelabHandler(pg);
  const tampering = {
    ...honest,
    async handle(request, options) {
      const { response } = await honest.handle(request, options);
      const text = new TextDecoder().decode(response.body).replace(/"MD5Of(Message)?Body":"[0-9a-f]{32}"/g, '"MD5Of$1Body":"00000000000000000000000000000000"');
      return { response: { ...response, body: new TextEncoder().encode(text) } };
    },
  };
  const sqs = new SQSClient({ region: "us-east-1", credentials: { accessKeyId: "x", secretAccessKey: "x" }, requestHandler: tampering });
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: "checked" }));
  await assert.rejects(sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: "x" })), /InvalidChecksumError/);
  await assert.rejects(sqs.send(new ReceiveMessageCommand({ QueueUrl })), /Invalid MD5 checksum on messages/);
});

test("a received message stays hidden for its visibility timeout, returns at 0, and is gone once deleted", async () => {
  const { pg, sqs, queue, attributes, receive } = setup();
  const QueueUrl = await queue("work", { VisibilityTimeout: "5" });
  await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: "job" }));

  const first = (await receive(QueueUrl)).Messages[0];
  assert.equal((await receive(QueueUrl)).Messages, undefined, "in flight, so nothing to receive");
  pg.advance(5_000);
  const second = (await receive(QueueUrl, { MessageSystemAttributeNames: ["ApproximateReceiveCount"] })).Messages[0];
  assert.equal(second.MessageId, first.MessageId);
  assert.equal(second.Attributes.ApproximateReceiveCount, "2");

  await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl, ReceiptHandle: second.ReceiptHandle, VisibilityTimeout: 0 }));
  const third = (await receive(QueueUrl)).Messages[0];
  assert.equal(third.MessageId, first.MessageId, "visibility 0 makes it receivable at once");

  await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: third.ReceiptHandle }));
  pg.advance(60_000);
  assert.equal((await receive(QueueUrl)).Messages, undefined);
  const after = await attributes(QueueUrl);
  assert.equal(after.ApproximateNumberOfMessages, "0");
  assert.equal(after.ApproximateNumberOfMessagesNotVisible, "0");
});

test("SendMessageBatch fails only the bad entry and sends the others", async () => {
  const { sqs, queue, attributes } = setup();
  const QueueUrl = await queue("batch");
  const res = await sqs.send(new SendMessageBatchCommand({ QueueUrl, Entries: [
    { Id: "a", MessageBody: "first" },
    { Id: "b", MessageBody: "bad \u0001 character" },
    { Id: "c", MessageBody: "third" },
  ] }));
  assert.deepEqual(res.Successful.map((e) => [e.Id, e.MD5OfMessageBody]), [["a", md5("first")], ["c", md5("third")]]);
  assert.equal(res.Failed.length, 1);
  assert.deepEqual({ ...res.Failed[0], Message: undefined }, { Id: "b", SenderFault: true, Code: "InvalidMessageContents", Message: undefined });
  assert.equal((await attributes(QueueUrl)).ApproximateNumberOfMessages, "2");
});

test("DeleteMessageBatch and ChangeMessageVisibilityBatch fail only the entries with bad receipt handles", async () => {
  const { sqs, queue, attributes, receive } = setup();
  const QueueUrl = await queue("handles");
  for (const body of ["a", "b", "c"]) await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: body }));
  const [a, b, c] = (await receive(QueueUrl, { MaxNumberOfMessages: 10 })).Messages;

  const changed = await sqs.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl, Entries: [
    { Id: "a", ReceiptHandle: a.ReceiptHandle, VisibilityTimeout: 0 },
    { Id: "junk", ReceiptHandle: "not-a-handle", VisibilityTimeout: 0 },
  ] }));
  assert.deepEqual(changed.Successful, [{ Id: "a" }]);
  assert.deepEqual(changed.Failed.map((f) => [f.Id, f.Code, f.SenderFault]), [["junk", "ReceiptHandleIsInvalid", true]]);
  assert.equal((await attributes(QueueUrl)).ApproximateNumberOfMessages, "1", "only a became visible");

  const deleted = await sqs.send(new DeleteMessageBatchCommand({ QueueUrl, Entries: [
    { Id: "b", ReceiptHandle: b.ReceiptHandle },
    { Id: "junk", ReceiptHandle: "not-a-handle" },
    { Id: "c", ReceiptHandle: c.ReceiptHandle },
  ] }));
  assert.deepEqual(deleted.Successful, [{ Id: "b" }, { Id: "c" }]);
  assert.deepEqual(deleted.Failed.map((f) => [f.Id, f.Code]), [["junk", "ReceiptHandleIsInvalid"]]);
  const left = await attributes(QueueUrl);
  assert.deepEqual([left.ApproximateNumberOfMessages, left.ApproximateNumberOfMessagesNotVisible], ["1", "0"]);
});

test("a FIFO group is delivered in order and locked while its head is in flight; other groups proceed", async () => {
  const { sqs, queue, receive } = setup();
  const QueueUrl = await queue("orders.fifo", { FifoQueue: "true", ContentBasedDeduplication: "true" });
  for (const [MessageGroupId, MessageBody] of [["A", "A-1"], ["A", "A-2"], ["B", "B-1"], ["A", "A-3"]]) {
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody, MessageGroupId }));
  }
  const bodies = (res) => (res.Messages ?? []).map((m) => m.Body);

  const head = await receive(QueueUrl);
  assert.deepEqual(bodies(head), ["A-1"]);
  assert.deepEqual(bodies(await receive(QueueUrl, { MaxNumberOfMessages: 10 })), ["B-1"], "group A is locked by A-1");
  assert.deepEqual(bodies(await receive(QueueUrl, { MaxNumberOfMessages: 10 })), [], "both groups locked");

  await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: head.Messages[0].ReceiptHandle }));
  const rest = await receive(QueueUrl, { MaxNumberOfMessages: 10, MessageSystemAttributeNames: ["SequenceNumber"] });
  assert.deepEqual(bodies(rest), ["A-2", "A-3"], "unlocked, and still in send order");
  const [s2, s3] = rest.Messages.map((m) => BigInt(m.Attributes.SequenceNumber));
  assert.ok(s2 < s3);
});

test("FIFO content-based deduplication drops a repeated body for five minutes", async () => {
  const { pg, sqs, queue, attributes } = setup();
  const QueueUrl = await queue("payments.fifo", { FifoQueue: "true", ContentBasedDeduplication: "true" });
  const send = () => sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: "charge order 42", MessageGroupId: "g" }));
  const first = await send();
  const retry = await send();
  assert.equal(retry.MessageId, first.MessageId, "the retry is answered with the original id");
  assert.equal((await attributes(QueueUrl)).ApproximateNumberOfMessages, "1");

  pg.advance(5 * 60_000);
  const later = await send();
  assert.notEqual(later.MessageId, first.MessageId, "the window has passed");
  assert.equal((await attributes(QueueUrl)).ApproximateNumberOfMessages, "2");
});

test("a message received past maxReceiveCount moves to the DLQ, and a move task redrives it back", async () => {
  const { pg, sqs, queue, attributes, receive } = setup();
  const dlq = await queue("orders-dlq");
  const dlqArn = (await attributes(dlq)).QueueArn;
  const source = await queue("orders", {
    VisibilityTimeout: "1",
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 2 }),
  });
  const { MessageId } = await sqs.send(new SendMessageCommand({ QueueUrl: source, MessageBody: "poison" }));

  assert.equal((await receive(source)).Messages[0].MessageId, MessageId);
  pg.advance(1_000);
  assert.equal((await receive(source)).Messages[0].MessageId, MessageId);
  pg.advance(1_000);
  assert.equal((await receive(source)).Messages, undefined, "the third receive moves it instead of delivering it");
  assert.equal((await attributes(dlq)).ApproximateNumberOfMessages, "1");
  assert.deepEqual((await sqs.send(new ListDeadLetterSourceQueuesCommand({ QueueUrl: dlq }))).queueUrls, [source]);

  const { TaskHandle } = await sqs.send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn }));
  assert.ok(TaskHandle);
  pg.advance(10_000);
  const [task] = (await sqs.send(new ListMessageMoveTasksCommand({ SourceArn: dlqArn }))).Results;
  assert.equal(task.Status, "COMPLETED");
  assert.equal(task.ApproximateNumberOfMessagesMoved, 1);
  assert.equal((await attributes(dlq)).ApproximateNumberOfMessages, "0");
  assert.deepEqual((await receive(source)).Messages.map((m) => m.Body), ["poison"]);
});

test("errors arrive as the SDK's exception classes with the awsQuery code and HTTP status", async () => {
  const { sqs, queue } = setup();
  const QueueUrl = await queue("errors");

  const missing = await sqs.send(new GetQueueUrlCommand({ QueueName: "nope" })).catch((e) => e);
  assert.ok(missing instanceof QueueDoesNotExist);
  assertQueueDoesNotExist(missing);

  await assert.rejects(sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: "garbage" })), ReceiptHandleIsInvalid);
  await assert.rejects(sqs.send(new CreateQueueCommand({ QueueName: "errors", Attributes: { DelaySeconds: "9" } })), QueueNameExists);
  await assert.rejects(sqs.send(new SendMessageBatchCommand({ QueueUrl, Entries: [] })), EmptyBatchRequest);
  await sqs.send(new PurgeQueueCommand({ QueueUrl }));
  await assert.rejects(sqs.send(new PurgeQueueCommand({ QueueUrl })), (e) => e instanceof PurgeQueueInProgress && e.$metadata.httpStatusCode === 403);

  // SQS's model has no class for InvalidParameterValue: the SDK raises its
  // service exception named by the query code.
  const invalid = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 21 })).catch((e) => e);
  assert.ok(invalid instanceof SQSServiceException);
  assert.equal(invalid.constructor, SQSServiceException);
  assert.equal(invalid.name, "InvalidParameterValue");
  assert.match(invalid.message, /WaitTimeSeconds/);
  assert.equal(invalid.$metadata.httpStatusCode, 400);
});

// A timeout, so a poll that never answers fails the test instead of hanging it.
// "Still pending" is the engine's fact (its snapshot's waitingPolls), read
// at once: the SDK's promise not having settled after some turns proves
// nothing.
test("a long poll through the SDK stays pending until the test advances virtual time", { timeout: 5_000 }, async () => {
  const { pg, sqs, queue } = setup();
  const QueueUrl = await queue("slow");
  await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: "later", DelaySeconds: 5 }));
  const waiting = () => pg.snapshot().waitingPolls;

  const poll = sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 20 }));
  await untilWaiting(pg);
  pg.advance(4_999);
  assert.equal(waiting(), 1, "1 ms before the delay ends, the poll still waits");
  pg.advance(1);
  assert.equal(waiting(), 0, "answered the moment the message is visible");
  const { Messages } = await poll;
  assert.deepEqual(Messages.map((m) => m.Body), ["later"]);
  assert.equal(pg.now(), 5_000);

  const empty = sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 2 }));
  await untilWaiting(pg);
  pg.advance(1_999);
  assert.equal(waiting(), 1, "1 ms before its wait ends, the poll still waits");
  pg.advance(1);
  assert.equal(waiting(), 0, "its wait ended");
  assert.equal((await empty).Messages, undefined, "the wait ended with nothing");
});

// A timeout, so a poll that never answers fails the test instead of hanging it.
test("an aborted request rejects with AbortError, before dispatch or while a long poll waits", { timeout: 5_000 }, async () => {
  const { pg, sqs, queue, attributes } = setup();
  const QueueUrl = await queue("aborts");

  const early = new AbortController();
  early.abort();
  const refused = await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: "never" }), { abortSignal: early.signal }).catch((e) => e);
  assert.equal(refused.name, "AbortError");
  // The handler itself refuses too, in case a caller reaches it directly.
  const handler = queuelabHandler(pg);
  const request = { headers: { "x-amz-target": "AmazonSQS.SendMessage" }, body: JSON.stringify({ QueueUrl, MessageBody: "never" }) };
  await assert.rejects(handler.handle(request, { abortSignal: early.signal }), { name: "AbortError" });
  assert.equal((await attributes(QueueUrl)).ApproximateNumberOfMessages, "0", "the engine never saw either send");

  const late = new AbortController();
  const poll = sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 20 }), { abortSignal: late.signal });
  await untilWaiting(pg);
  late.abort();
  await assert.rejects(poll, { name: "AbortError" });

  // The engine cannot withdraw a parked poll: like AWS answering a dropped
  // connection, it still hands the next message to it, which hides it.
  await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: "taken by the abandoned poll" }));
  const now = await attributes(QueueUrl);
  assert.deepEqual([now.ApproximateNumberOfMessages, now.ApproximateNumberOfMessagesNotVisible], ["0", "1"]);
});

test("the handler reads x-amz-target in any case and request bodies as text or bytes, and names the caller", async () => {
  const pg = new Playground();
  const handler = queuelabHandler(() => pg, { caller: "worker-7" });
  const body = new TextEncoder().encode(JSON.stringify({ QueueName: "bytes" }));
  const { response } = await handler.handle({ headers: { "X-Amz-Target": "AmazonSQS.CreateQueue" }, body });
  assert.equal(response.statusCode, 200);
  assert.ok(response.body instanceof Uint8Array);
  assert.equal(response.headers["content-type"], "application/x-amz-json-1.0");
  const { QueueUrl } = JSON.parse(new TextDecoder().decode(response.body));
  assert.match(QueueUrl, /\/bytes$/);
  await handler.handle({ headers: { "X-AMZ-TARGET": "AmazonSQS.SendMessage" }, body: JSON.stringify({ QueueUrl, MessageBody: "m" }) });
  assert.equal(pg.events(0).at(-1).type, "sent");
  assert.equal(pg.events(0).at(-1).by, "worker-7");

  handler.updateHttpClientConfig("requestTimeout", 5);
  assert.deepEqual(handler.httpHandlerConfigs(), { requestTimeout: 5 });
  assert.throws(() => queuelabHandler({}), TypeError);
  await assert.rejects(queuelabHandler(() => null).handle({ headers: {}, body: "{}" }), TypeError);
});

test("the SDK's AddPermission writes the generated policy, and RemovePermission of its last statement removes it", async () => {
  const { pg, sqs, queue, attributes } = setup();
  const QueueUrl = await queue("shared");
  const arn = (await attributes(QueueUrl)).QueueArn;
  await sqs.send(new AddPermissionCommand({ QueueUrl, Label: "PartnerSend", AWSAccountIds: ["111122223333"], Actions: ["SendMessage"] }));
  assert.equal(
    (await attributes(QueueUrl)).Policy,
    `{"Version":"2008-10-17","Id":"${arn}/SQSDefaultPolicy","Statement":[{"Sid":"PartnerSend","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:root"},"Action":"SQS:SendMessage","Resource":"${arn}"}]}`,
  );
  assert.equal(pg.events(0).at(-1).type, "permissionAdded");

  const again = await sqs.send(new AddPermissionCommand({ QueueUrl, Label: "PartnerSend", AWSAccountIds: ["111122223333"], Actions: ["SendMessage"] })).catch((e) => e);
  assert.equal(again.name, "InvalidParameterValue");
  assert.equal(again.message, "Value PartnerSend for parameter Label is invalid. Reason: Already exists.");
  const eight = ["SendMessage", "ReceiveMessage", "DeleteMessage", "ChangeMessageVisibility", "GetQueueAttributes", "GetQueueUrl", "PurgeQueue", "ListDeadLetterSourceQueues"];
  const tooMany = await sqs.send(new AddPermissionCommand({ QueueUrl, Label: "all", AWSAccountIds: ["111122223333"], Actions: eight })).catch((e) => e);
  assert.ok(tooMany instanceof OverLimit, `modelled OverLimit, got ${tooMany.name}`);
  assert.equal(tooMany.$metadata.httpStatusCode, 403);

  await sqs.send(new RemovePermissionCommand({ QueueUrl, Label: "PartnerSend" }));
  assert.equal((await attributes(QueueUrl)).Policy, undefined);
  const gone = await sqs.send(new RemovePermissionCommand({ QueueUrl, Label: "PartnerSend" })).catch((e) => e);
  assert.equal(gone.message, "Value PartnerSend for parameter Label is invalid. Reason: can't find label.");
});
