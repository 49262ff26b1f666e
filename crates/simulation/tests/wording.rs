//! The words the simulation writes (summaries, explanations, a lab's
//! verdicts and conditions) say what the run on screen did, in the number
//! and the names people use: "1 receive", "order A-1001's visibility", a
//! summary quoting the run's own settings, a verdict naming the cause.

use queuelab_engine::Config;
use queuelab_simulation::{run_seed, KnobValue, Scenario, Settings, Simulation};
use serde_json::json;

fn file(path: &str) -> Scenario {
    let path = format!("{}/../../web/scenarios/{path}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every shipped scenario (web/scenarios/index.json).
fn shipped() -> Vec<Scenario> {
    let index = format!(
        "{}/../../web/scenarios/index.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(index).unwrap()).unwrap();
    index
        .as_array()
        .unwrap()
        .iter()
        .map(|stem| {
            let stem = stem.as_str().or(stem["file"].as_str()).unwrap();
            let stem = stem.trim_end_matches(".json");
            file(&format!("{stem}.json"))
        })
        .collect()
}

/// Every explanation a run of `scenario` shows, in order, read every 100 ms
/// (its authored lines taken away, so each moment is explained, and its
/// checkpoints with them: one may wait for a line).
fn explanations(mut scenario: Scenario) -> Vec<String> {
    scenario.narration.clear();
    scenario.checkpoints.clear();
    let end = scenario.duration_ms;
    let mut sim = Simulation::new(scenario, Config::default()).unwrap();
    let mut said: Vec<String> = Vec::new();
    while sim.now() < end {
        sim.advance(100.min(end - sim.now()));
        if let Some(text) = sim.snapshot().explanation {
            if said.last() != Some(&text) {
                said.push(text);
            }
        }
    }
    said
}

fn one_slow_pair(max_receive_count: Option<u32>) -> Scenario {
    let redrive =
        max_receive_count.map(|n| json!({ "deadLetterQueue": "orders-dlq", "maxReceiveCount": n }));
    serde_json::from_value(json!({
        "title": "t", "durationMs": 10_000,
        "queues": [{ "name": "orders-dlq" }, { "name": "orders", "visibilityTimeoutSeconds": 2, "redrive": redrive }],
        "producers": [{ "name": "shop", "queue": "orders", "sends": [{ "atMs": 0, "body": "order A-1001: charge $25" }] }],
        "consumers": [
            { "name": "worker-1", "queue": "orders", "waitTimeSeconds": 20, "processing": { "fixedMs": 3500 } },
            { "name": "worker-2", "queue": "orders", "waitTimeSeconds": 20, "processing": { "fixedMs": 3500 } }
        ],
    }))
    .unwrap()
}

#[test]
fn a_dead_letter_move_after_one_receive_says_one_receive() {
    let mut s = file("05-poison-message.json");
    s.queues[1].redrive.as_mut().unwrap().max_receive_count = 1;
    let said = explanations(s);
    let moved = said
        .iter()
        .find(|t| t.contains(" moved to orders-dlq"))
        .expect("a move");
    assert!(moved.contains("after 1 receive:"), "{moved}");
}

#[test]
fn a_delete_with_an_older_receipt_handle_is_said_as_aws_says_it() {
    let said = explanations(one_slow_pair(None));
    let stale = said
        .iter()
        .find(|t| t.contains("older receipt handle"))
        .expect("a stale delete");
    assert!(stale.contains("the request succeeds"), "{stale}");
    assert!(stale.contains("might not be deleted"), "{stale}");
    assert!(!stale.contains("still deletes"), "{stale}");
}

#[test]
fn a_message_is_named_as_people_name_it_and_takes_a_plain_possessive() {
    let said = explanations(file("04-heartbeat.json"));
    assert!(
        said.iter()
            .any(|t| t.starts_with("worker-1 extended order A-1001's visibility")),
        "{said:#?}"
    );
}

#[test]
fn no_explanation_of_a_shipped_scenario_quotes_a_whole_body_or_miscounts_one() {
    let mut checked = 0;
    for s in shipped() {
        let title = s.title.clone();
        for text in explanations(s) {
            for wrong in [
                "”'s",
                "\"'s",
                " 1 receives",
                " 1 times",
                " 1 requests",
                ": charge $",
            ] {
                assert!(!text.contains(wrong), "{title}: {text}");
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "explanations read: {checked}");
}

#[test]
fn a_summary_quotes_the_settings_of_the_run_on_screen() {
    let mut s = file("05-poison-message.json");
    s.queues[1].redrive.as_mut().unwrap().max_receive_count = 5;
    let sim = Simulation::new(s, Config::default()).unwrap();
    let summary = sim.snapshot().summary;
    assert!(summary.contains("until maxReceiveCount (5)"), "{summary}");
    assert!(!summary.contains("{"), "{summary}");
}

#[test]
fn a_fifo_lab_failure_names_the_earlier_messages_of_its_group_it_waited_behind() {
    let lab = file("labs/06-fifo-order.json");
    let settings: Settings = [
        ("queueType".to_string(), KnobValue::Text("fifo".into())),
        ("groupId".to_string(), KnobValue::Text("one".into())),
    ]
    .into_iter()
    .collect();
    let scenario = lab.with_settings(&settings).unwrap();
    let (failure, _) = run_seed(&scenario, 1).unwrap();
    let text = failure.expect("one group for all is too slow").message;
    // C-3 #1 is sent at 0.8 s, ninth of one group; C-1 #1 was shipped and
    // deleted by then, so seven were still ahead of it.
    assert!(
        text.contains("order C-3 #1 was not shipped by t = 9 s: it waited behind 7 earlier messages of its group shop, each in flight in turn"),
        "{text}"
    );
    assert!(
        text.contains("was still processing it at t = 9 s"),
        "{text}"
    );
    assert!(!text.contains("invisible until"), "{text}");
}

#[test]
fn a_goal_of_at_most_one_empty_receive_says_receive_in_the_singular() {
    let mut s = one_slow_pair(None);
    s.goal = Some(
        serde_json::from_value(json!({ "emptyReceivesAtMost": 1, "requestsAtMost": 1 })).unwrap(),
    );
    let view = s.lab_view().unwrap();
    let texts: Vec<&str> = view.conditions.iter().map(|c| c.text.as_str()).collect();
    assert!(texts.contains(&"At most 1 empty receive"), "{texts:?}");
    assert!(texts.contains(&"At most 1 SQS request"), "{texts:?}");
    let (failure, _) = run_seed(&s, 1).unwrap();
    let text = failure.expect("more than one request").message;
    assert!(text.contains("passed 1 request at"), "{text}");
}

#[test]
fn each_worker_shows_the_receive_requests_it_was_billed_for_long_and_short_polling() {
    let s = file("08-long-vs-short-polling.json");
    let end = s.duration_ms;
    let mut sim = Simulation::new(s, Config::default()).unwrap();
    sim.advance(end);
    let snap = sim.snapshot();
    let requests = |name: &str| {
        snap.workers
            .iter()
            .find(|w| w.name == name)
            .map(|w| w.receive_requests)
            .unwrap()
    };
    let (short, long) = (requests("short-poller"), requests("long-poller"));
    // Six readings, each answering a waiting long poll at once, and a poll
    // that runs out every 20 s in between.
    assert!((6..=12).contains(&long), "long-poller: {long} requests");
    // One short poll a second for 45 s, each billed, most of them empty.
    assert!(
        short >= 40 && short > 3 * long,
        "short-poller: {short}, long-poller: {long}"
    );
}

#[test]
fn a_redrive_after_one_receive_is_said_in_the_singular_in_every_line_of_the_run() {
    let labs = format!(
        "{}/../../web/scenarios/labs/index.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let labs: Vec<String> = serde_json::from_str(&std::fs::read_to_string(labs).unwrap()).unwrap();
    let labs = labs.iter().map(|name| file(&format!("labs/{name}")));
    let mut checked = 0;
    for mut s in shipped().into_iter().chain(labs) {
        let mut redrives = 0;
        for q in &mut s.queues {
            if let Some(r) = q.redrive.as_mut() {
                r.max_receive_count = 1;
                redrives += 1;
            }
        }
        if redrives == 0 {
            continue;
        }
        let (title, end) = (s.title.clone(), s.duration_ms);
        let mut sim = Simulation::new(s, Config::default()).unwrap();
        sim.advance(end);
        for e in sim.events(0) {
            let text = serde_json::to_string(&e).unwrap();
            for wrong in [" 1 receives", " 1 times", " 1 messages"] {
                assert!(!text.contains(wrong), "{title}: {text}");
            }
        }
        checked += 1;
    }
    assert!(checked >= 3, "scenarios and labs with a redrive: {checked}");
}

#[test]
fn a_fifo_failure_after_its_group_wait_still_names_the_visibility_it_waits_out() {
    // A then B in one group; B waits for A (1 s), then its handler fails at
    // 2 s and it stays invisible until 31 s: both causes are said.
    let s: Scenario = serde_json::from_value(json!({
        "title": "t", "durationMs": 10_000,
        "queues": [{ "name": "orders.fifo", "contentBasedDeduplication": true }],
        "producers": [{ "name": "shop", "queue": "orders.fifo", "sends": [
            { "atMs": 0, "body": "order A: boots", "groupId": "g" },
            { "atMs": 0, "body": "order B: laces", "groupId": "g" }
        ] }],
        "consumers": [{ "name": "worker-1", "queue": "orders.fifo", "waitTimeSeconds": 20,
                        "processing": { "fixedMs": 1000 }, "behaviour": { "failsOn": ["order B"] } }],
        "goal": { "processedByMs": 5000 }
    }))
    .unwrap();
    let (failure, _) = run_seed(&s, 1).unwrap();
    let text = failure.expect("order B is never shipped").message;
    assert_eq!(
        text,
        "with seed 1, order B was not charged by t = 5 s: it waited behind 1 earlier message \
         of its group g, each in flight in turn, and was first received at t = 1 s; its last \
         receive was at t = 1 s, and it was invisible until t = 31 s"
    );
}
