//! The scenario's vocabulary in words: one row per field a scenario file
//! has (its path, its label in a form, its name in a sentence, its unit,
//! its range and its choices), so a page's settings form, its "you
//! changed" line, its field errors and its lab knobs all say a field the
//! same way, and a new field or behaviour is shown, set and explained
//! without a word added to the page. The ranges are not restated here:
//! each is read from `field_range`, the table `Scenario::validate` checks.
//!
//! A worker's card line (what it does, in words) is `Consumer::traits`
//! (`card.rs`), from each behaviour's own words (`behaviours::REGISTRY`).

use serde::Serialize;

use super::fields::{field_range, MS, SECONDS};
use super::validate::{dedup_scope, throughput_limit};
use crate::lab::view::KnobChoice;

/// Every field of the scenario format, in words (the binding's `vocabulary()`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Vocabulary {
    pub fields: Vec<FieldWords>,
}

/// One field of the scenario format.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct FieldWords {
    /// Its path, a list's items as `[]`: "queues[].visibilityTimeoutSeconds",
    /// "consumers[].behaviour.retryBackoff" (a group: its own fields follow).
    pub path: String,
    /// In a form: "Visibility timeout".
    pub label: String,
    /// In a sentence, after its owner's name: "orders' visibility timeout".
    pub name: String,
    /// More words for a form, or "".
    pub help: String,
    pub kind: FieldKind,
    /// "s", "ms", or "" (a count, a name, a switch).
    pub unit: String,
    /// A number's range, as `Scenario::validate` holds it (None: unbounded there).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub min: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub max: Option<u64>,
    /// A choice's values, in order.
    pub choices: Vec<KnobChoice>,
    /// The field may be left out, which means "off" (or the default).
    pub optional: bool,
    /// The settings form offers it (a name, a body or a moment is edited in the JSON).
    pub setting: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum FieldKind {
    /// A whole number.
    Number,
    /// On or off.
    Toggle,
    /// A list of texts (body patterns).
    List,
    /// One of `choices`.
    Choice,
    /// A text (a name, a body).
    Text,
    /// An object of fields, said as one setting when it appears or goes
    /// (a backoff, an outage window, a redrive policy).
    Group,
}

use FieldKind::{Choice, Group, List, Number, Text, Toggle};

/// One row: path, label, name (None: the label, lower-cased), kind, help,
/// optional, setting.
type Row = (
    &'static str,
    &'static str,
    Option<&'static str>,
    FieldKind,
    &'static str,
    bool,
    bool,
);

/// The table. A field's unit and range come from `field_range` (by its
/// path's last part), never from here.
// One row a line: a table read across (rustfmt would spread each row over
// nine lines).
#[rustfmt::skip]
const ROWS: &[Row] = &[
    ("seed", "Seed", None, Number, "the same seed replays the same run", false, false),
    ("durationMs", "Duration", Some("run's duration"), Number, "", false, false),
    ("throttling", "Throttling", None, Toggle, "SQS's request quotas: a FIFO queue's 300 calls a second per action", true, false),
    ("startEpochMs", "Starts at (wall clock)", Some("start time"), Number, "epoch ms that time 0 stands for; a schedule's at counts from it", true, false),
    ("keys[].alias", "Alias", Some("key's alias"), Text, "alias/ and a name", false, false),
    ("keys[].allow", "Key policy allows", Some("principals the key policy allows"), List, "sns.amazonaws.com, s3.amazonaws.com or a 12-digit account id", true, false),
    ("queues[].name", "Name", Some("name"), Text, "", false, false),
    ("queues[].visibilityTimeoutSeconds", "Visibility timeout", None, Number, "", true, true),
    ("queues[].delaySeconds", "Delay", None, Number, "", true, true),
    ("queues[].messageRetentionPeriodSeconds", "Retention", Some("retention period"), Number, "", true, true),
    ("queues[].receiveMessageWaitTimeSeconds", "Receive wait time", None, Number, "", true, false),
    ("queues[].maximumMessageSizeBytes", "Maximum message size", Some("MaximumMessageSize"), Number, "bytes; default 1,048,576", true, false),
    ("queues[].contentBasedDeduplication", "Content-based deduplication", None, Toggle, "FIFO only", true, false),
    ("queues[].deduplicationScope", "Deduplication scope", None, Choice, "FIFO only", true, false),
    ("queues[].fifoThroughputLimit", "FIFO throughput limit", None, Choice, "perMessageGroupId with messageGroup scope: high throughput", true, false),
    ("queues[].redrive", "Redrive policy", None, Group, "", true, false),
    ("queues[].redrive.deadLetterQueue", "Dead-letter queue", None, Text, "", false, false),
    ("queues[].redrive.maxReceiveCount", "maxReceiveCount", Some("maxReceiveCount"), Number, "", false, true),
    ("queues[].policy", "Access policy", Some("queue policy"), Text, "who else may call: a JSON policy document", true, false),
    ("queues[].encryption", "Encryption", None, Group, "sqs (SSE-SQS, the default), none, or SSE-KMS with a key", true, false),
    ("queues[].encryption.kmsKey", "KMS key", Some("KmsMasterKeyId"), Text, "one of the scenario's keys, or alias/aws/sqs", false, false),
    ("queues[].encryption.dataKeyReusePeriodSeconds", "Data key reuse period", Some("KmsDataKeyReusePeriodSeconds"), Number, "default 300", true, false),
    ("producers[].name", "Name", Some("name"), Text, "", false, false),
    ("producers[].queue", "Queue", None, Text, "", false, false),
    ("producers[].account", "Account", Some("account"), Text, "another account's id or IAM ARN; default: the queue's own", true, false),
    ("producers[].sends[].atMs", "Sent at", Some("send time"), Number, "", false, false),
    ("producers[].sends[].at", "Sent at (wall clock)", Some("wall-clock send time"), Text, "a UTC time such as 2026-12-04T09:00:00Z", true, false),
    ("producers[].sends[].body", "Body", None, Text, "", false, false),
    ("producers[].sends[].groupId", "MessageGroupId", Some("MessageGroupId"), Text, "", true, false),
    ("producers[].sends[].dedupId", "MessageDeduplicationId", Some("MessageDeduplicationId"), Text, "", true, false),
    ("producers[].sends[].delaySeconds", "Delay", Some("send's delay"), Number, "", true, false),
    ("producers[].sends[].attributes", "Message attributes", None, Text, "", true, false),
    ("producers[].sends[].padToBytes", "Padded to", Some("body size"), Number, "bytes, filled with dots", true, false),
    ("producers[].sends[].padWith", "Padded with", Some("padding character"), Text, "one character; default a dot", true, false),
    ("producers[].rate", "Steady rate", None, Group, "", true, false),
    ("producers[].rate.startMs", "Starts at", Some("first send"), Number, "", true, false),
    ("producers[].rate.everyMs", "Every", Some("time between sends"), Number, "", false, false),
    ("producers[].rate.count", "Sends", Some("number of sends"), Number, "", false, false),
    ("producers[].rate.body", "Body", None, Text, "", false, false),
    ("producers[].rate.groupId", "MessageGroupId", Some("MessageGroupId"), Text, "", true, false),
    ("producers[].rate.batchSize", "Sends per batch", Some("sends per batch"), Number, "SendMessageBatch of this many; empty = one SendMessage each", true, false),
    ("producers[].rate.groupCount", "Message groups", Some("number of message groups"), Number, "{n} in groupId takes turns in this many", true, false),
    ("producers[].offload", "Offloads large bodies", None, Group, "puts them in a bucket and sends a pointer", true, false),
    ("producers[].offload.bucket", "Bucket", Some("payload bucket"), Text, "one of the scenario's buckets", false, false),
    ("producers[].offload.style", "Offload style", None, Choice, "extendedClient (bytes) or guide (characters)", false, false),
    ("producers[].offload.thresholdBytes", "Threshold", Some("offload threshold"), Number, "bytes; default 262,144", true, false),
    ("producers[].offload.thresholdChars", "Threshold", Some("offload threshold in characters"), Number, "characters; default 200,000", true, false),
    ("schedule[].name", "Name", Some("name"), Text, "", false, false),
    ("schedule[].queue", "Queue", None, Text, "", false, false),
    ("schedule[].sends[].atMs", "Sent at", Some("send time"), Number, "", false, false),
    ("schedule[].sends[].at", "Sent at (wall clock)", Some("wall-clock send time"), Text, "a UTC time such as 2026-12-04T09:00:00Z", true, false),
    ("schedule[].sends[].body", "Body", None, Text, "", false, false),
    ("schedule[].sends[].groupId", "MessageGroupId", Some("MessageGroupId"), Text, "", true, false),
    ("schedule[].sends[].dedupId", "MessageDeduplicationId", Some("MessageDeduplicationId"), Text, "", true, false),
    ("schedule[].sends[].delaySeconds", "Delay", Some("send's delay"), Number, "", true, false),
    ("schedule[].sends[].attributes", "Message attributes", None, Text, "", true, false),
    ("schedule[].sends[].padToBytes", "Padded to", Some("body size"), Number, "bytes, filled with dots", true, false),
    ("schedule[].sends[].padWith", "Padded with", Some("padding character"), Text, "one character; default a dot", true, false),
    ("requesters[].name", "Name", Some("name"), Text, "", false, false),
    ("requesters[].queue", "Request queue", None, Text, "", false, false),
    ("requesters[].mode", "Reply queue", None, Choice, "perRequest (a temporary queue per request) or perClient (one kept queue)", true, true),
    ("requesters[].rate", "Requests", None, Group, "", false, false),
    ("requesters[].rate.startMs", "Starts at", Some("first request"), Number, "", true, false),
    ("requesters[].rate.everyMs", "Every", Some("time between requests"), Number, "", false, false),
    ("requesters[].rate.count", "Requests", Some("number of requests"), Number, "at most 1,000", false, false),
    ("requesters[].rate.body", "Body", None, Text, "", false, false),
    ("requesters[].rate.groupId", "MessageGroupId", Some("MessageGroupId"), Text, "not for requests", true, false),
    ("requesters[].rate.batchSize", "Sends per batch", None, Number, "not for requests", true, false),
    ("requesters[].rate.groupCount", "Message groups", None, Number, "not for requests", true, false),
    ("requesters[].replyWaitSeconds", "Reply wait", Some("wait for a reply"), Number, "long polls of at most 20 s each", false, true),
    ("requesters[].queueNamePrefix", "Reply queue name", Some("reply queue name"), Text, "default: the requester's name and -replies", true, false),
    ("requesters[].reuseQueueName", "Reuse the reply queue's name", None, Toggle, "perRequest only: every temporary queue gets the same name", true, false),
    ("responders[].name", "Name", Some("name"), Text, "", false, false),
    ("responders[].queue", "Request queue", None, Text, "", false, false),
    ("responders[].processing", "Processing", None, Group, "fixedMs, uniformMs or exponentialMs", false, false),
    ("responders[].processing.fixedMs", "Processing time", None, Number, "", false, true),
    ("responders[].processing.uniformMs.min", "Processing min", Some("shortest processing time"), Number, "", false, true),
    ("responders[].processing.uniformMs.max", "Processing max", Some("longest processing time"), Number, "", false, true),
    ("responders[].processing.exponentialMs.mean", "Processing mean", Some("mean processing time"), Number, "", false, true),
    ("operators[].name", "Name", Some("name"), Text, "", false, false),
    ("operators[].calls[].atMs", "Called at", Some("call time"), Number, "", false, false),
    ("operators[].calls[].call", "Call", None, Group, "purgeQueue, startMessageMoveTask, cancelMessageMoveTask, addPermission, disableKey or enableKey", false, false),
    ("operators[].calls[].call.purgeQueue", "PurgeQueue", None, Group, "", false, false),
    ("operators[].calls[].call.purgeQueue.queue", "Queue", None, Text, "", false, false),
    ("operators[].calls[].call.startMessageMoveTask", "StartMessageMoveTask", None, Group, "", false, false),
    ("operators[].calls[].call.startMessageMoveTask.source", "Dead-letter queue", None, Text, "", false, false),
    ("operators[].calls[].call.startMessageMoveTask.destination", "Destination", None, Text, "default: each message's source queue", true, false),
    ("operators[].calls[].call.startMessageMoveTask.maxNumberOfMessagesPerSecond", "Messages per second", Some("move rate"), Number, "1 to 500; default: SQS picks", true, false),
    ("operators[].calls[].call.cancelMessageMoveTask", "CancelMessageMoveTask", None, Group, "", false, false),
    ("operators[].calls[].call.cancelMessageMoveTask.source", "Dead-letter queue", None, Text, "", false, false),
    ("operators[].calls[].call.addPermission", "AddPermission", None, Group, "lets other accounts call actions on the queue", false, false),
    ("operators[].calls[].call.addPermission.queue", "Queue", None, Text, "", false, false),
    ("operators[].calls[].call.addPermission.label", "Label", Some("statement label"), Text, "the statement's Sid: letters, digits, - and _", false, false),
    ("operators[].calls[].call.addPermission.accounts", "Accounts", Some("accounts allowed"), List, "12-digit account ids", false, false),
    ("operators[].calls[].call.addPermission.actions", "Actions", Some("actions allowed"), List, "SendMessage, ReceiveMessage, … or *", false, false),
    ("operators[].calls[].call.disableKey", "DisableKey", None, Group, "KMS: sends and receives with the key fail", false, false),
    ("operators[].calls[].call.disableKey.key", "KMS key", Some("key"), Text, "one of the scenario's keys", false, false),
    ("operators[].calls[].call.enableKey", "EnableKey", None, Group, "KMS", false, false),
    ("operators[].calls[].call.enableKey.key", "KMS key", Some("key"), Text, "one of the scenario's keys", false, false),
    ("consumers[].name", "Name", Some("name"), Text, "", false, false),
    ("consumers[].queue", "Queue", None, Text, "", false, false),
    ("consumers[].account", "Account", Some("account"), Text, "another account's id or IAM ARN; default: the queue's own", true, false),
    ("consumers[].startMs", "Starts at", Some("start"), Number, "", true, false),
    ("consumers[].stopMs", "Stops at", Some("stop"), Number, "", true, false),
    ("consumers[].batchSize", "Batch size", None, Number, "", true, true),
    ("consumers[].waitTimeSeconds", "Wait time", None, Number, "0 = short poll", true, true),
    ("consumers[].pollIntervalMs", "Poll interval", None, Number, "after an empty short poll", true, false),
    ("consumers[].processing", "Processing", None, Group, "fixedMs, uniformMs or exponentialMs", false, false),
    ("consumers[].processing.fixedMs", "Processing time", None, Number, "", false, true),
    ("consumers[].processing.uniformMs.min", "Processing min", Some("shortest processing time"), Number, "", false, true),
    ("consumers[].processing.uniformMs.max", "Processing max", Some("longest processing time"), Number, "", false, true),
    ("consumers[].processing.exponentialMs.mean", "Processing mean", Some("mean processing time"), Number, "", false, true),
    ("consumers[].sideEffect", "Side effect", None, Text, "", true, false),
    ("consumers[].replicas", "Replicas", Some("number of replicas"), Number, "", true, false),
    ("consumers[].batchOverheadMs", "Batch overhead", None, Number, "once per receive", true, false),
    ("consumers[].publishMetrics", "Publishes metrics", None, Group, "PutMetricData after each message", true, false),
    ("consumers[].publishMetrics.namespace", "Metrics namespace", Some("metrics namespace"), Text, "ProcessingTime and ProcessingSuccess go here", false, false),
    ("consumers[].payloads", "Reads payloads from S3", None, Group, "GetObject of each pointer on receive", true, false),
    ("consumers[].payloads.deleteObject", "Deletes the object", Some("when the object is deleted"), Choice, "withMessage, onReceive or never", false, false),
    ("consumers[].behaviour.idempotent", "Idempotent", Some("idempotent handler"), Toggle, "skips ids already processed", true, true),
    ("consumers[].behaviour.failsOn", "Fails on bodies containing", Some("fails on"), List, "comma-separated", true, true),
    ("consumers[].behaviour.failsEveryNth", "Fails every Nth receive", Some("fails every nth receive"), Number, "empty = never", true, true),
    ("consumers[].behaviour.crashesAfterSideEffectOn", "Crashes after the side effect on", None, List, "comma-separated", true, true),
    ("consumers[].behaviour.deletesBeforeProcessing", "Deletes before processing", Some("delete before processing"), Toggle, "at-most-once", true, true),
    ("consumers[].behaviour.crashesBeforeSideEffectOn", "Crashes before the side effect on", None, List, "comma-separated", true, true),
    ("consumers[].behaviour.restartMs", "Restart after a crash", Some("restart time"), Number, "", false, true),
    ("consumers[].behaviour.heartbeatEveryMs", "Heartbeat every", Some("heartbeat"), Number, "extends visibility while working", true, true),
    ("consumers[].behaviour.heartbeatVisibilitySeconds", "Heartbeat's visibility", None, Number, "empty = the queue's", true, true),
    ("consumers[].behaviour.failsDuringMs", "Outage", Some("outage"), Group, "fails every message in this window", true, true),
    ("consumers[].behaviour.failsDuringMs.startMs", "Outage from", Some("outage start"), Number, "", false, true),
    ("consumers[].behaviour.failsDuringMs.endMs", "Outage until", Some("outage end"), Number, "", false, true),
    ("consumers[].behaviour.retryImmediately", "Retries a failure at once", Some("immediate retry"), Toggle, "ChangeMessageVisibility 0", true, true),
    ("consumers[].behaviour.retryBackoff", "Retry backoff", None, Group, "doubles each retry", true, true),
    ("consumers[].behaviour.retryBackoff.baseSeconds", "Backoff's first delay", Some("backoff's first delay"), Number, "", false, true),
    ("consumers[].behaviour.retryBackoff.maxSeconds", "Backoff's longest delay", Some("backoff's longest delay"), Number, "", false, true),
    ("consumers[].behaviour.redelayUntil", "Re-delays until", Some("re-delay"), Text, "the message attribute holding its due time (DeliverAt)", true, true),
    ("metrics", "Metrics", None, Group, "CloudWatch's datapoints", true, false),
    ("metrics.resolutionSeconds", "Metrics resolution", None, Number, "seconds per datapoint: 60 as SQS publishes, or 1, 5, 10, 30", false, false),
    ("metrics.plot", "Plotted metric", None, Text, "the CloudWatch panel opens on every queue's line of it", false, false),
    ("alarms[].name", "Name", Some("name"), Text, "", false, false),
    ("alarms[].queue", "Queue", None, Text, "an AWS/SQS metric's QueueName", true, false),
    ("alarms[].namespace", "Namespace", None, Text, "AWS/SQS, AWS/Lambda or your own", true, false),
    ("alarms[].metricName", "Metric", Some("metric"), Text, "default ApproximateNumberOfMessagesVisible", true, false),
    ("alarms[].dimensions", "Dimensions", None, Text, "FunctionName for AWS/Lambda", true, false),
    ("alarms[].statistic", "Statistic", None, Text, "Sum, Average, Minimum, Maximum or SampleCount", true, false),
    ("alarms[].periodSeconds", "Period", None, Number, "a multiple of the metrics' resolution", true, false),
    ("alarms[].evaluationPeriods", "Evaluation periods", None, Number, "N: the latest periods evaluated", true, false),
    ("alarms[].datapointsToAlarm", "Datapoints to alarm", None, Number, "M of N", true, false),
    ("alarms[].threshold", "Threshold", Some("alarm threshold"), Number, "", false, false),
    ("alarms[].comparisonOperator", "Comparison", None, Text, "GreaterThanOrEqualToThreshold, GreaterThanThreshold, LessThanThreshold or LessThanOrEqualToThreshold", true, false),
    ("alarms[].treatMissingData", "Missing data", None, Text, "missing, notBreaching, breaching or ignore", true, false),
    ("alarms[].alarmActions", "Alarm actions", None, List, "SNS topics notified on ALARM", true, false),
    ("alarms[].okActions", "OK actions", None, List, "SNS topics notified on OK", true, false),
    ("buckets[].name", "Name", Some("name"), Text, "", false, false),
    ("buckets[].configuredAtMs", "Configured at", Some("configuration time"), Number, "when S3 saves its notifications", true, false),
    ("buckets[].notifications[].id", "Id", Some("configuration id"), Text, "the records' configurationId", true, false),
    ("buckets[].notifications[].queue", "Queue", None, Text, "", false, false),
    ("buckets[].notifications[].events", "Events", Some("event types"), List, "s3:ObjectCreated:*, s3:ObjectRemoved:*, …", false, false),
    ("buckets[].notifications[].prefix", "Key prefix", None, Text, "", true, false),
    ("buckets[].notifications[].suffix", "Key suffix", None, Text, "", true, false),
    ("buckets[].objects[].atMs", "At", Some("operation time"), Number, "", false, false),
    ("buckets[].objects[].put", "Put", Some("key put"), Text, "", true, false),
    ("buckets[].objects[].delete", "Delete", Some("key deleted"), Text, "", true, false),
    ("topics[].name", "Name", Some("name"), Text, "", false, false),
    ("topics[].fifo", "FIFO topic", None, Toggle, "name ends in .fifo", true, false),
    ("topics[].contentBasedDeduplication", "Content-based deduplication", None, Toggle, "FIFO topics only", true, false),
    ("topics[].subscriptions[].queue", "Queue", None, Text, "", false, false),
    ("topics[].subscriptions[].rawMessageDelivery", "Raw message delivery", Some("raw delivery"), Toggle, "the message itself, not SNS's envelope", true, false),
    ("topics[].subscriptions[].filterPolicy", "Filter policy", Some("filter policy"), Text, "which messages this queue gets", true, false),
    ("topics[].subscriptions[].filterPolicyScope", "Filter policy scope", None, Choice, "MessageAttributes or MessageBody", true, false),
    ("topics[].subscriptions[].deadLetterQueue", "Subscription's dead-letter queue", None, Text, "for messages SNS could not deliver", true, false),
    ("topics[].publishes[].atMs", "Published at", Some("publish time"), Number, "", false, false),
    ("topics[].publishes[].message", "Message", None, Text, "", false, false),
    ("topics[].publishes[].subject", "Subject", None, Text, "", true, false),
    ("topics[].publishes[].attributes", "Message attributes", None, Text, "", true, false),
    ("topics[].publishes[].groupId", "MessageGroupId", Some("MessageGroupId"), Text, "FIFO topics", true, false),
    ("topics[].publishes[].dedupId", "MessageDeduplicationId", Some("MessageDeduplicationId"), Text, "FIFO topics", true, false),
    ("topics[].rate", "Rate", None, Group, "publishes at a steady pace", true, false),
    ("topics[].rate.startMs", "Starts at", Some("first publish"), Number, "", true, false),
    ("topics[].rate.everyMs", "Every", Some("time between publishes"), Number, "", false, false),
    ("topics[].rate.count", "Publishes", Some("number of publishes"), Number, "", false, false),
    ("topics[].rate.body", "Message", None, Text, "", false, false),
    ("topics[].rate.groupId", "MessageGroupId", Some("MessageGroupId"), Text, "", true, false),
    ("topics[].rate.groupCount", "Message groups", Some("number of message groups"), Number, "{n} in groupId takes turns in this many", true, false),
    ("topics[].rate.batchSize", "Sends per batch", None, Number, "a producer's only", true, false),
    ("buckets[].objects[].sizeBytes", "Size", Some("object size"), Number, "bytes", true, false),
    ("lambdas[].name", "Function name", Some("function name"), Text, "", false, false),
    ("lambdas[].queue", "Queue", None, Text, "the event source mapping's queue", false, false),
    ("lambdas[].batchSize", "Batch size", Some("BatchSize"), Number, "FIFO: at most 10; above 10 needs a batching window", true, true),
    ("lambdas[].maximumBatchingWindowInSeconds", "Batching window", Some("MaximumBatchingWindowInSeconds"), Number, "not on FIFO queues", true, true),
    ("lambdas[].functionResponseTypes", "Function response types", Some("FunctionResponseTypes"), List, "ReportBatchItemFailures", true, false),
    ("lambdas[].maximumConcurrency", "Maximum concurrency", Some("MaximumConcurrency"), Number, "empty = Lambda's 1,000", true, true),
    ("lambdas[].reservedConcurrency", "Reserved concurrency", None, Number, "0 throttles every invocation", true, true),
    ("lambdas[].timeoutSeconds", "Function timeout", None, Number, "at most the queue's visibility timeout; AWS advises the queue six times it", true, true),
    ("lambdas[].enabled", "Enabled", Some("mapping enabled"), Toggle, "", true, true),
    ("lambdas[].handler", "Handler", None, Group, "what the function's code does", false, false),
    ("lambdas[].handler.processing", "Processing", Some("processing time per record"), Group, "fixedMs, uniformMs or exponentialMs", false, false),
    ("lambdas[].handler.processing.fixedMs", "Time per record", None, Number, "", false, true),
    ("lambdas[].handler.processing.uniformMs.min", "Time per record, min", Some("shortest time per record"), Number, "", false, true),
    ("lambdas[].handler.processing.uniformMs.max", "Time per record, max", Some("longest time per record"), Number, "", false, true),
    ("lambdas[].handler.processing.exponentialMs.mean", "Time per record, mean", Some("mean time per record"), Number, "", false, true),
    ("lambdas[].handler.failsOn", "Fails on bodies containing", Some("fails on"), List, "comma-separated", true, true),
    ("lambdas[].handler.failEveryNth", "Fails every Nth record", Some("fails every nth record"), Number, "0 = never", true, true),
    ("lambdas[].handler.timesOutOn", "Times out on bodies containing", Some("times out on"), List, "comma-separated", true, true),
    ("lambdas[].handler.response", "Response for failures", Some("partial batch response"), Choice, "with ReportBatchItemFailures", true, true),
    ("lambdas[].handler.sideEffect", "Side effect", None, Text, "", true, false),
];

/// The values of a function's `response` (`BatchResponse`), with their words.
/// The values of a requester's `mode`, with their words.
const REPLY_MODES: [(&str, &str); 2] = [
    ("perRequest", "A temporary queue per request"),
    ("perClient", "One queue per client, kept"),
];

const BATCH_RESPONSES: [(&str, &str); 5] = [
    ("valid", "The failed ids"),
    ("unknownId", "An id not in the batch"),
    ("null", "A null itemIdentifier"),
    ("malformed", "Not the documented shape"),
    ("empty", "An empty list"),
];

/// A producer's `offload.style`, with its words.
const OFFLOAD_STYLES: [(&str, &str); 2] = [
    ("extendedClient", "The extended client library's (bytes)"),
    ("guide", "The guide's code (characters)"),
];

/// A consumer's `payloads.deleteObject`, with its words.
const DELETE_OBJECTS: [(&str, &str); 3] = [
    ("withMessage", "With the message"),
    ("onReceive", "On receive"),
    ("never", "Never"),
];

fn choice_words(values: &[(&str, &str)]) -> Vec<KnobChoice> {
    knob_choices(values, |_| true)
}

/// The values of `deduplicationScope` (each one `dedup_scope` accepts), with their words.
const DEDUP_SCOPES: [(&str, &str); 2] = [
    ("queue", "Per queue"),
    ("messageGroup", "Per message group"),
];

/// The values of `fifoThroughputLimit` (each one `throughput_limit` accepts), with their words.
const THROUGHPUT_LIMITS: [(&str, &str); 2] = [
    ("perQueue", "Per queue"),
    ("perMessageGroupId", "Per message group (high throughput)"),
];

/// A choice field's values and their words, each one the engine accepts.
fn knob_choices(values: &[(&str, &str)], accepted: fn(&str) -> bool) -> Vec<KnobChoice> {
    (values.iter())
        .filter(|(value, _)| accepted(value))
        .map(|(value, label)| KnobChoice {
            value: (*value).into(),
            label: (*label).into(),
        })
        .collect()
}

/// The vocabulary of the scenario format.
pub fn vocabulary() -> Vocabulary {
    Vocabulary {
        fields: ROWS.iter().map(words).collect(),
    }
}

/// The words of the field at `path` (a pattern: "consumers[].batchSize").
pub(crate) fn field_words(path: &str) -> Option<FieldWords> {
    ROWS.iter().find(|row| row.0 == path).map(words)
}

fn words(&(path, label, name, kind, help, optional, setting): &Row) -> FieldWords {
    let field = path.rsplit('.').next().unwrap_or(path);
    // Every number of the table is ranged by its name (`min`, `max` and
    // `mean` are only a processing time's here).
    let ranged = kind == Number;
    let range = match path {
        _ if path.starts_with("lambdas[].") => {
            super::lambdas::lambda_range(field).or_else(|| field_range(field))
        }
        // A requester's rate is held to fewer than a producer's.
        "requesters[].rate.count" => Some((0, super::request_reply::MAX_REQUESTS, "")),
        _ => field_range(field),
    };
    let range = range.filter(|_| ranged);
    let unit = match range.map(|(.., unit)| unit) {
        Some(MS) => "ms",
        Some(SECONDS) => "s",
        // An unranged number's unit is in its name (a group has none).
        _ if kind == Number && field.ends_with("Ms") => "ms",
        _ if kind == Number && field.ends_with("Seconds") => "s",
        _ => "",
    };
    let choices = match field {
        "deduplicationScope" => knob_choices(&DEDUP_SCOPES, |v| dedup_scope(v).is_some()),
        "fifoThroughputLimit" => {
            knob_choices(&THROUGHPUT_LIMITS, |v| throughput_limit(v).is_some())
        }
        "response" => choice_words(&BATCH_RESPONSES),
        "style" => choice_words(&OFFLOAD_STYLES),
        "deleteObject" => choice_words(&DELETE_OBJECTS),
        "mode" => choice_words(&REPLY_MODES),
        _ => Vec::new(),
    };
    FieldWords {
        path: path.into(),
        label: label.into(),
        name: name.map_or_else(|| lower_first(label), str::to_string),
        help: help.into(),
        kind,
        unit: unit.into(),
        min: range.map(|(lo, ..)| lo),
        max: range.map(|(_, hi, _)| hi),
        choices,
        optional,
        setting,
    }
}

fn lower_first(label: &str) -> String {
    let mut chars = label.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
}
