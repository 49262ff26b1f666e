// CloudWatch as the run computes it: one metric, one metric of every
// queue (or function) on one picture, or one alarm at a time, picked by the
// learner. A metric's line is its datapoints as the simulation keeps them
// (run/metric-series.js: one per resolution step, drawn at the step's end, the
// mean of its samples); an alarm's line is what the alarm judged at the end
// of each period (its statistic, from the snapshot's alarm), its threshold
// a dashed line, and each change of state a mark from the alarm's history,
// with its reason. The page decides nothing CloudWatch decides: every value
// and state here is the engine's.

import { h } from "../../ui/dom.js";
import { svg, svgText, niceTop, stepLine } from "../../ui/svg.js";
import { secs } from "../../text/format.js";
import { MetricSeries, average, keyOf } from "../../run/metric-series.js";

const W = 640;
const H = 200;
const M = { l: 44, r: 12, t: 12, b: 24 };
const STATE_CLASS = { OK: "ok", ALARM: "alarm", INSUFFICIENT_DATA: "insufficient" };
/** Lines one picture draws at most (each its own colour and dash, in styles.css). */
const MAX_LINES = 6;

/** A metric in words: "orders · NumberOfEmptyReceives". */
const nameOf = (m) => `${Object.values(m.dimensions).join(", ")} · ${m.metricName}`;
const number = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/\.?0+$/, ""));
const COMPARE = {
  GreaterThanOrEqualToThreshold: "≥",
  GreaterThanThreshold: ">",
  LessThanThreshold: "<",
  LessThanOrEqualToThreshold: "≤",
};
/** What one line of every series of a name is of: the dimension SQS's and Lambda's metrics have. */
const EVERY = { "AWS/SQS": "every queue", "AWS/Lambda": "every function" };

export class CloudWatchChart {
  /** @param {() => any} playground @param {() => any} scenario */
  constructor(host, playground, scenario = () => null) {
    this.playground = playground;
    this.scenario = scenario;
    this.metrics = new MetricSeries(playground);
    this.pick = h("select", { id: "cw-pick" });
    this.pick.addEventListener("change", () => {
      this.chosen = this.pick.value;
      this.draw();
    });
    this.svg = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart cw-chart", role: "img", "aria-labelledby": "cw-desc" });
    this.desc = svg("title", { id: "cw-desc" });
    this.grid = svg("g", { class: "grid" });
    this.threshold = svg("line", { class: "cw-threshold" });
    this.lines = svg("g", { class: "cw-lines" });
    this.marks = svg("g", { class: "cw-marks" });
    this.now = svg("line", { class: "now", y1: M.t, y2: H - M.b });
    this.svg.append(this.desc, this.grid, this.threshold, this.lines, this.marks, this.now);
    this.legend = h("ul", { class: "legend cw-legend" });
    this.state = h("p", { class: "cw-state", "aria-live": "off" });
    host.replaceChildren(
      h("div", { class: "cw-head" }, h("label", { for: "cw-pick", text: "Plot " }), this.pick),
      h("div", { class: "chart-wrap" }, this.svg),
      this.legend,
      this.state,
    );
    this.options = null; // the options' values as drawn (null: none drawn yet)
    this.alarms = null;
  }

  update(d) {
    this.d = d;
    if (d.started || d.fresh || d.rebuild) this.options = null;
    if (d.changed) this.alarms = d.snap.simulation.alarms;
    // The frame's snapshot is read again only when events happened; an
    // alarm judges a period without any, so its state is read with the steps.
    if (this.metrics.update(d)) this.alarms = this.playground()?.snapshot({ messagesPerQueue: 0, sideEffectsSince: Number.MAX_SAFE_INTEGER }).simulation.alarms ?? this.alarms;
    this.choices(this.alarms ?? []);
    this.draw();
  }

  /**
   * The picker's options: the alarms, each metric name SQS or Lambda
   * publishes for more than one queue or function (all of them on one
   * picture), then every metric. It opens on the scenario's
   * `metrics.plot` (every queue's line of it), else the first alarm, else
   * the queues' visible messages.
   */
  choices(alarms) {
    const series = [...this.metrics.series.values()];
    const names = new Map(); // "namespace|name" → how many queues or functions publish it
    for (const { metric } of series) {
      if (!EVERY[metric.namespace]) continue;
      const key = `${metric.namespace}|${metric.metricName}`;
      names.set(key, (names.get(key) ?? 0) + 1);
    }
    const groups = [
      ["Alarms", alarms.map((a) => [`alarm:${a.name}`, `Alarm “${a.name}” (${a.metric.metricName})`])],
      ["Every queue or function", [...names].filter(([, n]) => n > 1).map(([k]) => [`every:${k}`, `${k.split("|")[1]} · ${EVERY[k.split("|")[0]]}`])],
      ["One metric", series.map((m) => [`metric:${keyOf(m.metric)}`, nameOf(m.metric)])],
    ].filter(([, options]) => options.length);
    const list = groups.flatMap(([, options]) => options);
    const text = list.map(([v]) => v).join("\n");
    if (text === this.options) return;
    this.options = text;
    if (!list.length) {
      this.pick.replaceChildren(h("option", { value: "", text: "no datapoint yet" }));
      this.pick.disabled = true;
      return;
    }
    this.pick.disabled = false;
    const option = ([value, label]) => h("option", { value, text: label });
    this.pick.replaceChildren(...(groups.length > 1 ? groups.map(([label, options]) => h("optgroup", { label }, ...options.map(option))) : list.map(option)));
    if (!list.some(([v]) => v === this.chosen)) this.chosen = this.opening(list, alarms);
    if (this.chosen) this.pick.value = this.chosen;
  }

  /** The option the panel opens on (see choices). */
  opening(list, alarms) {
    const plot = this.scenario()?.metrics?.plot;
    const has = (prefix) => list.find(([v]) => v.startsWith(prefix))?.[0];
    if (plot) {
      const wanted = has(`every:AWS/SQS|${plot}`) ?? has(`every:AWS/Lambda|${plot}`) ?? has(`metric:AWS/SQS|${plot}|`) ?? has(`metric:AWS/Lambda|${plot}|`);
      if (wanted) return wanted;
    }
    if (alarms.length) return list[0][0];
    return has("metric:AWS/SQS|ApproximateNumberOfMessagesVisible|") ?? list[0][0];
  }

  /** The lines ({ label, points: [t, value|null] }), the alarm (if one is picked) and words for the axis. */
  picked() {
    const alarms = this.alarms ?? [];
    const res = this.metrics.resolution;
    const line = (s, label) => ({ label, points: s.points.map(([t, v]) => [t + res, average(v)]) });
    const perStep = (unit) => `${unit}, per ${res / 1000} s`;
    if (this.chosen?.startsWith("alarm:")) {
      const alarm = alarms.find((a) => `alarm:${a.name}` === this.chosen);
      if (alarm) return { alarm, lines: [{ label: alarm.metric.metricName, points: alarm.datapoints }], unit: `${alarm.statistic} per ${alarm.periodSeconds} s` };
    }
    if (this.chosen?.startsWith("every:")) {
      const [namespace, name] = this.chosen.slice("every:".length).split("|");
      const all = this.metrics.named(namespace, name).slice(0, MAX_LINES);
      return { lines: all.map((s) => line(s, Object.values(s.metric.dimensions).join(", "))), unit: all[0] ? perStep(all[0].unit) : "", name };
    }
    const m = this.metrics.series.get(this.chosen?.slice("metric:".length));
    if (!m) return { lines: [], unit: "" };
    return { lines: [line(m, nameOf(m.metric))], unit: perStep(m.unit) };
  }

  draw() {
    const d = this.d;
    if (!d) return;
    const duration = Math.max(1, d.duration || d.now);
    const x = (t) => M.l + (Math.min(t, duration) / duration) * (W - M.l - M.r);
    const { alarm, lines, unit, name } = this.picked();
    let top = alarm ? Math.abs(alarm.threshold) : 0;
    for (const l of lines) for (const [, v] of l.points) if (v != null) top = Math.max(top, v);
    // Headroom above the threshold, so its line is never the frame's edge.
    top = niceTop(top * 1.2);
    const y = (v) => H - M.b - (v / top) * (H - M.t - M.b);
    this.axes(top, duration, x, unit);
    const span = alarm ? alarm.periodSeconds * 1000 : this.metrics.resolution;
    this.lines.replaceChildren(...lines.map((l, i) => stepLine(l.points, span, x, y, `ln cw-line cw-s${i}`)));
    const nx = x(d.now).toFixed(1);
    this.now.setAttribute("x1", nx);
    this.now.setAttribute("x2", nx);
    this.marks.replaceChildren();
    this.legendFor(lines.length > 1 ? lines : []);
    if (!alarm) {
      this.threshold.setAttribute("visibility", "hidden");
      this.desc.textContent = `CloudWatch metric ${name ?? this.chosen ?? ""} over virtual time.`;
      this.state.textContent = this.latest(lines, unit, duration);
      this.state.className = "cw-state";
      return;
    }
    this.drawAlarm(alarm, x, y);
  }

  /** The state line of metrics: the latest datapoint of each line, or why there is none. */
  latest(lines, unit, duration) {
    const res = this.metrics.resolution;
    const ends = lines.map((l) => l.points[l.points.length - 1]).filter(Boolean);
    if (!ends.length) {
      if (duration < res) return `No datapoint: this run lasts ${secs(duration)} s, less than one ${res / 1000} s step, and CloudWatch gives a datapoint for each step that ends (a scenario's metrics.resolutionSeconds sets a finer step).`;
      return `No datapoint yet: the first ${res / 1000} s step ends at t=${secs(res)} s.`;
    }
    const at = Math.max(...ends.map(([t]) => t));
    if (lines.length === 1) return `Latest datapoint: ${number(ends[0][1])} (${unit}), for the step ending at t=${secs(ends[0][0])} s.`;
    const each = lines.map((l) => {
      const last = l.points[l.points.length - 1];
      return `${l.label} ${last && last[0] === at ? number(last[1]) : "no datapoint"}`;
    });
    return `Latest datapoints (${unit}), for the step ending at t=${secs(at)} s: ${each.join("; ")}.`;
  }

  /** A legend when the picture has more than one line: each line's swatch and name. */
  legendFor(lines) {
    const key = lines.map((l) => l.label).join("\n");
    if (key === this.legendKey) return;
    this.legendKey = key;
    this.legend.hidden = lines.length === 0;
    this.legend.replaceChildren(...lines.map((l, i) => {
      const sw = svg("svg", { viewBox: "0 0 28 8", class: "sw", "aria-hidden": "true" });
      sw.append(svg("line", { x1: 1, y1: 4, x2: 27, y2: 4, class: `ln cw-line cw-s${i}` }));
      return h("li", null, sw, ` ${l.label}`);
    }));
  }

  /** An alarm's threshold line, its changes of state as marks, and its state in words. */
  drawAlarm(alarm, x, y) {
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
    const view = new CloudWatchChart(host, () => lab.playground(), () => lab.scenario());
    return { update: (d) => view.update(d), destroy() {} };
  },
};

