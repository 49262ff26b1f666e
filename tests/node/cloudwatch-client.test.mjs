// The built-in CloudWatchClient (web/client/cloudwatch-client.js) against
// the wasm build: custom metrics put and listed, an alarm on them judged
// as the run judges its own, DescribeAlarms in CloudWatch's members with
// Dates, and CloudWatch's errors by the SDK's names.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Playground } from "./load.mjs";
import { CloudWatchClient, PutMetricDataCommand, PutMetricAlarmCommand, OPERATIONS } from "../../web/client/cloudwatch-client.js";

const alarm = {
  AlarmName: "slow-orders", Namespace: "OrderProcessing", MetricName: "ProcessingTime", Statistic: "Average",
  Period: 60, EvaluationPeriods: 1, Threshold: 1000, ComparisonOperator: "GreaterThanThreshold",
};

test("the client answers the five operations the run's CloudWatch answers", () => {
  assert.deepEqual([...OPERATIONS], ["DeleteAlarms", "DescribeAlarms", "ListMetrics", "PutMetricAlarm", "PutMetricData"]);
});

test("a custom metric over its alarm's threshold puts the alarm in ALARM, as DescribeAlarms says", async () => {
  const pg = new Playground({ seed: 1 });
  const cloudwatch = new CloudWatchClient(pg);
  await cloudwatch.send(new PutMetricAlarmCommand(alarm));
  await cloudwatch.send(new PutMetricDataCommand({ Namespace: "OrderProcessing",
    MetricData: [{ MetricName: "ProcessingTime", Value: 2500, Unit: "Milliseconds" }] }));
  pg.advance(60_000);
  const { MetricAlarms, $metadata } = await cloudwatch.describeAlarms({ AlarmNames: ["slow-orders"] });
  assert.equal($metadata.httpStatusCode, 200);
  assert.equal(MetricAlarms.length, 1);
  const a = MetricAlarms[0];
  assert.equal(a.StateValue, "ALARM");
  assert.equal(a.AlarmArn, "arn:aws:cloudwatch:us-east-1:000000000000:alarm:slow-orders");
  assert.ok(a.StateUpdatedTimestamp instanceof Date, "timestamps come back as Dates, as from the SDK");
  assert.equal(a.StateUpdatedTimestamp.getTime(), Date.UTC(2024, 0, 1, 0, 1), "the end of the period that changed it");
  const { Metrics } = await cloudwatch.listMetrics({ Namespace: "OrderProcessing" });
  assert.deepEqual(Metrics, [{ Namespace: "OrderProcessing", MetricName: "ProcessingTime", Dimensions: [] }]);
  const series = pg.metrics(0).series.find((s) => s.metric.namespace === "OrderProcessing");
  assert.equal(series.unit, "Milliseconds", "the custom metric is among the run's metrics the page draws");
  await cloudwatch.deleteAlarms({ AlarmNames: ["slow-orders"] });
  assert.deepEqual((await cloudwatch.describeAlarms({})).MetricAlarms, []);
});

test("a Date timestamp is sent as CloudWatch's JSON protocol carries it", async () => {
  const pg = new Playground({ seed: 1, startEpochMs: Date.UTC(2025, 0, 1) });
  pg.advance(120_000);
  const cloudwatch = new CloudWatchClient(pg);
  await cloudwatch.putMetricData({ Namespace: "App",
    MetricData: [{ MetricName: "Latency", Value: 3, Timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, 30)) }] });
  const series = pg.metrics(0).series.find((s) => s.metric.metricName === "Latency");
  assert.equal(series.points[0][0], 0, "30 s after the start is the first minute's datapoint");
});

test("CloudWatch's errors arrive named as @aws-sdk/client-cloudwatch names them", async () => {
  const cloudwatch = new CloudWatchClient(new Playground({ seed: 1 }));
  await assert.rejects(cloudwatch.putMetricData({ Namespace: "AWS/SQS", MetricData: [{ MetricName: "X", Value: 1 }] }), (e) => {
    assert.equal(e.name, "InvalidParameterValueException");
    assert.equal(e.Code, "InvalidParameterValue");
    assert.equal(e.$fault, "client");
    assert.equal(e.$metadata.httpStatusCode, 400);
    assert.match(e.message, /reserved/);
    return true;
  });
  await assert.rejects(cloudwatch.putMetricAlarm({ ...alarm, Threshold: undefined }),
    (e) => e.name === "MissingRequiredParameterException" && e.Code === "MissingParameter");
  await assert.rejects(cloudwatch.deleteAlarms({ AlarmNames: ["nope"] }),
    (e) => e.name === "ResourceNotFound" && e.$metadata.httpStatusCode === 404);
  await assert.rejects(cloudwatch.describeAlarms({ AlarmNames: ["a"], AlarmNamePrefix: "a" }),
    (e) => e.name === "InvalidParameterCombinationException");
});

test("a command of another client is refused naming the commands it takes", async () => {
  const cloudwatch = new CloudWatchClient(new Playground({ seed: 1 }));
  await assert.rejects(cloudwatch.send({ input: {} }), /CloudWatchClient\.send takes a command from cloudwatch-client\.js/);
});
