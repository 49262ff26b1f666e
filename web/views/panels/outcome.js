// The words that follow the learner's changes: the "you changed: …" line
// under the file's title and summary (the scenario now against its file:
// a lab's knobs in their own words, one per knob, and any other edit in
// the fields' words, each on its own line, and a note that the summary
// describes the file's run),
// and the recap at the end of every run, counted by the simulation from
// the run's events (snapshot().simulation.outcome and sideEffects). When
// the learner changed something, the recap says where the run differs
// from the file's own run, which the lab runs once, on a copy, to its end
// (lab.fileOutcome: lab/copies.js).

import { h } from "../../ui/dom.js";
import { span } from "../../text/format.js";
import { billSentence, callersSentence } from "../../text/bill.js";
import { defaults, labs, limits } from "../../engine/engine.js";
import { changes, changeSentence, differences, effectLines, knobChanges, mostSideEffects, omittedNote } from "../../text/changes.js";

function facts(sim) {
  const o = sim.outcome;
  const wait = o.longestWaitLabel == null ? "no message waited" : `${span(o.longestWaitMs)} (${o.longestWaitLabel})`;
  return [
    ["Duplicate deliveries", o.duplicateDeliveries],
    ["Lost", o.lost],
    ["Expired", o.expired],
    ["Dead-lettered", o.deadLettered],
    ["Empty receives", o.emptyReceives],
    ["Longest wait", wait],
    ...replyFacts(o),
  ];
}

/** A run of requesters and responders: its reply queues and replies (none otherwise). */
function replyFacts(o) {
  if (!(o.queuesCreated || o.queuesDeleted || o.repliesMatched || o.replyWaitsEnded || o.repliesLost)) return [];
  return [
    ["Queues created / deleted", `${o.queuesCreated} / ${o.queuesDeleted}`],
    ["Replies matched", o.repliesLate ? `${o.repliesMatched} (${o.repliesLate} late)` : o.repliesMatched],
    ["Reply waits ended", o.replyWaitsEnded],
    ["Replies lost", o.repliesLost],
  ];
}

/**
 * The learner's changes to `file` in the run of `text` (`scenario`, as the
 * engine read it): a lab's knob changes in the knobs' words, then what
 * differs from the scenario those knob values make (edits outside the
 * knobs), in the fields' words; any other scenario's, or a lab edited in a
 * field its knobs write, in the fields' words.
 */
function changesOf(file, text, scenario) {
  let view = null;
  let now = null;
  try {
    view = labs.view(file);
    now = view && labs.view(text);
  } catch {
    // Not a lab, or a run whose goal the editor broke: the fields' words alone.
  }
  const fields = () => changes(JSON.parse(file), scenario, defaults().queue);
  if (!view || !now) return fields();
  const knobbed = JSON.parse(labs.scenario(file, now.settings));
  const extra = changes(knobbed, scenario, defaults().queue);
  // An edit to a field a knob writes (one worker of the two a knob sets) is
  // no knob value: then every change is said in the fields' words.
  const written = new Set(changes(JSON.parse(labs.scenario(file, {})), knobbed, defaults().queue).map((c) => c.path));
  if (extra.some((c) => written.has(c.path))) return fields();
  return [...knobChanges(view.knobs, view.settings, now.settings), ...extra];
}

/**
 * "You changed:" and each change on its own line, then what the summary
 * above describes: the file's run, quoting this run's settings where it
 * names one (`quotes`: the simulation's filled summary differs from the file's words).
 */
function changedLine(list, quotes) {
  const lines = list.flatMap((c, i) => [h("span", { class: "change", text: `${c.text}${i < list.length - 1 ? ";" : "."}` }), " "]);
  return ["You changed: ", ...lines, h("span", { class: "change-note", text: `The summary above describes the file's run${quotes ? ", with this run's settings" : ""}.` })];
}

export const outcome = {
  mount(root, lab) {
    const box = root.getElementById("outcome");
    const changed = root.getElementById("changed");
    if (!box || !changed) return null;
    let key = "";
    const listed = { file: null, scenario: null, list: [] }; // the changes, found again only for a new run or file
    return {
      update(d) {
        // The run's snapshot is refreshed only when events happen, so the
        // end is read from the clock.
        // A live run never finishes: its host goes on.
        const finished = !d.live && d.now >= d.duration;
        if (!d.changed && !d.started && finished === !box.hidden) return;
        const file = lab.fileText();
        if (listed.file !== file || listed.scenario !== d.scenario) {
          Object.assign(listed, { file, scenario: d.scenario, list: [] });
          try {
            listed.list = changesOf(file, d.started?.text ?? JSON.stringify(d.scenario), d.scenario);
          } catch {
            // No file to compare with (the page had none): nothing to list.
          }
          const quotes = d.snap.simulation.summary !== d.scenario.summary;
          changed.replaceChildren(...(listed.list.length ? changedLine(listed.list, quotes) : []));
        }
        const list = listed.list;
        changed.hidden = !list.length;
        const sim = d.snap.simulation;
        box.hidden = !finished;
        if (!finished) return;
        const now = JSON.stringify([sim.outcome, sim.sideEffects, sim.sideEffectsOmitted, list]);
        if (now === key) return;
        key = now;
        let compare = "";
        if (list.length) {
          const original = lab.fileOutcome(file);
          const diff = original ? differences(original, sim, limits().maxSideEffectDetails) : [];
          compare = original ? `${changeSentence(list)}: ${diff.length ? diff.join("; ") : "the outcome is the same as the file's run"}.` : `${changeSentence(list)}.`;
        }
        box.dataset.sideEffects = String(mostSideEffects(sim));
        const lines = effectLines(sim.sideEffects, (id) => d.facts.queueOf.get(id));
        const effects = sim.sideEffects.length
          ? sim.sideEffects.map((s, i) => h("li", { class: s.count > 1 ? "warn" : null, text: lines[i] }))
          : [h("li", { class: "muted", text: "No side effect happened." })];
        // The list is the ledger's kept entries: past them, it says how many messages it leaves out.
        const note = omittedNote(sim, limits().maxSideEffectDetails);
        if (note) effects.push(h("li", { class: "muted fx-omitted", text: `…and ${note}.` }));
        box.replaceChildren(...[
          h("h3", { text: "Outcome of this run" }),
          compare ? h("p", { class: "compare", text: compare }) : null,
          h("ul", { class: "effects", "aria-label": "Side effects per message" }, ...effects),
          h("dl", { class: "facts" }, ...facts(sim).map(([k, v]) => h("div", null, h("dt", { text: k }), h("dd", { text: String(v) })))),
          // What the run's requests cost, every caller's: the engine's meter.
          h("p", { class: "bill", text: `Billed: ${billSentence(sim.outcome.bill)}` }),
          callersSentence(sim.outcome.bill) ? h("p", { class: "bill-callers", text: callersSentence(sim.outcome.bill) }) : null,
        ].filter(Boolean));
      },
      destroy() {},
    };
  },
};
