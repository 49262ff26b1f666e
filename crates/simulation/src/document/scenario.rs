//! The scenario document's own types: queues, producers, consumers and
//! alarms, as serde reads them from the host's JSON. A leaf: it imports
//! nothing of the simulation (only the engine's names and ranges), so the
//! checks (`scenario/`), the labs (`lab/`) and the teaching (`teach/`)
//! all sit above it. The JSON Schema in `web/scenarios/scenario.schema.json`
//! and the TypeScript types are generated from these types (the `contract`
//! feature; see crates/wasm/tests/contract.rs): doc comments become the
//! schema's descriptions, `schemars(...)` its ranges.

#[cfg(feature = "contract")]
use queuelab_engine::{AttributeName, RedrivePolicy, MAX_CALLER_CHARS, MAX_VIRTUAL_MS};
#[cfg(feature = "contract")]
use queuelab_engine::{MAX_ACTIONS, MAX_PRINCIPALS, MAX_START_EPOCH_MS};
use serde::{Deserialize, Serialize};

use super::lab::{Explain, Goal, Knob};
#[cfg(feature = "contract")]
use super::narration::MAX_CHECKPOINTS;
use super::narration::{Checkpoint, Narration};
use super::rate::Rate;
#[cfg(feature = "contract")]
use super::rate::MAX_SPAN_MS;
use super::topic::Topic;
#[cfg(feature = "contract")]
use super::topic::MAX_TOPICS;

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
    /// One or two sentences on what the scenario teaches; `{queue.property}`
    /// placeholders quote the run's settings, as in narration.
    #[serde(default)]
    pub summary: String,
    /// PRNG seed: the same seed replays the same run. Default 0.
    #[serde(default)]
    pub seed: u64,
    /// How long the run lasts, in virtual ms.
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub duration_ms: u64,
    /// SQS's request quotas apply (a FIFO queue's 300 transactions per
    /// second per action; high throughput's per region and message group):
    /// a call past one answers `RequestThrottled`. Off by default.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub throttling: bool,
    /// The wall-clock moment virtual time 0 stands for, in epoch
    /// milliseconds (`1796374800000` is 2026-12-04T09:00:00Z): every
    /// timestamp SQS reports, and the time a schedule's `at` names,
    /// count from it. Replaces the host's own start when given; at most
    /// 253402300799999 (9999-12-31T23:59:59.999Z).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_START_EPOCH_MS)))]
    pub start_epoch_ms: Option<u64>,
    /// KMS keys made at time 0, before the queues, for queues encrypted
    /// with SSE-KMS (`encryption.kmsKey`). The AWS managed key
    /// `alias/aws/sqs` always exists besides them. At most 20.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_KEYS)))]
    pub keys: Vec<KeySpec>,
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
    /// Clients of the request-response pattern (`Requester`): each sends
    /// requests with `ReplyTo` and `CorrelationId` and waits for the
    /// reply on its reply queue. At most 20.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        feature = "contract",
        schemars(length(max = super::MAX_REQUESTERS))
    )]
    pub requesters: Vec<super::Requester>,
    /// Services that answer requests to the queue each names in `ReplyTo`
    /// (`Responder`). At most 20.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        feature = "contract",
        schemars(length(max = super::MAX_RESPONDERS))
    )]
    pub responders: Vec<super::Responder>,
    /// At most 100 workers in all, each consumer counting its `replicas`.
    #[serde(default)]
    pub consumers: Vec<Consumer>,
    /// An operator's calls at given moments (`Operator`): purging a queue,
    /// redriving a dead-letter queue and cancelling the redrive.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_OPERATORS)))]
    pub operators: Vec<Operator>,
    /// SNS topics that publish and fan out to subscribed queues (`Topic`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_TOPICS)))]
    pub topics: Vec<Topic>,
    /// Lines shown and announced at given moments.
    #[serde(default)]
    pub narration: Vec<Narration>,
    /// Questions the run pauses on ("predict, then see"): the learner
    /// answers, then the run shows what happened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_CHECKPOINTS)))]
    pub checkpoints: Vec<Checkpoint>,
    /// How finely the run keeps CloudWatch metrics (default: each minute,
    /// as SQS publishes them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<super::Metrics>,
    /// CloudWatch alarms on the run's metrics, at most 20.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = super::MAX_ALARMS)))]
    pub alarms: Vec<super::Alarm>,
    /// S3 buckets whose event notifications send to the scenario's queues
    /// (`Bucket`), at most 20.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = super::MAX_BUCKETS)))]
    pub buckets: Vec<super::Bucket>,
    /// Lambda functions, each with an event source mapping on one of the
    /// queues (`Lambda`), at most 20.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = super::MAX_LAMBDAS)))]
    pub lambdas: Vec<super::Lambda>,
    /// A lab's goal: what a fixed system achieves over every seed of
    /// "Check my fix". A scenario with a goal is a lab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub goal: Option<Goal>,
    /// A lab's settings the learner may change, with their ranges.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub knobs: Vec<Knob>,
    /// A lab's hints, cause and standard fix, and the fixes and non-fixes
    /// its tests prove.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub explain: Option<Explain>,
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
    /// `MaximumMessageSize`: the largest message the queue takes, 1,024 to
    /// 1,048,576 bytes (SQS's default, 1 MiB; 262,144 was the largest
    /// before August 2025). A larger send is refused in SQS's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    #[cfg_attr(feature = "contract", schemars(range(min = MESSAGE_SIZE.0, max = MESSAGE_SIZE.1)))]
    pub maximum_message_size_bytes: Option<i64>,
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
    /// FIFO only: `perMessageGroupId` with `deduplicationScope`
    /// `messageGroup` is high throughput mode (its quotas apply per message
    /// group when the scenario's `throttling` is on); `perQueue` is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "contract",
        schemars(with = "FifoThroughputLimit"),
        ts(type = r#""perQueue" | "perMessageGroupId" | null"#)
    )]
    pub fifo_throughput_limit: Option<String>,
    /// Moves messages to `deadLetterQueue` after `maxReceiveCount` receives.
    #[serde(default)]
    pub redrive: Option<Redrive>,
    /// The queue's access policy (its `Policy` attribute), a JSON object as
    /// SetQueueAttributes takes it: who besides the queues' own account may
    /// call (an SNS topic, an S3 bucket, another account). Without one,
    /// only the queues' own account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "contract",
        ts(optional, type = "Record<string, unknown>"),
        schemars(with = "Option<serde_json::Map<String, serde_json::Value>>")
    )]
    pub policy: Option<serde_json::Value>,
    /// Server-side encryption: `"sqs"` (SSE-SQS, AWS's default for a new
    /// queue, when left out), `"none"`, or SSE-KMS with one of the
    /// scenario's `keys` (or `alias/aws/sqs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub encryption: Option<Encryption>,
}

/// A queue's server-side encryption.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(untagged)]
pub enum Encryption {
    /// `"sqs"`: SSE-SQS (SqsManagedSseEnabled); `"none"`: unencrypted.
    Named(EncryptionName),
    /// SSE-KMS: KmsMasterKeyId and KmsDataKeyReusePeriodSeconds.
    Kms(KmsEncryption),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum EncryptionName {
    Sqs,
    None,
}

/// SSE-KMS with a key: SQS asks KMS for a data key (GenerateDataKey) and
/// to decrypt one (Decrypt) once per reuse period per caller.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KmsEncryption {
    /// The key's alias: one of the scenario's `keys`, or `alias/aws/sqs`.
    pub kms_key: String,
    /// KmsDataKeyReusePeriodSeconds, 60 to 86400 (default 300).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    #[cfg_attr(feature = "contract", schemars(range(min = KMS_REUSE.0, max = KMS_REUSE.1)))]
    pub data_key_reuse_period_seconds: Option<i64>,
}

/// A customer managed KMS key, made at time 0.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeySpec {
    /// Its alias, `alias/` then letters, digits, `/`, `_` or `-`
    /// (`alias/aws/` is AWS's).
    pub alias: String,
    /// Who the key policy lets use the key (kms:GenerateDataKey,
    /// kms:Decrypt) besides the owner account: `sns.amazonaws.com`,
    /// `s3.amazonaws.com` or a 12-digit account id. A service that sends
    /// to a queue encrypted with a key that does not allow it fails with
    /// KMS.AccessDeniedException.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
}

/// The most keys a scenario makes (Queuelab's choice: a lesson names a few).
pub const MAX_KEYS: usize = 20;

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

/// The values of `fifoThroughputLimit`, for the schema only, as for
/// `deduplicationScope`.
#[cfg(feature = "contract")]
#[derive(schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
enum FifoThroughputLimit {
    PerQueue,
    PerMessageGroupId,
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
#[cfg(feature = "contract")]
const MESSAGE_SIZE: (i64, i64) = sqs_range(AttributeName::MaximumMessageSize);
#[cfg(feature = "contract")]
const KMS_REUSE: (i64, i64) = sqs_range(AttributeName::KmsDataKeyReusePeriodSeconds);

/// Something that sends messages: at fixed moments, or at a steady rate.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Producer {
    /// Its name in the log, at most 80 characters (every send records it).
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_CALLER_CHARS)))]
    pub name: String,
    pub queue: String,
    /// The AWS account it calls from: another account's 12-digit id
    /// ("111111111111") or an IAM ARN in it (`arn:aws:iam::111111111111:root`,
    /// `…:user/name`, `…:role/name`). Default: the queues' own account.
    /// Its calls are that account's, under its name in the log (a queue
    /// policy decides whether it may make them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub account: Option<String>,
    #[serde(default)]
    pub sends: Vec<ScheduledSend>,
    #[serde(default)]
    pub rate: Option<Rate>,
    /// Sends bodies too large for its threshold through one of the
    /// scenario's buckets: each such body is put there as an object (a
    /// UUID key) and a pointer to it is sent instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub offload: Option<Offload>,
}

/// How a producer offloads large bodies to S3.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Offload {
    /// One of the scenario's buckets.
    pub bucket: String,
    /// `extendedClient`: the Amazon SQS Extended Client Library's format
    /// (a body whose UTF-8 bytes, with its attributes', exceed
    /// `thresholdBytes`; the pointer body and the `ExtendedPayloadSize`
    /// attribute). `guide`: the patterns guide's own code (a body of more
    /// than `thresholdChars` characters; a JSON pointer body and a
    /// `PayloadLocation` attribute).
    pub style: OffloadStyle,
    /// `extendedClient` only: 1 to 1,048,576 bytes. Default 262,144 (the
    /// library's 256 KiB).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = 1_048_576)))]
    pub threshold_bytes: Option<u64>,
    /// `guide` only: 1 to 1,048,576 characters. Default 200,000 (the guide's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = 1_048_576)))]
    pub threshold_chars: Option<u64>,
}

/// Whose code offloads: the extended client library's, or the guide's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum OffloadStyle {
    ExtendedClient,
    Guide,
}

/// How a consumer reads payloads a producer offloaded to S3.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadPayloads {
    /// When it deletes a payload's object: `withMessage` (when it deletes
    /// the message: the extended client's `deletePayloadFromS3`, and the
    /// safe way), `onReceive` (as soon as it has read it, before
    /// processing: the guide's code; a crash then leaves the redelivered
    /// message pointing at nothing), or `never`.
    pub delete_object: DeleteObject,
}

/// When a consumer deletes a payload's object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum DeleteObject {
    WithMessage,
    OnReceive,
    Never,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScheduledSend {
    /// When it is sent, in virtual ms from the start (default 0). Not with `at`.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub at_ms: u64,
    /// When it is sent, as a wall-clock time in UTC
    /// ("2026-12-04T09:00:00Z"), counted from the scenario's
    /// `startEpochMs` (which it needs): a one-time schedule, as
    /// EventBridge Scheduler's `at(…)`. Within the run. Not with `atMs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub at: Option<String>,
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
    /// Fills the body out with dots to this many bytes (a large payload
    /// without writing it out: an invoice scan, a report), at most 2 MiB
    /// (2,097,152), so a send can be too big for SQS. A body already as
    /// long is sent as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = MAX_PAD_BYTES)))]
    pub pad_to_bytes: Option<u64>,
    /// The character `padToBytes` fills with, instead of dots ("語": a
    /// body of multibyte text, whose UTF-8 bytes outnumber its characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub pad_with: Option<char>,
}

/// The most bytes `padToBytes` fills a body out to: twice SQS's largest
/// message, enough for a send SQS refuses (Queuelab's choice).
pub const MAX_PAD_BYTES: u64 = 2 << 20;

/// The most bytes `padToBytes` may fill out over all of a scenario's sends
/// (Queuelab's choice: enough for a lesson's few large messages; 10,000
/// padded sends would build gigabytes of bodies and freeze the tab).
pub const MAX_PADDED_TOTAL: u64 = 8 * MAX_PAD_BYTES;

impl ScheduledSend {
    /// The body as sent: padded out to `padToBytes`.
    pub(crate) fn sent_body(&self) -> String {
        let want = self.pad_to_bytes.unwrap_or(0).min(MAX_PAD_BYTES) as usize;
        let mut body = self.body.clone();
        let fill = self.pad_with.unwrap_or('.');
        // Whole characters only: a multibyte fill stops at or just under `want`.
        let n = want.saturating_sub(body.len()) / fill.len_utf8();
        body.extend(std::iter::repeat_n(fill, n));
        body
    }

    /// The length of the body as sent, in bytes.
    pub(crate) fn sent_len(&self) -> usize {
        let want = self.pad_to_bytes.unwrap_or(0).min(MAX_PAD_BYTES) as usize;
        self.body.len().max(want)
    }
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

/// Someone at the console, or a runbook's script: makes each listed call
/// at its moment, under its name, through SQS's own operations.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Operator {
    /// Its name in the log, at most 80 characters (every call records it).
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_CALLER_CHARS)))]
    pub name: String,
    /// Its calls, each at its `atMs` (listed order within one moment).
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_OPERATOR_CALLS)))]
    pub calls: Vec<OperatorCall>,
}

/// One call of an operator, at its moment.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OperatorCall {
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub at_ms: u64,
    /// What it calls: one of the operations below.
    pub call: Operation,
}

/// The operations an operator calls, each on queues the scenario names.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Operation {
    /// PurgeQueue: deletes every message in `queue` (SQS allows one purge
    /// of a queue every 60 seconds).
    PurgeQueue { queue: String },
    /// StartMessageMoveTask from the dead-letter queue `source`: each
    /// message goes back to the queue it came from (or to `destination`),
    /// at most `maxNumberOfMessagesPerSecond` a second (SQS takes 1 to 500
    /// and refuses any other rate when the call is made, in its own words;
    /// it picks the rate when it is left out).
    StartMessageMoveTask {
        source: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "contract", ts(optional))]
        destination: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "contract", ts(optional))]
        max_number_of_messages_per_second: Option<i64>,
    },
    /// CancelMessageMoveTask of the task this operator last started from
    /// `source` (with no such task, the call carries no handle and SQS
    /// refuses it).
    CancelMessageMoveTask { source: String },
    /// KMS DisableKey of the scenario's key `key` (its alias): from that
    /// moment, sends to and receives from queues encrypted with it fail
    /// with KMS.DisabledException.
    DisableKey { key: String },
    /// KMS EnableKey of the scenario's key `key` (its alias).
    EnableKey { key: String },
    /// AddPermission: lets `accounts` (12-digit ids) call `actions`
    /// (`SendMessage`, `ReceiveMessage`, `*`, … without the `SQS:` prefix)
    /// on `queue`, by a statement labelled `label` in its `Policy`. SQS
    /// refuses a bad label, account or action when the call is made.
    AddPermission {
        queue: String,
        label: String,
        #[cfg_attr(feature = "contract", schemars(length(max = MAX_PRINCIPALS)))]
        accounts: Vec<String>,
        #[cfg_attr(feature = "contract", schemars(length(max = MAX_ACTIONS)))]
        actions: Vec<String>,
    },
}

impl Operation {
    /// The queue names the call holds (a lab's rename changes them).
    pub(crate) fn queue_names_mut(&mut self) -> Vec<&mut String> {
        match self {
            Operation::PurgeQueue { queue } => vec![queue],
            Operation::StartMessageMoveTask {
                source,
                destination,
                ..
            } => std::iter::once(source).chain(destination).collect(),
            Operation::CancelMessageMoveTask { source } => vec![source],
            Operation::AddPermission { queue, .. } => vec![queue],
            Operation::DisableKey { .. } | Operation::EnableKey { .. } => Vec::new(),
        }
    }
}

/// The most operators a scenario has, and calls one operator makes
/// (Queuelab's choice: a runbook is a handful of calls).
pub const MAX_OPERATORS: usize = 20;
pub const MAX_OPERATOR_CALLS: usize = 100;

impl Scenario {
    /// The names of the scenario's senders (producers, then schedules):
    /// a message anyone else sent is the learner's.
    pub(crate) fn senders(&self) -> impl Iterator<Item = &str> {
        let producers = self.producers.iter().map(|p| p.name.as_str());
        let requesters = self.requesters.iter().map(|r| r.name.as_str());
        let responders = self.responders.iter().map(|r| r.name.as_str());
        (producers.chain(self.schedule.iter().map(|s| s.name.as_str())))
            .chain(requesters)
            .chain(responders)
    }
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
    /// The AWS account it calls from: another account's 12-digit id
    /// ("111111111111") or an IAM ARN in it (`arn:aws:iam::111111111111:root`,
    /// `…:user/name`, `…:role/name`). Default: the queues' own account.
    /// Its workers' calls are that account's, under its name in the log (a queue
    /// policy decides whether it may make them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub account: Option<String>,
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
    /// Publishes custom metrics to CloudWatch after each message it
    /// handles, as AWS's guide to SQS consumers shows: one PutMetricData
    /// to `namespace` with `ProcessingTime` (Milliseconds: how long the
    /// message took) and `ProcessingSuccess` (Count: 1 handled, 0 failed).
    /// They are the run's metrics like the queue's: drawn, listed, and
    /// watched by alarms of that namespace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub publish_metrics: Option<PublishMetrics>,
    /// Reads pointers to payloads in S3 (the extended client's and the
    /// guide's): GetObject on receive, the body replaced by the payload;
    /// a pointer to nothing (NoSuchKey) fails the message's processing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub payloads: Option<ReadPayloads>,
}

/// Where a consumer publishes its custom metrics.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublishMetrics {
    /// The metrics' namespace ("OrderProcessing"): 1 to 255 ASCII
    /// characters, not beginning with "AWS/" (kept for AWS's own).
    #[cfg_attr(feature = "contract", schemars(length(min = 1, max = 255)))]
    pub namespace: String,
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
    /// Retired: a Lambda function is a `lambdas` entry (its SQS event
    /// source mapping). Read only to refuse it with a pointer there.
    #[serde(default, skip_serializing)]
    #[cfg_attr(feature = "contract", ts(skip), schemars(skip))]
    pub lambda_batch: Option<serde_json::Value>,
    /// Retired with `lambdaBatch`: `functionResponseTypes` of a `lambdas`
    /// entry. Read only to refuse it.
    #[serde(default, skip_serializing)]
    #[cfg_attr(feature = "contract", ts(skip), schemars(skip))]
    pub report_batch_item_failures: Option<serde_json::Value>,
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
    /// The message attribute holding each message's due time (`DeliverAt`:
    /// a UTC time such as "2026-12-04T09:00:00Z", or epoch milliseconds).
    /// A message received before it is due is sent again with DelaySeconds
    /// of the time left (at most 900, SQS's longest delay) and deleted, so
    /// it is handled at its time: the way past SQS's 15 minutes. A message
    /// without a readable due time is handled at once. Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    #[cfg_attr(feature = "contract", schemars(length(min = 1, max = 256)))]
    pub redelay_until: Option<String>,
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
            lambda_batch: None,
            report_batch_item_failures: None,
            fails_during_ms: None,
            retry_immediately: false,
            retry_backoff: None,
            redelay_until: None,
        }
    }
}

/// The most queues, producers and workers (consumers times their
/// `replicas`) a scenario has. The page draws each one: a share link with
/// 3,000 consumers made 143,000 nodes and froze its tab for 23 s. The
/// shipped scenarios have at most 3, 2 and 5; a hundred keeps a page of
/// them drawable on a school laptop (Queuelab's choice).
pub const MAX_SCENARIO_QUEUES: usize = 100;
pub const MAX_PRODUCERS: usize = 100;
pub const MAX_WORKERS: u64 = 100;
