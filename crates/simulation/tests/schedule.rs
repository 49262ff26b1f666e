//! A schedule (`schedule` in a scenario, `actors/schedule.rs`): a sender
//! that sends each listed message at its own moment, under its own name,
//! however far ahead, where SQS's own DelaySeconds stops at 15 minutes.
//! Its sends are logged like a producer's; a bad schedule is refused at
//! its field, in words.

use queuelab_engine::{Config, EventKind, MAX_VIRTUAL_MS};
use queuelab_simulation::{FieldError, Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

fn scenario(queues: Value, schedule: Value) -> Scenario {
    serde_json::from_value(json!({
        "title": "schedule", "durationMs": 10_000,
        "queues": queues, "schedule": schedule,
    }))
    .expect("a well-formed scenario")
}

fn run(queues: Value, schedule: Value, until: u64) -> Simulation {
    let mut sim = Simulation::new(scenario(queues, schedule), Config::default()).expect("loads");
    sim.advance(until);
    sim
}

/// Each `Sent` event of the run: (moment, label, sender).
fn sends(sim: &Simulation) -> Vec<(u64, String, Option<String>)> {
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Sqs(EventKind::Sent { label, by, .. }) => {
                Some((e.time_ms, label, by.map(|b| b.to_string())))
            }
            _ => None,
        })
        .collect()
}

fn refusal(queues: Value, schedule: Value) -> FieldError {
    scenario(queues, schedule).validate().expect_err("refused")
}

#[test]
fn a_schedule_sends_each_message_at_its_moment() {
    let sim = run(
        json!([{ "name": "reminders" }]),
        json!([{ "name": "cron", "queue": "reminders", "sends": [
            { "atMs": 2500, "body": "second" },
            { "atMs": 1000, "body": "first" },
            { "atMs": 2500, "body": "third", "attributes": { "kind": "nudge" } },
        ]}]),
        10_000,
    );
    let by = Some("cron".to_string());
    assert_eq!(
        sends(&sim),
        vec![
            (1000, "first".into(), by.clone()),
            (2500, "second".into(), by.clone()),
            (2500, "third".into(), by),
        ]
    );
    let queue = &sim.engine().snapshot().queues[0];
    assert_eq!(queue.visible, 3);
}

#[test]
fn a_schedule_sends_beyond_fifteen_minutes() {
    // Two hours ahead: 7,200 s, eight times DelaySeconds' 900 s maximum.
    let two_hours = 2 * 3_600_000;
    let mut sim = Simulation::new(
        scenario(
            json!([{ "name": "invoices" }]),
            json!([{ "name": "billing", "queue": "invoices", "sends": [
                { "atMs": two_hours, "body": "invoice due" },
            ]}]),
        ),
        Config::default(),
    )
    .unwrap();
    sim.advance(two_hours - 1);
    assert_eq!(sends(&sim), vec![]);
    assert_eq!(sim.engine().snapshot().queues[0].visible, 0);
    sim.advance(1);
    assert_eq!(
        sends(&sim),
        vec![(two_hours, "invoice due".into(), Some("billing".into()))]
    );
    // Sent at its moment, not delayed by SQS: visible at once.
    assert_eq!(sim.engine().snapshot().queues[0].visible, 1);
}

#[test]
fn a_schedule_sends_to_a_fifo_queue_with_its_group_and_deduplication_ids() {
    let sim = run(
        json!([{ "name": "orders.fifo" }]),
        json!([{ "name": "cron", "queue": "orders.fifo", "sends": [
            { "atMs": 100, "body": "a", "groupId": "g", "dedupId": "one" },
            { "atMs": 200, "body": "a again", "groupId": "g", "dedupId": "one" },
            { "atMs": 300, "body": "b", "groupId": "g", "dedupId": "two" },
        ]}]),
        1_000,
    );
    let labels: Vec<String> = sends(&sim).into_iter().map(|(_, label, _)| label).collect();
    assert_eq!(labels, ["a", "b"]);
    let dropped = sim.events(0).filter(|e| {
        matches!(&e.kind, Kind::Sqs(EventKind::DuplicateDropped { by: Some(b), .. }) if &**b == "cron")
    });
    assert_eq!(dropped.count(), 1);
}

#[test]
fn a_schedule_on_a_queue_the_scenario_does_not_have_is_refused_at_its_field() {
    let error = refusal(
        json!([{ "name": "jobs" }]),
        json!([{ "name": "cron", "queue": "job", "sends": [] }]),
    );
    assert_eq!(error.path, "schedule[0].queue");
    assert_eq!(error.rule, "the name of one of the scenario's queues");
    assert_eq!(error.got, "\"job\"");
}

#[test]
fn a_schedule_send_past_the_last_moment_of_virtual_time_is_refused_at_its_field() {
    let error = refusal(
        json!([{ "name": "jobs" }]),
        json!([{ "name": "cron", "queue": "jobs", "sends": [
            { "atMs": 5, "body": "ok" }, { "atMs": MAX_VIRTUAL_MS + 1, "body": "never" },
        ]}]),
    );
    assert_eq!(error.path, "schedule[0].sends[1].atMs");
    assert_eq!(
        error.to_string(),
        format!(
            "schedule[0].sends[1].atMs must be a whole number of milliseconds from 0 to \
             {MAX_VIRTUAL_MS} (2^53 − 1, the last moment virtual time reaches), got {}",
            MAX_VIRTUAL_MS + 1
        )
    );
}

#[test]
fn a_schedule_send_delayed_past_fifteen_minutes_is_refused_at_its_field() {
    let error = refusal(
        json!([{ "name": "jobs" }]),
        json!([{ "name": "cron", "queue": "jobs", "sends": [
            { "atMs": 5, "body": "late", "delaySeconds": 901 },
        ]}]),
    );
    assert_eq!(
        error.to_string(),
        "schedule[0].sends[0].delaySeconds must be a whole number of seconds from 0 to 900 \
         (15 minutes), the range SQS allows for DelaySeconds, got 901"
    );
}

#[test]
fn a_schedule_send_to_a_fifo_queue_without_a_group_id_is_refused_at_its_field() {
    let error = refusal(
        json!([{ "name": "orders.fifo", "contentBasedDeduplication": true }]),
        json!([{ "name": "cron", "queue": "orders.fifo", "sends": [
            { "atMs": 5, "body": "no group" },
        ]}]),
    );
    assert_eq!(error.path, "schedule[0].sends[0].groupId");
    assert_eq!(
        error.rule,
        "a MessageGroupId: every send to a FIFO queue has one"
    );
}

#[test]
fn a_schedule_send_to_a_fifo_queue_without_deduplication_needs_a_dedup_id() {
    let error = refusal(
        json!([{ "name": "orders.fifo" }]),
        json!([{ "name": "cron", "queue": "orders.fifo", "sends": [
            { "atMs": 5, "body": "no dedup", "groupId": "g" },
        ]}]),
    );
    assert_eq!(error.path, "schedule[0].sends[0].dedupId");
    assert_eq!(
        error.rule,
        "a MessageDeduplicationId: the queue has no contentBasedDeduplication"
    );
}

#[test]
fn a_schedule_send_with_an_empty_body_is_refused_at_its_field() {
    let error = refusal(
        json!([{ "name": "jobs" }]),
        json!([{ "name": "cron", "queue": "jobs", "sends": [{ "atMs": 5, "body": "" }] }]),
    );
    assert_eq!(error.path, "schedule[0].sends[0].body");
}

#[test]
fn a_schedule_named_like_a_producer_is_refused_at_its_field() {
    let scenario: Scenario = serde_json::from_value(json!({
        "title": "t", "durationMs": 1000, "queues": [{ "name": "jobs" }],
        "producers": [{ "name": "cron", "queue": "jobs" }],
        "schedule": [{ "name": "cron", "queue": "jobs", "sends": [] }],
    }))
    .unwrap();
    let error = scenario.validate().expect_err("refused");
    assert_eq!(error.path, "schedule[0].name");
    assert!(
        error.rule.contains("producers[0] is also named \"cron\""),
        "{}",
        error.rule
    );
}

#[test]
fn a_schedule_with_a_name_too_long_for_the_log_is_refused_at_its_field() {
    let error = refusal(
        json!([{ "name": "jobs" }]),
        json!([{ "name": "c".repeat(81), "queue": "jobs", "sends": [] }]),
    );
    assert_eq!(error.path, "schedule[0].name");
    assert_eq!(error.rule, "at most 80 characters");
}

#[test]
fn more_than_a_hundred_schedules_are_refused() {
    let many: Vec<Value> = (0..101)
        .map(|i| json!({ "name": format!("cron-{i}"), "queue": "jobs", "sends": [] }))
        .collect();
    let error = refusal(json!([{ "name": "jobs" }]), json!(many));
    assert_eq!(error.path, "schedule");
}

/// A schedule is the scenario's sender, not the learner: a narration line
/// waiting for its send fires, as it would for a producer's.
#[test]
fn a_narration_line_fires_on_a_scheduled_send() {
    let scenario: Scenario = serde_json::from_value(json!({
        "title": "t", "durationMs": 5_000, "queues": [{ "name": "jobs" }],
        "schedule": [{ "name": "cron", "queue": "jobs", "sends": [{ "atMs": 4_000, "body": "x" }] }],
        "narration": [{ "when": { "event": "sent", "consumer": "cron" }, "text": "the schedule sent" }],
    }))
    .unwrap();
    let mut sim = Simulation::new(scenario, Config::default()).unwrap();
    sim.advance(5_000);
    let told: Vec<(u64, String)> = sim
        .events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::Narration { text }) => Some((e.time_ms, text)),
            _ => None,
        })
        .collect();
    assert_eq!(told, vec![(4_000, "the schedule sent".to_string())]);
}

/// A lab knob that renames a queue (a standard queue made FIFO) renames it
/// in the schedules that send to it, as in producers and consumers.
#[test]
fn renaming_a_queue_renames_it_in_the_schedules_that_send_to_it() {
    let mut s = scenario(
        json!([{ "name": "jobs" }]),
        json!([{ "name": "cron", "queue": "jobs", "sends": [] }]),
    );
    queuelab_simulation::lab::rename_queue(&mut s, "jobs", "jobs-2");
    assert_eq!(s.schedule[0].queue, "jobs-2");
    assert_eq!(s.validate(), Ok(()));
}

#[test]
fn the_snapshot_counts_a_schedules_sends_beside_the_producers() {
    let sim = run(
        json!([{ "name": "reminders.fifo", "contentBasedDeduplication": true }]),
        json!([{ "name": "cron", "queue": "reminders.fifo", "sends": [
            { "atMs": 1000, "body": "nudge", "groupId": "a" },
            { "atMs": 2000, "body": "nudge", "groupId": "a" },
            { "atMs": 3000, "body": "later", "groupId": "a" },
        ]}]),
        10_000,
    );
    let counts: Vec<(String, String, u64, u64, u64)> = (sim.snapshot().producers.into_iter())
        .map(|p| (p.name, p.queue, p.sent, p.deduplicated, p.failed))
        .collect();
    assert_eq!(counts, [("cron".into(), "reminders.fifo".into(), 2, 1, 0)]);
}
