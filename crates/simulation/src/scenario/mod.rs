//! The scenario format: queues, producers, consumers and narration, as a
//! typed document (`document/`). The wasm binding (or any host) parses the
//! JSON text into these types with serde; the engine never sees JSON.
//! Here: the ranges of its fields and the words of a refusal (`fields.rs`),
//! `Scenario::validate` (`validate.rs`), and the format's vocabulary in
//! words (`vocabulary.rs`: every field's label, unit and range; `card.rs`:
//! a worker's card line).

pub(crate) mod alarms;
mod buckets;
mod card;
mod fields;
mod keys;
mod lambdas;
mod operators;
mod request_reply;
mod topics;
mod validate;
mod validate_claims;
mod vocabulary;

#[cfg(feature = "contract")]
pub use crate::document::PublishAttribute;
pub use crate::document::{
    Alarm, ComparisonOperator, Metrics, Statistic, TreatMissingData, MAX_ALARMS,
};
pub use crate::document::{BatchResponse, Lambda, LambdaHandler};
pub use crate::document::{
    Behaviour, Bucket, BucketNotification, ObjectOperation, MAX_BUCKETS, MAX_BUCKET_NOTIFICATIONS,
    MAX_KEY_BYTES, MAX_OBJECT_BYTES, MAX_OBJECT_OPERATIONS,
};
pub use crate::document::{
    Checkpoint, Choice, Claim, Consumer, Count, Encryption, EncryptionName, EndCondition,
    FilterPolicyScope, KeySpec, KmsEncryption, Narration, Operation, Operator, OperatorCall,
    Processing, Producer, Publish, PublishMetrics, QueueSpec, Rate, Redrive, RetryBackoff,
    Scenario, Schedule, ScheduledSend, Subscription, Topic, Trigger, TriggerEvent, UnlockCause,
    Window, MAX_CHECKPOINTS, MAX_CHOICES, MAX_CLAIMS, MAX_KEYS, MAX_NARRATION_LINES, MAX_PRODUCERS,
    MAX_PUBLISHES, MAX_RATE_COUNT, MAX_REPLICAS, MAX_SCENARIO_QUEUES, MAX_SCHEDULES, MAX_SPAN_MS,
    MAX_SUBSCRIPTIONS, MAX_TOPICS, MAX_WORKERS,
};
pub use crate::document::{DeleteObject, Offload, OffloadStyle, ReadPayloads};
pub use crate::document::{
    ReplyMode, Requester, Responder, MAX_REPLY_WAIT_SECONDS, MAX_REQUESTERS, MAX_RESPONDERS,
};
pub use alarms::RESOLUTIONS;
pub(crate) use card::{quoted_list, span};
pub(crate) use fields::{at_most, field_range, quoted, QUEUE_FIELDS};
pub use fields::{rule_for, FieldError};
pub(crate) use lambdas::{lambda_range, REPORT_BATCH_ITEM_FAILURES};
pub use request_reply::{MAX_PREFIX_CHARS, MAX_REQUESTS};
pub use topics::{MAX_MESSAGE_ATTRIBUTES, MAX_MESSAGE_BYTES, MAX_SUBJECT_CHARS};
pub(crate) use validate::{dedup_scope, throughput_limit};
pub(crate) use vocabulary::field_words;
pub use vocabulary::{vocabulary, FieldKind, FieldWords, Vocabulary};
