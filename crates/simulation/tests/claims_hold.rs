//! Shipped sentences that must hold for the run they are shown in, also
//! when a learner changes the scenario's settings: each test changes a
//! setting the page offers, plays the shipped file to its end, and checks
//! what a line says against the run's own log.

use std::collections::BTreeMap;

use queuelab_engine::{Config, EventKind, UnlockCause};
use queuelab_simulation::{Kind, LogEvent, Scenario, SimEvent, Simulation};

fn load(name: &str) -> Scenario {
    let path = format!("{}/../../web/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn run(scenario: Scenario) -> Vec<LogEvent> {
    let duration = scenario.duration_ms;
    let mut sim = Simulation::new(scenario, Config::default()).unwrap();
    sim.advance(duration);
    sim.events(0).collect()
}

/// The words the learner reads (narration lines and checkpoint verdicts'
/// reasons), with their place in the log.
fn said(log: &[LogEvent]) -> Vec<(usize, String)> {
    log.iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.kind {
            Kind::Simulation(SimEvent::Narration { text }) => Some((i, text.clone())),
            Kind::Simulation(SimEvent::CheckpointAnswered {
                because: Some(b), ..
            }) => Some((i, b.clone())),
            _ => None,
        })
        .collect()
}

/// Message ids by the name in their body ("A-1002", "B-1").
fn names(log: &[LogEvent]) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for e in log {
        if let Kind::Sqs(EventKind::Sent {
            message_id, label, ..
        }) = &e.kind
        {
            let word = label.split([' ', ':']).find(|w| w.contains('-'));
            let word = word.unwrap_or_default();
            names.insert(message_id.to_string(), word.to_string());
        }
    }
    names
}

/// The receive count of `name`'s latest receive before log place `at`.
fn receive_count_before(log: &[LogEvent], name: &str, at: usize) -> Option<u32> {
    let names = names(log);
    log[..at].iter().rev().find_map(|e| match &e.kind {
        Kind::Sqs(EventKind::Received {
            message_id,
            receive_count,
            ..
        }) if names.get(&message_id.to_string()).map(String::as_str) == Some(name) => {
            Some(*receive_count)
        }
        _ => None,
    })
}

#[test]
fn reached_max_receive_count_is_said_only_when_the_count_has_reached_it() {
    for max in [2, 3, 4, 5] {
        let mut s = load("05-poison-message.json");
        s.queues[1].redrive.as_mut().unwrap().max_receive_count = max;
        let log = run(s);
        let reached: Vec<(usize, String)> = said(&log)
            .into_iter()
            .filter(|(_, t)| t.contains("reached maxReceiveCount"))
            .collect();
        assert_eq!(reached.len(), 1, "maxReceiveCount {max}: {reached:?}");
        let (at, text) = &reached[0];
        assert!(text.contains(&format!("({max})")), "{text}");
        assert_eq!(
            receive_count_before(&log, "A-1002", *at),
            Some(max as u32),
            "maxReceiveCount {max}: \"{text}\" was shown before A-1002's count reached it"
        );
    }
}

/// The FIFO scenario as the file has it, and with worker-1 crashing
/// before its side effect on A-1 (so A-1's visibility timeout ends and
/// A-1, not A-2, is delivered next).
fn fifo_runs() -> Vec<(&'static str, Vec<LogEvent>)> {
    let file = load("06-fifo-message-groups.json");
    let mut crash = file.clone();
    crash.consumers[0].behaviour.crashes_before_side_effect_on = vec!["A-1".into()];
    let crashed = run(crash);
    // The run this is about: A-1's timeout unlocks customer A's group.
    assert!(crashed.iter().any(|e| matches!(&e.kind,
        Kind::Sqs(EventKind::GroupUnlocked { group, cause: UnlockCause::VisibilityTimeout, .. })
            if &**group == "customer-A")));
    vec![
        ("the file's run", run(file)),
        ("worker-1 crashes on A-1", crashed),
    ]
}

#[test]
fn a_group_unlocked_by_a_timeout_is_not_said_to_release_the_next_message() {
    for (what, log) in fifo_runs() {
        let names = names(&log);
        // Both runs say when A-2 can be delivered (the crash run only once
        // A-1 was received again and deleted).
        let promised = said(&log).iter().filter(|(_, t)| t.contains("A-2")).count();
        assert!(promised >= 2, "{what}: the line and the verdict say it");
        let name = |id: &dyn ToString| names.get(&id.to_string()).cloned().unwrap_or_default();
        for (at, text) in said(&log) {
            // Every sentence saying A-1 was deleted comes after its delete.
            if text.contains("A-1 was deleted") || text.contains("A-1 is deleted") {
                let deleted = log[..at].iter().any(|e| {
                    matches!(&e.kind, Kind::Sqs(EventKind::Deleted { message_id, .. })
                        if name(message_id) == "A-1")
                });
                assert!(deleted, "{what}: \"{text}\" before A-1 was deleted");
            }
            // A sentence promising A-2 next: customer A's next receive (from
            // the sentence's moment on) is A-2.
            if text.contains("A-2") && text.contains("deliver") {
                let moment = log.iter().position(|e| e.time_ms == log[at].time_ms);
                let next = log[moment.unwrap_or(at)..]
                    .iter()
                    .find_map(|e| match &e.kind {
                        Kind::Sqs(EventKind::Received { message_id, .. })
                            if name(message_id).starts_with("A-") =>
                        {
                            Some(name(message_id))
                        }
                        _ => None,
                    });
                assert_eq!(
                    next.as_deref(),
                    Some("A-2"),
                    "{what}: \"{text}\", then customer A's next receive"
                );
            }
        }
    }
}

/// The words shown in a run of the shipped file `name` changed by `change`.
fn words(name: &str, change: impl FnOnce(&mut Scenario)) -> Vec<String> {
    let mut s = load(name);
    change(&mut s);
    said(&run(s)).into_iter().map(|(_, t)| t).collect()
}

fn shows(words: &[String], part: &str) -> bool {
    words.iter().any(|w| w.contains(part))
}

#[test]
fn scenario_1_with_a_short_poll_does_not_say_long_poll_or_waiting_receive() {
    let w = words("01-process-then-delete.json", |s| {
        s.consumers[0].wait_time_seconds = 0
    });
    assert!(!shows(&w, "long-polls"), "{w:#?}");
    assert!(
        !shows(&w, "The waiting receive returns it at once"),
        "{w:#?}"
    );
    assert!(shows(&w, "worker-1 short-polls the orders queue"), "{w:#?}");
    assert!(
        shows(
            &w,
            "worker-1 receives the order, and the message goes in flight"
        ),
        "{w:#?}"
    );
}

#[test]
fn scenario_1_deleting_before_processing_is_not_said_to_charge_then_delete() {
    let w = words("01-process-then-delete.json", |s| {
        s.consumers[0].behaviour.deletes_before_processing = true
    });
    assert!(!shows(&w, "charged the order, then deleted"), "{w:#?}");
    assert!(
        shows(&w, "worker-1 deleted the message with its receipt handle"),
        "{w:#?}"
    );
}

#[test]
fn scenario_1_with_a_failure_does_not_say_every_order_was_received_once() {
    let w = words("01-process-then-delete.json", |s| {
        s.consumers[0].behaviour.fails_every_nth = Some(2)
    });
    assert!(!shows(&w, "Every order was received once"), "{w:#?}");
}

#[test]
fn scenario_3_without_idempotent_handlers_says_no_table_of_processed_ids() {
    let w = words("03-idempotent-consumer.json", |s| {
        for c in &mut s.consumers {
            c.behaviour.idempotent = false;
        }
    });
    assert!(!shows(&w, "checks a table"), "{w:#?}");
    assert!(!shows(&w, "records its message id"), "{w:#?}");
    assert!(shows(&w, "Same setup as before"), "{w:#?}");
}

#[test]
fn scenario_4_with_a_retry_instead_of_a_heartbeat_calls_no_change_a_heartbeat() {
    let w = words("04-heartbeat.json", |s| {
        let b = &mut s.consumers[0].behaviour;
        b.heartbeat_every_ms = None;
        b.fails_on = vec!["A-1001".into()];
        b.retry_immediately = true;
    });
    assert!(!shows(&w, "Heartbeat:"), "{w:#?}");
}

#[test]
fn scenario_9_with_a_handler_failure_instead_of_a_crash_says_it_failed() {
    let w = words("09-delete-before-process.json", |s| {
        let b = &mut s.consumers[0].behaviour;
        b.crashes_before_side_effect_on.clear();
        b.fails_on = vec!["A-1002".into()];
    });
    assert!(!shows(&w, "crashes while handling A-1002"), "{w:#?}");
    assert!(shows(&w, "worker-1's handler fails on A-1002"), "{w:#?}");
}

#[test]
fn scenario_7_with_a_slow_payment_worker_does_not_say_the_first_was_deleted() {
    // Processing longer than the retry's 3 s: the first payment is still
    // in flight when the retry is dropped.
    let w = words("07-fifo-deduplication.json", |s| {
        s.consumers[0].processing = queuelab_simulation::Processing::FixedMs(5000)
    });
    assert!(!shows(&w, "already processed and deleted"), "{w:#?}");
    assert!(!shows(&w, "even after that message is deleted"), "{w:#?}");
    assert!(shows(&w, "adds nothing"), "{w:#?}");
}

#[test]
fn scenario_5_with_a_heartbeat_does_not_quote_the_queues_timeout_as_the_messages() {
    // Each heartbeat sets 10 s: A-1002 comes back after 10 s, not 2 s.
    let w = words("05-poison-message.json", |s| {
        let b = &mut s.consumers[0].behaviour;
        b.heartbeat_every_ms = Some(100);
        b.heartbeat_visibility_seconds = Some(10);
        s.duration_ms = 30_000;
    });
    assert!(
        !shows(&w, "when its 2 s visibility timeout ended"),
        "{w:#?}"
    );
    assert!(shows(&w, "A-1002 is back (receive #2)"), "{w:#?}");
}

#[test]
fn scenario_10_without_a_queue_delay_does_not_say_every_message_stays_delayed() {
    let w = words("10-delay-and-retention.json", |s| {
        s.queues[0].delay_seconds = Some(0)
    });
    assert!(!shows(&w, "every new message stays delayed"), "{w:#?}");
    assert!(
        shows(&w, "The reminders queue has no delay (0 s)"),
        "{w:#?}"
    );
}

#[test]
fn scenario_7_says_the_payment_ran_again_only_once_it_has() {
    let w = words("07-fifo-deduplication.json", |s| {
        s.consumers[0].behaviour.fails_on = vec!["pay".into()]
    });
    assert!(!shows(&w, "the payment runs again"), "{w:#?}");
    assert!(shows(
        &words("07-fifo-deduplication.json", |_| {}),
        "the payment runs again"
    ));
}

/// The checkpoint questions asked in a run of the shipped file `name`
/// changed by `change`.
fn asked(name: &str, change: impl FnOnce(&mut Scenario)) -> Vec<String> {
    let mut s = load(name);
    change(&mut s);
    let log = run(s);
    log.into_iter()
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::CheckpointAsked { question, .. }) => Some(question),
            _ => None,
        })
        .collect()
}

#[test]
fn scenario_5_deleting_before_processing_does_not_say_the_poison_message_is_kept() {
    let change = |s: &mut Scenario| s.consumers[0].behaviour.deletes_before_processing = true;
    let w = words("05-poison-message.json", change);
    assert!(!shows(&w, "the message is not deleted"), "{w:#?}");
    assert!(!shows(&w, "every failed receive waits out"), "{w:#?}");
    assert!(
        shows(&w, "worker-1 had already deleted the message"),
        "{w:#?}"
    );
    assert_eq!(
        asked("05-poison-message.json", change),
        Vec::<String>::new()
    );
}

#[test]
fn scenario_6_with_batches_does_not_ask_when_a_2_comes_after_it_came() {
    // worker-1 receives a batch of customer A's messages at once: A-2 is
    // in flight when the question would be asked.
    let batches = |s: &mut Scenario| s.consumers[0].batch_size = 10;
    assert_eq!(
        asked("06-fifo-message-groups.json", batches),
        Vec::<String>::new()
    );
    assert_eq!(asked("06-fifo-message-groups.json", |_| {}).len(), 1);
}

#[test]
fn scenario_7_with_a_slow_payment_worker_does_not_ask_as_if_the_first_was_deleted() {
    let slow = |s: &mut Scenario| {
        s.consumers[0].processing = queuelab_simulation::Processing::FixedMs(5000)
    };
    let questions = asked("07-fifo-deduplication.json", slow);
    assert!(
        !questions
            .iter()
            .any(|q| q.contains("already processed and deleted")),
        "{questions:#?}"
    );
    assert_eq!(questions.len(), 1, "the second question still asked");
}

#[test]
fn scenario_2_with_a_short_polling_worker_2_does_not_ask_about_its_long_poll() {
    let short = |s: &mut Scenario| s.consumers[1].wait_time_seconds = 0;
    let questions = asked("02-slow-consumer-duplicate.json", short);
    assert!(
        !questions.iter().any(|q| q.contains("long poll")),
        "{questions:#?}"
    );
}

#[test]
fn scenario_8_with_a_slow_short_poller_does_not_say_several_times_as_many_requests() {
    let w = words("08-long-vs-short-polling.json", |s| {
        s.consumers[0].poll_interval_ms = 5000
    });
    assert!(!shows(&w, "several times as many requests"), "{w:#?}");
}
