//! Large payloads through S3: the two ways a sender puts a body too big
//! for SQS in a bucket and sends a pointer instead, and what a receiver
//! reads back.
//!
//! - The Amazon SQS Extended Client Library's format (Java
//!   `amazon-sqs-java-extended-client-lib`, Python
//!   `amazon-sqs-python-extended-client-lib`): a body whose bytes, with its
//!   attributes' names, types and values, exceed the threshold (262,144 by
//!   default) is put as an object with a UUID key, and the message's body
//!   becomes `["software.amazon.payloadoffloading.PayloadS3Pointer",
//!   {"s3BucketName":"…","s3Key":"…"}]` with the reserved Number
//!   attribute `ExtendedPayloadSize` (the payload's bytes), which counts
//!   toward SQS's 10 attributes: a message with more than 9 of its own is
//!   refused before anything is sent. The receiver's receipt handle
//!   carries the pointer (`-..s3BucketName..-<bucket>-..s3BucketName..-`
//!   `-..s3Key..-<key>-..s3Key..-<handle>`), so its delete finds the object.
//! - The patterns guide's own variant: a body over 200,000 characters is
//!   put as an object and sent as a JSON pointer `{"bucket":"…","key":"…"}`
//!   with a `PayloadLocation` attribute (`s3://<bucket>/<key>`). It counts
//!   characters, not the UTF-8 bytes SQS measures.
//!
//! Pure functions: the producer (`actors/producer.rs`) and the run's
//! receive and delete (`commands.rs`) call them.

use queuelab_engine::{AttributeValue, MessageAttribute, NewMessage};

/// The reserved attribute the extended client adds, and its older name.
pub const RESERVED_ATTRIBUTE: &str = "ExtendedPayloadSize";
pub const LEGACY_RESERVED_ATTRIBUTE: &str = "SQSLargePayloadSize";

/// The pointer's class name, the body's first element.
pub const POINTER_CLASS: &str = "software.amazon.payloadoffloading.PayloadS3Pointer";

/// The markers of the extended receipt handle.
pub const BUCKET_MARKER: &str = "-..s3BucketName..-";
pub const KEY_MARKER: &str = "-..s3Key..-";

/// The extended client's default threshold (the libraries'
/// `DEFAULT_MESSAGE_SIZE_THRESHOLD`, 256 KiB).
pub const DEFAULT_THRESHOLD_BYTES: u64 = 262_144;

/// The largest threshold: SQS's largest message (1 MiB).
pub const MAX_THRESHOLD_BYTES: u64 = 1_048_576;

/// The most attributes of its own a message the extended client offloads
/// may have: SQS's 10, less the reserved one (`MAX_ALLOWED_ATTRIBUTES`).
pub const MAX_OWN_ATTRIBUTES: usize = 9;

/// The guide's attribute, and its threshold in characters.
pub const LOCATION_ATTRIBUTE: &str = "PayloadLocation";
pub const DEFAULT_THRESHOLD_CHARS: u64 = 200_000;

/// Where a payload is: a bucket and a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub bucket: String,
    pub key: String,
}

/// The bytes the extended client counts for a message: its body's UTF-8
/// bytes and each attribute's name, data type and value.
pub fn counted_bytes(message: &NewMessage) -> u64 {
    let attributes: usize = message.attributes.iter().map(MessageAttribute::size).sum();
    (message.body.len() + attributes) as u64
}

/// Why the extended client refuses to offload `message`, in its words
/// (the Java library's `checkMessageAttributes`): too many attributes of
/// its own, or one with a reserved name.
pub fn refusal(message: &NewMessage) -> Option<String> {
    let n = message.attributes.len();
    if n > MAX_OWN_ATTRIBUTES {
        return Some(format!(
            "Number of message attributes [{n}] exceeds the maximum allowed for large-payload \
             messages [{MAX_OWN_ATTRIBUTES}]."
        ));
    }
    let reserved = (message.attributes.iter())
        .find(|a| a.name == RESERVED_ATTRIBUTE || a.name == LEGACY_RESERVED_ATTRIBUTE)?;
    Some(format!(
        "Message attribute name {} is reserved for use by SQS extended client.",
        reserved.name
    ))
}

/// The extended client's message for a payload put at `at`: the pointer
/// body and the reserved attribute with the payload's bytes, after the
/// message's own attributes.
pub fn extended_message(message: &NewMessage, at: &Location) -> NewMessage {
    let mut out = message.clone();
    out.body = format!(
        r#"["{POINTER_CLASS}",{{"s3BucketName":{},"s3Key":{}}}]"#,
        text(&at.bucket),
        text(&at.key)
    );
    out.attributes.push(MessageAttribute {
        name: RESERVED_ATTRIBUTE.into(),
        data_type: "Number".into(),
        value: AttributeValue::String(message.body.len().to_string()),
    });
    out
}

/// The guide's message for a payload put at `at`: a JSON pointer body and
/// the `PayloadLocation` attribute.
pub fn guide_message(message: &NewMessage, at: &Location) -> NewMessage {
    let mut out = message.clone();
    out.body = format!(
        r#"{{"bucket":{},"key":{}}}"#,
        text(&at.bucket),
        text(&at.key)
    );
    out.attributes.push(MessageAttribute {
        name: LOCATION_ATTRIBUTE.into(),
        data_type: "String".into(),
        value: AttributeValue::String(format!("s3://{}/{}", at.bucket, at.key)),
    });
    out
}

/// `s` as a JSON string (quoted and escaped), without building a JSON
/// tree for a two-member pointer.
fn text(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// What a received message points at, read as each receiver reads it:
/// the extended client's pointer when a reserved attribute is there
/// (`true`: extended), the guide's when `PayloadLocation` is. A pointer
/// body that does not parse is no pointer (the message is read as is).
pub fn pointer(body: &str, attributes: &[MessageAttribute]) -> Option<(Location, bool)> {
    let has = |name: &str| attributes.iter().any(|a| a.name == name);
    if has(RESERVED_ATTRIBUTE) || has(LEGACY_RESERVED_ATTRIBUTE) {
        let value: serde_json::Value = serde_json::from_str(body).ok()?;
        let fields = value.as_array().filter(|a| a.len() == 2)?[1].as_object()?;
        let text = |name: &str| fields.get(name)?.as_str().map(str::to_string);
        let at = Location {
            bucket: text("s3BucketName")?,
            key: text("s3Key")?,
        };
        return Some((at, true));
    }
    let location = attributes.iter().find(|a| a.name == LOCATION_ATTRIBUTE)?;
    let AttributeValue::String(url) = &location.value else {
        return None;
    };
    let (bucket, key) = url.strip_prefix("s3://")?.split_once('/')?;
    let at = Location {
        bucket: bucket.into(),
        key: key.into(),
    };
    Some((at, false))
}

/// The receipt handle the extended client hands its caller: the pointer
/// embedded before SQS's own handle.
pub fn extended_handle(handle: &str, at: &Location) -> String {
    format!(
        "{BUCKET_MARKER}{}{BUCKET_MARKER}{KEY_MARKER}{}{KEY_MARKER}{handle}",
        at.bucket, at.key
    )
}

/// An extended receipt handle's pointer and SQS's handle within it (None:
/// an ordinary handle), read as the libraries read it: between each
/// marker's two occurrences, and after the key's second.
pub fn split_handle(handle: &str) -> Option<(Location, &str)> {
    let between = |marker: &str| -> Option<(usize, usize)> {
        let first = handle.find(marker)?;
        let from = first + marker.len();
        let second = from + handle[from..].find(marker)?;
        Some((from, second))
    };
    let (b0, b1) = between(BUCKET_MARKER)?;
    let (k0, k1) = between(KEY_MARKER)?;
    let at = Location {
        bucket: handle[b0..b1].to_string(),
        key: handle[k0..k1].to_string(),
    };
    Some((at, &handle[k1 + KEY_MARKER.len()..]))
}

/// A UUID (version 4's shape) as the libraries' keys are, drawn from the
/// sender's name and the number of its payload, so a run's keys are the
/// same on every replay.
pub fn key(sender: &str, n: u64) -> String {
    use md5::{Digest as _, Md5};
    let mut b: [u8; 16] = Md5::digest(format!("{sender}\n{n}").as_bytes()).into();
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(body: &str, attributes: usize) -> NewMessage {
        NewMessage {
            body: body.into(),
            attributes: (0..attributes)
                .map(|i| MessageAttribute {
                    name: format!("a{i}"),
                    data_type: "String".into(),
                    value: AttributeValue::String("v".into()),
                })
                .collect(),
            ..NewMessage::default()
        }
    }

    fn at() -> Location {
        Location {
            bucket: "payloads".into(),
            key: "k-1".into(),
        }
    }

    #[test]
    fn the_pointer_is_the_payload_offloading_class_and_the_bucket_and_key() {
        let sent = extended_message(&message("héllo", 0), &at());
        assert_eq!(
            sent.body,
            r#"["software.amazon.payloadoffloading.PayloadS3Pointer",{"s3BucketName":"payloads","s3Key":"k-1"}]"#
        );
        let size = &sent.attributes[0];
        assert_eq!(
            (size.name.as_str(), size.data_type.as_str()),
            (RESERVED_ATTRIBUTE, "Number")
        );
        assert_eq!(
            size.value,
            AttributeValue::String("6".into()),
            "UTF-8 bytes"
        );
        assert_eq!(pointer(&sent.body, &sent.attributes), Some((at(), true)));
    }

    #[test]
    fn the_extended_client_counts_attribute_names_types_and_values_with_the_body() {
        // "a0" + "String" + "v" = 9 bytes.
        assert_eq!(counted_bytes(&message("語", 1)), 3 + 9);
    }

    #[test]
    fn a_message_with_ten_attributes_of_its_own_cannot_be_offloaded() {
        assert_eq!(refusal(&message("x", 9)), None);
        assert_eq!(
            refusal(&message("x", 10)).as_deref(),
            Some("Number of message attributes [10] exceeds the maximum allowed for large-payload messages [9].")
        );
    }

    #[test]
    fn the_extended_receipt_handle_embeds_the_pointer_before_sqs_handle() {
        let handle = extended_handle("AQEB+abc==", &at());
        assert_eq!(
            handle,
            "-..s3BucketName..-payloads-..s3BucketName..--..s3Key..-k-1-..s3Key..-AQEB+abc=="
        );
        assert_eq!(split_handle(&handle), Some((at(), "AQEB+abc==")));
        assert_eq!(split_handle("AQEB+abc=="), None);
    }

    #[test]
    fn the_guide_points_with_a_payload_location_attribute() {
        let sent = guide_message(&message("x", 0), &at());
        assert_eq!(sent.body, r#"{"bucket":"payloads","key":"k-1"}"#);
        assert_eq!(pointer(&sent.body, &sent.attributes), Some((at(), false)));
        assert_eq!(pointer(&sent.body, &[]), None, "no attribute, no pointer");
    }

    #[test]
    fn keys_are_uuids_the_same_on_every_run() {
        let k = key("uploader", 1);
        assert_eq!(k.len(), 36);
        assert_eq!(&k[14..15], "4");
        assert_eq!(k, key("uploader", 1));
        assert_ne!(k, key("uploader", 2));
    }
}
