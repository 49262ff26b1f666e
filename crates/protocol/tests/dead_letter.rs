//! "Dead-letter queues and redrive" of sqs-facts.md: the lazy move, what a
//! dead-lettered message keeps, redrive policies, ListDeadLetterSourceQueues
//! and message move tasks in virtual time — through the JSON protocol.

mod common;

use common::{Reply, Sqs};
use queuelab_engine::EventKind;
use serde_json::{json, Value};

const EPOCH_MS: u64 = 1_704_067_200_000;

fn redrive_policy(dlq_arn: &str, max_receive_count: u32) -> String {
    json!({ "deadLetterTargetArn": dlq_arn, "maxReceiveCount": max_receive_count }).to_string()
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

/// A standard source queue whose messages go to `dead` after one receive.
fn pair(sqs: &mut Sqs) -> Pair {
    let dlq = sqs.create("dead", json!({}));
    let dlq_arn = sqs.arn(&dlq);
    let source = sqs.create(
        "work",
        json!({ "RedrivePolicy": redrive_policy(&dlq_arn, 1) }),
    );
    let source_arn = sqs.arn(&source);
    Pair {
        source,
        source_arn,
        dlq,
        dlq_arn,
    }
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
    assert!(receive(sqs, source, json!({ "MaxNumberOfMessages": 10 }))
        .messages()
        .is_empty());
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

fn keys(value: &Value) -> Vec<String> {
    let mut keys: Vec<String> = value.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    keys
}

// ---------------------------------------------------------------------------
// The lazy move
// ---------------------------------------------------------------------------

#[test]
fn message_moves_to_dlq_lazily_at_next_receive_after_max_receive_count() {
    let mut sqs = Sqs::new();
    let dlq = sqs.create("dead", json!({}));
    let dlq_arn = sqs.arn(&dlq);
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
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
    sqs.send(&p.source, "poison");
    receive(&mut sqs, &p.source, json!({ "VisibilityTimeout": 1 })).ok();
    sqs.advance(60_000);
    assert_eq!(visible(&mut sqs, &p.source), "1");
    assert_eq!(visible(&mut sqs, &p.dlq), "0");
    assert!(sqs.receive(&p.source, 1).is_empty());
    assert_eq!(visible(&mut sqs, &p.source), "0");
    assert_eq!(visible(&mut sqs, &p.dlq), "1");
}

#[test]
fn dead_lettered_message_keeps_its_message_id_body_and_attributes() {
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
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
    assert!(sqs.receive(&p.source, 1).is_empty());
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
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
    dead_letter(&mut sqs, &p.source, &["poison"]);
    let got = sqs.receive(&p.dlq, 1);
    assert_eq!(got[0]["Attributes"]["ApproximateReceiveCount"], "2");
}

#[test]
fn dlq_message_names_its_source_in_dead_letter_queue_source_arn() {
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
    dead_letter(&mut sqs, &p.source, &["poison"]);
    let got = receive(
        &mut sqs,
        &p.dlq,
        json!({ "MessageSystemAttributeNames": ["DeadLetterQueueSourceArn"] }),
    )
    .messages();
    assert_eq!(
        got[0]["Attributes"],
        json!({ "DeadLetterQueueSourceArn": p.source_arn })
    );
}

#[test]
fn fifo_source_moves_exhausted_messages_to_its_fifo_dlq_in_order() {
    let mut sqs = Sqs::new();
    let dlq = sqs.create("dead.fifo", json!({ "FifoQueue": "true" }));
    let dlq_arn = sqs.arn(&dlq);
    let source = sqs.create(
        "work.fifo",
        json!({ "FifoQueue": "true", "RedrivePolicy": redrive_policy(&dlq_arn, 1) }),
    );
    let source_arn = sqs.arn(&source);
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
    assert!(sqs.receive(&source, 10).is_empty());
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
fn long_poll_on_the_dlq_is_answered_the_moment_a_message_is_moved_there() {
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
    sqs.send(&p.source, "poison");
    receive(&mut sqs, &p.source, json!({ "VisibilityTimeout": 0 })).ok();
    let poll = sqs
        .start(
            "ReceiveMessage",
            json!({ "QueueUrl": p.dlq, "WaitTimeSeconds": 20 }),
        )
        .unwrap_err();
    sqs.advance(1_000);
    assert!(sqs.receive(&p.source, 1).is_empty());
    let answered = sqs.answered();
    assert_eq!(answered.len(), 1);
    assert_eq!(answered[0].0, poll);
    assert_eq!(answered[0].1.messages()[0]["Body"], "poison");
}

#[test]
fn moved_to_dead_letter_queue_is_logged() {
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
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

#[test]
fn redrive_policy_to_a_dlq_of_the_other_type_is_invalid_parameter_value() {
    let mut sqs = Sqs::new();
    let standard = sqs.create("dead", json!({}));
    let standard_arn = sqs.arn(&standard);
    let fifo = sqs.create("dead.fifo", json!({ "FifoQueue": "true" }));
    let fifo_arn = sqs.arn(&fifo);
    sqs.call(
        "CreateQueue",
        json!({ "QueueName": "work.fifo",
                "Attributes": { "FifoQueue": "true",
                                "RedrivePolicy": redrive_policy(&standard_arn, 3) } }),
    )
    .err("InvalidParameterValue");
    sqs.call(
        "CreateQueue",
        json!({ "QueueName": "work",
                "Attributes": { "RedrivePolicy": redrive_policy(&fifo_arn, 3) } }),
    )
    .err("InvalidParameterValue");
    let source = sqs.create("plain", json!({}));
    sqs.call(
        "SetQueueAttributes",
        json!({ "QueueUrl": source,
                "Attributes": { "RedrivePolicy": redrive_policy(&fifo_arn, 3) } }),
    )
    .err("InvalidParameterValue");
    assert_eq!(sqs.attribute(&source, "RedrivePolicy"), "");
}

#[test]
fn redrive_policy_to_a_missing_queue_is_invalid_parameter_value() {
    let mut sqs = Sqs::new();
    let source = sqs.create("work", json!({}));
    let missing = "arn:aws:sqs:us-east-1:000000000000:nowhere";
    sqs.call(
        "SetQueueAttributes",
        json!({ "QueueUrl": source,
                "Attributes": { "RedrivePolicy": redrive_policy(missing, 3) } }),
    )
    .err("InvalidParameterValue")
    .message_contains("does not exist");
    sqs.call(
        "CreateQueue",
        json!({ "QueueName": "other",
                "Attributes": { "RedrivePolicy": redrive_policy(missing, 3) } }),
    )
    .err("InvalidParameterValue");
}

#[test]
fn redrive_allow_policy_deny_all_rejects_every_source() {
    let mut sqs = Sqs::new();
    let dlq = sqs.create(
        "dead",
        json!({ "RedriveAllowPolicy": json!({ "redrivePermission": "denyAll" }).to_string() }),
    );
    let dlq_arn = sqs.arn(&dlq);
    sqs.call(
        "CreateQueue",
        json!({ "QueueName": "work",
                "Attributes": { "RedrivePolicy": redrive_policy(&dlq_arn, 3) } }),
    )
    .err("InvalidParameterValue");
    let source = sqs.create("other", json!({}));
    sqs.call(
        "SetQueueAttributes",
        json!({ "QueueUrl": source,
                "Attributes": { "RedrivePolicy": redrive_policy(&dlq_arn, 3) } }),
    )
    .err("InvalidParameterValue");
}

#[test]
fn redrive_allow_policy_by_queue_allows_only_the_listed_sources() {
    let mut sqs = Sqs::new();
    let allowed_arn = "arn:aws:sqs:us-east-1:000000000000:allowed";
    let allow = json!({ "redrivePermission": "byQueue", "sourceQueueArns": [allowed_arn] });
    let dlq = sqs.create("dead", json!({ "RedriveAllowPolicy": allow.to_string() }));
    let dlq_arn = sqs.arn(&dlq);
    sqs.create(
        "allowed",
        json!({ "RedrivePolicy": redrive_policy(&dlq_arn, 3) }),
    );
    sqs.call(
        "CreateQueue",
        json!({ "QueueName": "stranger",
                "Attributes": { "RedrivePolicy": redrive_policy(&dlq_arn, 3) } }),
    )
    .err("InvalidParameterValue");
    let stranger = sqs.create("stranger", json!({}));
    sqs.call(
        "SetQueueAttributes",
        json!({ "QueueUrl": stranger,
                "Attributes": { "RedrivePolicy": redrive_policy(&dlq_arn, 3) } }),
    )
    .err("InvalidParameterValue");
}

#[test]
fn redrive_allow_policy_allow_all_accepts_any_source() {
    let mut sqs = Sqs::new();
    let allow = json!({ "redrivePermission": "allowAll" });
    let dlq = sqs.create("dead", json!({ "RedriveAllowPolicy": allow.to_string() }));
    let dlq_arn = sqs.arn(&dlq);
    sqs.create(
        "work",
        json!({ "RedrivePolicy": redrive_policy(&dlq_arn, 3) }),
    );
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
    let dlq = sqs.create(&format!("dead{suffix}"), attributes);
    let dlq_arn = sqs.arn(&dlq);
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
    assert!(sqs.receive(&source, 1).is_empty());
    assert_eq!(visible(sqs, &dlq), "1");
    dlq
}

#[test]
fn standard_dlq_keeps_the_original_enqueue_time_for_retention() {
    let mut sqs = Sqs::new();
    let dlq = dead_letter_at_forty_seconds(&mut sqs, false);
    sqs.advance(19_999);
    assert_eq!(visible(&mut sqs, &dlq), "1");
    sqs.advance(1);
    assert_eq!(visible(&mut sqs, &dlq), "0");
}

#[test]
fn fifo_dlq_resets_the_enqueue_time_for_retention() {
    let mut sqs = Sqs::new();
    let dlq = dead_letter_at_forty_seconds(&mut sqs, true);
    sqs.advance(59_999);
    assert_eq!(visible(&mut sqs, &dlq), "1");
    sqs.advance(1);
    assert_eq!(visible(&mut sqs, &dlq), "0");
}

// ---------------------------------------------------------------------------
// ListDeadLetterSourceQueues
// ---------------------------------------------------------------------------

#[test]
fn list_dead_letter_source_queues_lists_the_queues_targeting_the_dlq() {
    let mut sqs = Sqs::new();
    let dlq = sqs.create("dead", json!({}));
    let dlq_arn = sqs.arn(&dlq);
    let b = sqs.create(
        "b-work",
        json!({ "RedrivePolicy": redrive_policy(&dlq_arn, 2) }),
    );
    let a = sqs.create(
        "a-work",
        json!({ "RedrivePolicy": redrive_policy(&dlq_arn, 5) }),
    );
    sqs.create("unrelated", json!({}));
    let body = sqs
        .call("ListDeadLetterSourceQueues", json!({ "QueueUrl": dlq }))
        .ok();
    assert_eq!(body["queueUrls"], json!([a, b]));
}

#[test]
fn list_dead_letter_source_queues_of_a_queue_without_sources_is_empty() {
    let mut sqs = Sqs::new();
    let lonely = sqs.create("lonely", json!({}));
    let body = sqs
        .call("ListDeadLetterSourceQueues", json!({ "QueueUrl": lonely }))
        .ok();
    assert_eq!(body["queueUrls"], json!([]));
}

// ---------------------------------------------------------------------------
// StartMessageMoveTask / ListMessageMoveTasks / CancelMessageMoveTask
// ---------------------------------------------------------------------------

#[test]
fn start_message_move_task_returns_a_task_handle() {
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
    dead_letter(&mut sqs, &p.source, &["a"]);
    let body = start_task(&mut sqs, json!({ "SourceArn": p.dlq_arn })).ok();
    assert!(!body["TaskHandle"].as_str().unwrap().is_empty());
}

#[test]
fn start_message_move_task_from_a_queue_that_is_not_a_dlq_is_invalid_parameter_value() {
    let mut sqs = Sqs::new();
    let plain = sqs.create("plain", json!({}));
    let arn = sqs.arn(&plain);
    let reply = start_task(&mut sqs, json!({ "SourceArn": arn }));
    reply.err("InvalidParameterValue");
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.message(),
        "Source queue must be configured as a Dead Letter Queue."
    );
}

#[test]
fn start_message_move_task_to_a_missing_destination_is_resource_not_found_404() {
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
    let reply = start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn,
                "DestinationArn": "arn:aws:sqs:us-east-1:000000000000:nowhere" }),
    );
    reply.err("ResourceNotFoundException");
    assert_eq!(reply.status, 404);
    assert_eq!(
        reply.message(),
        "The resource that you specified for the DestinationArn parameter doesn't exist."
    );
}

#[test]
fn start_message_move_task_rate_above_500_is_invalid_parameter_value() {
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
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
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
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
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
    dead_letter(&mut sqs, &p.source, &["a"]);
    start_task(&mut sqs, json!({ "SourceArn": p.dlq_arn })).ok();
    sqs.advance(10_000);
    assert_eq!(latest_task(&mut sqs, &p.dlq_arn)["Status"], "COMPLETED");
    start_task(&mut sqs, json!({ "SourceArn": p.dlq_arn })).ok();
}

#[test]
fn move_task_without_destination_returns_each_message_to_its_own_source() {
    let mut sqs = Sqs::new();
    let dlq = sqs.create("dead", json!({}));
    let dlq_arn = sqs.arn(&dlq);
    let first = sqs.create(
        "first",
        json!({ "RedrivePolicy": redrive_policy(&dlq_arn, 1) }),
    );
    let second = sqs.create(
        "second",
        json!({ "RedrivePolicy": redrive_policy(&dlq_arn, 1) }),
    );
    dead_letter(&mut sqs, &first, &["from-first"]);
    dead_letter(&mut sqs, &second, &["from-second-1", "from-second-2"]);
    assert_eq!(visible(&mut sqs, &dlq), "3");
    start_task(&mut sqs, json!({ "SourceArn": dlq_arn })).ok();
    sqs.advance(1_000);
    assert_eq!(visible(&mut sqs, &dlq), "0");
    assert_eq!(sqs.receive_bodies(&first, 10), ["from-first"]);
    let mut bodies = sqs.receive_bodies(&second, 10);
    bodies.sort();
    assert_eq!(bodies, ["from-second-1", "from-second-2"]);
}

#[test]
fn move_task_moves_messages_to_the_destination_arn_when_given() {
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
    let elsewhere = sqs.create("elsewhere", json!({}));
    let elsewhere_arn = sqs.arn(&elsewhere);
    dead_letter(&mut sqs, &p.source, &["a", "b"]);
    start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn, "DestinationArn": elsewhere_arn }),
    )
    .ok();
    sqs.advance(1_000);
    assert_eq!(visible(&mut sqs, &p.dlq), "0");
    assert_eq!(visible(&mut sqs, &p.source), "0");
    let mut bodies = sqs.receive_bodies(&elsewhere, 10);
    bodies.sort();
    assert_eq!(bodies, ["a", "b"]);
}

#[test]
fn move_task_runs_in_virtual_time_at_max_number_of_messages_per_second() {
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
    dead_letter(&mut sqs, &p.source, &["1", "2", "3", "4", "5", "6"]);
    start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn, "MaxNumberOfMessagesPerSecond": 2 }),
    )
    .ok();
    assert_eq!(
        latest_task(&mut sqs, &p.dlq_arn)["ApproximateNumberOfMessagesMoved"],
        0
    );
    sqs.advance(1_000);
    assert_eq!(
        latest_task(&mut sqs, &p.dlq_arn)["ApproximateNumberOfMessagesMoved"],
        2
    );
    assert_eq!(visible(&mut sqs, &p.source), "2");
    assert_eq!(visible(&mut sqs, &p.dlq), "4");
    sqs.advance(1_000);
    assert_eq!(
        latest_task(&mut sqs, &p.dlq_arn)["ApproximateNumberOfMessagesMoved"],
        4
    );
    sqs.advance(1_000);
    assert_eq!(
        latest_task(&mut sqs, &p.dlq_arn)["ApproximateNumberOfMessagesMoved"],
        6
    );
    assert_eq!(visible(&mut sqs, &p.source), "6");
    assert_eq!(visible(&mut sqs, &p.dlq), "0");
}

#[test]
fn move_task_status_is_completed_when_every_message_moved() {
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
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
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
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
        keys(&task),
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
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
    dead_letter(&mut sqs, &p.source, &["a"]);
    start_task(&mut sqs, json!({ "SourceArn": p.dlq_arn })).ok();
    let task = latest_task(&mut sqs, &p.dlq_arn);
    assert!(task.get("DestinationArn").is_none(), "{task}");
    assert!(task.get("MaxNumberOfMessagesPerSecond").is_none(), "{task}");
}

#[test]
fn cancel_message_move_task_stops_the_task_and_answers_the_number_moved() {
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
    dead_letter(&mut sqs, &p.source, &["1", "2", "3", "4", "5"]);
    let handle = start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn, "MaxNumberOfMessagesPerSecond": 1 }),
    )
    .ok()["TaskHandle"]
        .clone();
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
fn cancel_message_move_task_with_a_garbage_handle_is_invalid_parameter_value() {
    let mut sqs = Sqs::new();
    let reply = sqs.call("CancelMessageMoveTask", json!({ "TaskHandle": "garbage" }));
    reply.err("InvalidParameterValue");
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.message(),
        "Value for parameter TaskHandle is invalid."
    );
}

#[test]
fn move_task_fails_with_a_failure_reason_when_its_destination_is_deleted() {
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
    let elsewhere = sqs.create("elsewhere", json!({}));
    let elsewhere_arn = sqs.arn(&elsewhere);
    dead_letter(&mut sqs, &p.source, &["1", "2", "3"]);
    start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn, "DestinationArn": elsewhere_arn,
                "MaxNumberOfMessagesPerSecond": 1 }),
    )
    .ok();
    sqs.advance(1_500);
    sqs.call("DeleteQueue", json!({ "QueueUrl": elsewhere }))
        .ok();
    sqs.advance(5_000);
    let task = latest_task(&mut sqs, &p.dlq_arn);
    assert_eq!(task["Status"], "FAILED");
    assert!(
        !task["FailureReason"].as_str().unwrap_or("").is_empty(),
        "{task}"
    );
    assert_eq!(task["ApproximateNumberOfMessagesMoved"], 1);
    assert!(task.get("TaskHandle").is_none(), "{task}");
    assert_eq!(visible(&mut sqs, &p.dlq), "2");
}

#[test]
fn move_task_fails_with_a_failure_reason_when_the_original_source_is_deleted() {
    let mut sqs = Sqs::new();
    let p = pair(&mut sqs);
    dead_letter(&mut sqs, &p.source, &["1", "2", "3"]);
    start_task(
        &mut sqs,
        json!({ "SourceArn": p.dlq_arn, "MaxNumberOfMessagesPerSecond": 1 }),
    )
    .ok();
    sqs.advance(1_500);
    sqs.call("DeleteQueue", json!({ "QueueUrl": p.source }))
        .ok();
    sqs.advance(5_000);
    let task = latest_task(&mut sqs, &p.dlq_arn);
    assert_eq!(task["Status"], "FAILED");
    assert!(
        !task["FailureReason"].as_str().unwrap_or("").is_empty(),
        "{task}"
    );
    assert_eq!(task["ApproximateNumberOfMessagesMoved"], 1);
    assert_eq!(visible(&mut sqs, &p.dlq), "2");
}

#[test]
fn redrive_policy_whose_chain_leads_back_to_the_source_is_rejected() {
    let mut sqs = Sqs::new();
    let a = sqs.create("a", json!({}));
    let a_arn = sqs.arn(&a);
    let b = sqs.create("b", json!({ "RedrivePolicy": redrive_policy(&a_arn, 1) }));
    let b_arn = sqs.arn(&b);
    sqs.call(
        "SetQueueAttributes",
        json!({ "QueueUrl": a, "Attributes": { "RedrivePolicy": redrive_policy(&b_arn, 1) } }),
    )
    .err("InvalidParameterValue")
    .message_contains("leads back to this queue");
    sqs.call(
        "SetQueueAttributes",
        json!({ "QueueUrl": a, "Attributes": { "RedrivePolicy": redrive_policy(&a_arn, 1) } }),
    )
    .err("InvalidParameterValue");
}

#[test]
fn a_redrive_cycle_closed_by_recreating_a_queue_never_hangs() {
    // a -> b is set while b exists; b is then deleted and recreated with
    // b -> a, which no check can see. Waiting polls on both must not make
    // the message bounce forever within one call.
    let mut sqs = Sqs::new();
    let b = sqs.create("b", json!({}));
    let b_arn = sqs.arn(&b);
    let a = sqs.create(
        "a",
        json!({ "RedrivePolicy": redrive_policy(&b_arn, 1), "VisibilityTimeout": "1" }),
    );
    let a_arn = sqs.arn(&a);
    sqs.call("DeleteQueue", json!({ "QueueUrl": b })).ok();
    sqs.advance(61_000);
    let b = sqs.create(
        "b",
        json!({ "RedrivePolicy": redrive_policy(&a_arn, 1), "VisibilityTimeout": "1" }),
    );
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
