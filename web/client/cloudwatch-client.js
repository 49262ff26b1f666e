// A small CloudWatch client with the AWS SDK v3's command names and shapes,
// for the code cell and pages that do not load the SDK: custom metrics and
// alarms on them, against the run's engine.
//
//   const cloudwatch = new CloudWatchClient(playground);
//   await cloudwatch.putMetricData({ Namespace: "OrderProcessing",
//     MetricData: [{ MetricName: "ProcessingTime", Value: 120, Unit: "Milliseconds" }] });
//   await cloudwatch.send(new PutMetricAlarmCommand({ AlarmName: "slow", Namespace: "OrderProcessing",
//     MetricName: "ProcessingTime", Statistic: "Average", Period: 60, EvaluationPeriods: 1,
//     Threshold: 1000, ComparisonOperator: "GreaterThanThreshold" }));
//   const { MetricAlarms } = await cloudwatch.describeAlarms({ AlarmNames: ["slow"] });
//
// It only carries requests, on CloudWatch's own JSON 1.0 protocol (target
// `GraniteServiceVersion20100801.<Operation>`): every rule is the run's
// CloudWatch's, which answers with CloudWatch's error codes. As in the
// SDK, a Date is sent as a time and the answers' timestamps come back as
// Dates; leave a datum's Timestamp out to put it at the run's virtual now.
// Plain ES module, no dependencies.

import { commands } from "./cloudwatch-commands.js";
import { AwsError, ServiceClient, addMethods } from "./service-client.js";

export * from "./cloudwatch-commands.js";

/** A CloudWatch error answer, named as @aws-sdk/client-cloudwatch names it (InvalidParameterValueException, Code "InvalidParameterValue"). */
export class CloudWatchError extends AwsError {
  static fromResponse(res, data, $metadata) {
    return new CloudWatchError(AwsError.fields(res, data, $metadata, (shape) => shape));
  }
}

const CLOUDWATCH = {
  name: "CloudWatchClient",
  module: "cloudwatch-client.js",
  sdk: "@aws-sdk/client-cloudwatch",
  sdkClient: "CloudWatchClient",
  example: "new PutMetricDataCommand({ Namespace, MetricData })",
  prefix: "GraniteServiceVersion20100801.",
  commands,
  error: CloudWatchError.fromResponse,
  /**
   * The JSON protocol's timestamps are seconds since the epoch (JSON.stringify
   * calls this with the holder as `this`, before a Date's own toJSON).
   * @this {Record<string, unknown>} @param {string} key @param {unknown} value
   */
  replacer(key, value) {
    const raw = this[key];
    return raw instanceof Date ? raw.getTime() / 1000 : value;
  },
  reviver: (key, value) => (key.endsWith("Timestamp") && typeof value === "number" ? new Date(value * 1000) : value),
};

export class CloudWatchClient extends ServiceClient {
  /**
   * @param {object | (() => object)} target a Playground, any object with
   *   `dispatch(target, body, options)`, or a function returning one.
   * @param {{ caller?: string, principal?: string }} [options] `caller`:
   *   who the event log names; `principal`: who calls (the run's
   *   CloudWatch takes calls from its own account only).
   */
  constructor(target, options = {}) {
    super(target, options, CLOUDWATCH);
  }
}

addMethods(CloudWatchClient, commands);
