// How the page writes times, durations and message names in words. No DOM:
// the run (run/) and the sentences (text/) use it as well as the views.

/** Virtual ms as seconds: "2.0", "5.607" (exact, as few digits as needed). */
export function secs(ms) {
  const d = ms % 100 === 0 ? 1 : ms % 10 === 0 ? 2 : 3;
  return (ms / 1000).toFixed(d);
}

/** Two digits: 8 -> "08". @param {number} n */
const two = (n) => String(n).padStart(2, "0");

/**
 * The UTC wall clock at `epochMs + ms` in parts ({ date: "2026-12-05",
 * day: "12-05", minute: "08:15", second: "08:15:00", tenths }), built from
 * the date's fields, so a year past 9999 is said whole; null past the last
 * moment a JavaScript date holds (8.64e15 ms from 1970), which a run's
 * virtual time (up to 2^53 ms) can pass.
 * @param {number} ms @param {number} epochMs
 */
function utcAt(ms, epochMs) {
  const d = new Date(epochMs + ms);
  if (Number.isNaN(d.getTime())) return null;
  const day = `${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  const minute = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
  return { date: `${d.getUTCFullYear()}-${day}`, day, minute, second: `${minute}:${two(d.getUTCSeconds())}`, tenths: Math.floor(d.getUTCMilliseconds() / 100) };
}

/**
 * Virtual time `ms` as the wall clock of a run whose time 0 is `epochMs`
 * (a scenario's startEpochMs), in UTC: "08:15:00 UTC", "08:15:00.2 UTC"
 * with tenths when the moment has them. A run longer than a day shows the
 * date too: "2026-12-05 08:15:00 UTC". Past the last date JavaScript
 * holds, virtual time: "t=9000000000000000.0 s".
 * @param {number} ms @param {number} epochMs @param {number} [durationMs]
 */
export function wallClock(ms, epochMs, durationMs = 0) {
  const at = utcAt(ms, epochMs);
  if (!at) return `t=${secs(ms)} s`;
  const time = `${at.second}${at.tenths ? `.${at.tenths}` : ""}`;
  return durationMs > 86_400_000 ? `${at.date} ${time} UTC` : `${time} UTC`;
}

/**
 * A chart's tick in a run with a wall clock (`epochMs`), in UTC, as
 * short as the run's length allows: "08:15:30" in a run under 5 minutes,
 * "08:15" under a day, "12-05 08:15" past that; past the last date
 * JavaScript holds, virtual time in seconds.
 * @param {number} ms @param {number} epochMs @param {number} durationMs
 */
export function wallTick(ms, epochMs, durationMs) {
  const at = utcAt(ms, epochMs);
  if (!at) return `${secs(ms)} s`;
  if (durationMs > 86_400_000) return `${at.day} ${at.minute}`;
  return durationMs >= 300_000 ? at.minute : at.second;
}

/** A duration for people: "800 ms", "3.5 s", "5 min", "4 d". */
export function span(ms) {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 120) return `${+s.toFixed(2)} s`;
  if (s < 7200) return `${+(s / 60).toFixed(1)} min`;
  if (s < 172800) return `${+(s / 3600).toFixed(1)} h`;
  return `${+(s / 86400).toFixed(1)} d`;
}

export const shortId = (id) => String(id).slice(0, 8);

const WHOLE = new Intl.NumberFormat("en-US"); // made once: toLocaleString builds a formatter per call

/** A count with its noun in the number it needs: (1, "time", "times") -> "1 time", (1563, …) -> "1,563 times". */
export const counted = (n, one, many) => `${WHOLE.format(n)} ${n === 1 ? one : many}`;

/** 2 -> "second", 3 -> "third", 21 -> "21st", 12 -> "12th". */
export function ordinal(n) {
  if (n === 2) return "second";
  if (n === 3) return "third";
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${WHOLE.format(n)}${suffix}`;
}

/** `text` cut to at most `n` characters, the last an ellipsis when cut. */
export const cut = (text, n) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/** "A-1001's visibility timeout"; a name in quotes keeps its quote last: "the visibility timeout of “reading #1”". */
export function possessive(name, what) {
  if (/[”"]$/.test(name)) return `the ${what} of ${name}`;
  return name.endsWith("s") ? `${name}' ${what}` : `${name}'s ${what}`;
}

const REF = /\b[A-Z]{1,4}-\d+\b/;
/** How a sentence names a message: its order reference ("A-1001") or its label. */
export function nameOf(label, id) {
  if (label == null) return id ? shortId(id) : "a message";
  const m = REF.exec(label);
  if (m) return m[0];
  return `“${cut(label, 30)}”`;
}
