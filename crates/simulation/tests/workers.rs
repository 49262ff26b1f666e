//! The simulated workers' behaviours that no shipped scenario exercises,
//! each held to its observable effect: the events it logs, the side effects
//! it performs and what is left in the queue (docs/scenario-format.md,
//! section 5, "The worker loop" and `behaviour`).

use queuelab_engine::{Config, EventKind, Millis};
use queuelab_simulation::{Kind, LogEvent, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

/// A scenario with one standard queue "jobs" (visibility timeout 5 s), the
/// producer "shop" sending to it as `producer` says (`sends` or `rate`),
/// and one consumer "worker" taking 100 ms per message, with the fields of
/// `consumer` added to (or replacing) those.
fn simulation(producer: Value, consumer: Value) -> Simulation {
    let worker = json!({ "name": "worker", "queue": "jobs", "processing": { "fixedMs": 100 } });
    let scenario: Scenario = serde_json::from_value(json!({
        "title": "workers", "durationMs": 60_000,
        "queues": [{ "name": "jobs", "visibilityTimeoutSeconds": 5 }],
        "producers": [with_fields(json!({ "name": "shop", "queue": "jobs" }), producer)],
        "consumers": [with_fields(worker, consumer)],
    }))
    .expect("a valid scenario");
    Simulation::new(scenario, Config::default()).expect("the scenario loads")
}

/// `base` with every field of `fields` added or replaced.
fn with_fields(mut base: Value, fields: Value) -> Value {
    for (field, value) in fields.as_object().expect("an object of fields") {
        base[field] = value.clone();
    }
    base
}

/// A producer that sends these bodies at time 0, in order.
fn sends_at_zero(bodies: &[&str]) -> Value {
    let sends: Vec<Value> = bodies
        .iter()
        .map(|body| json!({ "atMs": 0, "body": body }))
        .collect();
    json!({ "sends": sends })
}

/// Runs the simulation until virtual time `at`.
fn run_until(sim: &mut Simulation, at: Millis) {
    sim.advance(at - sim.now());
}

fn events(sim: &Simulation) -> Vec<LogEvent> {
    sim.events(0).collect()
}

/// The body each message id was sent with.
fn body_of(sim: &Simulation, message_id: &str) -> String {
    events(sim)
        .into_iter()
        .find_map(|e| match e.kind {
            Kind::Sqs(EventKind::Sent {
                message_id: id,
                label,
                ..
            }) if id.to_string() == message_id => Some(label),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no message {message_id}"))
}

/// Bodies of the messages deleted so far, in order.
fn deleted(sim: &Simulation) -> Vec<String> {
    events(sim)
        .into_iter()
        .filter_map(|e| match e.kind {
            Kind::Sqs(EventKind::Deleted { message_id, .. }) => {
                Some(body_of(sim, &message_id.to_string()))
            }
            _ => None,
        })
        .collect()
}

/// (time, body, receive count) of every delivery so far.
fn received(sim: &Simulation) -> Vec<(Millis, String, u32)> {
    events(sim)
        .into_iter()
        .filter_map(|e| match e.kind {
            Kind::Sqs(EventKind::Received {
                message_id,
                receive_count,
                ..
            }) => Some((
                e.time_ms,
                body_of(sim, &message_id.to_string()),
                receive_count,
            )),
            _ => None,
        })
        .collect()
}

/// How often the side effect happened to the message with this body.
fn side_effects(sim: &Simulation, body: &str) -> u64 {
    sim.side_effects()
        .iter()
        .filter(|s| s.body == body)
        .map(|s| s.count)
        .sum()
}

/// Bodies of the messages still stored in the queue.
fn stored(sim: &Simulation) -> Vec<String> {
    let mut bodies: Vec<String> = sim.engine().snapshot().queues[0]
        .messages
        .iter()
        .map(|m| m.body.clone())
        .collect();
    bodies.sort();
    bodies
}

fn worker_state(sim: &Simulation) -> &'static str {
    sim.snapshot().workers[0].state
}

#[test]
fn a_consumer_playing_a_lambda_function_is_refused_with_the_way_to_the_lambdas_section() {
    for field in ["lambdaBatch", "reportBatchItemFailures"] {
        let consumer = json!({ "name": "worker", "queue": "jobs", "processing": { "fixedMs": 100 },
            "behaviour": { field: true } });
        let scenario: Scenario = serde_json::from_value(json!({
            "title": "t", "durationMs": 1000,
            "queues": [{ "name": "jobs" }],
            "consumers": [consumer],
        }))
        .expect("read, to be refused with words");
        let e = scenario.validate().unwrap_err();
        assert_eq!(e.path, format!("consumers[0].behaviour.{field}"));
        assert!(e.rule.contains("`lambdas` section"), "{}", e.rule);
        assert!(e.rule.contains("functionResponseTypes"), "{}", e.rule);
        assert_eq!(e.got, "true");
    }
}

#[test]
fn crashes_after_side_effect_on_performs_the_side_effect_then_the_message_comes_back() {
    let mut sim = simulation(
        sends_at_zero(&["order X"]),
        json!({ "behaviour": { "crashesAfterSideEffectOn": ["X"], "restartMs": 1_000 } }),
    );
    run_until(&mut sim, 100);
    assert_eq!(side_effects(&sim, "order X"), 1);
    assert_eq!(worker_state(&sim), "crashed");
    let crashes: Vec<bool> = events(&sim)
        .into_iter()
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::WorkerCrashed {
                before_side_effect, ..
            }) => Some(before_side_effect),
            _ => None,
        })
        .collect();
    assert_eq!(crashes, [false], "crashed after the side effect");
    assert_eq!(deleted(&sim), Vec::<String>::new());
    // Not deleted, so it is delivered again when its 5 s timeout ends, and
    // the side effect happens a second time.
    run_until(&mut sim, 5_999);
    assert_eq!(
        received(&sim),
        [(0, "order X".into(), 1), (5_100, "order X".into(), 2)],
        "back at 5 s; the restarted worker's short poll pauses 1 s between tries"
    );
    assert_eq!(side_effects(&sim, "order X"), 2);
    assert_eq!(stored(&sim), ["order X"]);
}

#[test]
fn stop_ms_stops_the_worker_receiving_from_that_time() {
    // A message a second; the worker takes those it finds before 2.5 s only.
    let mut sim = simulation(
        json!({ "rate": { "everyMs": 1_000, "count": 5, "body": "m{n}" } }),
        json!({ "stopMs": 2_500 }),
    );
    run_until(&mut sim, 10_000);
    let times: Vec<Millis> = received(&sim).iter().map(|r| r.0).collect();
    // Each empty short poll pauses 1 s: receives at 0, 1.1 s and 2.2 s; the
    // next one, due at 3.3 s, is after stopMs.
    assert_eq!(times, [0, 1_100, 2_200]);
    assert_eq!(deleted(&sim), ["m1", "m2", "m3"]);
    assert_eq!(
        stored(&sim),
        ["m4", "m5"],
        "sent after the stop, never received"
    );
    assert_eq!(worker_state(&sim), "stopped");
}

#[test]
fn stop_ms_lets_the_worker_finish_the_batch_it_holds() {
    let mut sim = simulation(
        sends_at_zero(&["long job"]),
        json!({ "stopMs": 500, "processing": { "fixedMs": 2_000 } }),
    );
    run_until(&mut sim, 1_000);
    assert_eq!(
        worker_state(&sim),
        "processing",
        "still working past stopMs"
    );
    run_until(&mut sim, 2_000);
    assert_eq!(side_effects(&sim, "long job"), 1);
    assert_eq!(deleted(&sim), ["long job"]);
    assert_eq!(worker_state(&sim), "stopped");
}

#[test]
fn batch_size_above_one_receives_up_to_that_many_per_call_and_deletes_each_when_done() {
    let mut sim = simulation(
        sends_at_zero(&["1", "2", "3", "4", "5"]),
        json!({ "batchSize": 3 }),
    );
    run_until(&mut sim, 50);
    assert_eq!(sim.snapshot().workers[0].holding.len(), 3);
    run_until(&mut sim, 500);
    let got: Vec<(Millis, String)> = received(&sim).into_iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(
        got,
        [
            (0, "1".into()),
            (0, "2".into()),
            (0, "3".into()),
            (300, "4".into()),
            (300, "5".into())
        ],
        "one receive of three, then one of the remaining two"
    );
    let deleted_at: Vec<Millis> = events(&sim)
        .iter()
        .filter(|e| matches!(e.kind, Kind::Sqs(EventKind::Deleted { .. })))
        .map(|e| e.time_ms)
        .collect();
    assert_eq!(deleted_at, [100, 200, 300, 400, 500], "each as it finishes");
}

#[test]
fn exponential_ms_draws_processing_times_with_the_given_mean() {
    let mut sim = simulation(
        json!({ "rate": { "everyMs": 1, "count": 100, "body": "job-{n}" } }),
        json!({ "processing": { "exponentialMs": { "mean": 300 } } }),
    );
    run_until(&mut sim, 60_000);
    // One worker, one message at a time: each message's processing time is
    // from its receive to its delete.
    let mut taken = std::collections::BTreeMap::new();
    let mut durations = Vec::new();
    for event in events(&sim) {
        match event.kind {
            Kind::Sqs(EventKind::Received { message_id, .. }) => {
                taken.insert(message_id.to_string(), event.time_ms);
            }
            Kind::Sqs(EventKind::Deleted { message_id, .. }) => {
                durations.push(event.time_ms - taken[&message_id.to_string()]);
            }
            _ => {}
        }
    }
    assert_eq!(durations.len(), 100, "every message processed once");
    // The seed fixes the draws, so these bounds are not flaky; they are
    // wide enough (about 3 standard errors) that any correct exponential
    // sampler passes for most seeds, and a fixed, uniform or wrongly
    // scaled one fails.
    let mean = durations.iter().sum::<u64>() as f64 / 100.0;
    assert!((210.0..=390.0).contains(&mean), "mean {mean} ms");
    let below_mean = durations.iter().filter(|d| (**d as f64) < 300.0).count();
    assert!(
        (50..=77).contains(&below_mean),
        "{below_mean} of 100 below the mean; an exponential puts 63% there"
    );
    let long = durations.iter().filter(|d| **d > 600).count();
    assert!(
        (4..=25).contains(&long),
        "{long} of 100 above twice the mean; an exponential puts 13.5% there"
    );
}

#[test]
fn a_worker_holding_a_big_body_shows_its_length_and_first_kib_in_the_snapshot() {
    // 100,000 bytes of "é" (2 bytes each): the 1 KiB cut falls on a character boundary.
    let big = "é".repeat(50_000);
    let mut sim = simulation(sends_at_zero(&[&big]), json!({}));
    run_until(&mut sim, 50);
    let snapshot = sim.snapshot();
    let held = &snapshot.workers[0].holding[0];
    assert_eq!(held.body_bytes, 100_000);
    assert!(held.body_truncated);
    assert_eq!(held.body, "é".repeat(512));
    let whole = sim
        .engine()
        .peek(&held.message_id)
        .expect("the held message is stored");
    assert_eq!(whole.message.body, big, "peek gives the whole body");
}

#[test]
fn a_message_whose_early_delete_missed_a_copy_is_not_lost_when_its_handler_then_crashes() {
    // Realism: every DeleteMessage on a standard queue misses a copy, so a
    // worker that deletes before processing has not really deleted it,
    // and its crash leaves a copy that comes back: nothing is lost.
    let scenario: Scenario = serde_json::from_value(json!({
        "title": "missed", "durationMs": 20_000,
        "queues": [{ "name": "jobs", "visibilityTimeoutSeconds": 5 }],
        "producers": [{ "name": "shop", "queue": "jobs", "sends": [{ "atMs": 0, "body": "A-1" }] }],
        "consumers": [{ "name": "worker", "queue": "jobs", "processing": { "fixedMs": 100 },
            "behaviour": { "deletesBeforeProcessing": true, "crashesBeforeSideEffectOn": ["A-1"],
                           "restartMs": 1000 } }],
    }))
    .unwrap();
    let config = Config {
        realism: queuelab_engine::Realism {
            duplicate_delivery_probability: 1.0,
            ..Default::default()
        },
        ..Config::default()
    };
    let mut sim = Simulation::new(scenario, config).unwrap();
    run_until(&mut sim, 20_000);
    let log = events(&sim);
    let missed = log
        .iter()
        .filter(|e| matches!(e.kind, Kind::Sqs(EventKind::DeleteMissedCopy { .. })))
        .count();
    let lost = log
        .iter()
        .filter(|e| matches!(e.kind, Kind::Simulation(SimEvent::MessageLost { .. })))
        .count();
    let receives = received(&sim).len();
    assert!(
        missed > 0 && receives > 1,
        "the delete missed a copy and it came back"
    );
    assert_eq!(lost, 0, "no message is lost while SQS still holds a copy");
    assert_eq!(sim.snapshot().outcome.lost, 0);
}
