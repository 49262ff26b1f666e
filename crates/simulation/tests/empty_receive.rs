//! Why a receive came back empty (`Simulation::why_empty`), from the run:
//! who took the message first and whether it long-polls, what is in
//! flight and until when, what is delayed, a locked FIFO group, an empty
//! queue.

use queuelab_engine::{Config, NewMessage, ReceiveMessage, ReceiveOutcome, SendMessage};
use queuelab_simulation::{Scenario, Simulation};
use serde_json::json;

fn simulation(scenario: serde_json::Value) -> Simulation {
    let s: Scenario = serde_json::from_value(scenario).unwrap();
    Simulation::new(s, Config::default()).unwrap()
}

fn url(sim: &Simulation, name: &str) -> String {
    sim.engine()
        .snapshot()
        .queues
        .iter()
        .find(|q| q.name == name)
        .unwrap()
        .url
        .clone()
}

#[test]
fn an_empty_receive_names_the_long_poll_that_took_the_message_and_when_it_comes_back() {
    let mut sim = simulation(json!({
        "title": "one worker", "durationMs": 60000,
        "queues": [{ "name": "orders", "visibilityTimeoutSeconds": 30 }],
        "consumers": [{ "name": "worker-1", "queue": "orders", "waitTimeSeconds": 20, "processing": { "fixedMs": 5000 } }]
    }));
    let url = url(&sim, "orders");
    sim.advance(0);
    // Your order goes to worker-1's waiting long poll.
    let message = NewMessage {
        body: "order Z-9001: by hand".into(),
        ..Default::default()
    };
    let send = SendMessage {
        queue_url: url.clone(),
        message,
    };
    sim.engine_mut().send_message(&send, Some("you")).unwrap();
    sim.advance(0);
    assert_eq!(
        sim.why_empty(&url, "you"),
        "Nothing received. worker-1's long poll took order Z-9001 first, at t = 0 s. 1 message is in flight \
         (invisible to every receive); the first comes back at t = 30 s unless worker-1 deletes it."
    );
}

#[test]
fn an_empty_receive_says_what_is_delayed_and_until_when() {
    let sim = simulation(json!({
        "title": "delayed", "durationMs": 60000,
        "queues": [{ "name": "later", "delaySeconds": 12 }],
        "producers": [{ "name": "shop", "queue": "later", "sends": [{ "atMs": 0, "body": "order A-1: later" }] }]
    }));
    let mut sim = sim;
    sim.advance(1000);
    let url = url(&sim, "later");
    assert_eq!(
        sim.why_empty(&url, "you"),
        "Nothing received. 1 message is delayed until t = 12 s."
    );
}

#[test]
fn an_empty_receive_from_a_fifo_queue_names_the_locked_group() {
    let mut sim = simulation(json!({
        "title": "fifo", "durationMs": 60000,
        "queues": [{ "name": "orders.fifo", "contentBasedDeduplication": true }],
        "producers": [{ "name": "shop", "queue": "orders.fifo", "sends": [
            { "atMs": 0, "body": "order A-1: first", "groupId": "C-1" },
            { "atMs": 0, "body": "order A-2: second", "groupId": "C-1" }
        ] }]
    }));
    sim.advance(10);
    let url = url(&sim, "orders.fifo");
    let receive = ReceiveMessage {
        queue_url: url.clone(),
        ..Default::default()
    };
    let got = sim
        .engine_mut()
        .receive_message(&receive, Some("you"))
        .unwrap();
    assert!(
        matches!(got, ReceiveOutcome::Done(m) if m.len() == 1),
        "the group's head"
    );
    sim.advance(0);
    let why = sim.why_empty(&url, "you");
    assert!(why.contains("1 message is in flight"), "{why}");
    assert!(why.ends_with("Its visible messages wait behind a locked group: a FIFO group gives out its next message only after the one in flight is deleted."), "{why}");
}

#[test]
fn an_empty_receive_from_an_empty_queue_says_so_and_from_a_deleted_queue_that_it_is_gone() {
    let sim =
        simulation(json!({ "title": "empty", "durationMs": 1000, "queues": [{ "name": "q" }] }));
    let url = url(&sim, "q");
    assert_eq!(
        sim.why_empty(&url, "you"),
        "Nothing received. The queue holds no messages."
    );
    assert_eq!(
        sim.why_empty("https://nowhere/000000000000/gone", "you"),
        "Nothing received. The queue no longer exists."
    );
}
