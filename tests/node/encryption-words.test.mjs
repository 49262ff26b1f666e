// A queue card's encryption in words: the badge for SSE-SQS, SSE-KMS with
// the key's alias, or none, and an SSE-KMS queue's KMS requests with
// their cost at the outcome's price.
import { test } from "node:test";
import assert from "node:assert/strict";
import { encryptionBadge, kmsLine } from "../../web/text/encryption.js";

const queue = (over) => ({ encryption: "sse-sqs", kmsKey: null, kmsDataKeyReusePeriodSeconds: null, kmsRequests: { generateDataKey: 0, decrypt: 0 }, ...over });

test("the badge names SSE-SQS, SSE-KMS with its key, or no encryption", () => {
  assert.equal(encryptionBadge(queue({})).text, "SSE-SQS");
  const kms = encryptionBadge(queue({ encryption: "sse-kms", kmsKey: "alias/orders", kmsDataKeyReusePeriodSeconds: 300 }));
  assert.equal(kms.text, "SSE-KMS alias/orders");
  assert.match(kms.title, /once every 300 s per caller/);
  assert.equal(encryptionBadge(queue({ encryption: "none" })).text, "unencrypted");
});

test("an SSE-KMS queue's line counts its KMS requests and their cost", () => {
  const q = queue({ encryption: "sse-kms", kmsKey: "alias/orders", kmsDataKeyReusePeriodSeconds: 60, kmsRequests: { generateDataKey: 10, decrypt: 20 } });
  assert.equal(kmsLine(q, 3_000), "KMS: 10 GenerateDataKey · 20 Decrypt ≈ $0.00009 · data key reused 60 s");
  assert.equal(kmsLine(queue({}), 3_000), null);
});
