//! The journal: every external call a host dispatches, with the scenario
//! and seed, enough to rebuild the run.

use queuelab_engine::Principal;
use queuelab_host::{Host, Journal, PlaygroundOptions, MAX_JOURNAL_BYTES, MAX_JOURNAL_CALLS};
use queuelab_protocol::{Dispatched, MAX_REQUEST_BYTES};
use serde_json::{json, Value};

fn scenario() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/scenarios/02-slow-consumer-duplicate.json"
    );
    std::fs::read_to_string(path).expect("a shipped scenario")
}

fn status(d: Dispatched) -> u16 {
    match d {
        Dispatched::Done(response) => response.status,
        Dispatched::Waiting(_) => 0,
    }
}

fn queue_url(host: &Host) -> String {
    let snapshot: Value =
        serde_json::from_str(&host.snapshot_json(Some(0), 0).expect("a snapshot")).unwrap();
    snapshot["queues"][0]["url"].as_str().unwrap().to_string()
}

/// The journal as a host hands it over: JSON, bodies as the values they hold.
fn as_json(journal: &Journal) -> Value {
    serde_json::to_value(journal).expect("serializable")
}

#[test]
fn the_journal_records_the_scenario_text_and_the_seed_in_force() {
    let text = scenario();
    let options = PlaygroundOptions {
        seed: Some(42),
        ..Default::default()
    };
    let host = Host::from_scenario(&text, options).expect("runs");
    let journal = host.journal();
    assert_eq!(journal.scenario.as_deref(), Some(text.as_str()));
    assert_eq!(
        journal.seed, 42,
        "the options' seed replaced the scenario's"
    );
    assert!(journal.calls.is_empty());
}

#[test]
fn the_journal_records_every_call_at_its_moment_with_its_caller() {
    let mut host = Host::from_scenario(&scenario(), PlaygroundOptions::default()).unwrap();
    let url = queue_url(&host);
    host.advance(1500).unwrap();
    let body = json!({ "QueueUrl": url, "MessageBody": "mine" }).to_string();
    assert_eq!(
        status(host.dispatch(
            "AmazonSQS.SendMessage",
            &body,
            &Principal::caller(Some("you"))
        )),
        200
    );
    let calls = &as_json(host.journal())["calls"];
    assert_eq!(
        calls,
        &json!([{ "t": 1500, "op": "SendMessage", "body": { "QueueUrl": url, "MessageBody": "mine" }, "caller": "you" }])
    );
}

#[test]
fn the_journal_records_failed_calls_too() {
    let mut host = Host::new(PlaygroundOptions::default()).unwrap();
    assert_eq!(
        status(host.dispatch(
            "AmazonSQS.SendMessage",
            "{not json",
            &Principal::caller(None)
        )),
        400
    );
    let missing = r#"{"QueueUrl": "https://sqs.us-east-1.amazonaws.com/000000000000/none", "MessageBody": "x"}"#;
    assert_eq!(
        status(host.dispatch(
            "AmazonSQS.SendMessage",
            missing,
            &Principal::caller(Some("me"))
        )),
        400
    );
    assert_eq!(
        status(host.dispatch("Nope.Nothing", "{}", &Principal::caller(None))),
        400
    );
    let calls = &as_json(host.journal())["calls"];
    assert_eq!(
        calls,
        &json!([
            { "t": 0, "op": "SendMessage", "body": "{not json", "caller": null },
            { "t": 0, "op": "SendMessage", "body": serde_json::from_str::<Value>(missing).unwrap(), "caller": "me" },
            { "t": 0, "op": "", "body": {}, "caller": null },
        ])
    );
}

#[test]
fn a_request_too_large_to_read_is_recorded_without_its_text() {
    let mut host = Host::new(PlaygroundOptions::default()).unwrap();
    let huge = "x".repeat(MAX_REQUEST_BYTES + 1);
    assert_eq!(
        status(host.dispatch("AmazonSQS.SendMessage", &huge, &Principal::caller(None))),
        413
    );
    assert_eq!(host.oversized(&Principal::caller(Some("you"))).status, 413);
    assert_eq!(
        as_json(host.journal())["calls"],
        json!([
            { "t": 0, "op": "", "body": null, "caller": null },
            { "t": 0, "op": "", "body": null, "caller": "you" },
        ])
    );
}

/// A run with calls of every kind: sends, a receive that takes a message
/// from the scenario's worker, a long poll answered later, failed calls.
fn played() -> Host {
    let mut host = Host::from_scenario(&scenario(), PlaygroundOptions::default()).unwrap();
    let url = queue_url(&host);
    let send = |text: &str| json!({ "QueueUrl": url, "MessageBody": text }).to_string();
    host.advance(700).unwrap();
    host.dispatch(
        "AmazonSQS.SendMessage",
        &send("one"),
        &Principal::caller(Some("you")),
    );
    host.dispatch(
        "AmazonSQS.SendMessage",
        "{",
        &Principal::caller(Some("you")),
    );
    host.advance(1300).unwrap();
    let receive = json!({ "QueueUrl": url, "WaitTimeSeconds": 5, "MaxNumberOfMessages": 10 });
    host.dispatch(
        "AmazonSQS.ReceiveMessage",
        &receive.to_string(),
        &Principal::caller(Some("you")),
    );
    host.take_answers();
    host.advance(2500).unwrap();
    host.take_answers();
    host.dispatch(
        "AmazonSQS.PurgeQueue",
        &json!({ "QueueUrl": "nope" }).to_string(),
        &Principal::caller(None),
    );
    host.advance(4000).unwrap();
    host.take_answers();
    host
}

fn state(host: &Host) -> (String, String) {
    let events: Vec<_> = host.simulation().events(0).collect();
    (
        serde_json::to_string(&events).unwrap(),
        host.snapshot_json(None, 0).unwrap(),
    )
}

#[test]
fn a_run_replayed_from_its_journal_reaches_the_same_state() {
    let mut live = played();
    let journal = live.journal().clone();
    assert!(journal.calls.len() >= 4, "{journal:?}");
    let mut replayed = Host::replay(&journal).expect("replays");
    assert_eq!(
        replayed.journal(),
        &journal,
        "the replay's journal is the journal"
    );
    let end = live.simulation().now() + 3000;
    live.advance(end - live.simulation().now()).unwrap();
    replayed.advance(end - replayed.simulation().now()).unwrap();
    live.take_answers();
    replayed.take_answers();
    assert_eq!(state(&replayed), state(&live));
}

#[test]
fn the_journal_from_a_call_on_lists_only_the_later_calls() {
    let host = played();
    let all = host.journal();
    let later = all.since(2);
    assert_eq!(later.from, 2);
    assert_eq!(later.calls, &all.calls[2..]);
    assert_eq!(later.recorded, all.calls.len());
    assert_eq!(all.since(usize::MAX).calls.len(), 0);
}

#[test]
fn a_journal_past_its_budget_counts_the_calls_it_does_not_record() {
    let mut host = Host::new(PlaygroundOptions::default()).unwrap();
    // Bodies of 3 MiB (each within MAX_REQUEST_BYTES): ten fit, the eleventh does not.
    let big = format!("\"{}\"", "b".repeat(3 << 20));
    assert!(big.len() < MAX_REQUEST_BYTES && 11 * big.len() > MAX_JOURNAL_BYTES);
    for _ in 0..10 {
        host.dispatch("AmazonSQS.ListQueues", &big, &Principal::caller(None));
    }
    host.advance(5).unwrap();
    host.dispatch("AmazonSQS.ListQueues", &big, &Principal::caller(None));
    // Even a small call after it goes unrecorded: the record stays a prefix of the run.
    host.dispatch("AmazonSQS.ListQueues", "{}", &Principal::caller(None));
    let journal = host.journal();
    assert_eq!((journal.calls.len(), journal.unrecorded), (10, 2));
    assert_eq!(journal.unrecorded_from, Some(5));
    assert_eq!(journal.calls.len(), 10);
    const { assert!(MAX_JOURNAL_CALLS >= 20_000, "a link's replay fits in it") };
}

#[test]
fn a_journal_records_at_most_its_number_of_calls() {
    let mut host = Host::new(PlaygroundOptions::default()).unwrap();
    for _ in 0..=MAX_JOURNAL_CALLS {
        host.dispatch("AmazonSQS.ListQueues", "{}", &Principal::caller(None));
    }
    let journal = host.journal();
    assert_eq!(
        (journal.calls.len(), journal.unrecorded),
        (MAX_JOURNAL_CALLS, 1)
    );
}

#[test]
fn a_cloudwatch_call_is_recorded_by_its_whole_target_and_a_replay_makes_it_again() {
    let mut host = Host::from_scenario(&scenario(), PlaygroundOptions::default()).unwrap();
    host.advance(1500).unwrap();
    let target = "GraniteServiceVersion20100801.PutMetricData";
    let body = json!({ "Namespace": "OrderProcessing",
        "MetricData": [{ "MetricName": "ProcessingTime", "Value": 250.5, "Unit": "Milliseconds" }] });
    let by = Principal::caller(Some("your code"));
    assert_eq!(status(host.dispatch(target, &body.to_string(), &by)), 200);
    let calls = &as_json(host.journal())["calls"];
    assert_eq!(calls[0]["op"], target);
    assert_eq!(calls[0]["body"], body);
    let custom = |h: &Host| {
        let metrics = h.simulation().metrics(0);
        (metrics.series.into_iter())
            .find(|s| s.metric.namespace == "OrderProcessing")
            .map(|s| s.points)
    };
    let replayed = Host::replay(host.journal()).expect("replays");
    assert!(custom(&host).is_some());
    assert_eq!(
        custom(&replayed),
        custom(&host),
        "the replay put the same datapoint at the same moment"
    );
}
