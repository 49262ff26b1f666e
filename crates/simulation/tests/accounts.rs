//! Producers and consumers of another account: a scenario's `account`
//! (an account id or an IAM ARN) makes their calls that account's, under
//! their names in the log.

use queuelab_engine::{AddPermission, Config};
use queuelab_simulation::{Scenario, Simulation};
use serde_json::{json, Value};

fn scenario(producer: Value, consumer: Value) -> Scenario {
    serde_json::from_value(json!({
        "title": "accounts", "durationMs": 3000,
        "queues": [{ "name": "orders" }],
        "producers": [producer],
        "consumers": [consumer],
    }))
    .expect("a scenario document")
}

fn partner_producer() -> Value {
    json!({ "name": "partner", "queue": "orders", "account": "111111111111",
            "sends": [{ "atMs": 100, "body": "from the partner" }] })
}

fn consumer(account: Option<&str>) -> Value {
    let mut c = json!({ "name": "reader", "queue": "orders", "startMs": 1000,
                        "processing": { "fixedMs": 10 } });
    if let Some(account) = account {
        c["account"] = json!(account);
    }
    c
}

fn events(sim: &Simulation) -> Vec<Value> {
    sim.events(0)
        .map(|e| serde_json::to_value(e).unwrap())
        .collect()
}

fn of_type<'a>(events: &'a [Value], kind: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["type"] == kind).collect()
}

/// AddPermission on `orders` for `account`'s `actions`, as the owner: a
/// queue policy another account's calls need.
fn grant(sim: &mut Simulation, account: &str, actions: &[&str]) {
    let url = sim
        .engine()
        .get_queue_url("orders", None)
        .expect("the queue");
    let grant = AddPermission {
        label: format!("grant-{account}"),
        account_ids: vec![account.into()],
        actions: actions.iter().map(|a| a.to_string()).collect(),
    };
    sim.engine_mut()
        .add_permission(&url, &grant, None)
        .expect("granted");
}

#[test]
fn a_producer_of_another_account_sends_under_its_name() {
    let mut sim = Simulation::new(
        scenario(partner_producer(), consumer(None)),
        Config::default(),
    )
    .expect("runs");
    grant(&mut sim, "111111111111", &["SendMessage"]);
    sim.advance(3000);
    let events = events(&sim);
    let sent = of_type(&events, "sent");
    assert_eq!(sent.len(), 1, "{events:?}");
    assert_eq!(sent[0]["by"], "partner");
    assert_eq!(of_type(&events, "deleted")[0]["by"], "reader");
    let billed: Vec<_> = (sim.engine().meter().lines())
        .filter_map(|(line, _)| line.caller.as_deref().map(str::to_string))
        .collect();
    assert!(billed.contains(&"partner".to_string()), "{billed:?}");
}

#[test]
fn a_consumer_of_another_account_given_by_its_iam_arn_receives_under_its_name() {
    let arn = "arn:aws:iam::222222222222:role/reader";
    let producer = json!({ "name": "shop", "queue": "orders",
                           "sends": [{ "atMs": 100, "body": "an order" }] });
    let mut sim =
        Simulation::new(scenario(producer, consumer(Some(arn))), Config::default()).expect("runs");
    grant(
        &mut sim,
        "222222222222",
        &["ReceiveMessage", "DeleteMessage"],
    );
    sim.advance(3000);
    let events = events(&sim);
    assert_eq!(of_type(&events, "received")[0]["by"], "reader");
    assert_eq!(of_type(&events, "deleted")[0]["by"], "reader");
}

#[test]
fn an_account_that_is_no_account_id_or_iam_arn_is_refused_naming_its_place() {
    let bad = |producer: Value, consumer: Value| {
        scenario(producer, consumer)
            .validate()
            .expect_err("refused")
    };
    let mut producer = partner_producer();
    producer["account"] = json!("1111");
    let e = bad(producer, consumer(None));
    assert_eq!(e.path, "producers[0].account");
    assert!(
        e.rule
            .starts_with("a 12-digit AWS account id or an IAM ARN"),
        "{e}"
    );
    assert_eq!(e.got, "\"1111\"");
    let e = bad(
        partner_producer(),
        consumer(Some("arn:aws:sqs:us-east-1:111111111111:orders")),
    );
    assert_eq!(e.path, "consumers[0].account");
}

#[test]
fn a_producer_of_another_account_granted_sendmessage_sends() {
    let mut sim = Simulation::new(
        scenario(partner_producer(), consumer(None)),
        Config::default(),
    )
    .expect("runs");
    grant(&mut sim, "111111111111", &["SendMessage"]);
    sim.advance(3000);
    assert_eq!(sim.snapshot().producers[0].sent, 1);
}

#[test]
fn a_producer_of_another_account_without_a_grant_is_refused_access() {
    let mut sim = Simulation::new(
        scenario(partner_producer(), consumer(None)),
        Config::default(),
    )
    .expect("runs");
    sim.advance(3000);
    let events = events(&sim);
    let failed = of_type(&events, "actionFailed");
    assert_eq!(failed.len(), 1, "{events:?}");
    assert_eq!(failed[0]["actor"], "partner");
    assert_eq!(failed[0]["code"], "AccessDenied");
    assert_eq!(sim.snapshot().producers[0].sent, 0);
    assert_eq!(sim.snapshot().producers[0].failed, 1);
}

/// A partner sending at 100 and 2000 ms; `ops` granting it `actions` at 1000 ms.
fn granted_mid_run(label: &str, actions: Value) -> Scenario {
    serde_json::from_value(json!({
        "title": "grant", "durationMs": 3000,
        "queues": [{ "name": "orders" }],
        "producers": [{ "name": "partner", "queue": "orders", "account": "111111111111",
                        "sends": [{ "atMs": 100, "body": "first" }, { "atMs": 2000, "body": "second" }] }],
        "operators": [{ "name": "ops", "calls": [{ "atMs": 1000, "call": { "addPermission": {
            "queue": "orders", "label": label, "accounts": ["111111111111"], "actions": actions } } }] }]
    }))
    .expect("a scenario document")
}

#[test]
fn an_operators_add_permission_lets_the_other_account_send_from_that_moment() {
    let mut sim = Simulation::new(
        granted_mid_run("partner-sends", json!(["SendMessage"])),
        Config::default(),
    )
    .expect("runs");
    sim.advance(3000);
    let events = events(&sim);
    let failed = of_type(&events, "actionFailed");
    assert_eq!(failed.len(), 1, "{events:?}");
    assert_eq!(
        (failed[0]["timeMs"].as_u64(), &failed[0]["code"]),
        (Some(100), &json!("AccessDenied"))
    );
    let called = of_type(&events, "operatorCalled");
    assert_eq!(called[0]["action"], "AddPermission");
    let added = of_type(&events, "permissionAdded");
    assert_eq!(added.len(), 1, "{events:?}");
    assert_eq!(added[0]["by"], "ops");
    assert_eq!(added[0]["label"], "partner-sends");
    let sent = of_type(&events, "sent");
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["timeMs"], 2000);
}

#[test]
fn an_add_permission_sqs_refuses_fails_at_its_moment_in_sqss_words() {
    let mut sim = Simulation::new(
        granted_mid_run("bad label!", json!(["SendMessage"])),
        Config::default(),
    )
    .expect("runs");
    sim.advance(3000);
    let events = events(&sim);
    let failed = of_type(&events, "actionFailed");
    let by_ops: Vec<_> = failed.iter().filter(|e| e["actor"] == "ops").collect();
    assert_eq!(by_ops.len(), 1, "{events:?}");
    assert_eq!(by_ops[0]["action"], "AddPermission");
    assert_eq!(by_ops[0]["code"], "InvalidParameterValue");
    assert_eq!(sim.snapshot().producers[0].sent, 0);
}

#[test]
fn an_add_permission_with_more_actions_than_sqs_allows_is_refused_naming_its_place() {
    let actions = json!([
        "SendMessage",
        "ReceiveMessage",
        "DeleteMessage",
        "ChangeMessageVisibility",
        "GetQueueAttributes",
        "GetQueueUrl",
        "ListDeadLetterSourceQueues",
        "PurgeQueue"
    ]);
    let e = granted_mid_run("too-many", actions)
        .validate()
        .expect_err("refused");
    assert_eq!(e.path, "operators[0].calls[0].call.addPermission.actions");
    assert_eq!(e.rule, "a list of at most 7 actions");
    assert_eq!(e.got, "8 actions");
}
