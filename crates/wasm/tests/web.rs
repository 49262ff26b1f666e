//! The JavaScript contract, exercised in headless Chromium by
//! `wasm-pack test --headless --chrome crates/wasm`.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Promise, Reflect};
use queuelab_wasm::Playground;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &key.into()).unwrap()
}

/// An options object for any options argument (they are typed in the d.ts).
fn options<T: JsCast>(value: Value) -> Option<T> {
    Some(
        js_sys::JSON::parse(&value.to_string())
            .unwrap()
            .unchecked_into(),
    )
}

struct Reply {
    status: f64,
    body: Value,
    response: JsValue,
}

async fn settle(promise: Promise) -> Reply {
    let response = JsFuture::from(promise).await.unwrap();
    let body = get(&response, "body").as_string().unwrap();
    Reply {
        status: get(&response, "status").as_f64().unwrap(),
        body: serde_json::from_str(&body).unwrap(),
        response,
    }
}

async fn call(pg: &mut Playground, operation: &str, body: Value) -> Reply {
    let promise = pg
        .dispatch(
            format!("AmazonSQS.{operation}").into(),
            body.to_string().into(),
            None,
        )
        .unwrap();
    settle(promise).await
}

async fn queue(pg: &mut Playground, name: &str) -> String {
    let reply = call(pg, "CreateQueue", json!({ "QueueName": name })).await;
    reply.body["QueueUrl"].as_str().unwrap().to_string()
}

#[wasm_bindgen_test]
async fn dispatch_answers_like_the_sqs_json_endpoint() {
    let mut pg = Playground::new(options(json!({ "seed": 7 }))).unwrap();
    let url = queue(&mut pg, "orders").await;
    let sent = call(
        &mut pg,
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "hi" }),
    )
    .await;
    assert_eq!(sent.status, 200.0);
    assert_eq!(
        sent.body["MD5OfMessageBody"],
        "49f68a5c8493ec2c0bf489821c21fc3b"
    );
    let headers = get(&sent.response, "headers");
    assert_eq!(
        get(&headers, "content-type").as_string().unwrap(),
        "application/x-amz-json-1.0"
    );
    let got = call(&mut pg, "ReceiveMessage", json!({ "QueueUrl": url })).await;
    assert_eq!(got.body["Messages"][0]["Body"], "hi");
}

#[wasm_bindgen_test]
async fn sqs_errors_are_answers_with_status_type_and_query_error_header() {
    let mut pg = Playground::new(None).unwrap();
    let reply = call(&mut pg, "GetQueueUrl", json!({ "QueueName": "missing" })).await;
    assert_eq!(reply.status, 400.0);
    assert_eq!(reply.body["__type"], "com.amazonaws.sqs#QueueDoesNotExist");
    assert_eq!(reply.body["message"], "The specified queue does not exist.");
    let headers = get(&reply.response, "headers");
    assert_eq!(
        get(&headers, "x-amzn-query-error").as_string().unwrap(),
        "AWS.SimpleQueueService.NonExistentQueue;Sender"
    );
    let unknown = call(&mut pg, "Frobnicate", json!({})).await;
    assert_eq!(
        unknown.body["__type"],
        "com.amazon.coral.service#UnknownOperationException"
    );
}

#[wasm_bindgen_test]
async fn long_poll_resolves_when_virtual_time_brings_a_message() {
    let mut pg = Playground::new(None).unwrap();
    let url = queue(&mut pg, "slow").await;
    call(
        &mut pg,
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "later", "DelaySeconds": 3 }),
    )
    .await;
    let poll = pg
        .dispatch(
            "AmazonSQS.ReceiveMessage".into(),
            json!({ "QueueUrl": url, "WaitTimeSeconds": 10 })
                .to_string()
                .into(),
            None,
        )
        .unwrap();
    assert_eq!(pg.advance(JsValue::from(2_999.0)).unwrap(), 2_999.0);
    assert_eq!(
        get(&pg.snapshot(None).unwrap(), "waitingPolls").as_f64(),
        Some(1.0)
    );
    pg.advance(JsValue::from(1.0)).unwrap();
    let reply = settle(poll).await;
    assert_eq!(reply.body["Messages"][0]["Body"], "later");
    assert_eq!(pg.now(), 3_000.0);
}

#[wasm_bindgen_test]
async fn long_poll_resolves_empty_when_its_wait_ends() {
    let mut pg = Playground::new(None).unwrap();
    let url = queue(&mut pg, "quiet").await;
    let poll = pg
        .dispatch(
            "AmazonSQS.ReceiveMessage".into(),
            json!({ "QueueUrl": url, "WaitTimeSeconds": 20 })
                .to_string()
                .into(),
            None,
        )
        .unwrap();
    pg.advance(JsValue::from(20_000.0)).unwrap();
    let reply = settle(poll).await;
    assert_eq!(reply.status, 200.0);
    assert!(reply.body.get("Messages").is_none());
}

#[wasm_bindgen_test]
async fn events_and_snapshot_describe_every_state_change() {
    let mut pg = Playground::new(options(json!({ "seed": 1 }))).unwrap();
    let url = queue(&mut pg, "log").await;
    let caller = options(json!({ "caller": "worker-1" }));
    let body = json!({ "QueueUrl": url, "MessageBody": "x" }).to_string();
    settle(
        pg.dispatch("AmazonSQS.SendMessage".into(), body.into(), None)
            .unwrap(),
    )
    .await;
    let receive = json!({ "QueueUrl": url, "VisibilityTimeout": 2 }).to_string();
    settle(
        pg.dispatch("AmazonSQS.ReceiveMessage".into(), receive.into(), caller)
            .unwrap(),
    )
    .await;
    pg.advance(JsValue::from(2_000.0)).unwrap();
    let events: Array = pg.events(None).unwrap().dyn_into().unwrap();
    let types: Vec<String> = events
        .iter()
        .map(|e| get(&e, "type").as_string().unwrap())
        .collect();
    assert_eq!(
        types,
        ["queueCreated", "sent", "received", "visibilityExpired"]
    );
    let received = events.get(2);
    assert_eq!(get(&received, "by").as_string().unwrap(), "worker-1");
    assert_eq!(get(&received, "receiveCount").as_f64(), Some(1.0));
    let later: Array = pg
        .events(Some(JsValue::from(3.0).unchecked_into()))
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!(later.length(), 1);

    let snapshot = pg.snapshot(None).unwrap();
    let queues: Array = get(&snapshot, "queues").dyn_into().unwrap();
    let messages: Array = get(&queues.get(0), "messages").dyn_into().unwrap();
    let message = messages.get(0);
    assert_eq!(get(&message, "state").as_string().unwrap(), "visible");
    assert_eq!(get(&message, "receiveCount").as_f64(), Some(1.0));
}

#[wasm_bindgen_test]
fn misuse_throws_real_errors() {
    let bad_option = Playground::new(options(json!({ "sed": 1 })));
    let error: JsValue = bad_option.err().unwrap();
    assert!(error.is_instance_of::<js_sys::Error>());
    let message = get(&error, "message").as_string().unwrap();
    assert!(message.contains("sed"), "{message}");

    let bad_knob = Playground::new(options(json!({ "realism": { "shortPollSampleRate": 2 } })));
    assert!(bad_knob.is_err());

    let mut pg = Playground::new(None).unwrap();
    let error: JsValue = pg.advance(JsValue::from(-1.0)).err().unwrap();
    assert!(error.is_instance_of::<js_sys::Error>());
    assert!(pg.advance(JsValue::from(f64::NAN)).is_err());
}

/// The answers the native build gives for the same seed and calls
/// (crates/protocol/tests/same_bytes.rs writes and checks the file), so a
/// difference across processes, builds or targets fails here.
#[wasm_bindgen_test]
async fn same_seed_same_calls_give_the_golden_bytes() {
    let golden: Value = serde_json::from_str(include_str!(
        "../../../tests/fixtures/determinism/seed-42-send-receive.json"
    ))
    .unwrap();
    let mut pg = Playground::new(options(json!({ "seed": 42 }))).unwrap();
    let url = queue(&mut pg, "det").await;
    let sent = call(
        &mut pg,
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "a" }),
    )
    .await;
    let got = call(&mut pg, "ReceiveMessage", json!({ "QueueUrl": url })).await;
    assert_eq!(
        (sent.body.to_string(), got.body.to_string()),
        (golden["sent"].to_string(), golden["received"].to_string())
    );
}

#[wasm_bindgen_test]
fn scenarios_run_their_workers_and_show_them_in_the_snapshot() {
    let scenario = include_str!("../../../web/scenarios/05-poison-message.json");
    let mut pg = Playground::from_scenario(scenario.into(), None).unwrap();
    assert_eq!(pg.next_event_time(), Some(200.0));
    pg.advance(JsValue::from(14_000.0)).unwrap();
    let simulation = get(&pg.snapshot(None).unwrap(), "simulation");
    assert_eq!(get(&simulation, "finished").as_bool(), Some(true));
    let alarms: Array = get(&simulation, "alarms").dyn_into().unwrap();
    assert_eq!(get(&alarms.get(0), "inAlarm").as_bool(), Some(true));
    let queues: Array = get(&pg.snapshot(None).unwrap(), "queues")
        .dyn_into()
        .unwrap();
    let dlq = queues
        .iter()
        .find(|q| get(q, "name").as_string().as_deref() == Some("orders-dlq"))
        .unwrap();
    let messages: Array = get(&dlq, "messages").dyn_into().unwrap();
    let id = get(&messages.get(0), "messageId").as_string().unwrap();
    let peek = pg.peek(id.clone().into()).unwrap();
    let message = get(&peek, "message");
    assert_eq!(get(&message, "receiveCount").as_f64(), Some(3.0));
    let handles: Array = get(&peek, "receiptHandles").dyn_into().unwrap();
    assert_eq!(
        handles.length(),
        0,
        "the source queue issued all three receipts"
    );
    assert!(pg.peek("nope".into()).unwrap().is_null());
}

#[wasm_bindgen_test]
fn a_malformed_scenario_throws_an_error_naming_the_problem() {
    let error: JsValue = Playground::from_scenario("{\"title\": 5}".into(), None)
        .err()
        .unwrap();
    assert!(error.is_instance_of::<js_sys::Error>());
    let message = get(&error, "message").as_string().unwrap();
    assert!(message.contains("invalid scenario"), "{message}");
}

#[wasm_bindgen_test]
fn from_scenario_takes_a_seed_and_gives_back_the_parsed_scenario() {
    let scenario = include_str!("../../../web/scenarios/05-poison-message.json");
    let pg = Playground::from_scenario(scenario.into(), options(json!({ "seed": 77 }))).unwrap();
    let parsed = pg.scenario().unwrap();
    assert_eq!(get(&parsed, "seed").as_f64(), Some(77.0));
    let consumers: Array = get(&parsed, "consumers").dyn_into().unwrap();
    let behaviour = get(&consumers.get(0), "behaviour");
    assert!(
        get(&behaviour, "restartMs").as_f64().is_some(),
        "defaults filled in"
    );
    let empty = Playground::new(None).unwrap();
    assert!(empty.scenario().unwrap().is_null());
}

#[wasm_bindgen_test]
fn counts_roles_operations_and_defaults() {
    let scenario = include_str!("../../../web/scenarios/05-poison-message.json");
    let mut pg = Playground::from_scenario(scenario.into(), None).unwrap();
    pg.advance(JsValue::from(1_000.0)).unwrap();
    let counts: Array = get(&pg.counts().unwrap(), "queues").dyn_into().unwrap();
    let queues: Array = get(&pg.snapshot(None).unwrap(), "queues")
        .dyn_into()
        .unwrap();
    assert_eq!(counts.length(), queues.length());
    for (c, q) in counts.iter().zip(queues.iter()) {
        for key in ["name", "visible", "inFlight", "delayed"] {
            assert_eq!(get(&c, key).as_string(), get(&q, key).as_string());
            assert_eq!(get(&c, key).as_f64(), get(&q, key).as_f64());
        }
        assert!(get(&c, "messages").is_undefined());
    }
    let dlq = queues
        .iter()
        .find(|q| get(q, "name").as_string().as_deref() == Some("orders-dlq"))
        .unwrap();
    let sources: Array = get(&dlq, "deadLetterSources").dyn_into().unwrap();
    assert_eq!(sources.get(0).as_string().as_deref(), Some("orders"));
    let operations: Array = queuelab_wasm::operations().unwrap().dyn_into().unwrap();
    assert_eq!(operations.length(), 23);
    let defaults = queuelab_wasm::defaults().unwrap();
    assert_eq!(
        get(&get(&defaults, "queue"), "visibilityTimeoutSeconds").as_f64(),
        Some(30.0)
    );
}
