// The built-in S3Client (web/client/s3-client.js) against the engine: a
// bucket, its notification configuration validated against the queue's
// policy, objects put, read, listed and deleted, and S3's errors by name.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Playground } from "./load.mjs";
import { S3Client, PutObjectCommand } from "../../web/client/s3-client.js";
import { SqsClient } from "../../web/client/sqs-client.js";

const QueueArn = "arn:aws:sqs:us-east-1:000000000000:uploads";

async function setup({ open = true } = {}) {
  const pg = new Playground({ seed: 1 });
  const s3 = new S3Client(pg);
  const sqs = new SqsClient(pg);
  const Policy = JSON.stringify({ Statement: [{ Effect: "Allow", Principal: { Service: "s3.amazonaws.com" }, Action: "sqs:SendMessage",
    Resource: QueueArn, Condition: { ArnLike: { "aws:SourceArn": "arn:aws:s3:::photos" } } }] });
  const { QueueUrl } = await sqs.createQueue({ QueueName: "uploads", Attributes: open ? { Policy } : {} });
  await s3.createBucket({ Bucket: "photos" });
  return { pg, s3, sqs, QueueUrl };
}

const configure = (s3) => s3.putBucketNotificationConfiguration({ Bucket: "photos", NotificationConfiguration: {
  QueueConfigurations: [{ Id: "new-photos", QueueArn, Events: ["s3:ObjectCreated:*"], Filter: { Key: { FilterRules: [{ Name: "suffix", Value: ".jpg" }] } } }] } });

test("a put object tells the queue in S3's event JSON, after the configuration's test event", async () => {
  const { s3, sqs, QueueUrl } = await setup();
  await configure(s3);
  const { ETag } = await s3.send(new PutObjectCommand({ Bucket: "photos", Key: "cat.jpg", Body: "meow" }));
  assert.equal(ETag, '"4a4be40c96ac6314e91d93f38043a634"');
  await s3.putObject({ Bucket: "photos", Key: "notes.txt", Body: "not a photo" });
  const { Messages } = await sqs.receiveMessage({ QueueUrl, MaxNumberOfMessages: 10 });
  const bodies = Messages.map((m) => JSON.parse(m.Body));
  assert.equal(bodies[0].Event, "s3:TestEvent");
  assert.equal(bodies.length, 2, "the .txt key is filtered out");
  assert.equal(bodies[1].Records[0].s3.object.key, "cat.jpg");
  assert.equal(bodies[1].Records[0].s3.configurationId, "new-photos");
});

test("a configuration the queue's policy refuses fails as S3 fails it", async () => {
  const { s3 } = await setup({ open: false });
  await assert.rejects(configure(s3), (e) => {
    assert.equal(e.name, "InvalidArgument");
    assert.match(e.message, /^Unable to validate the following destination configurations: arn:aws:sqs:us-east-1:000000000000:uploads \(AccessDenied/);
    assert.equal(e.$metadata.httpStatusCode, 400);
    return true;
  });
});

test("objects come back with their content, list in key order and go when deleted", async () => {
  const { s3 } = await setup();
  await s3.putObject({ Bucket: "photos", Key: "b.jpg", Body: new TextEncoder().encode("bee") });
  await s3.putObject({ Bucket: "photos", Key: "a.jpg", Body: "ay" });
  const got = await s3.getObject({ Bucket: "photos", Key: "b.jpg" });
  assert.deepEqual([got.Body, got.ContentLength], ["bee", 3]);
  const { Contents } = await s3.listObjectsV2({ Bucket: "photos" });
  assert.deepEqual(Contents.map((c) => [c.Key, c.Size]), [["a.jpg", 2], ["b.jpg", 3]]);
  await s3.deleteObject({ Bucket: "photos", Key: "a.jpg" });
  await assert.rejects(s3.getObject({ Bucket: "photos", Key: "a.jpg" }), (e) => e.name === "NoSuchKey" && e.$metadata.httpStatusCode === 404);
  await assert.rejects(s3.putObject({ Bucket: "nope", Key: "k", Body: "" }), (e) => e.name === "NoSuchBucket");
});
