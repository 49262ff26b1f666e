//! The "Permissions" section of sqs-facts.md: AddPermission writes the
//! generated policy document (or appends to the queue's policy),
//! RemovePermission takes a statement out, and the last one takes the
//! `Policy` attribute with it. Then every bad input, each with its code and
//! exact message (the API reference's label rule and the Developer Guide's
//! policy quotas and owner-only actions; see docs/fidelity.md for the
//! answers AWS's documentation does not give).

mod common;
use common::Sqs;
use queuelab_engine::EventKind;
use serde_json::{json, Value};

const ARN: &str = "arn:aws:sqs:us-east-1:000000000000:orders";
const NO_QUEUE: &str = "AWS.SimpleQueueService.NonExistentQueue";

fn queue() -> (Sqs, String) {
    let mut sqs = Sqs::new();
    let url = sqs.create("orders", json!({}));
    (sqs, url)
}

fn add(sqs: &mut Sqs, url: &str, label: &str, accounts: Value, actions: Value) -> common::Reply {
    sqs.call(
        "AddPermission",
        json!({ "QueueUrl": url, "Label": label, "AWSAccountIds": accounts, "Actions": actions }),
    )
}

fn remove(sqs: &mut Sqs, url: &str, label: &str) -> common::Reply {
    sqs.call(
        "RemovePermission",
        json!({ "QueueUrl": url, "Label": label }),
    )
}

fn policy(sqs: &mut Sqs, url: &str) -> String {
    sqs.attribute(url, "Policy")
}

fn attribute_names(sqs: &mut Sqs, url: &str) -> Vec<String> {
    let body = sqs
        .call(
            "GetQueueAttributes",
            json!({ "QueueUrl": url, "AttributeNames": ["All"] }),
        )
        .ok();
    body["Attributes"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn add_permission_creates_the_generated_policy_document() {
    let (mut sqs, url) = queue();
    assert_eq!(
        add(
            &mut sqs,
            &url,
            "AliceSend",
            json!(["111122223333"]),
            json!(["SendMessage"])
        )
        .ok(),
        json!({})
    );
    // Byte for byte: the members in SQS's order, compact.
    assert_eq!(
        policy(&mut sqs, &url),
        format!(
            r#"{{"Version":"2008-10-17","Id":"{ARN}/SQSDefaultPolicy","Statement":[{{"Sid":"AliceSend","Effect":"Allow","Principal":{{"AWS":"arn:aws:iam::111122223333:root"}},"Action":"SQS:SendMessage","Resource":"{ARN}"}}]}}"#
        )
    );
    assert!(attribute_names(&mut sqs, &url).contains(&"Policy".to_string()));
}

#[test]
fn several_accounts_or_actions_become_json_lists() {
    let (mut sqs, url) = queue();
    add(
        &mut sqs,
        &url,
        "Team",
        json!(["111122223333", "444455556666"]),
        json!(["ReceiveMessage", "DeleteMessage"]),
    )
    .ok();
    let doc: Value = serde_json::from_str(&policy(&mut sqs, &url)).unwrap();
    assert_eq!(
        doc["Statement"][0],
        json!({
            "Sid": "Team",
            "Effect": "Allow",
            "Principal": { "AWS": ["arn:aws:iam::111122223333:root", "arn:aws:iam::444455556666:root"] },
            "Action": ["SQS:ReceiveMessage", "SQS:DeleteMessage"],
            "Resource": ARN,
        })
    );
}

#[test]
fn a_second_add_permission_appends_its_statement() {
    let (mut sqs, url) = queue();
    add(&mut sqs, &url, "one", json!(["111122223333"]), json!(["*"])).ok();
    add(
        &mut sqs,
        &url,
        "two",
        json!(["444455556666"]),
        json!(["GetQueueUrl"]),
    )
    .ok();
    let doc: Value = serde_json::from_str(&policy(&mut sqs, &url)).unwrap();
    let sids: Vec<&str> = doc["Statement"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["Sid"].as_str().unwrap())
        .collect();
    assert_eq!(sids, ["one", "two"]);
    assert_eq!(doc["Statement"][0]["Action"], "SQS:*");
    assert_eq!(doc["Id"], format!("{ARN}/SQSDefaultPolicy"));
}

#[test]
fn add_permission_appends_to_a_policy_set_by_set_queue_attributes() {
    let (mut sqs, url) = queue();
    // A single statement object (not a list), members in an unusual order.
    let mine = r#"{"Version": "2012-10-17", "Id": "mine", "Statement": {"Sid": "sns", "Principal": {"Service": "sns.amazonaws.com"}, "Effect": "Allow", "Action": "sqs:SendMessage", "Resource": "*"}}"#;
    sqs.set_attributes(&url, json!({ "Policy": mine })).ok();
    // Until AddPermission changes it, the policy reads back as it was set.
    assert_eq!(policy(&mut sqs, &url), mine);
    add(
        &mut sqs,
        &url,
        "extra",
        json!(["111122223333"]),
        json!(["SendMessage"]),
    )
    .ok();
    assert_eq!(
        policy(&mut sqs, &url),
        format!(
            r#"{{"Version":"2012-10-17","Id":"mine","Statement":[{{"Sid":"sns","Principal":{{"Service":"sns.amazonaws.com"}},"Effect":"Allow","Action":"sqs:SendMessage","Resource":"*"}},{{"Sid":"extra","Effect":"Allow","Principal":{{"AWS":"arn:aws:iam::111122223333:root"}},"Action":"SQS:SendMessage","Resource":"{ARN}"}}]}}"#
        )
    );
}

#[test]
fn add_permission_gives_a_policy_without_statements_a_statement_list() {
    let (mut sqs, url) = queue();
    sqs.set_attributes(&url, json!({ "Policy": r#"{"Version":"2012-10-17"}"# }))
        .ok();
    add(
        &mut sqs,
        &url,
        "a",
        json!(["111122223333"]),
        json!(["SendMessage"]),
    )
    .ok();
    let doc: Value = serde_json::from_str(&policy(&mut sqs, &url)).unwrap();
    assert_eq!(doc["Version"], "2012-10-17");
    assert_eq!(doc["Statement"][0]["Sid"], "a");
}

#[test]
fn add_permission_with_an_existing_label_answers_invalid_parameter_value_already_exists() {
    let (mut sqs, url) = queue();
    add(
        &mut sqs,
        &url,
        "test",
        json!(["111122223333"]),
        json!(["ReceiveMessage"]),
    )
    .ok();
    let before = policy(&mut sqs, &url);
    add(
        &mut sqs,
        &url,
        "test",
        json!(["111122223333"]),
        json!(["SendMessage"]),
    )
    .rejected(
        400,
        "InvalidParameterValue",
        "Value test for parameter Label is invalid. Reason: Already exists.",
    );
    assert_eq!(
        policy(&mut sqs, &url),
        before,
        "a refused call changes nothing"
    );
}

#[test]
fn a_label_in_a_policy_set_by_set_queue_attributes_already_exists() {
    let (mut sqs, url) = queue();
    let mine = r#"{"Statement":[{"Sid":"taken","Effect":"Allow","Principal":"*","Action":"sqs:SendMessage","Resource":"*"}]}"#;
    sqs.set_attributes(&url, json!({ "Policy": mine })).ok();
    add(
        &mut sqs,
        &url,
        "taken",
        json!(["111122223333"]),
        json!(["SendMessage"]),
    )
    .rejected(
        400,
        "InvalidParameterValue",
        "Value taken for parameter Label is invalid. Reason: Already exists.",
    );
}

#[test]
fn remove_permission_takes_its_statement_out() {
    let (mut sqs, url) = queue();
    add(
        &mut sqs,
        &url,
        "one",
        json!(["111122223333"]),
        json!(["SendMessage"]),
    )
    .ok();
    add(
        &mut sqs,
        &url,
        "two",
        json!(["444455556666"]),
        json!(["ReceiveMessage"]),
    )
    .ok();
    assert_eq!(remove(&mut sqs, &url, "one").ok(), json!({}));
    let doc: Value = serde_json::from_str(&policy(&mut sqs, &url)).unwrap();
    assert_eq!(doc["Statement"].as_array().unwrap().len(), 1);
    assert_eq!(doc["Statement"][0]["Sid"], "two");
    assert_eq!(doc["Version"], "2008-10-17");
}

#[test]
fn removing_the_last_statement_removes_the_policy_attribute() {
    let (mut sqs, url) = queue();
    add(
        &mut sqs,
        &url,
        "only",
        json!(["111122223333"]),
        json!(["SendMessage"]),
    )
    .ok();
    remove(&mut sqs, &url, "only").ok();
    assert!(!attribute_names(&mut sqs, &url).contains(&"Policy".to_string()));
    // And the label is free again: a new policy starts from the generated document.
    add(
        &mut sqs,
        &url,
        "only",
        json!(["111122223333"]),
        json!(["SendMessage"]),
    )
    .ok();
    assert!(policy(&mut sqs, &url).starts_with(r#"{"Version":"2008-10-17","#));
}

#[test]
fn removing_the_last_statement_of_a_policy_set_by_set_queue_attributes_removes_it_too() {
    let (mut sqs, url) = queue();
    let mine = r#"{"Version":"2012-10-17","Statement":[{"Sid":"s1","Effect":"Allow","Principal":"*","Action":"sqs:*","Resource":"*"}]}"#;
    sqs.set_attributes(&url, json!({ "Policy": mine })).ok();
    remove(&mut sqs, &url, "s1").ok();
    assert!(!attribute_names(&mut sqs, &url).contains(&"Policy".to_string()));
}

#[test]
fn remove_permission_of_an_unknown_label_answers_invalid_parameter_value_cant_find_label() {
    let (mut sqs, url) = queue();
    remove(&mut sqs, &url, "nobody").rejected(
        400,
        "InvalidParameterValue",
        "Value nobody for parameter Label is invalid. Reason: can't find label.",
    );
    add(
        &mut sqs,
        &url,
        "one",
        json!(["111122223333"]),
        json!(["SendMessage"]),
    )
    .ok();
    remove(&mut sqs, &url, "two").rejected(
        400,
        "InvalidParameterValue",
        "Value two for parameter Label is invalid. Reason: can't find label.",
    );
}

#[test]
fn the_event_log_records_both_calls_with_their_caller() {
    let (mut sqs, url) = queue();
    sqs.call_as(
        Some("you"),
        "AddPermission",
        json!({ "QueueUrl": url, "Label": "a", "AWSAccountIds": ["111122223333"], "Actions": ["SendMessage"] }),
    )
    .ok();
    sqs.call_as(
        Some("you"),
        "RemovePermission",
        json!({ "QueueUrl": url, "Label": "a" }),
    )
    .ok();
    let kinds = sqs.kinds();
    let n = kinds.len();
    assert_eq!(
        kinds[n - 2..],
        [
            EventKind::PermissionAdded {
                queue: "orders".into(),
                label: "a".into(),
                accounts: vec!["111122223333".into()],
                actions: vec!["SendMessage".into()],
                by: Some("you".into()),
            },
            EventKind::PermissionRemoved {
                queue: "orders".into(),
                label: "a".into(),
                by: Some("you".into()),
            },
        ]
    );
}

// ---- bad input ----

#[test]
fn add_permission_to_a_missing_queue_answers_non_existent_queue() {
    let (mut sqs, url) = queue();
    let gone = url.replace("orders", "nope");
    add(
        &mut sqs,
        &gone,
        "a",
        json!(["111122223333"]),
        json!(["SendMessage"]),
    )
    .rejected(400, NO_QUEUE, "The specified queue does not exist.");
    remove(&mut sqs, &gone, "a").rejected(400, NO_QUEUE, "The specified queue does not exist.");
}

#[test]
fn add_permission_without_queue_url_or_label_answers_missing_parameter() {
    let (mut sqs, url) = queue();
    sqs.call(
        "AddPermission",
        json!({ "Label": "a", "AWSAccountIds": ["111122223333"], "Actions": ["SendMessage"] }),
    )
    .rejected(
        400,
        "MissingParameter",
        "The request must contain the parameter QueueUrl.",
    );
    sqs.call(
        "AddPermission",
        json!({ "QueueUrl": url, "AWSAccountIds": ["111122223333"], "Actions": ["SendMessage"] }),
    )
    .rejected(
        400,
        "MissingParameter",
        "The request must contain the parameter Label.",
    );
    sqs.call("RemovePermission", json!({ "QueueUrl": url }))
        .rejected(
            400,
            "MissingParameter",
            "The request must contain the parameter Label.",
        );
}

#[test]
fn a_label_of_other_characters_or_over_80_answers_invalid_parameter_value() {
    let (mut sqs, url) = queue();
    let rule =
        "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length.";
    let long = "a".repeat(81);
    for label in ["has space", "dot.ted", "", long.as_str(), "é"] {
        add(
            &mut sqs,
            &url,
            label,
            json!(["111122223333"]),
            json!(["SendMessage"]),
        )
        .rejected(
            400,
            "InvalidParameterValue",
            &format!("Value {label} for parameter Label is invalid. Reason: {rule}"),
        );
    }
    // The longest label, of every allowed character class, is fine.
    let longest = format!("Az09-_{}", "x".repeat(74));
    add(
        &mut sqs,
        &url,
        &longest,
        json!(["111122223333"]),
        json!(["SendMessage"]),
    )
    .ok();
}

#[test]
fn add_permission_without_actions_answers_missing_parameter() {
    let (mut sqs, url) = queue();
    for actions in [json!([]), Value::Null] {
        add(&mut sqs, &url, "a", json!(["111122223333"]), actions).rejected(
            400,
            "MissingParameter",
            "The request must contain the parameter Actions.",
        );
    }
}

#[test]
fn add_permission_without_accounts_answers_invalid_parameter_value_unable_to_verify() {
    let (mut sqs, url) = queue();
    for accounts in [json!([]), Value::Null] {
        add(&mut sqs, &url, "a", accounts, json!(["SendMessage"])).rejected(
            400,
            "InvalidParameterValue",
            "Value [] for parameter PrincipalId is invalid. Reason: Unable to verify.",
        );
    }
}

#[test]
fn an_account_id_that_is_not_twelve_digits_answers_unable_to_verify() {
    let (mut sqs, url) = queue();
    for bad in [
        "12345",
        "1111222233334",
        "arn:aws:iam::111122223333:root",
        "*",
    ] {
        add(
            &mut sqs,
            &url,
            "a",
            json!(["111122223333", bad]),
            json!(["SendMessage"]),
        )
        .rejected(
            400,
            "InvalidParameterValue",
            &format!(
                "Value [{bad}] for parameter PrincipalId is invalid. Reason: Unable to verify."
            ),
        );
    }
}

#[test]
fn eight_actions_answer_over_limit() {
    let (mut sqs, url) = queue();
    let eight = json!([
        "ChangeMessageVisibility",
        "DeleteMessage",
        "GetQueueAttributes",
        "GetQueueUrl",
        "ListDeadLetterSourceQueues",
        "PurgeQueue",
        "ReceiveMessage",
        "SendMessage"
    ]);
    add(&mut sqs, &url, "a", json!(["111122223333"]), eight).rejected(
        403,
        "OverLimit",
        "8 Actions were found, maximum allowed is 7.",
    );
    // Seven is the most one call may grant.
    let seven = json!([
        "ChangeMessageVisibility",
        "DeleteMessage",
        "GetQueueAttributes",
        "GetQueueUrl",
        "ListDeadLetterSourceQueues",
        "PurgeQueue",
        "ReceiveMessage"
    ]);
    add(&mut sqs, &url, "a", json!(["111122223333"]), seven).ok();
}

#[test]
fn fifty_one_accounts_answer_over_limit() {
    let (mut sqs, url) = queue();
    let accounts: Vec<String> = (0..51).map(|i| format!("{:012}", 100_000 + i)).collect();
    add(&mut sqs, &url, "a", json!(accounts), json!(["SendMessage"])).rejected(
        403,
        "OverLimit",
        "51 Principals were found, maximum allowed is 50.",
    );
    add(
        &mut sqs,
        &url,
        "a",
        json!(accounts[..50]),
        json!(["SendMessage"]),
    )
    .ok();
}

#[test]
fn a_twenty_first_statement_answers_over_limit() {
    let (mut sqs, url) = queue();
    for i in 1..=20 {
        add(
            &mut sqs,
            &url,
            &format!("L{i}"),
            json!(["111122223333"]),
            json!(["SendMessage"]),
        )
        .ok();
    }
    add(
        &mut sqs,
        &url,
        "L21",
        json!(["111122223333"]),
        json!(["SendMessage"]),
    )
    .rejected(
        403,
        "OverLimit",
        "21 Statements were found, maximum allowed is 20.",
    );
}

#[test]
fn add_permission_holds_the_whole_policy_to_sqs_policy_quotas() {
    // 50 principals across the policy: a second statement of 50 accounts
    // would make 100, and a policy past 8,192 bytes is refused as one a
    // caller sets would be, so a policy AddPermission wrote can always be
    // read back and set again.
    let (mut sqs, url) = queue();
    let accounts: Vec<String> = (0..50).map(|i| format!("{:012}", 100_000 + i)).collect();
    add(&mut sqs, &url, "a", json!(accounts), json!(["SendMessage"])).ok();
    add(
        &mut sqs,
        &url,
        "b",
        json!(["111122223333"]),
        json!(["SendMessage"]),
    )
    .rejected(
        403,
        "OverLimit",
        "51 principals were found in the submitted policy, max allowed is 50.",
    );
    let written = policy(&mut sqs, &url);
    assert!(written.len() <= 8_192, "{} bytes", written.len());
    let (mut sqs, url) = queue();
    let actions = json!([
        "SendMessage",
        "ReceiveMessage",
        "DeleteMessage",
        "ChangeMessageVisibility",
        "GetQueueAttributes",
        "GetQueueUrl",
        "PurgeQueue"
    ]);
    let mut refused = None;
    let mut accounts = (100_000..).map(|n| format!("{n:012}"));
    for i in 1..=20 {
        // 50 accounts in all: three in each of the first ten statements, two after.
        let some: Vec<String> = accounts
            .by_ref()
            .take(if i <= 10 { 3 } else { 2 })
            .collect();
        let label = format!("{}{i}", "L".repeat(70));
        let reply = add(&mut sqs, &url, &label, json!(some), actions.clone());
        if reply.status != 200 {
            refused = Some(reply);
            break;
        }
        assert!(policy(&mut sqs, &url).len() <= 8_192);
    }
    refused
        .expect("20 statements of 7 actions, 50 accounts and 72-character labels pass 8,192 bytes")
        .rejected(
            403,
            "OverLimit",
            "Submitted policy is over max allowed size.",
        );
}

#[test]
fn an_owner_only_action_answers_only_the_queue_owner() {
    let (mut sqs, url) = queue();
    for action in [
        "AddPermission",
        "RemovePermission",
        "CreateQueue",
        "DeleteQueue",
        "SetQueueAttributes",
        "ListQueues",
        "ListQueueTags",
        "TagQueue",
        "UntagQueue",
        "StartMessageMoveTask",
        "CancelMessageMoveTask",
        "ListMessageMoveTasks",
    ] {
        add(&mut sqs, &url, "a", json!(["111122223333"]), json!(["SendMessage", action])).rejected(
            400,
            "InvalidParameterValue",
            &format!("Value SQS:{action} for parameter ActionName is invalid. Reason: Only the queue owner is allowed to invoke this action."),
        );
    }
}

#[test]
fn an_action_that_is_not_grantable_answers_refer_to_the_wsdl() {
    let (mut sqs, url) = queue();
    // Batch actions are granted through their single form; names are case-sensitive.
    for action in [
        "SendMessageBatch",
        "sendmessage",
        "SQS:SendMessage",
        "Publish",
        "",
    ] {
        add(&mut sqs, &url, "a", json!(["111122223333"]), json!([action])).rejected(
            400,
            "InvalidParameterValue",
            &format!("Value SQS:{action} for parameter ActionName is invalid. Reason: Please refer to the appropriate WSDL for a list of valid actions."),
        );
    }
}

#[test]
fn every_grantable_action_is_accepted() {
    let (mut sqs, url) = queue();
    for (i, action) in [
        "*",
        "SendMessage",
        "ReceiveMessage",
        "DeleteMessage",
        "ChangeMessageVisibility",
        "GetQueueAttributes",
        "GetQueueUrl",
        "ListDeadLetterSourceQueues",
        "PurgeQueue",
    ]
    .into_iter()
    .enumerate()
    {
        add(
            &mut sqs,
            &url,
            &format!("a{i}"),
            json!(["111122223333"]),
            json!([action]),
        )
        .ok();
    }
}

#[test]
fn permission_members_of_the_wrong_type_answer_serialization_exception() {
    let (mut sqs, url) = queue();
    sqs.call(
        "AddPermission",
        json!({ "QueueUrl": url, "Label": "a", "AWSAccountIds": "111122223333", "Actions": ["SendMessage"] }),
    )
    .err("SerializationException");
    sqs.call("RemovePermission", json!({ "QueueUrl": url, "Label": 7 }))
        .err("SerializationException");
}

#[test]
fn labels_and_values_with_json_specials_cannot_break_the_document() {
    // Only a caller-set policy can hold such text; whatever the engine
    // writes back around it must still be one valid document.
    let (mut sqs, url) = queue();
    let mine = r#"{"Id":"quote \" backslash \\ newline \n","Statement":[{"Sid":"s\"1","Effect":"Allow","Principal":{"AWS":"111111111111"},"Action":"sqs:SendMessage","Resource":"arn:aws:sqs:*:*:quote\"d"}]}"#;
    sqs.set_attributes(&url, json!({ "Policy": mine })).ok();
    add(
        &mut sqs,
        &url,
        "a",
        json!(["111122223333"]),
        json!(["SendMessage"]),
    )
    .ok();
    let doc: Value = serde_json::from_str(&policy(&mut sqs, &url)).unwrap();
    assert_eq!(doc["Id"], "quote \" backslash \\ newline \n");
    assert_eq!(doc["Statement"][0]["Resource"], "arn:aws:sqs:*:*:quote\"d");
    assert_eq!(doc["Statement"][0]["Sid"], "s\"1");
    remove(&mut sqs, &url, "s\"1").ok();
    let doc: Value = serde_json::from_str(&policy(&mut sqs, &url)).unwrap();
    assert_eq!(doc["Statement"].as_array().unwrap().len(), 1);
}
