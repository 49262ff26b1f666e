// The duplicate-delivery banner above the stage: says in words which
// messages two consumers hold at the same time (derive.js decides which).

import { setText } from "../../ui/dom.js";
import { nameOf } from "../../text/format.js";

export const dupBanner = {
  mount(root) {
    const el = root.getElementById("dup-banner");
    return {
      update(d) {
        if (!d.changed) return;
        el.hidden = d.duplicates.length === 0;
        const text = d.duplicates.map(([id, names]) => `${nameOf(d.label(id), id)} (${id.slice(0, 8)}) is held by ${names.join(" and ")} at the same time`).join("; ");
        setText(el, d.duplicates.length ? `Duplicate delivery: ${text}.` : "");
      },
      destroy() {},
    };
  },
};
