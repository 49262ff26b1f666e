//! CloudWatch in a run (`cloudwatch/`): each SQS metric as AWS defines it,
//! one datapoint per resolution step, and alarms evaluated at the end of
//! each period with AWS's names, M of N and missing-data treatments,
//! logging every change of state.

use queuelab_engine::Config;
use queuelab_simulation::{
    AlarmState, FieldError, Kind, MetricsSnapshot, Scenario, SimEvent, Simulation,
};
use serde_json::{json, Value};

fn scenario(extra: Value) -> Scenario {
    let mut doc = json!({
        "title": "cloudwatch", "durationMs": 10_000,
        "metrics": { "resolutionSeconds": 1 },
        "queues": [{ "name": "orders-dlq" }, { "name": "orders", "visibilityTimeoutSeconds": 2,
            "redrive": { "deadLetterQueue": "orders-dlq", "maxReceiveCount": 1 } }],
    });
    for (k, v) in extra.as_object().expect("an object") {
        doc[k] = v.clone();
    }
    serde_json::from_value(doc).expect("a well-formed scenario")
}

fn run(extra: Value, until: u64) -> Simulation {
    let mut sim = Simulation::new(scenario(extra), Config::default()).expect("loads");
    sim.advance(until);
    sim
}

fn refusal(extra: Value) -> FieldError {
    scenario(extra).validate().expect_err("refused")
}

/// A metric's values of the queue, one per step (by the step's start in
/// seconds), with the statistic `Sum`.
fn values(metrics: &MetricsSnapshot, queue: &str, name: &str) -> Vec<(u64, f64)> {
    let series = metrics
        .series
        .iter()
        .find(|s| s.metric.metric_name == name && s.metric.dimensions["QueueName"] == queue)
        .unwrap_or_else(|| panic!("no {name} of {queue}"));
    series
        .points
        .iter()
        .map(|(t, v)| (t / 1000, v.sum))
        .collect()
}

fn sends(at_ms: &[u64]) -> Value {
    let sends: Vec<Value> = at_ms
        .iter()
        .map(|at| json!({ "atMs": at, "body": format!("order {at}") }))
        .collect();
    json!([{ "name": "shop", "queue": "orders", "sends": sends }])
}

fn alarm_changes(sim: &Simulation) -> Vec<(u64, AlarmState, AlarmState)> {
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::AlarmChanged { from, to, .. }) => {
                Some((e.time_ms, from, to))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn number_of_messages_sent_counts_the_sends_of_each_step_and_zero_when_there_were_none() {
    let sim = run(json!({ "producers": sends(&[100, 200, 2500]) }), 4000);
    let sent = values(&sim.metrics(0), "orders", "NumberOfMessagesSent");
    assert_eq!(sent, [(0, 2.0), (1, 0.0), (2, 1.0), (3, 0.0)]);
}

#[test]
fn sent_message_size_is_the_size_of_each_send_and_missing_when_nothing_was_sent() {
    let sim = run(json!({ "producers": sends(&[100, 200, 2500]) }), 4000);
    let metrics = sim.metrics(0);
    let series = metrics
        .series
        .iter()
        .find(|s| s.metric.metric_name == "SentMessageSize")
        .expect("SentMessageSize");
    let steps: Vec<(u64, f64, f64)> = series
        .points
        .iter()
        .map(|(t, v)| (t / 1000, v.sample_count, v.maximum))
        .collect();
    // "order 100" and "order 200" are 9 bytes, "order 2500" 10.
    assert_eq!(steps, [(0, 2.0, 9.0), (2, 1.0, 10.0)]);
    assert_eq!(series.unit, "Bytes");
}

#[test]
fn received_deleted_and_empty_receives_count_what_the_consumer_did() {
    let consumers = json!([{ "name": "worker", "queue": "orders", "waitTimeSeconds": 0,
        "pollIntervalMs": 1000, "processing": { "fixedMs": 100 } }]);
    let sim = run(
        json!({ "producers": sends(&[500]), "consumers": consumers }),
        3000,
    );
    let m = sim.metrics(0);
    // Polls at 0 (empty), 1000 (gets the message, deletes it at 1100),
    // then 1100 and 2100 (empty).
    assert_eq!(
        values(&m, "orders", "NumberOfMessagesReceived"),
        [(0, 0.0), (1, 1.0), (2, 0.0)]
    );
    assert_eq!(
        values(&m, "orders", "NumberOfMessagesDeleted"),
        [(0, 0.0), (1, 1.0), (2, 0.0)]
    );
    assert_eq!(
        values(&m, "orders", "NumberOfEmptyReceives"),
        [(0, 1.0), (1, 1.0), (2, 1.0)]
    );
}

#[test]
fn the_approximate_counts_are_read_at_the_end_of_each_step() {
    let consumers = json!([{ "name": "worker", "queue": "orders", "startMs": 1500,
        "waitTimeSeconds": 20, "processing": { "fixedMs": 3000 } }]);
    let sim = run(
        json!({ "producers": sends(&[100, 200]), "consumers": consumers }),
        3000,
    );
    let m = sim.metrics(0);
    // Two visible until 1.5 s, then the worker holds one (batch size 1).
    assert_eq!(
        values(&m, "orders", "ApproximateNumberOfMessagesVisible"),
        [(0, 2.0), (1, 1.0), (2, 1.0)]
    );
    assert_eq!(
        values(&m, "orders", "ApproximateNumberOfMessagesNotVisible"),
        [(0, 0.0), (1, 1.0), (2, 1.0)]
    );
    // In whole seconds since the first send, at 0.1 s.
    assert_eq!(
        values(&m, "orders", "ApproximateAgeOfOldestMessage"),
        [(0, 0.0), (1, 1.0), (2, 2.0)]
    );
}

#[test]
fn a_dead_letter_queues_age_of_oldest_message_counts_from_the_move() {
    let consumers = json!([{ "name": "worker", "queue": "orders", "waitTimeSeconds": 0,
        "pollIntervalMs": 1000, "processing": { "fixedMs": 100 },
        "behaviour": { "failsOn": ["order"] } }]);
    let sim = run(
        json!({ "producers": sends(&[0]), "consumers": consumers }),
        8000,
    );
    let ages = values(
        &sim.metrics(0),
        "orders-dlq",
        "ApproximateAgeOfOldestMessage",
    );
    // Received at 0, visible again at 2 s, moved by the receive at 2 s or 3 s.
    let first = ages.iter().position(|(_, v)| *v > 0.0).expect("an age");
    let (at, age) = ages[first];
    assert!(
        at >= 2 && age == 1.0,
        "the DLQ's age restarts at the move: {ages:?}"
    );
}

#[test]
fn a_dlq_alarm_goes_from_insufficient_data_to_ok_then_alarm_when_a_message_arrives() {
    let consumers = json!([{ "name": "worker", "queue": "orders", "waitTimeSeconds": 0,
        "pollIntervalMs": 1000, "processing": { "fixedMs": 100 },
        "behaviour": { "failsOn": ["order"] } }]);
    let alarms = json!([{ "name": "DLQ not empty", "queue": "orders-dlq",
        "threshold": 0, "comparisonOperator": "GreaterThanThreshold" }]);
    let sim = run(
        json!({ "producers": sends(&[0]), "consumers": consumers, "alarms": alarms }),
        8000,
    );
    let changes = alarm_changes(&sim);
    use AlarmState::*;
    assert_eq!(changes[0], (1000, InsufficientData, OK));
    assert_eq!((changes[1].1, changes[1].2), (OK, ALARM), "{changes:?}");
    let snapshot = &sim.snapshot().alarms[0];
    assert_eq!(snapshot.state, ALARM);
    assert!(snapshot.in_alarm);
    assert_eq!(snapshot.history.len(), 2);
    assert_eq!(snapshot.reason, "the latest datapoint (1) is above 0");
}

/// An alarm on SentMessageSize (missing in a step with no send) with the
/// missing-data treatment `treat`: its changes of state.
fn size_alarm(treat: &str) -> Vec<(u64, AlarmState, AlarmState)> {
    let alarms = json!([{ "name": "big", "queue": "orders", "metricName": "SentMessageSize",
        "threshold": 5, "comparisonOperator": "GreaterThanThreshold",
        "evaluationPeriods": 1, "treatMissingData": treat }]);
    // Sends in the first second only: then every period is missing.
    let sim = run(
        json!({ "producers": sends(&[100]), "alarms": alarms }),
        6000,
    );
    alarm_changes(&sim)
}

#[test]
fn treat_missing_data_missing_goes_to_insufficient_data_once_the_range_is_all_missing() {
    use AlarmState::*;
    // 1 of 1 with a range of 3: the breach in the first second stays in
    // range, deciding alone, until the end of the fourth.
    assert_eq!(
        size_alarm("missing"),
        [
            (1000, InsufficientData, ALARM),
            (4000, ALARM, InsufficientData)
        ]
    );
}

#[test]
fn treat_missing_data_ignore_keeps_the_state() {
    use AlarmState::*;
    assert_eq!(size_alarm("ignore"), [(1000, InsufficientData, ALARM)]);
}

#[test]
fn treat_missing_data_breaching_counts_missing_periods_as_breaching() {
    use AlarmState::*;
    assert_eq!(size_alarm("breaching"), [(1000, InsufficientData, ALARM)]);
}

#[test]
fn treat_missing_data_not_breaching_counts_missing_periods_as_within() {
    use AlarmState::*;
    assert_eq!(
        size_alarm("notBreaching"),
        [(1000, InsufficientData, ALARM), (4000, ALARM, OK)]
    );
}

#[test]
fn an_m_of_n_alarm_needs_m_breaching_periods_of_the_latest_n() {
    use AlarmState::*;
    // A backlog from 0 s: visible is 1, 2, 3, … at the ends of steps.
    let at: Vec<u64> = (0..6).map(|s| s * 1000 + 100).collect();
    let alarms = json!([{ "name": "backlog", "queue": "orders", "threshold": 3,
        "evaluationPeriods": 3, "datapointsToAlarm": 2, "statistic": "Maximum" }]);
    let sim = run(json!({ "producers": sends(&at), "alarms": alarms }), 6000);
    // Datapoints 1, 2, 3, 4: the 2nd breaching one (≥ 3) is at the end of step 4.
    assert_eq!(
        alarm_changes(&sim),
        [(1000, InsufficientData, OK), (4000, OK, ALARM)]
    );
}

#[test]
fn a_period_of_several_steps_aggregates_them_with_the_statistic() {
    use AlarmState::*;
    // Sends at 0.1 s, 1.1 s, 2.1 s: a 3-step period's Sum of sends is 3.
    let alarms = json!([
        { "name": "sum", "queue": "orders", "metricName": "NumberOfMessagesSent",
          "statistic": "Sum", "periodSeconds": 3, "threshold": 3 },
        { "name": "max", "queue": "orders", "metricName": "NumberOfMessagesSent",
          "statistic": "Maximum", "periodSeconds": 3, "threshold": 3 },
    ]);
    let sim = run(
        json!({ "producers": sends(&[100, 1100, 2100]), "alarms": alarms }),
        3000,
    );
    let states: Vec<AlarmState> = sim.snapshot().alarms.iter().map(|a| a.state).collect();
    assert_eq!(states, [ALARM, OK]);
    // What each alarm judged: the period ending at 3 s, by its statistic.
    let judged: Vec<_> = sim
        .snapshot()
        .alarms
        .iter()
        .map(|a| a.datapoints.clone())
        .collect();
    assert_eq!(judged, [vec![(3000, Some(3.0))], vec![(3000, Some(1.0))]]);
    assert!(alarm_changes(&sim).iter().all(|(t, ..)| *t == 3000));
}

#[test]
fn the_guides_three_alarms_are_accepted_as_written() {
    let alarms = json!([
        { "name": "dlq-not-empty", "queue": "orders-dlq", "metricName": "ApproximateNumberOfMessagesVisible",
          "statistic": "Sum", "periodSeconds": 60, "evaluationPeriods": 1, "threshold": 0,
          "comparisonOperator": "GreaterThanThreshold", "treatMissingData": "notBreaching" },
        { "name": "backlog", "queue": "orders", "metricName": "ApproximateNumberOfMessagesVisible",
          "statistic": "Average", "periodSeconds": 300, "evaluationPeriods": 3, "threshold": 1000,
          "comparisonOperator": "GreaterThanThreshold" },
        { "name": "old-messages", "queue": "orders", "metricName": "ApproximateAgeOfOldestMessage",
          "statistic": "Maximum", "periodSeconds": 300, "evaluationPeriods": 1, "threshold": 3600,
          "comparisonOperator": "GreaterThanThreshold" },
    ]);
    scenario(json!({ "metrics": { "resolutionSeconds": 60 }, "alarms": alarms }))
        .validate()
        .expect("valid");
}

#[test]
fn a_resolution_cloudwatch_does_not_keep_is_refused() {
    let e = refusal(json!({ "metrics": { "resolutionSeconds": 7 } }));
    assert_eq!(e.path, "metrics.resolutionSeconds");
}

#[test]
fn a_plotted_metric_sqs_and_lambda_do_not_publish_is_refused_naming_those_they_do() {
    let e = refusal(json!({ "metrics": { "plot": "EmptyReceives" } }));
    assert_eq!(e.path, "metrics.plot");
    assert!(e.rule.contains("NumberOfEmptyReceives"), "{}", e.rule);
    assert!(e.rule.contains("ConcurrentExecutions"), "{}", e.rule);
    scenario(json!({ "metrics": { "plot": "NumberOfEmptyReceives" } }))
        .validate()
        .expect("a metric SQS publishes is plotted");
}

#[test]
fn a_period_that_is_not_a_multiple_of_the_resolution_is_refused() {
    let e = refusal(json!({ "metrics": { "resolutionSeconds": 60 },
        "alarms": [{ "name": "a", "queue": "orders", "threshold": 1, "periodSeconds": 90 }] }));
    assert_eq!(e.path, "alarms[0].periodSeconds");
    assert_eq!(e.rule, "a multiple of the metrics' resolution, 60 s");
}

#[test]
fn more_datapoints_to_alarm_than_evaluation_periods_is_refused() {
    let e = refusal(
        json!({ "alarms": [{ "name": "a", "queue": "orders", "threshold": 1,
        "evaluationPeriods": 2, "datapointsToAlarm": 3 }] }),
    );
    assert_eq!(e.path, "alarms[0].datapointsToAlarm");
}

#[test]
fn an_evaluation_longer_than_a_day_is_refused() {
    let e = refusal(json!({ "metrics": { "resolutionSeconds": 60 },
        "alarms": [{ "name": "a", "queue": "orders", "threshold": 1,
        "periodSeconds": 3600, "evaluationPeriods": 25 }] }));
    assert_eq!(e.path, "alarms[0].evaluationPeriods");
}

#[test]
fn a_metric_sqs_does_not_publish_is_refused_with_the_list() {
    let e = refusal(
        json!({ "alarms": [{ "name": "a", "queue": "orders", "threshold": 1,
        "metricName": "QueueDepth" }] }),
    );
    assert_eq!(e.path, "alarms[0].metricName");
    assert!(
        e.rule.contains("ApproximateNumberOfMessagesVisible"),
        "{}",
        e.rule
    );
}

#[test]
fn an_alarm_on_a_queue_the_scenario_does_not_have_is_refused() {
    let e = refusal(json!({ "alarms": [{ "name": "a", "queue": "nope", "threshold": 1 }] }));
    assert_eq!(
        (e.path.as_str(), e.got.as_str()),
        ("alarms[0].queue", "\"nope\"")
    );
}

#[test]
fn an_alarm_action_naming_no_topic_is_refused() {
    let e = refusal(
        json!({ "alarms": [{ "name": "a", "queue": "orders", "threshold": 1,
        "alarmActions": ["ops"] }] }),
    );
    assert_eq!(e.path, "alarms[0].alarmActions[0]");
}

#[test]
fn two_alarms_of_one_name_are_refused() {
    let alarm = json!({ "name": "a", "queue": "orders", "threshold": 1 });
    let e = refusal(json!({ "alarms": [alarm.clone(), alarm] }));
    assert_eq!(e.path, "alarms[1].name");
}

/// A function's metric: (step start in seconds, values).
fn function_values(metrics: &MetricsSnapshot, name: &str) -> Vec<(u64, f64, f64)> {
    metrics
        .series
        .iter()
        .find(|s| s.metric.namespace == "AWS/Lambda" && s.metric.metric_name == name)
        .map(|s| {
            s.points
                .iter()
                .map(|(t, v)| (t / 1000, v.sum, v.maximum))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn lambdas_invocations_errors_duration_and_concurrency_are_published_only_when_it_runs() {
    // Batch size 1: five messages, five invocations of 1.5 s, the one on
    // "bad" failing; the pollers start five at once.
    let lambdas = json!([{ "name": "process-orders", "queue": "orders", "batchSize": 1,
        "timeoutSeconds": 2, "handler": { "processing": { "fixedMs": 1500 }, "failsOn": ["bad"] } }]);
    let sends = json!([{ "name": "shop", "queue": "orders", "sends": [
        { "atMs": 0, "body": "a" }, { "atMs": 0, "body": "b" }, { "atMs": 0, "body": "bad" },
        { "atMs": 0, "body": "c" }, { "atMs": 0, "body": "d" } ] }]);
    let sim = run(json!({ "producers": sends, "lambdas": lambdas }), 5000);
    let m = sim.metrics(0);
    let invocations: f64 = function_values(&m, "Invocations").iter().map(|p| p.1).sum();
    let errors: f64 = function_values(&m, "Errors").iter().map(|p| p.1).sum();
    assert_eq!((invocations, errors), (5.0, 1.0));
    let durations = function_values(&m, "Duration");
    assert!(
        durations.iter().all(|(_, _, max)| *max == 1500.0),
        "{durations:?}"
    );
    let peak = function_values(&m, "ConcurrentExecutions");
    assert_eq!(
        peak.iter().map(|p| p.2).fold(0.0, f64::max),
        5.0,
        "{peak:?}"
    );
    // Nothing runs after 1.5 s: no Invocations datapoint in the later steps.
    assert!(
        function_values(&m, "Invocations")
            .iter()
            .all(|(t, ..)| *t < 2),
        "{m:?}"
    );
}

#[test]
fn an_alarm_on_a_function_the_scenario_does_not_have_is_refused() {
    let e = refusal(json!({ "alarms": [{ "name": "a", "namespace": "AWS/Lambda",
        "metricName": "Errors", "dimensions": { "FunctionName": "nope" }, "threshold": 1 }] }));
    assert_eq!(e.path, "alarms[0].dimensions.FunctionName");
}

#[test]
fn an_alarm_action_publishes_cloudwatchs_notification_to_the_topic() {
    let policy = json!({ "Version": "2012-10-17", "Statement": [{ "Effect": "Allow",
        "Principal": { "Service": "sns.amazonaws.com" }, "Action": "sqs:SendMessage",
        "Resource": "arn:aws:sqs:us-east-1:000000000000:ops-inbox" }] });
    let extra = json!({
        "queues": [{ "name": "orders" }, { "name": "ops-inbox", "policy": policy }],
        "topics": [{ "name": "ops", "subscriptions": [{ "queue": "ops-inbox", "rawMessageDelivery": true }] }],
        "producers": sends(&[100]),
        "alarms": [{ "name": "backlog", "queue": "orders", "threshold": 1,
            "alarmActions": ["ops"] }],
    });
    let mut sim = run(extra, 2000);
    let url = sim
        .engine()
        .get_queue_url("ops-inbox", None)
        .expect("the queue");
    let request = queuelab_engine::ReceiveMessage {
        queue_url: url,
        max_number_of_messages: Some(10),
        visibility_timeout: None,
        wait_time_seconds: Some(0),
        system_attribute_names: Vec::new(),
        message_attribute_names: Vec::new(),
        receive_request_attempt_id: None,
    };
    let received = match sim
        .engine_mut()
        .receive_message(&request, None)
        .expect("received")
    {
        queuelab_engine::ReceiveOutcome::Done(m) => m,
        _ => panic!("a short poll"),
    };
    assert_eq!(received.len(), 1, "one notification: into ALARM at 1 s");
    let body: Value = serde_json::from_str(&received[0].body).expect("JSON");
    assert_eq!(body["AlarmName"], "backlog");
    assert_eq!(
        (
            body["OldStateValue"].as_str(),
            body["NewStateValue"].as_str()
        ),
        (Some("INSUFFICIENT_DATA"), Some("ALARM"))
    );
    assert_eq!(
        body["Trigger"]["MetricName"],
        "ApproximateNumberOfMessagesVisible"
    );
    assert_eq!(body["Trigger"]["Dimensions"][0]["value"], "orders");
    assert_eq!(
        body["StateChangeTime"].as_str().map(|t| t.ends_with("Z")),
        Some(true)
    );
}
