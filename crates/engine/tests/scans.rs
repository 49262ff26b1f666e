//! ARCHITECTURE.md: "No scans of a whole queue on a hot path ... Receive,
//! delete and timers are logarithmic in the queue's size." Checked by
//! counting, not timing: with the `scan-count` feature each queue counts
//! the messages it hands to an operation, and a ReceiveMessage of 10 must
//! look at exactly as many with 100,000 messages queued as with 1,000.
//!
//! Run with `cargo test -p queuelab-engine --features scan-count --test scans`
//! (scripts/test.sh does).

use queuelab_engine::{workload, Config, Engine};

const SMALL: u64 = 1_000;
const LARGE: u64 = 100_000;

/// Messages examined by each of five receives of 10 in a row, on a queue
/// holding `queued` messages. FIFO messages go round-robin over one group
/// per ten messages, so every receive takes one whole group and locks it:
/// the later receives have more and more locked groups ahead of them, as
/// the standard queue has more and more messages in flight ahead of them.
fn examined_per_receive(queued: u64, fifo: bool) -> Vec<u64> {
    let mut engine = Engine::new(Config {
        event_capacity: 0,
        ..Config::default()
    });
    let url = workload::queue(&mut engine, "scanned", fifo);
    for n in 0..queued {
        workload::send(&mut engine, &url, "m", fifo, queued / 10, n);
    }
    (0..5)
        .map(|_| {
            let before = engine.messages_examined();
            assert_eq!(workload::receive(&mut engine, &url, 10).len(), 10);
            engine.messages_examined() - before
        })
        .collect()
}

#[track_caller]
fn assert_receive_cost_does_not_grow(fifo: bool) {
    let small = examined_per_receive(SMALL, fifo);
    let large = examined_per_receive(LARGE, fifo);
    assert!(
        small.iter().all(|n| *n > 0),
        "the counter counts nothing: {small:?}"
    );
    assert_eq!(
        small, large,
        "messages examined per receive at {SMALL} vs {LARGE} queued"
    );
}

#[test]
fn a_standard_receive_examines_as_many_messages_at_100_000_queued_as_at_1_000() {
    assert_receive_cost_does_not_grow(false);
}

#[test]
fn a_fifo_receive_over_many_groups_examines_as_many_messages_at_100_000_queued_as_at_1_000() {
    assert_receive_cost_does_not_grow(true);
}

// ---------------------------------------------------------------------------
// Breadth: issue 10 found "with 10^6 queues a receive costs 0.3 s, and every
// deadline about 1 s. With 100,000 long polls on spread deadlines, one
// advance(25000) takes 27 s": every step visited every queue and every
// poll. The engine now counts the queues and polls `settle` visits.
// ---------------------------------------------------------------------------

use queuelab_engine::{NewMessage, ReceiveMessage, ReceiveOutcome, SendMessage};

const WIDE: u64 = 100_000;

fn quiet_engine() -> Engine {
    Engine::new(Config {
        event_capacity: 0,
        ..Config::default()
    })
}

/// `n` queues, each holding one message delayed by 1 to 900 s.
fn queues_with_delayed_messages(engine: &mut Engine, n: u64) {
    for i in 0..n {
        let url = workload::queue(engine, &format!("other-{i}"), false);
        let request = SendMessage {
            queue_url: url,
            message: NewMessage {
                body: "later".into(),
                delay_seconds: Some(1 + (i % 900) as i64),
                ..NewMessage::default()
            },
        };
        engine.send_message(&request, None).unwrap();
    }
}

/// Queues visited by a receive of 10 on a queue of 20 messages, with
/// `others` other queues holding delayed messages.
fn queues_visited_by_a_receive(others: u64) -> u64 {
    let mut engine = quiet_engine();
    queues_with_delayed_messages(&mut engine, others);
    let url = workload::queue(&mut engine, "mine", false);
    for n in 0..20 {
        workload::send(&mut engine, &url, "m", false, 1, n);
    }
    let before = engine.queues_visited();
    assert_eq!(workload::receive(&mut engine, &url, 10).len(), 10);
    engine.queues_visited() - before
}

#[test]
fn a_receive_does_not_visit_other_queues() {
    let alone = queues_visited_by_a_receive(0);
    let among = queues_visited_by_a_receive(WIDE);
    assert_eq!(
        alone, among,
        "queues visited by a receive, alone vs among {WIDE}"
    );
    assert!(among <= 1, "a receive visited {among} queues");
}

#[test]
fn advance_with_100000_waiting_long_polls_visits_only_due_deadlines() {
    let mut engine = quiet_engine();
    let urls: Vec<String> = (0..WIDE)
        .map(|i| workload::queue(&mut engine, &format!("waiting-{i}"), false))
        .collect();
    // Waits of 1 to 20 s, started over a second: about five polls end at
    // each millisecond from 1 s to 21 s.
    for (i, url) in urls.iter().enumerate() {
        let request = ReceiveMessage {
            queue_url: url.clone(),
            wait_time_seconds: Some(1 + (i % 20) as i64),
            ..ReceiveMessage::default()
        };
        let outcome = engine.receive_message(&request, None).unwrap();
        assert!(matches!(outcome, ReceiveOutcome::Waiting(_)));
        if i % 100 == 99 {
            engine.advance(1);
        }
    }
    engine.take_answered_polls();
    let (queues, polls) = (engine.queues_visited(), engine.polls_visited());
    engine.advance(2_500);
    let ended = engine.take_answered_polls().len() as u64;
    assert!(
        ended > 1_000 && engine.waiting_polls() as u64 > WIDE / 2,
        "the window ends some polls and leaves most waiting: {ended} ended"
    );
    assert_eq!(
        engine.polls_visited() - polls,
        ended,
        "polls visited by advance(2500): exactly the ones that ended"
    );
    assert_eq!(
        engine.queues_visited() - queues,
        0,
        "no queue had anything due"
    );
}

#[test]
fn advance_over_100000_queues_visits_only_the_queues_whose_deadline_came() {
    let mut engine = quiet_engine();
    queues_with_delayed_messages(&mut engine, WIDE);
    let before = engine.queues_visited();
    // Delays of 1 to 10 s end in the first 10 s: one queue in 90 each second.
    engine.advance(10_000);
    // Queue i's delay is 1 + i % 900 seconds, so i % 900 < 10 for those.
    let delayed_ones = (0..WIDE).filter(|i| i % 900 < 10).count() as u64;
    assert_eq!(engine.queues_visited() - before, delayed_ones);
}
