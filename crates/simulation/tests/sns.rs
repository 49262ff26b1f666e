//! SNS topics (`topics` in a scenario, `actors/topic.rs`, `sns/`): a
//! publish fans out to every subscribed queue as `sns.amazonaws.com`;
//! each subscription's filter policy decides; the body is SNS's JSON
//! envelope or, with raw message delivery, the message itself; a FIFO
//! topic keeps group and deduplication ids; a refused delivery is
//! retried, dead-lettered or dropped as SNS does; a bad topic is refused
//! at its field.

use queuelab_engine::{Config, EventKind, ReceiveMessage, ReceivedMessage};
use queuelab_simulation::{FieldError, Kind, Scenario, SimEvent, Simulation, TopicSnapshot};
use serde_json::{json, Value};

/// A queue policy letting the account's SNS topics send (`ArnLike` on
/// `aws:SourceArn`), as SNS's guide writes it for one topic.
fn sns_may_send(queue: &str) -> Value {
    json!({
        "Version": "2012-10-17",
        "Statement": [{
            "Sid": "AllowTopics",
            "Effect": "Allow",
            "Principal": { "Service": "sns.amazonaws.com" },
            "Action": "sqs:SendMessage",
            "Resource": format!("arn:aws:sqs:us-east-1:000000000000:{queue}"),
            "Condition": { "ArnLike": { "aws:SourceArn": "arn:aws:sns:us-east-1:000000000000:*" } },
        }],
    })
}

/// The scenario, each queue without a policy of its own given one that
/// lets the account's topics send.
fn scenario(mut queues: Value, topics: Value) -> Scenario {
    for queue in queues.as_array_mut().into_iter().flatten() {
        if queue.get("policy").is_none() {
            let name = queue["name"].as_str().unwrap_or_default().to_string();
            queue["policy"] = sns_may_send(&name);
        }
    }
    serde_json::from_value(json!({
        "title": "sns", "durationMs": 60_000,
        "queues": queues, "topics": topics,
    }))
    .expect("a well-formed scenario")
}

fn run(queues: Value, topics: Value, until: u64) -> Simulation {
    let mut sim = Simulation::new(scenario(queues, topics), Config::default()).expect("loads");
    sim.advance(until);
    sim
}

fn refusal(queues: Value, topics: Value) -> FieldError {
    scenario(queues, topics).validate().expect_err("refused")
}

/// Every message now in `queue` (received with all attributes, then left
/// to become visible again).
fn messages(sim: &mut Simulation, queue: &str) -> Vec<ReceivedMessage> {
    let url = sim.engine().get_queue_url(queue, None).expect("the queue");
    let request = ReceiveMessage {
        queue_url: url,
        max_number_of_messages: Some(10),
        visibility_timeout: Some(0),
        system_attribute_names: vec!["All".into()],
        message_attribute_names: vec!["All".into()],
        ..ReceiveMessage::default()
    };
    match sim.engine_mut().receive_message(&request, Some("test")) {
        Ok(queuelab_engine::ReceiveOutcome::Done(m)) => m,
        other => panic!("receive answered {other:?}"),
    }
}

fn topic(sim: &Simulation, name: &str) -> TopicSnapshot {
    let snapshot = sim.snapshot();
    let found = snapshot.topics.into_iter().find(|t| t.name == name);
    found.expect("the topic in the snapshot")
}

fn sim_events(sim: &Simulation) -> Vec<SimEvent> {
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(event) => Some(event),
            Kind::Sqs(_) => None,
        })
        .collect()
}

/// Whether one message with these attributes and this body reaches a queue
/// subscribed with `policy` in `scope` (else it is counted filtered out).
fn passes(policy: Value, scope: &str, attributes: Value, message: &str) -> bool {
    let sim = run(
        json!([{ "name": "orders" }]),
        json!([{ "name": "orders-topic", "subscriptions": [
            { "queue": "orders", "filterPolicy": policy, "filterPolicyScope": scope }
        ], "publishes": [{ "atMs": 1000, "message": message, "attributes": attributes }] }]),
        2000,
    );
    let s = &topic(&sim, "orders-topic").subscriptions[0];
    assert_eq!(s.delivered + s.filtered_out, 1, "{s:?}");
    s.delivered == 1
}

fn on_attributes(policy: Value, attributes: Value) -> bool {
    passes(policy, "MessageAttributes", attributes, "hello")
}

fn on_body(policy: Value, body: Value) -> bool {
    passes(policy, "MessageBody", json!({}), &body.to_string())
}

#[test]
fn a_publish_fans_out_to_every_subscribed_queue() {
    let mut sim = run(
        json!([{ "name": "billing" }, { "name": "shipping" }, { "name": "analytics" }]),
        json!([{ "name": "orders-topic", "subscriptions": [
            { "queue": "billing" }, { "queue": "shipping" }, { "queue": "analytics", "rawMessageDelivery": true }
        ], "publishes": [{ "atMs": 1000, "message": "order 1" }, { "atMs": 2000, "message": "order 2" }] }]),
        5000,
    );
    for queue in ["billing", "shipping", "analytics"] {
        assert_eq!(messages(&mut sim, queue).len(), 2, "{queue}");
    }
    let t = topic(&sim, "orders-topic");
    assert_eq!(t.published, 2);
    assert!(t.subscriptions.iter().all(|s| s.delivered == 2), "{t:?}");
    // Sent by the topic: SQS's events name it as the sender.
    let senders: Vec<_> = sim
        .events(0)
        .filter_map(|e| match e.kind {
            Kind::Sqs(EventKind::Sent { by, .. }) => by.map(|b| b.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(senders, vec!["orders-topic"; 6]);
}

#[test]
fn the_envelope_has_snss_fields_in_the_order_aws_sends_them() {
    let mut sim = run(
        json!([{ "name": "orders" }]),
        json!([{ "name": "orders-topic", "subscriptions": [{ "queue": "orders" }],
            "publishes": [{ "atMs": 1500, "message": "{\"id\":\"A-1\"}", "subject": "New order",
                "attributes": { "type": "order", "total": 42.5, "tags": ["a", "b"] } }] }]),
        2000,
    );
    let body = messages(&mut sim, "orders").remove(0).body;
    let keys: Vec<&str> = body
        .lines()
        .filter(|l| l.starts_with("  \"") && !l.starts_with("    "))
        .map(|l| l.trim_start().split('"').nth(1).unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "Type",
            "MessageId",
            "TopicArn",
            "Subject",
            "Message",
            "Timestamp",
            "SignatureVersion",
            "Signature",
            "SigningCertURL",
            "UnsubscribeURL",
            "MessageAttributes"
        ],
        "{body}"
    );
    assert!(
        body.starts_with("{\n  \"Type\" : \"Notification\",\n"),
        "{body}"
    );
    let v: Value = serde_json::from_str(&body).expect("JSON");
    let arn = "arn:aws:sns:us-east-1:000000000000:orders-topic";
    assert_eq!(v["TopicArn"], arn);
    assert_eq!(v["Subject"], "New order");
    assert_eq!(v["Message"], "{\"id\":\"A-1\"}");
    // The default epoch, 2024-01-01, plus 1.5 s of virtual time.
    assert_eq!(v["Timestamp"], "2024-01-01T00:00:01.500Z");
    assert_eq!(v["SignatureVersion"], "1");
    let signature = v["Signature"].as_str().unwrap();
    assert_eq!(signature.len(), 344, "a 2048-bit signature's base64");
    let id = v["MessageId"].as_str().unwrap();
    assert_eq!(
        id.split('-').map(str::len).collect::<Vec<_>>(),
        [8, 4, 4, 4, 12]
    );
    let unsubscribe = v["UnsubscribeURL"].as_str().unwrap();
    let prefix =
        format!("https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn={arn}:");
    assert!(unsubscribe.starts_with(&prefix), "{unsubscribe}");
    assert!(v["SigningCertURL"]
        .as_str()
        .unwrap()
        .starts_with("https://sns.us-east-1.amazonaws.com/SimpleNotificationService-"));
    assert_eq!(
        v["MessageAttributes"]["type"],
        json!({ "Type": "String", "Value": "order" })
    );
    assert_eq!(
        v["MessageAttributes"]["total"],
        json!({ "Type": "Number", "Value": "42.5" })
    );
    assert_eq!(
        v["MessageAttributes"]["tags"],
        json!({ "Type": "String.Array", "Value": "[\"a\",\"b\"]" })
    );
}

#[test]
fn the_envelope_leaves_subject_and_message_attributes_out_when_the_publish_has_none() {
    let mut sim = run(
        json!([{ "name": "orders" }]),
        json!([{ "name": "t", "subscriptions": [{ "queue": "orders" }],
            "publishes": [{ "atMs": 0, "message": "hi" }] }]),
        10,
    );
    let v: Value = serde_json::from_str(&messages(&mut sim, "orders")[0].body).unwrap();
    assert!(
        v.get("Subject").is_none() && v.get("MessageAttributes").is_none(),
        "{v}"
    );
    // Without SNS's envelope attributes, SQS has none either.
    assert!(messages(&mut sim, "orders")[0]
        .message_attributes
        .is_empty());
}

#[test]
fn raw_message_delivery_sends_the_message_itself_with_its_attributes_as_sqs_attributes() {
    let mut sim = run(
        json!([{ "name": "raw" }]),
        json!([{ "name": "t", "subscriptions": [{ "queue": "raw", "rawMessageDelivery": true }],
            "publishes": [{ "atMs": 0, "message": "just this", "subject": "dropped",
                "attributes": { "type": "order", "total": 3 } }] }]),
        10,
    );
    let m = messages(&mut sim, "raw").remove(0);
    assert_eq!(m.body, "just this");
    let attributes: Vec<(String, String)> = m
        .message_attributes
        .iter()
        .map(|a| (a.name.clone(), a.data_type.clone()))
        .collect();
    assert_eq!(
        attributes,
        [
            ("total".into(), "Number".into()),
            ("type".into(), "String".into())
        ]
    );
}

#[test]
fn a_filtered_out_message_is_counted_and_logged_for_its_subscription() {
    let sim = run(
        json!([{ "name": "orders" }, { "name": "all" }]),
        json!([{ "name": "t", "subscriptions": [
            { "queue": "orders", "filterPolicy": { "type": ["order"] } }, { "queue": "all" }
        ], "publishes": [
            { "atMs": 0, "message": "o", "attributes": { "type": "order" } },
            { "atMs": 0, "message": "r", "attributes": { "type": "refund" } }
        ] }]),
        10,
    );
    let t = topic(&sim, "t");
    assert_eq!(
        (
            t.subscriptions[0].delivered,
            t.subscriptions[0].filtered_out
        ),
        (1, 1)
    );
    assert_eq!(
        (
            t.subscriptions[1].delivered,
            t.subscriptions[1].filtered_out
        ),
        (2, 0)
    );
    assert!(t.subscriptions[0].filtered && !t.subscriptions[1].filtered);
    let filtered: Vec<_> = sim_events(&sim)
        .into_iter()
        .filter(|e| matches!(e, SimEvent::TopicFilteredOut { queue, .. } if &**queue == "orders"))
        .collect();
    assert_eq!(filtered.len(), 1);
}

// Each operator of a filter policy, on message attributes.

#[test]
fn exact_string_matching_on_attributes() {
    assert!(on_attributes(
        json!({ "type": ["order"] }),
        json!({ "type": "order" })
    ));
    assert!(!on_attributes(
        json!({ "type": ["order"] }),
        json!({ "type": "Order" })
    ));
    assert!(!on_attributes(json!({ "type": ["order"] }), json!({})));
}

#[test]
fn exact_number_matching_on_attributes() {
    assert!(on_attributes(
        json!({ "total": [301.5] }),
        json!({ "total": 301.5 })
    ));
    assert!(!on_attributes(
        json!({ "total": [301.5] }),
        json!({ "total": 301 })
    ));
    // A string attribute is not the number.
    assert!(!on_attributes(
        json!({ "total": [301.5] }),
        json!({ "total": "301.5" })
    ));
}

#[test]
fn prefix_matching_on_attributes() {
    let p = json!({ "region": [{ "prefix": "eu-" }] });
    assert!(on_attributes(p.clone(), json!({ "region": "eu-west-1" })));
    assert!(!on_attributes(p, json!({ "region": "us-east-1" })));
}

#[test]
fn suffix_matching_on_attributes() {
    let p = json!({ "file": [{ "suffix": ".png" }] });
    assert!(on_attributes(p.clone(), json!({ "file": "cat.png" })));
    assert!(!on_attributes(p, json!({ "file": "cat.jpg" })));
}

#[test]
fn equals_ignore_case_matching_on_attributes() {
    let p = json!({ "state": [{ "equals-ignore-case": "PAID" }] });
    assert!(on_attributes(p.clone(), json!({ "state": "paid" })));
    assert!(!on_attributes(p, json!({ "state": "unpaid" })));
}

#[test]
fn anything_but_a_value_on_attributes() {
    let p = json!({ "type": [{ "anything-but": "refund" }] });
    assert!(on_attributes(p.clone(), json!({ "type": "order" })));
    assert!(!on_attributes(p.clone(), json!({ "type": "refund" })));
    // anything-but needs the key to be there.
    assert!(!on_attributes(p, json!({})));
}

#[test]
fn anything_but_a_list_on_attributes() {
    let p = json!({ "price": [{ "anything-but": [100, 500] }] });
    assert!(on_attributes(p.clone(), json!({ "price": 101 })));
    assert!(!on_attributes(p, json!({ "price": 500 })));
}

#[test]
fn anything_but_a_prefix_on_attributes() {
    let p = json!({ "type": [{ "anything-but": { "prefix": "test-" } }] });
    assert!(on_attributes(p.clone(), json!({ "type": "order" })));
    assert!(!on_attributes(p, json!({ "type": "test-order" })));
}

#[test]
fn numeric_equals_on_attributes() {
    let p = json!({ "total": [{ "numeric": ["=", 301.5] }] });
    assert!(on_attributes(p.clone(), json!({ "total": 3.015e2 })));
    assert!(!on_attributes(p, json!({ "total": 301.6 })));
}

#[test]
fn numeric_ranges_on_attributes() {
    let p = json!({ "total": [{ "numeric": [">", 0, "<=", 150] }] });
    assert!(on_attributes(p.clone(), json!({ "total": 150 })));
    assert!(!on_attributes(p.clone(), json!({ "total": 0 })));
    assert!(!on_attributes(p.clone(), json!({ "total": 150.5 })));
    assert!(on_attributes(
        json!({ "n": [{ "numeric": ["<", 0] }] }),
        json!({ "n": -1 })
    ));
    assert!(on_attributes(
        json!({ "n": [{ "numeric": [">=", 5] }] }),
        json!({ "n": 5 })
    ));
    // A string value is not a number.
    assert!(!on_attributes(p, json!({ "total": "100" })));
}

#[test]
fn exists_true_on_attributes() {
    let p = json!({ "store": [{ "exists": true }] });
    assert!(on_attributes(p.clone(), json!({ "store": "anything" })));
    assert!(!on_attributes(p, json!({})));
}

#[test]
fn exists_false_on_attributes() {
    let p = json!({ "store": [{ "exists": false }] });
    assert!(on_attributes(p.clone(), json!({ "other": "x" })));
    assert!(!on_attributes(p, json!({ "store": "x" })));
}

#[test]
fn values_of_one_key_are_ored_on_attributes() {
    let p = json!({ "sport": ["rugby", "football"] });
    assert!(on_attributes(p.clone(), json!({ "sport": "football" })));
    assert!(!on_attributes(p, json!({ "sport": "golf" })));
}

#[test]
fn keys_are_anded_on_attributes() {
    let p = json!({ "sport": ["rugby"], "price": [{ "numeric": [">", 100] }] });
    assert!(on_attributes(
        p.clone(),
        json!({ "sport": "rugby", "price": 150 })
    ));
    assert!(!on_attributes(p, json!({ "sport": "rugby", "price": 50 })));
}

#[test]
fn or_operator_on_attributes() {
    let p = json!({ "source": ["aws.cloudwatch"], "$or": [
        { "metricName": ["CPUUtilization"] }, { "namespace": ["AWS/EC2"] }
    ] });
    let a =
        |ns: &str| json!({ "source": "aws.cloudwatch", "metricName": "Other", "namespace": ns });
    assert!(on_attributes(p.clone(), a("AWS/EC2")));
    assert!(!on_attributes(p, a("AWS/S3")));
}

#[test]
fn a_string_array_attribute_matches_when_any_element_does() {
    let p = json!({ "tags": ["urgent"] });
    assert!(on_attributes(
        p.clone(),
        json!({ "tags": ["later", "urgent"] })
    ));
    assert!(!on_attributes(p, json!({ "tags": ["later"] })));
}

// The same operators on the message body (FilterPolicyScope MessageBody).

#[test]
fn exact_values_on_the_body() {
    assert!(on_body(
        json!({ "type": ["order"] }),
        json!({ "type": "order" })
    ));
    assert!(on_body(json!({ "total": [12] }), json!({ "total": 12.0 })));
    assert!(on_body(json!({ "paid": [true] }), json!({ "paid": true })));
    assert!(on_body(
        json!({ "coupon": [null] }),
        json!({ "coupon": null })
    ));
    assert!(!on_body(
        json!({ "type": ["order"] }),
        json!({ "type": "refund" })
    ));
}

#[test]
fn prefix_and_suffix_on_the_body() {
    assert!(on_body(
        json!({ "id": [{ "prefix": "A-" }] }),
        json!({ "id": "A-1" })
    ));
    assert!(!on_body(
        json!({ "id": [{ "prefix": "A-" }] }),
        json!({ "id": "B-1" })
    ));
    assert!(on_body(
        json!({ "f": [{ "suffix": ".csv" }] }),
        json!({ "f": "x.csv" })
    ));
    assert!(!on_body(
        json!({ "f": [{ "suffix": ".csv" }] }),
        json!({ "f": "x.txt" })
    ));
}

#[test]
fn equals_ignore_case_on_the_body() {
    let p = json!({ "state": [{ "equals-ignore-case": "Paid" }] });
    assert!(on_body(p.clone(), json!({ "state": "PAID" })));
    assert!(!on_body(p, json!({ "state": "open" })));
}

#[test]
fn anything_but_on_the_body() {
    assert!(on_body(
        json!({ "t": [{ "anything-but": ["a", "b"] }] }),
        json!({ "t": "c" })
    ));
    assert!(!on_body(
        json!({ "t": [{ "anything-but": ["a", "b"] }] }),
        json!({ "t": "b" })
    ));
    let p = json!({ "t": [{ "anything-but": { "suffix": "-test" } }] });
    assert!(on_body(p.clone(), json!({ "t": "order" })));
    assert!(!on_body(p, json!({ "t": "order-test" })));
}

#[test]
fn numeric_ranges_on_the_body() {
    let p = json!({ "total": [{ "numeric": [">=", 10, "<", 20] }] });
    assert!(on_body(p.clone(), json!({ "total": 10 })));
    assert!(!on_body(p.clone(), json!({ "total": 20 })));
    assert!(!on_body(p, json!({ "total": "15" })));
}

#[test]
fn exists_on_the_body() {
    assert!(on_body(
        json!({ "coupon": [{ "exists": true }] }),
        json!({ "coupon": "X" })
    ));
    assert!(!on_body(
        json!({ "coupon": [{ "exists": true }] }),
        json!({ "other": 1 })
    ));
    assert!(on_body(
        json!({ "coupon": [{ "exists": false }] }),
        json!({ "other": 1 })
    ));
}

#[test]
fn nested_keys_on_the_body() {
    let p = json!({ "order": { "customer": { "tier": ["gold"] } } });
    assert!(on_body(
        p.clone(),
        json!({ "order": { "customer": { "tier": "gold" } } })
    ));
    assert!(!on_body(
        p.clone(),
        json!({ "order": { "customer": { "tier": "silver" } } })
    ));
    assert!(!on_body(p, json!({ "tier": "gold" })));
}

#[test]
fn an_array_in_the_body_matches_when_any_element_does() {
    let p = json!({ "items": { "sku": [{ "prefix": "BOOK" }] } });
    let body = json!({ "items": [{ "sku": "PEN-1" }, { "sku": "BOOK-7" }] });
    assert!(on_body(p.clone(), body));
    assert!(!on_body(p, json!({ "items": [{ "sku": "PEN-1" }] })));
}

#[test]
fn or_operator_on_the_body() {
    let p = json!({ "$or": [{ "a": ["1"] }, { "b": { "c": ["2"] } }] });
    assert!(on_body(p.clone(), json!({ "b": { "c": "2" } })));
    assert!(on_body(p.clone(), json!({ "a": "1" })));
    assert!(!on_body(p, json!({ "a": "2" })));
}

#[test]
fn a_body_that_is_not_a_json_object_is_filtered_out() {
    assert!(!passes(
        json!({ "a": ["1"] }),
        "MessageBody",
        json!({}),
        "not json"
    ));
    assert!(!passes(
        json!({ "a": ["1"] }),
        "MessageBody",
        json!({}),
        "[1, 2]"
    ));
}

#[test]
fn a_fifo_topic_keeps_the_group_id_and_deduplicates_publishes() {
    let mut sim = run(
        json!([{ "name": "orders.fifo" }]),
        json!([{ "name": "orders.fifo", "fifo": true, "contentBasedDeduplication": true,
            "subscriptions": [{ "queue": "orders.fifo" }],
            "publishes": [
                { "atMs": 0, "message": "first", "groupId": "customer-1" },
                { "atMs": 1000, "message": "first", "groupId": "customer-1" },
                { "atMs": 2000, "message": "second", "groupId": "customer-2", "dedupId": "d-2" }
            ] }]),
        3000,
    );
    let t = topic(&sim, "orders.fifo");
    assert_eq!((t.published, t.deduplicated), (3, 1));
    let received = messages(&mut sim, "orders.fifo");
    let groups: Vec<String> = received
        .iter()
        .filter_map(|m| m.attributes.iter().find(|(k, _)| *k == "MessageGroupId"))
        .map(|(_, v)| v.clone())
        .collect();
    assert_eq!(groups, ["customer-1", "customer-2"]);
    let dedup: Vec<String> = received
        .iter()
        .filter_map(|m| {
            m.attributes
                .iter()
                .find(|(k, _)| *k == "MessageDeduplicationId")
        })
        .map(|(_, v)| v.clone())
        .collect();
    // The SHA-256 of "first", as the topic's content-based deduplication
    // makes it, and the publish's own id.
    let first = "a7937b64b8caa58f03721bb6bacf5c78cb235febe0e70b1b84cd99541461a08e";
    assert_eq!(dedup, [first, "d-2"]);
    let v: Value = serde_json::from_str(&received[0].body).unwrap();
    assert!(
        v["SequenceNumber"].as_str().is_some_and(|n| n.len() == 20),
        "{v}"
    );
}

#[test]
fn a_fifo_topic_sends_a_standard_queue_no_fifo_ids() {
    let mut sim = run(
        json!([{ "name": "audit" }]),
        json!([{ "name": "t.fifo", "fifo": true, "subscriptions": [{ "queue": "audit" }],
            "publishes": [{ "atMs": 0, "message": "m", "groupId": "g", "dedupId": "d" }] }]),
        10,
    );
    let m = messages(&mut sim, "audit");
    assert_eq!(m.len(), 1);
    assert!(!m[0].attributes.iter().any(|(k, _)| *k == "MessageGroupId"));
}

/// A topic publishing at 1 s and 2 s to `orders`, deleted at 500 ms.
fn deleted_queue(dead_letter: Option<&str>) -> Simulation {
    let mut subscription = json!({ "queue": "orders" });
    if let Some(dlq) = dead_letter {
        subscription["deadLetterQueue"] = json!(dlq);
    }
    let mut sim = Simulation::new(
        scenario(
            json!([{ "name": "orders" }, { "name": "sns-dlq" }]),
            json!([{ "name": "orders-topic", "subscriptions": [subscription],
                "publishes": [{ "atMs": 1000, "message": "a" }, { "atMs": 2000, "message": "b" }] }]),
        ),
        Config::default(),
    )
    .expect("loads");
    sim.advance(500);
    let url = sim.engine().get_queue_url("orders", None).unwrap();
    sim.engine_mut().delete_queue(&url).expect("deleted");
    sim.advance(60_000);
    sim
}

#[test]
fn a_delivery_to_a_deleted_queue_is_not_retried_and_goes_to_the_subscriptions_dead_letter_queue() {
    let mut sim = deleted_queue(Some("sns-dlq"));
    let events = sim_events(&sim);
    let failed: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            SimEvent::TopicDeliveryFailed {
                code,
                client_side,
                retry_at,
                attempt,
                ..
            } => Some((*code, *client_side, *retry_at, *attempt)),
            _ => None,
        })
        .collect();
    let once = ("AWS.SimpleQueueService.NonExistentQueue", true, None, 1);
    assert_eq!(failed, [once, once], "one attempt each, no retry");
    let dead_lettered = events
        .iter()
        .filter(|e| matches!(e, SimEvent::TopicDeadLettered { dead_letter_queue, .. } if &**dead_letter_queue == "sns-dlq"))
        .count();
    assert_eq!(dead_lettered, 2);
    let s = &topic(&sim, "orders-topic").subscriptions[0];
    assert_eq!(
        (s.delivered, s.failed, s.dead_lettered, s.dropped),
        (0, 2, 2, 0)
    );
    let failure = s.last_failure.as_ref().expect("the refusal");
    assert!(failure.client_side && failure.code == "AWS.SimpleQueueService.NonExistentQueue");
    // The dead-letter queue has what the queue would have had: the envelope.
    let kept = messages(&mut sim, "sns-dlq");
    let v: Value = serde_json::from_str(&kept[0].body).unwrap();
    assert_eq!(v["Message"], "a");
}

#[test]
fn a_delivery_to_a_deleted_queue_without_a_dead_letter_queue_is_dropped() {
    let sim = deleted_queue(None);
    let dropped = sim_events(&sim)
        .into_iter()
        .filter(|e| {
            matches!(
                e,
                SimEvent::TopicDropped {
                    reason: "noDeadLetterQueue",
                    ..
                }
            )
        })
        .count();
    assert_eq!(dropped, 2);
    let s = &topic(&sim, "orders-topic").subscriptions[0];
    assert_eq!(
        (s.failed, s.dead_lettered, s.dropped, s.retrying),
        (2, 0, 2, 0)
    );
}

#[test]
fn a_delivery_the_queue_policy_refuses_is_access_denied_not_retried_and_dead_lettered() {
    // The queue's policy allows only another account: SNS needs an Allow.
    let policy = json!({ "Version": "2012-10-17", "Statement": [{
        "Sid": "PartnerOnly", "Effect": "Allow",
        "Principal": { "AWS": "111111111111" }, "Action": "sqs:SendMessage",
        "Resource": "*" }] });
    let sim = run(
        json!([{ "name": "orders", "policy": policy }, { "name": "sns-dlq" }]),
        json!([{ "name": "orders-topic",
            "subscriptions": [{ "queue": "orders", "deadLetterQueue": "sns-dlq" }],
            "publishes": [{ "atMs": 1000, "message": "a" }] }]),
        5000,
    );
    let s = &topic(&sim, "orders-topic").subscriptions[0];
    assert_eq!((s.delivered, s.failed, s.dead_lettered), (0, 1, 1));
    let failure = s.last_failure.as_ref().expect("the refusal");
    assert_eq!(failure.code, "AccessDenied");
    assert!(failure.client_side);
}

#[test]
fn a_topic_publishes_at_a_steady_rate() {
    let mut sim = run(
        json!([{ "name": "q" }]),
        json!([{ "name": "t", "subscriptions": [{ "queue": "q", "rawMessageDelivery": true }],
            "rate": { "startMs": 0, "everyMs": 1000, "count": 3, "body": "tick {n}" } }]),
        10_000,
    );
    let mut bodies: Vec<String> = messages(&mut sim, "q")
        .into_iter()
        .map(|m| m.body)
        .collect();
    bodies.sort();
    assert_eq!(bodies, ["tick 1", "tick 2", "tick 3"]);
}

#[test]
fn the_same_seed_gives_the_same_message_ids_and_another_seed_others() {
    let ids = |seed: u64| {
        let mut s = scenario(
            json!([{ "name": "q" }]),
            json!([{ "name": "t", "subscriptions": [{ "queue": "q" }],
                "publishes": [{ "atMs": 0, "message": "m" }] }]),
        );
        s.seed = seed;
        let mut sim = Simulation::new(s, Config::default()).unwrap();
        sim.advance(10);
        let v: Value = serde_json::from_str(&messages(&mut sim, "q")[0].body).unwrap();
        v["MessageId"].as_str().unwrap().to_string()
    };
    assert_eq!(ids(1), ids(1));
    assert_ne!(ids(1), ids(2));
}

// Refusals, at their fields.

#[test]
fn a_subscription_to_a_queue_the_scenario_does_not_have_is_refused() {
    let e = refusal(
        json!([{ "name": "q" }]),
        json!([{ "name": "t", "subscriptions": [{ "queue": "nope" }] }]),
    );
    assert_eq!(
        e.to_string(),
        "topics[0].subscriptions[0].queue must be the name of one of the scenario's queues, got \"nope\""
    );
}

#[test]
fn a_fifo_queue_subscribed_to_a_standard_topic_is_refused_in_snss_words() {
    let e = refusal(
        json!([{ "name": "q.fifo" }]),
        json!([{ "name": "t", "subscriptions": [{ "queue": "q.fifo" }] }]),
    );
    assert_eq!(e.path, "topics[0].subscriptions[0].queue");
    assert!(
        e.rule
            .contains("FIFO SQS Queues can not be subscribed to standard SNS topics"),
        "{e}"
    );
}

#[test]
fn a_dead_letter_queue_of_the_other_type_is_refused() {
    let e = refusal(
        json!([{ "name": "q.fifo" }, { "name": "dlq" }]),
        json!([{ "name": "t.fifo", "fifo": true,
            "subscriptions": [{ "queue": "q.fifo", "deadLetterQueue": "dlq" }] }]),
    );
    assert_eq!(e.path, "topics[0].subscriptions[0].deadLetterQueue");
}

/// The refusal of a subscription with this filter policy (attribute scope).
fn policy_refusal(policy: Value, scope: &str) -> String {
    let e = refusal(
        json!([{ "name": "q" }]),
        json!([{ "name": "t", "subscriptions": [
            { "queue": "q", "filterPolicy": policy, "filterPolicyScope": scope }
        ] }]),
    );
    assert_eq!(e.path, "topics[0].subscriptions[0].filterPolicy");
    e.to_string()
}

#[test]
fn a_filter_policy_with_more_than_five_keys_is_refused_in_snss_words() {
    let p = json!({ "a": ["1"], "b": ["1"], "c": ["1"], "d": ["1"], "e": ["1"], "f": ["1"] });
    let e = policy_refusal(p, "MessageAttributes");
    assert!(e.ends_with("got one SNS refuses with \"Invalid parameter: Attributes Reason: FilterPolicy: Filter policy can not have more than 5 keys\""), "{e}");
}

#[test]
fn a_filter_policy_of_more_than_150_combinations_is_refused_as_too_complex() {
    let values: Vec<String> = (0..20).map(|i| i.to_string()).collect();
    let p = json!({ "a": values, "b": values });
    assert!(policy_refusal(p, "MessageAttributes")
        .contains("FilterPolicy: Filter policy is too complex"));
    // 10 × 15 = 150 is allowed.
    let p = json!({ "a": values[..10], "b": (0..15).collect::<Vec<_>>() });
    let s = scenario(
        json!([{ "name": "q" }]),
        json!([{ "name": "t", "subscriptions": [{ "queue": "q", "filterPolicy": p }] }]),
    );
    assert_eq!(s.validate(), Ok(()));
}

#[test]
fn a_nested_filter_policy_on_attributes_is_refused() {
    let e = policy_refusal(json!({ "a": { "b": ["1"] } }), "MessageAttributes");
    assert!(
        e.contains("Filter policy scope MessageAttributes does not support nested filter policy"),
        "{e}"
    );
}

#[test]
fn malformed_filter_policies_are_refused_with_snss_reasons() {
    let cases = [
        (
            json!({ "a": [] }),
            "FilterPolicy: Empty arrays are not allowed",
        ),
        (
            json!({ "a": "x" }),
            "FilterPolicy: \"a\" must be an object or an array",
        ),
        (
            json!({ "a": [{ "wildcat": "x" }] }),
            "FilterPolicy: Unrecognized match type wildcat",
        ),
        (
            json!({ "a": [{ "prefix": 1 }] }),
            "FilterPolicy: prefix match pattern must be a string",
        ),
        (
            json!({ "a": [{ "exists": "yes" }] }),
            "FilterPolicy: exists match pattern must be either true or false.",
        ),
        (
            json!({ "a": [{ "prefix": "x", "suffix": "y" }] }),
            "FilterPolicy: Only one key allowed in match expression",
        ),
        (
            json!({ "a": [{ "numeric": ["~", 1] }] }),
            "FilterPolicy: Unrecognized numeric range operator: ~",
        ),
        (
            json!({ "a": [{ "numeric": ["=", "1"] }] }),
            "FilterPolicy: Value of equals must be numeric",
        ),
        (
            json!({ "a": [{ "numeric": [">", 5, "<", 1] }] }),
            "FilterPolicy: Bottom must be less than top",
        ),
        (
            json!({ "a": [{ "numeric": ["<", 5, ">", 1] }] }),
            "FilterPolicy: Too many elements in numeric expression",
        ),
        (
            json!({ "a": [[1]] }),
            "FilterPolicy: Match value must be String, number, true, false, or null",
        ),
        (
            json!({ "a": [{ "anything-but": { "wildcard": "x" } }] }),
            "FilterPolicy: Unsupported anything-but pattern: wildcard",
        ),
    ];
    for (policy, words) in cases {
        let e = policy_refusal(policy.clone(), "MessageBody");
        assert!(e.contains(words), "{policy}: {e}");
    }
}

#[test]
fn a_fifo_topic_publish_without_a_group_id_is_refused_in_snss_words() {
    let e = refusal(
        json!([{ "name": "q.fifo" }]),
        json!([{ "name": "t.fifo", "fifo": true, "subscriptions": [{ "queue": "q.fifo" }],
            "publishes": [{ "atMs": 0, "message": "m", "dedupId": "d" }] }]),
    );
    assert_eq!(e.path, "topics[0].publishes[0].groupId");
    assert!(e
        .rule
        .contains("The MessageGroupId parameter is required for FIFO topics"));
}

#[test]
fn a_fifo_topic_publish_without_deduplication_is_refused() {
    let e = refusal(
        json!([{ "name": "q.fifo" }]),
        json!([{ "name": "t.fifo", "fifo": true, "subscriptions": [{ "queue": "q.fifo" }],
            "publishes": [{ "atMs": 0, "message": "m", "groupId": "g" }] }]),
    );
    assert_eq!(e.path, "topics[0].publishes[0].dedupId");
}

#[test]
fn a_fifo_topic_whose_name_lacks_fifo_is_refused() {
    let e = refusal(
        json!([]),
        json!([{ "name": "t", "fifo": true, "subscriptions": [] }]),
    );
    assert_eq!(
        e.to_string(),
        "topics[0].name must be a name ending in .fifo, as a FIFO topic's does, got \"t\""
    );
}

#[test]
fn a_message_past_snss_256_kib_is_refused() {
    let e = refusal(
        json!([{ "name": "q" }]),
        json!([{ "name": "t", "subscriptions": [{ "queue": "q" }],
            "publishes": [{ "atMs": 0, "message": "x".repeat(262_145) }] }]),
    );
    assert_eq!(e.to_string(), "topics[0].publishes[0].message must be a message of 1 to 262,144 bytes (SNS's 256 KiB), got 262145 bytes");
}

#[test]
fn more_than_ten_attributes_on_a_publish_are_refused() {
    let attributes: serde_json::Map<String, Value> =
        (0..11).map(|i| (format!("a{i}"), json!("v"))).collect();
    let e = refusal(
        json!([{ "name": "q" }]),
        json!([{ "name": "t", "subscriptions": [{ "queue": "q" }],
            "publishes": [{ "atMs": 0, "message": "m", "attributes": attributes }] }]),
    );
    assert_eq!(e.to_string(), "topics[0].publishes[0].attributes must be a list of at most 10 attributes, got 11 attributes");
}

#[test]
fn an_attribute_that_is_neither_a_string_a_number_nor_a_list_is_refused() {
    let e = refusal(
        json!([{ "name": "q" }]),
        json!([{ "name": "t", "subscriptions": [{ "queue": "q" }],
            "publishes": [{ "atMs": 0, "message": "m", "attributes": { "type": { "a": 1 } } }] }]),
    );
    assert_eq!(
        e.to_string(),
        "topics[0].publishes[0].attributes.type must be a string (String), a number (Number) or a \
         list of strings, numbers, true, false or null (String.Array), got \"{\"a\":1}\""
    );
}

#[test]
fn more_than_a_thousand_publishes_are_refused() {
    let publishes: Vec<Value> = (0..1001)
        .map(|i| json!({ "atMs": i, "message": "m" }))
        .collect();
    let e = refusal(
        json!([{ "name": "q" }]),
        json!([{ "name": "t", "subscriptions": [{ "queue": "q" }], "publishes": publishes }]),
    );
    assert_eq!(
        e.to_string(),
        "topics[0].publishes must be a list of at most 1000 publishes, got 1001 publishes"
    );
}

#[test]
fn more_than_twenty_topics_are_refused() {
    let topics: Vec<Value> = (0..21)
        .map(|i| json!({ "name": format!("t{i}"), "subscriptions": [] }))
        .collect();
    let e = refusal(json!([]), json!(topics));
    assert_eq!(
        e.to_string(),
        "topics must be a list of at most 20 topics, got 21 topics"
    );
}

#[test]
fn an_unknown_field_in_a_topic_is_refused() {
    let value = json!({ "title": "t", "durationMs": 1, "queues": [],
        "topics": [{ "name": "t", "subscriptions": [], "colour": "red" }] });
    let e = serde_json::from_value::<Scenario>(value).expect_err("refused");
    assert!(e.to_string().contains("unknown field `colour`"), "{e}");
}

#[test]
fn renaming_a_queue_renames_it_in_the_subscriptions_to_it() {
    let mut s = scenario(
        json!([{ "name": "q" }, { "name": "dlq" }]),
        json!([{ "name": "t", "subscriptions": [{ "queue": "q", "deadLetterQueue": "dlq" }] }]),
    );
    queuelab_simulation::lab::rename_queue(&mut s, "q", "orders");
    queuelab_simulation::lab::rename_queue(&mut s, "dlq", "sns-dlq");
    assert_eq!(s.topics[0].subscriptions[0].queue, "orders");
    assert_eq!(
        s.topics[0].subscriptions[0].dead_letter_queue.as_deref(),
        Some("sns-dlq")
    );
}
