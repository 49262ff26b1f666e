// What the stage says of an SNS topic and each of its subscriptions: the
// arrow's counts, and a refused delivery's reason in SQS's words. No DOM.

import { counted } from "./format.js";

/**
 * A topic's heading: "orders-topic (FIFO) · 3 published, 1 deduplicated".
 * @param {import("../pkg/queuelab.js").TopicSnapshot} t
 */
export function topicHeading(t) {
  const dedup = t.deduplicated > 0 ? `, ${counted(t.deduplicated, "duplicate", "duplicates")} dropped` : "";
  return `${t.name}${t.fifo ? " (FIFO)" : ""} · ${counted(t.published, "message", "messages")} published${dedup}`;
}

/**
 * One subscription's arrow: what reached the queue, what its filter kept
 * away, and, when SQS refused deliveries, why (the arrow is drawn broken).
 * @param {import("../pkg/queuelab.js").SubscriptionSnapshot} s
 * @returns {{ queue: string, broken: boolean, counts: string, reason: string }}
 */
export function subscriptionArrow(s) {
  const parts = [counted(s.delivered, "delivered", "delivered")];
  if (s.filtered) parts.push(counted(s.filteredOut, "filtered out", "filtered out"));
  if (s.rawMessageDelivery) parts.push("raw");
  if (s.failed > 0) parts.push(counted(s.failed, "refused", "refused"));
  if (s.retrying > 0) parts.push(`${s.retrying} waiting to retry`);
  if (s.deadLettered > 0) parts.push(`${s.deadLettered} to ${s.deadLetterQueue}`);
  if (s.dropped > 0) parts.push(`${s.dropped} dropped`);
  const f = s.lastFailure;
  const reason = f
    ? `${f.code}: ${f.error} (${f.clientSide ? "client-side: SNS does not retry" : "server-side: SNS retries"}${s.deadLetterQueue ? `; then to ${s.deadLetterQueue}` : "; no dead-letter queue, so dropped"})`
    : "";
  return { queue: s.queue, broken: s.failed > 0, counts: parts.join(" · "), reason };
}
