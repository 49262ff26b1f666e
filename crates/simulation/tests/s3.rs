//! S3 buckets in a scenario (`buckets`, `actors/bucket.rs`, `s3/`): their
//! notification configuration is validated by a test event to each queue
//! when it is saved, and each object put or deleted sends S3's event JSON
//! to the queues whose configuration wants it, as `s3.amazonaws.com`. A
//! refused delivery is lost and logged; a configuration whose queue
//! refuses its test event is refused in S3's words. A bad bucket is
//! refused at its field.

use queuelab_engine::{Config, EventKind, ReceiveMessage, ReceiveOutcome};
use queuelab_simulation::{FieldError, Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

const DURATION: u64 = 60_000;

/// A queue policy letting S3 send for the buckets `source_arn` matches
/// (`ArnLike`) of the queues' own account, as S3's walkthrough writes it.
fn s3_may_send(queue: &str, source_arn: &str) -> Value {
    json!({
        "Version": "2012-10-17",
        "Statement": [{
            "Sid": "AllowS3",
            "Effect": "Allow",
            "Principal": { "Service": "s3.amazonaws.com" },
            "Action": "sqs:SendMessage",
            "Resource": format!("arn:aws:sqs:us-east-1:000000000000:{queue}"),
            "Condition": {
                "ArnLike": { "aws:SourceArn": source_arn },
                "StringEquals": { "aws:SourceAccount": "000000000000" },
            },
        }],
    })
}

/// The queues' policies let S3 send for any bucket of their account.
fn scenario(buckets: Value) -> Scenario {
    let queue = |name: &str| json!({ "name": name, "policy": s3_may_send(name, "arn:aws:s3:::*") });
    serde_json::from_value(json!({
        "title": "s3", "durationMs": DURATION,
        "queues": [queue("uploads-queue"), queue("thumbs"), { "name": "jobs.fifo" }],
        "buckets": buckets,
    }))
    .expect("a well-formed scenario")
}

fn start(buckets: Value) -> Simulation {
    Simulation::new(scenario(buckets), Config::default()).expect("loads")
}

fn url(sim: &Simulation, queue: &str) -> String {
    sim.engine().get_queue_url(queue, None).expect("the queue")
}

/// Every message in `queue` now, oldest first: their bodies.
fn bodies(sim: &mut Simulation, queue: &str) -> Vec<String> {
    let queue_url = url(sim, queue);
    let mut out = Vec::new();
    for _ in 0..100 {
        let request = ReceiveMessage {
            queue_url: queue_url.clone(),
            max_number_of_messages: Some(10),
            visibility_timeout: Some(43_200),
            ..ReceiveMessage::default()
        };
        match sim.engine_mut().receive_message(&request, Some("test")) {
            Ok(ReceiveOutcome::Done(messages)) if !messages.is_empty() => {
                out.extend(messages.into_iter().map(|m| m.body));
            }
            _ => return out,
        }
    }
    out
}

fn parsed(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{body} is JSON: {e}"))
}

/// The records of the notifications among `bodies` (not the test events).
fn records(bodies: &[String]) -> Vec<Value> {
    bodies
        .iter()
        .map(|b| parsed(b))
        .filter(|v| v.get("Records").is_some())
        .map(|v| v["Records"][0].clone())
        .collect()
}

/// The simulation's own events of the run.
fn sim_events(sim: &Simulation) -> Vec<SimEvent> {
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(event) => Some(event),
            Kind::Sqs(_) => None,
        })
        .collect()
}

/// Whether `body` has these keys in this order.
fn in_order(body: &str, keys: &[&str]) -> bool {
    let places: Vec<Option<usize>> = keys
        .iter()
        .map(|k| body.find(&format!("\"{k}\":")))
        .collect();
    places.iter().all(Option::is_some) && places.windows(2).all(|w| w[0] < w[1])
}

fn uploads(notification: Value, objects: Value) -> Value {
    json!([{ "name": "uploads", "notifications": [notification], "objects": objects }])
}

#[test]
fn a_put_notifies_the_queue_with_s3s_event_json() {
    let mut sim = start(uploads(
        json!({ "id": "images", "queue": "uploads-queue", "events": ["s3:ObjectCreated:*"] }),
        json!([{ "atMs": 1500, "put": "images/cat.jpg", "sizeBytes": 2048 }]),
    ));
    sim.advance(DURATION);
    let all = bodies(&mut sim, "uploads-queue");
    assert_eq!(
        all.len(),
        2,
        "the test event, then the notification: {all:?}"
    );
    let body = &all[1];
    let record = &records(&all)[0];
    assert_eq!(
        parsed(body).as_object().unwrap().keys().collect::<Vec<_>>(),
        ["Records"]
    );
    assert_eq!(record["eventVersion"], "2.1");
    assert_eq!(record["eventSource"], "aws:s3");
    assert_eq!(record["awsRegion"], "us-east-1");
    // Config::default() starts at 2024-01-01T00:00:00Z.
    assert_eq!(record["eventTime"], "2024-01-01T00:00:01.500Z");
    assert_eq!(record["eventName"], "ObjectCreated:Put");
    let owner = record["userIdentity"]["principalId"].as_str().unwrap();
    assert!(owner.len() == 14 && owner.starts_with('A'), "{owner}");
    assert_eq!(record["requestParameters"]["sourceIPAddress"], "127.0.0.1");
    let request_id = record["responseElements"]["x-amz-request-id"]
        .as_str()
        .unwrap();
    assert!(request_id.len() == 16 && request_id.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(
        record["responseElements"]["x-amz-id-2"]
            .as_str()
            .unwrap()
            .len(),
        64
    );
    let s3 = &record["s3"];
    assert_eq!(s3["s3SchemaVersion"], "1.0");
    assert_eq!(s3["configurationId"], "images");
    assert_eq!(s3["bucket"]["name"], "uploads");
    assert_eq!(s3["bucket"]["ownerIdentity"]["principalId"], owner);
    assert_eq!(s3["bucket"]["arn"], "arn:aws:s3:::uploads");
    assert_eq!(s3["object"]["key"], "images/cat.jpg");
    assert_eq!(s3["object"]["size"], 2048);
    let e_tag = s3["object"]["eTag"].as_str().unwrap();
    assert!(e_tag.len() == 32 && e_tag.chars().all(|c| c.is_ascii_hexdigit()));
    let sequencer = s3["object"]["sequencer"].as_str().unwrap();
    assert!(sequencer.len() == 18 && sequencer.chars().all(|c| c.is_ascii_hexdigit()));
    // The fields in the order of the S3 User Guide's example.
    let order = [
        "eventVersion",
        "eventSource",
        "awsRegion",
        "eventTime",
        "eventName",
        "userIdentity",
        "requestParameters",
        "responseElements",
        "s3",
        "s3SchemaVersion",
        "configurationId",
        "bucket",
        "name",
        "ownerIdentity",
        "arn",
        "object",
        "key",
        "size",
        "eTag",
        "sequencer",
    ];
    assert!(in_order(body, &order), "{body}");
    // The send is the bucket's, in the log.
    let by_bucket = sim.events(0).any(
        |e| matches!(e.kind, Kind::Sqs(EventKind::Sent { by: Some(by), .. }) if &*by == "uploads"),
    );
    assert!(by_bucket, "the bucket sent it");
}

#[test]
fn saving_the_configuration_sends_each_queue_s3s_test_event() {
    let mut sim = start(json!([{
        "name": "uploads", "configuredAtMs": 250,
        "notifications": [
            { "queue": "uploads-queue", "events": ["s3:ObjectCreated:*"], "prefix": "a/" },
            { "queue": "uploads-queue", "events": ["s3:ObjectCreated:*"], "prefix": "b/" },
            { "queue": "thumbs", "events": ["s3:ObjectRemoved:*"] },
        ],
    }]));
    sim.advance(249);
    assert!(
        bodies(&mut sim, "uploads-queue").is_empty(),
        "not saved yet"
    );
    sim.advance(1);
    let tests = bodies(&mut sim, "uploads-queue");
    assert_eq!(tests.len(), 1, "one test event per queue: {tests:?}");
    let test = parsed(&tests[0]);
    assert_eq!(test["Service"], "Amazon S3");
    assert_eq!(test["Event"], "s3:TestEvent");
    assert_eq!(test["Time"], "2024-01-01T00:00:00.250Z");
    assert_eq!(test["Bucket"], "uploads");
    assert_eq!(test["RequestId"].as_str().unwrap().len(), 16);
    assert_eq!(test["HostId"].as_str().unwrap().len(), 64);
    let order = ["Service", "Event", "Time", "Bucket", "RequestId", "HostId"];
    assert!(in_order(&tests[0], &order), "{}", tests[0]);
    assert_eq!(bodies(&mut sim, "thumbs").len(), 1);
    let configured = sim_events(&sim).into_iter().find_map(|e| match e {
        SimEvent::BucketConfigured { bucket, queues } => Some((bucket, queues)),
        _ => None,
    });
    let (bucket, queues) = configured.expect("a bucketConfigured event");
    assert_eq!(&*bucket, "uploads");
    assert_eq!(
        queues.iter().map(|q| q.to_string()).collect::<Vec<_>>(),
        ["uploads-queue", "thumbs"]
    );
    assert_eq!(sim.snapshot().buckets[0].configuration, "valid");
}

#[test]
fn objects_before_the_configuration_is_saved_notify_nobody() {
    let mut sim = start(json!([{
        "name": "uploads", "configuredAtMs": 2000,
        "notifications": [{ "queue": "uploads-queue", "events": ["s3:ObjectCreated:*"] }],
        "objects": [
            { "atMs": 1000, "put": "early.jpg" },
            { "atMs": 2000, "put": "same-moment.jpg" },
            { "atMs": 3000, "put": "late.jpg" },
        ],
    }]));
    sim.advance(DURATION);
    let keys: Vec<Value> = records(&bodies(&mut sim, "uploads-queue"))
        .iter()
        .map(|r| r["s3"]["object"]["key"].clone())
        .collect();
    assert_eq!(keys, [json!("same-moment.jpg"), json!("late.jpg")]);
}

#[test]
fn prefix_and_suffix_filters_choose_the_keys_that_notify() {
    let mut sim = start(uploads(
        json!({ "queue": "uploads-queue", "events": ["s3:ObjectCreated:Put"],
                "prefix": "images/", "suffix": ".jpg" }),
        json!([
            { "atMs": 1000, "put": "images/cat.jpg" },
            { "atMs": 1000, "put": "images/cat.png" },
            { "atMs": 1000, "put": "docs/cat.jpg" },
            { "atMs": 1000, "put": "images/.jpg" },
            { "atMs": 1000, "put": "images/dog.JPG" },
            { "atMs": 2000, "delete": "images/cat.jpg" },
        ]),
    ));
    sim.advance(DURATION);
    let keys: Vec<Value> = records(&bodies(&mut sim, "uploads-queue"))
        .iter()
        .map(|r| r["s3"]["object"]["key"].clone())
        .collect();
    assert_eq!(keys, [json!("images/cat.jpg"), json!("images/.jpg")]);
    let snapshot = &sim.snapshot().buckets[0];
    assert_eq!((snapshot.puts, snapshot.deletes, snapshot.sent), (5, 1, 2));
}

#[test]
fn a_delete_notifies_object_removed_without_size_or_etag() {
    let mut sim = start(uploads(
        json!({ "queue": "uploads-queue", "events": ["s3:ObjectRemoved:*"] }),
        json!([
            { "atMs": 1000, "put": "report.pdf", "sizeBytes": 10 },
            { "atMs": 5000, "delete": "report.pdf" },
        ]),
    ));
    sim.advance(DURATION);
    let all = bodies(&mut sim, "uploads-queue");
    let records = records(&all);
    assert_eq!(records.len(), 1, "only the removal: {all:?}");
    assert_eq!(records[0]["eventName"], "ObjectRemoved:Delete");
    let object = records[0]["s3"]["object"].as_object().unwrap();
    assert_eq!(
        object.keys().map(String::as_str).collect::<Vec<_>>(),
        ["key", "sequencer"],
        "no size or eTag"
    );
    assert_eq!(sim.snapshot().buckets[0].objects, 0);
}

#[test]
fn an_exact_event_name_notifies_only_that_event() {
    let mut sim = start(uploads(
        json!({ "queue": "uploads-queue", "events": ["s3:ObjectCreated:Copy"] }),
        json!([{ "atMs": 1000, "put": "a.txt" }]),
    ));
    sim.advance(DURATION);
    assert!(
        records(&bodies(&mut sim, "uploads-queue")).is_empty(),
        "a put is no copy"
    );
}

#[test]
fn keys_are_url_encoded_as_s3_does() {
    let mut sim = start(uploads(
        json!({ "queue": "uploads-queue", "events": ["s3:ObjectCreated:*"] }),
        json!([{ "atMs": 1000, "put": "red flower/été=1&x.jpg" }]),
    ));
    sim.advance(DURATION);
    let records = records(&bodies(&mut sim, "uploads-queue"));
    assert_eq!(
        records[0]["s3"]["object"]["key"],
        "red+flower/%C3%A9t%C3%A9%3D1%26x.jpg"
    );
}

#[test]
fn sequencers_increase_for_a_key() {
    let mut sim = start(uploads(
        json!({ "queue": "uploads-queue", "events": ["s3:ObjectCreated:*", "s3:ObjectRemoved:*"] }),
        json!([
            { "atMs": 1000, "put": "a.txt" },
            { "atMs": 1000, "put": "a.txt" },
            { "atMs": 1000, "delete": "a.txt" },
            { "atMs": 4000, "put": "a.txt" },
        ]),
    ));
    sim.advance(DURATION);
    let sequencers: Vec<String> = records(&bodies(&mut sim, "uploads-queue"))
        .iter()
        .map(|r| r["s3"]["object"]["sequencer"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(sequencers.len(), 4);
    // S3's rule: left-pad to one length, then compare as text.
    assert!(sequencers.windows(2).all(|w| w[0] < w[1]), "{sequencers:?}");
}

#[test]
fn a_configuration_whose_queue_refuses_the_test_event_fails_in_s3s_words() {
    let mut sim = start(json!([{
        "name": "uploads", "configuredAtMs": 1000,
        "notifications": [{ "queue": "thumbs", "events": ["s3:ObjectCreated:*"] }],
        "objects": [{ "atMs": 2000, "put": "a.jpg" }],
    }]));
    // The queue is gone when the configuration is saved.
    let thumbs = url(&sim, "thumbs");
    sim.engine_mut().delete_queue(&thumbs).expect("deleted");
    sim.advance(DURATION);
    let failed = sim_events(&sim).into_iter().find_map(|e| match e {
        SimEvent::BucketConfigurationFailed {
            destination,
            code,
            s3_code,
            s3_error,
            ..
        } => Some((destination, code, s3_code, s3_error)),
        _ => None,
    });
    let (destination, code, s3_code, s3_error) = failed.expect("a bucketConfigurationFailed event");
    assert_eq!(destination, "arn:aws:sqs:us-east-1:000000000000:thumbs");
    assert_eq!(code, "AWS.SimpleQueueService.NonExistentQueue");
    assert_eq!(s3_code, "InvalidArgument");
    assert_eq!(
        s3_error,
        "Unable to validate the following destination configurations"
    );
    let bucket = &sim.snapshot().buckets[0];
    assert_eq!(bucket.configuration, "failed");
    let words = bucket.configuration_error.as_deref().unwrap();
    assert!(
        words.starts_with(
            "InvalidArgument: Unable to validate the following destination configurations: \
             arn:aws:sqs:us-east-1:000000000000:thumbs"
        ),
        "{words}"
    );
    assert_eq!(
        (bucket.puts, bucket.sent, bucket.failed),
        (1, 0, 0),
        "no notifications"
    );
}

#[test]
fn a_refused_configuration_sends_no_notification_to_its_other_queues() {
    let mut sim = start(json!([{
        "name": "uploads", "configuredAtMs": 1000,
        "notifications": [
            { "queue": "uploads-queue", "events": ["s3:ObjectCreated:*"], "prefix": "a" },
            { "queue": "thumbs", "events": ["s3:ObjectCreated:*"], "prefix": "b" },
        ],
        "objects": [{ "atMs": 2000, "put": "a.jpg" }],
    }]));
    let thumbs = url(&sim, "thumbs");
    sim.engine_mut().delete_queue(&thumbs).expect("deleted");
    sim.advance(DURATION);
    let all = bodies(&mut sim, "uploads-queue");
    assert_eq!(
        all.len(),
        1,
        "the test event only: S3 saved nothing: {all:?}"
    );
}

#[test]
fn a_notification_the_queue_refuses_is_lost_and_logged() {
    let mut sim = start(uploads(
        json!({ "queue": "thumbs", "events": ["s3:ObjectCreated:*"] }),
        json!([{ "atMs": 5000, "put": "images/cat.jpg" }]),
    ));
    sim.advance(1000);
    let thumbs = url(&sim, "thumbs");
    sim.engine_mut().delete_queue(&thumbs).expect("deleted");
    sim.advance(DURATION);
    let failed: Vec<_> = sim_events(&sim)
        .into_iter()
        .filter_map(|e| match e {
            SimEvent::BucketDeliveryFailed {
                queue,
                event_name,
                key,
                code,
                ..
            } => Some((queue.to_string(), event_name, key, code)),
            _ => None,
        })
        .collect();
    assert_eq!(
        failed,
        [(
            "thumbs".to_string(),
            "ObjectCreated:Put",
            "images/cat.jpg".to_string(),
            "AWS.SimpleQueueService.NonExistentQueue"
        )]
    );
    let bucket = &sim.snapshot().buckets[0];
    assert_eq!((bucket.sent, bucket.failed), (0, 1));
    let last = bucket.notifications[0].last_error.as_deref().unwrap();
    assert!(
        last.starts_with("AWS.SimpleQueueService.NonExistentQueue: "),
        "{last}"
    );
}

#[test]
fn a_configuration_the_queue_policy_refuses_fails_with_access_denied() {
    // The queue lets S3 send for another bucket only: S3 sending for
    // "uploads" is refused when the configuration is saved.
    let mut scenario = scenario(json!([{
        "name": "uploads", "configuredAtMs": 10,
        "notifications": [{ "queue": "thumbs", "events": ["s3:ObjectCreated:*"] }],
    }]));
    scenario.queues[1].policy = Some(s3_may_send("thumbs", "arn:aws:s3:::other-bucket"));
    let mut sim = Simulation::new(scenario, Config::default()).expect("loads");
    sim.advance(DURATION);
    let code = sim_events(&sim).into_iter().find_map(|e| match e {
        SimEvent::BucketConfigurationFailed { code, .. } => Some(code),
        _ => None,
    });
    assert_eq!(code, Some("AccessDenied"));
    assert_eq!(sim.snapshot().buckets[0].configuration, "failed");
}

fn refusal(buckets: Value) -> FieldError {
    scenario(buckets).validate().expect_err("refused")
}

fn bucket_with(notifications: Value) -> Value {
    json!([{ "name": "uploads", "notifications": notifications }])
}

#[test]
fn a_notification_to_a_queue_the_scenario_lacks_is_refused() {
    let e = refusal(bucket_with(
        json!([{ "queue": "nowhere", "events": ["s3:ObjectCreated:*"] }]),
    ));
    assert_eq!(e.path, "buckets[0].notifications[0].queue");
    assert_eq!(
        e.to_string(),
        "buckets[0].notifications[0].queue must be the name of one of the scenario's queues, \
         got \"nowhere\""
    );
}

#[test]
fn a_notification_to_a_fifo_queue_is_refused() {
    let e = refusal(bucket_with(
        json!([{ "queue": "jobs.fifo", "events": ["s3:ObjectCreated:*"] }]),
    ));
    assert_eq!(e.path, "buckets[0].notifications[0].queue");
    assert!(
        e.rule
            .contains("S3 does not send event notifications to FIFO queues"),
        "{e}"
    );
}

#[test]
fn an_unknown_event_type_is_refused_naming_the_known_ones() {
    let e = refusal(bucket_with(
        json!([{ "queue": "thumbs", "events": ["s3:ObjectCreated:*", "s3:ObjectCreated"] }]),
    ));
    assert_eq!(e.path, "buckets[0].notifications[0].events[1]");
    assert_eq!(e.got, "\"s3:ObjectCreated\"");
    assert!(
        e.rule.contains("s3:ObjectRemoved:DeleteMarkerCreated"),
        "{e}"
    );
    let e = refusal(bucket_with(json!([{ "queue": "thumbs", "events": [] }])));
    assert_eq!(e.path, "buckets[0].notifications[0].events");
}

#[test]
fn overlapping_filters_for_the_same_event_type_are_refused_in_s3s_words() {
    let e = refusal(bucket_with(json!([
        { "queue": "thumbs", "events": ["s3:ObjectCreated:Put"], "prefix": "images/" },
        { "queue": "uploads-queue", "events": ["s3:ObjectRemoved:*"], "prefix": "images/" },
        { "queue": "uploads-queue", "events": ["s3:ObjectCreated:*"], "prefix": "images/raw/", "suffix": ".jpg" },
    ])));
    assert_eq!(e.path, "buckets[0].notifications[2]");
    assert!(
        e.rule.contains(
            "notifications[0] for the same event type (S3 refuses the configuration: \
             \"Configuration is ambiguously defined. Cannot have overlapping suffixes in two \
             rules if the prefixes are overlapping for the same event type.\")"
        ),
        "{e}"
    );
    // Different suffixes do not overlap, whatever the prefixes.
    scenario(bucket_with(json!([
        { "queue": "thumbs", "events": ["s3:ObjectCreated:*"], "prefix": "images/", "suffix": ".jpg" },
        { "queue": "uploads-queue", "events": ["s3:ObjectCreated:*"], "prefix": "images/", "suffix": ".png" },
    ])))
    .validate()
    .expect("no overlap");
}

#[test]
fn a_bucket_name_s3_would_refuse_is_refused() {
    for (name, rule) in [
        (
            "Uploads",
            "only lowercase letters, numbers, periods (.) and hyphens (-)",
        ),
        ("ab", "between 3 and 63 characters long"),
        (
            "192.168.5.4",
            "a name not formatted as an IP address (such as 192.168.5.4)",
        ),
        ("up..loads", "a name without two adjacent periods"),
    ] {
        let e = refusal(json!([{ "name": name }]));
        assert_eq!(
            (e.path.as_str(), e.rule.as_str()),
            ("buckets[0].name", rule)
        );
    }
    let e = refusal(json!([{ "name": "uploads" }, { "name": "uploads" }]));
    assert_eq!(e.path, "buckets[1].name");
}

#[test]
fn object_operations_are_limited_and_each_names_one_key() {
    let many: Vec<Value> = (0..1001)
        .map(|i| json!({ "atMs": i, "put": "k" }))
        .collect();
    let e = refusal(json!([{ "name": "uploads", "objects": many }]));
    assert_eq!(
        e.to_string(),
        "buckets[0].objects must be a list of at most 1000 object operations, got 1001 object \
         operations"
    );
    let e = refusal(json!([{ "name": "uploads", "objects": [
        { "atMs": 1, "put": "a", "delete": "a" },
    ]}]));
    assert_eq!(
        (e.path.as_str(), e.got.as_str()),
        ("buckets[0].objects[0]", "both")
    );
    let e = refusal(json!([{ "name": "uploads", "objects": [
        { "atMs": 1, "delete": "a", "sizeBytes": 3 },
    ]}]));
    assert_eq!(e.path, "buckets[0].objects[0].sizeBytes");
    let e = refusal(json!([{ "name": "uploads", "objects": [
        { "atMs": 1, "put": "a", "sizeBytes": 6_000_000_000_000u64 },
    ]}]));
    assert_eq!(e.path, "buckets[0].objects[0].sizeBytes");
    let long = "k".repeat(1025);
    let e = refusal(json!([{ "name": "uploads", "objects": [{ "atMs": 1, "put": long }]}]));
    assert_eq!(e.path, "buckets[0].objects[0].put");
}

#[test]
fn an_unknown_bucket_field_is_refused() {
    let parsed: Result<Scenario, _> = serde_json::from_value(json!({
        "title": "s3", "durationMs": 1, "queues": [],
        "buckets": [{ "name": "uploads", "notification": [] }],
    }));
    let error = parsed.expect_err("refused").to_string();
    assert!(error.contains("unknown field `notification`"), "{error}");
}

/// A lab knob that renames a queue renames it in the notifications that
/// send to it, as in producers and consumers.
#[test]
fn renaming_a_queue_renames_it_in_the_buckets_that_notify_it() {
    let mut s = scenario(bucket_with(
        json!([{ "queue": "thumbs", "events": ["s3:ObjectCreated:*"] }]),
    ));
    queuelab_simulation::lab::rename_queue(&mut s, "thumbs", "thumbs-2");
    assert_eq!(s.buckets[0].notifications[0].queue, "thumbs-2");
    assert_eq!(s.validate(), Ok(()));
}
