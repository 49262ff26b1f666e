//! The S3 API of the run's buckets through Queuelab's JSON wire: each test
//! is named after the S3 behaviour it holds.

use queuelab_engine::{Config, Principal};
mod neighbours;

use neighbours::{receive, sqs};
use queuelab_protocol::s3;
use queuelab_simulation::Simulation;
use serde_json::{json, Value};

const ACCOUNT: &str = "000000000000";

fn call(sim: &mut Simulation, op: &str, body: Value) -> Result<Value, (String, u16, String)> {
    let r = s3::dispatch(
        sim,
        &format!("AmazonS3.{op}"),
        &body.to_string(),
        &Principal::owner(),
    );
    match r.status {
        200 => Ok(r.json()),
        status => {
            let j = r.json();
            let code = j["__type"]
                .as_str()
                .unwrap_or("")
                .replace("com.amazonaws.s3#", "");
            Err((
                code,
                status,
                j["message"].as_str().unwrap_or("").to_string(),
            ))
        }
    }
}

/// A queue, with a policy letting `bucket` send when `open`; (url, arn).
fn queue(sim: &mut Simulation, name: &str, bucket: &str, open: bool) -> (String, String) {
    if open {
        let source = format!("arn:aws:s3:::{bucket}");
        return neighbours::queue_open_to(sim, name, "s3.amazonaws.com", "ArnLike", &source);
    }
    let created = sqs(sim, "CreateQueue", json!({ "QueueName": name }));
    let arn = format!("arn:aws:sqs:us-east-1:{ACCOUNT}:{name}");
    (created["QueueUrl"].as_str().unwrap().to_string(), arn)
}

/// A run with the bucket "docs" holding `key` with `body`.
fn docs_with(key: &str, body: &str) -> Simulation {
    let mut sim = Simulation::empty(Config::default());
    call(&mut sim, "CreateBucket", json!({ "Bucket": "docs" })).unwrap();
    call(
        &mut sim,
        "PutObject",
        json!({ "Bucket": "docs", "Key": key, "Body": body }),
    )
    .unwrap();
    sim
}

fn notify(
    sim: &mut Simulation,
    bucket: &str,
    queue_arn: &str,
    suffix: Option<&str>,
) -> Result<Value, (String, u16, String)> {
    let mut config =
        json!({ "Id": "uploads", "QueueArn": queue_arn, "Events": ["s3:ObjectCreated:*"] });
    if let Some(s) = suffix {
        config["Filter"] = json!({ "Key": { "FilterRules": [{ "Name": "suffix", "Value": s }] } });
    }
    call(
        sim,
        "PutBucketNotificationConfiguration",
        json!({ "Bucket": bucket,
        "NotificationConfiguration": { "QueueConfigurations": [config] } }),
    )
}

#[test]
fn create_bucket_answers_its_location_and_refuses_a_bad_name_with_the_rule() {
    let mut sim = Simulation::empty(Config::default());
    assert_eq!(
        call(&mut sim, "CreateBucket", json!({ "Bucket": "photos" })).unwrap(),
        json!({ "Location": "/photos" })
    );
    let bad = call(&mut sim, "CreateBucket", json!({ "Bucket": "Photos" })).unwrap_err();
    assert_eq!((bad.0.as_str(), bad.1), ("InvalidBucketName", 400));
    assert!(bad.2.contains("lowercase"), "{}", bad.2);
}

#[test]
fn put_object_with_a_notification_sends_s3_event_json_to_the_queue() {
    let mut sim = Simulation::empty(Config::default());
    call(&mut sim, "CreateBucket", json!({ "Bucket": "photos" })).unwrap();
    let (url, arn) = queue(&mut sim, "uploads", "photos", true);
    notify(&mut sim, "photos", &arn, None).unwrap();
    // The configuration's test event arrived first.
    let test = receive(&mut sim, &url);
    let test_event: Value = serde_json::from_str(test[0]["Body"].as_str().unwrap()).unwrap();
    assert_eq!(test_event["Event"], "s3:TestEvent");
    sqs(
        &mut sim,
        "DeleteMessage",
        json!({ "QueueUrl": url, "ReceiptHandle": test[0]["ReceiptHandle"] }),
    );
    let put = call(
        &mut sim,
        "PutObject",
        json!({ "Bucket": "photos", "Key": "cat.jpg", "Body": "meow" }),
    )
    .unwrap();
    assert_eq!(
        put["ETag"], "\"4a4be40c96ac6314e91d93f38043a634\"",
        "the MD5 of the content, quoted"
    );
    let got = receive(&mut sim, &url);
    let event: Value = serde_json::from_str(got[0]["Body"].as_str().unwrap()).unwrap();
    let record = &event["Records"][0];
    assert_eq!(record["eventName"], "ObjectCreated:Put");
    assert_eq!(record["s3"]["object"]["key"], "cat.jpg");
    assert_eq!(record["s3"]["object"]["size"], 4);
    assert_eq!(record["s3"]["configurationId"], "uploads");
}

#[test]
fn a_configuration_the_queue_policy_refuses_fails_destination_validation() {
    let mut sim = Simulation::empty(Config::default());
    call(&mut sim, "CreateBucket", json!({ "Bucket": "photos" })).unwrap();
    let (_, arn) = queue(&mut sim, "closed", "photos", false);
    let (code, status, message) = notify(&mut sim, "photos", &arn, None).unwrap_err();
    assert_eq!((code.as_str(), status), ("InvalidArgument", 400));
    assert!(
        message.starts_with("Unable to validate the following destination configurations"),
        "{message}"
    );
}

#[test]
fn a_key_filter_keeps_other_keys_from_the_queue() {
    let mut sim = Simulation::empty(Config::default());
    call(&mut sim, "CreateBucket", json!({ "Bucket": "photos" })).unwrap();
    let (url, arn) = queue(&mut sim, "uploads", "photos", true);
    notify(&mut sim, "photos", &arn, Some(".jpg")).unwrap();
    let test = receive(&mut sim, &url);
    sqs(
        &mut sim,
        "DeleteMessage",
        json!({ "QueueUrl": url, "ReceiptHandle": test[0]["ReceiptHandle"] }),
    );
    call(
        &mut sim,
        "PutObject",
        json!({ "Bucket": "photos", "Key": "notes.txt", "Body": "x" }),
    )
    .unwrap();
    assert!(receive(&mut sim, &url).is_empty());
}

#[test]
fn get_object_returns_the_content_and_a_missing_key_is_no_such_key() {
    let mut sim = docs_with("a.txt", "hello");
    let got = call(
        &mut sim,
        "GetObject",
        json!({ "Bucket": "docs", "Key": "a.txt" }),
    )
    .unwrap();
    assert_eq!(
        (got["Body"].as_str(), got["ContentLength"].as_u64()),
        (Some("hello"), Some(5))
    );
    let missing = call(
        &mut sim,
        "GetObject",
        json!({ "Bucket": "docs", "Key": "b.txt" }),
    )
    .unwrap_err();
    assert_eq!((missing.0.as_str(), missing.1), ("NoSuchKey", 404));
}

#[test]
fn delete_object_removes_it_and_deleting_again_succeeds() {
    let mut sim = docs_with("a.txt", "hello");
    call(
        &mut sim,
        "DeleteObject",
        json!({ "Bucket": "docs", "Key": "a.txt" }),
    )
    .unwrap();
    call(
        &mut sim,
        "DeleteObject",
        json!({ "Bucket": "docs", "Key": "a.txt" }),
    )
    .unwrap();
    assert_eq!(
        call(
            &mut sim,
            "GetObject",
            json!({ "Bucket": "docs", "Key": "a.txt" })
        )
        .unwrap_err()
        .0,
        "NoSuchKey"
    );
}

#[test]
fn list_objects_v2_pages_keys_in_order_under_a_prefix() {
    let mut sim = Simulation::empty(Config::default());
    call(&mut sim, "CreateBucket", json!({ "Bucket": "docs" })).unwrap();
    for key in ["b/2", "a/1", "b/1", "b/3"] {
        call(
            &mut sim,
            "PutObject",
            json!({ "Bucket": "docs", "Key": key, "Body": key }),
        )
        .unwrap();
    }
    let first = call(
        &mut sim,
        "ListObjectsV2",
        json!({ "Bucket": "docs", "Prefix": "b/", "MaxKeys": 2 }),
    )
    .unwrap();
    let keys = |v: &Value| {
        v["Contents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["Key"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(keys(&first), ["b/1", "b/2"]);
    assert_eq!(first["IsTruncated"], true);
    let next = call(
        &mut sim,
        "ListObjectsV2",
        json!({ "Bucket": "docs", "Prefix": "b/",
        "ContinuationToken": first["NextContinuationToken"] }),
    )
    .unwrap();
    assert_eq!(keys(&next), ["b/3"]);
    assert_eq!(
        (next["IsTruncated"].as_bool(), next["KeyCount"].as_u64()),
        (Some(false), Some(1))
    );
}

#[test]
fn a_bucket_that_does_not_exist_is_no_such_bucket() {
    let mut sim = Simulation::empty(Config::default());
    let e = call(
        &mut sim,
        "PutObject",
        json!({ "Bucket": "nope", "Key": "k", "Body": "" }),
    )
    .unwrap_err();
    assert_eq!(
        (e.0.as_str(), e.1, e.2.as_str()),
        ("NoSuchBucket", 404, "The specified bucket does not exist")
    );
}

#[test]
fn an_object_past_the_size_bound_is_refused_naming_it() {
    let mut sim = Simulation::empty(Config::default());
    call(&mut sim, "CreateBucket", json!({ "Bucket": "docs" })).unwrap();
    let big = "x".repeat((1 << 20) + 1);
    let e = call(
        &mut sim,
        "PutObject",
        json!({ "Bucket": "docs", "Key": "big", "Body": big }),
    )
    .unwrap_err();
    assert_eq!(e.0, "EntityTooLarge");
    assert!(e.2.contains("1 MiB"), "{}", e.2);
}

#[test]
fn another_account_is_denied() {
    let mut sim = Simulation::empty(Config::default());
    let partner = Principal::account("111111111111").unwrap();
    let r = s3::dispatch(
        &mut sim,
        "AmazonS3.CreateBucket",
        r#"{"Bucket":"mine"}"#,
        &partner,
    );
    assert_eq!(r.status, 403);
    assert!(r.json()["message"]
        .as_str()
        .unwrap()
        .starts_with("Access Denied"));
}

#[test]
fn an_operation_not_simulated_says_which_are() {
    let mut sim = Simulation::empty(Config::default());
    let r = s3::dispatch(
        &mut sim,
        "AmazonS3.PutBucketPolicy",
        "{}",
        &Principal::owner(),
    );
    assert_eq!(r.status, 501);
    assert!(r.json()["message"].as_str().unwrap().contains("PutObject"));
}

#[test]
fn topic_destinations_are_refused_in_plain_words() {
    let mut sim = Simulation::empty(Config::default());
    call(&mut sim, "CreateBucket", json!({ "Bucket": "docs" })).unwrap();
    let e = call(&mut sim, "PutBucketNotificationConfiguration", json!({ "Bucket": "docs",
        "NotificationConfiguration": { "TopicConfigurations": [{ "TopicArn": "arn:aws:sns:us-east-1:000000000000:t", "Events": ["s3:ObjectCreated:*"] }] } })).unwrap_err();
    assert_eq!(e.0, "InvalidArgument");
    assert!(e.2.contains("SQS queues"), "{}", e.2);
}

#[test]
fn a_member_of_the_wrong_type_is_refused_naming_it() {
    let mut sim = Simulation::empty(Config::default());
    call(&mut sim, "CreateBucket", json!({ "Bucket": "docs" })).unwrap();
    let e = call(&mut sim, "PutBucketNotificationConfiguration", json!({ "Bucket": "docs",
        "NotificationConfiguration": { "QueueConfigurations": [{ "QueueArn": "a", "Events": "s3:ObjectCreated:*" }] } })).unwrap_err();
    assert_eq!(
        (e.0.as_str(), e.2.as_str()),
        (
            "InvalidArgument",
            "NotificationConfiguration.QueueConfigurations.1.Events must be a list of strings"
        )
    );
}

#[test]
fn objects_past_the_run_s_count_bound_are_refused_naming_it() {
    let mut sim = Simulation::empty(Config::default());
    call(&mut sim, "CreateBucket", json!({ "Bucket": "docs" })).unwrap();
    for n in 0..100_000 {
        let key = format!("k{n}");
        call(
            &mut sim,
            "PutObject",
            json!({ "Bucket": "docs", "Key": key }),
        )
        .unwrap();
    }
    let e = call(
        &mut sim,
        "PutObject",
        json!({ "Bucket": "docs", "Key": "one-more" }),
    )
    .unwrap_err();
    assert_eq!((e.0.as_str(), e.1), ("InvalidRequest", 400));
    assert!(e.2.contains("at most 100000 objects"), "{}", e.2);
    // Replacing an object held is no new object.
    call(
        &mut sim,
        "PutObject",
        json!({ "Bucket": "docs", "Key": "k7", "Body": "x" }),
    )
    .unwrap();
}
