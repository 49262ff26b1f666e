// Quiet time, the clock's rule. Playing at a fixed speed, a run can hold
// minutes of virtual time in which nothing happens (scenario 7 waits five
// minutes for a deduplication window to pass): watched at 1× that is
// minutes of a still page. When the simulation's own next event
// (Playground.nextEventTime, which knows every timer, producer, worker
// and long poll) is more than QUIET_MS away, the lab's clock
// (lab/clock.js) jumps to just before it, and the quiet-time view says
// how much it skipped. The page never works out SQS timing itself: the
// engine names the moment. Tested in Node: tests/node/quiet-time.test.mjs.

/** Nothing happening for longer than this (virtual ms) is skipped while playing. */
export const QUIET_MS = 2000;
/** A jump lands this long before the next event, so the learner sees it arrive. */
export const QUIET_LEAD_MS = 500;

/**
 * Where a playing clock at `now` should jump, or null to play on:
 * `nextEvent` is the simulation's next moment (null: nothing is due),
 * `nextAction` the next of your recorded actions (null: none), and the
 * run ends at `duration`. Only a stretch longer than QUIET_MS is skipped.
 * @param {{ now: number, nextEvent: number | null, nextAction: number | null | undefined, duration: number }} moment
 * @returns {number | null}
 */
export function quietJump({ now, nextEvent, nextAction, duration }) {
  const until = Math.min(nextEvent ?? duration, nextAction ?? duration, duration);
  if (until - now <= QUIET_MS) return null;
  return until === duration && nextEvent == null ? duration : until - QUIET_LEAD_MS;
}

/**
 * Adds the jump `from` → `to` to the note's record: the latest skipped
 * stretch, how many, and their total. Each skip is its own stretch: between
 * two skips the clock played through the event the first one landed before
 * (scenario 7's long polls end every 20 s), so a stretch running from the
 * first skip's start to the second's end would span that event. Only a
 * skip starting where the last one ended, nothing played between, goes on
 * with it.
 * @typedef {{ last: { from: number, to: number }, count: number, total: number }} QuietNote
 * @param {QuietNote | null} note
 * @param {number} from
 * @param {number} to
 * @returns {QuietNote}
 */
export function addSkip(note, from, to) {
  if (note && from === note.last.to) return { last: { from: note.last.from, to }, count: note.count, total: note.total + (to - from) };
  return { last: { from, to }, count: (note?.count ?? 0) + 1, total: (note?.total ?? 0) + (to - from) };
}
