//! The checks of a scenario's SNS topics: how many, their names, their
//! subscriptions' queues and filter policies, and their publishes, each
//! refused as SNS refuses it (its own words where they are known: the
//! filter policy's "Filter policy is too complex", a FIFO queue on a
//! standard topic) and placed at its field.

use super::fields::{at_most, quoted, refuse, short_name, within, FieldError};
use crate::document::{Publish, Scenario, Topic, MAX_PUBLISHES, MAX_SUBSCRIPTIONS, MAX_TOPICS};
use crate::sns::filter::FilterPolicy;

/// SNS's largest message: 256 KiB.
pub const MAX_MESSAGE_BYTES: usize = 262_144;
/// SNS's longest Subject, in characters.
pub const MAX_SUBJECT_CHARS: usize = 100;
/// SNS's most message attributes on a publish.
pub const MAX_MESSAGE_ATTRIBUTES: usize = 10;

impl Scenario {
    pub(super) fn validate_topics(&self) -> Result<(), FieldError> {
        let count = self.topics.len() as u64;
        at_most("topics", count, MAX_TOPICS as u64, "topics")?;
        for (i, topic) in self.topics.iter().enumerate() {
            let at = format!("topics[{i}]");
            if let Some(first) = self.topics[..i].iter().position(|t| t.name == topic.name) {
                let rule = format!("a name no other topic has (topics[{first}] is also named so)");
                return Err(refuse(format!("{at}.name"), rule, quoted(&topic.name)));
            }
            validate_name(&at, topic)?;
            self.validate_subscriptions(&at, topic)?;
            let publishes = topic.publishes.len() as u64;
            let path = format!("{at}.publishes");
            at_most(&path, publishes, MAX_PUBLISHES as u64, "publishes")?;
            for (j, publish) in topic.publishes.iter().enumerate() {
                validate_publish(&format!("{at}.publishes[{j}]"), topic, publish)?;
            }
            validate_rate(&at, topic)?;
        }
        Ok(())
    }

    /// Each subscription: a queue of the scenario, once; a FIFO queue only
    /// on a FIFO topic; a dead-letter queue of the topic's type; a filter
    /// policy SNS accepts.
    fn validate_subscriptions(&self, at: &str, topic: &Topic) -> Result<(), FieldError> {
        let count = topic.subscriptions.len() as u64;
        let path = format!("{at}.subscriptions");
        at_most(&path, count, MAX_SUBSCRIPTIONS as u64, "subscriptions")?;
        let is_queue = |name: &str| self.queues.iter().any(|q| q.name == name);
        for (j, s) in topic.subscriptions.iter().enumerate() {
            let path = |field: &str| format!("{at}.subscriptions[{j}].{field}");
            if !is_queue(&s.queue) {
                let rule = "the name of one of the scenario's queues";
                return Err(refuse(path("queue"), rule, quoted(&s.queue)));
            }
            if topic.subscriptions[..j].iter().any(|o| o.queue == s.queue) {
                let rule = "a queue not already subscribed to this topic (SNS keeps one \
                            subscription per queue)";
                return Err(refuse(path("queue"), rule, quoted(&s.queue)));
            }
            if s.queue.ends_with(".fifo") && !topic.fifo {
                let rule = "a standard queue: SNS refuses \"Invalid parameter: Endpoint Reason: \
                            FIFO SQS Queues can not be subscribed to standard SNS topics\"";
                return Err(refuse(path("queue"), rule, quoted(&s.queue)));
            }
            if let Some(dlq) = &s.dead_letter_queue {
                if !is_queue(dlq) {
                    let rule = "the name of one of the scenario's queues";
                    return Err(refuse(path("deadLetterQueue"), rule, quoted(dlq)));
                }
                if dlq.ends_with(".fifo") != topic.fifo {
                    let rule = match topic.fifo {
                        true => "a FIFO queue (a FIFO topic's subscriptions dead-letter to FIFO queues)",
                        false => "a standard queue (a standard topic's subscriptions dead-letter to standard queues)",
                    };
                    return Err(refuse(path("deadLetterQueue"), rule, quoted(dlq)));
                }
            }
            if let Some(policy) = &s.filter_policy {
                let scope = s.filter_policy_scope.unwrap_or_default();
                if let Err(reason) = FilterPolicy::parse(policy, scope) {
                    return Err(refuse(
                        path("filterPolicy"),
                        "a filter policy SNS accepts",
                        format!(
                            "one SNS refuses with \"Invalid parameter: Attributes Reason: {reason}\""
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// SNS's topic names: 1 to 256 letters, digits, hyphens or underscores, a
/// FIFO topic's ending in .fifo; and, as every name in the log, at most
/// 80 characters.
fn validate_name(at: &str, topic: &Topic) -> Result<(), FieldError> {
    let path = format!("{at}.name");
    let stem = topic.name.strip_suffix(".fifo").unwrap_or(&topic.name);
    let valid = !stem.is_empty()
        && stem.len() <= 256
        && stem
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid {
        let rule = "1 to 256 letters, digits, hyphens or underscores (a FIFO topic's name ends \
                    in .fifo)";
        return Err(refuse(path, rule, quoted(&topic.name)));
    }
    short_name(path.clone(), &topic.name)?;
    if topic.name.ends_with(".fifo") != topic.fifo {
        let rule = match topic.fifo {
            true => "a name ending in .fifo, as a FIFO topic's does",
            false => {
                "a name not ending in .fifo (or set \"fifo\": true: SNS makes a .fifo \
                      topic only as a FIFO topic)"
            }
        };
        return Err(refuse(path, rule, quoted(&topic.name)));
    }
    if topic.content_based_deduplication && !topic.fifo {
        let rule = "left out on a standard topic (it is for FIFO topics)";
        return Err(refuse(
            format!("{at}.contentBasedDeduplication"),
            rule,
            "true",
        ));
    }
    Ok(())
}

/// A publish SNS would accept from this topic: a moment the run reaches,
/// a message of 1 byte to 256 KiB, a Subject of at most 100 characters, at
/// most 10 attributes, and the FIFO ids a FIFO topic requires.
fn validate_publish(at: &str, topic: &Topic, p: &Publish) -> Result<(), FieldError> {
    let path = |field: &str| format!("{at}.{field}");
    within(path("atMs"), i128::from(p.at_ms))?;
    if p.message.is_empty() || p.message.len() > MAX_MESSAGE_BYTES {
        let rule = "a message of 1 to 262,144 bytes (SNS's 256 KiB)";
        return Err(refuse(
            path("message"),
            rule,
            format!("{} bytes", p.message.len()),
        ));
    }
    if let Some(subject) = &p.subject {
        let chars = subject.chars().count();
        if chars == 0 || chars > MAX_SUBJECT_CHARS || subject.chars().any(char::is_control) {
            let rule = "a Subject of 1 to 100 characters, without line breaks or control \
                        characters";
            return Err(refuse(path("subject"), rule, quoted(subject)));
        }
    }
    let count = p.attributes.len() as u64;
    at_most(
        &path("attributes"),
        count,
        MAX_MESSAGE_ATTRIBUTES as u64,
        "attributes",
    )?;
    for (name, value) in &p.attributes {
        use serde_json::Value;
        let scalar = |v: &Value| !(v.is_array() || v.is_object());
        let valid = match value {
            Value::String(_) | Value::Number(_) => true,
            Value::Array(items) => items.iter().all(scalar),
            _ => false,
        };
        if !valid {
            let rule = "a string (String), a number (Number) or a list of strings, numbers, \
                        true, false or null (String.Array)";
            let got = serde_json::to_string(value).unwrap_or_default();
            return Err(refuse(
                path(&format!("attributes.{name}")),
                rule,
                quoted(&got),
            ));
        }
    }
    validate_fifo_ids(at, topic, p.group_id.as_deref(), p.dedup_id.as_deref())
}

/// A FIFO topic's publish has a group id, and a deduplication id unless
/// the topic has content-based deduplication; a standard topic's has
/// neither.
fn validate_fifo_ids(
    at: &str,
    topic: &Topic,
    group: Option<&str>,
    dedup: Option<&str>,
) -> Result<(), FieldError> {
    let path = |field: &str| format!("{at}.{field}");
    if !topic.fifo {
        for (field, given) in [("groupId", group), ("dedupId", dedup)] {
            if let Some(given) = given {
                let rule = "left out on a standard topic (it is for FIFO topics)";
                return Err(refuse(path(field), rule, quoted(given)));
            }
        }
        return Ok(());
    }
    if group.is_none() {
        let rule = "a MessageGroupId: SNS refuses \"Invalid parameter: The MessageGroupId \
                    parameter is required for FIFO topics\"";
        return Err(refuse(path("groupId"), rule, "none"));
    }
    if dedup.is_none() && !topic.content_based_deduplication {
        let rule = "a MessageDeduplicationId: SNS refuses \"Invalid parameter: The topic should \
                    either have ContentBasedDeduplication enabled or MessageDeduplicationId \
                    provided explicitly\"";
        return Err(refuse(path("dedupId"), rule, "none"));
    }
    Ok(())
}

/// A topic's rate: moments and a count in range, a message SNS takes, and
/// on a FIFO topic a group id (its publishes carry no deduplication id,
/// so the topic needs content-based deduplication).
fn validate_rate(at: &str, topic: &Topic) -> Result<(), FieldError> {
    let Some(rate) = &topic.rate else {
        return Ok(());
    };
    let path = |field: &str| format!("{at}.rate.{field}");
    within(path("startMs"), i128::from(rate.start_ms))?;
    within(path("everyMs"), i128::from(rate.every_ms))?;
    within(path("count"), i128::from(rate.count))?;
    if let Some(groups) = rate.group_count {
        within(path("groupCount"), i128::from(groups))?;
    }
    if let Some(size) = rate.batch_size {
        let rule = "left out on a topic (a topic publishes each message on its own)";
        return Err(refuse(path("batchSize"), rule, size.to_string()));
    }
    if rate.body.is_empty() || rate.body.len() > MAX_MESSAGE_BYTES - 20 {
        let rule = "a message of 1 to 262,124 bytes (SNS's 256 KiB, with room for {n})";
        return Err(refuse(
            path("body"),
            rule,
            format!("{} bytes", rate.body.len()),
        ));
    }
    if topic.fifo && !topic.content_based_deduplication {
        let rule = "on a topic with contentBasedDeduplication (a rate's publishes carry no \
                    dedupId)";
        return Err(refuse(
            format!("{at}.rate"),
            rule,
            "a FIFO topic without it",
        ));
    }
    validate_fifo_ids(&format!("{at}.rate"), topic, rate.group_id.as_deref(), None)
}
