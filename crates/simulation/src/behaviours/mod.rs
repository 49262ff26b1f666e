//! Worker behaviours: what a consumer's handler does besides the plain
//! receive -> process -> delete loop. Each is a small state machine in its
//! own file: it sees [`Observation`]s of its worker's loop and answers with
//! [`Command`]s; it never calls the engine (`commands.rs` does that, and
//! `worker.rs` runs the loop that asks).
//!
//! A new behaviour is one file here (its constructor and its words on a
//! worker's card) plus its line in [`REGISTRY`] (and the `mod` line
//! below); its scenario field is on `scenario::Behaviour`, with its row in
//! the vocabulary (`scenario/vocabulary.rs`: its label and unit), and
//! `web/scenarios/scenario.schema.json` and `docs/scenario-format.md`
//! describe it.

mod crash_after_side_effect;
mod crash_before_side_effect;
mod delete_first;
mod fail_every_nth;
mod heartbeat;
mod idempotent;
mod naive;
mod outage;
mod poison;
mod redelay;
mod retry;

use crate::numbers::ordinal;
use crate::scenario::Behaviour as Spec;
use crate::scenario::{quoted_list, span};
use crate::teach::explain::secs;
use queuelab_engine::Millis;

/// A message a worker holds, from its receive until it is done with it.
#[derive(Clone, Debug)]
pub struct Held {
    pub message_id: String,
    pub body: String,
    pub handle: String,
    pub receive_count: u32,
    /// The handler failed on it: it is not deleted and comes back.
    pub failed: bool,
    /// Deleted already (deletes-before-processing).
    pub deleted: bool,
    /// The guide's pointer it came with (a `PayloadLocation`): the object
    /// a delete with the message deletes. The extended client's pointer is
    /// in its receipt handle instead.
    pub payload: Option<crate::payload::Location>,
    /// It pointed at an object that is not there (GetObject: NoSuchKey):
    /// its processing fails.
    pub payload_missing: bool,
    /// Its message attributes, when its worker asks for them (a behaviour
    /// that reads one: `redelayUntil`).
    pub attributes: Vec<queuelab_engine::MessageAttribute>,
}

/// What a worker's loop tells its behaviours.
pub enum Observation<'a> {
    /// A receive returned this batch; processing starts next.
    Received { batch: &'a [Held] },
    /// Processing of a message started.
    Started,
    /// The heartbeat timer asked for with [`Command::Heartbeat`] is due.
    HeartbeatDue,
    /// The handler's time on `message` is over (at `now`, the wall clock's
    /// `epoch_ms`), before its side effect.
    Handled {
        message: &'a Held,
        now: Millis,
        epoch_ms: Millis,
    },
    /// The handler failed on `batch[current]` (`message`): it was not deleted.
    Failed { message: &'a Held, current: usize },
    /// The side effect on `batch[current]` happened (or was skipped).
    SideEffectDone { message: &'a Held, current: usize },
    /// Every message of the batch has been handled.
    BatchDone,
}

/// What a behaviour asks its worker to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// DeleteMessage of `batch[index]`.
    Delete { index: usize },
    /// ChangeMessageVisibility of every message still held, to `seconds`
    /// (`None`: the queue's visibility timeout).
    ExtendVisibility { seconds: Option<i64> },
    /// Be told [`Observation::HeartbeatDue`] every `every_ms` while processing.
    Heartbeat { every_ms: Millis },
    /// The handler fails on the current message: no side effect, no delete.
    Fail,
    /// ChangeMessageVisibility of `batch[index]` to `seconds`.
    ChangeVisibility { index: usize, seconds: i64 },
    /// The worker crashes on the current message and restarts after `restart_ms`.
    Crash {
        before_side_effect: bool,
        restart_ms: Millis,
    },
    /// Not due yet: send the message again with this DelaySeconds and
    /// delete it, instead of handling it.
    Redelay { seconds: i64 },
    /// Perform the side effect only if no idempotent handler recorded the
    /// message yet (a shared table of processed ids).
    SideEffectOnce,
}

/// One behaviour's state machine.
pub trait WorkerBehaviour {
    fn observe(&mut self, observation: &Observation) -> Vec<Command>;
}

/// Builds a behaviour from a consumer's `behaviour` object: `Ok(None)` when
/// the object does not ask for it, `Err` naming the field when it is invalid.
pub type Constructor = fn(&Spec) -> Result<Option<Box<dyn WorkerBehaviour>>, String>;

/// What a worker's card says of a behaviour its `behaviour` object asks
/// for ("fails every 3rd message"), or None when it does not ask for it.
pub type Words = fn(&Spec) -> Option<String>;

/// Every behaviour, by name, with its constructor and its words.
pub const REGISTRY: &[(&str, Constructor, Words)] = &[
    ("naive", naive::new, naive::words),
    ("idempotent", idempotent::new, idempotent::words),
    ("heartbeat", heartbeat::new, heartbeat::words),
    ("poison", poison::new, poison::words),
    ("failEveryNth", fail_every_nth::new, fail_every_nth::words),
    (
        "crashBeforeSideEffect",
        crash_before_side_effect::new,
        crash_before_side_effect::words,
    ),
    (
        "crashAfterSideEffect",
        crash_after_side_effect::new,
        crash_after_side_effect::words,
    ),
    ("deleteFirst", delete_first::new, delete_first::words),
    ("failsDuring", outage::new, outage::words),
    ("retryAfterFailure", retry::new, retry::words),
    ("redelayUntil", redelay::new, redelay::words),
];

/// The names of every worker behaviour, in registry order (for hosts that
/// list them, such as the page).
pub fn behaviour_names() -> Vec<&'static str> {
    REGISTRY.iter().map(|(name, ..)| *name).collect()
}

/// Whether `spec` asks for the behaviour named `name` (None: no
/// behaviour has that name, or it is the base one every worker has).
pub(crate) fn asks_for(spec: &Spec, name: &str) -> Option<bool> {
    let (.., words) = REGISTRY
        .iter()
        .find(|(n, ..)| *n == name && *n != "naive")?;
    Some(words(spec).is_some())
}

/// What a worker's card says of its behaviours, in registry order.
pub(crate) fn words(spec: &Spec) -> Vec<String> {
    REGISTRY
        .iter()
        .filter_map(|(.., words)| words(spec))
        .collect()
}

/// The behaviours a consumer's `behaviour` object asks for.
pub(crate) fn build(spec: &Spec) -> Result<Vec<Box<dyn WorkerBehaviour>>, String> {
    let mut out = Vec::new();
    for (_, constructor, _) in REGISTRY {
        out.extend(constructor(spec)?);
    }
    Ok(out)
}

/// Whether a body contains any of the patterns.
fn matches(patterns: &[String], body: &str) -> bool {
    patterns.iter().any(|p| body.contains(p.as_str()))
}
