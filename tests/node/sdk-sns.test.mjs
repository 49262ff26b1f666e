// The real @aws-sdk/client-sns against the engine, through web/client/sdk.js:
// the SDK speaks SNS's query protocol (form requests, XML answers), builds,
// signs and parses every call as it would for AWS, so its exception classes
// and response shapes are its own verdict on the engine's SNS wire. The
// queue side is the real @aws-sdk/client-sqs.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  CreateTopicCommand, DeleteTopicCommand, GetSubscriptionAttributesCommand, GetTopicAttributesCommand,
  ListSubscriptionsByTopicCommand, ListTopicsCommand, NotFoundException, PublishBatchCommand, PublishCommand,
  SetSubscriptionAttributesCommand, SNSClient, SubscribeCommand, UnsubscribeCommand,
} from "@aws-sdk/client-sns";
import { CreateQueueCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { Playground } from "./load.mjs";
import { queuelabHandler } from "../../web/client/sdk.js";
import { SnsClient } from "../../web/client/sns-client.js";
import { sdkClient } from "./sdk-client.mjs";
import { readFileSync } from "node:fs";
import { Run } from "../../web/run/run.js";

function snsClient(target, accessKeyId = "x") {
  return new SNSClient({
    region: "us-east-1",
    credentials: { accessKeyId, secretAccessKey: "x" },
    requestHandler: queuelabHandler(target),
  });
}

/** A topic and a queue whose policy lets the topic send to it. */
async function setup() {
  const pg = new Playground({ seed: 1 });
  const sns = snsClient(pg);
  const sqs = sdkClient(pg);
  const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: "orders", Attributes: { DisplayName: "Orders" } }));
  const QueueArn = "arn:aws:sqs:us-east-1:000000000000:billing";
  const Policy = JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Sid: "AllowTopic", Effect: "Allow", Principal: { Service: "sns.amazonaws.com" }, Action: "sqs:SendMessage",
      Resource: QueueArn, Condition: { ArnEquals: { "aws:SourceArn": TopicArn } } }],
  });
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: "billing", Attributes: { Policy } }));
  return { pg, sns, sqs, TopicArn, QueueArn, QueueUrl };
}

test("the SDK's Publish reaches a subscribed queue as SNS's envelope", async () => {
  const { sns, sqs, TopicArn, QueueArn, QueueUrl } = await setup();
  const { SubscriptionArn } = await sns.send(new SubscribeCommand({ TopicArn, Protocol: "sqs", Endpoint: QueueArn }));
  assert.match(SubscriptionArn, /^arn:aws:sns:us-east-1:000000000000:orders:[0-9a-f-]{36}$/);
  const { MessageId } = await sns.send(new PublishCommand({
    TopicArn, Message: "order 1 & more <xml>", Subject: "New order",
    MessageAttributes: { kind: { DataType: "String", StringValue: "gift" } },
  }));
  const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
  assert.equal(Messages.length, 1);
  const envelope = JSON.parse(Messages[0].Body);
  assert.equal(envelope.Type, "Notification");
  assert.equal(envelope.MessageId, MessageId);
  assert.equal(envelope.TopicArn, TopicArn);
  assert.equal(envelope.Subject, "New order");
  assert.equal(envelope.Message, "order 1 & more <xml>");
  assert.deepEqual(envelope.MessageAttributes.kind, { Type: "String", Value: "gift" });
});

test("the SDK subscribes with attributes, reads them back, lists and unsubscribes", async () => {
  const { sns, sqs, TopicArn, QueueArn, QueueUrl } = await setup();
  const { SubscriptionArn } = await sns.send(new SubscribeCommand({
    TopicArn, Protocol: "sqs", Endpoint: QueueArn, ReturnSubscriptionArn: true,
    Attributes: { RawMessageDelivery: "true", FilterPolicy: JSON.stringify({ kind: ["gift"] }) },
  }));
  const { Attributes } = await sns.send(new GetSubscriptionAttributesCommand({ SubscriptionArn }));
  assert.equal(Attributes.RawMessageDelivery, "true");
  assert.deepEqual(JSON.parse(Attributes.FilterPolicy), { kind: ["gift"] });
  const { Subscriptions } = await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn }));
  assert.deepEqual(Subscriptions.map((s) => [s.Protocol, s.Endpoint]), [["sqs", QueueArn]]);

  const batch = await sns.send(new PublishBatchCommand({ TopicArn, PublishBatchRequestEntries: [
    { Id: "a", Message: "a gift", MessageAttributes: { kind: { DataType: "String", StringValue: "gift" } } },
    { Id: "b", Message: "a book", MessageAttributes: { kind: { DataType: "String", StringValue: "book" } } },
  ] }));
  assert.deepEqual(batch.Successful.map((s) => s.Id), ["a", "b"]);
  const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
  assert.deepEqual(Messages.map((m) => m.Body), ["a gift"]);

  await sns.send(new SetSubscriptionAttributesCommand({ SubscriptionArn, AttributeName: "FilterPolicy", AttributeValue: "" }));
  await sns.send(new UnsubscribeCommand({ SubscriptionArn }));
  assert.deepEqual((await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn }))).Subscriptions ?? [], []);
});

test("the SDK's errors are its own exception classes: NotFoundException for a topic that is gone", async () => {
  const { sns, TopicArn } = await setup();
  assert.equal((await sns.send(new GetTopicAttributesCommand({ TopicArn }))).Attributes.DisplayName, "Orders");
  await sns.send(new DeleteTopicCommand({ TopicArn }));
  assert.deepEqual((await sns.send(new ListTopicsCommand({}))).Topics ?? [], []);
  await assert.rejects(sns.send(new PublishCommand({ TopicArn, Message: "m" })), (e) => {
    assert.ok(e instanceof NotFoundException, e.name);
    assert.equal(e.message, "Topic does not exist");
    assert.equal(e.$metadata.httpStatusCode, 404);
    return true;
  });
});

test("another account's SDK client is refused with AuthorizationErrorException", async () => {
  const { pg, TopicArn } = await setup();
  const partner = snsClient(pg, "AKIA111111111111");
  await assert.rejects(partner.send(new PublishCommand({ TopicArn, Message: "m" })), (e) => {
    assert.equal(e.name, "AuthorizationErrorException");
    assert.match(e.message, /^User: arn:aws:iam::111111111111:root is not authorized to perform: SNS:Publish/);
    return true;
  });
});

test("the built-in SnsClient makes the same calls and names errors as the SDK does", async () => {
  const { pg, sqs, QueueArn, QueueUrl } = await setup();
  const sns = new SnsClient(pg);
  const { TopicArn } = await sns.createTopic({ Name: "orders" });
  await sns.subscribe({ TopicArn, Protocol: "sqs", Endpoint: QueueArn, Attributes: { RawMessageDelivery: "true" } });
  const { MessageId } = await sns.publish({ TopicArn, Message: "hello" });
  assert.match(MessageId, /^[0-9a-f-]{36}$/);
  const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl }));
  assert.equal(Messages[0].Body, "hello");
  await assert.rejects(sns.publish({ TopicArn: `${TopicArn}-gone`, Message: "m" }), (e) => {
    assert.equal(e.name, "NotFoundException");
    assert.equal(e.Code, "NotFound");
    assert.equal(e.$fault, "client");
    return true;
  });
  await assert.rejects(sns.send({ input: {} }), /SnsClient\.send takes a command from sns-client\.js/);
});

test("SNS calls are journaled, and a run replayed to a moment makes them again (both wires)", async () => {
  const run = new Run();
  run.start(readFileSync(new URL("../../web/scenarios/01-process-then-delete.json", import.meta.url), "utf8"));
  run.advanceTo(100);
  const sns = snsClient(() => run);
  const { TopicArn } = await new SnsClient(() => run).createTopic({ Name: "news" });
  const name = run.pg.snapshot({ messagesPerQueue: 0 }).queues[0].name;
  const Endpoint = `arn:aws:sqs:us-east-1:000000000000:${name}`;
  await sns.send(new SubscribeCommand({ TopicArn, Protocol: "sqs", Endpoint }));
  await sns.send(new PublishCommand({ TopicArn, Message: "kept" }));
  assert.deepEqual(run.journal.map((c) => c.op), ["AmazonSNS.CreateTopic", "AmazonSNS", "AmazonSNS"]);
  assert.match(String(run.journal[2].body), /^Action=Publish&/);
  const published = (pg) => pg.snapshot({ messagesPerQueue: 0 }).simulation.topics.map((t) => [t.name, t.published, t.subscriptions.length]);
  const before = published(run.pg);
  assert.deepEqual(before, [["news", 1, 1]]);
  run.replayTo(100);
  assert.deepEqual(published(run.pg), before, "the replay made the same topic, subscription and publish");
});
