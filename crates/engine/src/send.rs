//! SendMessage and SendMessageBatch: validation, FIFO deduplication, delays.

use crate::batch;
use crate::dedup::Dedup;
use crate::digest::{hex, md5, md5_of_attributes, sha256_hex};
use crate::error::{SqsError, SqsResult};
use crate::events::EventKind;
use crate::ids::{sequence_number, MessageId};
use crate::kms::DataKey;
use crate::message::{Extras, Message, MessageAttribute, State};
use crate::queue::Queue;
use crate::{validate, BatchResult, Engine, NewMessage, Principal, SendResult};

pub(crate) const MAX_BATCH_BYTES: usize = 1_048_576;

/// Bytes a message counts against size limits: body plus attributes.
pub(crate) fn message_size(message: &NewMessage) -> usize {
    message.body.len()
        + message
            .attributes
            .iter()
            .map(MessageAttribute::size)
            .sum::<usize>()
}

/// Bytes a message counts against the storage budget once stored
/// (`Message::size`): system attributes are stored too, though SQS does
/// not count them against `MaximumMessageSize`.
fn stored_size(message: &NewMessage) -> u64 {
    let system: usize = message
        .system_attributes
        .iter()
        .map(MessageAttribute::size)
        .sum();
    (message_size(message) + system) as u64
}

/// A send that passed validation.
struct Checked {
    delay_ms: u64,
    group: Option<String>,
    /// FIFO deduplication id (explicit or content-based).
    dedup_id: Option<String>,
}

impl Engine {
    /// SendMessage to the queue `id` (the gate resolved and billed it).
    pub(crate) fn send_message_in(
        &mut self,
        id: u32,
        message: &NewMessage,
        by: &Principal,
    ) -> SqsResult<SendResult> {
        let checked = check(self.queue(id), message, false)?;
        self.check_storage(stored_size(message))?;
        let data_key = self.data_key_for_send(id, by)?;
        Ok(self.enqueue(id, message, checked, by, data_key))
    }

    /// SendMessageBatch to the queue `id` (the gate resolved and billed it).
    pub(crate) fn send_message_batch_in(
        &mut self,
        id: u32,
        entries: &[(String, NewMessage)],
        by: &Principal,
    ) -> SqsResult<BatchResult<SendResult>> {
        batch::check_entries(
            "SendMessageBatchRequestEntry",
            entries.iter().map(|(id, _)| id.as_str()),
        )?;
        let total: usize = entries.iter().map(|(_, m)| message_size(m)).sum();
        if total > MAX_BATCH_BYTES {
            return Err(SqsError::new(
                crate::ErrorCode::BatchRequestTooLong,
                format!("Batch requests cannot be longer than {MAX_BATCH_BYTES} bytes. You have sent {total} bytes."),
            ));
        }
        let queue = self.queue(id);
        if queue.fifo {
            // On FIFO queues these fail the whole batch, not the entry.
            for (_, message) in entries {
                if message.group_id.is_none() {
                    return Err(SqsError::invalid_parameter(
                        "The request must contain the parameter MessageGroupId.",
                    ));
                }
                if message.dedup_id.is_none() && !queue.settings.content_based_deduplication {
                    return Err(no_dedup_id());
                }
            }
        }
        // One data key for the whole call: a key SQS cannot use fails the
        // batch, not each entry (docs/fidelity.md).
        let data_key = self.data_key_for_send(id, by)?;
        Ok(batch::each(entries, |message| {
            let checked = check(self.queue(id), message, true)?;
            self.check_storage(stored_size(message))?;
            Ok(self.enqueue(id, message, checked, by, data_key.clone()))
        }))
    }

    /// Adds a checked message, or answers with the original for a FIFO duplicate.
    fn enqueue(
        &mut self,
        id: u32,
        new: &NewMessage,
        checked: Checked,
        by: &Principal,
        data_key: Option<std::sync::Arc<DataKey>>,
    ) -> SendResult {
        let now = self.now;
        let by = by.by();
        let md5_of_body = md5(new.body.as_bytes());
        let md5_attrs = (!new.attributes.is_empty()).then(|| md5_of_attributes(&new.attributes));
        let md5_system =
            (!new.system_attributes.is_empty()).then(|| md5_of_attributes(&new.system_attributes));
        let result = |message_id: MessageId, sequence: Option<u64>| SendResult {
            message_id: message_id.to_string(),
            md5_of_body: hex(&md5_of_body),
            md5_of_attributes: md5_attrs.map(|d| hex(&d)),
            md5_of_system_attributes: md5_system.map(|d| hex(&d)),
            sequence_number: sequence.map(sequence_number),
        };

        let mut queue = self.queues.get_mut(&id).expect("resolved");
        let dedup_key = checked.dedup_id.as_deref().map(|dedup_id| {
            let scoped =
                queue.settings.deduplication_scope == crate::settings::DedupScope::MessageGroup;
            Dedup::key(dedup_id, checked.group.as_deref().filter(|_| scoped))
        });
        if let Some(key) = &dedup_key {
            if let Some(original) = queue.dedup.lookup(key, now) {
                let event = EventKind::DuplicateDropped {
                    queue: queue.name.clone(),
                    message_id: original.message_id,
                    dedup_id: checked.dedup_id.clone().unwrap_or_default(),
                    by,
                };
                self.log.push(now, event);
                return result(original.message_id, Some(original.sequence));
            }
        }

        let message_id = MessageId::from_random(self.rng.bytes16());
        let sequence = if queue.fifo {
            queue.next_sequence(&mut self.rng)
        } else {
            0
        };
        if let Some(key) = dedup_key {
            queue.dedup.record(key, message_id, sequence, now);
        }
        let state = if checked.delay_ms > 0 {
            State::Delayed {
                until: crate::time::later(now, checked.delay_ms),
            }
        } else {
            State::Visible
        };
        let extras = (!new.attributes.is_empty()
            || !new.system_attributes.is_empty()
            || checked.dedup_id.is_some())
        .then(|| {
            Box::new(Extras {
                attributes: new.attributes.clone(),
                system_attributes: new.system_attributes.clone(),
                dedup_id: checked.dedup_id.map(Into::into),
                ..Extras::default()
            })
        });
        let group: Option<std::sync::Arc<str>> = checked.group.map(Into::into);
        let mut message = Message::new(
            message_id,
            new.body.as_str().into(),
            md5_of_body,
            group.clone(),
            sequence,
            state,
            extras,
            now,
        );
        message.data_key = data_key;
        let size = message.size();
        let lock = queue.insert(message);
        let event = EventKind::Sent {
            queue: queue.name.clone(),
            message_id,
            label: new.body.chars().take(80).collect(),
            group,
            delayed_until: match state {
                State::Delayed { until } => Some(until),
                _ => None,
            },
            size,
            by,
        };
        let fifo = queue.fifo;
        lock.log_after(event, &mut self.log, now);
        drop(queue);
        self.serve_waiters(id);
        result(message_id, fifo.then_some(sequence))
    }
}

fn no_dedup_id() -> SqsError {
    SqsError::invalid_parameter(
        "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId \
         provided explicitly",
    )
}

/// Every rule a single message must pass, in the order SQS checks them.
fn check(queue: &Queue, message: &NewMessage, in_batch: bool) -> SqsResult<Checked> {
    validate::body(&message.body)?;
    validate::message_attributes(&message.attributes)?;
    for attribute in &message.system_attributes {
        if attribute.name != "AWSTraceHeader" || attribute.data_type != "String" {
            return Err(SqsError::invalid_parameter(format!(
                "Message system attribute name '{}' is invalid. The only supported message system \
                 attribute is AWSTraceHeader, of type String.",
                attribute.name
            )));
        }
    }
    let max = queue.settings.maximum_message_size as usize;
    if message_size(message) > max {
        let lead = if in_batch {
            "One or more parameters cannot be validated."
        } else {
            "One or more parameters are invalid."
        };
        return Err(SqsError::invalid_parameter(format!(
            "{lead} Reason: Message must be shorter than {max} bytes."
        )));
    }
    let delay_ms = match message.delay_seconds {
        Some(d) if !(0..=900).contains(&d) => {
            return Err(SqsError::invalid_value(
                "DelaySeconds",
                d,
                "DelaySeconds must be >= 0 and <= 900.",
            ))
        }
        Some(d) if d > 0 && queue.fifo => {
            return Err(SqsError::invalid_value(
                "DelaySeconds",
                d,
                "The request include parameter that is not valid for this queue type.",
            ))
        }
        // An explicit delay overrides the queue's, except that FIFO queues
        // accept only 0 and then still apply the queue's delay.
        Some(d) if d > 0 => d as u64 * 1000,
        Some(_) if !queue.fifo => 0,
        _ => u64::from(queue.settings.delay_seconds) * 1000,
    };
    if let Some(group) = &message.group_id {
        validate::fifo_token("MessageGroupId", group)?;
    }
    if let Some(dedup) = &message.dedup_id {
        if !queue.fifo {
            return Err(SqsError::invalid_value(
                "MessageDeduplicationId",
                dedup,
                // AWS's wording, recorded for this very case.
                "The request include parameter that is not valid for this queue type.",
            ));
        }
        validate::fifo_token("MessageDeduplicationId", dedup)?;
    }
    let dedup_id = if queue.fifo {
        if message.group_id.is_none() {
            return Err(SqsError::missing("MessageGroupId"));
        }
        match &message.dedup_id {
            Some(id) => Some(id.clone()),
            None if queue.settings.content_based_deduplication => {
                Some(sha256_hex(message.body.as_bytes()))
            }
            None => return Err(no_dedup_id()),
        }
    } else {
        None
    };
    Ok(Checked {
        delay_ms,
        group: message.group_id.clone(),
        dedup_id,
    })
}
