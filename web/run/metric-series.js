// The run's CloudWatch metrics as the simulation keeps them
// (Playground.metrics: one datapoint per resolution step, by the step's
// start), read a step at a time and kept by metric, for the views that
// plot them (the CloudWatch panel, a Lambda card's concurrency line). The
// page computes no metric: each value is a datapoint the run published.

/** A metric's key: namespace, name and dimensions, as one string. */
export const keyOf = (m) => `${m.namespace}|${m.metricName}|${Object.entries(m.dimensions).map(([k, v]) => `${k}=${v}`).join(",")}`;

/** A datapoint's value as the panel draws it: the average of its samples. */
export const average = (v) => v.sum / Math.max(1, v.sampleCount);

export class MetricSeries {
  /** @param {() => any} playground the engine running now (a new one after every replay) */
  constructor(playground) {
    this.playground = playground;
    this.reset();
  }

  reset() {
    this.series = new Map(); // key → { metric, unit, points: [[stepStart, statSet]] }
    this.from = 0; // the first step not read yet
    this.resolution = 60000;
    this.readStep = -1;
    this.lastNow = 0;
    this.version = 0; // grows when a point comes
  }

  /**
   * Reads the steps closed by `now`, at most once a step (a step closes
   * once per resolution); a new run, a replay or a scrub back starts over.
   * Returns whether it read.
   */
  update(d) {
    if (d.started || d.fresh || d.rebuild || d.now < this.lastNow) this.reset();
    this.lastNow = d.now;
    const step = Math.floor(d.now / this.resolution);
    if (step === this.readStep) return false;
    this.readStep = step;
    this.read();
    return true;
  }

  read() {
    const pg = this.playground();
    if (!pg) return;
    const got = pg.metrics(this.from);
    this.resolution = got.resolutionMs;
    for (const one of got.series) {
      const key = keyOf(one.metric);
      let mine = this.series.get(key);
      if (!mine) this.series.set(key, (mine = { metric: one.metric, unit: one.unit, points: [] }));
      for (const p of one.points) {
        if (mine.points.length && p[0] <= mine.points[mine.points.length - 1][0]) continue;
        mine.points.push(p);
        this.version++;
      }
      const last = one.points[one.points.length - 1];
      if (last) this.from = Math.max(this.from, last[0] + this.resolution);
    }
  }

  /** Every series of one metric name in `namespace`, by its dimensions' order. */
  named(namespace, metricName) {
    return [...this.series.values()].filter((s) => s.metric.namespace === namespace && s.metric.metricName === metricName);
  }
}
