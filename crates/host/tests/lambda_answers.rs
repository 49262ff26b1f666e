//! Your code's answers to a Lambda function's invocations reach the run as
//! requests (`Lambda.<Operation>`), so the journal records them at their
//! moments and a replay from it gives the same answers again without the
//! code: the replayed run is the run.

use queuelab_engine::Principal;
use queuelab_host::{Host, PlaygroundOptions};
use queuelab_protocol::Dispatched;
use serde_json::{json, Value};

fn scenario() -> String {
    json!({
        "title": "your code", "durationMs": 60_000,
        "queues": [{ "name": "invoices", "visibilityTimeoutSeconds": 30 }],
        "producers": [{ "name": "shop", "queue": "invoices", "sends": [
            { "atMs": 0, "body": "invoice 1", "delaySeconds": 1 },
            { "atMs": 0, "body": "invoice 2", "delaySeconds": 1 },
        ] }],
        "lambdas": [{
            "name": "invoice-mailer", "queue": "invoices", "timeoutSeconds": 5,
            "functionResponseTypes": ["ReportBatchItemFailures"],
            "handler": { "processing": { "fixedMs": 100 } },
        }],
    })
    .to_string()
}

fn send(host: &mut Host, op: &str, body: Value) -> (u16, Value) {
    match host.dispatch(
        &format!("Lambda.{op}"),
        &body.to_string(),
        &Principal::owner(),
    ) {
        Dispatched::Done(r) => (r.status, r.json()),
        Dispatched::Waiting(_) => panic!("a runtime call never waits"),
    }
}

fn state(host: &Host) -> (String, String) {
    let events: Vec<_> = host.simulation().events(0).collect();
    (
        serde_json::to_string(&events).unwrap(),
        host.snapshot_json(None, 0).unwrap(),
    )
}

#[test]
fn a_run_replayed_from_its_journal_gives_your_codes_answers_again() {
    let mut live = Host::from_scenario(&scenario(), PlaygroundOptions::default()).unwrap();
    let attach = json!({ "FunctionName": "invoice-mailer" });
    assert_eq!(send(&mut live, "AttachHandler", attach).0, 200);
    live.advance(1_000).unwrap();
    let pending = live.simulation().pending_invocations();
    assert_eq!(pending.len(), 1);
    let event: Value = serde_json::from_str(&pending[0].event).unwrap();
    let second = event["Records"][1]["messageId"].clone();
    live.advance(250).unwrap();
    let answer = json!({
        "FunctionName": "invoice-mailer", "Invocation": pending[0].invocation,
        "Response": { "batchItemFailures": [{ "itemIdentifier": second }] },
    });
    assert_eq!(send(&mut live, "InvocationResponse", answer).0, 200);
    let journal = live.journal().clone();
    let ops: Vec<(u64, &str)> = (journal.calls.iter())
        .map(|c| (c.t, c.op.as_str()))
        .collect();
    assert_eq!(
        ops,
        [
            (0, "Lambda.AttachHandler"),
            (1_250, "Lambda.InvocationResponse")
        ]
    );
    let mut replayed = Host::replay(&journal).expect("replays");
    live.advance(30_000).unwrap();
    replayed
        .advance(live.simulation().now() - replayed.simulation().now())
        .unwrap();
    assert_eq!(state(&replayed), state(&live));
    assert!(state(&live).0.contains("\"result\":\"partial\""));
}

#[test]
fn a_bad_runtime_request_is_refused_in_words() {
    let mut host = Host::from_scenario(&scenario(), PlaygroundOptions::default()).unwrap();
    let (status, body) = send(&mut host, "Deploy", json!({}));
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().contains("AttachHandler"));
    let (status, body) = send(
        &mut host,
        "AttachHandler",
        json!({ "FunctionName": "mailer" }),
    );
    assert_eq!(status, 404);
    assert_eq!(
        body["message"],
        "Function not found: \"mailer\" (this scenario's functions: invoice-mailer)"
    );
    let wrong = json!({ "FunctionName": "invoice-mailer", "Invocation": "one" });
    let (status, body) = send(&mut host, "InvocationResponse", wrong);
    assert_eq!(status, 400);
    assert_eq!(body["message"], "Invocation must be a whole number");
    let (status, _) = match host.dispatch("Lambda.InvocationError", "[1]", &Principal::owner()) {
        Dispatched::Done(r) => (r.status, r.json()),
        Dispatched::Waiting(_) => unreachable!(),
    };
    assert_eq!(status, 400);
}
