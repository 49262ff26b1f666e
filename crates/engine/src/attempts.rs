//! FIFO `ReceiveRequestAttemptId`s: a receive retried with the same attempt
//! id within five minutes, while nothing happened to what it delivered,
//! gets the same messages and receipt handles again instead of new ones.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

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

/// One queue's attempts, by id, and the same ids by the moment they were
/// recorded, oldest first: dropping the expired ones looks at them and at
/// the first one still within its window, never at the others (issue 25:
/// 40,000 receives with fresh ids took 18.8 s when every lookup walked them
/// all). BTree maps, as no hash order may leak out.
#[derive(Default)]
pub(crate) struct Attempts {
    by_id: BTreeMap<Arc<str>, Attempt>,
    by_time: BTreeSet<(Millis, Arc<str>)>,
    /// Entries looked at (the `scan-count` feature, for tests/scans.rs).
    #[cfg(feature = "scan-count")]
    pub(crate) examined: std::cell::Cell<u64>,
}

impl Attempts {
    /// The attempt remembered under `id`, if it is within its window.
    pub(crate) fn lookup(&mut self, id: &str, now: Millis) -> Option<Attempt> {
        self.expire(now);
        self.examine();
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
        self.expire(now);
        let id: Arc<str> = id.into();
        let attempt = Attempt {
            at: now,
            receipts,
            visibility_ms,
            deadline,
        };
        if let Some(old) = self.by_id.insert(id.clone(), attempt) {
            self.by_time.remove(&(old.at, id.clone()));
        }
        self.by_time.insert((now, id));
    }

    /// A replay hid the messages again until `deadline`.
    pub(crate) fn replayed(&mut self, id: &str, deadline: Millis) {
        if let Some(stored) = self.by_id.get_mut(id) {
            stored.deadline = deadline;
        }
    }

    /// Drops the attempts whose five minutes are over, oldest first.
    fn expire(&mut self, now: Millis) {
        loop {
            self.examine();
            let Some((at, _)) = self.by_time.first() else {
                return;
            };
            if now < at.saturating_add(ATTEMPT_WINDOW_MS) {
                return;
            }
            if let Some((_, id)) = self.by_time.pop_first() {
                self.by_id.remove(&id);
            }
        }
    }

    #[inline(always)]
    fn examine(&self) {
        #[cfg(feature = "scan-count")]
        self.examined.set(self.examined.get() + 1);
    }
}
