//! Server-side encryption through the protocol: SSE-SQS by default, SSE-KMS
//! with a key from the engine's registry, the `KMS.*` errors of a key SQS
//! cannot use, and the KMS requests SQS makes per data-key reuse period.

mod common;

use common::Sqs;
use queuelab_engine::{
    billing::PRICE_NANO_USD_KMS, EventKind, KeyState, KmsApi, KmsRequests, Principal,
};
use queuelab_protocol::{dispatch_as, Dispatched};
use serde_json::{json, Value};

/// A queue policy that lets anyone send and receive: these tests see what
/// the key's policy decides, past the queue's.
fn open_to_everyone() -> Value {
    json!(json!({
        "Version": "2012-10-17",
        "Statement": [{ "Sid": "Everyone", "Effect": "Allow", "Principal": "*",
                        "Action": ["sqs:SendMessage", "sqs:ReceiveMessage"], "Resource": "*" }],
    })
    .to_string())
}

/// A queue encrypted with a new key `alias/orders` whose policy allows
/// `allow`, and whose queue policy lets anyone send and receive.
fn kms_queue(allow: &[&str], attributes: Value) -> (Sqs, String) {
    let mut sqs = Sqs::new();
    let allow: Vec<String> = allow.iter().map(|s| s.to_string()).collect();
    sqs.engine
        .create_key(&["alias/orders".to_string()], &allow)
        .unwrap();
    let mut attributes = attributes;
    attributes["KmsMasterKeyId"] = json!("alias/orders");
    attributes["Policy"] = open_to_everyone();
    let url = sqs.create("orders", attributes);
    (sqs, url)
}

/// A call made as `by`, which must answer at once.
fn call_by(sqs: &mut Sqs, by: &Principal, operation: &str, body: Value) -> common::Reply {
    let target = format!("AmazonSQS.{operation}");
    match dispatch_as(&mut sqs.engine, &target, &body.to_string(), by) {
        Dispatched::Done(response) => common::Reply {
            status: response.status,
            body: response.json(),
            response,
        },
        Dispatched::Waiting(poll) => panic!("{operation} waits (poll {poll})"),
    }
}

fn send_by(sqs: &mut Sqs, by: &Principal, url: &str) -> common::Reply {
    call_by(
        sqs,
        by,
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "order" }),
    )
}

fn receive_by(sqs: &mut Sqs, by: &Principal, url: &str) -> common::Reply {
    call_by(
        sqs,
        by,
        "ReceiveMessage",
        json!({ "QueueUrl": url, "MaxNumberOfMessages": 10, "VisibilityTimeout": 0 }),
    )
}

fn counted(sqs: &Sqs) -> KmsRequests {
    sqs.engine.snapshot().queues[0].kms_requests
}

fn requests(generate_data_key: u64, decrypt: u64) -> KmsRequests {
    KmsRequests {
        generate_data_key,
        decrypt,
    }
}

#[test]
fn a_new_queue_is_encrypted_with_sse_sqs_and_lists_no_kms_attributes() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    assert_eq!(sqs.attribute(&url, "SqsManagedSseEnabled"), "true");
    assert_eq!(sqs.attribute(&url, "KmsMasterKeyId"), "");
    assert_eq!(sqs.attribute(&url, "KmsDataKeyReusePeriodSeconds"), "");
    let queue = &sqs.engine.snapshot().queues[0];
    assert_eq!(queue.encryption, "sse-sqs");
    assert_eq!(queue.kms_key, None);
}

#[test]
fn a_kms_queue_lists_its_key_as_given_and_a_reuse_period_of_300_seconds() {
    let (mut sqs, url) = kms_queue(&[], json!({}));
    assert_eq!(sqs.attribute(&url, "KmsMasterKeyId"), "alias/orders");
    assert_eq!(sqs.attribute(&url, "KmsDataKeyReusePeriodSeconds"), "300");
    assert_eq!(sqs.attribute(&url, "SqsManagedSseEnabled"), "false");
    let queue = &sqs.engine.snapshot().queues[0];
    assert_eq!(queue.encryption, "sse-kms");
    assert_eq!(queue.kms_key.as_deref(), Some("alias/orders"));
    assert_eq!(queue.kms_data_key_reuse_period_seconds, Some(300));
}

#[test]
fn a_queue_without_either_encryption_is_unencrypted() {
    let (sqs, _) = Sqs::with_queue("plain", json!({ "SqsManagedSseEnabled": "false" }));
    assert_eq!(sqs.engine.snapshot().queues[0].encryption, "none");
}

#[test]
fn kms_and_sqs_managed_encryption_at_once_are_refused() {
    let mut sqs = Sqs::new();
    sqs.create_reply(
        "orders",
        json!({ "KmsMasterKeyId": "alias/aws/sqs", "SqsManagedSseEnabled": "true" }),
    )
    .err("InvalidAttributeName")
    .message_contains("one type of server-side encryption");
}

#[test]
fn the_data_key_reuse_period_is_60_to_86400_seconds() {
    let (mut sqs, url) = kms_queue(&[], json!({}));
    for bad in ["59", "86401"] {
        sqs.set_attributes(&url, json!({ "KmsDataKeyReusePeriodSeconds": bad }))
            .err("InvalidAttributeValue")
            .message_contains("KmsDataKeyReusePeriodSeconds");
    }
    for good in ["60", "86400"] {
        sqs.set_attributes(&url, json!({ "KmsDataKeyReusePeriodSeconds": good }))
            .ok();
        assert_eq!(sqs.attribute(&url, "KmsDataKeyReusePeriodSeconds"), good);
    }
}

#[test]
fn a_key_that_does_not_exist_is_accepted_and_sends_fail_with_kms_not_found() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.set_attributes(&url, json!({ "KmsMasterKeyId": "alias/missing" }))
        .ok();
    let reply = sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "x" }),
    );
    reply
        .err("KMS.NotFoundException")
        .message_contains("Alias arn:aws:kms:us-east-1:000000000000:alias/missing is not found.");
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.body["__type"], "com.amazonaws.sqs#KmsNotFound",
        "{:?}",
        reply.body
    );
    sqs.call(
        "ReceiveMessage",
        json!({ "QueueUrl": url, "WaitTimeSeconds": 0 }),
    )
    .err("KMS.NotFoundException");
    sqs.set_attributes(&url, json!({ "KmsMasterKeyId": "testKeyId" }))
        .ok();
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "x" }),
    )
    .err("KMS.NotFoundException")
    .message_contains("Invalid keyId testKeyId");
}

#[test]
fn a_disabled_key_fails_sends_and_receives_with_kms_disabled() {
    let (mut sqs, url) = kms_queue(&[], json!({}));
    sqs.send(&url, "before");
    sqs.engine
        .set_key_state("alias/orders", KeyState::Disabled)
        .unwrap();
    let arn = sqs.engine.kms_key("alias/orders").unwrap().arn.to_string();
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "x" }),
    )
    .err("KMS.DisabledException")
    .message_contains(&format!("{arn} is disabled."));
    sqs.call(
        "ReceiveMessage",
        json!({ "QueueUrl": url, "WaitTimeSeconds": 0 }),
    )
    .err("KMS.DisabledException");
    sqs.call(
        "SendMessageBatch",
        json!({ "QueueUrl": url, "Entries": [{ "Id": "a", "MessageBody": "x" }] }),
    )
    .err("KMS.DisabledException");
    assert_eq!(sqs.attribute(&url, "ApproximateNumberOfMessages"), "1");
    sqs.engine
        .set_key_state("alias/orders", KeyState::Enabled)
        .unwrap();
    sqs.send(&url, "after");
    assert_eq!(sqs.receive_bodies(&url, 10).len(), 2);
}

#[test]
fn a_key_pending_deletion_fails_sends_and_receives_with_kms_invalid_state() {
    let (mut sqs, url) = kms_queue(&[], json!({}));
    sqs.engine
        .set_key_state("alias/orders", KeyState::PendingDeletion)
        .unwrap();
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "x" }),
    )
    .err("KMS.InvalidStateException")
    .message_contains("is pending deletion.");
    sqs.call(
        "ReceiveMessage",
        json!({ "QueueUrl": url, "WaitTimeSeconds": 0 }),
    )
    .err("KMS.InvalidStateException");
}

#[test]
fn generate_data_key_is_counted_once_per_reuse_period_per_principal() {
    let (mut sqs, url) = kms_queue(&["111111111111"], json!({}));
    for _ in 0..5 {
        sqs.send(&url, "order");
    }
    // The first send: GenerateDataKey, and Decrypt to verify the new key.
    assert_eq!(counted(&sqs), requests(1, 1));
    sqs.advance(299_999);
    sqs.send(&url, "order");
    assert_eq!(counted(&sqs), requests(1, 1));
    sqs.advance(1);
    sqs.send(&url, "order");
    assert_eq!(counted(&sqs), requests(2, 2));
    // Principals do not share data keys.
    let partner = Principal::account("111111111111").unwrap();
    send_by(&mut sqs, &partner, &url).ok();
    send_by(&mut sqs, &partner, &url).ok();
    assert_eq!(counted(&sqs), requests(3, 3));
}

#[test]
fn a_shorter_reuse_period_makes_more_kms_requests() {
    let (mut sqs, url) = kms_queue(&[], json!({ "KmsDataKeyReusePeriodSeconds": "60" }));
    for _ in 0..10 {
        sqs.send(&url, "order");
        sqs.advance(30_000);
    }
    // 300 s of sends, one a 30 s: a new data key every 60 s.
    assert_eq!(counted(&sqs), requests(5, 5));
}

#[test]
fn decrypt_is_counted_once_per_reuse_period_per_principal_and_data_key() {
    let (mut sqs, url) = kms_queue(&["111111111111"], json!({}));
    sqs.send(&url, "a");
    sqs.send(&url, "b");
    let partner = Principal::account("111111111111").unwrap();
    send_by(&mut sqs, &partner, &url).ok();
    assert_eq!(counted(&sqs), requests(2, 2));
    // Two data keys among the three messages: two Decrypts for this receiver.
    let owner = Principal::owner();
    assert_eq!(receive_by(&mut sqs, &owner, &url).messages().len(), 3);
    assert_eq!(counted(&sqs), requests(2, 4));
    // Received again within the period: no new request.
    receive_by(&mut sqs, &owner, &url).messages();
    assert_eq!(counted(&sqs), requests(2, 4));
    // Another principal decrypts for itself.
    assert_eq!(receive_by(&mut sqs, &partner, &url).messages().len(), 3);
    assert_eq!(counted(&sqs), requests(2, 6));
    // Once the period is over, the receiver decrypts the data keys again.
    sqs.advance(300_000);
    receive_by(&mut sqs, &owner, &url).messages();
    assert_eq!(counted(&sqs), requests(2, 8));
}

#[test]
fn a_service_the_key_policy_does_not_allow_is_refused_with_kms_access_denied() {
    let sns = Principal::service(
        "sns.amazonaws.com",
        Some("arn:aws:sns:us-east-1:000000000000:orders-topic"),
        Some("000000000000"),
    )
    .unwrap();
    let (mut sqs, url) = kms_queue(&[], json!({}));
    send_by(&mut sqs, &sns, &url)
        .err("KMS.AccessDeniedException")
        .message_contains(
            "User: sns.amazonaws.com is not authorized to perform: kms:GenerateDataKey",
        );
    let (mut sqs, url) = kms_queue(&["sns.amazonaws.com"], json!({}));
    send_by(&mut sqs, &sns, &url).ok();
    assert_eq!(counted(&sqs), requests(1, 1));
}

#[test]
fn another_account_the_key_policy_does_not_allow_cannot_receive() {
    let (mut sqs, url) = kms_queue(&[], json!({}));
    sqs.send(&url, "order");
    let partner = Principal::account("111111111111").unwrap();
    receive_by(&mut sqs, &partner, &url)
        .err("KMS.AccessDeniedException")
        .message_contains("The ciphertext refers to a customer master key");
}

#[test]
fn the_aws_managed_key_refuses_services_and_other_accounts() {
    let mut sqs = Sqs::new();
    let url = sqs.create(
        "orders",
        json!({ "KmsMasterKeyId": "alias/aws/sqs", "Policy": open_to_everyone() }),
    );
    let s3 = Principal::service(
        "s3.amazonaws.com",
        Some("arn:aws:s3:::uploads"),
        Some("000000000000"),
    )
    .unwrap();
    send_by(&mut sqs, &s3, &url).err("KMS.AccessDeniedException");
    let partner = Principal::account("111111111111").unwrap();
    send_by(&mut sqs, &partner, &url).err("KMS.AccessDeniedException");
    sqs.send(&url, "the owner may");
    assert!(sqs
        .engine
        .set_key_state("alias/aws/sqs", KeyState::Disabled)
        .is_err());
}

#[test]
fn a_key_is_found_by_its_id_arn_alias_and_alias_arn() {
    let mut sqs = Sqs::new();
    let key = sqs
        .engine
        .create_key(&["alias/orders".to_string()], &[])
        .unwrap();
    assert!(key
        .arn
        .starts_with("arn:aws:kms:us-east-1:000000000000:key/"));
    let names = [
        key.id.clone(),
        key.arn.to_string(),
        "alias/orders".to_string(),
        "arn:aws:kms:us-east-1:000000000000:alias/orders".to_string(),
    ];
    for name in &names {
        assert_eq!(
            sqs.engine.kms_key(name).map(|k| &k.id),
            Some(&key.id),
            "{name}"
        );
    }
    assert!(sqs
        .engine
        .kms_key("arn:aws:kms:eu-west-1:000000000000:alias/orders")
        .is_none());
    assert!(sqs.engine.kms_key("alias/aws/sqs").unwrap().managed);
    // Each way of naming it works as a queue's KmsMasterKeyId.
    for (i, name) in names.iter().enumerate() {
        let url = sqs.create(&format!("q{i}"), json!({ "KmsMasterKeyId": name }));
        sqs.send(&url, "x");
    }
}

#[test]
fn bad_keys_are_refused_when_made_naming_what_is_wrong() {
    let mut sqs = Sqs::new();
    let err = |sqs: &mut Sqs, aliases: &[&str], allow: &[&str]| {
        let aliases: Vec<String> = aliases.iter().map(|s| s.to_string()).collect();
        let allow: Vec<String> = allow.iter().map(|s| s.to_string()).collect();
        sqs.engine.create_key(&aliases, &allow).unwrap_err()
    };
    assert!(err(&mut sqs, &["orders"], &[]).contains("alias/"));
    assert!(err(&mut sqs, &["alias/aws/orders"], &[]).contains("alias/aws/"));
    assert!(err(&mut sqs, &["alias/aws/sqs"], &[]).contains("alias/aws/"));
    assert!(err(&mut sqs, &["alias/o"], &["lambda.amazonaws.com"]).contains("lambda.amazonaws.com"));
    sqs.engine
        .create_key(&["alias/o".to_string()], &[])
        .unwrap();
    assert!(err(&mut sqs, &["alias/o"], &[]).contains("already names a key"));
    assert!(sqs
        .engine
        .set_key_state("alias/nothing", KeyState::Disabled)
        .unwrap_err()
        .contains("alias/nothing"));
}

#[test]
fn kms_requests_are_events_and_billed_at_kms_price() {
    let (mut sqs, url) = kms_queue(&[], json!({}));
    sqs.call_as(
        Some("producer"),
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "x" }),
    )
    .ok();
    let arn = sqs.engine.kms_key("alias/orders").unwrap().arn.clone();
    let apis: Vec<KmsApi> = sqs
        .kinds()
        .into_iter()
        .filter_map(|kind| match kind {
            EventKind::KmsRequested { api, key, by, .. } => {
                assert_eq!(key, arn);
                assert_eq!(by.as_deref(), Some("producer"));
                Some(api)
            }
            _ => None,
        })
        .collect();
    assert_eq!(apis, [KmsApi::GenerateDataKey, KmsApi::Decrypt]);
    let meter = sqs.engine.meter();
    assert_eq!(meter.kms_requests(|_| true), 2);
    assert_eq!(PRICE_NANO_USD_KMS, 3_000, "$0.03 per 10,000 requests");
}

#[test]
fn an_sse_sqs_queue_makes_no_kms_requests() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.send(&url, "x");
    sqs.receive(&url, 1);
    assert_eq!(counted(&sqs), requests(0, 0));
    assert_eq!(sqs.engine.meter().kms_requests(|_| true), 0);
}

#[test]
fn a_waiting_long_poll_decrypts_the_message_that_arrives() {
    let (mut sqs, url) = kms_queue(&[], json!({}));
    let poll = sqs
        .start(
            "ReceiveMessage",
            json!({ "QueueUrl": url, "WaitTimeSeconds": 20 }),
        )
        .expect_err("nothing to receive yet: the poll waits");
    assert_eq!(counted(&sqs), requests(0, 0));
    sqs.send(&url, "order");
    let answered = sqs.answered();
    assert_eq!(answered.len(), 1);
    assert_eq!(answered[0].0, poll);
    assert_eq!(answered[0].1.messages().len(), 1);
    // The send's GenerateDataKey and Decrypt, then the poll's Decrypt.
    assert_eq!(counted(&sqs), requests(1, 2));
}

#[test]
fn a_message_moved_to_a_dead_letter_queue_keeps_its_data_key() {
    let mut sqs = Sqs::new();
    sqs.engine
        .create_key(&["alias/orders".to_string()], &[])
        .unwrap();
    let (_, dlq_arn) = sqs.create_with_arn("dlq", json!({}));
    let policy = json!({ "deadLetterTargetArn": dlq_arn, "maxReceiveCount": 1 }).to_string();
    let url = sqs.create(
        "orders",
        json!({ "KmsMasterKeyId": "alias/orders", "RedrivePolicy": policy }),
    );
    let dlq = sqs.create("dlq", json!({}));
    sqs.send(&url, "order");
    let owner = Principal::owner();
    receive_by(&mut sqs, &owner, &url).messages();
    // The next receive moves it; the DLQ (SSE-SQS) holds a message encrypted
    // under the key, and its first reader decrypts the data key.
    receive_by(&mut sqs, &owner, &url).messages();
    assert_eq!(receive_by(&mut sqs, &owner, &dlq).messages().len(), 1);
    let snapshot = sqs.engine.snapshot();
    let of = |name: &str| {
        snapshot
            .queues
            .iter()
            .find(|q| q.name == name)
            .unwrap()
            .kms_requests
    };
    assert_eq!(of("orders"), requests(1, 2));
    assert_eq!(of("dlq"), requests(0, 1));
}
