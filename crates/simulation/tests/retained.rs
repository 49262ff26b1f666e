//! A run's per-message records stay bounded however many messages it
//! handles: the side-effect ledger keeps the first MAX_SIDE_EFFECT_DETAILS
//! messages in detail (the snapshot says how many more it did not keep),
//! and what the ledger, the idempotent table, a lab's goal and the story
//! follow per message is forgotten once a message is gone for good. The
//! goal's verdicts stay true: a message forgotten unprocessed still breaks
//! its end condition.

use queuelab_engine::Config;
use queuelab_simulation::{Scenario, Simulation, MAX_SIDE_EFFECT_DETAILS};
use serde_json::json;

/// `count` orders, one a millisecond; an idempotent worker handles every
/// one until it stops at `stop_ms`; the rest wait and expire unprocessed
/// (retention 60 s) before the end, 120 s after the last send.
fn long_run(count: u64, stop_ms: u64) -> Scenario {
    serde_json::from_value(json!({
        "title": "long", "durationMs": count + 120_000,
        "queues": [{ "name": "q", "messageRetentionPeriodSeconds": 60 }],
        "producers": [{ "name": "p", "queue": "q",
                        "rate": { "everyMs": 1, "count": count, "body": "order {n}: charge" } }],
        "consumers": [{ "name": "c", "queue": "q", "batchSize": 10, "waitTimeSeconds": 20,
                        "stopMs": stop_ms, "processing": { "fixedMs": 0 },
                        "behaviour": { "idempotent": true } }],
        "goal": { "summary": "each order charged once", "sideEffectsExactly": 1 },
    }))
    .expect("a well-formed scenario")
}

#[test]
fn a_long_runs_per_message_records_stay_bounded_by_live_messages() {
    // 200,000 orders; the worker stops at 150 s.
    let mut sim = Simulation::new(long_run(200_000, 150_000), Config::default()).unwrap();
    for _ in 0..32 {
        sim.advance(10_000);
        let r = sim.retained();
        let stored: usize = sim
            .engine()
            .counts()
            .queues
            .iter()
            .map(|q| q.visible + q.in_flight + q.delayed)
            .sum();
        assert!(r.side_effect_details <= MAX_SIDE_EFFECT_DETAILS, "{r:?}");
        // Only messages still stored or held (a batch of 10) are followed.
        let live = stored + 10;
        assert!(r.side_effect_counts <= live, "{r:?}, {stored} stored");
        assert!(r.processed_ids <= live, "{r:?}, {stored} stored");
        assert!(r.goal_messages <= live, "{r:?}, {stored} stored");
        assert!(r.story_messages <= 2 * live, "{r:?}, {stored} stored");
        assert!(r.goal_breaches <= 12, "{r:?}");
    }
    let handled = sim.workers_side_effects();
    assert!(handled > 100_000, "{handled}");
    assert_eq!(sim.side_effects().len(), MAX_SIDE_EFFECT_DETAILS);
}

#[test]
fn a_snapshot_says_how_many_side_effects_it_did_not_keep() {
    let mut sim = Simulation::new(long_run(20_000, 30_000), Config::default()).unwrap();
    sim.advance(5_000);
    assert_eq!(sim.snapshot().side_effects_omitted, 0);
    sim.advance(135_000);
    let snapshot = sim.snapshot();
    let handled = sim.workers_side_effects();
    assert_eq!(
        snapshot.side_effects_omitted,
        handled - MAX_SIDE_EFFECT_DETAILS as u64
    );
    assert_eq!(snapshot.side_effects.len(), MAX_SIDE_EFFECT_DETAILS);
}

/// The orders left when the worker stopped expired and were forgotten;
/// the goal still names the first of them.
#[test]
fn a_goal_still_judges_messages_it_has_forgotten() {
    let mut sim = Simulation::new(long_run(20_000, 15_000), Config::default()).unwrap();
    sim.advance(140_000);
    let breach = sim
        .goal_breach()
        .expect("unprocessed orders break the goal");
    assert_eq!(breach.condition, "sideEffectsExactly");
    assert!(breach.text.contains("0 times"), "{}", breach.text);
    let first_left = sim.workers_side_effects() + 1;
    assert!(
        breach.text.starts_with(&format!("order {first_left} was")),
        "{} (first unprocessed: order {first_left})",
        breach.text
    );
}

trait Handled {
    fn workers_side_effects(&self) -> u64;
}

impl Handled for Simulation {
    /// Side effects performed by every worker (counted apart from the ledger).
    fn workers_side_effects(&self) -> u64 {
        self.snapshot().workers.iter().map(|w| w.side_effects).sum()
    }
}
