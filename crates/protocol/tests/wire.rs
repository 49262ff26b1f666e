//! The "Wire protocol" section of sqs-facts.md: the JSON 1.0 envelope,
//! error shapes, codes and statuses, batch answers, empty answers, digests
//! and identifiers.

mod common;
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use common::{sorted_keys, successful_ids, Reply, Sqs};
use md5::{Digest, Md5};
use serde_json::{json, Value};

fn md5_hex(bytes: &[u8]) -> String {
    Md5::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The documented MD5OfMessageAttributes algorithm, written independently of
/// the engine: names sorted; name, data type and value each prefixed with a
/// 4-byte big-endian length; a transport byte (1 = String/Number, 2 = Binary)
/// before the value.
fn attributes_md5(attributes: &[(&str, &str, &[u8])]) -> String {
    let mut sorted = attributes.to_vec();
    sorted.sort_by(|a, b| a.0.cmp(b.0));
    let mut bytes = Vec::new();
    for (name, data_type, value) in sorted {
        let field = |bytes: &mut Vec<u8>, v: &[u8]| {
            bytes.extend_from_slice(&(v.len() as u32).to_be_bytes());
            bytes.extend_from_slice(v);
        };
        field(&mut bytes, name.as_bytes());
        field(&mut bytes, data_type.as_bytes());
        bytes.push(if data_type.starts_with("Binary") {
            2
        } else {
            1
        });
        field(&mut bytes, value);
    }
    md5_hex(&bytes)
}

fn entries(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({ "Id": format!("m{i}"), "MessageBody": format!("body {i}") }))
        .collect()
}

/// Sends `body` with these message attributes to `url`; answers the send.
#[track_caller]
fn send_with_attributes(sqs: &mut Sqs, url: &str, body: &str, attributes: Value) -> Value {
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": body, "MessageAttributes": attributes }),
    )
    .ok()
}

/// The attributes CreateQueue needs for a queue of this name.
fn attributes_for(queue: &str) -> Value {
    if queue.ends_with(".fifo") {
        json!({ "FifoQueue": "true" })
    } else {
        json!({})
    }
}

fn is_uuid(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    parts.iter().map(|p| p.len()).collect::<Vec<_>>() == [8, 4, 4, 4, 12]
        && parts
            .iter()
            .all(|p| p.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[test]
fn success_answers_200_with_a_json_body_and_json_content_type() {
    let mut sqs = Sqs::new();
    let reply = sqs.call("CreateQueue", json!({ "QueueName": "orders" }));
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.response.header("content-type"),
        Some("application/x-amz-json-1.0")
    );
    assert!(reply.response.header("x-amzn-requestid").is_some());
    assert!(reply.response.header("x-amzn-query-error").is_none());
    assert_eq!(
        reply.body,
        json!({ "QueueUrl": "https://sqs.us-east-1.amazonaws.com/000000000000/orders" })
    );
}

#[test]
fn pascal_case_members_are_read_and_others_ignored() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    // camelCase is not the member name: the body is missing.
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "messageBody": "hello" }),
    )
    .err("MissingParameter");
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "hello" }),
    )
    .ok();
}

#[test]
fn get_queue_url_of_missing_queue_has_the_documented_error_envelope() {
    let mut sqs = Sqs::new();
    let reply = sqs.call("GetQueueUrl", json!({ "QueueName": "nope" }));
    reply.error_envelope(
        400,
        "AWS.SimpleQueueService.NonExistentQueue",
        "QueueDoesNotExist",
    );
    assert_eq!(
        reply.response.header("x-amzn-query-error"),
        Some("AWS.SimpleQueueService.NonExistentQueue;Sender")
    );
    assert_eq!(reply.message(), "The specified queue does not exist.");
    assert_eq!(
        reply.body.as_object().unwrap().len(),
        2,
        "only __type and message"
    );
    assert_eq!(
        reply.response.header("content-type"),
        Some("application/x-amz-json-1.0")
    );
}

/// A client error's reply, with the query code and shape it must carry.
type Expected = (Reply, &'static str, &'static str);

/// The single calls of `client_errors_answer_400_with_their_query_code_and_shape`.
fn single_call_errors(sqs: &mut Sqs, url: &str) -> Vec<Expected> {
    vec![
        (
            sqs.call(
                "SendMessage",
                json!({ "QueueUrl": url, "MessageBody": "x", "DelaySeconds": 901 }),
            ),
            "InvalidParameterValue",
            "InvalidParameterValueException",
        ),
        (
            sqs.call("SendMessage", json!({ "QueueUrl": url })),
            "MissingParameter",
            "MissingRequiredParameterException",
        ),
        (
            sqs.call(
                "SetQueueAttributes",
                json!({ "QueueUrl": url, "Attributes": { "Colour": "blue" } }),
            ),
            "InvalidAttributeName",
            "InvalidAttributeName",
        ),
        (
            sqs.call(
                "SetQueueAttributes",
                json!({ "QueueUrl": url, "Attributes": { "DelaySeconds": "901" } }),
            ),
            "InvalidAttributeValue",
            "InvalidAttributeValue",
        ),
        (
            sqs.call(
                "SendMessage",
                json!({ "QueueUrl": url, "MessageBody": "a\u{1}b" }),
            ),
            "InvalidMessageContents",
            "InvalidMessageContents",
        ),
        (
            sqs.call("ListQueues", json!({ "MaxResults": 0 })),
            "InvalidParameterValue",
            "InvalidParameterValueException",
        ),
        (
            sqs.call(
                "GetQueueAttributes",
                json!({ "QueueUrl": format!("{url}-missing") }),
            ),
            "AWS.SimpleQueueService.NonExistentQueue",
            "QueueDoesNotExist",
        ),
        (
            sqs.call(
                "CreateQueue",
                json!({ "QueueName": "orders", "Attributes": { "DelaySeconds": "5" } }),
            ),
            "QueueAlreadyExists",
            "QueueNameExists",
        ),
    ]
}

/// The batch calls (and the FIFO attribute) of the same test.
fn batch_and_fifo_errors(sqs: &mut Sqs, url: &str, fifo: &str) -> Vec<Expected> {
    vec![
        (
            sqs.send_batch(url, json!([])),
            "AWS.SimpleQueueService.EmptyBatchRequest",
            "EmptyBatchRequest",
        ),
        (
            sqs.send_batch(url, json!(entries(11))),
            "AWS.SimpleQueueService.TooManyEntriesInBatchRequest",
            "TooManyEntriesInBatchRequest",
        ),
        (
            sqs.send_batch(
                url,
                json!([
                    { "Id": "a", "MessageBody": "1" }, { "Id": "a", "MessageBody": "2" }
                ]),
            ),
            "AWS.SimpleQueueService.BatchEntryIdsNotDistinct",
            "BatchEntryIdsNotDistinct",
        ),
        (
            sqs.send_batch(
                url,
                json!([
                    { "Id": "a", "MessageBody": "x".repeat(600_000) },
                    { "Id": "b", "MessageBody": "x".repeat(600_000) }
                ]),
            ),
            "AWS.SimpleQueueService.BatchRequestTooLong",
            "BatchRequestTooLong",
        ),
        (
            sqs.send_batch(url, json!([{ "Id": "a b", "MessageBody": "1" }])),
            "AWS.SimpleQueueService.InvalidBatchEntryId",
            "InvalidBatchEntryId",
        ),
        (
            sqs.call(
                "SetQueueAttributes",
                json!({ "QueueUrl": fifo, "Attributes": { "FifoQueue": "false" } }),
            ),
            "InvalidAttributeValue",
            "InvalidAttributeValue",
        ),
    ]
}

#[test]
fn client_errors_answer_400_with_their_query_code_and_shape() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let fifo = sqs.create("orders.fifo", json!({ "FifoQueue": "true" }));
    let mut cases = single_call_errors(&mut sqs, &url);
    cases.extend(batch_and_fifo_errors(&mut sqs, &url, &fifo));
    for (reply, code, shape) in &cases {
        reply.error_envelope(400, code, shape);
    }

    sqs.call("DeleteQueue", json!({ "QueueUrl": url })).ok();
    let reply = sqs.call("CreateQueue", json!({ "QueueName": "orders" }));
    reply.error_envelope(
        400,
        "AWS.SimpleQueueService.QueueDeletedRecently",
        "QueueDeletedRecently",
    );
}

#[test]
fn an_unknown_operation_answers_unknown_operation_exception_without_queuelab_text() {
    let mut sqs = Sqs::new();
    // The operation name is case-sensitive, as X-Amz-Target is.
    for target in [
        "AmazonSQS.SendMessages",
        "AmazonSNS.Publish",
        "",
        "AmazonSQS.sendmessage",
    ] {
        let reply = sqs.raw(target, "{}");
        assert_eq!(reply.status, 400, "{target}");
        assert_eq!(
            reply.body,
            json!({ "__type": "com.amazon.coral.service#UnknownOperationException" }),
            "{target}"
        );
        // Answered before SQS sees the call: no SQS query code.
        assert_eq!(reply.response.header("x-amzn-query-error"), None);
        assert!(reply.response.header("x-amzn-requestid").is_some());
    }
}

#[test]
fn malformed_json_is_a_400_serialization_exception() {
    let mut sqs = Sqs::new();
    for body in [
        "{",
        "{\"QueueName\": }",
        "not json",
        "{\"QueueName\": \"a\"} trailing",
    ] {
        let reply = sqs.raw("AmazonSQS.CreateQueue", body);
        assert_eq!(reply.status, 400, "{body}");
        reply.err("SerializationException");
        assert!(
            reply.body["__type"]
                .as_str()
                .unwrap()
                .ends_with("#SerializationException"),
            "{body}: {:?}",
            reply.body
        );
    }
}

#[test]
fn non_object_body_is_a_400_serialization_exception() {
    let mut sqs = Sqs::new();
    for body in ["[]", "\"orders\"", "42", "null", "true"] {
        let reply = sqs.raw("AmazonSQS.CreateQueue", body);
        assert_eq!(reply.status, 400, "{body}");
        reply.err("SerializationException");
    }
}

#[test]
fn wrong_member_types_are_a_400_serialization_exception() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let bodies = [
        ("CreateQueue", json!({ "QueueName": 5 })),
        (
            "CreateQueue",
            json!({ "QueueName": "q", "Attributes": ["DelaySeconds"] }),
        ),
        (
            "CreateQueue",
            json!({ "QueueName": "q", "Attributes": { "DelaySeconds": 5 } }),
        ),
        (
            "SendMessage",
            json!({ "QueueUrl": url, "MessageBody": ["x"] }),
        ),
        (
            "SendMessage",
            json!({ "QueueUrl": url, "MessageBody": "x", "DelaySeconds": "5" }),
        ),
        (
            "SendMessage",
            json!({ "QueueUrl": url, "MessageBody": "x", "MessageAttributes": [] }),
        ),
        (
            "SendMessage",
            json!({ "QueueUrl": url, "MessageBody": "x",
                    "MessageAttributes": { "a": "String" } }),
        ),
        (
            "ReceiveMessage",
            json!({ "QueueUrl": url, "MaxNumberOfMessages": "10" }),
        ),
        (
            "ReceiveMessage",
            json!({ "QueueUrl": url, "AttributeNames": "All" }),
        ),
        (
            "ReceiveMessage",
            json!({ "QueueUrl": url, "MessageAttributeNames": [1] }),
        ),
        (
            "SendMessageBatch",
            json!({ "QueueUrl": url, "Entries": { "Id": "a" } }),
        ),
        (
            "SendMessageBatch",
            json!({ "QueueUrl": url, "Entries": ["a"] }),
        ),
        ("GetQueueAttributes", json!({ "QueueUrl": true })),
        ("ListQueues", json!({ "MaxResults": "5" })),
        (
            "TagQueue",
            json!({ "QueueUrl": url, "Tags": { "team": 1 } }),
        ),
    ];
    for (operation, body) in bodies {
        let reply = sqs.call(operation, body.clone());
        assert_eq!(reply.status, 400, "{operation} {body}");
        assert_eq!(
            reply.code(),
            "SerializationException",
            "{operation} {body}: {:?}",
            reply.body
        );
    }
}

#[test]
fn fractional_or_huge_numbers_are_rejected_without_panic() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for delay in [json!(1.5), json!(1e30), json!(u64::MAX)] {
        let reply = sqs.call(
            "SendMessage",
            json!({ "QueueUrl": url, "MessageBody": "x", "DelaySeconds": delay }),
        );
        assert_eq!(reply.status, 400, "{delay}");
        assert_ne!(reply.code(), "", "{delay}");
    }
}

#[test]
fn missing_required_members_are_missing_parameter() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let cases = [
        ("CreateQueue", json!({}), "QueueName"),
        ("GetQueueUrl", json!({}), "QueueName"),
        ("DeleteQueue", json!({}), "QueueUrl"),
        ("GetQueueAttributes", json!({}), "QueueUrl"),
        (
            "SetQueueAttributes",
            json!({ "QueueUrl": url }),
            "Attributes",
        ),
        ("PurgeQueue", json!({}), "QueueUrl"),
        ("SendMessage", json!({ "MessageBody": "x" }), "QueueUrl"),
        ("SendMessage", json!({ "QueueUrl": url }), "MessageBody"),
        ("SendMessageBatch", json!({ "QueueUrl": url }), "Entries"),
        (
            "SendMessageBatch",
            json!({ "QueueUrl": url, "Entries": [{ "MessageBody": "x" }] }),
            "Id",
        ),
        ("ReceiveMessage", json!({}), "QueueUrl"),
        ("DeleteMessage", json!({ "QueueUrl": url }), "ReceiptHandle"),
        (
            "ChangeMessageVisibility",
            json!({ "QueueUrl": url, "ReceiptHandle": "AQEBxx" }),
            "VisibilityTimeout",
        ),
        ("DeleteMessageBatch", json!({ "QueueUrl": url }), "Entries"),
        ("TagQueue", json!({ "QueueUrl": url }), "Tags"),
        ("UntagQueue", json!({ "QueueUrl": url }), "TagKeys"),
        ("ListQueueTags", json!({}), "QueueUrl"),
        ("StartMessageMoveTask", json!({}), "SourceArn"),
        ("CancelMessageMoveTask", json!({}), "TaskHandle"),
        ("ListMessageMoveTasks", json!({}), "SourceArn"),
    ];
    for (operation, body, member) in cases {
        let reply = sqs.call(operation, body.clone());
        assert_eq!(reply.status, 400, "{operation} {body}");
        reply.err("MissingParameter").message_contains(member);
        assert_eq!(
            reply.body["__type"],
            "com.amazon.coral.service#MissingRequiredParameterException"
        );
    }
    // JSON null counts as absent, and so does an empty body.
    sqs.call("GetQueueUrl", json!({ "QueueName": null }))
        .err("MissingParameter");
    sqs.raw("AmazonSQS.GetQueueUrl", "")
        .err("MissingParameter")
        .message_contains("QueueName");
}

#[test]
fn batch_answers_200_with_successful_and_failed_lists() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let body = sqs.send_batch(&url, json!(entries(2))).ok();
    let successful = body["Successful"].as_array().unwrap();
    assert_eq!(successful.len(), 2);
    assert!(body.get("Failed").is_none(), "no empty Failed list: {body}");
    for (entry, id) in successful.iter().zip(["m0", "m1"]) {
        assert_eq!(entry["Id"], id);
        assert!(is_uuid(entry["MessageId"].as_str().unwrap()));
        assert!(entry["MD5OfMessageBody"].is_string());
    }
    assert_eq!(successful[0]["MD5OfMessageBody"], md5_hex(b"body 0"));
}

#[test]
fn batch_replies_leave_out_an_empty_failed_or_successful_list() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    // Nothing failed: no `Failed` member, in all three batch calls.
    let sent = sqs.send_batch(&url, json!(entries(2))).ok();
    assert_eq!(sorted_keys(&sent), ["Successful"]);
    let got = sqs.receive(&url, 2);
    let handles = |id: &str| {
        json!(got
            .iter()
            .enumerate()
            .map(|(i, m)| json!({ "Id": format!("{id}{i}"), "ReceiptHandle": m["ReceiptHandle"] }))
            .collect::<Vec<_>>())
    };
    let batch = |sqs: &mut Sqs, operation: &str, entries: Value| {
        sqs.call(operation, json!({ "QueueUrl": url, "Entries": entries }))
            .ok()
    };
    let changed = batch(&mut sqs, "ChangeMessageVisibilityBatch", handles("c"));
    assert_eq!(sorted_keys(&changed), ["Successful"]);
    let deleted = batch(&mut sqs, "DeleteMessageBatch", handles("d"));
    assert_eq!(sorted_keys(&deleted), ["Successful"]);
    // Nothing succeeded: no `Successful` member.
    let junk = json!([{ "Id": "j", "ReceiptHandle": "junk" }]);
    let deleted = batch(&mut sqs, "DeleteMessageBatch", junk.clone());
    assert_eq!(sorted_keys(&deleted), ["Failed"]);
    let mut junk_change = junk;
    junk_change[0]["VisibilityTimeout"] = json!(5);
    let changed = batch(&mut sqs, "ChangeMessageVisibilityBatch", junk_change);
    assert_eq!(sorted_keys(&changed), ["Failed"]);
    let bad = json!([{ "Id": "bad", "MessageBody": "a\u{1}b" }]);
    assert_eq!(
        sorted_keys(&batch(&mut sqs, "SendMessageBatch", bad)),
        ["Failed"]
    );
}

#[test]
fn batch_entry_too_large_fails_alone_while_others_succeed() {
    let (mut sqs, url) = Sqs::with_queue("small", json!({ "MaximumMessageSize": "1024" }));
    let body = sqs
        .send_batch(
            &url,
            json!([
                { "Id": "ok1", "MessageBody": "fine" },
                { "Id": "big", "MessageBody": "x".repeat(1025) },
                { "Id": "ok2", "MessageBody": "x".repeat(1024) },
            ]),
        )
        .ok();
    assert_eq!(successful_ids(&body), ["ok1", "ok2"]);
    assert_eq!(
        body["Failed"],
        json!([{
            "Id": "big",
            "SenderFault": true,
            "Code": "InvalidParameterValue",
            "Message": "One or more parameters cannot be validated. Reason: Message must be shorter than 1024 bytes."
        }])
    );
    assert_eq!(sqs.attribute(&url, "ApproximateNumberOfMessages"), "2");
}

#[test]
fn batch_entry_with_bad_characters_fails_alone_with_invalid_message_contents() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let body = sqs
        .send_batch(
            &url,
            json!([
                { "Id": "bad", "MessageBody": "a\u{1}b" },
                { "Id": "good", "MessageBody": "ab" },
            ]),
        )
        .ok();
    assert_eq!(body["Successful"].as_array().unwrap().len(), 1);
    assert_eq!(body["Successful"][0]["Id"], "good");
    let failed = body["Failed"].as_array().unwrap();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["Id"], "bad");
    assert_eq!(failed[0]["SenderFault"], true);
    assert_eq!(failed[0]["Code"], "InvalidMessageContents");
    assert!(failed[0]["Message"].as_str().unwrap().contains("#x9"));
    assert_eq!(sqs.receive_bodies(&url, 10), ["ab"]);
}

#[test]
fn batch_entry_with_bad_delay_or_attributes_fails_alone() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let body = sqs
        .send_batch(
            &url,
            json!([
                { "Id": "delay", "MessageBody": "a", "DelaySeconds": 901 },
                { "Id": "attr", "MessageBody": "b", "MessageAttributes": {
                    "AWS.x": { "DataType": "String", "StringValue": "v" } } },
                { "Id": "empty", "MessageBody": "" },
                { "Id": "good", "MessageBody": "c" },
            ]),
        )
        .ok();
    assert_eq!(body["Successful"].as_array().unwrap().len(), 1);
    let failed: Vec<(String, String)> = body["Failed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["Id"].as_str().unwrap().to_string(),
                f["Code"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        failed,
        [
            ("delay".to_string(), "InvalidParameterValue".to_string()),
            ("attr".to_string(), "InvalidParameterValue".to_string()),
            ("empty".to_string(), "MissingParameter".to_string()),
        ]
    );
}

#[test]
fn batch_problems_of_the_request_as_a_whole_fail_the_whole_call() {
    // (On FIFO queues a missing group or dedup id too: see the next test.)
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let whole = [
        json!({ "QueueUrl": url, "Entries": entries(11) }),
        json!({ "QueueUrl": url, "Entries": [
            { "Id": "a", "MessageBody": "1" }, { "Id": "a", "MessageBody": "2" }] }),
        json!({ "QueueUrl": url, "Entries": [
            { "Id": "ok", "MessageBody": "1" }, { "Id": "no good", "MessageBody": "2" }] }),
        json!({ "QueueUrl": url, "Entries": [
            { "Id": "a", "MessageBody": "x".repeat(700_000) },
            { "Id": "b", "MessageBody": "x".repeat(700_000) }] }),
    ];
    for body in whole {
        let reply = sqs.call("SendMessageBatch", body);
        assert_eq!(reply.status, 400, "{:?}", reply.body);
        assert!(reply.body.get("Successful").is_none());
    }
    assert_eq!(sqs.attribute(&url, "ApproximateNumberOfMessages"), "0");
}

#[test]
fn fifo_batch_with_a_missing_group_id_or_dedup_id_fails_whole_naming_it() {
    let mut sqs = Sqs::new();
    let fifo = sqs.create("orders.fifo", json!({ "FifoQueue": "true" }));
    let reply = sqs.send_batch(&fifo, json!([
            { "Id": "a", "MessageBody": "1", "MessageGroupId": "g", "MessageDeduplicationId": "d1" },
            { "Id": "b", "MessageBody": "2", "MessageDeduplicationId": "d2" }]));
    // Recorded against AWS: InvalidParameterValue here, unlike a single send.
    reply.rejected(
        400,
        "InvalidParameterValue",
        "The request must contain the parameter MessageGroupId.",
    );
    assert!(reply.body.get("Successful").is_none());
    let reply = sqs.send_batch(
        &fifo,
        json!([
            { "Id": "a", "MessageBody": "1", "MessageGroupId": "g", "MessageDeduplicationId": "d1" },
            { "Id": "b", "MessageBody": "2", "MessageGroupId": "g" }]),
    );
    assert_eq!(reply.status, 400);
    reply.err("InvalidParameterValue").message_contains(
        "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
    );
    assert!(reply.body.get("Successful").is_none());
    assert_eq!(sqs.attribute(&fifo, "ApproximateNumberOfMessages"), "0");
}

#[test]
fn receive_that_finds_nothing_has_no_messages_key() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let body = sqs
        .call(
            "ReceiveMessage",
            json!({ "QueueUrl": url, "WaitTimeSeconds": 0 }),
        )
        .ok();
    assert_eq!(body, json!({}));
}

#[test]
fn list_queues_with_no_match_has_no_queue_urls_key() {
    let mut sqs = Sqs::new();
    assert_eq!(sqs.call("ListQueues", json!({})).ok(), json!({}));
    sqs.create("orders", json!({}));
    assert_eq!(
        sqs.call("ListQueues", json!({ "QueueNamePrefix": "zzz" }))
            .ok(),
        json!({})
    );
}

#[test]
fn md5_of_message_body_is_hex_md5_of_utf8_body() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for text in ["hello", "Héllo!😀 \t\n", "日本語"] {
        let sent = sqs.send(&url, text);
        assert_eq!(sent["MD5OfMessageBody"], md5_hex(text.as_bytes()));
        let got = sqs.receive(&url, 1);
        assert_eq!(got[0]["MD5OfBody"], md5_hex(text.as_bytes()));
        assert_eq!(got[0]["Body"], text);
        sqs.delete(&url, &got[0]["ReceiptHandle"]).ok();
    }
    // A value recorded against SQS (moto's tests): body "derp".
    assert_eq!(
        sqs.send(&url, "derp")["MD5OfMessageBody"],
        "58fd9edd83341c29f1aebba81c31e257"
    );
}

#[test]
fn md5_of_message_attributes_matches_aws_algorithm() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    // Digests recorded against AWS (LocalStack's AWS-validated snapshots of
    // test_receive_message_message_attribute_names_filters): the full set on
    // send and receive, and each subset a filtered receive returns.
    let sent = send_with_attributes(
        &mut sqs,
        &url,
        "msg",
        json!({
            "General": { "DataType": "String", "StringValue": "Kenobi" },
            "Hello": { "DataType": "String", "StringValue": "There" },
            "Help.Me": { "DataType": "String", "StringValue": "Me" } }),
    );
    assert_eq!(sent["MD5OfMessageBody"], "6e2baaf3b97dbeef01c0043275f9a0e7");
    assert_eq!(
        sent["MD5OfMessageAttributes"],
        "4c360f3fdafd970e05fae2f149d997f5"
    );
    for (names, digest) in [
        (json!(["All"]), "4c360f3fdafd970e05fae2f149d997f5"),
        (
            json!(["General", "Hello"]),
            "fca026605781cb4126a1e9044df24232",
        ),
        (
            json!(["Hello", "Missing"]),
            "a311262e065454b75da111d535b8dacd",
        ),
        (json!(["Hel.*"]), "83fee93c1bcd8b9a5a923ffacdc636c7"),
    ] {
        let got = sqs
            .call(
                "ReceiveMessage",
                json!({ "QueueUrl": url, "MessageAttributeNames": names, "VisibilityTimeout": 0 }),
            )
            .messages();
        assert_eq!(got[0]["MD5OfMessageAttributes"], digest, "{names}");
    }

    // A Binary attribute recorded against AWS (test_send_message_with_binary_attributes).
    let binary = b"traceparent\x1e00-774062d6c37081a5a0b9b5b88e30627c-2d2482211f6489da-01";
    let other = sqs.create("binary", json!({}));
    let sent = send_with_attributes(
        &mut sqs,
        &other,
        "test",
        json!({ "attr1": { "DataType": "Binary", "BinaryValue": STANDARD.encode(binary) } }),
    );
    assert_eq!(sent["MD5OfMessageBody"], "098f6bcd4621d373cade4e832627b4f6");
    assert_eq!(
        sent["MD5OfMessageAttributes"],
        "8cbe4db156db8a94db8b801b7addb984"
    );

    // A Number attribute (moto's tests): {"timestamp": Number "1493147359900"}.
    let sent = send_with_attributes(
        &mut sqs,
        &url,
        "derp",
        json!({ "timestamp": { "DataType": "Number", "StringValue": "1493147359900" } }),
    );
    assert_eq!(
        sent["MD5OfMessageAttributes"],
        "235c5c510d26fb653d073faed50ae77c"
    );

    // Several attributes of every type, sent out of name order, against an
    // independent implementation of the documented algorithm.
    let binary: &[u8] = &[2, 3, 4, 0xff];
    let attributes = json!({
        "General": { "DataType": "String", "StringValue": "Hello" },
        "count": { "DataType": "Number", "StringValue": "0230.01" },
        "Blob": { "DataType": "Binary", "BinaryValue": "AgME/w==" },
        "label": { "DataType": "String.custom", "StringValue": "Tüst ✓" },
        "bin.custom": { "DataType": "Binary.png", "BinaryValue": "AgME/w==" },
    });
    let expected = attributes_md5(&[
        ("General", "String", b"Hello"),
        ("count", "Number", b"0230.01"),
        ("Blob", "Binary", binary),
        ("label", "String.custom", "Tüst ✓".as_bytes()),
        ("bin.custom", "Binary.png", binary),
    ]);
    let sent = send_with_attributes(&mut sqs, &url, "x", attributes.clone());
    assert_eq!(sent["MD5OfMessageAttributes"], expected);

    // The receive reports the same digest.
    let other = sqs.create("attributes", json!({}));
    send_with_attributes(&mut sqs, &other, "x", attributes.clone());
    let got = sqs.receive_with_message_attributes(&other);
    assert_eq!(got[0]["MD5OfMessageAttributes"], expected);
    assert_eq!(got[0]["MessageAttributes"], attributes);
}

#[test]
fn md5_of_message_system_attributes_matches_aws_algorithm() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";
    let sent = sqs
        .call(
            "SendMessage",
            json!({ "QueueUrl": url, "MessageBody": "x", "MessageSystemAttributes": {
                "AWSTraceHeader": { "DataType": "String", "StringValue": trace } } }),
        )
        .ok();
    assert_eq!(
        sent["MD5OfMessageSystemAttributes"],
        attributes_md5(&[("AWSTraceHeader", "String", trace.as_bytes())])
    );
    assert!(sent.get("MD5OfMessageAttributes").is_none());
}

#[test]
fn aws_trace_header_sent_as_a_system_attribute_is_received_when_asked_for() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1";
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "x", "MessageSystemAttributes": {
            "AWSTraceHeader": { "DataType": "String", "StringValue": trace } } }),
    )
    .ok();
    let got = sqs
        .call(
            "ReceiveMessage",
            json!({ "QueueUrl": url, "MessageSystemAttributeNames": ["AWSTraceHeader"] }),
        )
        .messages();
    assert_eq!(got[0]["Attributes"], json!({ "AWSTraceHeader": trace }));
}

#[test]
fn send_without_attributes_has_no_attribute_digests() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let sent = sqs.send(&url, "plain");
    let keys: Vec<&String> = sent.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["MD5OfMessageBody", "MessageId"]);
}

#[test]
fn message_id_is_uuid_text() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let a = sqs.send(&url, "a")["MessageId"]
        .as_str()
        .unwrap()
        .to_string();
    let b = sqs.send(&url, "b")["MessageId"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(is_uuid(&a), "{a}");
    assert!(is_uuid(&b), "{b}");
    assert_ne!(a, b);
}

#[test]
fn receipt_handle_is_new_on_every_receive() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({ "VisibilityTimeout": "1" }));
    sqs.send(&url, "a");
    let mut handles = Vec::new();
    for _ in 0..3 {
        let got = sqs.receive(&url, 1);
        assert_eq!(got.len(), 1);
        handles.push(got[0]["ReceiptHandle"].as_str().unwrap().to_string());
        sqs.advance(1_000);
    }
    assert_ne!(handles[0], handles[1]);
    assert_ne!(handles[1], handles[2]);
    assert_ne!(handles[0], handles[2]);
}

#[test]
fn standard_send_has_no_sequence_number() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    assert!(sqs.send(&url, "a").get("SequenceNumber").is_none());
}

#[test]
fn message_timestamps_are_epoch_milliseconds_and_queue_timestamps_seconds() {
    let mut sqs = Sqs::new();
    let start_ms = sqs.engine.config().start_epoch_ms;
    let url = sqs.create("orders", json!({}));
    sqs.advance(1_234);
    sqs.send(&url, "a");
    sqs.advance(2_345);
    let got = sqs.receive(&url, 1);
    let attrs = &got[0]["Attributes"];
    assert_eq!(attrs["SentTimestamp"], (start_ms + 1_234).to_string());
    assert_eq!(
        attrs["ApproximateFirstReceiveTimestamp"],
        (start_ms + 1_234 + 2_345).to_string()
    );
    assert_eq!(
        sqs.attribute(&url, "CreatedTimestamp"),
        (start_ms / 1000).to_string()
    );
    assert_eq!(
        sqs.attribute(&url, "LastModifiedTimestamp"),
        (start_ms / 1000).to_string()
    );
}

#[test]
fn no_member_value_of_any_json_type_makes_an_operation_panic() {
    let members = [
        "QueueName",
        "QueueUrl",
        "Attributes",
        "tags",
        "Tags",
        "TagKeys",
        "MessageBody",
        "DelaySeconds",
        "MessageAttributes",
        "MessageSystemAttributes",
        "MessageGroupId",
        "MessageDeduplicationId",
        "Entries",
        "MaxNumberOfMessages",
        "VisibilityTimeout",
        "WaitTimeSeconds",
        "AttributeNames",
        "MessageSystemAttributeNames",
        "MessageAttributeNames",
        "ReceiveRequestAttemptId",
        "ReceiptHandle",
        "SourceArn",
        "DestinationArn",
        "MaxNumberOfMessagesPerSecond",
        "TaskHandle",
        "MaxResults",
        "NextToken",
        "QueueNamePrefix",
        "QueueOwnerAWSAccountId",
    ];
    let values = [
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(i64::MIN),
        json!(u64::MAX),
        json!(1.5),
        json!(""),
        json!("x"),
        json!("AQEB"),
        json!([]),
        json!(["x"]),
        json!([{}]),
        json!({}),
        json!({ "a": "b" }),
        json!({ "a": {} }),
        json!({ "a": { "DataType": "Binary", "BinaryValue": "@@" } }),
        json!([{ "Id": "a" }]),
    ];
    for queue in ["orders", "orders.fifo"] {
        let mut sqs = Sqs::new();
        let (url, arn) = sqs.create_with_arn(queue, attributes_for(queue));
        let base = json!({
            "QueueName": queue, "QueueUrl": url, "MessageBody": "x",
            "MessageGroupId": "g", "MessageDeduplicationId": "d",
            "ReceiptHandle": "AQEBxyz", "VisibilityTimeout": 0,
            "Entries": [{ "Id": "a", "MessageBody": "x", "ReceiptHandle": "AQEBxyz" }],
            "Attributes": { "DelaySeconds": "0" }, "Tags": { "a": "b" }, "TagKeys": ["a"],
            "SourceArn": arn, "TaskHandle": "x",
        });
        for (operation, _) in queuelab_protocol::OPERATIONS {
            for member in members {
                for value in &values {
                    let mut body = base.clone();
                    body[member] = value.clone();
                    let target = format!("AmazonSQS.{operation}");
                    let status = match queuelab_protocol::dispatch(
                        &mut sqs.engine,
                        &target,
                        &body.to_string(),
                        None,
                    ) {
                        queuelab_protocol::Dispatched::Done(response) => response.status,
                        queuelab_protocol::Dispatched::Waiting(_) => 200,
                    };
                    assert!(
                        [200, 400, 403, 404].contains(&status),
                        "{operation} {member}={value}: {status}"
                    );
                }
            }
            // Recreate what a DeleteQueue call removed, outside the 60 s window.
            sqs.advance(61_000);
            sqs.create(queue, attributes_for(queue));
        }
    }
}

#[test]
fn validation_errors_outside_the_sqs_model_carry_the_request_framework_namespace() {
    // A real AWS answer (JSON protocol):
    // {"__type":"com.amazon.coral.service#InvalidParameterValueException", ...}
    let (mut sqs, url) = Sqs::with_queue("orders.fifo", json!({ "FifoQueue": "true" }));
    let reply = sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "x", "MessageGroupId": "g" }),
    );
    assert_eq!(
        reply.body,
        json!({
            "__type": "com.amazon.coral.service#InvalidParameterValueException",
            "message": "The queue should either have ContentBasedDeduplication enabled or \
                        MessageDeduplicationId provided explicitly"
        })
    );
    assert_eq!(
        reply.response.header("x-amzn-query-error"),
        Some("InvalidParameterValue;Sender")
    );
    // Shapes of SQS's model keep its namespace.
    let reply = sqs.call("GetQueueUrl", json!({ "QueueName": "missing" }));
    assert_eq!(reply.body["__type"], "com.amazonaws.sqs#QueueDoesNotExist");
}

#[test]
fn errors_repeat_a_129_character_group_id_whole() {
    // Recorded against AWS: the whole 129-character value is repeated.
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let long = "a".repeat(129);
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "x", "MessageGroupId": long }),
    )
    .rejected(
        400,
        "InvalidParameterValue",
        &format!(
            "Value {long} for parameter MessageGroupId is invalid. Reason: MessageGroupId can \
             only include alphanumeric and punctuation characters. 1 to 128 in length."
        ),
    );
}

/// The text of a JSON body with its object members sorted by name, as
/// `serde_json`'s maps write them.
fn in_name_order(text: &str) -> String {
    serde_json::from_str::<Value>(text).unwrap().to_string()
}

#[test]
fn send_and_receive_answers_list_their_members_in_name_order() {
    let mut sqs = Sqs::new();
    let url = sqs.create("orders.fifo", json!({ "FifoQueue": "true" }));
    let sent = sqs.call(
        "SendMessage",
        json!({
            "QueueUrl": url, "MessageBody": "café ☕ \"quoted\"\n",
            "MessageGroupId": "g", "MessageDeduplicationId": "d",
            "MessageAttributes": {
                "zeta": { "DataType": "String", "StringValue": "last" },
                "Alpha": { "DataType": "Binary", "BinaryValue": STANDARD.encode([0u8, 1, 254]) },
                "mid": { "DataType": "Number.int", "StringValue": "7" },
            },
            "MessageSystemAttributes": {
                "AWSTraceHeader": { "DataType": "String", "StringValue": "Root=1-5759e988-bd862e3fe1be46a994272793" },
            },
        }),
    );
    let text = &sent.response.body;
    assert_eq!(*text, in_name_order(text));
    assert_eq!(
        sorted_keys(&sent.body),
        [
            "MD5OfMessageAttributes",
            "MD5OfMessageBody",
            "MD5OfMessageSystemAttributes",
            "MessageId",
            "SequenceNumber"
        ]
    );

    let received = sqs.call(
        "ReceiveMessage",
        json!({ "QueueUrl": url, "MessageAttributeNames": ["All"], "MessageSystemAttributeNames": ["All"] }),
    );
    let text = &received.response.body;
    assert_eq!(*text, in_name_order(text));
    let message = &received.body["Messages"][0];
    assert_eq!(message["Body"], "café ☕ \"quoted\"\n");
    assert_eq!(
        message["MessageAttributes"],
        json!({
            "Alpha": { "DataType": "Binary", "BinaryValue": STANDARD.encode([0u8, 1, 254]) },
            "mid": { "DataType": "Number.int", "StringValue": "7" },
            "zeta": { "DataType": "String", "StringValue": "last" },
        })
    );
    assert_eq!(
        message["MD5OfMessageAttributes"],
        sent.body["MD5OfMessageAttributes"]
    );
    assert_eq!(message["Attributes"]["MessageGroupId"], "g");
    assert_eq!(
        message["Attributes"]["AWSTraceHeader"],
        "Root=1-5759e988-bd862e3fe1be46a994272793"
    );
}

#[test]
fn an_empty_receive_answers_an_empty_object() {
    let mut sqs = Sqs::new();
    let url = sqs.create("orders", json!({}));
    let reply = sqs.call("ReceiveMessage", json!({ "QueueUrl": url }));
    assert_eq!(reply.status, 200);
    assert_eq!(reply.response.body, "{}");
}

#[test]
fn answers_carry_only_the_protocols_named_headers() {
    let mut sqs = Sqs::new();
    let ok = sqs.call("CreateQueue", json!({ "QueueName": "orders" }));
    let missing = sqs.call("GetQueueUrl", json!({ "QueueName": "nope" }));
    let unknown = sqs.start_raw("AmazonSQS.Nope", "{}").unwrap();
    for reply in [ok, missing, unknown] {
        for (name, _) in &reply.response.headers {
            assert!(
                queuelab_protocol::HEADER_NAMES.contains(&name.as_str()),
                "{name}"
            );
        }
    }
}
