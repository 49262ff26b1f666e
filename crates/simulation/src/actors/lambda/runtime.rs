//! The learner's code as a function's runtime. Once the code cell attaches
//! a handler to a function (`Simulation::lambda_runtime`), every
//! invocation that starts from then on is handed out instead of run by the
//! scenario's described handler: the page reads it (its event JSON, from
//! [`Mapping::pending`]), calls the learner's JavaScript, and gives the
//! function's answer back ([`Mapping::answer`]) at the virtual moment it
//! came, as Lambda's runtime API takes a response or an error for an
//! invocation.
//!
//! Why answers are inputs: a replay, a scrub back and a share link must
//! rebuild the run without running anyone's code (a link's code never
//! runs without a click), so the answer is what the run records, like any
//! request of the learner's (the host's journal), and a replay gives the
//! recorded answer again at its moment. The code is never asked twice.
//!
//! Why the answer waits: the handler may be `async` and call SQS itself,
//! and a call from wasm into JavaScript during a step cannot wait for a
//! Promise. So the invocation waits in its poller, its messages in
//! flight, and ends at the later of the answer's moment and its start plus
//! the scenario's duration for the batch (the function's work still takes
//! its virtual time); with no answer by its timeout it times out, as
//! Lambda stops a function that runs too long. What the answer means for
//! the batch (a partial batch response read, an invalid one failing the
//! whole batch) is the mapping's, as for the described handler.

use std::collections::BTreeSet;

use queuelab_engine::{Millis, ReceivedMessage};
use serde::Serialize;

use super::event::{event_json, Source};
use super::handler::{read_response, Ran, Returned};
use super::{Mapping, Stage, MAX_PAYLOAD_BYTES};
use crate::actors::Command;

/// An answer of the learner's code to one invocation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Answer {
    /// The handler returned this value (its JSON text; `null` for
    /// `undefined`).
    Response(String),
    /// The handler threw (or its Promise rejected): the error's type and
    /// message, as the runtime reports them.
    Error { kind: String, message: String },
    /// The handler returned a value whose JSON text is this many bytes,
    /// too many for the page to carry (past a request's 4 MiB).
    Oversized(u64),
}

/// One invocation waiting for the learner's code.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PendingInvocation {
    /// The function's name.
    pub function: String,
    /// The invocation's number (the log's `invocation`): what the answer names.
    pub invocation: u64,
    pub started_at: Millis,
    /// Its timeout: with no answer by then, it times out.
    pub deadline: Millis,
    /// The event JSON Lambda builds for the batch (`Records`), as text.
    pub event: String,
}

impl Mapping {
    pub(crate) fn function_name(&self) -> &str {
        &self.name
    }

    /// The learner's code answers the invocations that start from now on
    /// (`yours`), or the scenario's described handler does again. An
    /// invocation already running keeps the handler it started with.
    pub(crate) fn attach(&mut self, yours: bool) {
        self.yours = yours;
    }

    /// Whether it handed an invocation out since the last time asked.
    pub(crate) fn take_handed_out(&mut self) -> bool {
        std::mem::take(&mut self.handed_out)
    }

    /// The invocations waiting for an answer, oldest first, onto `out`
    /// until it holds `most`.
    pub(crate) fn pending(&self, out: &mut Vec<PendingInvocation>, most: usize) {
        let source = Source {
            arn: &self.arn,
            region: &self.region,
        };
        for poller in &self.pollers {
            if out.len() >= most {
                return;
            }
            if let Stage::Running {
                invocation,
                started_at,
                deadline,
                ran: None,
                ..
            } = poller.stage
            {
                let messages: Vec<ReceivedMessage> =
                    poller.batch.iter().map(|h| h.message.clone()).collect();
                out.push(PendingInvocation {
                    function: self.name.to_string(),
                    invocation,
                    started_at,
                    deadline,
                    event: event_json(&messages, &source),
                });
            }
        }
    }

    /// The learner's code answered invocation `invocation` at `now`: the
    /// invocation ends now (its commands), or at the end of its duration,
    /// or times out if that is past its timeout. `Err` says, in words, why
    /// no invocation took the answer.
    pub(crate) fn answer(
        &mut self,
        invocation: u64,
        answer: Answer,
        now: Millis,
    ) -> Result<Vec<Command>, String> {
        let report_failures = self.report_failures;
        let p = (self.pollers.iter())
            .position(
                |p| matches!(p.stage, Stage::Running { invocation: i, .. } if i == invocation),
            )
            .ok_or_else(|| self.not_waiting(invocation))?;
        let ids: Vec<String> = (self.pollers[p].batch.iter())
            .map(|h| h.message.message_id.clone())
            .collect();
        let Stage::Running {
            started_at,
            ends_at,
            ran: ran @ None,
            ..
        } = &mut self.pollers[p].stage
        else {
            return Err(format!(
                "invocation {invocation} of {} is not waiting for an answer (it has one \
                 already, or it started before your code was attached)",
                self.name
            ));
        };
        let returned = match answer {
            Answer::Response(text) if text.len() as u64 > MAX_PAYLOAD_BYTES => {
                too_large(text.len() as u64)
            }
            Answer::Response(text) => Returned::Response(text),
            Answer::Oversized(bytes) if bytes > MAX_PAYLOAD_BYTES => too_large(bytes),
            Answer::Oversized(bytes) => Returned::Thrown(format!(
                "the function's response ({bytes} bytes) is larger than the 4 MiB a request \
                 carries into the playground (Lambda takes up to 6 MB)"
            )),
            Answer::Error { kind, message } => Returned::Thrown(format!("{kind}: {message}")),
        };
        // What the code did: the records its answer reports done (every
        // one without ReportBatchItemFailures); none if it threw.
        let performed = match &returned {
            Returned::Response(_) if !report_failures => ids.clone(),
            Returned::Response(text) => match read_response(text, &ids) {
                Ok(failed) => {
                    let failed: BTreeSet<String> = failed.into_iter().collect();
                    ids.into_iter().filter(|id| !failed.contains(id)).collect()
                }
                Err(_) => Vec::new(),
            },
            _ => Vec::new(),
        };
        let end = now.max(*ends_at);
        *ends_at = end;
        *ran = Some(Ran {
            duration_ms: end - *started_at,
            returned,
            performed,
        });
        if end > now {
            return Ok(Vec::new());
        }
        let given = self.finish(p, now);
        Ok(self.give(given, false))
    }

    /// Why no invocation `invocation` of this function takes an answer.
    fn not_waiting(&self, invocation: u64) -> String {
        match invocation == 0 || invocation > self.invocations {
            true => format!(
                "{} has no invocation {invocation} (its invocations so far are 1 to {})",
                self.name, self.invocations
            ),
            false => format!(
                "invocation {invocation} of {} has ended (answered, or timed out); it takes \
                 no answer now",
                self.name
            ),
        }
    }
}

/// Lambda's error for a response past the 6 MB payload quota: the
/// invocation fails as if the function had thrown.
fn too_large(bytes: u64) -> Returned {
    Returned::Thrown(format!(
        "Function.ResponseSizeTooLarge: Response payload size ({bytes} bytes) exceeded maximum \
         allowed payload size ({MAX_PAYLOAD_BYTES} bytes)."
    ))
}
