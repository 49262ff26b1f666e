// Engine events as plain sentences: time, who, what, and why.
// `sentences(events, ctx)` reads a batch (oldest first) so a receive and
// the duplicate delivery it caused become one sentence.

import { unreachable } from "../engine/unreachable.js";
import { counted, nameOf, ordinal, possessive, secs, shortId } from "./format.js";

/** @typedef {import("../pkg/queuelab.js").QueuelabEvent} QueuelabEvent */
/**
 * What a sentence needs besides its event: a message's label, and a
 * queue's maxReceiveCount (null when it has no redrive policy).
 * @typedef {{ label(id: string): string | undefined, maxReceive(queue: string): number | null | undefined }} SentenceContext
 */
/** @typedef {"narration" | "warn" | "good" | "routine" | ""} LineKind "warn": something went wrong */

/**
 * @param {string} who
 * @param {string} text
 * @param {LineKind} [kind]
 */
function line(who, text, kind = "") {
  return { who, text, kind };
}

/**
 * Why a FIFO group unlocked, and what it delivers next (the engine says
 * how its head left flight).
 * @param {import("../pkg/queuelab.js").UnlockCause} cause
 */
function unlocked(cause) {
  switch (cause) {
    case "deleted":
      return "its head message was deleted, so its next message can be delivered";
    case "visibilityTimeout":
      return "its head message's visibility timeout ended; that message is delivered again before the rest of the group";
    case "released":
      return "its head message was made visible again; that message is delivered again before the rest of the group";
    case "movedToDeadLetterQueue":
      return "its head message moved to the dead-letter queue, so its next message can be delivered";
    case "redriven":
      return "its head message was moved out by a move task, so its next message can be delivered";
    case "expired":
      return "its head message expired, so its next message can be delivered";
    case "purged":
      return "its head message was purged";
    default:
      return unreachable(cause);
  }
}

/**
 * Who acted, as the log says it: a caller's name, or for a call made as
 * another account and named by its bare id ("111111111111", as dispatch
 * names a principal without a caller), "account 111111111111".
 * @param {string | null | undefined} name
 */
function who(name) {
  if (name == null) return "someone";
  return /^\d{12}$/.test(name) ? `account ${name}` : name;
}

/**
 * A request-response event in words.
 * @param {any} e a requestSent, replySent, replyMatched, replyWaitEnded or replyLost event
 */
function replySentence(e) {
  if (e.type === "requestSent") return line(e.requester, `sent request ${e.correlationId} (message ${shortId(e.messageId)}) with the attributes CorrelationId ${e.correlationId} and ReplyTo ${e.replyQueue}`);
  if (e.type === "replySent") return line(e.responder, `replied to request ${e.correlationId} (message ${shortId(e.requestId)}) with message ${shortId(e.messageId)} in ${e.queue}, carrying the same CorrelationId`);
  if (e.type === "replyLost") return line(e.responder, `lost its reply to ${e.correlationId}: the reply queue ${e.queue} no longer exists (QueueDoesNotExist)`, "warn");
  if (e.type === "replyWaitEnded") return line(e.requester, `gave up on ${e.correlationId} after ${secs(e.waitedMs)} s: no reply came to ${e.queue}`, "warn");
  const how = e.late ? "late, after its wait had ended, but its reply queue was still there" : "matched by its CorrelationId";
  return line(e.requester, `got the reply to ${e.correlationId} from ${e.queue}, ${secs(e.latencyMs)} s after the request: ${how}`, "good");
}

/**
 * One sentence for every event kind: a kind without its case fails the
 * type check (`unreachable`).
 * @param {QueuelabEvent} e
 * @param {SentenceContext} ctx
 * @param {(received: QueuelabEvent & { type: "received" }) => string | null} duplicateOf
 */
function describe(e, ctx, duplicateOf) {
  const m = (id = "messageId" in e ? e.messageId : "") => nameOf(ctx.label(id), id);
  const by = who("by" in e ? e.by : null);
  switch (e.type) {
    case "narration":
      return line("narrator", e.text, "narration");
    case "checkpointAsked":
      return line("checkpoint", `asked: ${e.question}`, "narration");
    case "checkpointAnswered":
      return line("checkpoint", `the run's answer: ${e.answer}`, "narration");
    case "narrationWithheld":
      return line("narrator", `held back a line this run does not bear out: ${e.reason} (“${e.text}”)`, "routine");
    case "queueCreated":
      return line("setup", `queue ${e.queue} created (${e.fifo ? "FIFO" : "standard"})`, "routine");
    case "queueDeleted":
      return line(by, `deleted queue ${e.queue}`, "warn"); // the event names no caller: always "someone"
    case "queuePurged":
      return line("SQS", `purged ${e.queue}: ${e.count} message${e.count === 1 ? "" : "s"} deleted`, "warn");
    case "sent": {
      let t = `sent ${m()} to ${e.queue}`;
      if (e.group) t += ` in group ${e.group}`;
      if (e.delayedUntil != null) t += `, delayed until t=${secs(e.delayedUntil)} s: nobody can receive it before then`;
      return line(by, t);
    }
    case "duplicateDropped":
      return line(by, `sent ${m()} again with deduplication id ${e.dedupId} within 5 minutes: SQS answered with the original message id and added nothing (FIFO deduplication)`, "good");
    case "delayEnded":
      return line("SQS", `${m()} is visible now: its delay ended`);
    case "received": {
      let t = `received ${m()} (receive #${e.receiveCount})`;
      const other = duplicateOf(e);
      if (other) t += ` while ${other} is still processing it: duplicate delivery`;
      else if (e.previousHolder && e.previousHolder === e.by) t += " again: its visibility timeout ran out before it was deleted";
      else if (e.previousHolder) t += ` after ${e.previousHolder}'s visibility timeout ran out`;
      t += `; invisible to others until t=${secs(e.visibleAt)} s`;
      return line(by, t, other ? "warn" : "");
    }
    case "visibilityChanged":
      if (e.visibleAt <= e.timeMs) return line(by, `made ${m()} visible again at once (visibility timeout 0)`);
      return line(by, `set ${possessive(m(), "visibility timeout")}: invisible until t=${secs(e.visibleAt)} s (ChangeMessageVisibility)`, "good");
    case "visibilityExpired":
      return line("SQS", `${possessive(m(), "visibility timeout")} ran out${e.holder ? ` while ${e.holder} held it` : ""}: it is visible again and can be received by anyone`, "warn");
    case "deleted":
      return line(by, `deleted ${m()}: done, SQS forgets it`, "good");
    case "deleteMissedCopy":
      return line(by, `deleted ${m()}, but the delete missed a copy: it will come back (at-least-once delivery)`, "warn");
    case "movedToDeadLetterQueue": {
      const max = ctx.maxReceive(e.queue);
      return line("SQS", `moved ${m()} to the dead-letter queue ${e.deadLetterQueue}: it had been received ${counted(e.receiveCount, "time", "times")}${max ? ` (maxReceiveCount ${max})` : ""}`, "warn");
    }
    case "redriven":
      return line("SQS", `redrove ${m()} from ${e.queue} to ${e.destination} as a new message ${shortId(e.newMessageId)}`, "good");
    case "expired":
      return line("SQS", `deleted ${m()}: its retention period ended and nobody had deleted it`, "warn");
    case "purged":
      return line("SQS", `purged ${m()}`, "routine");
    case "groupLocked":
      return line("SQS", `group ${e.group} locked: its head message is in flight, the rest of the group waits`, "routine");
    case "groupUnlocked":
      return line("SQS", `group ${e.group} unlocked: ${unlocked(e.cause)}`, "routine");
    case "emptyReceive":
      return line(by, `asked ${e.queue} and got nothing back: an empty response, still a billed request`, "routine");
    case "moveTaskStarted":
      return line("SQS", `started moving messages out of ${queueOfArn(e.source)} (task ${e.task})`);
    case "moveTaskCancelling":
      return line("SQS", `move task ${e.task} on ${queueOfArn(e.source)} CANCELLING after ${e.moved} moved: it moves nothing more and stops at its next step`);
    case "moveTaskEnded":
      return line("SQS", `move task ${e.task} on ${queueOfArn(e.source)} ${e.status}: ${e.moved} moved`);
    case "permissionAdded": {
      const who = e.accounts.length === 1 ? `account ${e.accounts[0]}` : `accounts ${e.accounts.join(", ")}`;
      const what = e.actions.map((a) => (a === "*" ? "every action" : a)).join(", ");
      return line(by, `allowed ${who} to call ${what} on ${e.queue}: statement "${e.label}" added to its Policy (AddPermission)`);
    }
    case "permissionRemoved":
      return line(by, `removed statement "${e.label}" from the Policy of ${e.queue} (RemovePermission)`);
    case "accessDecided":
      return line(e.by ?? e.principal, accessSentence(e), e.allowed ? "" : "warn");
    case "kmsRequested":
      return line("SQS", `called KMS ${e.api} with key ${shortId(e.key.split("/").pop() ?? e.key)} for ${by} on ${e.queue} (SSE-KMS): once per data key reuse period per caller, billed by KMS`, "routine");
    case "processingStarted":
      return line(e.consumer, `started processing ${m()} (receive #${e.receiveCount}); it takes until t=${secs(e.until)} s`, "routine");
    case "duplicateDelivery":
      return line(e.consumer, `got ${m()} while ${e.alsoHeldBy} is still processing it: duplicate delivery`, "warn");
    case "sideEffectPerformed":
      if (e.count > 1) return line(e.consumer, `${e.effect} ${m()} — for the ${ordinal(e.count)} time: the side effect happened more than once`, "warn");
      return line(e.consumer, `${e.effect} ${m()}`, "good");
    case "skippedAlreadyProcessed":
      return line(e.consumer, `skipped ${m()}: its id is already recorded as processed (idempotent handler), so nothing happened twice`, "good");
    case "processingFailed":
      return line(e.consumer, `failed to process ${m()} (receive #${e.receiveCount}): it does not delete it, so it comes back when its visibility timeout ends`, "warn");
    case "workerCrashed":
      return line(e.consumer, `crashed while handling ${m()}, ${e.beforeSideEffect ? "before its side effect" : "after its side effect but before deleting it"}`, "warn");
    case "workerRestarted":
      return line(e.consumer, "restarted and polls again");
    case "messageLost":
      return line(e.consumer, `lost ${m()}: it was deleted before processing, so no copy is left to retry`, "warn");
    case "payloadResolved":
      return line(e.consumer, `read ${m()}'s payload from S3: GetObject ${e.bucket}/${e.key} (${counted(e.sizeBytes, "byte", "bytes")})`, "good");
    case "payloadMissing":
      return line(e.consumer, `got ${m()}, a pointer to nothing: GetObject ${e.bucket}/${e.key} answered ${e.code}: ${e.error} Its processing fails`, "warn");
    case "actionFailed":
      return line(e.actor, `${e.action} failed: ${e.code}: ${e.error}`, "warn");
    case "operatorCalled":
      return line(e.operator, operatorCall(e));
    case "requestSent":
    case "replySent":
    case "replyMatched":
    case "replyWaitEnded":
    case "replyLost":
      return replySentence(e);
    case "bucketObjectChanged":
      return line(`bucket “${e.bucket}”`, `${e.eventName} ${e.key}${e.sizeBytes == null ? "" : ` (${counted(e.sizeBytes, "byte", "bytes")})`}`);
    case "bucketConfigured":
      return line(`bucket “${e.bucket}”`, `saved its notification configuration: S3's test event reached ${e.queues.join(", ")}`, "good");
    case "bucketConfigurationFailed":
      return line(`bucket “${e.bucket}”`, `S3 refused its notification configuration (${e.s3Code}: ${e.s3Error}: ${e.destination}): ${e.queue} refused the test event with ${e.code}: ${e.error}. The bucket notifies no queue`, "warn");
    case "bucketNotified":
      return line(`bucket “${e.bucket}”`, `notified ${e.queue} of ${e.eventName} ${e.key}: S3's event JSON is stored there`, "good");
    case "bucketDeliveryFailed":
      return line(`bucket “${e.bucket}”`, `${e.queue} refused the ${e.eventName} notification of ${e.key} with ${e.code}: ${e.error}. S3 does not retry it: the event is lost`, "warn");
    case "topicPublished":
      if (e.deduplicated) return line(e.topic, `dropped a publish as a duplicate: the FIFO topic saw its deduplication id within the last 5 minutes`, "routine");
      return line(e.topic, `published ${m()}`, "routine");
    case "topicFilteredOut":
      return line(e.topic, `did not send ${m()} to ${e.queue}: the subscription's filter policy does not match it`, "routine");
    case "topicDelivered":
      return line(e.topic, `delivered ${m()} to ${e.queue}${e.attempt > 1 ? ` at attempt ${e.attempt}` : ""}`, "good");
    case "topicDeliveryFailed": {
      const then = e.clientSide ? "a client-side error, which SNS does not retry" : e.retryAt != null ? `a server-side error: SNS tries again at t=${secs(e.retryAt)} s` : "a server-side error, and SNS's retries are used up";
      return line(e.topic, `could not deliver ${m()} to ${e.queue}: ${e.code}: ${e.error} (${then})`, "warn");
    }
    case "topicDeadLettered":
      return line(e.topic, `sent ${m()} to the subscription's dead-letter queue ${e.deadLetterQueue}: it could not be delivered to ${e.queue}`, "warn");
    case "topicDropped":
      return line(e.topic, `dropped ${m()} meant for ${e.queue}: ${e.reason === "noDeadLetterQueue" ? "the subscription has no dead-letter queue" : "its dead-letter queue refused it too"}`, "warn");
    case "lambdaInvoked":
    case "lambdaReturned":
    case "lambdaThrottled":
    case "eventSourceMappingRefused":
    case "lambdaScaled":
      return lambdaSentence(e);
    case "alarmChanged": {
      const kind = e.to === "ALARM" ? "warn" : e.to === "OK" ? "good" : "";
      const notifies = e.actions.length ? `; it notifies ${e.actions.join(", ")}` : "";
      return line(`alarm “${e.alarm}”`, `${e.from} → ${e.to}: ${e.reason}${notifies}`, kind);
    }
    default:
      return unreachable(e);
  }
}

/**
 * Who a decision is about: "account 111111111111", an IAM ARN, or a service.
 * @param {string} principal
 */
/**
 * A Lambda event source mapping's event in words.
 * @param {QueuelabEvent & { type: "lambdaInvoked" | "lambdaReturned" | "lambdaThrottled" | "eventSourceMappingRefused" | "lambdaScaled" }} e
 */
function lambdaSentence(e) {
  switch (e.type) {
    case "lambdaInvoked":
      return line(e.function, `was invoked (invocation ${e.invocation}) with a batch of ${counted(e.messages.length, "message", "messages")}, an event of ${counted(e.bytes, "byte", "bytes")}`, "routine");
    case "lambdaReturned": {
      const back = e.failed.length === 0 ? "" : `: ${counted(e.failed.length, "message returns", "messages return")} to the queue when the visibility timeout ends`;
      const took = `after ${secs(e.durationMs)} s`;
      switch (e.result) {
        case "success":
          return line(e.function, `finished invocation ${e.invocation} ${took}; Lambda deletes its whole batch`, "good");
        case "partial":
          return line(e.function, `finished invocation ${e.invocation} ${took}, reporting failed items; Lambda deletes the others${back}`, "warn");
        case "error":
          return line(e.function, `threw an error in invocation ${e.invocation} ${took}; Lambda deletes nothing${back}`, "warn");
        case "timeout":
          return line(e.function, `timed out in invocation ${e.invocation} ${took}; Lambda deletes nothing${back}`, "warn");
        case "invalidResponse":
          return line(e.function, `returned an invalid partial batch response in invocation ${e.invocation} (${e.why ?? "not the documented shape"}); Lambda treats the whole batch as failed${back}`, "warn");
        default:
          return unreachable(e.result);
      }
    }
    case "lambdaThrottled":
      return line(e.function, `was throttled: no concurrency was free for a batch of ${counted(e.messages.length, "message", "messages")}, which stays in flight while Lambda retries`, "warn");
    case "eventSourceMappingRefused":
      return line(e.function, `could not be connected to ${e.queue}: Lambda refused the event source mapping with ${e.code}: ${e.error}. Nothing polls the queue`, "warn");
    case "lambdaScaled":
      return line(e.function, `now has ${counted(e.pollers, "poller", "pollers")}: up to ${counted(e.pollers, "batch", "batches")} handed over at once`, "routine");
    default:
      return unreachable(e);
  }
}

function principalWords(principal) {
  return /^\d{12}$/.test(principal) ? `account ${principal}` : principal;
}

/**
 * The conditions a statement met, as the request met them.
 * @param {import("../pkg/queuelab.js").ConditionMatch[]} matched
 */
function conditionWords(matched) {
  return matched.map((m) => (m.value == null ? `${m.key} is absent (${m.operator})` : `${m.key} ${m.value} matches`)).join(", ");
}

/**
 * Why the gate let a call through or refused it, in words.
 * @param {QueuelabEvent & { type: "accessDecided" }} e
 */
function accessSentence(e) {
  const who = principalWords(e.principal);
  const r = e.reason;
  /** @param {import("../pkg/queuelab.js").StatementRef} s */
  const named = (s) => `statement ${s.sid ?? `#${s.index}`}`;
  switch (r.kind) {
    case "allowed": {
      const why = r.matched.length ? `, ${conditionWords(r.matched)}` : "";
      return `${who} may ${e.action} to ${e.queue}: ${named(r.statement)} allows it${why}`;
    }
    case "ownerAccount":
      return `${who} may ${e.action} to ${e.queue}: it is the queue's own account and no statement denies it`;
    case "denied": {
      const why = r.matched.length ? ` (${conditionWords(r.matched)})` : "";
      return `AccessDenied: ${named(r.statement)} denies ${who} ${e.action} on ${e.queue}${why}: an explicit deny wins`;
    }
    case "noStatementAllows":
      return `AccessDenied: no statement allows ${who} to ${e.action} on ${e.queue}`;
    case "ownerOnly":
      return `AccessDenied: only the queue's own account may call ${e.action} on ${e.queue}, whatever its policy allows ${who}`;
    case "otherAccount":
      return `AccessDenied: ${who} cannot create queue ${e.queue} here: this playground holds one account's queues`;
    case "noSuchQueue":
      return `AccessDenied: ${e.queue} is not a queue here`;
    default:
      return unreachable(r);
  }
}

/** The queue's name, the last part of its ARN. @param {string} arn */
function queueOfArn(arn) {
  return arn.slice(arn.lastIndexOf(":") + 1);
}

/**
 * What an operator asked of SQS; SQS's answer follows as its own events.
 * @param {QueuelabEvent & { type: "operatorCalled" }} e
 */
function operatorCall(e) {
  switch (e.action) {
    case "PurgeQueue":
      return `asked SQS to delete every message in ${e.queue} (PurgeQueue)`;
    case "StartMessageMoveTask": {
      const rate = e.rate == null ? "at a rate SQS picks" : `at most ${e.rate} message${e.rate === 1 ? "" : "s"} a second`;
      const to = e.destination == null ? "back to the queue each came from" : `to ${e.destination}`;
      return `asked SQS to move the messages in ${e.queue} ${to}, ${rate} (StartMessageMoveTask)`;
    }
    case "CancelMessageMoveTask":
      return `asked SQS to cancel its move task on ${e.queue} (CancelMessageMoveTask)`;
    case "AddPermission":
      return `asked SQS to let another account call ${e.queue} (AddPermission)`;
    // A KMS call: `queue` names the key.
    case "DisableKey":
      return `disabled the KMS key ${e.queue} (DisableKey): sends to and receives from queues encrypted with it fail until it is enabled again`;
    case "EnableKey":
      return `enabled the KMS key ${e.queue} again (EnableKey)`;
    default:
      return `called ${e.action} on ${e.queue}`;
  }
}

/**
 * Sentences for a batch of events; a duplicateDelivery folds into its receive.
 * @param {QueuelabEvent[]} events
 * @param {SentenceContext} ctx
 */
export function sentences(events, ctx) {
  /** @type {Map<string, QueuelabEvent & { type: "duplicateDelivery" }>} */
  const dups = new Map();
  for (const e of events) {
    if (e.type === "duplicateDelivery") dups.set(`${e.consumer}|${e.messageId}|${e.receiveCount}`, e);
  }
  const folded = new Set();
  /** @param {QueuelabEvent & { type: "received" }} r */
  const duplicateOf = (r) => {
    const d = dups.get(`${r.by}|${r.messageId}|${r.receiveCount}`);
    if (!d) return null;
    folded.add(d);
    return d.alsoHeldBy;
  };
  const out = [];
  for (const e of events) {
    if (folded.has(e)) continue;
    out.push({ e, ...describe(e, ctx, duplicateOf) });
  }
  return out;
}

/**
 * Which events are worth saying aloud (through the live region). Every kind
 * is named, so a new one is a decision, not a silent "no".
 * @param {QueuelabEvent} e
 */
export function isKey(e) {
  switch (e.type) {
    case "narration":
    case "duplicateDelivery":
    case "movedToDeadLetterQueue":
    case "messageLost":
    case "payloadMissing":
    case "workerCrashed":
    case "alarmChanged":
    case "expired":
    case "bucketConfigurationFailed":
    case "bucketDeliveryFailed":
    case "replyLost":
    case "topicDeliveryFailed":
    case "topicDeadLettered":
    case "topicDropped":
    case "lambdaThrottled":
    case "eventSourceMappingRefused":
      return true;
    case "lambdaReturned":
      return e.result !== "success"; // a failure is said aloud; a success is routine
    case "sideEffectPerformed":
      return e.count > 1;
    case "accessDecided":
      return !e.allowed; // a refusal is said aloud; an allowed call is routine
    case "queueCreated":
    case "queueDeleted":
    case "queuePurged":
    case "sent":
    case "duplicateDropped":
    case "delayEnded":
    case "received":
    case "visibilityChanged":
    case "visibilityExpired":
    case "deleted":
    case "deleteMissedCopy":
    case "redriven":
    case "purged":
    case "groupLocked":
    case "groupUnlocked":
    case "emptyReceive":
    case "moveTaskStarted":
    case "moveTaskCancelling":
    case "moveTaskEnded":
    case "permissionAdded":
    case "permissionRemoved":
    case "kmsRequested":
    case "processingStarted":
    case "skippedAlreadyProcessed":
    case "processingFailed":
    case "payloadResolved":
    case "workerRestarted":
    case "actionFailed":
    case "operatorCalled":
    case "requestSent":
    case "replySent":
    case "replyMatched":
    case "replyWaitEnded":
    case "checkpointAsked":
    case "checkpointAnswered":
    case "narrationWithheld":
    case "bucketObjectChanged":
    case "bucketConfigured":
    case "bucketNotified":
    case "topicPublished":
    case "topicFilteredOut":
    case "topicDelivered":
    case "lambdaInvoked":
    case "lambdaScaled":
      return false;
    default:
      return unreachable(e);
  }
}
