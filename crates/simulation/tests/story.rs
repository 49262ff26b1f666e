//! Narration triggered by the run (src/story.rs): which lines of a scenario
//! are shown, and when, is decided from the run's events.

use queuelab_engine::Config;
use queuelab_simulation::{Kind, Scenario, SimEvent, Simulation};
use serde_json::json;

fn load(name: &str) -> Scenario {
    let path = format!("{}/../../web/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The narration shown in a run to its end: (moment, whole line as shown).
fn story(scenario: Scenario) -> Vec<(u64, String)> {
    let duration = scenario.duration_ms;
    let mut sim = Simulation::new(scenario, Config::default()).unwrap();
    sim.advance(duration);
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(SimEvent::Narration { text }) => Some((e.time_ms, text)),
            _ => None,
        })
        .collect()
}

/// Whole lines as shown, listed plainly so that a change of words is a
/// change here: a test compares every character a student reads.
const TWO_FIXED_ENDING: &str = "Charged exactly once: worker-1 deleted the message while it was \
     still invisible, so no other worker received it.";
const FOUR_OPENING: &str = "worker-1 receives the order. It will need 3.5 s, longer than the \
     2 s visibility timeout.";
const NINE_FIXED_ENDING: &str = "worker-1 crashed while handling A-1002, but nothing was lost: \
     it had not deleted the message, so SQS made it visible again when its 5 s visibility \
     timeout ended.";

fn texts(scenario: Scenario) -> Vec<String> {
    story(scenario).into_iter().map(|(_, t)| t).collect()
}

fn scenario(value: serde_json::Value) -> Scenario {
    serde_json::from_value(value).unwrap()
}

/// One standard queue, one order sent at 0, two workers that take 3.5 s,
/// with the given visibility timeout and narration.
fn slow_pair(visibility: i64, narration: serde_json::Value) -> Scenario {
    scenario(json!({
        "title": "t", "durationMs": 10_000,
        "queues": [{ "name": "orders", "visibilityTimeoutSeconds": visibility }],
        "producers": [{ "name": "shop", "queue": "orders", "sends": [{ "atMs": 0, "body": "A" }] }],
        "consumers": [
            { "name": "worker-1", "queue": "orders", "processing": { "fixedMs": 3500 } },
            { "name": "worker-2", "queue": "orders", "processing": { "fixedMs": 3500 } }
        ],
        "narration": narration,
    }))
}

/// The shipped scenarios' other endings: the fix each teaches, applied.
fn fixed(name: &str) -> Option<Scenario> {
    let mut s = load(name);
    match name {
        "02-slow-consumer-duplicate.json" => s.queues[0].visibility_timeout_seconds = Some(5),
        "09-delete-before-process.json" => {
            s.consumers[0].behaviour.deletes_before_processing = false
        }
        _ => return None,
    }
    Some(s)
}

#[test]
fn every_shipped_scenario_tells_its_whole_story_as_written() {
    // Each shipped line applies to the file's own run, or (an ending
    // written for the fix the scenario teaches) to the fixed run: every
    // line is shown in one of them, and each line at most once.
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
        let s = load(&name);
        let written = s.narration.len();
        let file: Vec<String> = story(s).into_iter().map(|(_, t)| t).collect();
        let fixed: Vec<String> = fixed(&name).map_or_else(Vec::new, texts);
        let unique = |lines: &[String]| {
            lines
                .iter()
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        };
        assert_eq!(unique(&file), file.len(), "{name}: each line at most once");
        let mut all = file.clone();
        all.extend(fixed);
        assert_eq!(
            unique(&all),
            written,
            "{name}: every line is shown in the file's run or the fixed one"
        );
        if !name.starts_with("02") && !name.starts_with("09") {
            assert_eq!(
                file.len(),
                written,
                "{name}: every line is shown in the file's own run"
            );
        }
    }
}

#[test]
fn a_fixed_run_ends_with_its_own_line_and_the_files_run_does_not_show_it() {
    let last = |s: Scenario| texts(s).last().cloned().unwrap_or_default();
    let two = fixed("02-slow-consumer-duplicate.json").unwrap();
    assert_eq!(last(two), TWO_FIXED_ENDING);
    assert!(!texts(load("02-slow-consumer-duplicate.json"))
        .iter()
        .any(|t| t == TWO_FIXED_ENDING));
    let nine = fixed("09-delete-before-process.json").unwrap();
    assert_eq!(last(nine), NINE_FIXED_ENDING);
    assert!(!texts(load("09-delete-before-process.json"))
        .iter()
        .any(|t| t == NINE_FIXED_ENDING));
}

/// The narration its golden event log holds (tests/fixtures/scenario-logs,
/// written and checked by crates/protocol/tests/scenario_logs.rs with the
/// realism knobs off, as here): the same story in every process and build.
#[test]
fn the_same_seed_tells_the_story_its_golden_log_holds() {
    let path = format!(
        "{}/../../tests/fixtures/scenario-logs/06-fifo-message-groups.plain.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let told: Vec<(u64, String)> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|event| event["type"] == "narration")
        .map(|event| {
            let text = event["text"].as_str().unwrap().to_string();
            (event["timeMs"].as_u64().unwrap(), text)
        })
        .collect();
    assert!(told.len() >= 3, "{told:?}");
    let s = load("06-fifo-message-groups.json");
    assert_eq!(story(s), told);
}

#[test]
fn scenario_2_with_a_5_s_timeout_shows_no_line_about_a_duplicate() {
    let mut s = load("02-slow-consumer-duplicate.json");
    s.queues[0].visibility_timeout_seconds = Some(5);
    // Only the ending written for this fix.
    assert_eq!(
        texts(s),
        [TWO_FIXED_ENDING],
        "no duplicate, no second charge, no stale handle"
    );
}

#[test]
fn scenario_4_with_heartbeat_off_shows_neither_heartbeat_nor_never_visible_again() {
    let mut s = load("04-heartbeat.json");
    s.consumers[0].behaviour.heartbeat_every_ms = None;
    let shown = texts(s);
    assert_eq!(shown, [FOUR_OPENING], "only the opening line applies");
}

#[test]
fn scenario_9_with_delete_before_process_off_shows_no_lost_order() {
    let mut s = load("09-delete-before-process.json");
    s.consumers[0].behaviour.deletes_before_processing = false;
    // Only the ending written for this fix: nothing lost.
    assert_eq!(texts(s), [NINE_FIXED_ENDING]);
}

#[test]
fn a_line_waiting_for_an_event_is_shown_the_moment_it_happens() {
    let s = slow_pair(
        2,
        json!([{ "when": { "event": "duplicateDelivery" }, "text": "dup" }]),
    );
    assert_eq!(story(s), [(2000, "dup".to_string())]);
}

#[test]
fn an_event_before_at_ms_does_not_count() {
    let s = slow_pair(
        2,
        json!([
            { "atMs": 1, "when": { "event": "received" }, "text": "late receive" },
            { "when": { "event": "received", "receiveCount": 1 }, "text": "first receive" }
        ]),
    );
    assert_eq!(
        story(s),
        [
            (0, "first receive".to_string()),
            (2000, "late receive".to_string())
        ]
    );
}

#[test]
fn filters_pick_the_side_effect_that_happens_a_second_time() {
    let s = slow_pair(
        2,
        json!([{ "when": { "event": "sideEffect", "count": 2 }, "text": "twice" }]),
    );
    assert_eq!(story(s), [(5500, "twice".to_string())]);
    let s = slow_pair(
        5,
        json!([{ "when": { "event": "sideEffect", "count": 2 }, "text": "twice" }]),
    );
    assert_eq!(story(s), []);
}

#[test]
fn a_delete_by_a_worker_that_is_no_longer_the_latest_receiver_uses_a_stale_handle() {
    let line = json!([{ "when": { "event": "deletedWithStaleHandle", "consumer": "worker-1" }, "text": "stale" }]);
    assert_eq!(
        story(slow_pair(2, line.clone())),
        [(3500, "stale".to_string())]
    );
    assert_eq!(story(slow_pair(5, line)), []);
}

#[test]
fn work_longer_than_the_visibility_left_is_noticed_when_it_starts() {
    let line = json!([{ "when": { "event": "processingOutlastsVisibility" }, "text": "too slow" }]);
    assert_eq!(
        story(slow_pair(3, line.clone())),
        [(0, "too slow".to_string())]
    );
    assert_eq!(story(slow_pair(4, line)), []);
}

#[test]
fn a_line_after_another_waits_for_it() {
    let s = slow_pair(
        5,
        json!([
            { "atMs": 100, "after": "dup", "text": "after the duplicate" },
            { "id": "dup", "when": { "event": "duplicateDelivery" }, "text": "dup" }
        ]),
    );
    assert_eq!(story(s), [], "the line it follows never came");
    let s = slow_pair(
        2,
        json!([
            { "atMs": 100, "after": "dup", "text": "after the duplicate" },
            { "id": "dup", "when": { "event": "duplicateDelivery" }, "text": "dup" }
        ]),
    );
    assert_eq!(
        story(s),
        [
            (2000, "dup".to_string()),
            (2000, "after the duplicate".to_string())
        ]
    );
}

#[test]
fn an_end_line_is_shown_at_the_end_only_if_its_condition_held() {
    let lines = json!([
        { "atEnd": { "sideEffectsEach": 1 }, "text": "charged once" },
        { "atEnd": { "noDuplicateDelivery": true }, "text": "no duplicate" },
        { "atEnd": {}, "text": "the end" }
    ]);
    let end = |t: &str| (10_000, t.to_string());
    assert_eq!(story(slow_pair(2, lines.clone())), [end("the end")]);
    assert_eq!(
        story(slow_pair(5, lines)),
        [end("charged once"), end("no duplicate"), end("the end")]
    );
}

#[test]
fn a_line_naming_an_unknown_line_to_follow_is_refused() {
    let s = slow_pair(2, json!([{ "after": "nope", "text": "x" }]));
    let error = Simulation::new(s, Config::default()).err().unwrap();
    assert!(
        error
            .message
            .contains("narration[0].after must be the id of another narration line, got \"nope\""),
        "{}",
        error.message
    );
}

#[test]
fn a_line_with_an_event_and_an_end_condition_is_shown_at_the_end_only_if_the_event_happened() {
    let lines = json!([{ "when": { "event": "duplicateDelivery" }, "atEnd": {}, "text": "there was a duplicate" }]);
    assert_eq!(
        story(slow_pair(2, lines.clone())),
        [(10_000, "there was a duplicate".to_string())]
    );
    assert_eq!(story(slow_pair(5, lines)), []);
}

#[test]
fn an_end_condition_written_as_an_array_is_refused() {
    let parsed: Result<Scenario, _> = serde_json::from_value(json!({
        "title": "t", "durationMs": 1000, "queues": [],
        "narration": [{ "atEnd": [], "text": "x" }],
    }));
    let error = parsed
        .expect_err("an array is not an end condition")
        .to_string();
    assert!(error.contains("expected an object"), "{error}");
}

#[test]
fn a_story_of_more_than_200_lines_is_refused_in_plain_words() {
    // 50,000 lines, each after the last: checked one against another, they
    // froze the tab for half a minute before the bound.
    let n = 50_000;
    let lines: Vec<_> = (0..n)
        .map(|i| json!({ "id": format!("l{i}"), "after": format!("l{}", n - 1), "text": "x" }))
        .collect();
    let error = Simulation::new(slow_pair(2, json!(lines)), Config::default())
        .err()
        .unwrap();
    assert!(
        error
            .message
            .contains("narration must be a list of at most 200 lines, got 50000 lines"),
        "{}",
        error.message
    );
    let lines: Vec<_> = (0..200)
        .map(|i| json!({ "atMs": i, "text": "x" }))
        .collect();
    assert_eq!(story(slow_pair(2, json!(lines))).len(), 200);
}

/// With worker-1's heartbeat on, the 2 s timeout never outlasted the work:
/// the heartbeat kept the message invisible. The ending must not credit the
/// timeout (it used to say "the 2 s visibility timeout outlasted the 3.5 s
/// of work" in this run).
#[test]
fn scenario_2_fixed_by_a_heartbeat_ends_without_crediting_the_visibility_timeout() {
    let mut s = load("02-slow-consumer-duplicate.json");
    s.consumers[0].behaviour.heartbeat_every_ms = Some(1000);
    let all = texts(s);
    let ending = all.last().expect("an ending");
    assert_eq!(ending, TWO_FIXED_ENDING, "{all:?}");
    assert!(!ending.contains("visibility"), "{ending}");
}

#[test]
fn a_call_failed_trigger_with_a_code_fires_only_for_a_failure_with_that_code() {
    let s = scenario(json!({
        "title": "codes", "durationMs": 3000,
        "keys": [{ "alias": "alias/orders" }],
        "queues": [{ "name": "orders", "encryption": { "kmsKey": "alias/orders" } }],
        "producers": [{ "name": "shop", "queue": "orders", "sends": [{ "atMs": 2000, "body": "A-1" }] }],
        "operators": [{ "name": "ops", "calls": [
            { "atMs": 1000, "call": { "disableKey": { "key": "alias/orders" } } }
        ] }],
        "narration": [
            { "when": { "event": "callFailed", "code": "AccessDenied" }, "text": "refused by a policy" },
            { "when": { "event": "callFailed", "consumer": "shop", "code": "KMS.DisabledException" }, "text": "the key is disabled" }
        ]
    }));
    assert_eq!(story(s), [(2000, "the key is disabled".to_string())]);
}

#[test]
fn a_kms_requested_trigger_counts_the_queues_kms_requests_so_far() {
    let s = scenario(json!({
        "title": "kms", "durationMs": 130_000,
        "keys": [{ "alias": "alias/orders" }],
        "queues": [
            { "name": "short", "encryption": { "kmsKey": "alias/orders", "dataKeyReusePeriodSeconds": 60 } },
            { "name": "long", "encryption": { "kmsKey": "alias/orders", "dataKeyReusePeriodSeconds": 86400 } }
        ],
        "producers": [
            { "name": "a", "queue": "short", "rate": { "everyMs": 10_000, "count": 13, "body": "a {n}" } },
            { "name": "b", "queue": "long", "rate": { "everyMs": 10_000, "count": 13, "body": "b {n}" } }
        ],
        "narration": [
            { "when": { "event": "kmsRequested", "queue": "short", "count": 3 }, "text": "short's third" },
            { "when": { "event": "kmsRequested", "queue": "long", "count": 3 }, "text": "long's third" },
            { "when": { "event": "kmsRequested", "consumer": "b" }, "text": "b's first" },
            { "atEnd": { "mostKmsRequests": "short" }, "text": "short made the most" },
            { "atEnd": { "mostKmsRequests": "long" }, "text": "long made the most" }
        ]
    }));
    // A send after each 60 s period calls KMS twice (GenerateDataKey, Decrypt).
    assert_eq!(
        story(s),
        [
            (0, "b's first".to_string()),
            (60_000, "short's third".to_string()),
            (130_000, "short made the most".to_string())
        ]
    );
}

#[test]
fn access_triggers_fire_on_the_gates_decisions_for_another_account() {
    let grant = json!({ "Version": "2012-10-17", "Statement": [{ "Effect": "Allow",
        "Principal": { "AWS": "222222222222" }, "Action": "sqs:SendMessage", "Resource": "*" }] });
    let s = scenario(json!({
        "title": "access", "durationMs": 2000,
        "queues": [{ "name": "orders", "policy": grant }],
        "producers": [
            { "name": "partner", "account": "111111111111", "queue": "orders", "sends": [{ "atMs": 1000, "body": "p" }] },
            { "name": "friend", "account": "222222222222", "queue": "orders", "sends": [{ "atMs": 500, "body": "f" }] },
            { "name": "shop", "queue": "orders", "sends": [{ "atMs": 0, "body": "s" }] }
        ],
        "narration": [
            { "when": { "event": "accessDenied", "consumer": "partner" }, "text": "partner refused" },
            { "when": { "event": "accessAllowed", "queue": "orders" }, "text": "someone allowed" },
            { "when": { "event": "accessDenied", "consumer": "friend" }, "text": "friend refused" }
        ]
    }));
    assert_eq!(
        story(s),
        [
            (500, "someone allowed".to_string()),
            (1000, "partner refused".to_string())
        ]
    );
}

/// One queue with three orders sent at 0 (the second malformed) and the
/// function `charge` polling it, with `lambda`'s fields over a plain one's.
fn with_function(lambda: serde_json::Value, narration: serde_json::Value) -> Scenario {
    let mut function = json!({
        "name": "charge", "queue": "orders", "timeoutSeconds": 1,
        "handler": { "processing": { "fixedMs": 100 }, "failsOn": ["malformed"] },
    });
    for (k, v) in lambda.as_object().unwrap() {
        function[k] = v.clone();
    }
    let sends: Vec<_> = ["A-1", "A-2 malformed", "A-3"]
        .iter()
        .map(|b| json!({ "atMs": 0, "body": b }))
        .collect();
    scenario(json!({
        "title": "t", "durationMs": 10_000,
        "queues": [{ "name": "orders", "visibilityTimeoutSeconds": 6 }],
        "producers": [{ "name": "shop", "queue": "orders", "sends": sends }],
        "lambdas": [function],
        "narration": narration,
    }))
}

#[test]
fn a_lambda_returned_line_waits_for_the_result_and_the_count_of_records_it_names() {
    let lines = json!([
        { "when": { "event": "lambdaReturned", "consumer": "charge", "result": "success" }, "text": "success" },
        { "when": { "event": "lambdaReturned", "consumer": "charge", "result": "error", "count": 1 }, "text": "one back" },
        { "when": { "event": "lambdaReturned", "consumer": "charge", "result": "error", "count": 3 }, "text": "all back" },
    ]);
    // One receive is one batch of three: the error returns all three.
    let plain = story(with_function(json!({}), lines.clone()));
    assert_eq!(plain, [(300, "all back".to_string())]);
    let lines = json!([
        { "when": { "event": "lambdaReturned", "result": "partial", "count": 1 }, "text": "only A-2 back" },
        { "when": { "event": "lambdaReturned", "result": "error" }, "text": "error" },
    ]);
    let rbif = json!({ "functionResponseTypes": ["ReportBatchItemFailures"] });
    assert_eq!(
        story(with_function(rbif, lines)),
        [(300, "only A-2 back".to_string())]
    );
}

#[test]
fn a_lambda_throttled_line_names_the_function_and_its_batchs_records() {
    let lines = json!([
        { "when": { "event": "lambdaThrottled", "consumer": "other" }, "text": "other" },
        { "when": { "event": "lambdaThrottled", "consumer": "charge", "count": 3 }, "text": "throttled" },
    ]);
    let told = story(with_function(json!({ "reservedConcurrency": 0 }), lines));
    assert_eq!(told, [(0, "throttled".to_string())]);
}

#[test]
fn a_lambda_scaled_line_waits_for_the_pollers_it_names_as_a_number_or_a_setting() {
    let mut s = load("22-lambda-scaling.json");
    s.narration = serde_json::from_value(json!([
        { "when": { "event": "lambdaScaled", "count": 305 }, "text": "305" },
        { "when": { "event": "lambdaScaled", "count": "{process-orders.maximumConcurrency}" }, "text": "up to the maximum" },
        { "when": { "event": "lambdaScaled", "consumer": "process-orders", "count": 5 }, "text": "back to five" },
    ]))
    .unwrap();
    s.checkpoints.clear();
    assert_eq!(
        story(s),
        [
            (60_000, "up to the maximum".to_string()),
            (120_000, "back to five".to_string())
        ]
    );
}

#[test]
fn an_alarm_changed_line_is_shown_at_the_moment_the_alarm_reaches_the_state_it_names() {
    let s = scenario(json!({
        "title": "t", "durationMs": 5_000,
        "queues": [{ "name": "orders" }],
        "producers": [{ "name": "shop", "queue": "orders", "sends": [
            { "atMs": 0, "body": "A-1" }, { "atMs": 1500, "body": "A-2" }
        ] }],
        "metrics": { "resolutionSeconds": 1 },
        "alarms": [{ "name": "two-waiting", "queue": "orders", "threshold": 2 }],
        "narration": [
            { "when": { "event": "alarmChanged", "consumer": "two-waiting", "result": "ALARM" }, "text": "in ALARM" },
            { "when": { "event": "alarmChanged", "queue": "orders", "result": "OK" }, "text": "OK first" },
            { "when": { "event": "alarmChanged", "consumer": "another" }, "text": "another" },
        ],
    }));
    // One waits in the first period (OK at its end, 1 s); two from 1.5 s
    // (ALARM at the end of the second period, 2 s).
    assert_eq!(
        story(s),
        [
            (1000, "OK first".to_string()),
            (2000, "in ALARM".to_string())
        ]
    );
}

#[test]
fn an_alarm_change_does_not_break_a_quiet_span() {
    let s = scenario(json!({
        "title": "t", "durationMs": 5_000,
        "queues": [{ "name": "orders" }],
        "producers": [{ "name": "shop", "queue": "orders", "sends": [{ "atMs": 0, "body": "A-1" }] }],
        "metrics": { "resolutionSeconds": 1 },
        "alarms": [{ "name": "one-waiting", "queue": "orders", "threshold": 1 }],
        "narration": [
            { "atMs": 3000, "claims": [{ "quiet": { "fromMs": 500, "toMs": 2500 } }], "text": "quiet", "otherwise": "not quiet" },
        ],
    }));
    assert_eq!(story(s), [(3000, "quiet".to_string())]);
}
