// Quiet time (web/run/quiet.js, drawn by web/views/panels/quiet-time.js): the playing clock skips a stretch only
// when the simulation's own next event is more than QUIET_MS away, lands
// just before it, and adds up the skips of one quiet stretch for its note.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Playground } from "./load.mjs";
import { Run } from "../../web/run/run.js";
import { QUIET_LEAD_MS, QUIET_MS, addSkip, quietJump } from "../../web/run/quiet.js";
import { narrationMoments } from "../../web/run/moments.js";
import { quietWords } from "../../web/views/panels/quiet-time.js";

const text = (stem) => readFileSync(new URL(`../../web/scenarios/${stem}.json`, import.meta.url), "utf8");

test("a stretch of quiet longer than 2 s is skipped to just before the next event", () => {
  assert.equal(quietJump({ now: 3000, nextEvent: 20500, nextAction: null, duration: 320000 }), 20500 - QUIET_LEAD_MS);
  assert.equal(quietJump({ now: 3000, nextEvent: 3000 + QUIET_MS, nextAction: null, duration: 320000 }), null, "2 s exactly is not skipped");
  assert.equal(quietJump({ now: 3000, nextEvent: 20500, nextAction: 9000, duration: 320000 }), 9000 - QUIET_LEAD_MS, "your next action is an event too");
  assert.equal(quietJump({ now: 3000, nextEvent: null, nextAction: null, duration: 10000 }), 10000, "nothing due: to the end");
});

test("scenario 7's five quiet minutes are skipped from the engine's next event time, never past an event", () => {
  const run = new Run();
  run.start(text("07-fifo-deduplication"));
  run.advanceTo(3000);
  let note = null;
  const seen = new Set(run.pg.events(0).map((e) => e.seq));
  for (let guard = 0; guard < 5000 && run.now < 301000; guard++) {
    const to = quietJump({ now: run.now, nextEvent: run.pg.nextEventTime(), nextAction: null, duration: run.duration });
    if (to == null) {
      run.advanceTo(run.now + 100);
      continue;
    }
    const from = run.now;
    run.advanceTo(to);
    const during = run.pg.events(0).filter((e) => !seen.has(e.seq) && e.timeMs > from);
    assert.deepEqual(during, [], `nothing happened between ${from} and ${to} ms`);
    note = addSkip(note, from, run.now);
    for (const e of run.pg.events(0)) seen.add(e.seq);
  }
  assert.ok(run.now >= 301000, "the run reached the retry after five minutes");
  assert.equal(note.from, 3000, "the stretch began after the 3 s retry");
  assert.ok(note.skipped > 4 * 60000 && note.skipped < 298000, `most of the 5 minutes was skipped (${note.skipped} ms)`);
  assert.match(quietWords(note.skipped), /^4 min \d+ s$/);
});

test("skips close together are one quiet stretch; a later one starts a new note", () => {
  const a = addSkip(null, 3000, 20000);
  const b = addSkip(a, 21500, 40000);
  assert.deepEqual(b, { from: 3000, to: 40000, skipped: 17000 + 18500 });
  assert.deepEqual(addSkip(b, 60000, 70000), { from: 60000, to: 70000, skipped: 10000 });
  assert.equal(quietWords(280000), "4 min 40 s");
  assert.equal(quietWords(17500), "17.5 s");
});

test("the timeline's markers are the narration's moments and the checkpoints'", () => {
  const s = JSON.parse(text("07-fifo-deduplication"));
  const moments = narrationMoments(s);
  assert.deepEqual(moments.filter((m) => !m.checkpoint).map((m) => m.t), [0, 2000, 3000, 301000]);
  assert.deepEqual(moments.filter((m) => m.checkpoint).map((m) => m.t), [2500, 300500]);
  assert.match(moments.find((m) => m.checkpoint).text, /^Checkpoint: At 3 s the payment service resends/);
});

test("the moments known before a run are its time-only lines and checkpoints, words filled in", () => {
  const pg = Playground.fromScenario(text("07-fifo-deduplication"), undefined);
  try {
    assert.deepEqual(pg.plannedMoments().map((m) => [m.t, m.checkpoint]), [[0, false], [2500, true], [300500, true]]);
  } finally {
    pg.free();
  }
  const s = JSON.parse(text("02-slow-consumer-duplicate"));
  s.narration.push({ atMs: 1000, text: "The timeout is {orders.visibilityTimeout}." });
  const two = Playground.fromScenario(JSON.stringify(s), undefined);
  try {
    assert.deepEqual(two.plannedMoments(), [{ t: 1000, text: "The timeout is 2 s.", checkpoint: false }]);
  } finally {
    two.free();
  }
});
