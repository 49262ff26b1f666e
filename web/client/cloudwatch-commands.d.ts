// Generated from the simulation's CloudWatch operations (cloudwatch/api.rs) by crates/wasm/tests/contract.rs; do not edit.
// Regenerate: QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract

import type {
  MetadataBearer,
  DeleteAlarmsInput,
  DeleteAlarmsOutput,
  DescribeAlarmsInput,
  DescribeAlarmsOutput,
  ListMetricsInput,
  ListMetricsOutput,
  PutMetricAlarmInput,
  PutMetricAlarmOutput,
  PutMetricDataInput,
  PutMetricDataOutput,
} from "./cloudwatch-client.js";

export type OperationName =
  | "DeleteAlarms"
  | "DescribeAlarms"
  | "ListMetrics"
  | "PutMetricAlarm"
  | "PutMetricData"
;

/** The 5 operations, in alphabetical order. */
export declare const OPERATIONS: readonly OperationName[];

import type { Command, InputArgs } from "./service-client.js";
export type { Command, InputArgs } from "./service-client.js";

export declare class DeleteAlarmsCommand extends Command<DeleteAlarmsInput, DeleteAlarmsOutput> { static readonly operation: "DeleteAlarms" }
export declare class DescribeAlarmsCommand extends Command<DescribeAlarmsInput, DescribeAlarmsOutput> { static readonly operation: "DescribeAlarms" }
export declare class ListMetricsCommand extends Command<ListMetricsInput, ListMetricsOutput> { static readonly operation: "ListMetrics" }
export declare class PutMetricAlarmCommand extends Command<PutMetricAlarmInput, PutMetricAlarmOutput> { static readonly operation: "PutMetricAlarm" }
export declare class PutMetricDataCommand extends Command<PutMetricDataInput, PutMetricDataOutput> { static readonly operation: "PutMetricData" }

/** Operation name -> command class: `new commands.PutMetricData(input)`. */
export declare const commands: {
  readonly DeleteAlarms: typeof DeleteAlarmsCommand;
  readonly DescribeAlarms: typeof DescribeAlarmsCommand;
  readonly ListMetrics: typeof ListMetricsCommand;
  readonly PutMetricAlarm: typeof PutMetricAlarmCommand;
  readonly PutMetricData: typeof PutMetricDataCommand;
};

/** One camelCase method per operation: `client.putMetricData(input)` is `client.send(new PutMetricDataCommand(input))`. */
export interface CloudWatchClientMethods {
  deleteAlarms(...[input]: InputArgs<DeleteAlarmsInput>): Promise<DeleteAlarmsOutput & MetadataBearer>;
  describeAlarms(...[input]: InputArgs<DescribeAlarmsInput>): Promise<DescribeAlarmsOutput & MetadataBearer>;
  listMetrics(...[input]: InputArgs<ListMetricsInput>): Promise<ListMetricsOutput & MetadataBearer>;
  putMetricAlarm(...[input]: InputArgs<PutMetricAlarmInput>): Promise<PutMetricAlarmOutput & MetadataBearer>;
  putMetricData(...[input]: InputArgs<PutMetricDataInput>): Promise<PutMetricDataOutput & MetadataBearer>;
}
