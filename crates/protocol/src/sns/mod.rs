//! SNS over the run's topics (`Simulation::sns`), on two wires:
//!
//! - the query protocol the AWS SDKs speak to SNS: target
//!   [`QUERY_TARGET`], a form body with `Action=Publish&TopicArn=…`, an
//!   XML answer (`xml.rs`) or XML error with its HTTP status;
//! - JSON, for Queuelab's own `SnsClient`: target `AmazonSNS.<Action>`,
//!   the members as a JSON object, a JSON answer or the same error
//!   envelope SQS's JSON protocol answers with.
//!
//! Both read the members into the same typed calls (`form.rs` turns a
//! form into their JSON shape, `read.rs` reads that), so the wires cannot
//! drift apart. No SNS rule is here: the simulation's topics hold them.

mod form;
mod read;
mod xml;

use queuelab_engine::Principal;
use queuelab_simulation::sns::api::{SnsCall, SnsError, OPERATIONS};
use queuelab_simulation::Simulation;
use serde_json::{Map, Value};

use crate::neighbour::{json_error, json_object, respond, Failure};
use crate::{Response, CONTENT_TYPE};

/// The target of a query-protocol request: the action is in its body.
pub const QUERY_TARGET: &str = "AmazonSNS";

/// The prefix of a JSON request's target (`AmazonSNS.Publish`).
pub const JSON_PREFIX: &str = "AmazonSNS.";

/// Whether a request is SNS's.
pub fn is_sns(target: &str) -> bool {
    target == QUERY_TARGET || target.starts_with(JSON_PREFIX)
}

/// One SNS request made by `by` (see the module's doc for the wires).
pub fn dispatch(sim: &mut Simulation, target: &str, body: &str, by: &Principal) -> Response {
    let query = target == QUERY_TARGET;
    let read = match query {
        true => read_form(body),
        false => read_json(target.strip_prefix(JSON_PREFIX).unwrap_or(""), body),
    };
    let result = read.and_then(|(action, call)| Ok((action, sim.sns(call, by)?)));
    let request_id = sim.engine_mut().next_request_id();
    let content_type = if query { "text/xml" } else { CONTENT_TYPE };
    let result = match &result {
        Ok((action, answer)) => {
            let members = serde_json::to_value(answer).unwrap_or(Value::Null);
            Ok(match query {
                true => xml::answer(action, &members, &request_id),
                false => members.to_string(),
            })
        }
        Err(e) => Err(Failure {
            code: e.code,
            status: e.status,
            body: match query {
                true => xml::error(e.code, &e.message, e.sender_fault(), &request_id),
                false => json_error("com.amazonaws.sns", e.code, &e.message),
            },
        }),
    };
    respond(request_id, content_type, result)
}

/// A form's action and call.
fn read_form(body: &str) -> Result<(String, SnsCall), SnsError> {
    let unreadable = |why: String| SnsError::new("MalformedQueryString", 400, why);
    let mut members =
        form::members(&crate::form::pairs(body).map_err(unreadable)?).map_err(unreadable)?;
    members.remove("Version");
    let action = match members.remove("Action") {
        Some(Value::String(action)) => action,
        _ => return Err(SnsError::new("MissingAction", 400, "Missing Action")),
    };
    call(&action, members).map(|c| (action, c))
}

/// A JSON request's action (from its target) and call.
fn read_json(action: &str, body: &str) -> Result<(String, SnsCall), SnsError> {
    let members = json_object(body).ok_or_else(|| {
        SnsError::new(
            "SerializationException",
            400,
            "The request's body is not a JSON object",
        )
    })?;
    call(action, members).map(|c| (action.to_string(), c))
}

/// The typed call of `action` with these members.
fn call(action: &str, members: Map<String, Value>) -> Result<SnsCall, SnsError> {
    if !OPERATIONS.contains(&action) {
        return Err(SnsError::new(
            "InvalidAction",
            400,
            format!("The action {action} is not valid for this endpoint."),
        ));
    }
    read::call(action, &crate::members::Members::new(&members))
}
