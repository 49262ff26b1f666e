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
import { quietNote, quietWords } from "../../web/views/panels/quiet-time.js";

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
    if (note.count === 1) assert.equal(note.last.from, 3000, "the first stretch began after the 3 s retry");
    for (const e of run.pg.events(0)) seen.add(e.seq);
  }
  assert.ok(run.now >= 301000, "the run reached the retry after five minutes");
  assert.ok(note.total > 4 * 60000 && note.total < 298000, `most of the 5 minutes was skipped (${note.total} ms)`);
  assert.match(quietWords(note.total), /^4 min \d+ s$/);
});

test("each skipped stretch is its own: skips with played time between them are never one stretch", () => {
  const a = addSkip(null, 3000, 20000);
  assert.deepEqual(a, { last: { from: 3000, to: 20000 }, count: 1, total: 17000 });
  // 1.5 s played between two skips (scenario 7's long poll ends in it): two stretches, never "3 s to 40 s".
  const b = addSkip(a, 21500, 40000);
  assert.deepEqual(b, { last: { from: 21500, to: 40000 }, count: 2, total: 17000 + 18500 });
  // A skip that starts where the last one ended (no time played between) continues it.
  assert.deepEqual(addSkip(b, 40000, 45000), { last: { from: 21500, to: 45000 }, count: 2, total: 17000 + 23500 });
  assert.equal(quietWords(280000), "4 min 40 s");
  assert.equal(quietWords(17500), "17.5 s");
});

test("the quiet note says one stretch's span, or the total and the latest stretch's span, to a tenth of a second inside it", () => {
  const one = addSkip(null, 3005, 20000);
  assert.equal(quietNote(one), "⏩ Skipped 17 s of waiting: no event between t = 3.1 s and 20.0 s.");
  const two = addSkip(one, 21503, 40050);
  assert.equal(quietNote(two), "⏩ Skipped 35.5 s of waiting in total, in 2 stretches with no event; the latest between t = 21.6 s and 40.0 s.");
});

/**
 * Plays `text` as the lab's clock does (clock.js: frames of 16 ms at `speed`,
 * a skip tried at each frame) to its end; returns each quiet note shown, with
 * the moment it was drawn, and the run's events.
 */
function playNoting(text, speed) {
  const run = new Run();
  run.start(text);
  const notes = [];
  let vt = 0;
  let note = null;
  for (let guard = 0; guard < 100000 && run.now < run.duration; guard++) {
    if (vt <= run.now + 1) {
      const to = quietJump({ now: run.now, nextEvent: run.pg.nextEventTime(), nextAction: null, duration: run.duration });
      if (to != null) {
        const from = run.now;
        run.advanceTo(to);
        vt = run.now;
        note = addSkip(note, from, run.now);
        notes.push({ text: quietNote(note), at: run.now });
      }
    }
    vt = Math.min(run.duration, vt + 16 * speed);
    run.advanceTo(Math.floor(vt));
  }
  return { notes, events: run.pg.events(0) };
}

/** The span a quiet note says had no event, in ms: "between t = A s and B s". */
const claimedSpan = (text) => {
  const m = /between t = ([\d.]+) s and ([\d.]+) s/.exec(text);
  assert.ok(m, `a note that names its span: ${text}`);
  return [Math.round(Number(m[1]) * 1000), Math.round(Number(m[2]) * 1000)];
};

test("every quiet note of scenarios 7 (1×), 10 (4×) and 2 (visibility 5 s, 3 s) names a span the run's log has no event in", () => {
  const two = (seconds) => {
    const s = JSON.parse(text("02-slow-consumer-duplicate"));
    s.queues[0].visibilityTimeoutSeconds = seconds;
    return JSON.stringify(s);
  };
  const runs = [["scenario 7 at 1×", text("07-fifo-deduplication"), 1], ["scenario 10 at 4×", text("10-delay-and-retention"), 4], ["scenario 2, 5 s", two(5), 1], ["scenario 2, 3 s", two(3), 1]];
  for (const [name, scenario, speed] of runs) {
    const { notes, events } = playNoting(scenario, speed);
    assert.ok(notes.length > 1, `${name}: more than one stretch skipped`);
    for (const { text: said } of notes) {
      const [from, to] = claimedSpan(said);
      const inside = events.filter((e) => e.timeMs > from && e.timeMs < to).map((e) => `${e.type} at ${e.timeMs} ms`);
      assert.deepEqual(inside, [], `${name}: “${said}”`);
    }
  }
});

test("the timeline's markers are the narration's moments and the checkpoints'", () => {
  const s = JSON.parse(text("07-fifo-deduplication"));
  const moments = narrationMoments(s);
  assert.deepEqual(moments.filter((m) => !m.checkpoint).map((m) => m.t), [0, 2000, 3000, 301500]);
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
