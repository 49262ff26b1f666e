//! The "Messages" section of sqs-facts.md: sizes, bodies and their
//! characters, message attributes, per-message delays, batch rules and
//! retention, in virtual time.

mod common;
use common::{string_attribute, successful_ids, Reply, Sqs};
use serde_json::{json, Map, Value};

const MIB: usize = 1_048_576;

fn send(sqs: &mut Sqs, body: Value) -> Reply {
    sqs.call("SendMessage", body)
}

fn send_with_attributes(sqs: &mut Sqs, url: &str, attributes: Value) -> Reply {
    send(
        sqs,
        json!({ "QueueUrl": url, "MessageBody": "x", "MessageAttributes": attributes }),
    )
}

/// A SendMessage of `body` to `url` with this per-message delay.
fn send_delayed(sqs: &mut Sqs, url: &str, body: &str, delay: i64) -> Reply {
    send(
        sqs,
        json!({ "QueueUrl": url, "MessageBody": body, "DelaySeconds": delay }),
    )
}

/// Sends one String attribute under each of `names` to a fresh queue and
/// expects each send to be refused with InvalidParameterValue.
#[track_caller]
fn assert_attribute_names_rejected(names: &[&str]) {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for &name in names {
        send_with_attributes(&mut sqs, &url, json!({ name: string_attribute("v") }))
            .err("InvalidParameterValue");
    }
}

/// Sends one String attribute under each of `names` to a fresh queue and
/// expects each send to succeed.
#[track_caller]
fn assert_attribute_names_accepted(names: &[&str]) {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for &name in names {
        send_with_attributes(&mut sqs, &url, json!({ name: string_attribute("v") })).ok();
    }
}

fn visible(sqs: &mut Sqs, url: &str) -> String {
    sqs.attribute(url, "ApproximateNumberOfMessages")
}

fn in_flight(sqs: &mut Sqs, url: &str) -> String {
    sqs.attribute(url, "ApproximateNumberOfMessagesNotVisible")
}

fn delayed(sqs: &mut Sqs, url: &str) -> String {
    sqs.attribute(url, "ApproximateNumberOfMessagesDelayed")
}

/// Asserts `url` has `before` visible messages for `ms - 1` more
/// milliseconds and `after` at the last one.
#[track_caller]
fn assert_visible_changes_at(sqs: &mut Sqs, url: &str, ms: u64, before: &str, after: &str) {
    sqs.advance(ms - 1);
    assert_eq!(visible(sqs, url), before);
    sqs.advance(1);
    assert_eq!(visible(sqs, url), after);
}

fn entries(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({ "Id": format!("e{i}"), "MessageBody": format!("body {i}") }))
        .collect()
}

/// A call of a batch `operation` on `url`.
fn batch_call(sqs: &mut Sqs, operation: &str, url: &str, entries: Value) -> Reply {
    sqs.call(operation, json!({ "QueueUrl": url, "Entries": entries }))
}

/// A valid entry of each batch operation, for the shared batch rules.
fn batch_entry(operation: &str, id: &str) -> Value {
    match operation {
        "SendMessageBatch" => json!({ "Id": id, "MessageBody": "x" }),
        "DeleteMessageBatch" => json!({ "Id": id, "ReceiptHandle": "AQEBxyz" }),
        _ => json!({ "Id": id, "ReceiptHandle": "AQEBxyz", "VisibilityTimeout": 5 }),
    }
}

const BATCH_OPERATIONS: [&str; 3] = [
    "SendMessageBatch",
    "DeleteMessageBatch",
    "ChangeMessageVisibilityBatch",
];

// --- Sizes ---

#[test]
fn message_of_1048576_bytes_is_accepted() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let body = "x".repeat(MIB);
    sqs.send(&url, &body);
    let got = sqs.receive(&url, 1);
    assert_eq!(got[0]["Body"].as_str().unwrap().len(), MIB);
}

#[test]
fn message_of_1048577_bytes_is_rejected() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    send(
        &mut sqs,
        json!({ "QueueUrl": url, "MessageBody": "x".repeat(MIB + 1) }),
    )
    .rejected(
        400,
        "InvalidParameterValue",
        "One or more parameters are invalid. Reason: Message must be shorter than 1048576 bytes.",
    );
    assert_eq!(visible(&mut sqs, &url), "0");
}

#[test]
fn message_size_counts_utf8_bytes_not_characters() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let two_byte = "é".repeat(MIB / 2);
    assert_eq!(two_byte.len(), MIB);
    sqs.send(&url, &two_byte);
    send(
        &mut sqs,
        json!({ "QueueUrl": url, "MessageBody": format!("{two_byte}x") }),
    )
    .err("InvalidParameterValue");
}

#[test]
fn message_size_counts_attribute_names_types_and_values() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    // "name" (4) + "String" (6) + "value" (5) = 15 bytes; "bin" (3) + "Binary" (6) + 4 bytes = 13.
    let attributes = json!({
        "name": string_attribute("value"),
        "bin": { "DataType": "Binary", "BinaryValue": "AQIDBA==" },
    });
    let fits = "x".repeat(MIB - 28);
    send(
        &mut sqs,
        json!({ "QueueUrl": url, "MessageBody": fits, "MessageAttributes": attributes }),
    )
    .ok();
    let over = "x".repeat(MIB - 27);
    send(
        &mut sqs,
        json!({ "QueueUrl": url, "MessageBody": over, "MessageAttributes": attributes }),
    )
    .err("InvalidParameterValue")
    .message_contains("Message must be shorter than 1048576 bytes.");
}

#[test]
fn maximum_message_size_attribute_limits_message_size() {
    let (mut sqs, url) = Sqs::with_queue("small", json!({ "MaximumMessageSize": "1024" }));
    sqs.send(&url, &"x".repeat(1024));
    let reply = send(
        &mut sqs,
        json!({ "QueueUrl": url, "MessageBody": "x".repeat(1025) }),
    );
    reply.err("InvalidParameterValue");
    assert_eq!(
        reply.message(),
        "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes."
    );
}

#[test]
fn batch_of_exactly_1048576_bytes_is_accepted() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let half = "x".repeat(MIB / 2);
    let body = sqs
        .send_batch(
            &url,
            json!([{ "Id": "a", "MessageBody": half }, { "Id": "b", "MessageBody": half }]),
        )
        .ok();
    assert_eq!(body["Successful"].as_array().unwrap().len(), 2);
}

#[test]
fn batch_over_1048576_bytes_is_batch_request_too_long() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.send_batch(
        &url,
        json!([
            { "Id": "a", "MessageBody": "x".repeat(MIB / 2) },
            { "Id": "b", "MessageBody": "x".repeat(MIB / 2 + 1) }]),
    )
    .rejected(
        400,
        "AWS.SimpleQueueService.BatchRequestTooLong",
        "Batch requests cannot be longer than 1048576 bytes. You have sent 1048577 bytes.",
    );
    assert_eq!(visible(&mut sqs, &url), "0");
}

#[test]
fn batch_size_counts_message_attributes() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    // "n" (1) + "String" (6) + "v" (1) = 8 bytes of attributes.
    sqs.send_batch(
        &url,
        json!([
            { "Id": "a", "MessageBody": "x".repeat(MIB / 2) },
            { "Id": "b", "MessageBody": "x".repeat(MIB / 2 - 7),
              "MessageAttributes": { "n": string_attribute("v") } }]),
    )
    .err("AWS.SimpleQueueService.BatchRequestTooLong")
    .message_contains("You have sent 1048577 bytes.");
}

// --- Bodies ---

#[test]
fn empty_body_is_missing_parameter() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for body in [
        json!({ "QueueUrl": url, "MessageBody": "" }),
        json!({ "QueueUrl": url }),
    ] {
        let reply = send(&mut sqs, body);
        reply.err("MissingParameter");
        assert_eq!(
            reply.message(),
            "The request must contain the parameter MessageBody."
        );
    }
}

#[test]
fn body_with_every_allowed_character_range_round_trips() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let text: String = [
        '\u{9}',
        '\u{A}',
        '\u{D}',
        '\u{20}',
        '~',
        '\u{7F}',
        'é',
        '\u{D7FF}',
        '\u{E000}',
        '\u{FFFD}',
        '\u{10000}',
        '😀',
        '\u{10FFFF}',
    ]
    .into_iter()
    .collect();
    sqs.send(&url, &text);
    assert_eq!(sqs.receive_bodies(&url, 1), [text]);
}

#[test]
fn body_with_characters_outside_the_allowed_ranges_is_invalid_message_contents() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for c in [
        '\u{0}', '\u{1}', '\u{8}', '\u{B}', '\u{C}', '\u{E}', '\u{1F}', '\u{FFFE}', '\u{FFFF}',
    ] {
        let reply = send(
            &mut sqs,
            json!({ "QueueUrl": url, "MessageBody": format!("a{c}b") }),
        );
        assert_eq!(reply.status, 400);
        reply.err("InvalidMessageContents");
        assert!(reply.message().contains("#x9"), "{:?}", reply.message());
    }
    assert_eq!(visible(&mut sqs, &url), "0");
}

// --- Message attributes ---

#[test]
fn at_most_10_message_attributes() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let attributes = |n: usize| -> Map<String, Value> {
        (0..n)
            .map(|i| (format!("a{i}"), string_attribute("v")))
            .collect()
    };
    send_with_attributes(&mut sqs, &url, Value::Object(attributes(10))).ok();
    send_with_attributes(&mut sqs, &url, Value::Object(attributes(11)))
        .err("InvalidParameterValue");
}

#[test]
fn attribute_name_up_to_256_characters() {
    assert_attribute_names_accepted(&["n".repeat(256).as_str()]);
    assert_attribute_names_rejected(&["n".repeat(257).as_str()]);
}

#[test]
fn attribute_name_of_allowed_characters_is_accepted() {
    assert_attribute_names_accepted(&[
        "a",
        "Z9",
        "a-b_c.d",
        "AWSome",
        "Amazonian",
        "aws",
        "x.AWS.y",
    ]);
}

#[test]
fn attribute_name_starting_with_aws_or_amazon_in_any_case_is_rejected() {
    assert_attribute_names_rejected(&[
        "AWS.x",
        "aws.x",
        "Aws.trace",
        "Amazon.x",
        "amazon.x",
        "AMAZON.x",
    ]);
}

#[test]
fn attribute_name_starting_or_ending_with_a_period_is_rejected() {
    assert_attribute_names_rejected(&[".a", "a.", "."]);
}

#[test]
fn attribute_name_with_two_periods_in_a_row_is_rejected() {
    assert_attribute_names_rejected(&["a..b"]);
}

#[test]
fn attribute_name_with_other_characters_is_rejected() {
    // Recorded against AWS: `§ ! " ( ?` are refused. Just outside the
    // Latin letters: ¿ (U+00BF) and ƀ (U+0180).
    assert_attribute_names_rejected(&[
        "a b", "a/b", "a:b", "a*", "", "a§", "a!", "a\"", "a(", "a?", "a¿", "aƀ", "a€",
    ]);
}

#[test]
fn attribute_names_may_use_the_latin_1_and_latin_extended_a_letters() {
    // Recorded against AWS: `attr.1øßä` is accepted. U+00C0 and U+017F are
    // the two ends of the allowed range.
    assert_attribute_names_accepted(&["attr.1øßä", "À", "ſ", "Ærøskøbing-Łódź"]);
}

#[test]
fn attribute_data_types_string_number_binary_with_custom_suffix_are_accepted() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let attributes = json!({
        "s": { "DataType": "String", "StringValue": "text" },
        "n": { "DataType": "Number", "StringValue": "-12.5" },
        "b": { "DataType": "Binary", "BinaryValue": "AAEC" },
        "sc": { "DataType": "String.custom", "StringValue": "text" },
        "nc": { "DataType": "Number.float", "StringValue": "1e10" },
        "bc": { "DataType": "Binary.jpeg", "BinaryValue": "/9j/" },
    });
    send_with_attributes(&mut sqs, &url, attributes.clone()).ok();
    let got = sqs.receive_with_message_attributes(&url);
    assert_eq!(got[0]["MessageAttributes"], attributes);
}

#[test]
fn bad_attribute_data_type_is_rejected() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for data_type in ["string", "Text", "Int", "String.", "Numbers", "Binary1"] {
        send_with_attributes(
            &mut sqs,
            &url,
            json!({ "a": { "DataType": data_type, "StringValue": "1" } }),
        )
        .err("InvalidParameterValue");
    }
    send_with_attributes(&mut sqs, &url, json!({ "a": { "StringValue": "1" } }))
        .err("InvalidParameterValue");
}

#[test]
fn number_attribute_must_be_within_sqs_number_range() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let number = |v: &str| json!({ "n": { "DataType": "Number", "StringValue": v } });
    for ok in [
        "0",
        "-1",
        "+3.25",
        "1e126",
        "1E-128",
        "12345678901234567890123456789012345678",
    ] {
        send_with_attributes(&mut sqs, &url, number(ok)).ok();
    }
    for bad in [
        "abc",
        "1e127",
        "1e-129",
        "123456789012345678901234567890123456789",
        "1.2.3",
        "0x10",
    ] {
        send_with_attributes(&mut sqs, &url, number(bad)).err("InvalidParameterValue");
    }
}

#[test]
fn empty_string_attribute_value_is_rejected() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let reply = send_with_attributes(&mut sqs, &url, json!({ "X": string_attribute("") }));
    reply.err("InvalidParameterValue");
    assert_eq!(
        reply.message(),
        "Message (user) attribute 'X' must contain a non-empty value of type 'String'."
    );
    send_with_attributes(&mut sqs, &url, json!({ "X": { "DataType": "String" } }))
        .err("InvalidParameterValue")
        .message_contains("non-empty value of type 'String'");
    send_with_attributes(
        &mut sqs,
        &url,
        json!({ "X": { "DataType": "Binary", "BinaryValue": "" } }),
    )
    .err("InvalidParameterValue");
}

#[test]
fn bad_characters_in_a_string_attribute_value_are_invalid_parameter_value() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for value in ["a\u{1}", "\u{0}", "x\u{FFFE}"] {
        send_with_attributes(&mut sqs, &url, json!({ "X": string_attribute(value) })).rejected(
            400,
            "InvalidParameterValue",
            "Message (user) attribute 'X' has a String value with invalid characters. \
                 Invalid characters found. Valid unicode characters are #x9 | #xA | #xD | #x20 \
                 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF",
        );
    }
    // The body keeps its own code.
    send(
        &mut sqs,
        json!({ "QueueUrl": url, "MessageBody": "a\u{1}" }),
    )
    .err("InvalidMessageContents");
    assert_eq!(visible(&mut sqs, &url), "0");
}

// --- Delays ---

#[test]
fn per_message_delay_of_0_to_900_is_accepted() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for delay in [0, 1, 900] {
        send_delayed(&mut sqs, &url, "x", delay).ok();
    }
    assert_eq!(delayed(&mut sqs, &url), "2");
}

#[test]
fn per_message_delay_outside_0_to_900_is_rejected() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for delay in [-1, 901] {
        send_delayed(&mut sqs, &url, "x", delay)
            .err("InvalidParameterValue")
            .message_contains("DelaySeconds");
    }
}

#[test]
fn delayed_message_becomes_visible_when_its_delay_ends() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    send_delayed(&mut sqs, &url, "later", 5).ok();
    sqs.receive_none(&url, 10);
    assert_eq!(delayed(&mut sqs, &url), "1");
    assert_eq!(visible(&mut sqs, &url), "0");
    sqs.advance(4_999);
    sqs.receive_none(&url, 10);
    sqs.advance(1);
    assert_eq!(delayed(&mut sqs, &url), "0");
    assert_eq!(sqs.receive_bodies(&url, 10), ["later"]);
}

#[test]
fn queue_delay_applies_when_the_message_gives_none() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({ "DelaySeconds": "10" }));
    sqs.send(&url, "a");
    sqs.advance(9_999);
    sqs.receive_none(&url, 10);
    sqs.advance(1);
    assert_eq!(sqs.receive_bodies(&url, 10), ["a"]);
}

#[test]
fn per_message_delay_overrides_the_queues() {
    let (mut sqs, url) = Sqs::with_queue(
        "orders",
        json!({ "DelaySeconds": "60", "VisibilityTimeout": "43200" }),
    );
    send_delayed(&mut sqs, &url, "short", 5).ok();
    send_delayed(&mut sqs, &url, "now", 0).ok();
    send_delayed(&mut sqs, &url, "long", 120).ok();
    assert_eq!(sqs.receive_bodies(&url, 10), ["now"]);
    sqs.advance(5_000);
    assert_eq!(sqs.receive_bodies(&url, 10), ["short"]);
    sqs.advance(55_000);
    sqs.receive_none(&url, 10);
    sqs.advance(60_000);
    assert_eq!(sqs.receive_bodies(&url, 10), ["long"]);
}

#[test]
fn batch_entries_carry_their_own_delays() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({ "VisibilityTimeout": "43200" }));
    sqs.send_batch(
        &url,
        json!([
            { "Id": "a", "MessageBody": "now" },
            { "Id": "b", "MessageBody": "later", "DelaySeconds": 30 }]),
    )
    .ok();
    assert_eq!(sqs.receive_bodies(&url, 10), ["now"]);
    sqs.advance(30_000);
    assert_eq!(sqs.receive_bodies(&url, 10), ["later"]);
}

// --- Batch rules ---

#[test]
fn batch_of_0_entries_is_empty_batch_request() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for operation in BATCH_OPERATIONS {
        let reply = batch_call(&mut sqs, operation, &url, json!([]));
        assert_eq!(reply.status, 400, "{operation}");
        reply.err("AWS.SimpleQueueService.EmptyBatchRequest");
    }
}

#[test]
fn batch_of_11_entries_is_too_many_entries_in_batch_request() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for operation in BATCH_OPERATIONS {
        let entries: Vec<Value> = (0..11)
            .map(|i| batch_entry(operation, &format!("e{i}")))
            .collect();
        batch_call(&mut sqs, operation, &url, json!(entries))
            .err("AWS.SimpleQueueService.TooManyEntriesInBatchRequest");
    }
    assert_eq!(visible(&mut sqs, &url), "0");
}

#[test]
fn batch_of_10_entries_is_accepted() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let body = sqs.send_batch(&url, json!(entries(10))).ok();
    assert_eq!(body["Successful"].as_array().unwrap().len(), 10);
    assert_eq!(visible(&mut sqs, &url), "10");
    let got = sqs.receive(&url, 10);
    let delete: Vec<Value> = got
        .iter()
        .enumerate()
        .map(|(i, m)| json!({ "Id": format!("d{i}"), "ReceiptHandle": m["ReceiptHandle"] }))
        .collect();
    let body = batch_call(&mut sqs, "DeleteMessageBatch", &url, json!(delete)).ok();
    assert_eq!(body["Successful"].as_array().unwrap().len(), 10);
    assert!(body.get("Failed").is_none(), "no empty Failed list: {body}");
}

#[test]
fn batch_entry_id_of_up_to_80_allowed_characters_is_accepted() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let long = "i".repeat(80);
    let body = sqs
        .send_batch(
            &url,
            json!([
                { "Id": long, "MessageBody": "a" },
                { "Id": "A-z_09", "MessageBody": "b" },
                { "Id": "x", "MessageBody": "c" }]),
        )
        .ok();
    assert_eq!(body["Successful"][0]["Id"], long.as_str());
    assert_eq!(body["Successful"].as_array().unwrap().len(), 3);
}

#[test]
fn batch_entry_id_of_81_characters_is_invalid_batch_entry_id() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for operation in BATCH_OPERATIONS {
        let entries = json!([batch_entry(operation, &"i".repeat(81))]);
        batch_call(&mut sqs, operation, &url, entries)
            .err("AWS.SimpleQueueService.InvalidBatchEntryId");
    }
}

#[test]
fn batch_entry_id_with_other_characters_is_invalid_batch_entry_id() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for id in ["a b", "a.b", "a/b", "é", ""] {
        for operation in BATCH_OPERATIONS {
            let entries = json!([batch_entry(operation, "fine"), batch_entry(operation, id)]);
            batch_call(&mut sqs, operation, &url, entries)
                .err("AWS.SimpleQueueService.InvalidBatchEntryId");
        }
    }
    assert_eq!(visible(&mut sqs, &url), "0");
}

#[test]
fn batch_entry_ids_must_be_distinct() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    for operation in BATCH_OPERATIONS {
        let entries = json!([
            batch_entry(operation, "a"),
            batch_entry(operation, "b"),
            batch_entry(operation, "a")
        ]);
        batch_call(&mut sqs, operation, &url, entries)
            .err("AWS.SimpleQueueService.BatchEntryIdsNotDistinct");
    }
    assert_eq!(visible(&mut sqs, &url), "0");
}

#[test]
fn batch_send_results_keep_entry_order_and_ids() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let body = sqs
        .send_batch(
            &url,
            json!([
                { "Id": "z", "MessageBody": "1" },
                { "Id": "a", "MessageBody": "2" },
                { "Id": "m", "MessageBody": "3" }]),
        )
        .ok();
    assert_eq!(successful_ids(&body), ["z", "a", "m"]);
    assert_eq!(sqs.receive_bodies(&url, 10), ["1", "2", "3"]);
}

// --- Retention ---

#[test]
fn message_older_than_retention_period_is_deleted() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({ "MessageRetentionPeriod": "60" }));
    sqs.send(&url, "old");
    sqs.advance(30_000);
    sqs.send(&url, "young");
    assert_visible_changes_at(&mut sqs, &url, 30_000, "2", "1");
    assert_eq!(sqs.receive_bodies(&url, 10), ["young"]);
}

#[test]
fn default_retention_is_four_days() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.send(&url, "a");
    assert_visible_changes_at(&mut sqs, &url, 345_600_000, "1", "0");
}

#[test]
fn in_flight_message_is_deleted_at_retention() {
    let (mut sqs, url) = Sqs::with_queue(
        "orders",
        json!({ "MessageRetentionPeriod": "60", "VisibilityTimeout": "600" }),
    );
    sqs.send(&url, "a");
    sqs.advance(10_000);
    assert_eq!(sqs.receive(&url, 1).len(), 1);
    assert_eq!(in_flight(&mut sqs, &url), "1");
    sqs.advance(50_000);
    assert_eq!(in_flight(&mut sqs, &url), "0");
    sqs.advance(600_000);
    sqs.receive_none(&url, 10);
}

#[test]
fn delayed_message_is_deleted_at_retention() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({ "MessageRetentionPeriod": "60" }));
    send_delayed(&mut sqs, &url, "x", 900).ok();
    sqs.advance(60_000);
    assert_eq!(delayed(&mut sqs, &url), "0");
    sqs.advance(900_000);
    sqs.receive_none(&url, 10);
}

#[test]
fn fifo_message_is_deleted_at_retention_and_unblocks_its_group() {
    let (mut sqs, url) = Sqs::with_queue(
        "orders.fifo",
        json!({ "FifoQueue": "true", "MessageRetentionPeriod": "60", "VisibilityTimeout": "600" }),
    );
    sqs.send_fifo(&url, "first", "g", "d1");
    sqs.advance(30_000);
    sqs.send_fifo(&url, "second", "g", "d2");
    assert_eq!(sqs.receive_bodies(&url, 1), ["first"]);
    sqs.receive_none(&url, 10);
    sqs.advance(30_000);
    assert_eq!(sqs.receive_bodies(&url, 10), ["second"]);
}

#[test]
fn message_deduplication_id_on_a_standard_queue_is_refused_in_aws_words() {
    // A real AWS answer for this case ("include", as AWS writes it).
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    send(
        &mut sqs,
        json!({ "QueueUrl": url, "MessageBody": "x", "MessageDeduplicationId": "d" }),
    )
    .rejected(
        400,
        "InvalidParameterValue",
        "Value d for parameter MessageDeduplicationId is invalid. Reason: The request include \
         parameter that is not valid for this queue type.",
    );
}
