// web/run/slicer.js: long simulation work in slices that fit a frame. The wall
// clock is faked (it moves only when work is done), so every assertion is
// about work and state, never about how long something took.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import "./load.mjs"; // initialises the wasm module that web/engine/engine.js re-exports
import { SLICE_MS, Slicer, Stalled, runSliced } from "../../web/run/slicer.js";
import { Run } from "../../web/run/run.js";
import { ACTIONS_PER_CHUNK } from "../../web/run/page-limits.js";

/**
 * A fake piece of work along virtual time: moving from t to t+1 costs
 * `costAt(t)` fake wall ms, and the fake clock moves by what was spent.
 */
function fakeWork(costAt, { ceiling = Infinity } = {}) {
  const w = { now: 0, wall: 0 };
  w.clock = () => w.wall;
  w.advance = (to) => {
    const end = Math.min(to, ceiling);
    // Cost of [now, end): summed per stretch of equal cost, not per ms.
    w.wall += spanCost(costAt, w.now, end);
    w.now = Math.max(w.now, end);
    return w.now;
  };
  w.estimate = (to) => spanCost(costAt, w.now, to) * 1000; // "steps": 1 per µs of cost
  return w;
}
const spanCost = (costAt, from, to) => (to <= from ? 0 : costAt.cost(from, to));
/** Cost per virtual ms: `cheap` before `at`, `dear` from it on. */
const stretch = (at, cheap, dear) => ({
  cost: (from, to) => Math.max(0, Math.min(to, at) - from) * cheap + Math.max(0, to - Math.max(from, at)) * dear,
});

/** Runs slices by hand until the target; returns the wall cost of each. */
function slices(slicer, w, target, budget = SLICE_MS) {
  const costs = [];
  let reached = w.now;
  while (reached < target && costs.length < 100_000) {
    const before = w.wall;
    reached = slicer.slice(reached, target, budget);
    costs.push(w.wall - before);
  }
  return { reached, costs };
}

test("a slice stops before its budget and the next slice carries on where it stopped", () => {
  const w = fakeWork(stretch(Infinity, 0.02, 0));
  const slicer = new Slicer({ advance: w.advance, clock: w.clock });
  const { reached, costs } = slices(slicer, w, 1_000_000);
  assert.equal(reached, 1_000_000, "it gets there");
  assert.ok(costs.length > 100, `in many slices (${costs.length})`);
  assert.ok(Math.max(...costs) <= SLICE_MS, `no slice passes ${SLICE_MS} ms (worst ${Math.max(...costs)})`);
  assert.ok(costs.slice(5, -1).every((c) => c > SLICE_MS / 2), "and each does a fair share of work once it has learnt the cost");
});

test("the engine's estimate keeps a chunk from straying into a much busier stretch", () => {
  // An idle day, then a consumer polling every millisecond.
  const busy = () => stretch(86_400_000, 0, 0.02);
  const target = 86_400_000 + 200_000;
  const guessed = fakeWork(busy());
  const withEstimate = slices(new Slicer({ advance: guessed.advance, estimate: guessed.estimate, clock: guessed.clock }), guessed, target);
  assert.equal(withEstimate.reached, target);
  assert.ok(Math.max(...withEstimate.costs) <= SLICE_MS, `with the estimate no slice passes the budget (worst ${Math.max(...withEstimate.costs)})`);
  // Without it, chunks grown over the idle day land deep in the busy part.
  const blind = fakeWork(busy());
  const without = slices(new Slicer({ advance: blind.advance, clock: blind.clock }), blind, target);
  assert.ok(Math.max(...without.costs) > SLICE_MS, "without it one slice overruns: the estimate is what prevents that");
});

test("a replay whose engine clock stops short of its target (t = 2^53) fails as stalled instead of spinning for good", async () => {
  // An engine whose clock saturates below the target never gets there.
  const w = fakeWork(stretch(Infinity, 0.001, 0), { ceiling: Number.MAX_SAFE_INTEGER });
  w.now = Number.MAX_SAFE_INTEGER - 5000;
  const slicer = new Slicer({ advance: w.advance, clock: w.clock });
  assert.throws(() => slices(slicer, w, 2 ** 53), Stalled, "a chunk that does not move time throws");
  let ended = 0;
  const job = runSliced(new Slicer({ advance: w.advance, clock: w.clock }), { from: w.now, target: 2 ** 53, pause: () => Promise.resolve(), onEnd: () => ended++ });
  await job.done;
  assert.equal(job.state, "failed");
  assert.ok(job.error instanceof Stalled);
  assert.equal(job.reached, Number.MAX_SAFE_INTEGER, "it stops where the clock stopped, and says so");
  assert.match(job.error.message, /did not move past 9007199254740991 ms/);
  assert.equal(ended, 1);
});

test("a job runs its first slice at once, follows a raised target, and Cancel stops it at the moment reached", async () => {
  const w = fakeWork(stretch(Infinity, 0.01, 0));
  let release;
  const pause = () => new Promise((r) => (release = r));
  const seen = [];
  const job = runSliced(new Slicer({ advance: w.advance, clock: w.clock }), {
    from: 0,
    target: 10_000_000,
    pause,
    onSlice: (j) => seen.push(j.reached),
    onEnd: (j) => seen.push(j.state),
  });
  assert.equal(seen.length, 1, "the first slice ran before runSliced returned");
  assert.ok(job.reached > 0 && job.reached < job.target);
  job.target = 20_000_000;
  release();
  await new Promise((r) => setImmediate(r));
  assert.equal(seen.length, 2, "one more slice per pause");
  const at = job.reached;
  job.cancel();
  assert.deepEqual(seen.slice(2), ["cancelled"], "onEnd runs inside cancel()");
  release();
  await job.done;
  assert.equal(job.state, "cancelled");
  assert.equal(job.reached, at, "nothing ran after Cancel");
  assert.equal(w.now, at, "and the work is where the job says");

  const short = runSliced(new Slicer({ advance: w.advance, clock: w.clock }), { from: w.now, target: w.now + 10, pause });
  assert.equal(short.state, "done", "a short job is done before runSliced returns");
});

// The 35 days is now refused by the engine as a whole (limits():
// maxScenarioWork); 5 hours is about the most it accepts (about 4.5 units
// of work a poll), and still tens of millions of polls.
const POLL_EVERY_MS = JSON.stringify({
  title: "An empty queue polled every millisecond",
  durationMs: 5 * 3_600_000,
  queues: [{ name: "q" }],
  consumers: [{ name: "c", queue: "q", pollIntervalMs: 1, processing: { fixedMs: 1 } }],
});

// One consumer polling an empty queue every 1 ms for 35 days: 146 bytes of
// scenario, and one chart step of it took 4.7 s before slices.
test("a replay to the end of a 35-day run of 1 ms polls (t=3000000000 clamped there) goes in slices of bounded work", async () => {
  const run = new Run({ sample: true });
  run.start(POLL_EVERY_MS);
  assert.ok(run.samples.step >= 60_000, "one chart step is a minute of virtual time (tens of thousands of polls)");
  // The fake wall clock is the engine's work: each event read costs 20 µs, as measured on this machine.
  const clock = () => run.seq * 0.02;
  const slicer = new Slicer({ advance: (to) => run.advanceChunk(to), estimate: (to) => run.pg.workEstimate(to), clock });
  let release;
  const work = [];
  let last = clock();
  run.beginReplay();
  const job = runSliced(slicer, {
    from: 0,
    target: run.clamp(3_000_000_000),
    pause: () => new Promise((r) => (release = r)),
    onSlice: () => {
      work.push(clock() - last);
      last = clock();
      run.take(); // what the page's draw does each frame
    },
  });
  for (let i = 0; i < 8; i++) {
    release();
    await new Promise((r) => setImmediate(r));
  }
  job.cancel();
  run.endReplay();
  assert.equal(work.length, 9);
  assert.ok(Math.max(...work) <= SLICE_MS, `every slice stays within ${SLICE_MS} ms of work (worst ${Math.max(...work)})`);
  assert.equal(job.target, run.duration, "t=3000000000 is clamped to the run's end");
  assert.ok(job.reached > 0 && job.reached < run.duration, `it stopped part way, at ${job.reached} ms`);
  assert.equal(run.now, job.reached, "the run is where the job stopped: the clock tells the truth");
});

test("a replay in slices of any size makes your actions at their moments, like a replay in one go", async () => {
  const dup = readFileSync(new URL("../../web/scenarios/02-slow-consumer-duplicate.json", import.meta.url), "utf8");
  const run = new Run({ sample: true });
  run.start(dup);
  run.advanceTo(1000);
  const url = run.pg.snapshot().queues[0].url;
  for (const t of [1000, 1000, 2500, 4100]) {
    if (run.now < t) run.advanceTo(t);
    await run.dispatch("AmazonSQS.SendMessage", JSON.stringify({ QueueUrl: url, MessageBody: `mine at ${t}` }));
  }
  run.replayTo(7000);
  const oneGo = JSON.stringify({ events: run.pg.events(0), snap: run.pg.snapshot(), samples: run.samples.list });

  // A clock that makes chunks of uneven, seeded sizes.
  let wall = 0;
  let x = 7;
  const slicer = new Slicer({ advance: (to) => run.advanceChunk(to), clock: () => (wall += ((x = (x * 48271) % 2147483647) % 7) * 0.3) });
  run.beginReplay();
  const job = runSliced(slicer, { from: 0, target: 7000, budgetMs: 3, pause: () => Promise.resolve() });
  await job.done;
  run.endReplay();
  assert.equal(job.state, "done");
  assert.equal(JSON.stringify({ events: run.pg.events(0), snap: run.pg.snapshot(), samples: run.samples.list }), oneGo);
  assert.equal(run.pg.events(0).filter((e) => e.type === "sent" && e.by === "you").length, 4, "each action made once");
});

test("a replay whose actions all fall at one moment goes on in slices until every one is made, then ends as a replay in one go does", async () => {
  const dup = readFileSync(new URL("../../web/scenarios/02-slow-consumer-duplicate.json", import.meta.url), "utf8");
  const run = new Run({ sample: true });
  run.start(dup);
  const url = run.pg.snapshot().queues[0].url;
  const n = 20 * ACTIONS_PER_CHUNK; // 20 chunks' worth
  run.journal = Array.from({ length: n }, (_, i) => ({ t: 0, op: "SendMessage", body: { QueueUrl: url, MessageBody: `m${i}` }, caller: "you" }));
  run.replayTo(0);
  const oneGo = JSON.stringify({ events: run.pg.events(0), snap: run.pg.snapshot(), samples: run.samples.list });

  // A fake clock: every chunk costs 10 ms, so a slice holds about SLICE_MS / 10 chunks.
  let wall = 0;
  const slicer = new Slicer({ advance: (to) => ((wall += 10), run.advanceChunk(to)), clock: () => wall, estimate: (to) => run.workEstimate(to), pending: () => run.pending });
  run.beginReplay();
  let pauses = 0;
  const job = runSliced(slicer, { from: 0, target: 0, pause: () => (pauses++, Promise.resolve()) });
  await job.done;
  run.endReplay();
  assert.equal(job.state, "done");
  assert.ok(pauses >= 3, `the browser got its turn between slices (${pauses} times)`);
  assert.equal(run.made, n, "every action was made");
  assert.equal(JSON.stringify({ events: run.pg.events(0), snap: run.pg.snapshot(), samples: run.samples.list }), oneGo);
});

test("work left at one moment that does not lessen is a stall, not progress", () => {
  const slicer = new Slicer({ advance: () => 0, clock: () => 0, pending: () => 3 });
  assert.throws(() => slicer.slice(0, 0), Stalled);
  let left = 3;
  const lessening = new Slicer({ advance: () => (left--, 0), clock: () => 0, pending: () => left });
  assert.equal(lessening.slice(0, 0), 0);
  assert.equal(left, 0, "work that lessens goes on until none is left");
});
