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
#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Sent<'a> {
    #[serde(
        rename = "MD5OfMessageAttributes",
        skip_serializing_if = "Option::is_none"
    )]
    md5_of_message_attributes: Option<&'a str>,
    #[serde(rename = "MD5OfMessageBody")]
    md5_of_message_body: &'a str,
    #[serde(
        rename = "MD5OfMessageSystemAttributes",
        skip_serializing_if = "Option::is_none"
    )]
    md5_of_message_system_attributes: Option<&'a str>,
    message_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    sequence_number: Option<&'a str>,
}

impl<'a> From<&'a SendResult> for Sent<'a> {
    fn from(result: &'a SendResult) -> Self {
        Sent {
            md5_of_message_attributes: result.md5_of_attributes.as_deref(),
            md5_of_message_body: &result.md5_of_body,
            md5_of_message_system_attributes: result.md5_of_system_attributes.as_deref(),
            message_id: &result.message_id,
            sequence_number: result.sequence_number.as_deref(),
        }
    }
}

/// A ReceiveMessage answer; an empty receive has no `Messages` member.
#[derive(Serialize)]
pub struct Received<'a> {
    // `ReceivedMessage` is the engine's type, which knows no JSON: its
    // shape is written by `messages` below.
    #[serde(
        rename = "Messages",
        skip_serializing_if = "<[_]>::is_empty",
        serialize_with = "messages"
    )]
    messages: &'a [ReceivedMessage],
}

impl<'a> Received<'a> {
    pub fn new(messages: &'a [ReceivedMessage]) -> Self {
        Received { messages }
    }
}

/// The text of a body that always serialises (string keys, no floats).
pub fn text(body: &impl Serialize) -> String {
    serde_json::to_string(body).unwrap_or_default()
}

/// One received message, as SQS's JSON protocol writes it.
#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Message<'a> {
    #[serde(skip_serializing_if = "<[_]>::is_empty", serialize_with = "pairs")]
    attributes: &'a [(&'static str, String)],
    body: &'a str,
    #[serde(rename = "MD5OfBody")]
    md5_of_body: &'a str,
    #[serde(
        rename = "MD5OfMessageAttributes",
        skip_serializing_if = "Option::is_none"
    )]
    md5_of_message_attributes: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty", serialize_with = "by_name")]
    message_attributes: &'a [MessageAttribute],
    message_id: &'a str,
    receipt_handle: &'a str,
}

fn messages<S: Serializer>(list: &&[ReceivedMessage], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(list.iter().map(|m| Message {
        attributes: &m.attributes,
        body: &m.body,
        md5_of_body: &m.md5_of_body,
        md5_of_message_attributes: m.md5_of_message_attributes.as_deref(),
        message_attributes: &m.message_attributes,
        message_id: &m.message_id,
        receipt_handle: &m.receipt_handle,
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
