//! CloudWatch's API in a run (`Simulation::cloudwatch`): PutMetricData
//! puts custom metrics into the store the run's metrics are kept in,
//! PutMetricAlarm makes alarms judged as the scenario's are, and
//! DescribeAlarms, DeleteAlarms and ListMetrics see them, with
//! CloudWatch's members, errors and limits.

use queuelab_engine::{Config, Principal};
use queuelab_simulation::cloudwatch::api::{
    CwAnswer, CwCall, CwError, DeleteAlarms, DescribeAlarms, Dimension, ListMetrics, MetricDatum,
    PutMetricAlarm, PutMetricData, StatisticSet, MAX_CUSTOM_METRICS, MAX_RUN_ALARMS,
};
use queuelab_simulation::{AlarmState, Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

const START_SECONDS: f64 = 1_704_067_200.0;

fn sim() -> Simulation {
    let doc = json!({
        "title": "cloudwatch api", "durationMs": 20_000,
        "metrics": { "resolutionSeconds": 1 },
        "queues": [{ "name": "orders" }],
        "alarms": [{ "name": "backlog", "queue": "orders", "threshold": 5 }],
    });
    let scenario: Scenario = serde_json::from_value(doc).expect("a scenario");
    Simulation::new(scenario, Config::default()).expect("loads")
}

fn owner() -> Principal {
    Principal::owner()
}

fn call(sim: &mut Simulation, call: CwCall) -> Result<CwAnswer, CwError> {
    sim.cloudwatch(call, &owner())
}

fn datum(name: &str, value: f64) -> MetricDatum {
    MetricDatum {
        metric_name: Some(name.into()),
        value: Some(value),
        ..MetricDatum::default()
    }
}

fn put(namespace: &str, data: Vec<MetricDatum>) -> CwCall {
    CwCall::PutMetricData(PutMetricData {
        namespace: Some(namespace.into()),
        metric_data: data,
    })
}

fn refused(sim: &mut Simulation, c: CwCall) -> CwError {
    call(sim, c).expect_err("refused")
}

/// The custom metric's steps: (step start in ms, sum, sample count).
fn steps(sim: &Simulation, namespace: &str, name: &str) -> Vec<(u64, f64, f64)> {
    let metrics = sim.metrics(0);
    let series = (metrics.series.iter())
        .find(|s| s.metric.namespace == namespace && s.metric.metric_name == name)
        .unwrap_or_else(|| panic!("no {namespace} {name}"));
    (series.points.iter())
        .map(|(t, v)| (*t, v.sum, v.sample_count))
        .collect()
}

fn alarm(name: &str, threshold: f64) -> PutMetricAlarm {
    PutMetricAlarm {
        alarm_name: Some(name.into()),
        namespace: Some("OrderProcessing".into()),
        metric_name: Some("ProcessingTime".into()),
        statistic: Some("Maximum".into()),
        period: Some(1),
        evaluation_periods: Some(1),
        threshold: Some(threshold),
        comparison_operator: Some("GreaterThanThreshold".into()),
        ..PutMetricAlarm::default()
    }
}

fn describe(sim: &mut Simulation, c: DescribeAlarms) -> Value {
    let answer = call(sim, CwCall::DescribeAlarms(c)).expect("described");
    serde_json::to_value(answer).expect("JSON")
}

fn names(described: &Value) -> Vec<String> {
    (described["MetricAlarms"].as_array().expect("a list").iter())
        .map(|a| a["AlarmName"].as_str().expect("a name").to_string())
        .collect()
}

fn alarm_changes(sim: &Simulation, name: &str) -> Vec<(u64, AlarmState, AlarmState)> {
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::AlarmChanged {
                alarm, from, to, ..
            }) if &*alarm == name => Some((e.time_ms, from, to)),
            _ => None,
        })
        .collect()
}

#[test]
fn put_metric_data_stores_a_custom_metric_beside_the_queues_metrics() {
    let mut sim = sim();
    sim.advance(1500);
    call(
        &mut sim,
        put("OrderProcessing", vec![datum("ProcessingTime", 42.0)]),
    )
    .expect("put");
    sim.advance(1000);
    assert_eq!(
        steps(&sim, "OrderProcessing", "ProcessingTime"),
        [(1000, 42.0, 1.0)]
    );
    let metrics = sim.metrics(0);
    assert!(metrics
        .series
        .iter()
        .any(|s| s.metric.namespace == "AWS/SQS"));
}

#[test]
fn a_datum_without_a_timestamp_is_put_at_the_runs_virtual_now_and_one_with_it_at_its_time() {
    let mut sim = sim();
    sim.advance(5500);
    let earlier = MetricDatum {
        timestamp: Some(START_SECONDS + 2.5),
        ..datum("Latency", 7.0)
    };
    call(&mut sim, put("App", vec![datum("Latency", 3.0), earlier])).expect("put");
    assert_eq!(
        steps(&sim, "App", "Latency"),
        [(2000, 7.0, 1.0), (5000, 3.0, 1.0)]
    );
}

#[test]
fn values_with_counts_are_weighted_into_one_statistic_set() {
    let mut sim = sim();
    let d = MetricDatum {
        metric_name: Some("Latency".into()),
        values: vec![10.0, 20.0],
        counts: vec![3.0, 1.0],
        unit: Some("Milliseconds".into()),
        ..MetricDatum::default()
    };
    call(&mut sim, put("App", vec![d])).expect("put");
    let metrics = sim.metrics(0);
    let s = (metrics.series.iter())
        .find(|s| s.metric.metric_name == "Latency")
        .expect("kept");
    assert_eq!(s.unit, "Milliseconds");
    let v = s.points[0].1;
    assert_eq!(
        (v.sum, v.sample_count, v.minimum, v.maximum),
        (50.0, 4.0, 10.0, 20.0)
    );
}

#[test]
fn statistic_values_are_kept_as_given() {
    let mut sim = sim();
    let d = MetricDatum {
        metric_name: Some("Latency".into()),
        statistic_values: Some(StatisticSet {
            sample_count: Some(4.0),
            sum: Some(100.0),
            minimum: Some(5.0),
            maximum: Some(60.0),
        }),
        ..MetricDatum::default()
    };
    call(&mut sim, put("App", vec![d])).expect("put");
    assert_eq!(steps(&sim, "App", "Latency"), [(0, 100.0, 4.0)]);
}

#[test]
fn a_namespace_beginning_with_aws_is_refused_as_reserved() {
    let e = refused(
        &mut sim(),
        put("AWS/SQS", vec![datum("NumberOfMessagesSent", 1.0)]),
    );
    assert_eq!((e.code, e.status), ("InvalidParameterValue", 400));
    assert!(e.message.contains("reserved"), "{}", e.message);
}

#[test]
fn a_missing_namespace_or_metric_data_is_missing_parameter_naming_it() {
    let mut sim = sim();
    let e = refused(&mut sim, CwCall::PutMetricData(PutMetricData::default()));
    assert_eq!(
        (e.code, e.message.as_str()),
        ("MissingParameter", "The parameter Namespace is required.")
    );
    let e = refused(&mut sim, put("App", Vec::new()));
    assert_eq!(
        (e.code, e.message.as_str()),
        ("MissingParameter", "The parameter MetricData is required.")
    );
    let e = refused(&mut sim, put("App", vec![MetricDatum::default()]));
    assert_eq!(
        e.message,
        "The parameter MetricData.member.1.MetricName is required."
    );
}

#[test]
fn more_than_1000_datums_in_one_call_are_refused() {
    let e = refused(&mut sim(), put("App", vec![datum("A", 1.0); 1001]));
    assert_eq!(e.code, "InvalidParameterValue");
    assert!(e.message.contains("greater than 1000"), "{}", e.message);
}

#[test]
fn more_than_30_dimensions_or_a_dimension_name_twice_are_refused() {
    let dim = |n: usize| Dimension {
        name: Some(format!("D{n}")),
        value: Some("v".into()),
    };
    let many = MetricDatum {
        dimensions: (0..31).map(dim).collect(),
        ..datum("A", 1.0)
    };
    let e = refused(&mut sim(), put("App", vec![many]));
    assert!(e.message.contains("greater than 30"), "{}", e.message);
    let twice = MetricDatum {
        dimensions: vec![dim(1), dim(1)],
        ..datum("A", 1.0)
    };
    let e = refused(&mut sim(), put("App", vec![twice]));
    assert_eq!(e.code, "InvalidParameterValue");
    assert!(
        e.message.contains("duplicate dimension names"),
        "{}",
        e.message
    );
}

#[test]
fn value_with_values_is_an_invalid_parameter_combination() {
    let both = MetricDatum {
        values: vec![1.0],
        ..datum("A", 1.0)
    };
    let e = refused(&mut sim(), put("App", vec![both]));
    assert_eq!((e.code, e.status), ("InvalidParameterCombination", 400));
}

#[test]
fn counts_of_another_length_than_values_are_refused() {
    let d = MetricDatum {
        metric_name: Some("A".into()),
        values: vec![1.0, 2.0],
        counts: vec![1.0],
        ..MetricDatum::default()
    };
    let e = refused(&mut sim(), put("App", vec![d]));
    assert!(e.message.contains("same size"), "{}", e.message);
}

#[test]
fn more_than_150_values_are_refused() {
    let d = MetricDatum {
        metric_name: Some("A".into()),
        values: vec![1.0; 151],
        ..MetricDatum::default()
    };
    let e = refused(&mut sim(), put("App", vec![d]));
    assert!(e.message.contains("greater than 150"), "{}", e.message);
}

#[test]
fn a_datum_without_any_value_is_refused_naming_the_members() {
    let d = MetricDatum {
        metric_name: Some("A".into()),
        ..MetricDatum::default()
    };
    let e = refused(&mut sim(), put("App", vec![d]));
    assert_eq!(e.code, "MissingParameter");
    assert!(
        e.message.contains("Value, Values or StatisticValues"),
        "{}",
        e.message
    );
}

#[test]
fn a_value_past_two_to_the_360_is_refused() {
    let e = refused(&mut sim(), put("App", vec![datum("A", 1e109)]));
    assert!(e.message.contains("2^360"), "{}", e.message);
}

#[test]
fn incomplete_or_inconsistent_statistic_values_are_refused() {
    let d = |set: StatisticSet| MetricDatum {
        metric_name: Some("A".into()),
        statistic_values: Some(set),
        ..MetricDatum::default()
    };
    let e = refused(
        &mut sim(),
        put(
            "App",
            vec![d(StatisticSet {
                sample_count: Some(1.0),
                ..StatisticSet::default()
            })],
        ),
    );
    assert_eq!(
        e.message,
        "The parameter MetricData.member.1.StatisticValues.Sum is required."
    );
    let upside_down = StatisticSet {
        sample_count: Some(1.0),
        sum: Some(1.0),
        minimum: Some(5.0),
        maximum: Some(1.0),
    };
    let e = refused(&mut sim(), put("App", vec![d(upside_down)]));
    assert_eq!(e.code, "InvalidParameterValue");
}

#[test]
fn a_unit_cloudwatch_does_not_have_is_refused_listing_them() {
    let d = MetricDatum {
        unit: Some("Parsecs".into()),
        ..datum("A", 1.0)
    };
    let e = refused(&mut sim(), put("App", vec![d]));
    assert!(e.message.contains("Milliseconds"), "{}", e.message);
}

#[test]
fn a_storage_resolution_other_than_1_or_60_is_refused() {
    let d = MetricDatum {
        storage_resolution: Some(5),
        ..datum("A", 1.0)
    };
    let e = refused(&mut sim(), put("App", vec![d]));
    assert!(e.message.contains("StorageResolution"), "{}", e.message);
}

#[test]
fn a_timestamp_more_than_two_hours_ahead_or_before_the_run_is_refused() {
    for seconds in [START_SECONDS + 7_201.0, START_SECONDS - 1.0] {
        let d = MetricDatum {
            timestamp: Some(seconds),
            ..datum("A", 1.0)
        };
        let e = refused(&mut sim(), put("App", vec![d]));
        assert!(e.message.contains("two hours"), "{}", e.message);
    }
}

#[test]
fn custom_metrics_past_max_custom_metrics_are_refused_naming_the_bound() {
    let mut sim = sim();
    let data: Vec<MetricDatum> = (0..MAX_CUSTOM_METRICS)
        .map(|i| datum(&format!("M{i}"), 1.0))
        .collect();
    for chunk in data.chunks(1000) {
        call(&mut sim, put("App", chunk.to_vec())).expect("within the bound");
    }
    let e = refused(&mut sim, put("App", vec![datum("OneMore", 1.0)]));
    assert_eq!(e.code, "LimitExceeded");
    assert!(e.message.contains("MAX_CUSTOM_METRICS"), "{}", e.message);
    call(&mut sim, put("App", vec![datum("M0", 2.0)])).expect("a kept metric takes more values");
}

#[test]
fn another_accounts_call_is_access_denied() {
    let e = sim()
        .cloudwatch(
            put("App", vec![datum("A", 1.0)]),
            &Principal::account("111111111111").expect("a principal"),
        )
        .expect_err("refused");
    assert_eq!((e.code, e.status), ("AccessDenied", 403));
}

#[test]
fn put_metric_alarm_judges_a_custom_metric_and_logs_its_changes_of_state() {
    let mut sim = sim();
    call(&mut sim, CwCall::PutMetricAlarm(alarm("slow", 100.0))).expect("made");
    sim.advance(500);
    call(
        &mut sim,
        put("OrderProcessing", vec![datum("ProcessingTime", 250.0)]),
    )
    .expect("put");
    sim.advance(1000);
    assert_eq!(
        alarm_changes(&sim, "slow"),
        [(1000, AlarmState::InsufficientData, AlarmState::ALARM)]
    );
    call(
        &mut sim,
        put("OrderProcessing", vec![datum("ProcessingTime", 20.0)]),
    )
    .expect("put");
    sim.advance(1000);
    assert_eq!(
        alarm_changes(&sim, "slow").last().map(|c| c.2),
        Some(AlarmState::OK)
    );
    let snapshot = sim.snapshot();
    assert!(snapshot
        .alarms
        .iter()
        .any(|a| a.name == "slow" && !a.in_alarm));
}

#[test]
fn put_metric_alarm_of_an_existing_name_replaces_its_configuration_and_keeps_its_state() {
    let mut sim = sim();
    call(&mut sim, CwCall::PutMetricAlarm(alarm("slow", 100.0))).expect("made");
    call(
        &mut sim,
        put("OrderProcessing", vec![datum("ProcessingTime", 250.0)]),
    )
    .expect("put");
    sim.advance(1000);
    call(&mut sim, CwCall::PutMetricAlarm(alarm("slow", 500.0))).expect("replaced");
    let d = describe(
        &mut sim,
        DescribeAlarms {
            alarm_names: vec!["slow".into()],
            ..DescribeAlarms::default()
        },
    );
    let a = &d["MetricAlarms"][0];
    assert_eq!(
        (a["Threshold"].as_f64(), a["StateValue"].as_str()),
        (Some(500.0), Some("ALARM"))
    );
    assert_eq!(
        names(&describe(&mut sim, DescribeAlarms::default())),
        ["backlog", "slow"]
    );
}

#[test]
fn describe_alarms_answers_every_alarm_of_the_run_in_cloudwatchs_members() {
    let mut sim = sim();
    sim.advance(2000);
    let d = describe(&mut sim, DescribeAlarms::default());
    let a = &d["MetricAlarms"][0];
    assert_eq!(a["AlarmName"], "backlog");
    assert_eq!(
        a["AlarmArn"],
        "arn:aws:cloudwatch:us-east-1:000000000000:alarm:backlog"
    );
    assert_eq!(a["StateValue"], "OK");
    assert_eq!(a["Namespace"], "AWS/SQS");
    assert_eq!(a["MetricName"], "ApproximateNumberOfMessagesVisible");
    assert_eq!(
        a["Dimensions"],
        json!([{ "Name": "QueueName", "Value": "orders" }])
    );
    assert_eq!(a["Statistic"], "Maximum");
    assert_eq!(a["ComparisonOperator"], "GreaterThanOrEqualToThreshold");
    assert_eq!(a["TreatMissingData"], "missing");
    assert_eq!(
        (a["Period"].as_u64(), a["EvaluationPeriods"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        a["StateUpdatedTimestamp"].as_f64(),
        Some(START_SECONDS + 1.0)
    );
    assert!(a["StateReason"].as_str().is_some_and(|r| !r.is_empty()));
    assert_eq!(a["ActionsEnabled"], true);
    assert_eq!(d["CompositeAlarms"], json!([]));
}

#[test]
fn describe_alarms_filters_by_names_prefix_and_state() {
    let mut sim = sim();
    for name in ["slow-a", "slow-b", "other"] {
        call(&mut sim, CwCall::PutMetricAlarm(alarm(name, 1.0))).expect("made");
    }
    sim.advance(1000);
    let by_prefix = describe(
        &mut sim,
        DescribeAlarms {
            alarm_name_prefix: Some("slow-".into()),
            ..DescribeAlarms::default()
        },
    );
    assert_eq!(names(&by_prefix), ["slow-a", "slow-b"]);
    let by_state = describe(
        &mut sim,
        DescribeAlarms {
            state_value: Some("OK".into()),
            ..DescribeAlarms::default()
        },
    );
    assert_eq!(names(&by_state), ["backlog"]);
    let page = describe(
        &mut sim,
        DescribeAlarms {
            max_records: Some(2),
            ..DescribeAlarms::default()
        },
    );
    assert_eq!(
        (names(&page).len(), page["NextToken"].as_str()),
        (2, Some("2"))
    );
}

#[test]
fn alarm_names_with_a_prefix_or_a_state_cloudwatch_does_not_have_are_refused() {
    let mut sim = sim();
    let e = refused(
        &mut sim,
        CwCall::DescribeAlarms(DescribeAlarms {
            alarm_names: vec!["a".into()],
            alarm_name_prefix: Some("a".into()),
            ..DescribeAlarms::default()
        }),
    );
    assert_eq!(e.code, "InvalidParameterCombination");
    let e = refused(
        &mut sim,
        CwCall::DescribeAlarms(DescribeAlarms {
            state_value: Some("RED".into()),
            ..DescribeAlarms::default()
        }),
    );
    assert_eq!(e.code, "InvalidParameterValue");
    let e = refused(
        &mut sim,
        CwCall::DescribeAlarms(DescribeAlarms {
            next_token: Some("nope".into()),
            ..DescribeAlarms::default()
        }),
    );
    assert_eq!(e.code, "InvalidNextToken");
    let e = refused(
        &mut sim,
        CwCall::DescribeAlarms(DescribeAlarms {
            max_records: Some(101),
            ..DescribeAlarms::default()
        }),
    );
    assert!(e.message.contains("MaxRecords"), "{}", e.message);
}

#[test]
fn delete_alarms_removes_them_and_an_unknown_name_deletes_none() {
    let mut sim = sim();
    call(&mut sim, CwCall::PutMetricAlarm(alarm("slow", 1.0))).expect("made");
    let e = refused(
        &mut sim,
        CwCall::DeleteAlarms(DeleteAlarms {
            alarm_names: vec!["slow".into(), "nope".into()],
        }),
    );
    assert_eq!((e.code, e.status), ("ResourceNotFound", 404));
    assert_eq!(
        names(&describe(&mut sim, DescribeAlarms::default())),
        ["backlog", "slow"]
    );
    call(
        &mut sim,
        CwCall::DeleteAlarms(DeleteAlarms {
            alarm_names: vec!["slow".into(), "backlog".into()],
        }),
    )
    .expect("deleted");
    assert!(names(&describe(&mut sim, DescribeAlarms::default())).is_empty());
    assert!(sim.snapshot().alarms.is_empty());
    let e = refused(&mut sim, CwCall::DeleteAlarms(DeleteAlarms::default()));
    assert_eq!(e.code, "MissingParameter");
}

#[test]
fn each_member_put_metric_alarm_requires_is_missing_parameter_naming_it() {
    type Drop = fn(&mut PutMetricAlarm);
    let cases: [(&str, Drop); 8] = [
        ("AlarmName", |a| a.alarm_name = None),
        ("Namespace", |a| a.namespace = None),
        ("MetricName", |a| a.metric_name = None),
        ("Statistic", |a| a.statistic = None),
        ("Period", |a| a.period = None),
        ("EvaluationPeriods", |a| a.evaluation_periods = None),
        ("Threshold", |a| a.threshold = None),
        ("ComparisonOperator", |a| a.comparison_operator = None),
    ];
    for (member, drop) in cases {
        let mut a = alarm("a", 1.0);
        drop(&mut a);
        let e = refused(&mut sim(), CwCall::PutMetricAlarm(a));
        assert_eq!(e.code, "MissingParameter", "{member}");
        assert!(e.message.contains(member), "{member}: {}", e.message);
    }
}

#[test]
fn a_period_that_is_not_a_multiple_of_the_runs_resolution_is_refused() {
    let mut sim = {
        let doc = json!({ "title": "t", "durationMs": 1000, "metrics": { "resolutionSeconds": 10 },
            "queues": [{ "name": "orders" }] });
        Simulation::new(
            serde_json::from_value(doc).expect("a scenario"),
            Config::default(),
        )
        .expect("loads")
    };
    let a = PutMetricAlarm {
        period: Some(15),
        ..alarm("a", 1.0)
    };
    let e = refused(&mut sim, CwCall::PutMetricAlarm(a));
    assert_eq!(e.code, "InvalidParameterValue");
    assert!(
        e.message.starts_with("Period must be a multiple"),
        "{}",
        e.message
    );
}

#[test]
fn more_datapoints_to_alarm_than_evaluation_periods_or_more_than_a_day_are_refused() {
    let a = PutMetricAlarm {
        evaluation_periods: Some(2),
        datapoints_to_alarm: Some(3),
        ..alarm("a", 1.0)
    };
    let e = refused(&mut sim(), CwCall::PutMetricAlarm(a));
    assert!(e.message.starts_with("DatapointsToAlarm"), "{}", e.message);
    let a = PutMetricAlarm {
        evaluation_periods: Some(86_401),
        ..alarm("a", 1.0)
    };
    let e = refused(&mut sim(), CwCall::PutMetricAlarm(a));
    assert!(e.message.contains("at most a day"), "{}", e.message);
    let a = PutMetricAlarm {
        evaluation_periods: Some(0),
        ..alarm("a", 1.0)
    };
    let e = refused(&mut sim(), CwCall::PutMetricAlarm(a));
    assert!(e.message.contains("EvaluationPeriods"), "{}", e.message);
}

#[test]
fn a_statistic_or_operator_cloudwatch_does_not_have_is_refused_listing_its_words() {
    let a = PutMetricAlarm {
        statistic: Some("Median".into()),
        ..alarm("a", 1.0)
    };
    let e = refused(&mut sim(), CwCall::PutMetricAlarm(a));
    assert!(e.message.contains("SampleCount, Average"), "{}", e.message);
    let a = PutMetricAlarm {
        comparison_operator: Some("Above".into()),
        ..alarm("a", 1.0)
    };
    let e = refused(&mut sim(), CwCall::PutMetricAlarm(a));
    assert!(e.message.contains("GreaterThanThreshold"), "{}", e.message);
    let a = PutMetricAlarm {
        treat_missing_data: Some("zero".into()),
        ..alarm("a", 1.0)
    };
    let e = refused(&mut sim(), CwCall::PutMetricAlarm(a));
    assert!(e.message.contains("notBreaching"), "{}", e.message);
}

#[test]
fn statistic_with_extended_statistic_is_a_combination_and_percentiles_alone_are_not_simulated() {
    let a = PutMetricAlarm {
        extended_statistic: Some("p99".into()),
        ..alarm("a", 1.0)
    };
    assert_eq!(
        refused(&mut sim(), CwCall::PutMetricAlarm(a)).code,
        "InvalidParameterCombination"
    );
    let a = PutMetricAlarm {
        statistic: None,
        extended_statistic: Some("p99".into()),
        ..alarm("a", 1.0)
    };
    let e = refused(&mut sim(), CwCall::PutMetricAlarm(a));
    assert!(
        e.message.contains("percentiles are not simulated"),
        "{}",
        e.message
    );
}

#[test]
fn metric_math_alarms_are_refused_as_not_simulated() {
    let a = PutMetricAlarm {
        metric_math: true,
        ..alarm("a", 1.0)
    };
    let e = refused(&mut sim(), CwCall::PutMetricAlarm(a));
    assert!(e.message.contains("metric math"), "{}", e.message);
}

#[test]
fn an_action_that_is_not_an_sns_topic_of_the_run_is_refused() {
    let a = PutMetricAlarm {
        alarm_actions: vec!["arn:aws:automate:us-east-1:ec2:stop".into()],
        ..alarm("a", 1.0)
    };
    let e = refused(&mut sim(), CwCall::PutMetricAlarm(a));
    assert!(
        e.message
            .contains("arn:aws:sns:us-east-1:000000000000:<topic>"),
        "{}",
        e.message
    );
    let a = PutMetricAlarm {
        ok_actions: vec!["arn:aws:sns:us-east-1:000000000000:t".into(); 6],
        ..alarm("a", 1.0)
    };
    let e = refused(&mut sim(), CwCall::PutMetricAlarm(a));
    assert!(e.message.contains("greater than 5"), "{}", e.message);
}

#[test]
fn an_alarm_name_longer_than_255_characters_is_refused() {
    let a = PutMetricAlarm {
        alarm_name: Some("a".repeat(256)),
        ..alarm("a", 1.0)
    };
    let e = refused(&mut sim(), CwCall::PutMetricAlarm(a));
    assert!(e.message.contains("1 to 255"), "{}", e.message);
}

#[test]
fn alarms_past_max_run_alarms_are_limit_exceeded() {
    let mut sim = sim();
    for i in 1..MAX_RUN_ALARMS {
        call(
            &mut sim,
            CwCall::PutMetricAlarm(alarm(&format!("a{i}"), 1.0)),
        )
        .expect("within");
    }
    let e = refused(&mut sim, CwCall::PutMetricAlarm(alarm("one-more", 1.0)));
    assert_eq!(e.code, "LimitExceeded");
    assert!(e.message.contains("MAX_RUN_ALARMS"), "{}", e.message);
    call(&mut sim, CwCall::PutMetricAlarm(alarm("a1", 2.0))).expect("replacing is not adding");
}

#[test]
fn an_alarm_with_actions_disabled_logs_its_change_without_actions() {
    let mut sim = sim();
    let a = PutMetricAlarm {
        actions_enabled: Some(false),
        alarm_actions: vec!["arn:aws:sns:us-east-1:000000000000:ops".into()],
        ..alarm("quiet", 1.0)
    };
    call(&mut sim, CwCall::PutMetricAlarm(a)).expect("made");
    call(
        &mut sim,
        put("OrderProcessing", vec![datum("ProcessingTime", 5.0)]),
    )
    .expect("put");
    sim.advance(1000);
    let actions: Vec<Vec<String>> = sim
        .events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::AlarmChanged { alarm, actions, .. })
                if &*alarm == "quiet" =>
            {
                Some(actions)
            }
            _ => None,
        })
        .collect();
    assert_eq!(actions, [Vec::<String>::new()]);
}

#[test]
fn list_metrics_lists_custom_and_queue_metrics_by_namespace_name_and_dimension() {
    let mut sim = sim();
    let d = MetricDatum {
        dimensions: vec![Dimension {
            name: Some("Stage".into()),
            value: Some("prod".into()),
        }],
        ..datum("Checkouts", 1.0)
    };
    call(&mut sim, put("Shop", vec![d, datum("Refunds", 1.0)])).expect("put");
    sim.advance(1000);
    let listed = |c: ListMetrics, sim: &mut Simulation| {
        let v =
            serde_json::to_value(call(sim, CwCall::ListMetrics(c)).expect("listed")).expect("JSON");
        (v["Metrics"].as_array().expect("a list").iter())
            .map(|m| m["MetricName"].as_str().expect("a name").to_string())
            .collect::<Vec<_>>()
    };
    let shop = listed(
        ListMetrics {
            namespace: Some("Shop".into()),
            ..ListMetrics::default()
        },
        &mut sim,
    );
    assert_eq!(shop, ["Checkouts", "Refunds"]);
    let staged = listed(
        ListMetrics {
            dimensions: vec![queuelab_simulation::cloudwatch::api::DimensionFilter {
                name: Some("Stage".into()),
                value: None,
            }],
            ..ListMetrics::default()
        },
        &mut sim,
    );
    assert_eq!(staged, ["Checkouts"]);
    let sqs = listed(
        ListMetrics {
            namespace: Some("AWS/SQS".into()),
            metric_name: Some("NumberOfMessagesSent".into()),
            ..ListMetrics::default()
        },
        &mut sim,
    );
    assert_eq!(sqs, ["NumberOfMessagesSent"]);
}

fn publishing(extra: Value) -> Simulation {
    let mut doc = json!({
        "title": "publishes", "durationMs": 10_000,
        "metrics": { "resolutionSeconds": 1 },
        "queues": [{ "name": "orders" }],
        "producers": [{ "name": "shop", "queue": "orders",
            "sends": [{ "atMs": 100, "body": "order 1" }, { "atMs": 200, "body": "bad order 2" }] }],
        "consumers": [{ "name": "worker", "queue": "orders", "processing": { "fixedMs": 300 },
            "pollIntervalMs": 100, "behaviour": { "failsOn": ["bad"] },
            "publishMetrics": { "namespace": "OrderProcessing" } }],
    });
    for (k, v) in extra.as_object().expect("an object") {
        doc[k] = v.clone();
    }
    let scenario: Scenario = serde_json::from_value(doc).expect("a scenario");
    Simulation::new(scenario, Config::default()).expect("loads")
}

#[test]
fn a_consumer_with_publish_metrics_puts_processing_time_and_success_after_each_message() {
    let mut sim = publishing(json!({}));
    sim.advance(1000);
    assert_eq!(
        steps(&sim, "OrderProcessing", "ProcessingTime"),
        [(0, 600.0, 2.0)]
    );
    assert_eq!(
        steps(&sim, "OrderProcessing", "ProcessingSuccess"),
        [(0, 1.0, 2.0)]
    );
    let metrics = sim.metrics(0);
    let units: Vec<&str> = (metrics.series.iter())
        .filter(|s| s.metric.namespace == "OrderProcessing")
        .map(|s| s.unit.as_str())
        .collect();
    assert_eq!(units, ["Count", "Milliseconds"]);
}

#[test]
fn a_scenario_alarm_watches_a_consumers_published_metric() {
    let alarm = json!([{ "name": "failures", "namespace": "OrderProcessing",
        "metricName": "ProcessingSuccess", "statistic": "Minimum", "threshold": 1,
        "comparisonOperator": "LessThanThreshold" }]);
    let mut sim = publishing(json!({ "alarms": alarm }));
    sim.advance(2000);
    assert_eq!(
        alarm_changes(&sim, "failures"),
        [(1000, AlarmState::InsufficientData, AlarmState::ALARM)]
    );
}

#[test]
fn a_publish_metrics_namespace_beginning_with_aws_is_refused_at_its_field() {
    let mut doc = serde_json::to_value(publishing(json!({})).scenario()).expect("JSON");
    doc["consumers"][0]["publishMetrics"]["namespace"] = json!("AWS/SQS");
    let scenario: Scenario = serde_json::from_value(doc).expect("a scenario");
    let e = scenario.validate().expect_err("refused");
    assert_eq!(e.path, "consumers[0].publishMetrics.namespace");
    assert!(e.rule.contains("reserved"), "{}", e.rule);
}

#[test]
fn a_put_alarms_action_publishes_cloudwatchs_notification_to_the_runs_topic() {
    let policy = json!({ "Version": "2012-10-17", "Statement": [{ "Effect": "Allow",
        "Principal": { "Service": "sns.amazonaws.com" }, "Action": "sqs:SendMessage",
        "Resource": "arn:aws:sqs:us-east-1:000000000000:ops-inbox" }] });
    let doc = json!({
        "title": "actions", "durationMs": 5000, "metrics": { "resolutionSeconds": 1 },
        "queues": [{ "name": "ops-inbox", "policy": policy }],
        "topics": [{ "name": "ops", "subscriptions": [{ "queue": "ops-inbox", "rawMessageDelivery": true }] }],
    });
    let mut sim = Simulation::new(
        serde_json::from_value(doc).expect("a scenario"),
        Config::default(),
    )
    .expect("loads");
    let a = PutMetricAlarm {
        alarm_actions: vec!["arn:aws:sns:us-east-1:000000000000:ops".into()],
        ..alarm("slow", 100.0)
    };
    call(&mut sim, CwCall::PutMetricAlarm(a)).expect("made");
    call(
        &mut sim,
        put("OrderProcessing", vec![datum("ProcessingTime", 250.0)]),
    )
    .expect("put");
    sim.advance(1000);
    let published: Vec<String> = sim
        .events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::TopicPublished { topic, .. }) => Some(topic.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(
        published,
        ["ops"],
        "the alarm's change into ALARM published to the topic"
    );
    let snapshot = sim.engine().snapshot();
    let inbox = (snapshot.queues.iter())
        .find(|q| q.name == "ops-inbox")
        .expect("the queue");
    assert_eq!(inbox.messages.len(), 1);
    let body = &inbox.messages[0].body;
    assert!(body.contains(r#""AlarmName":"slow""#), "{body}");
    assert!(body.contains(r#""NewStateValue":"ALARM""#), "{body}");
}

#[test]
fn a_next_token_past_every_alarm_or_metric_answers_an_empty_page() {
    let mut sim = sim();
    let huge = usize::MAX.to_string();
    let d = describe(
        &mut sim,
        DescribeAlarms {
            next_token: Some(huge.clone()),
            ..DescribeAlarms::default()
        },
    );
    assert_eq!((names(&d).len(), d.get("NextToken")), (0, None));
    let listed = call(
        &mut sim,
        CwCall::ListMetrics(ListMetrics {
            next_token: Some(huge),
            ..ListMetrics::default()
        }),
    )
    .expect("listed");
    assert_eq!(
        serde_json::to_value(listed).expect("JSON"),
        json!({ "Metrics": [] })
    );
}
