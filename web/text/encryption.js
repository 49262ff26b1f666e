// A queue's server-side encryption in words: the card's badge (SSE-SQS,
// SSE-KMS with the key's alias, or none) and an SSE-KMS queue's KMS
// requests with their cost. The numbers are the engine's (the queue's
// snapshot) and the price the outcome's bill (kmsPriceNanoUsd).

import { dollars } from "./bill.js";

/** @typedef {import("../pkg/queuelab.js").QueueSnapshot} QueueSnapshot */

/**
 * The badge's short text and its longer title.
 * @param {QueueSnapshot} q
 * @returns {{ text: string, title: string }}
 */
export function encryptionBadge(q) {
  switch (q.encryption) {
    case "sse-sqs":
      return { text: "SSE-SQS", title: "Encrypted at rest with SQS's own keys (SqsManagedSseEnabled, the default for a new queue): no KMS requests." };
    case "sse-kms":
      return {
        text: `SSE-KMS ${q.kmsKey ?? ""}`.trim(),
        title: `Encrypted with the KMS key ${q.kmsKey}: SQS asks KMS for a data key (GenerateDataKey) and to decrypt one (Decrypt) once every ${q.kmsDataKeyReusePeriodSeconds} s per caller (KmsDataKeyReusePeriodSeconds).`,
      };
    case "none":
      return { text: "unencrypted", title: "Not encrypted at rest (SqsManagedSseEnabled false, no KmsMasterKeyId)." };
    default:
      return { text: "", title: "" };
  }
}

/**
 * "KMS: 3 GenerateDataKey · 5 Decrypt ≈ $0.000024 · data key reused 300 s",
 * or null for a queue that is not SSE-KMS and made no KMS request.
 * @param {QueueSnapshot} q
 * @param {number} priceNanoUsd one KMS request's price
 */
export function kmsLine(q, priceNanoUsd) {
  const { generateDataKey, decrypt } = q.kmsRequests;
  if (q.encryption !== "sse-kms" && generateDataKey + decrypt === 0) return null;
  const cost = dollars((generateDataKey + decrypt) * priceNanoUsd);
  const reuse = q.kmsDataKeyReusePeriodSeconds == null ? "" : ` · data key reused ${q.kmsDataKeyReusePeriodSeconds} s`;
  return `KMS: ${generateDataKey} GenerateDataKey · ${decrypt} Decrypt ≈ ${cost}${reuse}`;
}
