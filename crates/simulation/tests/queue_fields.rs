//! A scenario's queue fields held to what CreateQueue accepts, refused in
//! plain words at their path (`Scenario::validate`), never as SQS's own
//! "Invalid value for the parameter VisibilityTimeout." (issue 12: errors
//! appear beside what caused them, in plain words). The ranges are the
//! engine's (`AttributeName::range`), so the two cannot disagree.

use queuelab_engine::{
    AttributeName, Config, Engine, QueueAttribute, RedrivePolicy, Tags, MAX_VIRTUAL_MS,
};
use queuelab_simulation::{rule_for, FieldError, Scenario, Simulation};
use serde_json::{json, Value};

fn scenario(queues: Value) -> Scenario {
    serde_json::from_value(json!({ "title": "t", "durationMs": 1000, "queues": queues }))
        .expect("a well-formed scenario")
}

/// `validate`'s refusal of a scenario with these queues.
fn refusal(queues: Value) -> FieldError {
    scenario(queues).validate().expect_err("refused")
}

/// The sentence `Simulation::new` refuses these queues with.
fn load_error(queues: Value) -> String {
    match Simulation::new(scenario(queues), Config::default()) {
        Ok(_) => panic!("the scenario loaded"),
        Err(e) => e.message,
    }
}

#[test]
fn a_queue_visibility_timeout_over_12_hours_is_refused_in_plain_words_naming_the_field() {
    let queues = json!([{ "name": "orders", "visibilityTimeoutSeconds": 50000 }]);
    let error = refusal(queues.clone());
    assert_eq!(error.path, "queues[0].visibilityTimeoutSeconds");
    assert_eq!(
        error.rule,
        "a whole number of seconds from 0 to 43200 (12 hours), the range SQS allows for \
         VisibilityTimeout"
    );
    assert_eq!(error.got, "50000");
    let said = load_error(queues);
    assert!(
        said.contains(
            "queues[0].visibilityTimeoutSeconds must be a whole number of seconds from 0 to \
             43200 (12 hours), the range SQS allows for VisibilityTimeout, got 50000"
        ),
        "{said}"
    );
    assert!(!said.contains("Invalid value for the parameter"), "{said}");
}

#[test]
fn every_queue_attribute_out_of_range_is_refused_in_plain_words_naming_the_field() {
    let cases = [
        (
            json!({ "visibilityTimeoutSeconds": -1 }),
            "queues[1].visibilityTimeoutSeconds must be a whole number of seconds from 0 to 43200 (12 hours), the range SQS allows for VisibilityTimeout, got -1",
        ),
        (
            json!({ "delaySeconds": 901 }),
            "queues[1].delaySeconds must be a whole number of seconds from 0 to 900 (15 minutes), the range SQS allows for DelaySeconds, got 901",
        ),
        (
            json!({ "messageRetentionPeriodSeconds": 30 }),
            "queues[1].messageRetentionPeriodSeconds must be a whole number of seconds from 60 (1 minute) to 1209600 (14 days), the range SQS allows for MessageRetentionPeriod, got 30",
        ),
        (
            json!({ "messageRetentionPeriodSeconds": 1_209_601 }),
            "queues[1].messageRetentionPeriodSeconds must be a whole number of seconds from 60 (1 minute) to 1209600 (14 days), the range SQS allows for MessageRetentionPeriod, got 1209601",
        ),
        (
            json!({ "receiveMessageWaitTimeSeconds": 21 }),
            "queues[1].receiveMessageWaitTimeSeconds must be a whole number of seconds from 0 to 20, the range SQS allows for ReceiveMessageWaitTimeSeconds, got 21",
        ),
        (
            json!({ "redrive": { "deadLetterQueue": "dlq", "maxReceiveCount": 0 } }),
            "queues[1].redrive.maxReceiveCount must be a whole number from 1 to 1000, the range SQS allows for maxReceiveCount, got 0",
        ),
        (
            json!({ "redrive": { "deadLetterQueue": "dlq", "maxReceiveCount": 1001 } }),
            "queues[1].redrive.maxReceiveCount must be a whole number from 1 to 1000, the range SQS allows for maxReceiveCount, got 1001",
        ),
    ];
    for (fields, sentence) in cases {
        let mut queue = json!({ "name": "work" });
        for (k, v) in fields.as_object().unwrap() {
            queue[k] = v.clone();
        }
        let queues = json!([{ "name": "dlq" }, queue]);
        assert_eq!(refusal(queues.clone()).to_string(), sentence);
        let said = load_error(queues);
        assert!(said.contains(sentence), "{said}");
    }
}

/// One fact, one place: at each end of an attribute's range, and one past
/// it, the scenario and the engine's own CreateQueue give the same answer.
#[test]
fn the_scenario_and_create_queue_agree_at_both_ends_of_every_range() {
    let fields = [
        ("visibilityTimeoutSeconds", AttributeName::VisibilityTimeout),
        ("delaySeconds", AttributeName::DelaySeconds),
        (
            "messageRetentionPeriodSeconds",
            AttributeName::MessageRetentionPeriod,
        ),
        (
            "receiveMessageWaitTimeSeconds",
            AttributeName::ReceiveMessageWaitTimeSeconds,
        ),
    ];
    let attribute = |name: AttributeName, v: i64| match name {
        AttributeName::VisibilityTimeout => QueueAttribute::VisibilityTimeout(v),
        AttributeName::DelaySeconds => QueueAttribute::DelaySeconds(v),
        AttributeName::MessageRetentionPeriod => QueueAttribute::MessageRetentionPeriod(v),
        _ => QueueAttribute::ReceiveMessageWaitTimeSeconds(v),
    };
    for (field, name) in fields {
        let (lo, hi) = name.range().expect("a numeric attribute");
        for v in [lo - 1, lo, hi, hi + 1] {
            let in_scenario = scenario(json!([{ "name": "q", field: v }]))
                .validate()
                .is_ok();
            let mut engine = Engine::new(Config::default());
            let in_engine = engine
                .create_queue("q", &[attribute(name, v)], &Tags::new())
                .is_ok();
            assert_eq!(in_scenario, in_engine, "{field} = {v}");
            assert_eq!(in_scenario, (lo..=hi).contains(&v), "{field} = {v}");
        }
    }
    let (lo, hi) = RedrivePolicy::MAX_RECEIVE_COUNT_RANGE;
    for count in [lo - 1, lo, hi, hi + 1] {
        let queues = json!([
            { "name": "dlq" },
            { "name": "q", "redrive": { "deadLetterQueue": "dlq", "maxReceiveCount": count } }
        ]);
        let in_scenario = scenario(queues.clone()).validate().is_ok();
        let mut engine = Engine::new(Config::default());
        engine.create_queue("dlq", &[], &Tags::new()).unwrap();
        let policy = RedrivePolicy {
            dead_letter_target_arn: "arn:aws:sqs:us-east-1:000000000000:dlq".into(),
            max_receive_count: count,
            text: String::new(),
        };
        let in_engine = engine
            .create_queue(
                "q",
                &[QueueAttribute::RedrivePolicy(Some(policy))],
                &Tags::new(),
            )
            .is_ok();
        assert_eq!(in_scenario, in_engine, "maxReceiveCount = {count}");
        assert_eq!(in_scenario, (lo..=hi).contains(&count));
        if in_scenario {
            Simulation::new(scenario(queues), Config::default()).expect("loads");
        }
    }
}

#[test]
fn a_fifo_only_field_on_a_standard_queue_is_refused_in_plain_words_naming_the_field() {
    for (field, value, got) in [
        ("contentBasedDeduplication", json!(false), "false"),
        (
            "deduplicationScope",
            json!("messageGroup"),
            "\"messageGroup\"",
        ),
    ] {
        let queues = json!([{ "name": "orders", field: value }]);
        let error = refusal(queues.clone());
        assert_eq!(error.path, format!("queues[0].{field}"));
        assert_eq!(
            error.rule,
            "left out on a standard queue (it is for FIFO queues, whose names end in .fifo)"
        );
        assert_eq!(error.got, got);
        assert!(load_error(queues).contains(&error.to_string()));
        // The same field on a FIFO queue loads.
        let fifo = json!([{ "name": "orders.fifo", field: value }]);
        Simulation::new(scenario(fifo), Config::default()).expect("a FIFO queue takes it");
    }
}

#[test]
fn an_unknown_deduplication_scope_is_refused_naming_the_field_and_its_two_values() {
    let error = refusal(json!([{ "name": "o.fifo", "deduplicationScope": "group" }]));
    assert_eq!(
        error.to_string(),
        "queues[0].deduplicationScope must be \"queue\" or \"messageGroup\", got \"group\""
    );
}

#[test]
fn a_dead_letter_queue_not_listed_before_its_source_is_refused_naming_the_field() {
    let error = refusal(json!([
        { "name": "work", "redrive": { "deadLetterQueue": "dlq", "maxReceiveCount": 3 } },
        { "name": "dlq" }
    ]));
    assert_eq!(
        error.to_string(),
        "queues[0].redrive.deadLetterQueue must be the name of a queue listed before this one \
         (queues are created in order), got \"dlq\""
    );
}

#[test]
fn a_dead_letter_queue_of_the_other_type_is_refused_naming_the_field() {
    let error = refusal(json!([
        { "name": "dlq" },
        { "name": "work.fifo", "redrive": { "deadLetterQueue": "dlq", "maxReceiveCount": 3 } }
    ]));
    assert_eq!(error.path, "queues[1].redrive.deadLetterQueue");
    assert_eq!(
        error.rule,
        "the name of a FIFO queue listed before this one (SQS moves messages only between \
         queues of the same type)"
    );
    let error = refusal(json!([
        { "name": "dlq.fifo" },
        { "name": "work", "redrive": { "deadLetterQueue": "dlq.fifo", "maxReceiveCount": 3 } }
    ]));
    assert!(
        error.rule.starts_with("the name of a standard queue"),
        "{error}"
    );
}

/// A value the JSON decoder refuses (a fraction) at a queue field is worded
/// with the same range (crates/wasm's scenario errors use `rule_for`).
#[test]
fn a_queue_fields_rule_is_worded_for_any_refusal_at_its_path() {
    assert_eq!(
        rule_for("queues[2].delaySeconds").unwrap(),
        "a whole number of seconds from 0 to 900 (15 minutes), the range SQS allows for DelaySeconds"
    );
    assert_eq!(
        rule_for("queues[0].redrive.maxReceiveCount").unwrap(),
        "a whole number from 1 to 1000, the range SQS allows for maxReceiveCount"
    );
    // Consumers' wording is unchanged.
    assert_eq!(
        rule_for("consumers[0].waitTimeSeconds").unwrap(),
        "a whole number of seconds from 0 to 20"
    );
    assert!(rule_for("durationMs").unwrap().ends_with(&format!(
        "to {MAX_VIRTUAL_MS} (2^53 − 1, the last moment virtual time reaches)"
    )));
}

#[test]
fn a_queue_name_sqs_refuses_is_refused_in_plain_words_naming_the_field() {
    let error = refusal(json!([{ "name": "my orders" }]));
    assert_eq!(
        error.to_string(),
        "queues[0].name must be 1 to 80 letters, digits, hyphens or underscores (a FIFO \
         queue's: 1 to 75 of them, then .fifo), got \"my orders\""
    );
    for name in [
        "a".repeat(81),
        format!("{}.fifo", "a".repeat(76)),
        String::new(),
    ] {
        assert_eq!(refusal(json!([{ "name": name }])).path, "queues[0].name");
    }
    for name in ["a".repeat(80), format!("{}.fifo", "a".repeat(75))] {
        Simulation::new(scenario(json!([{ "name": name }])), Config::default()).expect("loads");
    }
}

/// A hostile file's megabyte of text is not copied into its refusal.
#[test]
fn a_refused_queue_text_is_repeated_only_in_part() {
    let long = "x".repeat(1_000_000);
    let error = refusal(json!([{ "name": format!("{long} y") }]));
    assert!(error.got.len() < 5_000, "{} bytes", error.got.len());
    let error = refusal(json!([{ "name": "q.fifo", "deduplicationScope": long }]));
    assert!(error.got.ends_with("…\""), "{}", &error.got[..20]);
    assert!(error.got.len() < 5_000, "{} bytes", error.got.len());
}
