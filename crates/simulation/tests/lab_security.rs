//! The goal conditions on who may call and on what encryption costs
//! (`noDeliveryLost`, `noAccessDenied`, `leastPrivilege`,
//! `kmsRequestsAtMost`, `encryptedWithKms`), each held and broken on a
//! tiny lab with the sentence a learner reads; and the knobs that edit a
//! queue's policy (a text knob, read by the one policy reader) and its
//! encryption, with their refusals at their place.

use queuelab_simulation::{run_seed, KnobValue, Scenario, Settings};
use serde_json::{json, Value};

const TOPIC: &str = "arn:aws:sns:us-east-1:000000000000:orders-topic";
const QUEUE: &str = "arn:aws:sqs:us-east-1:000000000000:orders";

fn policy(statements: Value) -> Value {
    json!({ "Version": "2012-10-17", "Statement": statements })
}

fn allow(principal: Value, action: Value, condition: Option<Value>) -> Value {
    let mut s = json!({ "Sid": "S1", "Effect": "Allow", "Principal": principal,
                        "Action": action, "Resource": QUEUE });
    if let Some(c) = condition {
        s["Condition"] = c;
    }
    s
}

fn topic_may_send() -> Value {
    allow(
        json!({ "Service": "sns.amazonaws.com" }),
        json!("sqs:SendMessage"),
        Some(json!({ "ArnEquals": { "aws:SourceArn": TOPIC } })),
    )
}

/// orders-topic publishes 3 orders to the queue `orders`, whose policy
/// is `statements`; fulfilment reads it.
fn fan_out(statements: Value, goal: Value) -> Value {
    json!({
        "title": "t", "durationMs": 10000,
        "queues": [{ "name": "orders", "policy": policy(statements) }],
        "topics": [{ "name": "orders-topic", "subscriptions": [{ "queue": "orders" }],
                     "rate": { "startMs": 1000, "everyMs": 1000, "count": 3, "body": "order A-{n}" } }],
        "consumers": [{ "name": "fulfilment", "queue": "orders", "waitTimeSeconds": 20,
                        "processing": { "fixedMs": 100 } }],
        "goal": goal,
        "knobs": [{ "id": "policy", "label": "Policy", "target": { "queuePolicy": { "queue": "orders" } } }]
    })
}

/// partner (account 111111111111) reads `orders`, whose policy is
/// `statements`; shop sends 2 orders.
fn partner(statements: Value, goal: Value) -> Value {
    json!({
        "title": "t", "durationMs": 10000,
        "queues": [{ "name": "orders", "policy": policy(statements) }],
        "producers": [{ "name": "shop", "queue": "orders",
                        "rate": { "startMs": 1000, "everyMs": 1000, "count": 2, "body": "order P-{n}" } }],
        "consumers": [{ "name": "partner", "queue": "orders", "account": "111111111111",
                        "waitTimeSeconds": 20, "processing": { "fixedMs": 100 } }],
        "goal": goal
    })
}

/// A busy SSE-KMS queue (an order every second for a minute).
fn kms(period: i64, goal: Value) -> Value {
    json!({
        "title": "t", "durationMs": 180000,
        "keys": [{ "alias": "alias/orders" }],
        "queues": [{ "name": "orders",
                     "encryption": { "kmsKey": "alias/orders", "dataKeyReusePeriodSeconds": period } }],
        "producers": [{ "name": "shop", "queue": "orders",
                        "rate": { "startMs": 0, "everyMs": 1000, "count": 180, "body": "order K-{n}" } }],
        "consumers": [{ "name": "worker", "queue": "orders", "waitTimeSeconds": 20,
                        "processing": { "fixedMs": 100 } }],
        "goal": goal,
        "knobs": [
            { "id": "period", "label": "Reuse period",
              "target": { "kmsDataKeyReusePeriodSeconds": { "queue": "orders" } }, "min": 60, "max": 86400 },
            { "id": "encryption", "label": "Encryption",
              "target": { "encryption": { "queue": "orders", "kmsKey": "alias/orders" } } }
        ]
    })
}

fn parse(v: Value) -> Scenario {
    let s: Scenario = serde_json::from_value(v).expect("a scenario");
    s.validate().unwrap_or_else(|e| panic!("{e}"));
    s
}

/// Seed 1's first breach: (condition, sentence), or None.
fn breach(v: Value) -> Option<(String, String)> {
    let (failure, _) = run_seed(&parse(v), 1).expect("runs");
    failure.map(|f| (f.condition, f.message))
}

fn settings(v: Value) -> Settings {
    serde_json::from_value(v).unwrap()
}

#[test]
fn no_delivery_lost_breaks_when_sqs_refuses_a_topics_delivery_and_sns_drops_it() {
    let goal = json!({ "noDeliveryLost": true });
    assert_eq!(
        breach(fan_out(json!([topic_may_send()]), goal.clone())),
        None
    );
    let other = allow(
        json!({ "Service": "sns.amazonaws.com" }),
        json!("sqs:SendMessage"),
        Some(
            json!({ "ArnEquals": { "aws:SourceArn": "arn:aws:sns:us-east-1:000000000000:other" } }),
        ),
    );
    assert_eq!(
        breach(fan_out(json!([other]), goal)),
        Some((
            "noDeliveryLost".into(),
            "with seed 1, orders-topic's delivery to orders was refused at t = 1 s: \
             AccessDenied, and dropped: the subscription has no dead-letter queue; 3 of 3 \
             deliveries were lost by the end"
                .into()
        ))
    );
}

#[test]
fn no_access_denied_breaks_at_the_first_refused_call_and_counts_them() {
    let goal = json!({ "noAccessDenied": true });
    let reads = allow(
        json!({ "AWS": "111111111111" }),
        json!(["sqs:ReceiveMessage", "sqs:DeleteMessage"]),
        None,
    );
    assert_eq!(breach(partner(json!([reads]), goal.clone())), None);
    let receive_only = allow(
        json!({ "AWS": "111111111111" }),
        json!("sqs:ReceiveMessage"),
        None,
    );
    assert_eq!(
        breach(partner(json!([receive_only]), goal)),
        Some((
            "noAccessDenied".into(),
            "with seed 1, partner's DeleteMessage on orders was refused at t = 1.1 s: \
             AccessDenied, no statement of its policy allows account 111111111111 to \
             DeleteMessage; 2 calls refused by the end"
                .into()
        ))
    );
}

#[test]
fn least_privilege_asks_sqs_whether_the_policy_allows_more_than_the_grants() {
    let goal = |actions: Value| {
        json!({ "leastPrivilege": { "queue": "orders", "grants": [
            { "principal": "111111111111", "actions": actions } ] } })
    };
    let grant = |principal: Value, action: Value| json!([allow(principal, action, None)]);
    let exact = grant(
        json!({ "AWS": "111111111111" }),
        json!(["sqs:ReceiveMessage", "sqs:DeleteMessage"]),
    );
    assert_eq!(
        breach(partner(
            exact.clone(),
            goal(json!(["ReceiveMessage", "DeleteMessage"]))
        )),
        None
    );
    // A grant may allow less than it may: the goal bounds it from above.
    assert_eq!(
        breach(partner(
            exact,
            goal(json!(["ReceiveMessage", "DeleteMessage", "GetQueueUrl"]))
        )),
        None
    );
    let (condition, text) = breach(partner(
        grant(json!({ "AWS": "111111111111" }), json!("sqs:*")),
        goal(json!(["ReceiveMessage", "DeleteMessage"])),
    ))
    .expect("sqs:* allows more");
    assert_eq!(condition, "leastPrivilege");
    assert!(
        text.contains("lets account 111111111111 call SendMessage")
            && text.contains(
                "(statement S1 allows it): it may be granted only ReceiveMessage, DeleteMessage"
            ),
        "{text}"
    );
    let (_, text) = breach(partner(
        grant(
            json!("*"),
            json!(["sqs:ReceiveMessage", "sqs:DeleteMessage"]),
        ),
        goal(json!(["ReceiveMessage", "DeleteMessage"])),
    ))
    .expect("anyone is more");
    assert!(
        text.contains(
            "lets any account (999999999999, for one) call ReceiveMessage and DeleteMessage"
        ),
        "{text}"
    );
    // Principal "*" narrowed by a condition to the partner's account is
    // what SQS allows to the partner only.
    let narrowed = json!([allow(
        json!("*"),
        json!(["sqs:ReceiveMessage", "sqs:DeleteMessage"]),
        Some(json!({ "StringEquals": { "aws:PrincipalAccount": "111111111111" } }))
    )]);
    assert_eq!(
        breach(partner(
            narrowed,
            goal(json!(["ReceiveMessage", "DeleteMessage"]))
        )),
        None
    );
}

#[test]
fn least_privilege_sees_a_service_statement_without_its_source_condition() {
    let goal = json!({ "leastPrivilege": { "queue": "orders", "grants": [
        { "principal": "sns.amazonaws.com", "sourceArn": TOPIC, "actions": ["SendMessage"] } ] } });
    assert_eq!(
        breach(fan_out(json!([topic_may_send()]), goal.clone())),
        None
    );
    let any_topic = allow(
        json!({ "Service": "sns.amazonaws.com" }),
        json!("sqs:SendMessage"),
        None,
    );
    let (condition, text) = breach(fan_out(json!([any_topic]), goal)).expect("any topic");
    assert_eq!(condition, "leastPrivilege");
    assert!(
        text.contains("lets sns.amazonaws.com for any topic"),
        "{text}"
    );
}

#[test]
fn kms_requests_at_most_counts_sqss_calls_to_kms() {
    let goal = json!({ "kmsRequestsAtMost": 3 });
    assert_eq!(breach(kms(86400, goal.clone())), None);
    assert_eq!(
        breach(kms(60, goal)),
        Some((
            "kmsRequestsAtMost".into(),
            "with seed 1, SQS made its 4th KMS request at t = 60 s (goal: at most 3); 9 by the \
             end (3 GenerateDataKey, 6 Decrypt)"
                .into()
        ))
    );
}

#[test]
fn encrypted_with_kms_holds_only_for_a_queue_on_its_kms_key_at_the_end() {
    let goal = json!({ "encryptedWithKms": "orders" });
    let lab = parse(kms(60, goal));
    assert_eq!(run_seed(&lab, 1).unwrap().0, None);
    for (choice, words) in [
        (
            "sqs",
            "orders was encrypted with SSE-SQS (keys SQS owns), not with a KMS key",
        ),
        ("none", "orders was not encrypted at all"),
    ] {
        let changed = lab
            .with_settings(&settings(json!({ "encryption": choice })))
            .unwrap();
        // Off SSE-KMS the queue has no reuse period: the knob reads "off",
        // and the settings read (a page sends them all back) are taken.
        assert_eq!(changed.lab_settings()["period"], KnobValue::OFF);
        assert_eq!(lab.with_settings(&changed.lab_settings()).unwrap(), changed);
        let failure = run_seed(&changed, 1).unwrap().0.expect("breaks");
        assert_eq!(failure.condition, "encryptedWithKms");
        assert_eq!(
            failure.message,
            format!("with seed 1, at the end (t = 180 s), {words}")
        );
    }
}

#[test]
fn a_policy_knob_reads_the_queues_policy_as_indented_text_and_writes_it_back() {
    let lab = parse(fan_out(
        json!([topic_may_send()]),
        json!({ "noDeliveryLost": true }),
    ));
    let KnobValue::Text(text) = &lab.lab_settings()["policy"] else {
        panic!("a text knob");
    };
    assert!(
        text.starts_with("{\n  \"Version\": \"2012-10-17\",\n  \"Statement\": [\n    {\n      \"Sid\": \"S1\",\n      \"Effect\": \"Allow\""),
        "{text}"
    );
    let edited = text.replace("orders-topic", "other-topic");
    let changed = lab
        .with_settings(&settings(json!({ "policy": edited })))
        .unwrap();
    let written = changed.queues[0].policy.as_ref().unwrap();
    assert_eq!(
        written["Statement"][0]["Condition"]["ArnEquals"]["aws:SourceArn"],
        "arn:aws:sns:us-east-1:000000000000:other-topic"
    );
}

#[test]
fn a_malformed_policy_is_refused_at_its_setting_with_what_is_wrong() {
    let lab = parse(fan_out(
        json!([topic_may_send()]),
        json!({ "noDeliveryLost": true }),
    ));
    let refused = |text: &str| {
        lab.with_settings(&settings(json!({ "policy": text })))
            .expect_err("refused")
    };
    let e = refused("{ not json");
    assert_eq!(e.path, "settings.policy");
    assert_eq!(
        e.rule,
        "a queue policy SQS accepts (a JSON object with Version and Statement)"
    );
    assert_eq!(
        e.got,
        "Invalid value for the parameter Policy. Reason: the policy is not a JSON object."
    );
    let no_effect = r#"{"Version":"2012-10-17","Statement":[{"Sid":"A","Principal":"*","Action":"sqs:SendMessage","Resource":"*"}]}"#;
    assert_eq!(
        refused(no_effect).got,
        "Invalid value for the parameter Policy. Reason: statement 1 (\"A\"): it has no Effect."
    );
    let e = lab
        .with_settings(&settings(json!({ "policy": 5 })))
        .expect_err("a number is no policy");
    assert_eq!(e.rule, "a queue policy as JSON text");
}

#[test]
fn encryption_and_reuse_period_knobs_are_refused_outside_their_choices_and_range() {
    let lab = parse(kms(60, json!({ "kmsRequestsAtMost": 3 })));
    let e = lab
        .with_settings(&settings(json!({ "encryption": "aes" })))
        .expect_err("no such choice");
    assert_eq!(
        (e.path.as_str(), e.rule.as_str()),
        ("settings.encryption", "\"kms\", \"sqs\" or \"none\"")
    );
    let e = lab
        .with_settings(&settings(json!({ "period": 30 })))
        .expect_err("below SQS's range");
    assert_eq!(e.path, "settings.period");
    assert!(e.rule.contains("from 60"), "{}", e.rule);
    // "off" is what a lapsed period reads: on a queue on SSE-KMS it sets nothing.
    let kept = lab
        .with_settings(&settings(json!({ "period": "off" })))
        .unwrap();
    assert_eq!(kept.lab_settings()["period"], KnobValue::Int(60));
    let longer = lab
        .with_settings(&settings(json!({ "period": 86400 })))
        .unwrap();
    assert_eq!(longer.lab_settings()["period"], KnobValue::Int(86400));
}

#[test]
fn lab_parts_naming_what_the_scenario_lacks_are_refused_at_their_place() {
    let refusal = |mut v: Value, change: &dyn Fn(&mut Value)| {
        change(&mut v);
        let s: Scenario = serde_json::from_value(v).expect("parses");
        s.validate().expect_err("refused")
    };
    let base = fan_out(json!([topic_may_send()]), json!({ "noDeliveryLost": true }));
    let e = refusal(base.clone(), &|v| {
        v["queues"][0].as_object_mut().unwrap().remove("policy");
    });
    assert_eq!(e.path, "knobs[0].target.queuePolicy.queue");
    let e = refusal(base.clone(), &|v| {
        v["goal"] = json!({ "leastPrivilege": { "queue": "orders", "grants": [
            { "principal": "someone", "actions": ["SendMessage"] } ] } });
    });
    assert_eq!(e.path, "goal.leastPrivilege.grants[0].principal");
    let e = refusal(base.clone(), &|v| {
        v["goal"] = json!({ "leastPrivilege": { "queue": "orders", "grants": [
            { "principal": "111111111111", "actions": ["SendMessageBatch"] } ] } });
    });
    assert_eq!(e.path, "goal.leastPrivilege.grants[0].actions[0]");
    let e = refusal(base.clone(), &|v| {
        v["goal"] = json!({ "encryptedWithKms": "nowhere" });
    });
    assert_eq!(e.path, "goal.encryptedWithKms");
    let e = refusal(kms(60, json!({ "kmsRequestsAtMost": 3 })), &|v| {
        v["knobs"][1]["target"]["encryption"]["kmsKey"] = json!("alias/missing");
    });
    assert_eq!(e.path, "knobs[1].target.encryption.kmsKey");
}
