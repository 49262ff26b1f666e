//! SQS's request quotas in virtual time: the gate's throttle step.
//!
//! A realism knob ([`crate::Realism::throttling`]), off by default. On:
//! - a standard queue is never throttled (AWS: "nearly unlimited");
//! - a FIFO queue takes 300 transactions per second per action
//!   (SendMessage, ReceiveMessage, DeleteMessage, ChangeMessageVisibility,
//!   each with its batch form: a batch of ten is one transaction, which is
//!   how batching reaches 3,000 messages per second);
//! - a high-throughput FIFO queue (`DeduplicationScope` `messageGroup` and
//!   `FifoThroughputLimit` `perMessageGroupId`) takes the region's figure
//!   per action, and its sends are also held to one partition's 300
//!   transactions per second for each message group, since SQS keeps a
//!   group on one partition. More groups spread the sends.
//!
//! Seconds are whole virtual seconds (`now / 1000`): the counts start
//! again at each, and only the current second's are kept, so the memory
//! held is bounded by the calls of one second. A throttled call is not
//! counted, not billed and changes nothing: SQS answers it `RequestThrottled`.

use crate::action::Action;
use crate::api::Request;
use crate::error::{ErrorCode, SqsError};
use crate::settings::{DedupScope, Settings, ThroughputLimit};
use crate::Millis;

/// One partition's transactions per second, per action: a FIFO queue's
/// quota without high throughput, and each message group's with it.
pub const FIFO_TRANSACTIONS_PER_SECOND: u32 = 300;

/// High-throughput FIFO's transactions per second per action in `region`
/// (AWS's quota table; docs/fidelity.md gives the sources).
pub fn high_throughput_per_second(region: &str) -> u32 {
    match region {
        "us-east-1" | "us-west-2" | "eu-west-1" => 70_000,
        "us-east-2" | "eu-central-1" => 19_000,
        "ap-south-1" | "ap-southeast-1" | "ap-southeast-2" | "ap-northeast-1" | "eu-west-2" => {
            9_000
        }
        "ap-northeast-2" | "ca-central-1" | "eu-north-1" | "eu-west-3" | "sa-east-1" => 4_500,
        _ => 2_400,
    }
}

/// The actions a quota counts together: an action and its batch form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Family {
    Send,
    Receive,
    Delete,
    ChangeVisibility,
}

impl Family {
    fn of(action: Action) -> Option<Family> {
        match action {
            Action::SendMessage | Action::SendMessageBatch => Some(Family::Send),
            Action::ReceiveMessage => Some(Family::Receive),
            Action::DeleteMessage | Action::DeleteMessageBatch => Some(Family::Delete),
            Action::ChangeMessageVisibility | Action::ChangeMessageVisibilityBatch => {
                Some(Family::ChangeVisibility)
            }
            _ => None,
        }
    }
}

/// What one count is kept for: a queue's action, or (high throughput's
/// partitions) a queue's sends of one message group.
type Key = (u32, Family, Option<String>);

/// The current second's transactions. A list, not a map: it holds one
/// entry per action and queue (and message group) called this second, and
/// a B-tree of this key would be one more copy of B-tree code in the wasm.
#[derive(Debug, Default)]
pub(crate) struct Quotas {
    second: Millis,
    used: Vec<(Key, u32)>,
}

impl Quotas {
    /// Counts the call on `queue` (whose settings and region decide its
    /// quotas) at `now`, or refuses it, counting nothing, when any of its
    /// quotas is used up for this second.
    pub(crate) fn take(
        &mut self,
        now: Millis,
        queue: u32,
        settings: &Settings,
        fifo: bool,
        region: &str,
        request: &Request<'_>,
    ) -> Result<(), SqsError> {
        let Some(family) = Family::of(request.action()).filter(|_| fifo) else {
            return Ok(());
        };
        if now / 1000 != self.second {
            self.second = now / 1000;
            self.used.clear();
        }
        let high = settings.deduplication_scope == DedupScope::MessageGroup
            && settings.fifo_throughput_limit == ThroughputLimit::PerMessageGroupId;
        let mut keys = vec![(
            (queue, family, None),
            if high {
                high_throughput_per_second(region)
            } else {
                FIFO_TRANSACTIONS_PER_SECOND
            },
        )];
        if high {
            for group in groups_sent(request) {
                keys.push(((queue, family, Some(group)), FIFO_TRANSACTIONS_PER_SECOND));
            }
        }
        if keys.iter().any(|(key, quota)| self.count(key) >= *quota) {
            return Err(throttled());
        }
        for (key, _) in keys {
            match self.used.iter_mut().find(|(k, _)| *k == key) {
                Some((_, n)) => *n += 1,
                None => self.used.push((key, 1)),
            }
        }
        Ok(())
    }

    /// This second's transactions of `key`.
    fn count(&self, key: &Key) -> u32 {
        (self.used.iter())
            .find(|(k, _)| k == key)
            .map_or(0, |(_, n)| *n)
    }
}

/// The message groups a send names, each once (a batch may name several).
fn groups_sent(request: &Request<'_>) -> Vec<String> {
    let mut groups: Vec<String> = match request {
        Request::SendMessage(r) => r.message.group_id.iter().cloned().collect(),
        Request::SendMessageBatch { entries, .. } => entries
            .iter()
            .filter_map(|(_, m)| m.group_id.clone())
            .collect(),
        _ => Vec::new(),
    };
    groups.sort();
    groups.dedup();
    groups
}

/// SQS's answer past a quota (its service model; recorded over the query
/// protocol on SendMessage).
pub(crate) fn throttled() -> SqsError {
    SqsError::new(ErrorCode::RequestThrottled, "Request is throttled.")
}
