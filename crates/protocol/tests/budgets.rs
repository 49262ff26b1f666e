//! The engine's budgets (docs/limits.md): stored bytes,
//! stored messages and queues. Past one, an SQS call answers `OverLimit`
//! naming the budget and the option that raises it, and the engine keeps
//! working. Values repeated in error messages are bounded.

mod common;
use common::Sqs;
use queuelab_engine::{
    Config, MAX_ECHO_CHARS, MAX_KMS_KEY_ID_CHARS, MAX_POLICY_BYTES, MAX_REDRIVE_POLICY_BYTES,
};
use queuelab_protocol::MAX_REQUEST_BYTES;
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
fn a_send_that_brings_storage_exactly_to_max_stored_bytes_is_stored_and_one_byte_more_is_over_limit(
) {
    let (mut sqs, url) = budget(Config {
        max_stored_bytes: 10 * KIB as u64,
        ..Config::default()
    });
    send(&mut sqs, &url, &"x".repeat(6 * KIB)).ok();
    // One byte past the budget is refused, in a single send and in a batch.
    send(&mut sqs, &url, &"y".repeat(4 * KIB + 1))
        .err("OverLimit")
        .message_contains("maxStoredBytes");
    let batch = sqs
        .call(
            "SendMessageBatch",
            json!({ "QueueUrl": url, "Entries": [
                { "Id": "over", "MessageBody": "y".repeat(4 * KIB + 1) }
            ] }),
        )
        .ok();
    assert_eq!(batch["Failed"][0]["Code"], "OverLimit", "{batch}");
    assert_eq!(sqs.engine.stored(), (6 * KIB as u64, 1));
    // Exactly the budget is within it.
    send(&mut sqs, &url, &"y".repeat(4 * KIB)).ok();
    assert_eq!(sqs.engine.stored(), (10 * KIB as u64, 2));
    // Full: not one more byte.
    send(&mut sqs, &url, "z")
        .err("OverLimit")
        .message_contains("maxStoredBytes");
    assert_eq!(sqs.attribute(&url, "ApproximateNumberOfMessages"), "2");
}

#[test]
fn a_batch_that_brings_storage_exactly_to_max_stored_messages_is_stored_and_one_message_more_is_over_limit(
) {
    let (mut sqs, url) = budget(Config {
        max_stored_messages: 3,
        ..Config::default()
    });
    send(&mut sqs, &url, "first").ok();
    let entries = |ids: &[&str]| -> Vec<serde_json::Value> {
        ids.iter()
            .map(|id| json!({ "Id": id, "MessageBody": "b" }))
            .collect()
    };
    // Two more make exactly three: all stored.
    let batch = sqs
        .call(
            "SendMessageBatch",
            json!({ "QueueUrl": url, "Entries": entries(&["a", "b"]) }),
        )
        .ok();
    assert_eq!(
        batch["Successful"].as_array().map(Vec::len),
        Some(2),
        "{batch}"
    );
    assert!(batch.get("Failed").is_none(), "{batch}");
    assert_eq!(sqs.engine.stored().1, 3);
    // The fourth is one message past it, alone or in a batch.
    send(&mut sqs, &url, "fourth")
        .err("OverLimit")
        .message_contains("maxStoredMessages");
    let batch = sqs
        .call(
            "SendMessageBatch",
            json!({ "QueueUrl": url, "Entries": entries(&["c"]) }),
        )
        .ok();
    assert_eq!(batch["Failed"][0]["Code"], "OverLimit", "{batch}");
    assert_eq!(sqs.engine.stored().1, 3);
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

/// The issue's CreateQueue with a 300-million-character name copied the
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

/// Issue 25: one request of 1.5 GB (a queue name of 3-byte characters)
/// trapped after 15 s. Past MAX_REQUEST_BYTES a request is refused before
/// anything reads it: 413, as AWS's front end answers a body too large.
#[test]
fn a_request_past_max_request_bytes_is_refused_with_413_before_it_is_read() {
    let mut sqs = Sqs::new();
    let target = "AmazonSQS.CreateQueue";
    // Counted in UTF-8 bytes: 1.4 million characters of 3 bytes each.
    let wide = format!(r#"{{"QueueName":"{}"}}"#, "€".repeat(1_400_000));
    assert!(wide.chars().count() < MAX_REQUEST_BYTES && wide.len() > MAX_REQUEST_BYTES);
    let reply = sqs.raw(target, &wide);
    assert_eq!(reply.status, 413);
    assert_eq!(
        reply.body["__type"],
        "com.amazon.coral.service#RequestEntityTooLargeException"
    );
    reply.message_contains("4194304 bytes (4 MiB, MAX_REQUEST_BYTES)");
    assert!(reply.response.header("x-amzn-query-error").is_none());
    // The target counts too: together they must fit.
    let half = "x".repeat(MAX_REQUEST_BYTES / 2 + 1);
    assert_eq!(sqs.raw(&half, &half).status, 413);
    // At the limit exactly, the request is read (and this one refused by SQS's own rule).
    let pad = MAX_REQUEST_BYTES - target.len() - r#"{"QueueName":""}"#.len();
    let at_limit = format!(r#"{{"QueueName":"{}"}}"#, "n".repeat(pad));
    assert_eq!(target.len() + at_limit.len(), MAX_REQUEST_BYTES);
    sqs.raw(target, &at_limit).err("InvalidParameterValue");
    // The engine goes on.
    sqs.create("after", json!({}));
}

// ---------------------------------------------------------------------------
// Attribute values are held to SQS's own lengths (issue 25: a 64 MiB
// KmsMasterKeyId and a 10 MB Policy of 100,000 statements were kept).
// ---------------------------------------------------------------------------

/// A policy of `statements`, each `statement` (a JSON object's text).
fn policy_of(statements: &[String]) -> String {
    format!(
        r#"{{"Version":"2012-10-17","Statement":[{}]}}"#,
        statements.join(",")
    )
}

fn allow(principal: &str, actions: &str, condition: &str) -> String {
    format!(
        r#"{{"Effect":"Allow","Principal":{principal},"Action":{actions},"Resource":"*"{condition}}}"#
    )
}

fn set_policy(sqs: &mut Sqs, url: &str, policy: &str) -> common::Reply {
    sqs.set_attributes(url, json!({ "Policy": policy }))
}

#[test]
fn a_policy_over_8192_bytes_is_over_limit_in_aws_words() {
    let (mut sqs, url) = budget(Config::default());
    let one = allow(r#""*""#, r#""sqs:SendMessage""#, "");
    // 10,000 statements, 700 KB: the issue's 10 MB policy is now past MAX_REQUEST_BYTES.
    let huge = policy_of(&vec![one.clone(); 10_000]);
    set_policy(&mut sqs, &url, &huge).rejected(
        403,
        "OverLimit",
        "Submitted policy is over max allowed size.",
    );
    // CreateQueue holds to it too.
    sqs.call(
        "CreateQueue",
        json!({ "QueueName": "q2", "Attributes": { "Policy": huge } }),
    )
    .err("OverLimit");
    // Exactly 8,192 bytes (padded with spaces) is a policy.
    let small = policy_of(std::slice::from_ref(&one));
    let at_limit = format!("{small}{}", " ".repeat(MAX_POLICY_BYTES - small.len()));
    set_policy(&mut sqs, &url, &at_limit).ok();
    let over = format!("{at_limit} ");
    set_policy(&mut sqs, &url, &over).err("OverLimit");
    assert_eq!(
        sqs.attribute(&url, "Policy"),
        at_limit,
        "the last accepted one stays"
    );
}

#[test]
fn a_policy_past_sqs_statement_action_principal_or_condition_quota_is_over_limit() {
    let (mut sqs, url) = budget(Config::default());
    let plain = allow(r#""*""#, r#""sqs:SendMessage""#, "");
    set_policy(&mut sqs, &url, &policy_of(&vec![plain.clone(); 20])).ok();
    set_policy(&mut sqs, &url, &policy_of(&vec![plain; 21])).rejected(
        403,
        "OverLimit",
        "21 statements were found in the submitted policy, max allowed is 20.",
    );
    let actions = |n: usize| json!(vec!["sqs:SendMessage"; n]).to_string();
    set_policy(
        &mut sqs,
        &url,
        &policy_of(&[allow(r#""*""#, &actions(7), "")]),
    )
    .ok();
    set_policy(
        &mut sqs,
        &url,
        &policy_of(&[allow(r#""*""#, &actions(8), "")]),
    )
    .rejected(
        403,
        "OverLimit",
        "8 actions were found in a statement from the submitted policy, max allowed is 7.",
    );
    let accounts = |n: usize| {
        let ids: Vec<String> = (0..n).map(|i| format!("{:012}", i)).collect();
        json!({ "AWS": ids }).to_string()
    };
    let action = r#""sqs:SendMessage""#;
    // 25 + 25 principals over two statements pass; 26 more do not.
    let halves = [
        allow(&accounts(25), action, ""),
        allow(&accounts(25), action, ""),
    ];
    set_policy(&mut sqs, &url, &policy_of(&halves)).ok();
    let more = [
        allow(&accounts(25), action, ""),
        allow(&accounts(26), action, ""),
    ];
    set_policy(&mut sqs, &url, &policy_of(&more)).rejected(
        403,
        "OverLimit",
        "51 principals were found in the submitted policy, max allowed is 50.",
    );
    let conditions = |n: usize| {
        let keys: serde_json::Map<String, serde_json::Value> = (0..n)
            .map(|i| (format!("aws:SourceArn{i}"), json!("arn:aws:sns:*")))
            .collect();
        format!(r#","Condition":{}"#, json!({ "ArnLike": keys }))
    };
    set_policy(
        &mut sqs,
        &url,
        &policy_of(&[allow(r#""*""#, action, &conditions(10))]),
    )
    .ok();
    set_policy(
        &mut sqs,
        &url,
        &policy_of(&[allow(r#""*""#, action, &conditions(11))]),
    )
    .rejected(
        403,
        "OverLimit",
        "11 conditions were found in the submitted policy, max allowed is 10.",
    );
}

#[test]
fn a_kms_master_key_id_over_2048_characters_is_invalid_attribute_value() {
    let (mut sqs, url) = budget(Config::default());
    let longest = "k".repeat(MAX_KMS_KEY_ID_CHARS);
    sqs.set_attributes(&url, json!({ "KmsMasterKeyId": longest }))
        .ok();
    let reply = sqs.set_attributes(&url, json!({ "KmsMasterKeyId": format!("{longest}k") }));
    reply.rejected(
        400,
        "InvalidAttributeValue",
        "Invalid value for the parameter KmsMasterKeyId.",
    );
    assert_eq!(sqs.attribute(&url, "KmsMasterKeyId"), longest);
}

#[test]
fn a_redrive_policy_text_over_8192_bytes_is_invalid_attribute_value() {
    let (mut sqs, url) = budget(Config::default());
    let dlq_arn = sqs.arn(&url);
    let policy = json!({ "deadLetterTargetArn": dlq_arn, "maxReceiveCount": 3 }).to_string();
    let padded = format!(
        "{policy}{}",
        " ".repeat(MAX_REDRIVE_POLICY_BYTES + 1 - policy.len())
    );
    for name in ["RedrivePolicy", "RedriveAllowPolicy"] {
        let reply = sqs.call(
            "CreateQueue",
            json!({ "QueueName": "source", "Attributes": { name: padded } }),
        );
        reply.rejected(
            400,
            "InvalidAttributeValue",
            &format!("Invalid value for the parameter {name}."),
        );
    }
    // One byte less is read as the policy it is.
    let fits = &padded[..MAX_REDRIVE_POLICY_BYTES];
    sqs.call(
        "CreateQueue",
        json!({ "QueueName": "source", "Attributes": { "RedrivePolicy": fits } }),
    )
    .ok();
}

#[test]
fn a_budget_of_one_queue_or_one_message_is_said_in_the_singular() {
    let (mut sqs, url) = budget(Config {
        max_queues: 1,
        max_stored_messages: 1,
        ..Config::default()
    });
    let refused = sqs.call("CreateQueue", json!({ "QueueName": "more" }));
    refused
        .err("OverLimit")
        .message_contains("already has 1 queue, its budget");
    send(&mut sqs, &url, "one").ok();
    send(&mut sqs, &url, "two")
        .err("OverLimit")
        .message_contains("already stores 1 message, its budget");
}
