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

// ---------------------------------------------------------------------------
// FIFO receive attempts: issue 25 found "40,000 receives with fresh
// ReceiveRequestAttemptIds take 18.8 s instead of 0.73 s": every lookup
// looked at every attempt of the last five minutes to drop the old ones.
// ---------------------------------------------------------------------------

/// A FIFO queue holding one message, received again and again with a
/// visibility timeout of 0, each receive under a fresh attempt id.
struct Retried {
    engine: Engine,
    url: String,
    receives: u64,
}

impl Retried {
    fn new() -> Self {
        let mut engine = quiet_engine();
        let url = workload::queue(&mut engine, "attempts", true);
        workload::send(&mut engine, &url, "m", true, 1, 0);
        Retried {
            engine,
            url,
            receives: 0,
        }
    }

    /// One receive with a fresh attempt id; the attempt entries it examined.
    fn receive(&mut self) -> u64 {
        self.receives += 1;
        let request = ReceiveMessage {
            queue_url: self.url.clone(),
            visibility_timeout: Some(0),
            receive_request_attempt_id: Some(format!("attempt-{}", self.receives)),
            ..ReceiveMessage::default()
        };
        let before = self.engine.attempts_examined();
        let outcome = self.engine.receive_message(&request, None).unwrap();
        let ReceiveOutcome::Done(messages) = outcome else {
            panic!("a short poll answers at once");
        };
        assert_eq!(messages.len(), 1, "the message is visible again each time");
        self.engine.attempts_examined() - before
    }

    /// `n` receives, each with a fresh attempt id.
    fn receive_times(&mut self, n: u64) {
        for _ in 0..n {
            self.receive();
        }
    }
}

/// Attempt entries examined by a receive with a fresh attempt id after
/// `remembered` others, all within their five minutes.
fn attempts_examined_after(remembered: u64) -> u64 {
    let mut retried = Retried::new();
    retried.receive_times(remembered);
    retried.receive()
}

#[test]
fn a_receive_attempt_lookup_examines_as_many_entries_among_40_000_attempts_as_among_1_000() {
    let small = attempts_examined_after(1_000);
    let large = attempts_examined_after(40_000);
    assert!(small > 0, "the counter counts nothing");
    assert_eq!(small, large, "entries examined among 1,000 vs 40,000");
}

#[test]
fn attempts_past_their_five_minutes_are_dropped_examining_only_them_and_one_more() {
    let mut retried = Retried::new();
    retried.receive_times(3_000);
    retried.engine.advance(60_000);
    retried.receive_times(2_000);
    let baseline = retried.receive();
    // The first 3,000 are now five minutes old; the other 2,001 are not.
    retried.engine.advance(240_000);
    let expiring = retried.receive();
    assert_eq!(
        expiring,
        baseline + 3_000,
        "a lookup drops the 3,000 expired attempts and examines nothing else more"
    );
    assert_eq!(
        retried.receive(),
        baseline,
        "then it is back to the baseline"
    );
}
