//! Queue attributes as the wire carries them (name -> string) and as the
//! engine types them. `RedrivePolicy` and `RedriveAllowPolicy` are JSON
//! documents inside a string; this is where they are parsed and written.
//! `Policy` is read by `queuelab-policy` and written back as the engine keeps it.

use std::collections::BTreeMap;

use queuelab_engine::{
    check_attribute_text, invalid_attribute_value, unknown_attribute, AttributeName, DedupScope,
    QueueAttribute, RedriveAllowPolicy, RedrivePermission, RedrivePolicy, SqsError, SqsResult,
    ThroughputLimit,
};
use serde_json::{json, Value};

/// A whole number as SQS reads one: digits with an optional sign, nothing
/// around them (" 30" is refused too).
fn int(name: &str, value: &str) -> SqsResult<i64> {
    value.parse().map_err(|_| invalid_attribute_value(name))
}

fn boolean(name: &str, value: &str) -> SqsResult<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(invalid_attribute_value(name)),
    }
}

/// Turns the wire's attribute map into typed attributes to set.
pub fn parse_settable(map: &BTreeMap<String, String>) -> SqsResult<Vec<QueueAttribute>> {
    map.iter()
        .map(|(name, value)| parse_one(name, value))
        .collect()
}

fn parse_one(name: &str, value: &str) -> SqsResult<QueueAttribute> {
    use QueueAttribute as A;
    let parsed: AttributeName = name.parse()?;
    // Before any parsing: a 10 MB policy is refused unread.
    check_attribute_text(parsed, value)?;
    Ok(match parsed {
        AttributeName::DelaySeconds => A::DelaySeconds(int(name, value)?),
        AttributeName::MaximumMessageSize => A::MaximumMessageSize(int(name, value)?),
        AttributeName::MessageRetentionPeriod => A::MessageRetentionPeriod(int(name, value)?),
        AttributeName::ReceiveMessageWaitTimeSeconds => {
            A::ReceiveMessageWaitTimeSeconds(int(name, value)?)
        }
        AttributeName::VisibilityTimeout => A::VisibilityTimeout(int(name, value)?),
        AttributeName::KmsDataKeyReusePeriodSeconds => {
            A::KmsDataKeyReusePeriodSeconds(int(name, value)?)
        }
        AttributeName::SqsManagedSseEnabled => A::SqsManagedSseEnabled(boolean(name, value)?),
        AttributeName::FifoQueue => A::FifoQueue(boolean(name, value)?),
        AttributeName::ContentBasedDeduplication => {
            A::ContentBasedDeduplication(boolean(name, value)?)
        }
        AttributeName::DeduplicationScope => A::DeduplicationScope(match value {
            "queue" => DedupScope::Queue,
            "messageGroup" => DedupScope::MessageGroup,
            _ => return Err(invalid_attribute_value(name)),
        }),
        AttributeName::FifoThroughputLimit => A::FifoThroughputLimit(match value {
            "perQueue" => ThroughputLimit::PerQueue,
            "perMessageGroupId" => ThroughputLimit::PerMessageGroupId,
            _ => return Err(invalid_attribute_value(name)),
        }),
        AttributeName::Policy if value.is_empty() => A::Policy(None),
        AttributeName::Policy => A::Policy(Some(queuelab_policy::read(value)?)),
        AttributeName::KmsMasterKeyId => A::KmsMasterKeyId(value.to_string()),
        AttributeName::RedrivePolicy => A::RedrivePolicy(redrive_policy(value)?),
        AttributeName::RedriveAllowPolicy => A::RedriveAllowPolicy(redrive_allow_policy(value)?),
        read_only => return Err(unknown_attribute(read_only.as_str())),
    })
}

/// A JSON object from an attribute value; the empty string clears the attribute.
fn policy_object(name: &str, text: &str) -> SqsResult<Option<serde_json::Map<String, Value>>> {
    if text.is_empty() {
        return Ok(None);
    }
    match serde_json::from_str(text) {
        Ok(Value::Object(map)) => Ok(Some(map)),
        _ => Err(invalid_attribute_value(name)),
    }
}

fn redrive_policy(text: &str) -> SqsResult<Option<RedrivePolicy>> {
    let Some(map) = policy_object("RedrivePolicy", text)? else {
        return Ok(None);
    };
    let bad = |reason: &str| SqsError::invalid_value("RedrivePolicy", text, reason);
    let missing = |key: &str| {
        bad(&format!(
            "Redrive policy does not contain mandatory attribute: {key}."
        ))
    };
    // With both missing, AWS names maxReceiveCount (recorded).
    let Some(count) = map.get("maxReceiveCount") else {
        return Err(missing("maxReceiveCount"));
    };
    let arn = match map.get("deadLetterTargetArn") {
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(bad("Invalid value for deadLetterTargetArn.")),
        None => return Err(missing("deadLetterTargetArn")),
    };
    // SQS accepts the count as a number or a numeric string.
    let count = match count {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    };
    let Some(count) = count else {
        return Err(bad("Invalid value for maxReceiveCount."));
    };
    Ok(Some(RedrivePolicy {
        dead_letter_target_arn: arn,
        max_receive_count: count,
        text: text.to_string(),
    }))
}

fn redrive_allow_policy(text: &str) -> SqsResult<Option<RedriveAllowPolicy>> {
    let Some(map) = policy_object("RedriveAllowPolicy", text)? else {
        return Ok(None);
    };
    let bad = |reason: &str| SqsError::invalid_value("RedriveAllowPolicy", text, reason);
    let permission = map
        .get("redrivePermission")
        .and_then(Value::as_str)
        .and_then(RedrivePermission::parse)
        .ok_or_else(|| bad("redrivePermission must be allowAll, denyAll or byQueue."))?;
    let arns = match map.get("sourceQueueArns") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| i.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| bad("sourceQueueArns must be a list of queue ARNs."))?,
        Some(_) => return Err(bad("sourceQueueArns must be a list of queue ARNs.")),
    };
    Ok(Some(RedriveAllowPolicy {
        permission,
        source_queue_arns: arns,
    }))
}

/// The wire text of an attribute value.
pub fn format(attribute: &QueueAttribute) -> String {
    use QueueAttribute as A;
    match attribute {
        A::DelaySeconds(v)
        | A::MaximumMessageSize(v)
        | A::MessageRetentionPeriod(v)
        | A::ReceiveMessageWaitTimeSeconds(v)
        | A::VisibilityTimeout(v)
        | A::KmsDataKeyReusePeriodSeconds(v) => v.to_string(),
        A::ApproximateNumberOfMessages(v)
        | A::ApproximateNumberOfMessagesDelayed(v)
        | A::ApproximateNumberOfMessagesNotVisible(v)
        | A::CreatedTimestamp(v)
        | A::LastModifiedTimestamp(v) => v.to_string(),
        A::SqsManagedSseEnabled(b) | A::FifoQueue(b) | A::ContentBasedDeduplication(b) => {
            b.to_string()
        }
        A::KmsMasterKeyId(s) | A::QueueArn(s) => s.clone(),
        A::Policy(p) => p
            .as_ref()
            .map_or_else(String::new, |p| p.text().to_string()),
        A::DeduplicationScope(DedupScope::Queue) => "queue".into(),
        A::DeduplicationScope(DedupScope::MessageGroup) => "messageGroup".into(),
        A::FifoThroughputLimit(ThroughputLimit::PerQueue) => "perQueue".into(),
        A::FifoThroughputLimit(ThroughputLimit::PerMessageGroupId) => "perMessageGroupId".into(),
        A::RedrivePolicy(None) | A::RedriveAllowPolicy(None) => String::new(),
        A::RedrivePolicy(Some(p)) => json!({
            "deadLetterTargetArn": p.dead_letter_target_arn,
            "maxReceiveCount": p.max_receive_count,
        })
        .to_string(),
        A::RedriveAllowPolicy(Some(p)) => {
            let mut doc = json!({ "redrivePermission": p.permission.as_str() });
            if p.permission == RedrivePermission::ByQueue {
                doc["sourceQueueArns"] = json!(p.source_queue_arns);
            }
            doc.to_string()
        }
    }
}
