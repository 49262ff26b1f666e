//! Large payloads through S3 (`payload.rs`, a producer's `offload`, a
//! consumer's `payloads`): the extended client library's pointer, its
//! reserved attribute and its receipt handle, its threshold; the guide's
//! own variant, whose receiver deletes the object on receive (a crash then
//! leaves the redelivered message pointing at nothing) and whose size test
//! counts characters (a multibyte body under it is over SQS's byte limit).

use queuelab_engine::{Config, EventKind, ReceiveMessage, ReceiveOutcome};
use queuelab_simulation::{FieldError, Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

const DURATION: u64 = 120_000;

fn scenario(producer: Value, consumers: Value, max_message_size: Option<u64>) -> Scenario {
    let mut queue = json!({ "name": "reports", "visibilityTimeoutSeconds": 10,
        "redrive": { "deadLetterQueue": "reports-dlq", "maxReceiveCount": 3 } });
    if let Some(bytes) = max_message_size {
        queue["maximumMessageSizeBytes"] = json!(bytes);
    }
    serde_json::from_value(json!({
        "title": "payloads", "durationMs": DURATION,
        "queues": [{ "name": "reports-dlq" }, queue],
        "buckets": [{ "name": "report-payloads" }],
        "producers": [producer],
        "consumers": consumers,
    }))
    .unwrap_or_else(|e| panic!("a well-formed scenario: {e}"))
}

fn sender(offload: Value, sends: Value) -> Value {
    json!({ "name": "uploader", "queue": "reports", "offload": offload, "sends": sends })
}

fn extended(threshold: Option<u64>) -> Value {
    let mut o = json!({ "bucket": "report-payloads", "style": "extendedClient" });
    if let Some(t) = threshold {
        o["thresholdBytes"] = json!(t);
    }
    o
}

fn guide() -> Value {
    json!({ "bucket": "report-payloads", "style": "guide" })
}

fn reader(delete_object: &str, behaviour: Value) -> Value {
    json!({ "name": "reader", "queue": "reports", "processing": { "fixedMs": 1000 },
            "payloads": { "deleteObject": delete_object }, "behaviour": behaviour })
}

fn run(s: Scenario) -> Simulation {
    let mut sim = Simulation::new(s, Config::default()).expect("loads");
    sim.advance(DURATION);
    sim
}

fn sim_events(sim: &Simulation) -> Vec<SimEvent> {
    (sim.events(0))
        .filter_map(|e| match e.kind {
            Kind::Simulation(event) => Some(event),
            Kind::Sqs(_) => None,
        })
        .collect()
}

fn sqs_events(sim: &Simulation) -> Vec<EventKind> {
    (sim.events(0))
        .filter_map(|e| match e.kind {
            Kind::Sqs(event) => Some(event),
            Kind::Simulation(_) => None,
        })
        .collect()
}

/// The keys put and deleted in the bucket, in order ("put k", "delete k").
fn object_changes(sim: &Simulation) -> Vec<String> {
    (sim_events(sim).into_iter())
        .filter_map(|e| match e {
            SimEvent::BucketObjectChanged {
                event_name, key, ..
            } => Some(format!("{event_name} {key}")),
            _ => None,
        })
        .collect()
}

/// The one message in `queue` now, received by the test: body and attributes.
fn peek(sim: &mut Simulation, queue: &str) -> (String, Vec<(String, String)>) {
    let queue_url = sim.engine().get_queue_url(queue, None).expect("the queue");
    let request = ReceiveMessage {
        queue_url,
        message_attribute_names: vec!["All".into()],
        visibility_timeout: Some(0),
        ..ReceiveMessage::default()
    };
    let Ok(ReceiveOutcome::Done(messages)) = sim.engine_mut().receive_message(&request, None)
    else {
        panic!("a receive");
    };
    let m = messages.into_iter().next().expect("a message");
    let attributes = (m.message_attributes.iter())
        .map(|a| {
            let value = match &a.value {
                queuelab_engine::AttributeValue::String(s) => s.clone(),
                queuelab_engine::AttributeValue::Binary(_) => String::new(),
            };
            (a.name.clone(), format!("{}={value}", a.data_type))
        })
        .collect();
    (m.body, attributes)
}

fn big_send(at_ms: u64, body: &str, bytes: u64) -> Value {
    json!({ "atMs": at_ms, "body": body, "padToBytes": bytes })
}

#[test]
fn a_body_over_the_threshold_is_put_in_the_bucket_and_a_pointer_sent() {
    let s = scenario(
        sender(extended(None), json!([big_send(0, "report-1", 300_000)])),
        json!([]),
        None,
    );
    let mut sim = run(s);
    let changes = object_changes(&sim);
    assert_eq!(changes.len(), 1, "{changes:?}");
    let key = changes[0]
        .strip_prefix("ObjectCreated:Put ")
        .expect("a put");
    let (body, attributes) = peek(&mut sim, "reports");
    assert_eq!(
        body,
        format!(
            r#"["software.amazon.payloadoffloading.PayloadS3Pointer",{{"s3BucketName":"report-payloads","s3Key":"{key}"}}]"#
        )
    );
    assert_eq!(
        attributes,
        [(
            "ExtendedPayloadSize".to_string(),
            "Number=300000".to_string()
        )]
    );
}

#[test]
fn the_threshold_is_256_kib_by_default_and_configurable() {
    let at_threshold = |threshold: Option<u64>, bytes: u64| {
        let s = scenario(
            sender(extended(threshold), json!([big_send(0, "r", bytes)])),
            json!([]),
            None,
        );
        object_changes(&run(s)).len()
    };
    assert_eq!(at_threshold(None, 262_144), 0, "at the threshold: inline");
    assert_eq!(at_threshold(None, 262_145), 1, "one byte over: offloaded");
    assert_eq!(at_threshold(Some(1000), 1001), 1);
    assert_eq!(at_threshold(Some(1000), 1000), 0);
}

#[test]
fn the_reserved_attribute_counts_toward_the_ten_attribute_limit() {
    let send = |n: usize| {
        let attributes: serde_json::Map<String, Value> =
            (0..n).map(|i| (format!("a{i}"), json!("v"))).collect();
        json!([{ "atMs": 0, "body": "r", "padToBytes": 2000, "attributes": attributes }])
    };
    // Nine of its own and the reserved one: ten, as SQS allows.
    let mut nine = run(scenario(
        sender(extended(Some(1000)), send(9)),
        json!([]),
        None,
    ));
    assert_eq!(peek(&mut nine, "reports").1.len(), 10);
    // Ten of its own: the library refuses before anything is put or sent.
    let ten = run(scenario(
        sender(extended(Some(1000)), send(10)),
        json!([]),
        None,
    ));
    assert!(object_changes(&ten).is_empty());
    let refused = sim_events(&ten).into_iter().find_map(|e| match e {
        SimEvent::ActionFailed { code, error, .. } => Some((code, error)),
        _ => None,
    });
    assert_eq!(
        refused,
        Some((
            "SdkClientException",
            "Number of message attributes [10] exceeds the maximum allowed for large-payload messages [9].".into()
        ))
    );
    assert!(!sqs_events(&ten)
        .iter()
        .any(|e| matches!(e, EventKind::Sent { .. })));
}

#[test]
fn the_receiver_reads_the_payload_and_deletes_with_the_extended_receipt_handle() {
    let s = scenario(
        sender(extended(None), json!([big_send(0, "report-1", 300_000)])),
        json!([reader("withMessage", json!({}))]),
        None,
    );
    let sim = run(s);
    let events = sim_events(&sim);
    let resolved = events.iter().find_map(|e| match e {
        SimEvent::PayloadResolved { size_bytes, .. } => Some(*size_bytes),
        _ => None,
    });
    assert_eq!(resolved, Some(300_000));
    let performed = events.iter().find_map(|e| match e {
        SimEvent::SideEffectPerformed { message_id, .. } => Some(message_id.clone()),
        _ => None,
    });
    assert!(performed.is_some(), "the handler processed the payload");
    // The message was deleted (SQS's handle out of the extended one), and
    // its object with it.
    assert!(sqs_events(&sim)
        .iter()
        .any(|e| matches!(e, EventKind::Deleted { .. })));
    let changes = object_changes(&sim);
    assert_eq!(changes.len(), 2, "{changes:?}");
    assert!(changes[1].starts_with("ObjectRemoved:Delete "));
    assert_eq!(sim.snapshot().buckets[0].objects, 0);
}

#[test]
fn a_receiver_that_does_not_delete_objects_leaves_them_in_the_bucket() {
    let s = scenario(
        sender(extended(None), json!([big_send(0, "report-1", 300_000)])),
        json!([reader("never", json!({}))]),
        None,
    );
    let sim = run(s);
    assert_eq!(object_changes(&sim).len(), 1);
    assert_eq!(sim.snapshot().buckets[0].objects, 1);
}

/// The receiver crashes on report-2, every time it processes it.
fn crashes_on_report_2() -> Value {
    json!({ "crashesBeforeSideEffectOn": ["report-2"], "restartMs": 2000 })
}

/// The receiver's handler fails for the first few seconds (a dependency
/// down), then works.
fn fails_at_first() -> Value {
    json!({ "failsDuringMs": { "startMs": 0, "endMs": 5000 } })
}

/// The guide's sender (two reports) and receiver.
fn guide_run(delete_object: &str, behaviour: Value) -> Simulation {
    let sends = json!([
        big_send(0, "report-1", 300_000),
        big_send(0, "report-2", 300_000)
    ]);
    run(scenario(
        sender(guide(), sends),
        json!([reader(delete_object, behaviour)]),
        None,
    ))
}

#[test]
fn deleting_the_object_on_receive_then_crashing_leaves_a_pointer_to_nothing() {
    let sim = guide_run("onReceive", crashes_on_report_2());
    let missing: Vec<(&'static str, String)> = (sim_events(&sim).into_iter())
        .filter_map(|e| match e {
            SimEvent::PayloadMissing { code, key, .. } => Some((code, key)),
            _ => None,
        })
        .collect();
    assert!(
        !missing.is_empty(),
        "the redelivered message points at nothing"
    );
    assert!(missing.iter().all(|(code, _)| *code == "NoSuchKey"));
    // It fails each time and goes round to the dead-letter queue.
    let dead = sqs_events(&sim)
        .iter()
        .any(|e| matches!(e, EventKind::MovedToDeadLetterQueue { .. }));
    assert!(dead, "the message ends in the dead-letter queue");
}

#[test]
fn deleting_the_object_on_receive_then_failing_leaves_pointers_to_nothing() {
    let sim = guide_run("onReceive", fails_at_first());
    let missing = (sim_events(&sim).iter())
        .filter(|e| matches!(e, SimEvent::PayloadMissing { .. }))
        .count();
    assert!(missing >= 2, "both reports point at nothing: {missing}");
    let processed = (sim_events(&sim).iter())
        .filter(|e| matches!(e, SimEvent::SideEffectPerformed { .. }))
        .count();
    assert_eq!(processed, 0, "neither report was ever processed");
}

#[test]
fn deleting_the_object_after_the_message_survives_a_failed_attempt() {
    let sim = guide_run("withMessage", fails_at_first());
    let events = sim_events(&sim);
    assert!(!events
        .iter()
        .any(|e| matches!(e, SimEvent::PayloadMissing { .. })));
    let processed = events
        .iter()
        .filter(|e| matches!(e, SimEvent::SideEffectPerformed { .. }))
        .count();
    assert_eq!(processed, 2, "both reports processed");
    assert_eq!(sim.snapshot().buckets[0].objects, 0, "both objects gone");
}

#[test]
fn a_multibyte_body_under_the_guides_character_test_is_over_sqs_byte_limit() {
    // 200,000 characters of three-byte text: 600,000 bytes of UTF-8,
    // not over the guide's 200,000 characters, so it is sent inline.
    let send = json!([{ "atMs": 0, "body": "語", "padToBytes": 600_000, "padWith": "語" }]);
    let sim = run(scenario(sender(guide(), send), json!([]), Some(262_144)));
    assert!(object_changes(&sim).is_empty(), "not offloaded");
    let refused = sim_events(&sim).into_iter().find_map(|e| match e {
        SimEvent::ActionFailed { action, error, .. } => Some((action, error)),
        _ => None,
    });
    assert_eq!(
        refused,
        Some((
            "SendMessage",
            "One or more parameters are invalid. Reason: Message must be shorter than 262144 bytes."
                .into()
        ))
    );
}

#[test]
fn measuring_utf8_bytes_offloads_the_multibyte_body() {
    let send = json!([{ "atMs": 0, "body": "語", "padToBytes": 600_000, "padWith": "語" }]);
    let sim = run(scenario(
        sender(extended(None), send),
        json!([]),
        Some(262_144),
    ));
    assert_eq!(object_changes(&sim).len(), 1, "offloaded");
    assert!(!sim_events(&sim)
        .iter()
        .any(|e| matches!(e, SimEvent::ActionFailed { .. })));
}

#[test]
fn an_offload_names_one_of_the_scenarios_buckets_and_its_styles_threshold() {
    let refusal = |offload: Value| -> FieldError {
        let s = scenario(sender(offload, json!([])), json!([]), None);
        s.validate().expect_err("refused at a field")
    };
    let e = refusal(json!({ "bucket": "nowhere", "style": "guide" }));
    assert_eq!(e.path, "producers[0].offload.bucket");
    let e = refusal(json!({ "bucket": "report-payloads", "style": "guide", "thresholdBytes": 5 }));
    assert_eq!(e.path, "producers[0].offload.thresholdBytes");
    let e = refusal(
        json!({ "bucket": "report-payloads", "style": "extendedClient", "thresholdBytes": 2_000_000 }),
    );
    assert_eq!(e.path, "producers[0].offload.thresholdBytes");
    assert!(e.rule.contains("1048576"), "{}", e.rule);
}

#[test]
fn s3_put_get_and_delete_are_counted_and_billed_at_s3_prices() {
    let s = scenario(
        sender(extended(None), json!([big_send(0, "report-1", 300_000)])),
        json!([reader("withMessage", json!({}))]),
        None,
    );
    let bill = run(s).snapshot().outcome.bill;
    assert_eq!(
        (bill.s3_requests, bill.s3_put_requests, bill.s3_get_requests),
        (3, 1, 1),
        "PutObject, GetObject, DeleteObject"
    );
    // $0.005 per 1,000 PUTs and $0.0004 per 1,000 GETs; DELETE is free.
    assert_eq!(bill.s3_cost_nano_usd, 5_000 + 400);
}
