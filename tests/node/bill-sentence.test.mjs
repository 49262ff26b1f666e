// The recap's money line says the meter's requests and their cost at the
// prices the outcome carries, exactly (nano-dollars, no float rounding).
import { test } from "node:test";
import assert from "node:assert/strict";
import { billSentence, dollars } from "../../web/text/bill.js";

const prices = { standardPriceNanoUsd: 400, fifoPriceNanoUsd: 500 };

test("the money line says requests, cost and the price per million", () => {
  const bill = { requests: 42, fifoRequests: 0, costNanoUsd: 42 * 400, ...prices };
  assert.equal(billSentence(bill), "42 requests ≈ $0.0000168 at $0.40 per million.");
});

test("a run on both queue types says each count at its own price", () => {
  const bill = { requests: 3, fifoRequests: 1, costNanoUsd: 1300, ...prices };
  assert.equal(billSentence(bill), "3 requests ≈ $0.0000013: 2 requests to standard queues at $0.40 per million, 1 request to FIFO queues at $0.50 per million.");
});

test("dollars keep every significant digit of a nano-dollar amount", () => {
  assert.equal(dollars(123_456_789), "$0.123456789");
  assert.equal(dollars(2_000_000_000), "$2.00");
  assert.equal(dollars(0), "$0.00");
});

test("KMS requests of SSE-KMS queues follow, at KMS's price per 10,000", () => {
  const bill = { requests: 42, fifoRequests: 0, costNanoUsd: 42 * 400, ...prices, kmsRequests: 30, kmsCostNanoUsd: 90_000, kmsPriceNanoUsd: 3_000 };
  assert.equal(billSentence(bill), "42 requests ≈ $0.0000168 at $0.40 per million. Plus 30 KMS requests (SSE-KMS) ≈ $0.00009 at $0.03 per 10,000.");
  assert.equal(billSentence({ ...bill, kmsRequests: 0, kmsCostNanoUsd: 0 }), "42 requests ≈ $0.0000168 at $0.40 per million.");
});
