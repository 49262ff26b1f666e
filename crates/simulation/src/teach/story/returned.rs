//! Messages a worker gave back without a crash or a failure of their own:
//! the other records of a Lambda batch that failed as a whole (without
//! `reportBatchItemFailures` one failed record returns the whole batch),
//! and a delete that missed a copy (the realism knob
//! `duplicateDeliveryProbability`). When such a message comes back, the
//! story says why, never that its worker was still working on it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use queuelab_engine::{EventKind, Millis};

use super::Story;
use crate::document::Scenario;

/// What a worker did when its delete missed a copy (the came-back
/// sentence for it is `explain::missed_copy`).
pub(super) const MISSED_COPY: &str = "deleted it, but the delete missed a copy";

/// What the other records of a Lambda batch that failed as a whole went through.
pub(super) const BATCH_FAILED: &str =
    "its Lambda batch failed (one record failed, so the whole batch went back)";

/// What a Lambda function did with a record it gave back, by the
/// invocation's result (`lambdaReturned`'s `result`).
pub(super) fn by_invocation(result: &str) -> &'static str {
    match result {
        "timeout" => "its invocation timed out, so the whole batch went back",
        "partial" => "reported it as a failed item (batchItemFailures)",
        "invalidResponse" => {
            "returned a response Lambda could not read, so the whole batch went back"
        }
        _ => "its invocation threw an error, so the whole batch went back",
    }
}

/// What a Lambda function did with the records of a throttled batch.
pub(super) const THROTTLED: &str = "was throttled (no concurrency was free to run the batch)";

pub(super) struct Returned {
    /// Workers that run Lambda batches without reporting item failures.
    whole_batches: BTreeSet<String>,
    /// Each such worker's current batch: when it was received, and the
    /// ids not deleted yet (at most a batch: a new receive starts anew).
    batches: BTreeMap<Arc<str>, (Millis, Vec<String>)>,
}

impl Returned {
    pub(super) fn new(scenario: &Scenario) -> Self {
        let mut whole_batches = BTreeSet::new();
        for c in &scenario.consumers {
            let b = &c.behaviour;
            if b.lambda_batch && !b.report_batch_item_failures {
                whole_batches.extend(crate::worker_names(c));
            }
        }
        Returned {
            whole_batches,
            batches: BTreeMap::new(),
        }
    }

    /// `by` received message `id` now.
    pub(super) fn received(&mut self, now: Millis, by: &Arc<str>, id: &str) {
        if !self.whole_batches.contains(&**by) {
            return;
        }
        let batch = self.batches.entry(by.clone()).or_default();
        if batch.0 != now {
            *batch = (now, Vec::new());
        }
        batch.1.push(id.to_string());
    }

    /// Message `id` was deleted.
    pub(super) fn deleted(&mut self, by: Option<&Arc<str>>, id: &str) {
        if let Some((_, ids)) = by.and_then(|by| self.batches.get_mut(by)) {
            ids.retain(|i| i != id);
        }
    }

    /// `by`'s handler failed: the records of its batch that go back with
    /// it, if its batch fails as a whole.
    pub(super) fn failed(&mut self, by: &Arc<str>) -> Vec<String> {
        self.batches
            .remove(by)
            .map(|(_, ids)| ids)
            .unwrap_or_default()
    }

    /// Batches held now (bounded by the workers and their batch size).
    pub(super) fn len(&self) -> usize {
        self.batches.values().map(|(_, ids)| ids.len()).sum()
    }
}

impl Story {
    /// A delete that missed a copy: the message will come back, and says
    /// why then. Only the latest receiver's delete says so (a stale
    /// handle's missed delete is not about the receive that times out).
    pub(super) fn on_delete_missed_copy(&mut self, kind: &EventKind) {
        let EventKind::DeleteMissedCopy {
            message_id,
            by: Some(by),
            ..
        } = kind
        else {
            return;
        };
        let id = message_id.to_string();
        if self
            .receipts
            .get(&id)
            .is_some_and(|r| r.by.as_ref() == Some(by))
        {
            self.abandoned
                .insert(id, (by.clone(), MISSED_COPY.to_string()));
        }
    }
}
