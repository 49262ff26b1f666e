//! CloudWatch over the run's metrics and alarms (`Simulation::cloudwatch`),
//! on CloudWatch's own JSON 1.0 protocol: target
//! `GraniteServiceVersion20100801.<Operation>`, the members as a JSON
//! object (timestamps in seconds since the epoch), a JSON answer, or the
//! error envelope `{"__type": "com.amazonaws.cloudwatch#<Shape>", …}` with
//! the query code in `x-amzn-query-error` (CloudWatch is query-compatible,
//! as SQS is). The AWS SDKs for .NET and others speak this; the JavaScript
//! SDK v3 speaks CloudWatch's binary CBOR protocol at a path, which
//! `dispatch(target, body)` does not carry (docs/sdk.md). No CloudWatch
//! rule is here: the simulation's CloudWatch holds them.

use queuelab_engine::Principal;
use queuelab_simulation::cloudwatch::api::{
    CwCall, CwError, DeleteAlarms, DescribeAlarms, Dimension, DimensionFilter, ListMetrics,
    MetricDatum, PutMetricAlarm, PutMetricData, StatisticSet, OPERATIONS,
};
use queuelab_simulation::Simulation;

use crate::members::{Members, Wrong};
use crate::neighbour::{json_error, json_object, json_response, Failure};
use crate::Response;

/// The prefix of a CloudWatch request's target (`GraniteServiceVersion20100801.PutMetricData`).
pub const PREFIX: &str = "GraniteServiceVersion20100801.";

/// Whether a request is CloudWatch's.
pub fn is_cloudwatch(target: &str) -> bool {
    target.starts_with(PREFIX)
}

/// One CloudWatch request made by `by`.
pub fn dispatch(sim: &mut Simulation, target: &str, body: &str, by: &Principal) -> Response {
    let action = target.strip_prefix(PREFIX).unwrap_or("");
    let result = read(action, body).and_then(|call| sim.cloudwatch(call, by));
    let request_id = sim.engine_mut().next_request_id();
    let failure = |e: &CwError| Failure {
        code: e.code,
        status: e.status,
        body: json_error("com.amazonaws.cloudwatch", e.shape(), &e.message),
    };
    json_response(request_id, result.as_ref().map_err(failure))
}

fn read(action: &str, body: &str) -> Result<CwCall, CwError> {
    if !OPERATIONS.contains(&action) {
        return Err(CwError::new(
            "InvalidAction",
            400,
            format!(
                "The run's CloudWatch answers {}; \"{action}\" is not one of them",
                OPERATIONS.join(", ")
            ),
        ));
    }
    let members = json_object(body).ok_or_else(|| {
        CwError::new(
            "SerializationException",
            400,
            "The request's body is not a JSON object",
        )
    })?;
    call(action, &Members::new(&members))
        .map_err(|(name, why)| CwError::invalid(format!("The parameter {name} {why}")))
}

/// The call `action` names, with `m`'s members.
fn call(action: &str, m: &Members) -> Result<CwCall, Wrong> {
    Ok(match action {
        "PutMetricData" => CwCall::PutMetricData(PutMetricData {
            namespace: m.text("Namespace")?,
            metric_data: (m.list("MetricData")?.iter())
                .map(datum)
                .collect::<Result<_, _>>()?,
        }),
        "PutMetricAlarm" => CwCall::PutMetricAlarm(alarm(m)?),
        "DescribeAlarms" => CwCall::DescribeAlarms(DescribeAlarms {
            alarm_names: m.texts("AlarmNames")?,
            alarm_name_prefix: m.text("AlarmNamePrefix")?,
            state_value: m.text("StateValue")?,
            action_prefix: m.text("ActionPrefix")?,
            max_records: m.integer("MaxRecords")?,
            next_token: m.text("NextToken")?,
        }),
        "DeleteAlarms" => CwCall::DeleteAlarms(DeleteAlarms {
            alarm_names: m.texts("AlarmNames")?,
        }),
        _ => CwCall::ListMetrics(ListMetrics {
            namespace: m.text("Namespace")?,
            metric_name: m.text("MetricName")?,
            dimensions: (m.list("Dimensions")?.iter())
                .map(|d| {
                    Ok(DimensionFilter {
                        name: d.text("Name")?,
                        value: d.text("Value")?,
                    })
                })
                .collect::<Result<_, Wrong>>()?,
            next_token: m.text("NextToken")?,
        }),
    })
}

fn dimensions(m: &Members) -> Result<Vec<Dimension>, Wrong> {
    (m.list("Dimensions")?.iter())
        .map(|d| {
            Ok(Dimension {
                name: d.text("Name")?,
                value: d.text("Value")?,
            })
        })
        .collect()
}

fn datum(d: &Members) -> Result<MetricDatum, Wrong> {
    let statistic_values = match d.object("StatisticValues")? {
        None => None,
        Some(s) => Some(StatisticSet {
            sample_count: s.number("SampleCount")?,
            sum: s.number("Sum")?,
            minimum: s.number("Minimum")?,
            maximum: s.number("Maximum")?,
        }),
    };
    Ok(MetricDatum {
        metric_name: d.text("MetricName")?,
        dimensions: dimensions(d)?,
        timestamp: d.number("Timestamp")?,
        value: d.number("Value")?,
        statistic_values,
        values: d.numbers("Values")?,
        counts: d.numbers("Counts")?,
        unit: d.text("Unit")?,
        storage_resolution: d.integer("StorageResolution")?,
    })
}

fn alarm(m: &Members) -> Result<PutMetricAlarm, Wrong> {
    Ok(PutMetricAlarm {
        alarm_name: m.text("AlarmName")?,
        alarm_description: m.text("AlarmDescription")?,
        actions_enabled: m.boolean("ActionsEnabled")?,
        ok_actions: m.texts("OKActions")?,
        alarm_actions: m.texts("AlarmActions")?,
        insufficient_data_actions: m.texts("InsufficientDataActions")?,
        metric_name: m.text("MetricName")?,
        namespace: m.text("Namespace")?,
        statistic: m.text("Statistic")?,
        extended_statistic: m.text("ExtendedStatistic")?,
        dimensions: dimensions(m)?,
        period: m.integer("Period")?,
        unit: m.text("Unit")?,
        evaluation_periods: m.integer("EvaluationPeriods")?,
        datapoints_to_alarm: m.integer("DatapointsToAlarm")?,
        threshold: m.number("Threshold")?,
        comparison_operator: m.text("ComparisonOperator")?,
        treat_missing_data: m.text("TreatMissingData")?,
        metric_math: m.has("Metrics") || m.has("ThresholdMetricId"),
    })
}
