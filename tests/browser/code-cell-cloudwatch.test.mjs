// The code cell's CloudWatch: PutMetricAlarm, PutMetricData and
// DescribeAlarms from the cell (as @aws-sdk/client-cloudwatch code reads),
// the custom metric in the CloudWatch panel's picker, the alarm's change
// of state in the log, and a scrub that replays the calls.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, runToEnd, scrubTo } from "./harness.mjs";

test("the code cell puts a metric and an alarm on it, and DescribeAlarms shows the alarm in ALARM", async () => {
  const code = [
    `import { CloudWatchClient, PutMetricAlarmCommand, PutMetricDataCommand } from "@aws-sdk/client-cloudwatch";`,
    `const client = new CloudWatchClient({ region: "us-east-1" });`,
    `await client.send(new PutMetricAlarmCommand({ AlarmName: "slow-code", Namespace: "MyApp", MetricName: "Latency",`,
    `  Statistic: "Maximum", Period: 1, EvaluationPeriods: 1, Threshold: 100, ComparisonOperator: "GreaterThanThreshold" }));`,
    `await client.send(new PutMetricDataCommand({ Namespace: "MyApp", MetricData: [{ MetricName: "Latency", Value: 250, Unit: "Milliseconds" }] }));`,
    `await sleep(1500);`,
    `const { MetricAlarms } = await cloudwatch.describeAlarms({ AlarmNames: ["slow-code"] });`,
    `console.log("state", MetricAlarms[0].StateValue, MetricAlarms[0].StateUpdatedTimestamp instanceof Date);`,
  ].join("\n");
  const { page, problems, close } = await open("index.html?scenario=05-poison-message&speed=max&checkpoints=off");
  try {
    await page.locator("#code-text").fill(code);
    await scrubTo(page, 2000);
    await page.locator("#code-run").click();
    await page.waitForSelector("#code-status:text('Finished')");
    assert.match(await page.locator("#code-out").textContent(), /state ALARM true/);
    await runToEnd(page);
    const changes = () => page.locator("#log li[data-type='alarmChanged']").filter({ hasText: "slow-code" }).count();
    assert.ok((await changes()) >= 1, "the log tells of the alarm's change");
    const options = await page.locator("#cloudwatch option").evaluateAll((os) => os.map((o) => o.value));
    assert.ok(options.some((o) => o.includes("Latency")), `the custom metric is in the panel's picker: ${options}`);
    assert.ok(options.some((o) => o.includes("slow-code")), "and the alarm");
    await scrubTo(page, 1000);
    assert.equal(await changes(), 0);
    await scrubTo(page, 12_000);
    assert.ok((await changes()) >= 1, "the replay made the calls again");
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
