//! `replicas` (several identical workers from one consumer entry) and
//! `batchOverheadMs` (a cost paid once per received batch).

use queuelab_engine::Config;
use queuelab_simulation::{Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

fn scenario(consumer: Value) -> Scenario {
    let sends: Vec<Value> = (1..=3)
        .map(|n| json!({ "atMs": 0, "body": format!("order {n}") }))
        .collect();
    let mut c = json!({ "name": "worker", "queue": "jobs", "waitTimeSeconds": 20,
                        "processing": { "fixedMs": 100 } });
    for (k, v) in consumer.as_object().unwrap() {
        c[k] = v.clone();
    }
    serde_json::from_value(json!({
        "title": "t", "durationMs": 5000,
        "queues": [{ "name": "jobs" }],
        "producers": [{ "name": "shop", "queue": "jobs", "sends": sends }],
        "consumers": [c],
    }))
    .expect("a valid scenario")
}

fn run(s: Scenario) -> Simulation {
    let mut sim = Simulation::new(s, Config::default()).expect("loads");
    sim.advance(5000);
    sim
}

/// (consumer, processing start, processing end) of every message.
fn processing(sim: &Simulation) -> Vec<(String, u64, u64)> {
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::ProcessingStarted {
                consumer, until, ..
            }) => Some((consumer.to_string(), e.time_ms, until)),
            _ => None,
        })
        .collect()
}

#[test]
fn replicas_run_identical_workers_named_after_the_consumer() {
    let sim = run(scenario(json!({ "replicas": 3 })));
    let names: Vec<String> = sim.snapshot().workers.into_iter().map(|w| w.name).collect();
    assert_eq!(names, ["worker", "worker-2", "worker-3"]);
    // The three orders are worked on at once, one per worker.
    assert_eq!(
        processing(&sim),
        [
            ("worker".to_string(), 0, 100),
            ("worker-2".to_string(), 0, 100),
            ("worker-3".to_string(), 0, 100)
        ]
    );
}

#[test]
fn a_batch_overhead_is_paid_once_per_batch_with_its_first_message() {
    let sim = run(scenario(json!({ "batchSize": 10, "batchOverheadMs": 400 })));
    let spans: Vec<(u64, u64)> = processing(&sim)
        .into_iter()
        .map(|(_, a, b)| (a, b))
        .collect();
    assert_eq!(spans, [(0, 500), (500, 600), (600, 700)]);
}

#[test]
fn replicas_outside_1_to_20_are_refused() {
    let error = scenario(json!({ "replicas": 21 })).validate().unwrap_err();
    assert_eq!(
        error.to_string(),
        "consumers[0].replicas must be a whole number from 1 to 20, got 21"
    );
}
