// Quiet time and the timeline's landmarks. Playing at a fixed speed, a
// run can hold minutes of virtual time in which nothing happens (scenario
// 7 waits five minutes for a deduplication window to pass): watched at
// 1× that is minutes of a still page. When the simulation's own next
// event (Playground.nextEventTime, which knows every timer, producer,
// worker and long poll) is more than QUIET_MS away, the lab jumps the
// clock to just before it and this view says how much it skipped. The
// page never works out SQS timing itself: the engine names the moment.
//
// The timeline also carries markers for the narration's moments, which
// scrub there on a click, so the early seconds of a long run are one
// click away however narrow the slider is.

import { h, setText } from "../../ui/dom.js";
import { cut, secs } from "../../text/format.js";
import { runCopyToEnd } from "./outcome.js";
import { Playground, limits } from "../../engine/engine.js";
import { askedMoments } from "./checkpoint.js";
import { Slicer, runSliced } from "../../run/slicer.js";

/** Nothing happening for longer than this (virtual ms) is skipped while playing. */
export const QUIET_MS = 2000;
/** A jump lands this long before the next event, so the learner sees it arrive. */
export const QUIET_LEAD_MS = 500;

/**
 * Where a playing clock at `now` should jump, or null to play on:
 * `nextEvent` is the simulation's next moment (null: nothing is due),
 * `nextAction` the next of your recorded actions (null: none), and the
 * run ends at `duration`. Only a stretch longer than QUIET_MS is skipped.
 */
export function quietJump({ now, nextEvent, nextAction, duration }) {
  const until = Math.min(nextEvent ?? duration, nextAction ?? duration, duration);
  if (until - now <= QUIET_MS) return null;
  return until === duration && nextEvent == null ? duration : until - QUIET_LEAD_MS;
}

/**
 * Adds the jump `from` → `to` to the running note: jumps separated by
 * less than QUIET_MS of played time are one quiet stretch (scenario 7's
 * long polls end every 20 s, and the note adds them up).
 */
export function addSkip(note, from, to) {
  if (note && from - note.to < QUIET_MS) return { from: note.from, to, skipped: note.skipped + (to - from) };
  return { from, to, skipped: to - from };
}

/** A skipped span for people: "4 min 40 s", "17.5 s". */
export function quietWords(ms) {
  const s = Math.round(ms / 100) / 10;
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  const rest = Math.round(s - m * 60);
  return rest ? `${m} min ${rest} s` : `${m} min`;
}

/**
 * The moments the timeline marks, as { t, text, checkpoint? }: when each
 * narration line fires and each checkpoint is asked in this run. Both
 * fire on what happens (story.rs), so the moments come from a copy of the
 * run played to its end (same seed, same story); when that is too much
 * work to do unasked, only those that wait for time alone, whose moments
 * are known beforehand, are marked.
 */
export function narrationMoments(scenario, text = scenario && JSON.stringify(scenario)) {
  if (!scenario) return [];
  return runCopyToEnd(text, firedNarration) ?? sceneSetting(text);
}

/**
 * narrationMoments without holding the page: the copy of the run goes to
 * its end in slices (slicer.js), and `done(moments)` gets them when it
 * gets there (at once for a short run). A run of 300 bodies of 1 MiB took
 * 2.4 s here (8–10 s at 4x CPU throttling) in one task when the copy ran
 * in one call. Returns a function that stops the copy (a new run started).
 */
export function narrationMomentsInSlices(scenario, text, done) {
  let pg;
  let end;
  try {
    pg = Playground.fromScenario(text, undefined);
    end = scenario.durationMs;
    if (pg.workEstimate(end) > limits().maxWorkWithoutAsking) end = null;
  } catch {
    end = null;
  }
  if (end == null) {
    pg?.free();
    done(sceneSetting(text));
    return () => {};
  }
  const slicer = new Slicer({ advance: (to) => (pg.advance(to - pg.now()), pg.now()), estimate: (to) => pg.workEstimate(to) });
  let stopped = false;
  const job = runSliced(slicer, {
    from: 0,
    target: end,
    onEnd: (job) => {
      let moments = null;
      try {
        if (!stopped) moments = job.state === "done" ? firedNarration(pg) : sceneSetting(text);
      } catch {
        moments = sceneSetting(text);
      } finally {
        pg.free();
      }
      if (moments) done(moments);
    },
  });
  return () => {
    stopped = true;
    job.cancel();
  };
}

function firedNarration(pg) {
  const events = [...pg.events(0)];
  const lines = events.filter((e) => e.type === "narration").map((e) => ({ t: e.timeMs, text: e.text }));
  // Stable: a checkpoint asked at a line's moment comes after it, as in the run.
  return [...lines, ...askedMoments(events)].sort((a, b) => a.t - b.t);
}

/** Lines and checkpoints that wait only for time: their moments are known before the run (the engine fills in their words). */
function sceneSetting(text) {
  let pg;
  try {
    pg = Playground.fromScenario(text, undefined);
    return pg.plannedMoments().map((m) => (m.checkpoint ? { ...m, text: `Checkpoint: ${m.text}` } : m));
  } catch {
    return [];
  } finally {
    pg?.free();
  }
}

/**
 * The view: the "quiet skipped" note (d.quiet from the lab), and the
 * narration's moments, rebuilt when a run starts, twice: as ticks on the
 * timeline (a pointer's shortcut; close ones may overlap on a long run)
 * and as the "Go to" list, which reaches every moment exactly, by
 * keyboard too.
 */
export const quietTime = {
  mount(root, lab) {
    const note = root.getElementById("quiet-note");
    const marks = root.getElementById("timeline-marks");
    const list = root.getElementById("moments");
    if (!note && !marks) return null;
    const go = (t) => lab.commands.scrub(t, false);
    let known = { text: null, moments: [] }; // the last scenario's moments
    let stop = () => {}; // stops the copy of a run still finding its moments
    list?.addEventListener("change", () => {
      if (list.value !== "") go(Number(list.value));
      list.value = "";
    });
    return {
      update(d) {
        if (note) {
          if (note.hidden !== !d.quiet) note.hidden = !d.quiet;
          if (d.quiet) setText(note, `⏩ ${quietWords(d.quiet.skipped)} of quiet skipped (nothing happened from t = ${secs(d.quiet.from)} s to ${secs(d.quiet.to)} s)`);
        }
        if (!d.started) return;
        // A restart runs the same scenario again: its moments are known.
        const text = JSON.stringify(d.scenario);
        const show = ({ moments }) => {
          if (marks) drawMarks(marks, moments, d.duration, go);
          if (list) fillList(list, moments);
        };
        if (text === known.text) return show(known);
        stop();
        known = { text, moments: [] };
        show(known); // the last run's marks go; this run's come when its copy gets to its end
        stop = narrationMomentsInSlices(d.scenario, text, (all) => {
          // Checkpoints played without asking (checkpoints=off) are not landmarks.
          known = { text, moments: lab.asksCheckpoints ? all : all.filter((m) => !m.checkpoint) };
          show(known);
        });
      },
      destroy() {
        stop();
      },
    };
  },
};

function drawMarks(box, moments, duration, go) {
  box.replaceChildren(
    ...moments.map(({ t, text, checkpoint }) => {
      const pct = duration > 0 ? (100 * Math.min(t, duration)) / duration : 0;
      const mark = h("span", { class: checkpoint ? "tl-mark tl-checkpoint" : "tl-mark", "data-marker-ms": t, title: `t = ${secs(t)} s: ${text}`, onclick: () => go(t) });
      mark.style.left = `${pct}%`; // through the CSSOM: the page's CSP allows no inline style attributes
      return mark;
    }),
  );
}

function fillList(list, moments) {
  list.hidden = moments.length === 0;
  list.replaceChildren(
    h("option", { value: "", text: "Go to…" }),
    ...moments.map(({ t, text }) => h("option", { value: t, text: `${secs(t)} s: ${cut(text, 60)}` })),
  );
}
