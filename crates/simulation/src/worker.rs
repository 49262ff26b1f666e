//! One simulated consumer: the receive -> process -> delete loop real code
//! runs, as a state machine in virtual time. Every worker transition lives
//! here: when it polls, what a receive starts, when each message is done,
//! and what its behaviours (`behaviours/`) decide at each step. What the
//! transitions do to the engine goes through `commands.rs`.

use std::sync::Arc;

use super::scenario::{Consumer, Processing};
use crate::behaviours::{self, Command, Held, Observation, WorkerBehaviour};
use crate::{queue_name, work, SimEvent, Simulation};
use queuelab_engine::{Millis, PollId, ReceiveOutcome, ReceivedMessage, SqsResult};

#[derive(Clone, Debug)]
pub enum State {
    /// Not started yet, or pausing after an empty short poll.
    Idle {
        until: Millis,
    },
    /// A long poll is waiting in the engine.
    Polling {
        poll: PollId,
    },
    /// Handling `batch[current]` until `done_at`.
    Working {
        batch: Vec<Held>,
        current: usize,
        started_at: Millis,
        done_at: Millis,
        /// The next heartbeat, and how often they come (a behaviour asked).
        next_heartbeat: Option<Millis>,
        heartbeat_every: Millis,
    },
    Crashed {
        until: Millis,
    },
    Stopped,
}

pub struct Worker {
    pub spec: Consumer,
    pub name: Arc<str>,
    pub url: String,
    pub state: State,
    /// Side effects this worker performed.
    pub side_effects: u64,
    behaviours: Vec<Box<dyn WorkerBehaviour>>,
}

impl Worker {
    /// A worker with the behaviours its spec asks for; `Err` names an
    /// invalid behaviour field.
    pub fn new(spec: Consumer, url: String) -> Result<Self, String> {
        Ok(Worker {
            name: spec.name.as_str().into(),
            state: State::Idle {
                until: spec.start_ms,
            },
            behaviours: behaviours::build(&spec.behaviour)?,
            spec,
            url,
            side_effects: 0,
        })
    }

    /// Tells every behaviour; their commands, in registry order.
    fn observe(&mut self, observation: &Observation) -> Vec<Command> {
        self.behaviours
            .iter_mut()
            .flat_map(|b| b.observe(observation))
            .collect()
    }

    /// When this worker next acts by itself (a long poll waits for the engine).
    pub fn wake_at(&self) -> Option<Millis> {
        match &self.state {
            State::Idle { until } | State::Crashed { until } => Some(*until),
            State::Working {
                done_at,
                next_heartbeat,
                ..
            } => Some(next_heartbeat.map_or(*done_at, |h| h.min(*done_at))),
            State::Polling { .. } | State::Stopped => None,
        }
    }

    pub fn stopped_by(&self, now: Millis) -> bool {
        self.spec.stop_ms.is_some_and(|stop| now >= stop)
    }

    /// Whether this worker is still working on `message_id`.
    pub fn is_processing(&self, message_id: &str) -> bool {
        match &self.state {
            State::Working { batch, current, .. } => {
                batch[*current..].iter().any(|h| h.message_id == message_id)
            }
            _ => false,
        }
    }
}

/// Draws a processing time; `unit` is a uniform draw in [0, 1).
///
/// Only correctly rounded operations (+, -, *, /, conversions) and the
/// `libm` crate's portable `log` are used: `f64::ln` calls the platform's
/// math library natively but a different implementation in wasm, and a
/// last-bit difference could round a duration the other way, so the same
/// seed would replay differently on the page than in native tests.
pub fn processing_ms(processing: &Processing, unit: f64) -> Millis {
    match *processing {
        Processing::FixedMs(ms) => ms,
        Processing::UniformMs { min, max } => {
            let (lo, hi) = (min.min(max), min.max(max));
            lo.saturating_add(((hi - lo).saturating_add(1) as f64 * unit) as u64)
        }
        Processing::ExponentialMs { mean } => {
            (-(mean as f64) * libm::log(1.0 - unit)).round() as u64
        }
    }
}

/// The first crash among a behaviour's commands.
fn crash(commands: &[Command]) -> Option<(bool, Millis)> {
    commands.iter().find_map(|c| match c {
        Command::Crash {
            before_side_effect,
            restart_ms,
        } => Some((*before_side_effect, *restart_ms)),
        _ => None,
    })
}

impl Simulation {
    pub(crate) fn step_worker(&mut self, index: usize, now: Millis) {
        self.count_work(1);
        match self.workers[index].state.clone() {
            State::Idle { .. } | State::Crashed { .. } => {
                let restarting = matches!(self.workers[index].state, State::Crashed { .. });
                if self.workers[index].stopped_by(now) {
                    self.workers[index].state = State::Stopped;
                    return;
                }
                if restarting {
                    let consumer = self.workers[index].name.clone();
                    self.emit(SimEvent::WorkerRestarted { consumer });
                }
                match self.receive(index) {
                    Ok(ReceiveOutcome::Done(messages)) => self.received(index, Ok(messages), now),
                    Ok(ReceiveOutcome::Waiting(poll)) => {
                        self.workers[index].state = State::Polling { poll }
                    }
                    Err(error) => self.received(index, Err(error), now),
                }
            }
            State::Working {
                done_at,
                next_heartbeat: Some(beat),
                ..
            } if beat < done_at && beat <= now => self.heartbeat(index, now),
            State::Working { .. } => self.finish_current(index, now),
            State::Polling { .. } | State::Stopped => {}
        }
    }

    /// A receive came back: start on the batch, or poll again.
    pub(crate) fn received(
        &mut self,
        index: usize,
        result: SqsResult<Vec<ReceivedMessage>>,
        now: Millis,
    ) {
        let worker = &self.workers[index];
        let pause = State::Idle {
            until: now.saturating_add(worker.spec.poll_interval_ms),
        };
        let messages = match result {
            Ok(messages) if messages.is_empty() => {
                // A long poll that ended empty polls again at once; a short
                // poll pauses first, as a polling loop with a sleep would.
                self.workers[index].state = if worker.spec.wait_time_seconds > 0 {
                    State::Idle { until: now }
                } else {
                    pause
                };
                return;
            }
            Ok(messages) => messages,
            Err(error) => {
                let name = worker.name.clone();
                self.workers[index].state = pause;
                self.action_failed(&name, "ReceiveMessage", error);
                return;
            }
        };
        let consumer = worker.name.clone();
        let queue = queue_name(&worker.url);
        let mut batch = Vec::new();
        let bytes: u64 = messages
            .iter()
            .map(|m| work::body_units(m.body.len()))
            .sum();
        self.count_work(bytes);
        for m in messages {
            let receive_count = m
                .attributes
                .iter()
                .find(|(k, _)| *k == "ApproximateReceiveCount")
                .and_then(|(_, v)| v.parse().ok())
                .unwrap_or(1);
            let also_held_by = self
                .workers
                .iter()
                .find(|w| w.is_processing(&m.message_id))
                .map(|w| w.name.clone());
            if let Some(holder) = also_held_by {
                self.emit(SimEvent::DuplicateDelivery {
                    consumer: consumer.clone(),
                    queue: queue.clone(),
                    message_id: m.message_id.clone(),
                    receive_count,
                    also_held_by: holder,
                });
            }
            batch.push(Held {
                message_id: m.message_id,
                body: m.body,
                handle: m.receipt_handle,
                receive_count,
                failed: false,
                deleted: false,
            });
        }
        let commands = self.workers[index].observe(&Observation::Received { batch: &batch });
        self.apply(index, &mut batch, 0, &commands);
        self.begin(index, batch, 0, now);
    }

    /// Starts processing `batch[current]`.
    fn begin(&mut self, index: usize, batch: Vec<Held>, current: usize, now: Millis) {
        let unit = self.rng.unit();
        let worker = &mut self.workers[index];
        // A batch's own cost (a connection, a commit) is paid once, with
        // its first message.
        let overhead = if current == 0 {
            worker.spec.batch_overhead_ms
        } else {
            0
        };
        let done_at = now
            .saturating_add(processing_ms(&worker.spec.processing, unit))
            .saturating_add(overhead);
        let heartbeat_every = worker
            .observe(&Observation::Started)
            .iter()
            .find_map(|c| match c {
                Command::Heartbeat { every_ms } => Some(*every_ms),
                _ => None,
            });
        let held = &batch[current];
        let event = SimEvent::ProcessingStarted {
            consumer: worker.name.clone(),
            queue: queue_name(&worker.url),
            message_id: held.message_id.clone(),
            receive_count: held.receive_count,
            until: done_at,
        };
        worker.state = State::Working {
            batch,
            current,
            started_at: now,
            done_at,
            next_heartbeat: heartbeat_every.map(|every| now.saturating_add(every)),
            heartbeat_every: heartbeat_every.unwrap_or(1000).max(1),
        };
        self.emit(event);
    }

    /// A heartbeat is due: the behaviours say what it does.
    fn heartbeat(&mut self, index: usize, now: Millis) {
        let State::Working {
            mut batch,
            current,
            next_heartbeat: Some(beat),
            heartbeat_every,
            ..
        } = self.workers[index].state.clone()
        else {
            return;
        };
        let commands = self.workers[index].observe(&Observation::HeartbeatDue);
        self.apply(index, &mut batch, current, &commands);
        if let State::Working { next_heartbeat, .. } = &mut self.workers[index].state {
            *next_heartbeat = Some(beat.saturating_add(heartbeat_every).max(now + 1));
        }
    }

    /// The handler is done with the current message: its behaviours decide
    /// whether it crashes, fails, or performs the side effect (and what is
    /// deleted when).
    fn finish_current(&mut self, index: usize, now: Millis) {
        let State::Working {
            mut batch, current, ..
        } = self.workers[index].state.clone()
        else {
            return;
        };
        let consumer = self.workers[index].name.clone();
        let held = batch[current].clone();
        let handled = self.workers[index].observe(&Observation::Handled {
            message: &held,
            now,
        });
        if self.crash_if_asked(index, &held, &handled, now) {
            return;
        }
        if handled.contains(&Command::Fail) {
            batch[current].failed = true;
            self.emit(SimEvent::ProcessingFailed {
                consumer: consumer.clone(),
                message_id: held.message_id.clone(),
                receive_count: held.receive_count,
            });
            self.lost_if_deleted(&consumer, &held, false);
            let failed = self.workers[index].observe(&Observation::Failed {
                message: &held,
                current,
            });
            self.apply(index, &mut batch, current, &failed);
        } else {
            let once = handled.contains(&Command::SideEffectOnce);
            self.side_effect(index, &held, once);
            let done = self.workers[index].observe(&Observation::SideEffectDone {
                message: &held,
                current,
            });
            if self.crash_if_asked(index, &held, &done, now) {
                return;
            }
            self.apply(index, &mut batch, current, &done);
        }
        self.done_with(index, &held.message_id);
        if current + 1 < batch.len() {
            self.begin(index, batch, current + 1, now);
            return;
        }
        let done = self.workers[index].observe(&Observation::BatchDone { batch: &batch });
        self.apply(index, &mut batch, current, &done);
        self.workers[index].state = State::Idle { until: now };
    }

    /// Crashes the worker if the behaviour's `commands` say so (restarting
    /// `restart_ms` after `now`); true if it crashed.
    fn crash_if_asked(
        &mut self,
        index: usize,
        held: &Held,
        commands: &[Command],
        now: Millis,
    ) -> bool {
        let Some((before_side_effect, restart_ms)) = crash(commands) else {
            return false;
        };
        self.crash(
            index,
            held,
            before_side_effect,
            now.saturating_add(restart_ms),
        );
        true
    }

    fn crash(&mut self, index: usize, held: &Held, before_side_effect: bool, until: Millis) {
        let consumer = self.workers[index].name.clone();
        self.emit(SimEvent::WorkerCrashed {
            consumer: consumer.clone(),
            message_id: held.message_id.clone(),
            before_side_effect,
        });
        if before_side_effect {
            self.lost_if_deleted(&consumer, held, true);
        }
        // The crash drops the whole batch it held.
        let dropped: Vec<String> = match &self.workers[index].state {
            State::Working { batch, current, .. } => batch[*current..]
                .iter()
                .map(|h| h.message_id.clone())
                .collect(),
            _ => vec![held.message_id.clone()],
        };
        self.workers[index].state = State::Crashed { until };
        for id in dropped {
            self.done_with(index, &id);
        }
    }

    /// A message deleted before processing has no copy left to retry when
    /// its handler then crashes or fails.
    fn lost_if_deleted(&mut self, consumer: &Arc<str>, held: &Held, handler_crashed: bool) {
        if held.deleted {
            self.emit(SimEvent::MessageLost {
                consumer: consumer.clone(),
                message_id: held.message_id.clone(),
                handler_crashed,
            });
        }
    }
}
