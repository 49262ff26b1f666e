//! The basic lessons' scenarios (redrive back, standard versus FIFO,
//! attributes and the size limit, purge, cost), run natively to their end:
//! each teaches what its words say, and its checkpoint's answer for the
//! file's run is pinned.

use std::path::Path;

use queuelab_engine::{Config, EventKind};
use queuelab_simulation::{Kind, LogEvent, Scenario, SimEvent, Simulation};

fn load(file: &str) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/scenarios")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let scenario: Scenario =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    scenario
        .validate()
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    scenario
}

fn run_scenario(scenario: Scenario) -> Simulation {
    let duration = scenario.duration_ms;
    let mut sim = Simulation::new(scenario, Config::default()).expect("scenario loads");
    sim.advance(duration);
    sim
}

fn run(file: &str) -> Simulation {
    run_scenario(load(file))
}

fn events(sim: &Simulation) -> Vec<LogEvent> {
    sim.events(0).collect()
}

/// Prints a scenario's log (`BASICS_LOG=11-redrive-back.json cargo test
/// -p queuelab-simulation --test basics -- --ignored --nocapture`).
#[test]
#[ignore]
fn print_log() {
    let file = std::env::var("BASICS_LOG").unwrap();
    for e in events(&run(&file)) {
        println!(
            "{:>6} {}",
            e.time_ms,
            serde_json::to_string(&e.kind).unwrap()
        );
    }
}

/// The choice the run decided for checkpoint `id` (None: none happened).
fn answer(sim: &Simulation, id: &str) -> Option<u32> {
    let answered = events(sim).into_iter().find_map(|e| match e.kind {
        Kind::Simulation(SimEvent::CheckpointAnswered {
            id: got, choice, ..
        }) if got == id => Some(choice),
        _ => None,
    });
    answered.unwrap_or_else(|| panic!("checkpoint {id} was never answered"))
}

fn narration(sim: &Simulation) -> Vec<String> {
    let lines = events(sim).into_iter().filter_map(|e| match e.kind {
        Kind::Simulation(SimEvent::Narration { text }) => Some(text),
        _ => None,
    });
    lines.collect()
}

fn sqs(sim: &Simulation, pred: impl Fn(&EventKind) -> bool) -> usize {
    let hits = events(sim).into_iter().filter(|e| match &e.kind {
        Kind::Sqs(kind) => pred(kind),
        _ => false,
    });
    hits.count()
}

/// Side effects per body prefix, summed over every message with it (a
/// redriven message is a new message with the same body).
fn charged(sim: &Simulation, body_prefix: &str) -> u64 {
    let effects = sim.side_effects().iter();
    let hits = effects.filter(|s| s.body.starts_with(body_prefix));
    hits.map(|s| s.count).sum()
}

#[test]
fn redriven_orders_succeed_once_the_fix_is_in_and_a_cancelled_task_leaves_the_rest() {
    let sim = run("11-redrive-back.json");
    for n in 1..=5 {
        assert_eq!(charged(&sim, &format!("order A-200{n}")), 1, "A-200{n}");
    }
    let dead = sqs(&sim, |k| {
        matches!(k, EventKind::MovedToDeadLetterQueue { .. })
    });
    let redriven = sqs(&sim, |k| matches!(k, EventKind::Redriven { .. }));
    assert_eq!((dead, redriven), (5, 5));
    // The first task moved at its rate (1 a second) until the cancel;
    // the second moved the rest.
    let ended: Vec<(String, u64)> = events(&sim)
        .into_iter()
        .filter_map(|e| match e.kind {
            Kind::Sqs(EventKind::MoveTaskEnded { status, moved, .. }) => {
                Some((status.to_string(), moved))
            }
            _ => None,
        })
        .collect();
    assert_eq!(ended, [("CANCELLED".into(), 2), ("COMPLETED".into(), 3)]);
    let operator = events(&sim).into_iter().filter(|e| {
        matches!(&e.kind, Kind::Simulation(SimEvent::OperatorCalled { operator, .. }) if &**operator == "ops")
    });
    assert_eq!(operator.count(), 3);
    assert_eq!(narration(&sim).len(), 7, "{:#?}", narration(&sim));
    assert_eq!(answer(&sim, "redrive-fate"), Some(0));
}

#[test]
fn redriving_before_the_fix_sends_the_orders_back_to_the_dead_letter_queue() {
    let mut scenario = load("11-redrive-back.json");
    let window = scenario.consumers[0].behaviour.fails_during_ms.as_mut();
    window.unwrap().end_ms = 20_000;
    let sim = run_scenario(scenario);
    assert_eq!(answer(&sim, "redrive-fate"), Some(1));
    assert_eq!(sim.side_effects().len(), 0);
    let lines = narration(&sim);
    assert!(
        !lines.iter().any(|l| l.contains("charged")),
        "no line says an order was charged: {lines:#?}"
    );
}

#[test]
fn fifo_drops_the_retried_send_that_a_standard_queue_stores_and_still_delivers_a_message_twice() {
    let sim = run("12-standard-vs-fifo.json");
    let dropped = sqs(
        &sim,
        |k| matches!(k, EventKind::DuplicateDropped { queue, .. } if &**queue == "orders.fifo"),
    );
    assert_eq!(dropped, 1);
    let stored = |q: &str| {
        sqs(
            &sim,
            |k| matches!(k, EventKind::Sent { queue, .. } if &**queue == q),
        )
    };
    assert_eq!((stored("orders"), stored("orders.fifo")), (5, 4));
    // Exactly-once is about sends: a FIFO message was still received twice.
    let again = sqs(
        &sim,
        |k| matches!(k, EventKind::Received { queue, receive_count: 2, .. } if &**queue == "orders.fifo"),
    );
    assert!(again >= 1);
    assert_eq!(answer(&sim, "exactly-once"), Some(0));
}

#[test]
fn a_fifo_run_with_a_long_enough_visibility_timeout_answers_no_second_delivery() {
    let mut scenario = load("12-standard-vs-fifo.json");
    scenario.queues[1].visibility_timeout_seconds = Some(30);
    let sim = run_scenario(scenario);
    assert_eq!(answer(&sim, "exactly-once"), Some(1));
    assert!(!narration(&sim).iter().any(|l| l.contains("a second time")));
}

#[test]
fn attributes_count_toward_the_size_limit_and_a_send_too_big_fails_in_sqs_words() {
    let sim = run("13-attributes-and-size.json");
    let failure = events(&sim).into_iter().find_map(|e| match e.kind {
        Kind::Simulation(SimEvent::ActionFailed {
            actor, code, error, ..
        }) => Some((actor.to_string(), code, error)),
        _ => None,
    });
    let (actor, code, error) = failure.expect("a failed send");
    assert_eq!((actor.as_str(), code), ("scanner", "InvalidParameterValue"));
    assert_eq!(
        error,
        "One or more parameters are invalid. Reason: Message must be shorter than 1048576 bytes."
    );
    assert_eq!(charged(&sim, "invoice INV-1"), 1);
    assert_eq!(charged(&sim, "invoice INV-2: s3://"), 1);
    assert_eq!(answer(&sim, "too-big"), Some(0));
    // Chunks of 64 KiB: 300,000 bytes and two attributes are 5, the
    // refused send (billed too: the meter's choice) 17, the pointer 1.
    let sends = sim.engine().meter().lines().find(|(line, _)| {
        line.caller.as_deref() == Some("scanner")
            && line.action == queuelab_engine::Action::SendMessage
    });
    assert_eq!(
        sends.map(|(_, t)| (t.calls, t.requests)),
        Some((3, 5 + 17 + 1))
    );
}

#[test]
fn without_its_attributes_a_body_of_exactly_one_mebibyte_is_accepted() {
    let mut scenario = load("13-attributes-and-size.json");
    scenario.producers[0].sends[1].attributes.clear();
    let sim = run_scenario(scenario);
    assert_eq!(answer(&sim, "too-big"), Some(1));
    assert!(!narration(&sim).iter().any(|l| l.contains("SQS refused")));
}

#[test]
fn a_purge_deletes_in_flight_messages_but_not_the_work_and_a_second_purge_within_60_s_fails() {
    let sim = run("14-purge.json");
    let purged = events(&sim).into_iter().find_map(|e| match e.kind {
        Kind::Sqs(EventKind::QueuePurged { count, .. }) => Some(count),
        _ => None,
    });
    assert_eq!(purged, Some(11));
    let failed = events(&sim).into_iter().find_map(|e| match e.kind {
        Kind::Simulation(SimEvent::ActionFailed { actor, code, .. }) if &*actor == "ops" => {
            Some(code)
        }
        _ => None,
    });
    assert_eq!(failed, Some("AWS.SimpleQueueService.PurgeQueueInProgress"));
    // T-1 done before the purge, T-2 held through it, and the real order after.
    assert_eq!(charged(&sim, "test order"), 2);
    assert_eq!(charged(&sim, "order A-3001"), 1);
    assert_eq!(answer(&sim, "purged-in-flight"), Some(0));
}

#[test]
fn a_purge_of_an_idle_queue_asks_nothing_about_work_in_flight() {
    // A worker fast enough to have emptied the queue: nothing in flight.
    let mut scenario = load("14-purge.json");
    scenario.consumers[0].processing = queuelab_simulation::Processing::FixedMs(10);
    let sim = run_scenario(scenario);
    let asked = events(&sim)
        .into_iter()
        .any(|e| matches!(e.kind, Kind::Simulation(SimEvent::CheckpointAsked { .. })));
    assert!(!asked);
    let lines = narration(&sim);
    assert!(!lines.iter().any(|l| l.contains("anyway")), "{lines:#?}");
}

#[test]
fn short_polling_makes_the_most_empty_receives_and_a_large_payload_is_billed_per_64_kib() {
    let sim = run("15-what-it-costs.json");
    assert_eq!(answer(&sim, "cheapest"), Some(0));
    let report = sim
        .engine()
        .meter()
        .lines()
        .find(|(line, _)| line.caller.as_deref() == Some("reports"));
    assert_eq!(report.map(|(_, t)| (t.calls, t.requests)), Some((1, 4)));
    let bill = sim.snapshot().outcome.bill;
    assert!(bill.requests > 0);
    assert_eq!(
        bill.cost_nano_usd,
        bill.requests * bill.standard_price_nano_usd
    );
}

#[test]
fn long_polling_for_everyone_leaves_the_cost_checkpoint_to_the_run() {
    let mut scenario = load("15-what-it-costs.json");
    scenario.consumers[0].wait_time_seconds = 20;
    let sim = run_scenario(scenario);
    assert_ne!(answer(&sim, "cheapest"), Some(0));
    assert!(!narration(&sim)
        .iter()
        .any(|l| l.contains("more empty receives than anyone")));
}

#[test]
fn an_operator_naming_a_queue_the_scenario_lacks_is_refused_at_its_path() {
    let mut scenario = load("14-purge.json");
    let call = &mut scenario.operators[0].calls[1].call;
    *call = queuelab_simulation::Operation::PurgeQueue {
        queue: "nope".into(),
    };
    let error = scenario.validate().unwrap_err();
    assert_eq!(error.path, "operators[0].calls[1].call.purgeQueue.queue");
}

fn lab(file: &str) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/scenarios/labs")
        .join(file);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_dlq_lab_fails_for_redriving_before_the_fix_and_is_fixed_by_redriving_after_it() {
    use queuelab_simulation::{check_lab, KnobValue, Settings};
    let lab = lab("09-dlq-of-good-orders.json");
    let own = check_lab(&lab, &Settings::new()).unwrap();
    assert!(!own.met);
    let conditions: Vec<&str> = own.failures.iter().map(|f| f.condition.as_str()).collect();
    assert!(conditions.contains(&"processedByMs"), "{conditions:?}");
    assert!(
        own.failures
            .iter()
            .any(|f| f.message.contains("order B-1001")),
        "{:?}",
        own.failures
    );
    let mut after_fix = Settings::new();
    after_fix.insert("moveAt".into(), KnobValue::Int(15_000));
    assert!(check_lab(&lab, &after_fix).unwrap().met);
}

#[test]
fn a_purged_order_whose_handler_fails_is_never_said_to_be_charged_anyway() {
    // The second order handled (held through the purge) fails: the next
    // side effect is the real order, not the purged one.
    let mut scenario = load("14-purge.json");
    scenario.consumers[0].behaviour.fails_every_nth = Some(2);
    let sim = run_scenario(scenario);
    let lines = narration(&sim);
    assert!(!lines.iter().any(|l| l.contains("anyway")), "{lines:#?}");
    assert_eq!(answer(&sim, "purged-in-flight"), Some(2));
    assert_eq!(charged(&sim, "order A-3001"), 1);
}

/// The bodies SNS stored in each queue (their labels), in order.
fn stored_by_topic(sim: &Simulation, queue: &str) -> Vec<String> {
    let sent = events(sim).into_iter().filter_map(|e| match e.kind {
        Kind::Sqs(EventKind::Sent {
            queue: q,
            label,
            by,
            ..
        }) if &*q == queue && by.as_deref() == Some("orders-topic") => Some(label),
        _ => None,
    });
    sent.collect()
}

#[test]
fn the_topic_fans_out_to_three_queues_filters_the_refund_out_of_shipping_and_sends_analytics_the_raw_message(
) {
    let sim = run("16-sns-fan-out.json");
    let filtered: Vec<String> = (events(&sim).into_iter())
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::TopicFilteredOut { queue, .. }) => Some(queue.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(filtered, ["shipping"]);
    let billing = stored_by_topic(&sim, "billing");
    assert_eq!(billing.len(), 3);
    assert!(billing
        .iter()
        .all(|b| b.contains(r#""Type" : "Notification""#)));
    assert_eq!(stored_by_topic(&sim, "shipping").len(), 2);
    let analytics = stored_by_topic(&sim, "analytics");
    assert_eq!(
        analytics,
        [
            "order A-1: 2 books, $30",
            "order A-2: 1 lamp, $45",
            "refund R-1 for A-1: $30"
        ]
    );
    // Every copy was received and deleted by its queue's worker.
    assert_eq!(sqs(&sim, |k| matches!(k, EventKind::Deleted { .. })), 8);
    let told = narration(&sim);
    assert!(
        told.iter()
            .any(|t| t.starts_with("The refund R-1 goes to billing")),
        "{told:?}"
    );
    assert_eq!(told.len(), 5, "{told:?}");
    assert_eq!(answer(&sim, "refund-to-shipping"), Some(1));
}

#[test]
fn only_jpg_images_notify_image_jobs_after_the_test_event_and_each_notice_is_s3_event_json() {
    let sim = run("17-s3-notifications.json");
    let notified: Vec<String> = (events(&sim).into_iter())
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::BucketNotified { key, queue, .. }) => {
                assert_eq!(&*queue, "image-jobs");
                Some(key)
            }
            _ => None,
        })
        .collect();
    assert_eq!(notified, ["images/cat.jpg", "images/raw/sunset.jpg"]);
    // The test event first, then one event per notified key.
    let bodies: Vec<String> = (sim.side_effects().iter())
        .map(|s| s.body.clone())
        .collect();
    assert_eq!(bodies.len(), 3, "{bodies:?}");
    assert!(
        bodies[0].contains(r#""Event":"s3:TestEvent""#),
        "{}",
        bodies[0]
    );
    for (body, key) in bodies[1..].iter().zip(&notified) {
        assert!(
            body.starts_with(r#"{"Records":[{"eventVersion":"2.1""#),
            "{body}"
        );
        assert!(
            body.contains(r#""eventName":"ObjectCreated:Put""#),
            "{body}"
        );
        assert!(body.contains(&format!(r#""key":"{key}""#)), "{body}");
    }
    let told = narration(&sim);
    assert_eq!(told.len(), 6, "{told:?}");
    assert_eq!(answer(&sim, "first-upload"), Some(2));
}
