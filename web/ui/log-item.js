// One sentence of the event log as a list item, shared by the log
// (views/panels/event-log.js) and the peek's history (views/panels/peek.js):
// a DOM helper, so neither view imports the other.

import { h } from "./dom.js";
import { secs, wallClock } from "../text/format.js";

/**
 * One sentence as a list item: "t=2.0 s · worker-2 · received A-1001 …";
 * in a run with a wall clock (`epochMs`, a scenario's startEpochMs) its
 * time is that clock's, "08:15:00.2 UTC", the virtual time in its title.
 * @param {any} s @param {number | null} [epochMs]
 */
export function item(s, epochMs = null) {
  const t = `t=${secs(s.e.timeMs)} s`;
  const time = epochMs == null ? { class: "t", text: t } : { class: "t", text: wallClock(s.e.timeMs, epochMs), title: t };
  return h(
    "li",
    { class: s.kind ? `k-${s.kind}` : null, "data-type": s.e.type },
    h("span", time),
    " ",
    h("span", { class: "who", text: s.who }),
    " ",
    h("span", { class: "what", text: s.text }),
  );
}
