//! What the SNS and S3 wires share around their calls: a JSON body's
//! members, and the response with its request id, content type and, for
//! an error, the `x-amzn-query-error` header SQS's JSON protocol uses too.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::{Response, CONTENT_TYPE, HEADER_NAMES};

/// A JSON request body's members; an empty body has none. `None`: the
/// body is not a JSON object.
pub(crate) fn json_object(body: &str) -> Option<Map<String, Value>> {
    match body.trim() {
        "" => Some(Map::new()),
        text => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => Some(map),
            _ => None,
        },
    }
}

/// An error answer: its code, status, and its body as the wire writes it.
pub(crate) struct Failure<'a> {
    pub code: &'a str,
    pub status: u16,
    pub body: String,
}

/// The JSON wire's error body, in `namespace` (`com.amazonaws.sns`).
pub(crate) fn json_error(namespace: &str, code: &str, message: &str) -> String {
    serde_json::json!({ "__type": format!("{namespace}#{code}"), "message": message }).to_string()
}

/// A JSON wire's response: the call's answer written with serde, or its
/// failure.
pub(crate) fn json_response<T: Serialize>(
    request_id: String,
    result: Result<T, Failure>,
) -> Response {
    let body = result.map(|answer| {
        (serde_json::to_value(answer))
            .unwrap_or(Value::Null)
            .to_string()
    });
    respond(request_id, CONTENT_TYPE, body)
}

/// The response to a call: 200 with its body, or the failure's.
pub(crate) fn respond(
    request_id: String,
    content_type: &str,
    result: Result<String, Failure>,
) -> Response {
    let mut headers = vec![
        (HEADER_NAMES[0].to_string(), content_type.to_string()),
        (HEADER_NAMES[2].to_string(), request_id),
    ];
    match result {
        Ok(body) => Response {
            status: 200,
            headers,
            body,
        },
        Err(failure) => {
            let kind = if failure.status < 500 {
                "Sender"
            } else {
                "Receiver"
            };
            headers.push((
                HEADER_NAMES[1].to_string(),
                format!("{};{kind}", failure.code),
            ));
            Response {
                status: failure.status,
                headers,
                body: failure.body,
            }
        }
    }
}
