// The words that follow the learner's changes: the "you changed: …" line
// under the file's title and summary (the scenario now against its file),
// and the recap at the end of every run, counted by the simulation from
// the run's events (snapshot().simulation.outcome and sideEffects). When
// the learner changed something, the recap says where the run differs
// from the file's own run, which the lab runs once, on a copy, to its end
// (lab.fileOutcome: lab/copies.js).

import { h, setText } from "../../ui/dom.js";
import { span } from "../../text/format.js";
import { billSentence } from "../../text/bill.js";
import { defaults, limits } from "../../engine/engine.js";
import { changes, changeSentence, differences, mostSideEffects, omittedNote } from "../../text/changes.js";

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
  ];
}

export const outcome = {
  mount(root, lab) {
    const box = root.getElementById("outcome");
    const changed = root.getElementById("changed");
    if (!box || !changed) return null;
    let key = "";
    return {
      update(d) {
        // The run's snapshot is refreshed only when events happen, so the
        // end is read from the clock.
        const finished = d.now >= d.duration;
        if (!d.changed && !d.started && finished === !box.hidden) return;
        const file = lab.fileText();
        let list = [];
        try {
          list = changes(JSON.parse(file), d.scenario, defaults().queue);
        } catch {
          // No file to compare with (the page had none): nothing to list.
        }
        setText(changed, list.length ? `You changed: ${list.map((c) => c.text).join("; ")}.` : "");
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
        const effects = sim.sideEffects.length
          ? sim.sideEffects.map((s) => h("li", { class: s.count > 1 ? "warn" : null, text: `${s.body}: ${s.effect} ×${s.count}` }))
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
        ].filter(Boolean));
      },
      destroy() {},
    };
  },
};
