//! The simulation draws from its own PRNG stream (src/rng.rs), never from
//! the engine's: adding a worker, whose processing times are drawn, must
//! not shift the ids the engine hands out.

use queuelab_engine::{Config, EventKind};
use queuelab_simulation::{Kind, Scenario, Simulation};
use serde_json::{json, Value};

/// Message ids of every send, in order, after a 20 s run of "shop"
/// sending one message a second to "jobs", with `consumers` reading it.
fn sent_ids(consumers: Value) -> Vec<String> {
    let scenario: Scenario = serde_json::from_value(json!({
        "title": "ids", "seed": 7, "durationMs": 20_000,
        "queues": [{ "name": "jobs" }],
        "producers": [{ "name": "shop", "queue": "jobs",
                        "rate": { "everyMs": 1000, "count": 20, "body": "order {n}" } }],
        "consumers": consumers,
    }))
    .unwrap();
    let mut sim = Simulation::new(scenario, Config::default()).unwrap();
    sim.advance(20_000);
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Sqs(EventKind::Sent { message_id, .. }) => Some(message_id.to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn adding_a_worker_that_draws_processing_times_does_not_change_the_message_ids() {
    let alone = sent_ids(json!([]));
    let worker = |name: &str| {
        json!({ "name": name, "queue": "jobs",
                "processing": { "uniformMs": { "min": 100, "max": 900 } } })
    };
    let one = sent_ids(json!([worker("a")]));
    let two = sent_ids(json!([worker("a"), worker("b")]));
    assert_eq!(alone.len(), 20);
    assert_eq!(one, alone, "one worker's draws shifted the engine's ids");
    assert_eq!(
        two, alone,
        "a second worker's draws shifted the engine's ids"
    );
}
