//! Labs: a scenario with a `goal` (what a fixed system achieves), `knobs`
//! (the settings a learner may change, with their ranges) and `explain`
//! (hints, the cause, the standard fix, and the fixes and "moves the
//! problem" non-fixes the native tests prove). A scenario without these
//! parts runs exactly as before: they only add checks.
//!
//! Knobs target typed settings, never free-form JSON paths: each target is
//! known, so it is checked at load and applied here (`with_settings`), and
//! the page never edits a scenario itself.

use std::collections::BTreeMap;
use std::ops::Not;

use serde::{Deserialize, Serialize};

use crate::scenario::{at_most, field_range, quoted, rule_for, FieldError, Redrive, Scenario};

/// What a fixed system achieves, over every seed the check runs. Each
/// condition given must hold; its id (in failures, in
/// `explain.nonFixes[].fails`) is its field name.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Goal {
    /// One sentence shown above the conditions.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub summary: String,
    /// Body substrings marking the messages meant to fail (poison): they
    /// are left out of `sideEffects*`, `processedByMs` and `orderKeptPer`,
    /// and are the ones `deadLetterQueue` expects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub poison: Vec<String>,
    /// At the end this queue holds exactly the poison messages (none when
    /// `poison` is empty), and no other message was ever moved there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub dead_letter_queue: Option<String>,
    /// No message had its side effect more than this many times.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub side_effects_at_most: Option<u64>,
    /// At the end, every message sent had its side effect exactly this
    /// many times (1 or more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub side_effects_exactly: Option<u64>,
    /// No message was lost (deleted, then its handler failed) or expired.
    #[serde(default, skip_serializing_if = "Not::not")]
    pub none_lost: bool,
    /// No message was received while another worker still held it.
    #[serde(default, skip_serializing_if = "Not::not")]
    pub no_duplicate_delivery: bool,
    /// No message stayed in the queue longer than this (the age of the
    /// oldest message, as CloudWatch's ApproximateAgeOfOldestMessage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub oldest_age: Option<OldestAge>,
    /// The consumers' receives that returned nothing, at most this many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub empty_receives_at_most: Option<u64>,
    /// Billable requests of the scenario's producers and consumers, as SQS
    /// counts them, at most this many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub requests_at_most: Option<u64>,
    /// Those requests at SQS's list price per million, at most this many
    /// millionths of a US dollar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub cost_at_most_micro_usd: Option<u64>,
    /// A message attribute: for each of its values, the messages had their
    /// first side effect in the order they were sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub order_kept_per: Option<String>,
    /// By this moment every message sent before it had its side effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub processed_by_ms: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OldestAge {
    pub queue: String,
    pub at_most_seconds: u64,
}

/// One setting the learner may change. An integer knob gives `min` and
/// `max` (inside the field's own range); `off: true` also allows "off"
/// (the field left out: no heartbeat, no redrive). A toggle gives none.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Knob {
    /// The name settings use: unique among the lab's knobs.
    pub id: String,
    pub label: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub help: String,
    pub target: Target,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub min: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub max: Option<i64>,
    /// The setting may be "off": the field is left out.
    #[serde(default, skip_serializing_if = "Not::not")]
    pub off: bool,
}

/// The scenario setting a knob changes: `{ "<target>": { selector } }`.
/// `consumer: "*"` means every consumer.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum Target {
    /// `queues[i].visibilityTimeoutSeconds`, seconds.
    VisibilityTimeoutSeconds { queue: String },
    /// `queues[i].receiveMessageWaitTimeSeconds`, seconds.
    ReceiveMessageWaitTimeSeconds { queue: String },
    /// `queues[i].redrive`: the value is maxReceiveCount; off removes it.
    #[serde(rename_all = "camelCase")]
    Redrive {
        queue: String,
        dead_letter_queue: String,
    },
    /// `consumers[i].batchSize`.
    BatchSize { consumer: String },
    /// `consumers[i].replicas`: how many workers run the consumer.
    Replicas { consumer: String },
    /// `consumers[i].waitTimeSeconds`.
    WaitTimeSeconds { consumer: String },
    /// `consumers[i].pollIntervalMs`.
    PollIntervalMs { consumer: String },
    /// `consumers[i].behaviour.heartbeatEveryMs`; off: no heartbeat.
    HeartbeatEveryMs { consumer: String },
    /// `consumers[i].behaviour.heartbeatVisibilitySeconds`; off: the queue's.
    HeartbeatVisibilitySeconds { consumer: String },
    /// `consumers[i].behaviour.idempotent`, a toggle.
    Idempotent { consumer: String },
    /// `consumers[i].behaviour.reportBatchItemFailures`, a toggle.
    ReportBatchItemFailures { consumer: String },
    /// `consumers[i].behaviour.deletesBeforeProcessing`, a toggle.
    DeletesBeforeProcessing { consumer: String },
    /// `consumers[i].behaviour.retryImmediately`, a toggle.
    RetryImmediately { consumer: String },
    /// `consumers[i].behaviour.retryBackoff`: the value is baseSeconds,
    /// with this `maxSeconds`; off removes it.
    #[serde(rename_all = "camelCase")]
    RetryBackoff { consumer: String, max_seconds: i64 },
    /// The queue's type, "standard" or "fifo": renames the queue (and its
    /// dead-letter queue, which SQS requires to be of the same type) to
    /// or from its `.fifo` name everywhere the scenario names it; a FIFO
    /// queue gets content-based deduplication.
    QueueType { queue: String },
    /// The MessageGroupId of each of the producer's `sends`: "one" (the
    /// producer's name for all), "perAttribute" (the send's value of
    /// `attribute`) or "perMessage" ("<producer>-<n>", unique).
    GroupId { producer: String, attribute: String },
}

/// The choices of a choice knob, fixed by the target (not by the file).
pub const QUEUE_TYPES: [&str; 2] = ["standard", "fifo"];
pub const GROUP_IDS: [&str; 3] = ["one", "perAttribute", "perMessage"];

/// A knob's value: a toggle, a whole number, or "off" (the field left
/// out: no heartbeat, no redrive). "off" is a word rather than JSON's
/// null so that it reads the same in a file, a share link and the page.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(untagged)]
pub enum KnobValue {
    Bool(bool),
    Int(i64),
    Off(Off),
    /// One of a choice knob's choices ("fifo", "perAttribute").
    Text(String),
}

/// The word "off".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Off {
    Off,
}

impl KnobValue {
    pub const OFF: KnobValue = KnobValue::Off(Off::Off);
}

/// Knob values by knob id.
pub type Settings = BTreeMap<String, KnobValue>;

/// Hints, the cause, the standard fix, and the settings the tests prove.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Explain {
    /// 1 to 5 hints, revealed one at a time.
    #[cfg_attr(feature = "contract", schemars(length(min = 1, max = MAX_HINTS)))]
    pub hints: Vec<String>,
    /// Why the lab's settings fail.
    pub cause: String,
    /// The standard fix.
    pub fix: String,
    /// How the fixes compare.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub compare: String,
    /// The AWS documentation page about it.
    pub doc: Doc,
    /// Settings that meet the goal over every seed of the check (1 to 8).
    #[cfg_attr(feature = "contract", schemars(length(min = 1, max = MAX_FIXES)))]
    pub fixes: Vec<Fix>,
    /// Settings that only move the problem: each fails the named condition
    /// (1 to 8).
    #[cfg_attr(feature = "contract", schemars(length(min = 1, max = MAX_NON_FIXES)))]
    pub non_fixes: Vec<NonFix>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Doc {
    pub title: String,
    /// An https://docs.aws.amazon.com/ or https://aws.amazon.com/ address.
    pub url: String,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Fix {
    pub name: String,
    pub settings: Settings,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NonFix {
    pub name: String,
    pub settings: Settings,
    /// The id of the goal condition these settings break.
    pub fails: String,
    /// Why this is also wrong.
    pub why: String,
}

pub const MAX_HINTS: usize = 5;

/// The most fixes and non-fixes a lab lists. They are proofs (the native
/// tests run each over every check seed), so a handful is plenty; the
/// shipped labs list at most 3 of each. Each one's settings are checked at
/// every load: a share link with 2,000 of them on a lab of 100,000 sends
/// took 28 s to open when each check copied the scenario.
pub const MAX_FIXES: usize = 8;
pub const MAX_NON_FIXES: usize = 8;

/// The condition ids, in the order `Goal` lists them.
pub const CONDITION_IDS: [&str; 11] = [
    "deadLetterQueue",
    "sideEffectsAtMost",
    "sideEffectsExactly",
    "noneLost",
    "noDuplicateDelivery",
    "oldestAge",
    "emptyReceivesAtMost",
    "requestsAtMost",
    "costAtMostMicroUsd",
    "orderKeptPer",
    "processedByMs",
];

fn refuse<T>(
    path: impl Into<String>,
    rule: impl Into<String>,
    got: String,
) -> Result<T, FieldError> {
    Err(FieldError {
        path: path.into(),
        rule: rule.into(),
        got,
    })
}

impl Goal {
    /// The ids of the conditions this goal gives, in `CONDITION_IDS` order.
    pub fn ids(&self) -> Vec<&'static str> {
        let given = [
            self.dead_letter_queue.is_some(),
            self.side_effects_at_most.is_some(),
            self.side_effects_exactly.is_some(),
            self.none_lost,
            self.no_duplicate_delivery,
            self.oldest_age.is_some(),
            self.empty_receives_at_most.is_some(),
            self.requests_at_most.is_some(),
            self.cost_at_most_micro_usd.is_some(),
            self.order_kept_per.is_some(),
            self.processed_by_ms.is_some(),
        ];
        CONDITION_IDS
            .iter()
            .zip(given)
            .filter_map(|(id, on)| on.then_some(*id))
            .collect()
    }

    /// The goal's own rules, in the scenario's words.
    fn validate(&self, s: &Scenario) -> Result<(), FieldError> {
        if self.ids().is_empty() {
            return refuse(
                "goal",
                "a goal with at least one condition (sideEffectsAtMost, noneLost, processedByMs, …)",
                "none".into(),
            );
        }
        let is_queue = |name: &str| s.queues.iter().any(|q| q.name == name);
        let queue_rule = "the name of one of the scenario's queues";
        if let Some(age) = &self.oldest_age {
            if !is_queue(&age.queue) {
                return refuse("goal.oldestAge.queue", queue_rule, quoted(&age.queue));
            }
        }
        if let Some(dlq) = &self.dead_letter_queue {
            if !is_queue(dlq) {
                return refuse("goal.deadLetterQueue", queue_rule, quoted(dlq));
            }
        }
        for (i, p) in self.poison.iter().enumerate() {
            if p.is_empty() {
                return refuse(
                    format!("goal.poison[{i}]"),
                    "a text of one character or more",
                    "\"\"".into(),
                );
            }
        }
        if !self.poison.is_empty() && self.dead_letter_queue.is_none() {
            return refuse(
                "goal.deadLetterQueue",
                "given when goal.poison is (where should the poison messages end?)",
                "nothing".into(),
            );
        }
        if self.side_effects_exactly == Some(0) {
            return refuse(
                "goal.sideEffectsExactly",
                "1 or more (to forbid the side effect, use sideEffectsAtMost 0)",
                "0".into(),
            );
        }
        if let Some(t) = self.processed_by_ms.filter(|t| *t > s.duration_ms) {
            return refuse(
                "goal.processedByMs",
                format!(
                    "a moment within the run (0 to durationMs = {})",
                    s.duration_ms
                ),
                t.to_string(),
            );
        }
        if let Some(attribute) = &self.order_kept_per {
            for (i, p) in s.producers.iter().enumerate() {
                if p.rate.is_some() {
                    return refuse(
                        format!("producers[{i}].rate"),
                        format!(
                            "left out when goal.orderKeptPer names the message attribute {} (a rate's sends carry no attributes: use sends with attributes)",
                            quoted(attribute)
                        ),
                        "a rate".into(),
                    );
                }
                for (j, send) in p.sends.iter().enumerate() {
                    if !send.attributes.contains_key(attribute) {
                        return refuse(
                            format!("producers[{i}].sends[{j}].attributes"),
                            format!(
                                "attributes with {} (goal.orderKeptPer keeps order per its value)",
                                quoted(attribute)
                            ),
                            "none by that name".into(),
                        );
                    }
                }
            }
        }
        Ok(())
    }
}

/// What a target's value is.
pub(crate) enum Kind {
    /// A whole number within the field's own range (lo, hi, unit words);
    /// `optional`: the field may be left out (off).
    Int {
        lo: i64,
        hi: i64,
        optional: bool,
    },
    Bool,
    Choice(&'static [&'static str]),
}

impl Target {
    /// The scenario field's name, whose own range (`field_range`) bounds
    /// the knob's.
    fn field(&self) -> &'static str {
        match self {
            Target::VisibilityTimeoutSeconds { .. } | Target::HeartbeatVisibilitySeconds { .. } => {
                "visibilityTimeoutSeconds"
            }
            Target::ReceiveMessageWaitTimeSeconds { .. } => "receiveMessageWaitTimeSeconds",
            Target::Redrive { .. } => "maxReceiveCount",
            Target::BatchSize { .. } => "batchSize",
            Target::Replicas { .. } => "replicas",
            Target::WaitTimeSeconds { .. } => "waitTimeSeconds",
            Target::PollIntervalMs { .. } => "pollIntervalMs",
            Target::HeartbeatEveryMs { .. } => "heartbeatEveryMs",
            Target::Idempotent { .. } => "idempotent",
            Target::ReportBatchItemFailures { .. } => "reportBatchItemFailures",
            Target::DeletesBeforeProcessing { .. } => "deletesBeforeProcessing",
            Target::RetryImmediately { .. } => "retryImmediately",
            Target::RetryBackoff { .. } => "baseSeconds",
            Target::QueueType { .. } => "queueType",
            Target::GroupId { .. } => "groupId",
        }
    }

    pub(crate) fn kind(&self) -> Kind {
        match self {
            Target::QueueType { .. } => return Kind::Choice(&QUEUE_TYPES),
            Target::GroupId { .. } => return Kind::Choice(&GROUP_IDS),
            _ => {}
        }
        let optional = matches!(
            self,
            Target::Redrive { .. }
                | Target::HeartbeatEveryMs { .. }
                | Target::HeartbeatVisibilitySeconds { .. }
                | Target::RetryBackoff { .. }
        );
        match field_range(self.field()) {
            Some((lo, hi, _)) => Kind::Int {
                lo: i64::try_from(lo).unwrap_or(i64::MAX),
                hi: i64::try_from(hi).unwrap_or(i64::MAX),
                optional,
            },
            None => Kind::Bool,
        }
    }

    /// The name of the target (its key in the file).
    fn name(&self) -> &'static str {
        match self {
            Target::VisibilityTimeoutSeconds { .. } => "visibilityTimeoutSeconds",
            Target::ReceiveMessageWaitTimeSeconds { .. } => "receiveMessageWaitTimeSeconds",
            Target::Redrive { .. } => "redrive",
            Target::BatchSize { .. } => "batchSize",
            Target::Replicas { .. } => "replicas",
            Target::WaitTimeSeconds { .. } => "waitTimeSeconds",
            Target::PollIntervalMs { .. } => "pollIntervalMs",
            Target::HeartbeatEveryMs { .. } => "heartbeatEveryMs",
            Target::HeartbeatVisibilitySeconds { .. } => "heartbeatVisibilitySeconds",
            Target::Idempotent { .. } => "idempotent",
            Target::ReportBatchItemFailures { .. } => "reportBatchItemFailures",
            Target::DeletesBeforeProcessing { .. } => "deletesBeforeProcessing",
            Target::RetryImmediately { .. } => "retryImmediately",
            Target::RetryBackoff { .. } => "retryBackoff",
            Target::QueueType { .. } => "queueType",
            Target::GroupId { .. } => "groupId",
        }
    }

    fn queue(&self) -> Option<&str> {
        match self {
            Target::VisibilityTimeoutSeconds { queue }
            | Target::ReceiveMessageWaitTimeSeconds { queue }
            | Target::Redrive { queue, .. }
            | Target::QueueType { queue } => Some(queue),
            _ => None,
        }
    }

    fn producer(&self) -> Option<&str> {
        match self {
            Target::GroupId { producer, .. } => Some(producer),
            _ => None,
        }
    }

    fn consumer(&self) -> Option<&str> {
        match self {
            Target::BatchSize { consumer }
            | Target::Replicas { consumer }
            | Target::WaitTimeSeconds { consumer }
            | Target::PollIntervalMs { consumer }
            | Target::HeartbeatEveryMs { consumer }
            | Target::HeartbeatVisibilitySeconds { consumer }
            | Target::Idempotent { consumer }
            | Target::ReportBatchItemFailures { consumer }
            | Target::DeletesBeforeProcessing { consumer }
            | Target::RetryImmediately { consumer }
            | Target::RetryBackoff { consumer, .. } => Some(consumer),
            _ => None,
        }
    }

    /// The scenario paths the knob writes (`consumer: "*"`: each
    /// consumer's), for a page to show an error at the field.
    pub fn paths(&self, s: &Scenario) -> Vec<String> {
        let behaviour = matches!(
            self,
            Target::HeartbeatEveryMs { .. }
                | Target::HeartbeatVisibilitySeconds { .. }
                | Target::Idempotent { .. }
                | Target::ReportBatchItemFailures { .. }
                | Target::DeletesBeforeProcessing { .. }
                | Target::RetryImmediately { .. }
                | Target::RetryBackoff { .. }
        );
        if let Some(producer) = self.producer() {
            return (0..s.producers.len())
                .filter(|i| s.producers[*i].name == producer)
                .map(|i| format!("producers[{i}].sends"))
                .collect();
        }
        let field = match self {
            Target::Redrive { .. } => "redrive".to_string(),
            Target::QueueType { .. } => "name".to_string(),
            _ if behaviour => format!("behaviour.{}", self.name()),
            _ => self.name().to_string(),
        };
        if let Some(queue) = self.queue() {
            return queue_index(s, queue)
                .map(|i| vec![format!("queues[{i}].{field}")])
                .unwrap_or_default();
        }
        consumer_indexes(s, self.consumer().unwrap_or_default())
            .into_iter()
            .map(|i| format!("consumers[{i}].{field}"))
            .collect()
    }

    /// The value the scenario gives now (the first consumer's for `*`).
    pub(crate) fn read(&self, s: &Scenario) -> Option<KnobValue> {
        if let Target::GroupId {
            producer,
            attribute,
        } = self
        {
            let p = s.producers.iter().find(|p| &p.name == producer)?;
            let all = |f: &dyn Fn(usize, &crate::scenario::ScheduledSend) -> Option<String>| {
                p.sends
                    .iter()
                    .enumerate()
                    .all(|(i, send)| send.group_id == f(i, send))
            };
            let choice = if all(&|_, _| Some(producer.clone())) {
                "one"
            } else if all(&|_, send| send.attributes.get(attribute).cloned()) {
                "perAttribute"
            } else if all(&|i, _| Some(format!("{producer}-{}", i + 1))) {
                "perMessage"
            } else {
                return None;
            };
            return Some(KnobValue::Text(choice.into()));
        }
        if let Target::QueueType { queue } = self {
            let q = &s.queues[queue_index(s, queue)?];
            let kind = if q.name.ends_with(".fifo") {
                "fifo"
            } else {
                "standard"
            };
            return Some(KnobValue::Text(kind.into()));
        }
        if let Some(queue) = self.queue() {
            let q = &s.queues[queue_index(s, queue)?];
            let int = |v: Option<i64>| v.map_or(KnobValue::OFF, KnobValue::Int);
            return Some(match self {
                Target::VisibilityTimeoutSeconds { .. } => int(q.visibility_timeout_seconds),
                Target::ReceiveMessageWaitTimeSeconds { .. } => {
                    int(q.receive_message_wait_time_seconds)
                }
                _ => int(q.redrive.as_ref().map(|r| r.max_receive_count)),
            });
        }
        let c = &s.consumers[*consumer_indexes(s, self.consumer()?).first()?];
        let b = &c.behaviour;
        let ms = |v: u64| KnobValue::Int(i64::try_from(v).unwrap_or(i64::MAX));
        Some(match self {
            Target::BatchSize { .. } => KnobValue::Int(c.batch_size),
            Target::Replicas { .. } => ms(c.replicas),
            Target::WaitTimeSeconds { .. } => KnobValue::Int(c.wait_time_seconds),
            Target::PollIntervalMs { .. } => ms(c.poll_interval_ms),
            Target::HeartbeatEveryMs { .. } => b.heartbeat_every_ms.map_or(KnobValue::OFF, ms),
            Target::HeartbeatVisibilitySeconds { .. } => b
                .heartbeat_visibility_seconds
                .map_or(KnobValue::OFF, KnobValue::Int),
            Target::Idempotent { .. } => KnobValue::Bool(b.idempotent),
            Target::ReportBatchItemFailures { .. } => KnobValue::Bool(b.report_batch_item_failures),
            Target::DeletesBeforeProcessing { .. } => KnobValue::Bool(b.deletes_before_processing),
            Target::RetryImmediately { .. } => KnobValue::Bool(b.retry_immediately),
            Target::RetryBackoff { .. } => b
                .retry_backoff
                .as_ref()
                .map_or(KnobValue::OFF, |r| KnobValue::Int(r.base_seconds)),
            _ => return None,
        })
    }

    /// Writes a value already checked against the knob (`Knob::check`).
    fn write(&self, s: &mut Scenario, value: &KnobValue) {
        let int = match value {
            KnobValue::Int(v) => Some(*v),
            _ => None,
        };
        let on = matches!(value, KnobValue::Bool(true));
        let text = match value {
            KnobValue::Text(t) => t.as_str(),
            _ => "",
        };
        if let Target::QueueType { queue } = self {
            set_queue_type(s, queue, text == "fifo");
            return;
        }
        if let Target::GroupId {
            producer,
            attribute,
        } = self
        {
            for p in s.producers.iter_mut().filter(|p| &p.name == producer) {
                let name = p.name.clone();
                for (i, send) in p.sends.iter_mut().enumerate() {
                    send.group_id = match text {
                        "one" => Some(name.clone()),
                        "perAttribute" => send.attributes.get(attribute).cloned(),
                        _ => Some(format!("{name}-{}", i + 1)),
                    };
                }
            }
            return;
        }
        if let Some(queue) = self.queue() {
            let Some(i) = queue_index(s, queue) else {
                return;
            };
            let q = &mut s.queues[i];
            match self {
                Target::VisibilityTimeoutSeconds { .. } => q.visibility_timeout_seconds = int,
                Target::ReceiveMessageWaitTimeSeconds { .. } => {
                    q.receive_message_wait_time_seconds = int
                }
                Target::Redrive {
                    dead_letter_queue, ..
                } => {
                    q.redrive = int.map(|max_receive_count| Redrive {
                        dead_letter_queue: dead_letter_queue.clone(),
                        max_receive_count,
                    })
                }
                _ => {}
            }
            return;
        }
        let ms = int.and_then(|v| u64::try_from(v).ok());
        for i in consumer_indexes(s, self.consumer().unwrap_or_default()) {
            let c = &mut s.consumers[i];
            let b = &mut c.behaviour;
            match self {
                Target::BatchSize { .. } => c.batch_size = int.unwrap_or(c.batch_size),
                Target::Replicas { .. } => c.replicas = ms.unwrap_or(c.replicas),
                Target::WaitTimeSeconds { .. } => {
                    c.wait_time_seconds = int.unwrap_or(c.wait_time_seconds)
                }
                Target::PollIntervalMs { .. } => {
                    c.poll_interval_ms = ms.unwrap_or(c.poll_interval_ms)
                }
                Target::HeartbeatEveryMs { .. } => b.heartbeat_every_ms = ms,
                Target::HeartbeatVisibilitySeconds { .. } => b.heartbeat_visibility_seconds = int,
                Target::Idempotent { .. } => b.idempotent = on,
                Target::ReportBatchItemFailures { .. } => b.report_batch_item_failures = on,
                Target::DeletesBeforeProcessing { .. } => b.deletes_before_processing = on,
                Target::RetryImmediately { .. } => b.retry_immediately = on,
                Target::RetryBackoff { max_seconds, .. } => {
                    b.retry_backoff = int.map(|base_seconds| crate::scenario::RetryBackoff {
                        base_seconds,
                        max_seconds: *max_seconds,
                    })
                }
                _ => {}
            }
        }
    }
}

fn queue_index(s: &Scenario, name: &str) -> Option<usize> {
    s.queues.iter().position(|q| q.name == name)
}

/// The consumers a selector names: `*` is every one.
fn consumer_indexes(s: &Scenario, name: &str) -> Vec<usize> {
    (0..s.consumers.len())
        .filter(|i| name == "*" || s.consumers[*i].name == name)
        .collect()
}

impl Knob {
    /// The knob's own rules; `i` is its place in `knobs`.
    fn validate(&self, i: usize, s: &Scenario) -> Result<(), FieldError> {
        let path = |field: &str| format!("knobs[{i}].{field}");
        let target = format!("knobs[{i}].target.{}", self.target.name());
        if let Some(queue) = self.target.queue() {
            if queue_index(s, queue).is_none() {
                let rule = "the name of one of the scenario's queues";
                return refuse(format!("{target}.queue"), rule, quoted(queue));
            }
        }
        if let Target::Redrive {
            queue,
            dead_letter_queue,
        } = &self.target
        {
            let (q, dlq) = (queue_index(s, queue), queue_index(s, dead_letter_queue));
            let same_type = |a: &str, b: &str| a.ends_with(".fifo") == b.ends_with(".fifo");
            if !matches!((q, dlq), (Some(q), Some(d)) if d < q && same_type(queue, dead_letter_queue))
            {
                let rule = format!(
                    "the name of a queue listed before {} and of the same type (SQS moves messages only between queues of the same type)",
                    quoted(queue)
                );
                return refuse(
                    format!("{target}.deadLetterQueue"),
                    rule,
                    quoted(dead_letter_queue),
                );
            }
        }
        if let Target::GroupId {
            producer,
            attribute,
        } = &self.target
        {
            let Some((i, p)) = s
                .producers
                .iter()
                .enumerate()
                .find(|(_, p)| &p.name == producer)
            else {
                let rule = "the name of one of the scenario's producers";
                return refuse(format!("{target}.producer"), rule, quoted(producer));
            };
            if p.rate.is_some() {
                let rule =
                    "left out when a groupId knob sets this producer's group ids (use sends)";
                return refuse(format!("producers[{i}].rate"), rule, "a rate".into());
            }
            if let Some(j) = p
                .sends
                .iter()
                .position(|send| !send.attributes.contains_key(attribute))
            {
                let rule = format!(
                    "attributes with {} (the groupId knob groups by it)",
                    quoted(attribute)
                );
                return refuse(
                    format!("producers[{i}].sends[{j}].attributes"),
                    rule,
                    "none by that name".into(),
                );
            }
        }
        if let Some(consumer) = self.target.consumer() {
            if consumer_indexes(s, consumer).is_empty() {
                let rule = "\"*\" or the name of one of the scenario's consumers";
                return refuse(format!("{target}.consumer"), rule, quoted(consumer));
            }
        }
        match self.target.kind() {
            Kind::Choice(_) => {
                for (field, given) in [
                    ("min", self.min.is_some()),
                    ("max", self.max.is_some()),
                    ("off", self.off),
                ] {
                    if given {
                        let rule = format!("left out: {} is a choice", self.target.name());
                        return refuse(path(field), rule, "a value".into());
                    }
                }
            }
            Kind::Bool => {
                for (field, given) in [
                    ("min", self.min.is_some()),
                    ("max", self.max.is_some()),
                    ("off", self.off),
                ] {
                    if given {
                        let rule = format!(
                            "left out: {} is a toggle (true or false)",
                            self.target.name()
                        );
                        return refuse(path(field), rule, "a value".into());
                    }
                }
            }
            Kind::Int { lo, hi, optional } => {
                let field_rule = rule_for(self.target.field()).unwrap_or_default();
                let (Some(min), Some(max)) = (self.min, self.max) else {
                    let rule = format!("given: a number knob gives min and max, each {field_rule}");
                    let which = if self.min.is_none() { "min" } else { "max" };
                    return refuse(path(which), rule, "nothing".into());
                };
                for (field, v) in [("min", min), ("max", max)] {
                    if !(lo..=hi).contains(&v) {
                        return refuse(path(field), field_rule.clone(), v.to_string());
                    }
                }
                if min > max {
                    return refuse(
                        path("max"),
                        format!("at least min ({min})"),
                        max.to_string(),
                    );
                }
                if self.off && !optional {
                    let rule = format!(
                        "left out: {} cannot be off (only heartbeatEveryMs, heartbeatVisibilitySeconds, redrive and retryBackoff can)",
                        self.target.name()
                    );
                    return refuse(path("off"), rule, "true".into());
                }
            }
        }
        // The file's own setting is one the learner could have chosen.
        let own = self.target.read(s).unwrap_or(KnobValue::OFF);
        if let Err(e) = self.check(&own) {
            let paths = self.target.paths(s).join(", ");
            return refuse(
                format!("knobs[{i}]"),
                format!(
                    "a knob whose range holds the file's own setting ({paths}): {}",
                    e.rule
                ),
                e.got,
            );
        }
        Ok(())
    }

    /// A value for this knob, or the rule it breaks (path `settings.<id>`).
    fn check(&self, value: &KnobValue) -> Result<(), FieldError> {
        let got = match value {
            KnobValue::Text(t) => quoted(t),
            KnobValue::Off(_) => "\"off\"".to_string(),
            KnobValue::Bool(b) => b.to_string(),
            KnobValue::Int(v) => v.to_string(),
        };
        let path = format!("settings.{}", self.id);
        match (self.target.kind(), value) {
            (Kind::Choice(choices), KnobValue::Text(t)) if choices.contains(&t.as_str()) => Ok(()),
            (Kind::Choice(choices), _) => {
                let words: Vec<String> = choices.iter().map(|c| format!("\"{c}\"")).collect();
                let rule = match words.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} or {last}", rest.join(", "))
                    }
                    _ => words.join(""),
                };
                refuse(path, rule, got)
            }
            (Kind::Bool, KnobValue::Bool(_)) => Ok(()),
            (Kind::Bool, _) => refuse(path, "true or false", got),
            (Kind::Int { .. }, KnobValue::Int(v))
                if (self.min.unwrap_or(i64::MIN)..=self.max.unwrap_or(i64::MAX)).contains(v) =>
            {
                Ok(())
            }
            (Kind::Int { .. }, KnobValue::Off(_)) if self.off => Ok(()),
            (Kind::Int { .. }, _) => {
                let unit = field_range(self.target.field()).map_or("", |(.., unit)| unit);
                let (min, max) = (self.min.unwrap_or(0), self.max.unwrap_or(0));
                let off = if self.off { ", or \"off\"" } else { "" };
                refuse(
                    path,
                    format!("a whole number{unit} from {min} to {max}{off}"),
                    got,
                )
            }
        }
    }
}

impl Explain {
    fn validate(&self, s: &Scenario) -> Result<(), FieldError> {
        if !(1..=MAX_HINTS).contains(&self.hints.len()) {
            let rule = format!("a list of 1 to {MAX_HINTS} hints");
            return refuse("explain.hints", rule, self.hints.len().to_string());
        }
        for (field, text) in [
            ("cause", &self.cause),
            ("fix", &self.fix),
            ("doc.title", &self.doc.title),
        ] {
            if text.trim().is_empty() {
                return refuse(format!("explain.{field}"), "a sentence", "nothing".into());
            }
        }
        let url = &self.doc.url;
        if !(url.starts_with("https://docs.aws.amazon.com/")
            || url.starts_with("https://aws.amazon.com/"))
        {
            let rule = "an AWS documentation address (https://docs.aws.amazon.com/… or https://aws.amazon.com/…)";
            return refuse("explain.doc.url", rule, quoted(url));
        }
        if self.fixes.is_empty() {
            return refuse("explain.fixes", "a list of at least one fix", "none".into());
        }
        if self.non_fixes.is_empty() {
            return refuse(
                "explain.nonFixes",
                "a list of at least one setting that only moves the problem",
                "none".into(),
            );
        }
        at_most(
            "explain.fixes",
            self.fixes.len() as u64,
            MAX_FIXES as u64,
            "fixes",
        )?;
        at_most(
            "explain.nonFixes",
            self.non_fixes.len() as u64,
            MAX_NON_FIXES as u64,
            "non-fixes",
        )?;
        let ids = s.goal.as_ref().map(Goal::ids).unwrap_or_default();
        let fixes = self.fixes.iter().map(|f| ("fixes", &f.settings));
        let non_fixes = self.non_fixes.iter().map(|f| ("nonFixes", &f.settings));
        let mut counts = BTreeMap::new();
        for (list, settings) in fixes.chain(non_fixes) {
            let j = counts.entry(list).or_insert(0usize);
            // Checked against the knobs, not applied: no copy of the scenario.
            if let Err(e) = s.check_settings(settings) {
                return refuse(format!("explain.{list}[{}].{}", j, e.path), e.rule, e.got);
            }
            *j += 1;
        }
        for (j, n) in self.non_fixes.iter().enumerate() {
            if !ids.contains(&n.fails.as_str()) {
                let rule = format!(
                    "the id of one of the goal's conditions ({})",
                    ids.join(", ")
                );
                return refuse(
                    format!("explain.nonFixes[{j}].fails"),
                    rule,
                    quoted(&n.fails),
                );
            }
        }
        Ok(())
    }
}

impl Scenario {
    /// A lab's goal, knobs and explanation: each checked against the
    /// scenario (nothing is checked when the parts are absent).
    pub(crate) fn validate_lab(&self) -> Result<(), FieldError> {
        if let Some(goal) = &self.goal {
            goal.validate(self)?;
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, knob) in self.knobs.iter().enumerate() {
            if knob.id.is_empty() || !seen.insert(&knob.id) {
                return refuse(
                    format!("knobs[{i}].id"),
                    "a name no other knob has",
                    quoted(&knob.id),
                );
            }
            knob.validate(i, self)?;
        }
        if let Some(explain) = &self.explain {
            if self.goal.is_none() {
                return refuse(
                    "explain",
                    "left out of a scenario without a goal",
                    "an explanation".into(),
                );
            }
            explain.validate(self)?;
        }
        Ok(())
    }

    /// The lab's own settings (the broken ones): each knob's value in the file.
    pub fn lab_settings(&self) -> Settings {
        self.knobs
            .iter()
            .map(|k| (k.id.clone(), k.target.read(self).unwrap_or(KnobValue::OFF)))
            .collect()
    }

    /// The scenario the learner runs: this one with the given knob values
    /// (a partial map: the others keep the file's). Goal, knobs and
    /// explanation are kept, so the result is a plain scenario a page runs,
    /// replays and shares like any other.
    pub fn with_settings(&self, settings: &Settings) -> Result<Scenario, FieldError> {
        self.check_settings(settings)?;
        let mut out = self.clone();
        for (id, value) in settings {
            // Read from the result: a queueType setting renames the queue
            // in the other knobs' selectors too.
            if let Some(knob) = out.knobs.iter().find(|k| &k.id == id).cloned() {
                knob.target.write(&mut out, value);
            }
        }
        Ok(out)
    }

    /// Whether `with_settings` accepts these settings, found without
    /// making the scenario: each id names a knob, each value is within its
    /// knob, and together they ask for nothing no handler does. Costs the
    /// settings and the consumers, never the scenario's sends, so a lab's
    /// fixes are checked at load for next to nothing.
    pub fn check_settings(&self, settings: &Settings) -> Result<(), FieldError> {
        // Per consumer: (retryImmediately, a retryBackoff), as the
        // settings leave them; later ids win, as `with_settings` writes.
        let mut retries: Vec<(bool, bool)> = (self.consumers.iter())
            .map(|c| {
                let b = &c.behaviour;
                (b.retry_immediately, b.retry_backoff.is_some())
            })
            .collect();
        for (id, value) in settings {
            // Knob ids never change with a setting (a queueType renames
            // selectors only), so the file's knobs answer for the result's.
            let Some(knob) = self.knobs.iter().find(|k| &k.id == id) else {
                let ids: Vec<&str> = self.knobs.iter().map(|k| k.id.as_str()).collect();
                let rule = match ids.is_empty() {
                    true => "the id of a knob, and this scenario has none".to_string(),
                    false => format!("the id of one of this lab's knobs ({})", ids.join(", ")),
                };
                // An id from outside (a page script's settings): its echo is bounded.
                let path = format!("settings.{}", queuelab_engine::echo(id));
                return refuse(path, rule, quoted(id));
            };
            knob.check(value)?;
            match &knob.target {
                Target::RetryImmediately { consumer } => {
                    for i in consumer_indexes(self, consumer) {
                        retries[i].0 = matches!(value, KnobValue::Bool(true));
                    }
                }
                Target::RetryBackoff { consumer, .. } => {
                    for i in consumer_indexes(self, consumer) {
                        retries[i].1 = matches!(value, KnobValue::Int(_));
                    }
                }
                _ => {}
            }
        }
        // Settings that together ask for what no handler does.
        if retries.iter().any(|(now, backoff)| *now && *backoff) {
            let ids: Vec<String> = (self.knobs.iter())
                .filter(|k| {
                    matches!(
                        k.target,
                        Target::RetryImmediately { .. } | Target::RetryBackoff { .. }
                    )
                })
                .map(|k| format!("settings.{}", k.id))
                .collect();
            return refuse(
                ids.first().cloned().unwrap_or_else(|| "settings".into()),
                format!(
                    "settings where {} are not both on (a message released at once cannot also \
                     wait)",
                    ids.join(" and ")
                ),
                "both on".into(),
            );
        }
        Ok(())
    }
}

/// Makes `queue` a FIFO queue (`fifo`) or a standard one: renames it to
/// or from its `.fifo` name, and its dead-letter queue with it, since SQS
/// moves messages only between queues of the same type. A FIFO queue gets
/// content-based deduplication (a lab's bodies are unique); a standard
/// one loses the FIFO-only fields.
fn set_queue_type(s: &mut Scenario, queue: &str, fifo: bool) {
    let Some(i) = queue_index(s, queue) else {
        return;
    };
    let renamed = |name: &str| match fifo {
        true if !name.ends_with(".fifo") => format!("{name}.fifo"),
        true => name.to_string(),
        false => name.strip_suffix(".fifo").unwrap_or(name).to_string(),
    };
    let mut names = vec![queue.to_string()];
    if let Some(r) = &s.queues[i].redrive {
        names.push(r.dead_letter_queue.clone());
    }
    for name in names {
        let Some(j) = queue_index(s, &name) else {
            continue;
        };
        let q = &mut s.queues[j];
        if fifo {
            q.content_based_deduplication = Some(true);
        } else {
            q.content_based_deduplication = None;
            q.deduplication_scope = None;
        }
        rename_queue(s, &name, &renamed(&name));
    }
}

/// Renames a queue everywhere the scenario names it: the queue, redrive
/// policies, producers, consumers, schedules, alarms, the goal, knob selectors,
/// narration and checkpoint triggers, and `{name.…}` placeholders.
pub fn rename_queue(s: &mut Scenario, from: &str, to: &str) {
    if from == to {
        return;
    }
    let fix = |name: &mut String| {
        if name == from {
            *name = to.to_string();
        }
    };
    for q in &mut s.queues {
        fix(&mut q.name);
        if let Some(r) = &mut q.redrive {
            fix(&mut r.dead_letter_queue);
        }
    }
    s.producers.iter_mut().for_each(|p| fix(&mut p.queue));
    s.consumers.iter_mut().for_each(|c| fix(&mut c.queue));
    s.schedule.iter_mut().for_each(|e| fix(&mut e.queue));
    s.alarms.iter_mut().for_each(|a| fix(&mut a.queue));
    if let Some(goal) = &mut s.goal {
        if let Some(age) = &mut goal.oldest_age {
            fix(&mut age.queue);
        }
        if let Some(dlq) = &mut goal.dead_letter_queue {
            fix(dlq);
        }
    }
    for knob in &mut s.knobs {
        match &mut knob.target {
            Target::VisibilityTimeoutSeconds { queue }
            | Target::ReceiveMessageWaitTimeSeconds { queue }
            | Target::QueueType { queue } => fix(queue),
            Target::Redrive {
                queue,
                dead_letter_queue,
            } => {
                fix(queue);
                fix(dead_letter_queue);
            }
            _ => {}
        }
    }
    let (old, new) = (format!("{{{from}."), format!("{{{to}."));
    let words = |text: &mut String| {
        if text.contains(&old) {
            *text = text.replace(&old, &new);
        }
    };
    for line in &mut s.narration {
        words(&mut line.text);
        if let Some(q) = line.when.as_mut().and_then(|w| w.queue.as_mut()) {
            fix(q);
        }
    }
    for c in &mut s.checkpoints {
        words(&mut c.question);
        if let Some(q) = c.when.as_mut().and_then(|w| w.queue.as_mut()) {
            fix(q);
        }
        for choice in &mut c.choices {
            words(&mut choice.text);
            if let Some(b) = &mut choice.because {
                words(b);
            }
            if let Some(q) = choice.when.as_mut().and_then(|w| w.queue.as_mut()) {
                fix(q);
            }
        }
    }
}
