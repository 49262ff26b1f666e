//! Observers: what watches a run's log without acting in it. The story
//! (narration lines, checkpoints, explanations, the outcome) and a lab's
//! goal watch are observers, and so will metrics be. The simulation hands
//! every event to each registered observer once, in log order (the
//! engine's SQS events as they happened, then its own), tells them when
//! time reached a moment, and logs the events they have to tell; it never
//! calls into one by its type. `observers.rs` is the one list of them.

use std::any::Any;
use std::collections::BTreeMap;

use queuelab_engine::billing::Meter;
use queuelab_engine::{EventKind, Millis};

use crate::log::SimEvent;
use crate::{Retained, SimulationSnapshot};

/// One event of the run's log, as an observer sees it.
pub(crate) enum Seen<'a> {
    /// One of the engine's SQS events.
    Sqs(&'a EventKind),
    /// One of the simulation's own events (workers, producers, alarms).
    Sim(&'a SimEvent),
}

/// A scenario producer's send, stored: its whole body and attributes,
/// which the engine's `sent` event does not carry (a lab's poison
/// patterns and `orderKeptPer` read them).
pub(crate) struct Produced<'a> {
    pub(crate) message_id: &'a str,
    pub(crate) queue: &'a str,
    pub(crate) body: &'a str,
    pub(crate) attributes: &'a BTreeMap<String, String>,
    /// Its MessageGroupId, if it was sent with one.
    pub(crate) group: Option<&'a str>,
    /// The message it sends again (a worker re-delaying one not yet due):
    /// the same message to whoever follows it, under a new id.
    pub(crate) again_of: Option<&'a str>,
}

/// The moment time reached, after its events so far.
pub(crate) struct Moment<'a> {
    pub(crate) now: Millis,
    /// The run reached its end (`durationMs`).
    pub(crate) ended: bool,
    /// The engine's billing meter (requests and their cost so far).
    pub(crate) meter: &'a Meter,
    /// The engine, read only: what a goal judges of the queues at the
    /// end (a policy, as SQS evaluates it; a queue's encryption).
    pub(crate) engine: &'a queuelab_engine::Engine,
    /// Every message handled had exactly n side effects (the ledger's).
    pub(crate) each_exactly: &'a dyn Fn(u64) -> bool,
}

pub(crate) trait Observer: Any {
    /// One event of the log, at `now`, in log order.
    fn observe(&mut self, now: Millis, event: Seen<'_>);

    /// Time reached `moment` (what waits only for time is judged here).
    fn reach(&mut self, _moment: &Moment<'_>) {}

    /// The events it has to tell since the last call, in order; the
    /// simulation logs them.
    fn take_events(&mut self, _now: Millis) -> Vec<SimEvent> {
        Vec::new()
    }

    /// The next moment it must be told about (`reach`), if any.
    fn next_moment(&self, _duration: Millis) -> Option<Millis> {
        None
    }

    /// Its work known now that falls by `until`, in the estimate's units
    /// (`work.rs`): a narration line, a metrics step's reads, one each.
    fn moments_until(&self, _until: Millis) -> u64 {
        0
    }

    /// Whether it reads producers' whole bodies ([`Self::produced`]):
    /// otherwise the simulation does not copy them.
    fn wants_sends(&self) -> bool {
        false
    }

    /// A scenario producer's message was stored (right after the send).
    fn produced(&mut self, _now: Millis, _send: &Produced<'_>) {}

    /// A message left the engine for good and no worker holds it.
    fn forget(&mut self, _message_id: &str) {}

    /// Its part of the simulation's snapshot.
    fn fill_snapshot(&self, _now: Millis, _snapshot: &mut SimulationSnapshot) {}

    /// Its per-message records, counted into `retained`.
    fn count_retained(&self, _retained: &mut Retained) {}
}

/// The registered observer of type `T`, if any.
pub(crate) fn find<T: Observer>(observers: &[Box<dyn Observer>]) -> Option<&T> {
    observers
        .iter()
        .find_map(|o| (&**o as &dyn Any).downcast_ref::<T>())
}

/// The registered observer of type `T`, if any, to change: a call of a
/// service the observer keeps (CloudWatch's API over its metrics).
pub(crate) fn find_mut<T: Observer>(observers: &mut [Box<dyn Observer>]) -> Option<&mut T> {
    observers
        .iter_mut()
        .find_map(|o| (&mut **o as &mut dyn Any).downcast_mut::<T>())
}
