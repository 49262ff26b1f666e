//! The story of a run: which narration lines apply, decided from what
//! happened. Every event of the run (the engine's SQS events and the
//! simulation's own) passes through [`Story::observe`] once, in log order;
//! it keeps the few facts triggers need (who holds a message, which
//! receives are not yet acted on) and the run's tallies for the outcome,
//! and marks the lines whose trigger matched. The lines' text is logged by
//! the simulation as `narration` events, so the same seed tells the same
//! story, and a line whose trigger never happens is never shown.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use queuelab_engine::Millis;
use serde::Serialize;

use self::checkpoints::Asked;
use self::claims::Claims;
use super::explain;
use crate::document::{
    Checkpoint, Count, EndCondition, Narration, Scenario, Trigger, TriggerEvent, UnlockCause,
};
use crate::log::SimEvent;
use crate::log::SimEvent as Told;
use crate::observer::{Moment, Observer, Seen};
use crate::{Retained, Simulation, SimulationSnapshot};

mod checkpoints;
mod claims;
mod events;
mod lambda_and_alarms;
mod returned;

/// What the run did, counted from its events: the end-of-run recap.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    /// Receives of a message another worker still held.
    pub duplicate_deliveries: u64,
    /// Work lost: deleted before processing, then the worker failed.
    pub lost: u64,
    /// Messages whose retention period ended before anyone deleted them.
    pub expired: u64,
    /// Messages moved to a dead-letter queue.
    pub dead_lettered: u64,
    /// Receives that returned no message.
    pub empty_receives: u64,
    /// The longest a message waited between being sent (or its delay
    /// ending) and its first receive, or until now if it is still waiting.
    pub longest_wait_ms: Millis,
    /// The body of the message that waited longest (its label).
    pub longest_wait_label: Option<String>,
    /// The requests the run was billed and their cost (the engine's meter).
    pub bill: crate::Bill,
    /// Queues created and deleted while the run went (a requester's reply
    /// queues; the scenario's own, made at time 0, are not counted).
    pub queues_created: u64,
    pub queues_deleted: u64,
    /// Requesters' replies matched to their requests (`repliesLate` of
    /// them after the wait had ended), waits that ended with no reply,
    /// and replies lost because their reply queue was gone.
    pub replies_matched: u64,
    pub replies_late: u64,
    pub reply_waits_ended: u64,
    pub replies_lost: u64,
}

/// One event, as triggers see it: its kind and what it names.
#[derive(Default)]
struct Happening<'a> {
    /// About a message someone other than the scenario's producers sent
    /// (the learner's): authored lines, written about the scenario's own
    /// messages, never fire for it.
    learners: bool,
    queue: Option<&'a str>,
    consumer: Option<&'a str>,
    group: Option<&'a str>,
    receive_count: Option<u32>,
    count: Option<u64>,
    /// The message's body (its label), when a trigger or claim reads bodies.
    message: Option<&'a str>,
    /// `groupUnlocked`: how the head left flight (the engine's word).
    cause: Option<UnlockCause>,
    /// `callFailed`: the error code SQS answered.
    code: Option<&'a str>,
    /// `lambdaReturned`: the invocation's result; `alarmChanged`: the new state.
    result: Option<&'a str>,
}

impl Trigger {
    /// Whether every filter this trigger gives matches what happened. A
    /// count still a setting after `Story::new` (one the run lacks) never
    /// matches.
    fn matches(&self, what: TriggerEvent, h: &Happening) -> bool {
        fn same<T: PartialEq + ?Sized>(want: Option<&T>, got: Option<&T>) -> bool {
            want.is_none_or(|w| got == Some(w))
        }
        fn count(want: Option<&Count>, got: Option<u64>) -> bool {
            want.is_none_or(|w| w.number().is_some() && w.number() == got)
        }
        let body = |m: &String| h.message.is_some_and(|b| b.contains(m.as_str()));
        self.event == what
            && same(self.queue.as_deref(), h.queue)
            && same(self.consumer.as_deref(), h.consumer)
            && same(self.group.as_deref(), h.group)
            && count(self.receive_count.as_ref(), h.receive_count.map(u64::from))
            && count(self.count.as_ref(), h.count)
            && self.message.as_ref().is_none_or(body)
            && same(self.cause.as_ref(), h.cause.as_ref())
            && same(self.code.as_deref(), h.code)
            && same(self.result.as_deref(), h.result)
    }
}

/// The latest receive of a message.
struct Receipt {
    queue: Arc<str>,
    by: Option<Arc<str>>,
    receive_count: u32,
    visible_at: Millis,
    /// The visibility timeout it was received with, or the one the
    /// latest ChangeMessageVisibility set.
    timeout_ms: Millis,
    /// `timeout_ms` was set by ChangeMessageVisibility, not the receive.
    changed: bool,
}

/// A message not received yet: where, since when, and its label.
struct Waiting {
    queue: Arc<str>,
    since: Millis,
    label: String,
}

/// A queue's latest receive: who (None: a caller without a name), which
/// message, when.
struct LastReceive {
    by: Option<Arc<str>>,
    id: String,
    at: Millis,
}

pub(crate) struct Story {
    lines: Vec<Narration>,
    checkpoints: Vec<Checkpoint>,
    /// Each checkpoint's progress.
    asked: Vec<Asked>,
    /// Checkpoint events (asked, answered) not yet logged, in order.
    told: Vec<Told>,
    /// The scenario's producers: a message any other sender sent is the learner's.
    producers: BTreeSet<String>,
    /// The scenario's own queues, made at time 0 (not counted as created).
    own_queues: BTreeSet<String>,
    /// Stored messages the learner sent.
    learners: BTreeSet<String>,
    /// Stored FIFO messages' groups (a `received` trigger may name one).
    groups: BTreeMap<String, Arc<str>>,
    /// Checkpoints whose `when` event has happened (at or after `atMs`).
    checkpoint_events: BTreeSet<usize>,
    shown: Vec<bool>,
    /// Lines waiting for an event, by the kind of event they wait for.
    by_event: BTreeMap<TriggerEventKey, Vec<usize>>,
    /// Lines that wait only for time (and perhaps another line), in time order.
    timed: Vec<usize>,
    next_timed: usize,
    /// Timed lines whose moment came before the line they follow was shown.
    deferred: Vec<usize>,
    /// `atEnd` lines, shown (or dropped) once the run reaches its end.
    at_end: Vec<usize>,
    ids: BTreeMap<String, usize>,
    /// `atEnd` lines whose `when` event has happened.
    happened_for_end: BTreeSet<usize>,
    /// Lines matched (or withheld), in order, not yet logged.
    due: Vec<SimEvent>,
    /// The lines' and answers' claims, and what they watch.
    claims: Claims,
    /// Some trigger or claim names a message by its body: events carry it.
    reads_bodies: bool,
    receipts: BTreeMap<String, Receipt>,
    /// (consumer, message): received, and the work not done yet.
    unprocessed: BTreeSet<(Arc<str>, String)>,
    /// Messages deleted before their work, whose work is not done yet.
    in_work: BTreeSet<String>,
    /// (consumer, message): purged while the consumer held it, its work
    /// not done yet.
    purged_held: BTreeSet<(Arc<str>, String)>,
    waiting: BTreeMap<String, Waiting>,
    /// The same messages in the order they began waiting: the first has
    /// waited longest, so the outcome never scans them all.
    waiting_since: BTreeSet<(Millis, String)>,
    empty_by: BTreeMap<Arc<str>, u64>,
    /// Each queue's KMS requests so far (SSE-KMS), as its card counts them.
    kms_by_queue: BTreeMap<Arc<str>, u64>,
    pub(crate) outcome: Outcome,
    /// Stored messages' labels and when they were sent, for explanations.
    labels: BTreeMap<String, (String, Millis)>,
    /// Each consumer's WaitTimeSeconds, to tell a short poll from a long one.
    waits: BTreeMap<String, i64>,
    /// The scenario's own workers (consumers and functions): only of these
    /// does the story know whether one is still working on a message.
    workers: BTreeSet<String>,
    /// The label of the message received last (a group lock follows it).
    last_received: String,
    /// Each queue's latest receive: who, which message, when (why a
    /// receive of yours came back empty, `Simulation::why_empty`).
    last_receives: BTreeMap<Arc<str>, LastReceive>,
    /// Each queue's redrive: its dead-letter queue and maxReceiveCount.
    redrives: BTreeMap<String, (String, i64)>,
    /// Why the last message left flight (a group unlock follows it).
    last_release: String,
    /// Messages whose holder stopped working on them without deleting
    /// them (crashed, or its handler failed): what happened.
    /// (Each by the worker that did it: a stale copy's crash is not the
    /// holder's.)
    abandoned: BTreeMap<String, (Arc<str>, String)>,
    /// The latest explanation, with its moment.
    explanation: Option<(Millis, String)>,
    /// When an authored line was last shown.
    last_line_at: Option<Millis>,
}

/// `TriggerEvent` as a map key (its declaration order).
type TriggerEventKey = u8;

impl Story {
    /// The story of `scenario`: its lines and checkpoints, their
    /// `{placeholders}` filled from the scenario as it runs (validated
    /// already; a text that cannot be filled keeps its placeholders).
    pub(crate) fn new(scenario: &Scenario) -> Self {
        let (lines, checkpoints) = Story::filled(scenario);
        // Filled by inserts, not `collect`: collecting into a B-tree sorts
        // first, a sort compiled for each element type (wasm size).
        let mut waits = BTreeMap::new();
        let mut producers = BTreeSet::new();
        let mut workers = BTreeSet::new();
        for c in &scenario.consumers {
            waits.insert(c.name.clone(), c.wait_time_seconds);
            // A consumer with replicas works as worker-1, worker-2, …
            workers.extend(crate::worker_names(c));
            // A worker that re-delays sends the scenario's own messages again.
            if c.behaviour.redelay_until.is_some() {
                producers.extend(crate::worker_names(c));
            }
        }
        for f in &scenario.lambdas {
            workers.insert(f.name.clone());
        }
        // Topics and buckets send the scenario's own messages too.
        let neighbours = (scenario.topics.iter().map(|t| t.name.as_str()))
            .chain(scenario.buckets.iter().map(|b| b.name.as_str()));
        for name in scenario.senders().chain(neighbours) {
            producers.insert(name.to_owned());
        }
        let claims = Claims::new(
            lines.iter().map(|l| &l.claims[..]),
            (checkpoints.iter()).map(|c| c.choices.iter().map(|ch| &ch.claims[..]).collect()),
            checkpoints.iter().map(|c| &c.claims[..]),
            scenario,
        );
        let message_filter = |t: &Option<Trigger>| t.as_ref().is_some_and(|t| t.message.is_some());
        let reads_bodies = claims.reads_bodies()
            || lines.iter().any(|l| message_filter(&l.when))
            || checkpoints.iter().any(|c| {
                message_filter(&c.when) || c.choices.iter().any(|ch| message_filter(&ch.when))
            });
        let mut story = Story {
            shown: vec![false; lines.len()],
            asked: vec![Asked::Not; checkpoints.len()],
            checkpoints,
            told: Vec::new(),
            producers,
            own_queues: BTreeSet::new(),
            learners: BTreeSet::new(),
            groups: BTreeMap::new(),
            checkpoint_events: BTreeSet::new(),
            by_event: BTreeMap::new(),
            timed: Vec::new(),
            next_timed: 0,
            deferred: Vec::new(),
            at_end: Vec::new(),
            ids: BTreeMap::new(),
            due: Vec::new(),
            claims,
            reads_bodies,
            happened_for_end: BTreeSet::new(),
            receipts: BTreeMap::new(),
            unprocessed: BTreeSet::new(),
            in_work: BTreeSet::new(),
            purged_held: BTreeSet::new(),
            waiting: BTreeMap::new(),
            waiting_since: BTreeSet::new(),
            empty_by: BTreeMap::new(),
            kms_by_queue: BTreeMap::new(),
            outcome: Outcome::default(),
            labels: BTreeMap::new(),
            waits,
            workers,
            last_received: String::new(),
            last_receives: BTreeMap::new(),
            last_release: String::new(),
            redrives: Story::redrives(scenario),
            abandoned: BTreeMap::new(),
            explanation: None,
            last_line_at: None,
            lines,
        };
        for q in &scenario.queues {
            story.own_queues.insert(q.name.clone());
        }
        for (i, line) in story.lines.iter().enumerate() {
            if let Some(id) = &line.id {
                story.ids.entry(id.clone()).or_insert(i);
            }
            if let Some(t) = &line.when {
                story.by_event.entry(t.event as u8).or_default().push(i);
            }
            match (&line.when, &line.at_end) {
                (_, Some(_)) => story.at_end.push(i),
                (None, None) => story.timed.push(i),
                (Some(_), None) => {}
            }
        }
        // Lines are shown as time reaches them; a stable sort keeps
        // same-moment lines as the author wrote them.
        let lines = &story.lines;
        crate::time_order::sort_by_time(&mut story.timed, |i| lines[*i].at_ms);
        story
    }

    /// The scenario's lines and checkpoints as this run tells them: words
    /// and counts filled from its settings.
    fn filled(scenario: &Scenario) -> (Vec<Narration>, Vec<Checkpoint>) {
        let fill = |text: &String| {
            super::placeholders::fill(text, scenario).unwrap_or_else(|_| text.clone())
        };
        let counted = |t: &Trigger| super::placeholders::counted(t, scenario);
        let lines = (scenario.narration.iter())
            .map(|l| Narration {
                text: fill(&l.text),
                otherwise: l.otherwise.as_ref().map(fill),
                when: l.when.as_ref().map(counted),
                claims: super::placeholders::counted_claims(&l.claims, scenario),
                ..l.clone()
            })
            .collect();
        let checkpoints = (scenario.checkpoints.iter())
            .map(|c| {
                let mut c = c.clone();
                c.question = fill(&c.question);
                c.when = c.when.as_ref().map(counted);
                c.claims = super::placeholders::counted_claims(&c.claims, scenario);
                for choice in &mut c.choices {
                    choice.text = fill(&choice.text);
                    choice.because = choice.because.as_ref().map(fill);
                    choice.when = choice.when.as_ref().map(counted);
                    choice.claims = super::placeholders::counted_claims(&choice.claims, scenario);
                }
                c
            })
            .collect();
        (lines, checkpoints)
    }

    /// Each queue's redrive: its dead-letter queue and maxReceiveCount.
    fn redrives(scenario: &Scenario) -> BTreeMap<String, (String, i64)> {
        let mut redrives = BTreeMap::new();
        for q in &scenario.queues {
            if let Some(r) = &q.redrive {
                let policy = (r.dead_letter_queue.clone(), r.max_receive_count);
                redrives.insert(q.name.clone(), policy);
            }
        }
        redrives
    }

    /// The latest receive from `queue`: who (None: a caller without a
    /// name), the message as people name it ("order A-1001"), and when.
    pub(crate) fn last_receive(&self, queue: &str) -> Option<(Option<&str>, String, Millis)> {
        let last = self.last_receives.get(queue)?;
        let id = &last.id;
        let name = match self.labels.get(id) {
            Some((label, _)) => crate::lab::goal::name_of(label),
            None => format!("message {}", id.get(..8).unwrap_or(id)),
        };
        Some((last.by.as_deref(), name, last.at))
    }

    /// A message as people know it: its name ("order A-1001" of "order
    /// A-1001: charge $25", `name_of`), or its id.
    fn label(&self, id: &str) -> String {
        match self.labels.get(id) {
            Some((label, _)) => crate::lab::goal::name_of(label),
            None => format!("message {id}"),
        }
    }

    fn explain(&mut self, now: Millis, text: String) {
        self.explanation = Some((now, text));
    }

    /// The latest explanation, unless an authored line was shown at or
    /// after its moment (the author's words cover that moment).
    pub(crate) fn explanation(&self) -> Option<String> {
        let (at, text) = self.explanation.as_ref()?;
        match self.last_line_at {
            Some(line) if line >= *at => None,
            _ => Some(text.clone()),
        }
    }

    /// Whether the line that `line` follows (if any) has been shown.
    fn ready(&self, line: usize) -> bool {
        match &self.lines[line].after {
            None => true,
            Some(id) => self.ids.get(id).is_some_and(|i| self.shown[*i]),
        }
    }

    /// Line `line` fired: shown if its claims hold now; otherwise
    /// withheld (logged, with why) and its `otherwise` shown, if any. A
    /// withheld line without one is not shown: lines `after` it wait.
    fn show(&mut self, line: usize) {
        let l = &self.lines[line];
        match self.claims.line(line, &self.outcome) {
            Ok(()) => {
                self.shown[line] = true;
                self.due.push(SimEvent::Narration {
                    text: l.text.clone(),
                });
            }
            Err(reason) => {
                let otherwise = l.otherwise.clone();
                self.due.push(SimEvent::NarrationWithheld {
                    text: l.text.clone(),
                    reason,
                });
                if let Some(text) = otherwise {
                    self.shown[line] = true;
                    self.due.push(SimEvent::Narration { text });
                }
            }
        }
    }

    /// Timed lines whose moment has come (and whose `after` line was shown).
    fn reach_lines(&mut self, now: Millis) {
        while let Some(&line) = self.timed.get(self.next_timed) {
            if self.lines[line].at_ms > now {
                break;
            }
            self.next_timed += 1;
            if self.ready(line) {
                self.show(line);
            } else {
                self.deferred.push(line);
            }
        }
        // A deferred line may be freed by one shown just now, in turn.
        while let Some(k) = self.deferred.iter().position(|l| self.ready(*l)) {
            let line = self.deferred.remove(k);
            self.show(line);
        }
    }

    /// The next moment a timed line or a checkpoint is due, if any.
    pub(crate) fn next_moment(&self, duration: Millis) -> Option<Millis> {
        let line = self
            .timed
            .get(self.next_timed)
            .map(|i| self.lines[*i].at_ms);
        // Few (at most MAX_CHECKPOINTS), so a scan costs nothing.
        let checkpoint = self
            .checkpoints
            .iter()
            .zip(&self.asked)
            .filter(|(c, a)| **a == Asked::Not && c.when.is_none())
            .map(|(c, _)| c.at_ms)
            .min();
        let timed = [line, checkpoint].into_iter().flatten().min();
        // The end answers open checkpoints and shows `atEnd` lines: a moment to wake.
        let end = (self.at_end.iter().any(|i| !self.shown[*i])
            || self.asked.contains(&Asked::Open))
        .then_some(duration);
        [timed, end].into_iter().flatten().min()
    }

    /// Timed lines due by `until` (for the work estimate).
    pub(crate) fn timed_until(&self, until: Millis) -> u64 {
        let rest = &self.timed[self.next_timed..];
        rest.partition_point(|i| self.lines[*i].at_ms <= until) as u64
    }

    /// An event happened now: the lines it triggers become due, and an
    /// open checkpoint whose choice it is gets its answer.
    fn happened(&mut self, now: Millis, what: TriggerEvent, h: Happening) {
        if h.learners {
            return;
        }
        self.claims.saw(now, what, &h);
        self.answer_open(what, &h);
        for (i, c) in self.checkpoints.iter().enumerate() {
            let asks = c.when.as_ref().is_some_and(|t| t.matches(what, &h));
            if asks && c.at_ms <= now && self.asked[i] == Asked::Not {
                self.checkpoint_events.insert(i);
            }
        }
        let Some(waiting) = self.by_event.get(&(what as u8)) else {
            return;
        };
        let matched: Vec<usize> = waiting
            .iter()
            .copied()
            .filter(|i| {
                let line = &self.lines[*i];
                line.at_ms <= now
                    && line.when.as_ref().is_some_and(|t| t.matches(what, &h))
                    && self.ready(*i)
            })
            .collect();
        for line in matched {
            if let Some(list) = self.by_event.get_mut(&(what as u8)) {
                list.retain(|l| *l != line);
            }
            // An `atEnd` line with `when` only notes that its event happened.
            if self.lines[line].at_end.is_some() {
                self.happened_for_end.insert(line);
            } else {
                self.show(line);
            }
        }
    }

    /// The run reached its end: `atEnd` lines whose condition held are
    /// due. `each_exactly(n)`: every message handled had exactly n side effects.
    fn end(&mut self, each_exactly: &dyn Fn(u64) -> bool) {
        let lines: Vec<usize> = self.at_end.drain(..).collect();
        for line in lines {
            let happened = self.lines[line].when.is_none() || self.happened_for_end.contains(&line);
            let holds = happened
                && self.lines[line]
                    .at_end
                    .as_ref()
                    .is_some_and(|c| self.holds(c, each_exactly));
            if holds && self.ready(line) {
                self.show(line);
            }
        }
    }

    fn holds(&self, c: &EndCondition, each_exactly: &dyn Fn(u64) -> bool) -> bool {
        let each = c.side_effects_each.is_none_or(each_exactly);
        let o = &self.outcome;
        let no_dup = !c.no_duplicate_delivery || o.duplicate_deliveries == 0;
        let none_lost = !c.none_lost || o.lost + o.expired + o.dead_lettered == 0;
        let most = |by: &BTreeMap<Arc<str>, u64>, name: &str| {
            let mine = by.get(name).copied().unwrap_or(0);
            mine > 0 && by.iter().all(|(k, v)| &**k == name || *v < mine)
        };
        let empty = (c.most_empty_receives.as_deref()).is_none_or(|n| most(&self.empty_by, n));
        let kms = (c.most_kms_requests.as_deref()).is_none_or(|n| most(&self.kms_by_queue, n));
        each && no_dup && none_lost && empty && kms
    }

    /// The moments known before the run, with their filled words: lines
    /// and checkpoints that wait only for time (no `when`, `after` or
    /// `atEnd`), in time order; `true` marks a checkpoint's question.
    pub(crate) fn planned(&self) -> Vec<(Millis, String, bool)> {
        let timed = |at: Millis, when: bool, after: bool| (!when && !after).then_some(at);
        let lines = self.lines.iter().enumerate().filter_map(|(i, l)| {
            // Claims about the run's settings are known now (the text, or
            // its `otherwise`); a line with others may be withheld.
            let text = match self.claims.known_before(i) {
                Some(true) => Some(&l.text),
                Some(false) => l.otherwise.as_ref(),
                None => None,
            }?;
            let at = timed(
                l.at_ms,
                l.when.is_some() || l.at_end.is_some(),
                l.after.is_some(),
            );
            at.map(|t| (t, text.clone(), false))
        });
        let checkpoints = self.checkpoints.iter().filter_map(|c| {
            let at = timed(c.at_ms, c.when.is_some(), c.after.is_some());
            at.map(|t| (t, c.question.clone(), true))
        });
        let mut all: Vec<_> = lines.chain(checkpoints).collect();
        crate::time_order::sort_by_time(&mut all, |(t, _, _)| *t);
        all
    }

    /// The lines that became due (or were withheld) since the last call, in order.
    pub(crate) fn take_due(&mut self, now: Millis) -> Vec<SimEvent> {
        let shown = |e: &SimEvent| matches!(e, SimEvent::Narration { .. });
        if self.due.iter().any(shown) {
            self.last_line_at = Some(now);
        }
        std::mem::take(&mut self.due)
    }

    /// The run so far, with messages still waiting counted up to `now`.
    pub(crate) fn outcome(&self, now: Millis) -> Outcome {
        let mut outcome = self.outcome.clone();
        let first = self.waiting_since.first();
        if let Some(w) = first.and_then(|(_, id)| self.waiting.get(id)) {
            let ms = now.saturating_sub(w.since);
            if ms > outcome.longest_wait_ms {
                outcome.longest_wait_ms = ms;
                outcome.longest_wait_label = Some(w.label.clone());
            }
        }
        outcome
    }
}

impl Story {
    /// Messages the story remembers now (labels, receipts, waits, work
    /// not done yet, learners' messages): bounded by the stored and held
    /// messages, not by all those handled.
    pub(crate) fn retained(&self) -> usize {
        self.labels.len()
            + self.receipts.len()
            + self.waiting.len()
            + self.unprocessed.len()
            + self.in_work.len()
            + self.purged_held.len()
            + self.learners.len()
            + self.abandoned.len()
            + self.groups.len()
    }
}

/// The story watches the run's log: every event once, in log order.
impl Observer for Story {
    fn observe(&mut self, now: Millis, event: Seen<'_>) {
        // An alarm's change is CloudWatch's, not something SQS or a worker
        // did: a `quiet` span stays quiet through it.
        if !matches!(event, Seen::Sim(SimEvent::AlarmChanged { .. })) {
            self.claims.anything(now);
        }
        match event {
            Seen::Sqs(kind) => self.observe_sqs(now, kind),
            Seen::Sim(event) => self.observe_sim(now, event),
        }
    }

    /// Timed lines, then (at the end) the `atEnd` ones; then the
    /// checkpoints, since one asked `after` a line comes once it is shown.
    fn reach(&mut self, moment: &Moment<'_>) {
        self.reach_lines(moment.now);
        if moment.ended {
            self.end(moment.each_exactly);
        }
        self.ask(moment.now, moment.ended.then_some(moment.each_exactly));
    }

    /// The lines due, then the checkpoints asked or answered: answers come
    /// after the lines about the same event.
    fn take_events(&mut self, now: Millis) -> Vec<SimEvent> {
        let mut events = self.take_due(now);
        events.extend(self.take_told());
        events
    }

    fn next_moment(&self, duration: Millis) -> Option<Millis> {
        Story::next_moment(self, duration)
    }

    fn moments_until(&self, until: Millis) -> u64 {
        self.timed_until(until)
    }

    fn fill_snapshot(&self, now: Millis, snapshot: &mut SimulationSnapshot) {
        snapshot.explanation = self.explanation();
        snapshot.outcome = self.outcome(now);
    }

    fn count_retained(&self, retained: &mut Retained) {
        retained.story_messages = self.retained();
    }
}

impl Simulation {
    /// The narration lines and checkpoint questions whose moments are known
    /// before the run (they wait only for time), with their words filled
    /// in: (moment, text, is a checkpoint), in time order.
    pub fn planned_moments(&self) -> Vec<(Millis, String, bool)> {
        self.story().map(Story::planned).unwrap_or_default()
    }

    /// The run's story (every simulation has one).
    pub(crate) fn story(&self) -> Option<&Story> {
        crate::observer::find::<Story>(&self.observers)
    }
}
