//! The event log: every state change of every queue and message, in order.
//!
//! This is what the page animates and what tests assert on: replaying the
//! log alone rebuilds the snapshot (`tests/invariants.rs`). Events carry a
//! sequence number and the virtual time; the log keeps the most recent
//! `capacity` events (`Config::event_capacity`, the `eventCapacity`
//! budget) and drops the oldest, still counting, so a long run does not
//! grow without bound.

use std::collections::VecDeque;
use std::sync::Arc;

use serde::Serialize;

use crate::decision::AccessReason;
use crate::ids::MessageId;
use crate::Millis;

/// One entry of the log: what changed (its `EventKind`), its place in the
/// log (`seq`, counting from 1 and never reused) and the virtual moment.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(rename = "SqsEvent"))]
pub struct Event {
    pub seq: u64,
    #[serde(rename = "timeMs")]
    pub time_ms: Millis,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// Why a FIFO group unlocked: how its head message left flight. A group
/// unlocked by a visibility timeout (or a release) still has that message
/// as its head, so the same message is delivered next; one unlocked by a
/// delete (or a move, expiry or purge) delivers its next message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum UnlockCause {
    /// A consumer deleted it.
    Deleted,
    /// Its visibility timeout ended: it is visible again, still the head.
    VisibilityTimeout,
    /// ChangeMessageVisibility with 0 made it visible again, still the head.
    Released,
    /// A receive moved it to its dead-letter queue.
    MovedToDeadLetterQueue,
    /// A message move task moved it out (redrive).
    Redriven,
    /// Its retention period ended.
    Expired,
    /// PurgeQueue removed it.
    Purged,
}

impl UnlockCause {
    /// The cause of an unlock that followed `event` (the change to the
    /// head message that the engine logs just before it). None for an
    /// event that never unlocks a group (a send, a receive).
    pub(crate) fn after(event: &EventKind) -> Option<UnlockCause> {
        Some(match event {
            EventKind::Deleted { .. } => UnlockCause::Deleted,
            EventKind::VisibilityExpired { .. } => UnlockCause::VisibilityTimeout,
            EventKind::VisibilityChanged { .. } => UnlockCause::Released,
            EventKind::MovedToDeadLetterQueue { .. } => UnlockCause::MovedToDeadLetterQueue,
            EventKind::Redriven { .. } => UnlockCause::Redriven,
            EventKind::Expired { .. } => UnlockCause::Expired,
            EventKind::Purged { .. } => UnlockCause::Purged,
            _ => return None,
        })
    }
}

/// What changed: one variant per kind of state change of a queue, a message,
/// a FIFO group, a move task or a queue's policy, tagged by `type`
/// (camelCase). `by`, where a kind has it, names the caller who acted
/// (none for a call with no caller's name). A stored message leaves its
/// queue by one of `deleted`, `expired`, `purged`,
/// `movedToDeadLetterQueue` or `redriven` (as a new message with a new
/// id), or with its whole queue (`queueDeleted`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum EventKind {
    QueueCreated {
        queue: Arc<str>,
        fifo: bool,
    },
    QueueDeleted {
        queue: Arc<str>,
    },
    QueuePurged {
        queue: Arc<str>,
        count: u64,
    },
    /// A new message entered the queue (`delayedUntil` set when it starts delayed).
    Sent {
        queue: Arc<str>,
        message_id: MessageId,
        /// The first 80 characters of the body, to name the message by.
        label: String,
        group: Option<Arc<str>>,
        delayed_until: Option<Millis>,
        /// Its size as SQS counts it, body and attributes, in bytes
        /// (CloudWatch's SentMessageSize).
        size: u64,
        by: Option<Arc<str>>,
    },
    /// A FIFO send whose deduplication id was seen in the last 5 minutes.
    DuplicateDropped {
        queue: Arc<str>,
        message_id: MessageId,
        dedup_id: String,
        by: Option<Arc<str>>,
    },
    /// Delayed -> visible.
    DelayEnded {
        queue: Arc<str>,
        message_id: MessageId,
    },
    /// Visible -> in flight, until `visibleAt`. `previousHolder` is the
    /// caller that received it before (none on its first receive, or after
    /// a dead-letter move or a redrive); whether that caller is still working on it is
    /// not the engine's to know, so a duplicate delivery is the reader's
    /// judgement, not a field.
    Received {
        queue: Arc<str>,
        message_id: MessageId,
        by: Option<Arc<str>>,
        receive_count: u32,
        visible_at: Millis,
        previous_holder: Option<Arc<str>>,
    },
    VisibilityChanged {
        queue: Arc<str>,
        message_id: MessageId,
        by: Option<Arc<str>>,
        visible_at: Millis,
    },
    /// In flight -> visible because its visibility timeout ran out.
    VisibilityExpired {
        queue: Arc<str>,
        message_id: MessageId,
        holder: Option<Arc<str>>,
    },
    Deleted {
        queue: Arc<str>,
        message_id: MessageId,
        by: Option<Arc<str>>,
    },
    /// Realism knob: the delete reached only some copies; the message will
    /// come back when its visibility timeout ends.
    DeleteMissedCopy {
        queue: Arc<str>,
        message_id: MessageId,
        by: Option<Arc<str>>,
    },
    MovedToDeadLetterQueue {
        queue: Arc<str>,
        dead_letter_queue: Arc<str>,
        message_id: MessageId,
        receive_count: u32,
    },
    /// Moved by a message move task (redrive): a new message with a new id.
    Redriven {
        queue: Arc<str>,
        destination: Arc<str>,
        message_id: MessageId,
        new_message_id: MessageId,
    },
    Expired {
        queue: Arc<str>,
        message_id: MessageId,
    },
    Purged {
        queue: Arc<str>,
        message_id: MessageId,
    },
    GroupLocked {
        queue: Arc<str>,
        group: Arc<str>,
    },
    /// The group's head left flight: `cause` says how.
    GroupUnlocked {
        queue: Arc<str>,
        group: Arc<str>,
        cause: UnlockCause,
    },
    /// A receive (short poll, or a long poll whose wait ended) returned nothing.
    EmptyReceive {
        queue: Arc<str>,
        by: Option<Arc<str>>,
    },
    MoveTaskStarted {
        source: Arc<str>,
        task: u64,
    },
    /// CancelMessageMoveTask was called: the task moves nothing more and
    /// reports CANCELLING until it stops (a `MoveTaskEnded` CANCELLED).
    MoveTaskCancelling {
        source: Arc<str>,
        task: u64,
        moved: u64,
    },
    MoveTaskEnded {
        source: Arc<str>,
        task: u64,
        status: &'static str,
        moved: u64,
    },
    /// AddPermission added a statement to the queue's `Policy`.
    PermissionAdded {
        queue: Arc<str>,
        label: String,
        accounts: Vec<String>,
        actions: Vec<String>,
        by: Option<Arc<str>>,
    },
    /// RemovePermission took the statement `label` out of the queue's `Policy`.
    PermissionRemoved {
        queue: Arc<str>,
        label: String,
        by: Option<Arc<str>>,
    },
    /// The gate decided whether `principal` may call `action` (the action
    /// a call is authorised as: SendMessage for SendMessageBatch) on
    /// `queue`, and why. Logged for every call by someone other than the
    /// queue's own account, and for every refusal; an owner's call that no
    /// statement denies logs nothing.
    AccessDecided {
        queue: Arc<str>,
        action: &'static str,
        by: Option<Arc<str>>,
        /// Who called: an account id, an IAM ARN, or a service's name.
        principal: String,
        allowed: bool,
        reason: AccessReason,
    },
    /// SSE-KMS: SQS called KMS (`api`) with the key `key` (its ARN) for a
    /// call by `by` on `queue`: a send after its data key's reuse period
    /// ended (`GenerateDataKey`, then `Decrypt`), or a receive of a message
    /// whose data key it had not decrypted within the period (`Decrypt`).
    KmsRequested {
        queue: Arc<str>,
        api: crate::kms_api::KmsApi,
        key: Arc<str>,
        by: Option<Arc<str>>,
    },
}

pub(crate) struct EventLog {
    events: VecDeque<Event>,
    next_seq: u64,
    capacity: usize,
}

impl EventLog {
    pub(crate) fn new(capacity: usize) -> Self {
        EventLog {
            events: VecDeque::new(),
            next_seq: 1,
            capacity,
        }
    }

    pub(crate) fn push(&mut self, time_ms: Millis, kind: EventKind) {
        if self.capacity == 0 {
            self.next_seq += 1;
            return;
        }
        if self.events.len() == self.capacity {
            self.events.pop_front();
        }
        self.events.push_back(Event {
            seq: self.next_seq,
            time_ms,
            kind,
        });
        self.next_seq += 1;
    }

    /// Events with a sequence number greater than `since`, oldest first.
    pub(crate) fn since(&self, since: u64) -> impl Iterator<Item = &Event> {
        let first = self.events.front().map_or(0, |e| e.seq);
        let skip = since.saturating_add(1).saturating_sub(first) as usize;
        self.events.iter().skip(skip)
    }

    /// The sequence number the next event will get.
    pub(crate) fn next_seq(&self) -> u64 {
        self.next_seq
    }
}
