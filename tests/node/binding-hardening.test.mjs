// Issue 10, the binding's part: what page scripts can hand a Playground
// (through `el.playground`) must throw a JavaScript error naming the
// method and the argument, never trap the module (which would break every
// playground of the page), and never leave the Playground unusable; and
// snapshots of big queues come in windows and pages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { call, Playground } from "./load.mjs";
import { checkLab, labScenario, labView, limits } from "../../web/pkg/queuelab.js";
import { Run } from "../../web/run/run.js";
import { STAGE_WINDOW } from "../../web/run/derive.js";

const SEND = "AmazonSQS.SendMessage";

/** Throws `kind` whose message matches `pattern`; returns the error. */
function throwsError(fn, kind, pattern) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error, "expected a throw");
  assert.ok(error instanceof kind, `expected a ${kind.name}, got ${error?.constructor?.name}: ${error?.message}`);
  assert.match(error.message, pattern);
  return error;
}

/** The playground (and the module) still answer ordinary calls. */
async function stillWorks(pg) {
  const made = await call(pg, "CreateQueue", { QueueName: `after-${Math.random().toString(36).slice(2, 8)}` });
  assert.equal(made.status, 200);
  assert.ok(new Playground().now() === 0);
}

/** A producer of 200 bodies of 1 MiB (the largest message SQS takes) into one queue. */
const BIG_BODIES = JSON.stringify({
  title: "1 MiB bodies",
  durationMs: 1000,
  queues: [{ name: "orders" }],
  producers: [{ name: "p", queue: "orders", rate: { startMs: 0, everyMs: 1, count: 200, body: "x".repeat(1 << 20) } }],
});

async function withQueue(name = "orders", attributes = {}) {
  const pg = new Playground({ seed: 1 });
  const made = await call(pg, "CreateQueue", { QueueName: name, Attributes: attributes });
  return { pg, url: made.body.QueueUrl };
}

async function sendMany(pg, url, n, body = (i) => `m${i}`, extra = () => ({})) {
  for (let i = 0; i < n; i += 10) {
    const entries = [];
    for (let j = i; j < Math.min(n, i + 10); j++) entries.push({ Id: `e${j}`, MessageBody: body(j), ...extra(j) });
    const res = await call(pg, "SendMessageBatch", { QueueUrl: url, Entries: entries });
    assert.equal(res.body.Failed?.length ?? 0, 0);
  }
}

test("dispatch(5, \"{}\") throws a TypeError naming the target instead of trapping in the allocator", async () => {
  const pg = new Playground();
  throwsError(() => pg.dispatch(5, "{}"), TypeError, /^dispatch: target must be a string such as "AmazonSQS.SendMessage", got number$/);
  throwsError(() => pg.dispatch(undefined, "{}"), TypeError, /target .* got undefined/);
  throwsError(() => pg.dispatch(Symbol("x"), "{}"), TypeError, /target .* got symbol/);
  await stillWorks(pg);
});

test("dispatch(op, {}) throws a TypeError asking for the body's JSON text", async () => {
  const pg = new Playground();
  throwsError(() => pg.dispatch(SEND, {}), TypeError, /^dispatch: body must be the request's JSON text.*JSON\.stringify.*got object$/);
  throwsError(() => pg.dispatch(SEND, null), TypeError, /body .* got null$/);
  throwsError(() => pg.dispatch(SEND, ["{}"]), TypeError, /body .* got array$/);
  await stillWorks(pg);
});

test("peek(5) throws a TypeError naming the message id", async () => {
  const pg = new Playground();
  throwsError(() => pg.peek(5), TypeError, /^peek: messageId must be a message id \(a string\), got number$/);
  assert.equal(pg.peek("no-such-id"), null);
  await stillWorks(pg);
});

test("fromScenario(5) throws a TypeError asking for the scenario's text", () => {
  throwsError(() => Playground.fromScenario(5), TypeError, /^fromScenario: text must be the scenario's JSON text.*got number$/);
  throwsError(() => Playground.fromScenario({ title: "x" }), TypeError, /JSON\.stringify.*got object$/);
  assert.ok(new Playground().now() === 0);
});

test("options of the wrong type throw TypeErrors naming the method", async () => {
  throwsError(() => new Playground("seed=1"), TypeError, /^new Playground: Playground options must be an object, got string$/);
  throwsError(() => new Playground({ seed: "7" }), TypeError, /^new Playground: invalid Playground option: /);
  throwsError(() => new Playground({ region: { toString: () => "eu" } }), TypeError, /"region" must be a string, number or boolean, got object/);
  throwsError(() => Playground.fromScenario("{}", 5), TypeError, /^fromScenario: Playground options must be an object/);
  const pg = new Playground();
  throwsError(() => pg.dispatch(SEND, "{}", "worker-1"), TypeError, /^dispatch: dispatch options must be an object, got string$/);
  throwsError(() => pg.dispatch(SEND, "{}", { caller: 5 }), TypeError, /^dispatch: dispatch option caller must be a name for the log \(a string\), got number$/);
  throwsError(() => pg.dispatch(SEND, "{}", { principal: true }), TypeError, /^dispatch: dispatch option principal must be an account id .*, got boolean$/);
  await stillWorks(pg);
});

test("events(since) wants a whole number: a wrong type is a TypeError, a bad number a RangeError", async () => {
  const { pg } = await withQueue();
  throwsError(() => pg.events("3"), TypeError, /^events: since must be a whole number, got string$/);
  for (const bad of [-1, 1.5, NaN, Infinity]) throwsError(() => pg.events(bad), RangeError, /^events: since must be a whole number from 0 to /);
  assert.deepEqual(pg.events(undefined), pg.events(0));
  assert.equal(pg.events().length, 1);
  await stillWorks(pg);
});

test("a throwing getter on an options object throws its own error and leaves the Playground usable", async () => {
  const boom = new Error("getter says no");
  throwsError(() => new Playground({ get seed() { throw boom; } }), Error, /getter says no/);
  throwsError(() => new Playground({ realism: { get shortPollSampleRate() { throw boom; } } }), Error, /getter says no/);
  const pg = new Playground();
  const error = throwsError(() => pg.dispatch(SEND, "{}", { get caller() { throw boom; } }), Error, /getter says no/);
  assert.equal(error, boom, "the getter's own error, not a copy");
  throwsError(() => pg.snapshot({ get messagesPerQueue() { throw boom; } }), Error, /getter says no/);
  // Before the fix, every later call answered "recursive use of an object detected".
  const made = await call(pg, "CreateQueue", { QueueName: "still-here" });
  assert.equal(made.status, 200);
  assert.equal(pg.snapshot().queues.length, 1);
  assert.equal(pg.now(), 0);
});

test("a Proxy whose traps throw is refused with the trap's error, and the Playground stays usable", async () => {
  const pg = new Playground();
  const trap = new Error("trap says no");
  const hostile = new Proxy({}, { ownKeys() { throw trap; } });
  throwsError(() => pg.dispatch(SEND, "{}", hostile), Error, /trap says no/);
  const getter = new Proxy({ caller: "x" }, { get() { throw trap; } });
  throwsError(() => pg.dispatch(SEND, "{}", getter), Error, /trap says no/);
  await stillWorks(pg);
});

/** Defines `Object.prototype[name]` as a setter for the length of `fn`. */
async function withPrototypeSetter(name, set, fn) {
  Object.defineProperty(Object.prototype, name, { set, configurable: true });
  try {
    await fn();
  } finally {
    delete Object.prototype[name];
  }
}

test("a setter on Object.prototype never runs while an answer is built: the call answers, and what it stored is there", async () => {
  const { pg, url } = await withQueue();
  const ran = [];
  for (const name of ["status", "headers", "body", "content-type", "x-amzn-requestid"]) {
    await withPrototypeSetter(name, () => { ran.push(name); throw new Error("setter says no"); }, async () => {
      const sent = pg.dispatchSync(SEND, JSON.stringify({ QueueUrl: url, MessageBody: name }));
      assert.equal(sent.status, 200);
      assert.equal(JSON.parse(sent.body).MD5OfMessageBody.length, 32);
      assert.equal(sent.headers["content-type"], "application/x-amz-json-1.0");
      assert.equal((await pg.dispatch(SEND, JSON.stringify({ QueueUrl: url, MessageBody: `${name}!` }))).status, 200);
    });
  }
  assert.deepEqual(ran, [], "no setter ran");
  assert.equal(pg.counts().queues[0].visible, 10, "every call that stored a message answered");
  await stillWorks(pg);
});

test("a long poll answered later is resolved even with a throwing setter on Object.prototype", async () => {
  const { pg, url } = await withQueue();
  const poll = pg.dispatch("AmazonSQS.ReceiveMessage", JSON.stringify({ QueueUrl: url, WaitTimeSeconds: 20 }));
  await withPrototypeSetter("body", () => { throw new Error("setter says no"); }, () => {
    assert.equal(pg.dispatchSync(SEND, JSON.stringify({ QueueUrl: url, MessageBody: "late" })).status, 200);
  });
  const answer = await poll;
  assert.equal(JSON.parse(answer.body).Messages[0].Body, "late");
});

test("a getter calling back into the same Playground does not poison it", async () => {
  const pg = new Playground();
  const sneaky = { get caller() { return String(pg.now()); } };
  assert.throws(() => pg.dispatch(SEND, "{}", sneaky)); // the playground is busy reading its options
  await stillWorks(pg);
});

test("only own properties of an options object are read: inherited ones are ignored", async () => {
  const { pg, url } = await withQueue();
  const inherited = Object.create({ caller: "mallory", sneaky: true });
  await call(pg, "SendMessage", { QueueUrl: url, MessageBody: "x" }, inherited);
  const sent = pg.events(0).find((e) => e.type === "sent");
  assert.notEqual(sent.caller, "mallory");
  // The seed decides message ids: an inherited seed must not change them.
  const ids = async (pg) => {
    const { body } = await call(pg, "CreateQueue", { QueueName: "q" });
    return (await call(pg, "SendMessage", { QueueUrl: body.QueueUrl, MessageBody: "x" })).body.MessageId;
  };
  assert.equal(await ids(new Playground(Object.create({ seed: 99 }))), await ids(new Playground()));
  assert.notEqual(await ids(new Playground({ seed: 99 })), await ids(new Playground()), "an own seed does");
});

test("a windowed snapshot lists each queue's first messagesPerQueue messages, in the full snapshot's order, with what it left out", async () => {
  const { pg, url } = await withQueue();
  await sendMany(pg, url, 5000);
  await call(pg, "ReceiveMessage", { QueueUrl: url, MaxNumberOfMessages: 10 });
  const full = pg.snapshot().queues[0];
  const window = pg.snapshot({ messagesPerQueue: 200 }).queues[0];
  assert.equal(window.messages.length, 200);
  assert.deepEqual(window.messages, full.messages.slice(0, 200));
  assert.equal(window.messagesOmitted, 4800);
  assert.deepEqual([window.visible, window.inFlight, window.delayed], [full.visible, full.inFlight, full.delayed]);
  assert.equal(full.messagesOmitted, undefined, "a full snapshot leaves nothing out and does not say so");
  const none = pg.snapshot({ messagesPerQueue: 0 }).queues[0];
  assert.deepEqual([none.messages.length, none.messagesOmitted, none.visible], [0, 5000, 4990]);
});

test("a windowed snapshot of a FIFO queue lists only its listed messages' groups", async () => {
  const { pg, url } = await withQueue("jobs.fifo", { FifoQueue: "true", ContentBasedDeduplication: "true" });
  await sendMany(pg, url, 300, (i) => `m${i}`, (i) => ({ MessageGroupId: `g${String(i % 100).padStart(3, "0")}` }));
  const q = pg.snapshot({ messagesPerQueue: 20 }).queues[0];
  assert.equal(q.messages.length, 20);
  assert.deepEqual(q.groups.map((g) => g.group), [...new Set(q.messages.map((m) => m.group))].sort());
  assert.equal(q.groupsOmitted, 80);
  assert.equal(pg.snapshot().queues[0].groups.length, 100);
});

test("snapshot and queueMessages options are checked: wrong types throw TypeErrors, bad numbers RangeErrors", () => {
  const pg = new Playground();
  throwsError(() => pg.snapshot(200), TypeError, /^snapshot: snapshot options must be an object, got number$/);
  throwsError(() => pg.snapshot({ messagesPerQueue: "200" }), TypeError, /^snapshot: messagesPerQueue must be a whole number, got string$/);
  for (const bad of [-1, 2.5, NaN, Infinity]) throwsError(() => pg.snapshot({ messagesPerQueue: bad }), RangeError, /messagesPerQueue must be a whole number from 0/);
  throwsError(() => pg.snapshot({ messagesPerQeue: 5 }), Error, /unknown snapshot option field "messagesPerQeue"/);
  throwsError(() => pg.queueMessages(5), TypeError, /^queueMessages: queueUrl must be a queue URL \(a string\), got number$/);
  throwsError(() => pg.queueMessages("u", { limit: 10001 }), RangeError, /^queueMessages: limit must be a whole number from 0 to 10000, got 10001$/);
  throwsError(() => pg.queueMessages("u", { offset: -5 }), RangeError, /offset/);
});

test("queueMessages pages through one queue in snapshot order, and says where the next page starts", async () => {
  const { pg, url } = await withQueue();
  await sendMany(pg, url, 250);
  const full = pg.snapshot().queues[0].messages;
  const pages = [];
  let offset = 0;
  while (offset != null) {
    const page = pg.queueMessages(url, { offset, limit: 100 });
    assert.equal(page.total, 250);
    assert.equal(page.queue, "orders");
    pages.push(...page.messages);
    offset = page.nextOffset;
  }
  assert.deepEqual(pages, full);
  assert.equal(pg.queueMessages(url).messages.length, 100, "default limit");
  assert.deepEqual(pg.queueMessages(url, { offset: 1000 }).messages, []);
  assert.equal(pg.queueMessages(url.replace("orders", "nothing")), null);
});

test("a snapshot of more than a million messages is refused, naming the cause and the way out", () => {
  // A producer inside the engine sends them: a million separate calls from
  // JavaScript would take minutes.
  const scenario = JSON.stringify({
    title: "a million and one",
    durationMs: 1_000_001,
    queues: [{ name: "orders" }],
    producers: [{ name: "p", queue: "orders", rate: { startMs: 0, everyMs: 1, count: 1_000_001, body: "x" } }],
  });
  // One past the default message budget (limits().defaultBudgets.maxStoredMessages), raised for the test.
  const pg = Playground.fromScenario(scenario, { maxStoredMessages: 2_000_000 });
  pg.advance(1_000_001);
  assert.equal(pg.counts().queues[0].visible, 1_000_001);
  throwsError(() => pg.snapshot(), Error, /^the snapshot holds 1,000,001 messages, more than the 1,000,000 a snapshot hands to JavaScript; ask for a window with snapshot\(\{ messagesPerQueue \}\)/);
  const window = pg.snapshot({ messagesPerQueue: 100 }).queues[0];
  assert.deepEqual([window.messages.length, window.messagesOmitted], [100, 999_901]);
  assert.equal(pg.queueMessages(window.url, { offset: 1_000_000 }).messages.length, 1);
});

test("a snapshot of more than 256 MiB of JSON is refused before it fills memory, naming the cause and the way out", () => {
  // 120,000 bodies of 1,024 quotes: each message's preview is its whole
  // body, 2 KiB once JSON escapes it, so about 290 MB of JSON.
  const scenario = JSON.stringify({
    title: "quoted bodies",
    durationMs: 120_000,
    queues: [{ name: "orders" }],
    producers: [{ name: "p", queue: "orders", rate: { startMs: 0, everyMs: 1, count: 120_000, body: '"'.repeat(1024) } }],
  });
  const pg = Playground.fromScenario(scenario);
  pg.advance(120_000);
  assert.equal(pg.counts().queues[0].visible, 120_000);
  throwsError(() => pg.snapshot(), Error, /^the snapshot holds 120,000 messages, more than 256 MiB of JSON; ask for a window with snapshot\(\{ messagesPerQueue \}\)/);
  // A window, however wide, is held to its byte budget instead.
  const window = pg.snapshot({ messagesPerQueue: 100_000 }).queues[0];
  assert.ok(window.messages.length > 100 && window.messages.length < 1000, `${window.messages.length} listed`);
  assert.equal(window.messagesOmitted, 120_000 - window.messages.length);
});

test("a snapshot message carries its body's length and first KiB, and peek carries the whole body", async () => {
  const { pg, url } = await withQueue();
  const big = "é".repeat(300_000); // 600,000 bytes of UTF-8
  await call(pg, "SendMessage", { QueueUrl: url, MessageBody: big });
  await call(pg, "SendMessage", { QueueUrl: url, MessageBody: "small" });
  const { bodyPreviewBytes, snapshotWindowBytes } = limits();
  assert.deepEqual([bodyPreviewBytes, snapshotWindowBytes], [1024, 1 << 20]);
  const [first, second] = pg.snapshot({ messagesPerQueue: 200 }).queues[0].messages;
  assert.deepEqual([first.body, first.bodyBytes, first.bodyTruncated], ["é".repeat(512), 600_000, true]);
  assert.deepEqual([second.body, second.bodyBytes, second.bodyTruncated], ["small", 5, false]);
  assert.deepEqual(pg.queueMessages(url).messages[0], pg.snapshot().queues[0].messages[0], "a page lists the same preview");
  const peek = pg.peek(first.messageId).message;
  assert.deepEqual([peek.body, peek.bodyBytes, peek.bodyTruncated], [big, 600_000, false]);
});

test("a window of 200 messages of 1 MiB is a few hundred KiB of JSON and carries each length", () => {
  const pg = Playground.fromScenario(BIG_BODIES);
  pg.advance(1000);
  assert.equal(pg.counts().queues[0].visible, 200);
  const snap = pg.snapshot({ messagesPerQueue: 200 });
  // Before: each message carried its whole body, 200 MiB of JSON.
  const bytes = JSON.stringify(snap).length;
  assert.ok(bytes < 400 << 10, `${bytes} bytes`);
  assert.equal(snap.queues[0].messages.length, 200);
  assert.ok(snap.queues[0].messages.every((m) => m.bodyBytes === 1 << 20 && m.bodyTruncated && m.body.length === 1024));
});

test("the page's run asks the engine only for the messages the stage draws", () => {
  const scenario = JSON.stringify({
    title: "backlog",
    seed: 1,
    durationMs: 3000,
    queues: [{ name: "backlog" }],
    producers: [{ name: "p", queue: "backlog", rate: { startMs: 0, everyMs: 1, count: 2500, body: "job #{n}" } }],
  });
  const run = new Run();
  run.start(scenario);
  run.advanceTo(run.duration);
  const q = run.snap.queues[0];
  assert.equal(q.messages.length, STAGE_WINDOW);
  assert.equal(q.messagesOmitted, 2500 - STAGE_WINDOW);
  assert.deepEqual(q.messages, run.pg.snapshot().queues[0].messages.slice(0, STAGE_WINDOW));
});

test("snapshot({ sideEffectsSince }) lists only the side effects performed since that event number", () => {
  const text = readFileSync(new URL("../../web/scenarios/02-slow-consumer-duplicate.json", import.meta.url), "utf8");
  const pg = Playground.fromScenario(text);
  let since = 0;
  let seen = 0;
  while (pg.now() < 10_000) {
    const before = pg.snapshot().simulation.sideEffects;
    const next = pg.nextEventTime();
    pg.advance(Math.max(1, (next ?? 10_000) - pg.now()));
    // `since` is the number the first event after the last snapshot got.
    const performed = pg.events(0).filter((e) => e.seq >= since && e.type === "sideEffectPerformed").map((e) => e.messageId);
    const snap = pg.snapshot({ sideEffectsSince: since });
    const all = pg.snapshot().simulation.sideEffects;
    // Exactly the entries of the messages performed since, each whole and as the full ledger has it.
    assert.deepEqual(snap.simulation.sideEffects, all.filter((s) => performed.includes(s.messageId)));
    assert.ok(all.length >= before.length);
    seen += snap.simulation.sideEffects.length;
    since = snap.nextEventSeq;
  }
  assert.ok(seen >= 2, "the run performed side effects, one of them twice");
  throwsError(() => pg.snapshot({ sideEffectsSince: "0" }), TypeError, /^snapshot: sideEffectsSince must be a whole number, got string$/);
  for (const bad of [-1, 2.5, NaN]) throwsError(() => pg.snapshot({ sideEffectsSince: bad }), RangeError, /sideEffectsSince must be a whole number from 0/);
});

test("a caller name over limits().maxCallerChars is a RangeError saying the limit, since every event of the call would record it", async () => {
  const { pg, url } = await withQueue();
  const { maxCallerChars } = limits();
  assert.equal(maxCallerChars, 80);
  const body = JSON.stringify({ QueueUrl: url, MessageBody: "x" });
  throwsError(() => pg.dispatchSync(SEND, body, { caller: "c".repeat(81) }), RangeError,
    /^dispatchSync: dispatch option caller must be at most 80 characters, got 81$/);
  // Longer than any option takes: measured before it is copied into wasm memory.
  throwsError(() => pg.dispatchSync(SEND, body, { caller: "c".repeat(1 << 20) }), RangeError,
    /^dispatchSync: dispatch option "caller" must be at most 1024 characters, got 1048576$/);
  throwsError(() => pg.dispatch(SEND, body, { caller: "é".repeat(81) }), RangeError, /^dispatch: .* got 81$/);
  assert.equal(pg.events(0).filter((e) => e.type === "sent").length, 0, "nothing was sent");
  const sent = await call(pg, "SendMessage", { QueueUrl: url, MessageBody: "x" }, { caller: "é".repeat(80) });
  assert.equal(sent.status, 200);
  assert.equal(pg.events(0).find((e) => e.type === "sent").by, "é".repeat(80));
  await stillWorks(pg);
});

test("advance and workEstimate refuse a fraction, a negative or a non-number, naming the argument", () => {
  const pg = new Playground();
  for (const bad of [0.5, 1.25, -1, NaN, Infinity]) {
    throwsError(() => pg.advance(bad), RangeError, /^advance: ms must be a whole number from 0 to \d+, got /);
  }
  throwsError(() => pg.advance("5"), TypeError, /^advance: ms must be a whole number, got string$/);
  throwsError(() => pg.advance({ valueOf: () => 5 }), TypeError, /^advance: ms must be a whole number, got object$/);
  assert.equal(pg.now(), 0, "no refused advance moved time");
  assert.equal(pg.advance(2), 2);
  for (const bad of [0.5, -1, NaN]) throwsError(() => pg.workEstimate(bad), RangeError, /^workEstimate: untilMs must be a whole number from 0 to /);
  throwsError(() => pg.workEstimate("9"), TypeError, /^workEstimate: untilMs must be a whole number, got string$/);
  assert.equal(typeof pg.workEstimate(10), "number");
});

/** A Proxy already revoked: every operation on it throws, even Array.isArray. */
function revoked() {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

test("a revoked Proxy handed to any export, 10,000 times, throws a JavaScript error and the module keeps working", async () => {
  const lab = readFileSync(new URL("../../web/scenarios/labs/01-duplicate-orders.json", import.meta.url), "utf8");
  const { pg, url } = await withQueue();
  const sent = JSON.stringify({ QueueUrl: url, MessageBody: "x" });
  const calls = [
    (r) => new Playground(r),
    (r) => new Playground({ realism: r }),
    (r) => Playground.fromScenario(r),
    (r) => Playground.fromScenario(lab, r),
    (r) => pg.dispatch(r, sent),
    (r) => pg.dispatch(SEND, r),
    (r) => pg.dispatch(SEND, sent, r),
    (r) => pg.dispatchSync(SEND, sent, r),
    (r) => pg.advance(r),
    (r) => pg.pauseAtCheckpoints(r),
    (r) => pg.pauseAtInvocations(r),
    (r) => pg.events(r),
    (r) => pg.snapshot(r),
    (r) => pg.queueMessages(r),
    (r) => pg.queueMessages(url, r),
    (r) => pg.workEstimate(r),
    (r) => pg.peek(r),
    (r) => pg.whyEmpty(r, "me"),
    (r) => pg.whyEmpty(url, r),
    (r) => labView(r),
    (r) => labScenario(r),
    (r) => labScenario(lab, r),
    (r) => labScenario(lab, undefined, r),
    (r) => checkLab(r),
    (r) => checkLab(lab, r),
  ];
  const r = revoked();
  let threw = 0;
  for (let i = 0; i < 10_000; i++) {
    try {
      calls[i % calls.length](r);
    } catch (e) {
      assert.ok(e instanceof Error, `call ${i % calls.length} threw ${e}`);
      threw++;
    }
  }
  assert.equal(threw, 10_000, "every call refused the revoked Proxy");
  // Before: "recursive use of an object detected", then after about 2,000
  // throws every call trapped, new Playground() included.
  assert.equal(pg.dispatchSync(SEND, sent).status, 200);
  assert.equal(pg.counts().queues[0].visible, 1);
  await stillWorks(pg);
});
