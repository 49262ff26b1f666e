// A share link that would need a lot of simulation opens paused and asks
// first. Replays run in slices and never freeze the page, but a link can
// still ask for hours of this computer's work ("t=3000000000" on a
// scenario that polls every millisecond). How much is "a lot" is the
// engine's documented limit (limits().maxWorkWithoutAsking); how much a
// link needs is the engine's own estimate (Playground.workEstimate); how
// long that takes here is measured, on a copy of the run, for a moment.

import { Playground, limits } from "../engine/engine.js";
import { Slicer } from "../run/slicer.js";
import { journalWork } from "../run/run.js";
import { h } from "../ui/dom.js";

/** Wall ms spent measuring how fast this computer runs the link's scenario. */
const MEASURE_MS = 20;

/**
 * What opening a link needs: `{ steps, ms, heavy, replays }` for taking
 * `lab`'s run (at time 0) to virtual moment `until`, making the link's
 * recorded actions (`journal`) due by then. `steps` counts the engine's
 * estimate and the actions' units (run.js journalWork); `ms` is the
 * expected wall time here (null if it could not be measured); `replays`
 * says whether that is a replay to the link's moment or playing at full
 * speed.
 */
export function linkWork(lab, { until, replays, journal = [] }) {
  const pg = lab.playground;
  if (!pg) return { steps: 0, ms: 0, heavy: false, replays };
  const steps = (until > 0 ? pg.workEstimate(until) : 0) + journalWork(journal, until);
  const heavy = steps > limits().maxWorkWithoutAsking;
  const perStep = heavy ? msPerStep(lab.state().text, until) : null;
  return { steps, ms: perStep == null ? null : perStep * steps, heavy, replays };
}

/** Wall ms one unit of work of `text` takes here, from a short run of a copy toward `until` (null when nothing ran). */
function msPerStep(text, until) {
  let probe;
  try {
    probe = Playground.fromScenario(text, undefined);
    const slicer = new Slicer({ advance: (to) => (probe.advance(to - probe.now()), probe.now()), estimate: (to) => probe.workEstimate(to) });
    const steps = probe.workEstimate(until);
    const began = performance.now();
    slicer.slice(0, until, MEASURE_MS);
    const done = steps - probe.workEstimate(until);
    const took = performance.now() - began;
    return done > 0 ? took / done : null;
  } catch {
    return null; // no figure; the notice says "a long time"
  } finally {
    probe?.free();
  }
}

const count = new Intl.NumberFormat("en", { notation: "compact", compactDisplay: "long", maximumSignificantDigits: 2 });

/** "about 3 billion steps". */
export const stepsText = (n) => `about ${count.format(n)} step${n === 1 ? "" : "s"}`;

/** A wait for people: "about 40 seconds", "about 25 minutes", "about 3 hours"; "a long time" when unknown. */
export function waitText(ms) {
  if (ms == null || !Number.isFinite(ms)) return "a long time";
  const round = (x, unit) => `about ${Math.max(1, Math.round(x))} ${unit}${Math.round(x) > 1 ? "s" : ""}`;
  if (ms < 90_000) return round(ms / 1000, "second");
  if (ms < 90 * 60_000) return round(ms / 60_000, "minute");
  if (ms < 48 * 3_600_000) return round(ms / 3_600_000, "hour");
  return round(ms / 86_400_000, "day");
}

/**
 * Shows the notice before `where`: what the link would run, how long that
 * could take, and two choices. `run()` does what the link asked (replay,
 * autoplay); `stay()` leaves the run paused at its start.
 */
export function askBeforeRunning(where, work, { run, stay }) {
  const what = work.replays ? "replays" : "plays, at the fastest speed,";
  const close = (then) => () => {
    box.remove();
    then();
  };
  const box = h(
    "div",
    { id: "link-notice", class: "link-notice", role: "alert" },
    h("p", { id: "link-notice-text", text: `This link ${what} ${stepsText(work.steps)} of simulation, which could take ${waitText(work.ms)} on this computer. It is paused at the start until you choose.` }),
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", id: "link-run", class: "primary", text: "Run it", onclick: close(run) }),
      h("button", { type: "button", id: "link-stay", text: "Stay at the start", onclick: close(stay) }),
    ),
  );
  where.before(box);
  return box;
}
