//! What the SNS API does to one topic (`sns/service.rs` finds the topic
//! and answers): its attributes, its subscriptions made, read, changed and
//! removed, and a publish made now. The rules are SNS's, written where SNS
//! documents them; the deliveries are the topic's own (`mod.rs`).

use std::collections::BTreeMap;
use std::sync::Arc;

use queuelab_engine::Millis;

use super::{empty_counts, Subscription, Topic};
use crate::actors::Command;
use crate::document::{FilterPolicyScope, Publish, Subscription as SubscriptionSpec};
use crate::sns::api::{
    required, AttributeValue, Published, SnsError, SubscriptionEntry, MAX_SUBSCRIPTIONS_MADE,
};
use crate::sns::filter::FilterPolicy;
use crate::sns::{uuid, MAX_MESSAGE_BYTES};

/// The topic attributes SetTopicAttributes changes here.
const SETTABLE: [&str; 4] = [
    "DisplayName",
    "Policy",
    "DeliveryPolicy",
    "ContentBasedDeduplication",
];

/// The longest topic policy SNS takes ("Policy quotas": 30 KB); a
/// delivery policy is held to the same.
const MAX_POLICY_BYTES: usize = 30 * 1024;

/// The subscription attributes SetSubscriptionAttributes changes here.
const SUBSCRIPTION_SETTABLE: [&str; 4] = [
    "RawMessageDelivery",
    "FilterPolicy",
    "FilterPolicyScope",
    "RedrivePolicy",
];

impl Topic {
    pub(crate) fn arn(&self) -> &str {
        &self.arn
    }

    pub(crate) fn topic_name(&self) -> &Arc<str> {
        &self.name
    }

    pub(crate) fn is_fifo(&self) -> bool {
        self.fifo
    }

    pub(crate) fn is_deleted(&self) -> bool {
        self.deleted
    }

    /// DeleteTopic: it publishes no more and leaves the picture; messages
    /// already in queues stay there.
    pub(crate) fn delete(&mut self) {
        self.deleted = true;
        self.listed.clear();
        self.rate = None;
        self.retries.clear();
    }

    /// GetTopicAttributes, as SNS lists them for a topic of `owner`.
    pub(crate) fn attributes(&self, owner: &str) -> BTreeMap<String, String> {
        let live = self.subscriptions.iter().filter(|s| !s.removed).count();
        let removed = self.subscriptions.len() - live;
        let mut out = BTreeMap::from([
            ("TopicArn".to_string(), self.arn.clone()),
            ("Owner".to_string(), owner.to_string()),
            ("DisplayName".to_string(), self.display_name.clone()),
            ("SubscriptionsConfirmed".to_string(), live.to_string()),
            ("SubscriptionsPending".to_string(), "0".to_string()),
            ("SubscriptionsDeleted".to_string(), removed.to_string()),
            (
                "Policy".to_string(),
                self.policy
                    .clone()
                    .unwrap_or_else(|| default_policy(&self.arn, owner)),
            ),
            (
                "EffectiveDeliveryPolicy".to_string(),
                crate::sns::retry::EFFECTIVE_DELIVERY_POLICY.to_string(),
            ),
        ]);
        if let Some(policy) = &self.delivery_policy {
            out.insert("DeliveryPolicy".into(), policy.clone());
        }
        if self.fifo {
            out.insert("FifoTopic".into(), "true".into());
            out.insert(
                "ContentBasedDeduplication".into(),
                self.content_based_deduplication.to_string(),
            );
        }
        out
    }

    /// SetTopicAttributes of one attribute.
    pub(crate) fn set_attribute(&mut self, name: &str, value: &str) -> Result<(), SnsError> {
        match name {
            "DisplayName" if value.chars().count() <= 100 => self.display_name = value.into(),
            "DisplayName" => return Err(SnsError::invalid("DisplayName", "too long")),
            "Policy" | "DeliveryPolicy" if value.len() > MAX_POLICY_BYTES => {
                return Err(SnsError::invalid(
                    name,
                    &format!(
                        "it is {} bytes, more than SNS's {MAX_POLICY_BYTES} (30 KB)",
                        value.len()
                    ),
                ))
            }
            "Policy" => {
                serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(value)
                    .map_err(|_| SnsError::invalid("Policy", "failed to parse JSON"))?;
                self.policy = Some(value.into());
            }
            "DeliveryPolicy" => {
                serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(value)
                    .map_err(|_| SnsError::invalid("DeliveryPolicy", "failed to parse JSON"))?;
                self.delivery_policy = Some(value.into());
            }
            "ContentBasedDeduplication" if !self.fifo => {
                return Err(SnsError::invalid(
                    "AttributeName",
                    "ContentBasedDeduplication is for FIFO topics",
                ))
            }
            "ContentBasedDeduplication" => {
                self.content_based_deduplication = boolean("ContentBasedDeduplication", value)?;
            }
            _ => {
                return Err(SnsError::invalid(
                    "AttributeName",
                    &format!(
                        "Queuelab's topics set {}; \"{name}\" is not one of them",
                        SETTABLE.join(", ")
                    ),
                ))
            }
        }
        Ok(())
    }

    /// Subscribe of the SQS queue `queue_arn` with `attributes`; the new
    /// subscription's ARN. Subscribing a queue already subscribed with the
    /// same attributes answers its ARN again, as SNS does.
    pub(crate) fn subscribe(
        &mut self,
        queue_arn: &str,
        attributes: &BTreeMap<String, String>,
    ) -> Result<String, SnsError> {
        let (queue, url) = queue_of(queue_arn, "Endpoint")?;
        if queue.ends_with(".fifo") && !self.fifo {
            return Err(SnsError::invalid(
                "Endpoint",
                "FIFO SQS Queues can not be subscribed to standard SNS topics",
            ));
        }
        let mut subscription = Subscription {
            queue: queue.into(),
            url,
            endpoint: queue_arn.to_string(),
            raw: false,
            filter: None,
            filter_text: None,
            scope: FilterPolicyScope::default(),
            dead_letter: None,
            arn: String::new(),
            removed: false,
            counts: empty_counts(queue.to_string(), &plain_spec(queue)),
        };
        for (name, value) in attribute_order(attributes) {
            set_subscription(&mut subscription, name, value, self.fifo)?;
        }
        if let Some(same) = self.subscriptions.iter().find(|s| {
            !s.removed
                && s.endpoint == subscription.endpoint
                && s.raw == subscription.raw
                && s.filter_text == subscription.filter_text
        }) {
            return Ok(same.arn.clone());
        }
        if self
            .subscriptions
            .iter()
            .any(|s| !s.removed && s.endpoint == queue_arn)
        {
            return Err(SnsError::invalid(
                "Attributes",
                "Subscription already exists with different attributes",
            ));
        }
        let live = self.subscriptions.iter().filter(|s| !s.removed).count();
        if live >= crate::document::MAX_SUBSCRIPTIONS
            || self.subscriptions.len() >= MAX_SUBSCRIPTIONS_MADE
        {
            return Err(SnsError::new(
                "SubscriptionLimitExceeded",
                403,
                format!(
                    "Queuelab keeps at most {} subscriptions on a topic, and at most {} made \
                     over a run",
                    crate::document::MAX_SUBSCRIPTIONS,
                    MAX_SUBSCRIPTIONS_MADE
                ),
            ));
        }
        let index = self.subscriptions.len().to_string();
        let seed = self.seed.to_string();
        subscription.arn = format!(
            "{}:{}",
            self.arn,
            uuid(&[&seed, "subscription", &self.arn, &index])
        );
        let arn = subscription.arn.clone();
        self.subscriptions.push(subscription);
        Ok(arn)
    }

    /// The index of the live subscription with this ARN.
    pub(crate) fn subscription(&self, arn: &str) -> Option<usize> {
        (self.subscriptions.iter()).position(|s| !s.removed && s.arn == arn)
    }

    /// Unsubscribe: no more deliveries; retries waiting for it are dropped.
    pub(crate) fn unsubscribe(&mut self, index: usize) {
        let s = &mut self.subscriptions[index];
        s.removed = true;
        // Only its counts are kept: nothing reads its options again.
        (s.filter, s.filter_text) = (None, None);
        self.retries.retain(|(_, d)| d.subscription != index);
    }

    /// The live subscriptions, as ListSubscriptionsByTopic lists them.
    pub(crate) fn subscription_entries(&self, owner: &str) -> Vec<SubscriptionEntry> {
        (self.subscriptions.iter())
            .filter(|s| !s.removed)
            .map(|s| SubscriptionEntry {
                subscription_arn: s.arn.clone(),
                owner: owner.to_string(),
                protocol: "sqs".into(),
                endpoint: s.endpoint.clone(),
                topic_arn: self.arn.clone(),
            })
            .collect()
    }

    /// GetSubscriptionAttributes.
    pub(crate) fn subscription_attributes(
        &self,
        index: usize,
        owner: &str,
    ) -> BTreeMap<String, String> {
        let s = &self.subscriptions[index];
        let mut out = BTreeMap::from([
            ("SubscriptionArn".to_string(), s.arn.clone()),
            ("TopicArn".to_string(), self.arn.clone()),
            ("Owner".to_string(), owner.to_string()),
            ("Protocol".to_string(), "sqs".to_string()),
            ("Endpoint".to_string(), s.endpoint.clone()),
            ("ConfirmationWasAuthenticated".to_string(), "true".into()),
            ("PendingConfirmation".to_string(), "false".into()),
            ("RawMessageDelivery".to_string(), s.raw.to_string()),
            (
                "SubscriptionPrincipal".to_string(),
                format!("arn:aws:iam::{owner}:root"),
            ),
        ]);
        if let Some(text) = &s.filter_text {
            out.insert("FilterPolicy".into(), text.clone());
            out.insert("FilterPolicyScope".into(), scope_word(s.scope).into());
        }
        if let Some((_, _, arn)) = &s.dead_letter {
            out.insert(
                "RedrivePolicy".into(),
                serde_json::json!({ "deadLetterTargetArn": arn }).to_string(),
            );
        }
        out
    }

    /// SetSubscriptionAttributes of one attribute.
    pub(crate) fn set_subscription_attribute(
        &mut self,
        index: usize,
        name: &str,
        value: &str,
    ) -> Result<(), SnsError> {
        let fifo = self.fifo;
        let s = &mut self.subscriptions[index];
        set_subscription(s, name, value, fifo)?;
        s.counts.raw_message_delivery = s.raw;
        s.counts.filtered = s.filter.is_some();
        s.counts.dead_letter_queue = s.dead_letter.as_ref().map(|(q, _, _)| q.to_string());
        Ok(())
    }

    /// Publish, now: checked as SNS checks it, then fanned out. The answer,
    /// and the deliveries for the run to carry out at once.
    pub(crate) fn publish_now(
        &mut self,
        now: Millis,
        mut publish: Publish,
        attributes: &BTreeMap<String, AttributeValue>,
    ) -> Result<(Published, Vec<Command>), SnsError> {
        self.check_publish(&publish)?;
        publish.at_ms = now;
        publish.attributes = publish_attributes(attributes)?;
        self.last_now = now;
        let mut out = Vec::new();
        let (message_id, sequence_number) = self.publish(publish, now, &mut out);
        Ok((
            Published {
                message_id,
                sequence_number,
            },
            out,
        ))
    }

    /// SNS's checks of a publish to this topic.
    fn check_publish(&self, publish: &Publish) -> Result<(), SnsError> {
        if publish.message.is_empty() {
            return Err(SnsError::invalid("Message", "Empty message"));
        }
        if publish.message.len() > MAX_MESSAGE_BYTES {
            return Err(SnsError::invalid("Message", "Message too long"));
        }
        if let Some(subject) = &publish.subject {
            let fine = !subject.is_empty()
                && subject.chars().count() <= 100
                && subject
                    .chars()
                    .all(|c| c.is_ascii() && !c.is_ascii_control());
            if !fine {
                return Err(SnsError::invalid(
                    "Subject",
                    "1 to 100 printable ASCII characters, no line breaks",
                ));
            }
        }
        match (self.fifo, &publish.group_id) {
            (true, None) => Err(SnsError::invalid(
                "MessageGroupId",
                "The MessageGroupId parameter is required for FIFO topics",
            )),
            (false, Some(_)) => Err(SnsError::invalid(
                "MessageGroupId",
                "The request includes MessageGroupId parameter that is not valid for this topic \
                 type",
            )),
            (true, Some(_)) if publish.dedup_id.is_none() && !self.content_based_deduplication => {
                Err(SnsError::invalid(
                    "MessageDeduplicationId",
                    "The topic should either have ContentBasedDeduplication enabled or \
                     MessageDeduplicationId provided explicitly",
                ))
            }
            (false, None) if publish.dedup_id.is_some() => Err(SnsError::invalid(
                "MessageDeduplicationId",
                "The request includes MessageDeduplicationId parameter that is not valid for \
                 this topic type",
            )),
            _ => Ok(()),
        }
    }
}

/// The queue an SQS ARN names, and its URL, or SNS's refusal of `member`.
fn queue_of<'a>(arn: &'a str, member: &str) -> Result<(&'a str, String), SnsError> {
    crate::queue_of_arn(arn).ok_or_else(|| {
        SnsError::invalid(
            member,
            &format!("An SQS endpoint is a queue's ARN (arn:aws:sqs:<region>:<account>:<name>), not \"{arn}\""),
        )
    })
}

/// The options of a subscription made without any (for its counts).
fn plain_spec(queue: &str) -> SubscriptionSpec {
    SubscriptionSpec {
        queue: queue.to_string(),
        raw_message_delivery: false,
        filter_policy: None,
        filter_policy_scope: None,
        dead_letter_queue: None,
    }
}

/// The attributes in the order they must apply: the scope before the
/// policy it reads, then the rest in name order.
fn attribute_order(
    attributes: &BTreeMap<String, String>,
) -> impl Iterator<Item = (&String, &String)> {
    let scope = attributes.get_key_value("FilterPolicyScope");
    scope.into_iter().chain(
        attributes
            .iter()
            .filter(|(name, _)| *name != "FilterPolicyScope"),
    )
}

/// One subscription attribute set, as Subscribe and SetSubscriptionAttributes take it.
fn set_subscription(
    s: &mut Subscription,
    name: &str,
    value: &str,
    fifo: bool,
) -> Result<(), SnsError> {
    match name {
        "RawMessageDelivery" => s.raw = boolean(name, value)?,
        "FilterPolicyScope" => {
            s.scope = match value {
                "MessageAttributes" => FilterPolicyScope::MessageAttributes,
                "MessageBody" => FilterPolicyScope::MessageBody,
                _ => {
                    return Err(SnsError::invalid(
                        "FilterPolicyScope",
                        "Invalid filter policy scope: MessageAttributes or MessageBody",
                    ))
                }
            };
            if let Some(text) = s.filter_text.clone() {
                s.filter = Some(read_filter(&text, s.scope)?);
            }
        }
        "FilterPolicy" if value.is_empty() => {
            s.filter = None;
            s.filter_text = None;
        }
        "FilterPolicy" => {
            s.filter = Some(read_filter(value, s.scope)?);
            s.filter_text = Some(value.to_string());
        }
        "RedrivePolicy" => {
            let target = serde_json::from_str::<serde_json::Value>(value)
                .ok()
                .and_then(|v| v.get("deadLetterTargetArn")?.as_str().map(str::to_string))
                .ok_or_else(|| {
                    SnsError::invalid(
                        "RedrivePolicy",
                        "a JSON object with deadLetterTargetArn, an SQS queue's ARN",
                    )
                })?;
            let (queue, url) = queue_of(&target, "RedrivePolicy")?;
            if queue.ends_with(".fifo") != fifo {
                return Err(SnsError::invalid(
                    "RedrivePolicy",
                    "the dead-letter queue must be of the topic's type (FIFO or standard)",
                ));
            }
            s.dead_letter = Some((queue.into(), url, target));
        }
        _ => {
            return Err(SnsError::invalid(
                "AttributeName",
                &format!(
                    "Queuelab's SQS subscriptions take {}; \"{name}\" is not one of them",
                    SUBSCRIPTION_SETTABLE.join(", ")
                ),
            ))
        }
    }
    Ok(())
}

fn read_filter(text: &str, scope: FilterPolicyScope) -> Result<FilterPolicy, SnsError> {
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|_| SnsError::invalid("FilterPolicy", "failed to parse JSON."))?;
    FilterPolicy::parse(&value, scope).map_err(|reason| {
        let reason = reason.strip_prefix("FilterPolicy: ").unwrap_or(&reason);
        SnsError::invalid("FilterPolicy", reason)
    })
}

fn scope_word(scope: FilterPolicyScope) -> &'static str {
    match scope {
        FilterPolicyScope::MessageAttributes => "MessageAttributes",
        FilterPolicyScope::MessageBody => "MessageBody",
    }
}

fn boolean(name: &str, value: &str) -> Result<bool, SnsError> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(SnsError::invalid(name, "true or false")),
    }
}

/// Publish's message attributes as the topic carries them: String,
/// Number and String.Array values (see docs/fidelity.md for Binary).
fn publish_attributes(
    attributes: &BTreeMap<String, AttributeValue>,
) -> Result<BTreeMap<String, serde_json::Value>, SnsError> {
    if attributes.len() > 10 {
        return Err(SnsError::invalid(
            "MessageAttributes",
            "at most 10 message attributes",
        ));
    }
    let mut out = BTreeMap::new();
    for (name, value) in attributes {
        let member = format!("MessageAttributes.entry.{name}");
        let kind = required(&value.data_type, &format!("{member}.DataType"))?;
        let text = value.string_value.as_deref();
        let typed = match (kind, text) {
            ("String", Some(t)) => serde_json::Value::String(t.to_string()),
            ("Number", Some(t)) => serde_json::from_str::<serde_json::Number>(t)
                .map(serde_json::Value::Number)
                .map_err(|_| {
                    SnsError::new(
                        "ParameterValueInvalid",
                        400,
                        format!("Could not cast message attribute '{name}' value to number."),
                    )
                })?,
            ("String.Array", Some(t)) => match serde_json::from_str(t) {
                Ok(v @ serde_json::Value::Array(_)) => v,
                _ => {
                    return Err(SnsError::new(
                        "ParameterValueInvalid",
                        400,
                        format!("Message attribute '{name}' value is not a JSON array."),
                    ))
                }
            },
            ("Binary", _) => {
                return Err(SnsError::invalid(
                    &member,
                    "Queuelab's topics carry String, Number and String.Array attributes, not Binary",
                ))
            }
            (_, None) => {
                return Err(SnsError::new(
                    "ParameterValueInvalid",
                    400,
                    format!("The message attribute '{name}' must contain non-empty message attribute value for message attribute type '{kind}'."),
                ))
            }
            _ => {
                return Err(SnsError::new(
                    "ParameterValueInvalid",
                    400,
                    format!("The message attribute '{name}' has an invalid message attribute type, the set of supported type prefixes is Binary, Number, and String."),
                ))
            }
        };
        out.insert(name.clone(), typed);
    }
    Ok(out)
}

/// The policy SNS gives a new topic: its owner may do everything to it.
fn default_policy(arn: &str, owner: &str) -> String {
    serde_json::json!({
        "Version": "2008-10-17",
        "Id": "__default_policy_ID",
        "Statement": [{
            "Sid": "__default_statement_ID",
            "Effect": "Allow",
            "Principal": { "AWS": "*" },
            "Action": [
                "SNS:GetTopicAttributes", "SNS:SetTopicAttributes", "SNS:AddPermission",
                "SNS:RemovePermission", "SNS:DeleteTopic", "SNS:Subscribe",
                "SNS:ListSubscriptionsByTopic", "SNS:Publish"
            ],
            "Resource": arn,
            "Condition": { "StringEquals": { "AWS:SourceOwner": owner } }
        }]
    })
    .to_string()
}
