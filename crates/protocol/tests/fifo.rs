//! "FIFO queues" of sqs-facts.md: group and deduplication ids, the
//! deduplication window and scope, ordering and group locks, receive-attempt
//! replay, sequence numbers and per-message delays — through the JSON protocol.

mod common;

use common::{Reply, Sqs};
use queuelab_engine::{EventKind, UnlockCause};
use serde_json::{json, Value};

const EPOCH_MS: u64 = 1_704_067_200_000;
const FIVE_MINUTES_MS: u64 = 5 * 60 * 1000;
/// SHA-256 of "hello", hex.
const SHA256_HELLO: &str = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";

/// A fresh engine with the FIFO queue "orders.fifo" (with `attributes`).
#[track_caller]
fn fifo_queue(attributes: Value) -> (Sqs, String) {
    let mut attributes = attributes;
    attributes["FifoQueue"] = json!("true");
    Sqs::with_queue("orders.fifo", attributes)
}

/// A fresh FIFO queue (with `attributes`) holding "a1" then "a2" in group "a".
#[track_caller]
fn fifo_queue_with_a1_a2(attributes: Value) -> (Sqs, String) {
    let (mut sqs, url) = fifo_queue(attributes);
    sqs.send_fifo(&url, "a1", "a", "1");
    sqs.send_fifo(&url, "a2", "a", "2");
    (sqs, url)
}

/// A fresh FIFO queue (with `attributes`) sent "a" in group "g1", then "b"
/// in `second_group`, both with deduplication id "shared": answers the
/// engine, the queue and both send answers.
#[track_caller]
fn send_twice_with_one_dedup_id(
    attributes: Value,
    second_group: &str,
) -> (Sqs, String, Value, Value) {
    let (mut sqs, url) = fifo_queue(attributes);
    let first = sqs.send_fifo(&url, "a", "g1", "shared");
    let second = sqs.send_fifo(&url, "b", second_group, "shared");
    (sqs, url, first, second)
}

/// Receives the first message of `url` and deletes it.
#[track_caller]
fn receive_and_delete_one(sqs: &mut Sqs, url: &str) {
    let got = sqs.receive(url, 1);
    sqs.delete(url, &got[0]["ReceiptHandle"]).ok();
}

#[track_caller]
fn send(sqs: &mut Sqs, url: &str, mut request: Value) -> Reply {
    request["QueueUrl"] = json!(url);
    sqs.call("SendMessage", request)
}

#[track_caller]
fn receive(sqs: &mut Sqs, url: &str, mut request: Value) -> Reply {
    request["QueueUrl"] = json!(url);
    sqs.call("ReceiveMessage", request)
}

fn bodies(messages: &[Value]) -> Vec<String> {
    messages
        .iter()
        .map(|m| m["Body"].as_str().unwrap().to_string())
        .collect()
}

fn handles(messages: &[Value]) -> Vec<Value> {
    messages
        .iter()
        .map(|m| m["ReceiptHandle"].clone())
        .collect()
}

fn visible(sqs: &mut Sqs, url: &str) -> String {
    sqs.attribute(url, "ApproximateNumberOfMessages")
}

fn in_flight(sqs: &mut Sqs, url: &str) -> String {
    sqs.attribute(url, "ApproximateNumberOfMessagesNotVisible")
}

// ---------------------------------------------------------------------------
// Group and deduplication ids
// ---------------------------------------------------------------------------

#[test]
fn fifo_send_without_message_group_id_is_missing_parameter() {
    let (mut sqs, url) = fifo_queue(json!({}));
    send(
        &mut sqs,
        &url,
        json!({ "MessageBody": "a", "MessageDeduplicationId": "d" }),
    )
    .rejected(
        400,
        "MissingParameter",
        "The request must contain the parameter MessageGroupId.",
    );
}

#[test]
fn fifo_message_group_id_longer_than_128_is_invalid_parameter_value() {
    let (mut sqs, url) = fifo_queue(json!({}));
    let reply = send(
        &mut sqs,
        &url,
        json!({ "MessageBody": "a", "MessageGroupId": "g".repeat(129),
                "MessageDeduplicationId": "d" }),
    );
    reply
        .err("InvalidParameterValue")
        .message_contains(
            "MessageGroupId can only include alphanumeric and punctuation characters. 1 to 128 in length.",
        );
}

#[test]
fn fifo_message_group_id_with_a_space_or_non_ascii_is_invalid_parameter_value() {
    let (mut sqs, url) = fifo_queue(json!({}));
    for group in ["has space", "grüppe", ""] {
        send(
            &mut sqs,
            &url,
            json!({ "MessageBody": "a", "MessageGroupId": group, "MessageDeduplicationId": "d" }),
        )
        .err("InvalidParameterValue")
        .message_contains("MessageGroupId");
    }
}

#[test]
fn fifo_message_group_id_of_128_alphanumerics_and_punctuation_is_accepted() {
    let (mut sqs, url) = fifo_queue(json!({}));
    let group = format!("{}!\"#$%&'()*+,-./:;<=>?@[\\]^_`{{|}}~", "a".repeat(96));
    assert_eq!(group.len(), 128);
    send(
        &mut sqs,
        &url,
        json!({ "MessageBody": "a", "MessageGroupId": group, "MessageDeduplicationId": "d" }),
    )
    .ok();
    assert_eq!(
        sqs.receive(&url, 1)[0]["Attributes"]["MessageGroupId"],
        group
    );
}

#[test]
fn fifo_message_deduplication_id_longer_than_128_is_invalid_parameter_value() {
    let (mut sqs, url) = fifo_queue(json!({}));
    send(
        &mut sqs,
        &url,
        json!({ "MessageBody": "a", "MessageGroupId": "g",
                "MessageDeduplicationId": "d".repeat(129) }),
    )
    .err("InvalidParameterValue")
    .message_contains("MessageDeduplicationId can only include alphanumeric and punctuation characters. 1 to 128 in length.");
}

#[test]
fn fifo_send_without_dedup_id_or_content_based_dedup_is_invalid_parameter_value() {
    let (mut sqs, url) = fifo_queue(json!({}));
    let reply = send(
        &mut sqs,
        &url,
        json!({ "MessageBody": "a", "MessageGroupId": "g" }),
    );
    reply.err("InvalidParameterValue");
    assert_eq!(
        reply.message(),
        "The queue should either have ContentBasedDeduplication enabled or \
         MessageDeduplicationId provided explicitly"
    );
}

// ---------------------------------------------------------------------------
// Deduplication
// ---------------------------------------------------------------------------

#[test]
fn fifo_duplicate_send_within_five_minutes_returns_the_original_message_id_and_adds_nothing() {
    let (mut sqs, url) = fifo_queue(json!({}));
    let first = sqs.send_fifo(&url, "a", "g", "same");
    sqs.advance(FIVE_MINUTES_MS - 1);
    let second = sqs.send_fifo(&url, "different body", "g", "same");
    assert_eq!(second["MessageId"], first["MessageId"]);
    assert_eq!(visible(&mut sqs, &url), "1");
    let got = sqs.receive(&url, 10);
    assert_eq!(bodies(&got), ["a"]);
    assert!(sqs
        .kinds()
        .iter()
        .any(|k| matches!(k, EventKind::DuplicateDropped { .. })));
}

#[test]
fn fifo_dedup_window_survives_receive_and_delete() {
    let (mut sqs, url) = fifo_queue(json!({}));
    let first = sqs.send_fifo(&url, "a", "g", "once");
    receive_and_delete_one(&mut sqs, &url);
    sqs.advance(60_000);
    let again = sqs.send_fifo(&url, "a", "g", "once");
    assert_eq!(again["MessageId"], first["MessageId"]);
    assert_eq!(visible(&mut sqs, &url), "0");
    sqs.receive_none(&url, 1);
}

#[test]
fn fifo_dedup_id_can_be_used_again_after_five_minutes() {
    let (mut sqs, url) = fifo_queue(json!({}));
    let first = sqs.send_fifo(&url, "a", "g", "once");
    receive_and_delete_one(&mut sqs, &url);
    sqs.advance(FIVE_MINUTES_MS);
    let again = sqs.send_fifo(&url, "a", "g", "once");
    assert_ne!(again["MessageId"], first["MessageId"]);
    assert_eq!(visible(&mut sqs, &url), "1");
}

#[test]
fn content_based_dedup_id_is_the_sha256_of_the_body() {
    let (mut sqs, url) = fifo_queue(json!({ "ContentBasedDeduplication": "true" }));
    send(
        &mut sqs,
        &url,
        json!({ "MessageBody": "hello", "MessageGroupId": "g" }),
    )
    .ok();
    let got = sqs.receive(&url, 1);
    assert_eq!(got[0]["Attributes"]["MessageDeduplicationId"], SHA256_HELLO);
}

#[test]
fn content_based_dedup_drops_the_same_body_even_with_other_attributes() {
    let (mut sqs, url) = fifo_queue(json!({ "ContentBasedDeduplication": "true" }));
    let first = send(
        &mut sqs,
        &url,
        json!({ "MessageBody": "hello", "MessageGroupId": "g",
                "MessageAttributes": { "n": { "DataType": "String", "StringValue": "1" } } }),
    )
    .ok();
    let second = send(
        &mut sqs,
        &url,
        json!({ "MessageBody": "hello", "MessageGroupId": "g",
                "MessageAttributes": { "n": { "DataType": "String", "StringValue": "2" } } }),
    )
    .ok();
    assert_eq!(second["MessageId"], first["MessageId"]);
    assert_eq!(visible(&mut sqs, &url), "1");
}

#[test]
fn content_based_dedup_keeps_different_bodies() {
    let (mut sqs, url) = fifo_queue(json!({ "ContentBasedDeduplication": "true" }));
    for body in ["one", "two"] {
        send(
            &mut sqs,
            &url,
            json!({ "MessageBody": body, "MessageGroupId": "g" }),
        )
        .ok();
    }
    assert_eq!(visible(&mut sqs, &url), "2");
}

#[test]
fn explicit_dedup_id_takes_precedence_over_content_based_dedup() {
    let (mut sqs, url) = fifo_queue(json!({ "ContentBasedDeduplication": "true" }));
    sqs.send_fifo(&url, "same", "g", "d1");
    sqs.send_fifo(&url, "same", "g", "d2");
    assert_eq!(visible(&mut sqs, &url), "2");
}

#[test]
fn dedup_scope_queue_drops_the_same_id_sent_to_another_group() {
    let (mut sqs, url, first, second) = send_twice_with_one_dedup_id(json!({}), "g2");
    assert_eq!(second["MessageId"], first["MessageId"]);
    assert_eq!(visible(&mut sqs, &url), "1");
}

#[test]
fn dedup_scope_message_group_keeps_the_same_id_in_two_groups() {
    let (mut sqs, url, first, second) =
        send_twice_with_one_dedup_id(json!({ "DeduplicationScope": "messageGroup" }), "g2");
    assert_ne!(second["MessageId"], first["MessageId"]);
    assert_eq!(visible(&mut sqs, &url), "2");
}

#[test]
fn dedup_scope_message_group_still_drops_the_same_id_within_a_group() {
    let (mut sqs, url, first, second) =
        send_twice_with_one_dedup_id(json!({ "DeduplicationScope": "messageGroup" }), "g1");
    assert_eq!(second["MessageId"], first["MessageId"]);
    assert_eq!(visible(&mut sqs, &url), "1");
}

// ---------------------------------------------------------------------------
// Order and group locks
// ---------------------------------------------------------------------------

#[test]
fn fifo_messages_of_one_group_are_delivered_in_send_order() {
    let (mut sqs, url) = fifo_queue(json!({}));
    for i in 1..=5 {
        sqs.send_fifo(&url, &format!("m{i}"), "g", &format!("d{i}"));
    }
    let mut seen = Vec::new();
    while let Some(message) = sqs.receive(&url, 1).pop() {
        seen.push(message["Body"].as_str().unwrap().to_string());
        sqs.delete(&url, &message["ReceiptHandle"]).ok();
    }
    assert_eq!(seen, ["m1", "m2", "m3", "m4", "m5"]);
}

#[test]
fn fifo_receive_of_several_returns_one_group_in_send_order() {
    let (mut sqs, url) = fifo_queue(json!({}));
    for i in 1..=5 {
        sqs.send_fifo(&url, &format!("m{i}"), "g", &format!("d{i}"));
    }
    assert_eq!(sqs.receive_bodies(&url, 10), ["m1", "m2", "m3", "m4", "m5"]);
}

#[test]
fn fifo_group_stays_locked_while_head_is_in_flight() {
    let (mut sqs, url) = fifo_queue_with_a1_a2(json!({}));
    assert_eq!(sqs.receive_bodies(&url, 1), ["a1"]);
    sqs.receive_none(&url, 10);
    sqs.advance(29_999);
    sqs.receive_none(&url, 10);
    // Messages waiting behind a locked group still count as visible.
    assert_eq!(visible(&mut sqs, &url), "1");
    assert_eq!(in_flight(&mut sqs, &url), "1");
}

#[test]
fn fifo_other_groups_are_delivered_while_one_group_is_locked() {
    let (mut sqs, url) = fifo_queue_with_a1_a2(json!({}));
    sqs.send_fifo(&url, "b1", "b", "3");
    assert_eq!(sqs.receive_bodies(&url, 1), ["a1"]);
    assert_eq!(sqs.receive_bodies(&url, 10), ["b1"]);
}

#[test]
fn fifo_group_unlocks_when_its_head_is_deleted() {
    let (mut sqs, url) = fifo_queue_with_a1_a2(json!({}));
    receive_and_delete_one(&mut sqs, &url);
    assert_eq!(sqs.receive_bodies(&url, 10), ["a2"]);
}

#[test]
fn fifo_group_unlocks_when_head_visibility_expires_and_redelivers_the_head_first() {
    let (mut sqs, url) = fifo_queue_with_a1_a2(json!({ "VisibilityTimeout": "10" }));
    assert_eq!(sqs.receive_bodies(&url, 1), ["a1"]);
    sqs.advance(10_000);
    let got = sqs.receive(&url, 10);
    assert_eq!(bodies(&got), ["a1", "a2"]);
    assert_eq!(got[0]["Attributes"]["ApproximateReceiveCount"], "2");
}

#[test]
fn fifo_group_unlocks_when_head_visibility_is_set_to_zero() {
    let (mut sqs, url) = fifo_queue_with_a1_a2(json!({}));
    let got = sqs.receive(&url, 1);
    sqs.call(
        "ChangeMessageVisibility",
        json!({ "QueueUrl": url, "ReceiptHandle": got[0]["ReceiptHandle"], "VisibilityTimeout": 0 }),
    )
    .ok();
    assert_eq!(sqs.receive_bodies(&url, 10), ["a1", "a2"]);
}

/// Sends each `(body, group)` to `url`, the body doubling as dedup id.
fn send_in_groups(sqs: &mut Sqs, url: &str, sends: &[(&str, &str)]) {
    for (body, group) in sends {
        sqs.send_fifo(url, body, group, body);
    }
}

#[test]
fn fifo_groups_are_served_in_the_order_their_heads_became_available() {
    // Recorded against AWS (sqs-facts, "Which group goes first").
    let (mut sqs, url) = fifo_queue(json!({}));
    send_in_groups(
        &mut sqs,
        &url,
        &[
            ("g1-m1", "g1"),
            ("g2-m1", "g2"),
            ("g2-m2", "g2"),
            ("g3-m1", "g3"),
            ("g1-m2", "g1"),
        ],
    );
    let first = receive(
        &mut sqs,
        &url,
        json!({ "MaxNumberOfMessages": 3, "VisibilityTimeout": 0 }),
    )
    .messages();
    assert_eq!(bodies(&first), ["g1-m1", "g1-m2", "g2-m1"]);
    // g3 was never received: available since its send, before g1 and g2
    // came back; g1 and g2 came back together and keep their send order.
    assert_eq!(
        sqs.receive_bodies(&url, 10),
        ["g3-m1", "g1-m1", "g1-m2", "g2-m1", "g2-m2"]
    );
}

#[test]
fn a_fifo_group_whose_head_came_back_waits_behind_groups_available_earlier() {
    // Recorded against AWS (sqs-facts, "Which group goes first").
    let (mut sqs, url) = fifo_queue(json!({}));
    send_in_groups(
        &mut sqs,
        &url,
        &[("g1-m1", "g1"), ("g1-m2", "g1"), ("g2-m1", "g2")],
    );
    let got = sqs.receive(&url, 2);
    assert_eq!(bodies(&got), ["g1-m1", "g1-m2"]);
    sqs.call(
        "ChangeMessageVisibility",
        json!({ "QueueUrl": url, "ReceiptHandle": got[0]["ReceiptHandle"], "VisibilityTimeout": 0 }),
    )
    .ok();
    assert_eq!(sqs.receive_bodies(&url, 3), ["g2-m1", "g1-m1"]);
}

#[test]
fn a_fifo_group_whose_visibility_expired_comes_after_groups_sent_before_it_came_back() {
    let (mut sqs, url) = fifo_queue(json!({ "VisibilityTimeout": "10" }));
    sqs.send_fifo(&url, "a1", "a", "1");
    assert_eq!(sqs.receive_bodies(&url, 1), ["a1"]);
    sqs.advance(5_000);
    sqs.send_fifo(&url, "b1", "b", "2");
    sqs.advance(5_000);
    // a1 came back at 10 s; b1 was sent at 5 s.
    sqs.send_fifo(&url, "c1", "c", "3");
    assert_eq!(sqs.receive_bodies(&url, 10), ["b1", "a1", "c1"]);
}

#[test]
fn fifo_receive_takes_as_many_as_possible_from_one_group_before_the_next() {
    let (mut sqs, url) = fifo_queue(json!({}));
    sqs.send_fifo(&url, "g1-first", "g1", "1");
    sqs.send_fifo(&url, "g2-first", "g2", "2");
    sqs.send_fifo(&url, "g1-second", "g1", "3");
    sqs.send_fifo(&url, "g1-third", "g1", "4");
    let got = sqs.receive(&url, 10);
    let groups: Vec<&str> = got
        .iter()
        .map(|m| m["Attributes"]["MessageGroupId"].as_str().unwrap())
        .collect();
    assert_eq!(groups, ["g1", "g1", "g1", "g2"]);
    assert_eq!(
        bodies(&got),
        ["g1-first", "g1-second", "g1-third", "g2-first"]
    );
}

#[test]
fn fifo_new_sends_do_not_unlock_an_in_flight_group() {
    let (mut sqs, url) = fifo_queue(json!({}));
    sqs.send_fifo(&url, "a1", "a", "1");
    assert_eq!(sqs.receive_bodies(&url, 1), ["a1"]);
    sqs.send_fifo(&url, "a2", "a", "2");
    sqs.send_fifo(&url, "a3", "a", "3");
    sqs.receive_none(&url, 10);
}

#[test]
fn fifo_long_poll_waits_while_the_group_is_locked_and_is_answered_when_the_head_is_deleted() {
    let (mut sqs, url) = fifo_queue_with_a1_a2(json!({}));
    let got = sqs.receive(&url, 1);
    let poll = sqs
        .start(
            "ReceiveMessage",
            json!({ "QueueUrl": url, "WaitTimeSeconds": 20 }),
        )
        .unwrap_err();
    sqs.advance(3_000);
    assert!(sqs.answered().is_empty());
    sqs.delete(&url, &got[0]["ReceiptHandle"]).ok();
    // The poll is answered at the delete.
    assert_eq!(bodies(&sqs.only_answer(poll).messages()), ["a2"]);
}

#[test]
fn fifo_group_lock_and_unlock_are_logged() {
    let (mut sqs, url) = fifo_queue(json!({}));
    sqs.send_fifo(&url, "a1", "a", "1");
    receive_and_delete_one(&mut sqs, &url);
    let locks: Vec<(bool, String)> = sqs
        .kinds()
        .into_iter()
        .filter_map(|k| match k {
            EventKind::GroupLocked { group, .. } => Some((true, group.to_string())),
            EventKind::GroupUnlocked { group, .. } => Some((false, group.to_string())),
            _ => None,
        })
        .collect();
    assert_eq!(locks, [(true, "a".to_string()), (false, "a".to_string())]);
}

#[test]
fn fifo_group_unlock_says_how_its_head_left_flight() {
    // The cause tells a reader what comes next: after a delete the group's
    // next message; after a timeout or a release, the same head again.
    let (mut sqs, url) = fifo_queue(json!({ "VisibilityTimeout": "1" }));
    sqs.send_fifo(&url, "a1", "a", "1");
    sqs.send_fifo(&url, "a2", "a", "2");
    sqs.receive(&url, 1);
    sqs.advance(1_000);
    let got = sqs.receive(&url, 1);
    sqs.call(
        "ChangeMessageVisibility",
        json!({ "QueueUrl": url, "ReceiptHandle": got[0]["ReceiptHandle"], "VisibilityTimeout": 0 }),
    )
    .ok();
    receive_and_delete_one(&mut sqs, &url);
    let causes: Vec<UnlockCause> = sqs
        .kinds()
        .into_iter()
        .filter_map(|k| match k {
            EventKind::GroupUnlocked { cause, .. } => Some(cause),
            _ => None,
        })
        .collect();
    use UnlockCause::{Deleted, Released, VisibilityTimeout};
    assert_eq!(causes, [VisibilityTimeout, Released, Deleted]);
}

// ---------------------------------------------------------------------------
// PurgeQueue
// ---------------------------------------------------------------------------

#[test]
fn purge_queue_clears_the_fifo_deduplication_window() {
    // Recorded against AWS: send X, purge, send X again at once -> delivered.
    let (mut sqs, url) = fifo_queue(json!({}));
    let first = sqs.send_fifo(&url, "before", "g", "X");
    sqs.call("PurgeQueue", json!({ "QueueUrl": url })).ok();
    let second = sqs.send_fifo(&url, "after", "g", "X");
    assert_ne!(second["MessageId"], first["MessageId"]);
    assert_eq!(sqs.receive_bodies(&url, 10), ["after"]);
}

#[test]
fn purge_queue_forgets_receive_request_attempt_ids() {
    let (mut sqs, url) = fifo_queue_with_a1_a2(json!({}));
    let first = receive_attempt(&mut sqs, &url, "attempt-1");
    assert_eq!(bodies(&first), ["a1", "a2"]);
    sqs.call("PurgeQueue", json!({ "QueueUrl": url })).ok();
    sqs.send_fifo(&url, "b1", "b", "3");
    // The retry receives afresh: what is there now, with new handles.
    let retry = receive_attempt(&mut sqs, &url, "attempt-1");
    assert_eq!(bodies(&retry), ["b1"]);
    assert!(handles(&first).iter().all(|h| !handles(&retry).contains(h)));
}

// ---------------------------------------------------------------------------
// ReceiveRequestAttemptId
// ---------------------------------------------------------------------------

#[track_caller]
fn receive_with_attempt(sqs: &mut Sqs, url: &str, attempt: &str) -> Reply {
    receive(
        sqs,
        url,
        json!({ "MaxNumberOfMessages": 10, "ReceiveRequestAttemptId": attempt }),
    )
}

#[track_caller]
fn receive_attempt(sqs: &mut Sqs, url: &str, attempt: &str) -> Vec<Value> {
    receive_with_attempt(sqs, url, attempt).messages()
}

#[test]
fn fifo_receive_request_attempt_id_retry_returns_the_same_messages_and_handles() {
    let (mut sqs, url) = fifo_queue_with_a1_a2(json!({}));
    let first = receive_attempt(&mut sqs, &url, "attempt-1");
    assert_eq!(bodies(&first), ["a1", "a2"]);
    sqs.advance(10_000);
    let retry = receive_attempt(&mut sqs, &url, "attempt-1");
    assert_eq!(bodies(&retry), ["a1", "a2"]);
    assert_eq!(handles(&retry), handles(&first));
    // A different attempt id is a new receive: the group is locked.
    receive_with_attempt(&mut sqs, &url, "attempt-2").empty();
}

#[test]
fn fifo_receive_request_attempt_id_retry_resets_visibility() {
    let (mut sqs, url) = fifo_queue(json!({ "VisibilityTimeout": "30" }));
    sqs.send_fifo(&url, "a1", "a", "1");
    let first = receive_attempt(&mut sqs, &url, "attempt-1");
    sqs.advance(20_000);
    assert_eq!(
        handles(&receive_attempt(&mut sqs, &url, "attempt-1")),
        handles(&first)
    );
    sqs.advance(29_999);
    sqs.receive_none(&url, 1);
    sqs.advance(1);
    assert_eq!(sqs.receive_bodies(&url, 1), ["a1"]);
}

/// The answer to a retry whose receive can no longer be retried.
#[track_caller]
fn assert_not_retryable(reply: &Reply, attempt: &str) {
    reply.rejected(
        400,
        "InvalidParameterValue",
        &format!(
            "Value {attempt} for parameter ReceiveRequestAttemptId is invalid. Reason: The \
             receiveRequestAttemptId is not valid anymore since the receive call is not retryable."
        ),
    );
}

#[test]
fn a_receive_request_attempt_id_is_not_retryable_after_a_delete() {
    let (mut sqs, url) = fifo_queue_with_a1_a2(json!({}));
    let first = receive_attempt(&mut sqs, &url, "attempt-1");
    sqs.delete(&url, &first[0]["ReceiptHandle"]).ok();
    assert_not_retryable(
        &receive_with_attempt(&mut sqs, &url, "attempt-1"),
        "attempt-1",
    );
    // Another attempt id receives as usual: a2 is in flight, the group locked.
    receive_with_attempt(&mut sqs, &url, "attempt-2").empty();
}

#[test]
fn a_receive_request_attempt_id_is_not_retryable_after_a_visibility_change() {
    for timeout in [60, 0] {
        let (mut sqs, url) = fifo_queue(json!({}));
        sqs.send_fifo(&url, "a1", "a", "1");
        let first = receive_attempt(&mut sqs, &url, "attempt-1");
        sqs.call(
            "ChangeMessageVisibility",
            json!({ "QueueUrl": url, "ReceiptHandle": first[0]["ReceiptHandle"],
                    "VisibilityTimeout": timeout }),
        )
        .ok();
        assert_not_retryable(
            &receive_with_attempt(&mut sqs, &url, "attempt-1"),
            "attempt-1",
        );
    }
}

#[test]
fn a_receive_request_attempt_id_retried_after_the_timeout_ran_out_receives_afresh() {
    // Nothing was changed by a call: the messages came back by themselves.
    let (mut sqs, url) = fifo_queue_with_a1_a2(json!({ "VisibilityTimeout": "10" }));
    let first = receive_attempt(&mut sqs, &url, "attempt-1");
    sqs.advance(10_000);
    let again = receive_attempt(&mut sqs, &url, "attempt-1");
    assert_eq!(bodies(&again), ["a1", "a2"]);
    assert!(handles(&again).iter().all(|h| !handles(&first).contains(h)));
}

#[test]
fn fifo_receive_request_attempt_id_can_be_retried_more_than_once() {
    let (mut sqs, url) = fifo_queue(json!({}));
    sqs.send_fifo(&url, "a1", "a", "1");
    let first = receive_attempt(&mut sqs, &url, "attempt-1");
    for _ in 0..3 {
        sqs.advance(10_000);
        assert_eq!(
            handles(&receive_attempt(&mut sqs, &url, "attempt-1")),
            handles(&first)
        );
    }
}

#[test]
fn fifo_receive_request_attempt_id_is_not_replayed_after_five_minutes() {
    let (mut sqs, url) = fifo_queue(json!({ "VisibilityTimeout": "900" }));
    sqs.send_fifo(&url, "a1", "a", "1");
    assert_eq!(receive_attempt(&mut sqs, &url, "attempt-1").len(), 1);
    sqs.advance(FIVE_MINUTES_MS);
    receive_with_attempt(&mut sqs, &url, "attempt-1").empty();
}

#[test]
fn fifo_receive_request_attempt_id_retry_after_a_long_poll_returns_what_the_poll_delivered() {
    let (mut sqs, url) = fifo_queue(json!({}));
    let request = json!({ "QueueUrl": url, "WaitTimeSeconds": 20,
                          "ReceiveRequestAttemptId": "attempt-1" });
    let poll = sqs.start("ReceiveMessage", request.clone()).unwrap_err();
    sqs.advance(2_000);
    sqs.send_fifo(&url, "a1", "a", "1");
    let answered = sqs.answered();
    assert_eq!(answered[0].0, poll);
    let delivered = answered[0].1.messages();
    assert_eq!(bodies(&delivered), ["a1"]);
    // The answer was lost on the way; the SDK retries with the same id.
    let retry = sqs
        .start("ReceiveMessage", request)
        .expect("the retry answers at once")
        .messages();
    assert_eq!(handles(&retry), handles(&delivered));
}

// ---------------------------------------------------------------------------
// Sequence numbers, timestamps and delays
// ---------------------------------------------------------------------------

#[test]
fn fifo_sequence_numbers_are_not_consecutive_and_a_seed_gives_the_same_ones() {
    let numbers = |seed: u64| -> Vec<u128> {
        let mut sqs = Sqs::seeded(seed);
        let url = sqs.create("orders.fifo", json!({ "FifoQueue": "true" }));
        (0..20)
            .map(|i| {
                let sent = sqs.send_fifo(&url, "x", "g", &i.to_string());
                sent["SequenceNumber"].as_str().unwrap().parse().unwrap()
            })
            .collect()
    };
    let first = numbers(7);
    assert!(first.windows(2).all(|w| w[0] < w[1]), "{first:?}");
    let gaps: Vec<u128> = first.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps.iter().any(|g| *g > 1), "a gapless counter: {first:?}");
    assert!(
        gaps.windows(2).any(|w| w[0] != w[1]),
        "gaps of one size: {gaps:?}"
    );
    assert_eq!(numbers(7), first, "the same seed, the same numbers");
}

#[test]
fn fifo_sequence_numbers_are_large_and_strictly_increasing() {
    let (mut sqs, url) = fifo_queue(json!({}));
    let sequences: Vec<String> = [("g1", "1"), ("g2", "2"), ("g1", "3"), ("g2", "4")]
        .iter()
        .map(|(group, dedup)| {
            sqs.send_fifo(&url, "x", group, dedup)["SequenceNumber"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    for s in &sequences {
        assert!(s.len() >= 20, "sequence number {s} is not large");
        assert!(s.bytes().all(|b| b.is_ascii_digit()));
    }
    let numbers: Vec<u128> = sequences.iter().map(|s| s.parse().unwrap()).collect();
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{numbers:?}");
    let received: Vec<String> = sqs
        .receive(&url, 10)
        .iter()
        .map(|m| {
            m["Attributes"]["SequenceNumber"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        received,
        [
            sequences[0].as_str(),
            &sequences[2],
            &sequences[1],
            &sequences[3]
        ]
    );
}

#[test]
fn fifo_duplicate_send_returns_the_original_sequence_number() {
    let (mut sqs, url) = fifo_queue(json!({}));
    let first = sqs.send_fifo(&url, "x", "g", "d");
    let again = sqs.send_fifo(&url, "x", "g", "d");
    assert_eq!(again["SequenceNumber"], first["SequenceNumber"]);
}

#[test]
fn fifo_sent_timestamp_is_the_send_time() {
    let (mut sqs, url) = fifo_queue(json!({}));
    sqs.advance(1_234);
    sqs.send_fifo(&url, "x", "g", "d");
    sqs.advance(5_000);
    let got = sqs.receive(&url, 1);
    assert_eq!(
        got[0]["Attributes"]["SentTimestamp"],
        (EPOCH_MS + 1_234).to_string()
    );
}

#[test]
fn fifo_per_message_delay_seconds_above_zero_is_invalid_parameter_value() {
    let (mut sqs, url) = fifo_queue(json!({}));
    let reply = send(
        &mut sqs,
        &url,
        json!({ "MessageBody": "x", "MessageGroupId": "g", "MessageDeduplicationId": "d",
                "DelaySeconds": 2 }),
    );
    reply.err("InvalidParameterValue");
    assert_eq!(
        reply.message(),
        "Value 2 for parameter DelaySeconds is invalid. Reason: The request include parameter \
         that is not valid for this queue type."
    );
    assert_eq!(visible(&mut sqs, &url), "0");
}

#[test]
fn fifo_per_message_delay_seconds_zero_is_accepted_and_the_queue_delay_still_applies() {
    let (mut sqs, url) = fifo_queue(json!({ "DelaySeconds": "5" }));
    send(
        &mut sqs,
        &url,
        json!({ "MessageBody": "x", "MessageGroupId": "g", "MessageDeduplicationId": "d",
                "DelaySeconds": 0 }),
    )
    .ok();
    assert_eq!(
        sqs.attribute(&url, "ApproximateNumberOfMessagesDelayed"),
        "1"
    );
    sqs.advance(4_999);
    sqs.receive_none(&url, 1);
    sqs.advance(1);
    assert_eq!(sqs.receive_bodies(&url, 1), ["x"]);
}
