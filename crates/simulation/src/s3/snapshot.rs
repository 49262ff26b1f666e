//! What the page's snapshot shows of a bucket: its configuration's state,
//! each queue configuration (the arrow to its queue, with its counts and
//! its last refusal) and its objects.

use serde::Serialize;

/// A scenario bucket, as the page draws it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct BucketSnapshot {
    pub name: String,
    /// `arn:aws:s3:::<name>`: the `aws:SourceArn` of its deliveries.
    pub arn: String,
    /// `pending` until the configuration is saved, then `valid`, or
    /// `failed` when S3 refused it (a queue refused its test event).
    #[cfg_attr(feature = "contract", ts(type = r#""pending" | "valid" | "failed""#))]
    pub configuration: &'static str,
    /// Why S3 refused the configuration: its words, the destination's
    /// ARN and the queue's answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub configuration_error: Option<String>,
    pub notifications: Vec<NotificationSnapshot>,
    /// Objects held now.
    pub objects: u64,
    /// Objects put and deleted so far.
    pub puts: u64,
    pub deletes: u64,
    /// The keys of the latest objects put (at most 10), newest last.
    pub recent_keys: Vec<String>,
    /// Notifications the queues took, and those they refused (lost).
    pub sent: u64,
    pub failed: u64,
}

/// One queue configuration of a bucket: the arrow to its queue.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct NotificationSnapshot {
    pub id: String,
    pub queue: String,
    pub events: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub prefix: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub suffix: Option<String>,
    pub sent: u64,
    pub failed: u64,
    /// The latest refusal of a delivery: SQS's code and words.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub last_error: Option<String>,
}

/// How many of the latest keys put a snapshot shows.
pub(crate) const RECENT_KEYS: usize = 10;
