//! Identifiers SQS hands out: message ids (UUIDs), receipt handles, move-task
//! handles and request ids.
//!
//! Receipt handles are opaque to callers but self-describing to the engine:
//! they carry the queue, the message and the receive they came from, sealed
//! with a tag keyed by a per-engine secret. So the engine keeps no table of
//! every handle it ever issued, and can still tell a malformed handle from a
//! stale one from the current one.

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use std::fmt;

use crate::rng::mix64;

/// A message id: 16 random bytes shown as a version-4 UUID.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[cfg_attr(feature = "contract", ts(type = "string"))]
pub struct MessageId(pub [u8; 16]);

impl MessageId {
    pub fn from_random(bytes: [u8; 16]) -> Self {
        MessageId(*uuid::Builder::from_random_bytes(bytes).as_uuid().as_bytes())
    }
}

impl fmt::Display for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        uuid::Uuid::from_bytes(self.0).hyphenated().fmt(f)
    }
}

impl fmt::Debug for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl serde::Serialize for MessageId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// What a receipt handle names: one receive of one message in one queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Receipt {
    pub queue: u32,
    pub message: u64,
    pub serial: u32,
}

const RECEIPT_LEN: usize = 4 + 8 + 4 + 8;
const RECEIPT_SALT: u64 = 0x5251_4C41_425F_5248;

impl Receipt {
    fn tag(&self, secret: u64) -> u64 {
        let fields = (u64::from(self.queue) << 32) | u64::from(self.serial);
        mix64(secret ^ RECEIPT_SALT ^ mix64(fields ^ mix64(self.message)))
    }

    pub(crate) fn encode(&self, secret: u64) -> String {
        let tag = self.tag(secret);
        let mut fields = [0u8; 16];
        fields[..4].copy_from_slice(&self.queue.to_be_bytes());
        fields[4..12].copy_from_slice(&self.message.to_be_bytes());
        fields[12..].copy_from_slice(&self.serial.to_be_bytes());
        let mut raw = [0u8; RECEIPT_LEN];
        raw[..16].copy_from_slice(&mask(fields, secret, tag));
        raw[16..].copy_from_slice(&tag.to_be_bytes());
        // Real handles are long base64 strings; the fixed prefix makes ours
        // recognisable in logs without carrying meaning.
        format!("AQEB{}", STANDARD.encode(raw))
    }

    /// `None` when the text is not a handle this engine issued.
    pub(crate) fn decode(text: &str, secret: u64) -> Option<Receipt> {
        let raw = STANDARD.decode(text.strip_prefix("AQEB")?).ok()?;
        let raw: [u8; RECEIPT_LEN] = raw.try_into().ok()?;
        let tag = u64::from_be_bytes(raw[16..].try_into().ok()?);
        let fields = mask(raw[..16].try_into().ok()?, secret, tag);
        let receipt = Receipt {
            queue: u32::from_be_bytes(fields[..4].try_into().ok()?),
            message: u64::from_be_bytes(fields[4..12].try_into().ok()?),
            serial: u32::from_be_bytes(fields[12..].try_into().ok()?),
        };
        (receipt.tag(secret) == tag).then_some(receipt)
    }
}

/// XORs the handle's fields with a keystream from the secret and the tag, so
/// handles look opaque (as SQS's do) instead of exposing counters.
fn mask(mut fields: [u8; 16], secret: u64, tag: u64) -> [u8; 16] {
    let a = mix64(secret ^ tag).to_be_bytes();
    let b = mix64(secret.rotate_left(32) ^ tag).to_be_bytes();
    for (byte, key) in fields.iter_mut().zip(a.iter().chain(b.iter())) {
        *byte ^= key;
    }
    fields
}

/// SQS's FIFO sequence numbers are large 20-digit decimals; ours climb from
/// a fixed base in gaps (`Queue::next_sequence`), so they look the part,
/// strictly increase, and are not consecutive.
pub(crate) fn sequence_number(counter: u64) -> String {
    const BASE: u128 = 18_849_496_460_467_696_128;
    (BASE + u128::from(counter)).to_string()
}

/// A move task's id: a UUID derived from its number and the engine's
/// secret (not drawn from the PRNG, so starting a task shifts no other id).
pub(crate) fn task_id(task: u64, secret: u64) -> MessageId {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&mix64(secret ^ task).to_be_bytes());
    bytes[8..].copy_from_slice(&mix64(secret.rotate_left(17) ^ task).to_be_bytes());
    MessageId::from_random(bytes)
}

const TASK_HANDLE_START: &str = "{\"taskId\":\"";
const TASK_HANDLE_MIDDLE: &str = "\",\"sourceArn\":\"";
const TASK_HANDLE_END: &str = "\"}";

/// A move task's handle as SQS makes one: base64 of
/// `{"taskId":"<uuid>","sourceArn":"<source queue ARN>"}`.
pub(crate) fn encode_task_handle(task_id: MessageId, source_arn: &str) -> String {
    STANDARD.encode(format!(
        "{TASK_HANDLE_START}{task_id}{TASK_HANDLE_MIDDLE}{source_arn}{TASK_HANDLE_END}"
    ))
}

/// The task id and source ARN a handle names, if it is one. Read by its
/// exact shape, the one SQS writes: the engine parses no JSON.
pub(crate) fn decode_task_handle(text: &str) -> Option<(String, String)> {
    let raw = String::from_utf8(STANDARD.decode(text).ok()?).ok()?;
    let inner = raw
        .strip_prefix(TASK_HANDLE_START)?
        .strip_suffix(TASK_HANDLE_END)?;
    let (task, source) = inner.split_once(TASK_HANDLE_MIDDLE)?;
    let plain = |s: &str| !s.is_empty() && !s.contains(['"', '\\']);
    (plain(task) && plain(source)).then(|| (task.to_string(), source.to_string()))
}

/// A request id for the `x-amzn-RequestId` header. Derived from a counter
/// rather than drawn from the PRNG, so read-only calls never shift the ids
/// that later sends get.
pub(crate) fn request_id(counter: u64, secret: u64) -> String {
    let hi = mix64(secret ^ counter);
    let lo = mix64(hi ^ counter.rotate_left(17));
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&hi.to_be_bytes());
    bytes[8..].copy_from_slice(&lo.to_be_bytes());
    MessageId::from_random(bytes).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn receipt_round_trips_and_rejects_tampering() {
        let r = Receipt {
            queue: 3,
            message: 99,
            serial: 2,
        };
        let text = r.encode(42);
        assert_eq!(Receipt::decode(&text, 42), Some(r));
        assert_eq!(Receipt::decode(&text, 43), None);
        assert_eq!(Receipt::decode("x", 42), None);
        let mut forged = text.clone().into_bytes();
        forged[10] ^= 1;
        assert_eq!(
            Receipt::decode(std::str::from_utf8(&forged).unwrap(), 42),
            None
        );
    }

    #[test]
    fn message_ids_are_version_4_uuids() {
        let id = MessageId::from_random([0xAB; 16]).to_string();
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "4");
    }

    #[test]
    fn task_handles_round_trip() {
        let id = task_id(7, 1);
        let arn = "arn:aws:sqs:us-east-1:000000000000:dlq";
        let h = encode_task_handle(id, arn);
        assert_eq!(
            decode_task_handle(&h),
            Some((id.to_string(), arn.to_string()))
        );
        assert_ne!(task_id(7, 1), task_id(8, 1));
        assert_eq!(decode_task_handle("garbage"), None);
    }
}
