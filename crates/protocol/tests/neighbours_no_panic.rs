//! No SNS, S3 or CloudWatch request, however malformed, may panic: random members of
//! the right names and wrong shapes for every operation, as JSON and as a
//! query-protocol form, and random forms, must answer 200 or an error
//! status, on a run with a topic, a subscribed queue and a bucket.

use proptest::prelude::*;
use queuelab_engine::{Config, Principal};
use queuelab_protocol::{cloudwatch, s3, sns};
use queuelab_simulation::Simulation;
use serde_json::{json, Value};

fn member() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("Name"),
        Just("TopicArn"),
        Just("Message"),
        Just("Attributes"),
        Just("Protocol"),
        Just("Endpoint"),
        Just("SubscriptionArn"),
        Just("MessageAttributes"),
        Just("MessageGroupId"),
        Just("PublishBatchRequestEntries"),
        Just("AttributeName"),
        Just("AttributeValue"),
        Just("MessageStructure"),
        Just("Bucket"),
        Just("Key"),
        Just("Body"),
        Just("MaxKeys"),
        Just("NotificationConfiguration"),
        Just("QueueConfigurations"),
        Just("Events"),
        Just("Filter"),
        Just("QueueArn"),
        Just("FilterRules"),
        Just("ContinuationToken"),
        Just("DataType"),
        Just("StringValue"),
        Just("Namespace"),
        Just("MetricData"),
        Just("MetricName"),
        Just("Value"),
        Just("Values"),
        Just("Counts"),
        Just("Timestamp"),
        Just("Dimensions"),
        Just("StatisticValues"),
        Just("AlarmName"),
        Just("AlarmNames"),
        Just("Period"),
        Just("EvaluationPeriods"),
        Just("Threshold"),
        Just("Statistic"),
        Just("ComparisonOperator"),
        Just("MaxRecords"),
        Just("NextToken"),
    ]
    .prop_map(str::to_string)
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        Just(Value::from("OrderProcessing")),
        Just(Value::from("GreaterThanThreshold")),
        ".{0,12}".prop_map(Value::from),
        Just(Value::from("arn:aws:sns:us-east-1:000000000000:orders")),
        Just(Value::from("arn:aws:sqs:us-east-1:000000000000:q")),
        Just(Value::from("sqs")),
        Just(Value::from("s3:ObjectCreated:*")),
        Just(Value::from("{\"kind\":[\"a\"]}")),
        Just(Value::from("photos")),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            proptest::collection::btree_map(member(), inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A run with the topic "orders" subscribed by queue "q", and the bucket "photos".
fn run() -> Simulation {
    let mut sim = Simulation::empty(Config::default());
    let by = Principal::owner();
    queuelab_protocol::dispatch_as(
        sim.engine_mut(),
        "AmazonSQS.CreateQueue",
        r#"{"QueueName":"q"}"#,
        &by,
    );
    sns::dispatch(
        &mut sim,
        "AmazonSNS.CreateTopic",
        r#"{"Name":"orders"}"#,
        &by,
    );
    let subscribe = json!({ "TopicArn": "arn:aws:sns:us-east-1:000000000000:orders", "Protocol": "sqs",
        "Endpoint": "arn:aws:sqs:us-east-1:000000000000:q" });
    sns::dispatch(&mut sim, "AmazonSNS.Subscribe", &subscribe.to_string(), &by);
    s3::dispatch(
        &mut sim,
        "AmazonS3.CreateBucket",
        r#"{"Bucket":"photos"}"#,
        &by,
    );
    sim
}

/// The members as a query-protocol form (nested objects as `a.b`, lists as `a.member.N`).
fn form(prefix: &str, value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                form(&key, v, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                form(&format!("{prefix}.member.{}", i + 1), v, out);
            }
        }
        Value::String(s) => out.push(format!("{prefix}={}", s.replace('&', "%26"))),
        other => out.push(format!("{prefix}={other}")),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn sns_s3_and_cloudwatch_requests_never_panic(
        op in 0usize..23,
        members in proptest::collection::btree_map(member(), json_value(), 0..6),
        garbage in ".{0,40}",
    ) {
        let mut sim = run();
        let by = Principal::owner();
        let body = Value::Object(members.into_iter().collect());
        let sns_ops = queuelab_simulation::sns::api::OPERATIONS;
        let s3_ops = queuelab_simulation::s3::api::OPERATIONS;
        let answers = if op < sns_ops.len() {
            let action = sns_ops[op];
            let mut pairs = vec![format!("Action={action}")];
            form("", &body, &mut pairs);
            vec![
                sns::dispatch(&mut sim, &format!("AmazonSNS.{action}"), &body.to_string(), &by),
                sns::dispatch(&mut sim, "AmazonSNS", &pairs.join("&"), &by),
                sns::dispatch(&mut sim, "AmazonSNS", &garbage, &by),
            ]
        } else if op >= sns_ops.len() + s3_ops.len() {
            let action = queuelab_simulation::cloudwatch::api::OPERATIONS[op - sns_ops.len() - s3_ops.len()];
            let target = format!("{}{action}", cloudwatch::PREFIX);
            vec![
                cloudwatch::dispatch(&mut sim, &target, &body.to_string(), &by),
                cloudwatch::dispatch(&mut sim, &target, &garbage, &by),
            ]
        } else {
            let action = s3_ops[op - sns_ops.len()];
            vec![
                s3::dispatch(&mut sim, &format!("AmazonS3.{action}"), &body.to_string(), &by),
                s3::dispatch(&mut sim, &format!("AmazonS3.{action}"), &garbage, &by),
            ]
        };
        for r in answers {
            prop_assert!(r.status == 200 || (400..=501).contains(&r.status), "{} {}", r.status, r.body);
        }
    }
}
