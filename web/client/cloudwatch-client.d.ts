// Types for cloudwatch-client.js: a small CloudWatch client with the AWS
// SDK v3's command names. Member names follow @aws-sdk/client-cloudwatch.

// The command classes, `commands`, `OPERATIONS`, `OperationName` and the
// client's camelCase methods are generated from the simulation's list of
// CloudWatch operations (cloudwatch-commands.d.ts); each operation's Input
// and Output are here.
export * from "./cloudwatch-commands.js";
import type { CloudWatchClientMethods } from "./cloudwatch-commands.js";
import type { AwsError, ServiceClient } from "./service-client.js";
import type { SqsEndpoint, DispatchWho, ResponseMetadata, EmptyOutput } from "./sqs-client.js";
export type { MetadataBearer } from "./sqs-client.js";

export interface Dimension { Name: string; Value: string }
export type StandardUnit =
  | "Seconds" | "Microseconds" | "Milliseconds" | "Bytes" | "Kilobytes" | "Megabytes" | "Gigabytes"
  | "Terabytes" | "Bits" | "Kilobits" | "Megabits" | "Gigabits" | "Terabits" | "Percent" | "Count"
  | "Bytes/Second" | "Kilobytes/Second" | "Megabytes/Second" | "Gigabytes/Second" | "Terabytes/Second"
  | "Bits/Second" | "Kilobits/Second" | "Megabits/Second" | "Gigabits/Second" | "Terabits/Second"
  | "Count/Second" | "None";
export type Statistic = "SampleCount" | "Average" | "Sum" | "Minimum" | "Maximum";
export type ComparisonOperator =
  | "GreaterThanOrEqualToThreshold" | "GreaterThanThreshold" | "LessThanThreshold" | "LessThanOrEqualToThreshold";
export type StateValue = "OK" | "ALARM" | "INSUFFICIENT_DATA";

export interface MetricDatum {
  MetricName: string;
  Dimensions?: Dimension[];
  /** Left out: the run's virtual now. */
  Timestamp?: Date | number;
  Value?: number;
  StatisticValues?: { SampleCount: number; Sum: number; Minimum: number; Maximum: number };
  Values?: number[];
  Counts?: number[];
  Unit?: StandardUnit;
  StorageResolution?: 1 | 60;
}
export interface PutMetricDataInput { Namespace: string; MetricData: MetricDatum[] }
export type PutMetricDataOutput = EmptyOutput;

export interface PutMetricAlarmInput {
  AlarmName: string;
  AlarmDescription?: string;
  ActionsEnabled?: boolean;
  /** SNS topic ARNs of the run. */
  OKActions?: string[];
  AlarmActions?: string[];
  InsufficientDataActions?: string[];
  MetricName: string;
  Namespace: string;
  Statistic: Statistic;
  Dimensions?: Dimension[];
  /** Seconds: a multiple of the run's metrics resolution. */
  Period: number;
  Unit?: StandardUnit;
  EvaluationPeriods: number;
  DatapointsToAlarm?: number;
  Threshold: number;
  ComparisonOperator: ComparisonOperator;
  TreatMissingData?: "missing" | "notBreaching" | "breaching" | "ignore";
}
export type PutMetricAlarmOutput = EmptyOutput;

export interface MetricAlarm {
  AlarmName?: string;
  AlarmArn?: string;
  AlarmDescription?: string;
  AlarmConfigurationUpdatedTimestamp?: Date;
  ActionsEnabled?: boolean;
  OKActions?: string[];
  AlarmActions?: string[];
  InsufficientDataActions?: string[];
  StateValue?: StateValue;
  StateReason?: string;
  StateUpdatedTimestamp?: Date;
  StateTransitionedTimestamp?: Date;
  MetricName?: string;
  Namespace?: string;
  Statistic?: Statistic;
  Dimensions?: Dimension[];
  Period?: number;
  Unit?: StandardUnit;
  EvaluationPeriods?: number;
  DatapointsToAlarm?: number;
  Threshold?: number;
  ComparisonOperator?: ComparisonOperator;
  TreatMissingData?: string;
}
export interface DescribeAlarmsInput {
  AlarmNames?: string[];
  AlarmNamePrefix?: string;
  StateValue?: StateValue;
  ActionPrefix?: string;
  MaxRecords?: number;
  NextToken?: string;
}
export interface DescribeAlarmsOutput { MetricAlarms?: MetricAlarm[]; CompositeAlarms?: never[]; NextToken?: string }
export interface DeleteAlarmsInput { AlarmNames: string[] }
export type DeleteAlarmsOutput = EmptyOutput;
export interface ListMetricsInput {
  Namespace?: string;
  MetricName?: string;
  Dimensions?: { Name: string; Value?: string }[];
  NextToken?: string;
}
export interface ListMetricsOutput {
  Metrics?: { Namespace?: string; MetricName?: string; Dimensions?: Dimension[] }[];
  NextToken?: string;
}

/** A CloudWatch error answer: `e.name` is the SDK's exception name ("InvalidParameterValueException"), `e.Code` CloudWatch's code ("InvalidParameterValue"). */
export declare class CloudWatchError extends AwsError {
  static fromResponse(
    response: { status: number; headers: Record<string, string> },
    data: { __type?: string; message?: string },
    $metadata: ResponseMetadata,
  ): CloudWatchError;
}

export interface CloudWatchClientOptions extends DispatchWho {}

export declare class CloudWatchClient extends ServiceClient {
  constructor(target: SqsEndpoint | (() => SqsEndpoint), options?: CloudWatchClientOptions);
}

/** The camelCase methods, one per operation (generated: cloudwatch-commands.d.ts). */
export interface CloudWatchClient extends CloudWatchClientMethods {}
