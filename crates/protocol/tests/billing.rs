//! The billing meter seen through the JSON protocol, as an SDK's calls
//! reach it: a SendMessageBatch of 10 entries is one request, and a
//! message of 100 KiB is two (each started 64 KiB chunk is one).

mod common;
use common::Sqs;
use serde_json::json;

fn billed(sqs: &Sqs) -> u64 {
    sqs.engine.meter().requests(|_| true)
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
