//! The benchmark's reference workloads (workload.rs) check every result:
//! a benchmark must not time calls that failed.

use queuelab_engine::{workload, Config, Engine, EventKind, Realism};

#[test]
fn cycles_delete_every_message_they_send() {
    let mut engine = Engine::new(Config::default());
    let url = workload::queue(&mut engine, "bench", false);
    workload::cycles(&mut engine, &url, 5);
    let deleted = engine
        .events(0)
        .filter(|e| matches!(e.kind, EventKind::Deleted { .. }))
        .count();
    assert_eq!(deleted, 5);
    assert!(engine.snapshot().queues[0].messages.is_empty());
}

#[test]
#[should_panic(expected = "workload receive failed")]
fn a_failed_receive_stops_the_workload() {
    let mut engine = Engine::new(Config::default());
    let url = workload::queue(&mut engine, "bench", false);
    engine.delete_queue(&url).expect("deleted");
    workload::receive(&mut engine, &url, 10);
}

#[test]
#[should_panic(expected = "a cycle receives the message it sent")]
fn a_cycle_whose_receive_finds_nothing_stops_the_workload() {
    // Short polls that sample almost no server return nothing.
    let mut engine = Engine::new(Config {
        realism: Realism {
            short_poll_sample_rate: 1e-9,
            ..Realism::default()
        },
        ..Config::default()
    });
    let url = workload::queue(&mut engine, "bench", false);
    workload::cycles(&mut engine, &url, 1);
}
