//! FIFO `ReceiveRequestAttemptId`s: a receive retried with the same attempt
//! id within five minutes, while nothing happened to what it delivered,
//! gets the same messages and receipt handles again instead of new ones.

use std::collections::BTreeMap;

use crate::Millis;

const ATTEMPT_WINDOW_MS: Millis = 5 * 60 * 1000;

/// What one receive with an attempt id delivered.
#[derive(Clone, Debug)]
pub(crate) struct Attempt {
    at: Millis,
    /// (message key, receipt serial) of each message delivered.
    pub(crate) receipts: Vec<(u64, u32)>,
    /// The request's VisibilityTimeout, reapplied on replay.
    pub(crate) visibility_ms: Option<Millis>,
    /// When the messages become visible again. A replay moves it; any other
    /// change of their visibility leaves it behind, and then the messages'
    /// deadlines no longer match it, so the attempt cannot replay.
    pub(crate) deadline: Millis,
}

/// One queue's attempts, by id. A BTreeMap, though only looked up: it is
/// small, and no hash order can leak out.
#[derive(Default)]
pub(crate) struct Attempts {
    by_id: BTreeMap<String, Attempt>,
}

impl Attempts {
    /// The attempt remembered under `id`, if it is within its window.
    pub(crate) fn lookup(&mut self, id: &str, now: Millis) -> Option<Attempt> {
        self.by_id.retain(|_, a| now < a.at + ATTEMPT_WINDOW_MS);
        self.by_id.get(id).cloned()
    }

    /// Remembers a receive that delivered `receipts`, visible again at `deadline`.
    pub(crate) fn record(
        &mut self,
        id: String,
        receipts: Vec<(u64, u32)>,
        visibility_ms: Option<Millis>,
        deadline: Millis,
        now: Millis,
    ) {
        let attempt = Attempt {
            at: now,
            receipts,
            visibility_ms,
            deadline,
        };
        self.by_id.insert(id, attempt);
    }

    /// A replay hid the messages again until `deadline`.
    pub(crate) fn replayed(&mut self, id: &str, deadline: Millis) {
        if let Some(stored) = self.by_id.get_mut(id) {
            stored.deadline = deadline;
        }
    }
}
