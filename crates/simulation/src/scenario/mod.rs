//! The scenario format: queues, producers, consumers and narration, as a
//! typed document (`document/`). The wasm binding (or any host) parses the
//! JSON text into these types with serde; the engine never sees JSON.
//! Here: the ranges of its fields and the words of a refusal (`fields.rs`),
//! `Scenario::validate` (`validate.rs`), and the format's vocabulary in
//! words (`vocabulary.rs`: every field's label, unit and range; `card.rs`:
//! a worker's card line).

mod card;
mod fields;
mod keys;
mod operators;
mod validate;
mod validate_claims;
mod vocabulary;

pub use crate::document::{
    Alarm, Behaviour, Checkpoint, Choice, Claim, Consumer, Count, Encryption, EncryptionName,
    EndCondition, KeySpec, KmsEncryption, Narration, Operation, Operator, OperatorCall, Processing,
    Producer, QueueSpec, Rate, Redrive, RetryBackoff, Scenario, Schedule, ScheduledSend, Trigger,
    TriggerEvent, UnlockCause, Window, MAX_CHECKPOINTS, MAX_CHOICES, MAX_CLAIMS, MAX_KEYS,
    MAX_NARRATION_LINES, MAX_PRODUCERS, MAX_RATE_COUNT, MAX_REPLICAS, MAX_SCENARIO_QUEUES,
    MAX_SCHEDULES, MAX_SPAN_MS, MAX_WORKERS,
};
pub(crate) use card::{quoted_list, span};
pub(crate) use fields::{at_most, field_range, quoted, QUEUE_FIELDS};
pub use fields::{rule_for, FieldError};
pub(crate) use validate::dedup_scope;
pub(crate) use vocabulary::field_words;
pub use vocabulary::{vocabulary, FieldKind, FieldWords, Vocabulary};
