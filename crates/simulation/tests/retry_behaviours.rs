//! The retry behaviours (behaviours/retry.rs, behaviours/outage.rs):
//! `retryImmediately` releases a failed message at once, `retryBackoff`
//! hides it for base × 2^(receiveCount − 1) seconds up to a maximum, and
//! `failsDuringMs` fails whatever is processed during an outage.

use queuelab_engine::{Config, EventKind};
use queuelab_simulation::{Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

/// One order at 0 to "orders" (visibility 30 s), one long-polling worker
/// taking 100 ms per message, with `behaviour`, for `duration` ms.
fn scenario(behaviour: Value, duration: u64) -> Scenario {
    serde_json::from_value(json!({
        "title": "retries", "durationMs": duration,
        "queues": [{ "name": "orders", "visibilityTimeoutSeconds": 30 }],
        "producers": [{ "name": "shop", "queue": "orders",
                        "sends": [{ "atMs": 0, "body": "order A-1001: charge $25" }] }],
        "consumers": [{ "name": "worker", "queue": "orders", "waitTimeSeconds": 20,
                        "processing": { "fixedMs": 100 }, "behaviour": behaviour }],
    }))
    .expect("a valid scenario")
}

fn run(s: Scenario) -> Simulation {
    let duration = s.duration_ms;
    let mut sim = Simulation::new(s, Config::default()).expect("loads");
    sim.advance(duration);
    sim
}

/// The moments the order was received.
fn receives(sim: &Simulation) -> Vec<u64> {
    sim.events(0)
        .filter(|e| matches!(e.kind, Kind::Sqs(EventKind::Received { .. })))
        .map(|e| e.time_ms)
        .collect()
}

#[test]
fn retry_immediately_releases_a_failed_message_at_once() {
    let sim = run(scenario(
        json!({ "failsOn": ["A-1001"], "retryImmediately": true }),
        1000,
    ));
    // Received, failed 100 ms later, released with visibility 0 and
    // received again at once: every 100 ms.
    assert_eq!(
        receives(&sim),
        (0..=10).map(|i| i * 100).collect::<Vec<_>>()
    );
    let released = sim
        .events(0)
        .filter(|e| matches!(&e.kind, Kind::Sqs(EventKind::VisibilityChanged { visible_at, .. }) if *visible_at == e.time_ms))
        .count();
    assert_eq!(released, 10);
}

#[test]
fn retry_backoff_doubles_the_delay_with_each_receive_up_to_its_maximum() {
    let backoff =
        json!({ "failsOn": ["A-1001"], "retryBackoff": { "baseSeconds": 1, "maxSeconds": 4 } });
    let sim = run(scenario(backoff, 16_000));
    // Fails at 100 ms after each receive, then waits 1, 2, 4, then 4 s (capped).
    assert_eq!(receives(&sim), [0, 1100, 3200, 7300, 11_400, 15_500]);
}

#[test]
fn without_a_retry_behaviour_a_failed_message_waits_its_visibility_timeout() {
    let sim = run(scenario(json!({ "failsOn": ["A-1001"] }), 40_000));
    assert_eq!(receives(&sim), [0, 30_000]);
}

#[test]
fn fails_during_ms_fails_only_what_ends_inside_the_outage() {
    let outage = json!({ "failsDuringMs": { "startMs": 0, "endMs": 1000 },
                         "retryBackoff": { "baseSeconds": 1, "maxSeconds": 60 } });
    let sim = run(scenario(outage, 5000));
    let failures = sim
        .events(0)
        .filter(|e| matches!(e.kind, Kind::Simulation(SimEvent::ProcessingFailed { .. })))
        .count();
    // Ends at 100 ms (fails, hidden 1 s), received at 1100, ends at 1200: charged.
    assert_eq!((failures, receives(&sim)), (1, vec![0, 1100]));
    assert_eq!(sim.side_effects()[0].count, 1);
}

#[test]
fn retry_immediately_and_retry_backoff_together_are_refused() {
    let both =
        json!({ "retryImmediately": true, "retryBackoff": { "baseSeconds": 1, "maxSeconds": 4 } });
    let error = scenario(both, 1000).validate().unwrap_err();
    assert_eq!(
        error.to_string(),
        "consumers[0].behaviour.retryBackoff must be left out when retryImmediately is true (a \
         message released at once cannot also wait), got a backoff"
    );
}
