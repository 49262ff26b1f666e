//! The answers of the operations every consumer loop calls, SendMessage
//! and ReceiveMessage, written straight to JSON text from the engine's
//! results. Building them as `serde_json::Value` first put every member in
//! a B-tree map only to walk it and free it again: a quarter of a
//! send → receive → delete cycle from JavaScript.
//!
//! Members come out in name order, as a `Value` map writes them, so the
//! text is the same as before (a test holds it).

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use queuelab_engine::{AttributeValue, MessageAttribute, ReceivedMessage, SendResult};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// A SendMessage answer, or one successful SendMessageBatch entry's members.
/// Wire structs: the fields are named as SQS spells its members.
#[derive(Serialize)]
#[allow(non_snake_case)]
pub struct Sent<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    MD5OfMessageAttributes: Option<&'a str>,
    MD5OfMessageBody: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    MD5OfMessageSystemAttributes: Option<&'a str>,
    MessageId: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    SequenceNumber: Option<&'a str>,
}

impl<'a> From<&'a SendResult> for Sent<'a> {
    fn from(result: &'a SendResult) -> Self {
        Sent {
            MD5OfMessageAttributes: result.md5_of_attributes.as_deref(),
            MD5OfMessageBody: &result.md5_of_body,
            MD5OfMessageSystemAttributes: result.md5_of_system_attributes.as_deref(),
            MessageId: &result.message_id,
            SequenceNumber: result.sequence_number.as_deref(),
        }
    }
}

/// A ReceiveMessage answer; an empty receive has no `Messages` member.
#[derive(Serialize)]
#[allow(non_snake_case)]
pub struct Received<'a> {
    // `ReceivedMessage` is the engine's type, which knows no JSON: its
    // shape is written by `messages` below.
    #[serde(skip_serializing_if = "<[_]>::is_empty", serialize_with = "messages")]
    Messages: &'a [ReceivedMessage],
}

impl<'a> Received<'a> {
    pub fn new(messages: &'a [ReceivedMessage]) -> Self {
        Received { Messages: messages }
    }
}

/// The text of a body that always serialises (string keys, no floats).
pub fn text(body: &impl Serialize) -> String {
    serde_json::to_string(body).unwrap_or_default()
}

/// One received message, as SQS's JSON protocol writes it.
#[derive(Serialize)]
#[allow(non_snake_case)]
struct Message<'a> {
    #[serde(skip_serializing_if = "<[_]>::is_empty", serialize_with = "pairs")]
    Attributes: &'a [(&'static str, String)],
    Body: &'a str,
    MD5OfBody: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    MD5OfMessageAttributes: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty", serialize_with = "by_name")]
    MessageAttributes: &'a [MessageAttribute],
    MessageId: &'a str,
    ReceiptHandle: &'a str,
}

fn messages<S: Serializer>(list: &&[ReceivedMessage], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(list.iter().map(|m| Message {
        Attributes: &m.attributes,
        Body: &m.body,
        MD5OfBody: &m.md5_of_body,
        MD5OfMessageAttributes: m.md5_of_message_attributes.as_deref(),
        MessageAttributes: &m.message_attributes,
        MessageId: &m.message_id,
        ReceiptHandle: &m.receipt_handle,
    }))
}

/// System attributes: the engine gives them in name order already.
fn pairs<S: Serializer>(
    pairs: &&[(&'static str, String)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(pairs.len()))?;
    for (name, value) in pairs.iter() {
        map.serialize_entry(name, value)?;
    }
    map.end()
}

/// Message attributes keep their sender's order in the engine (at most
/// ten); the answer lists them by name.
fn by_name<S: Serializer>(
    attributes: &&[MessageAttribute],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut sorted: Vec<&MessageAttribute> = attributes.iter().collect();
    sorted.sort_unstable_by(|a, b| a.name.cmp(&b.name));
    let mut map = serializer.serialize_map(Some(sorted.len()))?;
    for attribute in sorted {
        map.serialize_entry(&attribute.name, &Attribute(attribute))?;
    }
    map.end()
}

/// `{ "BinaryValue" | "StringValue", "DataType" }`, in that (name) order.
struct Attribute<'a>(&'a MessageAttribute);

impl Serialize for Attribute<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        match &self.0.value {
            AttributeValue::Binary(bytes) => {
                map.serialize_entry("BinaryValue", &STANDARD.encode(bytes))?;
                map.serialize_entry("DataType", &self.0.data_type)?;
            }
            AttributeValue::String(text) => {
                map.serialize_entry("DataType", &self.0.data_type)?;
                map.serialize_entry("StringValue", text)?;
            }
        }
        map.end()
    }
}
