//! Claims: what a narration line or a checkpoint's `because` says beyond
//! its trigger, checked against the run when the words would be shown. A
//! claim is never checked by reading the log back: each event a claim
//! names is watched as the run goes (the first moment one matched), as is
//! each message whose receive count a claim quotes and each span a claim
//! says was quiet. So the state is a few numbers per claim, however long
//! the run.

use std::collections::BTreeMap;

use queuelab_engine::Millis;

use super::{Happening, Outcome};
use crate::document::{Claim, Count, Scenario, Trigger, TriggerEvent};
use crate::teach::explain::secs;
use crate::teach::placeholders::fill;

/// A claim made checkable: indexes into [`Claims`]' watches.
#[derive(Clone, Copy)]
enum Check {
    Happened(usize),
    NotHappened(usize),
    Before(usize, usize),
    /// A receive-count watch, and the count (None: a setting the run lacks).
    ReceiveCount(usize, Option<u64>),
    Quiet(usize),
    AtOnce(usize, usize),
    NoDuplicateDelivery,
    NoneLost,
    AllDeleted,
    /// A claim about the run's settings, decided before it starts: why
    /// it is false, if it is (an index into `fixed`).
    Fixed(Option<usize>),
}

/// An event a claim names, and the first moment one matched.
struct Watch {
    trigger: Trigger,
    first: Option<Millis>,
}

/// A quiet span a claim names, and the first moment something happened in it.
struct Span {
    from: Millis,
    to: Millis,
    broken_at: Option<Millis>,
}

/// The claims of a scenario's lines and answers, and what they watch.
#[derive(Default)]
pub(super) struct Claims {
    watches: Vec<Watch>,
    /// Watches not matched yet, by event kind (declaration order).
    pending: BTreeMap<u8, Vec<usize>>,
    /// Messages (body text) whose latest receive count a claim quotes.
    counts: Vec<(String, Option<u32>)>,
    spans: Vec<Span>,
    /// The scenario's own messages sent, and deleted, so far.
    sent: u64,
    deleted: u64,
    /// Why each false claim about the run's settings is false.
    fixed: Vec<String>,
    /// Each line's claims (the document's, for the words, and its checks).
    lines: Vec<Vec<(Claim, Check)>>,
    /// Each checkpoint's choices' claims.
    choices: Vec<Vec<Vec<(Claim, Check)>>>,
    /// Each checkpoint's question's claims.
    questions: Vec<Vec<(Claim, Check)>>,
}

impl Claims {
    /// The claims of `lines` and of each checkpoint's `choices`, their
    /// counts already filled from the run's settings (`resolve`).
    pub(super) fn new<'a>(
        lines: impl Iterator<Item = &'a [Claim]>,
        choices: impl Iterator<Item = Vec<&'a [Claim]>>,
        questions: impl Iterator<Item = &'a [Claim]>,
        scenario: &Scenario,
    ) -> Self {
        let mut claims = Claims::default();
        let lines: Vec<_> = lines.map(|l| claims.compile(l, scenario)).collect();
        let choices: Vec<Vec<_>> = choices
            .map(|c| c.iter().map(|l| claims.compile(l, scenario)).collect())
            .collect();
        let questions: Vec<_> = questions.map(|q| claims.compile(q, scenario)).collect();
        claims.questions = questions;
        claims.lines = lines;
        claims.choices = choices;
        claims
    }

    fn compile(&mut self, list: &[Claim], scenario: &Scenario) -> Vec<(Claim, Check)> {
        list.iter()
            .map(|claim| {
                let check = match claim {
                    Claim::Happened(t) => Check::Happened(self.watch(t)),
                    Claim::NotHappened(t) => Check::NotHappened(self.watch(t)),
                    Claim::Before { first, then } => {
                        Check::Before(self.watch(first), self.watch(then))
                    }
                    Claim::ReceiveCount { message, equals } => {
                        self.counts.push((message.clone(), None));
                        Check::ReceiveCount(self.counts.len() - 1, equals.number())
                    }
                    Claim::Quiet { from_ms, to_ms } => {
                        self.spans.push(Span {
                            from: *from_ms,
                            to: *to_ms,
                            broken_at: None,
                        });
                        Check::Quiet(self.spans.len() - 1)
                    }
                    Claim::AtOnce { first, then } => {
                        Check::AtOnce(self.watch(first), self.watch(then))
                    }
                    Claim::NoDuplicateDelivery => Check::NoDuplicateDelivery,
                    Claim::NoneLost => Check::NoneLost,
                    Claim::AllDeleted => Check::AllDeleted,
                    _ => Check::Fixed(fixed(claim, scenario).map(|why| {
                        self.fixed.push(why);
                        self.fixed.len() - 1
                    })),
                };
                (claim.clone(), check)
            })
            .collect()
    }

    fn watch(&mut self, trigger: &Trigger) -> usize {
        let i = self.watches.len();
        self.watches.push(Watch {
            trigger: trigger.clone(),
            first: None,
        });
        self.pending.entry(trigger.event as u8).or_default().push(i);
        i
    }

    /// Whether any claim needs a message's body (a trigger's `message`).
    pub(super) fn reads_bodies(&self) -> bool {
        !self.counts.is_empty() || self.watches.iter().any(|w| w.trigger.message.is_some())
    }

    /// An event the story's triggers see happened now.
    pub(super) fn saw(&mut self, now: Millis, what: TriggerEvent, h: &Happening) {
        match what {
            TriggerEvent::Sent => self.sent += 1,
            TriggerEvent::Deleted => self.deleted += 1,
            _ => {}
        }
        if what == TriggerEvent::Received {
            for (message, count) in &mut self.counts {
                if h.message.is_some_and(|m| m.contains(message.as_str())) {
                    *count = h.receive_count;
                }
            }
        }
        let Some(pending) = self.pending.get_mut(&(what as u8)) else {
            return;
        };
        let watches = &mut self.watches;
        pending.retain(|&i| {
            let hit = watches[i].trigger.matches(what, h);
            if hit {
                watches[i].first = Some(now);
            }
            !hit
        });
    }

    /// Any event of the run happened now (for the quiet spans).
    pub(super) fn anything(&mut self, now: Millis) {
        for span in &mut self.spans {
            if span.broken_at.is_none() && (span.from..=span.to).contains(&now) {
                span.broken_at = Some(now);
            }
        }
    }

    /// Line `i`'s claims if they are all about the run's settings (known
    /// before it starts): whether they hold. None when some wait for the run.
    pub(super) fn known_before(&self, i: usize) -> Option<bool> {
        let checks = &self.lines[i];
        let fixed = |c: &&(Claim, Check)| matches!(c.1, Check::Fixed(_));
        checks
            .iter()
            .all(|c| fixed(&c))
            .then(|| checks.iter().all(|c| matches!(c.1, Check::Fixed(None))))
    }

    /// Whether line `i`'s claims hold now: `Err` says which does not, in words.
    pub(super) fn line(&self, i: usize, outcome: &Outcome) -> Result<(), String> {
        self.hold(&self.lines[i], outcome)
    }

    /// Whether checkpoint `i`'s question makes claims that hold now.
    pub(super) fn question(&self, i: usize, outcome: &Outcome) -> Result<(), String> {
        self.hold(&self.questions[i], outcome)
    }

    /// Whether choice `j` of checkpoint `i` makes claims that hold now.
    pub(super) fn choice(&self, i: usize, j: usize, outcome: &Outcome) -> Result<(), String> {
        self.hold(&self.choices[i][j], outcome)
    }

    fn hold(&self, list: &[(Claim, Check)], outcome: &Outcome) -> Result<(), String> {
        for (claim, check) in list {
            if let Some(why) = self.fails(claim, *check, outcome) {
                return Err(why);
            }
        }
        Ok(())
    }

    /// Why `check` does not hold now, or None when it does.
    fn fails(&self, claim: &Claim, check: Check, outcome: &Outcome) -> Option<String> {
        let first = |w: usize| self.watches[w].first;
        let event = |w: usize| said(&self.watches[w].trigger);
        match check {
            Check::Happened(w) => first(w)
                .is_none()
                .then(|| format!("it says a {} happened, and none has", event(w))),
            Check::NotHappened(w) => first(w).map(|at| {
                format!(
                    "it says no {} happened, but one did at {}",
                    event(w),
                    secs(at)
                )
            }),
            Check::Before(a, b) => match (first(a), first(b)) {
                (None, _) => Some(format!("it says a {} happened, and none has", event(a))),
                (Some(at), Some(then)) if then < at => Some(format!(
                    "it says a {} came first, but a {} came before it, at {}",
                    event(a),
                    event(b),
                    secs(then)
                )),
                _ => None,
            },
            Check::ReceiveCount(c, equals) => {
                let (message, got) = &self.counts[c];
                let got = got.map(u64::from);
                (equals.is_none() || got != equals).then(|| {
                    let Claim::ReceiveCount { equals: want, .. } = claim else {
                        return String::new();
                    };
                    let want = match (want, equals) {
                        (_, Some(n)) => n.to_string(),
                        (Count::Setting(s), None) => format!("{s}, which this run does not set"),
                        (Count::Number(n), None) => n.to_string(),
                    };
                    match got {
                        Some(n) => {
                            format!("it says {message}'s receive count is {want}; it is {n}")
                        }
                        None => format!(
                            "it says {message}'s receive count is {want}; it was never received"
                        ),
                    }
                })
            }
            Check::Quiet(s) => {
                let span = &self.spans[s];
                span.broken_at.map(|at| {
                    format!(
                        "it says nothing happened from {} to {}, but something did at {}",
                        secs(span.from),
                        secs(span.to),
                        secs(at)
                    )
                })
            }
            Check::AtOnce(a, b) => match (first(a), first(b)) {
                (Some(at), Some(then)) if at == then => None,
                (None, _) => Some(format!("it says a {} happened, and none has", event(a))),
                (Some(at), then) => Some(format!(
                    "it says a {} came at once after a {} (at {}), but {}",
                    event(b),
                    event(a),
                    secs(at),
                    then.map_or("none has".to_string(), |t| format!(
                        "it came at {}",
                        secs(t)
                    ))
                )),
            },
            Check::AllDeleted => (self.deleted < self.sent).then(|| {
                format!(
                    "it says every message sent was deleted, but {} of {} were not",
                    self.sent - self.deleted,
                    self.sent
                )
            }),
            Check::Fixed(why) => why.map(|i| self.fixed[i].clone()),
            Check::NoDuplicateDelivery => (outcome.duplicate_deliveries > 0)
                .then(|| "it says no message was delivered twice at once, but one was".to_string()),
            Check::NoneLost => (outcome.lost + outcome.expired + outcome.dead_lettered > 0)
                .then(|| "it says no message was lost, but one was".to_string()),
        }
    }
}

/// Why a claim about the run's settings (a consumer's behaviour, a
/// setting's words) is false for `scenario`, or None when it holds.
fn fixed(claim: &Claim, scenario: &Scenario) -> Option<String> {
    let behaves = |consumer: &str, is: &str| {
        let c = scenario.consumers.iter().find(|c| c.name == consumer);
        c.and_then(|c| crate::behaviours::asks_for(&c.behaviour, is))
            .unwrap_or(false)
    };
    let reads = |value: &str| fill(value, scenario).unwrap_or_default();
    match claim {
        Claim::Behaviour { consumer, is } => (!behaves(consumer, is))
            .then(|| format!("it says {consumer} runs with {is}, and in this run it does not")),
        Claim::NoBehaviour { consumer, is } => behaves(consumer, is)
            .then(|| format!("it says {consumer} runs without {is}, and in this run it does not")),
        Claim::SettingIs { value, is } => {
            let got = reads(value);
            (got != *is).then(|| format!("it says {value} is {is}; in this run it is {got}"))
        }
        Claim::SettingIsNot { value, is } => {
            (reads(value) == *is).then(|| format!("it says {value} is not {is}; in this run it is"))
        }
        _ => None,
    }
}

/// A trigger in words: "deleted event (message A-1, by worker-2)".
fn said(t: &Trigger) -> String {
    let name = camel(&format!("{:?}", t.event));
    let count = |c: &Count| match c {
        Count::Number(n) => n.to_string(),
        Count::Setting(s) => s.clone(),
    };
    let filters: Vec<String> = [
        t.message.as_ref().map(|m| format!("message {m}")),
        t.consumer.as_ref().map(|c| format!("by {c}")),
        t.queue.as_ref().map(|q| format!("on {q}")),
        t.group.as_ref().map(|g| format!("group {g}")),
        t.receive_count
            .as_ref()
            .map(|c| format!("receive #{}", count(c))),
        t.count.as_ref().map(|c| format!("count {}", count(c))),
        t.cause
            .map(|c| format!("cause {}", camel(&format!("{c:?}")))),
        t.code.as_ref().map(|c| format!("code {c}")),
        t.result.as_ref().map(|r| format!("result {r}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    match filters.is_empty() {
        true => format!("{name} event"),
        false => format!("{name} event ({})", filters.join(", ")),
    }
}

/// A variant's name as the file writes it: "GroupUnlocked" as "groupUnlocked".
fn camel(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_ascii_lowercase().to_string() + chars.as_str()
    })
}
