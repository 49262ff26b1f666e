//! Messages a worker gave back without a crash or a failure of their own:
//! a delete that missed a copy (the realism knob
//! `duplicateDeliveryProbability`). When such a message comes back, the
//! story says why, never that its worker was still working on it.

use queuelab_engine::EventKind;

use super::Story;

/// What a worker did when its delete missed a copy (the came-back
/// sentence for it is `explain::missed_copy`).
pub(super) const MISSED_COPY: &str = "deleted it, but the delete missed a copy";

/// What a Lambda function did with a record it gave back, by the
/// invocation's result (`lambdaReturned`'s `result`).
pub(super) fn by_invocation(result: &str) -> &'static str {
    match result {
        "timeout" => "its invocation timed out, so Lambda returned the whole batch",
        "partial" => "reported it as a failed item (batchItemFailures)",
        "invalidResponse" => {
            "the function's batchItemFailures was not valid, so Lambda returned the whole batch"
        }
        _ => "its invocation failed (the function threw), so Lambda returned the whole batch",
    }
}

/// What a Lambda function did with the records of a throttled batch.
pub(super) const THROTTLED: &str = "was throttled (no concurrency was free to run the batch)";

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
