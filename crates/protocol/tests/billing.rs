//! The billing meter seen through the JSON protocol, as an SDK's calls
//! reach it: a SendMessageBatch of 10 entries is one request, and a
//! message of 100 KiB is two (each started 64 KiB chunk is one).

mod common;
use common::Sqs;
use serde_json::json;

/// The requests billed after the test's queue was made (its CreateQueue
/// is one request too: SQS bills every action).
fn billed(sqs: &Sqs) -> u64 {
    sqs.engine.meter().requests(|_| true) - 1
}

#[test]
fn a_send_message_batch_of_ten_is_billed_as_one_request() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let entries: Vec<_> = (0..10)
        .map(|i| json!({ "Id": format!("m{i}"), "MessageBody": format!("order A-100{i}") }))
        .collect();
    let body = sqs
        .call(
            "SendMessageBatch",
            json!({ "QueueUrl": url, "Entries": entries }),
        )
        .ok();
    assert_eq!(body["Successful"].as_array().map(Vec::len), Some(10));
    assert_eq!(billed(&sqs), 1);
}

#[test]
fn a_message_of_100_kib_is_billed_as_two_requests() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let body = "x".repeat(100 * 1024);
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": body }),
    )
    .ok();
    assert_eq!(billed(&sqs), 2);
    // A receive is one more: the bytes it returns are not billed (billing.rs).
    sqs.call(
        "ReceiveMessage",
        json!({ "QueueUrl": url, "WaitTimeSeconds": 0, "MaxNumberOfMessages": 10 }),
    )
    .ok();
    assert_eq!(billed(&sqs), 3);
}

/// The calls metered after the test's queue was made.
fn calls(sqs: &Sqs) -> u64 {
    sqs.engine
        .meter()
        .lines()
        .map(|(_, t)| t.calls)
        .sum::<u64>()
        - 1
}

/// The gate meters a call once its queue resolves, before the operation
/// runs: a SendMessage the engine refuses (a body of 1,100 KiB, past the
/// queue's 1 MiB limit) is still billed, once, with its payload's 18
/// chunks of 64 KiB; so is a delete with a handle that is no receipt.
#[test]
fn a_failing_send_message_to_an_existing_queue_is_billed_once() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let body = "x".repeat(1_100 * 1024);
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": body }),
    )
    .err("InvalidParameterValue");
    assert_eq!((calls(&sqs), billed(&sqs)), (1, 18));
    sqs.call(
        "DeleteMessage",
        json!({ "QueueUrl": url, "ReceiptHandle": "not-a-handle" }),
    )
    .err("ReceiptHandleIsInvalid");
    assert_eq!((calls(&sqs), billed(&sqs)), (2, 19));
}

/// Management calls go through the same gate, and each is billed as one
/// request: "every Amazon SQS action counts as a request".
#[test]
fn management_calls_are_billed_as_a_request_each() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.call(
        "GetQueueAttributes",
        json!({ "QueueUrl": url, "AttributeNames": ["All"] }),
    )
    .ok();
    sqs.call("ListQueues", json!({})).ok();
    sqs.call(
        "TagQueue",
        json!({ "QueueUrl": url, "Tags": { "team": "shop" } }),
    )
    .ok();
    sqs.call("PurgeQueue", json!({ "QueueUrl": url })).ok();
    sqs.call("DeleteQueue", json!({ "QueueUrl": url })).ok();
    assert_eq!((calls(&sqs), billed(&sqs)), (5, 5));
}
