//! No input, however malformed, may panic: a panic kills the wasm instance
//! and the page with it. Random bodies (valid JSON of the wrong shapes and
//! plain garbage) against every operation must answer 200 or a 4xx.

mod common;

use common::Sqs;
use proptest::prelude::*;
use queuelab_protocol::OPERATIONS;
use serde_json::{json, Value};

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
        Just(Value::from("All")),
        Just(Value::from("String")),
        Just(Value::from(
            "https://sqs.us-east-1.amazonaws.com/000000000000/q"
        )),
        Just(Value::from("arn:aws:sqs:us-east-1:000000000000:q")),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            proptest::collection::btree_map(member(), inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Member names SQS requests use, plus noise.
fn member() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("QueueUrl"),
        Just("QueueName"),
        Just("MessageBody"),
        Just("Entries"),
        Just("Id"),
        Just("ReceiptHandle"),
        Just("Attributes"),
        Just("AttributeNames"),
        Just("MessageAttributes"),
        Just("DataType"),
        Just("StringValue"),
        Just("BinaryValue"),
        Just("MaxNumberOfMessages"),
        Just("WaitTimeSeconds"),
        Just("VisibilityTimeout"),
        Just("DelaySeconds"),
        Just("MessageGroupId"),
        Just("MessageDeduplicationId"),
        Just("RedrivePolicy"),
        Just("SourceArn"),
        Just("TaskHandle"),
        Just("Tags"),
        Just("TagKeys"),
        Just("Label"),
        Just("AWSAccountIds"),
        Just("Actions"),
        Just("Policy"),
        Just("tags"),
        Just("MaxResults"),
        Just("NextToken"),
        Just("x"),
    ]
    .prop_map(str::to_string)
}

fn check(sqs: &mut Sqs, target: &str, body: &str) {
    if let Err(poll) = sqs.start_raw(target, body) {
        // A long poll may wait; it must still end well.
        sqs.advance(20_000);
        assert!(
            sqs.answered().iter().any(|(id, _)| *id == poll),
            "poll {poll} never answered"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_json_never_panics(op in 0..OPERATIONS.len(), body in json_value()) {
        let mut sqs = Sqs::new();
        let url = sqs.create("q", json!({}));
        sqs.send(&url, "x");
        let target = format!("AmazonSQS.{}", OPERATIONS[op].0);
        check(&mut sqs, &target, &body.to_string());
    }

    #[test]
    fn random_text_never_panics(op in 0..OPERATIONS.len(), body in ".{0,64}") {
        let mut sqs = Sqs::new();
        let target = format!("AmazonSQS.{}", OPERATIONS[op].0);
        check(&mut sqs, &target, &body);
    }
}
