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
      segments: Number(panel.querySelector(".cw-line").dataset.points),
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
