//! Reference workloads for the benchmark. The native benchmark and the
//! wasm build's `bench` feature run this same code, so their figures
//! compare like with like. Every call's result is checked, and a failure
//! panics: a benchmark must never time calls that silently failed.

use crate::{
    Engine, NewMessage, QueueAttribute, ReceiveMessage, ReceiveOutcome, SendMessage, Tags,
};

/// Creates a queue for a workload: standard, or FIFO with content-based dedup.
pub fn queue(engine: &mut Engine, name: &str, fifo: bool) -> String {
    let attributes = if fifo {
        vec![
            QueueAttribute::FifoQueue(true),
            QueueAttribute::ContentBasedDeduplication(false),
        ]
    } else {
        Vec::new()
    };
    let name = if fifo {
        format!("{name}.fifo")
    } else {
        name.to_string()
    };
    engine
        .create_queue(&name, &attributes, &Tags::new())
        .expect("workload queue")
}

/// Sends one message; FIFO messages go round-robin over `groups` groups.
pub fn send(engine: &mut Engine, url: &str, body: &str, fifo: bool, groups: u64, n: u64) {
    let message = NewMessage {
        body: body.to_string(),
        group_id: fifo.then(|| format!("g{}", n % groups.max(1))),
        dedup_id: fifo.then(|| format!("d{n}")),
        ..NewMessage::default()
    };
    let request = SendMessage {
        queue_url: url.to_string(),
        message,
    };
    engine.send_message(&request, None).expect("workload send");
}

/// Receives up to `max` messages (a short poll) and returns their receipt
/// handles; panics if the receive fails.
pub fn receive(engine: &mut Engine, url: &str, max: i64) -> Vec<String> {
    let request = ReceiveMessage {
        queue_url: url.to_string(),
        max_number_of_messages: Some(max),
        wait_time_seconds: Some(0),
        ..ReceiveMessage::default()
    };
    match engine.receive_message(&request, None) {
        Ok(ReceiveOutcome::Done(messages)) => {
            messages.into_iter().map(|m| m.receipt_handle).collect()
        }
        Ok(ReceiveOutcome::Waiting(_)) => unreachable!("a short poll answers at once"),
        Err(error) => panic!("workload receive failed: {error:?}"),
    }
}

/// `n` send -> receive -> delete cycles on a standard queue, through the typed API.
pub fn cycles(engine: &mut Engine, url: &str, n: u64) {
    for i in 0..n {
        send(engine, url, "order A-1001: 2 x coffee beans", false, 1, i);
        let handles = receive(engine, url, 1);
        assert_eq!(handles.len(), 1, "a cycle receives the message it sent");
        engine
            .delete_message(url, &handles[0], None)
            .expect("workload delete");
    }
}
