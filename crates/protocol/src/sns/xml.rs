//! The query protocol's answer: XML in SNS's namespace, written from the
//! answer's JSON shape (structures as elements, lists as `member`s, the
//! `Attributes` map as `entry`/`key`/`value`), and its error document.

use serde_json::Value;

use crate::xml::{self, escape};

const NAMESPACE: &str = "http://sns.amazonaws.com/doc/2010-03-31/";

/// `<{op}Response>` holding `<{op}Result>` (when the answer has members)
/// and the request id.
pub fn answer(op: &str, members: &Value, request_id: &str) -> String {
    let mut result = String::new();
    if let Value::Object(map) = members {
        for (name, value) in map {
            element(&mut result, name, value);
        }
    }
    let result = (!result.is_empty()).then_some(result.as_str());
    xml::response(NAMESPACE, op, result, request_id)
}

/// SNS's error document.
pub fn error(code: &str, message: &str, sender: bool, request_id: &str) -> String {
    let kind = if sender { "Sender" } else { "Receiver" };
    xml::error_response(NAMESPACE, kind, code, message, "", request_id)
}

fn element(out: &mut String, name: &str, value: &Value) {
    out.push_str(&format!("<{name}>"));
    match value {
        // The one map SNS answers with: a topic's or subscription's attributes.
        Value::Object(map) if name == "Attributes" => {
            for (key, value) in map {
                out.push_str("<entry><key>");
                out.push_str(&escape(key));
                out.push_str("</key><value>");
                out.push_str(&escape(&text(value)));
                out.push_str("</value></entry>");
            }
        }
        Value::Object(map) => {
            for (key, value) in map {
                element(out, key, value);
            }
        }
        Value::Array(items) => {
            for item in items {
                element(out, "member", item);
            }
        }
        other => out.push_str(&escape(&text(other))),
    }
    out.push_str(&format!("</{name}>"));
}

fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn lists_maps_and_text_are_written_as_the_query_protocol_writes_them() {
        let members = json!({
            "Attributes": { "DisplayName": "a<b" },
            "Topics": [{ "TopicArn": "arn:1" }]
        });
        assert_eq!(
            super::answer("X", &members, "r"),
            "<XResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><XResult>\
             <Attributes><entry><key>DisplayName</key><value>a&lt;b</value></entry></Attributes>\
             <Topics><member><TopicArn>arn:1</TopicArn></member></Topics></XResult>\
             <ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></XResponse>"
        );
    }

    #[test]
    fn an_empty_answer_has_no_result_element() {
        assert!(!super::answer("DeleteTopic", &json!({}), "r").contains("DeleteTopicResult"));
    }
}
