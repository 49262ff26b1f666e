//! Knobs over a Lambda function's event source mapping and over an
//! alarm's fields, and the goal conditions on alarms (`alarmFires`,
//! `alarmNotifies`), on the shipped labs that use them.

use queuelab_simulation::{KnobValue, Scenario, Settings, Statistic};

fn lab(file: &str) -> Scenario {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/scenarios/labs")
        .join(file);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn settings(json: &str) -> Settings {
    serde_json::from_str(json).unwrap()
}

#[test]
fn an_alarm_knob_writes_the_alarms_own_field() {
    let s = lab("14-silent-alarm.json");
    let fixed = s
        .with_settings(&settings(
            r#"{"statistic":"Average","period":10,"threshold":40}"#,
        ))
        .unwrap();
    let alarm = &fixed.alarms[0];
    assert_eq!(alarm.statistic, Some(Statistic::Average));
    assert_eq!(alarm.period_seconds, Some(10));
    assert_eq!(alarm.threshold, 40.0);
    assert_eq!(
        s.lab_settings()["statistic"],
        KnobValue::Text("SampleCount".into())
    );
}

#[test]
fn a_statistic_that_is_not_one_of_cloudwatchs_is_refused_naming_the_choices() {
    let s = lab("14-silent-alarm.json");
    let e = s
        .with_settings(&settings(r#"{"statistic":"Median"}"#))
        .unwrap_err();
    assert_eq!(e.path, "settings.statistic");
    assert!(e.rule.contains("\"Maximum\""), "{}", e.rule);
}

#[test]
fn add_alarm_none_leaves_the_alarm_out_and_a_metric_adds_it_on_that_metric() {
    let s = lab("15-unwatched-dlq.json");
    assert_eq!(s.lab_settings()["dlqAlarm"], KnobValue::Text("none".into()));
    assert!(!s.alarms.iter().any(|a| a.name == "dlq-not-empty"));
    let on = s
        .with_settings(&settings(r#"{"dlqAlarm":"NumberOfMessagesSent"}"#))
        .unwrap();
    let added = on
        .alarms
        .iter()
        .find(|a| a.name == "dlq-not-empty")
        .unwrap();
    assert_eq!(added.metric_name(), "NumberOfMessagesSent");
    assert_eq!(added.alarm_actions, vec!["ops-pager".to_string()]);
    let off = on
        .with_settings(&settings(r#"{"dlqAlarm":"none"}"#))
        .unwrap();
    assert!(!off.alarms.iter().any(|a| a.name == "dlq-not-empty"));
}

#[test]
fn an_alarm_knob_naming_no_alarm_is_refused_at_its_selector() {
    let mut s = lab("14-silent-alarm.json");
    s.knobs[0].target = serde_json::from_str(r#"{"alarmStatistic":{"alarm":"nope"}}"#).unwrap();
    let e = s.validate().unwrap_err();
    assert_eq!(e.path, "knobs[0].target.alarmStatistic.alarm");
}

#[test]
fn a_lambda_knob_naming_no_function_is_refused_at_its_selector() {
    let mut s = lab("03-lost-batches.json");
    s.knobs[0].target =
        serde_json::from_str(r#"{"functionResponseTypes":{"lambda":"nope"}}"#).unwrap();
    let e = s.validate().unwrap_err();
    assert_eq!(e.path, "knobs[0].target.functionResponseTypes.lambda");
}

#[test]
fn report_batch_item_failures_is_the_mappings_function_response_types() {
    let s = lab("03-lost-batches.json");
    let on = s
        .with_settings(&settings(
            r#"{"reportBatchItemFailures":true,"batchSize":4}"#,
        ))
        .unwrap();
    assert_eq!(
        on.lambdas[0].function_response_types,
        vec!["ReportBatchItemFailures".to_string()]
    );
    assert_eq!(on.lambdas[0].batch_size, 4);
}

#[test]
fn a_function_timeout_knob_is_ranged_by_lambdas_own_range() {
    let mut s = lab("13-timeout-trap.json");
    s.knobs[1].max = Some(901);
    let e = s.validate().unwrap_err();
    assert_eq!(e.path, "knobs[1].max");
    assert!(e.rule.contains("from 1 to 900"), "{}", e.rule);
}

#[test]
fn an_alarm_that_fires_before_not_before_ms_breaks_alarm_fires_as_a_false_alarm() {
    let mut s = lab("14-silent-alarm.json");
    // Fires from the first period: ten datapoints a period, at least 1.
    let mut run = s
        .with_settings(&settings(
            r#"{"statistic":"SampleCount","period":10,"threshold":1}"#,
        ))
        .unwrap();
    run.seed = 1;
    s = run;
    let mut sim = queuelab_simulation::Simulation::new(s.clone(), Default::default()).unwrap();
    sim.advance(s.duration_ms);
    let breach = sim.goal_breach().expect("a false alarm");
    assert_eq!(breach.condition, "alarmFires");
    assert!(breach.text.contains("a false alarm"), "{}", breach.text);
}

#[test]
fn alarm_notifies_names_the_alarms_that_fired_without_an_action_on_the_topic() {
    let s = lab("15-unwatched-dlq.json");
    let mut run = s
        .with_settings(&settings(
            r#"{"dlqAlarm":"ApproximateNumberOfMessagesVisible"}"#,
        ))
        .unwrap();
    // The DLQ's alarm pages nobody; the backlog alarm never fires.
    for a in run.alarms.iter_mut().filter(|a| a.name == "dlq-not-empty") {
        a.alarm_actions.clear();
    }
    let mut sim = queuelab_simulation::Simulation::new(run.clone(), Default::default()).unwrap();
    sim.advance(run.duration_ms);
    let breach = sim.goal_breach().expect("no page");
    assert_eq!(breach.condition, "alarmNotifies");
    assert_eq!(
        breach.text,
        "no alarm notified ops-pager by t = 30 s: dlq-not-empty went into ALARM, but it has no action on ops-pager"
    );
}
