// One sentence of the event log as a list item, shared by the log
// (views/panels/event-log.js) and the peek's history (views/panels/peek.js):
// a DOM helper, so neither view imports the other.

import { h } from "./dom.js";
import { secs } from "../text/format.js";

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
