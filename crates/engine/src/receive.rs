//! ReceiveMessage: picking messages (in group order on FIFO queues), the
//! lazy move to a dead-letter queue, attribute selection, receive-attempt
//! replay, and registering long polls that have to wait.

use std::sync::Arc;

use crate::digest::{hex, md5_of_attributes};
use crate::error::{ErrorCode, SqsError, SqsResult};
use crate::events::EventKind;
use crate::ids::{sequence_number, Receipt};
use crate::message::{Message, MessageAttribute, State};
use crate::queue::Queue;
use crate::settings::MAX_VISIBILITY_TIMEOUT;
use crate::{
    validate, Caller, Engine, Millis, ReceiveMessage, ReceiveOutcome, ReceivedMessage,
    IN_FLIGHT_LIMIT,
};

const ATTEMPT_WINDOW_MS: Millis = 5 * 60 * 1000;

/// A validated receive request; long polls keep it while they wait.
#[derive(Clone, Debug)]
pub struct ReceiveSpec {
    pub max: usize,
    /// `None`: the queue's VisibilityTimeout at the moment of delivery.
    pub visibility_ms: Option<Millis>,
    pub wait_ms: Millis,
    pub system_names: Vec<String>,
    pub message_attribute_names: Vec<String>,
    pub attempt_id: Option<String>,
    pub by: Option<Arc<str>>,
}

/// A FIFO receive remembered under its `ReceiveRequestAttemptId`.
#[derive(Clone, Debug)]
pub struct Attempt {
    at: Millis,
    receipts: Vec<(u64, u32)>,
    spec_visibility_ms: Option<Millis>,
    /// When the messages become visible again; a visibility change moves it.
    deadline: Millis,
}

fn check_range(
    parameter: &str,
    value: Option<i64>,
    lo: i64,
    hi: i64,
    reason: &str,
) -> SqsResult<()> {
    match value {
        Some(v) if !(lo..=hi).contains(&v) => Err(SqsError::invalid_value(parameter, v, reason)),
        _ => Ok(()),
    }
}

impl ReceiveSpec {
    fn check(request: &ReceiveMessage, queue: &Queue, by: Caller) -> SqsResult<Self> {
        check_range(
            "MaxNumberOfMessages",
            request.max_number_of_messages,
            1,
            10,
            "Must be between 1 and 10, if provided.",
        )?;
        check_range(
            "VisibilityTimeout",
            request.visibility_timeout,
            0,
            MAX_VISIBILITY_TIMEOUT,
            "Must be >= 0 and <= 43200, if provided.",
        )?;
        check_range(
            "WaitTimeSeconds",
            request.wait_time_seconds,
            0,
            20,
            "Must be >= 0 and <= 20, if provided.",
        )?;
        if let Some(id) = &request.receive_request_attempt_id {
            validate::fifo_token("ReceiveRequestAttemptId", id)?;
        }
        let wait = request
            .wait_time_seconds
            .unwrap_or(i64::from(queue.settings.receive_wait_seconds));
        Ok(ReceiveSpec {
            max: request.max_number_of_messages.unwrap_or(1) as usize,
            visibility_ms: request.visibility_timeout.map(|v| v as u64 * 1000),
            wait_ms: wait as u64 * 1000,
            system_names: request.system_attribute_names.clone(),
            message_attribute_names: request.message_attribute_names.clone(),
            attempt_id: request
                .receive_request_attempt_id
                .clone()
                .filter(|_| queue.fifo),
            by: by.map(Into::into),
        })
    }
}

impl Engine {
    pub fn receive_message(
        &mut self,
        request: &ReceiveMessage,
        by: Caller,
    ) -> SqsResult<ReceiveOutcome> {
        let id = self.resolve(&request.queue_url)?;
        let spec = ReceiveSpec::check(request, self.queue(id), by)?;
        if let Some(replayed) = self.replay_attempt(id, &spec) {
            return Ok(ReceiveOutcome::Done(replayed));
        }
        let messages = self.take_messages(id, &spec)?;
        if messages.is_empty() && spec.wait_ms > 0 {
            let poll = self.polls.wait(id, spec, self.now);
            return Ok(ReceiveOutcome::Waiting(poll));
        }
        if messages.is_empty() {
            let queue = self.queue(id).name.clone();
            self.emit(EventKind::EmptyReceive { queue, by: spec.by });
        }
        // A zero visibility timeout makes messages visible again at once.
        self.settle();
        Ok(ReceiveOutcome::Done(messages))
    }

    /// Delivers up to `spec.max` messages, moving exhausted ones to the DLQ.
    pub(crate) fn take_messages(
        &mut self,
        id: u32,
        spec: &ReceiveSpec,
    ) -> SqsResult<Vec<ReceivedMessage>> {
        let queue = self.queue(id);
        let short_poll = spec.wait_ms == 0;
        if queue.count_in_flight() >= IN_FLIGHT_LIMIT {
            if short_poll && !queue.fifo {
                return Err(SqsError::new(
                    ErrorCode::OverLimit,
                    format!(
                        "Too many messages in flight for queue {}: the limit is {IN_FLIGHT_LIMIT}.",
                        queue.name
                    ),
                ));
            }
            return Ok(Vec::new());
        }
        let realism = &self.config.realism;
        let sample_rate = realism.short_poll_sample_rate;
        let fewer = realism.fewer_messages_probability;
        let mut want = spec.max.min(IN_FLIGHT_LIMIT - queue.count_in_flight());
        let (fifo, owes_full_read, end) =
            (queue.fifo, queue.sampling_owes_full_read, queue.next_key());
        if self.rng.chance(fewer) {
            want = self.rng.one_to(want);
        }
        let mut out = Vec::new();
        if fifo {
            self.take_fifo(id, spec, want, end, &mut out);
        } else {
            let sampling = short_poll && sample_rate > 0.0 && !owes_full_read;
            let mut cursor = 0;
            let mut skipped = false;
            // Sampling looks at a bounded number of candidates, as a poll
            // of a few servers would.
            let mut budget = want * 8;
            while out.len() < want && budget > 0 {
                let Some(key) = self.queue(id).visible_after(cursor).filter(|k| *k < end) else {
                    break;
                };
                cursor = key;
                if sampling {
                    budget -= 1;
                    if !self.rng.chance(sample_rate) {
                        skipped = true;
                        continue;
                    }
                }
                if !self.move_if_exhausted(id, key) {
                    out.push(self.deliver(id, key, spec));
                }
            }
            if sampling {
                let queue = self.queues.get_mut(&id).expect("resolved");
                // With fewer than 1,000 messages the next request sees them all.
                queue.sampling_owes_full_read =
                    skipped && out.len() < want && queue.count_visible() < 1000;
            }
        }
        // Here, not in `receive_message`: a long poll answered later counts too.
        self.record_attempt(id, spec, &out);
        Ok(out)
    }

    /// FIFO: as many messages as possible from one group, in order, before
    /// the next group; a group whose head is in flight is skipped.
    fn take_fifo(
        &mut self,
        id: u32,
        spec: &ReceiveSpec,
        want: usize,
        end: u64,
        out: &mut Vec<ReceivedMessage>,
    ) {
        while out.len() < want {
            let Some((head, group)) = self
                .queue(id)
                .first_available_group()
                .filter(|(head, _)| *head < end)
            else {
                return;
            };
            let mut next = Some(head);
            let mut progressed = false;
            while let Some(key) = next.filter(|_| out.len() < want) {
                let queue = self.queue(id);
                if !queue.get(key).is_some_and(Message::is_visible) {
                    break;
                }
                progressed = true;
                let after = queue
                    .group(&group)
                    .and_then(|g| g.keys.range(key + 1..).next().copied());
                if !self.move_if_exhausted(id, key) {
                    out.push(self.deliver(id, key, spec));
                }
                next = after;
            }
            // The index promises a visible head; never spin if it did not.
            if !progressed {
                return;
            }
        }
    }

    fn deliver(&mut self, id: u32, key: u64, spec: &ReceiveSpec) -> ReceivedMessage {
        let now = self.now;
        let secret = self.secret;
        let epoch = self.config.start_epoch_ms;
        let sender = self.config.account_id.clone();
        let queue = self.queues.get_mut(&id).expect("resolved");
        let visibility = spec
            .visibility_ms
            .unwrap_or(u64::from(queue.settings.visibility_timeout) * 1000);
        let queue_name = queue.name.clone();
        let message = queue.message_mut(key).expect("delivering a stored message");
        message.receive_count += 1;
        message.receipt_serial += 1;
        message.received_at = now;
        message.first_received_at.get_or_insert(now);
        let extras = message.extras_mut();
        let previous_holder = std::mem::replace(&mut extras.holder, spec.by.clone());
        extras.in_flight_since = now;
        if let Some(by) = &spec.by {
            extras.holders.retain(|h| h != by);
            extras.holders.push(by.clone());
        }
        let receipt = Receipt {
            queue: id,
            message: key,
            serial: message.receipt_serial,
        };
        let event = EventKind::Received {
            queue: queue_name,
            message_id: message.id,
            by: spec.by.clone(),
            receive_count: message.receive_count,
            visible_at: now + visibility,
            previous_holder,
        };
        queue.set_state(
            key,
            State::InFlight {
                deadline: now + visibility,
            },
        );
        queue.record(event, &mut self.log, now);
        let queue = self.queue(id);
        let message = queue.get(key).expect("still stored");
        view(queue, message, spec, receipt.encode(secret), epoch, &sender)
    }

    /// The lazy dead-letter move: a message that has used up its
    /// `maxReceiveCount` goes to the DLQ when a receive reaches it.
    fn move_if_exhausted(&mut self, id: u32, key: u64) -> bool {
        let queue = self.queue(id);
        let Some(policy) = &queue.settings.redrive_policy else {
            return false;
        };
        let Some(dlq) = self.resolve_arn(&policy.dead_letter_target_arn) else {
            return false;
        };
        let exhausted = queue
            .get(key)
            .is_some_and(|m| i64::from(m.receive_count) >= policy.max_receive_count);
        if !exhausted || dlq == id {
            return false;
        }
        let now = self.now;
        let dead_letter_queue = self.queue(dlq).name.clone();
        let queue = self.queues.get_mut(&id).expect("resolved");
        let Some(mut message) = queue.remove(key) else {
            return false;
        };
        let event = EventKind::MovedToDeadLetterQueue {
            queue: queue.name.clone(),
            dead_letter_queue,
            message_id: message.id,
            receive_count: message.receive_count,
        };
        queue.record(event, &mut self.log, now);
        let source_arn = queue.arn.clone();
        let Some(target) = self.queues.get_mut(&dlq) else {
            return false;
        };
        // A standard DLQ keeps the original enqueue time for retention; a FIFO DLQ resets it.
        if target.fifo {
            message.enqueued_at = now;
            message.sequence = target.next_sequence();
        }
        message.state = State::Visible;
        let (serial, id) = (message.receipt_serial, message.id);
        let extras = message.extras_mut();
        extras.dead_letter_source = Some(source_arn);
        // FIFO to FIFO: the message id becomes the deduplication id, so that
        // two messages that shared one are both kept (Developer Guide).
        if target.fifo {
            extras.dedup_id = Some(id.to_string().into());
        }
        extras.serial_at_arrival = serial;
        extras.holder = None;
        extras.holders.clear();
        target.insert(message);
        target.flush_group_events(&mut self.log, now);
        // Kept enqueue time: a message already older than the DLQ's
        // retention expires on arrival, before any poll could get it.
        self.fire_queue_timers(dlq, now);
        // A redrive cycle (possible only through a queue recreated under a
        // name another policy already targets) must not recurse forever:
        // past one hop per queue, the DLQ's waiters wait for the next settle.
        if self.redrive_depth <= self.queues.len() {
            self.redrive_depth += 1;
            self.serve_waiters(dlq);
            self.redrive_depth -= 1;
        }
        true
    }

    /// Replays a FIFO receive with the same `ReceiveRequestAttemptId` when
    /// nothing changed since: same messages, same handles, visibility reset.
    fn replay_attempt(&mut self, id: u32, spec: &ReceiveSpec) -> Option<Vec<ReceivedMessage>> {
        let attempt_id = spec.attempt_id.as_ref()?;
        let now = self.now;
        let secret = self.secret;
        let queue = self.queues.get_mut(&id)?;
        queue.attempts.retain(|_, a| now < a.at + ATTEMPT_WINDOW_MS);
        let attempt = queue.attempts.get(attempt_id)?.clone();
        // Deleted, received again, or visibility changed: no replay.
        let in_flight = State::InFlight {
            deadline: attempt.deadline,
        };
        let unchanged = attempt.receipts.iter().all(|(key, serial)| {
            queue
                .get(*key)
                .is_some_and(|m| m.receipt_serial == *serial && m.state == in_flight)
        });
        if !unchanged {
            return None;
        }
        let visibility = attempt
            .spec_visibility_ms
            .unwrap_or(u64::from(queue.settings.visibility_timeout) * 1000);
        let deadline = now + visibility;
        for (key, _) in &attempt.receipts {
            queue.set_state(*key, State::InFlight { deadline });
        }
        queue.flush_group_events(&mut self.log, now);
        if let Some(stored) = queue.attempts.get_mut(attempt_id) {
            stored.deadline = deadline;
        }
        let queue = self.queue(id);
        let epoch = self.config.start_epoch_ms;
        let sender = &self.config.account_id;
        Some(
            attempt
                .receipts
                .iter()
                .filter_map(|(key, serial)| {
                    let message = queue.get(*key)?;
                    let handle = Receipt {
                        queue: id,
                        message: *key,
                        serial: *serial,
                    }
                    .encode(secret);
                    Some(view(queue, message, spec, handle, epoch, sender))
                })
                .collect(),
        )
    }

    /// Remembers what a FIFO receive with an attempt id delivered. A receive
    /// that delivered nothing is not remembered: its retry receives afresh.
    fn record_attempt(&mut self, id: u32, spec: &ReceiveSpec, delivered: &[ReceivedMessage]) {
        let Some(attempt_id) = spec.attempt_id.as_ref().filter(|_| !delivered.is_empty()) else {
            return;
        };
        let secret = self.secret;
        let receipts = delivered
            .iter()
            .filter_map(|m| Receipt::decode(&m.receipt_handle, secret))
            .map(|r| (r.message, r.serial))
            .collect();
        let at = self.now;
        if let Some(queue) = self.queues.get_mut(&id) {
            let visibility = spec
                .visibility_ms
                .unwrap_or(u64::from(queue.settings.visibility_timeout) * 1000);
            let attempt = Attempt {
                at,
                receipts,
                spec_visibility_ms: spec.visibility_ms,
                deadline: at + visibility,
            };
            queue.attempts.insert(attempt_id.clone(), attempt);
        }
    }
}

/// Does `names` ask for message attribute `attribute`? (`All`, `.*`, `*`,
/// `prefix.*` for every name starting with the prefix, or the exact name.)
fn wants_attribute(names: &[String], attribute: &str) -> bool {
    names.iter().any(|n| match n.as_str() {
        "All" | ".*" | "*" => true,
        n => match n.strip_suffix(".*") {
            Some(prefix) => attribute.starts_with(prefix),
            None => n == attribute,
        },
    })
}

/// What a receive shows of a message, given what the request asked for.
fn view(
    queue: &Queue,
    message: &Message,
    spec: &ReceiveSpec,
    receipt_handle: String,
    epoch: u64,
    sender: &str,
) -> ReceivedMessage {
    let extras = message.extras();
    let all = spec.system_names.iter().any(|n| n == "All");
    let mut attributes: Vec<(&'static str, String)> = Vec::new();
    // Values are computed only for the names asked for: most receives ask for none.
    let mut add = |name: &'static str, value: &dyn Fn() -> Option<String>| {
        if all || spec.system_names.iter().any(|n| n == name) {
            if let Some(value) = value() {
                attributes.push((name, value));
            }
        }
    };
    add("AWSTraceHeader", &|| {
        extras?
            .system_attributes
            .iter()
            .find_map(|a| match &a.value {
                crate::message::AttributeValue::String(s) if a.name == "AWSTraceHeader" => {
                    Some(s.clone())
                }
                _ => None,
            })
    });
    add("ApproximateFirstReceiveTimestamp", &|| {
        message.first_received_at.map(|t| (epoch + t).to_string())
    });
    add("ApproximateReceiveCount", &|| {
        Some(message.receive_count.to_string())
    });
    add("DeadLetterQueueSourceArn", &|| {
        Some(extras?.dead_letter_source.as_ref()?.to_string())
    });
    add("MessageDeduplicationId", &|| {
        Some(extras?.dedup_id.as_ref()?.to_string())
    });
    add("MessageGroupId", &|| {
        message.group.as_ref().map(|g| g.to_string())
    });
    add("SenderId", &|| Some(sender.to_string()));
    add("SentTimestamp", &|| {
        Some((epoch + message.sent_at).to_string())
    });
    add("SequenceNumber", &|| {
        queue.fifo.then(|| sequence_number(message.sequence))
    });

    let message_attributes: Vec<MessageAttribute> = extras
        .map(|e| {
            e.attributes
                .iter()
                .filter(|a| wants_attribute(&spec.message_attribute_names, &a.name))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    let md5_of_message_attributes =
        (!message_attributes.is_empty()).then(|| hex(&md5_of_attributes(&message_attributes)));
    ReceivedMessage {
        message_id: message.id.to_string(),
        receipt_handle,
        body: message.body.to_string(),
        md5_of_body: hex(&message.md5_of_body),
        attributes,
        message_attributes,
        md5_of_message_attributes,
    }
}

#[cfg(test)]
mod tests {
    use super::wants_attribute;

    #[test]
    fn attribute_name_filters() {
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(wants_attribute(&names(&["All"]), "x"));
        assert!(wants_attribute(&names(&[".*"]), "x"));
        assert!(wants_attribute(&names(&["*"]), "x"));
        assert!(wants_attribute(&names(&["Help.*"]), "Help.Me"));
        assert!(wants_attribute(&names(&["Hel.*"]), "Hello"));
        assert!(!wants_attribute(&names(&["Help.*"]), "General"));
        assert!(wants_attribute(&names(&["Hello"]), "Hello"));
        assert!(!wants_attribute(&names(&[]), "Hello"));
    }
}
