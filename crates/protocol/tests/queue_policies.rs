//! Queue policies decide who may call (sqs-facts.md, Permissions): an
//! explicit Deny wins; the queue's own account is allowed unless denied;
//! another account or a service needs an Allow whose principal, action,
//! resource and every condition match. A refusal is `AccessDenied` (403)
//! in AWS's words. Every rule through the protocol, as the caller named.

mod common;
use common::{Reply, Sqs};
use queuelab_engine::{AccessReason, Action, EventKind, Principal};
use serde_json::{json, Value};

const ARN: &str = "arn:aws:sqs:us-east-1:000000000000:orders";
const TOPIC: &str = "arn:aws:sns:us-east-1:111111111111:orders-topic";
const PARTNER: &str = "111111111111";

fn account(id_or_arn: &str) -> Principal {
    Principal::account(id_or_arn).unwrap()
}

fn sns(topic: &str) -> Principal {
    Principal::service("sns.amazonaws.com", Some(topic), Some(PARTNER)).unwrap()
}

fn s3(bucket: &str) -> Principal {
    let arn = format!("arn:aws:s3:::{bucket}");
    Principal::service("s3.amazonaws.com", Some(&arn), Some(PARTNER)).unwrap()
}

/// A queue `orders` whose policy is these statements.
fn with_policy(statements: Value) -> (Sqs, String) {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let policy = json!({ "Version": "2012-10-17", "Statement": statements }).to_string();
    sqs.set_attributes(&url, json!({ "Policy": policy })).ok();
    (sqs, url)
}

/// One Allow statement for `principal` on `orders`, with `condition`.
fn allow(principal: Value, action: Value, condition: Value) -> Value {
    let mut s = json!({ "Sid": "Grant", "Effect": "Allow", "Principal": principal,
                        "Action": action, "Resource": ARN });
    if condition != json!(null) {
        s["Condition"] = condition;
    }
    s
}

fn send_as(sqs: &mut Sqs, by: &Principal, url: &str) -> Reply {
    sqs.call_by(
        by,
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "hello" }),
    )
}

#[track_caller]
fn allowed(sqs: &mut Sqs, by: &Principal, url: &str) {
    send_as(sqs, by, url).ok();
}

#[track_caller]
fn refused(sqs: &mut Sqs, by: &Principal, url: &str) {
    send_as(sqs, by, url).err("AccessDenied");
}

#[test]
fn the_owner_is_allowed_without_a_policy() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    allowed(&mut sqs, &Principal::owner(), &url);
    // An account principal of the queue's own account is the owner too.
    allowed(
        &mut sqs,
        &account("arn:aws:iam::000000000000:user/me"),
        &url,
    );
}

#[test]
fn another_account_is_refused_without_a_policy_in_aws_words() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let reply = send_as(&mut sqs, &account(PARTNER), &url);
    reply.error_envelope(403, "AccessDenied", "AccessDeniedException");
    assert_eq!(
        reply.body["__type"],
        "com.amazon.coral.service#AccessDeniedException"
    );
    assert_eq!(
        reply.message(),
        format!(
            "User: arn:aws:iam::111111111111:root is not authorized to perform: sqs:sendmessage \
             on resource: {ARN} because no resource-based policy allows the sqs:sendmessage action"
        )
    );
    assert_eq!(sqs.attribute(&url, "ApproximateNumberOfMessages"), "0");
}

#[test]
fn an_account_id_principal_allows_every_principal_of_that_account() {
    let (mut sqs, url) = with_policy(json!([allow(
        json!({ "AWS": PARTNER }),
        json!("sqs:SendMessage"),
        json!(null)
    )]));
    allowed(&mut sqs, &account(PARTNER), &url);
    allowed(&mut sqs, &account("arn:aws:iam::111111111111:root"), &url);
    allowed(
        &mut sqs,
        &account("arn:aws:iam::111111111111:user/alice"),
        &url,
    );
    refused(&mut sqs, &account("222222222222"), &url);
}

#[test]
fn a_root_arn_principal_allows_the_account() {
    let root = "arn:aws:iam::111111111111:root";
    let (mut sqs, url) = with_policy(json!([allow(
        json!({ "AWS": [root] }),
        json!("sqs:SendMessage"),
        json!(null)
    )]));
    allowed(&mut sqs, &account(PARTNER), &url);
    allowed(
        &mut sqs,
        &account("arn:aws:iam::111111111111:role/worker"),
        &url,
    );
    refused(&mut sqs, &account("arn:aws:iam::222222222222:root"), &url);
}

#[test]
fn a_user_arn_principal_allows_only_that_user() {
    let alice = "arn:aws:iam::111111111111:user/alice";
    let (mut sqs, url) = with_policy(json!([allow(
        json!({ "AWS": alice }),
        json!("sqs:SendMessage"),
        json!(null)
    )]));
    allowed(&mut sqs, &account(alice), &url);
    let reply = send_as(
        &mut sqs,
        &account("arn:aws:iam::111111111111:user/bob"),
        &url,
    );
    reply.err("AccessDenied");
    assert!(reply
        .message()
        .starts_with("User: arn:aws:iam::111111111111:user/bob is not authorized"));
    refused(&mut sqs, &account(PARTNER), &url);
}

#[test]
fn a_star_principal_allows_anyone() {
    for principal in [json!("*"), json!({ "AWS": "*" })] {
        let (mut sqs, url) = with_policy(json!([allow(
            principal,
            json!("sqs:SendMessage"),
            json!(null)
        )]));
        allowed(&mut sqs, &account(PARTNER), &url);
        allowed(&mut sqs, &sns(TOPIC), &url);
    }
}

fn topic_policy(operator: &str, arn: &str) -> (Sqs, String) {
    with_policy(json!([allow(
        json!({ "Service": "sns.amazonaws.com" }),
        json!("sqs:SendMessage"),
        json!({ operator: { "aws:SourceArn": arn } })
    )]))
}

#[test]
fn a_service_principal_with_arn_equals_on_its_source_arn_allows_only_that_topic() {
    let (mut sqs, url) = topic_policy("ArnEquals", TOPIC);
    allowed(&mut sqs, &sns(TOPIC), &url);
    refused(
        &mut sqs,
        &sns("arn:aws:sns:us-east-1:111111111111:other"),
        &url,
    );
    // The Service names sns.amazonaws.com: S3 is not it.
    refused(&mut sqs, &s3("orders-topic"), &url);
    // No aws:SourceArn at all: the condition cannot hold.
    let bare = Principal::service("sns.amazonaws.com", None, None).unwrap();
    refused(&mut sqs, &bare, &url);
}

#[test]
fn a_service_principal_refused_names_the_service_as_the_user() {
    let (mut sqs, url) = topic_policy("ArnEquals", TOPIC);
    let reply = send_as(
        &mut sqs,
        &sns("arn:aws:sns:us-east-1:111111111111:other"),
        &url,
    );
    assert_eq!(
        reply.message(),
        format!(
            "User: sns.amazonaws.com is not authorized to perform: sqs:sendmessage on \
             resource: {ARN} because no resource-based policy allows the sqs:sendmessage action"
        )
    );
}

#[test]
fn arn_like_on_the_source_arn_matches_wildcards() {
    let (mut sqs, url) = with_policy(json!([allow(
        json!({ "Service": "s3.amazonaws.com" }),
        json!("sqs:SendMessage"),
        json!({ "ArnLike": { "aws:SourceArn": "arn:aws:s3:*:*:uploads-*" } })
    )]));
    allowed(&mut sqs, &s3("uploads-2024"), &url);
    refused(&mut sqs, &s3("logs"), &url);
}

#[test]
fn arn_equals_takes_wildcards_as_iam_does() {
    let (mut sqs, url) = topic_policy(
        "ArnEquals",
        "arn:aws:sns:us-east-1:111111111111:orders-?????",
    );
    allowed(&mut sqs, &sns(TOPIC), &url);
    refused(
        &mut sqs,
        &sns("arn:aws:sns:us-east-1:111111111111:orders-top"),
        &url,
    );
}

#[test]
fn arn_not_equals_and_arn_not_like_allow_every_other_source() {
    for operator in ["ArnNotEquals", "ArnNotLike"] {
        let (mut sqs, url) = topic_policy(operator, TOPIC);
        refused(&mut sqs, &sns(TOPIC), &url);
        allowed(
            &mut sqs,
            &sns("arn:aws:sns:us-east-1:111111111111:other"),
            &url,
        );
    }
}

fn account_condition(operator: &str, key: &str, values: Value) -> (Sqs, String) {
    with_policy(json!([allow(
        json!("*"),
        json!("sqs:SendMessage"),
        json!({ operator: { key: values } })
    )]))
}

#[test]
fn string_equals_on_the_source_account_allows_only_that_account() {
    let (mut sqs, url) = account_condition("StringEquals", "aws:SourceAccount", json!(PARTNER));
    allowed(&mut sqs, &sns(TOPIC), &url);
    let elsewhere =
        Principal::service("sns.amazonaws.com", Some(TOPIC), Some("222222222222")).unwrap();
    refused(&mut sqs, &elsewhere, &url);
}

#[test]
fn string_not_equals_refuses_the_named_value() {
    let (mut sqs, url) =
        account_condition("StringNotEquals", "aws:PrincipalAccount", json!(PARTNER));
    refused(&mut sqs, &account(PARTNER), &url);
    allowed(&mut sqs, &account("222222222222"), &url);
}

#[test]
fn string_like_and_string_not_like_match_wildcards() {
    let (mut sqs, url) = account_condition("StringLike", "aws:PrincipalAccount", json!("1111*"));
    allowed(&mut sqs, &account(PARTNER), &url);
    refused(&mut sqs, &account("222222222222"), &url);
    let (mut sqs, url) = account_condition("StringNotLike", "aws:PrincipalAccount", json!("1111*"));
    refused(&mut sqs, &account(PARTNER), &url);
    allowed(&mut sqs, &account("222222222222"), &url);
}

#[test]
fn string_equals_ignore_case_ignores_case_and_string_equals_does_not() {
    let upper = "ARN:AWS:SNS:US-EAST-1:111111111111:ORDERS-TOPIC";
    let (mut sqs, url) = account_condition("StringEqualsIgnoreCase", "aws:SourceArn", json!(upper));
    allowed(&mut sqs, &sns(TOPIC), &url);
    let (mut sqs, url) = account_condition("StringEquals", "aws:SourceArn", json!(upper));
    refused(&mut sqs, &sns(TOPIC), &url);
}

#[test]
fn bool_on_secure_transport_sees_every_call_as_https() {
    let (mut sqs, url) = account_condition("Bool", "aws:SecureTransport", json!("true"));
    allowed(&mut sqs, &account(PARTNER), &url);
    // A JSON boolean is read as its text.
    let (mut sqs, url) = account_condition("Bool", "aws:SecureTransport", json!(false));
    refused(&mut sqs, &account(PARTNER), &url);
}

#[test]
fn ip_address_never_matches_a_simulated_caller_and_not_ip_address_always_does() {
    let (mut sqs, url) = account_condition("IpAddress", "aws:SourceIp", json!("0.0.0.0/0"));
    refused(&mut sqs, &account(PARTNER), &url);
    let (mut sqs, url) = account_condition("NotIpAddress", "aws:SourceIp", json!("192.0.2.0/24"));
    allowed(&mut sqs, &account(PARTNER), &url);
}

#[test]
fn a_condition_on_a_key_the_request_lacks_holds_only_with_if_exists() {
    // An account caller has no aws:SourceArn.
    let (mut sqs, url) = account_condition("ArnEquals", "aws:SourceArn", json!(TOPIC));
    refused(&mut sqs, &account(PARTNER), &url);
    let (mut sqs, url) = account_condition("ArnEqualsIfExists", "aws:SourceArn", json!(TOPIC));
    allowed(&mut sqs, &account(PARTNER), &url);
    refused(
        &mut sqs,
        &sns("arn:aws:sns:us-east-1:111111111111:other"),
        &url,
    );
}

#[test]
fn condition_keys_are_case_insensitive() {
    let (mut sqs, url) = account_condition("ArnEquals", "AWS:SOURCEARN", json!(TOPIC));
    allowed(&mut sqs, &sns(TOPIC), &url);
    refused(
        &mut sqs,
        &sns("arn:aws:sns:us-east-1:111111111111:other"),
        &url,
    );
}

#[test]
fn several_values_of_one_key_are_ored() {
    let other = "arn:aws:sns:us-east-1:111111111111:other";
    let (mut sqs, url) = account_condition("ArnEquals", "aws:SourceArn", json!([other, TOPIC]));
    allowed(&mut sqs, &sns(TOPIC), &url);
    allowed(&mut sqs, &sns(other), &url);
    refused(
        &mut sqs,
        &sns("arn:aws:sns:us-east-1:111111111111:third"),
        &url,
    );
}

#[test]
fn several_keys_and_operators_are_anded() {
    let (mut sqs, url) = with_policy(json!([allow(
        json!({ "Service": "sns.amazonaws.com" }),
        json!("sqs:SendMessage"),
        json!({ "ArnEquals": { "aws:SourceArn": TOPIC },
                "StringEquals": { "aws:SourceAccount": PARTNER } })
    )]));
    allowed(&mut sqs, &sns(TOPIC), &url);
    let wrong_account =
        Principal::service("sns.amazonaws.com", Some(TOPIC), Some("222222222222")).unwrap();
    refused(&mut sqs, &wrong_account, &url);
}

#[test]
fn an_explicit_deny_beats_an_allow_whatever_the_order() {
    let deny = json!({ "Sid": "NoPartner", "Effect": "Deny", "Principal": { "AWS": PARTNER },
                       "Action": "sqs:*", "Resource": "*" });
    let grant = allow(json!("*"), json!("sqs:SendMessage"), json!(null));
    for statements in [json!([grant, deny]), json!([deny, grant])] {
        let (mut sqs, url) = with_policy(statements);
        let reply = send_as(&mut sqs, &account(PARTNER), &url);
        reply.err("AccessDenied");
        assert!(
            reply
                .message()
                .ends_with("with an explicit deny in a resource-based policy"),
            "{}",
            reply.message()
        );
        allowed(&mut sqs, &account("222222222222"), &url);
    }
}

#[test]
fn a_deny_applies_to_the_owner_too() {
    let (mut sqs, url) = with_policy(json!([{ "Effect": "Deny", "Principal": "*",
        "Action": "sqs:SendMessage", "Resource": ARN,
        "Condition": { "Bool": { "aws:SecureTransport": "false" } } }, {
        "Effect": "Deny", "Principal": "*", "Action": "sqs:ReceiveMessage", "Resource": ARN }]));
    // The first denies only plain HTTP: every call here is HTTPS.
    allowed(&mut sqs, &Principal::owner(), &url);
    sqs.call("ReceiveMessage", json!({ "QueueUrl": url }))
        .rejected(
            403,
            "AccessDenied",
            &format!(
                "User: arn:aws:iam::000000000000:root is not authorized to perform: \
                 sqs:receivemessage on resource: {ARN} with an explicit deny in a \
                 resource-based policy"
            ),
        );
}

#[test]
fn action_wildcards_and_any_case_match() {
    for action in [
        json!("sqs:SendMessage"),
        json!("SQS:SENDMESSAGE"),
        json!("sqs:send*"),
        json!("sqs:Send?essage"),
        json!("sqs:*"),
        json!("*"),
        json!(["sqs:ReceiveMessage", "sqs:SendMessage"]),
    ] {
        let (mut sqs, url) = with_policy(json!([allow(json!("*"), action.clone(), json!(null))]));
        allowed(&mut sqs, &account(PARTNER), &url);
    }
    let (mut sqs, url) = with_policy(json!([allow(
        json!("*"),
        json!("sqs:Receive*"),
        json!(null)
    )]));
    refused(&mut sqs, &account(PARTNER), &url);
}

#[test]
fn a_resource_matches_the_queue_arn_with_wildcards() {
    let statement = |resource: &str| {
        json!([{ "Effect": "Allow", "Principal": "*", "Action": "sqs:SendMessage",
                 "Resource": resource }])
    };
    for resource in [
        "*",
        ARN,
        "arn:aws:sqs:*:000000000000:ord*",
        "arn:aws:sqs:us-east-1:*:?rders",
    ] {
        let (mut sqs, url) = with_policy(statement(resource));
        allowed(&mut sqs, &account(PARTNER), &url);
    }
    let (mut sqs, url) = with_policy(statement("arn:aws:sqs:us-east-1:000000000000:other"));
    refused(&mut sqs, &account(PARTNER), &url);
}

#[test]
fn a_batch_is_authorised_as_its_single_action() {
    let (mut sqs, url) = with_policy(json!([allow(
        json!({ "AWS": PARTNER }),
        json!("sqs:SendMessage"),
        json!(null)
    )]));
    let entries = json!([{ "Id": "a", "MessageBody": "one" }]);
    let partner = account(PARTNER);
    let sent = sqs.call_by(
        &partner,
        "SendMessageBatch",
        json!({ "QueueUrl": url, "Entries": entries }),
    );
    assert_eq!(sent.ok()["Successful"].as_array().unwrap().len(), 1);
    let deleted = sqs.call_by(
        &partner,
        "DeleteMessageBatch",
        json!({ "QueueUrl": url, "Entries": [{ "Id": "a", "ReceiptHandle": "x" }] }),
    );
    assert!(deleted
        .err("AccessDenied")
        .message()
        .contains("sqs:deletemessage on resource"));
}

#[test]
fn a_policy_naming_a_batch_action_is_refused_as_it_names_no_action() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let policy =
        json!({ "Statement": [allow(json!("*"), json!("sqs:SendMessageBatch"), json!(null))] });
    sqs.set_attributes(&url, json!({ "Policy": policy.to_string() }))
        .rejected(
            400,
            "InvalidAttributeValue",
            "Invalid value for the parameter Policy. Reason: statement 1 (\"Grant\"): Action \
             \"sqs:SendMessageBatch\" names no SQS action (a batch is authorised as its single \
             action: sqs:SendMessage covers SendMessageBatch).",
        );
}

#[test]
fn add_permission_grants_exactly_the_listed_actions_to_the_listed_accounts() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.call(
        "AddPermission",
        json!({ "QueueUrl": url, "Label": "PartnerSend", "AWSAccountIds": [PARTNER],
                "Actions": ["SendMessage"] }),
    )
    .ok();
    let partner = account(PARTNER);
    allowed(&mut sqs, &partner, &url);
    sqs.call_by(&partner, "ReceiveMessage", json!({ "QueueUrl": url }))
        .err("AccessDenied");
    refused(&mut sqs, &account("222222222222"), &url);
    sqs.call(
        "RemovePermission",
        json!({ "QueueUrl": url, "Label": "PartnerSend" }),
    )
    .ok();
    refused(&mut sqs, &partner, &url);
}

#[test]
fn owner_only_actions_stay_the_owners_even_under_sqs_star() {
    let (mut sqs, url) = with_policy(json!([allow(json!("*"), json!("sqs:*"), json!(null))]));
    let partner = account(PARTNER);
    sqs.call_by(
        &partner,
        "GetQueueAttributes",
        json!({ "QueueUrl": url, "AttributeNames": ["All"] }),
    )
    .ok();
    let reply = sqs.call_by(
        &partner,
        "SetQueueAttributes",
        json!({ "QueueUrl": url, "Attributes": { "DelaySeconds": "5" } }),
    );
    reply.rejected(
        403,
        "AccessDenied",
        &format!(
            "User: arn:aws:iam::111111111111:root is not authorized to perform: \
             sqs:setqueueattributes on resource: {ARN} because cross-account permissions do \
             not apply to the sqs:setqueueattributes action: only the queue's own account may \
             call it"
        ),
    );
    assert_eq!(sqs.attribute(&url, "DelaySeconds"), "0");
    sqs.call_by(&partner, "DeleteQueue", json!({ "QueueUrl": url }))
        .err("AccessDenied");
}

#[test]
fn not_principal_not_action_and_not_resource_apply_to_everything_they_do_not_list() {
    let (mut sqs, url) = with_policy(json!([{ "Effect": "Allow",
        "NotPrincipal": { "AWS": "222222222222" }, "NotAction": "sqs:ReceiveMessage",
        "NotResource": "arn:aws:sqs:*:*:other" }]));
    allowed(&mut sqs, &account(PARTNER), &url);
    refused(&mut sqs, &account("222222222222"), &url);
    sqs.call_by(
        &account(PARTNER),
        "ReceiveMessage",
        json!({ "QueueUrl": url }),
    )
    .err("AccessDenied");
}

#[test]
fn access_is_decided_after_the_queue_resolves_and_before_the_operation_validates() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let partner = account(PARTNER);
    // A queue that does not exist answers so, whoever asks.
    let missing = "https://sqs.us-east-1.amazonaws.com/000000000000/missing";
    send_as(&mut sqs, &partner, missing).err("AWS.SimpleQueueService.NonExistentQueue");
    // The owner's bad receipt handle is the operation's error; another
    // account is refused before the handle is looked at.
    let change = json!({ "QueueUrl": url, "ReceiptHandle": "bad", "VisibilityTimeout": 5 });
    sqs.call("ChangeMessageVisibility", change.clone())
        .err("ReceiptHandleIsInvalid");
    sqs.call_by(&partner, "ChangeMessageVisibility", change)
        .err("AccessDenied");
}

#[test]
fn another_account_has_no_queues_here_and_cannot_create_one() {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let partner = account(PARTNER);
    assert_eq!(
        sqs.call_by(&partner, "ListQueues", json!({})).ok(),
        json!({})
    );
    sqs.call_by(&partner, "CreateQueue", json!({ "QueueName": "mine" }))
        .rejected(
            403,
            "AccessDenied",
            "User: arn:aws:iam::111111111111:root is not authorized to perform: \
             sqs:createqueue on resource: arn:aws:sqs:us-east-1:111111111111:mine because this \
             playground holds only account 000000000000's queues: another account cannot \
             create one here",
        );
    // GetQueueUrl looks in the caller's own account unless it names the owner.
    sqs.call_by(&partner, "GetQueueUrl", json!({ "QueueName": "orders" }))
        .err("AWS.SimpleQueueService.NonExistentQueue");
    let named = json!({ "QueueName": "orders", "QueueOwnerAWSAccountId": "000000000000" });
    sqs.call_by(&partner, "GetQueueUrl", named.clone())
        .err("AccessDenied");
    sqs.call(
        "AddPermission",
        json!({ "QueueUrl": url, "Label": "Find", "AWSAccountIds": [PARTNER],
                "Actions": ["GetQueueUrl"] }),
    )
    .ok();
    assert_eq!(
        sqs.call_by(&partner, "GetQueueUrl", named).ok()["QueueUrl"],
        url
    );
}

#[test]
fn every_decision_on_another_principal_and_every_refusal_is_an_event() {
    let (mut sqs, url) = topic_policy("ArnEquals", TOPIC);
    let since = sqs.engine.next_event_seq() - 1;
    allowed(&mut sqs, &Principal::owner(), &url);
    allowed(&mut sqs, &sns(TOPIC).named("orders-topic"), &url);
    refused(&mut sqs, &account(PARTNER), &url);
    let decisions: Vec<EventKind> = sqs
        .engine
        .events(since)
        .map(|e| e.kind.clone())
        .filter(|k| matches!(k, EventKind::AccessDecided { .. }))
        .collect();
    assert_eq!(decisions.len(), 2, "the owner's call logs no decision");
    let EventKind::AccessDecided {
        queue,
        action,
        by,
        principal,
        allowed,
        reason,
    } = &decisions[0]
    else {
        unreachable!()
    };
    assert_eq!(
        (
            &**queue,
            *action,
            by.as_deref(),
            principal.as_str(),
            *allowed
        ),
        (
            "orders",
            "SendMessage",
            Some("orders-topic"),
            "sns.amazonaws.com",
            true
        )
    );
    let AccessReason::Allowed { statement, matched } = reason else {
        panic!("{reason:?}")
    };
    assert_eq!(
        (statement.sid.as_deref(), statement.index),
        (Some("Grant"), 1)
    );
    assert_eq!(matched.len(), 1);
    assert_eq!(
        (
            matched[0].operator.as_str(),
            matched[0].key.as_str(),
            matched[0].value.as_deref()
        ),
        ("ArnEquals", "aws:SourceArn", Some(TOPIC))
    );
    let EventKind::AccessDecided {
        principal,
        allowed,
        reason,
        ..
    } = &decisions[1]
    else {
        unreachable!()
    };
    assert_eq!(
        (principal.as_str(), *allowed, reason),
        (PARTNER, false, &AccessReason::NoStatementAllows)
    );
}

#[test]
fn decide_answers_without_calling_or_logging() {
    let (sqs, url) = topic_policy("ArnEquals", TOPIC);
    let before = sqs.engine.next_event_seq();
    let decision = sqs
        .engine
        .decide(&sns(TOPIC), Action::SendMessageBatch, &url);
    assert!(decision.allowed, "{decision:?}");
    let other = sns("arn:aws:sns:us-east-1:111111111111:other");
    let decision = sqs.engine.decide(&other, Action::SendMessage, &url);
    assert_eq!(decision.reason, AccessReason::NoStatementAllows);
    let decision = sqs.engine.decide(&other, Action::SendMessage, "nowhere");
    assert_eq!(decision.reason, AccessReason::NoSuchQueue);
    assert_eq!(sqs.engine.next_event_seq(), before);
}

// ---------------------------------------------------------------------------
// Malformed policies: InvalidAttributeValue, AWS's sentence and the reason.
// ---------------------------------------------------------------------------

#[track_caller]
fn malformed(policy: Value, reason: &str) {
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    let text = if let Value::String(s) = &policy {
        s.clone()
    } else {
        policy.to_string()
    };
    let expected = format!("Invalid value for the parameter Policy. Reason: {reason}.");
    sqs.set_attributes(&url, json!({ "Policy": text }))
        .rejected(400, "InvalidAttributeValue", &expected);
    sqs.create_reply("other", json!({ "Policy": text }))
        .rejected(400, "InvalidAttributeValue", &expected);
    assert_eq!(sqs.attribute(&url, "Policy"), "", "nothing was set");
}

fn one(statement: Value) -> Value {
    json!({ "Version": "2012-10-17", "Statement": [statement] })
}

#[test]
fn a_policy_that_is_not_a_json_object_is_refused() {
    malformed(json!("not json"), "the policy is not a JSON object");
    malformed(json!("[1]"), "the policy is not a JSON object");
}

#[test]
fn an_unknown_effect_is_refused_naming_it() {
    malformed(
        one(
            json!({ "Sid": "A", "Effect": "Alow", "Principal": "*", "Action": "sqs:*", "Resource": "*" }),
        ),
        "statement 1 (\"A\"): unknown Effect \"Alow\": it must be Allow or Deny",
    );
}

#[test]
fn a_statement_without_principal_action_resource_or_effect_is_refused() {
    malformed(
        one(json!({ "Effect": "Allow", "Action": "sqs:*", "Resource": "*" })),
        "statement 1: it has no Principal",
    );
    malformed(
        one(json!({ "Effect": "Allow", "Principal": "*", "Resource": "*" })),
        "statement 1: it has no Action",
    );
    malformed(
        one(json!({ "Effect": "Allow", "Principal": "*", "Action": "sqs:*" })),
        "statement 1: it has no Resource",
    );
    malformed(
        one(json!({ "Principal": "*", "Action": "sqs:*", "Resource": "*" })),
        "statement 1: it has no Effect",
    );
    malformed(
        one(
            json!({ "Effect": "Allow", "Principal": "*", "NotPrincipal": "*", "Action": "sqs:*", "Resource": "*" }),
        ),
        "statement 1: it has both Principal and NotPrincipal",
    );
}

#[test]
fn an_unknown_condition_operator_is_refused_naming_it() {
    malformed(
        one(
            json!({ "Effect": "Allow", "Principal": "*", "Action": "sqs:*", "Resource": "*",
                    "Condition": { "ArnEqual": { "aws:SourceArn": TOPIC } } }),
        ),
        "statement 1: unknown condition operator \"ArnEqual\": Queuelab knows ArnEquals, \
         ArnLike, ArnNotEquals, ArnNotLike, StringEquals, StringNotEquals, \
         StringEqualsIgnoreCase, StringNotEqualsIgnoreCase, StringLike, StringNotLike, Bool, \
         IpAddress, NotIpAddress (each also with IfExists)",
    );
    malformed(
        one(
            json!({ "Effect": "Allow", "Principal": "*", "Action": "sqs:*", "Resource": "*",
                    "Condition": { "IpAddress": { "aws:SourceIp": "somewhere" } } }),
        ),
        "statement 1: condition IpAddress \"aws:SourceIp\": \"somewhere\" is not an IP address \
         or CIDR block",
    );
}

#[test]
fn a_resource_that_is_not_an_arn_is_refused() {
    malformed(
        one(
            json!({ "Effect": "Allow", "Principal": "*", "Action": "sqs:*", "Resource": "orders" }),
        ),
        "statement 1: Resource \"orders\" is not an ARN: write the queue's ARN \
         (arn:aws:sqs:<region>:<account>:<queue>, wildcards allowed) or *",
    );
}

#[test]
fn a_bad_principal_or_action_is_refused_naming_it() {
    malformed(
        one(
            json!({ "Effect": "Allow", "Principal": { "AWS": "alice" }, "Action": "sqs:*", "Resource": "*" }),
        ),
        "statement 1: invalid principal \"alice\": an AWS principal is \"*\", a 12-digit \
         account id or an IAM ARN (arn:aws:iam::111111111111:root, …:user/name or …:role/name)",
    );
    malformed(
        one(
            json!({ "Effect": "Allow", "Principal": { "Federated": "x" }, "Action": "sqs:*", "Resource": "*" }),
        ),
        "statement 1: Principal has \"Federated\": Queuelab takes AWS (accounts and IAM ARNs) \
         and Service principals",
    );
    malformed(
        one(
            json!({ "Effect": "Allow", "Principal": "*", "Action": "sns:Publish", "Resource": "*" }),
        ),
        "statement 1: Action \"sns:Publish\" is not an SQS action: write sqs:<Action> \
         (sqs:SendMessage, sqs:Send*, sqs:*) or *",
    );
    malformed(
        one(
            json!({ "Effect": "Allow", "Principal": "*", "Action": "sqs:SendMesage", "Resource": "*" }),
        ),
        "statement 1: Action \"sqs:SendMesage\" names no SQS action (a batch is authorised as \
         its single action: sqs:SendMessage covers SendMessageBatch)",
    );
}

#[test]
fn unknown_members_and_a_bad_version_are_refused() {
    malformed(
        json!({ "Version": "2012-10-17", "Statements": [] }),
        "unknown member \"Statements\": a policy has Version, Id and Statement",
    );
    malformed(
        json!({ "Version": "2020-01-01", "Statement": [] }),
        "Version must be 2012-10-17 or 2008-10-17",
    );
    malformed(
        json!({ "Statement": "everyone" }),
        "Statement must be a statement object or a list of them",
    );
    malformed(
        one(
            json!({ "Effect": "Allow", "Principal": "*", "Action": "sqs:*", "Resource": "*", "Extra": 1 }),
        ),
        "statement 1: unknown member \"Extra\": a statement has Sid, Effect, Principal, \
         NotPrincipal, Action, NotAction, Resource, NotResource, Condition",
    );
}

#[test]
fn two_statements_with_the_same_sid_are_refused() {
    let statement = json!({ "Sid": "Same", "Effect": "Allow", "Principal": "*",
                            "Action": "sqs:SendMessage", "Resource": "*" });
    malformed(
        json!({ "Statement": [statement, statement] }),
        "statements 1 and 2 have the same Sid \"Same\": each Sid must be unique",
    );
}

#[test]
fn a_policy_add_permission_wrote_can_be_set_again_as_read() {
    // Tools write back the whole attribute map they read.
    let (mut sqs, url) = Sqs::with_queue("orders", json!({}));
    sqs.call(
        "AddPermission",
        json!({ "QueueUrl": url, "Label": "Two", "AWSAccountIds": [PARTNER, "222222222222"],
                "Actions": ["SendMessage", "ReceiveMessage"] }),
    )
    .ok();
    let written = sqs.attribute(&url, "Policy");
    sqs.set_attributes(&url, json!({ "Policy": written })).ok();
    assert_eq!(sqs.attribute(&url, "Policy"), written);
    allowed(&mut sqs, &account("222222222222"), &url);
}

#[test]
fn a_policy_that_denies_everyone_everything_can_still_be_read_and_fixed_by_the_owner() {
    let (mut sqs, url) = with_policy(json!([{ "Effect": "Deny", "Principal": "*",
        "Action": "sqs:*", "Resource": "*" }]));
    refused(&mut sqs, &Principal::owner(), &url);
    assert!(sqs.attribute(&url, "Policy").contains("Deny"));
    sqs.set_attributes(&url, json!({ "Policy": "" })).ok();
    allowed(&mut sqs, &Principal::owner(), &url);
}
