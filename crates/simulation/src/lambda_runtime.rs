//! Your code as the runtime of a scenario's Lambda functions: the calls
//! the page makes for the code cell's `lambda.attach(name, handler)`,
//! answered by `Simulation::lambda_runtime`, and the invocations waiting
//! for an answer (`Simulation::pending_invocations`). The protocol's
//! Lambda wire (`Lambda.<Operation>`, JSON) reads them; the host records
//! each in the run's journal like any request, so replays and share links
//! give the recorded answers again without running anyone's code
//! (`actors/lambda/runtime.rs` says why the invocation waits, and for how
//! long).
//!
//! The operations are Queuelab's: the attach and detach stand for
//! deploying code to the function (UpdateFunctionCode), and the two
//! answers for Lambda's runtime API (an invocation's response, or its
//! error).

use queuelab_engine::Principal;

use crate::actors::{Answer, PendingInvocation};
use crate::Simulation;

/// The operations, by name.
pub const OPERATIONS: [&str; 4] = [
    "AttachHandler",
    "DetachHandler",
    "InvocationResponse",
    "InvocationError",
];

/// The most invocations [`Simulation::pending_invocations`] lists at once,
/// and the most event text it lists past the first one (6 MB, one
/// invocation's largest payload): the page asks again for the rest.
pub const MAX_PENDING_LISTED: usize = 10;
pub const MAX_PENDING_BYTES: usize = 6 * 1024 * 1024;

/// One call. A member the call needs is still an `Option`: a missing one
/// is an error naming it, not a decoding failure.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuntimeCall {
    pub function_name: Option<String>,
    pub action: RuntimeAction,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub enum RuntimeAction {
    /// Your code answers the function's invocations from now on.
    #[default]
    Attach,
    /// The scenario's described handler answers them again.
    Detach,
    /// The handler returned: `response` is its value's JSON text (None:
    /// `null`), or `response_bytes` its size when it was too large to send.
    Respond {
        invocation: Option<u64>,
        response: Option<String>,
        response_bytes: Option<u64>,
    },
    /// The handler threw: the error's type and message.
    Fail {
        invocation: Option<u64>,
        error_type: Option<String>,
        error_message: Option<String>,
    },
}

/// A refused call: Lambda's error code, HTTP status and message.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeError {
    pub code: &'static str,
    pub status: u16,
    pub message: String,
}

impl RuntimeError {
    pub fn invalid(message: impl Into<String>) -> Self {
        RuntimeError {
            code: "InvalidParameterValueException",
            status: 400,
            message: message.into(),
        }
    }
}

/// The longest error type and message kept from your code's error (the
/// log's `why` carries them; the runtime API caps what it reads too).
const MAX_ERROR_CHARS: usize = 1_000;

impl Simulation {
    /// One call of your code's runtime at this moment, made as `by`: only
    /// the functions' own account deploys their code and answers for it.
    pub fn lambda_runtime(
        &mut self,
        call: RuntimeCall,
        by: &Principal,
    ) -> Result<(), RuntimeError> {
        let own = &self.engine.config().account_id;
        if !self.is_own_account(by) {
            return Err(RuntimeError {
                code: "AccessDeniedException",
                status: 403,
                message: format!(
                    "Queuelab's functions take their code and answers from their own account, \
                     {own}, only"
                ),
            });
        }
        let name = call
            .function_name
            .as_deref()
            .filter(|n| !n.is_empty())
            .ok_or_else(|| RuntimeError::invalid("FunctionName is required"))?;
        let index = self.function_index(name)?;
        let now = self.now();
        let (invocation, answer) = match call.action {
            RuntimeAction::Attach | RuntimeAction::Detach => {
                let yours = call.action == RuntimeAction::Attach;
                if let Some(mapping) = self.actors[index].mapping() {
                    mapping.attach(yours);
                }
                return Ok(());
            }
            RuntimeAction::Respond {
                invocation,
                response,
                response_bytes,
            } => {
                let answer = match (response, response_bytes) {
                    (Some(text), _) => Answer::Response(text),
                    (None, Some(bytes)) => Answer::Oversized(bytes),
                    (None, None) => Answer::Response("null".into()),
                };
                (invocation, answer)
            }
            RuntimeAction::Fail {
                invocation,
                error_type,
                error_message,
            } => {
                let cut = |t: Option<String>, or: &str| {
                    let t = t.unwrap_or_else(|| or.to_owned());
                    t.chars().take(MAX_ERROR_CHARS).collect::<String>()
                };
                let answer = Answer::Error {
                    kind: cut(error_type, "Error"),
                    message: cut(error_message, ""),
                };
                (invocation, answer)
            }
        };
        let invocation =
            invocation.ok_or_else(|| RuntimeError::invalid("Invocation is required"))?;
        let Some(mapping) = self.actors[index].mapping() else {
            return Err(not_found(name, &[]));
        };
        let commands = mapping
            .answer(invocation, answer, now)
            .map_err(|message| RuntimeError {
                code: "ResourceConflictException",
                status: 409,
                message,
            })?;
        self.execute(index, commands, now);
        Ok(())
    }

    /// The invocations waiting for your code's answer, oldest first: at
    /// most `MAX_PENDING_LISTED`, and past the first no more than
    /// `MAX_PENDING_BYTES` of event text.
    pub fn pending_invocations(&self) -> Vec<PendingInvocation> {
        let mut all = Vec::new();
        for mapping in self.actors.iter().filter_map(|a| a.as_mapping()) {
            let mut theirs = Vec::new();
            mapping.pending(&mut theirs, MAX_PENDING_LISTED);
            all.extend(theirs);
        }
        // Stable: at one moment, the functions in the scenario's order.
        all.sort_by_key(|p| p.started_at);
        let mut bytes = 0usize;
        let mut out = Vec::new();
        for p in all.into_iter().take(MAX_PENDING_LISTED) {
            bytes = bytes.saturating_add(p.event.len());
            if !out.is_empty() && bytes > MAX_PENDING_BYTES {
                break;
            }
            out.push(p);
        }
        out
    }

    /// Whether an invocation was handed out to your code since the last
    /// time asked (the flags are taken, whether or not `advance` pauses).
    pub(crate) fn handed_out(&mut self) -> bool {
        let mut any = false;
        for actor in &mut self.actors {
            if let Some(m) = actor.mapping() {
                any |= m.take_handed_out();
            }
        }
        any
    }

    /// The actor index of the function `name`, or Lambda's not-found error
    /// naming the functions there are.
    fn function_index(&mut self, name: &str) -> Result<usize, RuntimeError> {
        let mut names = Vec::new();
        for (i, actor) in self.actors.iter().enumerate() {
            if let Some(m) = actor.as_mapping() {
                if m.function_name() == name {
                    return Ok(i);
                }
                names.push(m.function_name().to_owned());
            }
        }
        Err(not_found(name, &names))
    }
}

fn not_found(name: &str, names: &[String]) -> RuntimeError {
    let there = match names {
        [] => "this scenario has no Lambda functions (its `lambdas` section is empty)".to_owned(),
        _ => format!("this scenario's functions: {}", names.join(", ")),
    };
    RuntimeError {
        code: "ResourceNotFoundException",
        status: 404,
        message: format!(
            "Function not found: \"{}\" ({there})",
            queuelab_engine::echo(name)
        ),
    }
}
