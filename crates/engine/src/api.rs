//! Typed requests and results of the engine's operations. Numbers arrive as
//! `i64` exactly as the caller sent them: range checks are SQS semantics and
//! happen in the engine, not in the protocol layer.

use std::collections::BTreeMap;

use crate::action::Action;
use crate::message::MessageAttribute;
use crate::settings::{AttributeName, QueueAttribute};

/// Who makes a call, as the event log should name them ("worker-1"): the
/// typed API's shorthand for the owner's [`crate::Principal`] under that
/// display name ([`crate::Principal::caller`]). SQS itself has no such
/// notion; it only labels events.
pub type Caller<'a> = Option<&'a str>;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SendMessage {
    pub queue_url: String,
    pub message: NewMessage,
}

/// The part of a send that a batch entry repeats.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NewMessage {
    pub body: String,
    pub delay_seconds: Option<i64>,
    pub attributes: Vec<MessageAttribute>,
    pub system_attributes: Vec<MessageAttribute>,
    pub group_id: Option<String>,
    pub dedup_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SendResult {
    pub message_id: String,
    pub md5_of_body: String,
    pub md5_of_attributes: Option<String>,
    pub md5_of_system_attributes: Option<String>,
    pub sequence_number: Option<String>,
}

/// A failed batch entry: SQS answers 200 and lists it under `Failed`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchFailure {
    pub id: String,
    pub sender_fault: bool,
    pub code: &'static str,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchResult<T> {
    pub successful: Vec<(String, T)>,
    pub failed: Vec<BatchFailure>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReceiveMessage {
    pub queue_url: String,
    pub max_number_of_messages: Option<i64>,
    pub visibility_timeout: Option<i64>,
    pub wait_time_seconds: Option<i64>,
    /// `AttributeNames` and `MessageSystemAttributeNames`, unioned.
    pub system_attribute_names: Vec<String>,
    pub message_attribute_names: Vec<String>,
    pub receive_request_attempt_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReceivedMessage {
    pub message_id: String,
    pub receipt_handle: String,
    pub body: String,
    pub md5_of_body: String,
    /// System attributes, in name order.
    pub attributes: Vec<(&'static str, String)>,
    /// Present when `MessageAttributeNames` asked and something matched.
    pub message_attributes: Vec<MessageAttribute>,
    pub md5_of_message_attributes: Option<String>,
}

/// Identifies a long poll that is still waiting.
pub type PollId = u64;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReceiveOutcome {
    Done(Vec<ReceivedMessage>),
    /// A long poll with nothing to return yet: it is answered through
    /// [`crate::Engine::take_answered_polls`] when a message arrives or its wait ends.
    Waiting(PollId),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttributeSelection {
    All,
    Names(Vec<AttributeName>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListQueuesResult {
    pub queue_urls: Vec<String>,
    pub next_token: Option<String>,
}

pub type Tags = BTreeMap<String, String>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTaskInfo {
    pub task_handle: Option<String>,
    pub status: &'static str,
    pub source_arn: String,
    pub destination_arn: Option<String>,
    pub max_number_of_messages_per_second: Option<i64>,
    pub approximate_number_of_messages_moved: u64,
    pub approximate_number_of_messages_to_move: u64,
    pub failure_reason: Option<String>,
    pub started_timestamp: u64,
}

/// AddPermission's request (the queue URL apart): the statement to add.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddPermission {
    /// The statement's `Sid`, by which RemovePermission finds it.
    pub label: String,
    /// The accounts allowed (12-digit ids), each becoming `arn:aws:iam::<id>:root`.
    pub account_ids: Vec<String>,
    /// Action names without the `SQS:` prefix (`SendMessage`, `*`, …).
    pub actions: Vec<String>,
}

/// A ChangeMessageVisibilityBatch entry: the receipt handle, and the new
/// timeout in seconds (absent: 0, the engine's default for an entry).
pub type VisibilityEntry = (String, Option<i64>);

/// One call to the engine, as [`crate::Engine::call`] takes it: an
/// [`Action`](crate::Action) and its arguments, borrowed from the caller
/// (a codec's decoded members, or a typed caller's own values).
#[derive(Clone, Copy, Debug)]
pub enum Request<'a> {
    CreateQueue {
        name: &'a str,
        attributes: &'a [QueueAttribute],
        tags: &'a Tags,
    },
    GetQueueUrl {
        name: &'a str,
        owner: Option<&'a str>,
    },
    ListQueues {
        prefix: Option<&'a str>,
        max_results: Option<i64>,
        next_token: Option<&'a str>,
    },
    ListDeadLetterSourceQueues {
        queue_url: &'a str,
        max_results: Option<i64>,
        next_token: Option<&'a str>,
    },
    DeleteQueue {
        queue_url: &'a str,
    },
    GetQueueAttributes {
        queue_url: &'a str,
        selection: &'a AttributeSelection,
    },
    SetQueueAttributes {
        queue_url: &'a str,
        attributes: &'a [QueueAttribute],
    },
    PurgeQueue {
        queue_url: &'a str,
    },
    TagQueue {
        queue_url: &'a str,
        tags: &'a Tags,
    },
    UntagQueue {
        queue_url: &'a str,
        keys: &'a [String],
    },
    ListQueueTags {
        queue_url: &'a str,
    },
    AddPermission {
        queue_url: &'a str,
        request: &'a AddPermission,
    },
    RemovePermission {
        queue_url: &'a str,
        label: &'a str,
    },
    SendMessage(&'a SendMessage),
    SendMessageBatch {
        queue_url: &'a str,
        entries: &'a [(String, NewMessage)],
    },
    ReceiveMessage(&'a ReceiveMessage),
    DeleteMessage {
        queue_url: &'a str,
        receipt_handle: &'a str,
    },
    DeleteMessageBatch {
        queue_url: &'a str,
        entries: &'a [(String, String)],
    },
    ChangeMessageVisibility {
        queue_url: &'a str,
        receipt_handle: &'a str,
        visibility_timeout: i64,
    },
    ChangeMessageVisibilityBatch {
        queue_url: &'a str,
        entries: &'a [(String, VisibilityEntry)],
    },
    StartMessageMoveTask {
        source_arn: &'a str,
        destination_arn: Option<&'a str>,
        max_number_of_messages_per_second: Option<i64>,
    },
    CancelMessageMoveTask {
        task_handle: &'a str,
    },
    ListMessageMoveTasks {
        source_arn: &'a str,
        max_results: Option<i64>,
    },
}

/// What a call answered: one variant per [`Action`](crate::Action), holding
/// the operation's typed result (nothing, for the calls SQS answers `{}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    CreateQueue(String),
    GetQueueUrl(String),
    ListQueues(ListQueuesResult),
    ListDeadLetterSourceQueues(ListQueuesResult),
    DeleteQueue,
    GetQueueAttributes(Vec<QueueAttribute>),
    SetQueueAttributes,
    PurgeQueue,
    TagQueue,
    UntagQueue,
    ListQueueTags(Tags),
    AddPermission,
    RemovePermission,
    SendMessage(SendResult),
    SendMessageBatch(BatchResult<SendResult>),
    ReceiveMessage(ReceiveOutcome),
    DeleteMessage,
    DeleteMessageBatch(BatchResult<()>),
    ChangeMessageVisibility,
    ChangeMessageVisibilityBatch(BatchResult<()>),
    /// The task handle.
    StartMessageMoveTask(String),
    /// Messages moved before the cancel.
    CancelMessageMoveTask(u64),
    ListMessageMoveTasks(Vec<MoveTaskInfo>),
}

impl Request<'_> {
    /// The action this request calls.
    pub fn action(&self) -> Action {
        match self {
            Request::CreateQueue { .. } => Action::CreateQueue,
            Request::GetQueueUrl { .. } => Action::GetQueueUrl,
            Request::ListQueues { .. } => Action::ListQueues,
            Request::ListDeadLetterSourceQueues { .. } => Action::ListDeadLetterSourceQueues,
            Request::DeleteQueue { .. } => Action::DeleteQueue,
            Request::GetQueueAttributes { .. } => Action::GetQueueAttributes,
            Request::SetQueueAttributes { .. } => Action::SetQueueAttributes,
            Request::PurgeQueue { .. } => Action::PurgeQueue,
            Request::TagQueue { .. } => Action::TagQueue,
            Request::UntagQueue { .. } => Action::UntagQueue,
            Request::ListQueueTags { .. } => Action::ListQueueTags,
            Request::AddPermission { .. } => Action::AddPermission,
            Request::RemovePermission { .. } => Action::RemovePermission,
            Request::SendMessage(_) => Action::SendMessage,
            Request::SendMessageBatch { .. } => Action::SendMessageBatch,
            Request::ReceiveMessage(_) => Action::ReceiveMessage,
            Request::DeleteMessage { .. } => Action::DeleteMessage,
            Request::DeleteMessageBatch { .. } => Action::DeleteMessageBatch,
            Request::ChangeMessageVisibility { .. } => Action::ChangeMessageVisibility,
            Request::ChangeMessageVisibilityBatch { .. } => Action::ChangeMessageVisibilityBatch,
            Request::StartMessageMoveTask { .. } => Action::StartMessageMoveTask,
            Request::CancelMessageMoveTask { .. } => Action::CancelMessageMoveTask,
            Request::ListMessageMoveTasks { .. } => Action::ListMessageMoveTasks,
        }
    }

    /// The queue URL the request names, if it names one.
    pub fn queue_url(&self) -> Option<&str> {
        match self {
            Request::SendMessage(r) => Some(&r.queue_url),
            Request::ReceiveMessage(r) => Some(&r.queue_url),
            Request::ListDeadLetterSourceQueues { queue_url, .. }
            | Request::DeleteQueue { queue_url }
            | Request::GetQueueAttributes { queue_url, .. }
            | Request::SetQueueAttributes { queue_url, .. }
            | Request::PurgeQueue { queue_url }
            | Request::TagQueue { queue_url, .. }
            | Request::UntagQueue { queue_url, .. }
            | Request::ListQueueTags { queue_url }
            | Request::AddPermission { queue_url, .. }
            | Request::RemovePermission { queue_url, .. }
            | Request::SendMessageBatch { queue_url, .. }
            | Request::DeleteMessage { queue_url, .. }
            | Request::DeleteMessageBatch { queue_url, .. }
            | Request::ChangeMessageVisibility { queue_url, .. }
            | Request::ChangeMessageVisibilityBatch { queue_url, .. } => Some(queue_url),
            Request::CreateQueue { .. }
            | Request::GetQueueUrl { .. }
            | Request::ListQueues { .. }
            | Request::StartMessageMoveTask { .. }
            | Request::CancelMessageMoveTask { .. }
            | Request::ListMessageMoveTasks { .. } => None,
        }
    }
}

impl AttributeSelection {
    /// GetQueueAttributes' `AttributeNames`: `All` anywhere in the list
    /// selects every attribute; otherwise each name must be an attribute's
    /// (`InvalidAttributeName` names the first that is not).
    pub fn from_names(names: &[String]) -> crate::SqsResult<Self> {
        if names.iter().any(|n| n == "All") {
            return Ok(AttributeSelection::All);
        }
        let names = names.iter().map(|n| n.parse::<AttributeName>());
        Ok(AttributeSelection::Names(
            names.collect::<crate::SqsResult<_>>()?,
        ))
    }
}
