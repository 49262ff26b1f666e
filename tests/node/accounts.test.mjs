// Who is calling, from every door: the Playground's dispatch options, the
// built-in client's `principal`, and the real @aws-sdk/client-sqs whose
// access key names an account (web/client/sdk.js's accountOfAccessKey).
// Each call reaches the engine as that principal: its events and the
// journal say so, and a queue policy decides.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  AddPermissionCommand, CreateQueueCommand, GetQueueUrlCommand, SendMessageCommand, SQSClient,
} from "@aws-sdk/client-sqs";
import { Playground } from "./load.mjs";
import { accountOfAccessKey, queuelabHandler } from "../../web/client/sdk.js";
import { SqsClient } from "../../web/client/sqs-client.js";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const PARTNER = "111111111111";

/** An SDK client as a learner writes it, its access key naming `accessKeyId`'s account. */
const sdk = (pg, accessKeyId) =>
  new SQSClient({
    region: "us-east-1",
    credentials: { accessKeyId, secretAccessKey: "x" },
    requestHandler: queuelabHandler(pg),
  });

/** The `by` of every `sent` event. */
const senders = (pg) => pg.events(0).filter((e) => e.type === "sent").map((e) => e.by);

/** The principal words of every call in the journal, after the first (the CreateQueue). */
const principals = (pg) => pg.journal(1).calls.map((c) => c.principal ?? null);

/** A queue policy letting every principal make every call another account may make. */
const OPEN = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Sid: "Everyone", Effect: "Allow", Principal: "*", Action: "sqs:*", Resource: "*" }],
});

/** The queue "orders", open to every principal unless `policy` says otherwise: these tests follow who called. */
async function ordersQueue(pg, policy = OPEN) {
  const Attributes = policy ? { Policy: policy } : {};
  const res = await pg.dispatch("AmazonSQS.CreateQueue", JSON.stringify({ QueueName: "orders", Attributes }));
  return JSON.parse(res.body).QueueUrl;
}

test("an access key names an account by its twelve digits, after AKIA or ASIA or alone", () => {
  assert.equal(accountOfAccessKey("AKIA111111111111"), PARTNER);
  assert.equal(accountOfAccessKey("ASIA222222222222EXAMPLE"), "222222222222");
  assert.equal(accountOfAccessKey("333333333333"), "333333333333");
  for (const other of ["x", "AKIAIOSFODNN7EXAMPLE", "AKIA1111111111111", "11111111111", undefined]) {
    assert.equal(accountOfAccessKey(other), null, `${other} is the queues' own account`);
  }
});

test("two SDK clients with two access keys are two accounts", async () => {
  const pg = new Playground();
  const owner = sdk(pg, "x");
  const partner = sdk(pg, `AKIA${PARTNER}`);
  const { QueueUrl } = await owner.send(new CreateQueueCommand({ QueueName: "orders" }));
  await owner.send(new SendMessageCommand({ QueueUrl, MessageBody: "mine" }));
  // The owner lets the partner send (a queue policy decides once policies are evaluated).
  await owner.send(new AddPermissionCommand({ QueueUrl, Label: "partner", AWSAccountIds: [PARTNER], Actions: ["SendMessage"] }));
  await partner.send(new SendMessageCommand({ QueueUrl, MessageBody: "theirs" }));
  assert.deepEqual(senders(pg), [null, PARTNER], "the log names the partner's send by its account");
  assert.deepEqual(principals(pg), [null, null, PARTNER], "the journal records who made each call");
});

test("a partner's SDK client without a grant is refused AccessDenied", async () => {
  const pg = new Playground();
  const partner = sdk(pg, `AKIA${PARTNER}`);
  const QueueUrl = await ordersQueue(pg, null);
  await assert.rejects(partner.send(new SendMessageCommand({ QueueUrl, MessageBody: "theirs" })), (e) => {
    assert.equal(e.name, "AccessDenied");
    assert.equal(e.$metadata.httpStatusCode, 403);
    return true;
  });
  assert.deepEqual(senders(pg), []);
  await pg.dispatch("AmazonSQS.AddPermission", JSON.stringify({ QueueUrl, Label: "partner", AWSAccountIds: [PARTNER], Actions: ["SendMessage"] }));
  await partner.send(new SendMessageCommand({ QueueUrl, MessageBody: "theirs" }));
  assert.deepEqual(senders(pg), [PARTNER]);
});

test("the handler's principal option outranks the access key", async () => {
  const pg = new Playground();
  const QueueUrl = await ordersQueue(pg);
  const client = new SQSClient({
    region: "us-east-1",
    credentials: { accessKeyId: `AKIA${PARTNER}`, secretAccessKey: "x" },
    requestHandler: queuelabHandler(pg, { principal: "arn:aws:iam::222222222222:user/alice", caller: "alice" }),
  });
  // Another account names the queue's owner to find its queue, as in AWS.
  await client.send(new GetQueueUrlCommand({ QueueName: "orders", QueueOwnerAWSAccountId: "000000000000" }));
  await client.send(new SendMessageCommand({ QueueUrl, MessageBody: "hi" }));
  assert.deepEqual(senders(pg), ["alice"]);
  assert.deepEqual(principals(pg), ["arn:aws:iam::222222222222:user/alice", "arn:aws:iam::222222222222:user/alice"]);
});

test("the built-in client makes every call as its principal", async () => {
  const pg = new Playground();
  const QueueUrl = await ordersQueue(pg);
  const partner = new SqsClient(pg, { principal: PARTNER });
  await partner.sendMessage({ QueueUrl, MessageBody: "theirs" });
  const topic = new SqsClient(pg, {
    caller: "orders-topic",
    principal: "sns.amazonaws.com",
    sourceArn: "arn:aws:sns:us-east-1:000000000000:orders-topic",
    sourceAccount: "000000000000",
  });
  await topic.sendMessage({ QueueUrl, MessageBody: "fanned out" });
  assert.deepEqual(senders(pg), [PARTNER, "orders-topic"]);
  const [, service] = pg.journal(1).calls;
  assert.deepEqual(
    { principal: service.principal, sourceArn: service.sourceArn, sourceAccount: service.sourceAccount },
    { principal: "sns.amazonaws.com", sourceArn: "arn:aws:sns:us-east-1:000000000000:orders-topic", sourceAccount: "000000000000" },
  );
});

test("a bad principal is refused before the engine acts, naming the option and what it takes", async () => {
  const pg = new Playground();
  const QueueUrl = await ordersQueue(pg);
  const body = JSON.stringify({ QueueUrl, MessageBody: "x" });
  const send = (options) => () => pg.dispatchSync("AmazonSQS.SendMessage", body, options);
  assert.throws(send({ principal: 111111111111 }), { name: "TypeError", message: /^dispatchSync: dispatch option principal must be an account id such as "111111111111", an IAM ARN or a service principal .*got number$/ });
  assert.throws(send({ principal: "1111" }), { name: "RangeError", message: /^dispatchSync: dispatch option principal: a principal must be a 12-digit AWS account id or an IAM ARN/ });
  assert.throws(send({ principal: "lambda.amazonaws.com" }), { name: "RangeError", message: /dispatch option principal: a service principal must be sns\.amazonaws\.com or s3\.amazonaws\.com/ });
  assert.throws(send({ principal: PARTNER, sourceArn: "arn:aws:s3:::photos" }), { name: "RangeError", message: /dispatch option sourceArn is only for a service principal/ });
  assert.throws(send({ principal: "s3.amazonaws.com", sourceAccount: "12" }), { name: "RangeError", message: /dispatch option sourceAccount: aws:SourceAccount must be a 12-digit AWS account id/ });
  assert.throws(send({ princpal: PARTNER }), /unknown dispatch option field "princpal"; expected one of: caller, principal, sourceArn, sourceAccount/);
  await assert.rejects(new SqsClient(pg, { principal: "root" }).sendMessage({ QueueUrl, MessageBody: "x" }), { name: "RangeError", message: /dispatch option principal/ });
  assert.deepEqual(senders(pg), [], "no refused call reached the engine");
  assert.equal(pg.journal(0).recorded, 1, "nor the journal");
});
