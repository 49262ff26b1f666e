// A scenario with a wall clock (startEpochMs: scenario 29's one-time
// schedule at 09:00) has its moments said in UTC on the clock, in the
// event log and in the quiet note (web/text/format.js's wallClock), and
// its chart's time axis ticked in UTC (wallTick), beside virtual time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { wallClock, wallTick } from "../../web/text/format.js";
import { quietNote } from "../../web/views/panels/quiet-time.js";

test("a run with a wall clock says its moments in UTC from its startEpochMs, with the date past a day", () => {
  const start = Date.UTC(2026, 11, 4, 8, 0, 0); // 2026-12-04T08:00:00Z, scenario 29's start
  assert.equal(wallClock(0, start), "08:00:00 UTC");
  assert.equal(wallClock(900_200, start), "08:15:00.2 UTC");
  assert.equal(wallClock(3_600_000, start, 3_900_000), "09:00:00 UTC");
  assert.equal(wallClock(86_400_000, start, 90_000_000), "2026-12-05 08:00:00 UTC");
});

test("a chart's time axis in a run with a wall clock is ticked as short as the run's length allows", () => {
  const start = Date.UTC(2026, 11, 4, 8, 0, 0);
  assert.equal(wallTick(30_000, start, 120_000), "08:00:30", "a run under 5 minutes: seconds");
  assert.equal(wallTick(3_600_000, start, 3_900_000), "09:00", "under a day: hours and minutes");
  assert.equal(wallTick(86_400_000, start, 90_000_000), "12-05 08:00", "past a day: the date too");
});

test("the quiet note of a run with a wall clock says the stretch it skipped in UTC", () => {
  const start = Date.UTC(2026, 11, 4, 8, 0, 0);
  const note = { last: { from: 3005, to: 900_000 }, count: 1, total: 896_995 };
  assert.equal(quietNote(note, start, 3_900_000), "⏩ Skipped 14 min 57 s of waiting: no event between 08:00:03.1 UTC and 08:15:00 UTC.");
  assert.match(quietNote(note), /between t = 3\.1 s and 900\.0 s\.$/, "without a wall clock, in seconds");
});

test("a wall clock past year 9999 is said whole, and past the last date JavaScript holds it falls back to virtual time, never throws", () => {
  const latest = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z, the engine's latest start
  const most = 2 ** 53 - 1; // a run's longest virtual time
  assert.equal(wallClock(1, latest, 2 * 86_400_000), "10000-01-01 00:00:00 UTC");
  assert.equal(wallTick(86_400_001, latest, 2 * 86_400_000), "01-02 00:00");
  assert.equal(wallClock(most, latest, most), `t=${(most / 1000).toFixed(3)} s`);
  assert.match(wallTick(most, latest, most), / s$/);
});
