//! "Receive, visibility, delete" of sqs-facts.md: attribute selection,
//! receive parameters, long polling in virtual time, ChangeMessageVisibility,
//! DeleteMessage and the in-flight limit — all through the JSON protocol.

mod common;

use common::{sorted_keys, string_attribute, Reply, Sqs};
use queuelab_engine::{Config, EventKind, Realism};
use serde_json::{json, Value};

/// Epoch milliseconds of virtual time 0 in the default config.
const EPOCH_MS: u64 = 1_704_067_200_000;

/// A ReceiveMessage on `url` with the other members from `request`.
#[track_caller]
fn receive(sqs: &mut Sqs, url: &str, mut request: Value) -> Reply {
    request["QueueUrl"] = json!(url);
    sqs.call("ReceiveMessage", request)
}

/// Starts a ReceiveMessage that may wait; `Err(poll)` when it does.
fn start_receive(sqs: &mut Sqs, url: &str, mut request: Value) -> Result<Reply, u64> {
    request["QueueUrl"] = json!(url);
    sqs.start("ReceiveMessage", request)
}

/// The names under `Attributes`, sorted.
fn attribute_names(message: &Value) -> Vec<String> {
    sorted_keys(&message["Attributes"])
}

/// The names under `MessageAttributes`, sorted.
fn message_attribute_names(message: &Value) -> Vec<String> {
    sorted_keys(&message["MessageAttributes"])
}

/// A fresh standard queue "plain" with `attributes`, holding one message "hello".
#[track_caller]
fn plain_queue_with_hello(attributes: Value) -> (Sqs, String) {
    let (mut sqs, url) = Sqs::with_queue("plain", attributes);
    sqs.send(&url, "hello");
    (sqs, url)
}

/// Sends a message with three attributes; returns the send answer.
fn send_with_attributes(sqs: &mut Sqs, url: &str) -> Value {
    sqs.call(
        "SendMessage",
        json!({
            "QueueUrl": url,
            "MessageBody": "order",
            "MessageAttributes": {
                "order.id": string_attribute("42"),
                "order.total": { "DataType": "Number", "StringValue": "9.5" },
                "customer": string_attribute("ada"),
            },
        }),
    )
    .ok()
}

/// Sends the three-attribute message to a fresh queue and receives it with
/// `request`: answers the engine, the send answer and the received message.
#[track_caller]
fn receive_attributed_message(request: Value) -> (Sqs, Value, Value) {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    let sent = send_with_attributes(&mut sqs, &url);
    let got = receive(&mut sqs, &url, request).messages();
    (sqs, sent, got[0].clone())
}

#[track_caller]
fn assert_no_message_attributes(message: &Value) {
    assert!(message.get("MessageAttributes").is_none(), "{message:?}");
    assert!(
        message.get("MD5OfMessageAttributes").is_none(),
        "{message:?}"
    );
}

fn in_flight(sqs: &mut Sqs, url: &str) -> String {
    sqs.attribute(url, "ApproximateNumberOfMessagesNotVisible")
}

fn visible(sqs: &mut Sqs, url: &str) -> String {
    sqs.attribute(url, "ApproximateNumberOfMessages")
}

fn change_visibility(sqs: &mut Sqs, url: &str, handle: &Value, timeout: i64) -> Reply {
    sqs.call(
        "ChangeMessageVisibility",
        json!({ "QueueUrl": url, "ReceiptHandle": handle, "VisibilityTimeout": timeout }),
    )
}

/// Asserts the message received on `url` stays hidden for `ms` more
/// milliseconds and is received again at the last one.
#[track_caller]
fn assert_hidden_for(sqs: &mut Sqs, url: &str, ms: u64) {
    sqs.advance(ms - 1);
    sqs.receive_none(url, 1);
    sqs.advance(1);
    assert_eq!(sqs.receive(url, 1).len(), 1);
}

/// Advances `ms` in virtual time, asserting that no long poll is answered
/// before the last millisecond.
#[track_caller]
fn advance_unanswered_until(sqs: &mut Sqs, ms: u64) {
    sqs.advance(ms - 1);
    assert!(sqs.answered().is_empty());
    sqs.advance(1);
}

// ---------------------------------------------------------------------------
// Attribute selection
// ---------------------------------------------------------------------------

#[test]
fn all_system_attributes_on_standard_queue_are_exactly_four() {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    sqs.advance(1_500);
    sqs.send(&url, "hello");
    sqs.advance(500);
    let got = receive(&mut sqs, &url, json!({ "AttributeNames": ["All"] })).messages();
    assert_eq!(
        attribute_names(&got[0]),
        [
            "ApproximateFirstReceiveTimestamp",
            "ApproximateReceiveCount",
            "SenderId",
            "SentTimestamp"
        ]
    );
    let attributes = &got[0]["Attributes"];
    assert_eq!(attributes["SentTimestamp"], (EPOCH_MS + 1_500).to_string());
    assert_eq!(
        attributes["ApproximateFirstReceiveTimestamp"],
        (EPOCH_MS + 2_000).to_string()
    );
    assert_eq!(attributes["ApproximateReceiveCount"], "1");
    assert!(!attributes["SenderId"].as_str().unwrap().is_empty());
}

#[test]
fn all_system_attributes_on_standard_queue_include_message_group_id_when_one_was_sent() {
    let (mut sqs, url) = Sqs::with_queue("fair", json!({}));
    let sent = sqs
        .call(
            "SendMessage",
            json!({ "QueueUrl": url, "MessageBody": "x", "MessageGroupId": "tenant-1" }),
        )
        .ok();
    assert!(sent.get("SequenceNumber").is_none(), "{sent}");
    let got = receive(
        &mut sqs,
        &url,
        json!({ "MessageSystemAttributeNames": ["All"] }),
    )
    .messages();
    assert_eq!(
        attribute_names(&got[0]),
        [
            "ApproximateFirstReceiveTimestamp",
            "ApproximateReceiveCount",
            "MessageGroupId",
            "SenderId",
            "SentTimestamp"
        ]
    );
    assert_eq!(got[0]["Attributes"]["MessageGroupId"], "tenant-1");
}

#[test]
fn all_system_attributes_on_fifo_queue_add_dedup_id_group_id_and_sequence_number() {
    let (mut sqs, url) = Sqs::with_queue("orders.fifo", json!({ "FifoQueue": "true" }));
    let sent = sqs.send_fifo(&url, "a", "g1", "d1");
    let got = receive(&mut sqs, &url, json!({ "AttributeNames": ["All"] })).messages();
    assert_eq!(
        attribute_names(&got[0]),
        [
            "ApproximateFirstReceiveTimestamp",
            "ApproximateReceiveCount",
            "MessageDeduplicationId",
            "MessageGroupId",
            "SenderId",
            "SentTimestamp",
            "SequenceNumber"
        ]
    );
    let attributes = &got[0]["Attributes"];
    assert_eq!(attributes["MessageDeduplicationId"], "d1");
    assert_eq!(attributes["MessageGroupId"], "g1");
    assert_eq!(attributes["SequenceNumber"], sent["SequenceNumber"]);
}

#[test]
fn all_system_attributes_on_dlq_message_add_dead_letter_queue_source_arn() {
    let mut sqs = Sqs::new();
    let (dlq, dlq_arn) = sqs.create_with_arn("dead", json!({}));
    let policy = json!({ "deadLetterTargetArn": dlq_arn, "maxReceiveCount": 1 }).to_string();
    let (source, source_arn) = sqs.create_with_arn(
        "work",
        json!({ "RedrivePolicy": policy, "VisibilityTimeout": "1" }),
    );
    sqs.send(&source, "poison");
    assert_eq!(sqs.receive(&source, 1).len(), 1);
    sqs.advance(1_000);
    sqs.receive_none(&source, 1);
    let got = receive(&mut sqs, &dlq, json!({ "AttributeNames": ["All"] })).messages();
    assert_eq!(
        attribute_names(&got[0]),
        [
            "ApproximateFirstReceiveTimestamp",
            "ApproximateReceiveCount",
            "DeadLetterQueueSourceArn",
            "SenderId",
            "SentTimestamp"
        ]
    );
    assert_eq!(got[0]["Attributes"]["DeadLetterQueueSourceArn"], source_arn);
}

#[test]
fn system_attribute_names_that_do_not_apply_are_left_out() {
    let (mut sqs, url) = plain_queue_with_hello(json!({}));
    let got = receive(
        &mut sqs,
        &url,
        json!({ "MessageSystemAttributeNames":
                ["SequenceNumber", "MessageDeduplicationId", "DeadLetterQueueSourceArn", "SentTimestamp"] }),
    )
    .messages();
    assert_eq!(attribute_names(&got[0]), ["SentTimestamp"]);
}

#[test]
fn attribute_names_and_message_system_attribute_names_are_unioned() {
    let (mut sqs, url) = plain_queue_with_hello(json!({}));
    let got = receive(
        &mut sqs,
        &url,
        json!({ "AttributeNames": ["SenderId"],
                "MessageSystemAttributeNames": ["ApproximateReceiveCount"] }),
    )
    .messages();
    assert_eq!(
        attribute_names(&got[0]),
        ["ApproximateReceiveCount", "SenderId"]
    );
}

#[test]
fn no_system_attributes_are_returned_unless_asked() {
    let (mut sqs, url) = plain_queue_with_hello(json!({}));
    let got = receive(&mut sqs, &url, json!({})).messages();
    assert!(got[0].get("Attributes").is_none(), "{:?}", got[0]);
}

#[test]
fn message_attributes_and_md5_appear_only_when_message_attribute_names_asks() {
    let (_, _, got) = receive_attributed_message(json!({ "AttributeNames": ["All"] }));
    assert_no_message_attributes(&got);
}

#[test]
fn message_attribute_names_all_returns_every_attribute_with_md5() {
    let (_, sent, got) = receive_attributed_message(json!({ "MessageAttributeNames": ["All"] }));
    assert_eq!(
        message_attribute_names(&got),
        ["customer", "order.id", "order.total"]
    );
    assert_eq!(got["MessageAttributes"]["order.id"], string_attribute("42"));
    assert_eq!(
        got["MessageAttributes"]["order.total"],
        json!({ "DataType": "Number", "StringValue": "9.5" })
    );
    assert_eq!(
        got["MD5OfMessageAttributes"],
        sent["MD5OfMessageAttributes"]
    );
}

/// A receive asking for `names` gets every attribute, with the send's digest.
#[track_caller]
fn assert_every_message_attribute(names: Value) {
    let (_, sent, got) = receive_attributed_message(json!({ "MessageAttributeNames": names }));
    assert_eq!(
        message_attribute_names(&got),
        ["customer", "order.id", "order.total"]
    );
    assert_eq!(
        got["MD5OfMessageAttributes"],
        sent["MD5OfMessageAttributes"]
    );
}

#[test]
fn message_attribute_names_dot_star_returns_every_attribute() {
    assert_every_message_attribute(json!([".*"]));
}

#[test]
fn message_attribute_names_star_means_all_like_all_and_dot_star() {
    assert_every_message_attribute(json!(["*"]));
}

#[test]
fn message_attribute_names_prefix_wildcard_selects_attributes_by_prefix() {
    let (_, _, got) = receive_attributed_message(json!({ "MessageAttributeNames": ["order.*"] }));
    assert_eq!(message_attribute_names(&got), ["order.id", "order.total"]);
    assert!(got["MD5OfMessageAttributes"].is_string());
}

#[test]
fn message_attribute_names_exact_name_selects_one_attribute_and_md5_covers_it_alone() {
    let (mut sqs, _, got) =
        receive_attributed_message(json!({ "MessageAttributeNames": ["customer"] }));
    assert_eq!(message_attribute_names(&got), ["customer"]);
    // The digest of just that attribute, as SQS computes it on send.
    let other = sqs.create("other", json!({}));
    let alone = sqs
        .call(
            "SendMessage",
            json!({ "QueueUrl": other, "MessageBody": "x",
                    "MessageAttributes": { "customer": string_attribute("ada") } }),
        )
        .ok();
    assert_eq!(
        got["MD5OfMessageAttributes"],
        alone["MD5OfMessageAttributes"]
    );
}

#[test]
fn message_attribute_names_matching_nothing_leave_out_attributes_and_md5() {
    let (_, _, got) = receive_attributed_message(json!({ "MessageAttributeNames": ["missing"] }));
    assert_no_message_attributes(&got);
}

// ---------------------------------------------------------------------------
// ReceiveMessage parameters
// ---------------------------------------------------------------------------

#[test]
fn max_number_of_messages_defaults_to_one() {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    for i in 0..3 {
        sqs.send(&url, &format!("m{i}"));
    }
    assert_eq!(receive(&mut sqs, &url, json!({})).messages().len(), 1);
}

#[test]
fn max_number_of_messages_returns_up_to_ten() {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    for i in 0..12 {
        sqs.send(&url, &format!("m{i}"));
    }
    let got = receive(&mut sqs, &url, json!({ "MaxNumberOfMessages": 10 })).messages();
    assert_eq!(got.len(), 10);
    let got = receive(&mut sqs, &url, json!({ "MaxNumberOfMessages": 10 })).messages();
    assert_eq!(got.len(), 2);
}

#[test]
fn max_number_of_messages_outside_1_to_10_is_invalid_parameter_value() {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    for max in [0, 11, -1] {
        let reply = receive(&mut sqs, &url, json!({ "MaxNumberOfMessages": max }));
        reply
            .err("InvalidParameterValue")
            .message_contains("MaxNumberOfMessages");
        assert_eq!(reply.status, 400);
    }
}

#[test]
fn visibility_timeout_override_outside_0_to_43200_is_invalid_parameter_value() {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    for timeout in [-1, 43_201] {
        receive(&mut sqs, &url, json!({ "VisibilityTimeout": timeout }))
            .err("InvalidParameterValue")
            .message_contains("VisibilityTimeout");
    }
    receive(&mut sqs, &url, json!({ "VisibilityTimeout": 43_200 })).ok();
    receive(&mut sqs, &url, json!({ "VisibilityTimeout": 0 })).ok();
}

#[test]
fn wait_time_seconds_outside_0_to_20_is_invalid_parameter_value() {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    for wait in [-1, 21] {
        let reply = receive(&mut sqs, &url, json!({ "WaitTimeSeconds": wait }));
        reply
            .err("InvalidParameterValue")
            .message_contains("Must be >= 0 and <= 20, if provided.");
        assert_eq!(reply.status, 400);
    }
}

#[test]
fn received_message_is_in_flight_for_the_visibility_timeout_then_visible_again() {
    let (mut sqs, url) = plain_queue_with_hello(json!({}));
    let first = sqs.receive(&url, 1);
    assert_eq!(first.len(), 1);
    assert_eq!(visible(&mut sqs, &url), "0");
    assert_eq!(in_flight(&mut sqs, &url), "1");
    sqs.advance(29_999);
    sqs.receive_none(&url, 1);
    sqs.advance(1);
    assert_eq!(visible(&mut sqs, &url), "1");
    let again = sqs.receive(&url, 1);
    assert_eq!(again[0]["MessageId"], first[0]["MessageId"]);
    assert_ne!(again[0]["ReceiptHandle"], first[0]["ReceiptHandle"]);
}

#[test]
fn receive_visibility_timeout_override_hides_the_message_for_that_long() {
    let (mut sqs, url) = plain_queue_with_hello(json!({}));
    assert_eq!(
        receive(&mut sqs, &url, json!({ "VisibilityTimeout": 5 }))
            .messages()
            .len(),
        1
    );
    assert_hidden_for(&mut sqs, &url, 5_000);
}

#[test]
fn receive_with_visibility_timeout_zero_leaves_the_message_visible() {
    let (mut sqs, url) = plain_queue_with_hello(json!({}));
    let got = receive(&mut sqs, &url, json!({ "VisibilityTimeout": 0 })).messages();
    assert_eq!(got.len(), 1);
    assert_eq!(visible(&mut sqs, &url), "1");
    assert_eq!(sqs.receive(&url, 1).len(), 1);
}

#[test]
fn approximate_receive_count_counts_receives_not_followed_by_a_delete() {
    let (mut sqs, url) = plain_queue_with_hello(json!({ "VisibilityTimeout": "1" }));
    for expected in 1..=4 {
        let got = sqs.receive(&url, 1);
        assert_eq!(
            got[0]["Attributes"]["ApproximateReceiveCount"],
            expected.to_string()
        );
        sqs.advance(1_000);
    }
}

// ---------------------------------------------------------------------------
// Long polling, in virtual time
// ---------------------------------------------------------------------------

#[test]
fn long_poll_returns_at_once_when_a_message_is_available() {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    sqs.send(&url, "ready");
    let reply = start_receive(&mut sqs, &url, json!({ "WaitTimeSeconds": 20 }))
        .expect("a message is available, so the poll answers at once");
    assert_eq!(reply.messages()[0]["Body"], "ready");
}

#[test]
fn long_poll_is_answered_the_moment_a_message_is_sent() {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    let poll = start_receive(&mut sqs, &url, json!({ "WaitTimeSeconds": 20 })).unwrap_err();
    sqs.advance(7_000);
    assert!(sqs.answered().is_empty());
    sqs.send(&url, "now");
    let reply = sqs.only_answer(poll);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.messages()[0]["Body"], "now");
    assert_eq!(sqs.engine.now(), 7_000);
    assert_eq!(in_flight(&mut sqs, &url), "1");
}

#[test]
fn long_poll_is_answered_the_moment_an_in_flight_message_becomes_visible() {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({ "VisibilityTimeout": "10" }));
    sqs.send(&url, "again");
    assert_eq!(sqs.receive(&url, 1).len(), 1);
    let poll = start_receive(
        &mut sqs,
        &url,
        json!({ "WaitTimeSeconds": 20, "AttributeNames": ["ApproximateReceiveCount"] }),
    )
    .unwrap_err();
    advance_unanswered_until(&mut sqs, 10_000);
    let got = sqs.only_answer(poll).messages();
    assert_eq!(got[0]["Body"], "again");
    assert_eq!(got[0]["Attributes"]["ApproximateReceiveCount"], "2");
}

#[test]
fn long_poll_is_answered_the_moment_a_delayed_message_becomes_visible() {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "later", "DelaySeconds": 5 }),
    )
    .ok();
    let poll = start_receive(&mut sqs, &url, json!({ "WaitTimeSeconds": 20 })).unwrap_err();
    advance_unanswered_until(&mut sqs, 5_000);
    assert_eq!(sqs.only_answer(poll).messages()[0]["Body"], "later");
}

#[test]
fn long_poll_is_answered_the_moment_visibility_is_changed_to_zero() {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    sqs.send(&url, "released");
    let got = sqs.receive(&url, 1);
    let poll = start_receive(&mut sqs, &url, json!({ "WaitTimeSeconds": 20 })).unwrap_err();
    change_visibility(&mut sqs, &url, &got[0]["ReceiptHandle"], 0).ok();
    assert_eq!(sqs.only_answer(poll).messages()[0]["Body"], "released");
    assert_eq!(sqs.engine.now(), 0);
}

/// A message a waiting long poll took with `VisibilityTimeout` 0 is visible
/// at once: not in flight, and a receive at the same instant gets it.
#[track_caller]
fn assert_visible_at_once_after_a_zero_timeout_poll(sqs: &mut Sqs, url: &str, poll: u64) {
    let now = sqs.engine.now();
    let got = sqs.only_answer(poll).messages();
    assert_eq!(got.len(), 1);
    assert_eq!(in_flight(sqs, url), "0");
    assert_eq!(visible(sqs, url), "1");
    let again = sqs.receive(url, 1);
    assert_eq!(again[0]["MessageId"], got[0]["MessageId"]);
    assert_eq!(again[0]["Attributes"]["ApproximateReceiveCount"], "2");
    assert_eq!(sqs.engine.now(), now, "all at one virtual instant");
}

#[test]
fn a_message_delivered_with_visibility_timeout_zero_to_a_waiting_long_poll_is_visible_at_once() {
    let zero_timeout_poll = json!({ "WaitTimeSeconds": 20, "VisibilityTimeout": 0 });
    // Answered by a send.
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    let poll = start_receive(&mut sqs, &url, zero_timeout_poll.clone()).unwrap_err();
    sqs.advance(3_000);
    sqs.send(&url, "sent");
    assert_visible_at_once_after_a_zero_timeout_poll(&mut sqs, &url, poll);

    // Answered when a delay ends, inside an advance.
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "later", "DelaySeconds": 5 }),
    )
    .ok();
    let poll = start_receive(&mut sqs, &url, zero_timeout_poll.clone()).unwrap_err();
    advance_unanswered_until(&mut sqs, 5_000);
    assert_visible_at_once_after_a_zero_timeout_poll(&mut sqs, &url, poll);

    // Answered by a visibility change, on a FIFO queue.
    let (mut sqs, url) = Sqs::with_queue("plain.fifo", json!({ "FifoQueue": "true" }));
    sqs.send_fifo(&url, "released", "g", "1");
    let got = sqs.receive(&url, 1);
    let poll = start_receive(&mut sqs, &url, zero_timeout_poll).unwrap_err();
    change_visibility(&mut sqs, &url, &got[0]["ReceiptHandle"], 0).ok();
    let now = sqs.engine.now();
    let answer = sqs.only_answer(poll).messages();
    assert_eq!(answer[0]["Body"], "released");
    assert_eq!(in_flight(&mut sqs, &url), "0");
    assert_eq!(sqs.receive_bodies(&url, 1), ["released"]);
    assert_eq!(sqs.engine.now(), now);
}

#[test]
fn long_poll_returns_empty_when_the_wait_ends() {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    let poll = start_receive(&mut sqs, &url, json!({ "WaitTimeSeconds": 20 })).unwrap_err();
    advance_unanswered_until(&mut sqs, 20_000);
    sqs.only_answer(poll).empty();
    // A message sent after the wait ended is not given to the finished poll.
    sqs.send(&url, "late");
    assert!(sqs.answered().is_empty());
    assert_eq!(visible(&mut sqs, &url), "1");
}

#[test]
fn queue_receive_message_wait_time_seconds_makes_receives_long_polls() {
    let (mut sqs, url) =
        Sqs::with_queue("patient", json!({ "ReceiveMessageWaitTimeSeconds": "5" }));
    let poll = start_receive(&mut sqs, &url, json!({})).unwrap_err();
    advance_unanswered_until(&mut sqs, 5_000);
    assert_eq!(sqs.only_answer(poll).body, json!({}));

    // And it is answered the moment a message arrives.
    let poll = start_receive(&mut sqs, &url, json!({})).unwrap_err();
    sqs.advance(2_000);
    sqs.send(&url, "hi");
    assert_eq!(sqs.only_answer(poll).messages()[0]["Body"], "hi");
}

#[test]
fn explicit_wait_time_seconds_zero_overrides_the_queue_default() {
    let (mut sqs, url) =
        Sqs::with_queue("patient", json!({ "ReceiveMessageWaitTimeSeconds": "20" }));
    let reply = start_receive(&mut sqs, &url, json!({ "WaitTimeSeconds": 0 }))
        .expect("WaitTimeSeconds 0 is a short poll");
    assert_eq!(reply.body, json!({}));
}

/// A queue holding ten messages, in an engine whose short polls sample 30%
/// of the servers.
fn sampled_queue_of_ten() -> (Sqs, String) {
    let mut sqs = Sqs::with(Config {
        seed: 7,
        realism: Realism {
            short_poll_sample_rate: 0.3,
            ..Realism::default()
        },
        ..Config::default()
    });
    let url = sqs.create("sampled", json!({}));
    for i in 0..10 {
        sqs.send(&url, &format!("m{i}"));
    }
    (sqs, url)
}

#[test]
fn short_poll_sampling_can_return_fewer_messages_then_the_next_request_returns_them() {
    let (mut sqs, url) = sampled_queue_of_ten();
    let first = sqs.receive(&url, 10);
    assert!(first.len() < 10, "a sampled short poll saw every message");
    // With fewer than 1,000 messages the following request returns the rest.
    let second = sqs.receive(&url, 10);
    assert_eq!(first.len() + second.len(), 10);
}

#[test]
fn short_poll_sampling_of_a_deep_queue_still_fills_the_batch() {
    // Each visible message is seen with the sample rate: of 2,000 messages
    // at 30% hundreds are seen, so a receive of 10 comes back full (the
    // engine looks at up to eight candidates per message wanted, which at
    // 30% misses ten only about once in 10,000 receives). No full read is
    // owed at this depth, so every receive samples.
    let mut sqs = Sqs::with(Config {
        seed: 11,
        realism: Realism {
            short_poll_sample_rate: 0.3,
            ..Realism::default()
        },
        ..Config::default()
    });
    let url = sqs.create("deep", json!({ "VisibilityTimeout": "60" }));
    for i in 0..2_000 {
        sqs.send(&url, &format!("m{i}"));
    }
    let sizes: Vec<usize> = (0..20).map(|_| sqs.receive(&url, 10).len()).collect();
    assert!(sizes.iter().all(|n| *n == 10), "batch sizes {sizes:?}");
}

#[test]
fn long_poll_asks_all_servers_even_when_short_polls_sample() {
    let (mut sqs, url) = sampled_queue_of_ten();
    let reply = start_receive(
        &mut sqs,
        &url,
        json!({ "WaitTimeSeconds": 1, "MaxNumberOfMessages": 10 }),
    )
    .expect("messages are available");
    assert_eq!(reply.messages().len(), 10);
}

#[test]
fn standard_queue_can_deliver_a_message_again_after_a_delete_missed_a_copy() {
    let mut sqs = Sqs::with(Config {
        realism: Realism {
            duplicate_delivery_probability: 1.0,
            ..Realism::default()
        },
        ..Config::default()
    });
    let url = sqs.create("plain", json!({ "VisibilityTimeout": "5" }));
    sqs.send(&url, "twice");
    let got = sqs.receive(&url, 1);
    sqs.delete(&url, &got[0]["ReceiptHandle"]).ok();
    assert!(sqs
        .kinds()
        .iter()
        .any(|k| matches!(k, EventKind::DeleteMissedCopy { .. })));
    sqs.advance(5_000);
    let again = sqs.receive(&url, 1);
    assert_eq!(again[0]["MessageId"], got[0]["MessageId"]);
    assert_eq!(again[0]["Attributes"]["ApproximateReceiveCount"], "2");
}

// ---------------------------------------------------------------------------
// ChangeMessageVisibility
// ---------------------------------------------------------------------------

#[test]
fn change_visibility_counts_the_new_timeout_from_the_call() {
    let (mut sqs, url) = plain_queue_with_hello(json!({}));
    let got = sqs.receive(&url, 1);
    sqs.advance(20_000);
    change_visibility(&mut sqs, &url, &got[0]["ReceiptHandle"], 15).ok();
    assert_hidden_for(&mut sqs, &url, 15_000);
}

#[test]
fn change_visibility_to_zero_makes_the_message_visible_at_once() {
    let (mut sqs, url) = plain_queue_with_hello(json!({}));
    let got = sqs.receive(&url, 1);
    change_visibility(&mut sqs, &url, &got[0]["ReceiptHandle"], 0).ok();
    assert_eq!(visible(&mut sqs, &url), "1");
    assert_eq!(in_flight(&mut sqs, &url), "0");
    assert_eq!(sqs.receive(&url, 1)[0]["MessageId"], got[0]["MessageId"]);
}

#[test]
fn change_visibility_with_an_expired_handle_on_standard_hides_the_message_again() {
    let (mut sqs, url) = plain_queue_with_hello(json!({ "VisibilityTimeout": "1" }));
    let got = sqs.receive(&url, 1);
    sqs.advance(2_000);
    assert_eq!(visible(&mut sqs, &url), "1");
    let reply = change_visibility(&mut sqs, &url, &got[0]["ReceiptHandle"], 60);
    assert_eq!(reply.status, 200);
    assert_eq!(in_flight(&mut sqs, &url), "1");
    sqs.receive_none(&url, 1);
    sqs.advance(60_000);
    assert_eq!(sqs.receive(&url, 1).len(), 1);
}

#[test]
fn change_visibility_with_an_older_handle_from_an_earlier_receive_still_works() {
    let (mut sqs, url) = plain_queue_with_hello(json!({ "VisibilityTimeout": "1" }));
    let old = sqs.receive(&url, 1);
    sqs.advance(1_000);
    let newer = receive(&mut sqs, &url, json!({ "VisibilityTimeout": 300 })).messages();
    assert_ne!(old[0]["ReceiptHandle"], newer[0]["ReceiptHandle"]);
    change_visibility(&mut sqs, &url, &old[0]["ReceiptHandle"], 0).ok();
    assert_eq!(visible(&mut sqs, &url), "1");
}

#[test]
fn change_visibility_on_a_deleted_message_is_invalid_parameter_value() {
    let (mut sqs, url) = plain_queue_with_hello(json!({}));
    let got = sqs.receive(&url, 1);
    let handle = got[0]["ReceiptHandle"].as_str().unwrap().to_string();
    sqs.delete(&url, &json!(handle)).ok();
    change_visibility(&mut sqs, &url, &json!(handle), 10).rejected(
        400,
        "InvalidParameterValue",
        &format!(
            "Value {handle} for parameter ReceiptHandle is invalid. Reason: Message does not \
             exist or is not available for visibility timeout change."
        ),
    );
}

#[test]
fn change_visibility_may_not_extend_beyond_twelve_hours_since_the_receive() {
    let (mut sqs, url) = plain_queue_with_hello(json!({}));
    let got = receive(&mut sqs, &url, json!({ "VisibilityTimeout": 43_200 })).messages();
    let handle = &got[0]["ReceiptHandle"];
    sqs.advance(1_000_000);
    change_visibility(&mut sqs, &url, handle, 43_200)
        .err("InvalidParameterValue")
        .message_contains("43200");
    // Exactly 12 hours in total is allowed.
    change_visibility(&mut sqs, &url, handle, 42_200).ok();
    assert_hidden_for(&mut sqs, &url, 42_200_000);
}

#[test]
fn change_visibility_timeout_outside_0_to_43200_is_invalid_parameter_value() {
    let (mut sqs, url) = plain_queue_with_hello(json!({}));
    let got = sqs.receive(&url, 1);
    for timeout in [-1, 43_201] {
        change_visibility(&mut sqs, &url, &got[0]["ReceiptHandle"], timeout)
            .err("InvalidParameterValue")
            .message_contains("VisibilityTimeout");
    }
}

#[test]
fn next_receive_uses_the_queue_visibility_timeout_again_after_a_change() {
    let (mut sqs, url) = plain_queue_with_hello(json!({ "VisibilityTimeout": "30" }));
    let got = sqs.receive(&url, 1);
    change_visibility(&mut sqs, &url, &got[0]["ReceiptHandle"], 100).ok();
    sqs.advance(100_000);
    assert_eq!(sqs.receive(&url, 1).len(), 1);
    assert_hidden_for(&mut sqs, &url, 30_000);
}

// ---------------------------------------------------------------------------
// DeleteMessage
// ---------------------------------------------------------------------------

#[test]
fn delete_with_a_malformed_handle_is_receipt_handle_is_invalid() {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({}));
    // 404, as SQS's service model gives it.
    sqs.delete(&url, &json!("x")).rejected(
        404,
        "ReceiptHandleIsInvalid",
        "The input receipt handle \"x\" is not a valid receipt handle.",
    );
}

#[test]
fn delete_with_a_stale_handle_from_an_earlier_receive_deletes_on_standard() {
    let (mut sqs, url) = plain_queue_with_hello(json!({ "VisibilityTimeout": "1" }));
    let old = sqs.receive(&url, 1);
    sqs.advance(1_000);
    let newer = sqs.receive(&url, 1);
    assert_eq!(newer.len(), 1);
    sqs.delete(&url, &old[0]["ReceiptHandle"]).ok();
    assert_eq!(visible(&mut sqs, &url), "0");
    assert_eq!(in_flight(&mut sqs, &url), "0");
}

#[test]
fn delete_with_a_handle_whose_visibility_expired_deletes_on_standard() {
    let (mut sqs, url) = plain_queue_with_hello(json!({ "VisibilityTimeout": "1" }));
    let got = sqs.receive(&url, 1);
    sqs.advance(5_000);
    assert_eq!(visible(&mut sqs, &url), "1");
    sqs.delete(&url, &got[0]["ReceiptHandle"]).ok();
    assert_eq!(visible(&mut sqs, &url), "0");
    sqs.receive_none(&url, 1);
}

#[test]
fn delete_twice_answers_200() {
    let (mut sqs, url) = plain_queue_with_hello(json!({}));
    let got = sqs.receive(&url, 1);
    sqs.delete(&url, &got[0]["ReceiptHandle"]).ok();
    assert_eq!(sqs.delete(&url, &got[0]["ReceiptHandle"]).status, 200);
}

#[test]
fn fifo_delete_with_a_handle_whose_visibility_expired_is_invalid_parameter_value() {
    let (mut sqs, url) = Sqs::with_queue(
        "orders.fifo",
        json!({ "FifoQueue": "true", "VisibilityTimeout": "1" }),
    );
    sqs.send_fifo(&url, "a", "g", "d");
    let got = sqs.receive(&url, 1);
    sqs.advance(1_000);
    let reply = sqs.delete(&url, &got[0]["ReceiptHandle"]);
    reply
        .err("InvalidParameterValue")
        .message_contains("The receipt handle has expired");
    assert_eq!(visible(&mut sqs, &url), "1");
}

// ---------------------------------------------------------------------------
// The in-flight limit
// ---------------------------------------------------------------------------

const IN_FLIGHT_LIMIT: usize = 120_000;

/// Puts 120,000 messages in flight (for 12 hours), ten at a time.
fn fill_in_flight(sqs: &mut Sqs, url: &str, fifo: bool) {
    for batch in 0..IN_FLIGHT_LIMIT / 10 {
        let entries: Vec<Value> = (0..10)
            .map(|i| {
                let mut entry = json!({ "Id": format!("e{i}"), "MessageBody": "m" });
                if fifo {
                    entry["MessageGroupId"] = json!(format!("g{batch}"));
                    entry["MessageDeduplicationId"] = json!(format!("d{batch}-{i}"));
                }
                entry
            })
            .collect();
        let sent = sqs
            .call(
                "SendMessageBatch",
                json!({ "QueueUrl": url, "Entries": entries }),
            )
            .ok();
        assert_eq!(sent["Successful"].as_array().unwrap().len(), 10);
        let got = receive(
            sqs,
            url,
            json!({ "MaxNumberOfMessages": 10, "VisibilityTimeout": 43_200 }),
        )
        .messages();
        assert_eq!(got.len(), 10);
    }
    assert_eq!(in_flight(sqs, url), IN_FLIGHT_LIMIT.to_string());
}

/// A standard queue at the in-flight limit, with one more message visible.
fn standard_queue_over_the_in_flight_limit() -> (Sqs, String) {
    let (mut sqs, url) = Sqs::with_queue("busy", json!({}));
    fill_in_flight(&mut sqs, &url, false);
    sqs.send(&url, "one more");
    (sqs, url)
}

#[test]
fn standard_short_poll_over_the_in_flight_limit_is_over_limit_403() {
    let (mut sqs, url) = standard_queue_over_the_in_flight_limit();
    let reply = receive(&mut sqs, &url, json!({ "WaitTimeSeconds": 0 }));
    reply.error_envelope(403, "OverLimit", "OverLimit");
    assert_eq!(visible(&mut sqs, &url), "1");
}

#[test]
fn standard_long_poll_over_the_in_flight_limit_returns_nothing_without_error() {
    let (mut sqs, url) = standard_queue_over_the_in_flight_limit();
    let poll = start_receive(&mut sqs, &url, json!({ "WaitTimeSeconds": 5 })).unwrap_err();
    sqs.advance(5_000);
    sqs.only_answer(poll).empty();
}

#[test]
fn fifo_receive_over_the_in_flight_limit_returns_nothing_without_error() {
    let (mut sqs, url) = Sqs::with_queue("busy.fifo", json!({ "FifoQueue": "true" }));
    fill_in_flight(&mut sqs, &url, true);
    sqs.send_fifo(&url, "one more", "fresh-group", "fresh");
    receive(&mut sqs, &url, json!({ "WaitTimeSeconds": 0 })).empty();
}

// ---------------------------------------------------------------------------
// The event log
// ---------------------------------------------------------------------------

/// A ReceiveMessage on `url` made by `worker`.
#[track_caller]
fn receive_as(sqs: &mut Sqs, worker: &str, url: &str) -> Reply {
    sqs.call_as(Some(worker), "ReceiveMessage", json!({ "QueueUrl": url }))
}

/// Asserts a `Received` event: who received, who held the message before,
/// and the receive count.
#[track_caller]
fn assert_received(kind: &EventKind, who: Option<&str>, previous: Option<&str>, count: u32) {
    let EventKind::Received {
        by,
        previous_holder,
        receive_count,
        ..
    } = kind
    else {
        unreachable!()
    };
    assert_eq!(by.as_deref(), who);
    assert_eq!(previous_holder.as_deref(), previous);
    assert_eq!(*receive_count, count);
}

#[test]
fn visibility_expiry_is_logged_with_the_holder() {
    let (mut sqs, url) = plain_queue_with_hello(json!({ "VisibilityTimeout": "1" }));
    receive_as(&mut sqs, "worker-1", &url).ok();
    sqs.advance(1_000);
    let expired: Vec<_> = sqs
        .events()
        .into_iter()
        .filter(|e| matches!(e.kind, EventKind::VisibilityExpired { .. }))
        .collect();
    assert_eq!(expired.len(), 1);
    assert_eq!(expired[0].time_ms, 1_000);
    let EventKind::VisibilityExpired { holder, .. } = &expired[0].kind else {
        unreachable!()
    };
    assert_eq!(holder.as_deref(), Some("worker-1"));
}

#[test]
fn duplicate_delivery_to_another_worker_is_logged_with_the_previous_holder() {
    let (mut sqs, url) = Sqs::with_queue("plain", json!({ "VisibilityTimeout": "1" }));
    sqs.send(&url, "slow job");
    let first = receive_as(&mut sqs, "worker-1", &url).messages();
    sqs.advance(1_000);
    let second = receive_as(&mut sqs, "worker-2", &url).messages();
    assert_eq!(first[0]["MessageId"], second[0]["MessageId"]);
    let received: Vec<EventKind> = sqs
        .kinds()
        .into_iter()
        .filter(|k| matches!(k, EventKind::Received { .. }))
        .collect();
    assert_eq!(received.len(), 2);
    assert_received(&received[0], Some("worker-1"), None, 1);
    assert_received(&received[1], Some("worker-2"), Some("worker-1"), 2);
}
