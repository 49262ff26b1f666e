// A live run (web/run/run.js's startLive, follow, reach): another host's
// run made again from its journal, as the page's live view of a
// `queuelab serve` does. The host here is a Playground in Node whose
// journal the run follows; the run on screen must be that run, exactly.
import { test } from "node:test";
import assert from "node:assert/strict";
import "./load.mjs";
import { Playground, limits } from "../../web/engine/engine.js";
import { Run, liveSpan } from "../../web/run/run.js";
import { derive } from "../../web/run/derive.js";

const OPTIONS = { region: "us-east-1", accountId: "000000000000", startEpochMs: 1796301424367 };
const target = (op) => `AmazonSQS.${op}`;

/** The consumer demo's calls on a host: worker-1 and worker-2 long-poll `orders` (visibility 2 s) for one order. */
async function demoHost() {
  const host = new Playground(OPTIONS);
  const call = (op, body, caller) => host.dispatch(target(op), JSON.stringify(body), { caller });
  const url = JSON.parse((await call("CreateQueue", { QueueName: "orders", Attributes: { VisibilityTimeout: "2" } }, "shop")).body).QueueUrl;
  host.advance(300);
  const first = call("ReceiveMessage", { QueueUrl: url, WaitTimeSeconds: 20 }, "worker-1");
  const second = call("ReceiveMessage", { QueueUrl: url, WaitTimeSeconds: 20 }, "worker-2");
  host.advance(200);
  await call("SendMessage", { QueueUrl: url, MessageBody: "order A-1001" }, "shop");
  await first;
  host.advance(2500); // worker-1's visibility timeout runs out at 2.5 s: worker-2's poll gets the message too
  await second;
  return host;
}

/** A live run following `host`'s journal up to its now, in pages of `page` calls. */
function follow(host, page = 2) {
  const head = host.journal(0);
  const run = new Run({ sample: true });
  run.startLive({ text: head.scenario, options: head.options, seed: head.seed, title: "The SQS endpoint at test" });
  for (let from = 0; from < head.recorded; from += page) {
    const j = host.journal(from);
    assert.ok(run.follow(j.calls.slice(0, page), from));
  }
  run.reach(host.now());
  run.replayTo(host.now());
  return run;
}

test("a live run made from a host's journal is the host's run: the same snapshot at the host's moment", async () => {
  const host = await demoHost();
  const run = follow(host);
  assert.equal(run.now, host.now());
  assert.deepEqual(run.pg.snapshot({}), host.snapshot({}));
  assert.equal(run.duration, host.now(), "a live run is as long as its host got");
});

test("a live run takes calls only where its journal ends, and never ends by itself", async () => {
  const host = await demoHost();
  const run = follow(host);
  const n = run.journal.length;
  assert.equal(run.follow(host.journal(0).calls, 0), false, "calls read twice are refused");
  assert.equal(run.follow([], n + 1), false, "a gap is refused");
  assert.equal(run.journal.length, n);
  assert.equal(run.markEnded(), false, "at its host's moment, it waits for more");
  run.reach(host.now() - 1000);
  assert.equal(run.duration, host.now(), "its length never shrinks");
});

test("a live run's chart keeps about 300 samples however far its host goes", () => {
  const run = new Run({ sample: true });
  run.startLive({ text: null, options: OPTIONS, seed: 0, title: "t" });
  assert.equal(run.samples.duration, 60000);
  run.reach(200000);
  run.replayTo(200000);
  assert.equal(run.samples.duration, liveSpan(200000));
  assert.equal(run.samples.duration, 240000);
  assert.ok(run.samples.list.length <= 301, `${run.samples.list.length} samples`);
  assert.ok(run.samples.list.every((m) => m.t % run.samples.step === 0 || m.t === run.now));
});

test("a hand whose visibility timeout ran out still holds the message another hand received: a duplicate delivery", async () => {
  const run = follow(await demoHost());
  const d = derive({ snap: run.snap, now: run.now, events: [], facts: run.facts, leftNow: [], scenario: run.scenario });
  const held = (name) => d.handHolders.get(name)?.holding.map((x) => `${x.body}|${x.receiveCount}`);
  assert.deepEqual(held("worker-1"), ["order A-1001|null"], "received earlier: no count of its own");
  assert.deepEqual(held("worker-2"), ["order A-1001|2"]);
  assert.deepEqual(d.duplicates.map(([, names]) => names), [["worker-1", "worker-2"]]);
});

test("a call the host recorded without its body (past the request limit) is made again: the same run", async () => {
  const host = await demoHost();
  const huge = await host.dispatch("AmazonSQS.SendMessage", "x".repeat(limits().maxRequestBytes + 1), { caller: "worker-1" });
  assert.equal(huge.status, 413);
  assert.equal(host.journal(0).calls.at(-1).body, null);
  host.advance(100);
  const run = follow(host);
  assert.deepEqual(run.pg.snapshot({}), host.snapshot({}));
  assert.deepEqual(run.pg.events(0), host.events(0));
});
