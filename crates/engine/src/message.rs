//! One stored message and its place in the visibility state machine.

use std::sync::Arc;

use crate::ids::MessageId;
use crate::Millis;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttributeValue {
    /// `String` and `Number` types (and their `.custom` variants).
    String(String),
    Binary(Vec<u8>),
}

/// A user (or system) message attribute as SQS stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageAttribute {
    pub name: String,
    pub data_type: String,
    pub value: AttributeValue,
}

impl MessageAttribute {
    /// Bytes counted against `MaximumMessageSize`: name, type and value.
    pub fn size(&self) -> usize {
        let value = match &self.value {
            AttributeValue::String(s) => s.len(),
            AttributeValue::Binary(b) => b.len(),
        };
        self.name.len() + self.data_type.len() + value
    }
}

/// Where a message is. Deleted, expired, purged and moved messages are not
/// stored at all: the event log records how they left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    Delayed { until: Millis },
    Visible,
    InFlight { deadline: Millis },
}

/// Rarely present parts, boxed so a plain message stays small.
#[derive(Clone, Debug, Default)]
pub(crate) struct Extras {
    pub attributes: Vec<MessageAttribute>,
    pub system_attributes: Vec<MessageAttribute>,
    pub dedup_id: Option<Box<str>>,
    /// ARN of the queue this message was moved from, for DLQ reads.
    pub dead_letter_source: Option<Arc<str>>,
    /// Who holds it now (the consumer named on the receive).
    pub holder: Option<Arc<str>>,
    /// Every consumer that received it in this queue, the current holder
    /// last: a receipt outlives its visibility window, so an earlier
    /// receiver may still be working on it while another holds it.
    pub holders: Vec<Arc<str>>,
    /// When its current visibility window began: the latest receive or
    /// ChangeMessageVisibility.
    pub in_flight_since: Millis,
    /// `receipt_serial` when the message arrived in this queue by a
    /// dead-letter move: receipts up to it were issued by the source queue.
    pub serial_at_arrival: u32,
    /// When it arrived in this queue by a dead-letter move: a dead-letter
    /// queue's ApproximateAgeOfOldestMessage counts from it.
    pub arrived_at: Millis,
}

#[derive(Clone, Debug)]
pub(crate) struct Message {
    pub id: MessageId,
    pub body: Box<str>,
    pub md5_of_body: [u8; 16],
    /// Virtual time of the original send (kept across DLQ moves).
    pub sent_at: Millis,
    /// Virtual time retention counts from.
    pub enqueued_at: Millis,
    pub first_received_at: Option<Millis>,
    /// Virtual time of the latest receive (the 12-hour visibility ceiling counts from it).
    pub received_at: Millis,
    pub receive_count: u32,
    /// Number of receipts issued by this queue; the current handle's serial.
    pub receipt_serial: u32,
    pub state: State,
    pub group: Option<Arc<str>>,
    /// FIFO sequence counter; see [`crate::ids::sequence_number`].
    pub sequence: u64,
    /// When the message last became available in its queue, by arriving or
    /// by coming back from in flight (a queue-wide counter, so that events
    /// of one virtual millisecond keep their order): FIFO groups are served
    /// in the order their heads became available.
    pub available_since: u64,
    pub extras: Option<Box<Extras>>,
    /// SSE-KMS: the data key it was encrypted with (kms.rs).
    pub data_key: Option<Arc<crate::kms::DataKey>>,
}

impl Message {
    /// A message entering a queue now, never received.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        id: MessageId,
        body: Box<str>,
        md5_of_body: [u8; 16],
        group: Option<Arc<str>>,
        sequence: u64,
        state: State,
        extras: Option<Box<Extras>>,
        now: Millis,
    ) -> Self {
        Message {
            id,
            body,
            md5_of_body,
            sent_at: now,
            enqueued_at: now,
            first_received_at: None,
            received_at: 0,
            receive_count: 0,
            receipt_serial: 0,
            state,
            group,
            sequence,
            available_since: 0,
            extras,
            data_key: None,
        }
    }

    /// Bytes counted against the storage budget: the body and attributes,
    /// as SQS counts a message's size.
    pub(crate) fn size(&self) -> u64 {
        let attributes = self.extras().map_or(0, |e| {
            e.attributes
                .iter()
                .chain(&e.system_attributes)
                .map(MessageAttribute::size)
                .sum()
        });
        (self.body.len() + attributes) as u64
    }

    pub(crate) fn extras(&self) -> Option<&Extras> {
        self.extras.as_deref()
    }

    /// The moment CloudWatch's ApproximateAgeOfOldestMessage counts its age
    /// from: its send, or its arrival in a dead-letter queue.
    pub(crate) fn age_from(&self) -> Millis {
        match self.extras() {
            Some(e) if e.dead_letter_source.is_some() => e.arrived_at,
            _ => self.sent_at,
        }
    }

    /// Whether ApproximateAgeOfOldestMessage counts it: in a standard
    /// queue, a message received three times or more here without a
    /// delete is moved to the back and left out (sqs-facts; a dead-letter
    /// move starts the count again, since the DLQ counts from the move).
    pub(crate) fn counts_for_age(&self, fifo: bool) -> bool {
        let serial_at_arrival = self.extras().map_or(0, |e| e.serial_at_arrival);
        fifo || self.receipt_serial.saturating_sub(serial_at_arrival) < 3
    }

    pub(crate) fn extras_mut(&mut self) -> &mut Extras {
        self.extras.get_or_insert_with(Default::default)
    }

    pub(crate) fn holder(&self) -> Option<&Arc<str>> {
        self.extras().and_then(|e| e.holder.as_ref())
    }

    /// Serials of the receipts this queue issued for the message.
    pub(crate) fn receipts_here(&self) -> std::ops::RangeInclusive<u32> {
        let first = self.extras().map_or(0, |e| e.serial_at_arrival) + 1;
        first..=self.receipt_serial
    }

    pub(crate) fn is_visible(&self) -> bool {
        self.state == State::Visible
    }
}
