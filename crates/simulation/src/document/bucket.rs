//! A scenario's S3 buckets: their event notifications to the scenario's
//! queues, and the objects put in them and deleted at given moments.

use serde::{Deserialize, Serialize};

#[cfg(feature = "contract")]
use queuelab_engine::MAX_VIRTUAL_MS;

/// An S3 bucket of the queues' account that tells queues of its objects:
/// its notification configuration is saved at `configuredAtMs` (S3 then
/// sends each queue its `s3:TestEvent`, and refuses the whole
/// configuration if a queue refuses that), then each object put or
/// deleted at its moment sends S3's event JSON to the queues whose
/// notification wants it.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Bucket {
    /// S3's bucket naming rules: 3 to 63 lowercase letters, numbers,
    /// periods and hyphens, beginning and ending with a letter or number.
    /// Its deliveries carry it in the log (and `aws:SourceArn`
    /// `arn:aws:s3:::<name>`).
    #[cfg_attr(
        feature = "contract",
        schemars(
            length(min = 3, max = 63),
            regex(pattern = r"^[a-z0-9][a-z0-9.-]*[a-z0-9]$")
        )
    )]
    pub name: String,
    /// When the notification configuration is saved
    /// (PutBucketNotificationConfiguration). Default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub configured_at_ms: u64,
    /// The queue configurations, at most 10.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_BUCKET_NOTIFICATIONS)))]
    pub notifications: Vec<BucketNotification>,
    /// Objects put and deleted, each at its `atMs`, at most 1,000.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_OBJECT_OPERATIONS)))]
    pub objects: Vec<ObjectOperation>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One queue configuration: these events of keys that match the filter go
/// to `queue`. Two configurations whose events meet may not have
/// overlapping filters (S3 refuses them).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BucketNotification {
    /// Its `Id`, the records' `configurationId`, at most 80 characters.
    /// Default: "notification-1", "notification-2", … by its place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub id: Option<String>,
    /// One of the scenario's standard queues (S3 does not send to FIFO queues).
    pub queue: String,
    /// `s3:ObjectCreated:*`, `s3:ObjectCreated:Put`, `:Post`, `:Copy`,
    /// `:CompleteMultipartUpload`, `s3:ObjectRemoved:*`, `:Delete` or
    /// `:DeleteMarkerCreated`.
    #[cfg_attr(feature = "contract", schemars(length(min = 1, max = 8)))]
    pub events: Vec<String>,
    /// Only keys that start with this (a key name filter's prefix rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    #[cfg_attr(feature = "contract", schemars(length(min = 1, max = MAX_KEY_BYTES)))]
    pub prefix: Option<String>,
    /// Only keys that end with this (a key name filter's suffix rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    #[cfg_attr(feature = "contract", schemars(length(min = 1, max = MAX_KEY_BYTES)))]
    pub suffix: Option<String>,
}

/// A PutObject (`put`, with its `sizeBytes`) or a DeleteObject (`delete`)
/// of a key, at its moment.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ObjectOperation {
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub at_ms: u64,
    /// The key of an object put (1 to 1,024 bytes): `s3:ObjectCreated:Put`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    #[cfg_attr(feature = "contract", schemars(length(min = 1, max = MAX_KEY_BYTES)))]
    pub put: Option<String>,
    /// The key of an object deleted: `s3:ObjectRemoved:Delete`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    #[cfg_attr(feature = "contract", schemars(length(min = 1, max = MAX_KEY_BYTES)))]
    pub delete: Option<String>,
    /// A put object's size in bytes, up to S3's 5 TiB. Default 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_OBJECT_BYTES)))]
    pub size_bytes: Option<u64>,
}

/// The most buckets a scenario has, queue configurations a bucket has, and
/// object operations a bucket lists (Queuelab's choices: a lesson's
/// handful, and a page that draws each bucket).
pub const MAX_BUCKETS: usize = 20;
pub const MAX_BUCKET_NOTIFICATIONS: usize = 10;
pub const MAX_OBJECT_OPERATIONS: usize = 1_000;

/// The most bytes one object holds (S3's 5 TiB).
pub const MAX_OBJECT_BYTES: u64 = 5 << 40;

/// The longest object key or filter value, in bytes of UTF-8 (S3's 1,024).
pub const MAX_KEY_BYTES: usize = 1024;
