//! A lab's goal, watched over one run: each condition of `Goal` computed
//! from the run's events (the engine's and the simulation's, each seen
//! once, in log order, like `story.rs`) and the engine's billing meter.
//! The first breach of each condition is kept, with its moment and a
//! sentence that names the message ("order A-1003 was charged twice at
//! t = 12.4 s (by worker-1, then worker-2)"). It never reads the capped
//! log, so it stays exact on runs longer than `event_capacity`.
//!
//! Documented choices: duplicates are counted on side effects (an
//! idempotent skip is not one); only `noDuplicateDelivery` calls the
//! redelivery itself wrong. Messages and calls from outside the scenario
//! (the page's own actions) are never counted. `oldestAge` counts every
//! message, in flight or not, from entering the queue (its send, or its
//! move into a dead-letter queue, as CloudWatch's
//! ApproximateAgeOfOldestMessage restarts there) to leaving it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use queuelab_engine::billing::Meter;
use queuelab_engine::{EventKind, MessageId, Millis};
use serde::Serialize;

use super::alarm_goal::AlarmWatch;
use super::security::{judge_encryption, judge_privilege, SecurityWatch};
use crate::document::{Goal, CONDITION_IDS};
use crate::log::SimEvent;
use crate::numbers::{count, ordinal, thousands};
use crate::observer::{find, Moment, Observer, Produced, Seen};
use crate::scenario::Scenario;
use crate::teach::explain::secs;
use crate::{Retained, Simulation};

/// The first moment a condition did not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breach {
    /// The condition's id (its field name in `goal`).
    pub condition: &'static str,
    pub at_ms: Millis,
    /// The message it is about, when it is about one.
    pub message_id: Option<String>,
    /// What happened, in words, without the seed: "order A-1003 was
    /// charged twice at t = 12.4 s (by worker-1, then worker-2)".
    pub text: String,
}

/// One of the goal's conditions, readable: `{ id, text }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct ConditionText {
    pub id: String,
    pub text: String,
}

/// What one run measured, for the summary of a met goal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Measures {
    pub requests: u64,
    pub cost_nano_usd: u64,
    pub empty_receives: u64,
    /// The longest any message stayed in `oldestAge`'s queue.
    pub longest_wait_ms: Millis,
    /// The most times one message had its side effect.
    pub most_side_effects: u64,
    /// The KMS requests SQS made for the scenario's queues.
    pub kms_requests: u64,
    /// When `alarmFires`' alarm went into ALARM, or else when an alarm
    /// first notified `alarmNotifies`' topic (the later of the two).
    pub alarm_at_ms: Millis,
}

/// A message the scenario's producers stored.
#[derive(Clone)]
struct Watched {
    /// Its place in send order.
    seq: u64,
    name: String,
    poison: bool,
    /// Its `orderKeptPer` attribute's value.
    key: Option<String>,
    sent_at: Millis,
    effects: u64,
    first_effect_at: Option<Millis>,
    by: Vec<Arc<str>>,
    receives: u32,
    last_receive: Option<(Millis, Millis)>,
    /// The queue it is in now, and since when (None once it left).
    queue: Option<(Arc<str>, Millis)>,
    moved_to_dlq: bool,
    /// Its FIFO queue and message group (`group_key`).
    group: Option<String>,
    first_receive: Option<Millis>,
    /// Earlier messages of its group still in the queue when it was sent:
    /// FIFO delivers it only once each of them has left, one at a time.
    waited_behind: u64,
    /// Its latest processing: who, from when, until when (sooner if the
    /// handler failed or the worker crashed).
    processing: Option<(Arc<str>, Millis, Millis)>,
    /// Its `notHandledBefore` due time, in epoch ms (None: none readable).
    due: Option<Millis>,
}

/// A FIFO queue's message group as one key, "orders.fifo\u{1}C-1": a
/// map of strings the ledger's map already compiles (wasm size).
fn group_key(queue: &str, group: &str) -> String {
    format!("{queue}\u{1}{group}")
}

pub(crate) struct GoalWatch {
    goal: Goal,
    duration_ms: Millis,
    /// The side effect's word when no event gave one ("charged").
    effect: String,
    /// Scenario producers and consumers: the callers whose requests count.
    callers: BTreeSet<String>,
    consumers: BTreeSet<String>,
    /// Whether a queue sends its failures to `goal.deadLetterQueue`.
    has_redrive: bool,
    /// Messages that may still change a verdict: stored, held, or (with
    /// `orderKeptPer`) gone unprocessed with a key. A message gone for
    /// good is forgotten, so the goal's memory follows the live messages,
    /// not all those handled.
    messages: BTreeMap<String, Watched>,
    /// Those message ids in send order.
    order: BTreeMap<u64, String>,
    /// Sends so far (the next message's `seq`).
    sent: u64,
    /// For each condition judged at the end, the earliest message (in
    /// send order) forgotten already that breaks it.
    settled: BTreeMap<&'static str, (String, Watched)>,
    /// Messages in `oldestAge`'s queue, oldest first.
    waiting: BTreeSet<(Millis, String)>,
    empty_receives: u64,
    measures: Measures,
    breaches: BTreeMap<&'static str, Breach>,
    ended: bool,
    /// Each FIFO group's watched messages in its queue (a group with none
    /// is forgotten).
    groups: BTreeMap<String, u64>,
    /// Who may call, and what encryption costs (security.rs).
    security: SecurityWatch,
    /// The alarms' changes of state (alarm_goal.rs).
    alarms: AlarmWatch,
    /// The wall clock at time 0: the scenario's `startEpochMs`, else the
    /// engine's default (a due time is compared with it).
    start_epoch_ms: Millis,
}

/// "order A-1003" from "order A-1003: charge $25": the body up to its
/// first colon when that is 1 to 40 characters, else its first 40
/// characters in quotes. A JSON document's first colon ends a key, not a
/// name (an SNS envelope, S3's event): it is quoted, its runs of
/// whitespace (a pretty-printed envelope's new lines) read as one space.
pub fn name_of(body: &str) -> String {
    let json = body.starts_with(['{', '[']);
    match body.split_once(':') {
        Some((head, _)) if !json && (1..=40).contains(&head.chars().count()) => {
            head.trim().to_string()
        }
        _ => {
            let flat = match json {
                true => body.split_whitespace().collect::<Vec<_>>().join(" "),
                false => body.to_string(),
            };
            let cut: String = flat.chars().take(40).collect();
            let more = if flat.chars().count() > 40 { "…" } else { "" };
            format!("“{cut}{more}”")
        }
    }
}

/// "once", "twice", "3 times".
fn times(n: u64) -> String {
    match n {
        0 => "0 times".into(),
        1 => "once".into(),
        2 => "twice".into(),
        _ => format!("{n} times"),
    }
}

fn at(ms: Millis) -> String {
    format!("t = {}", secs(ms))
}

/// "$0.000034", "$0.0000024" from nano-US-dollars: six decimals, more
/// when a fraction of a millionth is left.
pub(crate) fn dollars(nano: u64) -> String {
    let fraction = format!("{:09}", nano % 1_000_000_000);
    let trimmed = fraction.trim_end_matches('0');
    let shown = if trimmed.len() > 6 {
        trimmed
    } else {
        &fraction[..6]
    };
    format!("${}.{shown}", nano / 1_000_000_000)
}

impl GoalWatch {
    pub(crate) fn new(goal: &Goal, s: &Scenario) -> Self {
        let consumers: BTreeSet<String> =
            s.consumers.iter().flat_map(crate::worker_names).collect();
        let callers: BTreeSet<String> = s
            .senders()
            .map(str::to_owned)
            .chain(consumers.iter().cloned())
            .collect();
        let has_redrive = goal.dead_letter_queue.as_ref().is_some_and(|dlq| {
            s.queues.iter().any(|q| {
                q.redrive
                    .as_ref()
                    .is_some_and(|r| &r.dead_letter_queue == dlq)
            })
        });
        let actors = (callers.iter().cloned())
            .chain(s.operators.iter().map(|o| o.name.clone()))
            .chain(s.topics.iter().map(|t| t.name.clone()))
            .chain(s.buckets.iter().map(|b| b.name.clone()))
            .collect();
        GoalWatch {
            security: SecurityWatch::new(goal, actors),
            alarms: AlarmWatch::default(),
            goal: goal.clone(),
            duration_ms: s.duration_ms,
            effect: effect_word(s),
            callers,
            consumers,
            has_redrive,
            messages: BTreeMap::new(),
            order: BTreeMap::new(),
            sent: 0,
            settled: BTreeMap::new(),
            waiting: BTreeSet::new(),
            empty_receives: 0,
            measures: Measures::default(),
            breaches: BTreeMap::new(),
            ended: false,
            groups: BTreeMap::new(),
            start_epoch_ms: s
                .start_epoch_ms
                .unwrap_or_else(|| queuelab_engine::Config::default().start_epoch_ms),
        }
    }

    fn breach(&mut self, condition: &'static str, at_ms: Millis, id: Option<&str>, text: String) {
        // The earliest breach of the condition: a wait found at a message's
        // leaving can have begun before one found earlier.
        if self
            .breaches
            .get(condition)
            .is_some_and(|b| b.at_ms <= at_ms)
        {
            return;
        }
        let breach = Breach {
            condition,
            at_ms,
            message_id: id.map(str::to_string),
            text,
        };
        self.breaches.insert(condition, breach);
    }

    /// A producer's message stored in `queue` (called right after the send).
    fn sent(&mut self, send: &Produced<'_>, now: Millis) {
        let (id, queue, body, attributes) =
            (send.message_id, send.queue, send.body, send.attributes);
        if self.ended {
            return;
        }
        if let Some(old) = send.again_of {
            self.sent_again(old, id, queue, now);
            return;
        }
        // Only a FIFO queue delivers a group one message at a time.
        let group = send
            .group
            .filter(|_| queue.ends_with(".fifo"))
            .map(|g| group_key(queue, g));
        let waited_behind =
            group
                .as_ref()
                .map_or(0, |key| match self.groups.get_mut(key.as_str()) {
                    Some(in_queue) => {
                        *in_queue += 1;
                        *in_queue - 1
                    }
                    None => {
                        self.groups.insert(key.clone(), 1);
                        0
                    }
                });
        let poison = self.goal.poison.iter().any(|p| body.contains(p.as_str()));
        let key = self
            .goal
            .order_kept_per
            .as_ref()
            .and_then(|a| attributes.get(a).cloned());
        let due = (self.goal.not_handled_before.as_ref())
            .and_then(|a| attributes.get(a))
            .and_then(|text| crate::wall_clock::epoch_ms(text).ok());
        let seq = self.sent;
        self.sent += 1;
        self.messages.insert(
            id.to_string(),
            Watched {
                seq,
                name: name_of(body),
                poison,
                key,
                sent_at: now,
                effects: 0,
                first_effect_at: None,
                by: Vec::new(),
                receives: 0,
                last_receive: None,
                queue: Some((queue.into(), now)),
                moved_to_dlq: false,
                group,
                first_receive: None,
                waited_behind,
                processing: None,
                due,
            },
        );
        self.order.insert(seq, id.to_string());
        if self.watches_age(queue) {
            self.waiting.insert((now, id.to_string()));
        }
    }

    /// A worker sent message `old` again as `new` (re-delaying it): the
    /// goal follows it under its new id, waiting again in `queue`.
    fn sent_again(&mut self, old: &str, new: &str, queue: &str, now: Millis) {
        self.left(old, queue, now);
        let Some(mut m) = self.messages.remove(old) else {
            return;
        };
        m.queue = Some((queue.into(), now));
        if self.watches_age(queue) {
            self.waiting.insert((now, new.to_string()));
        }
        self.order.insert(m.seq, new.to_string());
        self.messages.insert(new.to_string(), m);
    }

    fn watches_age(&self, queue: &str) -> bool {
        self.goal
            .oldest_age
            .as_ref()
            .is_some_and(|a| a.queue == queue)
    }

    fn limit_ms(&self) -> Millis {
        self.goal
            .oldest_age
            .as_ref()
            .map_or(Millis::MAX, |a| a.at_most_seconds.saturating_mul(1000))
    }

    /// A message left `queue` at `now` (deleted, moved, expired, purged).
    fn left(&mut self, id: &str, queue: &str, now: Millis) {
        let Some(m) = self.messages.get_mut(id) else {
            return;
        };
        let Some((_, entered)) = m.queue.take().filter(|(q, _)| &**q == queue) else {
            return;
        };
        let in_this_queue =
            |key: &&String| key.split_once('\u{1}').is_some_and(|(q, _)| q == queue);
        if let Some(key) = m.group.as_ref().filter(in_this_queue) {
            if let Some(in_queue) = self.groups.get_mut(key.as_str()) {
                *in_queue -= 1;
                if *in_queue == 0 {
                    self.groups.remove(key.as_str());
                }
            }
        }
        if self.watches_age(queue) {
            self.waiting.remove(&(entered, id.to_string()));
            self.waited(id, queue, entered, now);
        }
    }

    /// A stay in `oldestAge`'s queue from `entered` to `until`.
    fn waited(&mut self, id: &str, queue: &str, entered: Millis, until: Millis) {
        let span = until.saturating_sub(entered);
        self.measures.longest_wait_ms = self.measures.longest_wait_ms.max(span);
        let limit = self.limit_ms();
        if span > limit {
            let name = self
                .messages
                .get(id)
                .map_or_else(String::new, |m| m.name.clone());
            let text = format!(
                "{name} waited in {queue} longer than {}: it entered at {} and was still there at {}",
                secs(limit),
                at(entered),
                at(entered + limit)
            );
            self.breach("oldestAge", entered + limit, Some(id), text);
        }
    }

    fn observe_sqs(&mut self, now: Millis, kind: &EventKind) {
        // The goal is judged once, as time reaches durationMs.
        if self.ended {
            return;
        }
        if let Some((condition, text)) = self.security.observe_sqs(now, kind) {
            self.breach(condition, now, None, text);
        }
        match kind {
            EventKind::Received {
                message_id,
                receive_count,
                visible_at,
                ..
            } => {
                if let Some(m) = self.messages.get_mut(&message_id.to_string()) {
                    m.receives = *receive_count;
                    m.last_receive = Some((now, *visible_at));
                    m.first_receive.get_or_insert(now);
                }
            }
            EventKind::Deleted {
                queue, message_id, ..
            }
            | EventKind::Purged { queue, message_id } => {
                self.left(&message_id.to_string(), queue, now)
            }
            EventKind::Expired { queue, message_id } => {
                let id = message_id.to_string();
                self.left(&id, queue, now);
                if self.goal.none_lost {
                    if let Some(m) = self.messages.get(&id).filter(|m| !m.poison) {
                        let text = format!(
                            "{} expired at {}: its retention period ended before it was processed",
                            m.name,
                            at(now)
                        );
                        self.breach("noneLost", now, Some(&id), text);
                    }
                }
            }
            EventKind::MovedToDeadLetterQueue {
                queue,
                dead_letter_queue,
                message_id,
                receive_count,
            } => {
                let id = message_id.to_string();
                self.left(&id, queue, now);
                let Some(m) = self.messages.get_mut(&id) else {
                    return;
                };
                m.queue = Some((dead_letter_queue.clone(), now));
                let (poison, name) = (m.poison, m.name.clone());
                let into_goal_dlq =
                    self.goal.dead_letter_queue.as_deref() == Some(&**dead_letter_queue);
                if into_goal_dlq {
                    m.moved_to_dlq = true;
                }
                if self.watches_age(dead_letter_queue) {
                    self.waiting.insert((now, id.clone()));
                }
                if into_goal_dlq && !poison {
                    let text = format!(
                        "{name} (not a poison message) was moved to {dead_letter_queue} at {} \
                         after {}",
                        at(now),
                        receives(*receive_count)
                    );
                    self.breach("deadLetterQueue", now, Some(&id), text);
                }
            }
            EventKind::Redriven {
                queue,
                destination,
                message_id,
                new_message_id,
            } => self.redriven(now, queue, destination, message_id, new_message_id),
            EventKind::EmptyReceive { by, .. }
                if by.as_deref().is_some_and(|b| self.consumers.contains(b)) =>
            {
                self.empty_receives += 1;
                if let Some(most) = self.goal.empty_receives_at_most {
                    if self.empty_receives == most + 1 {
                        let text = format!(
                            "the consumers' {} empty receive came at {} (goal: at most {})",
                            ordinal(most + 1),
                            at(now),
                            thousands(most)
                        );
                        self.breach("emptyReceivesAtMost", now, None, text);
                    }
                }
            }
            _ => {}
        }
    }

    /// A move task sent a message back as a new one with the same body:
    /// the goal follows the order under its new id (it is the same order
    /// to the shop, charged or not), waiting again in its new queue.
    fn redriven(
        &mut self,
        now: Millis,
        queue: &str,
        destination: &Arc<str>,
        old: &MessageId,
        new: &MessageId,
    ) {
        let id = old.to_string();
        self.left(&id, queue, now);
        let Some(mut m) = self.messages.remove(&id) else {
            return;
        };
        let new = new.to_string();
        m.queue = Some((destination.clone(), now));
        if self.watches_age(destination) {
            self.waiting.insert((now, new.clone()));
        }
        self.order.insert(m.seq, new.clone());
        self.messages.insert(new, m);
    }

    fn observe_sim(&mut self, now: Millis, event: &SimEvent) {
        if self.ended {
            return;
        }
        if let Some((condition, text)) = self.security.observe_sim(now, event) {
            self.breach(condition, now, None, text);
        }
        self.alarms.observe_sim(now, event, &self.goal);
        match event {
            SimEvent::ReplyLost {
                responder,
                correlation_id,
                queue,
            } if self.goal.no_reply_lost => {
                let text = format!(
                    "{responder}'s reply to {correlation_id} was lost at {}: its reply queue \
                     {queue} no longer existed (QueueDoesNotExist), deleted when the wait ended",
                    at(now)
                );
                self.breach("noReplyLost", now, None, text);
            }
            SimEvent::ProcessingStarted {
                consumer,
                message_id,
                until,
                ..
            } => {
                if let Some(m) = self.messages.get_mut(message_id) {
                    m.processing = Some((consumer.clone(), now, *until));
                }
            }
            SimEvent::ProcessingFailed { message_id, .. }
            | SimEvent::WorkerCrashed { message_id, .. } => {
                if let Some((_, _, until)) = self
                    .messages
                    .get_mut(message_id)
                    .and_then(|m| m.processing.as_mut())
                {
                    *until = (*until).min(now);
                }
            }
            SimEvent::SideEffectPerformed {
                consumer,
                message_id,
                effect,
                count,
            } => self.side_effect(now, consumer, message_id, effect, *count),
            SimEvent::DuplicateDelivery {
                consumer,
                message_id,
                also_held_by,
                ..
            } if self.goal.no_duplicate_delivery => {
                if let Some(m) = self.messages.get(message_id) {
                    let text = format!(
                        "{} was delivered to {consumer} at {} while {also_held_by} was still \
                         processing it",
                        m.name,
                        at(now)
                    );
                    self.breach("noDuplicateDelivery", now, Some(message_id), text);
                }
            }
            SimEvent::MessageLost {
                consumer,
                message_id,
                handler_crashed,
            } if self.goal.none_lost => {
                if let Some(m) = self.messages.get(message_id) {
                    let how = if *handler_crashed {
                        "crashed"
                    } else {
                        "failed"
                    };
                    let text = format!(
                        "{} was lost at {}: {consumer} deleted it before processing, then its \
                         handler {how}",
                        m.name,
                        at(now)
                    );
                    self.breach("noneLost", now, Some(message_id), text);
                }
            }
            _ => {}
        }
    }

    fn side_effect(
        &mut self,
        now: Millis,
        consumer: &Arc<str>,
        id: &str,
        effect: &str,
        count: u64,
    ) {
        let Some(m) = self.messages.get_mut(id) else {
            return;
        };
        m.effects = count;
        if m.by.len() < crate::MAX_SIDE_EFFECT_NAMES {
            m.by.push(consumer.clone());
        }
        if m.first_effect_at.is_none() {
            m.first_effect_at = Some(now);
        }
        if m.poison {
            return;
        }
        self.measures.most_side_effects = self.measures.most_side_effects.max(count);
        let (name, by) = (m.name.clone(), m.by.clone());
        let (key, m_seq) = (m.key.clone(), m.seq);
        let wall = self.start_epoch_ms.saturating_add(now);
        let early = m.due.filter(|due| *due > wall);
        let over = |limit: Option<u64>| limit.is_some_and(|n| count == n + 1);
        let mut breaches = Vec::new();
        for (id_, limit) in [
            ("sideEffectsAtMost", self.goal.side_effects_at_most),
            ("sideEffectsExactly", self.goal.side_effects_exactly),
        ] {
            if over(limit) {
                let names: Vec<&str> = by.iter().map(|b| &**b).collect();
                let who = match names.iter().all(|n| *n == names[0]) {
                    true => format!("each time by {}", names[0]),
                    false => format!("by {}", names.join(", then ")),
                };
                let text = format!(
                    "{name} was {effect} {} at {} ({who})",
                    times(count),
                    at(now)
                );
                breaches.push((id_, text));
            }
        }
        if let (Some(attribute), Some(key), 1) = (self.goal.order_kept_per.clone(), key, count) {
            let earlier = self.order.range(..m_seq).map(|(_, o)| o).find(|o| {
                self.messages
                    .get(*o)
                    .is_some_and(|e| !e.poison && e.effects == 0 && e.key.as_deref() == Some(&key))
            });
            if let Some(earlier) = earlier {
                let before = &self.messages[earlier].name;
                let text = format!(
                    "{attribute} {key}'s {name} was {effect} at {} before its {before} (not \
                     {effect} yet)",
                    at(now)
                );
                breaches.push(("orderKeptPer", text));
            }
        }
        if let (Some(attribute), Some(due)) = (self.goal.not_handled_before.as_ref(), early) {
            let text = format!(
                "{name} was {effect} at {} by {consumer}, {} before its {attribute} ({})",
                at(now),
                crate::scenario::span(due - wall),
                crate::s3::event::iso8601(due)
            );
            breaches.push(("notHandledBefore", text));
        }
        for (condition, text) in breaches {
            self.breach(condition, now, Some(id), text);
        }
    }

    /// The request budget, after whatever acted at `now`.
    fn reach_time(&mut self, now: Millis, meter: &Meter) {
        if self.ended
            || self.goal.requests_at_most.is_none() && self.goal.cost_at_most_micro_usd.is_none()
        {
            return;
        }
        let callers = &self.callers;
        let counts = |by: Option<&str>| by.is_some_and(|b| callers.contains(b));
        let requests = meter.requests(counts);
        let cost = meter.cost_nano_usd(counts);
        self.measures.requests = requests;
        self.measures.cost_nano_usd = cost;
        if let Some(most) = self.goal.requests_at_most.filter(|m| requests > *m) {
            let text = format!(
                "the run passed {} at {}",
                count(most, "request", "requests"),
                at(now)
            );
            self.breach("requestsAtMost", now, None, text);
        }
        if let Some(most) = self
            .goal
            .cost_at_most_micro_usd
            .filter(|m| cost > m.saturating_mul(1000))
        {
            let text = format!(
                "the requests cost {} by {} (goal: at most {})",
                dollars(cost),
                at(now),
                dollars(most.saturating_mul(1000))
            );
            self.breach("costAtMostMicroUsd", now, None, text);
        }
    }

    /// The end of the run: what can only be judged then.
    fn end(&mut self, moment: &Moment<'_>) {
        let (now, meter) = (moment.now, moment.meter);
        if self.ended {
            return;
        }
        self.reach_time(now, meter);
        self.ended = true;
        self.measures.empty_receives = self.empty_receives;
        self.measures.kms_requests = self.security.kms_requests();
        if let Some(lp) = self.goal.least_privilege.clone() {
            if let Some(text) = judge_privilege(&lp, moment.engine, now) {
                self.breach("leastPrivilege", now, None, text);
            }
        }
        if let Some(queue) = self.goal.encrypted_with_kms.clone() {
            if let Some(text) = judge_encryption(&queue, moment.engine, now) {
                self.breach("encryptedWithKms", now, None, text);
            }
        }
        self.measures.alarm_at_ms = self.alarms.fired_at(&self.goal);
        for (condition, at_ms, text) in self.alarms.judge(&self.goal) {
            self.breach(condition, at_ms, None, text);
        }
        // Messages still in `oldestAge`'s queue wait until the end.
        if let Some(queue) = self.goal.oldest_age.as_ref().map(|a| a.queue.clone()) {
            let still: Vec<(Millis, String)> = self.waiting.iter().cloned().collect();
            for (entered, id) in still {
                self.waited(&id, &queue, entered, now);
            }
        }
        // Forgotten messages that break an end condition come back to be
        // judged in send order with the live ones.
        for (id, m) in std::mem::take(&mut self.settled).into_values() {
            self.order.insert(m.seq, id.clone());
            self.messages.insert(id, m);
        }
        let ids: Vec<String> = self.order.values().cloned().collect();
        self.judge_processed_by(&ids);
        self.judge_side_effects_exactly(&ids, now);
        self.judge_dead_letter_queue(&ids, now);
        self.say_totals(meter);
    }

    /// `processedByMs`: the first message (in send order) not processed by then.
    fn judge_processed_by(&mut self, ids: &[String]) {
        if let Some(t) = self.goal.processed_by_ms {
            let late = ids.iter().find(|id| {
                let m = &self.messages[*id];
                !m.poison && m.sent_at < t && m.first_effect_at.is_none_or(|e| e > t)
            });
            if let Some(id) = late {
                let text = format!(
                    "{} was not {} by {}{}",
                    self.messages[id].name,
                    self.effect,
                    at(t),
                    self.whereabouts(id, t)
                );
                self.breach("processedByMs", t, Some(id), text);
            }
        }
    }

    /// `sideEffectsExactly`: the first message short of its count at the end.
    fn judge_side_effects_exactly(&mut self, ids: &[String], now: Millis) {
        if let Some(n) = self.goal.side_effects_exactly {
            let short = ids.iter().find(|id| {
                let m = &self.messages[*id];
                !m.poison && m.effects < n
            });
            if let Some(id) = short {
                let m = &self.messages[id];
                let text = format!(
                    "{} was {} {} by the end ({}), not {}",
                    m.name,
                    self.effect,
                    times(m.effects),
                    at(now),
                    times(n)
                );
                self.breach("sideEffectsExactly", now, Some(id), text);
            }
        }
    }

    /// `deadLetterQueue`: the first poison message not moved there.
    fn judge_dead_letter_queue(&mut self, ids: &[String], now: Millis) {
        if let Some(dlq) = self.goal.dead_letter_queue.clone() {
            let missing = ids.iter().find(|id| {
                let m = &self.messages[*id];
                m.poison && !m.moved_to_dlq
            });
            if let Some(id) = missing {
                let m = &self.messages[id];
                let received = format!("it was received {}", times(u64::from(m.receives)));
                let text = match (self.has_redrive, &m.queue) {
                    (false, _) => format!(
                        "there is no dead-letter queue: {} (poison) was received {} by the end ({})",
                        m.name,
                        times(u64::from(m.receives)),
                        at(now)
                    ),
                    (true, Some((queue, _))) => format!(
                        "{} (poison) was not in {dlq} at the end ({}): {received} and is still in {queue}",
                        m.name,
                        at(now)
                    ),
                    (true, None) => format!(
                        "{} (poison) was not in {dlq} at the end ({}): {received} and is gone",
                        m.name,
                        at(now)
                    ),
                };
                self.breach("deadLetterQueue", now, Some(id), text);
            }
        }
    }

    /// Counters' breaches say their totals at the end.
    fn say_totals(&mut self, meter: &Meter) {
        for (condition, breach) in &mut self.breaches {
            if let Some(totals) = self.security.totals(condition) {
                breach.text.push_str(&totals);
            }
        }
        let total = self.empty_receives;
        if let Some(b) = self.breaches.get_mut("emptyReceivesAtMost") {
            b.text
                .push_str(&format!("; {} by the end", thousands(total)));
        }
        let breakdown = self.breakdown(meter);
        let requests = self.measures.requests;
        if let Some(b) = self.breaches.get_mut("requestsAtMost") {
            b.text.push_str(&format!(
                " ({} by the end: {breakdown})",
                thousands(requests)
            ));
        }
        let cost = self.measures.cost_nano_usd;
        if let Some(b) = self.breaches.get_mut("costAtMostMicroUsd") {
            let month_ms: u128 = 30 * 86_400_000;
            let monthly = u128::from(cost) * month_ms / u128::from(self.duration_ms.max(1));
            let monthly = u64::try_from(monthly / 10_000_000).unwrap_or(u64::MAX);
            b.text.push_str(&format!(
                "; at this rate for 30 days: ${}.{:02}",
                monthly / 100,
                monthly % 100
            ));
        }
    }

    /// Where a message not processed by `t` was, and why: the earlier
    /// messages of its FIFO group it waited behind, a worker still
    /// processing it, or ": its last receive was at t = 8.3 s, and it was
    /// invisible until t = 188.3 s" (its holder gave up on it).
    fn whereabouts(&self, id: &str, t: Millis) -> String {
        let m = &self.messages[id];
        let mut why = String::new();
        let group = m
            .group
            .as_deref()
            .and_then(|k| k.split_once('\u{1}'))
            .map(|(_, g)| g);
        if let (Some(group), Some(first), 1..) = (group, m.first_receive, m.waited_behind) {
            why = format!(
                ": it waited behind {} of its group {group}, each in flight in turn, and was \
                 first received at {}",
                count(m.waited_behind, "earlier message", "earlier messages"),
                at(first)
            );
        }
        let now = match &m.processing {
            Some((who, from, until)) if *from <= t && *until > t => {
                format!(": {who} was still processing it at {}", at(t))
            }
            _ => self.last_seen(m, t),
        };
        match why.is_empty() {
            true => now,
            false => format!("{why};{}", &now[1..]),
        }
    }

    /// ": its last receive was at t = 8.3 s, and it was invisible until
    /// t = 188.3 s", or that it was never received.
    fn last_seen(&self, m: &Watched, t: Millis) -> String {
        match m.last_receive {
            None => format!(": it was never received (sent at {})", at(m.sent_at)),
            Some((when, visible_at)) if visible_at > t => format!(
                ": its last receive was at {}, and it was invisible until {}",
                at(when),
                at(visible_at)
            ),
            Some((when, _)) => format!(": its last receive was at {}", at(when)),
        }
    }

    /// "1,498 ReceiveMessage, 20 SendMessage" for the scenario's callers.
    fn breakdown(&self, meter: &Meter) -> String {
        let mut by_action: BTreeMap<&'static str, u64> = BTreeMap::new();
        for (line, tally) in meter.lines() {
            if line
                .caller
                .as_deref()
                .is_some_and(|b| self.callers.contains(b))
            {
                *by_action.entry(line.action.name()).or_default() += tally.requests;
            }
        }
        let mut parts: Vec<(&str, u64)> = by_action.into_iter().collect();
        parts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        parts
            .iter()
            .map(|(action, n)| format!("{} {action}", thousands(*n)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `id` left the engine for good and no worker holds it: its record
    /// is final. It is forgotten, kept only as the earliest breaker of an
    /// end condition it breaks (or, with `orderKeptPer`, while it is a
    /// keyed message never processed, which a later one may overtake).
    fn gone(&mut self, id: &str) {
        let Some(m) = self.messages.get(id) else {
            return;
        };
        if self.ended
            || self.goal.order_kept_per.is_some() && m.key.is_some() && m.effects == 0 && !m.poison
        {
            return;
        }
        let late = self
            .goal
            .processed_by_ms
            .is_some_and(|t| !m.poison && m.sent_at < t && m.first_effect_at.is_none_or(|e| e > t));
        let short = self
            .goal
            .side_effects_exactly
            .is_some_and(|n| !m.poison && m.effects < n);
        let missing = self.goal.dead_letter_queue.is_some() && m.poison && !m.moved_to_dlq;
        for (condition, breaks) in [
            ("processedByMs", late),
            ("sideEffectsExactly", short),
            ("deadLetterQueue", missing),
        ] {
            let earlier = self
                .settled
                .get(condition)
                .is_some_and(|(_, e)| e.seq < m.seq);
            if breaks && !earlier {
                self.settled.insert(condition, (id.to_string(), m.clone()));
            }
        }
        if let Some(m) = self.messages.remove(id) {
            self.order.remove(&m.seq);
        }
    }

    /// Records kept: (messages followed, breaches and settled breakers).
    fn retained(&self) -> (usize, usize) {
        (
            self.messages.len(),
            self.breaches.len() + self.settled.len(),
        )
    }

    /// The earliest breach: by moment, then by the conditions' order.
    fn first_breach(&self) -> Option<&Breach> {
        let rank = |c: &str| CONDITION_IDS.iter().position(|id| *id == c);
        self.breaches
            .values()
            .min_by_key(|b| (b.at_ms, rank(b.condition)))
    }

    fn measures(&self) -> &Measures {
        &self.measures
    }
}

/// The goal watches the run's log beside the story, and each producer
/// send's whole body and attributes.
impl Observer for GoalWatch {
    fn observe(&mut self, now: Millis, event: Seen<'_>) {
        match event {
            Seen::Sqs(kind) => self.observe_sqs(now, kind),
            Seen::Sim(event) => self.observe_sim(now, event),
        }
    }

    fn reach(&mut self, moment: &Moment<'_>) {
        match moment.ended {
            true => self.end(moment),
            false => self.reach_time(moment.now, moment.meter),
        }
    }

    fn wants_sends(&self) -> bool {
        true
    }

    fn produced(&mut self, now: Millis, send: &Produced<'_>) {
        self.sent(send, now);
    }

    fn forget(&mut self, message_id: &str) {
        self.gone(message_id);
    }

    fn count_retained(&self, retained: &mut Retained) {
        (retained.goal_messages, retained.goal_breaches) = self.retained();
    }
}

impl Simulation {
    /// A lab's first breach of its goal so far (None: every condition
    /// holds, or the scenario has no goal). Conditions judged at the end
    /// (`processedByMs`, `sideEffectsExactly`, `deadLetterQueue`, waits
    /// still running) are in once the run reached `durationMs`.
    pub fn goal_breach(&self) -> Option<&Breach> {
        find::<GoalWatch>(&self.observers)?.first_breach()
    }

    /// Every condition of a lab's goal the run broke so far, each at its
    /// earliest breach, in the conditions' order: a test asks whether a
    /// run failed for the reasons its lab names, and only those.
    pub fn goal_breaches(&self) -> Vec<&Breach> {
        let Some(watch) = find::<GoalWatch>(&self.observers) else {
            return Vec::new();
        };
        let rank = |c: &str| CONDITION_IDS.iter().position(|id| *id == c);
        let mut all: Vec<&Breach> = watch.breaches.values().collect();
        all.sort_by_key(|b| rank(b.condition));
        all
    }

    /// What the run measured for its goal (requests, cost, longest wait…).
    pub fn goal_measures(&self) -> Option<&Measures> {
        find::<GoalWatch>(&self.observers).map(GoalWatch::measures)
    }
}

/// "after 1 receive", "after 3 receives".
fn receives(n: u32) -> String {
    count(u64::from(n), "receive", "receives")
}

/// The consumers' side effect ("charged"), the first consumer's, else
/// the first Lambda function's.
pub(crate) fn effect_word(s: &Scenario) -> String {
    (s.consumers.first().map(|c| c.side_effect.clone()))
        .or_else(|| s.lambdas.first().map(|l| l.handler.side_effect.clone()))
        .unwrap_or_else(|| "processed".to_string())
}

impl Goal {
    /// The sentence of a condition on who may call or on encryption.
    fn security_condition(&self, id: &str) -> String {
        match id {
            "noDeliveryLost" => "No message a topic sends to a subscribed queue is lost (refused, \
                                 then dropped or dead-lettered)"
                .to_string(),
            "noReplyLost" => "No reply is lost: every responder's reply reaches an existing \
                              reply queue"
                .to_string(),
            "noAccessDenied" => "No call is refused with AccessDenied".to_string(),
            "noCallThrottled" => {
                "No call is refused with RequestThrottled (SQS's request quotas)".to_string()
            }
            "leastPrivilege" => {
                let lp = self.least_privilege.as_ref().expect("given");
                let grants: Vec<String> = (lp.grants.iter())
                    .map(|g| {
                        let whom = match &g.source_arn {
                            Some(arn) => format!("{} for {arn}", g.principal),
                            None if g.principal.len() == 12 => format!("account {}", g.principal),
                            None => g.principal.clone(),
                        };
                        format!("{whom} may call {}", g.actions.join(", "))
                    })
                    .collect();
                format!(
                    "{} policy grants no more than needed: {}; no other account or service \
                     may call anything",
                    match lp.queue.ends_with('s') {
                        true => format!("{}'", lp.queue),
                        false => format!("{}'s", lp.queue),
                    },
                    grants.join("; ")
                )
            }
            "alarmFires" => {
                let f = self.alarm_fires.as_ref().expect("given");
                match f.not_before_ms {
                    Some(t) => format!(
                        "{} goes into ALARM by {}, and not before {}",
                        f.alarm,
                        at(f.by_ms),
                        at(t)
                    ),
                    None => format!("{} goes into ALARM by {}", f.alarm, at(f.by_ms)),
                }
            }
            "alarmNotifies" => {
                let n = self.alarm_notifies.as_ref().expect("given");
                format!("An alarm notifies {} by {}", n.topic, at(n.by_ms))
            }
            "kmsRequestsAtMost" => format!(
                "At most {} to KMS",
                count(
                    self.kms_requests_at_most.unwrap_or(0),
                    "request",
                    "requests"
                )
            ),
            _ => format!(
                "{} stays encrypted with SSE-KMS",
                self.encrypted_with_kms.clone().unwrap_or_default()
            ),
        }
    }

    /// The goal's conditions as sentences, in `CONDITION_IDS` order: the
    /// one place a page's goal list comes from.
    pub fn conditions(&self, s: &Scenario) -> Vec<ConditionText> {
        let effect = effect_word(s);
        let poison = if self.poison.is_empty() {
            String::new()
        } else {
            format!(" ({} ones left out)", self.poison.join(", "))
        };
        let once = |n: u64| times(n);
        self.ids()
            .into_iter()
            .map(|id| {
                let text = match id {
                    "deadLetterQueue" => {
                        let dlq = self.dead_letter_queue.clone().unwrap_or_default();
                        match self.poison.is_empty() {
                            true => format!("No message ends in {dlq}"),
                            false => format!(
                                "Exactly the poison messages ({}) end in {dlq}",
                                self.poison.join(", ")
                            ),
                        }
                    }
                    "sideEffectsAtMost" => format!(
                        "Each message is {effect} at most {}{poison}",
                        once(self.side_effects_at_most.unwrap_or(0))
                    ),
                    "sideEffectsExactly" => format!(
                        "Each message is {effect} exactly {}{poison}",
                        once(self.side_effects_exactly.unwrap_or(0))
                    ),
                    "noneLost" => "No message is lost".to_string(),
                    "noDuplicateDelivery" => {
                        "No message is delivered while another worker still holds it".to_string()
                    }
                    "oldestAge" => {
                        let age = self.oldest_age.clone().expect("given");
                        format!(
                            "No message waits more than {} in {} (the age of the oldest message, \
                             as CloudWatch's ApproximateAgeOfOldestMessage shows it)",
                            secs(age.at_most_seconds.saturating_mul(1000)),
                            age.queue
                        )
                    }
                    "emptyReceivesAtMost" => format!(
                        "At most {}",
                        count(
                            self.empty_receives_at_most.unwrap_or(0),
                            "empty receive",
                            "empty receives"
                        )
                    ),
                    "requestsAtMost" => format!(
                        "At most {}",
                        count(
                            self.requests_at_most.unwrap_or(0),
                            "SQS request",
                            "SQS requests"
                        )
                    ),
                    "costAtMostMicroUsd" => format!(
                        "Requests cost at most {} at SQS's list price",
                        dollars(
                            self.cost_at_most_micro_usd
                                .unwrap_or(0)
                                .saturating_mul(1000)
                        )
                    ),
                    "orderKeptPer" => format!(
                        "Messages with the same {} are {effect} in the order they were sent",
                        self.order_kept_per.clone().unwrap_or_default()
                    ),
                    "processedByMs" => format!(
                        "Every message is {effect} by {}{poison}",
                        at(self.processed_by_ms.unwrap_or(0))
                    ),
                    "notHandledBefore" => format!(
                        "No message is {effect} before the time in its {} attribute",
                        self.not_handled_before.clone().unwrap_or_default()
                    ),
                    _ => self.security_condition(id),
                };
                ConditionText {
                    id: id.to_string(),
                    text,
                }
            })
            .collect()
    }
}
