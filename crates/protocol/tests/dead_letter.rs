//! "Dead-letter queues and redrive" of sqs-facts.md: the lazy move, what a
//! dead-lettered message keeps, redrive policies, ListDeadLetterSourceQueues
//! and message move tasks in virtual time — through the JSON protocol.

mod common;

use common::{sorted_keys, Reply, Sqs};
use queuelab_engine::EventKind;
use serde_json::{json, Value};

const EPOCH_MS: u64 = 1_704_067_200_000;

fn redrive_policy(dlq_arn: &str, max_receive_count: u32) -> String {
    json!({ "deadLetterTargetArn": dlq_arn, "maxReceiveCount": max_receive_count }).to_string()
}

/// Queue attributes holding just a RedrivePolicy.
fn redrive_to(dlq_arn: &str, max_receive_count: u32) -> Value {
    json!({ "RedrivePolicy": redrive_policy(dlq_arn, max_receive_count) })
}

fn visible(sqs: &mut Sqs, url: &str) -> String {
    sqs.attribute(url, "ApproximateNumberOfMessages")
}

#[track_caller]
fn receive(sqs: &mut Sqs, url: &str, mut request: Value) -> Reply {
    request["QueueUrl"] = json!(url);
    sqs.call("ReceiveMessage", request)
}

struct Pair {
    source: String,
    source_arn: String,
    dlq: String,
    dlq_arn: String,
}

/// A fresh engine with a standard source queue whose messages go to `dead`
/// after one receive.
fn pair() -> (Sqs, Pair) {
    let mut sqs = Sqs::new();
    let (dlq, dlq_arn) = sqs.create_with_arn("dead", json!({}));
    let (source, source_arn) = sqs.create_with_arn("work", redrive_to(&dlq_arn, 1));
    let pair = Pair {
        source,
        source_arn,
        dlq,
        dlq_arn,
    };
    (sqs, pair)
}

/// Sends `bodies` to `source` and lets a receive move them to its DLQ.
fn dead_letter(sqs: &mut Sqs, source: &str, bodies: &[&str]) {
    for body in bodies {
        sqs.send(source, body);
    }
    for chunk in bodies.chunks(10) {
        let got = receive(
            sqs,
            source,
            json!({ "MaxNumberOfMessages": 10, "VisibilityTimeout": 0 }),
        )
        .messages();
        assert_eq!(got.len(), chunk.len());
    }
    // The next receive finds them exhausted and moves them.
    receive(sqs, source, json!({ "MaxNumberOfMessages": 10 })).empty();
}

fn start_task(sqs: &mut Sqs, request: Value) -> Reply {
    sqs.call("StartMessageMoveTask", request)
}

/// The most recent move task of a source.
#[track_caller]
fn latest_task(sqs: &mut Sqs, source_arn: &str) -> Value {
    let body = sqs
        .call("ListMessageMoveTasks", json!({ "SourceArn": source_arn }))
        .ok();
    body["Results"][0].clone()
}

/// ApproximateNumberOfMessagesMoved of the most recent move task of a source.
#[track_caller]
fn moved(sqs: &mut Sqs, source_arn: &str) -> Value {
    latest_task(sqs, source_arn)["ApproximateNumberOfMessagesMoved"].clone()
}

/// Bodies of a short-poll receive, sorted.
#[track_caller]
fn sorted_bodies(sqs: &mut Sqs, url: &str) -> Vec<String> {
    let mut bodies = sqs.receive_bodies(url, 10);
    bodies.sort();
    bodies
}

// ---------------------------------------------------------------------------
// The lazy move
// ---------------------------------------------------------------------------

#[test]
fn message_moves_to_dlq_lazily_at_next_receive_after_max_receive_count() {
    let mut sqs = Sqs::new();
    let (dlq, dlq_arn) = sqs.create_with_arn("dead", json!({}));
    let source = sqs.create(
        "work",
        json!({ "RedrivePolicy": redrive_policy(&dlq_arn, 3), "VisibilityTimeout": "1" }),
    );
    sqs.send(&source, "poison");
    let mut counts = Vec::new();
    for _ in 0..6 {
        counts.push(sqs.receive(&source, 1).len());
        sqs.advance(1_300);
    }
    assert_eq!(counts, [1, 1, 1, 0, 0, 0]);
    assert_eq!(visible(&mut sqs, &dlq), "1");
    assert_eq!(visible(&mut sqs, &source), "0");
    assert_eq!(
        sqs.attribute(&source, "ApproximateNumberOfMessagesNotVisible"),
        "0"
    );
}

#[test]
fn exhausted_message_stays_in_the_source_until_a_receive_reaches_it() {
    let (mut sqs, p) = pair();
    sqs.send(&p.source, "poison");
    receive(&mut sqs, &p.source, json!({ "VisibilityTimeout": 1 })).ok();
    sqs.advance(60_000);
    assert_eq!(visible(&mut sqs, &p.source), "1");
    assert_eq!(visible(&mut sqs, &p.dlq), "0");
    sqs.receive_none(&p.source, 1);
    assert_eq!(visible(&mut sqs, &p.source), "0");
    assert_eq!(visible(&mut sqs, &p.dlq), "1");
}

#[test]
fn dead_lettered_message_keeps_its_message_id_body_and_attributes() {
    let (mut sqs, p) = pair();
    let sent = sqs
        .call(
            "SendMessage",
            json!({ "QueueUrl": p.source, "MessageBody": "poison",
                    "MessageAttributes": {
                        "kind": { "DataType": "String", "StringValue": "order" },
                        "blob": { "DataType": "Binary", "BinaryValue": "AQID" },
                    } }),
        )
        .ok();
    receive(&mut sqs, &p.source, json!({ "VisibilityTimeout": 0 })).ok();
    sqs.receive_none(&p.source, 1);
    let got = receive(
        &mut sqs,
        &p.dlq,
        json!({ "MessageAttributeNames": ["All"], "AttributeNames": ["SentTimestamp"] }),
    )
    .messages();
    assert_eq!(got[0]["MessageId"], sent["MessageId"]);
    assert_eq!(got[0]["Body"], "poison");
    assert_eq!(got[0]["MD5OfBody"], sent["MD5OfMessageBody"]);
    assert_eq!(
        got[0]["MessageAttributes"],
        json!({
            "kind": { "DataType": "String", "StringValue": "order" },
            "blob": { "DataType": "Binary", "BinaryValue": "AQID" },
        })
    );
    assert_eq!(
        got[0]["MD5OfMessageAttributes"],
        sent["MD5OfMessageAttributes"]
    );
    assert_eq!(got[0]["Attributes"]["SentTimestamp"], EPOCH_MS.to_string());
}

#[test]
fn dlq_receive_count_continues_from_the_source() {
    let (mut sqs, p) = pair();
    dead_letter(&mut sqs, &p.source, &["poison"]);
    let got = sqs.receive(&p.dlq, 1);
    assert_eq!(got[0]["Attributes"]["ApproximateReceiveCount"], "2");
}

#[test]
fn fifo_source_moves_exhausted_messages_to_its_fifo_dlq_in_order() {
    let mut sqs = Sqs::new();
    let (dlq, dlq_arn) = sqs.create_with_arn("dead.fifo", json!({ "FifoQueue": "true" }));
    let (source, source_arn) = sqs.create_with_arn(
        "work.fifo",
        json!({ "FifoQueue": "true", "RedrivePolicy": redrive_policy(&dlq_arn, 1) }),
    );
    for (i, body) in ["a1", "a2", "a3"].iter().enumerate() {
        sqs.send_fifo(&source, body, "a", &i.to_string());
    }
    let got = receive(
        &mut sqs,
        &source,
        json!({ "MaxNumberOfMessages": 10, "VisibilityTimeout": 0 }),
    )
    .messages();
    assert_eq!(got.len(), 3);
    sqs.receive_none(&source, 10);
    let moved = sqs.receive(&dlq, 10);
    let bodies: Vec<&str> = moved.iter().map(|m| m["Body"].as_str().unwrap()).collect();
    assert_eq!(bodies, ["a1", "a2", "a3"]);
    assert_eq!(moved[0]["Attributes"]["MessageGroupId"], "a");
    assert_eq!(
        moved[0]["Attributes"]["DeadLetterQueueSourceArn"],
        source_arn
    );
}

#[test]
fn a_move_from_a_fifo_queue_to_a_fifo_dlq_replaces_the_deduplication_id_with_the_message_id() {
    let mut sqs = Sqs::new();
    let (dlq, dlq_arn) = sqs.create_with_arn("dead.fifo", json!({ "FifoQueue": "true" }));
    let source = sqs.create(
        "work.fifo",
        json!({ "FifoQueue": "true", "RedrivePolicy": redrive_policy(&dlq_arn, 1) }),
    );
    let sent = sqs.send_fifo(&source, "a1", "a", "order-1");
    let got = sqs.receive(&source, 1);
    assert_eq!(got[0]["Attributes"]["MessageDeduplicationId"], "order-1");
    sqs.call(
        "ChangeMessageVisibility",
        json!({ "QueueUrl": source, "ReceiptHandle": got[0]["ReceiptHandle"], "VisibilityTimeout": 0 }),
    )
    .ok();
    sqs.receive_none(&source, 1);
    let moved = sqs.receive(&dlq, 1);
    assert_eq!(moved[0]["MessageId"], sent["MessageId"]);
    assert_eq!(
        moved[0]["Attributes"]["MessageDeduplicationId"],
        sent["MessageId"]
    );
}

#[test]
fn long_poll_on_the_dlq_is_answered_the_moment_a_message_is_moved_there() {
    let (mut sqs, p) = pair();
    sqs.send(&p.source, "poison");
    receive(&mut sqs, &p.source, json!({ "VisibilityTimeout": 0 })).ok();
    let poll = sqs
        .start(
            "ReceiveMessage",
            json!({ "QueueUrl": p.dlq, "WaitTimeSeconds": 20 }),
        )
        .unwrap_err();
    sqs.advance(1_000);
    sqs.receive_none(&p.source, 1);
    assert_eq!(sqs.only_answer(poll).messages()[0]["Body"], "poison");
}

#[test]
fn moved_to_dead_letter_queue_is_logged() {
    let (mut sqs, p) = pair();
    dead_letter(&mut sqs, &p.source, &["poison"]);
    let moves: Vec<(String, String, u32)> = sqs
        .kinds()
        .into_iter()
        .filter_map(|k| match k {
            EventKind::MovedToDeadLetterQueue {
                queue,
                dead_letter_queue,
                receive_count,
                ..
            } => Some((
                queue.to_string(),
                dead_letter_queue.to_string(),
                receive_count,
            )),
            _ => None,
        })
        .collect();
    assert_eq!(moves, [("work".to_string(), "dead".to_string(), 1)]);
}

// ---------------------------------------------------------------------------
// Which queue may be a DLQ
// ---------------------------------------------------------------------------

/// Asserts a RedrivePolicy targeting `dlq_arn` is refused with
/// InvalidParameterValue when creating the queue `refused`, and when set on
/// the queue `plain` then created without one; answers `plain`'s url.
#[track_caller]
fn assert_redrive_refused(sqs: &mut Sqs, dlq_arn: &str, refused: &str, plain: &str) -> String {
    sqs.create_reply(refused, redrive_to(dlq_arn, 3))
        .err("InvalidParameterValue");
    let url = sqs.create(plain, json!({}));
    sqs.set_attributes(&url, redrive_to(dlq_arn, 3))
        .err("InvalidParameterValue");
    url
}

#[test]
fn redrive_policy_to_a_dlq_of_the_other_type_is_invalid_parameter_value() {
    let mut sqs = Sqs::new();
    let (_, standard_arn) = sqs.create_with_arn("dead", json!({}));
    let (_, fifo_arn) = sqs.create_with_arn("dead.fifo", json!({ "FifoQueue": "true" }));
    sqs.create_reply(
        "work.fifo",
        json!({ "FifoQueue": "true", "RedrivePolicy": redrive_policy(&standard_arn, 3) }),
    )
    .err("InvalidParameterValue");
    let source = assert_redrive_refused(&mut sqs, &fifo_arn, "work", "plain");
    assert_eq!(sqs.attribute(&source, "RedrivePolicy"), "");
}

#[test]
fn redrive_policy_to_a_missing_queue_is_invalid_parameter_value() {
    let mut sqs = Sqs::new();
    let source = sqs.create("work", json!({}));
    let missing = "arn:aws:sqs:us-east-1:000000000000:nowhere";
    sqs.set_attributes(&source, redrive_to(missing, 3))
        .err("InvalidParameterValue")
        .message_contains("does not exist");
    sqs.create_reply("other", redrive_to(missing, 3))
        .err("InvalidParameterValue");
}

#[test]
fn redrive_allow_policy_deny_all_rejects_every_source() {
    let mut sqs = Sqs::new();
    let (_, dlq_arn) = sqs.create_with_arn(
        "dead",
        json!({ "RedriveAllowPolicy": json!({ "redrivePermission": "denyAll" }).to_string() }),
    );
    assert_redrive_refused(&mut sqs, &dlq_arn, "work", "other");
}

#[test]
fn redrive_allow_policy_by_queue_allows_only_the_listed_sources() {
    let mut sqs = Sqs::new();
    let allowed_arn = "arn:aws:sqs:us-east-1:000000000000:allowed";
    let allow = json!({ "redrivePermission": "byQueue", "sourceQueueArns": [allowed_arn] });
    let (_, dlq_arn) =
        sqs.create_with_arn("dead", json!({ "RedriveAllowPolicy": allow.to_string() }));
    sqs.create("allowed", redrive_to(&dlq_arn, 3));
    assert_redrive_refused(&mut sqs, &dlq_arn, "stranger", "stranger");
}

#[test]
fn redrive_allow_policy_allow_all_accepts_any_source() {
    let mut sqs = Sqs::new();
    let allow = json!({ "redrivePermission": "allowAll" });
    let (_, dlq_arn) =
        sqs.create_with_arn("dead", json!({ "RedriveAllowPolicy": allow.to_string() }));
    sqs.create("work", redrive_to(&dlq_arn, 3));
}

// ---------------------------------------------------------------------------
// Retention in the DLQ
// ---------------------------------------------------------------------------

/// Moves one message to a DLQ (retention 60 s) at t = 40 s; returns the DLQ url.
fn dead_letter_at_forty_seconds(sqs: &mut Sqs, fifo: bool) -> String {
    let (suffix, mut attributes) = if fifo {
        (".fifo", json!({ "FifoQueue": "true" }))
    } else {
        ("", json!({}))
    };
    attributes["MessageRetentionPeriod"] = json!("60");
    let (dlq, dlq_arn) = sqs.create_with_arn(&format!("dead{suffix}"), attributes);
    let mut attributes = json!({ "RedrivePolicy": redrive_policy(&dlq_arn, 1),
                                 "VisibilityTimeout": "20" });
    if fifo {
        attributes["FifoQueue"] = json!("true");
    }
    let source = sqs.create(&format!("work{suffix}"), attributes);
    if fifo {
        sqs.send_fifo(&source, "old", "g", "d");
    } else {
        sqs.send(&source, "old");
    }
    assert_eq!(sqs.receive(&source, 1).len(), 1);
    sqs.advance(40_000);
    sqs.receive_none(&source, 1);
    assert_eq!(visible(sqs, &dlq), "1");
    dlq
}

/// Asserts the message in `dlq` is kept for `ms` more milliseconds and
/// deleted at the last one.
#[track_caller]
fn assert_retained_for(sqs: &mut Sqs, dlq: &str, ms: u64) {
    sqs.advance(ms - 1);
    assert_eq!(visible(sqs, dlq), "1");
    sqs.advance(1);
    assert_eq!(visible(sqs, dlq), "0");
}

#[test]
fn standard_dlq_keeps_the_original_enqueue_time_for_retention() {
    let mut sqs = Sqs::new();
    let dlq = dead_letter_at_forty_seconds(&mut sqs, false);
    assert_retained_for(&mut sqs, &dlq, 20_000);
}

#[test]
fn fifo_dlq_resets_the_enqueue_time_for_retention() {
    let mut sqs = Sqs::new();
    let dlq = dead_letter_at_forty_seconds(&mut sqs, true);
    assert_retained_for(&mut sqs, &dlq, 60_000);
}

// ---------------------------------------------------------------------------
// ListDeadLetterSourceQueues
// ---------------------------------------------------------------------------

/// The `queueUrls` ListDeadLetterSourceQueues answers for `dlq`.
#[track_caller]
fn dead_letter_sources(sqs: &mut Sqs, dlq: &str) -> Value {
    sqs.call("ListDeadLetterSourceQueues", json!({ "QueueUrl": dlq }))
        .ok()["queueUrls"]
        .clone()
}

#[test]
fn list_dead_letter_source_queues_of_a_queue_without_sources_is_empty() {
    let mut sqs = Sqs::new();
    let lonely = sqs.create("lonely", json!({}));
    assert_eq!(dead_letter_sources(&mut sqs, &lonely), json!([]));
}

// ---------------------------------------------------------------------------
// StartMessageMoveTask / ListMessageMoveTasks / CancelMessageMoveTask
// ---------------------------------------------------------------------------

#[test]
fn start_message_move_task_returns_a_task_handle() {
    let (mut sqs, p) = pair();
    dead_letter(&mut sqs, &p.source, &["a"]);
    let body = start_task(&mut sqs, json!({ "SourceArn": p.dlq_arn })).ok();
    assert!(!body["TaskHandle"].as_str().unwrap().is_empty());
}

#[test]
fn start_message_move_task_from_a_queue_that_is_not_a_dlq_is_invalid_parameter_value() {
    let mut sqs = Sqs::new();
    let (_, arn) = sqs.create_with_arn("plain", json!({}));
    start_task(&mut sqs, json!({ "SourceArn": arn })).rejected(
        400,
        "InvalidParameterValue",
        "Source queue must be configured as a Dead Letter Queue.",
    );
}

#[test]
fn start_message_move_task_to_a_missing_destination_is_resource_not_found_404() {
    let (mut sqs, p) = pair();
    start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn,
                "DestinationArn": "arn:aws:sqs:us-east-1:000000000000:nowhere" }),
    )
    .rejected(
        404,
        "ResourceNotFoundException",
        "The resource that you specified for the DestinationArn parameter doesn't exist.",
    )
    .error_envelope(
        404,
        "ResourceNotFoundException",
        "ResourceNotFoundException",
    );
}

#[test]
fn start_message_move_task_rate_above_500_is_invalid_parameter_value() {
    let (mut sqs, p) = pair();
    let reply = start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn, "MaxNumberOfMessagesPerSecond": 501 }),
    );
    reply
        .err("InvalidParameterValue")
        .message_contains("MaxNumberOfMessagesPerSecond");
    assert_eq!(reply.status, 400);
    start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn, "MaxNumberOfMessagesPerSecond": 500 }),
    )
    .ok();
}

#[test]
fn only_one_active_move_task_is_allowed_per_source() {
    let (mut sqs, p) = pair();
    dead_letter(&mut sqs, &p.source, &["a", "b", "c"]);
    start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn, "MaxNumberOfMessagesPerSecond": 1 }),
    )
    .ok();
    let reply = start_task(&mut sqs, json!({ "SourceArn": p.dlq_arn }));
    reply.err("InvalidParameterValue");
    assert_eq!(
        reply.message(),
        "There is already a task running. Only one active task is allowed for a source queue \
         arn at a given time."
    );
}

#[test]
fn a_new_move_task_can_start_once_the_previous_one_completed() {
    let (mut sqs, p) = pair();
    dead_letter(&mut sqs, &p.source, &["a"]);
    start_task(&mut sqs, json!({ "SourceArn": p.dlq_arn })).ok();
    sqs.advance(10_000);
    assert_eq!(latest_task(&mut sqs, &p.dlq_arn)["Status"], "COMPLETED");
    start_task(&mut sqs, json!({ "SourceArn": p.dlq_arn })).ok();
}

#[test]
fn move_task_without_destination_returns_each_message_to_its_own_source() {
    let mut sqs = Sqs::new();
    let (dlq, dlq_arn) = sqs.create_with_arn("dead", json!({}));
    let first = sqs.create("first", redrive_to(&dlq_arn, 1));
    let second = sqs.create("second", redrive_to(&dlq_arn, 1));
    dead_letter(&mut sqs, &first, &["from-first"]);
    dead_letter(&mut sqs, &second, &["from-second-1", "from-second-2"]);
    assert_eq!(visible(&mut sqs, &dlq), "3");
    start_task(&mut sqs, json!({ "SourceArn": dlq_arn })).ok();
    sqs.advance(1_000);
    assert_eq!(visible(&mut sqs, &dlq), "0");
    assert_eq!(sqs.receive_bodies(&first, 10), ["from-first"]);
    assert_eq!(
        sorted_bodies(&mut sqs, &second),
        ["from-second-1", "from-second-2"]
    );
}

#[test]
fn move_task_moves_messages_to_the_destination_arn_when_given() {
    let (mut sqs, p) = pair();
    let (elsewhere, elsewhere_arn) = sqs.create_with_arn("elsewhere", json!({}));
    dead_letter(&mut sqs, &p.source, &["a", "b"]);
    start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn, "DestinationArn": elsewhere_arn }),
    )
    .ok();
    sqs.advance(1_000);
    assert_eq!(visible(&mut sqs, &p.dlq), "0");
    assert_eq!(visible(&mut sqs, &p.source), "0");
    assert_eq!(sorted_bodies(&mut sqs, &elsewhere), ["a", "b"]);
}

#[test]
fn move_task_runs_in_virtual_time_at_max_number_of_messages_per_second() {
    let (mut sqs, p) = pair();
    dead_letter(&mut sqs, &p.source, &["1", "2", "3", "4", "5", "6"]);
    start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn, "MaxNumberOfMessagesPerSecond": 2 }),
    )
    .ok();
    assert_eq!(moved(&mut sqs, &p.dlq_arn), 0);
    sqs.advance(1_000);
    assert_eq!(moved(&mut sqs, &p.dlq_arn), 2);
    assert_eq!(visible(&mut sqs, &p.source), "2");
    assert_eq!(visible(&mut sqs, &p.dlq), "4");
    sqs.advance(1_000);
    assert_eq!(moved(&mut sqs, &p.dlq_arn), 4);
    sqs.advance(1_000);
    assert_eq!(moved(&mut sqs, &p.dlq_arn), 6);
    assert_eq!(visible(&mut sqs, &p.source), "6");
    assert_eq!(visible(&mut sqs, &p.dlq), "0");
}

#[test]
fn move_task_status_is_completed_when_every_message_moved() {
    let (mut sqs, p) = pair();
    dead_letter(&mut sqs, &p.source, &["a", "b", "c"]);
    start_task(&mut sqs, json!({ "SourceArn": p.dlq_arn })).ok();
    sqs.advance(5_000);
    let task = latest_task(&mut sqs, &p.dlq_arn);
    assert_eq!(task["Status"], "COMPLETED");
    assert_eq!(task["ApproximateNumberOfMessagesMoved"], 3);
    assert_eq!(task["ApproximateNumberOfMessagesToMove"], 3);
    assert!(task.get("TaskHandle").is_none(), "{task}");
    assert!(task.get("FailureReason").is_none(), "{task}");
}

#[test]
fn list_message_move_tasks_reports_a_running_task() {
    let (mut sqs, p) = pair();
    dead_letter(&mut sqs, &p.source, &["a", "b", "c"]);
    sqs.advance(5_000);
    let handle = start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn, "DestinationArn": p.source_arn,
                "MaxNumberOfMessagesPerSecond": 1 }),
    )
    .ok()["TaskHandle"]
        .clone();
    let task = latest_task(&mut sqs, &p.dlq_arn);
    assert_eq!(
        sorted_keys(&task),
        [
            "ApproximateNumberOfMessagesMoved",
            "ApproximateNumberOfMessagesToMove",
            "DestinationArn",
            "MaxNumberOfMessagesPerSecond",
            "SourceArn",
            "StartedTimestamp",
            "Status",
            "TaskHandle"
        ]
    );
    assert_eq!(task["Status"], "RUNNING");
    assert_eq!(task["TaskHandle"], handle);
    assert_eq!(task["SourceArn"], p.dlq_arn);
    assert_eq!(task["DestinationArn"], p.source_arn);
    assert_eq!(task["MaxNumberOfMessagesPerSecond"], 1);
    assert_eq!(task["ApproximateNumberOfMessagesMoved"], 0);
    assert_eq!(task["ApproximateNumberOfMessagesToMove"], 3);
    assert_eq!(task["StartedTimestamp"], EPOCH_MS + 5_000);
}

#[test]
fn list_message_move_tasks_leaves_out_destination_and_rate_when_not_given() {
    let (mut sqs, p) = pair();
    dead_letter(&mut sqs, &p.source, &["a"]);
    start_task(&mut sqs, json!({ "SourceArn": p.dlq_arn })).ok();
    let task = latest_task(&mut sqs, &p.dlq_arn);
    assert!(task.get("DestinationArn").is_none(), "{task}");
    assert!(task.get("MaxNumberOfMessagesPerSecond").is_none(), "{task}");
}

/// Five messages in the DLQ, and a task moving them back at one a second:
/// answers the engine, the pair and the task's handle.
fn five_dead_letters_moving_one_per_second() -> (Sqs, Pair, Value) {
    let (mut sqs, p) = pair();
    dead_letter(&mut sqs, &p.source, &["1", "2", "3", "4", "5"]);
    let handle = start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn, "MaxNumberOfMessagesPerSecond": 1 }),
    )
    .ok()["TaskHandle"]
        .clone();
    (sqs, p, handle)
}

#[test]
fn cancel_message_move_task_stops_the_task_and_answers_the_number_moved() {
    let (mut sqs, p, handle) = five_dead_letters_moving_one_per_second();
    sqs.advance(2_000);
    let body = sqs
        .call("CancelMessageMoveTask", json!({ "TaskHandle": handle }))
        .ok();
    assert_eq!(body, json!({ "ApproximateNumberOfMessagesMoved": 2 }));
    sqs.advance(10_000);
    assert_eq!(visible(&mut sqs, &p.dlq), "3");
    assert_eq!(visible(&mut sqs, &p.source), "2");
    let task = latest_task(&mut sqs, &p.dlq_arn);
    assert_eq!(task["Status"], "CANCELLED");
    assert!(task.get("TaskHandle").is_none(), "{task}");
}

#[test]
fn a_cancelled_move_task_reports_cancelling_for_one_step_of_its_rate_then_cancelled() {
    let (mut sqs, p, handle) = five_dead_letters_moving_one_per_second();
    sqs.advance(2_500);
    sqs.call("CancelMessageMoveTask", json!({ "TaskHandle": handle }))
        .ok();
    // One step of 1 message per second: CANCELLING until 3.5 s, moving nothing.
    for wait in [999, 0] {
        let task = latest_task(&mut sqs, &p.dlq_arn);
        assert_eq!(task["Status"], "CANCELLING", "{task}");
        assert!(task.get("TaskHandle").is_none(), "{task}");
        assert_eq!(task["ApproximateNumberOfMessagesMoved"], 2);
        sqs.advance(wait);
    }
    // Still winding down: a new task for the source waits for it to stop.
    start_task(&mut sqs, json!({ "SourceArn": p.dlq_arn }))
        .err("InvalidParameterValue")
        .message_contains("already a task running");
    sqs.call("CancelMessageMoveTask", json!({ "TaskHandle": handle }))
        .err("ResourceNotFoundException");
    sqs.advance(1);
    let task = latest_task(&mut sqs, &p.dlq_arn);
    assert_eq!(task["Status"], "CANCELLED", "{task}");
    assert_eq!(task["ApproximateNumberOfMessagesMoved"], 2);
    assert_eq!(visible(&mut sqs, &p.dlq), "3");
    let ends: Vec<&str> = sqs
        .kinds()
        .into_iter()
        .filter_map(|k| match k {
            EventKind::MoveTaskCancelling { .. } => Some("cancelling"),
            EventKind::MoveTaskEnded { status, .. } => Some(status),
            _ => None,
        })
        .collect();
    assert_eq!(ends, ["cancelling", "CANCELLED"]);
    start_task(&mut sqs, json!({ "SourceArn": p.dlq_arn })).ok();
}

#[test]
fn cancel_message_move_task_with_a_garbage_handle_is_invalid_parameter_value() {
    let mut sqs = Sqs::new();
    sqs.call("CancelMessageMoveTask", json!({ "TaskHandle": "garbage" }))
        .rejected(
            400,
            "InvalidParameterValue",
            "Value for parameter TaskHandle is invalid.",
        );
}

/// Dead-letters three messages of `p`, starts a move task of one message a
/// second (to `destination`, when given), deletes the queue `doomed` after
/// 1.5 s and answers the task 5 s later, checked to have failed with a
/// reason after moving one message.
#[track_caller]
fn failed_move_task(sqs: &mut Sqs, p: &Pair, destination: Option<&str>, doomed: &str) -> Value {
    dead_letter(sqs, &p.source, &["1", "2", "3"]);
    let mut request = json!({ "SourceArn": p.dlq_arn, "MaxNumberOfMessagesPerSecond": 1 });
    if let Some(arn) = destination {
        request["DestinationArn"] = json!(arn);
    }
    start_task(sqs, request).ok();
    sqs.advance(1_500);
    sqs.call("DeleteQueue", json!({ "QueueUrl": doomed })).ok();
    sqs.advance(5_000);
    let task = latest_task(sqs, &p.dlq_arn);
    assert_eq!(task["Status"], "FAILED");
    assert!(
        !task["FailureReason"].as_str().unwrap_or("").is_empty(),
        "{task}"
    );
    assert_eq!(task["ApproximateNumberOfMessagesMoved"], 1);
    task
}

#[test]
fn move_task_fails_with_a_failure_reason_when_its_destination_is_deleted() {
    let (mut sqs, p) = pair();
    let (elsewhere, elsewhere_arn) = sqs.create_with_arn("elsewhere", json!({}));
    let task = failed_move_task(&mut sqs, &p, Some(&elsewhere_arn), &elsewhere);
    assert!(task.get("TaskHandle").is_none(), "{task}");
    assert_eq!(visible(&mut sqs, &p.dlq), "2");
}

#[test]
fn move_task_fails_with_a_failure_reason_when_the_original_source_is_deleted() {
    let (mut sqs, p) = pair();
    failed_move_task(&mut sqs, &p, None, &p.source);
    assert_eq!(visible(&mut sqs, &p.dlq), "2");
}

#[test]
fn a_redrive_policy_targeting_the_queue_itself_is_accepted() {
    let mut sqs = Sqs::new();
    let (a, a_arn) = sqs.create_with_arn("a", json!({ "VisibilityTimeout": "1" }));
    sqs.set_attributes(&a, redrive_to(&a_arn, 1)).ok();
    assert_eq!(
        sqs.attribute(&a, "RedrivePolicy"),
        redrive_policy(&a_arn, 1)
    );
    assert_eq!(
        sqs.call("ListDeadLetterSourceQueues", json!({ "QueueUrl": a }))
            .ok()["queueUrls"],
        json!([a])
    );
    // A documented choice (docs/fidelity.md): a message never moves
    // to the queue it is in, so it is delivered again and again.
    sqs.send(&a, "loop");
    for count in ["1", "2", "3"] {
        let got = sqs.receive(&a, 1);
        assert_eq!(got[0]["Attributes"]["ApproximateReceiveCount"], count);
        sqs.advance(1_000);
    }
}

#[test]
fn a_redrive_policy_whose_chain_leads_back_to_the_source_is_accepted() {
    let mut sqs = Sqs::new();
    let (a, a_arn) = sqs.create_with_arn("a", json!({}));
    let (_, b_arn) = sqs.create_with_arn("b", redrive_to(&a_arn, 1));
    sqs.set_attributes(&a, redrive_to(&b_arn, 1)).ok();
    assert_eq!(
        sqs.attribute(&a, "RedrivePolicy"),
        redrive_policy(&b_arn, 1)
    );
}

#[test]
fn a_redrive_policy_to_a_missing_queue_or_one_of_the_other_type_is_still_refused() {
    let mut sqs = Sqs::new();
    let (a, a_arn) = sqs.create_with_arn("a", json!({}));
    let (_, fifo_arn) = sqs.create_with_arn("f.fifo", json!({ "FifoQueue": "true" }));
    sqs.set_attributes(&a, redrive_to(&fifo_arn, 1))
        .err("InvalidParameterValue")
        .message_contains("same type of queue");
    let missing = format!("{}nowhere", a_arn.trim_end_matches('a'));
    sqs.set_attributes(&a, redrive_to(&missing, 1))
        .err("InvalidParameterValue")
        .message_contains("Dead letter target does not exist.");
    // At CreateQueue the queue itself does not exist yet.
    let own_arn = format!("{}b", a_arn.trim_end_matches('a'));
    sqs.create_reply("b", redrive_to(&own_arn, 1))
        .err("InvalidParameterValue")
        .message_contains("Dead letter target does not exist.");
}

/// Queues `a` -> `b` and `b` -> `a` (`b_max` receives): a cycle no check can
/// see, made by setting a -> b while b exists, then deleting b and
/// recreating it with b -> a. Both have a 1 s visibility timeout.
fn redrive_cycle(b_max: u32) -> (Sqs, String, String) {
    let mut sqs = Sqs::new();
    let (b, b_arn) = sqs.create_with_arn("b", json!({}));
    let (a, a_arn) = sqs.create_with_arn(
        "a",
        json!({ "RedrivePolicy": redrive_policy(&b_arn, 1), "VisibilityTimeout": "1" }),
    );
    sqs.call("DeleteQueue", json!({ "QueueUrl": b })).ok();
    sqs.advance(61_000);
    let b = sqs.create(
        "b",
        json!({ "RedrivePolicy": redrive_policy(&a_arn, b_max), "VisibilityTimeout": "1" }),
    );
    (sqs, a, b)
}

#[test]
fn a_redrive_cycle_closed_by_recreating_a_queue_never_hangs() {
    // a -> b is set while b exists; b is then deleted and recreated with
    // b -> a, which no check can see. Waiting polls on both must not make
    // the message bounce forever within one call.
    let (mut sqs, a, b) = redrive_cycle(1);
    sqs.send(&a, "ping-pong");
    assert_eq!(sqs.receive(&a, 1).len(), 1);
    sqs.advance(1_000);
    let wait_a = sqs.start(
        "ReceiveMessage",
        json!({ "QueueUrl": a, "WaitTimeSeconds": 20 }),
    );
    let wait_b = sqs.start(
        "ReceiveMessage",
        json!({ "QueueUrl": b, "WaitTimeSeconds": 20 }),
    );
    assert!(
        wait_a.is_err() || wait_b.is_err(),
        "at least one poll waits"
    );
    sqs.advance(20_000);
    // Every message is still stored exactly once.
    let stored: usize = sqs
        .engine
        .snapshot()
        .queues
        .iter()
        .map(|q| q.messages.len())
        .sum();
    assert_eq!(stored, 1);
}

#[test]
fn in_a_redrive_cycle_a_waiting_poll_is_answered_once() {
    // a -> b, and b (recreated) -> a. Serving b's poll moves m1 to a, whose
    // poll moves it straight back to b. b's poll is still being served
    // there: serving it again from inside would answer it twice, once with
    // m3 from the nested serve and once with m4 when its own receive ends.
    let (mut sqs, a, b) = redrive_cycle(2);
    // m1 is received in a, moved to b, received in b: once visible again it
    // is exhausted in both queues.
    sqs.send(&a, "m1");
    assert_eq!(sqs.receive(&a, 1).len(), 1);
    sqs.advance(1_000);
    sqs.receive_none(&a, 1);
    assert_eq!(sqs.receive(&b, 1).len(), 1);
    let wait_a = sqs.start(
        "ReceiveMessage",
        json!({ "QueueUrl": a, "WaitTimeSeconds": 20 }),
    );
    assert!(wait_a.is_err(), "a's poll waits");
    // m3 and m4 become visible with m1, after it in b's order.
    for body in ["m3", "m4"] {
        sqs.call(
            "SendMessage",
            json!({ "QueueUrl": b, "MessageBody": body, "DelaySeconds": 1 }),
        )
        .ok();
    }
    let Err(wait_b) = sqs.start(
        "ReceiveMessage",
        json!({ "QueueUrl": b, "WaitTimeSeconds": 20 }),
    ) else {
        panic!("b's poll waits");
    };
    sqs.advance(1_000);
    let answers: Vec<u64> = sqs.answered().into_iter().map(|(id, _)| id).collect();
    assert_eq!(answers, vec![wait_b]);
}

/// Issue 10: "A chain of about 1,150 dead-letter queues, each with a long
/// poll waiting. Exhausting one message recurses once per queue and
/// overflows the wasm stack." Here the chain is q0 -> q1 -> … -> q9999,
/// every link with maxReceiveCount 1, and a long poll waits on every queue.
/// When the message, received once from q0, comes back into view, q0's
/// poll reaches it and moves it to q1, whose poll moves it on, and so on:
/// each receive attempt moves it (its receive count, 1, has reached every
/// maxReceiveCount) and takes nothing, so those polls go on waiting and end
/// empty. Only the last queue, without a policy, delivers it: its poll gets
/// it as receive #2, from q9998. (The same chain runs in wasm in
/// tests/node/hardening.test.mjs.)
#[test]
fn a_chain_of_10000_dead_letter_queues_with_waiting_polls_does_not_overflow_the_stack() {
    const CHAIN: usize = 10_000;
    let mut sqs = Sqs::new();
    let queues: Vec<(String, String)> = (0..CHAIN)
        .map(|k| sqs.create_with_arn(&format!("q{k}"), json!({})))
        .collect();
    // Linked from the head on: each check follows a chain of one queue.
    for k in 0..CHAIN - 1 {
        let next_arn = queues[k + 1].1.clone();
        sqs.set_attributes(&queues[k].0, redrive_to(&next_arn, 1))
            .ok();
    }
    let (head, tail) = (queues[0].0.clone(), queues[CHAIN - 1].0.clone());
    sqs.send(&head, "deep");
    let first = receive(&mut sqs, &head, json!({ "VisibilityTimeout": 1 })).messages();
    assert_eq!(first.len(), 1);
    let polls: Vec<u64> = queues
        .iter()
        .map(|(url, _)| {
            sqs.start(
                "ReceiveMessage",
                json!({ "QueueUrl": url, "WaitTimeSeconds": 20,
                        "MessageSystemAttributeNames": ["All"] }),
            )
            .expect_err("every queue is empty: its poll waits")
        })
        .collect();

    sqs.advance(1_000);
    let mut answered = sqs.answered();
    assert_eq!(answered.len(), 1, "only the tail's poll is answered at 1 s");
    let (last_poll, answer) = answered.remove(0);
    assert_eq!(last_poll, polls[CHAIN - 1], "the tail's poll gets it");
    let message = &answer.messages()[0];
    assert_eq!(message["Body"], "deep");
    assert_eq!(message["Attributes"]["ApproximateReceiveCount"], "2");
    assert_eq!(
        message["Attributes"]["DeadLetterQueueSourceArn"],
        json!(queues[CHAIN - 2].1)
    );
    let moves = sqs
        .kinds()
        .iter()
        .filter(|k| matches!(k, EventKind::MovedToDeadLetterQueue { .. }))
        .count();
    assert_eq!(moves, CHAIN - 1, "one move per link");
    assert_eq!(
        sqs.attribute(&tail, "ApproximateNumberOfMessagesNotVisible"),
        "1"
    );
    // Counts, not a snapshot: a snapshot names every queue's partners.
    let stored: usize = sqs
        .engine
        .counts()
        .queues
        .iter()
        .map(|q| q.visible + q.in_flight + q.delayed)
        .sum();
    assert_eq!(stored, 1, "the message is stored once, in the tail");

    // Every other poll waited out its 20 s and ends empty, in arrival order.
    sqs.advance(18_999);
    assert!(sqs.answered().is_empty(), "no poll ends before its 20 s");
    sqs.advance(1);
    let ended = sqs.answered();
    let ids: Vec<u64> = ended.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, polls[..CHAIN - 1]);
    assert!(ended.iter().all(|(_, reply)| reply.messages().is_empty()));
}

#[test]
fn a_redrive_policy_missing_both_keys_names_max_receive_count() {
    let (mut sqs, url) = Sqs::with_queue("work", json!({}));
    sqs.set_attributes(&url, json!({ "RedrivePolicy": "{}" }))
        .rejected(
            400,
            "InvalidParameterValue",
            "Value {} for parameter RedrivePolicy is invalid. Reason: Redrive policy does not \
             contain mandatory attribute: maxReceiveCount.",
        );
}

#[test]
fn a_dead_letter_queue_of_the_other_type_is_refused_in_aws_words() {
    let mut sqs = Sqs::new();
    let (_, fifo_arn) = sqs.create_with_arn("f.fifo", json!({ "FifoQueue": "true" }));
    let url = sqs.create("plain", json!({}));
    sqs.set_attributes(&url, redrive_to(&fifo_arn, 3)).rejected(
        400,
        "InvalidParameterValue",
        &format!(
            "Value {} for parameter RedrivePolicy is invalid. Reason: Dead-letter queue must \
                 be same type of queue as the source..",
            redrive_policy(&fifo_arn, 3)
        ),
    );
}

#[test]
fn a_move_task_arn_that_is_not_an_arn_is_invalid_parameter_value() {
    let (mut sqs, p) = pair();
    let text = |parameter: &str| {
        format!(
            "You must use this format to specify the {parameter}: \
             arn:<partition>:<service>:<region>:<account-id>:<resource-id>"
        )
    };
    for garbage in ["garbage", "", "arn:aws:sqs"] {
        start_task(&mut sqs, json!({ "SourceArn": garbage })).rejected(
            400,
            "InvalidParameterValue",
            &text("SourceArn"),
        );
        sqs.call("ListMessageMoveTasks", json!({ "SourceArn": garbage }))
            .rejected(400, "InvalidParameterValue", &text("SourceArn"));
    }
    start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn, "DestinationArn": "garbage" }),
    )
    .rejected(400, "InvalidParameterValue", &text("DestinationArn"));
    // A well-formed ARN of no queue is still not found.
    let missing = format!("{}nowhere", p.dlq_arn.trim_end_matches("dead"));
    start_task(&mut sqs, json!({ "SourceArn": missing })).err("ResourceNotFoundException");
}

/// base64 of text, as a test client would build a handle by hand.
fn base64(text: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(text)
}

#[test]
fn a_move_task_handle_is_base64_of_its_task_id_and_source_arn() {
    use base64::Engine as _;
    let (mut sqs, p) = pair();
    dead_letter(&mut sqs, &p.source, &["a"]);
    let handle = start_task(&mut sqs, json!({ "SourceArn": p.dlq_arn })).ok()["TaskHandle"]
        .as_str()
        .unwrap()
        .to_string();
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(&handle)
        .unwrap();
    let document: Value = serde_json::from_slice(&decoded).unwrap();
    assert_eq!(sorted_keys(&document), ["sourceArn", "taskId"]);
    assert_eq!(document["sourceArn"], p.dlq_arn);
    let task_id = document["taskId"].as_str().unwrap();
    assert_eq!(task_id.len(), 36, "a UUID: {task_id}");
    assert_eq!(&task_id[14..15], "4", "version 4: {task_id}");
    // Written as SQS writes it, so a handle built the same way names it.
    let rebuilt = base64(&format!(
        r#"{{"taskId":"{task_id}","sourceArn":"{}"}}"#,
        p.dlq_arn
    ));
    assert_eq!(rebuilt, handle);
    sqs.call("CancelMessageMoveTask", json!({ "TaskHandle": rebuilt }))
        .ok();
}

#[test]
fn cancelling_with_a_handle_naming_a_missing_source_queue_is_resource_not_found() {
    // Recorded against AWS.
    let mut sqs = Sqs::new();
    let handle = base64(
        r#"{"taskId":"10f57157-fc38-4da9-a113-4de7e12d05dd","sourceArn":"arn:aws:sqs:us-east-1:000000000000:test-queue-doesnt-exist-123456"}"#,
    );
    sqs.call("CancelMessageMoveTask", json!({ "TaskHandle": handle }))
        .rejected(
            404,
            "ResourceNotFoundException",
            "The resource that you specified for the SourceArn parameter doesn't exist.",
        );
}

#[test]
fn cancelling_with_a_handle_naming_an_unknown_task_is_task_does_not_exist() {
    // Recorded against AWS.
    let (mut sqs, p) = pair();
    dead_letter(&mut sqs, &p.source, &["a"]);
    start_task(&mut sqs, json!({ "SourceArn": p.dlq_arn })).ok();
    let handle = base64(&format!(
        r#"{{"taskId":"10f57157-fc38-4da9-a113-4de7e12d05dd","sourceArn":"{}"}}"#,
        p.dlq_arn
    ));
    sqs.call("CancelMessageMoveTask", json!({ "TaskHandle": handle }))
        .rejected(404, "ResourceNotFoundException", "Task does not exist.");
    assert_eq!(latest_task(&mut sqs, &p.dlq_arn)["Status"], "RUNNING");
}

#[test]
fn a_refused_redrive_policy_repeats_the_callers_own_text() {
    // Recorded against AWS: spaces and key order as the caller wrote them.
    let mut sqs = Sqs::new();
    let text = r#"{"deadLetterTargetArn": "dummy", "maxReceiveCount": 42}"#;
    sqs.create_reply("q", json!({ "RedrivePolicy": text }))
        .rejected(
            400,
            "InvalidParameterValue",
            &format!(
                "Value {text} for parameter RedrivePolicy is invalid. Reason: Invalid value for \
                 deadLetterTargetArn."
            ),
        );
    let (_, dlq_arn) = sqs.create_with_arn("dlq", json!({}));
    let text = format!(r#"{{ "maxReceiveCount": "0", "deadLetterTargetArn": "{dlq_arn}" }}"#);
    sqs.create_reply("q", json!({ "RedrivePolicy": text }))
        .rejected(
            400,
            "InvalidParameterValue",
            &format!(
                "Value {text} for parameter RedrivePolicy is invalid. Reason: Invalid value for \
                 maxReceiveCount: 0, valid values are from 1 to 1000 both inclusive."
            ),
        );
    // Read back, the policy is written SQS's way.
    let text = format!(r#"{{ "maxReceiveCount": "3", "deadLetterTargetArn": "{dlq_arn}" }}"#);
    let url = sqs.create("q", json!({ "RedrivePolicy": text }));
    assert_eq!(
        sqs.attribute(&url, "RedrivePolicy"),
        redrive_policy(&dlq_arn, 3)
    );
}

#[test]
fn a_dead_letter_queue_of_another_account_is_refused() {
    let mut sqs = Sqs::new();
    let (_, dlq_arn) = sqs.create_with_arn("dlq", json!({}));
    let elsewhere = dlq_arn.replace(":000000000000:", ":111111111111:");
    let url = sqs.create("work", json!({}));
    sqs.set_attributes(&url, redrive_to(&elsewhere, 3))
        .rejected(
            400,
            "InvalidParameterValue",
            &format!(
                "Value {} for parameter RedrivePolicy is invalid. Reason: Dead-letter target \
                 owner should be same as the source.",
                redrive_policy(&elsewhere, 3)
            ),
        );
}

/// Issue 25 (the fuzzer's input): FIFO queues `a` and `b`, each the other's
/// dead-letter queue after one receive; `b` has a zero visibility timeout
/// and holds m1 (received once) and m2 in one group; a long poll waits on
/// `a`. Returns the engine, `a`, `b` and the waiting poll.
fn fifo_redrive_cycle_with_a_poll_waiting() -> (Sqs, String, String, u64) {
    let mut sqs = Sqs::new();
    let fifo = |more: Value| {
        let mut attributes = json!({ "FifoQueue": "true" });
        attributes
            .as_object_mut()
            .unwrap()
            .extend(more.as_object().unwrap().clone());
        attributes
    };
    let (a, a_arn) = sqs.create_with_arn("a.fifo", fifo(json!({})));
    let (b, b_arn) = sqs.create_with_arn(
        "b.fifo",
        fifo(json!({ "VisibilityTimeout": "0", "RedrivePolicy": redrive_policy(&a_arn, 1) })),
    );
    sqs.set_attributes(&a, redrive_to(&b_arn, 1)).ok();
    sqs.send_fifo(&b, "m1", "g", "d1");
    sqs.send_fifo(&b, "m2", "g", "d2");
    let first = sqs.receive(&b, 1);
    assert_eq!(first[0]["Body"], "m1");
    let poll = sqs
        .start(
            "ReceiveMessage",
            json!({ "QueueUrl": a, "WaitTimeSeconds": 20 }),
        )
        .expect_err("a is empty: its poll waits");
    (sqs, a, b, poll)
}

#[test]
fn a_receive_in_a_fifo_redrive_cycle_returns_after_moving_the_message_one_lap_at_most() {
    // On the code before issue 25 this receive never returned: m1 moved
    // from b to a, a's waiting poll moved it straight back, b's receive
    // reached it again, and so on inside the one call.
    let (mut sqs, a, b, poll) = fifo_redrive_cycle_with_a_poll_waiting();
    let from = sqs.events().len();
    let got = sqs.receive(&b, 10);
    // m1 moved to a; behind it in its group m2 is delivered, once.
    let bodies: Vec<&str> = got.iter().map(|m| m["Body"].as_str().unwrap()).collect();
    assert_eq!(bodies, ["m2"]);
    assert_eq!(got[0]["Attributes"]["ApproximateReceiveCount"], "1");
    // In a, m1 is exhausted too. a's poll met it during b's receive and
    // held it (it had moved once in that run); served again once the
    // receive was done, the poll moved it back to b, once, and waits on.
    assert_eq!(
        dead_letter_moves(&sqs, from),
        [
            "b.fifo -> a.fifo at receive 1",
            "a.fifo -> b.fifo at receive 1"
        ]
    );
    assert!(sqs.answered().is_empty(), "a's poll {poll} still waits");
    assert_eq!(visible(&mut sqs, &a), "0");
    // m2's zero visibility timeout has ended too: both wait in b.
    assert_eq!(visible(&mut sqs, &b), "2");
    // The next receive takes the next lap, and returns.
    let from = sqs.events().len();
    sqs.receive_none(&b, 10);
    assert_eq!(
        dead_letter_moves(&sqs, from),
        [
            "b.fifo -> a.fifo at receive 1",
            "b.fifo -> a.fifo at receive 1",
            "a.fifo -> b.fifo at receive 1",
            "a.fifo -> b.fifo at receive 1"
        ]
    );
}

/// The dead-letter moves logged after event `from`, in words.
fn dead_letter_moves(sqs: &Sqs, from: usize) -> Vec<String> {
    sqs.events()[from..]
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MovedToDeadLetterQueue {
                queue,
                dead_letter_queue,
                receive_count,
                ..
            } => Some(format!(
                "{queue} -> {dead_letter_queue} at receive {receive_count}"
            )),
            _ => None,
        })
        .collect()
}
