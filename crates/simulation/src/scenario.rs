//! The scenario format: queues, producers, consumers and narration, as a
//! typed document. The wasm binding (or any host) parses the JSON text into
//! these types with serde; the engine never sees JSON. The JSON Schema in
//! `web/scenarios/scenario.schema.json` describes the same shape.

use serde::{Deserialize, Serialize};

/// A teaching scenario: everything needed to replay a run from time 0.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scenario {
    /// Short title shown in the picker ("Slow consumer, duplicate delivery").
    pub title: String,
    /// One or two sentences on what the scenario teaches.
    #[serde(default)]
    pub summary: String,
    /// PRNG seed: the same seed replays the same run.
    #[serde(default)]
    pub seed: u64,
    /// How long the run lasts, in virtual ms.
    pub duration_ms: u64,
    pub queues: Vec<QueueSpec>,
    #[serde(default)]
    pub producers: Vec<Producer>,
    #[serde(default)]
    pub consumers: Vec<Consumer>,
    /// Lines shown (and announced) at given moments.
    #[serde(default)]
    pub narration: Vec<Narration>,
    /// Depth alarms, like a CloudWatch alarm on ApproximateNumberOfMessagesVisible.
    #[serde(default)]
    pub alarms: Vec<Alarm>,
}

/// A queue to create at time 0. Queues are created in the order listed, so
/// a dead-letter queue comes before the queues that use it.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueueSpec {
    /// Queue name; FIFO queue names end in `.fifo`.
    pub name: String,
    #[serde(default)]
    pub visibility_timeout_seconds: Option<i64>,
    #[serde(default)]
    pub delay_seconds: Option<i64>,
    #[serde(default)]
    pub message_retention_period_seconds: Option<i64>,
    #[serde(default)]
    pub receive_message_wait_time_seconds: Option<i64>,
    #[serde(default)]
    pub content_based_deduplication: Option<bool>,
    /// `"queue"` or `"messageGroup"`.
    #[serde(default)]
    pub deduplication_scope: Option<String>,
    /// Moves messages to `deadLetterQueue` after `maxReceiveCount` receives.
    #[serde(default)]
    pub redrive: Option<Redrive>,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Redrive {
    /// Name of a queue listed earlier.
    pub dead_letter_queue: String,
    pub max_receive_count: i64,
}

/// Something that sends messages: at fixed moments, or at a steady rate.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Producer {
    pub name: String,
    pub queue: String,
    #[serde(default)]
    pub sends: Vec<ScheduledSend>,
    #[serde(default)]
    pub rate: Option<Rate>,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScheduledSend {
    pub at_ms: u64,
    pub body: String,
    #[serde(default)]
    pub group_id: Option<String>,
    #[serde(default)]
    pub dedup_id: Option<String>,
    #[serde(default)]
    pub delay_seconds: Option<i64>,
    /// String message attributes.
    #[serde(default)]
    pub attributes: std::collections::BTreeMap<String, String>,
}

/// `count` sends, one every `everyMs` from `startMs`; `{n}` in the body
/// and group are replaced by the send's number (1, 2, ...).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Rate {
    #[serde(default)]
    pub start_ms: u64,
    pub every_ms: u64,
    pub count: u64,
    pub body: String,
    #[serde(default)]
    pub group_id: Option<String>,
}

/// A simulated worker running the loop real consumer code runs.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Consumer {
    pub name: String,
    pub queue: String,
    /// When the worker starts polling.
    #[serde(default)]
    pub start_ms: u64,
    /// When it stops: it receives nothing new after this, but finishes the
    /// batch it holds and what a long poll already waiting then returns.
    #[serde(default)]
    pub stop_ms: Option<u64>,
    /// MaxNumberOfMessages of its receives (1-10).
    #[serde(default = "one")]
    pub batch_size: i64,
    /// WaitTimeSeconds of its receives: 0 short-polls, up to 20 long-polls.
    #[serde(default)]
    pub wait_time_seconds: i64,
    /// Pause after an empty short poll before the next receive.
    #[serde(default = "poll_interval")]
    pub poll_interval_ms: u64,
    /// How long handling one message takes.
    pub processing: Processing,
    /// The side effect's label in counts and sentences ("charged").
    #[serde(default = "charged")]
    pub side_effect: String,
    #[serde(default)]
    pub behaviour: Behaviour,
}

fn one() -> i64 {
    1
}

fn poll_interval() -> u64 {
    1000
}

fn charged() -> String {
    "charged".into()
}

/// Processing time: fixed, or drawn from the seeded PRNG.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum Processing {
    FixedMs(u64),
    UniformMs { min: u64, max: u64 },
    ExponentialMs { mean: u64 },
}

/// How the worker's handler behaves; every field defaults to the plain
/// "process, then delete" loop.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Behaviour {
    /// Keeps a set of processed message ids and skips the side effect for
    /// one it has seen (an idempotent consumer).
    #[serde(default)]
    pub idempotent: bool,
    /// Bodies containing any of these fail every time (poison messages).
    #[serde(default)]
    pub fails_on: Vec<String>,
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
    #[serde(default = "restart")]
    pub restart_ms: u64,
    /// Extends visibility every N ms while processing (a heartbeat).
    #[serde(default)]
    pub heartbeat_every_ms: Option<u64>,
    /// The new visibility timeout each heartbeat sets, in seconds.
    #[serde(default)]
    pub heartbeat_visibility_seconds: Option<i64>,
    /// Lambda-style: the batch is handled as one invocation; with
    /// `reportBatchItemFailures` only failed records return to the queue,
    /// without it one failure returns the whole batch.
    #[serde(default)]
    pub lambda_batch: bool,
    #[serde(default)]
    pub report_batch_item_failures: bool,
}

fn restart() -> u64 {
    5000
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Narration {
    pub at_ms: u64,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Alarm {
    pub name: String,
    pub queue: String,
    /// Visible messages at or above which the alarm is in ALARM.
    pub threshold: u64,
}
