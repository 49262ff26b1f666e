//! An operator: someone at the console (or a runbook's script) making
//! each listed call at its moment — PurgeQueue, StartMessageMoveTask,
//! CancelMessageMoveTask, AddPermission through SQS's own operations, like any caller,
//! and KMS's DisableKey and EnableKey on the scenario's keys.
//! It logs what it asks for before SQS answers, so the log reads "ops
//! called PurgeQueue on orders" and then SQS's answer (the messages
//! purged, or the call's failure in SQS's words).

use std::collections::BTreeMap;
use std::sync::Arc;

use queuelab_engine::{AddPermission, KeyState, Millis, SqsResult};

use super::{Actor, Command, Outcome, Reads, UrlOf};
use crate::document::{Operation, OperatorCall};
use crate::log::SimEvent;
use crate::scenario::Scenario;

/// One call, with its queues' URLs found at build time.
enum Call {
    Purge {
        queue: Arc<str>,
        url: String,
    },
    StartMove {
        source: Arc<str>,
        destination: Option<Arc<str>>,
        source_url: String,
        destination_url: Option<String>,
        rate: Option<i64>,
    },
    CancelMove {
        source: Arc<str>,
    },
    /// AddPermission on the queue.
    Grant {
        queue: Arc<str>,
        url: String,
        request: AddPermission,
    },
    /// KMS DisableKey or EnableKey of the key with this alias.
    SetKey {
        key: Arc<str>,
        state: KeyState,
    },
}

pub(crate) struct Operator {
    name: Arc<str>,
    /// Its calls in time order (listed order within a moment), and the next.
    calls: Vec<(Millis, Call)>,
    next: usize,
    /// The source of the move task whose answer is awaited.
    starting: Option<Arc<str>>,
    /// The handle of the task it last started from each source.
    handles: BTreeMap<Arc<str>, String>,
}

pub(crate) fn build(
    scenario: &Scenario,
    url_of: UrlOf,
    _config: &queuelab_engine::Config,
) -> SqsResult<Vec<Box<dyn Actor>>> {
    let mut out: Vec<Box<dyn Actor>> = Vec::new();
    for operator in &scenario.operators {
        let what = format!("operator \"{}\"", operator.name);
        let mut calls = Vec::new();
        for OperatorCall { at_ms, call } in &operator.calls {
            calls.push((*at_ms, resolve(call, &what, url_of)?));
        }
        crate::time_order::sort_by_time(&mut calls, |(at, _)| *at);
        out.push(Box::new(Operator {
            name: operator.name.as_str().into(),
            calls,
            next: 0,
            starting: None,
            handles: BTreeMap::new(),
        }));
    }
    Ok(out)
}

fn resolve(call: &Operation, what: &str, url_of: UrlOf) -> SqsResult<Call> {
    Ok(match call {
        Operation::PurgeQueue { queue } => Call::Purge {
            queue: queue.as_str().into(),
            url: url_of(what, queue)?,
        },
        Operation::StartMessageMoveTask {
            source,
            destination,
            max_number_of_messages_per_second,
        } => Call::StartMove {
            source: source.as_str().into(),
            destination: destination.as_deref().map(Arc::from),
            source_url: url_of(what, source)?,
            destination_url: match destination {
                Some(d) => Some(url_of(what, d)?),
                None => None,
            },
            rate: *max_number_of_messages_per_second,
        },
        Operation::CancelMessageMoveTask { source } => Call::CancelMove {
            source: source.as_str().into(),
        },
        Operation::AddPermission {
            queue,
            label,
            accounts,
            actions,
        } => Call::Grant {
            queue: queue.as_str().into(),
            url: url_of(what, queue)?,
            request: AddPermission {
                label: label.clone(),
                account_ids: accounts.clone(),
                actions: actions.clone(),
            },
        },
        Operation::DisableKey { key } => Call::SetKey {
            key: key.as_str().into(),
            state: KeyState::Disabled,
        },
        Operation::EnableKey { key } => Call::SetKey {
            key: key.as_str().into(),
            state: KeyState::Enabled,
        },
    })
}

impl Operator {
    /// What it says it calls, then the call.
    fn commands(&mut self, index: usize) -> [Command; 2] {
        let operator = self.name.clone();
        let said = |action: &'static str, queue: &Arc<str>, to: Option<&Arc<str>>, rate| {
            Command::Log(SimEvent::OperatorCalled {
                operator: operator.clone(),
                action,
                queue: queue.clone(),
                destination: to.cloned(),
                rate,
            })
        };
        match &self.calls[index].1 {
            Call::Purge { queue, url } => [
                said("PurgeQueue", queue, None, None),
                Command::PurgeQueue {
                    queue_url: url.clone(),
                },
            ],
            Call::StartMove {
                source,
                destination,
                source_url,
                destination_url,
                rate,
            } => {
                self.starting = Some(source.clone());
                [
                    said("StartMessageMoveTask", source, destination.as_ref(), *rate),
                    Command::StartMoveTask {
                        source_url: source_url.clone(),
                        destination_url: destination_url.clone(),
                        rate: *rate,
                    },
                ]
            }
            Call::Grant {
                queue,
                url,
                request,
            } => [
                said("AddPermission", queue, None, None),
                Command::AddPermission {
                    queue_url: url.clone(),
                    request: request.clone(),
                },
            ],
            Call::SetKey { key, state } => [
                // The log's `queue` names the key here.
                said(
                    match state {
                        KeyState::Disabled => "DisableKey",
                        _ => "EnableKey",
                    },
                    key,
                    None,
                    None,
                ),
                Command::SetKeyState {
                    key: key.to_string(),
                    state: *state,
                },
            ],
            Call::CancelMove { source } => [
                said("CancelMessageMoveTask", source, None, None),
                Command::CancelMoveTask {
                    // No task started from there: a call without a handle,
                    // which SQS refuses in its own words.
                    handle: self.handles.get(source).cloned().unwrap_or_default(),
                },
            ],
        }
    }
}

impl Actor for Operator {
    fn name(&self) -> &Arc<str> {
        &self.name
    }

    fn wake_at(&self) -> Option<Millis> {
        self.calls.get(self.next).map(|(at, _)| *at)
    }

    fn step(&mut self, now: Millis, _seen: &mut Reads) -> Vec<Command> {
        let mut out = Vec::new();
        while self.calls.get(self.next).is_some_and(|(at, _)| *at <= now) {
            out.extend(self.commands(self.next));
            self.next += 1;
        }
        out
    }

    fn outcome(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::MoveStarted { handle } => {
                if let Some(source) = self.starting.take() {
                    self.handles.insert(source, handle.clone());
                }
            }
            Outcome::Failed => self.starting = None,
            _ => {}
        }
    }
}
