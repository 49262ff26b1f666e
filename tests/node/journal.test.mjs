// The playground's journal (Playground.journal(), the host's record of
// every external call) through the binding, and web/run/run.js taking its
// recorded actions from it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import "./load.mjs"; // initialises the wasm module that web/engine/engine.js re-exports
import { Playground, limits } from "../../web/pkg/queuelab.js";
import { Run } from "../../web/run/run.js";

const DUP = readFileSync(new URL("../../web/scenarios/02-slow-consumer-duplicate.json", import.meta.url), "utf8");

const urlOf = (pg) => pg.snapshot({ messagesPerQueue: 0 }).queues[0].url;
const moment = (pg) => JSON.stringify({ now: pg.now(), snap: pg.snapshot(), events: pg.events(0) });

test("the journal records the scenario's text, the seed in force and every call, failed ones too", () => {
  const pg = Playground.fromScenario(DUP, { seed: 9 });
  const url = urlOf(pg);
  pg.advance(700);
  pg.dispatchSync("AmazonSQS.SendMessage", JSON.stringify({ QueueUrl: url, MessageBody: "mine" }), { caller: "you" });
  pg.dispatchSync("AmazonSQS.SendMessage", "{not json");
  const j = pg.journal();
  assert.equal(j.scenario, DUP);
  assert.equal(j.seed, 9);
  assert.deepEqual(j.calls, [
    { t: 700, op: "SendMessage", body: { MessageBody: "mine", QueueUrl: url }, caller: "you" },
    { t: 700, op: "SendMessage", body: "{not json", caller: null },
  ]);
  assert.deepEqual([j.from, j.recorded, j.unrecorded, j.unrecordedFrom], [0, 2, 0, null]);
  assert.deepEqual(pg.journal(1).calls, j.calls.slice(1), "from a call on: only the later ones");
  assert.ok(limits().maxJournalCalls >= 20_000 && limits().maxJournalBytes > 0, "its budget, in limits()");
  pg.free();
});

test("a run replayed from its journal alone reaches the same state", async () => {
  const live = Playground.fromScenario(DUP, undefined);
  const url = urlOf(live);
  live.advance(700);
  await live.dispatch("AmazonSQS.SendMessage", JSON.stringify({ QueueUrl: url, MessageBody: "one" }), { caller: "you" });
  live.dispatchSync("AmazonSQS.DeleteMessage", JSON.stringify({ QueueUrl: url, ReceiptHandle: "nope" }), { caller: "you" });
  live.advance(1300);
  live.dispatchSync("AmazonSQS.ReceiveMessage", JSON.stringify({ QueueUrl: url, WaitTimeSeconds: 5 }), { caller: "you" });
  live.advance(3000);

  const j = live.journal();
  const again = Playground.fromScenario(j.scenario, { seed: j.seed });
  for (const call of j.calls) {
    if (call.t > again.now()) again.advance(call.t - again.now());
    again.dispatchSync(`AmazonSQS.${call.op}`, typeof call.body === "string" ? call.body : JSON.stringify(call.body), { caller: call.caller ?? undefined });
  }
  again.advance(live.now() - again.now());
  assert.equal(moment(again), moment(live));
  assert.deepEqual(again.journal().calls, j.calls, "the replay's journal has the same calls");
  live.free();
  again.free();
});

test("the run's recorded actions are the engine's journal entries of the calls that succeeded", async () => {
  const run = new Run();
  run.start(DUP);
  run.advanceTo(1000);
  const url = urlOf(run.pg);
  await run.dispatch("AmazonSQS.SendMessage", "{not json");
  await run.dispatch("AmazonSQS.SendMessage", JSON.stringify({ QueueUrl: url, MessageBody: "mine" }), { caller: "me" });
  const calls = run.pg.journal().calls;
  assert.equal(calls.length, 2, "the engine records both");
  assert.deepEqual(run.journal, [calls[1]], "the run keeps the one that succeeded, as the engine recorded it");
});
