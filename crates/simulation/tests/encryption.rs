//! A scenario's KMS keys and queue `encryption`: SSE-SQS by default, none,
//! or SSE-KMS with one of its keys; an operator disabling a key mid-run;
//! the KMS requests in the outcome's bill; refusals that name the place.

use queuelab_engine::billing::PRICE_NANO_USD_KMS;
use queuelab_engine::{Config, EventKind};
use queuelab_simulation::{Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

fn scenario(value: Value) -> Scenario {
    serde_json::from_value(value).expect("a well-formed scenario")
}

fn run(value: Value) -> Simulation {
    let scenario = scenario(value);
    let duration = scenario.duration_ms;
    let mut sim = Simulation::new(scenario, Config::default()).unwrap();
    sim.advance(duration);
    sim
}

/// One producer sending every `every_ms` to `orders`, one consumer.
fn busy(encryption: Value, keys: Value, operators: Value, duration_ms: u64) -> Value {
    json!({
        "title": "kms", "durationMs": duration_ms,
        "keys": keys,
        "queues": [{ "name": "orders", "encryption": encryption }],
        "producers": [{ "name": "shop", "queue": "orders",
                        "rate": { "everyMs": 1000, "count": duration_ms / 1000, "body": "order {n}" } }],
        "consumers": [{ "name": "worker", "queue": "orders", "waitTimeSeconds": 20,
                        "processing": { "fixedMs": 10 } }],
        "operators": operators
    })
}

fn kms(reuse: u64) -> Value {
    json!({ "kmsKey": "alias/orders", "dataKeyReusePeriodSeconds": reuse })
}

fn orders_key() -> Value {
    json!([{ "alias": "alias/orders" }])
}

#[test]
fn a_queue_is_encrypted_with_sse_sqs_unless_the_scenario_says_otherwise() {
    let value = json!({
        "title": "e", "durationMs": 10,
        "keys": [{ "alias": "alias/orders", "allow": ["sns.amazonaws.com"] }],
        "queues": [
            { "name": "a" },
            { "name": "b", "encryption": "sqs" },
            { "name": "c", "encryption": "none" },
            { "name": "d", "encryption": { "kmsKey": "alias/orders" } },
            { "name": "e", "encryption": { "kmsKey": "alias/aws/sqs", "dataKeyReusePeriodSeconds": 60 } }
        ]
    });
    let sim = run(value);
    let snapshot = sim.engine().snapshot();
    let seen: Vec<(&str, Option<&str>, Option<u32>)> = snapshot
        .queues
        .iter()
        .map(|q| {
            (
                q.encryption,
                q.kms_key.as_deref(),
                q.kms_data_key_reuse_period_seconds,
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("sse-sqs", None, None),
            ("sse-sqs", None, None),
            ("none", None, None),
            ("sse-kms", Some("alias/orders"), Some(300)),
            ("sse-kms", Some("alias/aws/sqs"), Some(60)),
        ]
    );
    let key = sim.engine().kms_key("alias/orders").unwrap();
    assert!(key.allowed.contains("sns.amazonaws.com"));
}

#[test]
fn a_longer_reuse_period_makes_fewer_kms_requests_and_the_bill_says_so() {
    let short = run(busy(kms(60), orders_key(), json!([]), 600_000));
    let long = run(busy(kms(86_400), orders_key(), json!([]), 600_000));
    let requests = |sim: &Simulation| sim.engine().snapshot().queues[0].kms_requests;
    // Ten minutes: a new data key each minute (GenerateDataKey and Decrypt
    // on send, Decrypt on receive), or one for the whole run.
    assert_eq!(requests(&short).generate_data_key, 10);
    assert_eq!(requests(&short).decrypt, 20);
    assert_eq!(requests(&long).generate_data_key, 1);
    assert_eq!(requests(&long).decrypt, 2);
    let bill = short.snapshot().outcome.bill;
    assert_eq!(bill.kms_requests, 30);
    assert_eq!(bill.kms_price_nano_usd, PRICE_NANO_USD_KMS);
    assert_eq!(bill.kms_cost_nano_usd, 30 * PRICE_NANO_USD_KMS);
    assert_eq!(long.snapshot().outcome.bill.kms_requests, 3);
}

#[test]
fn an_sse_sqs_scenario_bills_no_kms_requests() {
    let sim = run(busy(json!("sqs"), json!([]), json!([]), 10_000));
    let bill = sim.snapshot().outcome.bill;
    assert_eq!(bill.kms_requests, 0);
    assert_eq!(bill.kms_cost_nano_usd, 0);
    assert!(bill.requests > 0);
}

#[test]
fn an_operator_disabling_the_key_makes_sends_fail_from_that_moment() {
    let operators = json!([{ "name": "ops", "calls": [
        { "atMs": 5500, "call": { "disableKey": { "key": "alias/orders" } } },
        { "atMs": 8500, "call": { "enableKey": { "key": "alias/orders" } } }
    ] }]);
    let sim = run(busy(kms(300), orders_key(), operators, 12_000));
    let mut sent = Vec::new();
    let mut failed = Vec::new();
    let mut told = Vec::new();
    for event in sim.events(0) {
        match event.kind {
            Kind::Sqs(EventKind::Sent { .. }) => sent.push(event.time_ms),
            Kind::Simulation(SimEvent::ActionFailed { action, code, .. }) => {
                failed.push((event.time_ms, action, code))
            }
            Kind::Simulation(SimEvent::OperatorCalled { action, .. }) => told.push(action),
            _ => {}
        }
    }
    assert_eq!(told, ["DisableKey", "EnableKey"]);
    // Sends at 0..5 s go through; 6, 7 and 8 s fail; from 9 s on they work again.
    assert_eq!(
        sent,
        [0, 1000, 2000, 3000, 4000, 5000, 9000, 10_000, 11_000]
    );
    let sends_failed: Vec<_> = failed
        .iter()
        .filter(|(_, action, _)| *action == "SendMessage")
        .map(|(at, _, code)| (*at, *code))
        .collect();
    assert_eq!(
        sends_failed,
        [
            (6000, "KMS.DisabledException"),
            (7000, "KMS.DisabledException"),
            (8000, "KMS.DisabledException")
        ]
    );
}

#[test]
fn keys_and_encryption_are_refused_naming_their_place() {
    let cases = [
        (
            json!([{ "alias": "orders" }]),
            json!("sqs"),
            "keys[0].alias",
        ),
        (
            json!([{ "alias": "alias/aws/orders" }]),
            json!("sqs"),
            "keys[0].alias",
        ),
        (
            json!([{ "alias": "alias/o" }, { "alias": "alias/o" }]),
            json!("sqs"),
            "keys[1].alias",
        ),
        (
            json!([{ "alias": "alias/o", "allow": ["lambda.amazonaws.com"] }]),
            json!("sqs"),
            "keys[0].allow[0]",
        ),
        (
            json!([]),
            json!({ "kmsKey": "alias/missing" }),
            "queues[0].encryption.kmsKey",
        ),
        (
            orders_key(),
            json!({ "kmsKey": "alias/orders", "dataKeyReusePeriodSeconds": 59 }),
            "queues[0].encryption.dataKeyReusePeriodSeconds",
        ),
    ];
    for (keys, encryption, path) in cases {
        let value = json!({ "title": "t", "durationMs": 10, "keys": keys,
                            "queues": [{ "name": "orders", "encryption": encryption }] });
        let error = scenario(value).validate().expect_err(path);
        assert_eq!(error.path, path, "{error}");
    }
    let operators = json!([{ "name": "ops", "calls": [
        { "atMs": 0, "call": { "disableKey": { "key": "alias/other" } } }
    ] }]);
    let error = scenario(busy(kms(300), orders_key(), operators, 1000))
        .validate()
        .expect_err("an unknown key");
    assert_eq!(error.path, "operators[0].calls[0].call.disableKey.key");
    assert!(error.to_string().contains("\"alias/other\""), "{error}");
}

#[test]
fn an_unknown_encryption_word_is_not_a_scenario() {
    let value = json!({ "title": "t", "durationMs": 10,
                        "queues": [{ "name": "orders", "encryption": "kms" }] });
    assert!(serde_json::from_value::<Scenario>(value).is_err());
}
