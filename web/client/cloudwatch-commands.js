// Generated from the simulation's CloudWatch operations (cloudwatch/api.rs) by crates/wasm/tests/contract.rs; do not edit.
// Regenerate: QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract

/** Base of the command classes (service-client.js): `input` is kept as given, as the SDK does. */
import { Command } from "./service-client.js";

export { Command };

// One class per operation, named as in @aws-sdk/client-cloudwatch so that swapping
// the import is all it takes to move to the SDK.
export class DeleteAlarmsCommand extends Command { static operation = "DeleteAlarms"; }
export class DescribeAlarmsCommand extends Command { static operation = "DescribeAlarms"; }
export class ListMetricsCommand extends Command { static operation = "ListMetrics"; }
export class PutMetricAlarmCommand extends Command { static operation = "PutMetricAlarm"; }
export class PutMetricDataCommand extends Command { static operation = "PutMetricData"; }

/** Operation name ("PutMetricData") -> command class (PutMetricDataCommand). */
export const commands = Object.freeze({
  DeleteAlarms: DeleteAlarmsCommand,
  DescribeAlarms: DescribeAlarmsCommand,
  ListMetrics: ListMetricsCommand,
  PutMetricAlarm: PutMetricAlarmCommand,
  PutMetricData: PutMetricDataCommand,
});

/** The 5 CloudWatch operations the engine answers, in alphabetical order. */
export const OPERATIONS = Object.freeze(Object.keys(commands));
