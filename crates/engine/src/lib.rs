//! Queuelab's queue engine: Amazon SQS semantics on a virtual clock.
//!
//! Pure Rust. Time is virtual (integer milliseconds since the engine was
//! made), randomness comes from one seeded PRNG, and nothing here touches a
//! wall clock, I/O or JavaScript, or parses JSON: requests arrive typed
//! (the protocol crate reads the wire), and the one JSON text the engine
//! writes, a queue's `Policy`, goes through its escaping `JsonWriter`. The same [`Config`] and the same
//! calls always produce the same answers and the same event log.
//!
//! Every call goes through one gate, [`Engine::call`] (gate.rs): made as a
//! [`Principal`], it is authorised, throttled and metered once, then runs
//! its operation, one of the [`Action`]s. The typed methods (typed.rs) are
//! calls through it. The operations' bodies live in `impl Engine` blocks
//! spread over the (private) modules named for them: `queues`, `send`,
//! `receive`, `handles`, `permissions`, `redrive`; time moves in `clock`,
//! and `snapshot` shows it all. Everything a caller needs is re-exported
//! here, at the crate root.

#![warn(unreachable_pub)]

mod access;
mod action;
mod api;
mod attempts;
mod batch;
pub mod billing;
mod clock;
mod decision;
mod dedup;
mod delivery;
mod digest;
mod error;
mod events;
mod gate;
mod gauges;
mod handles;
mod ids;
mod kms;
mod kms_api;
mod message;
mod permissions;
mod policy;
mod principal;
mod queue;
mod queues;
mod receive;
mod redrive;
mod rng;
mod send;
mod settings;
mod snapshot;
mod statement;
mod throttle;
mod time;
mod timeline;
mod typed;
mod validate;
pub mod workload;

use std::collections::BTreeMap;
use std::sync::Arc;

pub use access::authorised_as;
pub use action::{Action, Grant};
pub use api::*;
pub use decision::{AccessReason, Decision, StatementRef};
pub use error::{echo, ErrorCode, SqsError, SqsResult, MAX_ECHO_CHARS};
pub use events::{Event, EventKind, UnlockCause};
pub use gauges::QueueGauges;
pub use ids::MessageId;
pub use kms::{
    is_key_policy_principal, is_kms_alias, KeyState, KmsKey, DEFAULT_DATA_KEY_REUSE_SECONDS,
    MAX_CACHED_DATA_KEYS, MAX_KMS_ALIASES_PER_KEY, MAX_KMS_KEYS, MAX_KMS_KEY_POLICY_PRINCIPALS,
    SQS_MANAGED_KEY_ALIAS,
};
pub use kms_api::KmsApi;
pub use message::{AttributeValue, MessageAttribute};
pub use policy::{malformed_policy, PolicyMember, PolicyStatement, QueuePolicy};
pub use policy::{MAX_ACTIONS, MAX_POLICY_BYTES, MAX_POLICY_CONDITIONS, MAX_PRINCIPALS};
pub use principal::{Identity, Principal, Service};
pub use receive::{MAX_NUMBER_OF_MESSAGES_RANGE, WAIT_TIME_SECONDS_RANGE};
pub use rng::Rng;
pub use settings::{
    check_attribute_text, invalid_attribute_value, unknown_attribute, AttributeName, DedupScope,
    QueueAttribute, RedriveAllowPolicy, RedrivePermission, RedrivePolicy, Settings,
    ThroughputLimit, MAX_KMS_KEY_ID_CHARS, MAX_REDRIVE_POLICY_BYTES, MAX_VISIBILITY_TIMEOUT,
};
pub use snapshot::{
    body_preview, Counts, GroupSnapshot, KmsRequests, MessagePage, MessageSnapshot, Peek,
    PeekAttribute, QueueCounts, QueueSnapshot, Snapshot, BODY_PREVIEW_BYTES, SNAPSHOT_WINDOW_BYTES,
};
pub use statement::{
    ActionPattern, Condition, ConditionMatch, Effect, Element, Operator, PrincipalPattern,
    ResourcePattern,
};
pub use throttle::{high_throughput_per_second, FIFO_TRANSACTIONS_PER_SECOND};
pub use time::{TimeLimit, MAX_VIRTUAL_MS};
pub use validate::{attribute_base_type, is_caller_name, is_queue_name};

/// Virtual milliseconds since the engine started.
pub type Millis = u64;

/// Teaching knobs that make a standard queue behave like the distributed
/// system it is. All off by default: the default is deterministic and what
/// AWS documents as the contract.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Realism {
    /// Standard-queue short polls sample a subset of the (simulated) servers
    /// and may return fewer messages, or none, while messages exist. Each
    /// visible message is seen with this probability (0 = off).
    pub short_poll_sample_rate: f64,
    /// Probability that a DeleteMessage on a standard queue misses a copy,
    /// so the message is delivered again once its visibility timeout ends.
    pub duplicate_delivery_probability: f64,
    /// Probability that a receive returns fewer messages than it could.
    pub fewer_messages_probability: f64,
    /// SQS's request quotas (throttle.rs): past one, a FIFO queue's call
    /// answers `RequestThrottled`. Standard queues are never throttled.
    pub throttling: bool,
}

impl Realism {
    /// Each knob with its name as a host's option (`realism.<name>`).
    fn knobs(&self) -> [(&'static str, f64); 3] {
        [
            ("shortPollSampleRate", self.short_poll_sample_rate),
            (
                "duplicateDeliveryProbability",
                self.duplicate_delivery_probability,
            ),
            ("fewerMessagesProbability", self.fewer_messages_probability),
        ]
    }

    /// Every knob is a probability, from 0 to 1 (NaN is none);
    /// `Err` names the first that is not, as a host's option.
    pub fn validate(&self) -> Result<(), String> {
        for (name, p) in self.knobs() {
            if !(0.0..=1.0).contains(&p) {
                return Err(format!("realism.{name} must be between 0 and 1, got {p}"));
            }
        }
        Ok(())
    }
}

/// The engine's configuration. Budgets (`max_*`) bound what one engine may
/// hold, so that no caller can exhaust a browser tab's memory: past one,
/// an SQS call answers `OverLimit` naming the budget and its option, and
/// nothing traps. [`Config::validate`] holds every field to its range.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub seed: u64,
    pub region: String,
    pub account_id: String,
    /// Epoch milliseconds that virtual time 0 stands for, used for every
    /// timestamp SQS reports; at most [`MAX_START_EPOCH_MS`].
    pub start_epoch_ms: u64,
    /// How many recent events the log keeps; at most [`MAX_EVENT_CAPACITY`].
    pub event_capacity: usize,
    /// Bytes of stored messages (bodies and attributes, as SQS counts a
    /// message's size) across every queue.
    pub max_stored_bytes: u64,
    /// Messages stored across every queue.
    pub max_stored_messages: u64,
    /// Queues that may exist at once.
    pub max_queues: usize,
    pub realism: Realism,
}

/// The latest `start_epoch_ms`: 9999-12-31T23:59:59.999Z. Every timestamp
/// is `start_epoch_ms` plus virtual time, capped at [`MAX_EPOCH_MS`], so it
/// stays an exact JavaScript integer and a valid `Date`.
pub const MAX_START_EPOCH_MS: u64 = 253_402_300_799_999;

/// The last moment a JavaScript `Date` can name (8.64e15 ms after 1970):
/// timestamps stop there, even in a run that goes on longer.
pub const MAX_EPOCH_MS: u64 = 8_640_000_000_000_000;

/// The largest `event_capacity`. Its log is one ring buffer: a wasm32
/// module cannot make one allocation of 2 GiB or more, and a ring of 2^25
/// events asks for that much, so a capacity of 2^32 − 1 used to trap when
/// its 2^24th event made the buffer grow. A million events is about 100 MB.
pub const MAX_EVENT_CAPACITY: usize = 1_000_000;

/// The longest name of who makes a call, in characters: a scenario's
/// producer or consumer (whose replicas add "-2" to "-20"), or a
/// `dispatch`'s caller. Every event the call
/// causes records the name, so a megabyte-long one, multiplied by a run's
/// events, ran a tab out of memory (a hostile share link did it in 23 s).
/// Queuelab's choice: SQS has no such name; 80 is a queue name's limit.
pub const MAX_CALLER_CHARS: usize = 80;

/// The largest byte budget: a wasm32 module has at most 4 GiB of memory.
pub const MAX_STORED_BYTES: u64 = 4 << 30;
/// The largest message budget (each stored message costs about 232 bytes
/// besides its body: 10 million is over 2 GB).
pub const MAX_STORED_MESSAGES: u64 = 10_000_000;
/// The largest queue budget.
pub const MAX_QUEUES: usize = 1_000_000;

impl Config {
    /// The range of each numeric field, named as a host's option.
    pub const RANGES: [(&'static str, u64, u64); 5] = [
        ("startEpochMs", 0, MAX_START_EPOCH_MS),
        ("eventCapacity", 0, MAX_EVENT_CAPACITY as u64),
        ("maxStoredBytes", 1, MAX_STORED_BYTES),
        ("maxStoredMessages", 1, MAX_STORED_MESSAGES),
        ("maxQueues", 1, MAX_QUEUES as u64),
    ];

    /// "maxQueues must be a whole number from 1 to 1000000, got 0".
    pub fn range_error(option: &str, got: impl std::fmt::Display) -> String {
        let (lo, hi) = Self::RANGES
            .iter()
            .find(|(name, ..)| *name == option)
            .map_or((0, u64::MAX), |(_, lo, hi)| (*lo, *hi));
        format!("{option} must be a whole number from {lo} to {hi}, got {got}")
    }

    /// Checks every field against its range; `Err` names the field as a
    /// host's option (`maxStoredBytes`), its range and the value given.
    pub fn validate(&self) -> Result<(), String> {
        let values = [
            self.start_epoch_ms,
            self.event_capacity as u64,
            self.max_stored_bytes,
            self.max_stored_messages,
            self.max_queues as u64,
        ];
        for ((name, lo, hi), value) in Self::RANGES.iter().zip(values) {
            if !(*lo..=*hi).contains(&value) {
                return Err(Self::range_error(name, value));
            }
        }
        self.realism.validate()
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            seed: 0,
            region: "us-east-1".into(),
            account_id: "000000000000".into(),
            // 2024-01-01T00:00:00Z: a fixed epoch keeps timestamps reproducible.
            start_epoch_ms: 1_704_067_200_000,
            event_capacity: 100_000,
            // 256 MiB of bodies and attributes fits a browser tab beside
            // the engine's own cost per message.
            max_stored_bytes: 256 << 20,
            // About 232 bytes each besides the body: a million messages is
            // about 230 MB, which with the byte budget still fits a tab, and
            // is the depth the benchmark measures (docs/benchmarks.md).
            max_stored_messages: 1_000_000,
            // Twice the clock benchmark's 100,000 queues; an empty queue
            // costs about a kilobyte.
            max_queues: 200_000,
            realism: Realism::default(),
        }
    }
}

/// In-flight messages a queue may hold before receives are refused.
pub const IN_FLIGHT_LIMIT: usize = 120_000;

pub struct Engine {
    config: Config,
    now: Millis,
    rng: rng::Rng,
    /// Keys receipt handles, task handles and request ids.
    secret: u64,
    /// The queues, and the one index of deadlines that drives `advance`.
    queues: timeline::Queues,
    by_name: BTreeMap<Arc<str>, u32>,
    recently_deleted: BTreeMap<String, Millis>,
    next_queue_id: u32,
    log: events::EventLog,
    polls: clock::Polls,
    tasks: redrive::MoveTasks,
    requests: u64,
    /// Every billed call (billing.rs).
    meter: billing::Meter,
    /// This second's transactions, when throttling is on (throttle.rs).
    quotas: throttle::Quotas,
    /// KMS keys for SSE-KMS queues (kms.rs).
    kms: kms::Keys,
    /// Stored messages and bytes across every queue (kept by `queue.rs`).
    storage: Arc<queue::Storage>,
    /// The delivery loop's stack (delivery.rs), kept for its buffer.
    delivery_stack: delivery::Stack,
    /// Queues and polls that `settle` visited (the `scan-count` feature).
    #[cfg(feature = "scan-count")]
    visits: Visits,
}

/// Work counted for tests/scans.rs: queues and polls visited by `settle`
/// (and by a deleted queue's polls being failed).
#[cfg(feature = "scan-count")]
#[derive(Default)]
struct Visits {
    queues: std::cell::Cell<u64>,
    polls: std::cell::Cell<u64>,
}

impl Engine {
    /// An engine with `config`, which its host checked with
    /// [`Config::validate`]; an event capacity past [`MAX_EVENT_CAPACITY`]
    /// is lowered to it all the same, as no log can grow that far.
    pub fn new(mut config: Config) -> Self {
        config.event_capacity = config.event_capacity.min(MAX_EVENT_CAPACITY);
        let mut rng = rng::Rng::new(config.seed);
        let secret = rng.next_u64();
        let kms = kms::Keys::new(&config.region, &config.account_id, secret);
        Engine {
            log: events::EventLog::new(config.event_capacity),
            config,
            now: 0,
            rng,
            secret,
            queues: timeline::Queues::default(),
            by_name: BTreeMap::new(),
            recently_deleted: BTreeMap::new(),
            next_queue_id: 1,
            polls: clock::Polls::default(),
            tasks: redrive::MoveTasks::default(),
            requests: 0,
            meter: billing::Meter::default(),
            quotas: throttle::Quotas::default(),
            kms,
            storage: Arc::default(),
            delivery_stack: delivery::Stack::default(),
            #[cfg(feature = "scan-count")]
            visits: Visits::default(),
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Virtual milliseconds since start.
    pub fn now(&self) -> Millis {
        self.now
    }

    /// Epoch milliseconds of a virtual instant, never past [`MAX_EPOCH_MS`].
    pub fn epoch_ms(&self, at: Millis) -> u64 {
        self.config
            .start_epoch_ms
            .saturating_add(at)
            .min(MAX_EPOCH_MS)
    }

    /// Bytes and messages stored across every queue, counted against
    /// `Config::max_stored_bytes` and `max_stored_messages`.
    pub fn stored(&self) -> (u64, u64) {
        (self.storage.bytes(), self.storage.messages())
    }

    /// Refuses a message of `bytes` that would take storage past a budget:
    /// `OverLimit`, naming the budget and the option that raises it.
    fn check_storage(&self, bytes: u64) -> SqsResult<()> {
        let (stored, count) = self.stored();
        let c = &self.config;
        if count >= c.max_stored_messages {
            return Err(SqsError::new(
                ErrorCode::OverLimit,
                format!(
                    "This playground already stores {count} {}, its budget \
                     (maxStoredMessages = {}). Delete or purge messages, or raise the \
                     maxStoredMessages option.",
                    if count == 1 { "message" } else { "messages" },
                    c.max_stored_messages
                ),
            ));
        }
        if stored.saturating_add(bytes) > c.max_stored_bytes {
            return Err(SqsError::new(
                ErrorCode::OverLimit,
                format!(
                    "This message of {bytes} bytes would take the playground's stored messages \
                     past its budget of {} bytes (maxStoredBytes; {stored} bytes stored now). \
                     Delete or purge messages, or raise the maxStoredBytes option.",
                    c.max_stored_bytes
                ),
            ));
        }
        Ok(())
    }

    /// Events after sequence number `since`, oldest first.
    pub fn events(&self, since: u64) -> impl Iterator<Item = &Event> {
        self.log.since(since)
    }

    pub fn next_event_seq(&self) -> u64 {
        self.log.next_seq()
    }

    /// Messages the queues have handed to operations so far (the
    /// `scan-count` feature, for tests/scans.rs): the difference across a
    /// call is how many messages it looked at.
    #[cfg(feature = "scan-count")]
    pub fn messages_examined(&self) -> u64 {
        self.queues.values().map(|q| q.examined.get()).sum()
    }

    /// FIFO receive attempts (`ReceiveRequestAttemptId`s) looked at so far
    /// (the `scan-count` feature): a lookup drops the expired ones and
    /// finds its own, never walking the others.
    #[cfg(feature = "scan-count")]
    pub fn attempts_examined(&self) -> u64 {
        self.queues
            .values()
            .map(|q| q.attempts.examined.get())
            .sum()
    }

    /// Queues `settle` has visited so far (the `scan-count` feature): a
    /// step of `advance` or a receive must visit only the queues with
    /// something due, never every queue.
    #[cfg(feature = "scan-count")]
    pub fn queues_visited(&self) -> u64 {
        self.visits.queues.get()
    }

    /// Waiting long polls the engine has looked at so far (the `scan-count`
    /// feature): only those whose wait ended, or whose queue was deleted.
    #[cfg(feature = "scan-count")]
    pub fn polls_visited(&self) -> u64 {
        self.visits.polls.get()
    }

    /// A fresh request id (`x-amzn-RequestId`).
    pub fn next_request_id(&mut self) -> String {
        self.requests += 1;
        ids::request_id(self.requests, self.secret)
    }

    fn emit(&mut self, kind: EventKind) {
        self.log.push(self.now, kind);
    }

    fn queue_arn(&self, name: &str) -> String {
        format!(
            "arn:aws:sqs:{}:{}:{name}",
            self.config.region, self.config.account_id
        )
    }

    fn queue_url_for(&self, name: &str) -> String {
        format!(
            "https://sqs.{}.amazonaws.com/{}/{name}",
            self.config.region, self.config.account_id
        )
    }

    /// Resolves a queue URL (any host; the path must be `/<account>/<name>`).
    /// A `QueueUrl`: a URL ending in `<account>/<name>`, or the bare queue
    /// name, which SQS resolves in the caller's account (recorded against
    /// AWS). Anything else is not an address SQS can read.
    /// The requests billed so far (billing.rs).
    pub fn meter(&self) -> &billing::Meter {
        &self.meter
    }

    fn resolve(&self, url: &str) -> SqsResult<u32> {
        let mut parts = url.trim_end_matches('/').rsplit('/');
        let name = parts.next().unwrap_or_default();
        let account = match parts.next() {
            Some(account) => account,
            None if validate::is_queue_name(name) => &self.config.account_id,
            None => {
                return Err(SqsError::new(
                    ErrorCode::InvalidAddress,
                    format!("The address {} is not valid for this endpoint.", echo(url)),
                ))
            }
        };
        if account != self.config.account_id {
            return Err(SqsError::no_queue());
        }
        self.by_name
            .get(name)
            .copied()
            .ok_or_else(SqsError::no_queue)
    }

    fn resolve_arn(&self, arn: &str) -> Option<u32> {
        let name = arn.strip_prefix(&self.queue_arn(""))?;
        self.by_name.get(name).copied()
    }

    fn queue(&self, id: u32) -> &queue::Queue {
        self.queues.get(&id).expect("resolved queue ids exist")
    }

    fn queue_mut(&mut self, id: u32) -> timeline::QueueMut<'_> {
        self.queues.get_mut(&id).expect("resolved queue ids exist")
    }
}
