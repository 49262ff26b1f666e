//! SQS's query protocol (what old SDKs and the AWS CLI v1 speak) as two
//! pure translations around the JSON protocol, so no operation is
//! implemented twice and a host records JSON requests only:
//!
//! 1. [`read_request`]: a form (`Action=SendMessage&Version=2012-11-05&QueueUrl=…`,
//!    lists and maps flattened as `Attribute.1.Name`, `SendMessageBatchRequestEntry.2.Id`,
//!    numbers as text) becomes the target and JSON body the JSON
//!    protocol reads (`read.rs`, one table of the fields of each operation).
//!    The host then dispatches that as any JSON request.
//! 2. [`answer`]: the JSON protocol's answer becomes SQS's XML answer
//!    (`<{Op}Response>` in the 2012-11-05 namespace) or `<ErrorResponse>`
//!    with the same status (`write.rs`, one table of element names).
//!
//! A form that cannot be read never reaches the engine: [`error_response`]
//! answers it. The form may be a request's URL query string, its body, or
//! both joined with `&` (as SQS reads a GET or a POST); a key given in
//! both is a key given twice, refused. `Version` and the signature's
//! parameters (`AWSAccessKeyId`, `Signature`, `X-Amz-*`, …) are not read,
//! nor is any other key no operation has.

mod read;
mod write;

use queuelab_engine::{Action, SqsError};

use crate::{Response, MAX_REQUEST_BYTES};

pub use read::MAX_INDEX;
pub use write::answer;

/// The XML namespace of SQS's answers (the query model's `xmlNamespace`).
pub const NAMESPACE: &str = "http://queue.amazonaws.com/doc/2012-11-05/";

/// The `content-type` of every query-protocol answer.
pub const CONTENT_TYPE: &str = "text/xml";

/// A form read into a JSON request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryRequest {
    /// The operation, as the form's `Action` names it (`SendMessage`).
    pub action: String,
    /// The JSON protocol's target: `AmazonSQS.<Action>`.
    pub target: String,
    /// The JSON request text the JSON protocol reads.
    pub body: String,
}

/// Why a form cannot be read: the query wire's error code, its HTTP
/// status and its text, as [`error_response`] writes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError {
    pub code: &'static str,
    pub status: u16,
    pub message: String,
}

impl QueryError {
    /// The form's text cannot be decoded (a `%` not followed by two hex
    /// digits, bytes that are not UTF-8): SQS's common error for a query
    /// string with a syntax error, 404 as its API reference gives it.
    fn malformed(why: String) -> Self {
        QueryError {
            code: "MalformedQueryString",
            status: 404,
            message: format!("The query string contains a syntax error: {why}."),
        }
    }

    /// The keys do not make members (given twice, too deep, a list index
    /// that is not one from 1 to [`MAX_INDEX`]): SQS's common error
    /// for a query string that does not follow AWS's rules.
    fn invalid_parameter(why: String) -> Self {
        QueryError {
            code: "InvalidQueryParameter",
            status: 400,
            message: format!("The query string does not follow AWS's rules: {why}."),
        }
    }

    fn missing_action() -> Self {
        QueryError {
            code: "MissingAction",
            status: 400,
            message: "Missing Action".to_string(),
        }
    }

    fn invalid_action(action: &str) -> Self {
        QueryError {
            code: "InvalidAction",
            status: 400,
            message: invalid_action_text(action),
        }
    }

    fn too_large(length: usize) -> Self {
        QueryError {
            code: "RequestEntityTooLarge",
            status: 413,
            message: format!(
                "The request is {length} bytes, larger than {MAX_REQUEST_BYTES} bytes (4 MiB, \
                 MAX_REQUEST_BYTES), the most one request may carry."
            ),
        }
    }
}

impl From<SqsError> for QueryError {
    fn from(e: SqsError) -> Self {
        QueryError {
            code: e.code.query_code(),
            status: e.code.status(),
            message: e.message,
        }
    }
}

/// The query wire's text for an action SQS does not have.
fn invalid_action_text(action: &str) -> String {
    format!(
        "The action {} is not valid for this endpoint.",
        queuelab_engine::echo(action)
    )
}

/// Reads a form into the JSON request of its `Action`. `path_queue_url` is
/// the queue URL of the path the request was sent to (`/<account>/<name>`,
/// where old clients send a queue's calls): the `QueueUrl` of an operation
/// that has one when the form gives none. A form past
/// [`MAX_REQUEST_BYTES`] is refused before it is read.
pub fn read_request(form: &str, path_queue_url: Option<&str>) -> Result<QueryRequest, QueryError> {
    if form.len() > MAX_REQUEST_BYTES {
        return Err(QueryError::too_large(form.len()));
    }
    let pairs = crate::form::pairs(form).map_err(QueryError::malformed)?;
    let mut tree = crate::form::tree(&pairs).map_err(QueryError::invalid_parameter)?;
    let name = match tree.remove("Action") {
        Some(crate::form::Node::Leaf(name)) if !name.is_empty() => name,
        _ => return Err(QueryError::missing_action()),
    };
    let action = Action::from_name(&name).ok_or_else(|| QueryError::invalid_action(&name))?;
    let members = read::members(action, tree, path_queue_url)?;
    Ok(QueryRequest {
        action: action.name().to_string(),
        target: format!("AmazonSQS.{}", action.name()),
        body: serde_json::Value::Object(members).to_string(),
    })
}

/// The XML answer to a form [`read_request`] refused, with the host's
/// own request id (the engine never saw the request).
pub fn error_response(e: &QueryError, request_id: &str) -> Response {
    write::error(e.status, "Sender", e.code, &e.message, request_id)
}
