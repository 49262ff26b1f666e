//! The event Lambda hands a function for a batch of SQS messages, as the
//! Lambda developer guide shows it ("Using Lambda with Amazon SQS",
//! example standard and FIFO queue message events): `Records`, each with
//! `messageId`, `receiptHandle`, `body`, `attributes` (the system
//! attributes, FIFO's among them), `messageAttributes` in Lambda's
//! lower-camel form, `md5OfBody`, `eventSource`, `eventSourceARN` and
//! `awsRegion`. Written by serde from structs, so the members come in the
//! guide's order.

use std::collections::BTreeMap;

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use queuelab_engine::{AttributeValue, ReceivedMessage};
use serde::Serialize;

/// Where the records come from: the queue's ARN and its Region.
pub(crate) struct Source<'a> {
    pub arn: &'a str,
    pub region: &'a str,
}

#[derive(Serialize)]
struct Event<'a> {
    #[serde(rename = "Records")]
    records: Vec<Record<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Record<'a> {
    message_id: &'a str,
    receipt_handle: &'a str,
    body: &'a str,
    attributes: Attributes<'a>,
    message_attributes: BTreeMap<&'a str, MessageAttribute<'a>>,
    md5_of_body: &'a str,
    event_source: &'static str,
    #[serde(rename = "eventSourceARN")]
    event_source_arn: &'a str,
    aws_region: &'a str,
}

/// The system attributes Lambda passes, in the guide's order; FIFO's
/// three only on a FIFO queue's messages.
#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Attributes<'a> {
    approximate_receive_count: &'a str,
    sent_timestamp: &'a str,
    sender_id: &'a str,
    approximate_first_receive_timestamp: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    sequence_number: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message_group_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message_deduplication_id: Option<&'a str>,
}

/// A message attribute as Lambda writes it (lower camel case, where
/// ReceiveMessage's are upper): the value, the two list members SQS
/// reserves, and the data type.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MessageAttribute<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    string_value: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    binary_value: Option<String>,
    string_list_values: [&'a str; 0],
    binary_list_values: [&'a str; 0],
    data_type: &'a str,
}

fn record<'a>(m: &'a ReceivedMessage, source: &Source<'a>) -> Record<'a> {
    let attribute = |name: &str| {
        m.attributes
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    };
    let message_attributes = m
        .message_attributes
        .iter()
        .map(|a| {
            let (string_value, binary_value) = match &a.value {
                AttributeValue::String(s) => (Some(s.as_str()), None),
                AttributeValue::Binary(b) => (None, Some(STANDARD.encode(b))),
            };
            let value = MessageAttribute {
                string_value,
                binary_value,
                string_list_values: [],
                binary_list_values: [],
                data_type: &a.data_type,
            };
            (a.name.as_str(), value)
        })
        .collect();
    Record {
        message_id: &m.message_id,
        receipt_handle: &m.receipt_handle,
        body: &m.body,
        attributes: Attributes {
            approximate_receive_count: attribute("ApproximateReceiveCount").unwrap_or("1"),
            sent_timestamp: attribute("SentTimestamp").unwrap_or(""),
            sender_id: attribute("SenderId").unwrap_or(""),
            approximate_first_receive_timestamp: attribute("ApproximateFirstReceiveTimestamp")
                .unwrap_or(""),
            sequence_number: attribute("SequenceNumber"),
            message_group_id: attribute("MessageGroupId"),
            message_deduplication_id: attribute("MessageDeduplicationId"),
        },
        message_attributes,
        md5_of_body: &m.md5_of_body,
        event_source: "aws:sqs",
        event_source_arn: source.arn,
        aws_region: source.region,
    }
}

/// The event of a batch: `{"Records": [...]}`.
pub(crate) fn event_json(messages: &[ReceivedMessage], source: &Source) -> String {
    let event = Event {
        records: messages.iter().map(|m| record(m, source)).collect(),
    };
    // Serializing borrowed strings and maps cannot fail.
    serde_json::to_string(&event).unwrap_or_default()
}

/// The bytes one record adds to the event (with the comma between
/// records): what the 6 MB invocation payload is counted in.
pub(crate) fn record_bytes(message: &ReceivedMessage, source: &Source) -> u64 {
    let json = serde_json::to_string(&record(message, source)).unwrap_or_default();
    json.len() as u64 + 1
}

/// The bytes of an event with no records: `{"Records":[]}`.
pub(crate) const EMPTY_EVENT_BYTES: u64 = 14;

#[cfg(test)]
mod tests {
    use super::*;
    use queuelab_engine::MessageAttribute as Attribute;

    fn message(fifo: bool) -> ReceivedMessage {
        let mut attributes = vec![
            ("ApproximateFirstReceiveTimestamp", "1545082650649".into()),
            ("ApproximateReceiveCount", "1".into()),
            ("SenderId", "AIDAIENQZJOLO23YVJ4VO".into()),
            ("SentTimestamp", "1545082649183".into()),
        ];
        if fifo {
            attributes.push(("MessageDeduplicationId", "1".into()));
            attributes.push(("MessageGroupId", "1".into()));
            attributes.push(("SequenceNumber", "18849496460467696128".into()));
        }
        ReceivedMessage {
            message_id: "059f36b4-87a3-44ab-83d2-661975830a7d".into(),
            receipt_handle: "AQEBwJnKyrHigUMZj6rYigCgxlaS3SLy0a".into(),
            body: "test".into(),
            md5_of_body: "098f6bcd4621d373cade4e832627b4f6".into(),
            attributes,
            message_attributes: vec![
                Attribute {
                    name: "myAttribute".into(),
                    data_type: "String".into(),
                    value: AttributeValue::String("myValue".into()),
                },
                Attribute {
                    name: "raw".into(),
                    data_type: "Binary".into(),
                    value: AttributeValue::Binary(vec![1, 2, 3]),
                },
            ],
            md5_of_message_attributes: None,
        }
    }

    const SOURCE: Source = Source {
        arn: "arn:aws:sqs:us-east-2:123456789012:my-queue",
        region: "us-east-2",
    };

    #[test]
    fn the_event_has_lambdas_shape_for_a_standard_queue() {
        let json = event_json(&[message(false)], &SOURCE);
        assert_eq!(
            json,
            concat!(
                r#"{"Records":[{"messageId":"059f36b4-87a3-44ab-83d2-661975830a7d","#,
                r#""receiptHandle":"AQEBwJnKyrHigUMZj6rYigCgxlaS3SLy0a","body":"test","#,
                r#""attributes":{"ApproximateReceiveCount":"1","SentTimestamp":"1545082649183","#,
                r#""SenderId":"AIDAIENQZJOLO23YVJ4VO","#,
                r#""ApproximateFirstReceiveTimestamp":"1545082650649"},"#,
                r#""messageAttributes":{"myAttribute":{"stringValue":"myValue","#,
                r#""stringListValues":[],"binaryListValues":[],"dataType":"String"},"#,
                r#""raw":{"binaryValue":"AQID","stringListValues":[],"binaryListValues":[],"#,
                r#""dataType":"Binary"}},"#,
                r#""md5OfBody":"098f6bcd4621d373cade4e832627b4f6","eventSource":"aws:sqs","#,
                r#""eventSourceARN":"arn:aws:sqs:us-east-2:123456789012:my-queue","#,
                r#""awsRegion":"us-east-2"}]}"#
            )
        );
    }

    #[test]
    fn the_event_of_a_fifo_queue_carries_sequence_number_group_and_deduplication_id() {
        let json = event_json(&[message(true)], &SOURCE);
        assert!(
            json.contains(concat!(
                r#""ApproximateFirstReceiveTimestamp":"1545082650649","#,
                r#""SequenceNumber":"18849496460467696128","MessageGroupId":"1","#,
                r#""MessageDeduplicationId":"1"}"#
            )),
            "{json}"
        );
    }

    #[test]
    fn a_records_bytes_add_up_to_the_events() {
        let m = message(false);
        let one = event_json(std::slice::from_ref(&m), &SOURCE).len() as u64;
        let two = event_json(&[m.clone(), m.clone()], &SOURCE).len() as u64;
        // One record and no comma, then a second record and its comma.
        assert_eq!(one, EMPTY_EVENT_BYTES + record_bytes(&m, &SOURCE) - 1);
        assert_eq!(two, one + record_bytes(&m, &SOURCE));
    }
}
