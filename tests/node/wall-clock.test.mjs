// A scenario with a wall clock (startEpochMs: scenario 29's one-time
// schedule at 09:00) has its moments said in UTC on the clock and in the
// event log (web/text/format.js's wallClock), beside virtual time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { wallClock } from "../../web/text/format.js";

test("a run with a wall clock says its moments in UTC from its startEpochMs, with the date past a day", () => {
  const start = Date.UTC(2026, 11, 4, 8, 0, 0); // 2026-12-04T08:00:00Z, scenario 29's start
  assert.equal(wallClock(0, start), "08:00:00 UTC");
  assert.equal(wallClock(900_200, start), "08:15:00.2 UTC");
  assert.equal(wallClock(3_600_000, start, 3_900_000), "09:00:00 UTC");
  assert.equal(wallClock(86_400_000, start, 90_000_000), "2026-12-05 08:00:00 UTC");
});
