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
