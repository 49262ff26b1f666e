// The side-effect ledger under the stage: what the handlers did (charged,
// emailed…) per message, the latest 12, marked when one happened twice.

import { cut, h } from "./dom.js";

const SHOWN = 12;

export const ledger = {
  mount(root) {
    const list = root.getElementById("ledger");
    const empty = root.getElementById("ledger-empty");
    let shown = null; // the side-effect list drawn (run.js keeps the same array while nothing changes)
    return {
      update(d) {
        if (!d.changed) return;
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
