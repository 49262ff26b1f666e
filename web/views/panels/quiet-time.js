// Quiet time and the timeline's landmarks, drawn. The lab's clock skips
// long quiet stretches (the rule: run/quiet.js) and hands the stretch in
// the frame (d.quiet); this view says how much it skipped.
//
// The timeline also carries markers for the narration's moments, which
// scrub there on a click, so the early seconds of a long run are one
// click away however narrow the slider is. The moments are found by a
// copy of the run that the lab owns (lab.moments: lab/copies.js over
// run/moments.js); this view only draws them.

import { h, setText } from "../../ui/dom.js";
import { cut, secs, wallClock } from "../../text/format.js";

/** A skipped span for people: "4 min 40 s", "17.5 s". */
export function quietWords(ms) {
  const s = Math.round(ms / 100) / 10;
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  const rest = Math.round(s - m * 60);
  return rest ? `${m} min ${rest} s` : `${m} min`;
}

/**
 * The note for the stretches skipped so far (run/quiet.js's record): one
 * stretch with its span, or the total with the latest stretch's span. A
 * span is only ever one skip's, in which the run has no event (the engine
 * named its next event's moment); "no event" is what the log can show,
 * where "nothing happened" would be false of a worker busy processing.
 * In a run with a wall clock (`epochMs`), the span is in its UTC time.
 * @param {import("../../run/quiet.js").QuietNote} note
 * @param {number | null} [epochMs] @param {number} [durationMs]
 */
export function quietNote({ last, count, total }, epochMs = null, durationMs = 0) {
  // To a tenth of a second, rounded inwards: the span said is never wider than the one skipped.
  const [from, to] = [Math.ceil(last.from / 100) * 100, Math.floor(last.to / 100) * 100];
  // A run with a wall clock (a scenario's startEpochMs) says it as its clock and log do.
  const span = epochMs == null ? `between t = ${secs(from)} s and ${secs(to)} s` : `between ${wallClock(from, epochMs, durationMs)} and ${wallClock(to, epochMs, durationMs)}`;
  if (count === 1) return `⏩ Skipped ${quietWords(total)} of waiting: no event ${span}.`;
  return `⏩ Skipped ${quietWords(total)} of waiting in total, in ${count} stretches with no event; the latest ${span}.`;
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
    if (list) walkable(list, go);
    return {
      update(d) {
        if (note) {
          if (note.hidden !== !d.quiet) note.hidden = !d.quiet;
          if (d.quiet) setText(note, quietNote(d.quiet, d.scenario?.startEpochMs ?? null, d.duration));
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
        stop = lab.moments(d.scenario, text, (all) => {
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

/**
 * "Go to…" goes on an explicit choice only: a pick in its open list (a
 * click, or Enter there), or Enter on the closed list. The arrow keys on a
 * closed <select> change its value and fire `change` at once (Chromium,
 * Firefox): taken as a choice, each ↓ went to a moment and put the list
 * back to "Go to…", so the next ↓ went to the first moment again. A change
 * made while a key is down on the closed list only walks it; leaving it
 * unchosen puts it back to "Go to…".
 * @param {HTMLSelectElement} list
 * @param {(t: number) => void} go
 */
function walkable(list, go) {
  let walking = false; // a key is down on the list: a change now is that key's (it comes before the key's keyup)
  const choose = () => {
    if (list.value !== "") go(Number(list.value));
    list.value = "";
  };
  // The keys that open the list's popup are not walking: its keyup goes to the popup, and a pick there is a choice.
  const opens = (e) => e.key === " " || e.key === "F4" || (e.altKey && (e.key === "ArrowDown" || e.key === "ArrowUp"));
  list.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      choose();
    } else walking = !opens(e);
  });
  list.addEventListener("keyup", () => (walking = false));
  list.addEventListener("mousedown", () => (walking = false));
  list.addEventListener("change", () => walking || choose());
  list.addEventListener("blur", () => {
    walking = false;
    list.value = "";
  });
}

function drawMarks(box, moments, duration, go) {
  box.replaceChildren(
    ...moments.map(({ t, text, checkpoint }) => {
      const pct = duration > 0 ? (100 * Math.min(t, duration)) / duration : 0;
      const mark = h("span", { class: checkpoint ? "tl-mark tl-checkpoint" : "tl-mark", "data-marker-ms": t, title: `t = ${secs(t)} s: ${text}`, onclick: () => go(t) });
      // Where along the track (0..1); styles.css turns it into a position that keeps the
      // whole tick inside its box. Through the CSSOM: the page's CSP allows no inline style attributes.
      mark.style.setProperty("--at", String(pct / 100));
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
