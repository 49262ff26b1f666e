//! The S3 API of the run's buckets, as far as a bucket that tells queues
//! of its objects needs it: typed calls and answers, their members named
//! as S3's API reference names them (the protocol's JSON wire reads them,
//! and writes the answers with serde), and S3's errors. `service.rs` answers them.

use serde::Serialize;

/// The operations, by their names in S3's API reference.
pub const OPERATIONS: [&str; 6] = [
    "CreateBucket",
    "PutBucketNotificationConfiguration",
    "PutObject",
    "GetObject",
    "DeleteObject",
    "ListObjectsV2",
];

/// The largest object PutObject stores here (S3 takes 5 GiB in one put):
/// a run keeps every object's content in the tab's memory.
pub const MAX_OBJECT_BYTES: usize = 1 << 20;

/// The most content all of a run's objects hold together.
pub const MAX_CONTENT_BYTES: usize = 16 << 20;

/// The most objects a run's buckets hold together: an object's content
/// may be empty, so the content bound alone would not hold their number.
pub const MAX_OBJECTS_HELD: usize = 100_000;

/// The most buckets CreateBucket makes over a run (S3's default quota is
/// 10,000 an account; each keeps a card on the page).
pub const MAX_BUCKETS_MADE: usize = 100;

/// One S3 call. Members S3 requires are still `Option`s: a missing one is
/// S3's error naming it, not a decoding failure.
#[derive(Clone, Debug)]
pub enum S3Call {
    CreateBucket(BucketOnly),
    PutBucketNotificationConfiguration(PutNotification),
    PutObject(PutObject),
    GetObject(ObjectKey),
    DeleteObject(ObjectKey),
    ListObjectsV2(ListObjects),
}

#[derive(Clone, Debug, Default)]
pub struct BucketOnly {
    pub bucket: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct PutNotification {
    pub bucket: Option<String>,
    pub notification_configuration: Option<NotificationConfiguration>,
}

#[derive(Clone, Debug, Default)]
pub struct NotificationConfiguration {
    pub queue_configurations: Vec<QueueConfigurationInput>,
    /// Topic, Lambda or EventBridge destinations were given (not simulated).
    pub other_destinations: bool,
}

#[derive(Clone, Debug, Default)]
pub struct QueueConfigurationInput {
    pub id: Option<String>,
    pub queue_arn: Option<String>,
    pub events: Vec<String>,
    pub filter: Option<Filter>,
}

#[derive(Clone, Debug, Default)]
pub struct Filter {
    pub key: Option<KeyFilterInput>,
}

#[derive(Clone, Debug, Default)]
pub struct KeyFilterInput {
    pub filter_rules: Vec<FilterRule>,
}

#[derive(Clone, Debug, Default)]
pub struct FilterRule {
    pub name: Option<String>,
    pub value: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct PutObject {
    pub bucket: Option<String>,
    pub key: Option<String>,
    /// The content, as text.
    pub body: Option<String>,
    pub content_type: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct ObjectKey {
    pub bucket: Option<String>,
    pub key: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct ListObjects {
    pub bucket: Option<String>,
    pub prefix: Option<String>,
    pub max_keys: Option<i64>,
    pub continuation_token: Option<String>,
    pub start_after: Option<String>,
}

/// What a call answers.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum S3Answer {
    /// PutBucketNotificationConfiguration, DeleteObject.
    Empty {},
    Created {
        #[serde(rename = "Location")]
        location: String,
    },
    Put {
        #[serde(rename = "ETag")]
        e_tag: String,
    },
    Object(Object),
    Listed(Listed),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Object {
    pub body: String,
    pub content_length: u64,
    pub content_type: String,
    pub e_tag: String,
    /// ISO 8601, as the SDK's JSON shapes carry a date.
    pub last_modified: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Listed {
    pub name: String,
    pub prefix: String,
    pub max_keys: u64,
    pub key_count: u64,
    pub is_truncated: bool,
    pub contents: Vec<Listing>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_continuation_token: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Listing {
    pub key: String,
    pub size: u64,
    pub e_tag: String,
    pub last_modified: String,
    pub storage_class: &'static str,
}

/// An S3 error: its code, HTTP status and message, as S3 answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct S3Error {
    pub code: &'static str,
    pub status: u16,
    pub message: String,
}

impl S3Error {
    pub fn new(code: &'static str, status: u16, message: impl Into<String>) -> Self {
        S3Error {
            code,
            status,
            message: message.into(),
        }
    }

    pub fn no_such_bucket() -> Self {
        Self::new("NoSuchBucket", 404, "The specified bucket does not exist")
    }

    /// A member S3 requires, left out (the SDK checks these before sending).
    pub fn missing(name: &str) -> Self {
        Self::new(
            "InvalidRequest",
            400,
            format!("Missing required parameter: {name}"),
        )
    }
}

/// A required member's value, or S3's error naming it.
pub fn required<'a>(value: &'a Option<String>, name: &str) -> Result<&'a str, S3Error> {
    match value.as_deref() {
        Some(v) if !v.is_empty() => Ok(v),
        _ => Err(S3Error::missing(name)),
    }
}
