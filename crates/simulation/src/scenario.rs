//! The scenario format: queues, producers, consumers and narration, as a
//! typed document. The wasm binding (or any host) parses the JSON text into
//! these types with serde; the engine never sees JSON. The JSON Schema in
//! `web/scenarios/scenario.schema.json` and the TypeScript types are
//! generated from them (the `contract` feature; see crates/wasm/tests/contract.rs):
//! doc comments become the schema's descriptions, `schemars(...)` its ranges.

use queuelab_engine::{
    echo, is_caller_name, is_queue_name, AttributeName, DedupScope, RedrivePolicy,
    MAX_CALLER_CHARS, MAX_NUMBER_OF_MESSAGES_RANGE, MAX_VIRTUAL_MS, MAX_VISIBILITY_TIMEOUT,
    WAIT_TIME_SECONDS_RANGE,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Queues, producers, simulated consumers and narration, replayed
/// deterministically from a seed. Times are virtual milliseconds from the
/// start of the run.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[cfg_attr(feature = "contract", schemars(title = "Queuelab scenario"))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scenario {
    /// Short title shown in the picker.
    pub title: String,
    /// One or two sentences on what the scenario teaches.
    #[serde(default)]
    pub summary: String,
    /// PRNG seed: the same seed replays the same run. Default 0.
    #[serde(default)]
    pub seed: u64,
    /// How long the run lasts, in virtual ms.
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub duration_ms: u64,
    /// Queues created at time 0, in this order: a dead-letter queue comes
    /// before the queues that use it. At most 100.
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_SCENARIO_QUEUES)))]
    pub queues: Vec<QueueSpec>,
    /// At most 100.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_PRODUCERS)))]
    pub producers: Vec<Producer>,
    /// Messages sent at given moments, however far ahead (`Schedule`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_SCHEDULES)))]
    pub schedule: Vec<Schedule>,
    /// At most 100 workers in all, each consumer counting its `replicas`.
    #[serde(default)]
    pub consumers: Vec<Consumer>,
    /// Lines shown and announced at given moments.
    #[serde(default)]
    pub narration: Vec<Narration>,
    /// Questions the run pauses on ("predict, then see"): the learner
    /// answers, then the run shows what happened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_CHECKPOINTS)))]
    pub checkpoints: Vec<Checkpoint>,
    /// Depth alarms, like a CloudWatch alarm on ApproximateNumberOfMessagesVisible.
    #[serde(default)]
    pub alarms: Vec<Alarm>,
    /// A lab's goal: what a fixed system achieves over every seed of
    /// "Check my fix". A scenario with a goal is a lab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub goal: Option<crate::lab::Goal>,
    /// A lab's settings the learner may change, with their ranges.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub knobs: Vec<crate::lab::Knob>,
    /// A lab's hints, cause and standard fix, and the fixes and non-fixes
    /// its tests prove.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub explain: Option<crate::lab::Explain>,
}

/// A queue to create at time 0. Queues are created in the order listed, so
/// a dead-letter queue comes before the queues that use it.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueueSpec {
    /// FIFO queue names end in .fifo.
    #[cfg_attr(
        feature = "contract",
        schemars(regex(pattern = r"^[A-Za-z0-9_-]{1,80}$|^[A-Za-z0-9_-]{1,75}\.fifo$"))
    )]
    pub name: String,
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(min = VISIBILITY.0, max = VISIBILITY.1)))]
    pub visibility_timeout_seconds: Option<i64>,
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(min = DELAY.0, max = DELAY.1)))]
    pub delay_seconds: Option<i64>,
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(min = RETENTION.0, max = RETENTION.1)))]
    pub message_retention_period_seconds: Option<i64>,
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(min = RECEIVE_WAIT.0, max = RECEIVE_WAIT.1)))]
    pub receive_message_wait_time_seconds: Option<i64>,
    /// FIFO only.
    #[serde(default)]
    pub content_based_deduplication: Option<bool>,
    /// FIFO only.
    #[serde(default)]
    #[cfg_attr(
        feature = "contract",
        schemars(with = "DeduplicationScope"),
        ts(type = r#""queue" | "messageGroup" | null"#)
    )]
    pub deduplication_scope: Option<String>,
    /// Moves messages to `deadLetterQueue` after `maxReceiveCount` receives.
    #[serde(default)]
    pub redrive: Option<Redrive>,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Redrive {
    /// Name of a queue listed earlier.
    pub dead_letter_queue: String,
    #[cfg_attr(feature = "contract", schemars(range(min = RedrivePolicy::MAX_RECEIVE_COUNT_RANGE.0, max = RedrivePolicy::MAX_RECEIVE_COUNT_RANGE.1)))]
    pub max_receive_count: i64,
}

/// The values of `deduplicationScope`, for the schema only: the engine
/// reads the text and answers an unknown one with SQS's own error.
#[cfg(feature = "contract")]
#[derive(schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
enum DeduplicationScope {
    Queue,
    MessageGroup,
}

/// SQS's range of a numeric queue attribute, from the engine, for the
/// schema's `minimum` and `maximum` (the contract build only): the schema
/// and `Scenario::validate` say the engine's ranges, never copies of them.
#[cfg(feature = "contract")]
const fn sqs_range(name: AttributeName) -> (i64, i64) {
    match name.range() {
        Some(range) => range,
        // Evaluated in the constants below, at compile time.
        None => panic!("not a numeric attribute"),
    }
}
#[cfg(feature = "contract")]
const VISIBILITY: (i64, i64) = sqs_range(AttributeName::VisibilityTimeout);
#[cfg(feature = "contract")]
const DELAY: (i64, i64) = sqs_range(AttributeName::DelaySeconds);
#[cfg(feature = "contract")]
const RETENTION: (i64, i64) = sqs_range(AttributeName::MessageRetentionPeriod);
#[cfg(feature = "contract")]
const RECEIVE_WAIT: (i64, i64) = sqs_range(AttributeName::ReceiveMessageWaitTimeSeconds);

/// Something that sends messages: at fixed moments, or at a steady rate.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Producer {
    /// Its name in the log, at most 80 characters (every send records it).
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_CALLER_CHARS)))]
    pub name: String,
    pub queue: String,
    #[serde(default)]
    pub sends: Vec<ScheduledSend>,
    #[serde(default)]
    pub rate: Option<Rate>,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScheduledSend {
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub at_ms: u64,
    #[cfg_attr(feature = "contract", schemars(length(min = 1)))]
    pub body: String,
    /// MessageGroupId (required on FIFO queues).
    #[serde(default)]
    pub group_id: Option<String>,
    /// MessageDeduplicationId (FIFO).
    #[serde(default)]
    pub dedup_id: Option<String>,
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(min = 0, max = 900)))]
    pub delay_seconds: Option<i64>,
    /// String message attributes.
    #[serde(default)]
    pub attributes: std::collections::BTreeMap<String, String>,
}

/// A scheduler (EventBridge Scheduler, a cron job) that sends each message
/// at its moment: it waits in the run, so a moment may be hours or days
/// ahead, where SQS's own DelaySeconds stops at 900 seconds (15 minutes).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Schedule {
    /// Its name in the log, at most 80 characters (every send records it).
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_CALLER_CHARS)))]
    pub name: String,
    /// One of the scenario's queues.
    pub queue: String,
    /// The messages, each sent at its `atMs` (a FIFO queue's with their
    /// `groupId`, and a `dedupId` unless the queue has
    /// contentBasedDeduplication); a `delaySeconds` delays it further.
    pub sends: Vec<ScheduledSend>,
}

/// The most schedules a scenario has (Queuelab's choice, as for producers).
pub const MAX_SCHEDULES: usize = 100;

impl Scenario {
    /// The names of the scenario's senders (producers, then schedules):
    /// a message anyone else sent is the learner's.
    pub(crate) fn senders(&self) -> impl Iterator<Item = &str> {
        let producers = self.producers.iter().map(|p| p.name.as_str());
        producers.chain(self.schedule.iter().map(|s| s.name.as_str()))
    }

    /// Each schedule: at most `MAX_SCHEDULES`, a short name, one of the
    /// scenario's queues, moments the run can reach, a delay SQS accepts,
    /// and what a FIFO queue requires of every send.
    fn validate_schedule(&self) -> Result<(), FieldError> {
        let count = self.schedule.len() as u64;
        at_most("schedule", count, MAX_SCHEDULES as u64, "schedules")?;
        for (i, s) in self.schedule.iter().enumerate() {
            short_name(format!("schedule[{i}].name"), &s.name)?;
            let Some(queue) = self.queues.iter().find(|q| q.name == s.queue) else {
                return Err(FieldError {
                    path: format!("schedule[{i}].queue"),
                    rule: "the name of one of the scenario's queues".into(),
                    got: quoted(&s.queue),
                });
            };
            let fifo = is_fifo(&queue.name);
            let content_dedup = queue.content_based_deduplication == Some(true);
            for (j, send) in s.sends.iter().enumerate() {
                let path = |field: &str| format!("schedule[{i}].sends[{j}].{field}");
                within(path("atMs"), i128::from(send.at_ms))?;
                if let Some(delay) = send.delay_seconds {
                    within(path("delaySeconds"), i128::from(delay))?;
                }
                let missing = |field: &str, rule: &str| FieldError {
                    path: path(field),
                    rule: rule.into(),
                    got: "none".into(),
                };
                if send.body.is_empty() {
                    return Err(missing("body", "a message body of at least 1 character"));
                }
                if fifo && send.group_id.is_none() {
                    return Err(missing(
                        "groupId",
                        "a MessageGroupId: every send to a FIFO queue has one",
                    ));
                }
                if fifo && !content_dedup && send.dedup_id.is_none() {
                    return Err(missing(
                        "dedupId",
                        "a MessageDeduplicationId: the queue has no contentBasedDeduplication",
                    ));
                }
            }
        }
        Ok(())
    }
}

/// count sends, one every everyMs from startMs; {n} in body and groupId
/// becomes the send's number.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Rate {
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub start_ms: u64,
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = MAX_SPAN_MS)))]
    pub every_ms: u64,
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_RATE_COUNT)))]
    pub count: u64,
    #[cfg_attr(feature = "contract", schemars(length(min = 1)))]
    pub body: String,
    #[serde(default)]
    pub group_id: Option<String>,
}

/// A simulated worker running the loop real consumer code runs.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Consumer {
    /// Its name in the log, at most 80 characters (every event of its
    /// calls records it).
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_CALLER_CHARS)))]
    pub name: String,
    pub queue: String,
    /// When the worker starts polling.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub start_ms: u64,
    /// When it stops: it receives nothing new after this, but finishes the
    /// batch it holds and what a long poll already waiting then returns.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub stop_ms: Option<u64>,
    /// MaxNumberOfMessages of each receive. Default 1.
    #[serde(default = "one")]
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = 10)))]
    pub batch_size: i64,
    /// 0 short-polls; up to 20 long-polls. Default 0.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(min = 0, max = 20)))]
    pub wait_time_seconds: i64,
    /// Pause after an empty short poll. Default 1000; from 1 ms to a year.
    #[serde(default = "poll_interval")]
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = MAX_SPAN_MS)))]
    pub poll_interval_ms: u64,
    /// How long handling one message takes: fixed or drawn from the seeded PRNG.
    pub processing: Processing,
    /// What the handler does, in counts and sentences, at most 80
    /// characters. Default "charged".
    #[serde(default = "charged")]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_CALLER_CHARS)))]
    pub side_effect: String,
    /// How many identical workers run this consumer, 1 to 20. The first
    /// keeps `name`, the others are `name-2`, `name-3`, …; each draws its
    /// own processing times. Default 1.
    #[serde(default = "one_worker", skip_serializing_if = "is_one")]
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = MAX_REPLICAS)))]
    pub replicas: u64,
    /// Added to the processing time of the first message of each batch
    /// received: a cost paid once per receive (a connection, a commit), so
    /// bigger batches spread it. Default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_SPAN_MS)))]
    pub batch_overhead_ms: u64,
    #[serde(default)]
    pub behaviour: Behaviour,
}

fn one() -> i64 {
    1
}

fn one_worker() -> u64 {
    1
}

fn is_one(n: &u64) -> bool {
    *n == 1
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The most workers one consumer entry runs (`replicas`).
pub const MAX_REPLICAS: u64 = 20;

fn poll_interval() -> u64 {
    1000
}

fn charged() -> String {
    "charged".into()
}

/// Processing time: fixed, or drawn from the seeded PRNG.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum Processing {
    FixedMs(#[cfg_attr(feature = "contract", schemars(range(min = 0, max = MAX_SPAN_MS)))] u64),
    UniformMs {
        #[cfg_attr(feature = "contract", schemars(range(min = 0, max = MAX_SPAN_MS)))]
        min: u64,
        #[cfg_attr(feature = "contract", schemars(range(min = 0, max = MAX_SPAN_MS)))]
        max: u64,
    },
    ExponentialMs {
        #[cfg_attr(feature = "contract", schemars(range(min = 0, max = MAX_SPAN_MS)))]
        mean: u64,
    },
}

/// How the worker's handler behaves; every field defaults to the plain
/// "process, then delete" loop.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Behaviour {
    /// Keeps a set of processed message ids and skips the side effect for
    /// one it has seen (an idempotent consumer).
    #[serde(default)]
    pub idempotent: bool,
    /// Bodies containing any of these fail every time (poison messages).
    #[serde(default)]
    pub fails_on: Vec<String>,
    /// Fails on every Nth message it handles (the Nth, 2Nth, ..., counting
    /// redeliveries), whatever the body: a flaky dependency. Above 0.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(min = 1)))]
    pub fails_every_nth: Option<u64>,
    /// Crashes after the side effect and before the delete, on bodies
    /// containing any of these (empty: never). Restarts after `restartMs`.
    #[serde(default)]
    pub crashes_after_side_effect_on: Vec<String>,
    /// Deletes each message as soon as it is received, before processing;
    /// with `crashesBeforeSideEffectOn` this loses the message.
    #[serde(default)]
    pub deletes_before_processing: bool,
    /// Crashes during processing, before the side effect, on these bodies.
    #[serde(default)]
    pub crashes_before_side_effect_on: Vec<String>,
    /// How long a crashed worker stays down. Default 5000.
    #[serde(default = "restart")]
    #[cfg_attr(feature = "contract", schemars(range(min = 0, max = MAX_SPAN_MS)))]
    pub restart_ms: u64,
    /// Extend visibility this often while processing.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = MAX_SPAN_MS)))]
    pub heartbeat_every_ms: Option<u64>,
    /// The new visibility timeout each heartbeat sets, in seconds
    /// (default: the queue's).
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(min = VISIBILITY.0, max = VISIBILITY.1)))]
    pub heartbeat_visibility_seconds: Option<i64>,
    /// Lambda-style: the batch is handled as one invocation; with
    /// `reportBatchItemFailures` only failed records return to the queue,
    /// without it one failure returns the whole batch.
    #[serde(default)]
    pub lambda_batch: bool,
    /// With `lambdaBatch`: only failed records return to the queue.
    #[serde(default)]
    pub report_batch_item_failures: bool,
    /// Fails every message whose processing ends within this window of the
    /// run, whatever the body: a dependency that is down for a while.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub fails_during_ms: Option<Window>,
    /// After a failure, releases the message at once (ChangeMessageVisibility
    /// 0): it is received again immediately. Not with `retryBackoff`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub retry_immediately: bool,
    /// After a failure, hides the message for baseSeconds × 2^(receive
    /// count − 1), at most maxSeconds (ChangeMessageVisibility), so each
    /// retry waits longer than the last. Not with `retryImmediately`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub retry_backoff: Option<RetryBackoff>,
}

/// A window of the run, from `startMs` up to (not including) `endMs`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Window {
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub start_ms: u64,
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub end_ms: u64,
}

/// Exponential backoff through the visibility timeout.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetryBackoff {
    /// The delay after the first failed receive, in seconds.
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = VISIBILITY.1)))]
    pub base_seconds: i64,
    /// The longest delay, in seconds (SQS's visibility timeout at most).
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = VISIBILITY.1)))]
    pub max_seconds: i64,
}

fn restart() -> u64 {
    5000
}

/// A consumer without `behaviour` gets the same as one with `"behaviour": {}`
/// (a derived `Default` would restart crashed workers after 0 ms).
impl Default for Behaviour {
    fn default() -> Self {
        Behaviour {
            idempotent: false,
            fails_on: Vec::new(),
            fails_every_nth: None,
            crashes_after_side_effect_on: Vec::new(),
            deletes_before_processing: false,
            crashes_before_side_effect_on: Vec::new(),
            restart_ms: restart(),
            heartbeat_every_ms: None,
            heartbeat_visibility_seconds: None,
            lambda_batch: false,
            report_batch_item_failures: false,
            fails_during_ms: None,
            retry_immediately: false,
            retry_backoff: None,
        }
    }
}

/// One narration line. It is shown at the first moment every condition it
/// gives holds: `atMs` reached, the `when` event happened (at or after
/// `atMs`), the `after` line shown; an `atEnd` line waits for the end of
/// the run and is shown only if its condition holds for the run (and, with
/// `when`, only if that event happened). A line
/// with none of them is shown at time 0. Each line is shown at most once.
/// The simulation decides which lines fire, from the run's own events.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Narration {
    /// Alone: the moment a scene-setting line is shown. With `when`: the
    /// earliest moment its event counts. Default 0.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub at_ms: u64,
    /// What must happen in the run for the line to apply: the first event
    /// matching this trigger shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub when: Option<Trigger>,
    /// Shown at the end of the run (`durationMs`), only if this holds for
    /// the whole run (and, with `when`, only if that event happened).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "object_only"
    )]
    #[cfg_attr(feature = "contract", schemars(with = "Option<EndCondition>"))]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub at_end: Option<EndCondition>,
    /// A name other lines' `after` can refer to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub id: Option<String>,
    /// Shown only after the line with this `id` was shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub after: Option<String>,
    pub text: String,
}

/// A question asked before the moment it is about ("predict, then see").
/// It is asked at the first moment `atMs` has come, the `when` event (if
/// any) has happened and the `after` line (if any) was shown, once that
/// moment's events have happened; a page
/// playing the run pauses there for the learner's answer. The answer is
/// decided by the run, never by the file: the first choice whose `when`
/// event happens after the question is the truth, at once; if none has by
/// the end of the run, the first choice whose `atEnd` condition holds, or
/// else the choice that gives neither ("anything else"). When no choice
/// matches, the page says none of them happened.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Checkpoint {
    /// A name unique among the scenario's checkpoints (a page remembers
    /// the learner's answer by it).
    pub id: String,
    /// The earliest moment it is asked. Default 0.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub at_ms: u64,
    /// Asked only once the narration line with this `id` was shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub after: Option<String>,
    /// Asked only once this event has happened (at or after `atMs`): at
    /// the end of its moment, before anything later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub when: Option<Trigger>,
    pub question: String,
    /// From 2 to 6 possible answers.
    #[cfg_attr(feature = "contract", schemars(length(min = 2, max = MAX_CHOICES)))]
    pub choices: Vec<Choice>,
}

/// One possible answer to a checkpoint, and what in the run makes it true.
/// Give `when`, or `atEnd`, or neither (true when no other choice is).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Choice {
    pub text: String,
    /// True at once if this event happens after the question is asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub when: Option<Trigger>,
    /// True if this holds for the whole run, at its end.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "object_only"
    )]
    #[cfg_attr(feature = "contract", schemars(with = "Option<EndCondition>"))]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub at_end: Option<EndCondition>,
    /// Said with the answer when this choice is what happened: why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub because: Option<String>,
}

/// An `atEnd` condition written as an object, never as an array: serde
/// would read `[]` as a struct whose fields all have defaults, and the
/// schema says object.
fn object_only<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<EndCondition>, D::Error> {
    struct Object;
    impl<'de> serde::de::Visitor<'de> for Object {
        type Value = EndCondition;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<EndCondition, A::Error> {
            EndCondition::deserialize(serde::de::value::MapAccessDeserializer::new(map))
        }
    }
    d.deserialize_map(Object).map(Some)
}

/// An event of the run, with optional filters; every filter given must match.
/// A filter that the event does not carry (a group on a delete) never matches.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Trigger {
    pub event: TriggerEvent,
    /// The queue it happened on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub queue: Option<String>,
    /// The consumer (or producer, for `sent`) that did it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub consumer: Option<String>,
    /// The FIFO message group (`groupLocked`, `groupUnlocked`, `sent`, `received`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub group: Option<String>,
    /// The message's receive count at that moment (1 = its first receive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub receive_count: Option<u32>,
    /// `sideEffect` only: how many times, in total, the side effect has now
    /// happened to this message (2 = the second time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub count: Option<u64>,
}

/// The kinds of event a narration line (or a checkpoint) can wait for;
/// docs/scenario-format.md says when each happens. (Plain comments on the
/// variants keep the schema a plain `enum` of names.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum TriggerEvent {
    // A message was sent and stored (not dropped as a duplicate).
    #[default]
    Sent,
    // A message was received by anyone.
    Received,
    // A message was received while another worker still holds it.
    DuplicateDelivery,
    // A worker started processing a message for longer than its
    // visibility timeout has left.
    ProcessingOutlastsVisibility,
    // A message's visibility timeout was changed (a heartbeat, say).
    VisibilityChanged,
    // A message's visibility timeout ended while it was in flight.
    VisibilityExpired,
    // A message was deleted.
    Deleted,
    // A message was deleted by a worker whose receive is no longer the
    // latest (another worker received it since).
    DeletedWithStaleHandle,
    // A worker deleted a message before doing its work.
    DeletedBeforeProcessing,
    // A handler's side effect happened.
    SideEffect,
    // An idempotent handler skipped a message it had already processed.
    SkippedAlreadyProcessed,
    // A handler failed; the message was not deleted.
    ProcessingFailed,
    // A message moved to its dead-letter queue.
    MovedToDeadLetterQueue,
    // A FIFO send was dropped as a duplicate.
    DuplicateDropped,
    // A FIFO message group locked (its head went in flight).
    GroupLocked,
    // A FIFO message group unlocked.
    GroupUnlocked,
    // A receive returned no message.
    EmptyReceive,
    // A message's retention period ended.
    Expired,
    // A worker crashed.
    WorkerCrashed,
    // Work was lost: deleted before processing, then the worker failed.
    MessageLost,
}

/// What must hold for a whole run for an `atEnd` line to be shown. Every
/// condition given must hold; none given always holds.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EndCondition {
    /// Every message that had a side effect had it exactly this many times
    /// (1: "every order was charged exactly once"), and at least one had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub side_effects_each: Option<u64>,
    /// No message was received while another worker still held it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_duplicate_delivery: bool,
    /// No message was lost, expired or dead-lettered.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub none_lost: bool,
    /// This consumer made more empty receives than any other consumer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub most_empty_receives: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Alarm {
    pub name: String,
    pub queue: String,
    /// In ALARM while visible messages >= threshold.
    pub threshold: u64,
}

/// The longest span a scenario gives in milliseconds (a poll interval, a
/// rate's step, a processing time, a restart, a heartbeat): one year.
/// Bounded so that adding it to any moment of a run stays exact.
pub const MAX_SPAN_MS: u64 = 365 * 24 * 3_600_000;

/// The most sends one `rate` makes.
pub const MAX_RATE_COUNT: u64 = 10_000_000;

/// The most narration lines a scenario has. A story is a handful of lines
/// (the shipped ones have at most 5); the bound keeps every check of one
/// line against the others (`after`, triggers per event) small, so that a
/// hostile file with 50,000 chained lines cannot freeze the tab.
pub const MAX_NARRATION_LINES: usize = 200;

/// The most queues, producers and workers (consumers times their
/// `replicas`) a scenario has. The page draws each one: a share link with
/// 3,000 consumers made 143,000 nodes and froze its tab for 23 s. The
/// shipped scenarios have at most 3, 2 and 5; a hundred keeps a page of
/// them drawable on a school laptop (Queuelab's choice).
pub const MAX_SCENARIO_QUEUES: usize = 100;
pub const MAX_PRODUCERS: usize = 100;
pub const MAX_WORKERS: u64 = 100;

/// The most checkpoints a scenario has (each pauses the run for an answer;
/// the shipped scenarios have one or two), and the most answers one offers.
pub const MAX_CHECKPOINTS: usize = 20;
pub const MAX_CHOICES: usize = 6;

/// A scenario field out of its range, by its path in the scenario file:
/// "consumers[0].batchSize must be a whole number from 1 to 10, got 11".
/// Hosts show `rule` beside the field the path names (the page's settings
/// form), or the whole sentence (`Display`) elsewhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The field's path: "consumers[0].batchSize".
    pub path: String,
    /// What the field must be, in words: "a whole number from 1 to 10".
    pub rule: String,
    /// The value given, as written.
    pub got: String,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} must be {}, got {}", self.path, self.rule, self.got)
    }
}

/// The range of a scenario's counted field, by its name (the last part of
/// its path): (lowest, highest, unit). The one place these ranges live:
/// `Scenario::validate` checks them, and `rule_for` words them for a value
/// the JSON decoder refused (a fraction, a negative number) at that field.
/// A queue field's range is the engine's own (`queue_attribute`).
pub(crate) fn field_range(field: &str) -> Option<(u64, u64, &'static str)> {
    const MS: &str = " of milliseconds";
    // The engine's ranges, as u64 (each is 0 or more).
    let engine = |(lo, hi): (i64, i64)| (lo.unsigned_abs(), hi.unsigned_abs());
    let (batch, wait) = (
        engine(MAX_NUMBER_OF_MESSAGES_RANGE),
        engine(WAIT_TIME_SECONDS_RANGE),
    );
    let most_seconds = MAX_VISIBILITY_TIMEOUT.unsigned_abs();
    if let Some((_, (lo, hi), unit)) = queue_attribute(field) {
        return Some((u64::try_from(lo).ok()?, u64::try_from(hi).ok()?, unit));
    }
    Some(match field {
        "durationMs" | "atMs" | "startMs" | "stopMs" => (0, MAX_VIRTUAL_MS, MS),
        "everyMs" | "pollIntervalMs" | "heartbeatEveryMs" => (1, MAX_SPAN_MS, MS),
        "fixedMs" | "min" | "max" | "mean" | "restartMs" => (0, MAX_SPAN_MS, MS),
        "count" => (0, MAX_RATE_COUNT, ""),
        "batchSize" => (batch.0, batch.1, ""),
        "replicas" => (1, MAX_REPLICAS, ""),
        "batchOverheadMs" => (0, MAX_SPAN_MS, MS),
        "endMs" => (0, MAX_VIRTUAL_MS, MS),
        "baseSeconds" | "maxSeconds" => (1, most_seconds, SECONDS),
        "waitTimeSeconds" => (wait.0, wait.1, SECONDS),
        _ => return None,
    })
}

/// The rule of the field at `path` in words ("a whole number from 1 to
/// 10"), or None for a field this module does not range.
pub fn rule_for(path: &str) -> Option<String> {
    let mut parts = path.rsplit('.');
    let field = parts.next().unwrap_or(path);
    // Names that mean other things elsewhere: `count` is a rate's count
    // here (a trigger's `count` has no such bound), and `min`, `max` and
    // `mean` are a processing time's milliseconds (a knob's `min` is not).
    let parent = parts.next().unwrap_or("");
    let ranged_here = match field {
        "count" => parent == "rate",
        "min" | "max" | "mean" => parent.ends_with("Ms"),
        _ => true,
    };
    if !ranged_here {
        return None;
    }
    // An enum of objects: serde can only say "expected value".
    if field == "processing" && parent.starts_with("consumers[") {
        return Some(
            "one of fixedMs (ms), uniformMs { min, max } or exponentialMs { mean }, e.g.              { \"fixedMs\": 500 }"
                .into(),
        );
    }
    let (lo, hi, unit) = field_range(field)?;
    let hi_words = match hi {
        MAX_SPAN_MS => format!("{hi} (a year)"),
        MAX_VIRTUAL_MS => format!("{hi} (2^53 − 1, the last moment virtual time reaches)"),
        _ => in_words(hi, unit),
    };
    let lo_words = in_words(lo, unit);
    // A queue field also names the SQS attribute it sets, the name a
    // learner meets again in SQS's documentation and SDKs.
    let sqs = queue_attribute(field).map_or(String::new(), |(name, ..)| {
        format!(", the range SQS allows for {name}")
    });
    Some(format!(
        "a whole number{unit} from {lo_words} to {hi_words}{sqs}"
    ))
}

/// The SQS attribute (or redrive policy member) a queue field sets, by the
/// field's name, its range and unit. The range is the engine's own
/// (`AttributeName::range`, `RedrivePolicy::MAX_RECEIVE_COUNT_RANGE`,
/// which CreateQueue checks): the scenario words SQS's rule without
/// keeping a copy of it.
fn queue_attribute(field: &str) -> Option<(&'static str, (i64, i64), &'static str)> {
    if field == "maxReceiveCount" {
        return Some((
            "maxReceiveCount",
            RedrivePolicy::MAX_RECEIVE_COUNT_RANGE,
            "",
        ));
    }
    let (_, attribute) = QUEUE_FIELDS.iter().find(|(f, _)| *f == field)?;
    Some((attribute.as_str(), attribute.range()?, SECONDS))
}

/// Each queue attribute a scenario can set, with the field that sets it:
/// the one table the scenario's checks (`queue_attribute`), the queue's
/// creation and CreateQueue's refusals (worded with the field) read. The
/// four whole numbers of seconds come first (`QueueSpec::seconds`).
pub(crate) const QUEUE_FIELDS: [(&str, AttributeName); 7] = [
    ("visibilityTimeoutSeconds", AttributeName::VisibilityTimeout),
    ("delaySeconds", AttributeName::DelaySeconds),
    (
        "messageRetentionPeriodSeconds",
        AttributeName::MessageRetentionPeriod,
    ),
    (
        "receiveMessageWaitTimeSeconds",
        AttributeName::ReceiveMessageWaitTimeSeconds,
    ),
    (
        "contentBasedDeduplication",
        AttributeName::ContentBasedDeduplication,
    ),
    ("deduplicationScope", AttributeName::DeduplicationScope),
    ("redrive", AttributeName::RedrivePolicy),
];

impl QueueSpec {
    /// The queue's whole-number attributes: field, attribute and the
    /// value the scenario gives (None: the engine's default).
    pub(crate) fn seconds(
        &self,
    ) -> impl Iterator<Item = (&'static str, AttributeName, Option<i64>)> {
        let values = [
            self.visibility_timeout_seconds,
            self.delay_seconds,
            self.message_retention_period_seconds,
            self.receive_message_wait_time_seconds,
        ];
        QUEUE_FIELDS[..4]
            .iter()
            .zip(values)
            .map(|((field, attribute), value)| (*field, *attribute, value))
    }
}

const SECONDS: &str = " of seconds";

/// A count of seconds of a minute or more, also in the unit SQS's
/// documentation gives it in: "43200 (12 hours)", "900 (15 minutes)".
fn in_words(n: u64, unit: &str) -> String {
    let units = [(86_400, "day"), (3_600, "hour"), (60, "minute")];
    match units.iter().find(|(size, _)| n >= *size && n % size == 0) {
        Some((size, name)) if unit == SECONDS => {
            let count = n / size;
            let s = if count == 1 { "" } else { "s" };
            format!("{n} ({count} {name}{s})")
        }
        _ => n.to_string(),
    }
}

/// A text value as a refusal repeats it: quoted, and cut short (`echo`),
/// so a hostile file's megabyte is not copied into its own error.
pub(crate) fn quoted(value: &str) -> String {
    format!("\"{}\"", echo(value))
}

/// A list no longer than `max` (`what` names its items): "queues must be a
/// list of at most 100 queues, got 3000 queues".
pub(crate) fn at_most(path: &str, len: u64, max: u64, what: &str) -> Result<(), FieldError> {
    if len <= max {
        return Ok(());
    }
    Err(FieldError {
        path: path.into(),
        rule: format!("a list of at most {max} {what}"),
        got: format!("{len} {what}"),
    })
}

/// A name every event of its worker records (`MAX_CALLER_CHARS`), or a
/// side effect's word every ledger entry repeats.
fn short_name(path: String, name: &str) -> Result<(), FieldError> {
    if is_caller_name(name) {
        return Ok(());
    }
    Err(FieldError {
        path,
        rule: format!("at most {MAX_CALLER_CHARS} characters"),
        got: format!("{} characters", name.chars().count()),
    })
}

/// One field's range (`field_range`, by the path's last part).
fn within(path: String, value: i128) -> Result<(), FieldError> {
    let field = path.rsplit('.').next().unwrap_or(&path);
    let Some((lo, hi, _)) = field_range(field) else {
        return Ok(());
    };
    if (i128::from(lo)..=i128::from(hi)).contains(&value) {
        return Ok(());
    }
    Err(FieldError {
        rule: rule_for(&path).unwrap_or_default(),
        got: value.to_string(),
        path,
    })
}

impl Scenario {
    /// Holds every time, span and count to its range, so that nothing the
    /// simulation adds or multiplies can overflow, and each consumer's
    /// batch size and wait to what ReceiveMessage accepts. `Err` names the
    /// field by its path in the scenario file.
    /// Queues, producers and workers are found by name (a consumer's
    /// queue, the log's callers, a trigger's filter): each name names one.
    /// A consumer's replicas are `name`, `name-2`, …, and a producer and a
    /// worker may not share a name either (the log could not tell them apart).
    fn unique_names(&self) -> Result<(), FieldError> {
        let mut queues = BTreeMap::new();
        for (i, q) in self.queues.iter().enumerate() {
            if let Some(first) = queues.insert(q.name.as_str(), i) {
                return Err(FieldError {
                    path: format!("queues[{i}].name"),
                    rule: format!("a name no other queue has (queues[{first}] is also named so)"),
                    got: quoted(&q.name),
                });
            }
        }
        let mut callers: BTreeMap<String, String> = BTreeMap::new();
        let lists = self
            .producers
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("producers[{i}]"), vec![p.name.clone()]))
            .chain(
                self.consumers
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (format!("consumers[{i}]"), crate::worker_names(c))),
            )
            .chain(
                (self.schedule.iter().enumerate())
                    .map(|(i, s)| (format!("schedule[{i}]"), vec![s.name.clone()])),
            );
        for (who, names) in lists {
            for name in names {
                if let Some(first) = callers.insert(name.clone(), who.clone()) {
                    return Err(FieldError {
                        path: format!("{who}.name"),
                        rule: format!(
                            "a name no other producer or worker has (replicas are named name, name-2, …; {first} is also named {})",
                            quoted(&name)
                        ),
                        got: quoted(&name),
                    });
                }
            }
        }
        Ok(())
    }

    pub fn validate(&self) -> Result<(), FieldError> {
        let at = |path: String, v: u64| within(path, i128::from(v));
        at("durationMs".into(), self.duration_ms)?;
        at_most(
            "queues",
            self.queues.len() as u64,
            MAX_SCENARIO_QUEUES as u64,
            "queues",
        )?;
        at_most(
            "producers",
            self.producers.len() as u64,
            MAX_PRODUCERS as u64,
            "producers",
        )?;
        let workers = (self.consumers.iter()).fold(0u64, |n, c| n.saturating_add(c.replicas));
        at_most(
            "consumers",
            workers,
            MAX_WORKERS,
            "workers (replicas counted)",
        )?;
        for (i, queue) in self.queues.iter().enumerate() {
            queue.validate(i, &self.queues[..i])?;
        }
        self.unique_names()?;
        for (i, p) in self.producers.iter().enumerate() {
            short_name(format!("producers[{i}].name"), &p.name)?;
            for (j, s) in p.sends.iter().enumerate() {
                at(format!("producers[{i}].sends[{j}].atMs"), s.at_ms)?;
            }
            if let Some(rate) = &p.rate {
                at(format!("producers[{i}].rate.startMs"), rate.start_ms)?;
                at(format!("producers[{i}].rate.everyMs"), rate.every_ms)?;
                at(format!("producers[{i}].rate.count"), rate.count)?;
            }
        }
        self.validate_schedule()?;
        for (i, c) in self.consumers.iter().enumerate() {
            let path = |field: &str| format!("consumers[{i}].{field}");
            short_name(path("name"), &c.name)?;
            short_name(path("sideEffect"), &c.side_effect)?;
            at(path("startMs"), c.start_ms)?;
            if let Some(stop) = c.stop_ms {
                at(path("stopMs"), stop)?;
            }
            within(path("batchSize"), i128::from(c.batch_size))?;
            at(path("replicas"), c.replicas)?;
            at(path("batchOverheadMs"), c.batch_overhead_ms)?;
            within(path("waitTimeSeconds"), i128::from(c.wait_time_seconds))?;
            at(path("pollIntervalMs"), c.poll_interval_ms)?;
            match c.processing {
                Processing::FixedMs(ms) => at(path("processing.fixedMs"), ms)?,
                Processing::UniformMs { min, max } => {
                    at(path("processing.uniformMs.min"), min)?;
                    at(path("processing.uniformMs.max"), max)?;
                }
                Processing::ExponentialMs { mean } => {
                    at(path("processing.exponentialMs.mean"), mean)?
                }
            }
            let b = &c.behaviour;
            at(path("behaviour.restartMs"), b.restart_ms)?;
            if let Some(every) = b.heartbeat_every_ms {
                at(path("behaviour.heartbeatEveryMs"), every)?;
            }
            if let Some(w) = &b.fails_during_ms {
                at(path("behaviour.failsDuringMs.startMs"), w.start_ms)?;
                at(path("behaviour.failsDuringMs.endMs"), w.end_ms)?;
            }
            if let Some(r) = &b.retry_backoff {
                within(
                    path("behaviour.retryBackoff.baseSeconds"),
                    i128::from(r.base_seconds),
                )?;
                within(
                    path("behaviour.retryBackoff.maxSeconds"),
                    i128::from(r.max_seconds),
                )?;
                if b.retry_immediately {
                    return Err(FieldError {
                        path: path("behaviour.retryBackoff"),
                        rule: "left out when retryImmediately is true (a message released at \
                               once cannot also wait)"
                            .into(),
                        got: "a backoff".into(),
                    });
                }
            }
        }
        at_most(
            "narration",
            self.narration.len() as u64,
            MAX_NARRATION_LINES as u64,
            "lines",
        )?;
        // Inserted one by one: collecting into a B-tree compiles a sort.
        let mut ids = std::collections::BTreeSet::new();
        for id in self.narration.iter().filter_map(|l| l.id.as_ref()) {
            ids.insert(id);
        }
        for (i, line) in self.narration.iter().enumerate() {
            at(format!("narration[{i}].atMs"), line.at_ms)?;
            if let Some(after) = &line.after {
                if !ids.contains(after) {
                    return Err(FieldError {
                        path: format!("narration[{i}].after"),
                        rule: "the id of another narration line".into(),
                        got: quoted(after),
                    });
                }
            }
        }
        self.validate_checkpoints(&ids)?;
        self.validate_words()?;
        self.validate_lab()
    }

    /// Each checkpoint: a unique id, a moment in range, an `after` naming a
    /// narration line, 2 to 6 choices, each decided one way.
    fn validate_checkpoints(
        &self,
        line_ids: &std::collections::BTreeSet<&String>,
    ) -> Result<(), FieldError> {
        let err = |path: String, rule: &str, got: String| {
            Err(FieldError {
                path,
                rule: rule.into(),
                got,
            })
        };
        if self.checkpoints.len() > MAX_CHECKPOINTS {
            let rule = format!("a list of at most {MAX_CHECKPOINTS} checkpoints");
            return err(
                "checkpoints".into(),
                &rule,
                format!("{}", self.checkpoints.len()),
            );
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, c) in self.checkpoints.iter().enumerate() {
            let path = |field: &str| format!("checkpoints[{i}].{field}");
            if c.id.is_empty() || !seen.insert(&c.id) {
                let rule = "a name no other checkpoint has";
                return err(path("id"), rule, quoted(&c.id));
            }
            within(path("atMs"), i128::from(c.at_ms))?;
            if let Some(after) = c.after.as_ref().filter(|a| !line_ids.contains(a)) {
                return err(path("after"), "the id of a narration line", quoted(after));
            }
            if !(2..=MAX_CHOICES).contains(&c.choices.len()) {
                let rule = format!("a list of 2 to {MAX_CHOICES} answers");
                return err(path("choices"), &rule, format!("{}", c.choices.len()));
            }
            let mut otherwise = 0;
            for (j, choice) in c.choices.iter().enumerate() {
                match (&choice.when, &choice.at_end) {
                    (Some(_), Some(_)) => {
                        let rule = "an answer with `when` or `atEnd`, not both";
                        return err(path(&format!("choices[{j}]")), rule, "both".into());
                    }
                    (None, None) => otherwise += 1,
                    _ => {}
                }
            }
            if otherwise > 1 {
                let rule = "a list with at most one answer that gives neither `when` nor `atEnd` \
                            (the answer when no other is true)";
                return err(path("choices"), rule, format!("{otherwise} such answers"));
            }
        }
        Ok(())
    }

    /// Every text a learner reads: its `{queue.property}` placeholders
    /// name this scenario's queues and consumers.
    fn validate_words(&self) -> Result<(), FieldError> {
        let narration = self
            .narration
            .iter()
            .enumerate()
            .map(|(i, l)| (format!("narration[{i}].text"), &l.text));
        let checkpoints = self.checkpoints.iter().enumerate().flat_map(|(i, c)| {
            let question = std::iter::once((format!("checkpoints[{i}].question"), &c.question));
            let choices = c.choices.iter().enumerate().flat_map(move |(j, choice)| {
                let text = (format!("checkpoints[{i}].choices[{j}].text"), &choice.text);
                let because = choice
                    .because
                    .as_ref()
                    .map(|b| (format!("checkpoints[{i}].choices[{j}].because"), b));
                std::iter::once(text).chain(because)
            });
            question.chain(choices)
        });
        for (path, text) in narration.chain(checkpoints) {
            if let Err(got) = crate::placeholders::fill(text, self) {
                return Err(FieldError {
                    path,
                    rule: "text whose {placeholders} each name one of the scenario's queues or \
                           consumers and one of its properties"
                        .into(),
                    got,
                });
            }
        }
        Ok(())
    }
}

impl QueueSpec {
    /// What CreateQueue would refuse in this queue, said in the scenario's
    /// words and placed at its field ("queues[0].visibilityTimeoutSeconds
    /// must be a whole number of seconds from 0 to 43200 (12 hours), got
    /// 50000"), rather than as SQS's "Invalid value for the parameter
    /// VisibilityTimeout.": each attribute within the engine's range, the
    /// FIFO-only attributes only on a FIFO queue, and a dead-letter queue
    /// listed `earlier`, of the same type. `i` is its place in `queues`.
    fn validate(&self, i: usize, earlier: &[QueueSpec]) -> Result<(), FieldError> {
        let path = |field: &str| format!("queues[{i}].{field}");
        if !is_queue_name(&self.name) {
            return Err(FieldError {
                path: path("name"),
                rule: "1 to 80 letters, digits, hyphens or underscores (a FIFO queue's: 1 to 75 \
                       of them, then .fifo)"
                    .into(),
                got: quoted(&self.name),
            });
        }
        for (field, _, value) in self.seconds() {
            if let Some(v) = value {
                within(path(field), i128::from(v))?;
            }
        }
        let fifo = is_fifo(&self.name);
        let fifo_fields = [
            (
                "contentBasedDeduplication",
                AttributeName::ContentBasedDeduplication,
                self.content_based_deduplication.map(|v| v.to_string()),
            ),
            (
                "deduplicationScope",
                AttributeName::DeduplicationScope,
                self.deduplication_scope.as_ref().map(|s| quoted(s)),
            ),
        ];
        for (field, attribute, given) in fifo_fields {
            if let Some(got) = given.filter(|_| !fifo && attribute.fifo_only()) {
                return Err(FieldError {
                    path: path(field),
                    rule: "left out on a standard queue (it is for FIFO queues, whose names end \
                           in .fifo)"
                        .into(),
                    got,
                });
            }
        }
        if let Some(scope) = &self.deduplication_scope {
            if dedup_scope(scope).is_none() {
                return Err(FieldError {
                    path: path("deduplicationScope"),
                    rule: "\"queue\" or \"messageGroup\"".into(),
                    got: quoted(scope),
                });
            }
        }
        if let Some(redrive) = &self.redrive {
            within(
                path("redrive.maxReceiveCount"),
                i128::from(redrive.max_receive_count),
            )?;
            let dlq = &redrive.dead_letter_queue;
            let kind = if fifo {
                "a FIFO queue"
            } else {
                "a standard queue"
            };
            let refused = |rule: String| FieldError {
                path: path("redrive.deadLetterQueue"),
                rule,
                got: quoted(dlq),
            };
            match earlier.iter().find(|q| &q.name == dlq) {
                None => {
                    return Err(refused(
                        "the name of a queue listed before this one (queues are created in order)"
                            .into(),
                    ))
                }
                Some(target) if is_fifo(&target.name) != fifo => {
                    return Err(refused(format!(
                        "the name of {kind} listed before this one (SQS moves messages only \
                         between queues of the same type)"
                    )))
                }
                Some(_) => {}
            }
        }
        Ok(())
    }
}

/// `deduplicationScope`'s text as the engine types it, or None for a text
/// that is neither value: checked by `validate`, used to create the queue.
pub(crate) fn dedup_scope(text: &str) -> Option<DedupScope> {
    match text {
        "queue" => Some(DedupScope::Queue),
        "messageGroup" => Some(DedupScope::MessageGroup),
        _ => None,
    }
}

/// A name ending in .fifo makes a FIFO queue, as CreateQueue decides.
fn is_fifo(name: &str) -> bool {
    name.ends_with(".fifo")
}
