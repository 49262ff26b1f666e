//! Every scenario the page ships, run natively to its end: each teaches one
//! thing, and these tests hold it to that outcome.

use std::path::Path;

use queuelab_engine::{Config, EventKind};
use queuelab_simulation::{Kind, LogEvent, Narration, Scenario, SimEvent, Simulation};

fn load(file: &str) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/scenarios")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

fn run(file: &str) -> Simulation {
    let scenario = load(file);
    let duration = scenario.duration_ms;
    let mut sim = Simulation::new(scenario, Config::default()).expect("scenario loads");
    sim.advance(duration);
    sim
}

fn events(sim: &Simulation) -> Vec<LogEvent> {
    sim.events(0).collect()
}

fn count(sim: &Simulation, pred: impl Fn(&Kind) -> bool) -> usize {
    events(sim).iter().filter(|e| pred(&e.kind)).count()
}

/// Side-effect counts by body prefix.
fn charged(sim: &Simulation, body_prefix: &str) -> u64 {
    sim.side_effects()
        .iter()
        .filter(|s| s.body.starts_with(body_prefix))
        .map(|s| s.count)
        .sum()
}

fn stored(sim: &Simulation) -> usize {
    sim.engine()
        .snapshot()
        .queues
        .iter()
        .map(|q| q.messages.len())
        .sum()
}

#[test]
fn every_shipped_scenario_loads_and_runs_to_its_end() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/scenarios");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".json") && f.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    files.sort();
    assert_eq!(files.len(), 31, "{files:?}");
    for file in files {
        let sim = run(&file);
        assert!(sim.snapshot().finished, "{file}");
        let untaught = |k: &Kind| match k {
            Kind::Simulation(SimEvent::ActionFailed { action, code, .. }) => {
                !TAUGHT_FAILURES.contains(&(file.as_str(), action, code))
            }
            _ => false,
        };
        assert_eq!(
            count(&sim, untaught),
            0,
            "{file}: a simulated call failed: {:?}",
            events(&sim).iter().find(|e| untaught(&e.kind))
        );
    }
}

/// The failed calls a scenario is about: its file, the action, SQS's code.
const TAUGHT_FAILURES: &[(&str, &str, &str)] = &[
    // A heartbeat past 12 hours from the receive.
    (
        "30-visibility-extender.json",
        "ChangeMessageVisibility",
        "InvalidParameterValue",
    ),
    // One SendMessage an order, past a FIFO queue's 300 a second.
    (
        "31-high-throughput-fifo.json",
        "SendMessage",
        "RequestThrottled",
    ),
    // A FIFO receipt handle expires with its visibility timeout.
    (
        "12-standard-vs-fifo.json",
        "DeleteMessage",
        "InvalidParameterValue",
    ),
    // A message over 1 MiB with its attributes.
    (
        "13-attributes-and-size.json",
        "SendMessage",
        "InvalidParameterValue",
    ),
    // A second purge within 60 s.
    (
        "14-purge.json",
        "PurgeQueue",
        "AWS.SimpleQueueService.PurgeQueueInProgress",
    ),
    // Another account's sends before AddPermission grants it SendMessage.
    ("18-cross-account.json", "SendMessage", "AccessDenied"),
    // Sends to a queue whose KMS key is disabled.
    (
        "20-kms-key-disabled.json",
        "SendMessage",
        "KMS.DisabledException",
    ),
    // A reply to the temporary queue deleted when the wait ended.
    (
        "26-request-response.json",
        "SendMessage",
        "AWS.SimpleQueueService.NonExistentQueue",
    ),
    // A reply queue's name created again within 60 s of its deletion.
    (
        "27-temporary-queues-cost.json",
        "CreateQueue",
        "AWS.SimpleQueueService.QueueDeletedRecently",
    ),
    // 200,000 characters of multibyte text, sent inline, over 262,144 bytes.
    (
        "28-large-payload.json",
        "SendMessage",
        "InvalidParameterValue",
    ),
];

#[test]
fn large_payloads_go_through_the_bucket_and_the_guides_reader_loses_one() {
    let sim = run("28-large-payload.json");
    let sim_event = |pred: &dyn Fn(&SimEvent) -> bool| {
        count(&sim, |k| matches!(k, Kind::Simulation(e) if pred(e)))
    };
    // Four payloads put (report-1, report-3, scan-1, scan-2); report-2 is
    // small and スキャン-3 passes the character test.
    let puts = sim_event(
        &|e| matches!(e, SimEvent::BucketObjectChanged { event_name, .. } if event_name.starts_with("ObjectCreated")),
    );
    assert_eq!(puts, 4);
    // scan-1 came back pointing at nothing, and went to the dead-letter queue.
    assert!(sim_event(&|e| matches!(e, SimEvent::PayloadMissing { .. })) >= 1);
    let dead = count(&sim, |k| {
        matches!(k, Kind::Sqs(EventKind::MovedToDeadLetterQueue { .. }))
    });
    assert_eq!(dead, 1);
    // Every other report was filed, and every object is gone at the end.
    assert_eq!(sim.side_effects().len(), 4, "report-1, 2, 3 and scan-2");
    assert_eq!(sim.snapshot().buckets[0].objects, 0);
}

#[test]
fn process_then_delete_handles_every_order_once() {
    let sim = run("01-process-then-delete.json");
    assert_eq!(sim.side_effects().len(), 4);
    assert!(sim.side_effects().iter().all(|s| s.count == 1));
    assert_eq!(
        count(&sim, |k| matches!(k, Kind::Sqs(EventKind::Deleted { .. }))),
        4
    );
    assert_eq!(stored(&sim), 0);
}

#[test]
fn slow_consumer_gets_a_duplicate_delivery_and_charges_twice() {
    let sim = run("02-slow-consumer-duplicate.json");
    assert_eq!(charged(&sim, "order A-1001"), 2);
    let duplicate = events(&sim)
        .into_iter()
        .find(|e| matches!(e.kind, Kind::Simulation(SimEvent::DuplicateDelivery { .. })))
        .expect("a duplicate delivery");
    assert_eq!(duplicate.time_ms, 2000);
    let Kind::Simulation(SimEvent::DuplicateDelivery {
        consumer,
        receive_count,
        also_held_by,
        ..
    }) = duplicate.kind
    else {
        unreachable!()
    };
    assert_eq!(
        (&*consumer, receive_count, &*also_held_by),
        ("worker-2", 2, "worker-1")
    );
}

#[test]
fn idempotent_consumer_is_delivered_twice_but_charges_once() {
    let sim = run("03-idempotent-consumer.json");
    assert_eq!(
        count(&sim, |k| matches!(
            k,
            Kind::Simulation(SimEvent::DuplicateDelivery { .. })
        )),
        1
    );
    assert_eq!(charged(&sim, "order A-1001"), 1);
    assert_eq!(
        count(&sim, |k| matches!(
            k,
            Kind::Simulation(SimEvent::SkippedAlreadyProcessed { .. })
        )),
        1
    );
}

#[test]
fn heartbeat_prevents_the_second_delivery() {
    let sim = run("04-heartbeat.json");
    assert_eq!(
        count(&sim, |k| matches!(
            k,
            Kind::Simulation(SimEvent::DuplicateDelivery { .. })
        )),
        0
    );
    assert_eq!(
        count(&sim, |k| matches!(k, Kind::Sqs(EventKind::Received { .. }))),
        1
    );
    assert!(
        count(&sim, |k| matches!(
            k,
            Kind::Sqs(EventKind::VisibilityChanged { .. })
        )) >= 3
    );
    assert_eq!(charged(&sim, "order A-1001"), 1);
}

#[test]
fn poison_message_moves_to_the_dlq_after_three_receives_and_the_alarm_fires() {
    let sim = run("05-poison-message.json");
    let failures = count(&sim, |k| {
        matches!(k, Kind::Simulation(SimEvent::ProcessingFailed { .. }))
    });
    assert_eq!(failures, 3);
    assert_eq!(
        count(&sim, |k| matches!(
            k,
            Kind::Sqs(EventKind::MovedToDeadLetterQueue {
                receive_count: 3,
                ..
            })
        )),
        1
    );
    let snapshot = sim.engine().snapshot();
    let dlq = snapshot
        .queues
        .iter()
        .find(|q| q.name == "orders-dlq")
        .unwrap();
    assert_eq!(dlq.messages.len(), 1);
    assert!(dlq.messages[0].body.contains("malformed"));
    assert_eq!(dlq.messages[0].receive_count, 3);
    assert!(sim.snapshot().alarms[0].in_alarm);
    assert_eq!(charged(&sim, "order A-1001"), 1);
    assert_eq!(charged(&sim, "order A-1003"), 1);
}

#[test]
fn fifo_groups_deliver_each_customer_in_order_and_lock_while_the_head_is_in_flight() {
    let sim = run("06-fifo-message-groups.json");
    let order: Vec<String> = sim
        .side_effects()
        .iter()
        .filter(|s| s.body.starts_with('A'))
        .map(|s| s.body[..3].to_string())
        .collect();
    assert_eq!(order, ["A-1", "A-2", "A-3", "A-4"]);
    assert!(sim.side_effects().iter().all(|s| s.count == 1));
    assert!(
        count(&sim, |k| matches!(
            k,
            Kind::Sqs(EventKind::GroupLocked { .. })
        )) >= 6
    );
}

#[test]
fn fifo_deduplication_drops_retries_within_five_minutes_only() {
    let sim = run("07-fifo-deduplication.json");
    assert_eq!(
        count(&sim, |k| matches!(
            k,
            Kind::Sqs(EventKind::DuplicateDropped { .. })
        )),
        2
    );
    assert_eq!(
        charged(&sim, "pay order A-1001"),
        2,
        "once, then again after the window"
    );
    assert_eq!(charged(&sim, "receipt for A-1001"), 1);
}

#[test]
fn short_polling_makes_many_more_empty_receives_than_long_polling() {
    let sim = run("08-long-vs-short-polling.json");
    let empty = |who: &str| {
        count(
            &sim,
            |k| matches!(k, Kind::Sqs(EventKind::EmptyReceive { by: Some(b), .. }) if &**b == who),
        )
    };
    assert_eq!(charged(&sim, "reading"), 12);
    assert!(
        empty("short-poller") > 3 * empty("long-poller").max(1),
        "{} vs {}",
        empty("short-poller"),
        empty("long-poller")
    );
}

#[test]
fn deleting_before_processing_loses_the_order_when_the_worker_crashes() {
    let sim = run("09-delete-before-process.json");
    assert_eq!(
        count(&sim, |k| matches!(
            k,
            Kind::Simulation(SimEvent::MessageLost {
                handler_crashed: true,
                ..
            })
        )),
        1
    );
    assert_eq!(charged(&sim, "order A-1002"), 0);
    assert_eq!(charged(&sim, "order A-1001"), 1);
    assert_eq!(charged(&sim, "order A-1003"), 1);
    assert_eq!(stored(&sim), 0, "nothing left to redeliver");
}

#[test]
fn delayed_messages_wait_and_an_unread_message_expires_at_retention() {
    let sim = run("10-delay-and-retention.json");
    let delivered_at = |label: &str| {
        let id = events(&sim).iter().find_map(|e| match &e.kind {
            Kind::Sqs(EventKind::Sent {
                label: l,
                message_id,
                ..
            }) if l.contains(label) => Some(message_id.to_string()),
            _ => None,
        });
        events(&sim)
            .iter()
            .find(|e| matches!(&e.kind, Kind::Sqs(EventKind::Received { message_id, .. }) if Some(message_id.to_string()) == id))
            .map(|e| e.time_ms)
    };
    assert_eq!(delivered_at("renew subscription"), Some(5_000));
    assert_eq!(delivered_at("pay invoice"), Some(16_000));
    assert_eq!(delivered_at("right away"), Some(2_000));
    let expired = events(&sim)
        .into_iter()
        .find(|e| matches!(e.kind, Kind::Sqs(EventKind::Expired { .. })))
        .unwrap();
    assert_eq!(expired.time_ms, 60_500);
}

#[test]
fn a_scenario_replays_identically() {
    let a = run("06-fifo-message-groups.json");
    let b = run("06-fifo-message-groups.json");
    assert_eq!(events(&a), events(&b));
}

#[test]
fn replaying_in_steps_gives_the_same_run_as_one_advance() {
    let scenario = load("02-slow-consumer-duplicate.json");
    let duration = scenario.duration_ms;
    let mut stepped = Simulation::new(scenario, Config::default()).unwrap();
    // Long polls keep waking the workers forever; step until the end.
    while let Some(t) = stepped.next_event_time().filter(|t| *t <= duration) {
        stepped.advance(t - stepped.now());
    }
    stepped.advance(duration - stepped.now());
    let whole = run("02-slow-consumer-duplicate.json");
    assert_eq!(events(&stepped), events(&whole));
}

#[test]
fn narration_listed_out_of_time_order_is_shown_in_time_order() {
    let mut scenario = load("01-process-then-delete.json");
    let line = |at_ms, text: &str| Narration {
        at_ms,
        text: text.to_string(),
        ..Narration::default()
    };
    scenario.narration = vec![line(500, "third"), line(100, "first"), line(100, "second")];
    let mut sim = Simulation::new(scenario, Config::default()).expect("scenario loads");
    let mut shown = Vec::new();
    for to in [100, 500] {
        sim.advance(to - sim.now());
        shown.push(sim.snapshot().narration);
    }
    let shown: Vec<_> = shown.into_iter().flatten().collect();
    assert_eq!(
        shown,
        ["second", "third"],
        "same-moment lines keep their order; the later one wins"
    );
}

#[test]
fn deleting_before_processing_loses_the_order_when_the_handler_fails() {
    let mut scenario = load("09-delete-before-process.json");
    let behaviour = &mut scenario.consumers[0].behaviour;
    behaviour.crashes_before_side_effect_on.clear();
    behaviour.fails_on = vec!["A-1002".to_string()];
    let duration = scenario.duration_ms;
    let mut sim = Simulation::new(scenario, Config::default()).expect("scenario loads");
    sim.advance(duration);
    let lost: Vec<_> = events(&sim)
        .into_iter()
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::MessageLost {
                handler_crashed, ..
            }) => Some(handler_crashed),
            _ => None,
        })
        .collect();
    assert_eq!(lost, [false], "one message lost, by a failure, not a crash");
    assert_eq!(charged(&sim, "order A-1002"), 0);
    assert_eq!(stored(&sim), 0, "nothing left to redeliver");
}

#[test]
fn the_snapshot_counts_each_producers_sends_and_its_deduplicated_retries() {
    let sim = run("07-fifo-deduplication.json");
    let counts: Vec<(String, u64, u64, u64)> = sim
        .snapshot()
        .producers
        .into_iter()
        .map(|p| (p.name, p.sent, p.deduplicated, p.failed))
        .collect();
    let producers = &sim.scenario().producers;
    assert_eq!(counts.len(), 2);
    // The payment retry at 3 s is dropped, the one after 5 minutes is not;
    // the second identical receipt is dropped by content-based deduplication.
    assert_eq!(counts[0], (producers[0].name.clone(), 2, 1, 0));
    assert_eq!(counts[1], (producers[1].name.clone(), 1, 1, 0));
}

#[test]
fn sends_fail_while_the_queues_kms_key_is_disabled_and_succeed_once_it_is_enabled() {
    let sim = run("20-kms-key-disabled.json");
    let mut sent = Vec::new();
    let mut failed = Vec::new();
    for e in events(&sim) {
        match e.kind {
            Kind::Sqs(EventKind::Sent { .. }) => sent.push(e.time_ms),
            Kind::Simulation(SimEvent::ActionFailed { action, code, .. }) => {
                failed.push((e.time_ms, action, code))
            }
            _ => {}
        }
    }
    // The key is disabled at 4.5 s and enabled at 8.5 s.
    assert_eq!(sent, [0, 1000, 2000, 3000, 4000, 9000, 10_000, 11_000]);
    assert_eq!(
        failed,
        [5000, 6000, 7000, 8000].map(|t| (t, "SendMessage", "KMS.DisabledException"))
    );
    let shown = narration(&sim);
    assert!(
        shown.iter().any(|t| t.contains("KMS.DisabledException")),
        "{shown:?}"
    );
    assert!(
        shown
            .iter()
            .any(|t| t.starts_with("With the key enabled again")),
        "{shown:?}"
    );
}

/// The narration lines a run showed, in order.
fn narration(sim: &Simulation) -> Vec<String> {
    events(sim)
        .into_iter()
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::Narration { text }) => Some(text),
            _ => None,
        })
        .collect()
}

#[test]
fn a_60_s_data_key_reuse_period_makes_more_kms_requests_than_24_hours_for_the_same_traffic() {
    let sim = run("19-sse-kms-costs.json");
    let mut by_queue = std::collections::BTreeMap::<String, Vec<u64>>::new();
    for e in events(&sim) {
        if let Kind::Sqs(EventKind::KmsRequested { queue, .. }) = e.kind {
            by_queue
                .entry(queue.to_string())
                .or_default()
                .push(e.time_ms);
        }
    }
    let count = |q: &str| by_queue.get(q).map_or(0, Vec::len);
    // Each data key reuse period's first send and receive call KMS three
    // times: three 60 s periods in 3 minutes, one period of 24 hours.
    assert_eq!(
        (count("orders-1min"), count("orders-1day")),
        (9, 3),
        "{by_queue:?}"
    );
    let bill = sim.snapshot().outcome.bill;
    assert_eq!(bill.kms_requests, 12);
    let shown = narration(&sim);
    assert!(
        shown
            .iter()
            .any(|t| t.contains("orders-1min made 9 KMS requests")),
        "{shown:?}"
    );
}

#[test]
fn another_accounts_sends_are_refused_until_add_permission_grants_send_message() {
    let sim = run("18-cross-account.json");
    let mut decided = Vec::new();
    let mut sent = Vec::new();
    let mut failed = Vec::new();
    for e in events(&sim) {
        match e.kind {
            Kind::Sqs(EventKind::AccessDecided { by, allowed, .. }) => {
                decided.push((e.time_ms, by.as_deref().map(str::to_string), allowed))
            }
            Kind::Sqs(EventKind::Sent { .. }) => sent.push(e.time_ms),
            Kind::Sqs(EventKind::PermissionAdded { by, .. }) => {
                assert_eq!((e.time_ms, by.as_deref()), (4500, Some("ops")))
            }
            Kind::Simulation(SimEvent::ActionFailed { actor, code, .. }) => {
                failed.push((e.time_ms, actor.to_string(), code))
            }
            _ => {}
        }
    }
    let partner = |at: u64, allowed| (at, Some("partner".to_string()), allowed);
    let refused = [1000, 2000, 3000, 4000].map(|t| partner(t, false));
    let allowed = [5000, 6000, 7000, 8000].map(|t| partner(t, true));
    assert_eq!(decided, [refused, allowed].concat());
    assert_eq!(sent, [5000, 6000, 7000, 8000]);
    let denied = [1000, 2000, 3000, 4000].map(|t| (t, "partner".to_string(), "AccessDenied"));
    assert_eq!(failed, denied);
    let shown = narration(&sim);
    assert!(
        shown
            .iter()
            .any(|t| t.starts_with("partner's send was refused: AccessDenied.")),
        "{shown:?}"
    );
    assert!(
        shown
            .iter()
            .any(|t| t.starts_with("ops's AddPermission added a statement")),
        "{shown:?}"
    );
}

/// Each message's body (its label) by id, from the run's sends.
fn bodies(sim: &Simulation) -> std::collections::BTreeMap<String, String> {
    events(sim)
        .into_iter()
        .filter_map(|e| match e.kind {
            Kind::Sqs(EventKind::Sent {
                message_id, label, ..
            }) => Some((message_id.to_string(), label)),
            _ => None,
        })
        .collect()
}

/// How many times `function` charged the message whose body starts with `prefix`.
fn charged_by(sim: &Simulation, function: &str, prefix: &str) -> usize {
    sim.side_effects()
        .iter()
        .filter(|s| s.body.starts_with(prefix))
        .map(|s| s.by.iter().filter(|b| *b == function).count())
        .sum()
}

/// The bodies of the messages stored in `queue` now, sorted.
fn stored_in(sim: &Simulation, queue: &str) -> Vec<String> {
    let snapshot = sim.engine().snapshot();
    let q = snapshot.queues.iter().find(|q| q.name == queue).unwrap();
    let mut out: Vec<String> = q.messages.iter().map(|m| m.body.clone()).collect();
    out.sort();
    out
}

/// Each `lambdaReturned` of `function`: its result and the bodies that return.
fn returned(sim: &Simulation, function: &str) -> Vec<(&'static str, Vec<String>)> {
    let bodies = bodies(sim);
    events(sim)
        .into_iter()
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::LambdaReturned {
                function: f,
                result,
                failed,
                ..
            }) if &*f == function => {
                let failed = failed.iter().map(|id| bodies[id][..9].to_string());
                Some((result, failed.collect()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn without_report_batch_item_failures_the_whole_batch_returns_and_its_successes_are_charged_twice()
{
    let sim = run("21-lambda-partial-batch.json");
    let all = ["order A-1", "order A-2", "order A-3", "order A-4"].map(String::from);
    // Without it: the error returns all four, twice; the good orders are
    // charged twice and dead-lettered with the bad one.
    assert_eq!(
        returned(&sim, "charge-plain"),
        [("error", all.to_vec()), ("error", all.to_vec())]
    );
    for n in [1, 2, 4] {
        let (a, b) = (format!("order A-{n}"), format!("order B-{n}"));
        assert_eq!(charged_by(&sim, "charge-plain", &a), 2, "{a}");
        assert_eq!(charged_by(&sim, "charge-rbif", &b), 1, "{b}");
    }
    assert_eq!(charged_by(&sim, "charge-plain", "order A-3"), 0);
    assert_eq!(stored_in(&sim, "plain-dlq").len(), 4);
    // With it: only B-3 returns, and only B-3 is dead-lettered.
    let b3 = vec!["order B-3".to_string()];
    assert_eq!(
        returned(&sim, "charge-rbif"),
        [("partial", b3.clone()), ("partial", b3)]
    );
    let rbif_dlq = stored_in(&sim, "rbif-dlq");
    assert_eq!(rbif_dlq.len(), 1);
    assert!(rbif_dlq[0].starts_with("order B-3"));
    let shown = narration(&sim);
    assert!(
        shown.iter().any(|t| t.starts_with("The batch is back")),
        "{shown:?}"
    );
}

#[test]
fn lambda_pollers_start_at_five_and_rise_to_maximum_concurrency_while_a_backlog_lasts() {
    let sim = run("22-lambda-scaling.json");
    let mut scaled = vec![];
    // Invocations running at once: +1 when handed over, -1 when returned.
    let mut running: i64 = 0;
    let mut most_before_scaling = 0;
    let mut most = 0;
    for e in events(&sim) {
        match e.kind {
            Kind::Simulation(SimEvent::LambdaScaled { pollers, .. }) => {
                scaled.push((e.time_ms, pollers))
            }
            Kind::Simulation(SimEvent::LambdaInvoked { .. }) => running += 1,
            Kind::Simulation(SimEvent::LambdaReturned { .. }) => running -= 1,
            _ => {}
        }
        most = most.max(running);
        if scaled.is_empty() {
            most_before_scaling = most;
        }
    }
    // A minute of backlog scales to MaximumConcurrency; an empty queue
    // (every order in flight or done) back to five.
    assert_eq!(scaled, [(60_000, 10), (120_000, 5)]);
    assert_eq!(most_before_scaling, 5);
    assert_eq!(most, 10);
    assert_eq!(charged(&sim, "order "), 300);
    assert_eq!(stored(&sim), 0);
}

#[test]
fn a_failed_record_holds_its_fifo_group_and_the_groups_later_records_return_with_it() {
    let sim = run("23-lambda-fifo.json");
    let back = returned(&sim, "ledger");
    // A-2 failed, and A-3 (never run) returns with it, twice; customer-B's
    // records are never returned.
    let group_a = vec!["A-2: cust".to_string(), "A-3: cust".to_string()];
    assert_eq!(back[0], ("partial", group_a.clone()));
    assert_eq!(back.last().unwrap(), &("partial", group_a));
    assert!(back
        .iter()
        .all(|(_, f)| f.iter().all(|b| b.starts_with('A'))));
    // customer-B goes on while customer-A waits: B-3 is booked before
    // A-2's visibility timeout (6 s) ends.
    let bodies = bodies(&sim);
    let booked: Vec<(u64, String)> = events(&sim)
        .into_iter()
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::SideEffectPerformed { message_id, .. }) => {
                Some((e.time_ms, bodies[&message_id][..3].to_string()))
            }
            _ => None,
        })
        .collect();
    let order: Vec<&str> = booked.iter().map(|(_, b)| b.as_str()).collect();
    assert_eq!(order, ["A-1", "B-1", "B-2", "B-3", "B-4"]);
    assert!(booked[3].0 < 6000, "{booked:?}");
    let dlq = stored_in(&sim, "orders-dlq.fifo");
    assert_eq!(dlq.len(), 2);
    assert!(dlq[0].starts_with("A-2") && dlq[1].starts_with("A-3"));
}

#[test]
fn the_guides_three_alarms_go_to_alarm_and_back_to_ok() {
    let sim = run("24-cloudwatch-alarms.json");
    let mut changes: std::collections::BTreeMap<String, Vec<(u64, &str)>> = Default::default();
    let mut fix = None;
    for e in events(&sim) {
        match e.kind {
            Kind::Simulation(SimEvent::AlarmChanged { alarm, to, .. }) => changes
                .entry(alarm.to_string())
                .or_default()
                .push((e.time_ms, to.word())),
            Kind::Sqs(EventKind::Received { by: Some(by), .. }) if &*by == "worker-v2" => {
                fix.get_or_insert(e.time_ms);
            }
            _ => {}
        }
    }
    let fix = fix.expect("worker-v2 receives");
    for (alarm, states) in &changes {
        let words: Vec<&str> = states.iter().map(|(_, s)| *s).collect();
        assert_eq!(words, ["OK", "ALARM", "OK"], "{alarm}");
    }
    assert_eq!(changes.len(), 3);
    let at = |alarm: &str, i: usize| changes[alarm][i].0;
    // The DLQ alarm fires within a minute of the poison order's move.
    assert!(at("dlq-not-empty", 1) <= 4 * 60_000);
    // Backlog: three 5-minute periods above 1,000 (reached at ~18 min).
    assert_eq!(at("backlog", 1), 35 * 60_000);
    // The oldest order passes an hour before the fix; both recover after it.
    assert!(at("old-messages", 1) > 61 * 60_000 && at("old-messages", 1) < fix);
    assert!(at("backlog", 2) > fix && at("old-messages", 2) > fix);
    assert!(at("dlq-not-empty", 2) > fix);
    // The fix drains orders, and the redriven order is processed too.
    assert_eq!(stored(&sim), 0);
    assert_eq!(charged(&sim, "order X-1"), 1);
}

#[test]
fn custom_metrics_alarms_catch_a_failed_order_and_slow_processing_that_sqs_metrics_cannot() {
    let sim = run("25-custom-metrics.json");
    let mut changes: Vec<(u64, String, &str)> = Vec::new();
    for e in events(&sim) {
        if let Kind::Simulation(SimEvent::AlarmChanged { alarm, to, .. }) = e.kind {
            changes.push((e.time_ms, alarm.to_string(), to.word()));
        }
    }
    let of = |name: &str| -> Vec<(u64, &str)> {
        (changes.iter())
            .filter(|(_, a, _)| a == name)
            .map(|(t, _, s)| (*t, *s))
            .collect()
    };
    // Order X fails at ~10 s: its period's Minimum ProcessingSuccess is 0.
    assert_eq!(
        of("processing-failures"),
        [(10_000, "OK"), (20_000, "ALARM"), (30_000, "OK")]
    );
    // worker-slow from 40 s: two periods of 1.5 s orders.
    assert_eq!(of("slow-processing"), [(10_000, "OK"), (60_000, "ALARM")]);
    assert_eq!(stored_in(&sim, "orders-dlq").len(), 1);
    let shown = narration(&sim);
    assert!(
        shown
            .iter()
            .any(|t| t.starts_with("slow-processing goes to ALARM")),
        "{shown:?}"
    );
}
