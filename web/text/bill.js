// The recap's money line: the requests the engine's billing meter counted
// for the run and their cost at list price, in words. The numbers and the
// prices come from the simulation's outcome (snapshot().simulation.outcome
// .bill), never from a copy of the price list here.

/** @typedef {import("../pkg/queuelab.js").Bill} Bill */

/**
 * Dollars from exact nano-dollars, with every digit that is not zero:
 * 16800 → "$0.0000168", 2_000_000_000 → "$2.00".
 * @param {number} nano
 */
export function dollars(nano) {
  const whole = Math.floor(nano / 1e9);
  const fraction = String(nano % 1e9).padStart(9, "0").replace(/0+$/, "");
  return `$${whole}.${fraction.length < 2 ? fraction.padEnd(2, "0") : fraction}`;
}

/** "$0.40 per million" from a price per request in nano-dollars. @param {number} nano */
function perMillion(nano) {
  return `${dollars(nano * 1e6)} per million`;
}

/** @param {number} n */
function requests(n) {
  return `${n.toLocaleString("en-US")} request${n === 1 ? "" : "s"}`;
}

/**
 * "42 requests ≈ $0.0000168 at $0.40 per million", or with both queue
 * types each count at its price.
 * @param {Bill} bill
 */
export function billSentence(bill) {
  return sqsSentence(bill) + kmsSentence(bill) + s3Sentence(bill);
}

/**
 * " Plus 3 S3 requests ≈ $0.0000054 (1 PUT at $0.005 per 1,000, 1 GET at
 * $0.0004 per 1,000, DELETE free).", or "" when no bucket was called.
 * @param {Bill} bill
 */
function s3Sentence(bill) {
  if (!bill.s3Requests) return "";
  const per = (/** @type {number} */ nano) => `${dollars(nano * 1000)} per 1,000`;
  return ` Plus ${bill.s3Requests.toLocaleString("en-US")} S3 request${bill.s3Requests === 1 ? "" : "s"} ≈ ${dollars(bill.s3CostNanoUsd)} (${bill.s3PutRequests.toLocaleString("en-US")} PUT-class at ${per(bill.s3PutPriceNanoUsd)}, ${bill.s3GetRequests.toLocaleString("en-US")} GET at ${per(bill.s3GetPriceNanoUsd)}, DELETE free).`;
}

/**
 * " Plus 30 KMS requests (SSE-KMS) ≈ $0.00009 at $0.03 per 10,000.", or
 * "" when no queue made one.
 * @param {Bill} bill
 */
function kmsSentence(bill) {
  if (!bill.kmsRequests) return "";
  const per = dollars(bill.kmsPriceNanoUsd * 10_000);
  return ` Plus ${bill.kmsRequests.toLocaleString("en-US")} KMS request${bill.kmsRequests === 1 ? "" : "s"} (SSE-KMS) ≈ ${dollars(bill.kmsCostNanoUsd)} at ${per} per 10,000.`;
}

/** @param {Bill} bill */
function sqsSentence(bill) {
  if (bill.requests === 0) return "0 requests: nothing billed.";
  const standard = bill.requests - bill.fifoRequests;
  const total = `${requests(bill.requests)} ≈ ${dollars(bill.costNanoUsd)}`;
  if (bill.fifoRequests === 0) return `${total} at ${perMillion(bill.standardPriceNanoUsd)}.`;
  if (standard === 0) return `${total} at ${perMillion(bill.fifoPriceNanoUsd)} (FIFO).`;
  return `${total}: ${requests(standard)} to standard queues at ${perMillion(bill.standardPriceNanoUsd)}, ${requests(bill.fifoRequests)} to FIFO queues at ${perMillion(bill.fifoPriceNanoUsd)}.`;
}

/**
 * "By caller: per-request 84 requests ≈ $0.0000336, per-client 40 requests
 * ≈ $0.000016, setup and unnamed calls 2 requests ≈ $0.0000008.": who
 * the SQS requests were for, most first (the bill lists the callers with
 * the most), or "" when one caller made them all.
 * @param {Bill} bill
 */
export function callersSentence(bill) {
  if (bill.callers.length < 2) return "";
  const parts = bill.callers.map((c) => `${c.caller ?? "setup and unnamed calls"} ${requests(c.requests)} ≈ ${dollars(c.costNanoUsd)}`);
  const more = bill.callersOmitted ? `, and ${bill.callersOmitted.toLocaleString("en-US")} more caller${bill.callersOmitted === 1 ? "" : "s"}` : "";
  return `By caller: ${parts.join(", ")}${more}.`;
}
