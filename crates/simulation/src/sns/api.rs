//! The SNS API of the run's topics: typed calls and answers, their members
//! named as SNS's API reference names them (the protocol's codecs read
//! them from a query-protocol form or JSON, and write the answers with
//! serde), and SNS's errors. `service.rs` answers them.

use std::collections::BTreeMap;

use serde::Serialize;

/// The operations, by the names SNS's `Action` parameter takes.
pub const OPERATIONS: [&str; 12] = [
    "CreateTopic",
    "DeleteTopic",
    "ListTopics",
    "GetTopicAttributes",
    "SetTopicAttributes",
    "Subscribe",
    "Unsubscribe",
    "GetSubscriptionAttributes",
    "SetSubscriptionAttributes",
    "ListSubscriptionsByTopic",
    "Publish",
    "PublishBatch",
];

/// The most topics the SNS API creates over a run (SNS's quota is
/// 100,000 an account; a run keeps each one's card and counts).
pub const MAX_TOPICS_MADE: usize = 100;

/// The most subscriptions the SNS API makes on one topic over a run,
/// unsubscribed ones included (each keeps its counts).
pub const MAX_SUBSCRIPTIONS_MADE: usize = 200;

/// One SNS call. Members SNS requires are still `Option`s here: a missing
/// one is SNS's `InvalidParameter` naming it, not a decoding failure.
#[derive(Clone, Debug)]
pub enum SnsCall {
    CreateTopic(CreateTopic),
    DeleteTopic(TopicArn),
    ListTopics(Page),
    GetTopicAttributes(TopicArn),
    SetTopicAttributes(SetAttribute),
    Subscribe(Subscribe),
    Unsubscribe(SubscriptionArn),
    GetSubscriptionAttributes(SubscriptionArn),
    SetSubscriptionAttributes(SetAttribute),
    ListSubscriptionsByTopic(TopicPage),
    Publish(Publish),
    PublishBatch(PublishBatch),
}

#[derive(Clone, Debug, Default)]
pub struct CreateTopic {
    pub name: Option<String>,
    pub attributes: BTreeMap<String, String>,
}

#[derive(Clone, Debug, Default)]
pub struct TopicArn {
    pub topic_arn: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct SubscriptionArn {
    pub subscription_arn: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Page {
    pub next_token: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct TopicPage {
    pub topic_arn: Option<String>,
    pub next_token: Option<String>,
}

/// SetTopicAttributes (`TopicArn`) or SetSubscriptionAttributes
/// (`SubscriptionArn`): one attribute at a time, as SNS takes them.
#[derive(Clone, Debug, Default)]
pub struct SetAttribute {
    pub topic_arn: Option<String>,
    pub subscription_arn: Option<String>,
    pub attribute_name: Option<String>,
    pub attribute_value: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Subscribe {
    pub topic_arn: Option<String>,
    pub protocol: Option<String>,
    pub endpoint: Option<String>,
    pub attributes: BTreeMap<String, String>,
}

/// A message attribute as Publish takes it.
#[derive(Clone, Debug, Default)]
pub struct AttributeValue {
    pub data_type: Option<String>,
    pub string_value: Option<String>,
    /// Base64 text, as the wire carries it.
    pub binary_value: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Publish {
    pub topic_arn: Option<String>,
    /// Publish to a topic by `TargetArn` too (SNS's mobile endpoints apart).
    pub target_arn: Option<String>,
    pub phone_number: Option<String>,
    pub message: MessageInput,
}

#[derive(Clone, Debug, Default)]
pub struct PublishBatch {
    pub topic_arn: Option<String>,
    /// Each entry's `Id` and message.
    pub publish_batch_request_entries: Vec<(Option<String>, MessageInput)>,
}

/// A message's members, as Publish and each PublishBatch entry carry them.
#[derive(Clone, Debug, Default)]
pub struct MessageInput {
    pub message: Option<String>,
    pub subject: Option<String>,
    pub message_structure: Option<String>,
    pub message_attributes: BTreeMap<String, AttributeValue>,
    pub message_group_id: Option<String>,
    pub message_deduplication_id: Option<String>,
}

/// What a call answers; the codec names the result after the call.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SnsAnswer {
    /// DeleteTopic, SetTopicAttributes, Unsubscribe,
    /// SetSubscriptionAttributes: nothing but the request id.
    Empty {},
    TopicArn {
        #[serde(rename = "TopicArn")]
        topic_arn: String,
    },
    SubscriptionArn {
        #[serde(rename = "SubscriptionArn")]
        subscription_arn: String,
    },
    Attributes {
        #[serde(rename = "Attributes")]
        attributes: BTreeMap<String, String>,
    },
    Topics {
        #[serde(rename = "Topics")]
        topics: Vec<TopicEntry>,
        #[serde(rename = "NextToken", skip_serializing_if = "Option::is_none")]
        next_token: Option<String>,
    },
    Subscriptions {
        #[serde(rename = "Subscriptions")]
        subscriptions: Vec<SubscriptionEntry>,
        #[serde(rename = "NextToken", skip_serializing_if = "Option::is_none")]
        next_token: Option<String>,
    },
    Published(Published),
    Batch {
        #[serde(rename = "Successful")]
        successful: Vec<BatchSuccess>,
        #[serde(rename = "Failed")]
        failed: Vec<BatchFailure>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct TopicEntry {
    pub topic_arn: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct SubscriptionEntry {
    pub subscription_arn: String,
    pub owner: String,
    pub protocol: String,
    pub endpoint: String,
    pub topic_arn: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Published {
    pub message_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequence_number: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct BatchSuccess {
    pub id: String,
    pub message_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequence_number: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct BatchFailure {
    pub id: String,
    pub code: String,
    pub message: String,
    pub sender_fault: bool,
}

/// An SNS error: its code, HTTP status and message, as SNS answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnsError {
    pub code: &'static str,
    pub status: u16,
    pub message: String,
}

impl SnsError {
    /// SNS's `InvalidParameter`: "Invalid parameter: <name> Reason: <why>".
    pub fn invalid(name: &str, reason: &str) -> Self {
        let message = match reason {
            "" => format!("Invalid parameter: {name}"),
            _ => format!("Invalid parameter: {name} Reason: {reason}"),
        };
        SnsError {
            code: "InvalidParameter",
            status: 400,
            message,
        }
    }

    /// A required member left out.
    pub fn missing(name: &str) -> Self {
        Self::invalid(name, "no value for required parameter")
    }

    pub fn not_found(message: &str) -> Self {
        SnsError {
            code: "NotFound",
            status: 404,
            message: message.to_string(),
        }
    }

    pub fn authorization(message: String) -> Self {
        SnsError {
            code: "AuthorizationError",
            status: 403,
            message,
        }
    }

    pub fn new(code: &'static str, status: u16, message: impl Into<String>) -> Self {
        SnsError {
            code,
            status,
            message: message.into(),
        }
    }

    /// Whether the caller is at fault (`Sender`), as the error's XML says.
    pub fn sender_fault(&self) -> bool {
        self.status < 500
    }
}

/// A required member's value, or SNS's error naming it.
pub fn required<'a>(value: &'a Option<String>, name: &str) -> Result<&'a str, SnsError> {
    match value.as_deref() {
        Some(v) if !v.is_empty() => Ok(v),
        _ => Err(SnsError::missing(name)),
    }
}
