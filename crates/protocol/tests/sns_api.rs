//! The SNS API of the run's topics, through the query protocol the AWS SDKs
//! speak (form in, XML out) and Queuelab's JSON wire: each test is named
//! after the SNS behaviour it holds.

use queuelab_engine::{Config, Principal};
mod neighbours;

use neighbours::{receive, sqs};
use queuelab_protocol::{sns, Response};
use queuelab_simulation::Simulation;
use serde_json::{json, Value};

const ACCOUNT: &str = "000000000000";

fn sim() -> Simulation {
    Simulation::empty(Config::default())
}

/// A JSON SNS call as the owner: the answer's JSON, or (code, status).
fn call(sim: &mut Simulation, op: &str, body: Value) -> Result<Value, (String, u16)> {
    let r = sns::dispatch(
        sim,
        &format!("AmazonSNS.{op}"),
        &body.to_string(),
        &Principal::owner(),
    );
    answer(r)
}

fn answer(r: Response) -> Result<Value, (String, u16)> {
    match r.status {
        200 => Ok(r.json()),
        status => Err((
            r.json()["__type"]
                .as_str()
                .unwrap_or("")
                .replace("com.amazonaws.sns#", ""),
            status,
        )),
    }
}

/// A queue whose policy lets the topic `topic_arn` send: its URL and ARN.
fn queue_for(sim: &mut Simulation, name: &str, topic_arn: &str) -> (String, String) {
    neighbours::queue_open_to(sim, name, "sns.amazonaws.com", "ArnEquals", topic_arn)
}

/// Subscribes the queue `queue_arn` to `arn` with these attributes: the answer.
fn subscribe(sim: &mut Simulation, arn: &str, queue_arn: &str, attributes: Value) -> Value {
    let body = json!({ "TopicArn": arn, "Protocol": "sqs", "Endpoint": queue_arn, "Attributes": attributes });
    call(sim, "Subscribe", body).unwrap()
}

/// Publishes `message` to `arn` with a String attribute `kind`.
fn publish_kind(sim: &mut Simulation, arn: &str, message: &str, kind: &str) -> Value {
    let attributes = json!({ "kind": { "DataType": "String", "StringValue": kind } });
    let body = json!({ "TopicArn": arn, "Message": message, "MessageAttributes": attributes });
    call(sim, "Publish", body).unwrap()
}

fn topic(sim: &mut Simulation, name: &str) -> String {
    call(sim, "CreateTopic", json!({ "Name": name })).unwrap()["TopicArn"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn create_topic_answers_its_arn_and_again_for_the_same_name() {
    let mut sim = sim();
    let arn = topic(&mut sim, "orders");
    assert_eq!(arn, format!("arn:aws:sns:us-east-1:{ACCOUNT}:orders"));
    assert_eq!(topic(&mut sim, "orders"), arn);
    let listed = call(&mut sim, "ListTopics", json!({})).unwrap();
    assert_eq!(listed, json!({ "Topics": [{ "TopicArn": arn }] }));
}

#[test]
fn publish_delivers_the_sns_envelope_to_a_subscribed_queue() {
    let mut sim = sim();
    let arn = topic(&mut sim, "orders");
    let (url, queue_arn) = queue_for(&mut sim, "billing", &arn);
    let sub = subscribe(&mut sim, &arn, &queue_arn, json!({}));
    let sub_arn = sub["SubscriptionArn"].as_str().unwrap();
    assert!(sub_arn.starts_with(&format!("{arn}:")), "{sub_arn}");
    let published = call(
        &mut sim,
        "Publish",
        json!({ "TopicArn": arn, "Message": "order 1", "Subject": "new" }),
    )
    .unwrap();
    let messages = receive(&mut sim, &url);
    assert_eq!(messages.len(), 1);
    let envelope: Value = serde_json::from_str(messages[0]["Body"].as_str().unwrap()).unwrap();
    assert_eq!(envelope["Type"], "Notification");
    assert_eq!(envelope["Message"], "order 1");
    assert_eq!(envelope["Subject"], "new");
    assert_eq!(envelope["TopicArn"], arn.as_str());
    assert_eq!(envelope["MessageId"], published["MessageId"]);
}

#[test]
fn raw_message_delivery_sends_the_message_itself_with_its_attributes() {
    let mut sim = sim();
    let arn = topic(&mut sim, "orders");
    let (url, queue_arn) = queue_for(&mut sim, "raw", &arn);
    subscribe(
        &mut sim,
        &arn,
        &queue_arn,
        json!({ "RawMessageDelivery": "true" }),
    );
    publish_kind(&mut sim, &arn, "plain", "gift");
    let messages = receive(&mut sim, &url);
    assert_eq!(messages[0]["Body"], "plain");
    assert_eq!(
        messages[0]["MessageAttributes"]["kind"]["StringValue"],
        "gift"
    );
}

#[test]
fn a_filter_policy_keeps_unmatched_messages_from_its_queue() {
    let mut sim = sim();
    let arn = topic(&mut sim, "orders");
    let (url, queue_arn) = queue_for(&mut sim, "gifts", &arn);
    call(
        &mut sim,
        "Subscribe",
        json!({ "TopicArn": arn, "Protocol": "sqs", "Endpoint": queue_arn,
        "Attributes": { "FilterPolicy": "{\"kind\":[\"gift\"]}" } }),
    )
    .unwrap();
    for kind in ["gift", "book"] {
        publish_kind(&mut sim, &arn, kind, kind);
    }
    let messages = receive(&mut sim, &url);
    assert_eq!(messages.len(), 1);
    let envelope: Value = serde_json::from_str(messages[0]["Body"].as_str().unwrap()).unwrap();
    assert_eq!(envelope["Message"], "gift");
}

#[test]
fn a_queue_whose_policy_does_not_allow_the_topic_gets_nothing() {
    let mut sim = sim();
    let arn = topic(&mut sim, "orders");
    let created = sqs(&mut sim, "CreateQueue", json!({ "QueueName": "closed" }));
    let url = created["QueueUrl"].as_str().unwrap().to_string();
    call(
        &mut sim,
        "Subscribe",
        json!({ "TopicArn": arn, "Protocol": "sqs",
        "Endpoint": format!("arn:aws:sqs:us-east-1:{ACCOUNT}:closed") }),
    )
    .unwrap();
    // Publish succeeds: SNS takes the message; the delivery is what fails.
    call(
        &mut sim,
        "Publish",
        json!({ "TopicArn": arn, "Message": "lost" }),
    )
    .unwrap();
    assert!(receive(&mut sim, &url).is_empty());
    let topic = &sim.snapshot().topics[0];
    assert_eq!(
        (
            topic.subscriptions[0].failed,
            topic.subscriptions[0].dropped
        ),
        (1, 1)
    );
}

#[test]
fn unsubscribe_stops_deliveries() {
    let mut sim = sim();
    let arn = topic(&mut sim, "orders");
    let (url, queue_arn) = queue_for(&mut sim, "billing", &arn);
    let sub = subscribe(&mut sim, &arn, &queue_arn, json!({}));
    call(
        &mut sim,
        "Unsubscribe",
        json!({ "SubscriptionArn": sub["SubscriptionArn"] }),
    )
    .unwrap();
    call(
        &mut sim,
        "Publish",
        json!({ "TopicArn": arn, "Message": "m" }),
    )
    .unwrap();
    assert!(receive(&mut sim, &url).is_empty());
    let listed = call(
        &mut sim,
        "ListSubscriptionsByTopic",
        json!({ "TopicArn": arn }),
    )
    .unwrap();
    assert_eq!(listed, json!({ "Subscriptions": [] }));
    assert_eq!(
        call(
            &mut sim,
            "Unsubscribe",
            json!({ "SubscriptionArn": sub["SubscriptionArn"] })
        ),
        Err(("NotFound".into(), 404))
    );
}

#[test]
fn subscription_attributes_read_back_what_was_set() {
    let mut sim = sim();
    let arn = topic(&mut sim, "orders");
    let (_, queue_arn) = queue_for(&mut sim, "billing", &arn);
    let sub = subscribe(&mut sim, &arn, &queue_arn, json!({}));
    let sub_arn = sub["SubscriptionArn"].clone();
    call(
        &mut sim,
        "SetSubscriptionAttributes",
        json!({ "SubscriptionArn": sub_arn,
        "AttributeName": "RawMessageDelivery", "AttributeValue": "true" }),
    )
    .unwrap();
    let attrs = call(
        &mut sim,
        "GetSubscriptionAttributes",
        json!({ "SubscriptionArn": sub_arn }),
    )
    .unwrap();
    assert_eq!(attrs["Attributes"]["RawMessageDelivery"], "true");
    assert_eq!(attrs["Attributes"]["Endpoint"], queue_arn.as_str());
    assert_eq!(attrs["Attributes"]["Protocol"], "sqs");
}

#[test]
fn topic_attributes_read_back_what_was_set() {
    let mut sim = sim();
    let arn = topic(&mut sim, "orders");
    call(
        &mut sim,
        "SetTopicAttributes",
        json!({ "TopicArn": arn, "AttributeName": "DisplayName", "AttributeValue": "Orders" }),
    )
    .unwrap();
    let attrs = call(&mut sim, "GetTopicAttributes", json!({ "TopicArn": arn })).unwrap();
    assert_eq!(attrs["Attributes"]["DisplayName"], "Orders");
    assert_eq!(attrs["Attributes"]["Owner"], ACCOUNT);
    assert_eq!(attrs["Attributes"]["TopicArn"], arn.as_str());
}

#[test]
fn publish_to_a_topic_that_does_not_exist_is_not_found() {
    let mut sim = sim();
    let missing = format!("arn:aws:sns:us-east-1:{ACCOUNT}:nope");
    assert_eq!(
        call(
            &mut sim,
            "Publish",
            json!({ "TopicArn": missing, "Message": "m" })
        ),
        Err(("NotFound".into(), 404))
    );
}

#[test]
fn a_topic_arn_that_is_no_arn_is_an_invalid_parameter() {
    let mut sim = sim();
    let r = sns::dispatch(
        &mut sim,
        "AmazonSNS.Publish",
        r#"{"TopicArn":"fake_topic","Message":"m"}"#,
        &Principal::owner(),
    );
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "Invalid parameter: TopicArn Reason: fake_topic does not start with arn"
    );
}

#[test]
fn a_missing_message_is_an_invalid_parameter_naming_it() {
    let mut sim = sim();
    let arn = topic(&mut sim, "orders");
    let r = sns::dispatch(
        &mut sim,
        "AmazonSNS.Publish",
        &json!({ "TopicArn": arn }).to_string(),
        &Principal::owner(),
    );
    assert_eq!(r.status, 400);
    assert_eq!(
        r.header("x-amzn-query-error"),
        Some("InvalidParameter;Sender")
    );
    assert!(r.json()["message"].as_str().unwrap().contains("Message"));
}

#[test]
fn delete_topic_removes_it_and_deleting_again_succeeds() {
    let mut sim = sim();
    let arn = topic(&mut sim, "orders");
    call(&mut sim, "DeleteTopic", json!({ "TopicArn": arn })).unwrap();
    call(&mut sim, "DeleteTopic", json!({ "TopicArn": arn })).unwrap();
    assert_eq!(
        call(&mut sim, "ListTopics", json!({})).unwrap(),
        json!({ "Topics": [] })
    );
    assert!(sim.snapshot().topics.is_empty());
}

#[test]
fn another_account_is_not_authorized_to_call_the_topics() {
    let mut sim = sim();
    let partner = Principal::account("111111111111").unwrap();
    let r = sns::dispatch(
        &mut sim,
        "AmazonSNS.CreateTopic",
        r#"{"Name":"t"}"#,
        &partner,
    );
    assert_eq!(r.status, 403);
    assert!(r.json()["message"].as_str().unwrap().starts_with(
        "User: arn:aws:iam::111111111111:root is not authorized to perform: SNS:CreateTopic"
    ));
}

#[test]
fn a_fifo_topic_keeps_group_ids_and_drops_duplicates() {
    let mut sim = sim();
    let arn = call(
        &mut sim,
        "CreateTopic",
        json!({ "Name": "orders.fifo",
        "Attributes": { "FifoTopic": "true", "ContentBasedDeduplication": "true" } }),
    )
    .unwrap()["TopicArn"]
        .as_str()
        .unwrap()
        .to_string();
    let name = "billing.fifo";
    let queue_arn = format!("arn:aws:sqs:us-east-1:{ACCOUNT}:{name}");
    let policy = json!({ "Statement": [{ "Effect": "Allow", "Principal": { "Service": "sns.amazonaws.com" },
        "Action": "sqs:SendMessage", "Resource": queue_arn }] });
    let url = sqs(
        &mut sim,
        "CreateQueue",
        json!({ "QueueName": name,
        "Attributes": { "FifoQueue": "true", "Policy": policy.to_string() } }),
    )["QueueUrl"]
        .as_str()
        .unwrap()
        .to_string();
    subscribe(&mut sim, &arn, &queue_arn, json!({}));
    let first = call(
        &mut sim,
        "Publish",
        json!({ "TopicArn": arn, "Message": "a", "MessageGroupId": "g1" }),
    )
    .unwrap();
    assert!(first["SequenceNumber"].is_string());
    call(
        &mut sim,
        "Publish",
        json!({ "TopicArn": arn, "Message": "a", "MessageGroupId": "g1" }),
    )
    .unwrap();
    let got = sqs(
        &mut sim,
        "ReceiveMessage",
        json!({ "QueueUrl": url, "MaxNumberOfMessages": 10,
        "MessageSystemAttributeNames": ["MessageGroupId"] }),
    );
    let messages = got["Messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["Attributes"]["MessageGroupId"], "g1");
    assert_eq!(
        call(
            &mut sim,
            "Publish",
            json!({ "TopicArn": arn, "Message": "b" })
        )
        .unwrap_err()
        .0,
        "InvalidParameter"
    );
}

#[test]
fn publish_batch_answers_each_entry_and_refuses_duplicate_ids() {
    let mut sim = sim();
    let arn = topic(&mut sim, "orders");
    let (url, queue_arn) = queue_for(&mut sim, "billing", &arn);
    subscribe(&mut sim, &arn, &queue_arn, json!({}));
    let batch = call(
        &mut sim,
        "PublishBatch",
        json!({ "TopicArn": arn, "PublishBatchRequestEntries": [
        { "Id": "a", "Message": "one" }, { "Id": "b", "Message": "" } ] }),
    )
    .unwrap();
    assert_eq!(batch["Successful"][0]["Id"], "a");
    assert_eq!(batch["Failed"][0]["Id"], "b");
    assert_eq!(batch["Failed"][0]["Code"], "InvalidParameter");
    assert_eq!(receive(&mut sim, &url).len(), 1);
    let same = call(
        &mut sim,
        "PublishBatch",
        json!({ "TopicArn": arn, "PublishBatchRequestEntries": [
        { "Id": "a", "Message": "one" }, { "Id": "a", "Message": "two" } ] }),
    );
    assert_eq!(same, Err(("BatchEntryIdsNotDistinct".into(), 400)));
}

#[test]
fn subscribing_a_fifo_queue_to_a_standard_topic_is_refused() {
    let mut sim = sim();
    let arn = topic(&mut sim, "orders");
    let r = call(
        &mut sim,
        "Subscribe",
        json!({ "TopicArn": arn, "Protocol": "sqs",
        "Endpoint": format!("arn:aws:sqs:us-east-1:{ACCOUNT}:q.fifo") }),
    );
    assert_eq!(r, Err(("InvalidParameter".into(), 400)));
}

#[test]
fn only_sqs_endpoints_are_subscribed() {
    let mut sim = sim();
    let arn = topic(&mut sim, "orders");
    let r = call(
        &mut sim,
        "Subscribe",
        json!({ "TopicArn": arn, "Protocol": "email", "Endpoint": "a@b.c" }),
    );
    assert_eq!(r, Err(("InvalidParameter".into(), 400)));
}

#[test]
fn the_query_protocol_reads_a_form_and_answers_xml() {
    let mut sim = sim();
    let body = "Action=CreateTopic&Version=2010-03-31&Name=orders&Attributes.entry.1.key=DisplayName&Attributes.entry.1.value=Orders";
    let r = sns::dispatch(&mut sim, "AmazonSNS", body, &Principal::owner());
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("text/xml"));
    assert!(r.body.starts_with("<CreateTopicResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><CreateTopicResult><TopicArn>arn:aws:sns:us-east-1:000000000000:orders</TopicArn></CreateTopicResult>"), "{}", r.body);
    let attrs = sns::dispatch(
        &mut sim,
        "AmazonSNS",
        "Action=GetTopicAttributes&TopicArn=arn%3Aaws%3Asns%3Aus-east-1%3A000000000000%3Aorders",
        &Principal::owner(),
    );
    assert!(
        attrs
            .body
            .contains("<entry><key>DisplayName</key><value>Orders</value></entry>"),
        "{}",
        attrs.body
    );
}

#[test]
fn the_query_protocol_answers_errors_as_sns_error_xml() {
    let mut sim = sim();
    let r = sns::dispatch(
        &mut sim,
        "AmazonSNS",
        "Action=GetTopicAttributes&TopicArn=arn%3Aaws%3Asns%3Aus-east-1%3A000000000000%3Anope",
        &Principal::owner(),
    );
    assert_eq!(r.status, 404);
    assert!(r.body.contains("<Error><Type>Sender</Type><Code>NotFound</Code><Message>Topic does not exist</Message></Error>"), "{}", r.body);
    let unknown = sns::dispatch(&mut sim, "AmazonSNS", "Action=Explode", &Principal::owner());
    assert_eq!(unknown.status, 400);
    assert!(
        unknown.body.contains("<Code>InvalidAction</Code>"),
        "{}",
        unknown.body
    );
    let none = sns::dispatch(&mut sim, "AmazonSNS", "Name=x", &Principal::owner());
    assert!(
        none.body.contains("<Code>MissingAction</Code>"),
        "{}",
        none.body
    );
}

#[test]
fn a_member_of_the_wrong_type_is_an_invalid_parameter_naming_it() {
    let mut sim = sim();
    let r = call(
        &mut sim,
        "CreateTopic",
        json!({ "Name": "t", "Attributes": "FifoTopic" }),
    );
    assert_eq!(r, Err(("InvalidParameter".into(), 400)));
    let arn = topic(&mut sim, "orders");
    let r = sns::dispatch(&mut sim, "AmazonSNS.Publish",
        &json!({ "TopicArn": arn, "Message": "m", "MessageAttributes": { "kind": { "DataType": ["String"] } } }).to_string(),
        &Principal::owner());
    assert_eq!(
        r.json()["message"],
        "Invalid parameter: MessageAttributes.kind.DataType Reason: must be a string"
    );
}

#[test]
fn a_topic_policy_past_sns_s_30_kb_is_an_invalid_parameter() {
    let mut sim = sim();
    let arn = topic(&mut sim, "orders");
    let long = format!("{{\"Id\":\"{}\"}}", "x".repeat(31 * 1024));
    let r = call(
        &mut sim,
        "SetTopicAttributes",
        json!({ "TopicArn": arn, "AttributeName": "Policy", "AttributeValue": long }),
    );
    assert_eq!(r, Err(("InvalidParameter".into(), 400)));
    let fine = format!("{{\"Id\":\"{}\"}}", "x".repeat(1024));
    call(
        &mut sim,
        "SetTopicAttributes",
        json!({ "TopicArn": arn, "AttributeName": "Policy", "AttributeValue": fine }),
    )
    .unwrap();
}
