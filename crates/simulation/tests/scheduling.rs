//! Scheduling past SQS's 15 minutes, in compressed virtual time: the
//! guide's "delay 900 and filter on receive" (handled when it arrives,
//! early), re-delaying until due (`behaviour.redelayUntil`: ceil(R / 900)
//! sends in all, the last delayed by what remains), and a one-time
//! schedule at a wall-clock time (`at`, read against `startEpochMs`).

use queuelab_engine::{Config, EventKind};
use queuelab_simulation::{Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

/// 2026-12-04T06:00:00Z: virtual time 0 of these runs.
const START: u64 = 1_796_364_000_000;

/// A reminder sent at 0 to "reminders" with DelaySeconds 900 and a
/// `DeliverAt` of `due` (a UTC time), and one worker with `behaviour`
/// taking `processing_ms` per message.
fn reminder(due: &str, behaviour: Value, processing_ms: u64, duration: u64) -> Scenario {
    serde_json::from_value(json!({
        "title": "reminder", "durationMs": duration, "startEpochMs": START,
        "queues": [{ "name": "reminders" }],
        "schedule": [{ "name": "app", "queue": "reminders", "sends": [
            { "atMs": 0, "body": "remind Ada", "delaySeconds": 900,
              "attributes": { "DeliverAt": due } },
        ]}],
        "consumers": [{ "name": "reminder", "queue": "reminders", "waitTimeSeconds": 20,
                        "processing": { "fixedMs": processing_ms },
                        "sideEffect": "reminded", "behaviour": behaviour }],
    }))
    .expect("a well-formed scenario")
}

fn run(s: Scenario) -> Simulation {
    let duration = s.duration_ms;
    let mut sim = Simulation::new(s, Config::default()).expect("loads");
    sim.advance(duration);
    sim
}

/// Every send of the run: (moment, sender, delayed until).
fn sends(sim: &Simulation) -> Vec<(u64, String, Option<u64>)> {
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Sqs(EventKind::Sent {
                by, delayed_until, ..
            }) => Some((e.time_ms, by?.to_string(), delayed_until)),
            _ => None,
        })
        .collect()
}

/// The moments the reminder was handled (its side effect).
fn handled(sim: &Simulation) -> Vec<u64> {
    sim.events(0)
        .filter(|e| {
            matches!(
                e.kind,
                Kind::Simulation(SimEvent::SideEffectPerformed { .. })
            )
        })
        .map(|e| e.time_ms)
        .collect()
}

const HOUR: u64 = 3_600_000;

#[test]
fn a_message_delayed_900_seconds_and_due_later_is_handled_when_it_arrives_early() {
    // Due at 09:00, three hours after the start; SQS delays it 15 minutes.
    let sim = run(reminder("2026-12-04T09:00:00Z", json!({}), 100, 4 * HOUR));
    assert_eq!(sends(&sim).len(), 1);
    // Handled at 15 minutes (and its 100 ms): 2 h 45 min early.
    assert_eq!(handled(&sim), [900_100]);
    assert_eq!(3 * HOUR - handled(&sim)[0], 9_899_900);
}

#[test]
fn re_delaying_sends_a_message_due_in_r_seconds_ceil_r_over_900_times_the_last_delay_the_remainder()
{
    // Due 10,000 s after the start: ceil(10000 / 900) = 12 sends, the
    // first the app's (900 s), then 10 re-sends of 900 s, then the last
    // of 10000 − 11 × 900 = 100 s.
    let due = "2026-12-04T08:46:40Z";
    let sim = run(reminder(
        due,
        json!({ "redelayUntil": "DeliverAt" }),
        0,
        4 * HOUR,
    ));
    let sends = sends(&sim);
    assert_eq!(sends.len(), 12, "{sends:?}");
    assert_eq!(sends.iter().filter(|s| s.1 == "reminder").count(), 11);
    let delays: Vec<u64> = sends
        .iter()
        .map(|(t, _, until)| until.expect("every send is delayed") - t)
        .collect();
    assert_eq!(&delays[..11], &[900_000; 11]);
    assert_eq!(delays[11], 100_000);
    // Handled at its time, not before.
    assert_eq!(handled(&sim), [10_000_000]);
}

#[test]
fn a_re_delayed_message_is_never_handled_before_its_time_whatever_the_processing_time() {
    // 250 ms of handling before the check: each re-send is delayed by what
    // is left then, rounded up to a whole second.
    let due = "2026-12-04T08:46:40Z";
    let sim = run(reminder(
        due,
        json!({ "redelayUntil": "DeliverAt" }),
        250,
        4 * HOUR,
    ));
    let handled = handled(&sim);
    assert_eq!(handled.len(), 1);
    assert!(handled[0] >= 10_000_000, "{handled:?}");
    assert!(handled[0] < 10_002_000, "{handled:?}");
}

#[test]
fn re_delays_are_billed_as_the_consumer_s_sends_and_deletes() {
    let due = "2026-12-04T08:46:40Z";
    let plain = run(reminder(due, json!({}), 0, 4 * HOUR));
    let redelayed = run(reminder(
        due,
        json!({ "redelayUntil": "DeliverAt" }),
        0,
        4 * HOUR,
    ));
    let requests = |sim: &Simulation| sim.snapshot().outcome.bill.requests;
    // Each re-delay is one SendMessage and one DeleteMessage more (the
    // receives are long polls either way, counted alike).
    assert!(
        requests(&redelayed) >= requests(&plain) + 22,
        "{} vs {}",
        requests(&redelayed),
        requests(&plain)
    );
}

#[test]
fn a_message_without_a_readable_due_time_is_handled_at_once() {
    let sim = run(reminder(
        "next Tuesday",
        json!({ "redelayUntil": "DeliverAt" }),
        0,
        HOUR,
    ));
    assert_eq!(handled(&sim), [900_000]);
    assert_eq!(sends(&sim).len(), 1);
}

#[test]
fn an_epoch_millisecond_due_time_is_read_as_well() {
    let due = (START + 2_000_000).to_string();
    let sim = run(reminder(
        &due,
        json!({ "redelayUntil": "DeliverAt" }),
        0,
        HOUR,
    ));
    assert_eq!(handled(&sim), [2_000_000]);
}

/// A schedule whose one send is at the wall-clock `at`.
fn one_time(start: Option<u64>, send: Value) -> Scenario {
    let mut s = json!({
        "title": "one-time", "durationMs": 4 * HOUR,
        "queues": [{ "name": "reminders" }],
        "schedule": [{ "name": "scheduler", "queue": "reminders", "sends": [send] }],
    });
    if let Some(start) = start {
        s["startEpochMs"] = json!(start);
    }
    serde_json::from_value(s).expect("a well-formed scenario")
}

#[test]
fn a_one_time_schedule_at_a_wall_clock_time_sends_at_that_time_from_the_start() {
    let s = one_time(
        Some(START),
        json!({ "at": "2026-12-04T09:00:00Z", "body": "remind Ada" }),
    );
    let sim = run(s);
    assert_eq!(sends(&sim), [(3 * HOUR, "scheduler".into(), None)]);
    // SQS's timestamps count from the scenario's start, whatever the host's.
    assert_eq!(sim.engine().config().start_epoch_ms, START);
}

#[test]
fn a_wall_clock_time_is_refused_before_the_run_after_it_malformed_or_without_a_start() {
    let refusal = |start, send| {
        one_time(start, send)
            .validate()
            .expect_err("refused")
            .to_string()
    };
    let before = refusal(
        Some(START),
        json!({ "at": "2026-12-04T05:59:59Z", "body": "x" }),
    );
    assert!(before.starts_with("schedule[0].sends[0].at must be a time within the run, from 2026-12-04T06:00:00.000Z (startEpochMs) to 2026-12-04T10:00:00.000Z"), "{before}");
    assert!(before.ends_with("(before the run starts)"), "{before}");
    let after = refusal(
        Some(START),
        json!({ "at": "2026-12-04T10:00:01Z", "body": "x" }),
    );
    assert!(after.ends_with("(after the run ends)"), "{after}");
    let malformed = refusal(Some(START), json!({ "at": "tomorrow 09:00", "body": "x" }));
    assert_eq!(
        malformed,
        "schedule[0].sends[0].at must be a UTC time such as \"2026-12-04T09:00:00Z\", or epoch \
         milliseconds, got \"tomorrow 09:00\""
    );
    let unanchored = refusal(None, json!({ "at": "2026-12-04T09:00:00Z", "body": "x" }));
    assert!(
        unanchored.contains("only in a scenario with startEpochMs"),
        "{unanchored}"
    );
    let both = refusal(
        Some(START),
        json!({ "at": "2026-12-04T09:00:00Z", "atMs": 5, "body": "x" }),
    );
    assert!(both.contains("left out when atMs is given"), "{both}");
}

#[test]
fn a_start_epoch_past_the_last_date_is_refused() {
    let mut s = one_time(None, json!({ "atMs": 0, "body": "x" }));
    s.start_epoch_ms = Some(253_402_300_800_000);
    let error = s.validate().expect_err("refused").to_string();
    assert_eq!(
        error,
        "startEpochMs must be a whole number of milliseconds from 0 to 253402300799999, \
         got 253402300800000"
    );
}

#[test]
fn a_redelay_attribute_name_out_of_bounds_is_refused_naming_the_field() {
    let s = reminder(
        "2026-12-04T09:00:00Z",
        json!({ "redelayUntil": "" }),
        0,
        HOUR,
    );
    let error = Simulation::new(s, Config::default())
        .err()
        .expect("refused")
        .message;
    assert!(
        error.contains(
            "behaviour.redelayUntil must be a message attribute's name of 1 to 256 characters"
        ),
        "{error}"
    );
}

/// A shipped scenario, run to its end.
fn shipped(name: &str) -> Simulation {
    let path = format!("{}/../../web/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("the file");
    run(serde_json::from_str(&text).expect("a scenario"))
}

/// Each side effect of the run: (moment, consumer).
fn handled_by(sim: &Simulation) -> Vec<(u64, String)> {
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::SideEffectPerformed { consumer, .. }) => {
                Some((e.time_ms, consumer.to_string()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_scheduled_delivery_scenario_handles_the_filtered_reminder_early_and_the_others_on_time() {
    let sim = shipped("29-scheduled-delivery.json");
    // Due at 09:00, an hour (3,600 s) after its 08:00 start.
    assert_eq!(
        handled_by(&sim),
        [
            (900_200, "filter-on-receive".to_string()),
            (3_600_200, "notifier".to_string()),
            (3_600_800, "re-delayer".to_string()),
        ]
    );
    // 4 sends in all for the re-delayed reminder: the app's and 3 re-sends.
    let sends = sends(&sim);
    assert_eq!(sends.iter().filter(|s| s.1 == "re-delayer").count(), 3);
    assert_eq!(sends.iter().filter(|s| s.1 == "scheduler").count(), 1);
}

#[test]
fn re_delaying_on_a_fifo_queue_is_refused_naming_the_field() {
    // SQS refuses a message's own DelaySeconds on a FIFO queue.
    let s: Scenario = serde_json::from_value(json!({
        "title": "fifo", "durationMs": 1000,
        "queues": [{ "name": "reminders.fifo", "contentBasedDeduplication": true }],
        "consumers": [{ "name": "reminder", "queue": "reminders.fifo",
                        "processing": { "fixedMs": 0 },
                        "behaviour": { "redelayUntil": "DeliverAt" } }],
    }))
    .expect("well-formed");
    let error = s.validate().expect_err("refused").to_string();
    assert!(
        error.starts_with(
            "consumers[0].behaviour.redelayUntil must be left out on a FIFO queue's consumer"
        ),
        "{error}"
    );
}
