//! What a knob's target is, as one table: each target's row says its key
//! in the file, the field whose own range bounds it, whether it may be
//! "off", where its setting lives and how it is read and written. A new
//! target is one variant of `Target` (the document) and one row here.

use super::policy_text::pretty;
use super::rename::{queue_index, set_queue_type};
use crate::document::{
    Alarm, Consumer, Encryption, EncryptionName, KmsEncryption, KnobValue, Lambda, Operation,
    QueueSpec, Redrive, ReplyMode, RetryBackoff, Scenario, Target, ENCRYPTIONS, GROUP_IDS,
    QUEUE_TYPES, REPLY_MODES,
};
use crate::scenario::field_range;

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
    /// A document as text (a queue policy's JSON).
    Text,
}

/// How a target's value is read from, and written into, the scenario.
enum Access {
    /// A field of the queue the target names.
    Queue(
        fn(&QueueSpec) -> KnobValue,
        fn(&mut QueueSpec, &KnobValue, &Target),
    ),
    /// A field of the consumers the target names (`*`: each one; read
    /// from the first).
    Consumer(
        fn(&Consumer) -> KnobValue,
        fn(&mut Consumer, &KnobValue, &Target),
    ),
    /// A field of the Lambda function the target names.
    Lambda(fn(&Lambda) -> KnobValue, fn(&mut Lambda, &KnobValue)),
    /// A field of the alarm the target names.
    Alarm(fn(&Alarm) -> KnobValue, fn(&mut Alarm, &KnobValue)),
    /// A setting that spans the scenario (renames, every send of a producer).
    Whole(
        fn(&Target, &Scenario) -> Option<KnobValue>,
        fn(&Target, &mut Scenario, &KnobValue),
    ),
}

/// One target's row.
struct Row {
    /// Its key in the file (`{ "batchSize": { … } }`).
    name: &'static str,
    /// The scenario field whose own range (`field_range`) bounds the knob.
    field: &'static str,
    /// The path it writes, under its queue, consumer or producer.
    path: &'static str,
    /// It may be "off": the field left out.
    optional: bool,
    /// A choice knob's choices, fixed by the target (not by the file).
    choices: Option<&'static [&'static str]>,
    /// Its value is a document as text.
    text: bool,
    /// Another setting can make it not apply (a reuse period on a queue
    /// another knob took off SSE-KMS): it then reads "off", and "off"
    /// given back (a page sends the settings it read) changes nothing.
    lapses: bool,
    access: Access,
}

/// Whom a target names.
pub(crate) enum Selector<'a> {
    Queue(&'a str),
    Consumer(&'a str),
    Producer(&'a str),
    Operator(&'a str),
    Requester(&'a str),
    Lambda(&'a str),
    Alarm(&'a str),
}

fn int(v: &KnobValue) -> Option<i64> {
    match v {
        KnobValue::Int(v) => Some(*v),
        _ => None,
    }
}

/// A whole number of milliseconds or workers (0 or more).
fn count(v: &KnobValue) -> Option<u64> {
    int(v).and_then(|v| u64::try_from(v).ok())
}

fn on(v: &KnobValue) -> bool {
    matches!(v, KnobValue::Bool(true))
}

fn ms(v: u64) -> KnobValue {
    KnobValue::Int(i64::try_from(v).unwrap_or(i64::MAX))
}

fn or_off(v: Option<i64>) -> KnobValue {
    v.map_or(KnobValue::OFF, KnobValue::Int)
}

/// A row with no choices.
const fn row(
    name: &'static str,
    field: &'static str,
    path: &'static str,
    optional: bool,
    access: Access,
) -> Row {
    Row {
        name,
        field,
        path,
        optional,
        choices: None,
        text: false,
        lapses: false,
        access,
    }
}

/// A toggle of a consumer's behaviour.
macro_rules! toggle {
    ($name:literal, $field:ident) => {
        row(
            $name,
            $name,
            concat!("behaviour.", $name),
            false,
            Access::Consumer(
                |c| KnobValue::Bool(c.behaviour.$field),
                |c, v, _| c.behaviour.$field = on(v),
            ),
        )
    };
}

const VISIBILITY_TIMEOUT: Row = row(
    "visibilityTimeoutSeconds",
    "visibilityTimeoutSeconds",
    "visibilityTimeoutSeconds",
    false,
    Access::Queue(
        |q| or_off(q.visibility_timeout_seconds),
        |q, v, _| q.visibility_timeout_seconds = int(v),
    ),
);
const DELAY: Row = row(
    "delaySeconds",
    "delaySeconds",
    "delaySeconds",
    false,
    Access::Queue(
        |q| or_off(q.delay_seconds),
        |q, v, _| q.delay_seconds = int(v),
    ),
);
const RECEIVE_WAIT: Row = row(
    "receiveMessageWaitTimeSeconds",
    "receiveMessageWaitTimeSeconds",
    "receiveMessageWaitTimeSeconds",
    false,
    Access::Queue(
        |q| or_off(q.receive_message_wait_time_seconds),
        |q, v, _| q.receive_message_wait_time_seconds = int(v),
    ),
);
const REDRIVE: Row = row(
    "redrive",
    "maxReceiveCount",
    "redrive",
    true,
    Access::Queue(
        |q| or_off(q.redrive.as_ref().map(|r| r.max_receive_count)),
        |q, v, target| {
            if let Target::Redrive {
                dead_letter_queue, ..
            } = target
            {
                q.redrive = int(v).map(|max_receive_count| Redrive {
                    dead_letter_queue: dead_letter_queue.clone(),
                    max_receive_count,
                });
            }
        },
    ),
);
const BATCH_SIZE: Row = row(
    "batchSize",
    "batchSize",
    "batchSize",
    false,
    Access::Consumer(
        |c| KnobValue::Int(c.batch_size),
        |c, v, _| c.batch_size = int(v).unwrap_or(c.batch_size),
    ),
);
const REPLICAS: Row = row(
    "replicas",
    "replicas",
    "replicas",
    false,
    Access::Consumer(
        |c| ms(c.replicas),
        |c, v, _| c.replicas = count(v).unwrap_or(c.replicas),
    ),
);
const WAIT_TIME: Row = row(
    "waitTimeSeconds",
    "waitTimeSeconds",
    "waitTimeSeconds",
    false,
    Access::Consumer(
        |c| KnobValue::Int(c.wait_time_seconds),
        |c, v, _| c.wait_time_seconds = int(v).unwrap_or(c.wait_time_seconds),
    ),
);
const POLL_INTERVAL: Row = row(
    "pollIntervalMs",
    "pollIntervalMs",
    "pollIntervalMs",
    false,
    Access::Consumer(
        |c| ms(c.poll_interval_ms),
        |c, v, _| c.poll_interval_ms = count(v).unwrap_or(c.poll_interval_ms),
    ),
);
const HEARTBEAT_EVERY: Row = row(
    "heartbeatEveryMs",
    "heartbeatEveryMs",
    "behaviour.heartbeatEveryMs",
    true,
    Access::Consumer(
        |c| c.behaviour.heartbeat_every_ms.map_or(KnobValue::OFF, ms),
        |c, v, _| c.behaviour.heartbeat_every_ms = count(v),
    ),
);
const HEARTBEAT_VISIBILITY: Row = row(
    "heartbeatVisibilitySeconds",
    "visibilityTimeoutSeconds",
    "behaviour.heartbeatVisibilitySeconds",
    true,
    Access::Consumer(
        |c| or_off(c.behaviour.heartbeat_visibility_seconds),
        |c, v, _| c.behaviour.heartbeat_visibility_seconds = int(v),
    ),
);
const IDEMPOTENT: Row = toggle!("idempotent", idempotent);
const DELETES_FIRST: Row = toggle!("deletesBeforeProcessing", deletes_before_processing);
const RETRY_IMMEDIATELY: Row = toggle!("retryImmediately", retry_immediately);
/// `deleteObject`'s choices, as the file names them.
pub(crate) const DELETE_OBJECTS: [&str; 3] = ["withMessage", "onReceive", "never"];
const DELETE_OBJECT: Row = choice(
    row(
        "deleteObject",
        "deleteObject",
        "payloads.deleteObject",
        false,
        Access::Consumer(
            |c| {
                let when = c.payloads.as_ref().map(|p| p.delete_object);
                named(&when.unwrap_or(crate::document::DeleteObject::Never))
            },
            |c, v, _| {
                if let Some(delete_object) = parse(v) {
                    c.payloads = Some(crate::document::ReadPayloads { delete_object });
                }
            },
        ),
    ),
    &DELETE_OBJECTS,
);
const RETRY_BACKOFF: Row = row(
    "retryBackoff",
    "baseSeconds",
    "behaviour.retryBackoff",
    true,
    Access::Consumer(
        |c| or_off(c.behaviour.retry_backoff.as_ref().map(|r| r.base_seconds)),
        |c, v, target| {
            if let Target::RetryBackoff { max_seconds, .. } = target {
                c.behaviour.retry_backoff = int(v).map(|base_seconds| RetryBackoff {
                    base_seconds,
                    max_seconds: *max_seconds,
                });
            }
        },
    ),
);
const REDELAY_UNTIL: Row = row(
    "redelayUntil",
    "redelayUntil",
    "behaviour.redelayUntil",
    false,
    Access::Consumer(
        |c| KnobValue::Bool(c.behaviour.redelay_until.is_some()),
        |c, v, target| {
            if let Target::RedelayUntil { attribute, .. } = target {
                c.behaviour.redelay_until = on(v).then(|| attribute.clone());
            }
        },
    ),
);
const QUEUE_TYPE: Row = Row {
    choices: Some(&QUEUE_TYPES),
    ..row(
        "queueType",
        "queueType",
        "name",
        false,
        Access::Whole(read_queue_type, write_queue_type),
    )
};
const GROUP_ID: Row = Row {
    choices: Some(&GROUP_IDS),
    ..row(
        "groupId",
        "groupId",
        "sends",
        false,
        Access::Whole(read_group_id, write_group_id),
    )
};

const QUEUE_POLICY: Row = Row {
    text: true,
    ..row(
        "queuePolicy",
        "policy",
        "policy",
        false,
        Access::Queue(
            |q| KnobValue::Text(q.policy.as_ref().map(pretty).unwrap_or_default()),
            |q, v, _| {
                if let KnobValue::Text(text) = v {
                    q.policy = serde_json::from_str(text).ok();
                }
            },
        ),
    )
};
const ENCRYPTION: Row = Row {
    choices: Some(&ENCRYPTIONS),
    ..row(
        "encryption",
        "encryption",
        "encryption",
        false,
        Access::Queue(read_encryption, write_encryption),
    )
};
const KMS_REUSE: Row = Row {
    lapses: true,
    ..row(
        "kmsDataKeyReusePeriodSeconds",
        "dataKeyReusePeriodSeconds",
        "encryption.dataKeyReusePeriodSeconds",
        false,
        Access::Queue(
            // A queue not on SSE-KMS has no period: "off" (`Row::lapses`).
            |q| match &q.encryption {
                Some(Encryption::Kms(k)) => KnobValue::Int(
                    k.data_key_reuse_period_seconds
                        .unwrap_or(queuelab_engine::DEFAULT_DATA_KEY_REUSE_SECONDS.into()),
                ),
                _ => KnobValue::OFF,
            },
            // The period is SSE-KMS's: a queue encrypted otherwise has none.
            // "off" (what a lapsed period reads, sent back by a page) sets nothing.
            |q, v, _| {
                if let (Some(Encryption::Kms(k)), Some(period)) = (&mut q.encryption, int(v)) {
                    k.data_key_reuse_period_seconds = Some(period);
                }
            },
        ),
    )
};

/// A value of a serde enum as its name in the file ("Sum", "notBreaching").
fn named<T: serde::Serialize>(value: &T) -> KnobValue {
    let text = serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    KnobValue::Text(text)
}

/// A choice read back into its serde enum (None: not one of its names).
fn parse<T: serde::de::DeserializeOwned>(value: &KnobValue) -> Option<T> {
    match value {
        KnobValue::Text(t) => serde_json::from_value(serde_json::Value::String(t.clone())).ok(),
        _ => None,
    }
}

/// A whole number as an alarm's count (1 or more).
fn periods(v: &KnobValue) -> Option<u32> {
    count(v).and_then(|v| u32::try_from(v).ok())
}

/// The choices of the Lambda and alarm choice knobs, as the file names them.
pub(crate) const BATCH_RESPONSES: [&str; 5] = ["valid", "unknownId", "null", "malformed", "empty"];
pub(crate) const STATISTICS: [&str; 5] = ["Sum", "Average", "Minimum", "Maximum", "SampleCount"];
pub(crate) const COMPARISONS: [&str; 4] = [
    "GreaterThanOrEqualToThreshold",
    "GreaterThanThreshold",
    "LessThanThreshold",
    "LessThanOrEqualToThreshold",
];
pub(crate) const MISSING_DATA: [&str; 4] = ["missing", "notBreaching", "breaching", "ignore"];
/// `addAlarm`'s choices: no alarm, or the alarm on one of SQS's metrics
/// (`crate::cloudwatch::SQS_METRICS`, in its order).
pub(crate) const ALARM_METRICS: [&str; 11] = [
    "none",
    "NumberOfMessagesSent",
    "NumberOfMessagesReceived",
    "NumberOfMessagesDeleted",
    "NumberOfEmptyReceives",
    "NumberOfDeduplicatedSentMessages",
    "SentMessageSize",
    "ApproximateNumberOfMessagesVisible",
    "ApproximateNumberOfMessagesNotVisible",
    "ApproximateNumberOfMessagesDelayed",
    "ApproximateAgeOfOldestMessage",
];

/// A row whose value is one of fixed `choices`.
const fn choice(row: Row, choices: &'static [&'static str]) -> Row {
    Row {
        choices: Some(choices),
        ..row
    }
}

const REPORT_ITEM_FAILURES: Row = row(
    "functionResponseTypes",
    "functionResponseTypes",
    "functionResponseTypes",
    false,
    Access::Lambda(
        |l| KnobValue::Bool(!l.function_response_types.is_empty()),
        |l, v| {
            l.function_response_types = match on(v) {
                true => vec![crate::scenario::REPORT_BATCH_ITEM_FAILURES.to_owned()],
                false => Vec::new(),
            }
        },
    ),
);
const LAMBDA_BATCH_SIZE: Row = row(
    "lambdaBatchSize",
    "batchSize",
    "batchSize",
    false,
    Access::Lambda(
        |l| KnobValue::Int(l.batch_size),
        |l, v| l.batch_size = int(v).unwrap_or(l.batch_size),
    ),
);
const BATCHING_WINDOW: Row = row(
    "maximumBatchingWindowInSeconds",
    "maximumBatchingWindowInSeconds",
    "maximumBatchingWindowInSeconds",
    false,
    Access::Lambda(
        |l| KnobValue::Int(l.maximum_batching_window_in_seconds),
        |l, v| {
            l.maximum_batching_window_in_seconds =
                int(v).unwrap_or(l.maximum_batching_window_in_seconds)
        },
    ),
);
const FUNCTION_TIMEOUT: Row = row(
    "functionTimeoutSeconds",
    "timeoutSeconds",
    "timeoutSeconds",
    false,
    Access::Lambda(
        |l| KnobValue::Int(l.timeout_seconds),
        |l, v| l.timeout_seconds = int(v).unwrap_or(l.timeout_seconds),
    ),
);
const BATCH_RESPONSE: Row = choice(
    row(
        "batchResponse",
        "response",
        "handler.response",
        false,
        Access::Lambda(
            |l| named(&l.handler.response),
            |l, v| l.handler.response = parse(v).unwrap_or(l.handler.response),
        ),
    ),
    &BATCH_RESPONSES,
);
const ALARM_STATISTIC: Row = choice(
    row(
        "alarmStatistic",
        "statistic",
        "statistic",
        false,
        Access::Alarm(|a| named(&a.statistic()), |a, v| a.statistic = parse(v)),
    ),
    &STATISTICS,
);
const ALARM_METRIC: Row = choice(
    row(
        "alarmMetricName",
        "metricName",
        "metricName",
        false,
        Access::Alarm(
            |a| KnobValue::Text(a.metric_name().to_owned()),
            |a, v| {
                if let KnobValue::Text(t) = v {
                    a.metric_name = Some(t.clone());
                }
            },
        ),
    ),
    &crate::cloudwatch::SQS_METRICS,
);
const ALARM_PERIOD: Row = row(
    "alarmPeriodSeconds",
    "periodSeconds",
    "periodSeconds",
    false,
    Access::Alarm(
        |a| or_off(a.period_seconds.and_then(|p| i64::try_from(p).ok())),
        |a, v| a.period_seconds = count(v),
    ),
);
const ALARM_EVALUATION_PERIODS: Row = row(
    "alarmEvaluationPeriods",
    "evaluationPeriods",
    "evaluationPeriods",
    false,
    Access::Alarm(
        |a| KnobValue::Int(a.evaluation_periods().into()),
        |a, v| a.evaluation_periods = periods(v),
    ),
);
const ALARM_DATAPOINTS: Row = row(
    "alarmDatapointsToAlarm",
    "datapointsToAlarm",
    "datapointsToAlarm",
    false,
    Access::Alarm(
        |a| KnobValue::Int(a.datapoints_to_alarm().into()),
        |a, v| a.datapoints_to_alarm = periods(v),
    ),
);
const ALARM_THRESHOLD: Row = row(
    "alarmThreshold",
    "threshold",
    "threshold",
    false,
    Access::Alarm(
        // A whole-number knob: a fractional threshold reads rounded down.
        |a| KnobValue::Int(a.threshold.floor() as i64),
        |a, v| a.threshold = int(v).map_or(a.threshold, |t| t as f64),
    ),
);
const ALARM_COMPARISON: Row = choice(
    row(
        "alarmComparisonOperator",
        "comparisonOperator",
        "comparisonOperator",
        false,
        Access::Alarm(
            |a| named(&a.comparison_operator()),
            |a, v| a.comparison_operator = parse(v),
        ),
    ),
    &COMPARISONS,
);
const ALARM_MISSING: Row = choice(
    row(
        "alarmTreatMissingData",
        "treatMissingData",
        "treatMissingData",
        false,
        Access::Alarm(
            |a| named(&a.treat_missing_data()),
            |a, v| a.treat_missing_data = parse(v),
        ),
    ),
    &MISSING_DATA,
);
const ADD_ALARM: Row = choice(
    row(
        "addAlarm",
        "addAlarm",
        "alarms",
        false,
        Access::Whole(read_add_alarm, write_add_alarm),
    ),
    &ALARM_METRICS,
);

/// "none" when the scenario has no alarm of the target's name, else the
/// metric it watches.
fn read_add_alarm(target: &Target, s: &Scenario) -> Option<KnobValue> {
    let Target::AddAlarm { alarm } = target else {
        return None;
    };
    let found = s.alarms.iter().find(|a| a.name == alarm.name);
    Some(KnobValue::Text(
        found.map_or("none", |a| a.metric_name()).to_owned(),
    ))
}

/// Takes the alarm of the target's name away, and for a metric puts the
/// target's alarm back on that metric (where the old one was, or last).
fn write_add_alarm(target: &Target, s: &mut Scenario, value: &KnobValue) {
    let Target::AddAlarm { alarm } = target else {
        return;
    };
    let at = s.alarms.iter().position(|a| a.name == alarm.name);
    if let Some(i) = at {
        s.alarms.remove(i);
    }
    match value {
        KnobValue::Text(metric) if metric != "none" => {
            let mut added = (**alarm).clone();
            added.metric_name = Some(metric.clone());
            s.alarms.insert(at.unwrap_or(s.alarms.len()), added);
        }
        _ => {}
    }
}

fn read_encryption(q: &QueueSpec) -> KnobValue {
    let choice = match &q.encryption {
        Some(Encryption::Kms(_)) => "kms",
        Some(Encryption::Named(EncryptionName::None)) => "none",
        None | Some(Encryption::Named(EncryptionName::Sqs)) => "sqs",
    };
    KnobValue::Text(choice.into())
}

/// "kms" keeps a queue already on SSE-KMS as it is (its reuse period
/// too); otherwise it takes the target's key at SQS's default period.
fn write_encryption(q: &mut QueueSpec, value: &KnobValue, target: &Target) {
    let Target::Encryption { kms_key, .. } = target else {
        return;
    };
    q.encryption = match value {
        KnobValue::Text(t) if t == "kms" => match q.encryption.take() {
            Some(kms @ Encryption::Kms(_)) => Some(kms),
            _ => Some(Encryption::Kms(KmsEncryption {
                kms_key: kms_key.clone(),
                data_key_reuse_period_seconds: None,
            })),
        },
        KnobValue::Text(t) if t == "none" => Some(Encryption::Named(EncryptionName::None)),
        _ => Some(Encryption::Named(EncryptionName::Sqs)),
    };
}

const SEND_BATCH_SIZE: Row = row(
    "sendBatchSize",
    "batchSize",
    "rate.batchSize",
    true,
    Access::Whole(
        |target, s| Some(or_off(rate_of(target, s)?.batch_size.map(to_int))),
        |target, s, v| with_rate(target, s, |rate| rate.batch_size = count(v)),
    ),
);
const GROUP_COUNT: Row = row(
    "groupCount",
    "groupCount",
    "rate.groupCount",
    true,
    Access::Whole(
        |target, s| Some(or_off(rate_of(target, s)?.group_count.map(to_int))),
        |target, s, v| with_rate(target, s, |rate| rate.group_count = count(v)),
    ),
);
const HIGH_THROUGHPUT: Row = row(
    "highThroughput",
    "highThroughput",
    "fifoThroughputLimit",
    false,
    Access::Queue(
        |q| KnobValue::Bool(q.fifo_throughput_limit.as_deref() == Some("perMessageGroupId")),
        |q, v, _| {
            let (scope, limit) = match on(v) {
                true => (Some("messageGroup"), Some("perMessageGroupId")),
                false => (None, None),
            };
            q.deduplication_scope = scope.map(str::to_string);
            q.fifo_throughput_limit = limit.map(str::to_string);
        },
    ),
);

fn to_int(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// The rate of the producer a target names.
fn rate_of<'s>(target: &Target, s: &'s Scenario) -> Option<&'s crate::document::Rate> {
    let (_, Selector::Producer(producer)) = target.row() else {
        return None;
    };
    s.producers
        .iter()
        .find(|p| p.name == producer)?
        .rate
        .as_ref()
}

/// Changes the rate of the producers a target names.
fn with_rate(target: &Target, s: &mut Scenario, change: impl Fn(&mut crate::document::Rate)) {
    let (_, Selector::Producer(producer)) = target.row() else {
        return;
    };
    for p in s.producers.iter_mut().filter(|p| p.name == producer) {
        p.rate.as_mut().map(&change);
    }
}

const REPLY_QUEUE: Row = Row {
    choices: Some(&REPLY_MODES),
    ..row(
        "replyQueue",
        "mode",
        "mode",
        false,
        Access::Whole(read_reply_mode, write_reply_mode),
    )
};
const REPLY_WAIT: Row = row(
    "replyWaitSeconds",
    "replyWaitSeconds",
    "replyWaitSeconds",
    false,
    Access::Whole(read_reply_wait, write_reply_wait),
);

/// The requester a target names, by its place.
fn requester_index(target: &Target, s: &Scenario) -> Option<usize> {
    let (Target::ReplyQueue { requester } | Target::ReplyWaitSeconds { requester }) = target else {
        return None;
    };
    s.requesters.iter().position(|r| &r.name == requester)
}

fn read_reply_mode(target: &Target, s: &Scenario) -> Option<KnobValue> {
    let r = &s.requesters[requester_index(target, s)?];
    Some(KnobValue::Text(r.mode.as_str().into()))
}

/// A requester's mode; a per-client queue keeps its one name, so a
/// reused per-request name is dropped with it.
fn write_reply_mode(target: &Target, s: &mut Scenario, value: &KnobValue) {
    if let Some(i) = requester_index(target, s) {
        let r = &mut s.requesters[i];
        r.mode = match value {
            KnobValue::Text(t) if t == "perClient" => ReplyMode::PerClient,
            _ => ReplyMode::PerRequest,
        };
        if r.mode == ReplyMode::PerClient {
            r.reuse_queue_name = false;
        }
    }
}

fn read_reply_wait(target: &Target, s: &Scenario) -> Option<KnobValue> {
    Some(ms(
        s.requesters[requester_index(target, s)?].reply_wait_seconds
    ))
}

fn write_reply_wait(target: &Target, s: &mut Scenario, value: &KnobValue) {
    if let (Some(i), Some(seconds)) = (requester_index(target, s), count(value)) {
        s.requesters[i].reply_wait_seconds = seconds;
    }
}

const MOVE_TASK_AT: Row = row(
    "moveTaskAt",
    "atMs",
    "calls[]",
    true,
    Access::Whole(read_move_task_at, write_move_task_at),
);

/// The operator's first StartMessageMoveTask from the target's source:
/// its place in the operator's calls.
fn move_task_call(target: &Target, s: &Scenario) -> Option<(usize, usize)> {
    let Target::MoveTaskAt { operator, source } = target else {
        return None;
    };
    let o = s.operators.iter().position(|o| &o.name == operator)?;
    let starts = |c: &crate::document::OperatorCall| matches!(&c.call, Operation::StartMessageMoveTask { source: from, .. } if from == source);
    Some((o, s.operators[o].calls.iter().position(starts)?))
}

fn read_move_task_at(target: &Target, s: &Scenario) -> Option<KnobValue> {
    Some(match move_task_call(target, s) {
        Some((o, c)) => ms(s.operators[o].calls[c].at_ms),
        None => KnobValue::OFF,
    })
}

/// Moves the operator's first move task from the source to the knob's
/// moment, or takes it (and only it) away when off; turned on where the
/// operator has none, it adds one at the rate SQS picks.
fn write_move_task_at(target: &Target, s: &mut Scenario, value: &KnobValue) {
    let Target::MoveTaskAt { operator, source } = target else {
        return;
    };
    let found = move_task_call(target, s);
    let Some(o) = s.operators.iter().position(|o| &o.name == operator) else {
        return;
    };
    let calls = &mut s.operators[o].calls;
    match (count(value), found) {
        (Some(at_ms), Some((_, c))) => calls[c].at_ms = at_ms,
        (Some(at_ms), None) => calls.push(crate::document::OperatorCall {
            at_ms,
            call: Operation::StartMessageMoveTask {
                source: source.clone(),
                destination: None,
                max_number_of_messages_per_second: None,
            },
        }),
        (None, Some((_, c))) => {
            calls.remove(c);
        }
        (None, None) => {}
    }
}

fn read_queue_type(target: &Target, s: &Scenario) -> Option<KnobValue> {
    let q = &s.queues[queue_index(s, target.queue()?)?];
    let kind = if q.name.ends_with(".fifo") {
        "fifo"
    } else {
        "standard"
    };
    Some(KnobValue::Text(kind.into()))
}

fn write_queue_type(target: &Target, s: &mut Scenario, value: &KnobValue) {
    if let Some(queue) = target.queue() {
        let fifo = matches!(value, KnobValue::Text(t) if t == "fifo");
        set_queue_type(s, queue, fifo);
    }
}

/// "one", "perAttribute" or "perMessage": the rule every send's group id
/// follows (None: the sends follow none of them).
fn read_group_id(target: &Target, s: &Scenario) -> Option<KnobValue> {
    let Target::GroupId {
        producer,
        attribute,
    } = target
    else {
        return None;
    };
    let p = s.producers.iter().find(|p| &p.name == producer)?;
    let all = |f: &dyn Fn(usize, &crate::document::ScheduledSend) -> Option<String>| {
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
    Some(KnobValue::Text(choice.into()))
}

fn write_group_id(target: &Target, s: &mut Scenario, value: &KnobValue) {
    let Target::GroupId {
        producer,
        attribute,
    } = target
    else {
        return;
    };
    let text = match value {
        KnobValue::Text(t) => t.as_str(),
        _ => "",
    };
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
}

impl Target {
    /// This target's row of the table, and whom it names.
    fn row(&self) -> (&'static Row, Selector<'_>) {
        use Selector::{Alarm as A, Consumer as C, Lambda as L, Producer as P, Queue as Q};
        match self {
            Target::VisibilityTimeoutSeconds { queue } => (&VISIBILITY_TIMEOUT, Q(queue)),
            Target::QueuePolicy { queue } => (&QUEUE_POLICY, Q(queue)),
            Target::Encryption { queue, .. } => (&ENCRYPTION, Q(queue)),
            Target::KmsDataKeyReusePeriodSeconds { queue } => (&KMS_REUSE, Q(queue)),
            Target::ReceiveMessageWaitTimeSeconds { queue } => (&RECEIVE_WAIT, Q(queue)),
            Target::DelaySeconds { queue } => (&DELAY, Q(queue)),
            Target::Redrive { queue, .. } => (&REDRIVE, Q(queue)),
            Target::QueueType { queue } => (&QUEUE_TYPE, Q(queue)),
            Target::BatchSize { consumer } => (&BATCH_SIZE, C(consumer)),
            Target::Replicas { consumer } => (&REPLICAS, C(consumer)),
            Target::WaitTimeSeconds { consumer } => (&WAIT_TIME, C(consumer)),
            Target::PollIntervalMs { consumer } => (&POLL_INTERVAL, C(consumer)),
            Target::HeartbeatEveryMs { consumer } => (&HEARTBEAT_EVERY, C(consumer)),
            Target::HeartbeatVisibilitySeconds { consumer } => (&HEARTBEAT_VISIBILITY, C(consumer)),
            Target::Idempotent { consumer } => (&IDEMPOTENT, C(consumer)),
            Target::DeletesBeforeProcessing { consumer } => (&DELETES_FIRST, C(consumer)),
            Target::RetryImmediately { consumer } => (&RETRY_IMMEDIATELY, C(consumer)),
            Target::DeleteObject { consumer } => (&DELETE_OBJECT, C(consumer)),
            Target::RetryBackoff { consumer, .. } => (&RETRY_BACKOFF, C(consumer)),
            Target::RedelayUntil { consumer, .. } => (&REDELAY_UNTIL, C(consumer)),
            Target::GroupId { producer, .. } => (&GROUP_ID, P(producer)),
            Target::SendBatchSize { producer } => (&SEND_BATCH_SIZE, P(producer)),
            Target::GroupCount { producer } => (&GROUP_COUNT, P(producer)),
            Target::HighThroughput { queue } => (&HIGH_THROUGHPUT, Q(queue)),
            Target::MoveTaskAt { operator, .. } => (&MOVE_TASK_AT, Selector::Operator(operator)),
            Target::ReplyQueue { requester } => (&REPLY_QUEUE, Selector::Requester(requester)),
            Target::ReplyWaitSeconds { requester } => (&REPLY_WAIT, Selector::Requester(requester)),
            Target::FunctionResponseTypes { lambda } => (&REPORT_ITEM_FAILURES, L(lambda)),
            Target::LambdaBatchSize { lambda } => (&LAMBDA_BATCH_SIZE, L(lambda)),
            Target::MaximumBatchingWindowInSeconds { lambda } => (&BATCHING_WINDOW, L(lambda)),
            Target::FunctionTimeoutSeconds { lambda } => (&FUNCTION_TIMEOUT, L(lambda)),
            Target::BatchResponse { lambda } => (&BATCH_RESPONSE, L(lambda)),
            Target::AlarmStatistic { alarm } => (&ALARM_STATISTIC, A(alarm)),
            Target::AlarmMetricName { alarm } => (&ALARM_METRIC, A(alarm)),
            Target::AlarmPeriodSeconds { alarm } => (&ALARM_PERIOD, A(alarm)),
            Target::AlarmEvaluationPeriods { alarm } => (&ALARM_EVALUATION_PERIODS, A(alarm)),
            Target::AlarmDatapointsToAlarm { alarm } => (&ALARM_DATAPOINTS, A(alarm)),
            Target::AlarmThreshold { alarm } => (&ALARM_THRESHOLD, A(alarm)),
            Target::AlarmComparisonOperator { alarm } => (&ALARM_COMPARISON, A(alarm)),
            Target::AlarmTreatMissingData { alarm } => (&ALARM_MISSING, A(alarm)),
            Target::AddAlarm { alarm } => (&ADD_ALARM, A(&alarm.name)),
        }
    }

    /// The scenario field's name, whose own range (`field_range`) bounds
    /// the knob.
    pub(super) fn field(&self) -> &'static str {
        self.row().0.field
    }

    /// Whether it reads "off" where another setting made it not apply.
    pub(super) fn lapses(&self) -> bool {
        self.row().0.lapses
    }

    /// The name of the target (its key in the file).
    pub(super) fn name(&self) -> &'static str {
        self.row().0.name
    }

    pub(crate) fn kind(&self) -> Kind {
        let row = self.row().0;
        if let Some(choices) = row.choices {
            return Kind::Choice(choices);
        }
        if row.text {
            return Kind::Text;
        }
        match self.range() {
            Some((lo, hi, _)) => Kind::Int {
                lo: i64::try_from(lo).unwrap_or(i64::MAX),
                hi: i64::try_from(hi).unwrap_or(i64::MAX),
                optional: row.optional,
            },
            None => Kind::Bool,
        }
    }

    /// The range of the field the knob sets: a Lambda function's
    /// (`lambda_range`), an alarm's (`alarm_range`), or the others'
    /// (`field_range`); None for a toggle.
    pub(super) fn range(&self) -> Option<(u64, u64, &'static str)> {
        let (row, selector) = self.row();
        match selector {
            Selector::Lambda(_) => crate::scenario::lambda_range(row.field),
            Selector::Alarm(_) => alarm_range(row.field),
            _ => field_range(row.field),
        }
    }

    /// The field's rule in words ("a whole number of seconds from 1 to 900").
    pub(super) fn rule(&self) -> String {
        let field = self.field();
        match self.row().1 {
            Selector::Lambda(_) | Selector::Alarm(_) => self
                .range()
                .map(|(lo, hi, unit)| format!("a whole number{unit} from {lo} to {hi}"))
                .unwrap_or_default(),
            _ => crate::scenario::rule_for(field).unwrap_or_default(),
        }
    }

    /// The alarm the target names (`addAlarm`: its alarm's name).
    pub(super) fn alarm(&self) -> Option<&str> {
        match self.row().1 {
            Selector::Alarm(alarm) => Some(alarm),
            _ => None,
        }
    }

    /// The Lambda function the target names.
    pub(super) fn lambda(&self) -> Option<&str> {
        match self.row().1 {
            Selector::Lambda(lambda) => Some(lambda),
            _ => None,
        }
    }

    pub(super) fn queue(&self) -> Option<&str> {
        match self.row().1 {
            Selector::Queue(queue) => Some(queue),
            _ => None,
        }
    }

    pub(super) fn consumer(&self) -> Option<&str> {
        match self.row().1 {
            Selector::Consumer(consumer) => Some(consumer),
            _ => None,
        }
    }

    /// The scenario field the knob's value is, as the vocabulary names it
    /// ("queues[].redrive.maxReceiveCount"), or None when the value is no
    /// one field (a queue's type, a producer's groups).
    pub(crate) fn value_field(&self) -> Option<String> {
        let (row, selector) = self.row();
        let owner = match selector {
            Selector::Producer(_) => "producers",
            Selector::Operator(_) => "operators",
            Selector::Requester(_) => "requesters",
            Selector::Queue(_) => "queues",
            Selector::Consumer(_) => "consumers",
            Selector::Lambda(_) => "lambdas",
            Selector::Alarm(_) => "alarms",
        };
        let known = |path: String| crate::scenario::field_words(&path).map(|_| path);
        known(format!("{owner}[].{}.{}", row.path, row.field))
            .or_else(|| known(format!("{owner}[].{}", row.path)))
    }

    /// The scenario paths the knob writes (`consumer: "*"`: each
    /// consumer's), for a page to show an error at the field.
    pub fn paths(&self, s: &Scenario) -> Vec<String> {
        let (row, selector) = self.row();
        let field = row.path;
        match selector {
            Selector::Producer(producer) => (0..s.producers.len())
                .filter(|i| s.producers[*i].name == producer)
                .map(|i| format!("producers[{i}].{field}"))
                .collect(),
            Selector::Operator(operator) => (0..s.operators.len())
                .filter(|i| s.operators[*i].name == operator)
                .map(|i| format!("operators[{i}].{field}"))
                .collect(),
            Selector::Requester(requester) => (0..s.requesters.len())
                .filter(|i| s.requesters[*i].name == requester)
                .map(|i| format!("requesters[{i}].{field}"))
                .collect(),
            Selector::Queue(queue) => queue_index(s, queue)
                .map(|i| vec![format!("queues[{i}].{field}")])
                .unwrap_or_default(),
            Selector::Consumer(consumer) => consumer_indexes(s, consumer)
                .into_iter()
                .map(|i| format!("consumers[{i}].{field}"))
                .collect(),
            Selector::Lambda(lambda) => (0..s.lambdas.len())
                .filter(|i| s.lambdas[*i].name == lambda)
                .map(|i| format!("lambdas[{i}].{field}"))
                .collect(),
            Selector::Alarm(alarm) => match s.alarms.iter().position(|a| a.name == alarm) {
                Some(i) if row.name != "addAlarm" => vec![format!("alarms[{i}].{field}")],
                Some(i) => vec![format!("alarms[{i}]")],
                None => vec!["alarms".to_owned()],
            },
        }
    }

    /// The value the scenario gives now (the first consumer's for `*`).
    pub(crate) fn read(&self, s: &Scenario) -> Option<KnobValue> {
        let (row, selector) = self.row();
        match (&row.access, selector) {
            (Access::Whole(read, _), _) => read(self, s),
            (Access::Queue(get, _), Selector::Queue(queue)) => {
                Some(get(&s.queues[queue_index(s, queue)?]))
            }
            (Access::Consumer(get, _), Selector::Consumer(consumer)) => {
                Some(get(&s.consumers[*consumer_indexes(s, consumer).first()?]))
            }
            (Access::Lambda(get, _), Selector::Lambda(name)) => {
                Some(get(s.lambdas.iter().find(|l| l.name == name)?))
            }
            (Access::Alarm(get, _), Selector::Alarm(name)) => {
                Some(get(s.alarms.iter().find(|a| a.name == name)?))
            }
            _ => None,
        }
    }

    /// Writes a value already checked against the knob (`Knob::check`).
    pub(super) fn write(&self, s: &mut Scenario, value: &KnobValue) {
        let (row, selector) = self.row();
        match (&row.access, selector) {
            (Access::Whole(_, write), _) => write(self, s, value),
            (Access::Queue(_, set), Selector::Queue(queue)) => {
                if let Some(i) = queue_index(s, queue) {
                    set(&mut s.queues[i], value, self);
                }
            }
            (Access::Consumer(_, set), Selector::Consumer(consumer)) => {
                for i in consumer_indexes(s, consumer) {
                    set(&mut s.consumers[i], value, self);
                }
            }
            (Access::Lambda(_, set), Selector::Lambda(name)) => {
                s.lambdas
                    .iter_mut()
                    .filter(|l| l.name == name)
                    .for_each(|l| set(l, value));
            }
            (Access::Alarm(_, set), Selector::Alarm(name)) => {
                s.alarms
                    .iter_mut()
                    .filter(|a| a.name == name)
                    .for_each(|a| set(a, value));
            }
            _ => {}
        }
    }

    /// The queue names the target holds (a rename changes them).
    pub(super) fn queue_names_mut(&mut self) -> Vec<&mut String> {
        match self {
            Target::VisibilityTimeoutSeconds { queue }
            | Target::ReceiveMessageWaitTimeSeconds { queue }
            | Target::QueuePolicy { queue }
            | Target::Encryption { queue, .. }
            | Target::KmsDataKeyReusePeriodSeconds { queue }
            | Target::QueueType { queue } => vec![queue],
            Target::Redrive {
                queue,
                dead_letter_queue,
            } => vec![queue, dead_letter_queue],
            Target::MoveTaskAt { source, .. } => vec![source],
            _ => Vec::new(),
        }
    }
}

/// The range of an alarm's counted field, by its name: its period (at
/// most a day, CloudWatch's longest), N and M (at most a day of 1 s
/// periods), and a threshold knob's (Queuelab's choice: the counts and
/// seconds of a lab's queues, at most a million).
pub(crate) fn alarm_range(field: &str) -> Option<(u64, u64, &'static str)> {
    Some(match field {
        "periodSeconds" => (1, 86_400, " of seconds"),
        "evaluationPeriods" | "datapointsToAlarm" => (1, 86_400, ""),
        "threshold" => (0, 1_000_000, ""),
        _ => return None,
    })
}

/// The consumers a selector names: `*` is every one.
pub(super) fn consumer_indexes(s: &Scenario, name: &str) -> Vec<usize> {
    (0..s.consumers.len())
        .filter(|i| name == "*" || s.consumers[*i].name == name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_alarm_offers_no_alarm_then_every_metric_sqs_publishes_in_its_order() {
        assert_eq!(ALARM_METRICS[0], "none");
        assert_eq!(ALARM_METRICS[1..], crate::cloudwatch::SQS_METRICS);
    }

    #[test]
    fn each_alarm_choice_reads_back_as_the_files_own_name() {
        let mut alarm: Alarm = serde_json::from_str(r#"{"name":"a","threshold":1}"#).unwrap();
        let Access::Alarm(get, set) = &ALARM_STATISTIC.access else {
            panic!("the statistic is an alarm's field");
        };
        for name in STATISTICS {
            set(&mut alarm, &KnobValue::Text(name.into()));
            assert_eq!(get(&alarm), KnobValue::Text(name.into()));
        }
        for name in COMPARISONS {
            alarm.comparison_operator = parse(&KnobValue::Text(name.into()));
            assert_eq!(
                named(&alarm.comparison_operator()),
                KnobValue::Text(name.into())
            );
        }
        for name in MISSING_DATA {
            alarm.treat_missing_data = parse(&KnobValue::Text(name.into()));
            assert_eq!(
                named(&alarm.treat_missing_data()),
                KnobValue::Text(name.into())
            );
        }
    }

    #[test]
    fn each_batch_response_choice_is_a_response_the_handler_knows() {
        for name in BATCH_RESPONSES {
            let read: Option<crate::document::BatchResponse> = parse(&KnobValue::Text(name.into()));
            assert!(read.is_some(), "{name}");
        }
    }
}
