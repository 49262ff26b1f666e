//! The scenario's SNS topics: each publishes at given moments (or at a
//! steady rate) and fans every message out to the queues subscribed to
//! it, as SNS does (`crate::sns`, `crate::actors::topic`).

use std::collections::BTreeMap;

#[cfg(feature = "contract")]
use queuelab_engine::MAX_VIRTUAL_MS;
use serde::{Deserialize, Serialize};

use super::rate::Rate;

/// An Amazon SNS topic in the queues' account and region: its ARN is
/// `arn:aws:sns:<region>:<account>:<name>`. It sends to each subscribed
/// queue as `sns.amazonaws.com` with `aws:SourceArn` the topic's ARN, so
/// a queue policy decides whether it may.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Topic {
    /// Letters, digits, hyphens or underscores, a FIFO topic's ending in
    /// .fifo (SNS's rule), at most 80 characters (SNS allows 256; every
    /// name in the log stops at 80).
    #[cfg_attr(feature = "contract", schemars(length(min = 1, max = 80)))]
    pub name: String,
    /// A FIFO topic (its name ends in .fifo): it keeps each publish's
    /// group id and deduplicates publishes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fifo: bool,
    /// FIFO only: the deduplication id of a publish without `dedupId` is
    /// the SHA-256 of its message.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub content_based_deduplication: bool,
    /// The queues it delivers to, each with its own options. At most 20.
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_SUBSCRIPTIONS)))]
    pub subscriptions: Vec<Subscription>,
    /// Messages published at given moments. At most 1,000.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_PUBLISHES)))]
    pub publishes: Vec<Publish>,
    /// Messages published at a steady rate (`body` is the message; `{n}`
    /// in it and in `groupId` numbers each publish).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub rate: Option<Rate>,
}

/// A queue subscribed to a topic (an SNS subscription with protocol `sqs`).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Subscription {
    /// One of the scenario's queues.
    pub queue: String,
    /// RawMessageDelivery: the queue receives the message itself, its
    /// attributes as SQS message attributes, rather than SNS's JSON
    /// envelope. Default false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub raw_message_delivery: bool,
    /// FilterPolicy: which messages this queue receives, as SNS's
    /// subscription filter policy (a JSON object). Without one, all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "contract",
        ts(optional, type = "Record<string, unknown>"),
        schemars(with = "Option<serde_json::Map<String, serde_json::Value>>")
    )]
    pub filter_policy: Option<serde_json::Value>,
    /// FilterPolicyScope: what the policy reads, the message's attributes
    /// (the default) or its JSON body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub filter_policy_scope: Option<FilterPolicyScope>,
    /// RedrivePolicy's deadLetterTargetArn: the queue that gets a message
    /// SNS could not deliver (a client-side error, or retries used up).
    /// Without one, such a message is dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub dead_letter_queue: Option<String>,
}

/// What a subscription's filter policy reads (SNS's `FilterPolicyScope`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
pub enum FilterPolicyScope {
    #[default]
    MessageAttributes,
    MessageBody,
}

/// One Publish of a topic, at its moment.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Publish {
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub at_ms: u64,
    /// The message, 1 byte to 256 KiB (262,144 bytes) of UTF-8.
    #[cfg_attr(feature = "contract", schemars(length(min = 1)))]
    pub message: String,
    /// The Subject, at most 100 characters (the envelope's `Subject`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub subject: Option<String>,
    /// Message attributes, at most 10: a string is a `String` attribute,
    /// a number a `Number`, a list a `String.Array`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[cfg_attr(
        feature = "contract",
        schemars(with = "BTreeMap<String, PublishAttribute>"),
        ts(type = "Record<string, PublishAttribute>")
    )]
    pub attributes: BTreeMap<String, serde_json::Value>,
    /// MessageGroupId (FIFO topics, where it is required).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub group_id: Option<String>,
    /// MessageDeduplicationId (FIFO topics without contentBasedDeduplication).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub dedup_id: Option<String>,
}

/// A message attribute's value, its SNS type chosen by its JSON type
/// (for the schema and the TypeScript types: the document keeps the JSON
/// value, which `Scenario::validate` holds to these three, as an untagged
/// enum's decoder would have cost the page's wasm kilobytes).
#[cfg(feature = "contract")]
#[derive(ts_rs::TS, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum PublishAttribute {
    /// `String`.
    Text(String),
    /// `Number`.
    Number(f64),
    /// `String.Array`: strings, numbers, true, false or null.
    List(
        #[cfg_attr(
            feature = "contract",
            ts(type = "Array<string | number | boolean | null>")
        )]
        Vec<serde_json::Value>,
    ),
}

/// The most topics a scenario has, subscriptions a topic has and
/// publishes a topic lists (Queuelab's choice: the page draws each topic
/// and arrow; a lesson publishes a handful).
pub const MAX_TOPICS: usize = 20;
pub const MAX_SUBSCRIPTIONS: usize = 20;
pub const MAX_PUBLISHES: usize = 1_000;
