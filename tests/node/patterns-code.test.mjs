// The course's patterns guide, its Python translated line for line into
// the code cell's JavaScript (web/examples/patterns/), run as text through
// the scope the page gives the cell (web/client/code-scope.js) against
// the wasm engine, virtual time moved by tests/node/code-driver.mjs as
// the page's clock moves it. Each pattern's code as the guide writes it
// shows its flaw; the fixed code does not, over a few seeds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Playground } from "./load.mjs";
import { assertQueueDoesNotExist } from "./sdk-client.mjs";
import { runCode, withSetting } from "./code-driver.mjs";
import { S3Client } from "../../web/client/s3-client.js";
import * as requestResponse from "../../web/examples/patterns/request-response.js";
import * as largePayloads from "../../web/examples/patterns/large-payloads.js";
import * as scheduling from "../../web/examples/patterns/scheduling.js";
import * as extender from "../../web/examples/patterns/visibility-extender.js";

/** The Playground's startEpochMs, given so `Date.now()` in the code and SentTimestamp agree. */
const EPOCH_MS = Date.UTC(2024, 0, 1);
const SEEDS = [1, 2, 3, 4, 5];
/** Receives that return fewer messages than they could, so a seed changes what each poll gets. */
const REALISM = { fewerMessagesProbability: 0.5 };

/** A run of `code` on a fresh engine; `pg` is kept for what the test reads after. */
async function run(code, { seed = 1, realism } = {}) {
  const pg = new Playground({ seed, startEpochMs: EPOCH_MS, realism });
  const result = await runCode(pg, code, { epochMs: EPOCH_MS });
  return { pg, ...result };
}

/** A small seeded generator (mulberry32) for the settings a seed tries. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const queues = (pg) => new Map(pg.snapshot().queues.map((q) => [q.name, q]));
const errors = (lines) => lines.filter((l) => l.kind === "error");
/** The replies the code printed, as `order-N -> reply` lines: [[request id, reply]]. */
const replies = (lines) => lines.filter((l) => l.args[1] === "->").map((l) => [l.args[0], l.args[2]]);

test("the driver moves virtual time only while the code waits, and names a wait that nothing will end", async () => {
  const pg = new Playground({ seed: 1, startEpochMs: EPOCH_MS });
  const code = [
    `const { QueueUrl } = await sqs.createQueue({ QueueName: "q" });`,
    `const began = Date.now();`,
    `await sqs.sendMessage({ QueueUrl, MessageBody: "later", DelaySeconds: 7 });`,
    `const { Messages } = await sqs.receiveMessage({ QueueUrl, WaitTimeSeconds: 20, MessageSystemAttributeNames: ["SentTimestamp"] });`,
    `await sleep(2500);`,
    `console.log(Messages[0].Body, Date.now() - began, Number(Messages[0].Attributes.SentTimestamp) === began);`,
  ].join("\n");
  const { error, lines, endedAt } = await runCode(pg, code, { epochMs: EPOCH_MS });
  assert.equal(error, null);
  // The long poll is answered when the delay ends at 7 s; the sleep ends 2.5 s later.
  assert.deepEqual(lines.map((l) => [l.t, l.text]), [[9_500, "later 9500 true"]]);
  assert.equal(endedAt, 9_500);
  // Bounded: a wait nothing will end is named, as is one past the run's limit.
  await assert.rejects(runCode(new Playground(), "await new Promise(() => {});"), { message: "the code waits at 0 ms for something that never comes (no sleep, no poll, nothing due)" });
  // (The engine's own moment within the limit, the message's visibility ending at 37 s, is still reached.)
  await assert.rejects(runCode(pg, "await sleep(3_600_000);", { limitMs: 60_000 }), { message: "the code still waits at 37000 ms; its next moment, 3609500 ms, is past the run's 60000 ms" });
});

// ---------------------------------------------------------------------------
// Request-response

test("the guide's request-response loses a reply the responder sends after the requester deleted its queue", async () => {
  const { pg, lines } = await run(requestResponse.asWritten);
  // Order 2 takes the responder 30 s; its requester waited 20 s (until 25 s) and deleted reply-order-2.
  const [failure, ...more] = errors(lines);
  assert.deepEqual(more, []);
  assert.equal(failure.t, 35_000, "the responder sends when its work ends, 30 s after it took the request at 5 s");
  assert.equal(failure.args[0], "Exception in thread responder:");
  assertQueueDoesNotExist(failure.args[1]);
  assert.deepEqual(replies(lines), [["order-1", { order: 1, status: "confirmed" }]], "order 2's reply never came");
  assert.equal(queues(pg).has("reply-order-2"), false);
  assert.equal(queues(pg).get("requests").messages.length, 1, "the responder died holding order 2's request");
});

test("the guide's request-response cannot ask again within 60 s: the reply queue's name was deleted recently", async () => {
  const { error } = await run(requestResponse.asWritten);
  // The second attempt, at 25 s, makes reply-order-2 again 0 s after the first attempt's finally deleted it.
  assert.equal(error.name, "QueueDeletedRecently");
  assert.equal(error.Code, "AWS.SimpleQueueService.QueueDeletedRecently");
  assert.equal(error.message, "You must wait 60 seconds after deleting a queue before you can create another with the same name.");
  assert.equal(error.$metadata.httpStatusCode, 400);
});

/**
 * Four orders whose work takes 1–35 s, at least one longer than a
 * requester's 20 s wait and all within its two attempts' 40 s.
 */
function orders(seed) {
  const next = random(seed);
  const list = [1, 2, 3, 4].map((order) => ({ order, seconds: 1 + Math.floor(next() * 35) }));
  list[Math.floor(next() * 4)].seconds = 21 + Math.floor(next() * 15);
  return list;
}

test("the guide's request-response loses a reply on every seed where work outlasts the wait", async () => {
  for (const seed of SEEDS) {
    const code = withSetting(requestResponse.asWritten, "ORDERS", orders(seed));
    const { error, lines } = await run(code, { seed, realism: REALISM });
    assert.equal(error?.name, "QueueDeletedRecently", `seed ${seed}`);
    assert.ok(replies(lines).length < 4, `seed ${seed}: a reply is missing`);
  }
});

test("with one reply queue for the client's life, every request gets its own reply over several seeds", async () => {
  for (const seed of SEEDS) {
    const list = orders(seed);
    const code = withSetting(requestResponse.fixed, "ORDERS", list);
    const { pg, error, lines } = await run(code, { seed, realism: REALISM });
    assert.equal(error, null, `seed ${seed}: ${error?.message}`);
    assert.deepEqual(errors(lines), [], `seed ${seed}: the responder never fails`);
    assert.deepEqual(replies(lines), list.map(({ order }) => [`order-${order}`, { order, status: "confirmed" }]), `seed ${seed}`);
    const left = queues(pg);
    assert.equal(left.has("replies-checkout"), false, `seed ${seed}: deleted once no reply was awaited`);
    assert.equal(left.get("requests").messages.length, 0, `seed ${seed}: every request, retries too, answered`);
  }
});

// ---------------------------------------------------------------------------
// Large payloads through S3

/** The large-payload code sending `length` times `char`. */
const payload = (code, char, length) => withSetting(withSetting(code, "BODY_CHAR", char), "BODY_LENGTH", length);
const crashes = (lines) => lines.filter((l) => l.args[0] === "worker crashed:").map((l) => [l.t, l.args[1]]);
const objects = async (pg) => (await new S3Client(pg).listObjectsV2({ Bucket: "large-payloads" })).Contents ?? [];

test("the guide's large payload is lost when the worker crashes after deleting the S3 object it read", async () => {
  const { pg, error, lines } = await run(largePayloads.asWritten);
  assert.equal(error, null);
  const [[firstAt, first], [againAt, again], ...more] = crashes(lines);
  assert.deepEqual(more, []);
  assert.deepEqual([firstAt, first.message], [0, "the worker crashed while processing"]);
  // Redelivered when the 30 s visibility timeout ends; the object it points to was deleted on the first receive.
  assert.equal(againAt, 30_000);
  assert.deepEqual([again.name, again.message, again.$metadata.httpStatusCode], ["NoSuchKey", "The specified key does not exist.", 404]);
  assert.equal(lines.some((l) => l.args[0] === "processed"), false, "never processed");
  const [stuck] = queues(pg).get("orders").messages;
  assert.equal(stuck.receiveCount, 2, "the pointer stays in the queue, pointing at nothing");
  assert.deepEqual(await objects(pg), []);
});

test("the guide's character count sends 200,000 two-byte characters inline, and the queue refuses them", async () => {
  const { pg, error, lines } = await run(payload(largePayloads.asWritten, "é", 200_000));
  // 200,000 characters pass `len(body) > 200_000`; they are 400,000 bytes of UTF-8, over the queue's 262,144.
  assert.equal(error.name, "InvalidParameterValue");
  assert.equal(error.Code, "InvalidParameterValue");
  assert.equal(error.message, "One or more parameters are invalid. Reason: Message must be shorter than 262144 bytes.");
  assert.equal(error.$metadata.httpStatusCode, 400);
  assert.deepEqual(lines, []);
  assert.deepEqual(await objects(pg), [], "it never went to S3");
  assert.equal(queues(pg).get("orders").messages.length, 0);
});

test("measuring bytes and deleting the object last, a large payload survives a crash over several seeds", async () => {
  for (const seed of SEEDS) {
    for (const [char, length] of [["x", 250_000], ["é", 200_000], ["€", 100_000]]) {
      const { pg, error, lines } = await run(payload(largePayloads.fixed, char, length), { seed, realism: REALISM });
      const at = `seed ${seed}, ${length} × ${char}`;
      assert.equal(error, null, `${at}: ${error?.message}`);
      assert.deepEqual(crashes(lines).map(([t, e]) => [t, e.message]), [[0, "the worker crashed while processing"]], at);
      const done = lines.filter((l) => l.args[0] === "processed");
      assert.deepEqual(done.map((l) => [l.t, l.args[1]]), [[30_000, length]], `${at}: processed once, when redelivered`);
      assert.equal(queues(pg).get("orders").messages.length, 0, at);
      assert.deepEqual(await objects(pg), [], `${at}: the object deleted after the message`);
    }
  }
});

test("the fixed sender puts a body in S3 by its UTF-8 bytes: 100,000 three-byte characters go, 200,000 ASCII ones stay inline", async () => {
  const sent = async (char, length) => {
    const { pg } = await run(withSetting(payload(largePayloads.fixed, char, length), "POLLS", 0));
    const [m] = queues(pg).get("orders").messages;
    return [(await objects(pg)).length, m.bodyBytes];
  };
  // 300,000 bytes go to S3 and the message is the pointer; 200,000 bytes are not over the threshold.
  assert.deepEqual(await sent("€", 100_000), [1, JSON.stringify({ s3Bucket: "large-payloads", s3Key: "payloads/1" }).length]);
  assert.deepEqual(await sent("x", 200_000), [0, 200_000]);
});

// ---------------------------------------------------------------------------
// Scheduling past 15 minutes

/** The reminders the code handled: { t (virtual ms), at, due (epoch ms) } each. */
const handled = (lines) => lines.filter((l) => l.args[0] === "handled").map((l) => ({ t: l.t, at: l.args[3], due: l.args[5], early: l.args[7] }));

test("the guide's delay-900 schedule hands a reminder due in an hour to the receiver 45 minutes early", async () => {
  const { error, lines, endedAt } = await run(scheduling.asWritten);
  assert.equal(error, null);
  // Sent at 0 with DelaySeconds 900: visible at 900 s, and the receiver's long poll takes it then.
  assert.deepEqual(handled(lines), [{ t: 900_000, at: EPOCH_MS + 900_000, due: EPOCH_MS + 3_600_000, early: 2_700 }]);
  assert.equal(endedAt, 900_000);
});

test("checking DeliverAt and sending again, a reminder is handled at its time after ceil(remaining / 900) − 1 re-sends, over several seeds", async () => {
  for (const seed of SEEDS) {
    const next = random(seed);
    const due = 901 + Math.floor(next() * 3 * 3_600); // from just past one delay to about three hours
    const { error, lines } = await run(withSetting(scheduling.fixed, "DUE_IN_SECONDS", due), { seed, realism: REALISM });
    const at = `seed ${seed}, due in ${due} s`;
    assert.equal(error, null, `${at}: ${error?.message}`);
    // Each re-send is delayed by what remains, so the last one becomes visible at the due moment, when the waiting poll takes it.
    assert.deepEqual(handled(lines), [{ t: due * 1000, at: EPOCH_MS + due * 1000, due: EPOCH_MS + due * 1000, early: 0 }], at);
    const [resent] = lines.filter((l) => l.args[0] === "re-sent");
    assert.equal(resent.args[1], Math.ceil(due / 900) - 1, at);
  }
});

// ---------------------------------------------------------------------------
// The visibility extender

/** The extender code with its period, extension and job length. */
const job = (code, { period, extension = 60, seconds }) =>
  withSetting(withSetting(withSetting(code, "PERIOD", period), "EXTENSION", extension), "JOB_SECONDS", seconds);
/** Who received the job when, with which receive count: [t, consumer, count]. */
const receives = (lines) => lines.filter((l) => l.args[1] === "received").map((l) => [l.t, l.args[0], l.args[4]]);
/** How much work each consumer did: [t, consumer, seconds]. */
const worked = (lines) => lines.filter((l) => l.args[1] === "worked").map((l) => [l.t, l.args[0], l.args[3]]);

test("the guide's extender, every 30 s for 60 s, keeps a long job's message from the other consumer", async () => {
  for (const seed of SEEDS) {
    const { pg, error, lines } = await run(job(extender.asWritten, { period: 30, seconds: 300 }), { seed, realism: REALISM });
    assert.equal(error, null, `seed ${seed}`);
    assert.deepEqual(errors(lines), [], `seed ${seed}`);
    assert.deepEqual(receives(lines), [[0, "consumer-1", 1]], `seed ${seed}: delivered once`);
    assert.deepEqual(worked(lines), [[300_000, "consumer-1", 300]], `seed ${seed}`);
    // Extended at 30, 60, … 270 s: each time 60 s more, before the last extension ended.
    const changes = pg.events(0).filter((e) => e.type === "visibilityChanged");
    assert.deepEqual(changes.map((e) => e.timeMs), [30, 60, 90, 120, 150, 180, 210, 240, 270].map((s) => s * 1000), `seed ${seed}`);
  }
});

test("the guide's extender with a period longer than its extension lets a second consumer take the message mid-job", async () => {
  const { lines } = await run(job(extender.asWritten, { period: 90, seconds: 300 }));
  // The queue's 60 s visibility ends before the first extension at 90 s: consumer-2 receives the job while consumer-1 works.
  assert.deepEqual(receives(lines), [[0, "consumer-1", 1], [60_000, "consumer-2", 2]]);
  assert.deepEqual(worked(lines), [[300_000, "consumer-1", 300], [360_000, "consumer-2", 300]], "the job done twice");
});

test("past 12 hours from the receive SQS refuses the guide's extension, its thread dies, and the job is delivered again", async () => {
  const { lines } = await run(job(extender.asWritten, { period: 30, seconds: 13 * 3_600 }));
  const [refused] = errors(lines);
  // The call at 43,170 s would hide the message until 43,230 s, past 43,200 s after its receive at 0.
  assert.equal(refused.t, 43_170_000);
  assert.equal(refused.args[0], "Exception in thread extender:");
  const e = refused.args[1];
  assert.deepEqual([e.name, e.Code, e.$metadata.httpStatusCode], ["InvalidParameterValue", "InvalidParameterValue", 400]);
  assert.equal(e.message, "Value 60 for parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout for the message is beyond the limit [43200 seconds]");
  // The extension made at 43,140 s ends at 43,200 s; no later one came.
  assert.deepEqual(receives(lines), [[0, "consumer-1", 1], [43_200_000, "consumer-2", 2]]);
  assert.equal(worked(lines).length, 2, "the job done twice");
});

test("the fixed extender keeps its period inside the extension and hands on a job past 12 hours, each second worked once, over several seeds", async () => {
  for (const seed of SEEDS) {
    const next = random(seed);
    const period = [30, 60, 90, 120][Math.floor(next() * 4)];
    const seconds = 6 * 3_600 + Math.floor(next() * 24 * 3_600); // 6 to 30 hours: most outlast one message's 12
    const { pg, error, lines } = await run(job(extender.fixed, { period, seconds }), { seed, realism: REALISM });
    const at = `seed ${seed}, period ${period} s, a job of ${seconds} s`;
    assert.equal(error, null, `${at}: ${error?.message}`);
    assert.deepEqual(errors(lines), [], at);
    assert.ok(receives(lines).every(([, , count]) => count === 1), `${at}: no message delivered twice`);
    assert.equal(worked(lines).reduce((sum, [, , s]) => sum + s, 0), seconds, `${at}: every second of the job worked once`);
    assert.equal(receives(lines).length, Math.ceil(seconds / 43_140), `${at}: one message per 12 hours, less the last chunk`);
    assert.equal(queues(pg).get("jobs").messages.length, 0, at);
  }
});
