//! The "Queues" section of sqs-facts.md: names, create/delete rules,
//! attributes and their ranges, read-only attributes, ListQueues, PurgeQueue,
//! tags and ListDeadLetterSourceQueues.

mod common;
use common::{Reply, Sqs};
use queuelab_engine::Config;
use serde_json::{json, Map, Value};

const NO_QUEUE: &str = "AWS.SimpleQueueService.NonExistentQueue";

fn all_attributes(sqs: &mut Sqs, url: &str) -> Map<String, Value> {
    sqs.call(
        "GetQueueAttributes",
        json!({ "QueueUrl": url, "AttributeNames": ["All"] }),
    )
    .ok()["Attributes"]
        .as_object()
        .cloned()
        .unwrap_or_default()
}

fn list(sqs: &mut Sqs, body: Value) -> (Vec<String>, Option<String>) {
    let body = sqs.call("ListQueues", body).ok();
    let urls = body["QueueUrls"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|u| u.as_str().unwrap().rsplit('/').next().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default();
    (urls, body["NextToken"].as_str().map(str::to_string))
}

/// An integer attribute accepts `lo..=hi` at create and set, and rejects
/// the values just outside with `InvalidAttributeValue`.
#[track_caller]
fn assert_range(name: &str, lo: i64, hi: i64) {
    assert_range_beside(name, lo, hi, json!({}));
}

/// `assert_range` for an attribute read back only beside `others`.
#[track_caller]
fn assert_range_beside(name: &str, lo: i64, hi: i64, others: Value) {
    let with = |value: &str| {
        let mut attributes = others.clone();
        attributes[name] = json!(value);
        attributes
    };
    let mut sqs = Sqs::new();
    for (i, ok) in [lo, hi].into_iter().enumerate() {
        let url = sqs.create(&format!("q{i}"), with(&ok.to_string()));
        assert_eq!(sqs.attribute(&url, name), ok.to_string(), "{name}={ok}");
    }
    // AWS's refusal names the parameter and gives no reason (a real answer).
    let refusal = format!("Invalid value for the parameter {name}.");
    for (i, bad) in [lo - 1, hi + 1].into_iter().enumerate() {
        sqs.create_reply(&format!("bad{i}"), with(&bad.to_string()))
            .rejected(400, "InvalidAttributeValue", &refusal);
    }
    let url = sqs.create("settable", others.clone());
    for ok in [lo, hi] {
        sqs.set_attributes(&url, with(&ok.to_string())).ok();
        assert_eq!(sqs.attribute(&url, name), ok.to_string(), "{name}={ok}");
    }
    for bad in [lo - 1, hi + 1] {
        sqs.set_attributes(&url, with(&bad.to_string())).rejected(
            400,
            "InvalidAttributeValue",
            &refusal,
        );
        assert_eq!(sqs.attribute(&url, name), hi.to_string(), "unchanged");
    }
    // Not a number, or a number with spaces around it.
    for bad in ["ten".to_string(), format!(" {lo}"), format!("{hi} ")] {
        sqs.set_attributes(&url, with(&bad))
            .rejected(400, "InvalidAttributeValue", &refusal);
    }
}

// --- Names ---

#[test]
fn queue_name_of_1_to_80_allowed_characters_is_accepted() {
    let mut sqs = Sqs::new();
    for name in ["a", "Orders_2024-eu", &"x".repeat(80), "0-_"] {
        let url = sqs.create(name, json!({}));
        assert!(url.ends_with(&format!("/000000000000/{name}")), "{url}");
    }
}

#[test]
fn queue_name_of_81_characters_is_rejected() {
    let mut sqs = Sqs::new();
    sqs.create_reply(&"x".repeat(81), json!({}))
        .err("InvalidParameterValue")
        .message_contains("1 to 80");
}

#[test]
fn queue_name_with_other_characters_is_rejected() {
    let mut sqs = Sqs::new();
    for name in ["a b", "a.b", "a/b", "a:b", "ünï", "a*", "orders.fifo.x"] {
        sqs.create_reply(name, json!({}))
            .err("InvalidParameterValue");
    }
}

#[test]
fn empty_queue_name_is_rejected() {
    let mut sqs = Sqs::new();
    let reply = sqs.create_reply("", json!({}));
    assert_eq!(reply.status, 400);
    assert!(
        ["InvalidParameterValue", "MissingParameter"].contains(&reply.code()),
        "{:?}",
        reply.body
    );
    sqs.create_reply(".fifo", json!({ "FifoQueue": "true" }))
        .err("InvalidParameterValue");
}

#[test]
fn fifo_suffix_counts_toward_the_80_characters() {
    let mut sqs = Sqs::new();
    let name = format!("{}.fifo", "x".repeat(75));
    assert_eq!(name.len(), 80);
    sqs.create(&name, json!({ "FifoQueue": "true" }));
    sqs.create_reply(
        &format!("{}.fifo", "x".repeat(76)),
        json!({ "FifoQueue": "true" }),
    )
    .err("InvalidParameterValue");
}

#[test]
fn fifo_name_without_fifo_queue_true_is_invalid_parameter_value() {
    let mut sqs = Sqs::new();
    sqs.create_reply("orders.fifo", json!({}))
        .err("InvalidParameterValue");
    sqs.create_reply("orders.fifo", json!({ "FifoQueue": "false" }))
        .err("InvalidParameterValue");
}

#[test]
fn fifo_queue_true_without_fifo_suffix_is_invalid_parameter_value() {
    let mut sqs = Sqs::new();
    sqs.create_reply("orders", json!({ "FifoQueue": "true" }))
        .err("InvalidParameterValue");
    assert_eq!(list(&mut sqs, json!({})).0, Vec::<String>::new());
}

// --- Create, delete, missing queues ---

#[test]
fn create_queue_with_same_name_and_attributes_returns_existing_url() {
    let mut sqs = Sqs::new();
    let attributes = json!({ "VisibilityTimeout": "60", "DelaySeconds": "5" });
    let first = sqs.create("orders", attributes.clone());
    sqs.send(&first, "kept");
    let second = sqs.create("orders", attributes);
    assert_eq!(first, second);
    assert_eq!(list(&mut sqs, json!({})).0, ["orders"]);
    assert_eq!(
        sqs.attribute(&first, "ApproximateNumberOfMessagesDelayed"),
        "1"
    );

    let fifo = sqs.create("orders.fifo", json!({ "FifoQueue": "true" }));
    assert_eq!(
        sqs.create("orders.fifo", json!({ "FifoQueue": "true" })),
        fifo
    );
}

#[test]
fn create_queue_with_same_name_and_explicit_default_values_returns_existing_url() {
    let mut sqs = Sqs::new();
    let first = sqs.create("orders", json!({}));
    let again = sqs.create(
        "orders",
        json!({ "VisibilityTimeout": "30", "DelaySeconds": "0", "MaximumMessageSize": "1048576" }),
    );
    assert_eq!(first, again);
}

#[test]
fn create_queue_with_same_name_and_different_attributes_is_queue_already_exists() {
    let mut sqs = Sqs::new();
    sqs.create("orders", json!({ "VisibilityTimeout": "60" }));
    sqs.create_reply("orders", json!({ "VisibilityTimeout": "61" }))
        .rejected(
            400,
            "QueueAlreadyExists",
            "A queue already exists with the same name and a different value for attribute VisibilityTimeout",
        );
    sqs.create_reply("orders", json!({ "DelaySeconds": "1" }))
        .err("QueueAlreadyExists")
        .message_contains("attribute DelaySeconds");
    assert_eq!(sqs.attribute(&sqs_url("orders"), "VisibilityTimeout"), "60");
}

fn sqs_url(name: &str) -> String {
    format!("https://sqs.us-east-1.amazonaws.com/000000000000/{name}")
}

#[test]
fn recreating_within_60_seconds_of_delete_is_queue_deleted_recently() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.advance(5_000);
    sqs.call("DeleteQueue", json!({ "QueueUrl": url })).ok();
    let reply = sqs.create_reply("orders", json!({}));
    reply.err("AWS.SimpleQueueService.QueueDeletedRecently");
    assert_eq!(
        reply.message(),
        "You must wait 60 seconds after deleting a queue before you can create another with the same name."
    );
    sqs.advance(59_999);
    sqs.create_reply("orders", json!({}))
        .err("AWS.SimpleQueueService.QueueDeletedRecently");
}

#[test]
fn recreating_60_seconds_after_delete_gives_a_new_empty_queue() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({ "VisibilityTimeout": "99" }));
    sqs.send(&url, "old");
    sqs.call("DeleteQueue", json!({ "QueueUrl": url })).ok();
    sqs.advance(60_000);
    let again = sqs.create("orders", json!({}));
    assert_eq!(again, url);
    assert_eq!(sqs.attribute(&again, "ApproximateNumberOfMessages"), "0");
    assert_eq!(sqs.attribute(&again, "VisibilityTimeout"), "30");
}

#[test]
fn other_names_can_be_created_right_after_a_delete() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.call("DeleteQueue", json!({ "QueueUrl": url })).ok();
    sqs.create("orders-2", json!({}));
}

#[test]
fn missing_queue_is_non_existent_queue() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.call("DeleteQueue", json!({ "QueueUrl": url })).ok();
    let missing = sqs_url("never");
    for queue in [url.as_str(), missing.as_str()] {
        let calls = [
            (
                "GetQueueAttributes",
                json!({ "QueueUrl": queue, "AttributeNames": ["All"] }),
            ),
            (
                "SetQueueAttributes",
                json!({ "QueueUrl": queue, "Attributes": { "DelaySeconds": "1" } }),
            ),
            (
                "SendMessage",
                json!({ "QueueUrl": queue, "MessageBody": "x" }),
            ),
            (
                "SendMessageBatch",
                json!({ "QueueUrl": queue, "Entries": [{ "Id": "a", "MessageBody": "x" }] }),
            ),
            ("ReceiveMessage", json!({ "QueueUrl": queue })),
            ("DeleteQueue", json!({ "QueueUrl": queue })),
            ("PurgeQueue", json!({ "QueueUrl": queue })),
            ("ListQueueTags", json!({ "QueueUrl": queue })),
            (
                "TagQueue",
                json!({ "QueueUrl": queue, "Tags": { "a": "b" } }),
            ),
        ];
        for (operation, body) in calls {
            let reply = sqs.call(operation, body);
            assert_eq!(reply.status, 400, "{operation}");
            reply.err(NO_QUEUE);
            assert_eq!(
                reply.message(),
                "The specified queue does not exist.",
                "{operation}"
            );
        }
    }
    for name in ["orders", "never"] {
        sqs.call("GetQueueUrl", json!({ "QueueName": name }))
            .err(NO_QUEUE);
    }
}

#[test]
fn get_queue_url_returns_the_url_of_an_existing_queue() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let body = sqs
        .call("GetQueueUrl", json!({ "QueueName": "orders" }))
        .ok();
    assert_eq!(body, json!({ "QueueUrl": url }));
}

#[test]
fn a_bare_queue_name_given_as_queue_url_is_accepted() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    // Recorded against AWS: SendMessage with QueueUrl = the name answers 200.
    sqs.send("orders", "by name");
    assert_eq!(sqs.attribute("orders", "ApproximateNumberOfMessages"), "1");
    assert_eq!(sqs.receive_bodies(&url, 1), ["by name"]);
    // Resolved in the caller's account: an unknown name is still missing.
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": "never", "MessageBody": "x" }),
    )
    .rejected(400, NO_QUEUE, "The specified queue does not exist.");
    sqs.call("DeleteQueue", json!({ "QueueUrl": "orders" }))
        .ok();
    sqs.call("GetQueueUrl", json!({ "QueueName": "orders" }))
        .err(NO_QUEUE);
}

#[test]
fn queue_url_and_arn_use_the_configured_region_and_account() {
    let mut sqs = Sqs::with(Config {
        region: "eu-west-2".into(),
        account_id: "123456789012".into(),
        ..Config::default()
    });
    let url = sqs.create("orders", json!({}));
    assert_eq!(
        url,
        "https://sqs.eu-west-2.amazonaws.com/123456789012/orders"
    );
    assert_eq!(sqs.arn(&url), "arn:aws:sqs:eu-west-2:123456789012:orders");
}

// --- Attribute ranges ---

#[test]
fn visibility_timeout_is_0_to_43200() {
    assert_range("VisibilityTimeout", 0, 43_200);
}

#[test]
fn message_retention_period_is_60_to_1209600() {
    assert_range("MessageRetentionPeriod", 60, 1_209_600);
}

#[test]
fn delay_seconds_is_0_to_900() {
    assert_range("DelaySeconds", 0, 900);
}

#[test]
fn receive_message_wait_time_seconds_is_0_to_20() {
    assert_range("ReceiveMessageWaitTimeSeconds", 0, 20);
}

#[test]
fn maximum_message_size_is_1024_to_1048576() {
    assert_range("MaximumMessageSize", 1_024, 1_048_576);
}

#[test]
fn kms_data_key_reuse_period_seconds_is_60_to_86400() {
    assert_range_beside(
        "KmsDataKeyReusePeriodSeconds",
        60,
        86_400,
        json!({ "KmsMasterKeyId": "alias/aws/sqs" }),
    );
}

#[test]
fn redrive_policy_max_receive_count_is_1_to_1000() {
    let mut sqs = Sqs::new();
    let (_, arn) = sqs.create_with_arn("dlq", json!({}));
    let policy =
        |count: i64| json!({ "deadLetterTargetArn": arn, "maxReceiveCount": count }).to_string();
    for (i, ok) in [1, 1000].into_iter().enumerate() {
        let url = sqs.create(&format!("src{i}"), json!({ "RedrivePolicy": policy(ok) }));
        let stored: Value = serde_json::from_str(&sqs.attribute(&url, "RedrivePolicy")).unwrap();
        assert_eq!(stored["deadLetterTargetArn"], arn.as_str());
        assert_eq!(
            stored["maxReceiveCount"].to_string().trim_matches('"'),
            ok.to_string()
        );
    }
    let url = sqs.create("src", json!({}));
    for bad in [0, 1001] {
        let refusal = format!(
            "Value {} for parameter RedrivePolicy is invalid. Reason: Invalid value for \
             maxReceiveCount: {bad}, valid values are from 1 to 1000 both inclusive.",
            policy(bad)
        );
        sqs.create_reply("bad", json!({ "RedrivePolicy": policy(bad) }))
            .rejected(400, "InvalidParameterValue", &refusal);
        sqs.set_attributes(&url, json!({ "RedrivePolicy": policy(bad) }))
            .rejected(400, "InvalidParameterValue", &refusal);
    }
    assert_eq!(sqs.attribute(&url, "RedrivePolicy"), "");
}

#[test]
fn redrive_allow_policy_takes_allow_all_deny_all_or_by_queue_with_up_to_10_arns() {
    let (mut sqs, url) = Sqs::with_queue("dlq", json!({}));
    for permission in ["allowAll", "denyAll"] {
        let text = json!({ "redrivePermission": permission }).to_string();
        sqs.set_attributes(&url, json!({ "RedriveAllowPolicy": text }))
            .ok();
        let stored: Value =
            serde_json::from_str(&sqs.attribute(&url, "RedriveAllowPolicy")).unwrap();
        assert_eq!(stored["redrivePermission"], permission);
    }
    let arns = |n: usize| -> Vec<String> {
        (0..n)
            .map(|i| format!("arn:aws:sqs:us-east-1:000000000000:src{i}"))
            .collect()
    };
    let by_queue = |n: usize| {
        json!({ "redrivePermission": "byQueue", "sourceQueueArns": arns(n) }).to_string()
    };
    sqs.set_attributes(&url, json!({ "RedriveAllowPolicy": by_queue(10) }))
        .ok();
    let stored: Value = serde_json::from_str(&sqs.attribute(&url, "RedriveAllowPolicy")).unwrap();
    assert_eq!(stored["redrivePermission"], "byQueue");
    assert_eq!(stored["sourceQueueArns"], json!(arns(10)));
    sqs.set_attributes(&url, json!({ "RedriveAllowPolicy": by_queue(11) }))
        .err("InvalidAttributeValue");
    let bad = json!({ "redrivePermission": "everyone" }).to_string();
    assert_eq!(
        sqs.set_attributes(&url, json!({ "RedriveAllowPolicy": bad }))
            .status,
        400
    );
}

#[test]
fn fifo_attributes_take_their_documented_values_on_a_fifo_queue() {
    let (mut sqs, url) = Sqs::with_queue(
        "orders.fifo",
        json!({ "FifoQueue": "true", "ContentBasedDeduplication": "true",
                "DeduplicationScope": "messageGroup", "FifoThroughputLimit": "perMessageGroupId" }),
    );
    assert_eq!(sqs.attribute(&url, "ContentBasedDeduplication"), "true");
    assert_eq!(sqs.attribute(&url, "DeduplicationScope"), "messageGroup");
    assert_eq!(
        sqs.attribute(&url, "FifoThroughputLimit"),
        "perMessageGroupId"
    );
    sqs.set_attributes(
        &url,
        json!({ "ContentBasedDeduplication": "false", "DeduplicationScope": "queue",
                "FifoThroughputLimit": "perQueue" }),
    )
    .ok();
    assert_eq!(sqs.attribute(&url, "ContentBasedDeduplication"), "false");
    assert_eq!(sqs.attribute(&url, "DeduplicationScope"), "queue");
    assert_eq!(sqs.attribute(&url, "FifoThroughputLimit"), "perQueue");
    for bad in [
        json!({ "DeduplicationScope": "group" }),
        json!({ "FifoThroughputLimit": "perGroup" }),
        json!({ "ContentBasedDeduplication": "yes" }),
    ] {
        sqs.set_attributes(&url, bad).err("InvalidAttributeValue");
    }
}

#[test]
fn policy_sse_and_kms_attributes_are_stored_and_returned() {
    let mut sqs = Sqs::new();
    let policy = json!({
        "Version": "2012-10-17",
        "Statement": [{ "Effect": "Allow", "Principal": { "Service": "sns.amazonaws.com" },
                        "Action": "sqs:SendMessage", "Resource": "*" }]
    })
    .to_string();
    let url = sqs.create(
        "orders",
        json!({ "Policy": policy, "SqsManagedSseEnabled": "false" }),
    );
    assert_eq!(sqs.attribute(&url, "Policy"), policy);
    assert_eq!(sqs.attribute(&url, "SqsManagedSseEnabled"), "false");
    sqs.set_attributes(&url, json!({ "SqsManagedSseEnabled": "true" }))
        .ok();
    assert_eq!(sqs.attribute(&url, "SqsManagedSseEnabled"), "true");
    sqs.set_attributes(
        &url,
        json!({ "KmsMasterKeyId": "alias/aws/sqs", "KmsDataKeyReusePeriodSeconds": "600" }),
    )
    .ok();
    assert_eq!(sqs.attribute(&url, "KmsMasterKeyId"), "alias/aws/sqs");
    assert_eq!(sqs.attribute(&url, "KmsDataKeyReusePeriodSeconds"), "600");
}

#[test]
fn setting_kms_master_key_id_turns_sqs_managed_sse_enabled_to_false() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    assert_eq!(sqs.attribute(&url, "SqsManagedSseEnabled"), "true");
    sqs.set_attributes(&url, json!({ "KmsMasterKeyId": "alias/aws/sqs" }))
        .ok();
    assert_eq!(sqs.attribute(&url, "SqsManagedSseEnabled"), "false");
    let created = sqs.create("kms", json!({ "KmsMasterKeyId": "alias/mine" }));
    assert_eq!(sqs.attribute(&created, "SqsManagedSseEnabled"), "false");
}

#[test]
fn unknown_attribute_name_is_invalid_attribute_name() {
    let mut sqs = Sqs::new();
    sqs.create_reply("orders", json!({ "Colour": "blue" }))
        .err("InvalidAttributeName")
        .message_contains("Colour");
    let url = sqs.create("orders", json!({}));
    sqs.set_attributes(&url, json!({ "visibilitytimeout": "5" }))
        .err("InvalidAttributeName");
    sqs.call(
        "GetQueueAttributes",
        json!({ "QueueUrl": url, "AttributeNames": ["Colour"] }),
    )
    .err("InvalidAttributeName");
}

#[test]
fn read_only_attributes_cannot_be_set() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for name in [
        "ApproximateNumberOfMessages",
        "ApproximateNumberOfMessagesNotVisible",
        "ApproximateNumberOfMessagesDelayed",
        "CreatedTimestamp",
        "LastModifiedTimestamp",
        "QueueArn",
    ] {
        sqs.set_attributes(&url, json!({ name: "1" }))
            .err("InvalidAttributeName");
        sqs.create_reply("other", json!({ name: "1" }))
            .err("InvalidAttributeName");
    }
}

/// Asserts that a standard queue "orders" refuses a FIFO-only attribute with
/// InvalidAttributeName, both at create (`at_create`) and when set
/// (`at_set`) on the queue created without it; answers both replies.
#[track_caller]
fn refused_on_a_standard_queue(at_create: Value, at_set: Value) -> (Reply, Reply) {
    let mut sqs = Sqs::new();
    let created = sqs.create_reply("orders", at_create);
    created.err("InvalidAttributeName");
    let url = sqs.create("orders", json!({}));
    let set = sqs.set_attributes(&url, at_set);
    set.err("InvalidAttributeName");
    (created, set)
}

#[test]
fn fifo_queue_attribute_on_a_standard_queue_is_invalid_attribute_name() {
    let (created, set) = refused_on_a_standard_queue(
        json!({ "FifoQueue": "false" }),
        json!({ "FifoQueue": "true" }),
    );
    assert_eq!(created.message(), "Unknown Attribute FifoQueue.");
    set.message_contains("Unknown Attribute FifoQueue.");
}

#[test]
fn content_based_deduplication_on_a_standard_queue_is_invalid_attribute_name() {
    refused_on_a_standard_queue(
        json!({ "ContentBasedDeduplication": "true" }),
        json!({ "ContentBasedDeduplication": "false" }),
    );
}

#[test]
fn deduplication_scope_on_a_standard_queue_is_invalid_attribute_name() {
    let (created, _) = refused_on_a_standard_queue(
        json!({ "DeduplicationScope": "queue" }),
        json!({ "DeduplicationScope": "messageGroup" }),
    );
    assert_eq!(
        created.message(),
        "You can specify the DeduplicationScope only when FifoQueue is set to true."
    );
}

#[test]
fn fifo_throughput_limit_on_a_standard_queue_is_invalid_attribute_name() {
    let (created, _) = refused_on_a_standard_queue(
        json!({ "FifoThroughputLimit": "perQueue" }),
        json!({ "FifoThroughputLimit": "perQueue" }),
    );
    created.message_contains("FifoThroughputLimit");
}

#[test]
fn changing_fifo_queue_after_creation_is_invalid_attribute_value() {
    let (mut sqs, url) = Sqs::with_queue("orders.fifo", json!({ "FifoQueue": "true" }));
    let reply = sqs.set_attributes(&url, json!({ "FifoQueue": "false" }));
    reply.err("InvalidAttributeValue");
    reply.message_contains("Modifying queue type is not supported");
    assert_eq!(sqs.attribute(&url, "FifoQueue"), "true");
}

#[test]
fn writing_fifo_queue_true_back_to_a_fifo_queue_answers_200() {
    let (mut sqs, url) = Sqs::with_queue("orders.fifo", json!({ "FifoQueue": "true" }));
    // Tools write back the map they read, FifoQueue included.
    sqs.set_attributes(
        &url,
        json!({ "FifoQueue": "true", "VisibilityTimeout": "45" }),
    )
    .ok();
    assert_eq!(sqs.attribute(&url, "FifoQueue"), "true");
    assert_eq!(sqs.attribute(&url, "VisibilityTimeout"), "45");
    // On a standard queue FifoQueue is still unknown, whatever its value.
    let standard = sqs.create("plain", json!({}));
    for value in ["true", "false"] {
        sqs.set_attributes(&standard, json!({ "FifoQueue": value }))
            .err("InvalidAttributeName");
    }
}

const THROUGHPUT_NEEDS_GROUP_SCOPE: &str =
    "To set FifoThroughputLimit to perMessageGroupId, the DeduplicationScope must be messageGroup";

#[test]
fn fifo_throughput_limit_per_message_group_id_needs_deduplication_scope_message_group() {
    let mut sqs = Sqs::new();
    let fifo = |extra: Value| {
        let mut attributes = json!({ "FifoQueue": "true" });
        attributes
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        attributes
    };
    // At create: alone, or with the queue scope.
    for extra in [
        json!({ "FifoThroughputLimit": "perMessageGroupId" }),
        json!({ "FifoThroughputLimit": "perMessageGroupId", "DeduplicationScope": "queue" }),
    ] {
        sqs.create_reply("ht.fifo", fifo(extra)).rejected(
            400,
            "InvalidAttributeValue",
            THROUGHPUT_NEEDS_GROUP_SCOPE,
        );
    }
    // At set: against the scope the queue already has, and nothing changes.
    let url = sqs.create("ht.fifo", fifo(json!({})));
    sqs.set_attributes(&url, json!({ "FifoThroughputLimit": "perMessageGroupId" }))
        .rejected(400, "InvalidAttributeValue", THROUGHPUT_NEEDS_GROUP_SCOPE);
    assert_eq!(sqs.attribute(&url, "FifoThroughputLimit"), "perQueue");
    sqs.set_attributes(
        &url,
        json!({ "FifoThroughputLimit": "perMessageGroupId", "DeduplicationScope": "messageGroup" }),
    )
    .ok();
    // Taking the scope back while the limit stays is refused too.
    sqs.set_attributes(&url, json!({ "DeduplicationScope": "queue" }))
        .rejected(400, "InvalidAttributeValue", THROUGHPUT_NEEDS_GROUP_SCOPE);
    assert_eq!(sqs.attribute(&url, "DeduplicationScope"), "messageGroup");
}

#[test]
fn a_rejected_set_changes_nothing() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.set_attributes(
        &url,
        json!({ "VisibilityTimeout": "99", "DelaySeconds": "901" }),
    )
    .err("InvalidAttributeValue");
    assert_eq!(sqs.attribute(&url, "VisibilityTimeout"), "30");
}

// --- Reading attributes ---

#[test]
fn get_queue_attributes_all_on_new_standard_queue_returns_exactly_12() {
    let mut sqs = Sqs::new();
    let start_s = sqs.engine.config().start_epoch_ms / 1000;
    let url = sqs.create("orders", json!({}));
    let attributes = all_attributes(&mut sqs, &url);
    let ts = start_s.to_string();
    assert_eq!(
        Value::Object(attributes),
        json!({
            "ApproximateNumberOfMessages": "0",
            "ApproximateNumberOfMessagesDelayed": "0",
            "ApproximateNumberOfMessagesNotVisible": "0",
            "CreatedTimestamp": ts,
            "DelaySeconds": "0",
            "LastModifiedTimestamp": ts,
            "MaximumMessageSize": "1048576",
            "MessageRetentionPeriod": "345600",
            "QueueArn": "arn:aws:sqs:us-east-1:000000000000:orders",
            "ReceiveMessageWaitTimeSeconds": "0",
            "SqsManagedSseEnabled": "true",
            "VisibilityTimeout": "30",
        })
    );
}

#[test]
fn get_queue_attributes_all_on_new_fifo_queue_returns_exactly_16() {
    let (mut sqs, url) = Sqs::with_queue("orders.fifo", json!({ "FifoQueue": "true" }));
    let attributes = all_attributes(&mut sqs, &url);
    assert_eq!(attributes.len(), 16, "{attributes:?}");
    for (name, value) in [
        ("ContentBasedDeduplication", "false"),
        ("DeduplicationScope", "queue"),
        ("FifoQueue", "true"),
        ("FifoThroughputLimit", "perQueue"),
        ("VisibilityTimeout", "30"),
        ("QueueArn", "arn:aws:sqs:us-east-1:000000000000:orders.fifo"),
    ] {
        assert_eq!(attributes[name], value, "{name}");
    }
}

#[test]
fn policy_redrive_policy_and_kms_appear_only_once_set() {
    let mut sqs = Sqs::new();
    let (_, dlq_arn) = sqs.create_with_arn("dlq", json!({}));
    let url = sqs.create("orders", json!({}));
    for name in [
        "Policy",
        "RedrivePolicy",
        "RedriveAllowPolicy",
        "KmsMasterKeyId",
        "KmsDataKeyReusePeriodSeconds",
    ] {
        let body = sqs
            .call(
                "GetQueueAttributes",
                json!({ "QueueUrl": url, "AttributeNames": [name] }),
            )
            .ok();
        assert!(
            body.get("Attributes").is_none_or(|a| a.get(name).is_none()),
            "{name}: {body}"
        );
    }
    sqs.set_attributes(&url,
        json!({
            "Policy": json!({ "Version": "2012-10-17", "Statement": [] }).to_string(),
            "RedrivePolicy": json!({ "deadLetterTargetArn": dlq_arn, "maxReceiveCount": 5 }).to_string(),
            "KmsMasterKeyId": "alias/aws/sqs",
            "KmsDataKeyReusePeriodSeconds": "300",
        }),
    )
    .ok();
    let attributes = all_attributes(&mut sqs, &url);
    assert_eq!(attributes.len(), 16, "{attributes:?}");
    for name in [
        "Policy",
        "RedrivePolicy",
        "KmsMasterKeyId",
        "KmsDataKeyReusePeriodSeconds",
    ] {
        assert!(attributes.contains_key(name), "{name}");
    }
    assert_eq!(attributes["SqsManagedSseEnabled"], "false");
}

#[test]
fn get_queue_attributes_returns_only_the_names_asked_for() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let body = sqs
        .call(
            "GetQueueAttributes",
            json!({ "QueueUrl": url, "AttributeNames": ["VisibilityTimeout", "DelaySeconds"] }),
        )
        .ok();
    assert_eq!(
        body,
        json!({ "Attributes": { "VisibilityTimeout": "30", "DelaySeconds": "0" } })
    );
    // FIFO-only names asked of a standard queue are simply absent.
    let body = sqs
        .call(
            "GetQueueAttributes",
            json!({ "QueueUrl": url, "AttributeNames": ["FifoQueue", "DelaySeconds"] }),
        )
        .ok();
    assert_eq!(body, json!({ "Attributes": { "DelaySeconds": "0" } }));
}

#[test]
fn approximate_counts_track_visible_in_flight_and_delayed_messages() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.send(&url, "a");
    sqs.send(&url, "b");
    sqs.send(&url, "c");
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "later", "DelaySeconds": 10 }),
    )
    .ok();
    let got = sqs.receive(&url, 1);
    let count = |sqs: &mut Sqs, name: &str| sqs.attribute(&url, name);
    assert_eq!(count(&mut sqs, "ApproximateNumberOfMessages"), "2");
    assert_eq!(
        count(&mut sqs, "ApproximateNumberOfMessagesNotVisible"),
        "1"
    );
    assert_eq!(count(&mut sqs, "ApproximateNumberOfMessagesDelayed"), "1");
    sqs.advance(10_000);
    assert_eq!(count(&mut sqs, "ApproximateNumberOfMessages"), "3");
    assert_eq!(count(&mut sqs, "ApproximateNumberOfMessagesDelayed"), "0");
    sqs.delete(&url, &got[0]["ReceiptHandle"]).ok();
    assert_eq!(
        count(&mut sqs, "ApproximateNumberOfMessagesNotVisible"),
        "0"
    );
    assert_eq!(count(&mut sqs, "ApproximateNumberOfMessages"), "3");
}

/// Asserts a queue's CreatedTimestamp and LastModifiedTimestamp, in seconds.
#[track_caller]
fn assert_timestamps(sqs: &mut Sqs, url: &str, created: u64, last_modified: u64) {
    assert_eq!(sqs.attribute(url, "CreatedTimestamp"), created.to_string());
    assert_eq!(
        sqs.attribute(url, "LastModifiedTimestamp"),
        last_modified.to_string()
    );
}

#[test]
fn created_and_last_modified_timestamps_are_epoch_seconds() {
    let mut sqs = Sqs::new();
    let start_s = sqs.engine.config().start_epoch_ms / 1000;
    sqs.advance(7_500);
    let url = sqs.create("orders", json!({}));
    assert_timestamps(&mut sqs, &url, start_s + 7, start_s + 7);
    sqs.advance(100_000);
    sqs.set_attributes(&url, json!({ "VisibilityTimeout": "45" }))
        .ok();
    assert_timestamps(&mut sqs, &url, start_s + 7, start_s + 107);
}

#[test]
fn queue_arn_is_arn_aws_sqs_region_account_name() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    assert_eq!(sqs.arn(&url), "arn:aws:sqs:us-east-1:000000000000:orders");
}

// --- ListQueues ---

#[test]
fn list_queues_returns_urls_in_name_order() {
    let mut sqs = Sqs::new();
    for name in ["b", "a", "c-2", "C", "c-1"] {
        sqs.create(name, json!({}));
    }
    let body = sqs.call("ListQueues", json!({})).ok();
    assert_eq!(body.get("NextToken"), None);
    assert_eq!(body["QueueUrls"][0], sqs_url("C"));
    assert_eq!(list(&mut sqs, json!({})).0, ["C", "a", "b", "c-1", "c-2"]);
}

#[test]
fn list_queues_filters_by_queue_name_prefix() {
    let mut sqs = Sqs::new();
    for name in ["orders-eu", "orders-us", "order", "payments"] {
        sqs.create(name, json!({}));
    }
    assert_eq!(
        list(&mut sqs, json!({ "QueueNamePrefix": "orders" })).0,
        ["orders-eu", "orders-us"]
    );
    assert_eq!(
        list(&mut sqs, json!({ "QueueNamePrefix": "order" })).0,
        ["order", "orders-eu", "orders-us"]
    );
    // Prefixes are case-sensitive.
    assert!(list(&mut sqs, json!({ "QueueNamePrefix": "Orders" }))
        .0
        .is_empty());
}

#[test]
fn list_queues_with_max_results_pages_with_next_token_until_the_last_page() {
    let mut sqs = Sqs::new();
    for name in ["a", "b", "c", "d", "e"] {
        sqs.create(name, json!({}));
    }
    let (page, token) = list(&mut sqs, json!({ "MaxResults": 2 }));
    assert_eq!(page, ["a", "b"]);
    let token = token.expect("more remain");
    let (page, token) = list(&mut sqs, json!({ "MaxResults": 2, "NextToken": token }));
    assert_eq!(page, ["c", "d"]);
    let token = token.expect("more remain");
    let (page, token) = list(&mut sqs, json!({ "MaxResults": 2, "NextToken": token }));
    assert_eq!(page, ["e"]);
    assert_eq!(token, None);
}

#[test]
fn list_queues_last_full_page_has_no_next_token() {
    let mut sqs = Sqs::new();
    for name in ["a", "b", "c", "d"] {
        sqs.create(name, json!({}));
    }
    let (page, token) = list(&mut sqs, json!({ "MaxResults": 2 }));
    assert_eq!(page, ["a", "b"]);
    let (page, token) = list(
        &mut sqs,
        json!({ "MaxResults": 2, "NextToken": token.unwrap() }),
    );
    assert_eq!(page, ["c", "d"]);
    assert_eq!(token, None);
    let (page, token) = list(&mut sqs, json!({ "MaxResults": 4 }));
    assert_eq!(page.len(), 4);
    assert_eq!(token, None);
}

#[test]
fn list_queues_pages_within_a_prefix() {
    let mut sqs = Sqs::new();
    for name in ["a1", "b1", "b2", "b3", "c1"] {
        sqs.create(name, json!({}));
    }
    let (page, token) = list(&mut sqs, json!({ "QueueNamePrefix": "b", "MaxResults": 2 }));
    assert_eq!(page, ["b1", "b2"]);
    let (page, token) = list(
        &mut sqs,
        json!({ "QueueNamePrefix": "b", "MaxResults": 2, "NextToken": token.unwrap() }),
    );
    assert_eq!(page, ["b3"]);
    assert_eq!(token, None);
}

#[test]
fn list_queues_max_results_is_1_to_1000() {
    let mut sqs = Sqs::new();
    sqs.create("a", json!({}));
    sqs.create("b", json!({}));
    assert_eq!(list(&mut sqs, json!({ "MaxResults": 1 })).0, ["a"]);
    assert_eq!(list(&mut sqs, json!({ "MaxResults": 1000 })).0, ["a", "b"]);
    for bad in [0, -1, 1001] {
        sqs.call("ListQueues", json!({ "MaxResults": bad }))
            .err("InvalidParameterValue");
    }
}

#[test]
fn list_queues_with_a_garbage_next_token_is_rejected() {
    let mut sqs = Sqs::new();
    sqs.create("a", json!({}));
    let reply = sqs.call("ListQueues", json!({ "MaxResults": 1, "NextToken": "%%%" }));
    reply.err("InvalidParameterValue");
}

#[test]
fn deleted_queues_leave_the_list() {
    let mut sqs = Sqs::new();
    let a = sqs.create("a", json!({}));
    sqs.create("b", json!({}));
    sqs.call("DeleteQueue", json!({ "QueueUrl": a })).ok();
    assert_eq!(list(&mut sqs, json!({})).0, ["b"]);
}

// --- PurgeQueue ---

#[test]
fn purge_queue_deletes_all_messages() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for body in ["a", "b", "c"] {
        sqs.send(&url, body);
    }
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "later", "DelaySeconds": 60 }),
    )
    .ok();
    assert_eq!(sqs.receive(&url, 1).len(), 1);
    sqs.call("PurgeQueue", json!({ "QueueUrl": url })).ok();
    for name in [
        "ApproximateNumberOfMessages",
        "ApproximateNumberOfMessagesNotVisible",
        "ApproximateNumberOfMessagesDelayed",
    ] {
        assert_eq!(sqs.attribute(&url, name), "0", "{name}");
    }
    sqs.advance(120_000);
    sqs.receive_none(&url, 10);
    // New messages arrive normally afterwards.
    sqs.send(&url, "after");
    assert_eq!(sqs.receive_bodies(&url, 10), ["after"]);
}

#[test]
fn second_purge_within_60_seconds_is_purge_queue_in_progress() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.call("PurgeQueue", json!({ "QueueUrl": url })).ok();
    sqs.advance(59_999);
    let reply = sqs.call("PurgeQueue", json!({ "QueueUrl": url }));
    reply.error_envelope(
        403,
        "AWS.SimpleQueueService.PurgeQueueInProgress",
        "PurgeQueueInProgress",
    );
    sqs.advance(1);
    sqs.call("PurgeQueue", json!({ "QueueUrl": url })).ok();
}

#[test]
fn purge_limit_is_per_queue() {
    let mut sqs = Sqs::new();
    let a = sqs.create("a", json!({}));
    let b = sqs.create("b", json!({}));
    sqs.call("PurgeQueue", json!({ "QueueUrl": a })).ok();
    sqs.call("PurgeQueue", json!({ "QueueUrl": b })).ok();
}

// --- Tags ---

fn tag(sqs: &mut Sqs, url: &str, tags: Value) -> Reply {
    sqs.call("TagQueue", json!({ "QueueUrl": url, "Tags": tags }))
}

/// The answer of ListQueueTags.
#[track_caller]
fn list_tags(sqs: &mut Sqs, url: &str) -> Value {
    sqs.call("ListQueueTags", json!({ "QueueUrl": url })).ok()
}

#[test]
fn tag_queue_and_list_queue_tags_round_trip() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    tag(&mut sqs, &url, json!({ "team": "payments", "env": "dev" })).ok();
    tag(&mut sqs, &url, json!({ "env": "prod" })).ok();
    assert_eq!(
        list_tags(&mut sqs, &url),
        json!({ "Tags": { "team": "payments", "env": "prod" } })
    );
}

#[test]
fn create_queue_takes_tags() {
    let mut sqs = Sqs::new();
    let body = sqs
        .call(
            "CreateQueue",
            json!({ "QueueName": "orders", "tags": { "team": "payments" } }),
        )
        .ok();
    assert_eq!(
        list_tags(&mut sqs, body["QueueUrl"].as_str().unwrap())["Tags"],
        json!({ "team": "payments" })
    );
}

#[test]
fn untag_queue_removes_the_keys() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    tag(&mut sqs, &url, json!({ "a": "1", "b": "2", "c": "3" })).ok();
    sqs.call(
        "UntagQueue",
        json!({ "QueueUrl": url, "TagKeys": ["a", "c", "missing"] }),
    )
    .ok();
    assert_eq!(list_tags(&mut sqs, &url)["Tags"], json!({ "b": "2" }));
}

#[test]
fn a_queue_holds_up_to_50_tags() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let tags = |range: std::ops::Range<usize>| -> Map<String, Value> {
        range.map(|i| (format!("k{i}"), json!("v"))).collect()
    };
    tag(&mut sqs, &url, Value::Object(tags(0..50))).ok();
    // Re-tagging existing keys does not add to the count.
    tag(&mut sqs, &url, Value::Object(tags(40..50))).ok();
    tag(&mut sqs, &url, Value::Object(tags(50..51))).err("InvalidParameterValue");
    let body = list_tags(&mut sqs, &url);
    assert_eq!(body["Tags"].as_object().unwrap().len(), 50);

    create_reply_with_tags(&mut sqs, "too-many", tags(0..51)).err("InvalidParameterValue");
    create_reply_with_tags(&mut sqs, "just-enough", tags(0..50)).ok();
}

fn create_reply_with_tags(sqs: &mut Sqs, name: &str, tags: Map<String, Value>) -> Reply {
    sqs.call("CreateQueue", json!({ "QueueName": name, "tags": tags }))
}

// --- ListDeadLetterSourceQueues ---

#[test]
fn list_dead_letter_source_queues_lists_queues_whose_redrive_policy_targets_the_dlq() {
    let mut sqs = Sqs::new();
    let dlq = sqs.create("dlq", json!({}));
    let other_dlq = sqs.create("other-dlq", json!({}));
    let policy = |sqs: &mut Sqs, target: &str| {
        let arn = sqs.arn(target);
        json!({ "RedrivePolicy": json!({ "deadLetterTargetArn": arn, "maxReceiveCount": 3 }).to_string() })
    };
    let p = policy(&mut sqs, &dlq);
    let src_b = sqs.create("src-b", p.clone());
    let src_a = sqs.create("src-a", p);
    let p = policy(&mut sqs, &other_dlq);
    sqs.create("src-c", p);
    sqs.create("plain", json!({}));
    let body = sqs
        .call("ListDeadLetterSourceQueues", json!({ "QueueUrl": dlq }))
        .ok();
    assert_eq!(body["queueUrls"], json!([src_a, src_b]));
    assert!(body.get("NextToken").is_none());

    let page = sqs
        .call(
            "ListDeadLetterSourceQueues",
            json!({ "QueueUrl": dlq, "MaxResults": 1 }),
        )
        .ok();
    assert_eq!(page["queueUrls"], json!([src_a]));
    let token = page["NextToken"].clone();
    let page = sqs
        .call(
            "ListDeadLetterSourceQueues",
            json!({ "QueueUrl": dlq, "MaxResults": 1, "NextToken": token }),
        )
        .ok();
    assert_eq!(page["queueUrls"], json!([src_b]));
    assert!(page.get("NextToken").is_none());
}

// --- Differences found against AWS in the second fidelity pass (issue 11) ---

#[test]
fn create_queue_of_an_existing_queue_with_different_tags_is_queue_already_exists() {
    let mut sqs = Sqs::new();
    let create = |sqs: &mut Sqs, tags: Value| {
        sqs.call("CreateQueue", json!({ "QueueName": "t1", "tags": tags }))
    };
    create(&mut sqs, json!({ "team": "a" })).ok();
    // The same tags, or none at all: the existing queue.
    create(&mut sqs, json!({ "team": "a" })).ok();
    create(&mut sqs, json!({})).ok();
    create(&mut sqs, json!({ "team": "b" })).rejected(
        400,
        "QueueAlreadyExists",
        "A queue already exists with the same name and different tags",
    );
    let url = sqs.create("untagged", json!({}));
    sqs.call(
        "CreateQueue",
        json!({ "QueueName": "untagged", "tags": { "x": "y" } }),
    )
    .err("QueueAlreadyExists");
    assert_eq!(list_tags(&mut sqs, &url), json!({}));
}

#[test]
fn untag_queue_with_an_empty_tag_key_list_is_invalid_parameter_value() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let text = "Tag keys must be between 1 and 128 characters in length.";
    for keys in [json!([]), json!([""]), json!(["k".repeat(129)])] {
        sqs.call("UntagQueue", json!({ "QueueUrl": url, "TagKeys": keys }))
            .rejected(400, "InvalidParameterValue", text);
    }
    // Leaving the member out is still a missing parameter.
    sqs.call("UntagQueue", json!({ "QueueUrl": url }))
        .err("MissingParameter");
}

#[test]
fn kms_data_key_reuse_period_is_not_listed_once_the_kms_key_is_reset() {
    // Recorded against AWS: after resetting KmsMasterKeyId to "", neither
    // KMS attribute is listed, and SqsManagedSseEnabled stays "false".
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.set_attributes(
        &url,
        json!({ "KmsMasterKeyId": "testKeyId", "KmsDataKeyReusePeriodSeconds": "6000" }),
    )
    .ok();
    assert_eq!(sqs.attribute(&url, "KmsDataKeyReusePeriodSeconds"), "6000");
    sqs.set_attributes(
        &url,
        json!({ "KmsMasterKeyId": "", "KmsDataKeyReusePeriodSeconds": "300" }),
    )
    .ok();
    let all = all_attributes(&mut sqs, &url);
    assert!(!all.contains_key("KmsMasterKeyId"), "{all:?}");
    assert!(!all.contains_key("KmsDataKeyReusePeriodSeconds"), "{all:?}");
    assert_eq!(all["SqsManagedSseEnabled"], "false");
    assert_eq!(all.len(), 12);
}

#[test]
fn a_queue_url_that_is_neither_a_url_nor_a_queue_name_is_invalid_address() {
    let (mut sqs, _) = Sqs::with_queue("orders", json!({}));
    for address in ["not a url at all", "{'QueueUrl': 'x'}", "orders?x=1"] {
        sqs.call(
            "SendMessage",
            json!({ "QueueUrl": address, "MessageBody": "x" }),
        )
        .rejected(
            404,
            "InvalidAddress",
            &format!("The address {address} is not valid for this endpoint."),
        );
    }
}

#[test]
fn a_queue_name_that_is_not_valid_gets_aws_text_without_repeating_the_name() {
    let mut sqs = Sqs::new();
    for name in ["a".repeat(81), "a.b".to_string(), "queue/abc".to_string()] {
        sqs.create_reply(&name, json!({})).rejected(
            400,
            "InvalidParameterValue",
            "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length",
        );
    }
}
