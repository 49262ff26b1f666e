//! Your code's answers to a scenario's Lambda functions
//! (`Simulation::lambda_runtime`), on Queuelab's JSON wire: target
//! `Lambda.<Operation>` (`AttachHandler`, `DetachHandler`,
//! `InvocationResponse`, `InvocationError`), the members as a JSON object,
//! `{}` back or the error envelope with Lambda's code. The host records
//! them in the journal like any request, so a replay gives the same
//! answers at the same moments without running the code that made them.

use queuelab_engine::Principal;
use queuelab_simulation::lambda_runtime::{RuntimeAction, RuntimeCall, RuntimeError, OPERATIONS};
use queuelab_simulation::Simulation;

use crate::members::{Members, Wrong};
use crate::neighbour::{json_error, json_object, json_response, Failure};
use crate::Response;

/// The prefix of a request's target (`Lambda.InvocationResponse`).
pub const PREFIX: &str = "Lambda.";

/// Whether a request is for the functions' runtime.
pub fn is_lambda(target: &str) -> bool {
    target.starts_with(PREFIX)
}

/// One request made by `by` (the functions' own account only).
pub fn dispatch(sim: &mut Simulation, target: &str, body: &str, by: &Principal) -> Response {
    let action = target.strip_prefix(PREFIX).unwrap_or("");
    let result = read(action, body).and_then(|call| sim.lambda_runtime(call, by));
    let request_id = sim.engine_mut().next_request_id();
    let failure = |e: &RuntimeError| Failure {
        code: e.code,
        status: e.status,
        body: json_error("com.amazonaws.lambda", e.code, &e.message),
    };
    json_response(
        request_id,
        result
            .as_ref()
            .map(|()| serde_json::Map::new())
            .map_err(failure),
    )
}

fn read(action: &str, body: &str) -> Result<RuntimeCall, RuntimeError> {
    if !OPERATIONS.contains(&action) {
        return Err(RuntimeError {
            code: "UnknownOperationException",
            status: 400,
            message: format!(
                "Queuelab's functions answer {}; \"{}\" is not one of them",
                OPERATIONS.join(", "),
                queuelab_engine::echo(action)
            ),
        });
    }
    let map = json_object(body)
        .ok_or_else(|| RuntimeError::invalid("The request's body is not a JSON object"))?;
    let m = Members::new(&map);
    call(action, &m, map.get("Response"))
        .map_err(|(name, why)| RuntimeError::invalid(format!("{name} {why}")))
}

fn call(
    action: &str,
    m: &Members,
    response: Option<&serde_json::Value>,
) -> Result<RuntimeCall, Wrong> {
    let invocation = || -> Result<Option<u64>, Wrong> {
        match m.integer("Invocation")? {
            Some(n) if n < 1 => Err(("Invocation".into(), "must be 1 or more")),
            n => Ok(n.map(|n| n as u64)),
        }
    };
    let action = match action {
        "AttachHandler" => RuntimeAction::Attach,
        "DetachHandler" => RuntimeAction::Detach,
        "InvocationResponse" => RuntimeAction::Respond {
            invocation: invocation()?,
            // The value's JSON text, as the function returned it.
            response: response.map(|v| v.to_string()),
            response_bytes: match m.integer("ResponseBytes")? {
                Some(n) if n < 0 => return Err(("ResponseBytes".into(), "must be 0 or more")),
                n => n.map(|n| n as u64),
            },
        },
        _ => RuntimeAction::Fail {
            invocation: invocation()?,
            error_type: m.text("ErrorType")?,
            error_message: m.text("ErrorMessage")?,
        },
    };
    Ok(RuntimeCall {
        function_name: m.text("FunctionName")?,
        action,
    })
}
