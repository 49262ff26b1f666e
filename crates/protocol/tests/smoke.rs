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
