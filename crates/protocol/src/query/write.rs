//! The JSON protocol's answer written as the query protocol's XML, by one
//! table of element names: the query model names a flattened list's
//! items and a flattened map's entries, which the JSON members do not say
//! (`QueueUrls: [..]` is `<QueueUrl>` repeated, `Attributes: {..}` is
//! `<Attribute><Name>..</Name><Value>..</Value></Attribute>` repeated).
//! Members come out in the JSON answer's (name) order; XML readers go by
//! element name, not order.

use queuelab_engine::SqsError;
use serde_json::{Map, Value};

use super::{invalid_action_text, CONTENT_TYPE, NAMESPACE};
use crate::{xml, Response, CONTENT_TYPE_HEADER, QUERY_ERROR_HEADER, REQUEST_ID_HEADER};

/// The operations whose answer has no members: no `<{Op}Result>` element.
const NO_OUTPUT: [&str; 9] = [
    "AddPermission",
    "ChangeMessageVisibility",
    "DeleteMessage",
    "DeleteQueue",
    "PurgeQueue",
    "RemovePermission",
    "SetQueueAttributes",
    "TagQueue",
    "UntagQueue",
];

/// A flattened list's JSON member and the element of each item. A batch's
/// `Successful` items are `<{Op}ResultEntry>` (`SendMessageBatchResultEntry`).
const LIST_ITEMS: [(&str, &str); 7] = [
    ("QueueUrls", "QueueUrl"),
    // ListDeadLetterSourceQueues: the JSON API spells it in lower case.
    ("queueUrls", "QueueUrl"),
    ("Messages", "Message"),
    ("Failed", "BatchResultErrorEntry"),
    ("Results", "ListMessageMoveTasksResultEntry"),
    ("StringListValues", "StringListValue"),
    ("BinaryListValues", "BinaryListValue"),
];

/// A flattened map's JSON member, the element of each entry and the
/// element of its key (its value is `<Value>`).
const MAP_ENTRIES: [(&str, &str, &str); 3] = [
    ("Attributes", "Attribute", "Name"),
    ("MessageAttributes", "MessageAttribute", "Name"),
    ("Tags", "Tag", "Key"),
];

/// The query protocol's answer to `action` from the JSON protocol's
/// answer `json` (a success or an error, with its `x-amzn-RequestId`):
/// the same status and request id, the body as SQS's XML.
pub fn answer(action: &str, json: &Response) -> Response {
    let request_id = json.header(REQUEST_ID_HEADER).unwrap_or("");
    let body = json.json();
    if json.status != 200 {
        return answer_error(action, json, &body, request_id);
    }
    let result = (!NO_OUTPUT.contains(&action)).then(|| {
        let mut out = String::new();
        if let Value::Object(map) = &body {
            members(&mut out, action, map);
        }
        out
    });
    let text = xml::response(NAMESPACE, action, result.as_deref(), request_id);
    response(200, text, request_id)
}

/// An error answer: the code the SDKs report (`x-amzn-query-error`'s
/// `Code;Sender`, else the shape of `__type`), and the query wire's own
/// words where they differ from the JSON wire's.
fn answer_error(action: &str, json: &Response, body: &Value, request_id: &str) -> Response {
    let shape = (body["__type"].as_str().unwrap_or(""))
        .rsplit('#')
        .next()
        .unwrap_or("");
    let message = body["message"].as_str().unwrap_or("");
    let (code, kind) = match json.header(QUERY_ERROR_HEADER) {
        Some(header) => header.split_once(';').unwrap_or((header, "Sender")),
        // A request SQS never saw has no SQS code: an unknown operation is
        // the query wire's InvalidAction; any other is named by its shape
        // (`RequestEntityTooLargeException` as `RequestEntityTooLarge`).
        None if shape == "UnknownOperationException" => {
            return error(
                400,
                "Sender",
                "InvalidAction",
                &invalid_action_text(action),
                request_id,
            )
        }
        None => (shape.strip_suffix("Exception").unwrap_or(shape), "Sender"),
    };
    let wsdl;
    let message = if message == SqsError::no_queue().message {
        // Real SQS's words for a missing queue on this wire.
        wsdl = "The specified queue does not exist for this wsdl version.";
        wsdl
    } else {
        message
    };
    error(json.status, kind, code, message, request_id)
}

/// SQS's `<ErrorResponse>` (its `<Error>` ends with an empty `<Detail/>`).
pub(super) fn error(
    status: u16,
    kind: &str,
    code: &str,
    message: &str,
    request_id: &str,
) -> Response {
    let text = xml::error_response(NAMESPACE, kind, code, message, "<Detail/>", request_id);
    response(status, text, request_id)
}

fn response(status: u16, body: String, request_id: &str) -> Response {
    Response {
        status,
        headers: vec![
            (CONTENT_TYPE_HEADER.to_string(), CONTENT_TYPE.to_string()),
            (REQUEST_ID_HEADER.to_string(), request_id.to_string()),
        ],
        body,
    }
}

/// A structure's members, each as its element (lists and maps flattened).
fn members(out: &mut String, op: &str, map: &Map<String, Value>) {
    for (name, value) in map {
        match value {
            Value::Array(items) => {
                let item = list_item(op, name);
                for value in items {
                    element(out, op, &item, value);
                }
            }
            Value::Object(entries) => match MAP_ENTRIES.iter().find(|(json, ..)| json == name) {
                Some((_, entry, key)) => {
                    for (k, value) in entries {
                        out.push_str(&format!("<{entry}><{key}>{}</{key}>", xml::escape(k)));
                        element(out, op, "Value", value);
                        out.push_str(&format!("</{entry}>"));
                    }
                }
                None => element(out, op, name, value),
            },
            _ => element(out, op, name, value),
        }
    }
}

/// The element of a list's items: the table's, a batch's result entry,
/// or the member's own name for a list the table does not know.
fn list_item(op: &str, name: &str) -> String {
    match LIST_ITEMS.iter().find(|(json, _)| *json == name) {
        Some((_, item)) => item.to_string(),
        None if name == "Successful" => format!("{op}ResultEntry"),
        None => name.to_string(),
    }
}

/// `<name>` holding a structure's members or a value's text.
fn element(out: &mut String, op: &str, name: &str, value: &Value) {
    out.push_str(&format!("<{name}>"));
    match value {
        Value::Object(map) => members(out, op, map),
        Value::String(text) => out.push_str(&xml::escape(text)),
        Value::Null => {}
        // Numbers and booleans as their JSON text (`true`, `42`); a list
        // inside a list does not occur in SQS's answers.
        other => out.push_str(&xml::escape(&other.to_string())),
    }
    out.push_str(&format!("</{name}>"));
}
