//! The gauges SQS reports to CloudWatch (`Engine::queue_gauges`): the
//! three ApproximateNumberOfMessages* counts and
//! ApproximateAgeOfOldestMessage with AWS's two exceptions (sqs-facts,
//! "Encryption, throttling, quotas and timing").

use queuelab_engine::{
    Config, Engine, NewMessage, QueueAttribute, ReceiveMessage, ReceiveOutcome, RedrivePolicy,
    SendMessage, Tags,
};

fn message(body: &str, delay: Option<i64>) -> NewMessage {
    NewMessage {
        body: body.into(),
        group_id: None,
        dedup_id: None,
        delay_seconds: delay,
        attributes: Vec::new(),
        system_attributes: Vec::new(),
    }
}

fn send(engine: &mut Engine, url: &str, body: &str, delay: Option<i64>) {
    let request = SendMessage {
        queue_url: url.into(),
        message: message(body, delay),
    };
    engine.send_message(&request, Some("shop")).unwrap();
}

/// One short receive of at most `max` messages, with a 1 s visibility
/// timeout; the bodies received.
fn receive(engine: &mut Engine, url: &str, max: i64) -> Vec<String> {
    let request = ReceiveMessage {
        queue_url: url.into(),
        max_number_of_messages: Some(max),
        visibility_timeout: Some(1),
        wait_time_seconds: Some(0),
        system_attribute_names: Vec::new(),
        message_attribute_names: Vec::new(),
        receive_request_attempt_id: None,
    };
    match engine.receive_message(&request, Some("worker")).unwrap() {
        ReceiveOutcome::Done(messages) => messages.into_iter().map(|m| m.body).collect(),
        ReceiveOutcome::Waiting(_) => panic!("a short poll does not wait"),
    }
}

fn engine() -> Engine {
    Engine::new(Config::default())
}

#[test]
fn the_gauges_count_visible_in_flight_and_delayed_messages() {
    let mut engine = engine();
    let url = engine.create_queue("orders", &[], &Tags::new()).unwrap();
    send(&mut engine, &url, "a", None);
    send(&mut engine, &url, "b", None);
    send(&mut engine, &url, "c", Some(60));
    receive(&mut engine, &url, 1);
    let g = engine.queue_gauges(&url).unwrap();
    assert_eq!((g.visible, g.not_visible, g.delayed), (1, 1, 1));
}

#[test]
fn the_age_of_the_oldest_message_is_zero_in_an_empty_queue_and_none_for_no_queue() {
    let mut engine = engine();
    let url = engine.create_queue("orders", &[], &Tags::new()).unwrap();
    engine.advance(5_000);
    assert_eq!(engine.queue_gauges(&url).unwrap().age_of_oldest_ms, 0);
    assert_eq!(engine.queue_gauges("https://nowhere/1/none"), None);
}

#[test]
fn the_age_of_the_oldest_message_counts_from_its_send_and_includes_in_flight_and_delayed() {
    let mut engine = engine();
    let url = engine.create_queue("orders", &[], &Tags::new()).unwrap();
    send(&mut engine, &url, "first", Some(30));
    engine.advance(2_000);
    send(&mut engine, &url, "second", None);
    engine.advance(3_000);
    assert_eq!(engine.queue_gauges(&url).unwrap().age_of_oldest_ms, 5_000);
}

#[test]
fn a_message_received_three_times_without_a_delete_leaves_the_age_of_the_oldest_message() {
    let mut engine = engine();
    let url = engine.create_queue("orders", &[], &Tags::new()).unwrap();
    send(&mut engine, &url, "stuck", None);
    engine.advance(10_000);
    send(&mut engine, &url, "young", None);
    for round in 1..=3 {
        assert_eq!(receive(&mut engine, &url, 1), ["stuck"], "receive #{round}");
        let age = engine.queue_gauges(&url).unwrap().age_of_oldest_ms;
        let expected = if round < 3 {
            10_000 + (round - 1) * 1_000
        } else {
            2_000
        };
        assert_eq!(age, expected, "after receive #{round}");
        engine.advance(1_000);
    }
}

#[test]
fn in_a_fifo_queue_a_message_received_three_times_still_counts_for_the_age() {
    let mut engine = engine();
    let attributes = [
        QueueAttribute::FifoQueue(true),
        QueueAttribute::ContentBasedDeduplication(true),
    ];
    let url = engine
        .create_queue("orders.fifo", &attributes, &Tags::new())
        .unwrap();
    let mut m = message("stuck", None);
    m.group_id = Some("g".into());
    let request = SendMessage {
        queue_url: url.clone(),
        message: m,
    };
    engine.send_message(&request, Some("shop")).unwrap();
    for _ in 0..3 {
        assert_eq!(receive(&mut engine, &url, 1), ["stuck"]);
        engine.advance(1_000);
    }
    assert_eq!(engine.queue_gauges(&url).unwrap().age_of_oldest_ms, 3_000);
}

#[test]
fn in_a_dead_letter_queue_the_age_of_the_oldest_message_counts_from_its_move() {
    let mut engine = engine();
    let dlq = engine
        .create_queue("orders-dlq", &[], &Tags::new())
        .unwrap();
    let redrive = RedrivePolicy {
        dead_letter_target_arn: "arn:aws:sqs:us-east-1:000000000000:orders-dlq".into(),
        max_receive_count: 1,
        text: String::new(),
    };
    let attributes = [QueueAttribute::RedrivePolicy(Some(redrive))];
    let url = engine
        .create_queue("orders", &attributes, &Tags::new())
        .unwrap();
    send(&mut engine, &url, "poison", None);
    engine.advance(20_000);
    assert_eq!(receive(&mut engine, &url, 1), ["poison"]);
    engine.advance(1_000);
    // The next receive moves it (lazily) instead of returning it.
    assert!(receive(&mut engine, &url, 1).is_empty());
    assert_eq!(engine.queue_gauges(&dlq).unwrap().visible, 1);
    engine.advance(4_000);
    assert_eq!(engine.queue_gauges(&dlq).unwrap().age_of_oldest_ms, 4_000);
}
