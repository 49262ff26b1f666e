//! Who is calling: `dispatch`'s `principal`, `sourceArn` and
//! `sourceAccount` reach the engine as a `Principal`, the events and the
//! bill name it, the journal records it, and a replay calls as it again.

use queuelab_engine::{Identity, Principal};
use queuelab_host::{DispatchOptions, Host, PlaygroundOptions};
use queuelab_protocol::Dispatched;
use serde_json::{json, Value};

fn options(value: Value) -> DispatchOptions {
    serde_json::from_value(value).expect("dispatch options")
}

fn refusal(value: Value) -> String {
    options(value).principal().expect_err("refused")
}

fn ok(d: Dispatched) -> Value {
    match d {
        Dispatched::Done(response) => {
            assert_eq!(response.status, 200, "{}", response.body);
            serde_json::from_str(&response.body).unwrap()
        }
        Dispatched::Waiting(_) => panic!("a call that waits"),
    }
}

/// A queue policy that lets every principal send and receive: these tests
/// follow who called, not whether the queue lets them.
const OPEN: &str = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":["sqs:SendMessage","sqs:ReceiveMessage","sqs:DeleteMessage"],"Resource":"*"}]}"#;

/// A playground with one queue any principal may use, and its URL.
fn with_queue() -> (Host, String) {
    let mut host = Host::new(PlaygroundOptions::default()).unwrap();
    let created = ok(host.dispatch(
        "AmazonSQS.CreateQueue",
        &json!({ "QueueName": "orders", "Attributes": { "Policy": OPEN.to_string() } }).to_string(),
        &Principal::owner(),
    ));
    let url = created["QueueUrl"].as_str().unwrap().to_string();
    (host, url)
}

fn send(host: &mut Host, url: &str, by: &Principal) {
    let body = json!({ "QueueUrl": url, "MessageBody": "hi" }).to_string();
    ok(host.dispatch("AmazonSQS.SendMessage", &body, by));
}

/// The `by` of every event of kind `kind`.
fn by_of(host: &Host, kind: &str) -> Vec<Value> {
    let events: Vec<_> = host.simulation().events(0).collect();
    let events = serde_json::to_value(events).unwrap();
    events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == kind)
        .map(|e| e["by"].clone())
        .collect()
}

#[test]
fn without_a_principal_the_call_is_the_queue_owners_under_its_caller_name() {
    let by = options(json!({ "caller": "shop" })).principal().unwrap();
    assert_eq!(by.identity(), &Identity::Owner);
    assert_eq!(by.name(), Some("shop"));
    assert_eq!(options(json!({})).principal().unwrap(), Principal::owner());
}

#[test]
fn a_principal_account_id_calls_as_that_account_named_by_it_in_the_log() {
    let by = options(json!({ "principal": "111111111111" }))
        .principal()
        .unwrap();
    assert_eq!(
        by.identity(),
        &Identity::Account {
            account_id: "111111111111".into(),
            arn: None
        }
    );
    assert_eq!(by.name(), Some("111111111111"));
}

#[test]
fn an_iam_arn_principal_calls_as_its_account_under_the_caller_name_when_given() {
    let arn = "arn:aws:iam::222222222222:user/alice";
    let by = options(json!({ "principal": arn, "caller": "alice" }))
        .principal()
        .unwrap();
    assert_eq!(
        by.identity(),
        &Identity::Account {
            account_id: "222222222222".into(),
            arn: Some(arn.into())
        }
    );
    assert_eq!(by.name(), Some("alice"));
}

#[test]
fn an_arn_too_long_to_name_a_caller_is_named_by_its_account_id() {
    let arn = format!("arn:aws:iam::222222222222:role/{}", "a/".repeat(50) + "x");
    let by = options(json!({ "principal": arn })).principal().unwrap();
    assert_eq!(by.name(), Some("222222222222"));
}

#[test]
fn a_service_principal_carries_its_source_arn_and_source_account() {
    let by = options(json!({
        "principal": "sns.amazonaws.com",
        "sourceArn": "arn:aws:sns:us-east-1:000000000000:orders-topic",
        "sourceAccount": "000000000000",
    }))
    .principal()
    .unwrap();
    let Identity::Service {
        service,
        source_arn,
        source_account,
    } = by.identity()
    else {
        panic!("{by:?}")
    };
    assert_eq!(service.name(), "sns.amazonaws.com");
    assert_eq!(
        source_arn.as_deref(),
        Some("arn:aws:sns:us-east-1:000000000000:orders-topic")
    );
    assert_eq!(source_account.as_deref(), Some("000000000000"));
    assert_eq!(by.name(), Some("sns.amazonaws.com"));
}

#[test]
fn a_principal_that_is_no_account_or_arn_is_refused_naming_the_option() {
    let e = refusal(json!({ "principal": "1111" }));
    assert!(e.starts_with("dispatch option principal: "), "{e}");
    assert!(e.contains("12-digit AWS account id or an IAM ARN"), "{e}");
    let e = refusal(json!({ "principal": "arn:aws:sqs:us-east-1:111111111111:q" }));
    assert!(e.starts_with("dispatch option principal: "), "{e}");
}

#[test]
fn a_service_sqs_does_not_take_messages_from_is_refused_naming_the_option() {
    let e = refusal(json!({ "principal": "lambda.amazonaws.com" }));
    assert!(e.starts_with("dispatch option principal: "), "{e}");
    assert!(e.contains("sns.amazonaws.com or s3.amazonaws.com"), "{e}");
}

#[test]
fn source_arn_and_source_account_are_refused_without_a_service_principal() {
    let e = refusal(json!({ "principal": "111111111111", "sourceArn": "arn:aws:s3:::photos" }));
    assert!(
        e.starts_with("dispatch option sourceArn is only for a service principal"),
        "{e}"
    );
    assert!(e.contains("\"111111111111\""), "{e}");
    let e = refusal(json!({ "sourceAccount": "111111111111" }));
    assert!(
        e.starts_with("dispatch option sourceAccount is only for a service principal"),
        "{e}"
    );
}

#[test]
fn a_bad_source_arn_or_source_account_is_refused_naming_its_option() {
    let e = refusal(json!({ "principal": "s3.amazonaws.com", "sourceArn": "photos" }));
    assert!(e.starts_with("dispatch option sourceArn: "), "{e}");
    let e = refusal(json!({ "principal": "s3.amazonaws.com", "sourceAccount": "12" }));
    assert!(e.starts_with("dispatch option sourceAccount: "), "{e}");
    assert!(e.contains("12-digit"), "{e}");
}

#[test]
fn a_caller_name_past_its_limit_is_refused_naming_the_option() {
    let e = refusal(json!({ "caller": "x".repeat(81), "principal": "111111111111" }));
    assert!(
        e.starts_with("dispatch option caller must be at most 80"),
        "{e}"
    );
}

#[test]
fn a_call_as_another_account_names_it_in_the_events_and_the_bill() {
    let (mut host, url) = with_queue();
    let partner = options(json!({ "principal": "111111111111" }))
        .principal()
        .unwrap();
    send(&mut host, &url, &partner);
    assert_eq!(by_of(&host, "sent"), [json!("111111111111")]);
    let billed: Vec<_> = host
        .simulation()
        .engine()
        .meter()
        .lines()
        .map(|(line, _)| {
            (
                line.action.name(),
                line.caller.as_deref().map(str::to_string),
            )
        })
        .collect();
    // The queue's creation is billed too, to the unnamed setup.
    let partner = Some("111111111111".to_string());
    assert_eq!(billed, [("CreateQueue", None), ("SendMessage", partner)]);
}

#[test]
fn the_journal_records_the_principal_of_a_call_and_only_then() {
    let (mut host, url) = with_queue();
    send(&mut host, &url, &Principal::caller(Some("you")));
    let as_alice =
        options(json!({ "principal": "arn:aws:iam::222222222222:user/alice", "caller": "alice" }));
    send(&mut host, &url, &as_alice.principal().unwrap());
    let as_topic = options(json!({
        "principal": "sns.amazonaws.com",
        "sourceArn": "arn:aws:sns:us-east-1:000000000000:t",
        "sourceAccount": "000000000000",
    }));
    send(&mut host, &url, &as_topic.principal().unwrap());
    let calls = serde_json::to_value(host.journal()).unwrap()["calls"].clone();
    let who: Vec<Value> = calls
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let mut c = c.clone();
            c.as_object_mut()
                .unwrap()
                .retain(|k, _| k != "body" && k != "t");
            c
        })
        .collect();
    assert_eq!(
        who,
        [
            json!({ "op": "CreateQueue", "caller": null }),
            json!({ "op": "SendMessage", "caller": "you" }),
            json!({ "op": "SendMessage", "caller": "alice", "principal": "arn:aws:iam::222222222222:user/alice" }),
            json!({
                "op": "SendMessage", "caller": "sns.amazonaws.com", "principal": "sns.amazonaws.com",
                "sourceArn": "arn:aws:sns:us-east-1:000000000000:t", "sourceAccount": "000000000000",
            }),
        ]
    );
}

#[test]
fn a_replay_makes_each_call_as_the_principal_that_made_it() {
    let (mut host, url) = with_queue();
    let words = [
        json!({ "principal": "111111111111" }),
        json!({ "principal": "arn:aws:iam::222222222222:role/reader", "caller": "reader" }),
        json!({ "principal": "s3.amazonaws.com", "sourceArn": "arn:aws:s3:::photos", "sourceAccount": "000000000000" }),
        json!({ "caller": "me" }),
    ];
    let made: Vec<Principal> = words
        .into_iter()
        .map(|w| options(w).principal().unwrap())
        .collect();
    for by in &made {
        host.advance(10).unwrap();
        send(&mut host, &url, by);
    }
    let journal = host.journal().clone();
    let replayed = Host::replay(&journal).expect("replays");
    assert_eq!(replayed.journal(), &journal);
    let principals: Vec<Principal> = journal
        .calls
        .iter()
        .skip(1)
        .map(|c| c.options().principal().unwrap())
        .collect();
    assert_eq!(principals, made);
    assert_eq!(by_of(&replayed, "sent"), by_of(&host, "sent"));
    assert_eq!(
        by_of(&replayed, "sent"),
        [
            json!("111111111111"),
            json!("reader"),
            json!("s3.amazonaws.com"),
            json!("me")
        ]
    );
}
