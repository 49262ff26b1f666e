//! The work estimate (`Simulation::work_estimate`) and the scenario work
//! limit: a host asks how much a replay costs before running it, and a
//! scenario whose whole run is estimated past `MAX_SCENARIO_WORK` is refused.

use std::path::Path;

use queuelab_engine::Config;
use queuelab_simulation::{Scenario, Simulation, MAX_SCENARIO_WORK, MAX_WORK_WITHOUT_ASKING};
use serde_json::{json, Value};

fn scenario(value: Value) -> Scenario {
    serde_json::from_value(value).expect("a well-formed scenario")
}

/// One consumer short-polling an empty queue every `poll_ms` for `duration_ms`.
fn idle_poller(poll_ms: u64, duration_ms: u64) -> Scenario {
    scenario(json!({
        "title": "idle", "durationMs": duration_ms,
        "queues": [{ "name": "q" }],
        "consumers": [{ "name": "c", "queue": "q", "pollIntervalMs": poll_ms,
                        "processing": { "fixedMs": 10 } }],
    }))
}

fn shipped() -> Vec<(String, Scenario)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".json") && f.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(dir.join(&f)).unwrap();
            let parsed = serde_json::from_str(&text).unwrap();
            (f, parsed)
        })
        .collect()
}

#[test]
fn work_estimate_of_a_moment_already_reached_is_zero() {
    let mut sim = Simulation::new(idle_poller(100, 10_000), Config::default()).unwrap();
    sim.advance(5_000);
    assert_eq!(sim.work_estimate(5_000), 0);
    assert_eq!(sim.work_estimate(1_000), 0);
    assert!(sim.work_estimate(6_000) > 0);
}

#[test]
fn work_estimate_grows_with_how_often_a_consumer_polls() {
    let slow = Simulation::new(idle_poller(1_000, 60_000), Config::default()).unwrap();
    let fast = Simulation::new(idle_poller(1, 60_000), Config::default()).unwrap();
    let (slow, fast) = (slow.work_estimate(60_000), fast.work_estimate(60_000));
    assert!(fast >= slow * 500, "1 ms polls: {fast}, 1 s polls: {slow}");
}

#[test]
fn work_estimate_counts_a_producers_remaining_sends() {
    let mut sim = Simulation::new(
        scenario(json!({
            "title": "rate", "durationMs": 100_000, "queues": [{ "name": "q" }],
            "producers": [{ "name": "p", "queue": "q",
                            "rate": { "everyMs": 10, "count": 5_000, "body": "m{n}" } }],
        })),
        Config::default(),
    )
    .unwrap();
    let whole = sim.work_estimate(100_000);
    // 5,000 sends fall by 50,000 ms; nothing is sent after.
    assert_eq!(whole, sim.work_estimate(50_000));
    assert!(whole >= 5_000, "{whole}");
    sim.advance(25_000);
    let rest = sim.work_estimate(100_000);
    assert!(rest < whole && rest >= 2_500, "{rest} of {whole}");
}

/// The estimate is meant to be asked before a replay: it must not promise
/// a cheap run that then takes far more steps (each step logs an event).
#[test]
fn work_estimate_is_not_below_the_events_a_run_logs() {
    let mut runs = shipped();
    runs.push(("idle poller".into(), idle_poller(1, 20_000)));
    for (name, scenario) in runs {
        let duration = scenario.duration_ms;
        let mut sim = Simulation::new(scenario, Config::default()).unwrap();
        let estimate = sim.work_estimate(duration);
        let before = sim.next_event_seq();
        sim.advance(duration);
        let logged = sim.next_event_seq() - before;
        assert!(
            estimate >= logged,
            "{name}: estimated {estimate}, logged {logged}"
        );
    }
}

#[test]
fn every_shipped_scenario_runs_to_its_end_without_asking() {
    for (name, scenario) in shipped() {
        let duration = scenario.duration_ms;
        let sim = Simulation::new(scenario, Config::default()).unwrap();
        let estimate = sim.work_estimate(duration);
        assert!(estimate <= MAX_WORK_WITHOUT_ASKING, "{name}: {estimate}");
    }
}

/// The 146-byte scenario: one consumer polling an empty queue
/// every millisecond for 35 days.
#[test]
fn a_scenario_estimated_past_the_work_limit_is_refused() {
    let days_35 = 35 * 24 * 3_600_000;
    let error = match Simulation::new(idle_poller(1, days_35), Config::default()) {
        Ok(_) => panic!("a 35-day run of 1 ms polls loaded"),
        Err(error) => error.message,
    };
    assert!(error.contains("pollIntervalMs"), "{error}");
    assert!(error.contains("durationMs"), "{error}");
    assert!(error.contains(&MAX_SCENARIO_WORK.to_string()), "{error}");
    // The same consumer polling every second is fine.
    Simulation::new(idle_poller(1_000, days_35), Config::default()).expect("loads");
}
