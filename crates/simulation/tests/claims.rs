//! Claims (docs/scenario-format.md, "Claims"): what a narration line or a
//! checkpoint's `because` says beyond its trigger, checked against the run
//! when the words would be shown. A false claim withholds the words (or
//! shows the line's `otherwise`), and the log says what and why.

use queuelab_engine::Config;
use queuelab_simulation::{Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

/// One standard queue, one order "A-1001" sent at 0, two short-polling
/// workers that take 3.5 s (worker-2 from 0.1 s, once a second), a 2 s
/// visibility timeout (so worker-2 receives it again at 2.1 s), a redrive
/// after `max_receives`, and the given story.
fn slow_pair(max_receives: u32, narration: Value, checkpoints: Value) -> Scenario {
    serde_json::from_value(json!({
        "title": "t", "durationMs": 10_000,
        "queues": [{ "name": "dlq" }, { "name": "orders", "visibilityTimeoutSeconds": 2,
                     "redrive": { "deadLetterQueue": "dlq", "maxReceiveCount": max_receives } }],
        "producers": [{ "name": "shop", "queue": "orders",
                        "sends": [{ "atMs": 0, "body": "order A-1001" }] }],
        "consumers": [
            { "name": "worker-1", "queue": "orders", "processing": { "fixedMs": 3500 } },
            { "name": "worker-2", "queue": "orders", "startMs": 100, "processing": { "fixedMs": 3500 } }
        ],
        "narration": narration,
        "checkpoints": checkpoints,
    }))
    .unwrap()
}

/// The story's events of a run to its end: (moment, event).
fn told(scenario: Scenario) -> Vec<(u64, SimEvent)> {
    let duration = scenario.duration_ms;
    let mut sim = Simulation::new(scenario, Config::default()).unwrap();
    sim.advance(duration);
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(
                s @ (SimEvent::Narration { .. }
                | SimEvent::NarrationWithheld { .. }
                | SimEvent::CheckpointAnswered { .. }),
            ) => Some((e.time_ms, s)),
            _ => None,
        })
        .collect()
}

fn shown(events: &[(u64, SimEvent)]) -> Vec<(u64, String)> {
    events
        .iter()
        .filter_map(|(t, e)| match e {
            SimEvent::Narration { text } => Some((*t, text.clone())),
            _ => None,
        })
        .collect()
}

fn withheld(events: &[(u64, SimEvent)]) -> Vec<(u64, String, String)> {
    events
        .iter()
        .filter_map(|(t, e)| match e {
            SimEvent::NarrationWithheld { text, reason } => {
                Some((*t, text.clone(), reason.clone()))
            }
            _ => None,
        })
        .collect()
}

/// A line about the duplicate delivery at 2.1 s, claiming `claim`.
fn duplicate_line(claim: Value) -> Value {
    json!([{ "when": { "event": "duplicateDelivery" }, "claims": [claim], "text": "claimed" }])
}

#[test]
fn a_line_whose_claim_holds_is_shown() {
    let claims = [
        json!({ "happened": { "event": "received", "consumer": "worker-1", "message": "A-1001", "receiveCount": 1 } }),
        json!({ "notHappened": { "event": "deleted" } }),
        json!({ "before": { "first": { "event": "received", "consumer": "worker-1" },
                            "then": { "event": "received", "consumer": "worker-2" } } }),
        json!({ "receiveCount": { "message": "A-1001", "equals": 2 } }),
        json!({ "receiveCount": { "message": "A-1001", "equals": "{orders.maxReceiveCount}" } }),
        json!({ "quiet": { "fromMs": 1, "toMs": 99 } }),
        json!("noneLost"),
        json!({ "atOnce": { "first": { "event": "sent" }, "then": { "event": "received" } } }),
        json!({ "noBehaviour": { "consumer": "worker-1", "is": "idempotent" } }),
        json!({ "settingIs": { "value": "{orders.visibilityTimeout}", "is": "2 s" } }),
        json!({ "settingIsNot": { "value": "{worker-2.waitTime}", "is": "20 s" } }),
    ];
    for claim in claims {
        let events = told(slow_pair(2, duplicate_line(claim.clone()), json!([])));
        assert_eq!(shown(&events), [(2100, "claimed".to_string())], "{claim}");
        assert_eq!(withheld(&events), [], "{claim}");
    }
}

#[test]
fn a_line_whose_claim_is_false_is_withheld_and_the_log_says_why() {
    let claims = [
        (
            json!({ "happened": { "event": "deleted", "message": "A-1001" } }),
            "it says a deleted event (message A-1001) happened, and none has",
        ),
        (
            json!({ "notHappened": { "event": "received", "consumer": "worker-1" } }),
            "it says no received event (by worker-1) happened, but one did at 0 s",
        ),
        (
            json!({ "before": { "first": { "event": "received", "consumer": "worker-2" },
                                "then": { "event": "received", "consumer": "worker-1" } } }),
            "it says a received event (by worker-2) came first, but a received event (by worker-1) came before it, at 0 s",
        ),
        (
            json!({ "receiveCount": { "message": "A-1001", "equals": "{orders.maxReceiveCount}" } }),
            "it says A-1001's receive count is 3; it is 2",
        ),
        (
            // worker-2's short polls come back empty every second from 0.1 s.
            json!({ "quiet": { "fromMs": 101, "toMs": 2099 } }),
            "it says nothing happened from 0.101 s to 2.099 s, but something did at 1.1 s",
        ),
        (
            json!("noDuplicateDelivery"),
            "it says no message was delivered twice at once, but one was",
        ),
        (
            json!({ "atOnce": { "first": { "event": "visibilityExpired" },
                                "then": { "event": "received", "receiveCount": 2 } } }),
            "it says a received event (receive #2) came at once after a visibilityExpired event (at 2 s), but it came at 2.1 s",
        ),
        (
            json!("allDeleted"),
            "it says every message sent was deleted, but 1 of 1 were not",
        ),
        (
            json!({ "behaviour": { "consumer": "worker-2", "is": "heartbeat" } }),
            "it says worker-2 runs with heartbeat, and in this run it does not",
        ),
        (
            json!({ "settingIs": { "value": "{worker-2.waitTime}", "is": "20 s" } }),
            "it says {worker-2.waitTime} is 20 s; in this run it is 0 s",
        ),
    ];
    for (claim, why) in claims {
        let events = told(slow_pair(3, duplicate_line(claim.clone()), json!([])));
        assert_eq!(shown(&events), [], "{claim}");
        let expected = (2100, "claimed".to_string(), why.to_string());
        assert_eq!(withheld(&events), [expected], "{claim}");
    }
}

#[test]
fn a_withheld_line_shows_its_otherwise_and_a_line_after_it_waits_without_one() {
    let narration = json!([
        { "id": "a", "when": { "event": "duplicateDelivery" },
          "claims": [{ "happened": { "event": "deleted" } }],
          "text": "claimed", "otherwise": "instead" },
        { "id": "b", "when": { "event": "duplicateDelivery" },
          "claims": [{ "happened": { "event": "deleted" } }], "text": "no fallback" },
        { "after": "a", "atMs": 5000, "text": "after a" },
        { "after": "b", "atMs": 5000, "text": "after b" }
    ]);
    let events = told(slow_pair(3, narration, json!([])));
    assert_eq!(
        shown(&events),
        [(2100, "instead".to_string()), (5000, "after a".to_string())]
    );
    let texts: Vec<String> = withheld(&events).into_iter().map(|w| w.1).collect();
    assert_eq!(texts, ["claimed", "no fallback"]);
}

#[test]
fn a_verdicts_because_is_withheld_when_its_claim_is_false_and_the_answer_stays() {
    let checkpoint = |claim: Value| {
        json!([{ "id": "c", "question": "q", "choices": [
            { "text": "a duplicate", "when": { "event": "duplicateDelivery" },
              "because": "worker-1 had deleted it", "claims": [claim] },
            { "text": "nothing" }
        ]}])
    };
    let answered = |events: &[(u64, SimEvent)]| {
        events
            .iter()
            .find_map(|(t, e)| match e {
                SimEvent::CheckpointAnswered {
                    choice, because, ..
                } => Some((*t, *choice, because.clone())),
                _ => None,
            })
            .unwrap()
    };
    let holds = json!({ "happened": { "event": "received", "consumer": "worker-2" } });
    let events = told(slow_pair(3, json!([]), checkpoint(holds)));
    let because = Some("worker-1 had deleted it".to_string());
    assert_eq!(answered(&events), (2100, Some(0), because));
    assert_eq!(withheld(&events), []);

    let fails = json!({ "happened": { "event": "deleted" } });
    let events = told(slow_pair(3, json!([]), checkpoint(fails)));
    assert_eq!(answered(&events), (2100, Some(0), None));
    let why = "it says a deleted event happened, and none has";
    let expected = (2100, "worker-1 had deleted it".into(), why.into());
    assert_eq!(withheld(&events), [expected]);
}

#[test]
fn a_line_whose_claims_are_about_settings_is_planned_as_the_run_will_show_it() {
    let narration = json!([
        { "atMs": 10, "claims": [{ "settingIs": { "value": "{orders.visibilityTimeout}", "is": "2 s" } }],
          "text": "two", "otherwise": "not two" },
        { "atMs": 20, "claims": [{ "behaviour": { "consumer": "worker-1", "is": "heartbeat" } }],
          "text": "heartbeat" },
        { "atMs": 30, "claims": [{ "happened": { "event": "deleted" } }], "text": "waits for the run" }
    ]);
    let mut s = slow_pair(3, narration, json!([]));
    let planned = |s: &Scenario| {
        let sim = Simulation::new(s.clone(), Config::default()).unwrap();
        sim.planned_moments()
    };
    assert_eq!(planned(&s), [(10, "two".to_string(), false)]);
    s.queues[1].visibility_timeout_seconds = Some(5);
    assert_eq!(planned(&s), [(10, "not two".to_string(), false)]);
}

#[test]
fn a_trigger_count_written_as_a_setting_follows_the_runs_setting() {
    let narration = json!([{
        "when": { "event": "received", "receiveCount": "{orders.maxReceiveCount}" },
        "text": "receive #{orders.maxReceiveCount}"
    }]);
    for max in [1, 2] {
        let events = told(slow_pair(max, narration.clone(), json!([])));
        let at = if max == 1 { 0 } else { 2100 };
        assert_eq!(shown(&events), [(at, format!("receive #{max}"))]);
    }
}

#[test]
fn a_count_or_claim_that_names_no_count_of_the_scenario_is_refused_naming_the_field() {
    let refused = |narration: Value| {
        let s = slow_pair(3, narration, json!([]));
        let e = s.validate().unwrap_err();
        (e.path, e.got)
    };
    let (path, got) = refused(json!([{ "when": { "event": "received",
        "receiveCount": "{queue.maxReceiveCount}" }, "text": "t" }]));
    assert_eq!(path, "narration[0].when.receiveCount");
    assert!(
        got.contains("\"queue\" is not one of the scenario's queues"),
        "{got}"
    );
    let (path, got) = refused(json!([{ "when": { "event": "received",
        "receiveCount": "{orders.visibilityTimeout}" }, "text": "t" }]));
    assert_eq!(path, "narration[0].when.receiveCount");
    assert!(got.contains("is not a count"), "{got}");
    let (path, _) = refused(json!([{ "text": "t", "claims": [
        { "receiveCount": { "message": "A", "equals": "three" } }] }]));
    assert_eq!(path, "narration[0].claims[0].receiveCount.equals");
    let (path, _) = refused(json!([{ "text": "t", "claims": [
        { "quiet": { "fromMs": 5, "toMs": 4 } }] }]));
    assert_eq!(path, "narration[0].claims[0].quiet.toMs");
    let (path, _) = refused(json!([{ "text": "t", "otherwise": "{orders.speed}" }]));
    assert_eq!(path, "narration[0].otherwise");
    let (path, got) = refused(json!([{ "text": "t", "claims": [
        { "behaviour": { "consumer": "worker-1", "is": "patient" } }] }]));
    assert_eq!(path, "narration[0].claims[0].behaviour.is");
    assert_eq!(got, "\"patient\"");
    let (path, _) = refused(json!([{ "text": "t", "claims": [
        { "noBehaviour": { "consumer": "worker-9", "is": "idempotent" } }] }]));
    assert_eq!(path, "narration[0].claims[0].noBehaviour.consumer");
    let (path, _) = refused(json!([{ "text": "t", "claims": [
        { "settingIs": { "value": "{worker-1.speed}", "is": "1" } }] }]));
    assert_eq!(path, "narration[0].claims[0].settingIs.value");
}
