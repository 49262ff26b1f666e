//! The ranges of the scenario's fields and the words of a refusal: one
//! table of ranges (`field_range`, worded by `rule_for`), the queue fields
//! and the SQS attributes they set (`QUEUE_FIELDS`), and `FieldError`,
//! which names a field by its path.

use queuelab_engine::{
    echo, is_caller_name, AttributeName, RedrivePolicy, MAX_CALLER_CHARS,
    MAX_NUMBER_OF_MESSAGES_RANGE, MAX_VIRTUAL_MS, MAX_VISIBILITY_TIMEOUT, WAIT_TIME_SECONDS_RANGE,
};

use crate::document::{
    QueueSpec, MAX_GROUP_COUNT, MAX_OBJECT_BYTES, MAX_PAD_BYTES, MAX_RATE_COUNT, MAX_REPLICAS,
    MAX_SPAN_MS,
};

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

/// A refusal of the field at `path`: what it must be, and what it was.
pub(crate) fn refuse(path: String, rule: impl Into<String>, got: impl Into<String>) -> FieldError {
    FieldError {
        path,
        rule: rule.into(),
        got: got.into(),
    }
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
        "durationMs" | "atMs" | "startMs" | "stopMs" | "fromMs" | "toMs" | "configuredAtMs" => {
            (0, MAX_VIRTUAL_MS, MS)
        }
        "everyMs" | "pollIntervalMs" | "heartbeatEveryMs" => (1, MAX_SPAN_MS, MS),
        "fixedMs" | "min" | "max" | "mean" | "restartMs" => (0, MAX_SPAN_MS, MS),
        "count" => (0, MAX_RATE_COUNT, ""),
        "groupCount" => (1, MAX_GROUP_COUNT, ""),
        "padToBytes" => (1, MAX_PAD_BYTES, " of bytes"),
        "thresholdBytes" => (1, crate::payload::MAX_THRESHOLD_BYTES, " of bytes"),
        "thresholdChars" => (1, crate::payload::MAX_THRESHOLD_BYTES, " of characters"),
        "sizeBytes" => (0, MAX_OBJECT_BYTES, " of bytes"),
        "batchSize" => (batch.0, batch.1, ""),
        "replicas" => (1, MAX_REPLICAS, ""),
        "batchOverheadMs" => (0, MAX_SPAN_MS, MS),
        "endMs" => (0, MAX_VIRTUAL_MS, MS),
        // Epoch milliseconds: the engine's latest start (9999-12-31T23:59:59.999Z).
        "startEpochMs" => (0, queuelab_engine::MAX_START_EPOCH_MS, MS),
        "baseSeconds" | "maxSeconds" => (1, most_seconds, SECONDS),
        "waitTimeSeconds" => (wait.0, wait.1, SECONDS),
        "replyWaitSeconds" => (1, crate::document::MAX_REPLY_WAIT_SECONDS, SECONDS),
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
    let unit = match attribute {
        AttributeName::MaximumMessageSize => " of bytes",
        _ => SECONDS,
    };
    Some((attribute.as_str(), attribute.range()?, unit))
}

/// Each queue attribute a scenario can set, with the field that sets it:
/// the one table the scenario's checks (`queue_attribute`), the queue's
/// creation and CreateQueue's refusals (worded with the field) read. The
/// five whole numbers (four of seconds, one of bytes) come first
/// (`QueueSpec::seconds`).
pub(crate) const QUEUE_FIELDS: [(&str, AttributeName); 10] = [
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
    ("maximumMessageSizeBytes", AttributeName::MaximumMessageSize),
    (
        "contentBasedDeduplication",
        AttributeName::ContentBasedDeduplication,
    ),
    ("deduplicationScope", AttributeName::DeduplicationScope),
    ("fifoThroughputLimit", AttributeName::FifoThroughputLimit),
    ("redrive", AttributeName::RedrivePolicy),
    (
        "dataKeyReusePeriodSeconds",
        AttributeName::KmsDataKeyReusePeriodSeconds,
    ),
];

impl QueueSpec {
    /// The queue's `Policy` as SetQueueAttributes would be sent it: the
    /// scenario's JSON object as text.
    pub(crate) fn policy_text(&self) -> Option<String> {
        self.policy.as_ref().map(serde_json::Value::to_string)
    }

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
            self.maximum_message_size_bytes,
        ];
        QUEUE_FIELDS[..5]
            .iter()
            .zip(values)
            .map(|((field, attribute), value)| (*field, *attribute, value))
    }
}

/// The units `field_range` gives, as `rule_for` words them.
pub(super) const SECONDS: &str = " of seconds";
pub(super) const MS: &str = " of milliseconds";

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
pub(super) fn short_name(path: String, name: &str) -> Result<(), FieldError> {
    if is_caller_name(name) {
        return Ok(());
    }
    Err(FieldError {
        path,
        rule: format!("at most {MAX_CALLER_CHARS} characters"),
        got: format!("{} characters", name.chars().count()),
    })
}

/// An `account` field: another AWS account's id or an IAM ARN in it, as
/// `Principal::account` takes them (its refusal says what was expected).
pub(super) fn account(path: String, account: Option<&str>) -> Result<(), FieldError> {
    let Some(account) = account else {
        return Ok(());
    };
    match queuelab_engine::Principal::account(account) {
        Ok(_) => Ok(()),
        Err(_) => Err(FieldError {
            path,
            rule: "a 12-digit AWS account id or an IAM ARN \
                   (arn:aws:iam::111111111111:root, …:user/name or …:role/name)"
                .into(),
            got: quoted(account),
        }),
    }
}

/// One field's range (`field_range`, by the path's last part).
pub(super) fn within(path: String, value: i128) -> Result<(), FieldError> {
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
