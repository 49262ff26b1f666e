//! A producer's burst against SQS's request quotas (a scenario's
//! `throttling`): a FIFO queue takes 300 SendMessage calls a second, so a
//! burst of one message per call is throttled; the fixes are batching (a
//! rate's `batchSize`: ten messages a call), and high throughput with
//! more message groups (a rate's `groupCount`). Standard queues are never
//! throttled.

use queuelab_engine::{Config, EventKind};
use queuelab_simulation::{Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

fn scenario(queue: Value, rate: Value, throttling: bool) -> Scenario {
    serde_json::from_value(json!({
        "title": "burst", "durationMs": 10_000, "throttling": throttling,
        "queues": [queue],
        "producers": [{ "name": "checkout", "queue": queue["name"], "rate": rate }],
    }))
    .expect("a well-formed scenario")
}

fn run(queue: Value, rate: Value, throttling: bool) -> Simulation {
    let mut sim =
        Simulation::new(scenario(queue, rate, throttling), Config::default()).expect("loads");
    sim.advance(10_000);
    sim
}

/// (sent, failed) from the producer's snapshot.
fn counts(sim: &Simulation) -> (u64, u64) {
    let p = &sim.snapshot().producers[0];
    (p.sent, p.failed)
}

/// Each refused call's (action, code).
fn failures(sim: &Simulation) -> Vec<(&'static str, &'static str)> {
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::ActionFailed { action, code, .. }) => Some((action, code)),
            _ => None,
        })
        .collect()
}

fn fifo(high_throughput: bool) -> Value {
    if high_throughput {
        json!({ "name": "orders.fifo", "contentBasedDeduplication": true,
                "deduplicationScope": "messageGroup", "fifoThroughputLimit": "perMessageGroupId" })
    } else {
        json!({ "name": "orders.fifo", "contentBasedDeduplication": true })
    }
}

/// 2,000 orders in two seconds: one every millisecond.
fn burst(extra: Value) -> Value {
    let mut rate = json!({ "everyMs": 1, "count": 2000, "body": "order {n}", "groupId": "orders" });
    for (k, v) in extra.as_object().unwrap() {
        rate[k] = v.clone();
    }
    rate
}

#[test]
fn a_burst_of_one_message_per_call_past_300_a_second_is_throttled_on_a_fifo_queue() {
    let sim = run(fifo(false), burst(json!({})), true);
    // 300 calls in each of the two seconds get through.
    assert_eq!(counts(&sim), (600, 1400));
    let failed = failures(&sim);
    assert_eq!(failed.len(), 1400);
    assert!(
        failed
            .iter()
            .all(|f| *f == ("SendMessage", "RequestThrottled")),
        "{:?}",
        &failed[..3]
    );
}

#[test]
fn the_same_burst_is_not_throttled_when_throttling_is_off() {
    assert_eq!(
        counts(&run(fifo(false), burst(json!({})), false)),
        (2000, 0)
    );
}

#[test]
fn a_standard_queue_takes_the_burst() {
    let rate = json!({ "everyMs": 1, "count": 2000, "body": "order {n}" });
    assert_eq!(
        counts(&run(json!({ "name": "orders" }), rate, true)),
        (2000, 0)
    );
}

#[test]
fn a_rate_with_batch_size_sends_ten_messages_per_send_message_batch() {
    let sim = run(fifo(false), burst(json!({ "batchSize": 10 })), true);
    assert_eq!(counts(&sim), (2000, 0), "200 calls: under 300 a second");
    let sent: Vec<(u64, String)> = sim
        .events(0)
        .filter_map(|e| match e.kind {
            Kind::Sqs(EventKind::Sent { label, .. }) => Some((e.time_ms, label)),
            _ => None,
        })
        .collect();
    // A batch goes when its tenth message falls due, in the order made.
    assert_eq!(sent[0], (9, "order 1".to_string()));
    assert_eq!(sent[9], (9, "order 10".to_string()));
    assert_eq!(sent[10], (19, "order 11".to_string()));
}

#[test]
fn a_rate_whose_count_is_not_a_whole_number_of_batches_sends_the_last_batch_when_it_ends() {
    let rate =
        json!({ "everyMs": 100, "count": 13, "body": "o{n}", "groupId": "g", "batchSize": 5 });
    let sim = run(fifo(false), rate, true);
    assert_eq!(counts(&sim), (13, 0));
}

#[test]
fn high_throughput_with_one_message_group_is_still_held_to_one_partition() {
    let sim = run(fifo(true), burst(json!({})), true);
    assert_eq!(counts(&sim), (600, 1400));
}

#[test]
fn high_throughput_with_twenty_groups_takes_the_burst() {
    let rate = burst(json!({ "groupId": "customer-{n}", "groupCount": 20 }));
    assert_eq!(counts(&run(fifo(true), rate, true)), (2000, 0));
}

#[test]
fn a_rate_with_group_count_takes_turns_in_that_many_groups() {
    let rate =
        json!({ "everyMs": 10, "count": 7, "body": "o{n}", "groupId": "g-{n}", "groupCount": 3 });
    let sim = run(fifo(false), rate, false);
    let groups: Vec<String> = sim
        .events(0)
        .filter_map(|e| match e.kind {
            Kind::Sqs(EventKind::Sent { group, .. }) => group.map(|g| g.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(groups, ["g-1", "g-2", "g-3", "g-1", "g-2", "g-3", "g-1"]);
}

#[test]
fn a_batch_size_or_group_count_out_of_range_is_refused_at_its_field() {
    let refused = |extra: Value| {
        scenario(fifo(false), burst(extra), true)
            .validate()
            .expect_err("refused")
            .to_string()
    };
    assert_eq!(
        refused(json!({ "batchSize": 11 })),
        "producers[0].rate.batchSize must be a whole number from 1 to 10, got 11"
    );
    assert_eq!(
        refused(json!({ "groupCount": 0 })),
        "producers[0].rate.groupCount must be a whole number from 1 to 10000, got 0"
    );
}

#[test]
fn a_topics_rate_takes_no_batch_size() {
    let scenario: Scenario = serde_json::from_value(json!({
        "title": "t", "durationMs": 1000, "queues": [{ "name": "q" }],
        "topics": [{ "name": "news", "subscriptions": [], "rate": { "everyMs": 10, "count": 5, "body": "b", "batchSize": 10 } }],
    }))
    .unwrap();
    let error = scenario.validate().expect_err("refused").to_string();
    assert!(
        error.starts_with("topics[0].rate.batchSize must be left out on a topic"),
        "{error}"
    );
}

#[test]
fn the_high_throughput_scenario_throttles_only_the_checkout_that_sends_one_order_a_call() {
    let path = format!(
        "{}/../../web/scenarios/31-high-throughput-fifo.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let scenario: Scenario = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut sim = Simulation::new(scenario, Config::default()).expect("loads");
    sim.advance(3_000);
    let counts: Vec<(String, u64, u64)> = (sim.snapshot().producers.iter())
        .map(|p| (p.name.clone(), p.sent, p.failed))
        .collect();
    assert_eq!(
        counts,
        [
            ("checkout".to_string(), 600, 400),
            ("checkout-batched".to_string(), 1000, 0),
            ("checkout-spread".to_string(), 1000, 0),
        ]
    );
}
