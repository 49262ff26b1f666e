//! Your code as a Lambda function (`lambda_runtime.rs`,
//! `actors/lambda/runtime.rs`): once attached, a function's invocations
//! wait for an answer given from outside at a virtual moment; the answer
//! ends the invocation at the later of its moment and the scenario's
//! duration, no answer by the timeout is a timeout, and what the answer
//! means for the batch is read as Lambda reads it (a partial batch
//! response, an invalid one failing the whole batch, an error).

use queuelab_engine::{Config, Millis, Principal};
use queuelab_simulation::lambda_runtime::{
    RuntimeAction, RuntimeCall, RuntimeError, MAX_PENDING_LISTED,
};
use queuelab_simulation::{Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

const FUNCTION: &str = "invoice-mailer";

/// Orders sent at 0 ms with a 1 s delay on a queue with a 30 s visibility timeout; the
/// function takes 100 ms a record (300 ms for the batch), times out after
/// 2 s, and reports batch item failures.
fn scenario(bodies: &[&str]) -> Scenario {
    let sends: Vec<Value> = bodies
        .iter()
        .map(|b| json!({ "atMs": 0, "body": b, "delaySeconds": 1 }))
        .collect();
    serde_json::from_value(json!({
        "title": "your code", "durationMs": 120_000,
        "queues": [{ "name": "invoices", "visibilityTimeoutSeconds": 30 }],
        "producers": [{ "name": "shop", "queue": "invoices", "sends": sends }],
        "lambdas": [{
            "name": FUNCTION, "queue": "invoices", "timeoutSeconds": 2,
            "functionResponseTypes": ["ReportBatchItemFailures"],
            "handler": { "processing": { "fixedMs": 100 } },
        }],
    }))
    .expect("a well-formed scenario")
}

fn call(action: RuntimeAction) -> RuntimeCall {
    RuntimeCall {
        function_name: Some(FUNCTION.into()),
        action,
    }
}

/// A run with the function attached at 0 ms, at its first invocation's
/// start (1 s: the orders' delay ends, one waiting long poll takes them
/// all, and with no batching window the batch goes at once).
fn attached(bodies: &[&str]) -> Simulation {
    let mut sim = Simulation::new(scenario(bodies), Config::default()).expect("starts");
    ask(&mut sim, call(RuntimeAction::Attach)).expect("attached");
    sim.advance(1_000);
    sim
}

fn ask(sim: &mut Simulation, call: RuntimeCall) -> Result<(), RuntimeError> {
    sim.lambda_runtime(call, &Principal::owner())
}

fn respond(sim: &mut Simulation, invocation: u64, response: Value) -> Result<(), String> {
    ask(
        sim,
        call(RuntimeAction::Respond {
            invocation: Some(invocation),
            response: Some(response.to_string()),
            response_bytes: None,
        }),
    )
    .map_err(|e| format!("{} {}: {}", e.status, e.code, e.message))
}

fn events(sim: &Simulation) -> Vec<(Millis, SimEvent)> {
    sim.events(0)
        .filter_map(|e| match e.kind {
            Kind::Simulation(s) => Some((e.time_ms, s)),
            Kind::Sqs(_) => None,
        })
        .collect()
}

/// Each invocation's end: moment, result, failed ids, why.
fn returned(sim: &Simulation) -> Vec<(Millis, &'static str, Vec<String>, Option<String>)> {
    events(sim)
        .into_iter()
        .filter_map(|(t, e)| match e {
            SimEvent::LambdaReturned {
                result,
                failed,
                why,
                ..
            } => Some((t, result, failed, why)),
            _ => None,
        })
        .collect()
}

/// The first pending invocation's number and its records' messageIds.
fn pending(sim: &Simulation) -> (u64, Vec<String>) {
    let all = sim.pending_invocations();
    let first = all.first().expect("an invocation waits");
    let event: Value = serde_json::from_str(&first.event).expect("the event is JSON");
    let ids = event["Records"]
        .as_array()
        .expect("Records")
        .iter()
        .map(|r| r["messageId"].as_str().expect("a messageId").to_owned())
        .collect();
    (first.invocation, ids)
}

fn in_queue(sim: &Simulation) -> usize {
    let snapshot = sim.engine().snapshot();
    snapshot.queues[0].messages.len()
}

#[test]
fn an_attached_function_hands_its_invocation_out_with_lambdas_event_json() {
    let sim = attached(&["a", "b", "c"]);
    let all = sim.pending_invocations();
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!(
        (all[0].function.as_str(), all[0].started_at),
        (FUNCTION, 1_000)
    );
    assert_eq!(all[0].deadline, 3_000);
    let event: Value = serde_json::from_str(&all[0].event).unwrap();
    let records = event["Records"].as_array().unwrap();
    assert_eq!(records.len(), 3);
    assert_eq!(records[0]["eventSource"], "aws:sqs");
    assert_eq!(records[0]["body"], "a");
    // The snapshot draws it as waiting for your code, until its timeout.
    let snap = sim.snapshot();
    let running = &snap.lambdas[0].running[0];
    assert!(running.awaiting);
    assert_eq!(running.ends_at, 3_000);
}

#[test]
fn an_answer_in_time_ends_the_invocation_at_the_end_of_its_duration() {
    let mut sim = attached(&["a", "b", "c"]);
    let (invocation, ids) = pending(&sim);
    let failures = json!({ "batchItemFailures": [{ "itemIdentifier": ids[1] }] });
    respond(&mut sim, invocation, failures).unwrap();
    assert!(sim.pending_invocations().is_empty());
    sim.advance(5_000);
    // Answered at 1 s; the batch's work takes 300 ms of virtual time.
    let ends = returned(&sim);
    assert_eq!(ends[0], (1_300, "partial", vec![ids[1].clone()], None));
    assert_eq!(
        in_queue(&sim),
        1,
        "the failed message waits for its visibility timeout"
    );
}

#[test]
fn a_late_answer_ends_the_invocation_at_the_moment_it_came() {
    let mut sim = attached(&["a", "b", "c"]);
    let (invocation, _) = pending(&sim);
    sim.advance(1_100);
    assert!(returned(&sim).is_empty(), "it waits for the answer");
    respond(&mut sim, invocation, json!({ "batchItemFailures": [] })).unwrap();
    let ends = returned(&sim);
    assert_eq!(ends, vec![(2_100, "success", vec![], None)]);
    assert_eq!(in_queue(&sim), 0, "deleted at once");
}

#[test]
fn no_answer_by_the_timeout_is_a_timeout() {
    let mut sim = attached(&["a", "b", "c"]);
    let (invocation, ids) = pending(&sim);
    sim.advance(3_000);
    let ends = returned(&sim);
    assert_eq!(ends, vec![(3_000, "timeout", ids, None)]);
    // An answer after the timeout finds nothing waiting.
    let late = respond(&mut sim, invocation, Value::Null).unwrap_err();
    assert!(late.starts_with("409 ResourceConflictException"), "{late}");
    assert!(late.contains("has ended"), "{late}");
}

#[test]
fn an_answer_whose_work_would_pass_the_timeout_is_a_timeout() {
    // A second a record: 3 s of work, past the 2 s timeout, however early
    // the code answers.
    let mut text = serde_json::to_value(scenario(&["a", "b", "c"])).unwrap();
    text["lambdas"][0]["handler"]["processing"] = json!({ "fixedMs": 1_000 });
    let scenario: Scenario = serde_json::from_value(text).unwrap();
    let mut sim = Simulation::new(scenario, Config::default()).unwrap();
    ask(&mut sim, call(RuntimeAction::Attach)).unwrap();
    sim.advance(1_000);
    let (invocation, _) = pending(&sim);
    respond(&mut sim, invocation, Value::Null).unwrap();
    sim.advance(5_000);
    assert_eq!(returned(&sim)[0].0, 3_000);
    assert_eq!(returned(&sim)[0].1, "timeout");
}

#[test]
fn an_invalid_response_from_your_code_fails_the_whole_batch() {
    let mut sim = attached(&["a", "b", "c"]);
    let (invocation, ids) = pending(&sim);
    let wrong = json!({ "batchItemFailures": [{ "itemIdentifier": "not-in-this-batch" }] });
    respond(&mut sim, invocation, wrong).unwrap();
    sim.advance(1_000);
    let (t, result, failed, why) = returned(&sim).remove(0);
    assert_eq!((t, result, failed), (1_300, "invalidResponse", ids));
    assert!(why.unwrap().contains("not-in-this-batch"));
}

#[test]
fn your_code_throwing_fails_the_batch_with_its_words() {
    let mut sim = attached(&["a", "b", "c"]);
    let (invocation, ids) = pending(&sim);
    ask(
        &mut sim,
        call(RuntimeAction::Fail {
            invocation: Some(invocation),
            error_type: Some("TypeError".into()),
            error_message: Some("record.body.toUpperCase is not a function".into()),
        }),
    )
    .unwrap();
    sim.advance(1_000);
    let (_, result, failed, why) = returned(&sim).remove(0);
    assert_eq!((result, failed), ("error", ids));
    assert_eq!(
        why.as_deref(),
        Some("TypeError: record.body.toUpperCase is not a function")
    );
}

#[test]
fn a_response_past_lambdas_6_mb_fails_the_invocation() {
    let mut sim = attached(&["a"]);
    let (invocation, ids) = pending(&sim);
    ask(
        &mut sim,
        call(RuntimeAction::Respond {
            invocation: Some(invocation),
            response: None,
            response_bytes: Some(7_000_000),
        }),
    )
    .unwrap();
    sim.advance(1_000);
    let (_, result, failed, why) = returned(&sim).remove(0);
    assert_eq!((result, failed), ("error", ids));
    assert!(why.unwrap().contains("ResponseSizeTooLarge"));
}

#[test]
fn an_invocation_takes_one_answer() {
    let mut sim = attached(&["a", "b", "c"]);
    let (invocation, _) = pending(&sim);
    respond(&mut sim, invocation, Value::Null).unwrap();
    let again = respond(&mut sim, invocation, Value::Null).unwrap_err();
    assert!(again.contains("not waiting for an answer"), "{again}");
    let never = respond(&mut sim, 99, Value::Null).unwrap_err();
    assert!(never.contains("has no invocation 99"), "{never}");
}

#[test]
fn an_unknown_function_is_refused_naming_the_functions_there_are() {
    let mut sim = Simulation::new(scenario(&["a"]), Config::default()).unwrap();
    let e = ask(
        &mut sim,
        RuntimeCall {
            function_name: Some("invoice-mailr".into()),
            action: RuntimeAction::Attach,
        },
    )
    .unwrap_err();
    assert_eq!((e.code, e.status), ("ResourceNotFoundException", 404));
    assert_eq!(
        e.message,
        "Function not found: \"invoice-mailr\" (this scenario's functions: invoice-mailer)"
    );
    let e = ask(&mut sim, RuntimeCall::default()).unwrap_err();
    assert_eq!(e.message, "FunctionName is required");
    let e = ask(
        &mut sim,
        call(RuntimeAction::Respond {
            invocation: None,
            response: None,
            response_bytes: None,
        }),
    )
    .unwrap_err();
    assert_eq!(e.message, "Invocation is required");
}

#[test]
fn a_detached_function_runs_the_scenarios_handler_again() {
    let mut sim = attached(&["a", "b", "c"]);
    ask(&mut sim, call(RuntimeAction::Detach)).unwrap();
    // The invocation running keeps waiting for your code; it times out.
    sim.advance(60_000);
    let ends = returned(&sim);
    assert_eq!(ends[0].1, "timeout");
    // The batch comes back after its visibility timeout, and the described
    // handler runs it.
    assert!(ends[1..].iter().any(|e| e.1 == "success"), "{ends:?}");
    assert!(sim.pending_invocations().is_empty());
}

#[test]
fn pending_invocations_are_listed_oldest_first_and_bounded() {
    // Batches of one: with no answers, the five pollers' invocations wait.
    let bodies: Vec<String> = (0..40).map(|i| format!("order-{i}")).collect();
    let bodies: Vec<&str> = bodies.iter().map(String::as_str).collect();
    let mut text = serde_json::to_value(scenario(&bodies)).unwrap();
    text["lambdas"][0]["batchSize"] = json!(1);
    let scenario: Scenario = serde_json::from_value(text).unwrap();
    let mut sim = Simulation::new(scenario, Config::default()).unwrap();
    ask(&mut sim, call(RuntimeAction::Attach)).unwrap();
    sim.advance(1_000);
    let all = sim.pending_invocations();
    assert!(all.len() <= MAX_PENDING_LISTED);
    assert!(!all.is_empty());
    let starts: Vec<Millis> = all.iter().map(|p| p.started_at).collect();
    let mut sorted = starts.clone();
    sorted.sort();
    assert_eq!(starts, sorted);
}

#[test]
fn the_same_answers_at_the_same_moments_make_the_same_run() {
    let run = || {
        let mut sim = attached(&["a", "b", "c"]);
        let (invocation, ids) = pending(&sim);
        sim.advance(500);
        let failures = json!({ "batchItemFailures": [{ "itemIdentifier": ids[0] }] });
        respond(&mut sim, invocation, failures).unwrap();
        sim.advance(60_000);
        serde_json::to_string(&sim.events(0).collect::<Vec<_>>()).unwrap()
    };
    assert_eq!(run(), run());
}

#[test]
fn another_account_may_not_answer_for_the_functions() {
    let mut sim = attached(&["a"]);
    let stranger = Principal::account("111111111111").unwrap();
    let e = sim
        .lambda_runtime(call(RuntimeAction::Detach), &stranger)
        .unwrap_err();
    assert_eq!((e.code, e.status), ("AccessDeniedException", 403));
}

#[test]
fn advance_can_pause_where_an_invocation_is_handed_out_and_the_run_is_the_same() {
    let run = |pause: bool| {
        let mut sim = Simulation::new(scenario(&["a", "b", "c"]), Config::default()).unwrap();
        sim.pause_at_invocations(pause);
        ask(&mut sim, call(RuntimeAction::Attach)).unwrap();
        // Where each advance stopped, asking for 60 s each time.
        let mut stops = Vec::new();
        while sim.now() < 60_000 {
            stops.push(sim.advance(60_000 - sim.now()));
        }
        let events = serde_json::to_string(&sim.events(0).collect::<Vec<_>>()).unwrap();
        (stops, events)
    };
    let (stops, paused) = run(true);
    // Handed out at 1 s; unanswered, it times out, and the batch comes
    // back at 31 s (its visibility timeout) and is handed out again.
    assert_eq!(stops, [1_000, 31_000, 60_000]);
    let (stops, straight) = run(false);
    assert_eq!(stops, [60_000]);
    assert_eq!(paused, straight);
}
