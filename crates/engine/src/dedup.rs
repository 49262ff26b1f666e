//! The FIFO deduplication window: a deduplication id seen in the last five
//! minutes answers with the original message instead of adding a new one,
//! even after that message was received and deleted.

use std::collections::{HashMap, VecDeque};

use crate::ids::MessageId;
use crate::Millis;

pub(crate) const DEDUP_WINDOW_MS: Millis = 5 * 60 * 1000;

#[derive(Clone, Copy)]
pub(crate) struct Original {
    pub message_id: MessageId,
    pub sequence: u64,
    expires_at: Millis,
}

/// Lookups go through the map; expiry walks the queue, which is in expiry
/// order because the window is the same length for every entry. The map is
/// only ever looked up, never iterated, so its hash order cannot leak out.
#[derive(Default)]
pub(crate) struct Dedup {
    seen: HashMap<String, Original>,
    expiry: VecDeque<(Millis, String)>,
}

impl Dedup {
    /// The scoped key: with `DeduplicationScope=messageGroup` ids only clash within a group.
    pub(crate) fn key(id: &str, group: Option<&str>) -> String {
        match group {
            Some(group) => format!("{group}\u{0}{id}"),
            None => id.to_string(),
        }
    }

    pub(crate) fn lookup(&mut self, key: &str, now: Millis) -> Option<Original> {
        self.expire(now);
        self.seen.get(key).copied()
    }

    pub(crate) fn record(
        &mut self,
        key: String,
        message_id: MessageId,
        sequence: u64,
        now: Millis,
    ) {
        let expires_at = now + DEDUP_WINDOW_MS;
        self.expiry.push_back((expires_at, key.clone()));
        self.seen.insert(
            key,
            Original {
                message_id,
                sequence,
                expires_at,
            },
        );
    }

    fn expire(&mut self, now: Millis) {
        while self.expiry.front().is_some_and(|(at, _)| *at <= now) {
            let Some((at, key)) = self.expiry.pop_front() else {
                break;
            };
            if self.seen.get(&key).is_some_and(|o| o.expires_at == at) {
                self.seen.remove(&key);
            }
        }
    }
}
