//! The engine's budgets (README, "Limits and budgets"): stored bytes,
//! stored messages and queues. Past one, an SQS call answers `OverLimit`
//! naming the budget and the option that raises it, and the engine keeps
//! working. Values repeated in error messages are bounded.

mod common;
use common::Sqs;
use queuelab_engine::{Config, MAX_ECHO_CHARS};
use serde_json::json;

const KIB: usize = 1024;

fn budget(config: Config) -> (Sqs, String) {
    let mut sqs = Sqs::with(config);
    let url = sqs.create("orders", json!({}));
    (sqs, url)
}

fn send(sqs: &mut Sqs, url: &str, body: &str) -> common::Reply {
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": body }),
    )
}

#[test]
fn sending_past_the_storage_budget_answers_over_limit_naming_max_stored_bytes() {
    let (mut sqs, url) = budget(Config {
        max_stored_bytes: 10 * KIB as u64,
        ..Config::default()
    });
    let body = "x".repeat(4 * KIB);
    send(&mut sqs, &url, &body).ok();
    send(&mut sqs, &url, &body).ok();
    let refused = send(&mut sqs, &url, &body);
    refused.err("OverLimit").message_contains("maxStoredBytes");
    assert_eq!(refused.status, 403);
    // A smaller message still fits, and the queue holds what it accepted.
    send(&mut sqs, &url, &"y".repeat(KIB)).ok();
    assert_eq!(sqs.attribute(&url, "ApproximateNumberOfMessages"), "3");
}

#[test]
fn deleting_messages_gives_their_bytes_back_to_the_storage_budget() {
    let (mut sqs, url) = budget(Config {
        max_stored_bytes: 5 * KIB as u64,
        ..Config::default()
    });
    let body = "x".repeat(4 * KIB);
    send(&mut sqs, &url, &body).ok();
    send(&mut sqs, &url, &body).err("OverLimit");
    let received = sqs.receive(&url, 1);
    let handle = received[0]["ReceiptHandle"].as_str().unwrap();
    sqs.call(
        "DeleteMessage",
        json!({ "QueueUrl": url, "ReceiptHandle": handle }),
    )
    .ok();
    send(&mut sqs, &url, &body).ok();
    // Purging and deleting the queue give the bytes back too.
    sqs.call("PurgeQueue", json!({ "QueueUrl": url })).ok();
    send(&mut sqs, &url, &body).ok();
    sqs.call("DeleteQueue", json!({ "QueueUrl": url })).ok();
    let other = sqs.create("other", json!({}));
    send(&mut sqs, &other, &body).ok();
    assert_eq!(sqs.engine.stored(), (4 * KIB as u64, 1));
}

#[test]
fn sending_past_the_message_budget_answers_over_limit_naming_max_stored_messages() {
    let (mut sqs, url) = budget(Config {
        max_stored_messages: 3,
        ..Config::default()
    });
    for n in 0..3 {
        send(&mut sqs, &url, &format!("m{n}")).ok();
    }
    send(&mut sqs, &url, "m3")
        .err("OverLimit")
        .message_contains("maxStoredMessages");
    // In a batch, only the entries past the budget fail.
    sqs.receive(&url, 1);
    let entries: Vec<_> = (0..3)
        .map(|n| json!({ "Id": format!("e{n}"), "MessageBody": "b" }))
        .collect();
    let batch = sqs
        .call(
            "SendMessageBatch",
            json!({ "QueueUrl": url, "Entries": entries }),
        )
        .ok();
    assert!(batch.get("Successful").is_none(), "{batch}");
    let failed = batch["Failed"].as_array().unwrap();
    assert_eq!(failed.len(), 3, "{batch}");
    assert_eq!(failed[0]["Code"], "OverLimit");
}

#[test]
fn creating_past_the_queue_budget_answers_over_limit_naming_max_queues() {
    let mut sqs = Sqs::with(Config {
        max_queues: 2,
        ..Config::default()
    });
    sqs.create("a", json!({}));
    let b = sqs.create("b", json!({}));
    sqs.call("CreateQueue", json!({ "QueueName": "c" }))
        .err("OverLimit")
        .message_contains("maxQueues");
    // Asking again for an existing queue is not a new queue.
    sqs.call("CreateQueue", json!({ "QueueName": "a" })).ok();
    sqs.call("DeleteQueue", json!({ "QueueUrl": b })).ok();
    sqs.create("c", json!({}));
}

/// The CreateQueue with a 300-million-character name copied the
/// name into its refusal; a few million characters show the same.
#[test]
fn create_queue_with_a_huge_name_echoes_a_bounded_name() {
    let mut sqs = Sqs::new();
    let name = "n".repeat(3_000_000);
    let reply = sqs.call("CreateQueue", json!({ "QueueName": name }));
    // AWS's refusal does not repeat the name at all.
    reply.rejected(
        400,
        "InvalidParameterValue",
        "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length",
    );
    // A name that is also not a queue name is not an address either.
    let reply = sqs.call(
        "SendMessage",
        json!({ "QueueUrl": name, "MessageBody": "x" }),
    );
    reply.err("InvalidAddress");
    let echoed = format!("The address {}… is", "n".repeat(MAX_ECHO_CHARS));
    reply.message_contains(&echoed);
    assert!(reply.message().len() < MAX_ECHO_CHARS + 100);
}

#[test]
fn errors_echo_bounded_attribute_names_and_values() {
    let (mut sqs, url) = budget(Config::default());
    let long = "v".repeat(100_000);
    let attribute = sqs.call(
        "SetQueueAttributes",
        json!({ "QueueUrl": url, "Attributes": { "DelaySeconds": long } }),
    );
    attribute.err("InvalidAttributeValue");
    let bound = MAX_ECHO_CHARS + 200;
    assert!(attribute.message().len() < bound, "{}", attribute.message());
    let unknown = sqs.call(
        "GetQueueAttributes",
        json!({ "QueueUrl": url, "AttributeNames": [long] }),
    );
    assert!(unknown.message().len() < bound, "{}", unknown.message());
    let attr_name = sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "x",
                "MessageAttributes": { long.clone(): { "DataType": "String", "StringValue": "v" } } }),
    );
    attr_name.err("InvalidParameterValue");
    assert!(attr_name.message().len() < bound, "{}", attr_name.message());
}
