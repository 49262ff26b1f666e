//! The scenario document's lab parts: a `goal` (what a fixed system
//! achieves), `knobs` (the settings a learner may change, with their
//! ranges) and `explain` (hints, the cause, the standard fix, and the fixes
//! and "moves the problem" non-fixes the native tests prove). Types only:
//! `lab/` checks and applies them.

use std::collections::BTreeMap;
use std::ops::Not;

use serde::{Deserialize, Serialize};

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
    /// A message attribute holding each message's due time (`DeliverAt`:
    /// a UTC time or epoch milliseconds): no message had its side effect
    /// before it. A message sent again by a worker that re-delays it is
    /// the same message (its due time, its side effects).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub not_handled_before: Option<String>,
    /// By this moment every message sent before it had its side effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub processed_by_ms: Option<u64>,
    /// No message a topic sent to a subscribed queue was lost: none was
    /// dropped or moved to the subscription's dead-letter queue after SQS
    /// refused the delivery (AccessDenied, a disabled key). A message the
    /// subscription's filter policy kept from the queue is not a delivery.
    #[serde(default, skip_serializing_if = "Not::not")]
    pub no_delivery_lost: bool,
    /// No requester's reply was lost: no responder's reply was refused
    /// because its reply queue no longer existed (the requester had given
    /// up and deleted it).
    #[serde(default, skip_serializing_if = "Not::not")]
    pub no_reply_lost: bool,
    /// No call of the scenario's producers, consumers, operators, topics or
    /// buckets was refused with AccessDenied.
    #[serde(default, skip_serializing_if = "Not::not")]
    pub no_access_denied: bool,
    /// No call of the scenario's producers, consumers, operators or
    /// schedules was refused with RequestThrottled (SQS's request quotas,
    /// with the scenario's `throttling` on).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_call_throttled: bool,
    /// At the end, the queue's policy grants no more than `grants`: SQS's
    /// own evaluation is asked, for every action a policy can name, whether
    /// each grant's principal may call it (only its `actions`) and whether
    /// a stranger may (another account, another topic, another bucket: no
    /// action at all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub least_privilege: Option<LeastPrivilege>,
    /// SSE-KMS requests (GenerateDataKey and Decrypt) SQS made to KMS for
    /// the scenario's queues, at most this many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub kms_requests_at_most: Option<u64>,
    /// At the end this queue is encrypted with SSE-KMS (a KMS key of its
    /// own), not SSE-SQS or unencrypted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub encrypted_with_kms: Option<String>,
    /// This alarm went into ALARM at some moment by `byMs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub alarm_fires: Option<AlarmBy>,
    /// An alarm's action notified this SNS topic (a change into ALARM
    /// published to it) by `byMs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub alarm_notifies: Option<TopicBy>,
}

/// `alarmFires`: the alarm, by its name, and the moment.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AlarmBy {
    pub alarm: String,
    pub by_ms: u64,
    /// Not before this moment either: a change into ALARM earlier is a
    /// false alarm (before the trouble it is meant to catch began).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub not_before_ms: Option<u64>,
}

/// `alarmNotifies`: the SNS topic, by its name, and the moment.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TopicBy {
    pub topic: String,
    pub by_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OldestAge {
    pub queue: String,
    pub at_most_seconds: u64,
}

/// `leastPrivilege`: the queue whose policy is judged, and what it may grant.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LeastPrivilege {
    pub queue: String,
    /// Who needs what (1 to 8 grants). Anyone else may call nothing.
    #[cfg_attr(feature = "contract", schemars(length(min = 1, max = MAX_GRANTS)))]
    pub grants: Vec<Need>,
}

/// One principal and the SQS actions it needs.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Need {
    /// A 12-digit account id, an IAM ARN in another account, or a service
    /// (`sns.amazonaws.com`, `s3.amazonaws.com`).
    pub principal: String,
    /// A service's resource it calls for (`aws:SourceArn`): the topic's
    /// or bucket's ARN.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub source_arn: Option<String>,
    /// SQS action names ("ReceiveMessage"): what the principal may be
    /// allowed, and nothing more.
    pub actions: Vec<String>,
}

/// The most grants a `leastPrivilege` lists (each one is probed for
/// every action at the end of a run).
pub const MAX_GRANTS: usize = 8;

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
    /// `queues[i].policy`, a text knob: its value is the policy document
    /// as JSON text, refused (in SQS's words) when SQS would refuse it.
    QueuePolicy { queue: String },
    /// `queues[i].encryption`, a choice: "kms" (SSE-KMS with `kmsKey`),
    /// "sqs" (SSE-SQS) or "none".
    #[serde(rename_all = "camelCase")]
    Encryption { queue: String, kms_key: String },
    /// `queues[i].encryption.dataKeyReusePeriodSeconds`, seconds (60 to
    /// 86,400): acts while the queue is encrypted with SSE-KMS.
    KmsDataKeyReusePeriodSeconds { queue: String },
    /// `queues[i].delaySeconds`, seconds (0 to 900, SQS's range).
    DelaySeconds { queue: String },
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
    /// `consumers[i].behaviour.deletesBeforeProcessing`, a toggle.
    DeletesBeforeProcessing { consumer: String },
    /// `consumers[i].payloads.deleteObject`, a choice: when the consumer
    /// deletes a payload's object ("withMessage", "onReceive", "never").
    DeleteObject { consumer: String },
    /// `consumers[i].behaviour.retryImmediately`, a toggle.
    RetryImmediately { consumer: String },
    /// `consumers[i].behaviour.retryBackoff`: the value is baseSeconds,
    /// with this `maxSeconds`; off removes it.
    #[serde(rename_all = "camelCase")]
    RetryBackoff { consumer: String, max_seconds: i64 },
    /// `consumers[i].behaviour.redelayUntil`, a toggle: on re-delays each
    /// message until the time in its message attribute `attribute`
    /// (`DeliverAt`), off handles it when it arrives.
    RedelayUntil { consumer: String, attribute: String },
    /// The queue's type, "standard" or "fifo": renames the queue (and its
    /// dead-letter queue, which SQS requires to be of the same type) to
    /// or from its `.fifo` name everywhere the scenario names it; a FIFO
    /// queue gets content-based deduplication.
    QueueType { queue: String },
    /// The MessageGroupId of each of the producer's `sends`: "one" (the
    /// producer's name for all), "perAttribute" (the send's value of
    /// `attribute`) or "perMessage" ("<producer>-<n>", unique).
    GroupId { producer: String, attribute: String },
    /// `producers[i].rate.batchSize`: the rate's sends per
    /// SendMessageBatch call; off: each send is its own SendMessage.
    SendBatchSize { producer: String },
    /// `producers[i].rate.groupCount`: how many message groups the rate's
    /// sends take turns in; off: `{n}` in its groupId is each send's number.
    GroupCount { producer: String },
    /// A FIFO queue's high throughput mode, a toggle: on sets
    /// `deduplicationScope` "messageGroup" and `fifoThroughputLimit`
    /// "perMessageGroupId"; off takes both away (SQS's defaults).
    HighThroughput { queue: String },
    /// When the operator starts its message move task from the dead-letter
    /// queue `source`, in ms of the run (its first
    /// `startMessageMoveTask` call from there); off: it never does.
    MoveTaskAt { operator: String, source: String },
    /// `requesters[i].mode`, a choice: "perRequest" (a temporary reply
    /// queue per request) or "perClient" (one kept reply queue).
    ReplyQueue { requester: String },
    /// `requesters[i].replyWaitSeconds`, seconds (1 to 3,600).
    ReplyWaitSeconds { requester: String },
    /// `lambdas[i].functionResponseTypes`, a toggle: on is
    /// `["ReportBatchItemFailures"]`, off is none.
    FunctionResponseTypes { lambda: String },
    /// `lambdas[i].batchSize`, the event source mapping's BatchSize.
    LambdaBatchSize { lambda: String },
    /// `lambdas[i].maximumBatchingWindowInSeconds`, seconds.
    MaximumBatchingWindowInSeconds { lambda: String },
    /// `lambdas[i].timeoutSeconds`, the function's timeout in seconds.
    FunctionTimeoutSeconds { lambda: String },
    /// `lambdas[i].handler.response`, a choice: what the function returns
    /// for failed records with ReportBatchItemFailures ("valid",
    /// "unknownId", "null", "malformed", "empty").
    BatchResponse { lambda: String },
    /// `alarms[i].statistic`, a choice ("Sum", "Average", "Minimum",
    /// "Maximum", "SampleCount").
    AlarmStatistic { alarm: String },
    /// `alarms[i].metricName`, a choice among the metrics SQS publishes.
    AlarmMetricName { alarm: String },
    /// `alarms[i].periodSeconds`, seconds.
    AlarmPeriodSeconds { alarm: String },
    /// `alarms[i].evaluationPeriods` (N).
    AlarmEvaluationPeriods { alarm: String },
    /// `alarms[i].datapointsToAlarm` (M of N).
    AlarmDatapointsToAlarm { alarm: String },
    /// `alarms[i].threshold`, a whole number.
    AlarmThreshold { alarm: String },
    /// `alarms[i].comparisonOperator`, a choice.
    AlarmComparisonOperator { alarm: String },
    /// `alarms[i].treatMissingData`, a choice ("missing", "notBreaching",
    /// "breaching", "ignore").
    AlarmTreatMissingData { alarm: String },
    /// Whether the scenario has this alarm, and on which metric: a choice
    /// of "none" (no such alarm) or one of the metrics SQS publishes (the
    /// alarm as given here, on that metric). The alarm is given whole, as
    /// in `alarms`; "none" removes an alarm of its name.
    AddAlarm { alarm: Box<super::Alarm> },
}

/// The choices of a choice knob, fixed by the target (not by the file).
pub const QUEUE_TYPES: [&str; 2] = ["standard", "fifo"];
pub const GROUP_IDS: [&str; 3] = ["one", "perAttribute", "perMessage"];
/// A `replyQueue` knob's choices (`requesters[].mode`).
pub const REPLY_MODES: [&str; 2] = ["perRequest", "perClient"];
pub const ENCRYPTIONS: [&str; 3] = ["kms", "sqs", "none"];

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
    /// One of a choice knob's choices ("fifo", "perAttribute"), or a
    /// text knob's text (a queue policy's JSON).
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
pub const CONDITION_IDS: [&str; 21] = [
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
    "notHandledBefore",
    "noDeliveryLost",
    "noReplyLost",
    "noAccessDenied",
    "noCallThrottled",
    "leastPrivilege",
    "kmsRequestsAtMost",
    "encryptedWithKms",
    "alarmFires",
    "alarmNotifies",
];

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
            self.not_handled_before.is_some(),
            self.no_delivery_lost,
            self.no_reply_lost,
            self.no_access_denied,
            self.no_call_throttled,
            self.least_privilege.is_some(),
            self.kms_requests_at_most.is_some(),
            self.encrypted_with_kms.is_some(),
            self.alarm_fires.is_some(),
            self.alarm_notifies.is_some(),
        ];
        CONDITION_IDS
            .iter()
            .zip(given)
            .filter_map(|(id, on)| on.then_some(*id))
            .collect()
    }
}
