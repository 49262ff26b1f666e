// The headless run (web/run/run.js) in Node: the timeline's promise that
// "replay to t" shows exactly what running to t shows, that your recorded
// actions are made again at their moments, and that a run is fixed by its
// text and seed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import "./load.mjs"; // initialises the wasm module that web/engine/engine.js re-exports
import * as runModule from "../../web/run/run.js";
import { ACTION_WORK, ACTIONS_PER_CHUNK } from "../../web/run/page-limits.js";

const { Run } = runModule;

const scenario = (file) => readFileSync(new URL(`../../web/scenarios/${file}`, import.meta.url), "utf8");
const DUP = scenario("02-slow-consumer-duplicate.json");
const FIFO = scenario("06-fifo-message-groups.json"); // random processing times: the seed matters

/** What a moment looks like: the snapshot and every event so far, as text. */
const moment = (run) => JSON.stringify({ now: run.now, snap: run.pg.snapshot(), events: run.pg.events(0) });

function started(text, opts) {
  const run = new Run(opts);
  run.start(text);
  return run;
}

test("replaying to a moment gives the same snapshot and events as running to it", () => {
  for (const t of [0, 1, 2000, 3500, 4321, 10000]) {
    const direct = started(DUP);
    direct.advanceTo(t);
    const replayed = started(DUP);
    replayed.advanceTo(replayed.duration); // somewhere else first
    replayed.replayTo(t);
    assert.equal(moment(replayed), moment(direct), `at t=${t}`);
    assert.deepEqual([...replayed.facts.left], [...direct.facts.left], `remembered facts at t=${t}`);
  }
});

test("stepping event by event reaches the same end as running straight to it", () => {
  const stepped = started(FIFO);
  let steps = 0;
  while (stepped.now < stepped.duration && steps++ < 10_000) stepped.step();
  const straight = started(FIFO);
  straight.advanceTo(straight.duration);
  assert.ok(steps > 10, `took ${steps} steps`);
  assert.equal(moment(stepped), moment(straight));
});

test("your recorded actions are made again, at their moments, by a replay", async () => {
  const run = started(DUP);
  run.advanceTo(1000);
  const url = run.pg.snapshot().queues.find((q) => q.name === "orders").url;
  const res = await run.dispatch("AmazonSQS.SendMessage", JSON.stringify({ QueueUrl: url, MessageBody: "mine" }), { caller: "you" });
  assert.equal(res.status, 200);
  await run.dispatch("AmazonSQS.SendMessage", "{not json", { caller: "you" }); // refused: nothing to record
  assert.deepEqual(run.journal.map((a) => `${a.t} ${a.op} ${a.caller} ${a.body.MessageBody}`), ["1000 SendMessage you mine"]);
  run.advanceTo(6000);
  const live = moment(run);
  assert.ok(run.pg.events(0).some((e) => e.type === "sent" && e.by === "you"), "the action is in the log");

  run.replayTo(6000);
  assert.equal(moment(run), live, "a replay makes the action again at t=1000");
  run.replayTo(999);
  assert.ok(!run.pg.events(0).some((e) => e.by === "you"), "before its moment the action has not happened");
  run.advanceTo(6000, { replay: true });
  assert.equal(moment(run), live, "advancing a replay makes it at its moment");

  const fresh = started(DUP);
  fresh.journal = run.journal;
  fresh.replayTo(6000);
  assert.equal(moment(fresh), live, "the journal alone (a shared link) rebuilds the run");
});

/** The duplicate scenario, its queue "orders" open to the partner and the account's topics. */
const OPEN_DUP = (() => {
  const doc = JSON.parse(DUP);
  const orders = doc.queues.find((q) => q.name === "orders");
  orders.policy = {
    Version: "2012-10-17",
    Statement: [
      { Sid: "Partner", Effect: "Allow", Principal: { AWS: "111111111111" }, Action: "sqs:SendMessage", Resource: "*" },
      { Sid: "Topics", Effect: "Allow", Principal: { Service: "sns.amazonaws.com" }, Action: "sqs:SendMessage", Resource: "*",
        Condition: { ArnLike: { "aws:SourceArn": "arn:aws:sns:us-east-1:000000000000:*" } } },
    ],
  };
  return JSON.stringify(doc);
})();

test("your actions as another account or a service are replayed as the same principal", async () => {
  const run = started(OPEN_DUP);
  run.advanceTo(1000);
  const url = run.pg.snapshot().queues.find((q) => q.name === "orders").url;
  const send = (MessageBody, who) => run.dispatch("AmazonSQS.SendMessage", JSON.stringify({ QueueUrl: url, MessageBody }), who);
  assert.equal((await send("partner's", { caller: null, principal: "111111111111" })).status, 200);
  const topic = { caller: "orders-topic", principal: "sns.amazonaws.com", sourceArn: "arn:aws:sns:us-east-1:000000000000:orders-topic", sourceAccount: "000000000000" };
  assert.equal((await send("the topic's", topic)).status, 200);
  assert.deepEqual(
    run.journal.map(({ t, op, body, ...who }) => who),
    [{ caller: "111111111111", principal: "111111111111" }, topic],
    "each action keeps who made it",
  );
  run.advanceTo(6000);
  const live = moment(run);
  assert.ok(run.pg.events(0).some((e) => e.type === "sent" && e.by === "111111111111"), "the log names the account");
  const fresh = started(OPEN_DUP);
  fresh.journal = JSON.parse(JSON.stringify(run.journal)); // as a share link carries it
  fresh.replayTo(6000);
  assert.equal(moment(fresh), live);
  const journal = fresh.pg.journal(0).calls.map(({ t, op, body, ...who }) => who);
  assert.deepEqual(journal, [{ caller: "111111111111", principal: "111111111111" }, topic], "the replay made the same calls as the same principals");
});

test("a link's action with a principal that is none is left out, and the run goes on", () => {
  const run = started(DUP);
  const url = run.pg.snapshot().queues[0].url;
  const body = (MessageBody) => ({ QueueUrl: url, MessageBody });
  run.journal = [
    { t: 500, op: "SendMessage", body: body("bad"), caller: "x", principal: "not-an-account" },
    { t: 600, op: "SendMessage", body: body("good"), caller: "y" },
  ];
  run.replayTo(1000);
  const sent = run.pg.events(0).filter((e) => e.type === "sent" && (e.by === "x" || e.by === "y"));
  assert.deepEqual(sent.map((e) => e.by), ["y"]);
});

test("a new action after scrubbing back replaces your later ones", async () => {
  const run = started(DUP);
  const url = run.pg.snapshot().queues[0].url;
  run.advanceTo(3000);
  await run.dispatch("AmazonSQS.SendMessage", JSON.stringify({ QueueUrl: url, MessageBody: "late" }));
  run.replayTo(1000);
  await run.dispatch("AmazonSQS.SendMessage", JSON.stringify({ QueueUrl: url, MessageBody: "early" }));
  assert.deepEqual(run.journal.map((a) => `${a.t} ${a.body.MessageBody}`), ["1000 early"]);
});

test("the same text and seed give the same events; another seed other events", () => {
  const events = (text) => {
    const run = started(text);
    run.advanceTo(run.duration);
    return JSON.stringify(run.pg.events(0));
  };
  assert.equal(events(FIFO), events(FIFO));
  const reseeded = JSON.stringify({ ...JSON.parse(FIFO), seed: 7 });
  assert.equal(new Run().seed, 0);
  assert.notEqual(events(reseeded), events(FIFO), "the seed drives the random processing times");
});

test("a request waiting when the run is replaced fails, saying why", async () => {
  const run = started(DUP);
  const url = run.pg.snapshot().queues[0].url;
  run.advanceTo(run.duration);
  run.replayTo(0);
  // Two long-polling workers take every message; a long poll of yours waits.
  const waiting = run.dispatch("AmazonSQS.ReceiveMessage", JSON.stringify({ QueueUrl: url, WaitTimeSeconds: 20 }));
  run.replayTo(0);
  await assert.rejects(waiting, /restarted/);
});

test("with sampling on, the chart's samples sit at fixed steps and a replay rebuilds them", () => {
  const run = started(DUP, { sample: true });
  run.advanceTo(run.duration);
  const { step, list } = run.samples;
  assert.equal(step, Math.round(10000 / 300));
  assert.ok(list.length > 250, `${list.length} samples`);
  assert.ok(list.every((m, i) => i === 0 || (m.t > list[i - 1].t && (m.t % step === 0 || m.t === run.duration))));
  const played = JSON.stringify(list);
  run.replayTo(run.duration);
  assert.equal(JSON.stringify(run.samples.list), played);
});

test("a run taken onward from a replayed moment to a later one is the run replayed there: engine, samples, checkpoints passed", () => {
  const haltsAt = (e) => e.type === "checkpointAsked"; // every question would stop a run that plays
  for (const text of [DUP, FIFO]) {
    const run = started(text, { sample: true, haltsAt });
    const onward = (t) => {
      run.beginOnward();
      run.advanceTo(t);
      run.endReplay();
    };
    run.replayTo(1234); // a moment between the chart's steps
    onward(4321);
    onward(run.duration);
    const there = new Run({ sample: true, haltsAt });
    there.start(text);
    there.replayTo(run.duration);
    assert.equal(moment(run), moment(there));
    assert.deepEqual(run.samples.list, there.samples.list, "no sample from where the replay stopped");
    assert.equal(run.ended, true);
  }
});

test("a run halts where a checkpoint is asked and where the run answers it, and a replay halts only where it lands", () => {
  const answers = new Map();
  const seen = new Set();
  const haltsAt = (e) => (e.type === "checkpointAsked" ? !answers.has(e.id) : Number.isInteger(answers.get(e.id)) && !seen.has(e.id));
  const run = started(DUP, { haltsAt });
  // Scenario 2 asks its first question at 0, when worker-1 receives the order.
  assert.equal(run.halted?.type, "checkpointAsked");
  assert.equal(run.halted.id, "worker-2-gets");
  assert.equal(run.advanceTo(10000), 0, "halted: the clock waits for the answer");
  answers.set("worker-2-gets", 1);
  run.resume();
  assert.equal(run.advanceTo(10000), 2000, "the run answers it at 2 s (worker-2's duplicate delivery)");
  assert.deepEqual([run.halted.type, run.halted.choice], ["checkpointAnswered", 0]);
  seen.add("worker-2-gets");
  run.resume();
  assert.equal(run.advanceTo(10000), 3500, "the next question: the card was charged once");
  assert.equal(run.halted.id, "charges");
  answers.set("charges", null); // skipped: no halt at its answer
  run.resume();
  assert.equal(run.advanceTo(10000), 10000);
  // The same run without halting is the same run.
  const straight = started(DUP);
  straight.advanceTo(10000);
  assert.deepEqual(run.pg.events(0), straight.pg.events(0));
  // A replay passes every checkpoint, and halts where it lands on one not answered.
  answers.clear();
  seen.clear();
  run.replayTo(3500);
  assert.equal(run.now, 3500);
  assert.equal(run.halted?.id, "charges", "landing on a question's moment");
  run.replayTo(3000);
  assert.equal(run.halted, null, "no question at 3 s");
});

test("the run's side-effect ledger, read in changes, equals the engine's whole ledger at every moment", () => {
  // Scenario 2 performs a side effect twice for one message (its count and
  // performers change in place); the crowd performs hundreds.
  const crowd = JSON.stringify({
    title: "crowd", seed: 1, durationMs: 20_000,
    queues: [{ name: "crowd", visibilityTimeoutSeconds: 1 }],
    producers: [{ name: "flood", queue: "crowd", rate: { everyMs: 5, count: 600, body: "m {n}" } }],
    consumers: ["w1", "w2", "w3"].map((name) => ({ name, queue: "crowd", processing: { uniformMs: { min: 40, max: 1500 } } })),
  });
  for (const text of [DUP, crowd]) {
    const run = started(text);
    let checked = 0;
    while (run.now < run.duration) {
      run.step();
      const kept = run.snap.simulation.sideEffects;
      assert.deepEqual(kept, run.pg.snapshot().simulation.sideEffects, `at t=${run.now}`);
      checked += kept.length > 0;
    }
    assert.ok(checked > 0, "side effects happened");
    // A replay starts a new ledger.
    run.replayTo(0);
    assert.deepEqual(run.snap.simulation.sideEffects, []);
  }
});

test("the side-effect list stays the same array while events happen but no side effect", () => {
  const run = started(DUP);
  let before = run.snap.simulation.sideEffects;
  let kept = 0;
  while (run.now < run.duration) {
    run.step();
    const { events } = run.take();
    const list = run.snap.simulation.sideEffects;
    if (events.length && !events.some((e) => e.type === "sideEffectPerformed")) {
      assert.equal(list, before, `at t=${run.now}`);
      kept++;
    }
    before = list;
  }
  assert.ok(kept >= 2, `steps with events but no side effect: ${kept}`);
});

test("the chart's samples kept across replays are the ones a fresh run takes, and an action of yours replaces them", async () => {
  const fresh = (journal) => {
    const run = started(DUP, { sample: true });
    run.journal = journal;
    run.replayTo(run.duration);
    return JSON.stringify(run.samples.list);
  };
  const run = started(DUP, { sample: true });
  run.advanceTo(run.duration);
  for (const t of [8000, 2000, 9000, 500]) run.replayTo(t);
  run.replayTo(run.duration);
  assert.equal(JSON.stringify(run.samples.list), fresh([]), "back and forth over the timeline");
  // Scrub back, act: every sample after the action must show it.
  run.replayTo(1000);
  const url = run.pg.snapshot().queues.find((q) => q.name === "orders").url;
  for (let i = 0; i < 5; i++) await run.dispatch("AmazonSQS.SendMessage", JSON.stringify({ QueueUrl: url, MessageBody: `mine ${i}` }), { caller: "you" });
  run.advanceTo(4000);
  run.replayTo(3000);
  run.replayTo(run.duration);
  const mine = JSON.stringify(run.samples.list);
  assert.equal(mine, fresh(run.journal), "after an action");
  assert.notEqual(mine, fresh([]), "the action shows in the chart");
});

test("a replay of moments already shown moves the engine in a few long steps, not one per chart sample, and gives the same samples", () => {
  const run = started(FIFO, { sample: true });
  run.advanceTo(run.duration);
  const played = JSON.stringify(run.samples.list);
  let advances = 0;
  const open = run.open.bind(run);
  run.open = (text) => {
    const pg = open(text);
    const advance = pg.advance.bind(pg);
    pg.advance = (ms) => (advances++, advance(ms));
    return pg;
  };
  run.replayTo(run.duration);
  assert.ok(advances <= 2, `${advances} calls to advance for a replay of ${run.samples.list.length} known samples`);
  assert.equal(JSON.stringify(run.samples.list), played);
  // A moment never shown: its samples are taken, one stop per sampling moment past the known ones.
  const fresh = started(FIFO, { sample: true });
  fresh.advanceTo(3000);
  fresh.open = run.open;
  advances = 0;
  fresh.replayTo(6000);
  const step = fresh.samples.step;
  assert.ok(advances >= Math.floor((6000 - 3000) / step), `${advances} calls to advance for unknown samples`);
  const list = fresh.samples.list;
  assert.ok(JSON.stringify(list.slice(0, -1)) === JSON.stringify(run.samples.list.filter((m) => m.t < 6000)), "the steps' samples");
  assert.equal(list.at(-1).t, 6000, "and the moment the replay stopped at");
});

/** `n` recorded SendMessage actions of yours to `url` at moment `t` (a link's journal). */
const sends = (n, url, t = 0) => Array.from({ length: n }, (_, i) => ({ t, op: "SendMessage", body: { QueueUrl: url, MessageBody: `m${i}` }, caller: "you" }));

test("a replay of 40,000 actions due at one moment makes them in many chunks of at most ACTIONS_PER_CHUNK, and ends where making them in one go ends", () => {
  const direct = started(DUP);
  const url = direct.pg.snapshot().queues[0].url;
  const journal = sends(40_000, url, 0);
  for (const a of journal) direct.pg.dispatch(`AmazonSQS.${a.op}`, JSON.stringify(a.body), { caller: a.caller });
  direct.advanceTo(1);

  const run = started(DUP);
  run.journal = journal;
  run.beginReplay();
  const made = [];
  for (let calls = 0; (run.now < 1 || run.pending > 0) && calls < 100_000; calls++) {
    const before = run.made;
    run.advanceChunk(1);
    made.push(run.made - before);
  }
  run.endReplay();
  assert.ok(Math.max(...made) <= ACTIONS_PER_CHUNK, `no chunk makes more than ${ACTIONS_PER_CHUNK} actions (the most: ${Math.max(...made)})`);
  assert.ok(made.length >= 40_000 / ACTIONS_PER_CHUNK, `it took ${made.length} chunks`);
  assert.equal(run.made, 40_000, "every action was made");
  assert.equal(moment(run), moment(direct), "and the run is where making them in one go gets");

  const again = started(DUP);
  again.journal = journal;
  again.replayTo(1);
  assert.equal(moment(again), moment(direct), "replayTo (advanceTo's loop of chunks) gets there too");
});

test("the work estimate counts the journal's actions not yet made, ACTION_WORK units each", () => {
  const run = started(DUP);
  const url = run.pg.snapshot().queues[0].url;
  const engine = run.pg.workEstimate(5000);
  assert.equal(run.workEstimate(5000), engine, "no actions: the engine's estimate");
  run.journal = [...sends(30, url, 0), ...sends(10, url, 4000), ...sends(7, url, 9000)];
  run.beginReplay();
  assert.equal(run.workEstimate(5000), run.pg.workEstimate(5000) + 40 * ACTION_WORK, "the 40 actions due by 5 s count; the 7 later ones do not");
  run.advanceTo(4000);
  assert.equal(run.made, 40);
  assert.equal(run.workEstimate(9000), run.pg.workEstimate(9000) + 7 * ACTION_WORK, "actions already made no longer count");
  assert.equal(runModule.journalWork(run.journal, 9000), 47 * ACTION_WORK, "a link's journal from the start: every action up to the moment");
  assert.equal(runModule.journalWork(run.journal, 3999), 30 * ACTION_WORK);
});

test("an action sent while a replay left actions of this moment unmade comes after them, as in the run recorded", async () => {
  const direct = started(DUP);
  const url = direct.pg.snapshot().queues[0].url;
  const journal = sends(ACTIONS_PER_CHUNK + 5, url, 0);
  const run = started(DUP);
  run.journal = journal;
  run.beginReplay();
  run.advanceChunk(0); // one chunk: the replay is cancelled here, 5 actions short
  run.endReplay();
  assert.equal(run.pending, 5);
  await run.dispatch("AmazonSQS.SendMessage", JSON.stringify({ QueueUrl: url, MessageBody: "mine" }), { caller: "you" });
  assert.equal(run.pending, 0);
  assert.deepEqual(run.journal.map((a) => a.body.MessageBody).slice(-2), [`m${ACTIONS_PER_CHUNK + 4}`, "mine"]);
  const yours = run.pg.events(0).filter((e) => e.type === "sent" && e.by === "you").length;
  assert.equal(yours, ACTIONS_PER_CHUNK + 6, "every recorded action was made, and yours");
});
