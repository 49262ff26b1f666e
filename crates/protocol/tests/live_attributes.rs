//! SetQueueAttributes on a queue that already holds messages: what a change
//! does to the messages already there (sqs-facts.md, "Queues", "Messages"
//! and "Dead-letter queues"; the SetQueueAttributes API reference).

mod common;
use common::Sqs;
use queuelab_engine::EventKind;
use serde_json::json;

fn visible(sqs: &mut Sqs, url: &str) -> String {
    sqs.attribute(url, "ApproximateNumberOfMessages")
}

/// "old" sent at 0 s and "young" at 100 s; at 150 s MessageRetentionPeriod
/// is lowered from 4 days to 60 s.
fn retention_lowered_below_the_age_of_one_message() -> (Sqs, String) {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.send(&url, "old");
    sqs.advance(100_000);
    sqs.send(&url, "young");
    sqs.advance(50_000);
    sqs.set_attributes(&url, json!({ "MessageRetentionPeriod": "60" }))
        .ok();
    (sqs, url)
}

#[test]
fn lowering_message_retention_period_expires_messages_already_older_than_it() {
    // "A message older than MessageRetentionPeriod is deleted by SQS,
    // wherever it is"; AWS: reducing the period below the age of existing
    // messages expires and deletes them. The engine applies it at once.
    let (mut sqs, url) = retention_lowered_below_the_age_of_one_message();
    assert_eq!(visible(&mut sqs, &url), "1", "old (150 s) is gone at once");
    let expired: Vec<u64> = sqs
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Expired { .. }))
        .map(|e| e.time_ms)
        .collect();
    assert_eq!(expired, [150_000]);
    // The young one (50 s old) goes when it reaches the new 60 s.
    sqs.advance(9_999);
    assert_eq!(visible(&mut sqs, &url), "1");
    sqs.advance(1);
    assert_eq!(visible(&mut sqs, &url), "0");
}

#[test]
fn a_message_past_a_lowered_retention_period_is_not_delivered() {
    let (mut sqs, url) = retention_lowered_below_the_age_of_one_message();
    assert_eq!(sqs.receive_bodies(&url, 10), ["young"]);
}

#[test]
fn a_new_visibility_timeout_applies_to_the_next_receive_not_to_messages_in_flight() {
    // The visibility timeout starts when a receive returns the message: one
    // already in flight keeps the deadline its receive gave it.
    let (mut sqs, url) = Sqs::with_queue("orders", json!({ "VisibilityTimeout": "30" }));
    sqs.send(&url, "a");
    sqs.send(&url, "b");
    assert_eq!(sqs.receive_bodies(&url, 1), ["a"]);
    sqs.set_attributes(&url, json!({ "VisibilityTimeout": "5" }))
        .ok();
    assert_eq!(sqs.receive_bodies(&url, 1), ["b"]);
    sqs.advance(4_999);
    sqs.receive_none(&url, 10);
    sqs.advance(1);
    let b = sqs.receive(&url, 10);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0]["Body"], "b", "received under the new 5 s timeout");
    sqs.delete(&url, &b[0]["ReceiptHandle"]).ok();
    sqs.advance(24_999);
    sqs.receive_none(&url, 10);
    sqs.advance(1);
    assert_eq!(
        sqs.receive_bodies(&url, 10),
        ["a"],
        "a kept its 30 s from before the change"
    );
}

#[test]
fn adding_a_redrive_policy_makes_the_next_receive_move_messages_already_past_max_receive_count() {
    let mut sqs = Sqs::new();
    let (dlq, dlq_arn) = sqs.create_with_arn("orders-dlq", json!({}));
    let (url, url_arn) = sqs.create_with_arn("orders", json!({ "VisibilityTimeout": "1" }));
    sqs.send(&url, "poison");
    for _ in 0..3 {
        assert_eq!(sqs.receive_bodies(&url, 1), ["poison"]);
        sqs.advance(1_000);
    }
    sqs.send(&url, "fresh");
    let policy = json!({ "deadLetterTargetArn": dlq_arn, "maxReceiveCount": 2 }).to_string();
    sqs.set_attributes(&url, json!({ "RedrivePolicy": policy }))
        .ok();
    // The move is lazy: nothing moves until a receive reaches the message.
    assert_eq!(visible(&mut sqs, &url), "2");
    assert_eq!(visible(&mut sqs, &dlq), "0");
    assert_eq!(
        sqs.receive_bodies(&url, 10),
        ["fresh"],
        "received 3 times, over the new maxReceiveCount of 2: moved, not delivered"
    );
    assert_eq!(visible(&mut sqs, &dlq), "1");
    let moved = sqs.receive(&dlq, 1);
    assert_eq!(moved[0]["Body"], "poison");
    assert_eq!(moved[0]["Attributes"]["ApproximateReceiveCount"], "4");
    assert_eq!(moved[0]["Attributes"]["DeadLetterQueueSourceArn"], url_arn);
}
