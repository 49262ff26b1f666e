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
                "batchSize" => match s.consumers.iter().find(|c| c.name == owner) {
                    Some(c) => u64::try_from(c.batch_size).ok(),
                    None => {
                        let f = s.lambdas.iter().find(|f| f.name == owner)?;
                        u64::try_from(f.batch_size).ok()
                    }
                },
                "maximumConcurrency" => {
                    let f = s.lambdas.iter().find(|f| f.name == owner)?;
                    u64::try_from(f.maximum_concurrency?).ok()
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
        && same(t.code.as_ref(), h.code.as_ref())
        && same(t.result.as_ref(), h.result.as_ref())
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
            Claim::AtOnce { first, then } => match (self.first(first), self.first(then)) {
                (Some(a), Some(b)) if a == b => None,
                (a, b) => Some(format!(
                    "{first:?} first at {a:?} ms, {then:?} first at {b:?} ms"
                )),
            },
            Claim::AllDeleted => {
                let (sent, deleted) = (self.count_of(T::Sent), self.count_of(T::Deleted));
                (deleted < sent).then(|| {
                    format!(
                        "{} of {sent} messages sent were not deleted",
                        sent - deleted
                    )
                })
            }
            Claim::Behaviour { consumer, is } => {
                (!self.behaves(consumer, is)).then(|| format!("{consumer} does not run with {is}"))
            }
            Claim::NoBehaviour { consumer, is } => self
                .behaves(consumer, is)
                .then(|| format!("{consumer} runs with {is}")),
            Claim::SettingIs { value, is } => match setting(value, self.scenario) {
                Some(got) if Some(got) == said(is) => None,
                got => Some(format!("{value} is {got:?}, not {is}")),
            },
            Claim::SettingIsNot { value, is } => match setting(value, self.scenario) {
                Some(got) if Some(got) != said(is) => None,
                got => Some(format!("{value} is {got:?}, which is {is}")),
            },
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

    /// Whether `consumer` runs with the behaviour of that registry name,
    /// read from its fields as docs/scenario-format.md describes them.
    fn behaves(&self, consumer: &str, is: &str) -> bool {
        let Some(c) = self.scenario.consumers.iter().find(|c| c.name == consumer) else {
            return false;
        };
        let b = &c.behaviour;
        match is {
            "idempotent" => b.idempotent,
            "heartbeat" => b.heartbeat_every_ms.is_some(),
            "poison" => !b.fails_on.is_empty(),
            "failEveryNth" => b.fails_every_nth.is_some(),
            "crashBeforeSideEffect" => !b.crashes_before_side_effect_on.is_empty(),
            "crashAfterSideEffect" => !b.crashes_after_side_effect_on.is_empty(),
            "deleteFirst" => b.deletes_before_processing,
            "failsDuring" => b.fails_during_ms.is_some(),
            "retryAfterFailure" => b.retry_immediately || b.retry_backoff.is_some(),
            _ => false,
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
    // An alarm's change is CloudWatch's, not something SQS or a worker did.
    matches!(
        kind,
        Kind::Simulation(
            SimEvent::Narration { .. }
                | SimEvent::NarrationWithheld { .. }
                | SimEvent::CheckpointAsked { .. }
                | SimEvent::CheckpointAnswered { .. }
                | SimEvent::AlarmChanged { .. }
        )
    )
}

/// A setting a claim quotes ("{worker-1.waitTime}"), in milliseconds (a
/// time) or as a count, read from the run's scenario with SQS's defaults;
/// None for a property this oracle does not read (the claim is then false,
/// so that a new kind of setting gets its reader).
fn setting(value: &str, s: &Scenario) -> Option<u64> {
    let (owner, property) = value
        .strip_prefix('{')?
        .strip_suffix('}')?
        .rsplit_once('.')?;
    let seconds =
        |v: Option<i64>, default: u64| Some(v.map_or(default, |v| v.max(0) as u64) * 1000);
    if let Some(q) = s.queues.iter().find(|q| q.name == owner) {
        return match property {
            "visibilityTimeout" => seconds(q.visibility_timeout_seconds, 30),
            "delay" => seconds(q.delay_seconds, 0),
            "retention" => seconds(q.message_retention_period_seconds, 345_600),
            "receiveWaitTime" => seconds(q.receive_message_wait_time_seconds, 0),
            "maxReceiveCount" => q
                .redrive
                .as_ref()
                .and_then(|r| u64::try_from(r.max_receive_count).ok()),
            _ => None,
        };
    }
    let c = s.consumers.iter().find(|c| c.name == owner)?;
    match property {
        "waitTime" => seconds(Some(c.wait_time_seconds), 0),
        "pollInterval" => Some(c.poll_interval_ms),
        "batchSize" => u64::try_from(c.batch_size).ok(),
        _ => None,
    }
}

/// A setting's words as a claim writes them ("0 s", "2.5 s", "3"): in
/// milliseconds for a time, else the count.
fn said(words: &str) -> Option<u64> {
    match words.strip_suffix(" s") {
        Some(secs) => secs
            .parse::<f64>()
            .ok()
            .map(|n| (n * 1000.0).round() as u64),
        None => words.parse().ok(),
    }
}
