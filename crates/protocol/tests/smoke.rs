mod common;
use common::Sqs;
use serde_json::json;

#[test]
fn send_receive_delete_round_trip() {
    let mut sqs = Sqs::new();
    let url = sqs.create("orders", json!({}));
    let sent = sqs.send(&url, "hello");
    assert_eq!(sent["MD5OfMessageBody"], "5d41402abc4b2a76b9719d911017c592");
    let got = sqs.receive(&url, 10);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["MessageId"], sent["MessageId"]);
    assert_eq!(got[0]["Attributes"]["ApproximateReceiveCount"], "1");
    sqs.delete(&url, &got[0]["ReceiptHandle"]).ok();
    assert_eq!(sqs.attribute(&url, "ApproximateNumberOfMessages"), "0");
    assert_eq!(
        sqs.attribute(&url, "ApproximateNumberOfMessagesNotVisible"),
        "0"
    );
}

#[test]
fn virtual_time_stops_at_the_javascript_safe_integer_and_nothing_overflows() {
    let mut sqs = Sqs::new();
    let url = sqs.create(
        "far",
        json!({ "VisibilityTimeout": "43200", "DelaySeconds": "900" }),
    );
    sqs.advance(u64::MAX);
    assert_eq!(sqs.engine.now(), (1 << 53) - 1);
    sqs.advance(u64::MAX);
    sqs.send(&url, "still works");
    let _ = sqs.start(
        "ReceiveMessage",
        json!({ "QueueUrl": url, "WaitTimeSeconds": 20 }),
    );
    sqs.advance(1);
    assert_eq!(sqs.engine.now(), (1 << 53) - 1);
}
