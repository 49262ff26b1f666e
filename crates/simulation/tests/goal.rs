//! Each goal condition on a tiny lab, held and broken, with the sentence a
//! learner reads ("with seed 1, order A-1001 was charged twice at t = 5 s
//! (by worker-1, then worker-2)"). The runs use fixed processing times, so
//! every moment below follows from the scenario by hand.

use queuelab_simulation::{check_lab, run_seed, Scenario, Settings};
use serde_json::{json, Value};

/// A lab: queue `orders` (visibility `visibility` s, plus `orders-dlq`),
/// producer `shop` with `sends`, the given consumers and goal.
fn lab(visibility: i64, sends: Value, consumers: Value, goal: Value, duration: u64) -> Scenario {
    serde_json::from_value(json!({
        "title": "t",
        "durationMs": duration,
        "queues": [
            { "name": "orders-dlq" },
            { "name": "orders", "visibilityTimeoutSeconds": visibility }
        ],
        "producers": [{ "name": "shop", "queue": "orders", "sends": sends }],
        "consumers": consumers,
        "goal": goal
    }))
    .expect("a lab")
}

fn worker(name: &str, ms: u64, extra: Value) -> Value {
    let mut w = json!({ "name": name, "queue": "orders", "waitTimeSeconds": 20,
                        "processing": { "fixedMs": ms } });
    for (k, v) in extra.as_object().unwrap() {
        w[k] = v.clone();
    }
    w
}

fn one_order() -> Value {
    json!([{ "atMs": 0, "body": "order A-1001: charge $25" }])
}

/// The first breach of seed 1, as (condition, atMs, sentence), or None.
fn first_breach(s: &Scenario) -> Option<(String, u64, String)> {
    let (failure, _) = run_seed(s, 1).expect("runs");
    failure.map(|f| (f.condition, f.at_ms, f.message))
}

/// Two workers, each 3 s per order, under a visibility timeout of `v` s.
fn slow_pair(v: i64, goal: Value) -> Scenario {
    let workers = json!([
        worker("worker-1", 3000, json!({})),
        worker("worker-2", 3000, json!({}))
    ]);
    lab(v, one_order(), workers, goal, 20_000)
}

#[test]
fn side_effects_at_most_breaks_at_the_second_charge() {
    let goal = json!({ "sideEffectsAtMost": 1 });
    assert_eq!(
        first_breach(&slow_pair(2, goal.clone())),
        Some((
            "sideEffectsAtMost".into(),
            5000,
            "with seed 1, order A-1001 was charged twice at t = 5 s (by worker-1, then worker-2)"
                .into()
        ))
    );
    assert_eq!(first_breach(&slow_pair(10, goal)), None);
}

#[test]
fn no_duplicate_delivery_breaks_when_a_held_message_is_received_again() {
    let goal = json!({ "noDuplicateDelivery": true });
    assert_eq!(
        first_breach(&slow_pair(2, goal.clone())),
        Some((
            "noDuplicateDelivery".into(),
            2000,
            "with seed 1, order A-1001 was delivered to worker-2 at t = 2 s while worker-1 was \
             still processing it"
                .into()
        ))
    );
    assert_eq!(first_breach(&slow_pair(10, goal)), None);
}

#[test]
fn an_idempotent_skip_is_not_a_second_side_effect() {
    let workers = json!([
        worker(
            "worker-1",
            3000,
            json!({ "behaviour": { "idempotent": true } })
        ),
        worker(
            "worker-2",
            3000,
            json!({ "behaviour": { "idempotent": true } })
        )
    ]);
    let s = lab(
        2,
        one_order(),
        workers,
        json!({ "sideEffectsAtMost": 1 }),
        20_000,
    );
    assert_eq!(first_breach(&s), None);
}

#[test]
fn side_effects_exactly_breaks_at_the_end_for_a_message_never_processed() {
    let sends = json!([
        { "atMs": 0, "body": "order A-1001: charge $25" },
        { "atMs": 0, "body": "order A-1002: charge $30" }
    ]);
    let failing = json!([worker(
        "worker-1",
        100,
        json!({ "behaviour": { "failsOn": ["A-1002"] } })
    )]);
    let s = lab(
        30,
        sends.clone(),
        failing,
        json!({ "sideEffectsExactly": 1 }),
        10_000,
    );
    assert_eq!(
        first_breach(&s),
        Some((
            "sideEffectsExactly".into(),
            10_000,
            "with seed 1, order A-1002 was charged 0 times by the end (t = 10 s), not once".into()
        ))
    );
    let fine = json!([worker("worker-1", 100, json!({}))]);
    let s = lab(30, sends, fine, json!({ "sideEffectsExactly": 1 }), 10_000);
    assert_eq!(first_breach(&s), None);
}

#[test]
fn none_lost_breaks_when_a_message_deleted_first_is_never_processed() {
    let lose = json!({ "behaviour": { "deletesBeforeProcessing": true,
                                      "crashesBeforeSideEffectOn": ["A-1001"] } });
    let s = lab(
        30,
        one_order(),
        json!([worker("worker-1", 1000, lose)]),
        json!({ "noneLost": true }),
        10_000,
    );
    let (condition, _, text) = first_breach(&s).expect("a breach");
    assert_eq!(condition, "noneLost");
    assert!(
        text.starts_with("with seed 1, order A-1001 was lost at t = ")
            && text.ends_with(": worker-1 deleted it before processing, then its handler crashed"),
        "{text}"
    );
    let keep = json!({ "behaviour": { "deletesBeforeProcessing": true } });
    let s = lab(
        30,
        one_order(),
        json!([worker("worker-1", 1000, keep)]),
        json!({ "noneLost": true }),
        10_000,
    );
    assert_eq!(first_breach(&s), None);
}

#[test]
fn none_lost_breaks_when_a_message_expires_before_it_is_processed() {
    // A-1002 always fails and `orders` keeps a message 60 s: it is
    // received again and again, never processed, and expires at 60 s.
    let sends = json!([
        { "atMs": 0, "body": "order A-1001: charge $25" },
        { "atMs": 0, "body": "order A-1002: charge $30" }
    ]);
    let failing = json!([worker(
        "worker-1",
        100,
        json!({ "behaviour": { "failsOn": ["A-1002"] } })
    )]);
    let expiring = |goal: Value, duration: u64| {
        let mut s = lab(1, sends.clone(), failing.clone(), goal, duration);
        s.queues[1].message_retention_period_seconds = Some(60);
        s
    };
    assert_eq!(
        first_breach(&expiring(json!({ "noneLost": true }), 70_000)),
        Some((
            "noneLost".into(),
            60_000,
            "with seed 1, order A-1002 expired at t = 60 s: its retention period ended before \
             it was processed"
                .into()
        ))
    );
    // A run that ends before the retention period does loses nothing.
    assert_eq!(
        first_breach(&expiring(json!({ "noneLost": true }), 50_000)),
        None
    );
    // A message the lab calls poison (meant to fail) expiring is not a
    // loss: the first breach is the poison's missing dead-letter queue at
    // the end, not noneLost at 60 s.
    let poison = json!({ "noneLost": true, "poison": ["A-1002"], "deadLetterQueue": "orders-dlq" });
    let (condition, at_ms, _) = first_breach(&expiring(poison, 70_000)).expect("a breach");
    assert_eq!((condition.as_str(), at_ms), ("deadLetterQueue", 70_000));
}

/// `orders` with a redrive to `orders-dlq` after `max` receives (or none).
fn with_redrive(mut s: Scenario, max: Option<i64>) -> Scenario {
    s.queues[1].redrive = max.map(|m| queuelab_simulation::Redrive {
        dead_letter_queue: "orders-dlq".into(),
        max_receive_count: m,
    });
    s
}

fn poison_lab(max: Option<i64>) -> Scenario {
    let sends = json!([
        { "atMs": 0, "body": "order A-1001: charge $25" },
        { "atMs": 0, "body": "order A-1002: {malformed json" }
    ]);
    let w = json!([worker(
        "worker-1",
        100,
        json!({ "behaviour": { "failsOn": ["malformed", "A-1001"] } })
    )]);
    let goal = json!({ "poison": ["malformed"], "deadLetterQueue": "orders-dlq" });
    with_redrive(lab(1, sends, w, goal, 10_000), max)
}

#[test]
fn dead_letter_queue_breaks_when_a_healthy_message_is_moved_there() {
    let (condition, _, text) = first_breach(&poison_lab(Some(2))).expect("a breach");
    assert_eq!(condition, "deadLetterQueue");
    assert!(
        text.starts_with(
            "with seed 1, order A-1001 (not a poison message) was moved to orders-dlq at t = "
        ) && text.ends_with(" after 2 receives"),
        "{text}"
    );
}

#[test]
fn dead_letter_queue_breaks_when_the_poison_message_never_gets_there() {
    let (condition, at, text) = first_breach(&poison_lab(None)).expect("a breach");
    assert_eq!((condition.as_str(), at), ("deadLetterQueue", 10_000));
    assert!(
        text.starts_with(
            "with seed 1, there is no dead-letter queue: order A-1002 (poison) was received "
        ) && text.ends_with(" by the end (t = 10 s)"),
        "{text}"
    );
}

#[test]
fn dead_letter_queue_holds_when_exactly_the_poison_message_moves() {
    let sends = json!([
        { "atMs": 0, "body": "order A-1001: charge $25" },
        { "atMs": 0, "body": "order A-1002: {malformed json" }
    ]);
    let w = json!([worker(
        "worker-1",
        100,
        json!({ "behaviour": { "failsOn": ["malformed"] } })
    )]);
    let goal = json!({ "poison": ["malformed"], "deadLetterQueue": "orders-dlq", "sideEffectsExactly": 1 });
    let s = with_redrive(lab(1, sends, w, goal, 10_000), Some(2));
    assert_eq!(first_breach(&s), None);
}

#[test]
fn oldest_age_breaks_when_a_message_waits_past_the_limit() {
    let sends = json!([
        { "atMs": 0, "body": "order A-1001: charge $25" },
        { "atMs": 0, "body": "order A-1002: charge $30" },
        { "atMs": 0, "body": "order A-1003: charge $35" }
    ]);
    let one = json!([worker("worker-1", 3000, json!({}))]);
    let goal = json!({ "oldestAge": { "queue": "orders", "atMostSeconds": 5 } });
    let s = lab(30, sends.clone(), one, goal.clone(), 20_000);
    assert_eq!(
        first_breach(&s),
        Some((
            "oldestAge".into(),
            5000,
            "with seed 1, order A-1002 waited in orders longer than 5 s: it entered at t = 0 s \
             and was still there at t = 5 s"
                .into()
        ))
    );
    let three = json!([
        worker("worker-1", 3000, json!({})),
        worker("worker-2", 3000, json!({})),
        worker("worker-3", 3000, json!({}))
    ]);
    assert_eq!(first_breach(&lab(30, sends, three, goal, 20_000)), None);
}

/// One short-polling worker with nothing to receive: an empty receive
/// (a billed request) every second from 0 to 9 s, 10 in all (the end is
/// judged as time reaches durationMs, before anything acts then, as the
/// story's `atEnd` lines are).
fn idle(goal: Value) -> Scenario {
    let w = json!([{ "name": "worker-1", "queue": "orders", "pollIntervalMs": 1000,
                     "processing": { "fixedMs": 100 } }]);
    lab(30, json!([]), w, goal, 10_000)
}

#[test]
fn empty_receives_at_most_breaks_at_the_one_past_the_limit() {
    assert_eq!(
        first_breach(&idle(json!({ "emptyReceivesAtMost": 5 }))),
        Some((
            "emptyReceivesAtMost".into(),
            5000,
            "with seed 1, the consumers' 6th empty receive came at t = 5 s (goal: at most 5); \
             10 by the end"
                .into()
        ))
    );
    assert_eq!(
        first_breach(&idle(json!({ "emptyReceivesAtMost": 10 }))),
        None
    );
}

#[test]
fn requests_at_most_counts_billed_requests() {
    assert_eq!(
        first_breach(&idle(json!({ "requestsAtMost": 5 }))),
        Some((
            "requestsAtMost".into(),
            5000,
            "with seed 1, the run passed 5 requests at t = 5 s (10 by the end: 10 ReceiveMessage)"
                .into()
        ))
    );
    assert_eq!(first_breach(&idle(json!({ "requestsAtMost": 10 }))), None);
}

#[test]
fn cost_at_most_prices_requests_at_the_standard_rate() {
    // 10 requests at $0.40 per million: $0.000004; 10 s of it for 30 days: $1.03.
    assert_eq!(
        first_breach(&idle(json!({ "costAtMostMicroUsd": 2 }))),
        Some((
            "costAtMostMicroUsd".into(),
            5000,
            "with seed 1, the requests cost $0.0000024 by t = 5 s (goal: at most $0.000002); at \
             this rate for 30 days: $1.03"
                .into()
        ))
    );
    assert_eq!(
        first_breach(&idle(json!({ "costAtMostMicroUsd": 4 }))),
        None
    );
}

fn customer_orders(consumers: Value) -> Scenario {
    let sends = json!([
        { "atMs": 0, "body": "order C-1 #1: boots", "attributes": { "customer": "C-1" } },
        { "atMs": 100, "body": "order C-1 #2: laces", "attributes": { "customer": "C-1" } }
    ]);
    lab(
        30,
        sends,
        consumers,
        json!({ "orderKeptPer": "customer" }),
        10_000,
    )
}

#[test]
fn order_kept_per_breaks_when_a_later_message_is_processed_first() {
    let two = json!([
        worker("worker-1", 3000, json!({ "sideEffect": "shipped" })),
        worker("worker-2", 500, json!({ "sideEffect": "shipped" }))
    ]);
    assert_eq!(
        first_breach(&customer_orders(two)),
        Some((
            "orderKeptPer".into(),
            600,
            "with seed 1, customer C-1's order C-1 #2 was shipped at t = 0.6 s before its order \
             C-1 #1 (not shipped yet)"
                .into()
        ))
    );
    let one = json!([worker("worker-1", 500, json!({ "sideEffect": "shipped" }))]);
    assert_eq!(first_breach(&customer_orders(one)), None);
}

#[test]
fn processed_by_breaks_for_a_message_still_invisible_after_a_failure() {
    let fails = json!([worker(
        "worker-1",
        100,
        json!({ "behaviour": { "failsOn": ["A-1001"] } })
    )]);
    let s = lab(
        30,
        one_order(),
        fails,
        json!({ "processedByMs": 10000 }),
        20_000,
    );
    assert_eq!(
        first_breach(&s),
        Some((
            "processedByMs".into(),
            10_000,
            "with seed 1, order A-1001 was not charged by t = 10 s: its last receive was at \
             t = 0 s, and it was invisible until t = 30 s"
                .into()
        ))
    );
    let fine = json!([worker("worker-1", 100, json!({}))]);
    let s = lab(
        30,
        one_order(),
        fine,
        json!({ "processedByMs": 10000 }),
        20_000,
    );
    assert_eq!(first_breach(&s), None);
}

#[test]
fn the_earliest_breach_of_a_seed_is_the_one_reported() {
    // The duplicate delivery (2 s) comes before the second charge (5 s).
    let s = slow_pair(
        2,
        json!({ "sideEffectsAtMost": 1, "noDuplicateDelivery": true }),
    );
    assert_eq!(
        first_breach(&s).map(|(c, at, _)| (c, at)),
        Some(("noDuplicateDelivery".into(), 2000))
    );
}

#[test]
fn check_my_fix_runs_every_seed_and_lists_failures_in_seed_order() {
    let mut s = slow_pair(2, json!({ "sideEffectsAtMost": 1 }));
    s.knobs = serde_json::from_value(json!([{ "id": "visibility", "label": "Visibility timeout",
        "target": { "visibilityTimeoutSeconds": { "queue": "orders" } }, "min": 1, "max": 60 }]))
    .unwrap();
    let broken = check_lab(&s, &Settings::new()).expect("checked");
    assert!(!broken.met);
    assert_eq!(broken.seeds, (1..=12).collect::<Vec<u64>>());
    let seeds: Vec<u64> = broken.failures.iter().map(|f| f.seed).collect();
    assert_eq!(seeds, broken.seeds, "fixed times fail every seed");
    assert!(
        broken
            .summary
            .starts_with("Not met on 12 of 12 seeds. First: with seed 1, order A-1001"),
        "{}",
        broken.summary
    );
    let fixed: Settings = serde_json::from_value(json!({ "visibility": 10 })).unwrap();
    let report = check_lab(&s, &fixed).expect("checked");
    assert!(report.met, "{report:?}");
    assert_eq!(
        report.summary,
        "Met over 12 seeds: no message charged more than once."
    );
    // The same check twice gives the same report.
    assert_eq!(check_lab(&s, &Settings::new()).unwrap(), broken);
    // A setting outside the knob is refused before anything runs.
    let wrong: Settings = serde_json::from_value(json!({ "visibility": 0 })).unwrap();
    assert_eq!(
        check_lab(&s, &wrong).unwrap_err().to_string(),
        "settings.visibility must be a whole number of seconds from 1 to 60, got 0"
    );
}

#[test]
fn a_goal_changes_nothing_in_the_run_itself() {
    // The same scenario with and without a goal logs the same events.
    let with = slow_pair(2, json!({ "sideEffectsAtMost": 1, "requestsAtMost": 3 }));
    let mut without = with.clone();
    without.goal = None;
    let log = |s: Scenario| {
        let mut sim = queuelab_simulation::Simulation::new(s, Default::default()).unwrap();
        sim.advance(20_000);
        serde_json::to_string(&sim.events(0).collect::<Vec<_>>()).unwrap()
    };
    assert_eq!(log(with), log(without));
}

#[test]
fn the_goals_conditions_read_as_sentences_in_a_fixed_order() {
    let goal = json!({
        "processedByMs": 9000, "sideEffectsAtMost": 1, "poison": ["malformed"],
        "deadLetterQueue": "orders-dlq", "oldestAge": { "queue": "orders", "atMostSeconds": 5 },
        "costAtMostMicroUsd": 80
    });
    let s = lab(
        30,
        one_order(),
        json!([worker("worker-1", 100, json!({}))]),
        goal,
        10_000,
    );
    let texts: Vec<(String, String)> = s
        .goal
        .as_ref()
        .unwrap()
        .conditions(&s)
        .into_iter()
        .map(|c| (c.id, c.text))
        .collect();
    let expected = [
        ("deadLetterQueue", "Exactly the poison messages (malformed) end in orders-dlq"),
        ("sideEffectsAtMost", "Each message is charged at most once (malformed ones left out)"),
        ("oldestAge", "No message waits more than 5 s in orders (the age of the oldest message, as CloudWatch's ApproximateAgeOfOldestMessage shows it)"),
        ("costAtMostMicroUsd", "Requests cost at most $0.000080 at SQS's list price"),
        ("processedByMs", "Every message is charged by t = 9 s (malformed ones left out)"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(texts, expected);
}

/// A reminder due at 06:20 (20 minutes after the run starts at 06:00),
/// sent at 0 with DelaySeconds 900, and one worker with `behaviour`.
fn reminder_lab(behaviour: Value, goal: Value) -> Scenario {
    serde_json::from_value(json!({
        "title": "t", "durationMs": 1_500_000, "startEpochMs": 1_796_364_000_000u64,
        "queues": [{ "name": "reminders" }],
        "schedule": [{ "name": "app", "queue": "reminders", "sends": [
            { "atMs": 0, "body": "reminder R-1: standup", "delaySeconds": 900,
              "attributes": { "DeliverAt": "2026-12-04T06:20:00Z" } }
        ]}],
        "consumers": [{ "name": "reminder-service", "queue": "reminders", "waitTimeSeconds": 20,
                        "processing": { "fixedMs": 100 }, "sideEffect": "reminded",
                        "behaviour": behaviour }],
        "goal": goal
    }))
    .expect("a lab")
}

#[test]
fn not_handled_before_breaks_when_a_message_is_handled_before_its_due_time() {
    let goal = json!({ "notHandledBefore": "DeliverAt" });
    assert_eq!(
        first_breach(&reminder_lab(json!({}), goal)),
        Some((
            "notHandledBefore".into(),
            900_100,
            "with seed 1, reminder R-1 was reminded at t = 900.1 s by reminder-service, 5 min \
             before its DeliverAt (2026-12-04T06:20:00.000Z)"
                .into()
        ))
    );
}

#[test]
fn not_handled_before_holds_for_a_message_re_delayed_until_due_and_handled_once() {
    // The re-sent reminder is the same message to the goal: handled once,
    // at its time, though the first copy was deleted unhandled.
    let goal = json!({ "notHandledBefore": "DeliverAt", "sideEffectsExactly": 1 });
    let s = reminder_lab(json!({ "redelayUntil": "DeliverAt" }), goal);
    assert_eq!(first_breach(&s), None);
    let texts: Vec<String> = (s.goal.as_ref().unwrap().conditions(&s).into_iter())
        .map(|c| c.text)
        .collect();
    assert_eq!(
        texts,
        [
            "Each message is reminded exactly once",
            "No message is reminded before the time in its DeliverAt attribute"
        ]
    );
}

#[test]
fn a_not_handled_before_attribute_name_out_of_bounds_is_refused() {
    let s = reminder_lab(json!({}), json!({ "notHandledBefore": "" }));
    assert_eq!(
        s.validate().unwrap_err().to_string(),
        "goal.notHandledBefore must be a message attribute's name of 1 to 256 characters, got \"\""
    );
}
