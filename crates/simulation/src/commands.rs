//! Where what workers decide meets the engine: every SQS call a worker
//! makes (ReceiveMessage, DeleteMessage, ChangeMessageVisibility) and the
//! side-effect ledger. The loop (`worker.rs`) and the behaviours
//! (`behaviours/`) only decide; this applies, through the engine's public,
//! typed operations under the worker's name, like any other caller.

use std::sync::Arc;

use crate::behaviours::Command;
use crate::worker::Held;
use crate::{SideEffect, SimEvent, Simulation};
use queuelab_engine::{AttributeName, ReceiveMessage, ReceiveOutcome, SqsError, SqsResult};

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
        if once && self.processed.contains(&held.message_id) {
            self.emit(SimEvent::SkippedAlreadyProcessed {
                consumer,
                message_id: held.message_id.clone(),
            });
            return;
        }
        if once {
            self.processed.insert(held.message_id.clone());
        }
        let effect = worker.spec.side_effect.clone();
        self.workers[index].side_effects += 1;
        // Found through the index: a scan of the ledger made a long run
        // quadratic in its messages.
        let next = self.side_effects.len();
        let position = *self
            .side_effect_index
            .entry(held.message_id.clone())
            .or_insert(next);
        // The event about to be logged gets this number or a later one.
        let seq = self.next_event_seq();
        if position == next {
            self.side_effect_seqs.push(seq);
            self.side_effects.push(SideEffect {
                message_id: held.message_id.clone(),
                // Bounded: the ledger names the message, it does not keep
                // a second copy of a body of up to 1 MiB.
                body: queuelab_engine::echo(&held.body).into_owned(),
                effect: effect.clone(),
                count: 0,
                by: Vec::new(),
            });
        }
        self.side_effect_seqs[position] = seq;
        let entry = &mut self.side_effects[position];
        entry.count += 1;
        entry.by.push(consumer.to_string());
        let count = entry.count;
        self.emit(SimEvent::SideEffectPerformed {
            consumer,
            message_id: held.message_id.clone(),
            effect,
            count,
        });
    }
}
