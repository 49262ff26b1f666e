// The event log list (#log): one <li> per sentence, oldest first, the
// newest kept in view (the scroller is a column-reverse flex box, so it
// stays anchored at the bottom without reading layout); at most MAX items.

import { h, secs } from "./dom.js";
import { isKey, sentences } from "./log-sentences.js";

const MAX = 400;

export class EventLog {
  constructor(list, routineToggle) {
    this.list = list;
    routineToggle.addEventListener("change", () => list.classList.toggle("hide-routine", routineToggle.checked));
  }

  reset() {
    this.list.replaceChildren();
  }

  /** Appends a batch; returns its sentences (for announcements). */
  append(events, ctx) {
    if (events.length === 0) return [];
    // A replay can hand over a whole run: only the tail can be shown.
    const lines = sentences(events.length > MAX * 2 ? events.slice(-MAX * 2) : events, ctx);
    const frag = document.createDocumentFragment();
    for (const s of lines.length > MAX ? lines.slice(-MAX) : lines) frag.append(item(s));
    this.list.append(frag);
    let extra = this.list.childElementCount - MAX;
    while (extra-- > 0) this.list.firstElementChild.remove();
    return lines;
  }
}

/** One sentence as a list item: "t=2.0 s · worker-2 · received A-1001 …". */
export function item(s) {
  return h(
    "li",
    { class: s.kind ? `k-${s.kind}` : null, "data-type": s.e.type },
    h("span", { class: "t", text: `t=${secs(s.e.timeMs)} s` }),
    " ",
    h("span", { class: "who", text: s.who }),
    " ",
    h("span", { class: "what", text: s.text }),
  );
}

/**
 * The log as a view (full view only). Key sentences are also said through
 * the lab's live region, unless the frame is silent (a replay, fastest speed).
 */
export const log = {
  mount(root, lab) {
    const list = root.getElementById("log");
    if (!list) return null;
    const view = new EventLog(list, root.getElementById("log-routine"));
    return {
      update(d) {
        if (d.fresh) view.reset();
        if (!d.changed) return;
        // Checkpoints played without asking (checkpoints=off) are not part of the story told.
        const events = lab.asksCheckpoints ? d.events : d.events.filter((e) => !e.type.startsWith("checkpoint"));
        const lines = view.append(events, d);
        if (!d.silent) for (const l of lines) if (isKey(l.e) || (l.e.type === "received" && l.kind === "warn")) lab.say(l.kind === "narration" ? l.text : `${l.who} ${l.text}.`);
      },
      destroy() {},
    };
  },
};
