//! ReceiveMessage: checking the request, receive-attempt replay,
//! registering long polls that have to wait, and what a receive shows of a
//! message (attribute selection). Picking and delivering the messages is
//! `delivery.rs`.

use std::sync::Arc;

use crate::digest::{hex, md5_of_attributes};
use crate::error::{SqsError, SqsResult};
use crate::events::EventKind;
use crate::ids::{sequence_number, Receipt};
use crate::message::{Message, MessageAttribute, State};
use crate::queue::Queue;
use crate::settings::MAX_VISIBILITY_TIMEOUT;
use crate::time::later;
use crate::{validate, Engine, Millis, Principal, ReceiveMessage, ReceiveOutcome, ReceivedMessage};

/// A validated receive request; long polls keep it while they wait.
#[derive(Clone, Debug)]
pub(crate) struct ReceiveSpec {
    pub max: usize,
    /// `None`: the queue's VisibilityTimeout at the moment of delivery.
    pub visibility_ms: Option<Millis>,
    pub wait_ms: Millis,
    pub system_names: Vec<String>,
    pub message_attribute_names: Vec<String>,
    pub attempt_id: Option<String>,
    pub by: Option<Arc<str>>,
    /// Who receives: SSE-KMS data keys are decrypted per principal.
    pub identity: crate::Identity,
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

/// ReceiveMessage's MaxNumberOfMessages: 1 to 10 messages a call.
pub const MAX_NUMBER_OF_MESSAGES_RANGE: (i64, i64) = (1, 10);
/// ReceiveMessage's WaitTimeSeconds: 0 (a short poll) to 20 (the longest long poll).
pub const WAIT_TIME_SECONDS_RANGE: (i64, i64) = (0, 20);

impl ReceiveSpec {
    fn check(request: &ReceiveMessage, queue: &Queue, by: &Principal) -> SqsResult<Self> {
        let (lo, hi) = MAX_NUMBER_OF_MESSAGES_RANGE;
        check_range(
            "MaxNumberOfMessages",
            request.max_number_of_messages,
            lo,
            hi,
            "Must be between 1 and 10, if provided.",
        )?;
        check_range(
            "VisibilityTimeout",
            request.visibility_timeout,
            0,
            MAX_VISIBILITY_TIMEOUT,
            "Must be >= 0 and <= 43200, if provided.",
        )?;
        let (lo, hi) = WAIT_TIME_SECONDS_RANGE;
        check_range(
            "WaitTimeSeconds",
            request.wait_time_seconds,
            lo,
            hi,
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
            by: by.by(),
            identity: by.identity().clone(),
        })
    }
}

impl Engine {
    /// ReceiveMessage from the queue `id` (the gate resolved and billed it).
    pub(crate) fn receive_message_in(
        &mut self,
        id: u32,
        request: &ReceiveMessage,
        by: &Principal,
    ) -> SqsResult<ReceiveOutcome> {
        let spec = ReceiveSpec::check(request, self.queue(id), by)?;
        self.check_receive_key(id, by)?;
        // Whatever is due at this instant happens first: a message another
        // poll took with VisibilityTimeout 0 a moment ago is visible again,
        // not in flight (settle can leave a queue due behind its cursor).
        self.settle();
        if let Some(replayed) = self.replay_attempt(id, &spec)? {
            return Ok(ReceiveOutcome::Done(replayed));
        }
        let messages = self.take_messages(id, &spec)?;
        if messages.is_empty() && spec.wait_ms > 0 {
            let poll = self.wait(id, spec);
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

    /// Replays a FIFO receive with the same `ReceiveRequestAttemptId` when
    /// nothing changed since: same messages, same handles, visibility reset.
    /// `Ok(None)` receives afresh (no such attempt, or its messages came
    /// back by themselves); a message deleted or given a new visibility by a
    /// call makes the attempt not retryable, which SQS answers with an error.
    fn replay_attempt(
        &mut self,
        id: u32,
        spec: &ReceiveSpec,
    ) -> SqsResult<Option<Vec<ReceivedMessage>>> {
        let Some(attempt_id) = spec.attempt_id.as_ref() else {
            return Ok(None);
        };
        let now = self.now;
        let secret = self.secret;
        let Some(mut queue) = self.queues.get_mut(&id) else {
            return Ok(None);
        };
        let Some(attempt) = queue.attempts.lookup(attempt_id, now) else {
            return Ok(None);
        };
        let in_flight = State::InFlight {
            deadline: attempt.deadline,
        };
        let mut unchanged = true;
        for (key, serial) in &attempt.receipts {
            let message = queue.get(*key);
            let same_receipt = message.filter(|m| m.receipt_serial == *serial);
            if same_receipt.is_some_and(|m| m.state == in_flight) {
                continue;
            }
            unchanged = false;
            // Gone (deleted), or hidden by this receipt until another time,
            // or visible before its timeout could have ended: changed by a call.
            let modified = message.is_none()
                || same_receipt.is_some_and(|m| {
                    matches!(m.state, State::InFlight { .. }) || now < attempt.deadline
                });
            if modified {
                return Err(SqsError::invalid_value(
                    "ReceiveRequestAttemptId",
                    attempt_id,
                    "The receiveRequestAttemptId is not valid anymore since the receive call is \
                     not retryable.",
                ));
            }
        }
        if !unchanged {
            return Ok(None);
        }
        let visibility = attempt
            .visibility_ms
            .unwrap_or(u64::from(queue.settings.visibility_timeout) * 1000);
        let deadline = later(now, visibility);
        for (key, _) in &attempt.receipts {
            // In flight before and after: no group changes its lock, but
            // every lock change is logged, so this one would be too.
            let lock = queue.set_state(*key, State::InFlight { deadline });
            lock.log(&mut self.log, now);
        }
        queue.attempts.replayed(attempt_id, deadline);
        drop(queue);
        let queue = self.queue(id);
        let epoch = self.config.start_epoch_ms;
        let sender = &self.config.account_id;
        Ok(Some(
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
        ))
    }

    /// Remembers what a FIFO receive with an attempt id delivered. A receive
    /// that delivered nothing is not remembered: its retry receives afresh.
    pub(crate) fn record_attempt(
        &mut self,
        id: u32,
        spec: &ReceiveSpec,
        delivered: &[ReceivedMessage],
    ) {
        let Some(attempt_id) = spec.attempt_id.as_ref().filter(|_| !delivered.is_empty()) else {
            return;
        };
        let secret = self.secret;
        let receipts = delivered
            .iter()
            .filter_map(|m| Receipt::decode(&m.receipt_handle, secret))
            .map(|r| (r.message, r.serial))
            .collect();
        let now = self.now;
        if let Some(mut queue) = self.queues.get_mut(&id) {
            let visibility = spec
                .visibility_ms
                .unwrap_or(u64::from(queue.settings.visibility_timeout) * 1000);
            let (id, deadline) = (attempt_id.clone(), later(now, visibility));
            (queue.attempts).record(id, receipts, spec.visibility_ms, deadline, now);
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
pub(crate) fn view(
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
        message.first_received_at.map(|t| timestamp(epoch, t))
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
    add("SentTimestamp", &|| Some(timestamp(epoch, message.sent_at)));
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

/// An epoch-milliseconds attribute value (`SentTimestamp`, …), never past
/// the last moment a JavaScript `Date` can name.
fn timestamp(epoch: u64, at: Millis) -> String {
    epoch
        .saturating_add(at)
        .min(crate::MAX_EPOCH_MS)
        .to_string()
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
