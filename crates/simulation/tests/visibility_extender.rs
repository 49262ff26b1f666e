//! The guide's visibility extender (ChangeMessageVisibility to 60 s every
//! 30 s while processing) is a consumer's heartbeat (`heartbeatEveryMs`,
//! `heartbeatVisibilitySeconds`): set as the guide's it keeps the message
//! hidden; a period longer than the extension lets it become visible and
//! be delivered again; and SQS's 12-hour ceiling on a message's
//! visibility refuses a beat with its own error, which ends the heartbeat.

use queuelab_engine::{Config, EventKind};
use queuelab_simulation::{Kind, Scenario, SimEvent, Simulation};
use serde_json::json;

const MINUTE: u64 = 60_000;
const HOUR: u64 = 60 * MINUTE;

/// One job at 0 to "jobs" (visibility 60 s, the extension's own), two long-polling workers each
/// taking `processing_ms`; the first (and so the one that gets the job)
/// beats every `every_ms` to `seconds`.
fn job(every_ms: u64, seconds: i64, processing_ms: u64, duration: u64) -> Scenario {
    serde_json::from_value(json!({
        "title": "extender", "durationMs": duration,
        "queues": [{ "name": "jobs", "visibilityTimeoutSeconds": 60 }],
        "producers": [{ "name": "app", "queue": "jobs", "sends": [{ "atMs": 0, "body": "render video" }] }],
        "consumers": [
            { "name": "worker-1", "queue": "jobs", "waitTimeSeconds": 20,
              "processing": { "fixedMs": processing_ms }, "sideEffect": "rendered",
              "behaviour": { "heartbeatEveryMs": every_ms, "heartbeatVisibilitySeconds": seconds } },
            { "name": "worker-2", "queue": "jobs", "waitTimeSeconds": 20, "startMs": 10,
              "processing": { "fixedMs": processing_ms }, "sideEffect": "rendered" },
        ],
    }))
    .expect("a well-formed scenario")
}

fn run(s: Scenario) -> Simulation {
    let duration = s.duration_ms;
    let mut sim = Simulation::new(s, Config::default()).expect("loads");
    sim.advance(duration);
    sim
}

/// (moment, new visible-at) of each visibility change of the job.
fn changes(sim: &Simulation) -> Vec<(u64, u64)> {
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Sqs(EventKind::VisibilityChanged { visible_at, .. }) => {
                Some((e.time_ms, visible_at))
            }
            _ => None,
        })
        .collect()
}

fn duplicates(sim: &Simulation) -> usize {
    sim.events(0)
        .filter(|e| matches!(e.kind, Kind::Simulation(SimEvent::DuplicateDelivery { .. })))
        .count()
}

fn side_effects(sim: &Simulation) -> usize {
    sim.events(0)
        .filter(|e| {
            matches!(
                e.kind,
                Kind::Simulation(SimEvent::SideEffectPerformed { .. })
            )
        })
        .count()
}

/// (moment, action, code, error) of each refused call.
fn refusals(sim: &Simulation) -> Vec<(u64, &'static str, &'static str, String)> {
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::ActionFailed {
                action,
                code,
                error,
                ..
            }) => Some((e.time_ms, action, code, error)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_heartbeat_set_as_the_guide_s_extends_visibility_to_60_seconds_every_30_seconds() {
    // A 5-minute job: beats at 30 s, 1 min, … 4.5 min, each to now + 60 s.
    let sim = run(job(30_000, 60, 5 * MINUTE, 6 * MINUTE));
    let expected: Vec<(u64, u64)> = (1..10).map(|i| (i * 30_000, i * 30_000 + 60_000)).collect();
    assert_eq!(changes(&sim), expected);
    assert_eq!(duplicates(&sim), 0);
    assert_eq!(side_effects(&sim), 1);
}

#[test]
fn a_heartbeat_whose_period_exceeds_its_extension_lets_the_message_be_delivered_again() {
    // Every 90 s to 60 s: the queue's 60 s end before the first beat, so
    // the job is visible again at 60 s and worker-2 takes it while
    // worker-1 still works on it.
    let sim = run(job(90_000, 60, 5 * MINUTE, 6 * MINUTE));
    assert!(duplicates(&sim) >= 1);
    assert!(side_effects(&sim) >= 2, "{}", side_effects(&sim));
    let again = sim.events(0).find_map(|e| match e.kind {
        Kind::Simulation(SimEvent::DuplicateDelivery { consumer, .. }) => {
            Some((e.time_ms, consumer.to_string()))
        }
        _ => None,
    });
    assert_eq!(again, Some((60_000, "worker-2".into())));
}

#[test]
fn the_12_hour_ceiling_refuses_a_heartbeat_with_sqs_s_error_and_ends_the_heartbeat() {
    // A 13-hour job beating every 30 s to 60 s: the beat at 12 h − 30 s
    // (43,170 s) would hide it until 12 h + 30 s, past 43,200 s from its
    // receipt, and SQS refuses it; the heartbeat stops there.
    let sim = run(job(30_000, 60, 13 * HOUR, 13 * HOUR + MINUTE));
    let refused: Vec<_> = refusals(&sim)
        .into_iter()
        .filter(|r| r.1 == "ChangeMessageVisibility")
        .collect();
    assert_eq!(
        refused,
        [(
            43_170_000,
            "ChangeMessageVisibility",
            "InvalidParameterValue",
            "Value 60 for parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout \
             for the message is beyond the limit [43200 seconds]"
                .to_string()
        )]
    );
    // No beat after the refusal, and the last accepted one hid it to 12 h.
    let last = changes(&sim).into_iter().next_back().expect("beats");
    assert_eq!(last, (43_140_000, 12 * HOUR));
    // Visible again at 12 h, the other worker takes it: a duplicate.
    assert_eq!(duplicates(&sim), 1);
}

#[test]
fn the_visibility_extender_scenario_keeps_one_job_duplicates_one_and_meets_the_ceiling_with_one() {
    let path = format!(
        "{}/../../web/scenarios/30-visibility-extender.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("the file");
    let sim = run(serde_json::from_str(&text).expect("a scenario"));
    let duplicates: Vec<(u64, String, String)> = sim
        .events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::DuplicateDelivery {
                consumer, queue, ..
            }) => Some((e.time_ms, queue.to_string(), consumer.to_string())),
            _ => None,
        })
        .collect();
    // 30/60 keeps the thumbnail job; 90/60 lets the report go at 60 s; the
    // archive job is visible again at 12 h.
    assert_eq!(
        duplicates,
        [
            (60_000, "reports".to_string(), "helper-r".to_string()),
            (12 * HOUR, "archive".to_string(), "helper-a".to_string()),
        ]
    );
    let refused: Vec<(u64, &str)> = refusals(&sim).iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(refused, [(43_170_000, "ChangeMessageVisibility")]);
}
