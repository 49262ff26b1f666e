// The stage's rows, a part the lab owns: one row per queue (#rows), in
// derive's stageOrder, each with three cells: its producers, its queue
// card and its consumers. Two views draw into one row (render-queue.js
// the card, render-workers.js the producers and consumers), so neither
// owns it: the lab lays the rows out before the views draw a frame and
// hands them the rows at mount (lab.rows), and the views never hand each
// other anything.

import { h } from "../ui/dom.js";

export class StageRows {
  constructor(el) {
    this.el = el;
    this.reset();
  }

  /** A new run: no rows until its first frame lays them out. */
  reset() {
    this.srows = new Map();
    this.order = "";
    this.el.replaceChildren();
  }

  /** The stage row of a queue: { el, prod, queue, redrive, cons }, made the first time it is asked for. */
  srow(name) {
    let s = this.srows.get(name);
    if (!s) {
      s = { prod: h("div", { class: "prod" }), queue: h("div", { class: "qcell" }), cons: h("div", { class: "cons" }) };
      s.redrive = h("div", { class: "redrive", hidden: true });
      s.queue.append(s.redrive);
      s.el = h("section", { class: "srow", "data-row-queue": name, "aria-label": `Queue ${name} with its producers and consumers` }, s.prod, s.queue, s.cons);
      this.srows.set(name, s);
    }
    return s;
  }

  /** Puts the rows in `names` order (derive's stageOrder), dropping rows of queues that are gone (and what was drawn in them). */
  layout(names) {
    const key = names.join("\n");
    if (key === this.order) return;
    this.order = key;
    for (const [name, s] of this.srows) {
      if (!names.includes(name)) {
        s.el.remove();
        this.srows.delete(name);
      }
    }
    this.el.append(...names.map((n) => this.srow(n).el));
  }
}
