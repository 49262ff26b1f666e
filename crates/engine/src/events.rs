//! The event log: every state change of every message, in order.
//!
//! This is what the page animates and what tests assert on. Events carry a
//! sequence number and the virtual time; the log keeps the most recent
//! `capacity` events so a long benchmark does not grow without bound.

use std::collections::VecDeque;
use std::sync::Arc;

use serde::Serialize;

use crate::ids::MessageId;
use crate::Millis;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(rename = "QueuelabEvent"))]
pub struct Event {
    pub seq: u64,
    #[serde(rename = "timeMs")]
    pub time_ms: Millis,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// Why a message left the in-flight state or a receive returned nothing.
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
    /// Visible -> in flight. `duplicate` marks a delivery while another
    /// consumer still holds an earlier receipt of the same message.
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
    GroupUnlocked {
        queue: Arc<str>,
        group: Arc<str>,
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
    MoveTaskEnded {
        source: Arc<str>,
        task: u64,
        status: &'static str,
        moved: u64,
    },
    // What a scenario's simulated workers and producers do (see `simulation`).
    /// A scenario's narration line for this moment.
    Narration {
        text: String,
    },
    /// A simulated worker began handling a message; it will be done `until`.
    ProcessingStarted {
        consumer: Arc<str>,
        queue: Arc<str>,
        message_id: String,
        receive_count: u32,
        until: Millis,
    },
    /// A worker received a message another worker is still processing.
    DuplicateDelivery {
        consumer: Arc<str>,
        queue: Arc<str>,
        message_id: String,
        receive_count: u32,
        also_held_by: Arc<str>,
    },
    /// The handler's side effect happened; `count` is how often, in total, for this message.
    SideEffectPerformed {
        consumer: Arc<str>,
        message_id: String,
        effect: String,
        count: u64,
    },
    /// An idempotent handler found the message already processed.
    SkippedAlreadyProcessed {
        consumer: Arc<str>,
        message_id: String,
    },
    /// The handler failed; the message is not deleted and comes back.
    ProcessingFailed {
        consumer: Arc<str>,
        message_id: String,
        receive_count: u32,
    },
    WorkerCrashed {
        consumer: Arc<str>,
        message_id: String,
        before_side_effect: bool,
    },
    WorkerRestarted {
        consumer: Arc<str>,
    },
    /// Deleted before processing, then the worker crashed or its handler
    /// failed: no copy is left to retry, so the work is gone.
    MessageLost {
        consumer: Arc<str>,
        message_id: String,
        handler_crashed: bool,
    },
    /// An SQS call of a simulated worker or producer failed.
    ActionFailed {
        actor: Arc<str>,
        action: &'static str,
        code: &'static str,
        error: String,
    },
    /// A depth alarm changed state.
    AlarmChanged {
        alarm: Arc<str>,
        queue: Arc<str>,
        in_alarm: bool,
        visible: u64,
    },
}

pub struct EventLog {
    events: VecDeque<Event>,
    next_seq: u64,
    capacity: usize,
}

impl EventLog {
    pub fn new(capacity: usize) -> Self {
        EventLog {
            events: VecDeque::new(),
            next_seq: 1,
            capacity,
        }
    }

    pub fn push(&mut self, time_ms: Millis, kind: EventKind) {
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
    pub fn since(&self, since: u64) -> impl Iterator<Item = &Event> {
        let first = self.events.front().map_or(0, |e| e.seq);
        let skip = since.saturating_add(1).saturating_sub(first) as usize;
        self.events.iter().skip(skip)
    }

    /// The sequence number the next event will get.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }
}
