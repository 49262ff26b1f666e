// web/engine/engine.js's containment in Node: a genuine wasm trap marks the
// instance dead, hosts hear of it, a fresh instance is made from the same
// compiled module, and a run (web/run/run.js) rebuilt on it by replay is where
// it was. The trap is forced by pointing one Playground's `__wbg_ptr` (the
// address of its Rust state) past the end of wasm memory, so the next call
// reads out of bounds: a real `WebAssembly.RuntimeError`, nothing mocked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import "./load.mjs"; // initialises the first instance, as for every Node test
import { EngineRestarting, EngineTrap, Playground, generation, lastKnownTime, ready, settled, watch } from "../../web/engine/engine.js";
import { Run } from "../../web/run/run.js";

const wasm = new WebAssembly.Module(readFileSync(new URL("../../web/pkg/queuelab_bg.wasm", import.meta.url)));
const DUP = readFileSync(new URL("../../web/scenarios/02-slow-consumer-duplicate.json", import.meta.url), "utf8");
const BAD_POINTER = 0xffff_fff0;

/** Breaks `pg` for real: its next call reads out of bounds and traps. */
const corrupt = (pg) => (pg.__wbg_ptr = BAD_POINTER);

const moment = (run) => JSON.stringify({ now: run.now, snap: run.pg.snapshot(), events: run.pg.events(0) });

test("a trap marks the instance dead, tells the hosts, and a fresh instance replaces it; runs rebuilt by replay are where they were", async () => {
  await ready({ module: wasm });
  const heard = [];
  const unwatch = watch({ trapped: (t) => heard.push(["trapped", t.during, t.playground]), restarted: () => heard.push(["restarted", generation()]) });
  const first = generation();

  const bystander = new Run();
  bystander.start(DUP);
  bystander.record(1500, "SendMessage", { QueueUrl: bystander.pg.snapshot().queues[0].url, MessageBody: "mine" }, "you");
  bystander.replayTo(4321);
  const before = moment(bystander);
  const victim = new Playground();
  victim.advance(10);

  corrupt(victim);
  assert.throws(() => victim.now(), (e) => e instanceof EngineTrap && e.during === "now" && e.cause instanceof WebAssembly.RuntimeError && /memory access out of bounds/.test(e.message));
  assert.deepEqual(heard, [["trapped", "now", victim]], "hosts hear at once, with the Playground whose call trapped");
  assert.throws(() => bystander.pg.now(), EngineRestarting, "the dead instance is never called again");
  assert.throws(() => new Playground(), EngineRestarting, "nor used for new Playgrounds before the fresh one is ready");

  await settled();
  assert.deepEqual(heard[1], ["restarted", first + 1]);
  assert.equal(lastKnownTime(bystander.pg), 4321, "the moment to rebuild is known without asking the dead engine");
  bystander.replayTo(lastKnownTime(bystander.pg));
  assert.equal(moment(bystander), before, "the rebuilt run is the same run at the same moment");
  bystander.advanceTo(6000);
  assert.equal(bystander.now, 6000, "and it keeps going");
  victim.free(); // freeing a dead instance's Playground does nothing (its memory went with it)
  unwatch();
});

test("a trap in the fresh instance is contained again, and an error that is not a trap leaves the instance alive", async () => {
  await ready({ module: wasm });
  const start = generation();
  const fresh = new Playground();
  corrupt(fresh);
  assert.throws(() => fresh.snapshot(), EngineTrap);
  await settled();
  assert.ok(generation() > start, "a new instance after the trap");
  const after = new Playground({ seed: 3 });
  assert.equal(after.advance(25), 25);
  const res = await after.dispatch("AmazonSQS.ListQueues", "{}", undefined);
  assert.equal(res.status, 200);
  // A misuse that does not trap is the binding's Error, and the instance stays alive.
  const alive = generation();
  assert.throws(() => after.advance(-1));
  assert.equal(generation(), alive);
});

test("a check running when its instance dies answers EngineRestarting, frees nothing there, and the fresh instance checks again", async () => {
  const { labs } = await import("../../web/engine/engine.js");
  await ready({ module: wasm });
  const lab = readFileSync(new URL("../../web/scenarios/labs/01-duplicate-orders.json", import.meta.url), "utf8");
  const check = labs.startCheck(lab, { visibility: 10 });
  assert.equal(check.step(10), false);
  assert.equal(check.progress.seeds, 12);
  const victim = new Playground();
  corrupt(victim);
  assert.throws(() => victim.now(), EngineTrap);
  assert.throws(() => check.step(10), EngineRestarting, "the dead instance is never called again, not by a check");
  assert.throws(() => check.progress, EngineRestarting);
  check.free(); // its memory went with the instance: nothing to free, nothing thrown
  assert.throws(() => labs.startCheck(lab), EngineRestarting, "nor a new check made there before the fresh instance is ready");
  await settled();
  const again = labs.startCheck(lab, { visibility: 10 });
  while (!again.step(1000));
  assert.deepEqual(again.report(), labs.check(lab, { visibility: 10 }));
  again.free();
});
