//! Typed requests and results of the engine's operations. Numbers arrive as
//! `i64` exactly as the caller sent them: range checks are SQS semantics and
//! happen in the engine, not in the protocol layer.

use std::collections::BTreeMap;

use crate::message::MessageAttribute;
use crate::settings::AttributeName;

/// Who makes a call, as the event log should name them ("worker-1").
/// SQS itself has no such notion; it only labels events.
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
