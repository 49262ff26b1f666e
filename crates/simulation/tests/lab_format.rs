//! The lab format: `goal`, `knobs` and `explain` on a scenario, checked at
//! load with the field's path and the rule in words, and knob settings
//! applied to typed scenario fields.

use queuelab_simulation::{KnobValue, Scenario, Settings};
use serde_json::{json, Value};

/// A small lab: a slow worker under a short visibility timeout.
fn lab() -> Value {
    json!({
        "title": "Duplicate orders",
        "durationMs": 30000,
        "queues": [
            { "name": "orders-dlq" },
            { "name": "orders", "visibilityTimeoutSeconds": 2 }
        ],
        "producers": [{ "name": "shop", "queue": "orders", "sends": [
            { "atMs": 0, "body": "order A-1001: charge $25", "attributes": { "customer": "C-1" } }
        ]}],
        "consumers": [
            { "name": "worker-1", "queue": "orders", "waitTimeSeconds": 20, "processing": { "fixedMs": 3000 } },
            { "name": "worker-2", "queue": "orders", "waitTimeSeconds": 20, "processing": { "fixedMs": 3000 } }
        ],
        "goal": { "sideEffectsAtMost": 1, "processedByMs": 20000 },
        "knobs": [
            { "id": "visibility", "label": "Visibility timeout",
              "target": { "visibilityTimeoutSeconds": { "queue": "orders" } }, "min": 1, "max": 180 },
            { "id": "heartbeat", "label": "Heartbeat every",
              "target": { "heartbeatEveryMs": { "consumer": "*" } }, "min": 500, "max": 5000, "off": true },
            { "id": "idempotent", "label": "Idempotent handler",
              "target": { "idempotent": { "consumer": "*" } } },
            { "id": "redrive", "label": "Dead-letter queue after N receives",
              "target": { "redrive": { "queue": "orders", "deadLetterQueue": "orders-dlq" } },
              "min": 1, "max": 10, "off": true }
        ],
        "explain": {
            "hints": ["How long does one order take?"],
            "cause": "Processing outlasts the visibility timeout.",
            "fix": "A longer visibility timeout.",
            "doc": { "title": "Visibility timeout",
                     "url": "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-visibility-timeout.html" },
            "fixes": [{ "name": "Longer", "settings": { "visibility": 10 } }],
            "nonFixes": [{ "name": "Far longer", "settings": { "visibility": 180 },
                           "fails": "processedByMs", "why": "A failure is retried late." }]
        }
    })
}

fn parse(value: Value) -> Scenario {
    serde_json::from_value(value).expect("a scenario")
}

/// The sentence `validate` refuses the lab with after `change`.
fn refusal(change: impl FnOnce(&mut Value)) -> String {
    let mut value = lab();
    change(&mut value);
    parse(value).validate().expect_err("refused").to_string()
}

fn settings(value: Value) -> Settings {
    serde_json::from_value(value).expect("settings")
}

#[test]
fn a_lab_with_goal_knobs_and_explain_is_valid() {
    parse(lab()).validate().expect("valid");
}

#[test]
fn a_scenario_without_lab_parts_writes_none_of_them() {
    let mut value = lab();
    let map = value.as_object_mut().unwrap();
    for key in ["goal", "knobs", "explain"] {
        map.remove(key);
    }
    let written = serde_json::to_value(parse(value)).unwrap();
    for key in ["goal", "knobs", "explain"] {
        assert!(written.get(key).is_none(), "{key} written: {written}");
    }
}

#[test]
fn lab_settings_are_the_files_own_values() {
    let s = parse(lab());
    let expected = settings(json!({
        "visibility": 2, "heartbeat": "off", "idempotent": false, "redrive": "off"
    }));
    assert_eq!(s.lab_settings(), expected);
}

#[test]
fn with_settings_writes_each_knobs_field() {
    let s = parse(lab());
    let applied = s
        .with_settings(&settings(json!({
            "visibility": 10, "heartbeat": 1000, "idempotent": true, "redrive": 3
        })))
        .expect("applied");
    assert_eq!(applied.queues[1].visibility_timeout_seconds, Some(10));
    let redrive = applied.queues[1].redrive.as_ref().expect("a redrive");
    assert_eq!(
        (
            redrive.dead_letter_queue.as_str(),
            redrive.max_receive_count
        ),
        ("orders-dlq", 3)
    );
    for c in &applied.consumers {
        assert_eq!(c.behaviour.heartbeat_every_ms, Some(1000), "{}", c.name);
        assert!(c.behaviour.idempotent, "{}", c.name);
    }
    // Goal, knobs and explanation stay: the result is a lab like the file.
    assert_eq!(
        (applied.goal.clone(), applied.knobs.len()),
        (s.goal.clone(), 4)
    );
    applied.validate().expect("still valid");
    // The settings read back are the ones applied.
    assert_eq!(applied.lab_settings()["visibility"], KnobValue::Int(10));
}

#[test]
fn an_off_setting_leaves_the_field_out() {
    let s = parse(lab());
    let on = s
        .with_settings(&settings(json!({ "redrive": 3, "heartbeat": 1000 })))
        .unwrap();
    let off = on
        .with_settings(&settings(json!({ "redrive": "off", "heartbeat": "off" })))
        .unwrap();
    assert_eq!(off.queues[1].redrive, None);
    assert!(off
        .consumers
        .iter()
        .all(|c| c.behaviour.heartbeat_every_ms.is_none()));
}

#[test]
fn settings_that_name_no_knob_are_refused_with_the_knobs_ids() {
    let error = parse(lab())
        .with_settings(&settings(json!({ "colour": 3 })))
        .unwrap_err();
    assert_eq!(error.path, "settings.colour");
    assert_eq!(
        error.to_string(),
        "settings.colour must be the id of one of this lab's knobs (visibility, heartbeat, \
         idempotent, redrive), got \"colour\""
    );
}

#[test]
fn settings_outside_a_knobs_range_are_refused_in_its_unit() {
    let s = parse(lab());
    let refused = |v: Value| s.with_settings(&settings(v)).unwrap_err().to_string();
    assert_eq!(
        refused(json!({ "visibility": 0 })),
        "settings.visibility must be a whole number of seconds from 1 to 180, got 0"
    );
    assert_eq!(
        refused(json!({ "visibility": "off" })),
        "settings.visibility must be a whole number of seconds from 1 to 180, got \"off\""
    );
    assert_eq!(
        refused(json!({ "heartbeat": 100 })),
        "settings.heartbeat must be a whole number of milliseconds from 500 to 5000, or \"off\", got 100"
    );
    assert_eq!(
        refused(json!({ "idempotent": 1 })),
        "settings.idempotent must be true or false, got 1"
    );
}

#[test]
fn a_knob_naming_no_consumer_is_refused() {
    let text =
        refusal(|v| v["knobs"][1]["target"]["heartbeatEveryMs"]["consumer"] = json!("worker-9"));
    assert_eq!(
        text,
        "knobs[1].target.heartbeatEveryMs.consumer must be \"*\" or the name of one of the \
         scenario's consumers, got \"worker-9\""
    );
}

#[test]
fn a_knob_naming_no_queue_is_refused() {
    let text =
        refusal(|v| v["knobs"][0]["target"]["visibilityTimeoutSeconds"]["queue"] = json!("order"));
    assert_eq!(
        text,
        "knobs[0].target.visibilityTimeoutSeconds.queue must be the name of one of the scenario's \
         queues, got \"order\""
    );
}

#[test]
fn a_redrive_knob_to_a_queue_listed_later_is_refused() {
    let text = refusal(|v| {
        v["knobs"][3]["target"]["redrive"] =
            json!({ "queue": "orders-dlq", "deadLetterQueue": "orders" })
    });
    assert!(text.starts_with("knobs[3].target.redrive.deadLetterQueue must be the name of a queue listed before \"orders-dlq\""), "{text}");
}

#[test]
fn a_knob_range_beyond_what_sqs_allows_is_refused() {
    let text = refusal(|v| v["knobs"][0]["max"] = json!(50000));
    assert_eq!(
        text,
        "knobs[0].max must be a whole number of seconds from 0 to 43200 (12 hours), the range SQS \
         allows for VisibilityTimeout, got 50000"
    );
    let text = refusal(|v| v["knobs"][0]["min"] = json!(200));
    assert_eq!(text, "knobs[0].max must be at least min (200), got 180");
    let text = refusal(|v| {
        v["knobs"][0].as_object_mut().unwrap().remove("max");
    });
    assert!(
        text.starts_with("knobs[0].max must be given: a number knob gives min and max"),
        "{text}"
    );
}

#[test]
fn a_knob_whose_range_leaves_out_the_files_value_is_refused() {
    let text = refusal(|v| v["knobs"][0]["min"] = json!(5));
    assert_eq!(
        text,
        "knobs[0] must be a knob whose range holds the file's own setting \
         (queues[1].visibilityTimeoutSeconds): a whole number of seconds from 5 to 180, got 2"
    );
}

#[test]
fn off_on_a_field_that_cannot_be_left_out_is_refused() {
    let text = refusal(|v| v["knobs"][0]["off"] = json!(true));
    assert!(
        text.starts_with("knobs[0].off must be left out: visibilityTimeoutSeconds cannot be off"),
        "{text}"
    );
    let text = refusal(|v| v["knobs"][2]["min"] = json!(1));
    assert_eq!(
        text,
        "knobs[2].min must be left out: idempotent is a toggle (true or false), got a value"
    );
}

#[test]
fn knob_ids_are_unique() {
    let text = refusal(|v| v["knobs"][2]["id"] = json!("visibility"));
    assert_eq!(
        text,
        "knobs[2].id must be a name no other knob has, got \"visibility\""
    );
}

#[test]
fn a_goal_without_conditions_is_refused() {
    let text = refusal(|v| v["goal"] = json!({ "summary": "Nothing" }));
    assert!(
        text.starts_with("goal must be a goal with at least one condition"),
        "{text}"
    );
}

#[test]
fn a_goal_moment_past_the_run_is_refused() {
    let text = refusal(|v| v["goal"]["processedByMs"] = json!(90000));
    assert_eq!(
        text,
        "goal.processedByMs must be a moment within the run (0 to durationMs = 30000), got 90000"
    );
}

#[test]
fn goal_queues_name_the_scenarios_queues() {
    let text =
        refusal(|v| v["goal"]["oldestAge"] = json!({ "queue": "order", "atMostSeconds": 5 }));
    assert_eq!(
        text,
        "goal.oldestAge.queue must be the name of one of the scenario's queues, got \"order\""
    );
    let text = refusal(|v| v["goal"]["poison"] = json!(["malformed"]));
    assert_eq!(
        text,
        "goal.deadLetterQueue must be given when goal.poison is (where should the poison messages \
         end?), got nothing"
    );
}

#[test]
fn side_effects_exactly_zero_is_refused() {
    let text = refusal(|v| v["goal"]["sideEffectsExactly"] = json!(0));
    assert_eq!(
        text,
        "goal.sideEffectsExactly must be 1 or more (to forbid the side effect, use \
         sideEffectsAtMost 0), got 0"
    );
}

#[test]
fn order_kept_per_an_attribute_a_rate_cannot_carry_is_refused() {
    let text = refusal(|v| {
        v["goal"]["orderKeptPer"] = json!("customer");
        v["producers"][0]["rate"] = json!({ "everyMs": 100, "count": 3, "body": "order #{n}" });
    });
    assert_eq!(
        text,
        "producers[0].rate must be left out when goal.orderKeptPer names the message attribute \
         \"customer\" (a rate's sends carry no attributes: use sends with attributes), got a rate"
    );
    // Every send carries it: accepted.
    let mut value = lab();
    value["goal"]["orderKeptPer"] = json!("customer");
    parse(value).validate().expect("valid");
}

#[test]
fn a_non_fix_must_name_one_of_the_goals_conditions() {
    let text = refusal(|v| v["explain"]["nonFixes"][0]["fails"] = json!("once"));
    assert_eq!(
        text,
        "explain.nonFixes[0].fails must be the id of one of the goal's conditions \
         (sideEffectsAtMost, processedByMs), got \"once\""
    );
}

#[test]
fn a_fix_with_settings_outside_the_knobs_is_refused_at_its_place() {
    let text = refusal(|v| v["explain"]["fixes"][0]["settings"]["visibility"] = json!(500));
    assert_eq!(
        text,
        "explain.fixes[0].settings.visibility must be a whole number of seconds from 1 to 180, got 500"
    );
}

#[test]
fn explanations_link_to_aws_documentation() {
    let text = refusal(|v| v["explain"]["doc"]["url"] = json!("https://example.com/sqs"));
    assert!(
        text.starts_with("explain.doc.url must be an AWS documentation address"),
        "{text}"
    );
    let text = refusal(|v| v["explain"]["hints"] = json!([]));
    assert_eq!(text, "explain.hints must be a list of 1 to 5 hints, got 0");
}

/// A lab whose queue type and group ids are knobs, with a dead-letter
/// queue and a placeholder naming the queue.
fn fifo_lab() -> Scenario {
    let mut value = lab();
    value["queues"][1]["redrive"] =
        json!({ "deadLetterQueue": "orders-dlq", "maxReceiveCount": 3 });
    value["producers"][0]["sends"][0]["groupId"] = json!("C-1");
    value["narration"] =
        json!([{ "text": "Orders wait {orders.visibilityTimeout} before a retry." }]);
    value["goal"]["oldestAge"] = json!({ "queue": "orders", "atMostSeconds": 5 });
    value["knobs"] = json!([
        { "id": "queueType", "label": "Queue type", "target": { "queueType": { "queue": "orders" } } },
        { "id": "groupId", "label": "Group", "target": { "groupId": { "producer": "shop", "attribute": "customer" } } },
        { "id": "visibility", "label": "Visibility", "target": { "visibilityTimeoutSeconds": { "queue": "orders" } }, "min": 1, "max": 60 }
    ]);
    value.as_object_mut().unwrap().remove("explain");
    let s = parse(value);
    s.validate().expect("valid");
    s
}

#[test]
fn a_fifo_queue_type_renames_the_queue_and_its_dead_letter_queue_everywhere() {
    let s = fifo_lab();
    assert_eq!(
        s.lab_settings(),
        settings(json!({ "queueType": "standard", "groupId": "perAttribute", "visibility": 2 }))
    );
    let fifo = s
        .with_settings(&settings(json!({ "queueType": "fifo", "visibility": 9 })))
        .expect("applied");
    let names: Vec<&str> = fifo.queues.iter().map(|q| q.name.as_str()).collect();
    assert_eq!(names, ["orders-dlq.fifo", "orders.fifo"]);
    assert_eq!(
        fifo.queues[1].redrive.as_ref().unwrap().dead_letter_queue,
        "orders-dlq.fifo"
    );
    assert!(fifo
        .queues
        .iter()
        .all(|q| q.content_based_deduplication == Some(true)));
    assert_eq!(fifo.producers[0].queue, "orders.fifo");
    assert!(fifo.consumers.iter().all(|c| c.queue == "orders.fifo"));
    assert_eq!(
        fifo.goal
            .as_ref()
            .unwrap()
            .oldest_age
            .as_ref()
            .unwrap()
            .queue,
        "orders.fifo"
    );
    assert_eq!(
        fifo.narration[0].text,
        "Orders wait {orders.fifo.visibilityTimeout} before a retry."
    );
    // The visibility knob followed the rename (applied after it).
    assert_eq!(fifo.queues[1].visibility_timeout_seconds, Some(9));
    fifo.validate().expect("a valid FIFO scenario");
    // And back: the names and FIFO-only fields return to the file's.
    let back = fifo
        .with_settings(&settings(json!({ "queueType": "standard" })))
        .unwrap();
    assert_eq!(
        back.queues,
        s.with_settings(&settings(json!({ "visibility": 9 })))
            .unwrap()
            .queues
    );
}

#[test]
fn a_group_id_knob_sets_every_sends_group() {
    let s = fifo_lab();
    let group = |choice: &str| {
        let applied = s
            .with_settings(&settings(json!({ "groupId": choice })))
            .unwrap();
        applied.producers[0].sends[0].group_id.clone()
    };
    assert_eq!(group("one").as_deref(), Some("shop"));
    assert_eq!(group("perAttribute").as_deref(), Some("C-1"));
    assert_eq!(group("perMessage").as_deref(), Some("shop-1"));
}

#[test]
fn choice_settings_name_their_choices() {
    let s = fifo_lab();
    let refused = |v: Value| s.with_settings(&settings(v)).unwrap_err().to_string();
    assert_eq!(
        refused(json!({ "queueType": "FIFO" })),
        "settings.queueType must be \"standard\" or \"fifo\", got \"FIFO\""
    );
    assert_eq!(
        refused(json!({ "groupId": true })),
        "settings.groupId must be \"one\", \"perAttribute\" or \"perMessage\", got true"
    );
}

#[test]
fn a_lab_lists_at_most_eight_fixes_and_eight_non_fixes() {
    // They are proofs the native tests run over every check seed: a handful
    // is plenty, and each one costs a settings check at every load.
    let nine = |list: &str| {
        refusal(|v| {
            let one = v["explain"][list][0].clone();
            v["explain"][list] = Value::Array(vec![one; 9]);
        })
    };
    assert_eq!(
        nine("fixes"),
        "explain.fixes must be a list of at most 8 fixes, got 9 fixes"
    );
    assert_eq!(
        nine("nonFixes"),
        "explain.nonFixes must be a list of at most 8 non-fixes, got 9 non-fixes"
    );
    // Eight of each is a lab.
    let mut value = lab();
    for list in ["fixes", "nonFixes"] {
        let one = value["explain"][list][0].clone();
        value["explain"][list] = Value::Array(vec![one; 8]);
    }
    parse(value).validate().expect("valid");
}
