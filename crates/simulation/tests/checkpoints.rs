//! Checkpoints ("predict, then see"): a question asked before the moment it
//! is about, whose answer the run decides (src/story.rs), and advance
//! stopping there when a page asks it to.

use queuelab_engine::Config;
use queuelab_simulation::{Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

fn scenario(value: Value) -> Scenario {
    serde_json::from_value(value).unwrap()
}

fn load(name: &str) -> Scenario {
    let path = format!("{}/../../web/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// One order sent at 0 and two workers that take 3.5 s, with the given
/// visibility timeout, narration and checkpoints.
fn slow_pair(visibility: i64, narration: Value, checkpoints: Value) -> Scenario {
    scenario(json!({
        "title": "t", "durationMs": 10_000,
        "queues": [{ "name": "orders", "visibilityTimeoutSeconds": visibility }],
        "producers": [{ "name": "shop", "queue": "orders", "sends": [{ "atMs": 0, "body": "A" }] }],
        "consumers": [
            { "name": "worker-1", "queue": "orders", "waitTimeSeconds": 20, "processing": { "fixedMs": 3500 } },
            { "name": "worker-2", "queue": "orders", "waitTimeSeconds": 20, "processing": { "fixedMs": 3500 } }
        ],
        "narration": narration,
        "checkpoints": checkpoints,
    }))
}

/// "How many times is A charged?", asked at 1 s, decided at the end.
fn charges() -> Value {
    json!([{
        "id": "charges", "atMs": 1000, "question": "How many times is A charged?",
        "choices": [
            { "text": "Once", "atEnd": { "sideEffectsEach": 1 }, "because": "{orders.visibilityTimeout} is enough" },
            { "text": "Twice", "atEnd": { "sideEffectsEach": 2 } },
            { "text": "Something else" }
        ]
    }])
}

/// The checkpoint events of a run to its end: (moment, event).
fn checkpoint_events(scenario: Scenario) -> Vec<(u64, SimEvent)> {
    let duration = scenario.duration_ms;
    let mut sim = Simulation::new(scenario, Config::default()).unwrap();
    sim.advance(duration);
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(
                ev @ (SimEvent::CheckpointAsked { .. } | SimEvent::CheckpointAnswered { .. }),
            ) => Some((e.time_ms, ev)),
            _ => None,
        })
        .collect()
}

fn answer(events: &[(u64, SimEvent)], id: &str) -> (u64, Option<u32>, String) {
    events
        .iter()
        .find_map(|(t, e)| match e {
            SimEvent::CheckpointAnswered {
                id: i,
                choice,
                answer,
                ..
            } if i == id => Some((*t, *choice, answer.clone())),
            _ => None,
        })
        .expect("answered")
}

#[test]
fn a_checkpoint_is_asked_at_its_moment_and_answered_by_the_run_at_its_end() {
    let events = checkpoint_events(slow_pair(2, json!([]), charges()));
    assert!(
        matches!(&events[0], (1000, SimEvent::CheckpointAsked { id, choices, .. })
        if id == "charges" && choices == &["Once", "Twice", "Something else"])
    );
    assert_eq!(
        answer(&events, "charges"),
        (10_000, Some(1), "Twice".into())
    );
}

#[test]
fn a_checkpoint_answer_follows_the_learners_change_not_the_file() {
    // With a 5 s timeout the order is charged once: the run says "Once",
    // and its `because` quotes the timeout of this run.
    let events = checkpoint_events(slow_pair(5, json!([]), charges()));
    assert_eq!(answer(&events, "charges"), (10_000, Some(0), "Once".into()));
    let because = events.iter().find_map(|(_, e)| match e {
        SimEvent::CheckpointAnswered { because, .. } => because.clone(),
        _ => None,
    });
    assert_eq!(because.as_deref(), Some("5 s is enough"));
}

#[test]
fn a_checkpoint_choice_with_when_is_the_answer_the_moment_its_event_happens() {
    let checkpoint = json!([{
        "id": "next", "atMs": 1000, "question": "What does worker-2 get next?",
        "choices": [
            { "text": "Nothing", "when": { "event": "emptyReceive", "consumer": "worker-2" } },
            { "text": "The same order", "when": { "event": "duplicateDelivery", "consumer": "worker-2" } },
            { "text": "Nothing during this run" }
        ]
    }]);
    let events = checkpoint_events(slow_pair(2, json!([]), checkpoint.clone()));
    assert_eq!(
        answer(&events, "next"),
        (2000, Some(1), "The same order".into())
    );
    // With 5 s, worker-2's long poll is still waiting when the run ends.
    let events = checkpoint_events(slow_pair(5, json!([]), checkpoint));
    assert_eq!(
        answer(&events, "next"),
        (10_000, Some(2), "Nothing during this run".into())
    );
}

#[test]
fn a_checkpoint_no_choice_of_which_happened_says_so() {
    let checkpoint = json!([{
        "id": "dlq", "question": "Where does A end up?",
        "choices": [
            { "text": "In the DLQ", "when": { "event": "movedToDeadLetterQueue" } },
            { "text": "Expired", "when": { "event": "expired" } }
        ]
    }]);
    let events = checkpoint_events(slow_pair(2, json!([]), checkpoint));
    let (t, choice, text) = answer(&events, "dlq");
    assert_eq!((t, choice), (10_000, None));
    assert_eq!(text, "None of these happened in this run.");
}

#[test]
fn a_checkpoint_after_a_line_is_asked_once_that_line_is_shown() {
    // The line is shown when worker-1 deletes the order, at 3.5 s: the
    // question waits for it (without `after` it would be asked at 0).
    let narration = json!([{ "id": "done", "when": { "event": "deleted" }, "text": "deleted" }]);
    let checkpoint = json!([{
        "id": "c", "after": "done", "question": "q",
        "choices": [{ "text": "a" }, { "text": "b", "when": { "event": "deleted" } }]
    }]);
    let events = checkpoint_events(slow_pair(2, narration, checkpoint));
    assert!(
        matches!(events[0], (3500, SimEvent::CheckpointAsked { .. })),
        "{events:?}"
    );
    let never =
        json!([{ "id": "slow", "when": { "event": "movedToDeadLetterQueue" }, "text": "x" }]);
    let checkpoint = json!([{ "id": "c", "after": "slow", "question": "q",
        "choices": [{ "text": "a" }, { "text": "b", "when": { "event": "deleted" } }] }]);
    assert!(checkpoint_events(slow_pair(2, never, checkpoint)).is_empty());
}

#[test]
fn advance_stops_where_a_checkpoint_is_asked_or_answered_only_when_asked_to() {
    let mut sim = Simulation::new(slow_pair(2, json!([]), charges()), Config::default()).unwrap();
    sim.pause_at_checkpoints(true);
    assert_eq!(sim.advance(10_000), 1000);
    let last = sim.events(0).last().unwrap();
    assert!(matches!(
        last.kind,
        Kind::Simulation(SimEvent::CheckpointAsked { .. })
    ));
    // It stops again where the run answers it (the end), and goes on.
    assert_eq!(sim.advance(9000), 10_000, "advancing again goes on");
    let last = sim.events(0).last().unwrap();
    assert!(matches!(
        last.kind,
        Kind::Simulation(SimEvent::CheckpointAnswered { .. })
    ));

    // A `when` choice answers mid-run: advance stops at that moment too.
    let next = json!([{ "id": "next", "atMs": 1000, "question": "q", "choices": [
        { "text": "dup", "when": { "event": "duplicateDelivery" } }, { "text": "no" } ] }]);
    let mut sim = Simulation::new(slow_pair(2, json!([]), next), Config::default()).unwrap();
    sim.pause_at_checkpoints(true);
    assert_eq!(sim.advance(10_000), 1000);
    assert_eq!(sim.advance(9000), 2000, "stops where the run answers it");

    // The run is the same whether it paused or not.
    let mut paused =
        Simulation::new(slow_pair(2, json!([]), charges()), Config::default()).unwrap();
    paused.pause_at_checkpoints(true);
    while paused.now() < 10_000 {
        let to = 10_000 - paused.now();
        paused.advance(to);
    }
    let mut straight =
        Simulation::new(slow_pair(2, json!([]), charges()), Config::default()).unwrap();
    straight.advance(10_000);
    let log = |s: &Simulation| serde_json::to_string(&s.events(0).collect::<Vec<_>>()).unwrap();
    assert_eq!(log(&paused), log(&straight));
}

#[test]
fn a_learners_own_message_never_triggers_lines_written_about_the_scenarios() {
    use queuelab_engine::{NewMessage, SendMessage};
    // One worker, processing longer than the timeout; the line is about
    // the scenario's order. The scenario sends nothing until 5 s.
    let s = scenario(json!({
        "title": "t", "durationMs": 10_000,
        "queues": [{ "name": "orders", "visibilityTimeoutSeconds": 1 }],
        "producers": [{ "name": "shop", "queue": "orders", "sends": [{ "atMs": 5000, "body": "order" }] }],
        "consumers": [{ "name": "worker-1", "queue": "orders", "waitTimeSeconds": 20, "processing": { "fixedMs": 500 } }],
        "narration": [{ "when": { "event": "sideEffect" }, "text": "the order is charged" }],
        "checkpoints": [{ "id": "c", "question": "q", "choices": [
            { "text": "charged", "when": { "event": "sideEffect" } }, { "text": "b" } ] }]
    }));
    let mut sim = Simulation::new(s, Config::default()).unwrap();
    let url = sim.engine().get_queue_url("orders", None).unwrap();
    let request = SendMessage {
        queue_url: url,
        message: NewMessage {
            body: "mine".into(),
            ..NewMessage::default()
        },
    };
    sim.engine_mut()
        .send_message(&request, Some("you"))
        .unwrap();
    sim.advance(4000);
    let said = |sim: &Simulation| -> Vec<String> {
        sim.events(0)
            .filter_map(|e| match e.kind {
                Kind::Simulation(SimEvent::Narration { text }) => Some(text),
                Kind::Simulation(SimEvent::CheckpointAnswered { answer, .. }) => Some(answer),
                _ => None,
            })
            .collect()
    };
    let charged = sim.snapshot().side_effects.len();
    assert_eq!(charged, 1, "worker-1 processed the learner's message");
    assert!(said(&sim).is_empty(), "{:?}", said(&sim));
    sim.advance(6000);
    assert_eq!(said(&sim), ["the order is charged", "charged"]);
}

/// Every shipped checkpoint's answer, in the file's own run and in a run
/// changed so that the truth changes (or, where no setting changes it, its
/// moment moves): scenario file, changes (JSON pointer, new value),
/// checkpoint id, the answer the run must give. A new checkpoint, or a
/// changed choice, is a new row here.
/// A pinned answer: scenario file, changes, checkpoint id, answer.
type Pinned = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
    &'static str,
);

const PINNED: &[Pinned] = &[
    (
        "02-slow-consumer-duplicate.json",
        &[],
        "worker-2-gets",
        "Order A-1001 again, while worker-1 is still charging it",
    ),
    ("02-slow-consumer-duplicate.json", &[], "charges", "Twice"),
    (
        "02-slow-consumer-duplicate.json",
        &[("/queues/0/visibilityTimeoutSeconds", "5")],
        "worker-2-gets",
        "Nothing: worker-1 deletes the order before anyone else can see it",
    ),
    (
        "02-slow-consumer-duplicate.json",
        &[("/queues/0/visibilityTimeoutSeconds", "5")],
        "charges",
        "Once",
    ),
    (
        "05-poison-message.json",
        &[],
        "poison-fate",
        "It moves to orders-dlq",
    ),
    (
        "05-poison-message.json",
        &[("/queues/1/redrive/maxReceiveCount", "100")],
        "poison-fate",
        "It is still going round in the orders queue when the run ends",
    ),
    (
        "05-poison-message.json",
        &[
            ("/queues/1/redrive/maxReceiveCount", "100"),
            ("/queues/1/messageRetentionPeriodSeconds", "60"),
            ("/durationMs", "70000"),
        ],
        "poison-fate",
        "It expires from the queue",
    ),
    (
        "06-fifo-message-groups.json",
        &[],
        "a-2-next",
        "Only after A-1 is deleted: customer A's group holds A-2 back until then",
    ),
    // worker-1 crashes on A-1: its timeout unlocks the group, A-1 itself
    // comes back (receive #2) and only its delete lets A-2 go.
    (
        "06-fifo-message-groups.json",
        &[(
            "/consumers/0/behaviour",
            r#"{"crashesBeforeSideEffectOn": ["A-1"]}"#,
        )],
        "a-2-next",
        "Only after A-1 is deleted: customer A's group holds A-2 back until then",
    ),
    (
        "07-fifo-deduplication.json",
        &[],
        "retry",
        "Accept it and store nothing new: it is a duplicate",
    ),
    (
        "07-fifo-deduplication.json",
        &[],
        "after-window",
        "It becomes a new message, and the payment runs again",
    ),
    // The first payment carries another id: the retry at 3 s is the first
    // with pay-A-1001, and its window still holds at 5 min 1 s.
    (
        "07-fifo-deduplication.json",
        &[("/producers/0/sends/0/dedupId", "\"pay-A-1001-first\"")],
        "retry",
        "Store it as a new message, since the first is gone",
    ),
    (
        "07-fifo-deduplication.json",
        &[("/producers/0/sends/0/dedupId", "\"pay-A-1001-first\"")],
        "after-window",
        "It is dropped as a duplicate again",
    ),
    (
        "11-redrive-back.json",
        &[],
        "redrive-fate",
        "They are processed and charged",
    ),
    // The fix ships after the move task: the orders fail again.
    (
        "11-redrive-back.json",
        &[("/consumers/0/behaviour/failsDuringMs/endMs", "20000")],
        "redrive-fate",
        "They fail again and go back to orders-dlq",
    ),
    (
        "12-standard-vs-fifo.json",
        &[],
        "exactly-once",
        "Yes: a message not deleted before its visibility timeout ends is delivered again",
    ),
    // A visibility timeout longer than the work: nothing is delivered twice.
    (
        "12-standard-vs-fifo.json",
        &[("/queues/1/visibilityTimeoutSeconds", "30")],
        "exactly-once",
        "No",
    ),
    (
        "13-attributes-and-size.json",
        &[],
        "too-big",
        "It refuses the send: the attributes count toward the limit",
    ),
    // Without its attributes the body alone is exactly the limit: stored.
    (
        "13-attributes-and-size.json",
        &[("/producers/0/sends/1/attributes", "{}")],
        "too-big",
        "It stores it: the limit is on the body alone",
    ),
    (
        "14-purge.json",
        &[],
        "purged-in-flight",
        "It charges the order anyway",
    ),
    // Its handler fails on the purged order: it is never charged.
    (
        "14-purge.json",
        &[("/consumers/0/behaviour", r#"{"failsEveryNth": 2}"#)],
        "purged-in-flight",
        "It is not charged before the run ends",
    ),
    ("15-what-it-costs.json", &[], "cheapest", "short-poller's"),
    // The short poller long-polls and the batcher short-polls instead.
    (
        "15-what-it-costs.json",
        &[
            ("/consumers/0/waitTimeSeconds", "20"),
            ("/consumers/2/waitTimeSeconds", "0"),
        ],
        "cheapest",
        "batcher's",
    ),
    (
        "16-sns-fan-out.json",
        &[],
        "refund-to-shipping",
        "No: the filter policy keeps it from shipping",
    ),
    // shipping's filter policy lets refunds through too.
    (
        "16-sns-fan-out.json",
        &[(
            "/topics/0/subscriptions/1/filterPolicy",
            r#"{"type": ["order", "refund"]}"#,
        )],
        "refund-to-shipping",
        "Yes: every subscribed queue gets every message",
    ),
    (
        "17-s3-notifications.json",
        &[],
        "first-upload",
        "images/cat.jpg",
    ),
    // The notification wants .png keys under images/ instead.
    (
        "17-s3-notifications.json",
        &[("/buckets/0/notifications/0/suffix", r#"".png""#)],
        "first-upload",
        "images/cat.png",
    ),
    (
        "28-large-payload.json",
        &[],
        "scan-1-back",
        "A pointer to nothing: GetObject answers NoSuchKey",
    ),
    // guide-reader no longer crashes on scan-1: it files it the first time.
    (
        "28-large-payload.json",
        &[("/consumers/1/behaviour", "{}")],
        "scan-1-back",
        "Its payload: the report is filed",
    ),
    (
        "18-cross-account.json",
        &[],
        "after-grant",
        "It is allowed and stored",
    ),
    // The grant is for ReceiveMessage only: sending is still refused.
    (
        "18-cross-account.json",
        &[(
            "/operators/0/calls/0/call/addPermission/actions",
            r#"["ReceiveMessage"]"#,
        )],
        "after-grant",
        "It is refused again: AccessDenied",
    ),
    (
        "19-sse-kms-costs.json",
        &[],
        "more-kms",
        "orders-1min (data key reused for 60 s)",
    ),
    // The reuse periods swapped: the queue named for a day reuses for 60 s.
    (
        "19-sse-kms-costs.json",
        &[
            ("/queues/0/encryption/dataKeyReusePeriodSeconds", "86400"),
            ("/queues/1/encryption/dataKeyReusePeriodSeconds", "60"),
        ],
        "more-kms",
        "orders-1day (data key reused for 24 hours)",
    ),
    // Both reuse for 24 hours.
    (
        "19-sse-kms-costs.json",
        &[("/queues/0/encryption/dataKeyReusePeriodSeconds", "86400")],
        "more-kms",
        "Both make the same number",
    ),
    (
        "20-kms-key-disabled.json",
        &[],
        "disabled-sends",
        "It fails with KMS.DisabledException",
    ),
    // The queue is encrypted with SSE-SQS: no KMS key to be disabled.
    (
        "20-kms-key-disabled.json",
        &[("/queues/0/encryption", r#""sqs""#)],
        "disabled-sends",
        "It is stored as usual",
    ),
    (
        "21-lambda-partial-batch.json",
        &[],
        "plain-retry",
        "Yes: the whole batch comes back, A-1 with it",
    ),
    // charge-plain reports batch item failures too: only A-3 comes back.
    (
        "21-lambda-partial-batch.json",
        &[(
            "/lambdas/0/functionResponseTypes",
            r#"["ReportBatchItemFailures"]"#,
        )],
        "plain-retry",
        "No: Lambda retries only A-3",
    ),
    (
        "22-lambda-scaling.json",
        &[],
        "how-high",
        "10: the mapping's MaximumConcurrency",
    ),
    (
        "22-lambda-scaling.json",
        &[("/lambdas/0/maximumConcurrency", "100")],
        "how-high",
        "100: the mapping's MaximumConcurrency",
    ),
    // No MaximumConcurrency: Lambda adds 300 pollers after a minute.
    (
        "22-lambda-scaling.json",
        &[("/lambdas/0/maximumConcurrency", "null")],
        "how-high",
        "305: five, plus 300 after a minute",
    ),
    (
        "23-lambda-fifo.json",
        &[],
        "other-group",
        "At once: customer-B's group is not held",
    ),
    // B-3 sent in customer-A's group: it waits behind A-2.
    (
        "23-lambda-fifo.json",
        &[("/producers/0/sends/5/groupId", r#""customer-A""#)],
        "other-group",
        "Only after A-2 comes back: the whole queue waits",
    ),
    (
        "24-cloudwatch-alarms.json",
        &[],
        "age-before-fix",
        "Yes: some order will have waited more than an hour",
    ),
    // The fix comes at 50 minutes, before any order has waited an hour.
    (
        "24-cloudwatch-alarms.json",
        &[("/consumers/1/startMs", "3000000")],
        "age-before-fix",
        "No: the fix comes first",
    ),
    (
        "25-custom-metrics.json",
        &[],
        "slow-alarm",
        "Yes, after two 10 s periods of slow orders",
    ),
    // worker-slow at 500 ms an order: no period averages over a second.
    (
        "25-custom-metrics.json",
        &[("/consumers/1/processing", r#"{"fixedMs": 500}"#)],
        "slow-alarm",
        "No: the average over the whole run stays under a second",
    ),
    (
        "26-request-response.json",
        &[],
        "late-reply",
        "It is lost: SendMessage to the deleted queue answers QueueDoesNotExist",
    ),
    // quote-service takes 80 s a quote: no reply at all by the end.
    (
        "26-request-response.json",
        &[("/responders/0/processing", r#"{"fixedMs": 80000}"#)],
        "late-reply",
        "No reply to that request comes before the run ends",
    ),
    (
        "27-temporary-queues-cost.json",
        &[],
        "name-reuse",
        "QueueDeletedRecently: the name cannot be reused for 60 seconds",
    ),
    // Unique names: one-name never creates a name it deleted.
    (
        "27-temporary-queues-cost.json",
        &[("/requesters/1/reuseQueueName", "false")],
        "name-reuse",
        "A new, empty one-name-replies",
    ),
    (
        "29-scheduled-delivery.json",
        &[],
        "when-handled",
        "At 08:15, when the delay ends: early",
    ),
    // filter-on-receive re-delaying until DeliverAt: it sends, on time.
    (
        "29-scheduled-delivery.json",
        &[("/consumers/0/behaviour", r#"{"redelayUntil": "DeliverAt"}"#)],
        "when-handled",
        "At 09:00, its DeliverAt",
    ),
    (
        "30-visibility-extender.json",
        &[],
        "report-again",
        "Yes: it is visible again before the first beat",
    ),
    // extender-90 beating every 30 s: each beat comes before the 60 s end.
    (
        "30-visibility-extender.json",
        &[("/consumers/2/behaviour/heartbeatEveryMs", "30000")],
        "report-again",
        "No: the heartbeat keeps it hidden",
    ),
    (
        "31-high-throughput-fifo.json",
        &[],
        "throttled",
        "Yes: past 300 calls in a second, SQS answers RequestThrottled",
    ),
    // checkout at 200 calls a second: under the quota.
    (
        "31-high-throughput-fifo.json",
        &[("/producers/0/rate/everyMs", "5")],
        "throttled",
        "No: SQS queues scale without limit",
    ),
];

/// A shipped scenario with the changes applied as the settings form does:
/// each value set at its path in the file's JSON.
fn changed(name: &str, changes: &[(&str, &str)]) -> Scenario {
    let path = format!("{}/../../web/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let mut file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for (pointer, value) in changes {
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        let value: Value = serde_json::from_str(value).unwrap();
        match file.pointer_mut(parent) {
            Some(Value::Object(fields)) => drop(fields.insert(key.into(), value)),
            Some(Value::Array(items)) => items[key.parse::<usize>().unwrap()] = value,
            _ => panic!("{name} has no {parent}"),
        }
    }
    scenario(file)
}

#[test]
fn each_shipped_checkpoint_gives_the_answer_its_run_makes_true() {
    let mut wrong = vec![];
    for (name, changes, id, expected) in PINNED {
        let events = checkpoint_events(changed(name, changes));
        let (_, choice, text) = answer(&events, id);
        if choice.is_none() || text != *expected {
            wrong.push(format!(
                "{name} {changes:?} {id}: said {text:?}, expected {expected:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn every_shipped_checkpoint_has_its_answers_pinned() {
    // A checkpoint a scenario adds is pinned above, in its file's run and
    // in a changed one, before it ships.
    for f in std::fs::read_dir(format!(
        "{}/../../web/scenarios",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    {
        let name = f.unwrap().file_name().into_string().unwrap();
        if !name.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        for c in &load(&name).checkpoints {
            let rows = PINNED
                .iter()
                .filter(|(n, _, id, _)| *n == name && *id == c.id);
            let (file, changed) = rows.fold((0, 0), |(f, ch), (_, changes, _, _)| {
                if changes.is_empty() {
                    (f + 1, ch)
                } else {
                    (f, ch + 1)
                }
            });
            assert!(
                file == 1 && changed >= 1,
                "{name} {}: pinned {file} time(s) for the file's run, {changed} changed",
                c.id
            );
        }
    }
}

#[test]
fn checkpoint_files_are_refused_in_plain_words_naming_the_field() {
    let refused = |checkpoints: Value| {
        let e = slow_pair(2, json!([]), checkpoints).validate().unwrap_err();
        e.to_string()
    };
    let two = json!([{ "text": "a" }, { "text": "b", "when": { "event": "deleted" } }]);
    assert_eq!(
        refused(
            json!([{ "id": "x", "question": "q", "choices": two }, { "id": "x", "question": "q", "choices": two }])
        ),
        "checkpoints[1].id must be a name no other checkpoint has, got \"x\""
    );
    assert_eq!(
        refused(json!([{ "id": "x", "question": "q", "choices": [{ "text": "a" }] }])),
        "checkpoints[0].choices must be a list of 2 to 6 answers, got 1"
    );
    assert_eq!(
        refused(
            json!([{ "id": "x", "question": "q", "choices": [{ "text": "a" }, { "text": "b" }] }])
        ),
        "checkpoints[0].choices must be a list with at most one answer that gives neither \
         `when` nor `atEnd` (the answer when no other is true), got 2 such answers"
    );
    assert_eq!(
        refused(json!([{ "id": "x", "after": "nope", "question": "q", "choices": two }])),
        "checkpoints[0].after must be the id of a narration line, got \"nope\""
    );
    let both =
        json!([{ "text": "a", "when": { "event": "deleted" }, "atEnd": {} }, { "text": "b" }]);
    assert_eq!(
        refused(json!([{ "id": "x", "question": "q", "choices": both }])),
        "checkpoints[0].choices[0] must be an answer with `when` or `atEnd`, not both, got both"
    );
    assert!(
        refused(json!([{ "id": "x", "question": "{orders.speed}?", "choices": two }]))
            .starts_with("checkpoints[0].question must be text whose {placeholders}")
    );
    let many: Vec<Value> = (0..21)
        .map(|i| json!({ "id": format!("c{i}"), "question": "q", "choices": two }))
        .collect();
    assert_eq!(
        refused(Value::Array(many)),
        "checkpoints must be a list of at most 20 checkpoints, got 21"
    );
}

#[test]
fn narration_placeholders_quote_the_run_and_unknown_ones_are_refused() {
    let narration = json!([{ "when": { "event": "processingOutlastsVisibility" },
        "text": "The timeout is {orders.visibilityTimeout}; work takes {worker-1.processing}." }]);
    let s = slow_pair(3, narration, json!([]));
    let mut sim = Simulation::new(s, Config::default()).unwrap();
    sim.advance(10_000);
    assert_eq!(
        sim.snapshot().narration.as_deref(),
        Some("The timeout is 3 s; work takes 3.5 s.")
    );
    let bad = json!([{ "text": "{order.visibilityTimeout}" }]);
    let e = slow_pair(3, bad, json!([]))
        .validate()
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "narration[0].text must be text whose {placeholders} each name one of the scenario's \
         queues or consumers and one of its properties, got {order.visibilityTimeout}: \
         \"order\" is not one of the scenario's queues or consumers"
    );
}

#[test]
fn a_refusal_repeats_a_megabyte_id_or_placeholder_cut_short() {
    let big = "x".repeat(1 << 20);
    let two = json!([{ "text": "a" }, { "text": "b", "when": { "event": "deleted" } }]);
    let dup = json!([{ "id": big, "question": "q", "choices": two }, { "id": big, "question": "q", "choices": two }]);
    let after = json!([{ "id": "a", "after": big, "question": "q", "choices": two }]);
    let placeholder = json!([{ "id": "a", "question": format!("{{{big}.x}}"), "choices": two }]);
    for checkpoints in [dup, after, placeholder] {
        let e = slow_pair(2, json!([]), checkpoints)
            .validate()
            .unwrap_err()
            .to_string();
        // The rule's words and at most 1,024 repeated characters.
        assert!(e.len() < 3_000, "{} characters", e.len());
        assert!(e.contains("xxx…"), "cut short, and says so: {}", &e[..200]);
    }
}

#[test]
fn an_open_checkpoint_is_answered_at_the_runs_end_even_when_advanced_past_it() {
    let mut sim = Simulation::new(slow_pair(2, json!([]), charges()), Config::default()).unwrap();
    sim.advance(25_000);
    let answered = sim.events(0).find_map(|e| match e.kind {
        Kind::Simulation(SimEvent::CheckpointAnswered { .. }) => Some(e.time_ms),
        _ => None,
    });
    assert_eq!(answered, Some(10_000));
}
