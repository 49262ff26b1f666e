//! CloudWatch's API over a run through its JSON 1.0 wire: target
//! `GraniteServiceVersion20100801.<Operation>`, CloudWatch's members, its
//! error shapes in `__type` and its query codes in `x-amzn-query-error`.
//! Each bad input has its clear error.

use queuelab_engine::{Config, Principal};
use queuelab_protocol::{cloudwatch, is_neighbour};
use queuelab_simulation::Simulation;
use serde_json::{json, Value};

/// A refusal as the wire says it: (the `__type` shape, the query code of
/// `x-amzn-query-error`, the status, the message).
type Refusal = (String, String, u16, String);

fn call(sim: &mut Simulation, op: &str, body: &str) -> Result<Value, Refusal> {
    let r = cloudwatch::dispatch(
        sim,
        &format!("{}{op}", cloudwatch::PREFIX),
        body,
        &Principal::owner(),
    );
    assert_eq!(r.header("content-type"), Some("application/x-amz-json-1.0"));
    match r.status {
        200 => Ok(r.json()),
        status => {
            let j = r.json();
            let shape = j["__type"]
                .as_str()
                .unwrap_or("")
                .replace("com.amazonaws.cloudwatch#", "");
            let header = r.header("x-amzn-query-error").unwrap_or("").to_string();
            let code = header.split(';').next().unwrap_or("").to_string();
            Err((
                shape,
                code,
                status,
                j["message"].as_str().unwrap_or("").to_string(),
            ))
        }
    }
}

fn ok(sim: &mut Simulation, op: &str, body: Value) -> Value {
    call(sim, op, &body.to_string()).unwrap_or_else(|e| panic!("{op}: {e:?}"))
}

fn refused(op: &str, body: Value) -> Refusal {
    call(
        &mut Simulation::empty(Config::default()),
        op,
        &body.to_string(),
    )
    .expect_err("refused")
}

fn alarm() -> Value {
    json!({ "AlarmName": "slow", "Namespace": "OrderProcessing", "MetricName": "ProcessingTime",
        "Statistic": "Average", "Period": 60, "EvaluationPeriods": 1, "Threshold": 100,
        "ComparisonOperator": "GreaterThanThreshold" })
}

#[test]
fn cloudwatchs_target_is_a_neighbour_the_host_hands_to_the_simulation() {
    assert!(is_neighbour("GraniteServiceVersion20100801.PutMetricData"));
    assert!(!is_neighbour("AmazonSQS.SendMessage"));
}

#[test]
fn put_metric_data_then_an_alarm_on_it_goes_into_alarm_and_describe_alarms_says_so() {
    let mut sim = Simulation::empty(Config::default());
    assert_eq!(ok(&mut sim, "PutMetricAlarm", alarm()), json!({}));
    let data = json!({ "Namespace": "OrderProcessing", "MetricData": [
        { "MetricName": "ProcessingTime", "Value": 250, "Unit": "Milliseconds" },
        { "MetricName": "ProcessingSuccess", "Value": 1, "Unit": "Count" }] });
    assert_eq!(ok(&mut sim, "PutMetricData", data), json!({}));
    sim.advance(60_000);
    let described = ok(
        &mut sim,
        "DescribeAlarms",
        json!({ "AlarmNames": ["slow"] }),
    );
    let a = &described["MetricAlarms"][0];
    assert_eq!(a["StateValue"], "ALARM");
    assert_eq!(a["Statistic"], "Average");
    assert_eq!(a["OKActions"], json!([]));
    assert_eq!(a["StateUpdatedTimestamp"], json!(1_704_067_260.0));
    let listed = ok(
        &mut sim,
        "ListMetrics",
        json!({ "Namespace": "OrderProcessing" }),
    );
    assert_eq!(
        listed["Metrics"][1],
        json!({ "Namespace": "OrderProcessing",
        "MetricName": "ProcessingTime", "Dimensions": [] })
    );
    assert_eq!(
        ok(&mut sim, "DeleteAlarms", json!({ "AlarmNames": ["slow"] })),
        json!({})
    );
}

#[test]
fn a_timestamp_is_seconds_since_the_epoch_as_the_json_protocol_carries_it() {
    let mut sim = Simulation::empty(Config::default());
    sim.advance(120_000);
    let data = json!({ "Namespace": "App", "MetricData": [
        { "MetricName": "Latency", "Value": 3, "Timestamp": 1_704_067_230.5 }] });
    ok(&mut sim, "PutMetricData", data);
    let metrics = sim.metrics(0);
    let latency = metrics
        .series
        .iter()
        .find(|s| s.metric.metric_name == "Latency")
        .expect("kept");
    assert_eq!(
        latency.points[0].0, 0,
        "30.5 s after the start is in the first minute"
    );
}

#[test]
fn a_reserved_namespace_is_invalid_parameter_value_with_its_shape_and_code() {
    let e = refused(
        "PutMetricData",
        json!({ "Namespace": "AWS/SQS",
        "MetricData": [{ "MetricName": "NumberOfMessagesSent", "Value": 1 }] }),
    );
    assert_eq!(
        (e.0.as_str(), e.1.as_str(), e.2),
        (
            "InvalidParameterValueException",
            "InvalidParameterValue",
            400
        )
    );
    assert!(e.3.contains("reserved"), "{}", e.3);
}

#[test]
fn a_missing_member_is_missing_required_parameter_with_the_missing_parameter_code() {
    let e = refused(
        "PutMetricData",
        json!({ "MetricData": [{ "MetricName": "A", "Value": 1 }] }),
    );
    assert_eq!(
        (e.0.as_str(), e.1.as_str()),
        ("MissingRequiredParameterException", "MissingParameter")
    );
    assert_eq!(e.3, "The parameter Namespace is required.");
}

#[test]
fn mutually_exclusive_members_are_invalid_parameter_combination() {
    let e = refused(
        "PutMetricData",
        json!({ "Namespace": "App",
        "MetricData": [{ "MetricName": "A", "Value": 1, "Values": [1, 2] }] }),
    );
    assert_eq!(
        (e.0.as_str(), e.1.as_str()),
        (
            "InvalidParameterCombinationException",
            "InvalidParameterCombination"
        )
    );
}

#[test]
fn more_than_1000_datums_are_refused() {
    let data: Vec<Value> = (0..1001)
        .map(|_| json!({ "MetricName": "A", "Value": 1 }))
        .collect();
    let e = refused(
        "PutMetricData",
        json!({ "Namespace": "App", "MetricData": data }),
    );
    assert_eq!(e.1, "InvalidParameterValue");
    assert!(e.3.contains("greater than 1000"), "{}", e.3);
}

#[test]
fn a_member_of_the_wrong_json_type_is_refused_naming_it_with_its_path() {
    let e = refused(
        "PutMetricData",
        json!({ "Namespace": "App",
        "MetricData": [{ "MetricName": "A", "Value": "fast" }] }),
    );
    assert_eq!(e.1, "InvalidParameterValue");
    assert_eq!(e.3, "The parameter MetricData.1.Value must be a number");
    let e = refused(
        "PutMetricAlarm",
        json!({ "AlarmName": "a", "ActionsEnabled": "yes" }),
    );
    assert_eq!(e.3, "The parameter ActionsEnabled must be true or false");
    let e = refused(
        "PutMetricData",
        json!({ "Namespace": "App",
        "MetricData": [{ "MetricName": "A", "Values": [1, "two"] }] }),
    );
    assert_eq!(
        e.3,
        "The parameter MetricData.1.Values must be a list of numbers"
    );
}

#[test]
fn a_body_that_is_not_a_json_object_is_a_serialization_exception() {
    let e = call(
        &mut Simulation::empty(Config::default()),
        "PutMetricData",
        "[1,2]",
    )
    .expect_err("refused");
    assert_eq!((e.1.as_str(), e.2), ("SerializationException", 400));
}

#[test]
fn an_operation_the_run_does_not_answer_is_invalid_action_listing_those_it_does() {
    let e = refused("GetMetricData", json!({}));
    assert_eq!((e.1.as_str(), e.2), ("InvalidAction", 400));
    assert!(
        e.3.contains("PutMetricData, PutMetricAlarm, DescribeAlarms, DeleteAlarms, ListMetrics"),
        "{}",
        e.3
    );
}

#[test]
fn put_metric_alarm_refusals_arrive_with_cloudwatchs_codes() {
    let with = |k: &str, v: Value| {
        let mut a = alarm();
        a[k] = v;
        refused("PutMetricAlarm", a)
    };
    assert_eq!(with("Period", json!(45)).1, "InvalidParameterValue");
    assert_eq!(
        with("ComparisonOperator", Value::Null).1,
        "MissingParameter"
    );
    assert_eq!(
        with("ExtendedStatistic", json!("p99")).1,
        "InvalidParameterCombination"
    );
    assert_eq!(
        with("Metrics", json!([{ "Id": "m1" }])).1,
        "InvalidParameterValue"
    );
    assert_eq!(
        with(
            "AlarmActions",
            json!(["arn:aws:sqs:us-east-1:000000000000:q"])
        )
        .1,
        "InvalidParameterValue"
    );
}

#[test]
fn delete_alarms_of_an_unknown_name_is_resource_not_found_404() {
    let e = refused("DeleteAlarms", json!({ "AlarmNames": ["nope"] }));
    assert_eq!(
        (e.0.as_str(), e.1.as_str(), e.2),
        ("ResourceNotFound", "ResourceNotFound", 404)
    );
}

#[test]
fn a_next_token_this_api_did_not_give_is_invalid_next_token() {
    let e = refused("ListMetrics", json!({ "NextToken": "x" }));
    assert_eq!(
        (e.0.as_str(), e.1.as_str()),
        ("InvalidNextToken", "InvalidNextToken")
    );
}

#[test]
fn another_accounts_call_is_access_denied_403() {
    let mut sim = Simulation::empty(Config::default());
    let by = Principal::account("111111111111").expect("an account");
    let r = cloudwatch::dispatch(
        &mut sim,
        "GraniteServiceVersion20100801.ListMetrics",
        "{}",
        &by,
    );
    assert_eq!(
        (r.status, r.header("x-amzn-query-error")),
        (403, Some("AccessDenied;Sender"))
    );
}
