// The side-effect ledger under the stage: what the handlers did (charged,
// emailed…) per message, the latest 12, marked when one happened twice.
// The simulation keeps the details of the first
// limits().maxSideEffectDetails messages only: past them a note says how
// many it left out, so "the latest" is never taken for the run's latest.

import { h, setText } from "../../ui/dom.js";
import { cut } from "../../text/format.js";
import { limits } from "../../engine/engine.js";
import { omittedNote } from "../../text/changes.js";

const SHOWN = 12;

export const ledger = {
  mount(root) {
    const list = root.getElementById("ledger");
    const empty = root.getElementById("ledger-empty");
    const omitted = root.getElementById("ledger-omitted");
    let shown = null; // the side-effect list drawn (run.js keeps the same array while nothing changes)
    return {
      update(d) {
        if (!d.changed) return;
        // Before the list's check: past the kept details the list stays the same array while the count grows.
        const note = omittedNote(d.snap.simulation, limits().maxSideEffectDetails);
        setText(omitted, note ? `${note[0].toUpperCase()}${note.slice(1)}.` : "");
        if (omitted.hidden !== !note) omitted.hidden = !note;
        const fx = d.snap.simulation.sideEffects;
        if (fx === shown) return;
        shown = fx;
        list.replaceChildren(
          ...fx.slice(-SHOWN).map((s) =>
            h("li", { class: s.count > 1 ? "fx-dup" : null },
              h("span", { class: "fx-n", text: `${s.count > 1 ? "⚠ " : ""}${s.effect} ×${s.count}` }),
              " ",
              h("span", { class: "fx-what", text: cut(s.body, 40) }),
              h("span", { class: "fx-by", text: ` by ${s.by.join(", ")}` })),
          ),
        );
        empty.hidden = fx.length > 0;
      },
      destroy() {},
    };
  },
};
