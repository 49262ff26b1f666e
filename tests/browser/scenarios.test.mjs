// Every shipped scenario on the page, at the moments its story turns on:
// opened by a link at the first moment, scrubbed to the others, then played
// on to the end. At each, everything drawn is held to the engine's own
// snapshot and events in that page (drawing.mjs), and a few facts from the
// scenario's story pin the outcome itself.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { open, root, runToEnd, scrubTo, shownAt } from "./harness.mjs";
import { assertDrawing } from "./drawing.mjs";

const scenarios = readdirSync(`${root}/web/scenarios`)
  .filter((f) => /^\d\d-.*\.json$/.test(f))
  .map((f) => f.replace(/\.json$/, ""));

// ---- reading a capture (see drawing.mjs) ---------------------------------------

/** The id of the message whose body starts with `label` (its first send). */
function idOf({ events }, label) {
  const sent = events.find((e) => e.type === "sent" && e.label.startsWith(label));
  assert.ok(sent, `a message “${label}…” was sent`);
  return sent.messageId;
}

/** The token drawn for `label` in the queues ({ where, state, rc, dup }), or undefined. */
const token = (cap, label) => cap.drawn.tokens.find((t) => t.id === idOf(cap, label));
/** The token drawn for `label` in the tray, or undefined. */
const left = (cap, label) => cap.drawn.tray.find((t) => t.id === idOf(cap, label));
const consumer = (cap, name) => cap.drawn.consumers.find((c) => c.name === name);
const queue = (cap, name) => cap.drawn.queues.find((q) => q.name === name);
const heldBy = (cap, name) => consumer(cap, name).held.map((h) => `${h.id}|${h.rc}`);
const effects = (cap) => cap.drawn.ledger.map((l) => `${l.n}${l.by}`);
const count = (cap, type, pred = () => true) => cap.events.filter((e) => e.type === type && pred(e)).length;

/** Shorthand for a token's place and receive count: "queue|group|lane rc". */
const at = (t) => t && `${t.where} rc${t.rc}`;

// ---- the stories ----------------------------------------------------------------

// For each scenario: moments (virtual ms) with what its story says is drawn
// then, and what it says at the end. The first moment is opened by a link.
const STORIES = {
  "01-process-then-delete": {
    moments: {
      2600: (c) => {
        assert.equal(at(token(c, "order A-1002")), "orders||in-flight rc1", "worker-1 works on A-1002");
        assert.equal(at(token(c, "order A-1003")), "orders||visible rc0", "A-1003 waits, visible, while worker-1 is busy");
        assert.deepEqual(left(c, "order A-1001")?.state, "deleted", "A-1001 was deleted after processing");
        assert.equal(c.drawn.banner.shown, false);
        assert.match(c.drawn.narration.text, /deleted the message with its receipt handle/);
      },
    },
    end: (c) => {
      assert.deepEqual(c.drawn.tray.map((t) => `${t.state} rc${t.rc}`), Array(4).fill("deleted rc1"), "every order received once and deleted");
      assert.equal(c.drawn.tokens.length, 0, "the queue is empty");
      assert.deepEqual(effects(c), Array(4).fill("charged ×1 by worker-1"));
      assert.match(c.drawn.narration.text, /Every order was received once/);
    },
  },

  "02-slow-consumer-duplicate": {
    moments: {
      1999: (c) => {
        assert.equal(c.drawn.banner.shown, false, "one holder: no banner yet");
        assert.equal(at(token(c, "order A")), "orders||in-flight rc1");
        assert.equal(token(c, "order A").dup, false);
      },
      2000: (c) => {
        assert.equal(c.drawn.banner.shown, true, "the moment worker-2 receives it, the banner shows");
        assert.match(c.drawn.banner.text, /worker-1 and worker-2|worker-2 and worker-1/);
      },
      2500: (c) => {
        const id = idOf(c, "order A");
        assert.equal(c.drawn.banner.shown, true, "worker-2 holds the order while worker-1 still does");
        assert.deepEqual([heldBy(c, "worker-1"), heldBy(c, "worker-2")], [[`${id}|1`], [`${id}|2`]], "worker-1 on receive #1, worker-2 on receive #2");
        assert.equal(at(token(c, "order A")), "orders||in-flight rc2");
        assert.equal(token(c, "order A").dup, true, "the token is marked as a duplicate");
        assert.match(c.drawn.narration.text, /worker-2 receives it \(receive #2\)/);
      },
      3499: (c) => assert.equal(c.drawn.banner.shown, true, "still two holders just before worker-1 deletes"),
      3500: (c) => {
        assert.equal(c.drawn.banner.shown, false, "worker-1 deleted it: one holder left, no banner");
        assert.equal(left(c, "order A")?.state, "deleted");
        assert.deepEqual(heldBy(c, "worker-2"), [`${idOf(c, "order A")}|2`], "worker-2 still works on it");
      },
    },
    end: (c) => {
      assert.equal(c.drawn.banner.shown, false);
      assert.deepEqual(effects(c), ["⚠ charged ×2 by worker-1, worker-2"], "charged twice");
      assert.deepEqual(c.drawn.consumers.map((w) => `${w.name}:${w.sideEffects}`), ["worker-1:1", "worker-2:1"]);
      assert.equal(`${left(c, "order A")?.state} rc${left(c, "order A")?.rc} dup:${left(c, "order A")?.dup}`, "deleted rc2 dup:true", "deleted after receive #2, marked a duplicate");
    },
  },

  "03-idempotent-consumer": {
    moments: {
      2500: (c) => {
        assert.equal(c.drawn.banner.shown, true, "the duplicate delivery still happens");
        assert.equal(at(token(c, "order A")), "orders||in-flight rc2");
      },
    },
    end: (c) => {
      assert.deepEqual(effects(c), ["charged ×1 by worker-1"], "charged once");
      assert.deepEqual(c.drawn.consumers.map((w) => `${w.name}:${w.sideEffects}`), ["worker-1:1", "worker-2:0"], "worker-2 skipped it");
      assert.equal(left(c, "order A")?.dup, true, "delivered twice");
    },
  },

  "04-heartbeat": {
    moments: {
      2500: (c) => {
        assert.equal(at(token(c, "order A")), "orders||in-flight rc1", "the heartbeat keeps it in flight on its first receive");
        assert.deepEqual(heldBy(c, "worker-2"), [], "worker-2 never gets it");
        assert.equal(c.drawn.banner.shown, false);
        assert.match(c.drawn.narration.text, /Heartbeat: worker-1 calls ChangeMessageVisibility/);
      },
    },
    end: (c) => {
      assert.equal(count(c, "received"), 1, "received once");
      assert.equal(`${left(c, "order A")?.state} rc${left(c, "order A")?.rc}`, "deleted rc1");
      assert.deepEqual(effects(c), ["charged ×1 by worker-1"]);
    },
  },

  "05-poison-message": {
    moments: {
      4500: (c) => {
        assert.equal(at(token(c, "order A-1002")), "orders||in-flight rc3", "receive #3 of the poison message");
        assert.equal(queue(c, "orders-dlq").alarm.inAlarm, false, "the alarm is OK while the DLQ is empty");
      },
      6299: (c) => assert.equal(at(token(c, "order A-1002")), "orders||in-flight rc3", "not moved yet"),
      6400: (c) => {
        const t = token(c, "order A-1002");
        assert.equal(`${at(t)} ${t?.state}`, "orders-dlq||visible rc3 dlq", "in the dead-letter queue after 3 receives");
        assert.equal(queue(c, "orders-dlq").alarm.inAlarm, false, "the alarm judges the DLQ at the end of its 1 s period, not at once");
        assert.equal(c.drawn.rows.find((r) => r.queue === "orders-dlq").redrive.shown, true, "the redrive arrow points into the DLQ");
        assert.equal(c.drawn.chart.last.dlq.value, 1, "the chart shows one message in the DLQ");
        assert.match(c.drawn.narration.text, /The move is lazy/);
      },
      7000: (c) => assert.equal(queue(c, "orders-dlq").alarm.inAlarm, true, "the DLQ depth alarm fires at the end of the period"),
    },
    end: (c) => {
      assert.equal(at(token(c, "order A-1002")), "orders-dlq||visible rc3");
      assert.deepEqual(effects(c), ["charged ×1 by worker-1", "charged ×1 by worker-1"], "the good orders are charged once each");
    },
  },

  "06-fifo-message-groups": {
    moments: {
      300: (c) => {
        assert.deepEqual(queue(c, "orders.fifo").groups.map((g) => `${g.group}:${g.locked}`), ["customer-A:false", "customer-B:false"], "before the workers start, both groups are open");
        assert.equal(at(token(c, "A-2")), "orders.fifo|customer-A|visible rc0");
      },
      1000: (c) => {
        assert.deepEqual(queue(c, "orders.fifo").groups.map((g) => `${g.group}:${g.locked}`), ["customer-A:true", "customer-B:true"], "both groups locked: their heads are in flight");
        assert.equal(at(token(c, "A-1")), "orders.fifo|customer-A|in-flight rc1");
        assert.equal(at(token(c, "A-2")), "orders.fifo|customer-A|visible rc0", "A-2 waits behind A-1");
        assert.deepEqual(heldBy(c, "worker-3"), [], "worker-3 waits: every group's head is in flight");
      },
      2000: (c) => {
        assert.equal(left(c, "A-1")?.state, "deleted");
        assert.equal(at(token(c, "A-2")), "orders.fifo|customer-A|in-flight rc1", "A-2 only after A-1 is deleted");
        assert.equal(queue(c, "orders.fifo").groups.find((g) => g.group === "customer-A").locked, "true");
      },
      4500: (c) => {
        assert.deepEqual(queue(c, "orders.fifo").groups.map((g) => `${g.group}:${g.locked}`), ["customer-A:true"], "customer B is done; A is locked on A-3");
        assert.equal(at(token(c, "A-3")), "orders.fifo|customer-A|in-flight rc1");
      },
    },
    end: (c) => {
      const order = c.events.filter((e) => e.type === "received").map((e) => c.events.find((s) => s.type === "sent" && s.messageId === e.messageId).label.slice(0, 3)).filter((l) => l.startsWith("A"));
      assert.deepEqual(order, ["A-1", "A-2", "A-3", "A-4"], "customer A's orders in order");
      assert.deepEqual(queue(c, "orders.fifo").groups, [], "no group rows left");
      assert.equal(c.drawn.tray.length, 6);
    },
  },

  "07-fifo-deduplication": {
    moments: {
      2000: (c) => {
        assert.equal(count(c, "duplicateDropped"), 1, "the identical receipt was dropped");
        assert.match(queue(c, "receipts.fifo").counts, /^0 visible · 0 in flight/, "and added nothing");
        assert.match(c.drawn.producers["receipt-service"], /sent 1 of 2 \(1 more deduplicated\).*retry dropped/);
      },
      3000: (c) => {
        assert.equal(c.drawn.tokens.length, 0, "the payment retry added nothing either");
        assert.match(c.drawn.producers["payment-service"], /sent 1 of 3 \(1 more deduplicated\).*retry dropped/);
      },
      301000: (c) => {
        const [first, again] = c.events.filter((e) => e.type === "sent" && e.queue === "payments.fifo").map((e) => e.messageId);
        assert.ok(again && again !== first, "after 5 minutes the same dedup id makes a new message");
        assert.equal(at(c.drawn.tokens.find((t) => t.id === again)), "payments.fifo|customer-A|in-flight rc1");
      },
    },
    end: (c) => assert.deepEqual(effects(c), ["charged ×1 by payments-worker", "emailed ×1 by receipts-worker", "charged ×1 by payments-worker"]),
  },

  "08-long-vs-short-polling": {
    moments: {
      9100: (c) => {
        const reading2 = (q) => c.drawn.tokens.find((t) => t.where.startsWith(q));
        assert.equal(at(reading2("long-polled")), "long-polled||in-flight rc1", "the long poll answered the moment reading #2 arrived");
        assert.equal(at(reading2("short-polled")), "short-polled||visible rc0", "reading #2 waits for the next short poll");
      },
    },
    end: (c) => {
      const empty = (who) => count(c, "emptyReceive", (e) => e.by === who);
      assert.ok(empty("short-poller") > 3 * Math.max(1, empty("long-poller")), `short polling: many more empty receives (${empty("short-poller")} vs ${empty("long-poller")})`);
      assert.equal(c.drawn.ledger.length, 12, "every reading stored (the ledger lists 12)");
    },
  },

  "09-delete-before-process": {
    moments: {
      2000: (c) => {
        assert.equal(left(c, "order A-1002")?.state, "deleted", "deleted on receipt…");
        assert.deepEqual(heldBy(c, "worker-1"), [`${idOf(c, "order A-1002")}|1`], "…while worker-1 still works on it");
      },
      3000: (c) => {
        assert.equal(left(c, "order A-1002")?.lost, true, "the crash lost the order");
        assert.equal(consumer(c, "worker-1").state, "crashed");
      },
    },
    end: (c) => {
      assert.deepEqual(effects(c), ["shipped ×1 by worker-1", "shipped ×1 by worker-1"], "A-1001 and A-1003 shipped, A-1002 never");
      assert.equal(c.drawn.tokens.length, 0, "nothing left to redeliver");
    },
  },

  "10-delay-and-retention": {
    moments: {
      1500: (c) => {
        assert.equal(at(token(c, "remind: renew")), "reminders||delayed rc0", "the queue's 5 s delay");
        assert.equal(at(token(c, "remind: pay invoice")), "reminders||delayed rc0", "a 15 s per-message delay");
        assert.equal(c.drawn.chart.last.delayed.value, 2);
      },
      10000: (c) => {
        assert.equal(left(c, "remind: renew")?.state, "deleted", "delivered at 5 s");
        assert.equal(at(token(c, "remind: pay invoice")), "reminders||delayed rc0", "still delayed until 16 s");
      },
      60499: (c) => assert.equal(at(token(c, "event nobody reads")), "unwatched||visible rc0"),
      60500: (c) => {
        assert.equal(left(c, "event nobody reads")?.state, "expired", "retention ended at 60.5 s");
        assert.match(c.drawn.narration.text, /retention expired/);
      },
    },
    end: (c) => assert.deepEqual(c.drawn.tray.map((t) => t.state).sort(), ["deleted", "deleted", "deleted", "expired"]),
  },

  "21-lambda-partial-batch": {
    moments: {
      1400: (c) => {
        const returned = (fn) => c.events.filter((e) => e.type === "lambdaReturned" && e.function === fn).map((e) => `${e.result} ${e.failed.length}`);
        assert.deepEqual(returned("charge-plain"), ["error 4"], "without ReportBatchItemFailures the whole batch returns");
        assert.deepEqual(returned("charge-rbif"), ["partial 1"], "with it only B-3 returns");
        assert.equal(count(c, "deleted", (e) => e.queue === "orders-rbif"), 3, "Lambda deleted B-1, B-2 and B-4 from orders-rbif");
        assert.equal(count(c, "deleted", (e) => e.queue === "orders-plain"), 0, "and nothing from orders-plain");
        assert.equal(at(token(c, "order A-1")), "orders-plain||in-flight rc1", "orders-plain's A-1 waits out its visibility timeout");
      },
      7400: (c) => {
        const twice = c.events.filter((e) => e.type === "sideEffectPerformed" && e.count === 2).map((e) => e.consumer);
        assert.deepEqual(twice, ["charge-plain", "charge-plain", "charge-plain"], "A-1, A-2 and A-4 charged a second time, by charge-plain only");
        assert.match(c.drawn.narration.text, /^The batch is back, and charge-plain charges A-1 a second time/);
      },
    },
    end: (c) => {
      const inQueue = (q) => c.drawn.tokens.filter((t) => t.where.startsWith(`${q}|`)).length;
      assert.equal(inQueue("plain-dlq"), 4, "the good orders were dead-lettered with the bad one");
      assert.equal(inQueue("rbif-dlq"), 1, "only B-3");
      assert.match(c.drawn.narration.text, /^On orders-rbif only B-3 reaches rbif-dlq/);
    },
  },

  "22-lambda-scaling": {
    moments: {
      59999: (c) => assert.equal(count(c, "lambdaScaled"), 0, "five pollers for the first minute"),
      60000: (c) => {
        assert.deepEqual(c.events.filter((e) => e.type === "lambdaScaled").map((e) => e.pollers), [10], "a minute of backlog: up to MaximumConcurrency");
        assert.match(c.drawn.narration.text, /^A minute of backlog/);
      },
    },
    end: (c) => {
      assert.deepEqual(c.events.filter((e) => e.type === "lambdaScaled").map((e) => e.pollers), [10, 5], "back to five once no backlog is left");
      assert.equal(c.drawn.tokens.length, 0, "every order processed and deleted");
    },
  },

  "23-lambda-fifo": {
    moments: {
      400: (c) => {
        const [first] = c.events.filter((e) => e.type === "lambdaReturned");
        assert.deepEqual(first.failed, [idOf(c, "A-2"), idOf(c, "A-3")], "A-3 returns with A-2, though it never ran");
        assert.equal(at(token(c, "A-3")), "orders.fifo|customer-A|in-flight rc1");
      },
      3200: (c) => {
        assert.equal(left(c, "B-4")?.state, "deleted", "customer-B goes on while customer-A is held");
        assert.equal(at(token(c, "A-2")), "orders.fifo|customer-A|in-flight rc1", "A-2 still waits out its visibility timeout");
      },
    },
    end: (c) => {
      const dlq = c.drawn.tokens.filter((t) => t.where.startsWith("orders-dlq.fifo|"));
      assert.deepEqual(dlq.map((t) => t.id).sort(), [idOf(c, "A-2"), idOf(c, "A-3")].sort(), "A-2 and A-3 dead-lettered together");
      assert.match(c.drawn.narration.text, /^A-3 moves to orders-dlq\.fifo with A-2, though it never failed/);
    },
  },

  "24-cloudwatch-alarms": {
    moments: {
      2100000: (c) => {
        const changed = c.events.filter((e) => e.type === "alarmChanged" && e.to === "ALARM").map((e) => e.alarm);
        assert.deepEqual(changed, ["dlq-not-empty", "backlog"], "the DLQ alarm, then three 5-minute periods above 1,000");
        assert.match(c.drawn.narration.text, /^backlog goes to ALARM/);
      },
      4200000: (c) => assert.ok(c.events.some((e) => e.type === "alarmChanged" && e.alarm === "old-messages" && e.to === "ALARM"), "the oldest order has waited over an hour"),
    },
    end: (c) => {
      const last = {};
      for (const e of c.events.filter((e) => e.type === "alarmChanged")) last[e.alarm] = e.to;
      assert.deepEqual(last, { "dlq-not-empty": "OK", backlog: "OK", "old-messages": "OK" }, "the fix and the redrive bring each alarm back to OK");
      assert.equal(c.drawn.tokens.length, 0, "orders and orders-dlq drained");
    },
  },
  "25-custom-metrics": {
    moments: {
      20000: (c) => {
        const changed = c.events.filter((e) => e.type === "alarmChanged" && e.to === "ALARM").map((e) => e.alarm);
        assert.deepEqual(changed, ["processing-failures"], "order X's ProcessingSuccess of 0, in the 10-20 s period");
        assert.match(c.drawn.narration.text, /^processing-failures goes to ALARM/);
      },
      60000: (c) => {
        assert.ok(c.events.some((e) => e.type === "alarmChanged" && e.alarm === "slow-processing" && e.to === "ALARM"), "two periods of 1.5 s orders");
        assert.match(c.drawn.narration.text, /^slow-processing goes to ALARM/);
      },
    },
    end: (c) => {
      const last = {};
      for (const e of c.events.filter((e) => e.type === "alarmChanged")) last[e.alarm] = e.to;
      assert.deepEqual(last, { "processing-failures": "OK", "slow-processing": "ALARM" });
      assert.equal(c.drawn.tokens.filter((t) => t.where.startsWith("orders-dlq|")).length, 1, "order X dead-lettered");
    },
  },
  "26-request-response": {
    moments: {
      26000: (c) => {
        const lost = c.events.filter((e) => e.type === "replyLost").map((e) => e.queue);
        assert.deepEqual(lost, ["per-request-replies-3"], "the third request's reply came after its wait, to a deleted queue");
        assert.ok(c.events.some((e) => e.type === "actionFailed" && e.actor === "quote-service" && e.code === "AWS.SimpleQueueService.NonExistentQueue"));
        assert.match(c.drawn.narration.text, /^quote-service's reply went to a queue that no longer exists/);
        // A request and its reply carry one mark (the oracle checks each card's against the log).
        const marked = [...c.drawn.tokens, ...c.drawn.tray].map((t) => t.link).filter(Boolean);
        assert.ok(marked.includes("⇄ request per-request-2") && marked.includes("⇄ reply to per-request-2"), marked.join("; "));
      },
    },
    end: (c) => {
      const late = c.events.filter((e) => e.type === "replyMatched" && e.late).map((e) => e.requester);
      assert.ok(late.length > 0 && late.every((r) => r === "per-client"), "only the kept queue gets a late reply");
      assert.ok(c.events.filter((e) => e.type === "replyLost").every((e) => e.queue.startsWith("per-request-replies-")));
    },
  },
  "27-temporary-queues-cost": {
    moments: {
      8000: (c) => {
        assert.ok(c.events.some((e) => e.type === "actionFailed" && e.actor === "one-name" && e.action === "CreateQueue" && e.code === "AWS.SimpleQueueService.QueueDeletedRecently"));
        assert.match(c.drawn.narration.text, /^one-name's CreateQueue was refused with QueueDeletedRecently/);
      },
      // directory's latest reply (59.3 s) went to one-queue-replies, which is kept: its card is
      // there; its next goes to one-name-replies, deleted at once, and at the end it has none.
      60000: (c) => assert.ok("directory" in c.drawn.producers, "directory is drawn by its latest reply"),
    },
    end: (c) => {
      const created = c.events.filter((e) => e.type === "queueCreated" && e.queue !== "lookups").length;
      const deleted = c.events.filter((e) => e.type === "queueDeleted").length;
      assert.deepEqual([created, deleted], [15, 14], "a queue per request, one-name's two, one-queue's one");
      // SQS bills every call: unique-names' 12 requests each paid a CreateQueue and a DeleteQueue, one-queue one CreateQueue in all.
      const callers = new Map(c.snap.simulation.outcome.bill.callers.map((b) => [b.caller, b.requests]));
      assert.equal(callers.get("unique-names") - callers.get("one-queue"), 12 * 2 - 1);
      for (const [caller, n] of callers) assert.ok(c.drawn.billCallers.includes(`${caller ?? "setup and unnamed calls"} ${n.toLocaleString("en-US")} request`), `the recap names ${caller}'s ${n} requests: ${c.drawn.billCallers}`);
    },
  },
  "28-large-payload": {
    moments: {
      1500: (c) => {
        const bucket = c.snap.simulation.buckets.find((b) => b.name === "report-payloads");
        assert.equal(bucket.puts, 1, "report-1 put in the bucket");
        assert.equal(bucket.objects, 1, "its object is still there while extended-reader processes it");
        assert.match(c.drawn.narration.text, /^extended-reader's receive read the pointer/);
      },
      12000: (c) => {
        assert.ok(c.events.some((e) => e.type === "payloadMissing" && e.consumer === "guide-reader" && e.code === "NoSuchKey"), "scan-1 came back pointing at nothing");
        assert.ok(c.events.some((e) => e.type === "actionFailed" && e.actor === "guide-sender" && /shorter than 262144 bytes/.test(e.error)), "the multibyte scan was refused");
      },
    },
    end: (c) => {
      assert.equal(c.snap.simulation.buckets[0].objects, 0, "every object deleted");
      assert.equal(c.drawn.tokens.filter((t) => t.where.startsWith("scans-dlq|")).length, 1, "scan-1 dead-lettered, a pointer to nothing");
      assert.match(c.drawn.narration.text, /^scan-1's receives ran out/);
    },
  },
  "29-scheduled-delivery": {
    moments: {
      // 08:15 and a second: the 15-minute delay is over.
      901000: (c) => {
        assert.deepEqual(effects(c), ["reminded ×1 by filter-on-receive"], "Ada's reminder handled 45 min early");
        assert.equal(count(c, "sent", (e) => e.by === "re-delayer"), 1, "Bo's reminder re-delayed, not handled");
        assert.equal(count(c, "sent", (e) => e.by === "scheduler"), 0, "the scheduler waits for 09:00");
      },
    },
    end: (c) => {
      assert.deepEqual([...effects(c)].sort(), ["reminded ×1 by filter-on-receive", "reminded ×1 by notifier", "reminded ×1 by re-delayer"]);
      assert.equal(count(c, "sent", (e) => e.by === "re-delayer"), 3, "4 sends in all for an hour: the app's and 3 re-sends");
      assert.equal(count(c, "sent", (e) => e.by === "scheduler"), 1, "one send at 09:00");
    },
  },
  "30-visibility-extender": {
    moments: {
      61000: (c) => {
        assert.equal(count(c, "duplicateDelivery", (e) => e.queue === "reports"), 1, "90 s beats, 60 s visibility: helper-r receives the report job");
        assert.equal(count(c, "duplicateDelivery", (e) => e.queue === "thumbnails"), 0, "30 s beats keep the thumbnail job hidden");
        assert.match(c.drawn.narration.text, /^extender-90's first beat is due at 90 s/);
      },
    },
    end: (c) => {
      const refused = c.events.filter((e) => e.type === "actionFailed" && e.action === "ChangeMessageVisibility");
      assert.deepEqual(refused.map((e) => [e.timeMs, e.error]), [[43170000, "Value 60 for parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout for the message is beyond the limit [43200 seconds]"]]);
      assert.equal(count(c, "duplicateDelivery", (e) => e.queue === "archive"), 1, "the archive job visible again at 12 h");
    },
  },
  "31-high-throughput-fifo": {
    moments: {
      1000: (c) => {
        const throttled = (by) => count(c, "actionFailed", (e) => e.actor === by && e.code === "RequestThrottled");
        assert.equal(throttled("checkout"), 200, "one SendMessage an order: 500 calls in the first second, 300 taken");
        assert.equal(throttled("checkout-batched") + throttled("checkout-spread"), 0, "batching and high throughput over 20 groups take the burst");
        assert.match(c.drawn.narration.text, /^SQS answered one of checkout's SendMessage calls with RequestThrottled/);
        assert.match(c.drawn.producers.checkout, /200 refused by SQS/);
      },
    },
    end: (c) => {
      assert.match(c.drawn.producers.checkout, /^sent 600 of 1000 · 400 refused by SQS/);
      assert.match(c.drawn.producers["checkout-batched"], /^sent 1000 of 1000/);
      assert.match(c.drawn.producers["checkout-spread"], /^sent 1000 of 1000/);
    },
  },
};

test("the ten tutorial scenarios come first, in tutorial order, each with its story's moments", () => {
  // The lessons after them (11–25) are played by basics.test.mjs; Lambda's,
  // CloudWatch's (21–25) and the patterns' (26 on) have their moments here too.
  assert.equal(scenarios.length, 31);
  assert.deepEqual(Object.keys(STORIES).slice(0, 10), scenarios.slice(0, 10));
  assert.deepEqual(Object.keys(STORIES).slice(10), scenarios.slice(20));
});

for (const stem of Object.keys(STORIES)) {
  test(`scenario ${stem} is drawn as the engine holds it at its key moments and at its end`, async () => {
    const story = STORIES[stem];
    const moments = Object.keys(story.moments).map(Number);
    const { page, problems, close } = await open(`?scenario=${stem}&speed=max&t=${moments[0]}`);
    try {
      for (const [i, t] of moments.entries()) {
        // The link's moment (and each scrub's) is rebuilt after the page says it is ready.
        if (i > 0) await scrubTo(page, t);
        else await shownAt(page, t);
        await story.moments[t](await assertDrawing(page, `${stem} at ${t} ms`, { atMoment: true }));
      }
      // Played on (not replayed) to the end at full speed.
      await page.locator("#play").click();
      await runToEnd(page);
      await story.end(await assertDrawing(page, `${stem} at its end`));
      assert.ok((await page.locator("#log li").count()) > 0, "the log tells what happened");
      assert.equal(await page.locator("#error").isVisible(), false, "no error shown");
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}
