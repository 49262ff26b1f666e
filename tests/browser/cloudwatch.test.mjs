// The CloudWatch panel: an alarm picked in it draws what the alarm judged
// each period, its threshold and a mark for each change of state, all as
// the engine's snapshot says, at the run's end and after scrubbing back;
// a metric picked draws one point per datapoint the simulation kept.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, runToEnd, scrubTo } from "./harness.mjs";

/** What the panel draws, and the engine's alarms and metrics in that page. */
function capture(page) {
  return page.evaluate(() => {
    const pg = document.getElementById("lab").playground;
    const panel = document.getElementById("cloudwatch");
    const threshold = panel.querySelector(".cw-threshold");
    return {
      alarms: pg.snapshot({ messagesPerQueue: 0 }).simulation.alarms,
      metrics: pg.metrics(0),
      picked: panel.querySelector("select").value,
      options: [...panel.querySelectorAll("option")].map((o) => o.value),
      marks: [...panel.querySelectorAll(".cw-mark")].map((m) => ({ at: Number(m.dataset.at), to: m.dataset.to, title: m.textContent })),
      segments: Number(panel.querySelector(".cw-lines .cw-line").dataset.points),
      threshold: threshold.getAttribute("visibility") !== "hidden",
      state: panel.querySelector(".cw-state").textContent,
    };
  });
}

test("an alarm's line, threshold and state marks on the CloudWatch panel are the engine's", async () => {
  const { page, problems, close } = await open("?scenario=05-poison-message&speed=max&checkpoints=off");
  try {
    await page.click("#play");
    await runToEnd(page);
    let seen = await capture(page);
    const alarm = seen.alarms[0];
    assert.equal(seen.picked, `alarm:${alarm.name}`, "the panel opens on the scenario's alarm");
    assert.ok(seen.threshold, "its threshold is drawn");
    assert.deepEqual(
      seen.marks.map((m) => [m.at, m.to]),
      alarm.history.map((h) => [h.atMs, h.to]),
      "a mark for each change of state, at its moment",
    );
    assert.ok(seen.marks.every((m, i) => m.title.includes(alarm.history[i].reason)), "each mark says why");
    assert.equal(seen.segments, alarm.datapoints.filter(([, v]) => v != null).length, "one point per period judged");
    assert.ok(seen.state.startsWith(`${alarm.name}: ${alarm.state}. Why: ${alarm.reason};`), seen.state);
    assert.ok(alarm.history.some((h) => h.to === "ALARM"), "the DLQ alarm fired in this run");

    // Back before the alarm fired: the marks are the history up to then.
    const fired = alarm.history.find((h) => h.to === "ALARM").atMs;
    await scrubTo(page, fired - 1000);
    seen = await capture(page);
    assert.deepEqual(seen.marks.map((m) => m.to), seen.alarms[0].history.map((h) => h.to));
    assert.ok(!seen.marks.some((m) => m.to === "ALARM"), "no ALARM mark before it fired");

    // A metric: one point per datapoint the simulation kept.
    const option = seen.options.find((o) => o.includes("NumberOfEmptyReceives") && o.includes("QueueName=orders") && !o.includes("dlq"));
    await page.selectOption("#cw-pick", option);
    seen = await capture(page);
    const series = seen.metrics.series.find((s) => s.metric.metricName === "NumberOfEmptyReceives" && s.metric.dimensions.QueueName === "orders");
    assert.equal(seen.segments, series.points.length);
    assert.ok(!seen.threshold, "a metric without an alarm has no threshold line");
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test("scenario 8's panel opens on NumberOfEmptyReceives of both queues, each line the engine's datapoints", async () => {
  const { page, problems, close } = await open("?scenario=08-long-vs-short-polling&speed=max&checkpoints=off");
  try {
    await page.click("#play");
    await runToEnd(page);
    const seen = await page.evaluate(() => {
      const panel = document.getElementById("cloudwatch");
      return {
        metrics: document.getElementById("lab").playground.metrics(0),
        picked: panel.querySelector("select").value,
        lines: [...panel.querySelectorAll(".cw-lines .cw-line")].map((l) => Number(l.dataset.points)),
        legend: [...panel.querySelectorAll(".cw-legend li")].map((li) => li.textContent.trim()),
        state: panel.querySelector(".cw-state").textContent,
      };
    });
    assert.equal(seen.picked, "every:AWS/SQS|NumberOfEmptyReceives", "the scenario's metrics.plot");
    const empties = seen.metrics.series.filter((s) => s.metric.metricName === "NumberOfEmptyReceives");
    const queues = empties.map((s) => s.metric.dimensions.QueueName);
    assert.deepEqual([...queues].sort(), ["long-polled", "short-polled"]);
    assert.deepEqual(seen.legend, queues, "a legend line for each queue");
    assert.deepEqual(seen.lines, empties.map((s) => s.points.length), "one step per datapoint, on each line");
    const latest = empties.map((s) => `${s.metric.dimensions.QueueName} ${s.points.at(-1)[1].sum}`);
    assert.ok(seen.state.endsWith(`: ${latest.join("; ")}.`), `${seen.state} / ${latest}`);
    const total = (q) => empties.find((s) => s.metric.dimensions.QueueName === q).points.reduce((n, [, v]) => n + v.sum, 0);
    assert.ok(total("short-polled") > 3 * total("long-polled"), "the short poller's empty receives dwarf the long poller's");
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test("a run shorter than one metrics step says why the panel has no datapoint", async () => {
  const scenario = {
    title: "Short", seed: 1, durationMs: 15_000,
    queues: [{ name: "orders" }],
    producers: [{ name: "shop", queue: "orders", sends: [{ atMs: 1000, body: "order 1" }] }],
  };
  const { page, problems, close } = await open("?scenario=process-then-delete&speed=max", {
    routes: { "scenarios/01-process-then-delete.json": JSON.stringify(scenario) },
  });
  try {
    await page.click("#play");
    await runToEnd(page);
    assert.equal(await page.locator("#cw-pick").isDisabled(), true);
    assert.equal(await page.locator("#cw-pick option").textContent(), "no datapoint yet");
    assert.match(await page.locator("#cloudwatch .cw-state").textContent(), /^No datapoint: this run lasts 15\.0 s, less than one 60 s step, and CloudWatch gives a datapoint for each step that ends/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test("a Lambda card's concurrency line is the function's ConcurrentExecutions, up to MaximumConcurrency", async () => {
  const { page, problems, close } = await open("?scenario=22-lambda-scaling&speed=max&checkpoints=off");
  try {
    await page.click("#play");
    await runToEnd(page);
    const seen = await page.evaluate(() => {
      const fig = document.querySelector('#lambda-cards [data-function="process-orders"] .l-spark');
      const series = document.getElementById("lab").playground.metrics(0).series.find((s) => s.metric.metricName === "ConcurrentExecutions");
      return { points: Number(fig.dataset.points), peak: Number(fig.dataset.peak), caption: fig.textContent, cap: fig.querySelectorAll(".l-spark-cap").length, series };
    });
    assert.equal(seen.points, seen.series.points.length);
    assert.equal(seen.peak, Math.max(...seen.series.points.map(([, v]) => v.maximum)));
    assert.equal(seen.peak, 10, "the scaling reached MaximumConcurrency");
    assert.equal(seen.cap, 1, "MaximumConcurrency is drawn");
    assert.match(seen.caption, /peak 10 of MaximumConcurrency 10/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
