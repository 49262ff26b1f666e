//! `cargo run -p queuelab-bench --profile bench-native` (or scripts/bench.sh).
//!
//! Measures on one core:
//! - send -> receive -> delete cycles per second, through the typed engine
//!   API and through the JSON protocol layer;
//! - the cost of a receive and of a delete with 1,000 vs 1,000,000 messages
//!   queued, standard and FIFO (10,000 groups);
//! - the cost of each call on one queue (send, receive, change visibility,
//!   delete, `advance` firing its own deadlines) alone vs beside 100,000
//!   unrelated queues and 100,000 waiting long polls (`unrelated.rs`;
//!   `--unrelated-only` runs just these rows; `--cycles-only` just the two
//!   cycle rows, for comparing builds quickly);
//! - informational: `advance` firing 100,000 queues' own delays or polls'
//!   own waits, per deadline fired, and a receive among 100,000 queues
//!   (`breadth.rs`);
//! - memory per queued message beyond its body (a counting allocator);
//! - 40,000 FIFO receives, each with a fresh `ReceiveRequestAttemptId`
//!   (`--attempts-only` runs just this row).
//!
//! Figures only: there are no pass/fail thresholds here. Every call's
//! result is checked, though, and a failed call stops the run: a figure
//! must never come from calls that failed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

mod breadth;
mod unrelated;

use queuelab_engine::{workload, Config, Engine};
use queuelab_protocol::{dispatch, Dispatched, Response};
use serde_json::json;

struct Counting;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        ALLOCATED.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATED.fetch_add(new_size, Ordering::Relaxed);
        ALLOCATED.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn engine() -> Engine {
    // A small event log: the benchmark measures the engine, not log growth.
    Engine::new(Config {
        event_capacity: 1_000,
        ..Config::default()
    })
}

fn typed_cycles(n: u64) -> f64 {
    let mut e = engine();
    let url = workload::queue(&mut e, "bench", false);
    workload::cycles(&mut e, &url, n / 10); // warm-up
    let start = Instant::now();
    workload::cycles(&mut e, &url, n);
    n as f64 / start.elapsed().as_secs_f64()
}

/// One call through the JSON layer, which must answer 200 at once.
fn call_ok(e: &mut Engine, target: &str, body: &str) -> Response {
    match dispatch(e, target, body, None) {
        Dispatched::Done(response) if response.status == 200 => response,
        Dispatched::Done(response) => {
            panic!("{target} answered {}: {}", response.status, response.body)
        }
        Dispatched::Waiting(_) => unreachable!("short polls answer at once"),
    }
}

fn protocol_cycles(n: u64) -> f64 {
    let mut e = engine();
    let url = workload::queue(&mut e, "bench", false);
    let send =
        json!({ "QueueUrl": url, "MessageBody": "order A-1001: 2 x coffee beans" }).to_string();
    let receive = json!({ "QueueUrl": url }).to_string();
    let start = Instant::now();
    for _ in 0..n {
        call_ok(&mut e, "AmazonSQS.SendMessage", &send);
        let got = call_ok(&mut e, "AmazonSQS.ReceiveMessage", &receive);
        let body: serde_json::Value = serde_json::from_str(&got.body).unwrap();
        let handle = &body["Messages"][0]["ReceiptHandle"];
        assert!(handle.is_string(), "the receive got no message: {body}");
        let delete = json!({ "QueueUrl": url, "ReceiptHandle": handle }).to_string();
        call_ok(&mut e, "AmazonSQS.DeleteMessage", &delete);
    }
    n as f64 / start.elapsed().as_secs_f64()
}

/// Mean nanoseconds of one receive (of 10) and one delete with `queued`
/// messages waiting, over `rounds` receives.
fn receive_cost(queued: u64, fifo: bool, rounds: u64) -> (f64, f64) {
    receive_cost_in(&mut engine(), queued, fifo, rounds)
}

/// [`receive_cost`] in a given engine (which may hold other queues).
fn receive_cost_in(e: &mut Engine, queued: u64, fifo: bool, rounds: u64) -> (f64, f64) {
    let url = workload::queue(e, "scale", fifo);
    let groups = 10_000;
    for i in 0..queued {
        workload::send(e, &url, "payload", fifo, groups, i);
    }
    let (mut receiving, mut deleting) = (0u128, 0u128);
    let mut deleted = 0u64;
    for round in 0..rounds {
        let start = Instant::now();
        let handles = workload::receive(e, &url, 10);
        receiving += start.elapsed().as_nanos();
        assert_eq!(handles.len(), 10, "a receive of 10 from a full queue");
        let start = Instant::now();
        for handle in &handles {
            e.delete_message(&url, handle, None).unwrap();
        }
        deleting += start.elapsed().as_nanos();
        deleted += handles.len() as u64;
        // Refill so the queue stays at the same depth.
        for i in 0..handles.len() as u64 {
            workload::send(e, &url, "payload", fifo, groups, queued + round * 10 + i);
        }
    }
    (
        receiving as f64 / rounds as f64,
        deleting as f64 / deleted.max(1) as f64,
    )
}

/// Bytes per queued message beyond its body.
fn memory_per_message(n: u64, body_len: usize) -> f64 {
    let mut e = engine();
    let url = workload::queue(&mut e, "memory", false);
    let body = "x".repeat(body_len);
    let before = ALLOCATED.load(Ordering::Relaxed);
    for i in 0..n {
        workload::send(&mut e, &url, &body, false, 1, i);
    }
    let after = ALLOCATED.load(Ordering::Relaxed);
    (after - before) as f64 / n as f64 - body_len as f64
}

const RECEIVE_ROUNDS: u64 = 20_000;

/// Seconds of `n` FIFO receives, each under a fresh attempt id, of one
/// message a visibility timeout of 0 makes visible again each time: every
/// attempt stays remembered for five minutes (issue 25: 18.8 s for 40,000
/// when each lookup walked them all).
fn fresh_attempt_receives(n: u64) -> f64 {
    let mut e = engine();
    let url = workload::queue(&mut e, "attempts", true);
    workload::send(&mut e, &url, "payload", true, 1, 0);
    let start = Instant::now();
    for i in 0..n {
        let request = queuelab_engine::ReceiveMessage {
            queue_url: url.clone(),
            visibility_timeout: Some(0),
            receive_request_attempt_id: Some(format!("attempt-{i}")),
            ..Default::default()
        };
        match e.receive_message(&request, None) {
            Ok(queuelab_engine::ReceiveOutcome::Done(got)) => assert_eq!(got.len(), 1),
            other => panic!("a receive with a fresh attempt id: {other:?}"),
        }
    }
    start.elapsed().as_secs_f64()
}

const ATTEMPT_RECEIVES: u64 = 40_000;

fn attempt_figures() {
    println!(
        "{ATTEMPT_RECEIVES} FIFO receives, each with a fresh ReceiveRequestAttemptId: {:.3} s",
        fresh_attempt_receives(ATTEMPT_RECEIVES)
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let big: u64 = if quick { 100_000 } else { 1_000_000 };
    if std::env::args().any(|a| a == "--attempts-only") {
        attempt_figures();
        return;
    }
    if std::env::args().any(|a| a == "--unrelated-only") {
        // The unrelated-queue rows alone, for profiling them.
        unrelated_figures(quick, 100_000);
        return;
    }
    println!(
        "queuelab benchmark (native, one core){}",
        if quick { ", quick" } else { "" }
    );
    println!(
        "send->receive->delete, typed API : {:>12.0} cycles/s",
        typed_cycles(big)
    );
    println!(
        "send->receive->delete, JSON layer: {:>12.0} cycles/s",
        protocol_cycles(big / 10)
    );
    if std::env::args().any(|a| a == "--cycles-only") {
        return;
    }
    for fifo in [false, true] {
        let kind = if fifo {
            "FIFO, 10,000 groups"
        } else {
            "standard"
        };
        let (r_small, d_small) = receive_cost(1_000, fifo, RECEIVE_ROUNDS);
        let (r_big, d_big) = receive_cost(big, fifo, RECEIVE_ROUNDS);
        println!("{kind}:");
        println!(
            "  receive(10) at {:>9} queued: {r_small:>8.0} ns   delete: {d_small:>6.0} ns",
            1_000
        );
        println!("  receive(10) at {big:>9} queued: {r_big:>8.0} ns   delete: {d_big:>6.0} ns");
        println!("  receive cost ratio (big/small): {:.2}", r_big / r_small);
    }
    breadth_figures(quick);
    println!(
        "memory per queued message beyond its body: {:.0} bytes (100-byte bodies, {big} messages)",
        memory_per_message(big, 100)
    );
    attempt_figures();
}

/// The breadth rows: each cost with one queue (or poll) and with 100,000.
fn breadth_figures(quick: bool) {
    let wide: u64 = 100_000;
    let (rounds, ends) = if quick { (500, 1_000) } else { (2_000, 10_000) };
    let ratio = |one: f64, many: f64| many / one;
    let (r_one, d_one) = breadth::receive_among(engine, 0, rounds);
    let (r_many, d_many) = breadth::receive_among(engine, wide, rounds);
    println!("breadth (a queue of 1,000 messages; other queues each hold a delayed message):");
    println!("  receive(10) alone: {r_one:>8.0} ns   delete: {d_one:>6.0} ns");
    println!("  receive(10) among {wide} queues: {r_many:>8.0} ns   delete: {d_many:>6.0} ns");
    println!(
        "  receive cost ratio (many/one): {:.2}",
        ratio(r_one, r_many)
    );
    unrelated_figures(quick, wide);
    println!("firing {wide} queues' own deadlines (informational: a working set {wide}x larger):");
    let e_one = breadth::delay_end_cost(engine, 0, ends);
    let e_many = breadth::delay_end_cost(engine, wide, ends);
    println!(
        "  advance, per delay fired: one queue's {e_one:>8.0} ns   {wide} queues' own {e_many:>8.0} ns",
    );
    let p_one = breadth::poll_end_cost(engine, 1, ends);
    let p_many = breadth::poll_end_cost(engine, wide, ends);
    println!(
        "  advance, per long poll ended: one poll's {p_one:>8.0} ns   {wide} polls' own {p_many:>8.0} ns",
    );
}

/// What 100,000 unrelated queues and polls add to each call (`unrelated.rs`).
fn unrelated_figures(quick: bool, wide: u64) {
    let (stretches, calls) = if quick { (15, 200) } else { (41, 500) };
    let (alone, among) = unrelated::alone_and_among(engine, wide, stretches, calls);
    println!(
        "unrelated queues (a subject queue alone, then beside {wide} queues each with a \
         message in flight for 12 h and a long poll waiting; median of {stretches} \
         interleaved stretches, ns per call):"
    );
    for (i, call) in unrelated::CALLS.iter().enumerate() {
        println!(
            "  {call:<36} alone {:>8.0}   among {wide} {:>8.0}   ratio {:.2}",
            alone[i],
            among[i],
            among[i] / alone[i]
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_workload_runs_its_calls_without_a_failure() {
        assert!(typed_cycles(50) > 0.0);
        assert!(protocol_cycles(50) > 0.0);
        assert!(fresh_attempt_receives(50) > 0.0);
        for fifo in [false, true] {
            let (receive, delete) = receive_cost(100, fifo, 20);
            assert!(receive > 0.0 && delete > 0.0);
        }
        let (receive, delete) = breadth::receive_among(engine, 300, 20);
        assert!(receive > 0.0 && delete > 0.0);
        assert!(breadth::delay_end_cost(engine, 0, 5) > 0.0);
        assert!(breadth::delay_end_cost(engine, 300, 5) > 0.0);
        assert!(breadth::poll_end_cost(engine, 1, 5) > 0.0);
        assert!(breadth::poll_end_cost(engine, 300, 5) > 0.0);
        let (alone, among) = unrelated::alone_and_among(engine, 300, 2, 5);
        assert!(alone.iter().chain(&among).all(|ns| *ns > 0.0));
    }

    #[test]
    #[should_panic(expected = "AmazonSQS.DeleteMessage answered 404")]
    fn a_failed_call_stops_the_benchmark() {
        let mut e = engine();
        let url = workload::queue(&mut e, "bench", false);
        let delete = json!({ "QueueUrl": url, "ReceiptHandle": "not a handle" }).to_string();
        call_ok(&mut e, "AmazonSQS.DeleteMessage", &delete);
    }
}
