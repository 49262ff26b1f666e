//! The billing meter: the requests callers make, counted as SQS bills
//! them, so a lab can hold a run to a request budget or a cost.
//!
//! SQS's pricing (https://aws.amazon.com/sqs/pricing/, us-east-1, first
//! tier, checked 2026-12): standard queues $0.40 and FIFO queues $0.50 per
//! million requests; "each 64 KB chunk of a payload is billed as 1 request
//! (for example, an API action with a 256 KB payload is billed as 4
//! requests)"; a batch of up to 10 messages is one request (its payload is
//! the batch's total); an empty receive is a request like any other
//! (SQS Developer Guide, "best practices: appropriate polling mode").
//! "Every Amazon SQS action counts as a request" (the pricing page): the
//! management calls too (CreateQueue, DeleteQueue, GetQueueAttributes…),
//! so a client that creates and deletes a queue per request pays for both.
//! The FIFO price applies to the calls on a FIFO queue.
//!
//! Choices (documented, not AWS facts):
//! - A call is billed once its queue is known, whether or not it then
//!   fails: SQS answers a client error after doing the work of a request.
//! - The payload is the request's: a send's bodies and attributes. A
//!   receive, delete or visibility change is one request per call; the
//!   bytes a receive returns are not counted (the pricing text speaks of
//!   an action's payload and does not say that a response counts).
//! - A call on a queue is billed at its queue type's price; CreateQueue
//!   and GetQueueUrl at the type their queue name says (".fifo"); the
//!   account's calls (ListQueues, the move tasks) at the standard price.
//! - The simulation's own reads of a queue's attributes (what its alarms
//!   and actors look up, which a real program knows from its settings or
//!   from the metrics SQS sends CloudWatch free) do not pass the gate,
//!   and are not billed.
//! - The free tier (first million requests a month) and volume tiers are
//!   left out: costs are at list price.
//!
//! KMS requests that SSE-KMS queues make (kms.rs) are billed apart, by
//! caller and KMS operation, at KMS's price
//! (https://aws.amazon.com/kms/pricing/, checked 2026-12: "$0.03 per
//! 10,000 requests" for symmetric keys; the 20,000 free requests a month
//! and the $1 a month per customer managed key are left out).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::{Action, KmsApi};

/// Nano-US-dollars per request on a standard queue ($0.40 per million).
pub const PRICE_NANO_USD_STANDARD: u64 = 400;
/// Nano-US-dollars per request on a FIFO queue ($0.50 per million).
pub const PRICE_NANO_USD_FIFO: u64 = 500;
/// Nano-US-dollars per KMS request ($0.03 per 10,000).
pub const PRICE_NANO_USD_KMS: u64 = 3_000;
/// Each started chunk of this many payload bytes is one request.
pub const BILLING_CHUNK_BYTES: usize = 65_536;

/// Calls made and requests billed for them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub calls: u64,
    pub requests: u64,
}

/// One line of the bill: who called, which action, on which kind of queue.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BillLine {
    pub caller: Option<Arc<str>>,
    pub action: Action,
    pub fifo: bool,
}

/// The most callers the meter names. A name is kept for the whole run
/// (issue 25: each distinct caller cost 148 bytes never freed, so a host
/// inventing a name per call grew without bound); a scenario has at most
/// 200 producers and workers, so this is far more than any run names.
pub const MAX_METERED_CALLERS: usize = 1_000;

/// The caller the calls of every caller past [`MAX_METERED_CALLERS`] are
/// billed under, together. Longer than any caller's name may be
/// ([`crate::MAX_CALLER_CHARS`]), so it can never be one.
pub const OTHER_CALLERS: &str =
    "(other callers: the meter names at most 1,000 callers and bills the calls of the rest here)";

/// Every billed call of a run, by caller, action and queue type.
#[derive(Clone, Debug, Default)]
pub struct Meter {
    lines: BTreeMap<BillLine, Tally>,
    /// The callers named so far (at most [`MAX_METERED_CALLERS`]), shared
    /// with their lines: a call by a known caller allocates nothing.
    callers: BTreeSet<Arc<str>>,
    /// KMS requests SSE-KMS queues made for each caller's calls.
    kms: BTreeMap<(Option<Arc<str>>, KmsApi), u64>,
}

/// Requests a call with this many payload bytes is billed as: one per
/// started 64 KiB chunk, and at least one.
pub fn requests_for_payload(bytes: usize) -> u64 {
    bytes.div_ceil(BILLING_CHUNK_BYTES).max(1) as u64
}

impl Meter {
    pub(crate) fn bill(&mut self, by: Option<&str>, action: Action, fifo: bool, payload: usize) {
        let line = BillLine {
            caller: by.map(|name| self.caller(name)),
            action,
            fifo,
        };
        let tally = self.lines.entry(line).or_default();
        tally.calls += 1;
        tally.requests += requests_for_payload(payload);
    }

    /// Bills one KMS request made for a call by `by`.
    pub(crate) fn bill_kms(&mut self, by: Option<&str>, api: KmsApi) {
        let caller = by.map(|name| self.caller(name));
        *self.kms.entry((caller, api)).or_default() += 1;
    }

    /// KMS requests by (caller, operation), in that order.
    pub fn kms_lines(&self) -> impl Iterator<Item = (Option<&str>, KmsApi, u64)> {
        self.kms
            .iter()
            .map(|((caller, api), n)| (caller.as_deref(), *api, *n))
    }

    /// KMS requests made for the callers `counts` accepts.
    pub fn kms_requests(&self, counts: impl Fn(Option<&str>) -> bool) -> u64 {
        self.kms_lines()
            .filter(|(caller, ..)| counts(*caller))
            .map(|(.., n)| n)
            .sum()
    }

    /// The name a caller's calls are billed under: its own while the meter
    /// names fewer than [`MAX_METERED_CALLERS`], else [`OTHER_CALLERS`].
    fn caller(&mut self, name: &str) -> Arc<str> {
        if let Some(known) = self.callers.get(name) {
            return known.clone();
        }
        if self.callers.len() >= MAX_METERED_CALLERS {
            return OTHER_CALLERS.into();
        }
        let name: Arc<str> = name.into();
        self.callers.insert(name.clone());
        name
    }

    /// The bill's lines, in (caller, action, queue type) order.
    pub fn lines(&self) -> impl Iterator<Item = (&BillLine, &Tally)> {
        self.lines.iter()
    }

    /// Requests billed to the callers `counts` accepts.
    pub fn requests(&self, counts: impl Fn(Option<&str>) -> bool) -> u64 {
        self.lines
            .iter()
            .filter(|(line, _)| counts(line.caller.as_deref()))
            .map(|(_, t)| t.requests)
            .sum()
    }

    /// Their cost at list price, in nano-US-dollars (exact integers).
    pub fn cost_nano_usd(&self, counts: impl Fn(Option<&str>) -> bool) -> u64 {
        self.lines
            .iter()
            .filter(|(line, _)| counts(line.caller.as_deref()))
            .map(|(line, t)| t.requests * price_nano_usd(line.fifo))
            .sum()
    }
}

/// The list price of one request on a standard or a FIFO queue.
pub fn price_nano_usd(fifo: bool) -> u64 {
    if fifo {
        PRICE_NANO_USD_FIFO
    } else {
        PRICE_NANO_USD_STANDARD
    }
}
