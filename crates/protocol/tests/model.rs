//! Model-based test of the whole engine through the JSON protocol.
//!
//! A reference model of SQS (`model/reference.rs`: plain vectors, scanned
//! naively, written from sqs-facts.md) runs beside the engine. Random
//! operation sequences (`model/ops.rs`) go to both, and after every call
//! `model/harness.rs` compares the answer (status, error code, ids, bodies,
//! attributes, batch entries) and the whole state: every message's place,
//! receive count and deadline, the counts, the FIFO group locks, the queue
//! settings and the move tasks. Queue policies take part: the model's
//! own small evaluation (a Deny wins, the owner needs nothing more, anyone
//! else an Allow) decides the sends made as other principals. Most clock steps land on, just before or
//! just after the model's next deadline, where off-by-one errors live.
//!
//! On a failure proptest shrinks the sequence and prints the smallest one
//! it found (`ops = [...]`) with what differed. `PROPTEST_CASES=2000`
//! raises the number of cases for a soak run.

mod common;
#[path = "model/harness.rs"]
mod harness;
#[path = "model/ops.rs"]
mod ops;
#[path = "model/reference.rs"]
mod reference;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use harness::World;
use ops::{op, AttributeNames, MessageSpec, Op, ReceiveOp, Step, SystemNames};
use reference::{DLQ, WORK, WORK_FIFO};

/// Runs `ops` on a fresh engine and model, stopping at the first difference.
fn run(ops: &[Op]) -> Result<(), String> {
    let mut world = World::new();
    for (n, op) in ops.iter().enumerate() {
        world
            .step(op)
            .map_err(|e| format!("after op {n} ({op:?}): {e}"))?;
    }
    Ok(())
}

/// Cases per run: the default keeps a debug run well under a minute;
/// `PROPTEST_CASES` overrides it.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        max_shrink_iters: 20_000,
        ..ProptestConfig::default()
    })]

    #[test]
    fn engine_matches_the_reference_model_after_every_call(
        ops in prop::collection::vec(op(), 1..80),
    ) {
        run(&ops).map_err(TestCaseError::fail)?;
    }
}

// ---------------------------------------------------------------------------
// Fixed sequences: the recorded AWS examples of sqs-facts, which check the
// model itself against AWS as well as the engine against the model.
// ---------------------------------------------------------------------------

fn send_to(queue: usize, group: u8, dedup: u8, with_attributes: bool) -> Op {
    Op::Send {
        queue,
        message: MessageSpec {
            group,
            dedup,
            delay: None,
            with_attributes,
            standard_group: false,
        },
    }
}

fn fifo_send(group: u8, dedup: u8) -> Op {
    send_to(WORK_FIFO, group, dedup, false)
}

fn receive(queue: usize, max: i64, visibility: Option<i64>) -> Op {
    long_poll(queue, max, visibility, 0)
}

fn long_poll(queue: usize, max: i64, visibility: Option<i64>, wait: i64) -> Op {
    Op::Receive(ReceiveOp {
        queue,
        max: Some(max),
        visibility,
        wait: Some(wait),
        system: SystemNames::All,
        attributes: AttributeNames::All,
        attempt: None,
    })
}

/// Runs `ops` (all must agree) and answers the world and the bodies each
/// receive returned, in order.
fn run_fixed(ops: &[Op]) -> (World, Vec<Vec<String>>) {
    let mut world = World::new();
    let mut answers = Vec::new();
    for op in ops {
        let before = world.model.handles.len();
        world.step(op).unwrap_or_else(|e| panic!("{op:?}: {e}"));
        if matches!(op, Op::Receive(_)) {
            let handles = &world.model.handles[before..];
            let bodies = handles
                .iter()
                .map(|h| {
                    let (slot, i) = world.model.find(h.key).expect("still stored");
                    world.model.queues[slot].messages[i].body.clone()
                })
                .collect();
            answers.push(bodies);
        }
    }
    (world, answers)
}

#[test]
fn recorded_fifo_group_order_after_receives_with_visibility_zero() {
    // sqs-facts: sends g1-m1, g2-m1, g2-m2, g3-m1, g1-m2; receive Max 3
    // with VisibilityTimeout 0 -> g1-m1, g1-m2, g2-m1; the next receive Max
    // 10 -> g3-m1, g1-m1, g1-m2, g2-m1, g2-m2. (Bodies m1..m5 in send order.)
    let ops = [
        fifo_send(1, 0),
        fifo_send(2, 1),
        fifo_send(2, 2),
        fifo_send(3, 3),
        fifo_send(1, 4),
        receive(WORK_FIFO, 3, Some(0)),
        receive(WORK_FIFO, 10, Some(5)),
    ];
    assert_eq!(
        run_fixed(&ops).1,
        [vec!["m1", "m5", "m2"], vec!["m4", "m1", "m5", "m2", "m3"]]
    );
}

#[test]
fn recorded_fifo_group_order_after_a_visibility_change_to_zero() {
    // sqs-facts: sends g1-m1, g1-m2, g2-m1; receive 2 (g1-m1, g1-m2);
    // ChangeMessageVisibility(g1-m1, 0); receive Max 3 -> g2-m1, g1-m1.
    let ops = [
        fifo_send(1, 0),
        fifo_send(1, 1),
        fifo_send(2, 2),
        receive(WORK_FIFO, 2, None),
        Op::ChangeVisibility {
            pick: ops::Pick::Issued(0),
            seconds: 0,
        },
        receive(WORK_FIFO, 3, None),
    ];
    assert_eq!(run_fixed(&ops).1, [vec!["m1", "m2"], vec!["m3", "m1"]]);
}

#[test]
fn recorded_lazy_dead_letter_move_after_max_receive_count() {
    // sqs-facts: maxReceiveCount 3, short receives every 1.3 s on a 1 s
    // timeout return 1, 1, 1, 0, 0, 0 and the message is then in the DLQ.
    let mut ops = vec![
        Op::SetAttribute {
            queue: WORK,
            attribute: ops::Attribute::Redrive(3),
        },
        Op::SetAttribute {
            queue: WORK,
            attribute: ops::Attribute::VisibilityTimeout(1),
        },
        Op::Send {
            queue: WORK,
            message: MessageSpec {
                group: 0,
                dedup: 0,
                delay: None,
                with_attributes: false,
                standard_group: false,
            },
        },
    ];
    for _ in 0..6 {
        ops.push(receive(WORK, 1, None));
        ops.push(Op::Advance(Step::Small(1_300)));
    }
    let (world, answers) = run_fixed(&ops);
    let counts: Vec<usize> = answers.iter().map(Vec::len).collect();
    assert_eq!(counts, [1, 1, 1, 0, 0, 0]);
    assert_eq!(world.model.queues[WORK].messages.len(), 0);
    assert_eq!(world.model.queues[DLQ].messages.len(), 1);
}

#[test]
fn recorded_fifo_dead_letter_move_makes_the_message_id_the_deduplication_id() {
    // sqs-facts (Developer Guide, DLQ redrive): moving from a FIFO queue to
    // a FIFO DLQ replaces the MessageDeduplicationId with the MessageId.
    let mut ops = vec![fifo_send(0, 0)];
    for _ in 0..3 {
        ops.push(receive(WORK_FIFO, 1, None));
        ops.push(Op::Advance(Step::Small(2_000)));
    }
    ops.push(receive(reference::DLQ_FIFO, 1, None));
    let (world, answers) = run_fixed(&ops);
    assert_eq!(answers.last().unwrap(), &["m1"]);
    let message = &world.model.queues[reference::DLQ_FIFO].messages[0];
    assert_eq!(message.dedup_id, world.model.ids[message.key]);
}

// ---------------------------------------------------------------------------
// The smallest sequences on which the engine once disagreed with the model
// (each was an engine bug, fixed, unless its comment says the model was
// wrong): kept so each stays fixed by name.
// ---------------------------------------------------------------------------

/// Runs `ops`, failing with the first difference.
fn agrees(ops: &[Op]) {
    if let Err(e) = run(ops) {
        panic!("{e}");
    }
}

fn set(queue: usize, attribute: ops::Attribute) -> Op {
    Op::SetAttribute { queue, attribute }
}

#[test]
fn purge_clears_the_fifo_deduplication_window() {
    agrees(&[
        fifo_send(0, 0),
        Op::Purge { queue: WORK_FIFO },
        fifo_send(0, 0),
    ]);
}

#[test]
fn message_attribute_names_star_means_all() {
    let mut star = long_poll(WORK, 1, None, 0);
    if let Op::Receive(r) = &mut star {
        r.attributes = AttributeNames::Star;
    }
    agrees(&[send_to(WORK, 0, 0, true), star]);
}

#[test]
fn a_long_poll_answered_with_visibility_zero_leaves_the_message_visible() {
    agrees(&[long_poll(WORK, 1, Some(0), 1), send_to(WORK, 0, 0, false)]);
}

#[test]
fn a_redriven_message_received_again_shows_its_receipt_handle() {
    let to_timer = || Op::Advance(Step::ToTimer { nth: 0, offset: 0 });
    agrees(&[
        fifo_send(0, 0),
        receive(WORK_FIFO, 1, None),
        to_timer(),
        receive(WORK_FIFO, 1, None),
        to_timer(),
        // maxReceiveCount 2: this receive moves the message to dlq.fifo.
        receive(WORK_FIFO, 1, None),
        Op::StartMoveTask {
            source: reference::DLQ_FIFO,
            explicit_destination: false,
            rate: None,
        },
        Op::Advance(Step::Small(10)),
        receive(WORK_FIFO, 1, None),
    ]);
}

#[test]
fn a_message_dead_lettered_past_the_dlq_retention_expires_on_arrival() {
    agrees(&[
        set(WORK, ops::Attribute::Redrive(1)),
        long_poll(WORK, 1, None, 1),
        send_to(WORK, 0, 0, false),
        // 1 ms before the message's 90 s retention in work ends.
        Op::Advance(Step::Large(89_999)),
        set(DLQ, ops::Attribute::MessageRetentionPeriod(60)),
        // A standard DLQ keeps the enqueue time: 90 s old, over 60 s.
        long_poll(WORK, 1, None, 1),
    ]);
}

#[test]
fn receive_request_attempt_id_replays_only_within_five_minutes() {
    // The 5-minute window's last millisecond replays (visibility reset
    // again); at exactly 5 minutes the retry is a new receive, which finds
    // the message still in flight.
    let retry = || {
        Op::Receive(ReceiveOp {
            queue: WORK_FIFO,
            max: Some(1),
            visibility: None,
            wait: Some(0),
            system: SystemNames::All,
            attributes: AttributeNames::None,
            // Attempt 1 hides its messages for 400 s.
            attempt: Some(1),
        })
    };
    for (offset, replayed) in [(-1, true), (0, false)] {
        let (world, _) = run_fixed(&[
            set(WORK_FIFO, ops::Attribute::MessageRetentionPeriod(345_600)),
            fifo_send(0, 0),
            retry(),
            // The attempt's window (and the dedup id's) ends at 300,000 ms.
            Op::Advance(Step::ToWindow { nth: 0, offset }),
            retry(),
        ]);
        let now = world.model.now;
        let expected = if replayed { now + 400_000 } else { 400_000 };
        assert_eq!(
            world.model.queues[WORK_FIFO].messages[0].state,
            reference::State::InFlight { until: expected },
            "retry at {now} ms"
        );
    }
}

#[test]
fn a_visibility_change_to_zero_answers_a_waiting_long_poll_at_once() {
    agrees(&[
        send_to(WORK, 0, 0, false),
        receive(WORK, 1, Some(3)),
        // Nothing visible: this one waits.
        long_poll(WORK, 1, None, 3),
        Op::ChangeVisibility {
            pick: ops::Pick::Recent(0),
            seconds: 0,
        },
    ]);
}

#[test]
fn a_message_received_with_visibility_zero_is_dead_lettered_by_the_next_waiting_poll() {
    // Two long polls wait on work (maxReceiveCount 2) while its message is in
    // flight after one receive. When it comes back (with a delayed send
    // arriving at the same moment), the first poll receives it with
    // VisibilityTimeout 0 (count 2), so it is visible again at once, and the
    // second poll finds it at maxReceiveCount: it moves to dlq (sqs-facts,
    // Dead-letter queues: moved "at the next receive attempt" once visible
    // again). The model was wrong here: it served the second poll before
    // the first poll's zero-timeout message came back.
    let wait_for = |visibility: Option<i64>, wait: i64| {
        Op::Receive(ReceiveOp {
            queue: WORK,
            max: None,
            visibility,
            wait: Some(wait),
            system: SystemNames::None,
            attributes: AttributeNames::None,
            attempt: None,
        })
    };
    let to_deadline = || Op::Advance(Step::ToDeadline { nth: 0, offset: 0 });
    agrees(&[
        send_to(WORK, 0, 0, false),
        receive(WORK, 1, Some(3)),
        // Waits 2 s for nothing.
        wait_for(None, 2),
        to_deadline(),
        Op::Send {
            queue: WORK,
            message: MessageSpec {
                group: 0,
                dedup: 0,
                delay: Some(1),
                with_attributes: false,
                standard_group: false,
            },
        },
        wait_for(Some(0), 1),
        wait_for(None, 1),
        // 3 s: the first message's timeout and the second's delay end.
        to_deadline(),
    ]);
}
