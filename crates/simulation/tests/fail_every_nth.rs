//! The `failsEveryNth` behaviour (behaviours/fail_every_nth.rs): the
//! handler fails on every Nth message it handles, whatever the body; the
//! failed message is not deleted and comes back after its visibility timeout.

use queuelab_engine::Config;
use queuelab_simulation::{Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

/// "shop" sends six orders at time 0 to "jobs" (visibility timeout 5 s);
/// "worker" takes them one at a time, 100 ms each, with `behaviour`.
fn scenario(behaviour: Value) -> Scenario {
    let sends: Vec<Value> = (1..=6)
        .map(|n| json!({ "atMs": 0, "body": format!("order {n}") }))
        .collect();
    serde_json::from_value(json!({
        "title": "flaky", "durationMs": 30_000,
        "queues": [{ "name": "jobs", "visibilityTimeoutSeconds": 5 }],
        "producers": [{ "name": "shop", "queue": "jobs", "sends": sends }],
        "consumers": [{ "name": "worker", "queue": "jobs",
                        "processing": { "fixedMs": 100 }, "behaviour": behaviour }],
    }))
    .expect("a valid scenario")
}

#[test]
fn fails_every_nth_fails_the_third_and_sixth_handled_then_their_redeliveries_succeed() {
    let mut sim = Simulation::new(scenario(json!({ "failsEveryNth": 3 })), Config::default())
        .expect("the scenario loads");
    sim.advance(30_000);
    let failed: Vec<(u64, String)> = sim
        .events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::ProcessingFailed { message_id, .. }) => {
                let peek_body = sim
                    .side_effects()
                    .iter()
                    .find(|s| s.message_id == message_id)
                    .map(|s| s.body.clone());
                Some((e.time_ms, peek_body.unwrap_or_default()))
            }
            _ => None,
        })
        .collect();
    // Handled 3rd and 6th (at 300 ms and 600 ms); each later succeeded once.
    assert_eq!(
        failed,
        [(300, "order 3".to_string()), (600, "order 6".to_string())]
    );
    for n in 1..=6 {
        let body = format!("order {n}");
        let count: u64 = sim
            .side_effects()
            .iter()
            .filter(|s| s.body == body)
            .map(|s| s.count)
            .sum();
        assert_eq!(count, 1, "{body} is charged exactly once");
    }
    assert!(sim.engine().snapshot().queues[0].messages.is_empty());
}

#[test]
fn fails_every_nth_of_zero_is_refused_naming_the_field() {
    let error = Simulation::new(scenario(json!({ "failsEveryNth": 0 })), Config::default())
        .err()
        .expect("refused");
    assert_eq!(
        error.message,
        "scenario consumer \"worker\": behaviour.failsEveryNth must be above 0"
    );
}
