//! What SQS reports to CloudWatch about a queue at a moment: the
//! `Approximate*` metrics, as AWS defines them. The counts are the ones
//! GetQueueAttributes gives; the age of the oldest message follows
//! CloudWatch's own definition (`Message::counts_for_age`), which
//! GetQueueAttributes has no attribute for.

use serde::Serialize;

use crate::{Engine, Millis};

/// A queue's CloudWatch gauges now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueueGauges {
    /// ApproximateNumberOfMessagesVisible.
    pub visible: u64,
    /// ApproximateNumberOfMessagesNotVisible (in flight).
    pub not_visible: u64,
    /// ApproximateNumberOfMessagesDelayed.
    pub delayed: u64,
    /// ApproximateAgeOfOldestMessage, in milliseconds: how long the oldest
    /// message it counts has been in the queue (0 when there is none). A
    /// standard queue leaves out a message received three times or more
    /// without a delete; a dead-letter queue counts from each message's
    /// arrival there, not from its first send.
    pub age_of_oldest_ms: Millis,
}

impl Engine {
    /// The CloudWatch gauges of the queue at `url` (None if there is no
    /// such queue). Logarithmic in the queue's size: read at every
    /// metrics period of every queue.
    pub fn queue_gauges(&self, url: &str) -> Option<QueueGauges> {
        let q = self.queue(self.resolve(url).ok()?);
        Some(QueueGauges {
            visible: q.count_visible() as u64,
            not_visible: q.count_in_flight() as u64,
            delayed: q.count_delayed() as u64,
            age_of_oldest_ms: q
                .oldest_counted()
                .map_or(0, |from| self.now().saturating_sub(from)),
        })
    }
}
