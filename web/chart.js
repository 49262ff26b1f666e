// A small CloudWatch-like chart: visible, in flight, delayed and
// dead-letter counts (left axis) and the age of the oldest message (right
// axis) over virtual time. Samples come from snapshots as time advances;
// a replay rebuilds them by sampling at the same fixed steps.

import { h, secs } from "./dom.js";

const NS = "http://www.w3.org/2000/svg";
const W = 640;
const H = 230;
const M = { l: 34, r: 44, t: 12, b: 24 };
export const SERIES = [
  ["visible", "Visible", "left"],
  ["inFlight", "In flight", "left"],
  ["delayed", "Delayed", "left"],
  ["dlq", "In dead-letter queues", "left"],
  ["age", "Age of oldest message (s)", "right"],
];

function s(tag, attrs) {
  const el = document.createElementNS(NS, tag);
  for (const k in attrs) el.setAttribute(k, attrs[k]);
  return el;
}

function nice(v) {
  if (v <= 1) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (v <= m * p) return m * p;
  return 10 * p;
}

/** The metrics of one moment, from a snapshot. */
export function metrics(snap, now) {
  const dlqArns = new Set(snap.queues.map((q) => q.deadLetterTargetArn).filter(Boolean));
  const m = { t: now, visible: 0, inFlight: 0, delayed: 0, dlq: 0, age: 0 };
  for (const q of snap.queues) {
    if (dlqArns.has(q.arn)) {
      m.dlq += q.visible + q.inFlight + q.delayed;
      continue;
    }
    m.visible += q.visible;
    m.inFlight += q.inFlight;
    m.delayed += q.delayed;
    if (q.oldestEnqueuedAt != null) m.age = Math.max(m.age, (now - q.oldestEnqueuedAt) / 1000);
  }
  return m;
}

export class Chart {
  constructor(host) {
    this.svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-labelledby": "chart-desc" });
    const title = s("title", { id: "chart-desc" });
    title.textContent = "Queue metrics over virtual time; the current values are listed below the chart.";
    this.svg.append(title);
    this.grid = s("g", { class: "grid" });
    this.svg.append(this.grid);
    this.lines = {};
    for (const [key] of SERIES) {
      this.lines[key] = s("polyline", { class: `ln ln-${key}`, fill: "none", points: "" });
      this.svg.append(this.lines[key]);
    }
    this.now = s("line", { class: "now", y1: M.t, y2: H - M.b, x1: M.l, x2: M.l });
    this.svg.append(this.now);
    this.values = {};
    const legend = h("ul", { class: "legend" });
    for (const [key, label] of SERIES) {
      const sw = s("svg", { viewBox: "0 0 28 8", class: "sw", "aria-hidden": "true" });
      sw.append(s("line", { x1: 1, y1: 4, x2: 27, y2: 4, class: `ln ln-${key}` }));
      this.values[key] = h("b", { text: "0" });
      legend.append(h("li", null, sw, ` ${label}: `, this.values[key]));
    }
    host.replaceChildren(h("div", { class: "chart-wrap" }, this.svg), legend);
    this.reset(10000);
  }

  reset(durationMs) {
    this.duration = Math.max(1, durationMs);
    this.step = Math.max(10, Math.round(this.duration / 300));
    this.samples = [];
    this.dirty = true;
    this.scaleKey = "";
  }

  /** The next sampling moment after `t`. */
  nextAt(t) {
    return (Math.floor(t / this.step) + 1) * this.step;
  }

  add(m) {
    const last = this.samples[this.samples.length - 1];
    if (last && last.t >= m.t) {
      if (last.t === m.t) this.samples[this.samples.length - 1] = m;
      else return;
    } else this.samples.push(m);
    this.dirty = true;
  }

  draw(now, current) {
    const x = (t) => M.l + (t / this.duration) * (W - M.l - M.r);
    const nx = x(Math.min(now, this.duration)).toFixed(1);
    this.now.setAttribute("x1", nx);
    this.now.setAttribute("x2", nx);
    if (current) for (const [key] of SERIES) this.values[key].textContent = key === "age" ? current.age.toFixed(1) : String(current[key]);
    if (!this.dirty) return;
    this.dirty = false;
    let maxC = 1;
    let maxA = 1;
    for (const m of this.samples) {
      maxC = Math.max(maxC, m.visible, m.inFlight, m.delayed, m.dlq);
      maxA = Math.max(maxA, m.age);
    }
    maxC = nice(maxC);
    maxA = nice(maxA);
    const key = `${maxC}|${maxA}|${this.duration}`;
    if (key !== this.scaleKey) {
      this.scaleKey = key;
      this.axes(maxC, maxA, x);
    }
    const yL = (v) => H - M.b - (v / maxC) * (H - M.t - M.b);
    const yR = (v) => H - M.b - (v / maxA) * (H - M.t - M.b);
    for (const [k, , side] of SERIES) {
      const y = side === "left" ? yL : yR;
      let pts = "";
      let prev = null;
      for (const m of this.samples) {
        // Counts are steps: hold the previous value until the next sample.
        if (prev !== null && side === "left") pts += `${x(m.t).toFixed(1)},${y(prev).toFixed(1)} `;
        pts += `${x(m.t).toFixed(1)},${y(m[k]).toFixed(1)} `;
        prev = m[k];
      }
      this.lines[k].setAttribute("points", pts);
    }
  }

  axes(maxC, maxA, x) {
    this.grid.replaceChildren();
    const text = (x1, y1, str, anchor) => {
      const t = s("text", { x: x1, y: y1, "text-anchor": anchor });
      t.textContent = str;
      this.grid.append(t);
    };
    for (const f of [0, 0.5, 1]) {
      const y = H - M.b - f * (H - M.t - M.b);
      this.grid.append(s("line", { x1: M.l, x2: W - M.r, y1: y, y2: y, class: f ? "gl" : "axis" }));
      text(M.l - 6, y + 4, String(+(maxC * f).toFixed(1)), "end");
      text(W - M.r + 6, y + 4, `${+(maxA * f).toFixed(1)} s`, "start");
    }
    for (const f of [0, 0.25, 0.5, 0.75, 1]) {
      const t = this.duration * f;
      text(x(t), H - 6, `${secs(Math.round(t))} s`, f === 0 ? "start" : f === 1 ? "end" : "middle");
    }
  }
}
