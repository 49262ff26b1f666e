//! The side-effect ledger: how often each message's side effect happened.
//!
//! Bounded per run, whatever its length: the first
//! [`MAX_SIDE_EFFECT_DETAILS`] messages keep their entry (body, who, in
//! order) for the page; past them only a count is kept for a message that
//! may still be handled (stored in the engine, or held by a worker), and
//! a message gone for good folds into the smallest and largest count.
//! `omitted` says how many messages' details were not kept, so the page
//! can say so. The idempotent handlers' shared table of processed ids
//! forgets a message once it is gone for good, too: it cannot come back.

use std::collections::{BTreeMap, BTreeSet};

use crate::SideEffect;

/// Messages whose side effects the ledger lists in detail.
pub const MAX_SIDE_EFFECT_DETAILS: usize = 10_000;
/// Names one detailed entry keeps in `by` (its count goes on).
pub const MAX_SIDE_EFFECT_NAMES: usize = 100;

#[derive(Default)]
pub(crate) struct Ledger {
    pub(crate) entries: Vec<SideEffect>,
    /// For each entry, the event number the log had when it last changed:
    /// `snapshot_since` lists only entries changed since a page's last read.
    pub(crate) seqs: Vec<u64>,
    /// Where each detailed message's entry is.
    index: BTreeMap<String, usize>,
    /// Counts of messages past the details that may still be handled.
    live: BTreeMap<String, u64>,
    /// The smallest and largest count of messages past the details gone
    /// for good.
    folded: Option<(u64, u64)>,
    /// Messages whose details were not kept.
    pub(crate) omitted: u64,
    /// Message ids every idempotent handler has recorded.
    processed: BTreeSet<String>,
    /// Messages that left the engine while a worker still held them (a
    /// delete before processing): gone once the last holder is done.
    gone_while_held: BTreeSet<String>,
}

/// What one side effect made of a message's entry.
pub(crate) struct Performed {
    pub(crate) count: u64,
}

impl Ledger {
    /// Whether an idempotent handler recorded `id` already; records it.
    pub(crate) fn seen_once(&mut self, id: &str) -> bool {
        !self.processed.insert(id.to_string())
    }

    /// One side effect on `id`, by `by`; `seq` is the event number it is logged under.
    pub(crate) fn perform(
        &mut self,
        id: &str,
        body: &str,
        effect: &str,
        by: &str,
        seq: u64,
    ) -> Performed {
        if let Some(&at) = self.index.get(id) {
            return self.add(at, by, seq);
        }
        if let Some(count) = self.live.get_mut(id) {
            *count += 1;
            return Performed { count: *count };
        }
        if self.entries.len() < MAX_SIDE_EFFECT_DETAILS {
            let at = self.entries.len();
            self.index.insert(id.to_string(), at);
            self.seqs.push(seq);
            self.entries.push(SideEffect {
                message_id: id.to_string(),
                // Bounded: the ledger names the message, it does not keep
                // a second copy of a body of up to 1 MiB.
                body: queuelab_engine::echo(body).into_owned(),
                effect: effect.to_string(),
                count: 0,
                by: Vec::new(),
            });
            return self.add(at, by, seq);
        }
        self.omitted += 1;
        self.live.insert(id.to_string(), 1);
        Performed { count: 1 }
    }

    fn add(&mut self, at: usize, by: &str, seq: u64) -> Performed {
        self.seqs[at] = seq;
        let entry = &mut self.entries[at];
        entry.count += 1;
        if entry.by.len() < MAX_SIDE_EFFECT_NAMES {
            entry.by.push(by.to_string());
        }
        Performed { count: entry.count }
    }

    /// `id` left the engine for good (deleted, expired, purged) and no
    /// worker holds it: its count is final and the processed table may
    /// forget it.
    pub(crate) fn gone(&mut self, id: &str) {
        self.gone_while_held.remove(id);
        self.processed.remove(id);
        if let Some(count) = self.live.remove(id) {
            self.folded = Some(match self.folded {
                None => (count, count),
                Some((lo, hi)) => (lo.min(count), hi.max(count)),
            });
        }
    }

    /// `id` left the engine while a worker holds it.
    pub(crate) fn gone_while_held(&mut self, id: &str) {
        self.gone_while_held.insert(id.to_string());
    }

    /// Whether `id` left the engine while a worker held it.
    pub(crate) fn is_gone_while_held(&self, id: &str) -> bool {
        self.gone_while_held.contains(id)
    }

    /// Whether every message handled had exactly `n` side effects (false
    /// when none was handled).
    pub(crate) fn each_exactly(&self, n: u64) -> bool {
        let details = self.entries.iter().map(|e| e.count);
        let live = self.live.values().copied();
        let folded = self.folded.into_iter().flat_map(|(lo, hi)| [lo, hi]);
        let mut all = details.chain(live).chain(folded).peekable();
        all.peek().is_some() && all.all(|c| c == n)
    }

    /// Records kept: (detailed entries, live counts, processed ids).
    pub(crate) fn retained(&self) -> (usize, usize, usize) {
        (self.entries.len(), self.live.len(), self.processed.len())
    }
}
