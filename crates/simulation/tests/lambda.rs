//! Lambda functions and their Amazon SQS event source mappings
//! (`lambdas`, `actors/lambda/`): pollers long-poll the queue under the
//! function's name, hand batches over when full, when the window ends or
//! at the 6 MB payload, delete what the function processed with
//! DeleteMessageBatch, leave the rest to come back after the visibility
//! timeout, scale as Lambda documents, are throttled by reserved
//! concurrency, and a mapping Lambda would refuse is refused in its words.
//! Each bad field is refused at its path.

use queuelab_engine::{Action, Config, Millis};
use queuelab_simulation::{Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

const FUNCTION: &str = "process-orders";

/// A scenario with queue `queue`, the function `lambda` (its fields over
/// a plain one's) and the producer's `sends`.
fn scenario(queue: Value, lambda: Value, sends: Value) -> Scenario {
    let mut function = json!({
        "name": FUNCTION, "queue": queue["name"],
        "timeoutSeconds": 10,
        "handler": { "processing": { "fixedMs": 100 } },
    });
    for (k, v) in lambda.as_object().expect("an object") {
        function[k] = v.clone();
    }
    serde_json::from_value(json!({
        "title": "lambda", "durationMs": 600_000,
        "queues": [queue],
        "producers": [{ "name": "shop", "queue": queue["name"], "sends": sends }],
        "lambdas": [function],
    }))
    .expect("a well-formed scenario")
}

fn orders() -> Value {
    json!({ "name": "orders", "visibilityTimeoutSeconds": 30 })
}

/// `bodies` sent at 0 ms.
fn at_zero(bodies: &[&str]) -> Value {
    Value::Array(
        bodies
            .iter()
            .map(|b| json!({ "atMs": 0, "body": b }))
            .collect(),
    )
}

fn run(scenario: Scenario, ms: Millis) -> Simulation {
    let mut sim = Simulation::new(scenario, Config::default()).expect("starts");
    sim.advance(ms);
    sim
}

/// The run's simulation events, with their moments.
fn events(sim: &Simulation) -> Vec<(Millis, SimEvent)> {
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(s) => Some((e.time_ms, s)),
            Kind::Sqs(_) => None,
        })
        .collect()
}

/// Each invocation: its moment, number and message ids.
fn invoked(sim: &Simulation) -> Vec<(Millis, u64, Vec<String>)> {
    events(sim)
        .into_iter()
        .filter_map(|(t, e)| match e {
            SimEvent::LambdaInvoked {
                invocation,
                messages,
                ..
            } => Some((t, invocation, messages)),
            _ => None,
        })
        .collect()
}

/// Each invocation's end: moment, number, result, failed ids and why.
type Return = (Millis, u64, &'static str, Vec<String>, Option<String>);

fn returned(sim: &Simulation) -> Vec<Return> {
    events(sim)
        .into_iter()
        .filter_map(|(t, e)| match e {
            SimEvent::LambdaReturned {
                invocation,
                result,
                failed,
                why,
                ..
            } => Some((t, invocation, result, failed, why)),
            _ => None,
        })
        .collect()
}

/// Messages still in the queue (visible, delayed or in flight).
fn left(sim: &Simulation, queue: &str) -> u64 {
    let snapshot = sim.engine().snapshot();
    let q = snapshot.queues.iter().find(|q| &*q.name == queue).unwrap();
    q.messages.len() as u64
}

/// Requests of `action` the meter billed to `caller`.
fn billed(sim: &Simulation, action: Action, caller: &str) -> u64 {
    let meter = sim.engine().meter();
    meter
        .lines()
        .filter(|(line, _)| line.action == action && line.caller.as_deref() == Some(caller))
        .map(|(_, tally)| tally.requests)
        .sum()
}

#[test]
fn a_batch_is_handed_over_when_it_holds_batch_size_records() {
    let bodies: Vec<String> = (0..60).map(|i| format!("order-{i}")).collect();
    let bodies: Vec<&str> = bodies.iter().map(String::as_str).collect();
    let lambda = json!({ "batchSize": 20, "maximumBatchingWindowInSeconds": 10 });
    let sim = run(scenario(orders(), lambda, at_zero(&bodies)), 10_000);
    let calls: Vec<(Millis, usize)> = invoked(&sim).iter().map(|c| (c.0, c.2.len())).collect();
    // The five pollers receive 10 each at 0 ms; the first receives 10
    // more a millisecond later, which fills its batch; the others' batches
    // wait for their window.
    assert_eq!(calls[0], (1, 20), "{calls:?}");
    assert_eq!(calls[1..], [(10_000, 10); 4], "{calls:?}");
}

#[test]
fn a_batch_is_handed_over_when_the_window_ends() {
    let lambda = json!({ "batchSize": 100, "maximumBatchingWindowInSeconds": 5 });
    let sim = run(
        scenario(orders(), lambda, at_zero(&["a", "b", "c"])),
        20_000,
    );
    let calls = invoked(&sim);
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!((calls[0].0, calls[0].2.len()), (5_000, 3));
}

#[test]
fn with_no_window_one_receive_is_one_batch() {
    let bodies: Vec<String> = (0..7).map(|i| format!("order-{i}")).collect();
    let bodies: Vec<&str> = bodies.iter().map(String::as_str).collect();
    let lambda = json!({ "batchSize": 3 });
    let sim = run(scenario(orders(), lambda, at_zero(&bodies)), 1_000);
    let sizes: Vec<usize> = invoked(&sim).iter().map(|c| c.2.len()).collect();
    assert_eq!(sizes, [3, 3, 1]);
}

#[test]
fn a_batch_is_cut_where_the_next_record_would_pass_the_6_mb_payload() {
    let sends: Vec<Value> = (0..10)
        .map(|i| json!({ "atMs": 0, "body": format!("scan-{i}"), "padToBytes": 900_000 }))
        .collect();
    let sim = run(scenario(orders(), json!({}), Value::Array(sends)), 10_000);
    let bytes: Vec<(usize, u64)> = events(&sim)
        .into_iter()
        .filter_map(|(_, e)| match e {
            SimEvent::LambdaInvoked {
                messages, bytes, ..
            } => Some((messages.len(), bytes)),
            _ => None,
        })
        .collect();
    // Six 900 KB records fit in 6 MB (6,291,456 bytes), seven do not; the
    // four cut off are the poller's next batch.
    assert_eq!(bytes.len(), 2, "{bytes:?}");
    assert_eq!(bytes[0].0, 6);
    assert!(bytes[0].1 <= 6 * 1024 * 1024, "{bytes:?}");
    assert_eq!(bytes[1].0, 4);
}

#[test]
fn a_successful_batch_is_deleted_with_delete_message_batch_billed_to_the_mapping() {
    let sim = run(
        scenario(orders(), json!({}), at_zero(&["a", "b", "c"])),
        5_000,
    );
    let ends = returned(&sim);
    assert_eq!(ends.len(), 1);
    assert_eq!((ends[0].0, ends[0].2), (300, "success"));
    assert_eq!(left(&sim, "orders"), 0);
    assert_eq!(billed(&sim, Action::DeleteMessageBatch, FUNCTION), 1);
    assert!(billed(&sim, Action::ReceiveMessage, FUNCTION) >= 1);
}

/// The second invocation of the same ids comes once their visibility
/// timeout (30 s from the receive at 0) has ended, and not before.
fn comes_back_after_the_visibility_timeout(sim: &Simulation) {
    let calls = invoked(sim);
    assert!(calls.len() >= 2, "{calls:?}");
    let (first, again) = (&calls[0], &calls[1]);
    assert!(again.0 >= 30_000, "{calls:?}");
    let mut ids = again.2.clone();
    ids.sort();
    let mut before = first.2.clone();
    before.sort();
    assert_eq!(ids, before);
}

#[test]
fn an_error_returns_the_whole_batch_after_the_visibility_timeout() {
    let lambda = json!({ "handler": { "processing": { "fixedMs": 100 }, "failsOn": ["bad"] } });
    let sim = run(
        scenario(orders(), lambda, at_zero(&["ok-1", "bad", "ok-2"])),
        40_000,
    );
    let ends = returned(&sim);
    assert_eq!(ends[0].2, "error");
    assert_eq!(ends[0].3.len(), 3);
    assert_eq!(billed(&sim, Action::DeleteMessageBatch, FUNCTION), 0);
    comes_back_after_the_visibility_timeout(&sim);
}

#[test]
fn the_records_an_errored_batch_processed_are_processed_again_with_it() {
    let lambda = json!({ "handler": { "processing": { "fixedMs": 100 }, "failsOn": ["bad"] } });
    let sim = run(
        scenario(orders(), lambda, at_zero(&["ok-1", "bad", "ok-2"])),
        40_000,
    );
    let counts: Vec<(String, u64, Vec<String>)> = (sim.side_effects().iter())
        .map(|s| (s.body.clone(), s.count, s.by.clone()))
        .collect();
    let twice = vec![FUNCTION.to_string(); 2];
    assert_eq!(
        counts,
        [
            ("ok-1".to_string(), 2, twice.clone()),
            ("ok-2".to_string(), 2, twice)
        ]
    );
}

#[test]
fn a_timeout_returns_the_whole_batch_after_the_visibility_timeout() {
    let lambda = json!({
        "timeoutSeconds": 5,
        "handler": { "processing": { "fixedMs": 100 }, "timesOutOn": ["slow"] },
    });
    let sim = run(
        scenario(orders(), lambda, at_zero(&["ok-1", "slow"])),
        40_000,
    );
    let ends = returned(&sim);
    assert_eq!((ends[0].0, ends[0].2), (5_000, "timeout"));
    assert_eq!(ends[0].3.len(), 2);
    comes_back_after_the_visibility_timeout(&sim);
}

fn reporting(response: &str) -> Value {
    json!({
        "functionResponseTypes": ["ReportBatchItemFailures"],
        "handler": { "processing": { "fixedMs": 100 }, "failsOn": ["bad"], "response": response },
    })
}

#[test]
fn partial_failures_return_only_the_listed_messages() {
    let s = scenario(
        orders(),
        reporting("valid"),
        at_zero(&["ok-1", "bad", "ok-2"]),
    );
    let sim = run(s, 40_000);
    let calls = invoked(&sim);
    let ends = returned(&sim);
    assert_eq!(ends[0].2, "partial");
    assert_eq!(ends[0].3, [calls[0].2[1].clone()]);
    // Only the failed one comes back, after its visibility timeout.
    assert_eq!(calls[1].2, ends[0].3);
    assert!(calls[1].0 >= 30_000);
    assert_eq!(left(&sim, "orders"), 1);
}

#[test]
fn an_empty_list_of_failures_is_success_and_deletes_the_whole_batch() {
    let s = scenario(
        orders(),
        reporting("empty"),
        at_zero(&["ok-1", "bad", "ok-2"]),
    );
    let sim = run(s, 40_000);
    let ends = returned(&sim);
    assert_eq!((ends[0].2, ends[0].3.len()), ("success", 0));
    assert_eq!(left(&sim, "orders"), 0);
}

#[test]
fn each_invalid_partial_batch_response_fails_the_whole_batch() {
    for response in ["unknownId", "null", "malformed"] {
        let s = scenario(
            orders(),
            reporting(response),
            at_zero(&["ok-1", "bad", "ok-2"]),
        );
        let sim = run(s, 5_000);
        let ends = returned(&sim);
        assert_eq!(ends[0].2, "invalidResponse", "{response}");
        assert_eq!(ends[0].3.len(), 3, "{response}");
        assert!(ends[0].4.is_some(), "{response}");
        assert_eq!(left(&sim, "orders"), 3, "{response}");
    }
}

fn fifo() -> Value {
    json!({ "name": "orders.fifo", "visibilityTimeoutSeconds": 30, "contentBasedDeduplication": true })
}

#[test]
fn a_fifo_function_stops_a_group_at_its_first_failure() {
    let sends = json!([
        { "atMs": 0, "body": "a-1", "groupId": "A" },
        { "atMs": 0, "body": "a-bad", "groupId": "A" },
        { "atMs": 0, "body": "a-3", "groupId": "A" },
        { "atMs": 0, "body": "b-1", "groupId": "B" },
        { "atMs": 0, "body": "b-2", "groupId": "B" },
    ]);
    let sim = run(scenario(fifo(), reporting("valid"), sends), 5_000);
    let calls = invoked(&sim);
    let ends = returned(&sim);
    let batch = &calls[0].2;
    assert_eq!(batch.len(), 5, "{calls:?}");
    // a-bad failed, a-3 was not processed: both return; group B is done.
    assert_eq!(ends[0].2, "partial");
    assert_eq!(ends[0].3, [batch[1].clone(), batch[2].clone()]);
    assert_eq!(left(&sim, "orders.fifo"), 2);
}

#[test]
fn a_fifo_queue_runs_one_batch_per_group_at_a_time() {
    let sends: Vec<Value> = (0..30)
        .map(|i| json!({ "atMs": 0, "body": format!("a-{i}"), "groupId": "A" }))
        .collect();
    let lambda = json!({ "handler": { "processing": { "fixedMs": 500 } } });
    let sim = run(scenario(fifo(), lambda, Value::Array(sends)), 60_000);
    let calls = invoked(&sim);
    let ends = returned(&sim);
    assert_eq!(calls.len(), 3, "{calls:?}");
    // Each batch of group A starts only once the one before returned.
    for k in 1..calls.len() {
        assert!(calls[k].0 >= ends[k - 1].0, "{calls:?} {ends:?}");
    }
}

/// The pollers each `lambdaScaled` event set, with its moment.
fn scaled(sim: &Simulation) -> Vec<(Millis, u64)> {
    events(sim)
        .into_iter()
        .filter_map(|(t, e)| match e {
            SimEvent::LambdaScaled { pollers, .. } => Some((t, pollers)),
            _ => None,
        })
        .collect()
}

/// A backlog of 4,000 orders, each batch taking a minute.
fn backlog(lambda: Value) -> Scenario {
    let mut s = scenario(
        json!({ "name": "orders", "visibilityTimeoutSeconds": 900 }),
        lambda,
        json!([]),
    );
    s.producers[0].rate = Some(
        serde_json::from_value(json!({ "everyMs": 1, "count": 4000, "body": "order-{n}" }))
            .unwrap(),
    );
    s
}

#[test]
fn pollers_start_at_five_and_add_300_a_minute_while_a_backlog_lasts() {
    let lambda = json!({
        "timeoutSeconds": 120,
        "handler": { "processing": { "fixedMs": 6_000 } },
    });
    let mut sim = Simulation::new(backlog(lambda), Config::default()).expect("starts");
    sim.advance(1_000);
    assert_eq!(sim.snapshot().lambdas[0].pollers, 5);
    assert_eq!(sim.snapshot().lambdas[0].concurrency, 5);
    sim.advance(180_000);
    let steps = scaled(&sim);
    assert_eq!(steps[..2], [(60_000, 305), (120_000, 605)], "{steps:?}");
}

#[test]
fn pollers_never_pass_maximum_concurrency() {
    let lambda = json!({
        "timeoutSeconds": 120, "maximumConcurrency": 12,
        "handler": { "processing": { "fixedMs": 6_000 } },
    });
    let mut sim = Simulation::new(backlog(lambda), Config::default()).expect("starts");
    let mut most = 0;
    for _ in 0..30 {
        sim.advance(10_000);
        most = most.max(sim.snapshot().lambdas[0].concurrency);
    }
    assert_eq!(scaled(&sim)[0], (60_000, 12));
    assert_eq!(most, 12);
}

#[test]
fn a_batch_past_the_reserved_concurrency_is_throttled_and_retried() {
    let bodies: Vec<String> = (0..20).map(|i| format!("order-{i}")).collect();
    let bodies: Vec<&str> = bodies.iter().map(String::as_str).collect();
    let lambda = json!({ "reservedConcurrency": 1 });
    let sim = run(scenario(orders(), lambda, at_zero(&bodies)), 10_000);
    let throttled: Vec<(Millis, Vec<String>)> = events(&sim)
        .into_iter()
        .filter_map(|(t, e)| match e {
            SimEvent::LambdaThrottled { messages, .. } => Some((t, messages)),
            _ => None,
        })
        .collect();
    assert_eq!(throttled[0].0, 0);
    assert_eq!(throttled[0].1.len(), 10);
    // The same batch ran once the first invocation returned (1 s later,
    // the poller's first retry), and nothing ran beside it.
    let calls = invoked(&sim);
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[1].2, throttled[0].1);
    assert_eq!(calls[1].0, 1_000);
    assert!(calls[1].0 >= returned(&sim)[0].0);
    assert_eq!(left(&sim, "orders"), 0);
}

#[test]
fn a_reserved_concurrency_of_0_throttles_every_batch_and_the_messages_come_back() {
    let lambda = json!({ "reservedConcurrency": 0 });
    let sim = run(scenario(orders(), lambda, at_zero(&["a", "b"])), 70_000);
    assert!(invoked(&sim).is_empty());
    let throttles = sim.snapshot().lambdas[0].throttles;
    assert!(throttles >= 2, "{throttles}");
    // Received again after each visibility timeout: 3 receives by 70 s.
    let snapshot = sim.engine().snapshot();
    let counts: Vec<u32> = snapshot.queues[0]
        .messages
        .iter()
        .map(|m| m.receive_count)
        .collect();
    assert!(counts.iter().all(|c| *c >= 2), "{counts:?}");
}

#[test]
fn a_function_timeout_above_the_visibility_timeout_is_refused_in_lambdas_words() {
    let lambda = json!({ "timeoutSeconds": 60 });
    let sim = run(scenario(orders(), lambda, at_zero(&["a"])), 30_000);
    let refused: Vec<(String, String)> = events(&sim)
        .into_iter()
        .filter_map(|(_, e)| match e {
            SimEvent::EventSourceMappingRefused { code, error, .. } => {
                Some((code.to_string(), error))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        refused,
        [(
            "InvalidParameterValueException".to_string(),
            "Queue visibility timeout: 30 seconds is less than Function timeout: 60 seconds"
                .to_string()
        )]
    );
    assert_eq!(billed(&sim, Action::ReceiveMessage, FUNCTION), 0);
    assert_eq!(sim.snapshot().lambdas[0].state, "refused");
}

#[test]
fn a_disabled_mapping_polls_nothing() {
    let lambda = json!({ "enabled": false });
    let sim = run(scenario(orders(), lambda, at_zero(&["a"])), 30_000);
    assert_eq!(billed(&sim, Action::ReceiveMessage, FUNCTION), 0);
    assert_eq!(left(&sim, "orders"), 1);
}

/// The path of the field a scenario is refused at.
fn refused_at(queue: Value, lambda: Value) -> String {
    let s = scenario(queue, lambda, json!([]));
    match s.validate() {
        Err(e) => e.path,
        Ok(()) => "accepted".into(),
    }
}

#[test]
fn each_field_out_of_lambdas_range_is_refused_at_its_path() {
    let at = |field: &str| format!("lambdas[0].{field}");
    let cases = [
        (orders(), json!({ "batchSize": 0 }), at("batchSize")),
        (
            orders(),
            json!({ "batchSize": 10_001, "maximumBatchingWindowInSeconds": 1 }),
            at("batchSize"),
        ),
        (fifo(), json!({ "batchSize": 11 }), at("batchSize")),
        (
            orders(),
            json!({ "batchSize": 11 }),
            at("maximumBatchingWindowInSeconds"),
        ),
        (
            orders(),
            json!({ "maximumBatchingWindowInSeconds": 301 }),
            at("maximumBatchingWindowInSeconds"),
        ),
        (
            fifo(),
            json!({ "maximumBatchingWindowInSeconds": 1 }),
            at("maximumBatchingWindowInSeconds"),
        ),
        (
            orders(),
            json!({ "maximumConcurrency": 1 }),
            at("maximumConcurrency"),
        ),
        (
            orders(),
            json!({ "maximumConcurrency": 1001 }),
            at("maximumConcurrency"),
        ),
        (
            orders(),
            json!({ "timeoutSeconds": 0 }),
            at("timeoutSeconds"),
        ),
        (
            orders(),
            json!({ "timeoutSeconds": 901 }),
            at("timeoutSeconds"),
        ),
        (
            orders(),
            json!({ "reservedConcurrency": -1 }),
            at("reservedConcurrency"),
        ),
        (
            orders(),
            json!({ "reservedConcurrency": 1001 }),
            at("reservedConcurrency"),
        ),
        (
            orders(),
            json!({ "functionResponseTypes": ["ReportItemFailures"] }),
            at("functionResponseTypes[0]"),
        ),
        (orders(), json!({ "name": "has space" }), at("name")),
        (orders(), json!({ "queue": "nope" }), at("queue")),
        (
            orders(),
            json!({ "handler": { "processing": { "fixedMs": 1 }, "failEveryNth": -1 } }),
            at("handler.failEveryNth"),
        ),
    ];
    for (queue, lambda, path) in cases {
        assert_eq!(refused_at(queue, lambda.clone()), path, "{lambda}");
    }
}

#[test]
fn the_largest_values_lambda_takes_are_accepted() {
    let lambda = json!({
        "batchSize": 10_000, "maximumBatchingWindowInSeconds": 300,
        "maximumConcurrency": 1000, "reservedConcurrency": 1000, "timeoutSeconds": 900,
        "functionResponseTypes": ["ReportBatchItemFailures"],
    });
    let queue = json!({ "name": "orders", "visibilityTimeoutSeconds": 5400 });
    assert_eq!(refused_at(queue, lambda), "accepted");
}

#[test]
fn a_refusal_says_lambdas_range_in_words() {
    let s = scenario(orders(), json!({ "maximumConcurrency": 1 }), json!([]));
    let error = s.validate().unwrap_err().to_string();
    assert_eq!(
        error,
        "lambdas[0].maximumConcurrency must be a whole number from 2 to 1,000, the range of \
         ScalingConfig's MaximumConcurrency, got 1"
    );
}

#[test]
fn the_work_estimate_counts_a_mappings_polls_and_invocations() {
    let lambda = json!({
        "timeoutSeconds": 120,
        "handler": { "processing": { "fixedMs": 6_000 } },
    });
    let s = backlog(lambda);
    let duration = s.duration_ms;
    let mut sim = Simulation::new(s, Config::default()).expect("starts");
    let estimate = sim.work_estimate(duration);
    sim.advance(duration);
    let done = sim.work_done();
    assert!(estimate >= done, "estimated {estimate}, did {done}");
}

#[test]
fn a_long_run_of_a_mapping_scaling_to_1000_pollers_is_refused_naming_it() {
    let mut s = backlog(json!({}));
    s.duration_ms = 30 * 24 * 3_600_000;
    s.producers[0].rate = Some(
        serde_json::from_value(json!({ "everyMs": 1_000, "count": 100_000, "body": "order-{n}" }))
            .unwrap(),
    );
    let error = match Simulation::new(s, Config::default()) {
        Err(e) => e.message,
        Ok(_) => panic!("started"),
    };
    assert!(error.contains("lambdas[0] alone needs about"), "{error}");
}

#[test]
fn a_batch_gathering_past_the_visibility_timeout_is_delivered_again_while_it_waits() {
    // The timeout trap: the batch's messages stay in flight while the
    // poller gathers for 20 s, but the queue hides them for 10 s only.
    let queue = json!({ "name": "orders", "visibilityTimeoutSeconds": 10 });
    let lambda = json!({
        "batchSize": 100, "maximumBatchingWindowInSeconds": 20, "timeoutSeconds": 5,
    });
    let sim = run(scenario(queue, lambda, at_zero(&["a", "b", "c"])), 35_000);
    let handed: Vec<String> = invoked(&sim).into_iter().flat_map(|c| c.2).collect();
    let mut distinct = handed.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 3);
    assert!(
        handed.len() > 3,
        "each message handed over once: {handed:?}"
    );
    // Each was charged twice, though the first invocation deleted it.
    let counts: Vec<u64> = sim.side_effects().iter().map(|s| s.count).collect();
    assert_eq!(counts, [2, 2, 2]);
}

#[test]
fn a_mapping_at_lambdas_largest_settings_runs_its_backlog_down() {
    let lambda = json!({
        "batchSize": 10_000, "maximumBatchingWindowInSeconds": 1,
        "handler": { "processing": { "fixedMs": 0 } },
    });
    let mut s = backlog(lambda);
    s.producers[0].rate = Some(
        serde_json::from_value(json!({ "everyMs": 1, "count": 20_000, "body": "order-{n}" }))
            .unwrap(),
    );
    let mut sim = Simulation::new(s, Config::default()).expect("starts");
    let estimate = sim.work_estimate(300_000);
    sim.advance(300_000);
    assert_eq!(left(&sim, "orders"), 0);
    let handed: usize = invoked(&sim).iter().map(|c| c.2.len()).sum();
    assert_eq!(handed, 20_000);
    let done = sim.work_done();
    assert!(estimate >= done, "estimated {estimate}, did {done}");
}

#[test]
fn the_snapshot_shows_the_invocations_running_with_their_batches() {
    let lambda = json!({ "handler": { "processing": { "fixedMs": 1_000 } } });
    let sim = run(scenario(orders(), lambda, at_zero(&["a", "b"])), 500);
    let snapshot = sim.snapshot();
    let function = &snapshot.lambdas[0];
    assert_eq!(
        (function.state, function.pollers, function.concurrency),
        ("enabled", 5, 1)
    );
    let running = &function.running[0];
    assert_eq!(
        (running.invocation, running.size, running.messages.len()),
        (1, 2, 2)
    );
    assert_eq!((running.started_at, running.ends_at), (0, 2_000));
    assert_eq!(
        (function.invocations, function.errors, function.throttles),
        (1, 0, 0)
    );
}

#[test]
fn a_batch_of_more_than_10_is_deleted_10_entries_a_call() {
    let bodies: Vec<String> = (0..60).map(|i| format!("order-{i}")).collect();
    let bodies: Vec<&str> = bodies.iter().map(String::as_str).collect();
    let lambda = json!({ "batchSize": 20, "maximumBatchingWindowInSeconds": 10 });
    let sim = run(scenario(orders(), lambda, at_zero(&bodies)), 15_000);
    let sizes: Vec<usize> = invoked(&sim).iter().map(|c| c.2.len()).collect();
    assert_eq!(sizes, [20, 10, 10, 10, 10]);
    // Two calls for the batch of 20, one for each of 10.
    assert_eq!(billed(&sim, Action::DeleteMessageBatch, FUNCTION), 6);
    assert_eq!(left(&sim, "orders"), 0);
}
