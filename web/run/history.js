// What the page remembers from the event stream, to draw it: message
// labels, why a message left, who got a duplicate delivery, what someone
// sending by hand sent. Bookkeeping for drawing only: every fact comes
// from an engine event, nothing here decides what SQS does, and what the
// snapshot already says (when a message went in flight, a producer's
// counts, a queue's dead-letter role) is read there, not kept here.

import { unreachable } from "../engine/unreachable.js";

/** @typedef {import("../pkg/queuelab.js").QueuelabEvent} QueuelabEvent */

/** A function's latest invocation ends and throttles kept for its result marks (the stage shows these few, newest first). */
export const LAMBDA_ENDS_KEPT = 4;
/** Ids kept per batch: the snapshot's own bound on a running invocation's ids (MAX_SNAPSHOT_IDS); the size says the rest. */
export const LAMBDA_IDS_KEPT = 100;

export class History {
  constructor() {
    this.reset();
  }

  reset() {
    this.labels = new Map(); // messageId -> label (first 80 chars of the body)
    this.queueOf = new Map(); // messageId -> queue it was sent to
    this.receives = new Map(); // messageId -> latest receive count
    this.left = new Map(); // messageId -> { state, why, at }
    this.leftOrder = []; // ids in the order they left (most recent last), bounded
    this.dup = new Map(); // messageId -> Set of consumers that held it at once
    this.sentBy = new Map(); // sender by hand -> number of sends (the scenario's are counted by the engine)
    this.empty = new Map(); // consumer -> receives that returned nothing
    this.dropped = new Map(); // sender by hand -> sends dropped by FIFO deduplication
    this.lastSend = new Map(); // producer -> { at, id }
    this.links = new Map(); // messageId -> { correlationId, role: "request" | "reply" }: a request and its reply, drawn with one mark
    this.lambdaBatches = new Map(); // function -> Map(invocation -> { ids, size }) of invocations not returned yet
    this.lambdaEnds = new Map(); // function -> its latest ends and throttles, newest last (LAMBDA_ENDS_KEPT; a batch throttled again is counted in its mark's `times`)
    this.mappingRefused = new Map(); // function -> { queue, code, error }: Lambda's refusal of its event source mapping
  }

  /** An invocation's end or a throttled hand-over, kept with the function's latest few (the stage's result marks). */
  lambdaEnd(fn, end) {
    let list = this.lambdaEnds.get(fn);
    if (!list) this.lambdaEnds.set(fn, (list = []));
    const last = list.at(-1);
    // The poller's retries of one throttled batch are one mark, counted: the same ids again and again would push out every other result.
    if (end.kind === "throttled" && last?.kind === "throttled" && last.size === end.size && last.ids.every((id, i) => id === end.ids[i])) {
      last.times++;
      last.at = end.at;
      return;
    }
    list.push(end);
    if (list.length > LAMBDA_ENDS_KEPT) list.shift();
  }

  label(id) {
    return this.labels.get(id);
  }

  leave(id, state, why, at) {
    this.left.set(id, { state, why, at });
    this.leftOrder.push(id);
    if (this.leftOrder.length > 400) this.leftOrder.splice(0, 200);
  }

  /**
   * Takes a batch of events (oldest first); returns ids that left in it.
   * Every kind is named: the ones that change nothing drawn are listed too.
   * @param {QueuelabEvent[]} events
   * @returns {string[]}
   */
  ingest(events) {
    const leftNow = [];
    for (const e of events) {
      const id = "messageId" in e ? e.messageId : null;
      switch (e.type) {
        case "sent":
          this.labels.set(id, e.label);
          this.queueOf.set(id, e.queue);
          if (e.by) {
            this.sentBy.set(e.by, (this.sentBy.get(e.by) ?? 0) + 1);
            this.lastSend.set(e.by, { at: e.timeMs, id });
          }
          break;
        case "requestSent":
          this.links.set(id, { correlationId: e.correlationId, role: "request" });
          break;
        case "replySent":
          this.links.set(id, { correlationId: e.correlationId, role: "reply" });
          break;
        case "emptyReceive":
          if (e.by) this.empty.set(e.by, (this.empty.get(e.by) ?? 0) + 1);
          break;
        case "duplicateDropped":
          if (e.by) {
            this.lastSend.set(e.by, { at: e.timeMs, id, dropped: true });
            this.dropped.set(e.by, (this.dropped.get(e.by) ?? 0) + 1);
          }
          break;
        case "received":
          this.receives.set(id, e.receiveCount);
          break;
        case "deleted":
          this.leave(id, "deleted", e.by ? `deleted by ${e.by}` : "deleted", e.timeMs);
          leftNow.push(id);
          break;
        case "expired":
          this.leave(id, "expired", "retention period ended", e.timeMs);
          leftNow.push(id);
          break;
        case "purged":
          this.leave(id, "deleted", "purged", e.timeMs);
          leftNow.push(id);
          break;
        case "redriven":
          this.labels.set(e.newMessageId, this.labels.get(id));
          this.queueOf.set(e.newMessageId, e.destination);
          this.leave(id, "deleted", `redriven to ${e.destination}`, e.timeMs);
          leftNow.push(id);
          break;
        case "movedToDeadLetterQueue":
          this.queueOf.set(id, e.deadLetterQueue);
          break;
        case "messageLost": {
          const was = this.left.get(id);
          if (was) Object.assign(was, { lost: true, at: e.timeMs, why: `deleted at t=${(was.at / 1000).toFixed(1)} s before processing, lost when ${e.handlerCrashed ? `${e.consumer} crashed` : `${e.consumer}'s handler failed`}` });
          break;
        }
        case "duplicateDelivery": {
          let set = this.dup.get(id);
          if (!set) this.dup.set(id, (set = new Set()));
          set.add(e.consumer);
          set.add(e.alsoHeldBy);
          break;
        }
        case "queueCreated":
        case "queueDeleted":
        case "queuePurged":
        case "delayEnded":
        case "visibilityExpired":
        case "visibilityChanged":
        case "deleteMissedCopy":
        case "groupLocked":
        case "groupUnlocked":
        case "moveTaskStarted":
        case "moveTaskCancelling":
        case "moveTaskEnded":
        case "permissionAdded":
        case "permissionRemoved":
        case "accessDecided":
        case "kmsRequested":
        case "narration":
        case "processingStarted":
        case "sideEffectPerformed":
        case "skippedAlreadyProcessed":
        case "processingFailed":
        case "payloadResolved":
        case "payloadMissing":
        case "workerCrashed":
        case "workerRestarted":
        case "actionFailed":
        case "operatorCalled":
        case "alarmChanged":
        case "bucketObjectChanged":
        case "bucketConfigured":
        case "bucketConfigurationFailed":
        case "bucketNotified":
        case "bucketDeliveryFailed":
        case "replyMatched":
        case "replyWaitEnded":
        case "replyLost":
        case "topicPublished":
        case "topicFilteredOut":
        case "topicDelivered":
        case "topicDeliveryFailed":
        case "topicDeadLettered":
        case "topicDropped":
        case "checkpointAsked":
        case "checkpointAnswered":
        case "narrationWithheld":
        case "lambdaScaled":
          break;
        case "lambdaInvoked": {
          let running = this.lambdaBatches.get(e.function);
          if (!running) this.lambdaBatches.set(e.function, (running = new Map()));
          running.set(e.invocation, { ids: e.messages.slice(0, LAMBDA_IDS_KEPT), size: e.messages.length });
          break;
        }
        case "lambdaReturned": {
          const running = this.lambdaBatches.get(e.function);
          const batch = running?.get(e.invocation);
          running?.delete(e.invocation);
          this.lambdaEnd(e.function, { kind: e.result, at: e.timeMs, invocation: e.invocation, ids: batch?.ids ?? e.failed.slice(0, LAMBDA_IDS_KEPT), size: batch?.size ?? e.failed.length, failed: e.failed.slice(0, LAMBDA_IDS_KEPT), failedCount: e.failed.length, durationMs: e.durationMs, why: e.why ?? null, times: 1 });
          break;
        }
        case "lambdaThrottled":
          this.lambdaEnd(e.function, { kind: "throttled", at: e.timeMs, invocation: null, ids: e.messages.slice(0, LAMBDA_IDS_KEPT), size: e.messages.length, failed: [], failedCount: 0, durationMs: 0, why: null, times: 1 });
          break;
        case "eventSourceMappingRefused":
          this.mappingRefused.set(e.function, { queue: e.queue, code: e.code, error: e.error });
          break;
        default:
          unreachable(e);
      }
    }
    return leftNow;
  }
}
