//! The checks of a scenario's operators: how many, their names, moments
//! the run can reach, queues and keys the scenario has, and an
//! AddPermission's lists within SQS's quotas (7 actions, 50 principals). What SQS itself refuses
//! (a rate above 500, a source that is no dead-letter queue, a second
//! purge within 60 s) is left to the engine, which answers the call at
//! its moment in its own words, as the log shows.

use super::fields::{at_most, quoted, short_name, within, FieldError};
use queuelab_engine::{MAX_ACTIONS, MAX_PRINCIPALS};

use crate::document::{Operation, Scenario, MAX_OPERATORS, MAX_OPERATOR_CALLS};

impl Scenario {
    pub(super) fn validate_operators(&self) -> Result<(), FieldError> {
        let count = self.operators.len() as u64;
        at_most("operators", count, MAX_OPERATORS as u64, "operators")?;
        for (i, o) in self.operators.iter().enumerate() {
            short_name(format!("operators[{i}].name"), &o.name)?;
            let calls = o.calls.len() as u64;
            let path = format!("operators[{i}].calls");
            at_most(&path, calls, MAX_OPERATOR_CALLS as u64, "calls")?;
            for (j, call) in o.calls.iter().enumerate() {
                let path = |field: &str| format!("operators[{i}].calls[{j}].{field}");
                within(path("atMs"), i128::from(call.at_ms))?;
                if let Some((field, key)) = super::keys::key_of(&call.call) {
                    if !self.has_key(key) {
                        return Err(FieldError {
                            path: path(&format!("call.{field}")),
                            rule: "the alias of one of the scenario's keys".into(),
                            got: quoted(key),
                        });
                    }
                }
                if let Operation::AddPermission {
                    accounts, actions, ..
                } = &call.call
                {
                    let (a, n) = (accounts.len() as u64, actions.len() as u64);
                    at_most(
                        &path("call.addPermission.accounts"),
                        a,
                        MAX_PRINCIPALS as u64,
                        "accounts",
                    )?;
                    at_most(
                        &path("call.addPermission.actions"),
                        n,
                        MAX_ACTIONS as u64,
                        "actions",
                    )?;
                }
                for (field, queue) in queues(&call.call) {
                    if !self.queues.iter().any(|q| q.name == queue) {
                        return Err(FieldError {
                            path: path(&format!("call.{field}")),
                            rule: "the name of one of the scenario's queues".into(),
                            got: quoted(queue),
                        });
                    }
                }
            }
        }
        Ok(())
    }
}

/// The queues a call names, with the field that names each.
fn queues(call: &Operation) -> Vec<(&'static str, &str)> {
    match call {
        Operation::PurgeQueue { queue } => vec![("purgeQueue.queue", queue)],
        Operation::StartMessageMoveTask {
            source,
            destination,
            ..
        } => {
            let mut out = vec![("startMessageMoveTask.source", source.as_str())];
            if let Some(d) = destination {
                out.push(("startMessageMoveTask.destination", d));
            }
            out
        }
        Operation::CancelMessageMoveTask { source } => {
            vec![("cancelMessageMoveTask.source", source)]
        }
        Operation::AddPermission { queue, .. } => vec![("addPermission.queue", queue)],
        Operation::DisableKey { .. } | Operation::EnableKey { .. } => Vec::new(),
    }
}
