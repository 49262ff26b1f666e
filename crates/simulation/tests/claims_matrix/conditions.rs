//! A line's or a verdict's declared claims (docs/scenario-format.md,
//! `claims`) evaluated from the log as the oracle reads it, up to the
//! event the words were decided at: the oracle's own reading of each
//! condition, apart from the story's watches (src/teach/story/claims.rs).

use queuelab_simulation::{
    Claim, Count, Kind, LogEvent, Scenario, SimEvent, Trigger, TriggerEvent,
};

use super::facts::{Facts, Happening};

/// A count as this run has it: a number, or a setting "{owner.property}"
/// read from the run's scenario (None: the run has no such setting, and
/// nothing equals it).
pub fn count(c: &Count, s: &Scenario) -> Option<u64> {
    match c {
        Count::Number(n) => Some(*n),
        Count::Setting(text) => {
            let inner = text.strip_prefix('{')?.strip_suffix('}')?;
            let (owner, property) = inner.rsplit_once('.')?;
            match property {
                "maxReceiveCount" => {
                    let q = s.queues.iter().find(|q| q.name == owner)?;
                    q.redrive
                        .as_ref()
                        .and_then(|r| u64::try_from(r.max_receive_count).ok())
                }
                "batchSize" => {
                    let c = s.consumers.iter().find(|c| c.name == owner)?;
                    u64::try_from(c.batch_size).ok()
                }
                _ => None,
            }
        }
    }
}

/// Whether a happening is what trigger `t` names, every filter matching
/// (a count compared with the run's own setting where it names one).
pub fn matches(t: &Trigger, h: &Happening, s: &Scenario) -> bool {
    fn same<T: PartialEq>(want: Option<&T>, got: Option<&T>) -> bool {
        want.is_none_or(|w| got == Some(w))
    }
    let counted = |want: Option<&Count>, got: Option<u64>| {
        want.is_none_or(|w| count(w, s).is_some_and(|n| got == Some(n)))
    };
    let named = |want: Option<&String>| {
        want.is_none_or(|w| h.message.as_ref().is_some_and(|m| m.contains(w.as_str())))
    };
    t.event == h.event
        && same(t.queue.as_ref(), h.queue.as_ref())
        && same(t.consumer.as_ref(), h.consumer.as_ref())
        && same(t.group.as_ref(), h.group.as_ref())
        && counted(t.receive_count.as_ref(), h.receive_count.map(u64::from))
        && counted(t.count.as_ref(), h.count)
        && named(t.message.as_ref())
        && same(t.cause.as_ref(), h.cause.as_ref())
}

/// The run so far: the log up to and including event `upto`.
pub struct SoFar<'a> {
    pub upto: u64,
    pub facts: &'a Facts,
    pub events: &'a [LogEvent],
    pub scenario: &'a Scenario,
}

impl SoFar<'_> {
    fn happened(&self) -> impl Iterator<Item = &Happening> {
        self.facts.happenings.iter().filter(|h| h.seq <= self.upto)
    }

    /// The first moment an event like `t` happened so far.
    fn first(&self, t: &Trigger) -> Option<u64> {
        self.happened()
            .find(|h| matches(t, h, self.scenario))
            .map(|h| h.at)
    }

    fn count_of(&self, event: TriggerEvent) -> usize {
        self.happened().filter(|h| h.event == event).count()
    }

    /// Why `claim` is false so far (None: it holds).
    pub fn fails(&self, claim: &Claim) -> Option<String> {
        use TriggerEvent as T;
        match claim {
            Claim::Happened(t) => self
                .first(t)
                .is_none()
                .then(|| format!("no {t:?} happened")),
            Claim::NotHappened(t) => self.first(t).map(|at| format!("{t:?} happened at {at} ms")),
            Claim::Before { first, then } => match (self.first(first), self.first(then)) {
                (None, _) => Some(format!("no {first:?} happened")),
                (Some(a), Some(b)) if b < a => Some(format!(
                    "{then:?} at {b} ms came before {first:?} at {a} ms"
                )),
                _ => None,
            },
            Claim::ReceiveCount { message, equals } => {
                let latest = (self.happened())
                    .filter(|h| h.event == T::Received)
                    .filter(|h| {
                        h.message
                            .as_ref()
                            .is_some_and(|m| m.contains(message.as_str()))
                    })
                    .last()
                    .and_then(|h| h.receive_count);
                let want = count(equals, self.scenario);
                (want.is_none() || latest.map(u64::from) != want).then(|| {
                    format!("{message}'s latest receive count is {latest:?}, not {want:?}")
                })
            }
            Claim::Quiet { from_ms, to_ms } => {
                let loud = self.events.iter().find(|e| {
                    e.seq <= self.upto && (*from_ms..=*to_ms).contains(&e.time_ms) && !told(&e.kind)
                });
                loud.map(|e| format!("event {} at {} ms: {:?}", e.seq, e.time_ms, e.kind))
            }
            Claim::NoDuplicateDelivery => {
                let n = self.count_of(T::DuplicateDelivery);
                (n > 0).then(|| format!("{n} duplicate deliveries so far"))
            }
            Claim::NoneLost => {
                let n = self.count_of(T::MessageLost)
                    + self.count_of(T::Expired)
                    + self.count_of(T::MovedToDeadLetterQueue);
                (n > 0).then(|| format!("{n} messages lost, expired or dead-lettered so far"))
            }
        }
    }

    /// Why one of `claims` is false so far (None: all hold).
    pub fn any_fails(&self, claims: &[Claim]) -> Option<String> {
        claims.iter().find_map(|c| self.fails(c))
    }
}

/// The story's own words in the log (a line, a withheld line, a
/// checkpoint): not something that happened in the run.
fn told(kind: &Kind) -> bool {
    matches!(
        kind,
        Kind::Simulation(
            SimEvent::Narration { .. }
                | SimEvent::NarrationWithheld { .. }
                | SimEvent::CheckpointAsked { .. }
                | SimEvent::CheckpointAnswered { .. }
        )
    )
}
