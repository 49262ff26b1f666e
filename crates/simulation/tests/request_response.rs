//! Request-response over SQS (`requesters` and `responders`): a requester
//! sends each request with `ReplyTo` and `CorrelationId` and long-polls
//! its reply queue; a responder replies to the queue `ReplyTo` names.
//! The pattern's flaws, as SQS makes them happen: a per-request queue
//! deleted when the wait ends loses a late reply (QueueDoesNotExist), and
//! a name reused within 60 seconds of its deletion is refused
//! (QueueDeletedRecently). A queue kept per client loses none. Bad
//! sections are refused at their field, in words.

use queuelab_engine::{Config, EventKind};
use queuelab_simulation::{FieldError, Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

/// A request queue, one requester and one responder taking `processing_ms`.
fn scenario(requester: Value, processing_ms: u64, duration_ms: u64) -> Scenario {
    serde_json::from_value(json!({
        "title": "request-response", "durationMs": duration_ms,
        "queues": [{ "name": "requests", "visibilityTimeoutSeconds": 60 }],
        "requesters": [requester],
        "responders": [{ "name": "service", "queue": "requests",
                         "processing": { "fixedMs": processing_ms } }],
    }))
    .expect("a well-formed scenario")
}

fn requester(mode: &str, wait: u64, count: u64) -> Value {
    json!({ "name": "client", "queue": "requests", "mode": mode,
            "rate": { "everyMs": 10_000, "count": count, "body": "quote {n}" },
            "replyWaitSeconds": wait })
}

fn run(scenario: Scenario) -> Simulation {
    let duration = scenario.duration_ms;
    let mut sim = Simulation::new(scenario, Config::default()).expect("loads");
    sim.advance(duration);
    sim
}

fn sim_events(sim: &Simulation) -> Vec<(u64, SimEvent)> {
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(event) => Some((e.time_ms, event)),
            Kind::Sqs(_) => None,
        })
        .collect()
}

/// Each failed call: (moment, who, action, code).
fn failures(sim: &Simulation) -> Vec<(u64, String, &'static str, &'static str)> {
    sim_events(sim)
        .into_iter()
        .filter_map(|(t, e)| match e {
            SimEvent::ActionFailed {
                actor,
                action,
                code,
                ..
            } => Some((t, actor.to_string(), action, code)),
            _ => None,
        })
        .collect()
}

fn requests_of(sim: &Simulation, caller: &str) -> u64 {
    sim.engine().meter().requests(|c| c == Some(caller))
}

#[test]
fn a_reply_within_the_wait_is_matched_by_its_correlation_id() {
    let sim = run(scenario(requester("perRequest", 5, 3), 2_000, 40_000));
    let matched: Vec<(u64, String, u64, bool)> = sim_events(&sim)
        .into_iter()
        .filter_map(|(t, e)| match e {
            SimEvent::ReplyMatched {
                correlation_id,
                latency_ms,
                late,
                ..
            } => Some((t, correlation_id, latency_ms, late)),
            _ => None,
        })
        .collect();
    assert_eq!(
        matched,
        vec![
            (2_000, "client-1".into(), 2_000, false),
            (12_000, "client-2".into(), 2_000, false),
            (22_000, "client-3".into(), 2_000, false),
        ]
    );
    // The request carried ReplyTo and CorrelationId; the reply came back
    // to the request's own temporary queue, under the responder's name.
    let reply_sends: Vec<(String, Option<String>)> = sim
        .events(0)
        .filter_map(|e| match e.kind {
            Kind::Sqs(EventKind::Sent { queue, by, .. }) if &*queue != "requests" => {
                Some((queue.to_string(), by.map(|b| b.to_string())))
            }
            _ => None,
        })
        .collect();
    let service = Some("service".to_string());
    assert_eq!(
        reply_sends,
        vec![
            ("client-replies-1".into(), service.clone()),
            ("client-replies-2".into(), service.clone()),
            ("client-replies-3".into(), service),
        ]
    );
    assert!(failures(&sim).is_empty(), "{:?}", failures(&sim));
}

#[test]
fn a_reply_after_the_per_request_queue_was_deleted_is_lost_with_queue_does_not_exist() {
    let sim = run(scenario(requester("perRequest", 5, 1), 8_000, 20_000));
    let events = sim_events(&sim);
    assert!(events.iter().any(|(t, e)| *t == 5_000
        && matches!(e, SimEvent::ReplyWaitEnded { correlation_id, waited_ms: 5_000, .. }
            if correlation_id == "client-1")));
    // The guide's `finally` deleted the queue when the wait ended…
    let deleted = sim.events(0).any(|e| {
        e.time_ms == 5_000
            && matches!(&e.kind, Kind::Sqs(EventKind::QueueDeleted { queue }) if &**queue == "client-replies-1")
    });
    assert!(deleted);
    // …so the responder's reply at 8 s is refused, and lost.
    assert_eq!(
        failures(&sim),
        vec![(
            8_000,
            "service".into(),
            "SendMessage",
            "AWS.SimpleQueueService.NonExistentQueue"
        )]
    );
    assert!(events.iter().any(|(t, e)| *t == 8_000
        && matches!(e, SimEvent::ReplyLost { correlation_id, queue, .. }
            if correlation_id == "client-1" && &**queue == "client-replies-1")));
    let outcome = sim.snapshot().outcome;
    assert_eq!((outcome.replies_lost, outcome.reply_waits_ended), (1, 1));
    assert_eq!(outcome.replies_matched, 0);
}

#[test]
fn a_reply_queue_kept_per_client_loses_no_reply() {
    let sim = run(scenario(requester("perClient", 5, 3), 8_000, 60_000));
    assert!(failures(&sim).is_empty(), "{:?}", failures(&sim));
    let outcome = sim.snapshot().outcome;
    assert_eq!(outcome.replies_lost, 0);
    // Each wait ended before its reply; each reply still reached the
    // client's queue and was matched late, on the next request's poll.
    assert_eq!(outcome.reply_waits_ended, 3);
    assert_eq!((outcome.replies_matched, outcome.replies_late), (2, 2));
    assert_eq!((outcome.queues_created, outcome.queues_deleted), (1, 0));
}

#[test]
fn a_reply_queue_name_reused_within_60_seconds_is_refused_with_queue_deleted_recently() {
    let mut spec = requester("perRequest", 5, 8);
    spec["reuseQueueName"] = json!(true);
    let sim = run(scenario(spec, 2_000, 90_000));
    let refused: Vec<u64> = failures(&sim)
        .into_iter()
        .filter(|(_, who, action, code)| {
            who == "client"
                && *action == "CreateQueue"
                && *code == "AWS.SimpleQueueService.QueueDeletedRecently"
        })
        .map(|(t, ..)| t)
        .collect();
    // Deleted at 2 s: refused at 10 s … 60 s; created again at 70 s.
    assert_eq!(
        refused,
        vec![10_000, 20_000, 30_000, 40_000, 50_000, 60_000]
    );
    let outcome = sim.snapshot().outcome;
    assert_eq!(outcome.replies_matched, 2);
    assert_eq!((outcome.queues_created, outcome.queues_deleted), (2, 2));
}

#[test]
fn a_queue_per_request_costs_a_create_and_a_delete_per_request_and_a_queue_per_client_does_not() {
    let per_request = run(scenario(requester("perRequest", 5, 3), 2_000, 40_000));
    let per_client = run(scenario(requester("perClient", 5, 3), 2_000, 40_000));
    let (a, b) = (
        per_request.snapshot().outcome,
        per_client.snapshot().outcome,
    );
    assert_eq!((a.queues_created, a.queues_deleted), (3, 3));
    assert_eq!((b.queues_created, b.queues_deleted), (1, 0));
    // The meter bills every call: per request, a SendMessage, a
    // ReceiveMessage and a DeleteMessageBatch, and per-request's CreateQueue
    // and DeleteQueue besides; per-client's one CreateQueue.
    assert_eq!(requests_of(&per_request, "client"), 3 * 5);
    assert_eq!(requests_of(&per_client, "client"), 3 * 3 + 1);
}

fn refusal(requester: Value) -> FieldError {
    scenario(requester, 0, 1_000)
        .validate()
        .expect_err("refused")
}

#[test]
fn a_reply_wait_outside_1_to_3600_seconds_is_refused_naming_the_field() {
    let e = refusal(requester("perRequest", 0, 1));
    assert_eq!(e.path, "requesters[0].replyWaitSeconds");
    assert!(
        e.to_string().contains("3600") || e.to_string().contains("3,600"),
        "{e}"
    );
    let e = refusal(requester("perRequest", 3_601, 1));
    assert_eq!(e.path, "requesters[0].replyWaitSeconds");
}

#[test]
fn a_requester_on_an_unknown_queue_or_with_too_many_requests_is_refused() {
    let mut spec = requester("perRequest", 5, 1);
    spec["queue"] = json!("nowhere");
    assert_eq!(refusal(spec).path, "requesters[0].queue");
    let e = refusal(requester("perRequest", 5, 1_001));
    assert_eq!(e.path, "requesters[0].rate.count");
    assert!(e.to_string().contains("1000"), "{e}");
}

/// The settings form offers a requester's request count up to the bound
/// validation holds it to (1,000), not a producer's (10,000,000).
#[test]
fn a_requesters_request_count_is_offered_as_validation_holds_it() {
    let words = queuelab_simulation::vocabulary();
    let count = (words.fields.iter())
        .find(|f| f.path == "requesters[].rate.count")
        .expect("the field's words");
    assert_eq!((count.min, count.max), (Some(0), Some(1_000)));
    let most = scenario(requester("perRequest", 5, 1_000), 100, 1_000);
    assert!(most.validate().is_ok());
}

#[test]
fn a_reply_queue_prefix_sqs_would_not_accept_is_refused() {
    let mut spec = requester("perRequest", 5, 1);
    spec["queueNamePrefix"] = json!("replies for me");
    let e = refusal(spec);
    assert_eq!(e.path, "requesters[0].queueNamePrefix");
    assert!(e.to_string().contains("letters, digits"), "{e}");
    let mut spec = requester("perClient", 5, 1);
    spec["reuseQueueName"] = json!(true);
    assert_eq!(refusal(spec).path, "requesters[0].reuseQueueName");
}

#[test]
fn a_requester_mode_not_in_the_list_is_refused_by_the_reader() {
    let text = json!({
        "title": "t", "durationMs": 1000, "queues": [{ "name": "requests" }],
        "requesters": [requester("perMessage", 5, 1)],
    });
    let e = serde_json::from_value::<Scenario>(text).expect_err("refused");
    assert!(e.to_string().contains("perClient"), "{e}");
}

fn shipped(file: &str) -> Scenario {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/scenarios")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

fn narration(sim: &Simulation) -> Vec<(u64, String)> {
    sim_events(sim)
        .into_iter()
        .filter_map(|(t, e)| match e {
            SimEvent::Narration { text } => Some((t, text)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_slow_reply_is_lost_to_the_per_request_client_and_matched_late_by_the_per_client_one() {
    let sim = run(shipped("26-request-response.json"));
    let outcome = sim.snapshot().outcome;
    assert!(outcome.replies_lost >= 1, "{outcome:?}");
    let first_lost = sim_events(&sim).into_iter().find_map(|(t, e)| match e {
        SimEvent::ReplyLost { queue, .. } => Some((t, queue.to_string())),
        _ => None,
    });
    // The page's test waits for this moment (tests/browser/scenarios.test.mjs).
    assert_eq!(first_lost, Some((25_201, "per-request-replies-3".into())));
    assert!(outcome.replies_late >= 1, "{outcome:?}");
    // Every lost reply was per-request's; per-client's queue was always there.
    for (_, e) in sim_events(&sim) {
        if let SimEvent::ReplyLost { queue, .. } = e {
            assert!(queue.starts_with("per-request-replies-"), "{queue}");
        }
    }
    let told = narration(&sim);
    assert!(told.iter().any(|(_, t)| t.contains("QueueDoesNotExist")));
    assert!(told
        .iter()
        .any(|(_, t)| t.contains("late reply waited in it")));
}

#[test]
fn temporary_queues_cost_a_create_and_a_delete_per_request_and_a_reused_name_waits_60_seconds() {
    let sim = run(shipped("27-temporary-queues-cost.json"));
    let outcome = sim.snapshot().outcome;
    // unique-names: 12 created and deleted; one-name: its first (deleted
    // at 2.3 s) and, past the 60 s, its last (at 67 s); one-queue: one, kept.
    assert_eq!((outcome.queues_created, outcome.queues_deleted), (15, 14));
    let refused = failures(&sim)
        .into_iter()
        .filter(|(_, who, _, code)| {
            who == "one-name" && *code == "AWS.SimpleQueueService.QueueDeletedRecently"
        })
        .count();
    // Its requests at 7 s, 12 s, … 62 s: within 60 s of 2.3 s.
    assert_eq!(refused, 12);
    assert_eq!(outcome.replies_lost, 0);
}

#[test]
fn the_lost_reply_lab_breaks_no_reply_lost_and_a_kept_queue_holds_it() {
    let lab = shipped("labs/16-lost-reply.json");
    let sim = run(lab.clone());
    let breach = sim.goal_breach().expect("a reply is lost as shipped");
    assert_eq!(breach.condition, "noReplyLost");
    assert!(
        breach.text.contains("QueueDoesNotExist") && breach.text.contains("checkout-replies-"),
        "{}",
        breach.text
    );
    let mut fixed = lab;
    fixed.requesters[0].mode = queuelab_simulation::ReplyMode::PerClient;
    assert!(run(fixed).goal_breach().is_none());
}

#[test]
fn a_request_queue_that_is_fifo_is_refused_because_requests_carry_no_group_id() {
    let s: Scenario = serde_json::from_value(json!({
        "title": "t", "durationMs": 1000,
        "queues": [{ "name": "requests.fifo", "contentBasedDeduplication": true }],
        "responders": [{ "name": "service", "queue": "requests.fifo",
                         "processing": { "fixedMs": 1 } }],
    }))
    .expect("well-formed");
    let e = s.validate().expect_err("refused");
    assert_eq!(e.path, "responders[0].queue");
    assert!(e.to_string().contains("standard queues"), "{e}");
}
