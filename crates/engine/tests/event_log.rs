//! The event log's cap (`Config::event_capacity`): the log keeps the most
//! recent events, sequence numbers never restart, and `events(since)`
//! answers the retained events numbered after `since` (events.rs).

use queuelab_engine::{workload, Config, Engine, EventKind};

/// An engine whose log keeps `capacity` events, after one queue was
/// created (event 1) and `sends` messages "m0", "m1", ... were sent
/// (events 2 to `sends` + 1).
fn engine_after_sends(capacity: usize, sends: u64) -> Engine {
    let mut engine = Engine::new(Config {
        event_capacity: capacity,
        ..Config::default()
    });
    let url = workload::queue(&mut engine, "log", false);
    for n in 0..sends {
        workload::send(&mut engine, &url, &format!("m{n}"), false, 1, n);
    }
    engine
}

/// Sequence numbers of `events(since)`.
fn seqs_since(engine: &Engine, since: u64) -> Vec<u64> {
    engine.events(since).map(|e| e.seq).collect()
}

#[test]
fn events_beyond_the_capacity_drop_the_oldest() {
    let engine = engine_after_sends(5, 9);
    assert_eq!(seqs_since(&engine, 0), [6, 7, 8, 9, 10]);
    let labels: Vec<String> = engine
        .events(0)
        .map(|e| match &e.kind {
            EventKind::Sent { label, .. } => label.clone(),
            other => panic!("expected only sends, got {other:?}"),
        })
        .collect();
    assert_eq!(labels, ["m4", "m5", "m6", "m7", "m8"], "the newest five");
}

#[test]
fn sequence_numbers_keep_counting_past_the_cap() {
    let mut engine = engine_after_sends(5, 9);
    assert_eq!(engine.next_event_seq(), 11);
    let url = workload::queue(&mut engine, "more", false);
    workload::send(&mut engine, &url, "late", false, 1, 0);
    assert_eq!(seqs_since(&engine, 0), [8, 9, 10, 11, 12]);
    assert_eq!(engine.next_event_seq(), 13);
}

#[test]
fn events_since_an_evicted_sequence_number_are_every_retained_event() {
    let engine = engine_after_sends(5, 9);
    // Events 1 to 5 were dropped: asking from any of them gives all that is
    // kept, with nothing repeated and no gap filled in.
    for evicted in 1..=5 {
        assert_eq!(
            seqs_since(&engine, evicted),
            [6, 7, 8, 9, 10],
            "since {evicted}"
        );
    }
    assert_eq!(seqs_since(&engine, 7), [8, 9, 10]);
    assert_eq!(seqs_since(&engine, 10), Vec::<u64>::new());
    assert_eq!(seqs_since(&engine, u64::MAX), Vec::<u64>::new());
}

#[test]
fn a_capacity_of_zero_keeps_no_events_but_still_numbers_them() {
    let engine = engine_after_sends(0, 3);
    assert_eq!(seqs_since(&engine, 0), Vec::<u64>::new());
    assert_eq!(engine.next_event_seq(), 5);
}

#[test]
fn below_the_capacity_every_event_is_kept() {
    let engine = engine_after_sends(100, 3);
    assert_eq!(seqs_since(&engine, 0), [1, 2, 3, 4]);
    assert_eq!(seqs_since(&engine, 2), [3, 4]);
}
