//! The SQS JSON 1.0 protocol over [`queuelab_engine`]: what AWS SDK v3 and
//! boto3 >= 1.34 speak. `X-Amz-Target: AmazonSQS.<Operation>`, a JSON body
//! with PascalCase members, a JSON answer or an error envelope
//! `{"__type": "com.amazonaws.sqs#<Shape>", "message": ...}` with the
//! `x-amzn-query-error: <Code>;Sender` header the SDKs read the code from.
//!
//! Used by the host layer (so by the wasm binding or a native server) and
//! the benchmarks; it decodes, calls the engine through its gate
//! (`Engine::call`), and encodes. The only rules here are the wire's, as
//! SQS reads it: a member's JSON type, the text of a number or boolean
//! attribute, the members of a redrive policy, the size of a request (413
//! past [`MAX_REQUEST_BYTES`]). Every rule about queues and messages
//! (ranges, names, states, FIFO) is the engine's.

mod attributes;
pub mod cloudwatch;
mod form;
mod json;
pub mod lambda;
mod members;
mod neighbour;
pub mod query;
pub mod s3;
pub mod sns;
mod xml;

/// Whether a request is for a neighbour service of the run (SNS, S3,
/// CloudWatch, the functions' runtime) rather than SQS: the host hands it to the simulation.
pub fn is_neighbour(target: &str) -> bool {
    sns::is_sns(target)
        || s3::is_s3(target)
        || cloudwatch::is_cloudwatch(target)
        || lambda::is_lambda(target)
}

use queuelab_engine::{Engine, ErrorCode, PollId, Principal, ReceivedMessage, SqsError, SqsResult};
use serde_json::Value;

pub use json::{operation_name, CONTENT_TYPE, OPERATIONS};

/// An HTTP answer as SQS would send it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    /// The body parsed back to JSON (for tests and tools).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What a dispatched request became.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dispatched {
    Done(Response),
    /// A long poll waiting in virtual time; its response comes from
    /// [`answered_polls`] once a message arrives or its wait ends.
    Waiting(PollId),
}

/// The headers a response may carry, by name.
pub const HEADER_NAMES: [&str; 3] = ["content-type", "x-amzn-query-error", "x-amzn-requestid"];
const CONTENT_TYPE_HEADER: &str = HEADER_NAMES[0];
const QUERY_ERROR_HEADER: &str = HEADER_NAMES[1];
const REQUEST_ID_HEADER: &str = HEADER_NAMES[2];

/// `result` is the answer's JSON text, or the error to answer with.
fn respond(engine: &mut Engine, result: Result<String, SqsError>) -> Response {
    let request_id = engine.next_request_id();
    let mut headers = vec![
        (CONTENT_TYPE_HEADER.to_string(), CONTENT_TYPE.to_string()),
        (REQUEST_ID_HEADER.to_string(), request_id),
    ];
    match result {
        Ok(body) => Response {
            status: 200,
            headers,
            body,
        },
        Err(error) => {
            let code = error.code;
            if code.has_query_code() {
                headers.push((
                    QUERY_ERROR_HEADER.to_string(),
                    format!("{};Sender", code.query_code()),
                ));
            }
            Response {
                status: code.status(),
                headers,
                body: json::error_body(error),
            }
        }
    }
}

/// The most bytes one request may carry (its target and body, as UTF-8):
/// 4 MiB. SQS's largest request is a batch of 1 MiB of messages, which
/// JSON escaping can at most double or so; anything past this is refused
/// before it is read, so no request can exhaust a tab's memory while it is
/// parsed (issue 25: a 1.5 GB queue name trapped after 15 s).
pub const MAX_REQUEST_BYTES: usize = 4 << 20;

/// Whether a request is past `MAX_REQUEST_BYTES`: answered 413 before
/// anything reads it (a host that keeps a record of calls keeps no text).
pub fn too_large(target: &str, body: &str) -> bool {
    target.len().saturating_add(body.len()) > MAX_REQUEST_BYTES
}

/// The answer to a request past [`MAX_REQUEST_BYTES`] (413, as AWS's front
/// end answers a request body it will not take). A host that can tell a
/// request is too large before copying it (the wasm binding, from a
/// string's length) answers with this too.
pub fn oversized(engine: &mut Engine) -> Response {
    respond(engine, Err(oversized_error()))
}

fn oversized_error() -> SqsError {
    SqsError::new(
        ErrorCode::RequestEntityTooLarge,
        format!(
            "The request is larger than {MAX_REQUEST_BYTES} bytes (4 MiB, MAX_REQUEST_BYTES), the \
             most one request may carry; SQS's own largest request, a batch of 1 MiB of \
             messages, fits well within it."
        ),
    )
}

/// Handles one request. `target` is the `X-Amz-Target` header
/// (`AmazonSQS.SendMessage`); `caller` names who calls, for the event log:
/// the call is the queue owner's under that name ([`dispatch_as`] calls
/// as any [`Principal`]).
pub fn dispatch(engine: &mut Engine, target: &str, body: &str, caller: Option<&str>) -> Dispatched {
    dispatch_as(engine, target, body, &Principal::caller(caller))
}

/// Handles one request made by `by`. A request past [`MAX_REQUEST_BYTES`]
/// is refused before anything reads it.
pub fn dispatch_as(engine: &mut Engine, target: &str, body: &str, by: &Principal) -> Dispatched {
    if too_large(target, body) {
        return Dispatched::Done(oversized(engine));
    }
    match json::call(engine, target, body, by) {
        Ok(json::Outcome::Body(body)) => Dispatched::Done(respond(engine, Ok(body))),
        Ok(json::Outcome::Waiting(poll)) => Dispatched::Waiting(poll),
        Err(error) => Dispatched::Done(respond(engine, Err(error))),
    }
}

/// Responses of long polls answered since the last call.
pub fn answered_polls(engine: &mut Engine) -> Vec<(PollId, Response)> {
    engine
        .take_answered_polls()
        .into_iter()
        .map(|(poll, result)| (poll, poll_response(engine, result)))
        .collect()
}

/// The response to a long poll the engine answered (for hosts that take the
/// answers from the engine themselves, like a simulation).
pub fn poll_response(engine: &mut Engine, result: SqsResult<Vec<ReceivedMessage>>) -> Response {
    let body = result.map(|messages| json::receive_body(&messages));
    respond(engine, body)
}
