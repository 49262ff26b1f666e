//! Queue attributes: their names, typed values, ranges and defaults.
//!
//! The wire gives attributes as strings; the protocol layer turns them into
//! [`QueueAttribute`] values (and back), and this module decides what is
//! allowed.

use std::str::FromStr;

use crate::error::{echo, ErrorCode, SqsError, SqsResult};
use crate::policy::QueuePolicy;

/// Declares `AttributeName` from one list, so the enum, `ALL` and the wire
/// names cannot drift apart.
macro_rules! attribute_names {
    ($($name:ident),* $(,)?) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum AttributeName {
            $($name),*
        }

        impl AttributeName {
            /// Every queue attribute, in name order (the order of `All`).
            pub const ALL: &'static [AttributeName] = &[$(AttributeName::$name),*];

            /// The attribute's name on the wire.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(AttributeName::$name => stringify!($name)),*
                }
            }
        }
    };
}

attribute_names! {
    ApproximateNumberOfMessages,
    ApproximateNumberOfMessagesDelayed,
    ApproximateNumberOfMessagesNotVisible,
    ContentBasedDeduplication,
    CreatedTimestamp,
    DeduplicationScope,
    DelaySeconds,
    FifoQueue,
    FifoThroughputLimit,
    KmsDataKeyReusePeriodSeconds,
    KmsMasterKeyId,
    LastModifiedTimestamp,
    MaximumMessageSize,
    MessageRetentionPeriod,
    Policy,
    QueueArn,
    ReceiveMessageWaitTimeSeconds,
    RedriveAllowPolicy,
    RedrivePolicy,
    SqsManagedSseEnabled,
    VisibilityTimeout,
}

impl AttributeName {
    /// Attributes only a FIFO queue has.
    pub fn fifo_only(self) -> bool {
        use AttributeName::*;
        matches!(
            self,
            FifoQueue | ContentBasedDeduplication | DeduplicationScope | FifoThroughputLimit
        )
    }

    /// The whole numbers SQS accepts for a numeric attribute, lowest and
    /// highest included; `None` for an attribute that is not a number.
    /// The one place these ranges live: `Settings::apply` checks them, and
    /// hosts word them for their own fields (the simulation's
    /// `Scenario::validate`), so the two can never disagree.
    pub const fn range(self) -> Option<(i64, i64)> {
        use AttributeName::*;
        Some(match self {
            DelaySeconds => (0, 900),
            MaximumMessageSize => (1_024, 1_048_576),
            MessageRetentionPeriod => (60, 1_209_600),
            ReceiveMessageWaitTimeSeconds => (0, 20),
            VisibilityTimeout => (0, MAX_VISIBILITY_TIMEOUT),
            KmsDataKeyReusePeriodSeconds => (60, 86_400),
            _ => return None,
        })
    }

    /// Attributes SQS computes; they can be read but never set.
    pub fn read_only(self) -> bool {
        use AttributeName::*;
        matches!(
            self,
            ApproximateNumberOfMessages
                | ApproximateNumberOfMessagesDelayed
                | ApproximateNumberOfMessagesNotVisible
                | CreatedTimestamp
                | LastModifiedTimestamp
                | QueueArn
        )
    }
}

/// The longest `KmsMasterKeyId`: a KMS key id, alias or ARN, which KMS's
/// API reference bounds to 2,048 characters ("Length Constraints: Maximum
/// length of 2048").
pub const MAX_KMS_KEY_ID_CHARS: usize = 2_048;

/// The longest `RedrivePolicy` or `RedriveAllowPolicy` text, in bytes. AWS
/// documents none; a policy of ten queue ARNs is under 1.5 KB, and this is
/// the `Policy` attribute's own quota ([`crate::MAX_POLICY_BYTES`]). A
/// Queuelab choice (docs/fidelity.md): without it a 64 MiB text was kept.
pub const MAX_REDRIVE_POLICY_BYTES: usize = 8_192;

/// Checks a string attribute's length before anything parses or keeps it
/// (issue 25: a 64 MiB `KmsMasterKeyId` and a 10 MB `Policy` were kept, and
/// memory outside every budget ended in a trap). The protocol layer calls
/// it on the wire text; [`Settings::apply`] holds typed values to it too.
pub fn check_attribute_text(name: AttributeName, text: &str) -> SqsResult<()> {
    let fits = match name {
        AttributeName::Policy => return crate::policy::check_policy_bytes(text),
        AttributeName::KmsMasterKeyId => text.chars().nth(MAX_KMS_KEY_ID_CHARS).is_none(),
        AttributeName::RedrivePolicy | AttributeName::RedriveAllowPolicy => {
            text.len() <= MAX_REDRIVE_POLICY_BYTES
        }
        _ => true,
    };
    if fits {
        Ok(())
    } else {
        Err(invalid_attribute_value(name.as_str()))
    }
}

pub fn unknown_attribute(name: &str) -> SqsError {
    SqsError::new(
        ErrorCode::InvalidAttributeName,
        format!("Unknown Attribute {}.", crate::echo(name)),
    )
}

impl FromStr for AttributeName {
    type Err = SqsError;
    fn from_str(s: &str) -> SqsResult<Self> {
        AttributeName::ALL
            .iter()
            .copied()
            .find(|n| n.as_str() == s)
            .ok_or_else(|| unknown_attribute(s))
    }
}

#[derive(Clone, Debug, Eq)]
pub struct RedrivePolicy {
    pub dead_letter_target_arn: String,
    pub max_receive_count: i64,
    /// The caller's own text of the policy, which a refusal repeats as
    /// SQS does (spaces and key order included); empty for a policy made
    /// in code, whose refusal then writes it out.
    pub text: String,
}

/// Two policies are the same policy whatever their texts.
impl PartialEq for RedrivePolicy {
    fn eq(&self, other: &Self) -> bool {
        self.dead_letter_target_arn == other.dead_letter_target_arn
            && self.max_receive_count == other.max_receive_count
    }
}

impl RedrivePolicy {
    /// The `maxReceiveCount` values SQS accepts, both included; checked by
    /// `Settings::apply`, and worded by hosts for their own fields.
    pub const MAX_RECEIVE_COUNT_RANGE: (i64, i64) = (1, 1_000);

    /// A refusal of this policy in SQS's phrasing: the policy, then why.
    pub(crate) fn refused(&self, reason: &str) -> SqsError {
        let text = if self.text.is_empty() {
            format!(
                "{{\"deadLetterTargetArn\":\"{}\",\"maxReceiveCount\":{}}}",
                self.dead_letter_target_arn, self.max_receive_count
            )
        } else {
            self.text.clone()
        };
        SqsError::invalid_value("RedrivePolicy", text, reason)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedrivePermission {
    AllowAll,
    DenyAll,
    ByQueue,
}

impl RedrivePermission {
    pub fn as_str(self) -> &'static str {
        match self {
            RedrivePermission::AllowAll => "allowAll",
            RedrivePermission::DenyAll => "denyAll",
            RedrivePermission::ByQueue => "byQueue",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [Self::AllowAll, Self::DenyAll, Self::ByQueue]
            .into_iter()
            .find(|p| p.as_str() == s)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedriveAllowPolicy {
    pub permission: RedrivePermission,
    pub source_queue_arns: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DedupScope {
    Queue,
    MessageGroup,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThroughputLimit {
    PerQueue,
    PerMessageGroupId,
}

/// A typed queue attribute value, settable or read-only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueueAttribute {
    DelaySeconds(i64),
    MaximumMessageSize(i64),
    MessageRetentionPeriod(i64),
    ReceiveMessageWaitTimeSeconds(i64),
    VisibilityTimeout(i64),
    /// `None` clears it (the wire's empty string).
    RedrivePolicy(Option<RedrivePolicy>),
    RedriveAllowPolicy(Option<RedriveAllowPolicy>),
    /// `None` clears it (the wire's empty string).
    Policy(Option<QueuePolicy>),
    KmsMasterKeyId(String),
    KmsDataKeyReusePeriodSeconds(i64),
    SqsManagedSseEnabled(bool),
    FifoQueue(bool),
    ContentBasedDeduplication(bool),
    DeduplicationScope(DedupScope),
    FifoThroughputLimit(ThroughputLimit),
    ApproximateNumberOfMessages(u64),
    ApproximateNumberOfMessagesDelayed(u64),
    ApproximateNumberOfMessagesNotVisible(u64),
    /// Epoch seconds.
    CreatedTimestamp(u64),
    LastModifiedTimestamp(u64),
    QueueArn(String),
}

impl QueueAttribute {
    pub fn name(&self) -> AttributeName {
        use AttributeName as N;
        use QueueAttribute as A;
        match self {
            A::DelaySeconds(_) => N::DelaySeconds,
            A::MaximumMessageSize(_) => N::MaximumMessageSize,
            A::MessageRetentionPeriod(_) => N::MessageRetentionPeriod,
            A::ReceiveMessageWaitTimeSeconds(_) => N::ReceiveMessageWaitTimeSeconds,
            A::VisibilityTimeout(_) => N::VisibilityTimeout,
            A::RedrivePolicy(_) => N::RedrivePolicy,
            A::RedriveAllowPolicy(_) => N::RedriveAllowPolicy,
            A::Policy(_) => N::Policy,
            A::KmsMasterKeyId(_) => N::KmsMasterKeyId,
            A::KmsDataKeyReusePeriodSeconds(_) => N::KmsDataKeyReusePeriodSeconds,
            A::SqsManagedSseEnabled(_) => N::SqsManagedSseEnabled,
            A::FifoQueue(_) => N::FifoQueue,
            A::ContentBasedDeduplication(_) => N::ContentBasedDeduplication,
            A::DeduplicationScope(_) => N::DeduplicationScope,
            A::FifoThroughputLimit(_) => N::FifoThroughputLimit,
            A::ApproximateNumberOfMessages(_) => N::ApproximateNumberOfMessages,
            A::ApproximateNumberOfMessagesDelayed(_) => N::ApproximateNumberOfMessagesDelayed,
            A::ApproximateNumberOfMessagesNotVisible(_) => N::ApproximateNumberOfMessagesNotVisible,
            A::CreatedTimestamp(_) => N::CreatedTimestamp,
            A::LastModifiedTimestamp(_) => N::LastModifiedTimestamp,
            A::QueueArn(_) => N::QueueArn,
        }
    }
}

/// The settable state of a queue, with SQS's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
// Public (read-only use) so the binding can export the defaults to JS from
// this one place: `Settings::default()`.
pub struct Settings {
    pub delay_seconds: u32,
    pub maximum_message_size: u32,
    pub message_retention_period: u32,
    pub receive_wait_seconds: u32,
    pub visibility_timeout: u32,
    pub redrive_policy: Option<RedrivePolicy>,
    pub redrive_allow_policy: Option<RedriveAllowPolicy>,
    pub policy: Option<QueuePolicy>,
    pub kms_master_key_id: Option<String>,
    pub kms_data_key_reuse_period: Option<u32>,
    pub sqs_managed_sse: bool,
    pub content_based_deduplication: bool,
    pub deduplication_scope: DedupScope,
    pub fifo_throughput_limit: ThroughputLimit,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            delay_seconds: 0,
            maximum_message_size: 1_048_576,
            message_retention_period: 345_600,
            receive_wait_seconds: 0,
            visibility_timeout: 30,
            redrive_policy: None,
            redrive_allow_policy: None,
            policy: None,
            kms_master_key_id: None,
            kms_data_key_reuse_period: None,
            sqs_managed_sse: true,
            content_based_deduplication: false,
            deduplication_scope: DedupScope::Queue,
            fifo_throughput_limit: ThroughputLimit::PerQueue,
        }
    }
}

/// The longest visibility timeout SQS allows: 12 hours, in seconds.
pub const MAX_VISIBILITY_TIMEOUT: i64 = 43_200;

/// SQS's refusal of an attribute value: its name, no reason (a real AWS
/// answer: "Invalid value for the parameter VisibilityTimeout.").
pub fn invalid_attribute_value(name: &str) -> SqsError {
    SqsError::new(
        ErrorCode::InvalidAttributeValue,
        format!("Invalid value for the parameter {}.", echo(name)),
    )
}

/// `value` if it is within the attribute's range (`AttributeName::range`).
fn in_range(name: AttributeName, value: i64) -> SqsResult<u32> {
    match name.range() {
        Some((lo, hi)) if (lo..=hi).contains(&value) => Ok(value as u32),
        _ => Err(invalid_attribute_value(name.as_str())),
    }
}

impl Settings {
    /// Applies one settable attribute after checking its range. Rules that
    /// involve other queues (redrive targets) are the engine's.
    pub(crate) fn apply(&mut self, attribute: &QueueAttribute) -> SqsResult<()> {
        use QueueAttribute as A;
        let name = attribute.name();
        match attribute {
            A::DelaySeconds(v) => self.delay_seconds = in_range(name, *v)?,
            A::MaximumMessageSize(v) => self.maximum_message_size = in_range(name, *v)?,
            A::MessageRetentionPeriod(v) => self.message_retention_period = in_range(name, *v)?,
            A::ReceiveMessageWaitTimeSeconds(v) => self.receive_wait_seconds = in_range(name, *v)?,
            A::VisibilityTimeout(v) => self.visibility_timeout = in_range(name, *v)?,
            A::KmsDataKeyReusePeriodSeconds(v) => {
                self.kms_data_key_reuse_period = Some(in_range(name, *v)?)
            }
            A::RedrivePolicy(p) => {
                if let Some(p) = p {
                    check_attribute_text(name, &p.text)?;
                    let count = p.max_receive_count;
                    let (lo, hi) = RedrivePolicy::MAX_RECEIVE_COUNT_RANGE;
                    if !(lo..=hi).contains(&count) {
                        return Err(p.refused(&format!(
                            "Invalid value for maxReceiveCount: {count}, valid values are from {lo} \
                             to {hi} both inclusive."
                        )));
                    }
                }
                self.redrive_policy = p.clone();
            }
            A::RedriveAllowPolicy(p) => {
                if let Some(p) = p {
                    let arns = p.source_queue_arns.len();
                    let ok = match p.permission {
                        RedrivePermission::ByQueue => (1..=10).contains(&arns),
                        _ => arns == 0,
                    };
                    if !ok {
                        return Err(SqsError::new(
                            ErrorCode::InvalidAttributeValue,
                            "Value for parameter RedriveAllowPolicy is invalid. Reason: sourceQueueArns \
                             must list 1 to 10 queues when redrivePermission is byQueue, and none otherwise.",
                        ));
                    }
                }
                self.redrive_allow_policy = p.clone();
            }
            A::Policy(p) => {
                if let Some(p) = p {
                    p.check_quotas()?;
                }
                self.policy = p.clone();
            }
            A::KmsMasterKeyId(k) => {
                check_attribute_text(name, k)?;
                self.kms_master_key_id = (!k.is_empty()).then(|| k.clone());
                if self.kms_master_key_id.is_some() {
                    self.sqs_managed_sse = false;
                }
            }
            A::SqsManagedSseEnabled(v) => self.sqs_managed_sse = *v,
            A::ContentBasedDeduplication(v) => self.content_based_deduplication = *v,
            A::DeduplicationScope(v) => self.deduplication_scope = *v,
            A::FifoThroughputLimit(v) => self.fifo_throughput_limit = *v,
            A::FifoQueue(_) => {}
            _ => return Err(unknown_attribute(name.as_str())),
        }
        Ok(())
    }
}
