// CloudWatch as the run computes it: one metric or alarm at a time, picked
// by the learner. A metric's line is its datapoints as the simulation
// keeps them (Playground.metrics: one per resolution step, drawn at the
// step's end, the mean of its samples); an alarm's line is what the alarm
// judged at the end of each period (its statistic, from the snapshot's
// alarm), its threshold a dashed line, and each change of state a mark
// from the alarm's history, with its reason. The page decides nothing
// CloudWatch decides: every value and state here is the engine's.

import { h } from "../../ui/dom.js";
import { svg, svgText, niceTop } from "../../ui/svg.js";
import { secs } from "../../text/format.js";

const W = 640;
const H = 200;
const M = { l: 44, r: 12, t: 12, b: 24 };
const STATE_CLASS = { OK: "ok", ALARM: "alarm", INSUFFICIENT_DATA: "insufficient" };

/** A metric's key: namespace, name and dimensions, as one string. */
const keyOf = (m) => `${m.namespace}|${m.metricName}|${Object.entries(m.dimensions).map(([k, v]) => `${k}=${v}`).join(",")}`;
/** A metric in words: "orders · NumberOfEmptyReceives". */
const nameOf = (m) => `${Object.values(m.dimensions).join(", ")} · ${m.metricName}`;
const number = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/\.?0+$/, ""));
const COMPARE = {
  GreaterThanOrEqualToThreshold: "≥",
  GreaterThanThreshold: ">",
  LessThanThreshold: "<",
  LessThanOrEqualToThreshold: "≤",
};

export class CloudWatchChart {
  constructor(host, playground) {
    this.playground = playground;
    this.pick = h("select", { id: "cw-pick" });
    this.pick.addEventListener("change", () => {
      this.chosen = this.pick.value;
      this.draw();
    });
    this.svg = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart cw-chart", role: "img", "aria-labelledby": "cw-desc" });
    this.desc = svg("title", { id: "cw-desc" });
    this.grid = svg("g", { class: "grid" });
    this.threshold = svg("line", { class: "cw-threshold" });
    this.line = svg("path", { class: "ln cw-line", fill: "none" });
    this.marks = svg("g", { class: "cw-marks" });
    this.now = svg("line", { class: "now", y1: M.t, y2: H - M.b });
    this.svg.append(this.desc, this.grid, this.threshold, this.line, this.marks, this.now);
    this.state = h("p", { class: "cw-state", "aria-live": "off" });
    host.replaceChildren(
      h("div", { class: "cw-head" }, h("label", { for: "cw-pick", text: "Plot " }), this.pick),
      h("div", { class: "chart-wrap" }, this.svg),
      this.state,
    );
    this.reset();
  }

  reset() {
    this.series = new Map(); // key → { metric, unit, points: [[t, statSet]] }
    this.from = 0; // the first step not read yet
    this.resolution = 60000;
    this.lastNow = 0;
    this.options = "";
    this.alarms = null;
    this.readStep = -1;
  }

  /** Reads the steps closed since the last read. */
  read() {
    const pg = this.playground();
    if (!pg) return;
    const got = pg.metrics(this.from);
    // The frame's snapshot is read again only when events happened; an
    // alarm judges a period without any, so its state is read here.
    this.alarms = pg.snapshot({ messagesPerQueue: 0, sideEffectsSince: Number.MAX_SAFE_INTEGER }).simulation.alarms;
    this.resolution = got.resolutionMs;
    for (const one of got.series) {
      const key = keyOf(one.metric);
      let mine = this.series.get(key);
      if (!mine) this.series.set(key, (mine = { metric: one.metric, unit: one.unit, points: [] }));
      for (const p of one.points) if (!mine.points.length || p[0] > mine.points[mine.points.length - 1][0]) mine.points.push(p);
      const last = one.points[one.points.length - 1];
      if (last) this.from = Math.max(this.from, last[0] + this.resolution);
    }
  }

  update(d) {
    if (d.started || d.fresh || d.rebuild || d.now < this.lastNow) this.reset();
    this.lastNow = d.now;
    this.d = d;
    if (d.changed) this.alarms = d.snap.simulation.alarms;
    // A step closes at most once per resolution: read once per step.
    const step = Math.floor(d.now / this.resolution);
    if (step !== this.readStep) {
      this.readStep = step;
      this.read();
    }
    this.choices(this.alarms ?? []);
    this.draw();
  }

  /** The picker's options: the alarms first, then every metric. */
  choices(alarms) {
    const list = [
      ...alarms.map((a) => [`alarm:${a.name}`, `Alarm “${a.name}” (${a.metric.metricName})`]),
      ...[...this.series.values()].map((m) => [`metric:${keyOf(m.metric)}`, nameOf(m.metric)]),
    ];
    const text = list.map(([v]) => v).join("\n");
    if (text === this.options) return;
    this.options = text;
    this.pick.replaceChildren(...list.map(([value, label]) => h("option", { value, text: label })));
    const visible = list.find(([v]) => v.startsWith("metric:AWS/SQS|ApproximateNumberOfMessagesVisible|"));
    if (!list.some(([v]) => v === this.chosen)) this.chosen = (list[0] && alarms.length ? list[0] : visible ?? list[0])?.[0];
    if (this.chosen) this.pick.value = this.chosen;
  }

  /** The line's points [t, value|null], the alarm (if one is picked) and words for the axis. */
  picked() {
    const alarms = this.alarms ?? [];
    if (this.chosen?.startsWith("alarm:")) {
      const alarm = alarms.find((a) => `alarm:${a.name}` === this.chosen);
      if (alarm) return { alarm, points: alarm.datapoints, unit: `${alarm.statistic} per ${alarm.periodSeconds} s` };
    }
    const m = this.series.get(this.chosen?.slice("metric:".length));
    if (!m) return { points: [], unit: "" };
    const res = this.resolution;
    return { points: m.points.map(([t, v]) => [t + res, v.sum / Math.max(1, v.sampleCount)]), unit: `${m.unit}, per ${res / 1000} s` };
  }

  draw() {
    const d = this.d;
    if (!d) return;
    const duration = Math.max(1, d.duration || d.now);
    const x = (t) => M.l + (Math.min(t, duration) / duration) * (W - M.l - M.r);
    const { alarm, points, unit } = this.picked();
    let top = alarm ? Math.abs(alarm.threshold) : 0;
    for (const [, v] of points) if (v != null) top = Math.max(top, v);
    // Headroom above the threshold, so its line is never the frame's edge.
    top = niceTop(top * 1.2);
    const y = (v) => H - M.b - (v / top) * (H - M.t - M.b);
    this.axes(top, duration, x, unit);
    // Each datapoint holds for its step or period: a step line, broken
    // where a datapoint is missing.
    const span = alarm ? alarm.periodSeconds * 1000 : this.resolution;
    let path = "";
    let drawn = 0;
    let end = null;
    for (const [t, v] of points) {
      if (v == null) continue;
      const [x0, x1, yv] = [x(t - span).toFixed(1), x(t).toFixed(1), y(v).toFixed(1)];
      path += `${end === t - span ? "L" : "M"}${x0},${yv} L${x1},${yv} `;
      end = t;
      drawn++;
    }
    this.line.dataset.points = String(drawn);
    this.line.setAttribute("d", path.trim());
    const nx = x(d.now).toFixed(1);
    this.now.setAttribute("x1", nx);
    this.now.setAttribute("x2", nx);
    this.marks.replaceChildren();
    this.threshold.toggleAttribute("visibility", false);
    if (!alarm) {
      this.threshold.setAttribute("visibility", "hidden");
      this.desc.textContent = `CloudWatch metric ${this.chosen ?? ""} over virtual time.`;
      const last = points[points.length - 1];
      this.state.textContent = last ? `Latest datapoint: ${number(last[1])} (${unit}), for the step ending at t=${secs(last[0])} s.` : "No datapoint yet: the first step has not ended.";
      this.state.className = "cw-state";
      return;
    }
    const ty = y(alarm.threshold).toFixed(1);
    for (const [k, v] of Object.entries({ x1: M.l, x2: W - M.r, y1: ty, y2: ty })) this.threshold.setAttribute(k, v);
    this.threshold.removeAttribute("visibility");
    for (const change of alarm.history) {
      const mark = svg("circle", { cx: x(change.atMs).toFixed(1), cy: M.t + 4, r: 5, class: `cw-mark ${STATE_CLASS[change.to]}`, "data-at": change.atMs, "data-to": change.to });
      const title = svg("title");
      title.textContent = `t=${secs(change.atMs)} s: ${change.from} → ${change.to}: ${change.reason}`;
      mark.append(title);
      this.marks.append(mark);
    }
    this.desc.textContent = `Alarm ${alarm.name}: ${alarm.statistic} of ${alarm.metric.metricName} per ${alarm.periodSeconds} s, threshold ${COMPARE[alarm.comparisonOperator]} ${number(alarm.threshold)}.`;
    const n = alarm.evaluationPeriods;
    const rule = `it goes to ALARM when ${alarm.datapointsToAlarm} of the latest ${n === 1 ? "period is" : `${n} periods are`} ${COMPARE[alarm.comparisonOperator]} ${number(alarm.threshold)}`;
    this.state.textContent = `${alarm.name}: ${alarm.state}. Why: ${alarm.reason}; ${rule}.`;
    this.state.className = `cw-state ${STATE_CLASS[alarm.state]}`;
  }

  axes(top, duration, x, unit) {
    const key = `${top}|${duration}|${unit}`;
    if (key === this.axesKey) return;
    this.axesKey = key;
    this.grid.replaceChildren();
    const text = (x1, y1, str, anchor) => svgText(this.grid, x1, y1, str, anchor);
    for (const f of [0, 0.5, 1]) {
      const y = H - M.b - f * (H - M.t - M.b);
      this.grid.append(svg("line", { x1: M.l, x2: W - M.r, y1: y, y2: y, class: f ? "gl" : "axis" }));
      text(M.l - 6, y + 4, number(top * f), "end");
    }
    for (const f of [0, 0.5, 1]) text(x(duration * f), H - 6, `${secs(Math.round(duration * f))} s`, f === 0 ? "start" : f === 1 ? "end" : "middle");
    text(M.l + 4, M.t + 20, unit, "start");
  }
}

/** The CloudWatch panel as a view (full view only). */
export const cloudwatch = {
  mount(root, lab) {
    const host = root.getElementById("cloudwatch");
    if (!host) return null;
    const view = new CloudWatchChart(host, () => lab.playground());
    return { update: (d) => view.update(d), destroy() {} };
  },
};
