//! The gate (`Engine::call`): every call is made as a `Principal`, metered
//! once before its operation runs (the message calls, once their queue
//! resolves, whether or not they then fail), and the principal's name is
//! what the log records. Plus the SQS rules that moved out of the protocol
//! layer, answered by the engine's typed API.

use queuelab_engine::{
    Action, AddPermission, AttributeSelection, Config, Engine, ErrorCode, EventKind, NewMessage,
    Principal, ReceiveMessage, ReceiveOutcome, Request, Response, SendMessage, Tags,
};

fn engine_with_queue() -> (Engine, String) {
    let mut engine = Engine::new(Config::default());
    let url = engine.create_queue("orders", &[], &Tags::new()).unwrap();
    (engine, url)
}

fn calls_metered(engine: &Engine) -> u64 {
    engine.meter().lines().map(|(_, t)| t.calls).sum()
}

fn message(body: &str) -> NewMessage {
    NewMessage {
        body: body.into(),
        ..NewMessage::default()
    }
}

/// Owned arguments for one request of every action, all naming `url`.
struct Arguments {
    url: String,
    arn: String,
    send: SendMessage,
    receive: ReceiveMessage,
    sends: Vec<(String, NewMessage)>,
    deletes: Vec<(String, String)>,
    changes: Vec<(String, (String, Option<i64>))>,
    tags: Tags,
    keys: Vec<String>,
    selection: AttributeSelection,
    permission: AddPermission,
}

impl Arguments {
    fn new(url: &str) -> Self {
        Arguments {
            url: url.into(),
            arn: "arn:aws:sqs:us-east-1:000000000000:orders".into(),
            send: SendMessage {
                queue_url: url.into(),
                message: message("order 1"),
            },
            receive: ReceiveMessage {
                queue_url: url.into(),
                ..ReceiveMessage::default()
            },
            sends: vec![("a".into(), message("order 2"))],
            deletes: vec![("a".into(), "not-a-handle".into())],
            changes: vec![("a".into(), ("not-a-handle".into(), None))],
            tags: Tags::from([("team".into(), "shop".into())]),
            keys: vec!["team".into()],
            selection: AttributeSelection::All,
            permission: AddPermission {
                label: "partner".into(),
                account_ids: vec!["111111111111".into()],
                actions: vec!["SendMessage".into()],
            },
        }
    }

    /// A request of `action` (many fail: a made-up handle, no move task).
    fn request(&self, action: Action) -> Request<'_> {
        let url = self.url.as_str();
        match action {
            Action::SendMessage => Request::SendMessage(&self.send),
            Action::SendMessageBatch => Request::SendMessageBatch {
                queue_url: url,
                entries: &self.sends,
            },
            Action::ReceiveMessage => Request::ReceiveMessage(&self.receive),
            Action::DeleteMessage => Request::DeleteMessage {
                queue_url: url,
                receipt_handle: "not-a-handle",
            },
            Action::DeleteMessageBatch => Request::DeleteMessageBatch {
                queue_url: url,
                entries: &self.deletes,
            },
            Action::ChangeMessageVisibility => Request::ChangeMessageVisibility {
                queue_url: url,
                receipt_handle: "not-a-handle",
                visibility_timeout: 5,
            },
            Action::ChangeMessageVisibilityBatch => Request::ChangeMessageVisibilityBatch {
                queue_url: url,
                entries: &self.changes,
            },
            other => self.management(other),
        }
    }

    fn management(&self, action: Action) -> Request<'_> {
        let url = self.url.as_str();
        match action {
            Action::AddPermission => Request::AddPermission {
                queue_url: url,
                request: &self.permission,
            },
            Action::RemovePermission => Request::RemovePermission {
                queue_url: url,
                label: "partner",
            },
            Action::CancelMessageMoveTask => Request::CancelMessageMoveTask {
                task_handle: "not-a-handle",
            },
            Action::CreateQueue => Request::CreateQueue {
                name: "orders-2",
                attributes: &[],
                tags: &self.tags,
            },
            Action::DeleteQueue => Request::DeleteQueue { queue_url: url },
            Action::GetQueueAttributes => Request::GetQueueAttributes {
                queue_url: url,
                selection: &self.selection,
            },
            Action::GetQueueUrl => Request::GetQueueUrl {
                name: "orders",
                owner: None,
            },
            Action::ListDeadLetterSourceQueues => Request::ListDeadLetterSourceQueues {
                queue_url: url,
                max_results: None,
                next_token: None,
            },
            Action::ListMessageMoveTasks => Request::ListMessageMoveTasks {
                source_arn: &self.arn,
                max_results: None,
            },
            Action::ListQueueTags => Request::ListQueueTags { queue_url: url },
            Action::ListQueues => Request::ListQueues {
                prefix: None,
                max_results: None,
                next_token: None,
            },
            Action::PurgeQueue => Request::PurgeQueue { queue_url: url },
            Action::SetQueueAttributes => Request::SetQueueAttributes {
                queue_url: url,
                attributes: &[],
            },
            Action::StartMessageMoveTask => Request::StartMessageMoveTask {
                source_arn: &self.arn,
                destination_arn: None,
                max_number_of_messages_per_second: None,
            },
            Action::TagQueue => Request::TagQueue {
                queue_url: url,
                tags: &self.tags,
            },
            Action::UntagQueue => Request::UntagQueue {
                queue_url: url,
                keys: &self.keys,
            },
            message_call => panic!("{message_call} is a message call"),
        }
    }
}

/// Each action once through the gate, DeleteQueue last (the others need
/// the queue): every action adds exactly one metered call, succeeding or
/// not, as "every Amazon SQS action counts as a request".
#[test]
fn the_gate_meters_every_action_once() {
    let (mut engine, url) = engine_with_queue();
    let arguments = Arguments::new(&url);
    let mut actions: Vec<Action> = Action::ALL.to_vec();
    actions.sort_by_key(|a| *a == Action::DeleteQueue);
    let owner = Principal::owner();
    for action in actions {
        let request = arguments.request(action);
        assert_eq!(request.action(), action);
        let before = calls_metered(&engine);
        let answer = engine.call(&owner, request);
        let metered = calls_metered(&engine) - before;
        assert_eq!(
            metered, 1,
            "{action} ({answer:?}) was metered {metered} times"
        );
    }
}

/// SQS bills a call once its queue resolves: a call naming a queue URL
/// that resolves to no queue is not billed, whatever the action.
#[test]
fn a_call_to_a_queue_that_does_not_exist_is_not_metered() {
    let (mut engine, _) = engine_with_queue();
    let before = calls_metered(&engine);
    let missing = "https://sqs.us-east-1.amazonaws.com/000000000000/missing";
    let arguments = Arguments::new(missing);
    for action in Action::ALL {
        let request = arguments.request(action);
        if request.queue_url().is_none() {
            continue;
        }
        // Refused: QueueDoesNotExist, or a parameter a management call
        // checks first (SetQueueAttributes' missing attributes).
        assert!(
            engine.call(&Principal::owner(), request).is_err(),
            "{action}"
        );
    }
    assert_eq!(calls_metered(&engine), before);
}

/// The event's kind and the caller it names (`None` for an event that
/// names none).
fn named(kind: &EventKind) -> (&'static str, Option<&str>) {
    match kind {
        EventKind::Sent { by, .. } => ("sent", by.as_deref()),
        EventKind::Received { by, .. } => ("received", by.as_deref()),
        EventKind::VisibilityChanged { by, .. } => ("visibilityChanged", by.as_deref()),
        EventKind::Deleted { by, .. } => ("deleted", by.as_deref()),
        EventKind::EmptyReceive { by, .. } => ("emptyReceive", by.as_deref()),
        EventKind::PermissionAdded { by, .. } => ("permissionAdded", by.as_deref()),
        EventKind::PermissionRemoved { by, .. } => ("permissionRemoved", by.as_deref()),
        _ => ("other", None),
    }
}

/// The principal reaches every operation: the calls that log who made them
/// (a send, a receive, an empty receive, a visibility change, a delete,
/// AddPermission and RemovePermission) log the principal's display name,
/// and its meter line is billed under it.
#[test]
fn every_operation_receives_the_principal_and_the_log_names_it() {
    let (mut engine, url) = engine_with_queue();
    // A role of the queue's own account: allowed everything without a
    // policy, so every operation runs.
    let partner = Principal::account("arn:aws:iam::000000000000:role/worker")
        .unwrap()
        .named("partner");
    let arguments = Arguments::new(&url);
    let since = engine.next_event_seq() - 1;
    engine
        .call(&partner, arguments.request(Action::SendMessage))
        .unwrap();
    let Response::ReceiveMessage(ReceiveOutcome::Done(got)) = engine
        .call(&partner, arguments.request(Action::ReceiveMessage))
        .unwrap()
    else {
        panic!("a short poll answers at once");
    };
    let handle = got[0].receipt_handle.as_str();
    let change = Request::ChangeMessageVisibility {
        queue_url: &url,
        receipt_handle: handle,
        visibility_timeout: 30,
    };
    engine.call(&partner, change).unwrap();
    let delete = Request::DeleteMessage {
        queue_url: &url,
        receipt_handle: handle,
    };
    engine.call(&partner, delete).unwrap();
    for action in [
        Action::ReceiveMessage,
        Action::AddPermission,
        Action::RemovePermission,
    ] {
        engine.call(&partner, arguments.request(action)).unwrap();
    }
    let named: Vec<_> = engine.events(since).map(|e| named(&e.kind)).collect();
    assert_eq!(
        named,
        [
            ("sent", Some("partner")),
            ("received", Some("partner")),
            ("visibilityChanged", Some("partner")),
            ("deleted", Some("partner")),
            ("emptyReceive", Some("partner")),
            ("permissionAdded", Some("partner")),
            ("permissionRemoved", Some("partner")),
        ]
    );
    // The queue's CreateQueue is the setup's, under no name.
    assert!(engine
        .meter()
        .lines()
        .filter(|(line, _)| line.action != Action::CreateQueue)
        .all(|(line, _)| line.caller.as_deref() == Some("partner")));
}

/// A principal is valid when it is made, or refused with a sentence saying
/// what was expected: a 12-digit account id, an IAM principal's ARN, or a
/// service SQS takes messages from with its source's ARN and account.
#[test]
fn a_bad_principal_is_refused_when_it_is_made_with_a_clear_error() {
    for good in [
        "111111111111",
        "arn:aws:iam::111111111111:root",
        "arn:aws:iam::111111111111:user/alice",
        "arn:aws:iam::111111111111:role/team/worker",
    ] {
        Principal::account(good).unwrap_or_else(|e| panic!("{good}: {e}"));
    }
    for bad in [
        "12345",
        "1111111111112",
        "arn:aws:iam::12345:root",
        "arn:aws:iam::111111111111:group/ops",
        "arn:aws:iam::111111111111:user/",
        "arn:aws:sqs:us-east-1:111111111111:orders",
    ] {
        let error = Principal::account(bad).unwrap_err();
        assert!(
            error.starts_with("a principal must be a 12-digit AWS account id or an IAM ARN")
                && error.contains(bad),
            "{bad}: {error}"
        );
    }
    let topic = "arn:aws:sns:us-east-1:111111111111:orders";
    Principal::service("sns.amazonaws.com", Some(topic), Some("111111111111")).unwrap();
    Principal::service("s3.amazonaws.com", Some("arn:aws:s3:::bucket"), None).unwrap();
    let error = Principal::service("lambda.amazonaws.com", None, None).unwrap_err();
    assert_eq!(
        error,
        "a service principal must be sns.amazonaws.com or s3.amazonaws.com, got lambda.amazonaws.com"
    );
    let error = Principal::service("sns.amazonaws.com", Some("topic"), None).unwrap_err();
    assert!(error.starts_with("aws:SourceArn must be an ARN"), "{error}");
    let error = Principal::service("sns.amazonaws.com", Some(topic), Some("1")).unwrap_err();
    assert_eq!(
        error,
        "aws:SourceAccount must be a 12-digit AWS account id, got 1"
    );
}

/// SetQueueAttributes with no attributes and TagQueue with no tags are
/// missing parameters, answered by the engine (not the JSON codec), before
/// the queue is even looked up.
#[test]
fn empty_attributes_and_empty_tags_are_missing_parameters_from_the_engine() {
    let (mut engine, url) = engine_with_queue();
    for queue in [url.as_str(), "missing"] {
        let error = engine.set_queue_attributes(queue, &[]).unwrap_err();
        assert_eq!(
            (error.code, error.message.as_str()),
            (
                ErrorCode::MissingParameter,
                "The request must contain the parameter Attributes."
            )
        );
        let error = engine.tag_queue(queue, &Tags::new()).unwrap_err();
        assert_eq!(
            (error.code, error.message.as_str()),
            (
                ErrorCode::MissingParameter,
                "The request must contain the parameter Tags."
            )
        );
    }
}

/// A ChangeMessageVisibilityBatch entry without a timeout sets 0: the
/// message is visible again at once (the engine's default, not the codec's).
#[test]
fn a_visibility_batch_entry_without_a_timeout_makes_the_message_visible_at_once() {
    let (mut engine, url) = engine_with_queue();
    let arguments = Arguments::new(&url);
    engine.send_message(&arguments.send, None).unwrap();
    let receive = ReceiveMessage {
        visibility_timeout: Some(600),
        ..arguments.receive.clone()
    };
    let ReceiveOutcome::Done(got) = engine.receive_message(&receive, None).unwrap() else {
        panic!("a short poll answers at once");
    };
    let entries = [("a".to_string(), (got[0].receipt_handle.clone(), None))];
    let result = engine
        .change_message_visibility_batch(&url, &entries, None)
        .unwrap();
    assert_eq!(result.failed, []);
    let ReceiveOutcome::Done(again) = engine.receive_message(&receive, None).unwrap() else {
        panic!("a short poll answers at once");
    };
    assert_eq!(again.len(), 1, "visible again at once");
}
