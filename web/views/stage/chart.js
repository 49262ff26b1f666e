// A small CloudWatch-like chart: visible, in flight, delayed and
// dead-letter counts (left axis) and the age of the oldest message (right
// axis) over virtual time. The run (run.js's Samples) takes the samples
// from snapshots at fixed steps as time advances, and a replay rebuilds
// them at the same steps; the chart only draws them.

import { h } from "../../ui/dom.js";
import { svg, svgText, niceTop } from "../../ui/svg.js";
import { secs, wallTick } from "../../text/format.js";

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

/** Each line's word in glossary.js, which explains it on hover. */
const TERM = { visible: "visible", inFlight: "in-flight", delayed: "delayed", dlq: "dlq", age: "age" };

export class Chart {
  constructor(host) {
    this.svg = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-labelledby": "chart-desc" });
    const title = svg("title", { id: "chart-desc" });
    title.textContent = "Queue metrics over virtual time; the current values are listed below the chart.";
    this.svg.append(title);
    this.grid = svg("g", { class: "grid" });
    this.svg.append(this.grid);
    this.lines = {};
    for (const [key] of SERIES) {
      this.lines[key] = svg("polyline", { class: `ln ln-${key}`, fill: "none", points: "" });
      this.svg.append(this.lines[key]);
    }
    this.now = svg("line", { class: "now", y1: M.t, y2: H - M.b, x1: M.l, x2: M.l });
    this.svg.append(this.now);
    this.values = {};
    const legend = h("ul", { class: "legend" });
    for (const [key, label] of SERIES) {
      const sw = svg("svg", { viewBox: "0 0 28 8", class: "sw", "aria-hidden": "true" });
      sw.append(svg("line", { x1: 1, y1: 4, x2: 27, y2: 4, class: `ln ln-${key}` }));
      this.values[key] = h("b", { text: "0" });
      legend.append(h("li", { "data-term": TERM[key] }, sw, ` ${label}: `, this.values[key]));
    }
    host.replaceChildren(h("div", { class: "chart-wrap" }, this.svg), legend);
    this.drawn = -1; // the samples' version last drawn
    this.scaleKey = "";
  }

  /**
   * Draws `samples` (run.js's Samples) with a "now" line at `now` and
   * `current`'s values in the legend; the time axis in UTC wall-clock time
   * from `epochMs` (a scenario's startEpochMs), else in seconds.
   */
  draw(now, current, samples, epochMs = null) {
    this.duration = samples.duration;
    this.samples = samples.list;
    const x = (t) => M.l + (t / this.duration) * (W - M.l - M.r);
    const nx = x(Math.min(now, this.duration)).toFixed(1);
    this.now.setAttribute("x1", nx);
    this.now.setAttribute("x2", nx);
    if (current) for (const [key] of SERIES) this.values[key].textContent = key === "age" ? current.age.toFixed(1) : String(current[key]);
    if (this.drawn === samples.version) return;
    this.drawn = samples.version;
    let maxC = 1;
    let maxA = 1;
    for (const m of this.samples) {
      maxC = Math.max(maxC, m.visible, m.inFlight, m.delayed, m.dlq);
      maxA = Math.max(maxA, m.age);
    }
    maxC = niceTop(maxC);
    maxA = niceTop(maxA);
    const key = `${maxC}|${maxA}|${this.duration}|${epochMs}`;
    if (key !== this.scaleKey) {
      this.scaleKey = key;
      this.axes(maxC, maxA, x, epochMs);
    }
    const yL = (v) => H - M.b - (v / maxC) * (H - M.t - M.b);
    const yR = (v) => H - M.b - (v / maxA) * (H - M.t - M.b);
    const pieces = this.piecesFor(key);
    for (const [k, , side] of SERIES) {
      const y = side === "left" ? yL : yR;
      const mine = pieces.lines[k];
      for (let i = mine.length; i < this.samples.length; i++) {
        const m = this.samples[i];
        const at = x(m.t).toFixed(1);
        // Counts are steps: hold the previous value until the next sample.
        const hold = i > 0 && side === "left" ? `${at},${y(this.samples[i - 1][k]).toFixed(1)} ` : "";
        mine.push(`${hold}${at},${y(m[k]).toFixed(1)} `);
      }
      const pts = mine.join("");
      if (this.lines[k].getAttribute("points") !== pts) this.lines[k].setAttribute("points", pts);
    }
    pieces.of = this.samples.slice();
  }

  /**
   * Each sample's piece of each line, kept while the scale (`key`) holds,
   * as far as the samples are the ones they were made from: a replay of
   * the same run hands over the same sample objects (run.js), so a drag
   * of the timeline makes only the pieces past what it drew before.
   */
  piecesFor(key) {
    let p = this.pieces;
    if (p?.key !== key) {
      p = this.pieces = { key, of: [], lines: Object.fromEntries(SERIES.map(([k]) => [k, []])) };
    }
    let same = 0;
    while (same < p.of.length && same < this.samples.length && p.of[same] === this.samples[same]) same++;
    for (const k in p.lines) p.lines[k].length = same;
    return p;
  }

  axes(maxC, maxA, x, epochMs) {
    this.grid.replaceChildren();
    const text = (x1, y1, str, anchor) => svgText(this.grid, x1, y1, str, anchor);
    for (const f of [0, 0.5, 1]) {
      const y = H - M.b - f * (H - M.t - M.b);
      this.grid.append(svg("line", { x1: M.l, x2: W - M.r, y1: y, y2: y, class: f ? "gl" : "axis" }));
      text(M.l - 6, y + 4, String(+(maxC * f).toFixed(1)), "end");
      text(W - M.r + 6, y + 4, `${+(maxA * f).toFixed(1)} s`, "start");
    }
    for (const f of [0, 0.25, 0.5, 0.75, 1]) {
      const t = Math.round(this.duration * f);
      const label = epochMs == null ? `${secs(t)} s` : `${wallTick(t, epochMs, this.duration)}${f === 1 ? " UTC" : ""}`;
      text(x(t), H - 6, label, f === 0 ? "start" : f === 1 ? "end" : "middle");
    }
  }
}

/** The metrics panel as a view (full view only). */
export const chart = {
  mount(root) {
    const host = root.getElementById("chart");
    if (!host) return null;
    const view = new Chart(host);
    return {
      update: (d) => view.draw(d.now, d.metrics, d.samples, d.scenario?.startEpochMs ?? null),
      destroy() {},
    };
  },
};
