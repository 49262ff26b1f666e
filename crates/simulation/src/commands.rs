//! Where what workers decide meets the engine: every SQS call a worker
//! makes (ReceiveMessage, DeleteMessage, ChangeMessageVisibility) and the
//! side-effect ledger. The loop (`worker.rs`) and the behaviours
//! (`behaviours/`) only decide; this applies, through the engine's public,
//! typed operations under the worker's name, like any other caller.

use std::sync::Arc;

use crate::behaviours::Command;
use crate::worker::Held;
use crate::{SimEvent, Simulation};
use queuelab_engine::{
    AttributeName, EventKind, ReceiveMessage, ReceiveOutcome, SqsError, SqsResult,
};

impl Simulation {
    /// The worker's ReceiveMessage, as its spec configures it.
    pub(crate) fn receive(&mut self, index: usize) -> SqsResult<ReceiveOutcome> {
        let worker = &self.workers[index];
        let request = ReceiveMessage {
            queue_url: worker.url.clone(),
            max_number_of_messages: Some(worker.spec.batch_size),
            wait_time_seconds: Some(worker.spec.wait_time_seconds),
            system_attribute_names: vec!["ApproximateReceiveCount".into()],
            ..ReceiveMessage::default()
        };
        let name = worker.name.clone();
        self.count_work(1);
        self.engine.receive_message(&request, Some(&name))
    }

    /// Applies the engine-facing commands of a worker's behaviours to its
    /// `batch` (whose current message is `batch[current]`). The loop's own
    /// commands (crash, fail, side effect, heartbeat timing) are decided in
    /// `worker.rs`.
    pub(crate) fn apply(
        &mut self,
        index: usize,
        batch: &mut [Held],
        current: usize,
        commands: &[Command],
    ) {
        let (consumer, url) = {
            let w = &self.workers[index];
            (w.name.clone(), w.url.clone())
        };
        for command in commands {
            match command {
                Command::Delete { index: i } => {
                    self.count_work(1);
                    match self
                        .engine
                        .delete_message(&url, &batch[*i].handle, Some(&consumer))
                    {
                        Ok(()) => batch[*i].deleted = true,
                        Err(error) => self.action_failed(&consumer, "DeleteMessage", error),
                    }
                }
                Command::ExtendVisibility { seconds } => {
                    let seconds = match seconds {
                        Some(seconds) => *seconds,
                        None => {
                            self.count_work(1);
                            self.visibility_timeout(&url)
                        }
                    };
                    let handles: Vec<String> = batch[current..]
                        .iter()
                        .filter(|h| !h.deleted)
                        .map(|h| h.handle.clone())
                        .collect();
                    for handle in handles {
                        self.count_work(1);
                        if let Err(error) = self.engine.change_message_visibility(
                            &url,
                            &handle,
                            seconds,
                            Some(&consumer),
                        ) {
                            self.action_failed(&consumer, "ChangeMessageVisibility", error);
                        }
                    }
                }
                Command::ChangeVisibility { index: i, seconds } => {
                    let handle = batch[*i].handle.clone();
                    self.count_work(1);
                    if let Err(error) = self.engine.change_message_visibility(
                        &url,
                        &handle,
                        *seconds,
                        Some(&consumer),
                    ) {
                        self.action_failed(&consumer, "ChangeMessageVisibility", error);
                    }
                }
                Command::Heartbeat { .. }
                | Command::Fail
                | Command::Crash { .. }
                | Command::SideEffectOnce => {}
            }
        }
    }

    fn visibility_timeout(&self, url: &str) -> i64 {
        self.queue_number(url, AttributeName::VisibilityTimeout)
            .map_or(30, |v| v as i64)
    }

    pub(crate) fn action_failed(
        &mut self,
        actor: &Arc<str>,
        action: &'static str,
        error: SqsError,
    ) {
        self.emit(SimEvent::ActionFailed {
            actor: actor.clone(),
            action,
            code: error.code.query_code(),
            error: error.message,
        });
    }

    /// Performs the side effect, or skips it when `once` and an idempotent
    /// handler recorded the message already (a table all of them share).
    pub(crate) fn side_effect(&mut self, index: usize, held: &Held, once: bool) {
        let worker = &self.workers[index];
        let consumer = worker.name.clone();
        if once && self.ledger.seen_once(&held.message_id) {
            self.emit(SimEvent::SkippedAlreadyProcessed {
                consumer,
                message_id: held.message_id.clone(),
            });
            return;
        }
        let effect = worker.spec.side_effect.clone();
        self.workers[index].side_effects += 1;
        // The event about to be logged gets this number or a later one.
        let seq = self.next_event_seq();
        let performed = self
            .ledger
            .perform(&held.message_id, &held.body, &effect, &consumer, seq);
        self.emit(SimEvent::SideEffectPerformed {
            consumer,
            message_id: held.message_id.clone(),
            effect,
            count: performed.count,
        });
    }

    /// A message that left the engine for good (deleted, expired, purged)
    /// and that no worker holds is forgotten by the ledger's bounded parts.
    pub(crate) fn forget_if_gone(&mut self, kind: &EventKind) {
        let id = match kind {
            EventKind::Deleted { message_id, .. }
            | EventKind::Expired { message_id, .. }
            | EventKind::Purged { message_id, .. } => message_id.to_string(),
            _ => return,
        };
        match self.workers.iter().any(|w| w.is_processing(&id)) {
            false => self.gone(&id),
            true => self.ledger.gone_while_held(&id),
        }
    }

    /// Worker `index` is done with `id`: a message that left the engine
    /// while held is forgotten once no other worker holds it.
    pub(crate) fn done_with(&mut self, index: usize, id: &str) {
        let held_elsewhere = self
            .workers
            .iter()
            .enumerate()
            .any(|(i, w)| i != index && w.is_processing(id));
        if self.ledger.is_gone_while_held(id) && !held_elsewhere {
            self.gone(id);
        }
    }

    /// A message is gone for good: what follows it per message forgets it.
    fn gone(&mut self, id: &str) {
        self.ledger.gone(id);
        for o in &mut self.observers {
            o.forget(id);
        }
    }
}
