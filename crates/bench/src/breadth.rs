//! The breadth half of the depth benchmark: what one call costs when the
//! engine holds 100,000 other queues or 100,000 waiting long polls, next to
//! what it costs with one. Issue 10 found "with 10^6 queues a receive costs
//! 0.3 s, and every deadline about 1 s. With 100,000 long polls on spread
//! deadlines, one advance(25000) takes 27 s": each step visited every queue
//! and every poll. The target is a cost per call within 2x of the cost with
//! one queue.
//!
//! The two `advance` rows here fire the crowd's *own* deadlines: every
//! deadline touches a different cold queue or poll, a working set 100,000x
//! that of one queue. They are informational (cost per deadline fired), not
//! the target; what unrelated queues add to a call is in
//! `unrelated.rs`.

use std::time::Instant;

use queuelab_engine::{workload, Engine, NewMessage, ReceiveMessage, ReceiveOutcome, SendMessage};

/// Sends one message delayed by `seconds`.
fn send_delayed(e: &mut Engine, url: &str, seconds: i64) {
    let request = SendMessage {
        queue_url: url.to_string(),
        message: NewMessage {
            body: "later".into(),
            delay_seconds: Some(seconds),
            ..NewMessage::default()
        },
    };
    e.send_message(&request, None).expect("a delayed send");
}

/// Starts a long poll of `seconds` on an empty queue; it must wait.
fn long_poll(e: &mut Engine, url: &str, seconds: i64) {
    let request = ReceiveMessage {
        queue_url: url.to_string(),
        wait_time_seconds: Some(seconds),
        ..ReceiveMessage::default()
    };
    match e.receive_message(&request, None) {
        Ok(ReceiveOutcome::Waiting(_)) => {}
        other => panic!("a long poll on an empty queue must wait, got {other:?}"),
    }
}

/// `n` queues, each holding one message whose delay ends at its own
/// moment: delays of 1 to 900 s, sent over a spread of milliseconds, so
/// that the delay ends fall on many different moments.
fn crowd_of_delays(e: &mut Engine, n: u64) {
    for i in 0..n {
        let url = workload::queue(e, &format!("crowd-{i}"), false);
        send_delayed(e, &url, 1 + (i % 900) as i64);
        if i % 100 == 99 {
            e.advance(1);
        }
    }
}

/// `n` long polls over 1,000 queues, with waits of 1 to 20 s started over a
/// spread of milliseconds: about five end at each moment for 20 s.
fn crowd_of_polls(e: &mut Engine, n: u64) {
    let urls: Vec<String> = (0..1_000)
        .map(|i| workload::queue(e, &format!("waiting-{i}"), false))
        .collect();
    for i in 0..n {
        long_poll(e, &urls[(i % 1_000) as usize], 1 + (i % 20) as i64);
        if i % 100 == 99 {
            e.advance(1);
        }
    }
}

/// Mean nanoseconds of one receive (of 10) and one delete on a queue of
/// 1,000 messages, with `others` other queues each holding a delayed message.
pub fn receive_among(engine: fn() -> Engine, others: u64, rounds: u64) -> (f64, f64) {
    let mut e = engine();
    crowd_of_delays(&mut e, others);
    crate::receive_cost_in(&mut e, 1_000, false, rounds)
}

/// Mean nanoseconds per delay end that `advance` fires: one queue's, one
/// message at a time (`others` = 0), or `others` queues' own delays firing.
pub fn delay_end_cost(engine: fn() -> Engine, others: u64, ends: u64) -> f64 {
    let mut e = engine();
    if others == 0 {
        let url = workload::queue(&mut e, "alone", false);
        let mut spent = 0u128;
        for _ in 0..ends {
            send_delayed(&mut e, &url, 1);
            let start = Instant::now();
            e.advance(1_000);
            spent += start.elapsed().as_nanos();
            assert_eq!(workload::receive(&mut e, &url, 1).len(), 1);
            e.advance(30_000); // its visibility ends: one deadline, not timed
        }
        return spent as f64 / ends as f64;
    }
    crowd_of_delays(&mut e, others);
    e.advance(2_000); // past the crowd's set-up
    let (mut spent, mut fired) = (0u128, 0u64);
    while fired < ends {
        let before = e.next_event_seq();
        let start = Instant::now();
        e.advance(1_000);
        spent += start.elapsed().as_nanos();
        // Nothing else happens here: every event is a delay ending.
        fired += e.next_event_seq() - before;
    }
    spent as f64 / fired as f64
}

/// Mean nanoseconds per long poll that `advance` ends empty: one poll at a
/// time (`waiting` = 1), or `waiting` polls' own waits ending.
pub fn poll_end_cost(engine: fn() -> Engine, waiting: u64, ends: u64) -> f64 {
    let mut e = engine();
    if waiting == 1 {
        let url = workload::queue(&mut e, "alone", false);
        let mut spent = 0u128;
        for _ in 0..ends {
            long_poll(&mut e, &url, 1);
            let start = Instant::now();
            e.advance(1_000);
            spent += start.elapsed().as_nanos();
            assert_eq!(e.take_answered_polls().len(), 1);
        }
        return spent as f64 / ends as f64;
    }
    crowd_of_polls(&mut e, waiting);
    e.take_answered_polls();
    let (mut spent, mut ended) = (0u128, 0u64);
    while ended < ends {
        let start = Instant::now();
        e.advance(100);
        spent += start.elapsed().as_nanos();
        ended += e.take_answered_polls().len() as u64;
    }
    spent as f64 / ended as f64
}
