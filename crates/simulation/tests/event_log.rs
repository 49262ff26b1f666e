//! The run's one event log (src/log.rs): the engine's SQS events and the
//! simulation's own in one sequence, under the same cap as the engine's
//! log alone (crates/engine/tests/event_log.rs): the most recent
//! `event_capacity` events are kept and numbers never restart.

use queuelab_engine::{workload, Config};
use queuelab_simulation::{Kind, LogEvent, Scenario, Simulation};
use serde_json::json;

/// A 10 s run of one producer and one worker (both kinds of event), then
/// one send by hand through the engine, as a host's own call would be.
fn run(capacity: usize) -> Simulation {
    let scenario: Scenario = serde_json::from_value(json!({
        "title": "log", "durationMs": 10_000,
        "narration": [{ "atMs": 0, "text": "start" }],
        "queues": [{ "name": "jobs" }],
        "producers": [{ "name": "shop", "queue": "jobs",
                        "rate": { "everyMs": 1000, "count": 5, "body": "order {n}" } }],
        "consumers": [{ "name": "worker", "queue": "jobs", "processing": { "fixedMs": 300 } }],
    }))
    .unwrap();
    let config = Config {
        event_capacity: capacity,
        ..Config::default()
    };
    let mut sim = Simulation::new(scenario, config).unwrap();
    sim.advance(10_000);
    let url = sim.engine().snapshot().queues[0].url.clone();
    workload::send(sim.engine_mut(), &url, "by hand", false, 1, 0);
    sim
}

fn all(sim: &Simulation, since: u64) -> Vec<LogEvent> {
    sim.events(since).collect()
}

#[test]
fn the_log_numbers_both_kinds_of_event_in_one_sequence_in_time_order() {
    let sim = run(100_000);
    let events = all(&sim, 0);
    let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (1..=events.len() as u64).collect::<Vec<_>>());
    assert!(events.windows(2).all(|w| w[0].time_ms <= w[1].time_ms));
    let simulation = events
        .iter()
        .filter(|e| matches!(e.kind, Kind::Simulation(_)))
        .count();
    assert!(simulation > 5 && simulation < events.len(), "both kinds");
    assert_eq!(sim.next_event_seq(), events.len() as u64 + 1);
    let last = events.last().unwrap();
    assert!(
        matches!(last.kind, Kind::Sqs(_)),
        "the send by hand comes last"
    );
}

#[test]
fn events_beyond_the_capacity_drop_the_oldest_of_both_kinds() {
    let whole = all(&run(100_000), 0);
    let sim = run(5);
    assert_eq!(all(&sim, 0), whole[whole.len() - 5..]);
    assert_eq!(sim.next_event_seq(), whole.len() as u64 + 1);
    let n = whole.len() as u64;
    assert_eq!(all(&sim, n - 2), whole[whole.len() - 2..]);
    // Asking from an evicted number gives every retained event.
    assert_eq!(all(&sim, 1), whole[whole.len() - 5..]);
    assert_eq!(all(&sim, n), Vec::<LogEvent>::new());
}

#[test]
fn a_capacity_of_zero_keeps_no_events_but_still_numbers_them() {
    let whole = all(&run(100_000), 0);
    let sim = run(0);
    assert_eq!(all(&sim, 0), Vec::<LogEvent>::new());
    assert_eq!(sim.next_event_seq(), whole.len() as u64 + 1);
}
