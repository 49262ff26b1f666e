//! DeleteMessage and ChangeMessageVisibility (and their batches): what a
//! receipt handle still allows, which differs between standard and FIFO.

use crate::error::{ErrorCode, SqsError, SqsResult};
use crate::events::EventKind;
use crate::ids::Receipt;
use crate::message::State;
use crate::settings::MAX_VISIBILITY_TIMEOUT;
use crate::{BatchResult, Engine, Principal, VisibilityEntry};

/// Where a handle points: its queue's id and the decoded receipt.
fn decode(engine: &Engine, id: u32, handle: &str) -> SqsResult<Receipt> {
    Receipt::decode(handle, engine.secret)
        .filter(|r| r.queue == id)
        .ok_or_else(|| {
            SqsError::new(
                ErrorCode::ReceiptHandleIsInvalid,
                format!("The input receipt handle \"{handle}\" is not a valid receipt handle."),
            )
        })
}

fn expired(handle: &str) -> SqsError {
    SqsError::invalid_value("ReceiptHandle", handle, "The receipt handle has expired.")
}

impl Engine {
    /// DeleteMessageBatch on the queue `id` (the gate resolved and billed it).
    pub(crate) fn delete_message_batch_in(
        &mut self,
        id: u32,
        entries: &[(String, String)],
        by: &Principal,
    ) -> SqsResult<BatchResult<()>> {
        self.run_batch(
            id,
            "DeleteMessageBatchRequestEntry",
            entries,
            |engine, id, handle| engine.delete_in(id, handle, by),
        )
    }

    /// DeleteMessage on the queue `id` (the gate resolved and billed it).
    pub(crate) fn delete_in(&mut self, id: u32, handle: &str, by: &Principal) -> SqsResult<()> {
        let receipt = decode(self, id, handle)?;
        let now = self.now;
        let by = by.by();
        let p_missed = self.config.realism.duplicate_delivery_probability;
        let mut queue = self.queues.get_mut(&id).ok_or_else(SqsError::no_queue)?;
        // Deleting a message that is already gone answers 200.
        let Some(message) = queue.get(receipt.message) else {
            return Ok(());
        };
        let current = message.receipt_serial == receipt.serial
            && matches!(message.state, State::InFlight { .. });
        if queue.fifo && !current {
            return Err(expired(handle));
        }
        // Standard queues accept stale handles: any receipt of the message deletes it.
        let message_id = message.id;
        let name = queue.name.clone();
        if !queue.fifo && self.rng.chance(p_missed) {
            let event = EventKind::DeleteMissedCopy {
                queue: name,
                message_id,
                by,
            };
            self.log.push(now, event);
            return Ok(());
        }
        if let Some((_, lock)) = queue.remove(receipt.message) {
            let event = EventKind::Deleted {
                queue: name,
                message_id,
                by,
            };
            lock.log_after(event, &mut self.log, now);
        }
        drop(queue);
        // Deleting a FIFO head unlocks its group (and a delete can bring the
        // queue back under the in-flight limit): waiting polls may now be served.
        self.serve_waiters(id);
        Ok(())
    }

    /// ChangeMessageVisibilityBatch: an entry without a timeout sets 0.
    pub(crate) fn change_message_visibility_batch_in(
        &mut self,
        id: u32,
        entries: &[(String, VisibilityEntry)],
        by: &Principal,
    ) -> SqsResult<BatchResult<()>> {
        self.run_batch(
            id,
            "ChangeMessageVisibilityBatchRequestEntry",
            entries,
            |engine, id, (handle, timeout)| {
                engine.change_visibility_in(id, handle, timeout.unwrap_or(0), by)
            },
        )
    }

    /// ChangeMessageVisibility on the queue `id` (the gate resolved and billed it).
    pub(crate) fn change_visibility_in(
        &mut self,
        id: u32,
        handle: &str,
        timeout: i64,
        by: &Principal,
    ) -> SqsResult<()> {
        let receipt = decode(self, id, handle)?;
        if !(0..=MAX_VISIBILITY_TIMEOUT).contains(&timeout) {
            return Err(SqsError::invalid_value(
                "VisibilityTimeout",
                timeout,
                "Must be >= 0 and <= 43200.",
            ));
        }
        let now = self.now;
        let mut queue = self.queues.get_mut(&id).ok_or_else(SqsError::no_queue)?;
        let Some(message) = queue.get(receipt.message) else {
            return Err(SqsError::invalid_value(
                "ReceiptHandle",
                handle,
                "Message does not exist or is not available for visibility timeout change.",
            ));
        };
        let in_flight = matches!(message.state, State::InFlight { .. });
        if queue.fifo && !(in_flight && message.receipt_serial == receipt.serial) {
            return Err(expired(handle));
        }
        // Recorded against AWS: on a standard queue an expired or older
        // handle still works, and hides a visible message again.
        let deadline = crate::time::later(now, timeout as u64 * 1000);
        if deadline - message.received_at > MAX_VISIBILITY_TIMEOUT as u64 * 1000 {
            return Err(SqsError::invalid_value(
                "VisibilityTimeout",
                timeout,
                "Total VisibilityTimeout for the message is beyond the limit [43200 seconds]",
            ));
        }
        let state = if timeout == 0 {
            State::Visible
        } else {
            State::InFlight { deadline }
        };
        let event = EventKind::VisibilityChanged {
            queue: queue.name.clone(),
            message_id: message.id,
            by: by.by(),
            visible_at: deadline,
        };
        if let Some(message) = queue.message_mut(receipt.message) {
            message.extras_mut().in_flight_since = now;
        }
        let lock = queue.set_state(receipt.message, state);
        lock.log_after(event, &mut self.log, now);
        drop(queue);
        if timeout == 0 {
            self.serve_waiters(id);
        }
        Ok(())
    }
}
