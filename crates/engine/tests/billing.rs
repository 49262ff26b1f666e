//! The billing meter: every call is billed as SQS bills it (billing.rs):
//! one request per started 64 KiB of payload, a batch as one call, an
//! empty receive like any other, a CreateQueue and a DeleteQueue too,
//! FIFO queues at their own price. The tests' queues are created unnamed;
//! the calls measured are named (`named`).

use queuelab_engine::billing::{PRICE_NANO_USD_FIFO, PRICE_NANO_USD_STANDARD};
use queuelab_engine::Action;
use queuelab_engine::{
    AttributeName, AttributeSelection, Config, Engine, NewMessage, QueueAttribute, ReceiveMessage,
    ReceiveOutcome, SendMessage, Tags,
};

fn engine_with(name: &str, attributes: &[QueueAttribute]) -> (Engine, String) {
    let mut engine = Engine::new(Config::default());
    let url = engine.create_queue(name, attributes, &Tags::new()).unwrap();
    (engine, url)
}

fn message(body: String) -> NewMessage {
    NewMessage {
        body,
        group_id: None,
        dedup_id: None,
        delay_seconds: None,
        attributes: Vec::new(),
        system_attributes: Vec::new(),
    }
}

fn send(engine: &mut Engine, url: &str, body: String) {
    let request = SendMessage {
        queue_url: url.into(),
        message: message(body),
    };
    engine.send_message(&request, Some("shop")).unwrap();
}

fn receive(url: &str, wait: i64) -> ReceiveMessage {
    ReceiveMessage {
        queue_url: url.into(),
        max_number_of_messages: Some(10),
        visibility_timeout: None,
        wait_time_seconds: Some(wait),
        system_attribute_names: Vec::new(),
        message_attribute_names: Vec::new(),
        receive_request_attempt_id: None,
    }
}

/// The calls made under a name: all but the test's own CreateQueue.
fn all(by: Option<&str>) -> bool {
    by.is_some()
}

#[test]
fn a_send_of_64_kib_is_one_request_and_one_byte_more_is_two() {
    let (mut engine, url) = engine_with("orders", &[]);
    send(&mut engine, &url, "x".repeat(65_536));
    assert_eq!(engine.meter().requests(all), 1);
    send(&mut engine, &url, "x".repeat(65_537));
    assert_eq!(engine.meter().requests(all), 3);
}

#[test]
fn a_batch_of_ten_small_messages_is_one_request() {
    let (mut engine, url) = engine_with("orders", &[]);
    let entries: Vec<_> = (0..10)
        .map(|i| (format!("m{i}"), message(format!("order {i}"))))
        .collect();
    engine
        .send_message_batch(&url, &entries, Some("shop"))
        .unwrap();
    assert_eq!(engine.meter().requests(all), 1);
    let (line, tally) = engine
        .meter()
        .lines()
        .find(|(l, _)| l.caller.is_some())
        .unwrap();
    assert_eq!(line.action, Action::SendMessageBatch);
    assert_eq!((tally.calls, tally.requests), (1, 1));
}

#[test]
fn an_empty_short_poll_is_a_request() {
    let (mut engine, url) = engine_with("orders", &[]);
    engine
        .receive_message(&receive(&url, 0), Some("worker"))
        .unwrap();
    assert_eq!(engine.meter().requests(all), 1);
    assert_eq!(engine.meter().requests(|by| by == Some("worker")), 1);
    assert_eq!(engine.meter().requests(|by| by == Some("shop")), 0);
}

#[test]
fn a_long_poll_is_one_request_whether_it_ends_empty_or_with_messages() {
    let (mut engine, url) = engine_with("orders", &[]);
    let waiting = engine
        .receive_message(&receive(&url, 20), Some("worker"))
        .unwrap();
    assert!(matches!(waiting, ReceiveOutcome::Waiting(_)));
    engine.advance(20_000);
    assert_eq!(engine.take_answered_polls().len(), 1);
    assert_eq!(engine.meter().requests(|by| by == Some("worker")), 1);

    engine
        .receive_message(&receive(&url, 20), Some("worker"))
        .unwrap();
    for i in 0..3 {
        send(&mut engine, &url, format!("order {i}"));
    }
    engine.advance(1);
    assert_eq!(engine.meter().requests(|by| by == Some("worker")), 2);
}

#[test]
fn a_fifo_queues_calls_are_priced_at_the_fifo_rate_and_attribute_reads_are_free() {
    let (mut engine, url) = engine_with(
        "orders.fifo",
        &[
            QueueAttribute::FifoQueue(true),
            QueueAttribute::ContentBasedDeduplication(true),
        ],
    );
    let mut m = message("order 1".into());
    m.group_id = Some("c1".into());
    let request = SendMessage {
        queue_url: url.clone(),
        message: m,
    };
    engine.send_message(&request, Some("shop")).unwrap();
    let selection = AttributeSelection::Names(vec![AttributeName::ApproximateNumberOfMessages]);
    engine.get_queue_attributes(&url, &selection).unwrap();
    assert_eq!(engine.meter().requests(all), 1);
    assert_eq!(engine.meter().cost_nano_usd(all), PRICE_NANO_USD_FIFO);
    assert_eq!(PRICE_NANO_USD_STANDARD, 400);
}

#[test]
fn a_delete_sqs_refuses_is_billed_all_the_same() {
    let (mut engine, url) = engine_with("orders", &[]);
    assert!(engine
        .delete_message(&url, "not-a-handle", Some("worker"))
        .is_err());
    assert_eq!(engine.meter().requests(all), 1);
    // A queue that does not exist is no one's bill.
    let missing = url.replace("orders", "nothing");
    assert!(engine
        .delete_message(&missing, "x", Some("worker"))
        .is_err());
    assert_eq!(engine.meter().requests(all), 1);
}

#[test]
fn visibility_changes_and_deletes_are_one_request_per_call() {
    let (mut engine, url) = engine_with("orders", &[]);
    send(&mut engine, &url, "order 1".into());
    send(&mut engine, &url, "order 2".into());
    let ReceiveOutcome::Done(got) = engine
        .receive_message(&receive(&url, 0), Some("w"))
        .unwrap()
    else {
        panic!("a short poll answers at once");
    };
    let handles: Vec<_> = got
        .iter()
        .enumerate()
        .map(|(i, m)| (format!("e{i}"), (m.receipt_handle.clone(), Some(5))))
        .collect();
    engine
        .change_message_visibility_batch(&url, &handles, Some("w"))
        .unwrap();
    engine
        .change_message_visibility(&url, &got[0].receipt_handle, 10, Some("w"))
        .unwrap();
    let deletes: Vec<_> = handles
        .iter()
        .map(|(id, (h, _))| (id.clone(), h.clone()))
        .collect();
    engine
        .delete_message_batch(&url, &deletes, Some("w"))
        .unwrap();
    let by_action: Vec<_> = engine
        .meter()
        .lines()
        .filter(|(line, _)| line.caller.as_deref() == Some("w"))
        .map(|(line, t)| (line.action.name(), t.requests))
        .collect();
    assert_eq!(
        by_action,
        [
            ("ReceiveMessage", 1),
            ("DeleteMessageBatch", 1),
            ("ChangeMessageVisibility", 1),
            ("ChangeMessageVisibilityBatch", 1)
        ]
    );
}

/// Issue 25: every distinct caller's name was kept by the meter for the
/// whole run, 148 bytes each, so a host naming each call anew grew memory
/// without bound. Past MAX_METERED_CALLERS names, calls are billed together
/// under OTHER_CALLERS; the known names keep their own lines.
#[test]
fn the_meter_names_at_most_max_metered_callers_and_bills_the_rest_together() {
    use queuelab_engine::billing::{MAX_METERED_CALLERS, OTHER_CALLERS};
    let (mut engine, url) = engine_with("orders", &[]);
    let extra = 500;
    for i in 0..MAX_METERED_CALLERS + extra {
        engine
            .receive_message(&receive(&url, 0), Some(&format!("caller-{i}")))
            .unwrap();
    }
    // A caller named before the bound still has its own line.
    engine
        .receive_message(&receive(&url, 0), Some("caller-0"))
        .unwrap();
    let named: std::collections::BTreeSet<_> = engine
        .meter()
        .lines()
        .filter_map(|(l, _)| l.caller.clone())
        .collect();
    assert_eq!(
        named.len(),
        MAX_METERED_CALLERS + 1,
        "the names and the bucket"
    );
    let total = (MAX_METERED_CALLERS + extra + 1) as u64;
    assert_eq!(engine.meter().requests(all), total, "no call goes unbilled");
    assert_eq!(
        engine.meter().requests(|by| by == Some(OTHER_CALLERS)),
        extra as u64
    );
    assert_eq!(engine.meter().requests(|by| by == Some("caller-0")), 2);
    assert!(OTHER_CALLERS.chars().count() > queuelab_engine::MAX_CALLER_CHARS);
}

/// "Every Amazon SQS action counts as a request": a client that creates and
/// deletes a queue pays for both, at the price of the queue's type, and a
/// CreateQueue SQS refuses (the name deleted less than 60 s ago) is billed
/// all the same.
#[test]
fn create_queue_and_delete_queue_are_each_billed_as_a_request() {
    use queuelab_engine::{Principal, Request};
    let mut engine = Engine::new(Config::default());
    let client = Principal::owner().named("client");
    let tags = Tags::new();
    let create = |name| Request::CreateQueue {
        name,
        attributes: &[],
        tags: &tags,
    };
    engine.call(&client, create("replies")).unwrap();
    let url = engine.get_queue_url("replies", None).unwrap();
    let delete = Request::DeleteQueue { queue_url: &url };
    engine.call(&client, delete).unwrap();
    assert!(engine.call(&client, create("replies")).is_err());
    let fifo = [QueueAttribute::FifoQueue(true)];
    let create_fifo = Request::CreateQueue {
        name: "replies.fifo",
        attributes: &fifo,
        tags: &tags,
    };
    engine.call(&client, create_fifo).unwrap();
    let lines: Vec<_> = (engine.meter().lines())
        .map(|(l, t)| (l.action.name(), l.fifo, t.calls))
        .collect();
    assert_eq!(
        lines,
        [
            ("CreateQueue", false, 2),
            ("CreateQueue", true, 1),
            ("DeleteQueue", false, 1)
        ]
    );
    let cost = 3 * PRICE_NANO_USD_STANDARD + PRICE_NANO_USD_FIFO;
    assert_eq!(engine.meter().cost_nano_usd(all), cost);
}
