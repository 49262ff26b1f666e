// @aws-sdk/client-sqs (v3) against `queuelab serve` over HTTP, as an
// application would use it: an endpoint setting, or none at all and a
// queue URL that names the server (the SDK sends a call to its QueueUrl's host).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import {
  SQSClient, CreateQueueCommand, SendMessageCommand, ReceiveMessageCommand,
  DeleteMessageCommand, GetQueueAttributesCommand, SendMessageBatchCommand, QueueDoesNotExist,
} from "@aws-sdk/client-sqs";

const bin = fileURLToPath(new URL("../../target/debug/queuelab", import.meta.url));
let server;
let endpoint;

before(async () => {
  server = spawn(bin, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, RUST_LOG: "warn" } });
  const [line] = await once(createInterface({ input: server.stdout }), "line");
  endpoint = line.replace("Queuelab SQS endpoint: ", "").replace(/\/$/, "");
});

after(async () => {
  server.kill("SIGTERM");
  const [code] = await once(server, "exit");
  assert.equal(code, 0);
});

const credentials = { accessKeyId: "node-app", secretAccessKey: "anything" };
const client = () => new SQSClient({ endpoint, region: "us-east-1", credentials });

test("the JavaScript SDK creates, sends, long-polls, checks MD5s and deletes", async () => {
  const sqs = client();
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: "node-orders" }));
  assert.equal(QueueUrl, `${endpoint}/000000000000/node-orders`);
  const waiting = sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 20, MessageAttributeNames: ["All"] }));
  await sqs.send(new SendMessageCommand({
    QueueUrl, MessageBody: "order A-1001",
    MessageAttributes: { kind: { DataType: "String", StringValue: "order" } },
  }));
  // The SDK checks the body's and attributes' MD5s itself; a wrong one would throw.
  const { Messages } = await waiting;
  assert.equal(Messages[0].Body, "order A-1001");
  assert.equal(Messages[0].MessageAttributes.kind.StringValue, "order");
  await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: Messages[0].ReceiptHandle }));
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["All"] }));
  assert.equal(Attributes.ApproximateNumberOfMessages, "0");
});

test("a client with no endpoint reaches the server through the queue URL it was given", async () => {
  const { QueueUrl } = await client().send(new CreateQueueCommand({ QueueName: "node-by-url" }));
  const byUrl = new SQSClient({ region: "us-east-1", credentials, logger: { warn() {}, info() {}, debug() {}, error() {}, trace() {} } });
  const sent = await byUrl.send(new SendMessageBatchCommand({ QueueUrl, Entries: [{ Id: "a", MessageBody: "x" }] }));
  assert.equal(sent.Successful.length, 1);
});

test("a missing queue is the SDK's QueueDoesNotExist", async () => {
  await assert.rejects(
    client().send(new SendMessageCommand({ QueueUrl: `${endpoint}/000000000000/nope`, MessageBody: "x" })),
    (e) => e instanceof QueueDoesNotExist,
  );
});
