//! One simulated consumer: the receive -> process -> delete loop real code
//! runs, as a state machine in virtual time. Every worker transition lives
//! here: when it polls, what a receive starts, when each message is done,
//! and what its behaviours (`behaviours/`) decide at each step. A
//! transition reads the worker's own state and returns its [`Effect`]s,
//! data that `commands.rs` carries out in order (the engine calls, the
//! side-effect ledger, the log, the worker's next state).

use std::sync::Arc;

use super::scenario::{Consumer, Processing};
use crate::actors::Actor;
use crate::behaviours::{self, Command, Held, Observation, WorkerBehaviour};
use crate::log::SimEvent;
use crate::rng::SimRng;
use crate::{queue_name, units};
use queuelab_engine::{Millis, PollId, Principal, ReceivedMessage, SqsResult};

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

/// What a worker's transition asks of the run, carried out in order by
/// `commands.rs` (`Simulation::run_worker`) under the worker's name.
#[derive(Debug)]
pub(crate) enum Effect {
    /// Units of work besides its engine calls (`work.rs`): its action,
    /// the bodies it received.
    Work(u64),
    /// Logs a simulation event at this moment.
    Log(SimEvent),
    /// Its ReceiveMessage, as its spec configures it; the answer is its
    /// next transition ([`Worker::received`]), or a long poll to wait on.
    Receive,
    /// DeleteMessage of the message with this receipt handle (an extended
    /// one: its object too, as the consumer's `payloads` says); once it
    /// succeeds the worker counts the message deleted ([`Worker::deleted`]).
    /// `payload`: the guide's object the message pointed at.
    Delete {
        handle: String,
        payload: Option<crate::payload::Location>,
    },
    /// ChangeMessageVisibility of each handle to `seconds` (None: the
    /// queue's visibility timeout, read first).
    ChangeVisibility {
        handles: Vec<String>,
        seconds: Option<i64>,
        /// A heartbeat's: a refusal ends the heartbeat, as an exception
        /// ends an extender thread (`Worker::stop_heartbeat`).
        heartbeat: bool,
    },
    /// SendMessage of a message not yet due again to the worker's queue,
    /// delayed `seconds`, with its body and attributes; once the send
    /// succeeds, DeleteMessage of the original (`handle`). A failed send
    /// deletes nothing: the message comes back when its visibility ends.
    Redelay {
        message_id: String,
        body: String,
        attributes: Vec<queuelab_engine::MessageAttribute>,
        seconds: i64,
        handle: String,
    },
    /// The handler's side effect on a message (`once`: skipped when an
    /// idempotent handler recorded the message already).
    Perform {
        message_id: String,
        body: String,
        once: bool,
    },
    /// It is done with a message (the ledger may forget it).
    DoneWith { message_id: String },
    /// PutMetricData of its `publishMetrics`: how long the message took,
    /// and whether it was handled.
    PublishMetrics {
        processing_ms: Millis,
        success: bool,
    },
    /// Its state from here on. Placed among the effects where the loop it
    /// models changes state, so everything the run does between sees the
    /// worker as that loop would be (who holds a message, when a message
    /// that left the engine may be forgotten).
    Become(State),
}

/// What a worker sees when it steps: the simulation's stream of draws
/// (processing times), and, when a receive's answer is what steps it, that
/// answer with the worker already processing each message (if any: a
/// duplicate delivery).
pub(crate) struct Seen<'a> {
    pub rng: &'a mut SimRng,
    pub answer: Option<Answer>,
}

/// A receive's answer, and for each message received the worker already
/// processing it and what its payload came to (`Resolved`).
pub(crate) type Answer = (
    SqsResult<Vec<ReceivedMessage>>,
    Vec<Option<Arc<str>>>,
    Vec<Resolved>,
);

/// What the run's reading of a received message's pointer came to: the
/// guide's object it names, and whether that object was missing.
#[derive(Clone, Debug, Default)]
pub(crate) struct Resolved {
    pub guide_object: Option<crate::payload::Location>,
    pub missing: bool,
}

pub struct Worker {
    pub spec: Consumer,
    pub name: Arc<str>,
    /// Who its calls are made as: the owner, or its consumer's `account`,
    /// under its name.
    pub principal: Principal,
    pub url: String,
    pub state: State,
    /// Side effects this worker performed.
    pub side_effects: u64,
    /// Receipt handles of the batch it holds that the run deleted.
    deleted: Vec<String>,
    /// Of those, the ones whose delete missed a copy (the realism knob
    /// `duplicateDeliveryProbability`): SQS answered success, so the
    /// worker counts them deleted, but a copy is left to come back.
    missed: Vec<String>,
    behaviours: Vec<Box<dyn WorkerBehaviour>>,
    /// The wall clock at virtual time 0 (the engine's `start_epoch_ms`):
    /// a behaviour compares due times with it.
    pub start_epoch_ms: Millis,
}

impl Worker {
    /// A worker with the behaviours its spec asks for; `Err` names an
    /// invalid behaviour field.
    pub fn new(spec: Consumer, url: String) -> Result<Self, String> {
        Ok(Worker {
            name: spec.name.as_str().into(),
            principal: crate::calls::principal_of(&spec.name, spec.account.as_deref())?,
            state: State::Idle {
                until: spec.start_ms,
            },
            behaviours: behaviours::build(&spec.behaviour)?,
            spec,
            url,
            side_effects: 0,
            deleted: Vec::new(),
            missed: Vec::new(),
            start_epoch_ms: 0,
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

    /// The run deleted the message with this receipt handle.
    pub(crate) fn deleted(&mut self, handle: String) {
        self.deleted.push(handle);
    }

    /// The run's delete of this handle (already counted deleted) missed a
    /// copy of the message: SQS still holds it.
    pub(crate) fn delete_missed(&mut self, handle: String) {
        self.missed.push(handle);
    }

    /// Its heartbeat's ChangeMessageVisibility was refused: the heartbeat
    /// ends for the message it holds (the next message starts its own).
    pub(crate) fn stop_heartbeat(&mut self) {
        if let State::Working { next_heartbeat, .. } = &mut self.state {
            *next_heartbeat = None;
        }
    }

    /// Its state, each held message's `deleted` as the run found it.
    fn state_now(&self) -> State {
        let mut state = self.state.clone();
        if let State::Working { batch, .. } = &mut state {
            for h in batch {
                h.deleted = self.deleted.contains(&h.handle);
            }
        }
        state
    }

    /// Its long poll is waiting in the engine.
    pub(crate) fn polling(&mut self, poll: PollId) {
        self.state = State::Polling { poll };
    }

    /// It is due at `now` (`wake_at`): it polls, beats or finishes a message.
    fn wake(&mut self, now: Millis, rng: &mut SimRng) -> Vec<Effect> {
        let mut out = vec![Effect::Work(1)];
        // Matched in place: only the state's kind and moments decide, so
        // the batch (bodies and all) is not copied on every wake.
        match self.state {
            State::Idle { .. } | State::Crashed { .. } => {
                if self.stopped_by(now) {
                    out.push(Effect::Become(State::Stopped));
                    return out;
                }
                if matches!(self.state, State::Crashed { .. }) {
                    let consumer = self.name.clone();
                    out.push(Effect::Log(SimEvent::WorkerRestarted { consumer }));
                }
                out.push(Effect::Receive);
            }
            State::Working {
                done_at,
                next_heartbeat: Some(beat),
                ..
            } if beat < done_at && beat <= now => self.heartbeat(now, &mut out),
            State::Working { .. } => self.finish_current(now, rng, &mut out),
            State::Polling { .. } | State::Stopped => {}
        }
        out
    }

    /// A receive came back: start on the batch, or poll again. `holders`
    /// names, for each message received, the worker already processing
    /// it (a duplicate delivery).
    fn received(
        &mut self,
        result: SqsResult<Vec<ReceivedMessage>>,
        (holders, payloads): (&[Option<Arc<str>>], &[Resolved]),
        now: Millis,
        rng: &mut SimRng,
    ) -> Vec<Effect> {
        let pause = State::Idle {
            until: now.saturating_add(self.spec.poll_interval_ms),
        };
        let messages = match result {
            Ok(messages) if messages.is_empty() => {
                // A long poll that ended empty polls again at once; a short
                // poll pauses first, as a polling loop with a sleep would.
                return vec![Effect::Become(if self.spec.wait_time_seconds > 0 {
                    State::Idle { until: now }
                } else {
                    pause
                })];
            }
            Ok(messages) => messages,
            Err(error) => {
                let failed = SimEvent::action_failed(&self.name, "ReceiveMessage", error);
                return vec![Effect::Become(pause), Effect::Log(failed)];
            }
        };
        let consumer = self.name.clone();
        let queue = queue_name(&self.url);
        let bytes: u64 = messages
            .iter()
            .map(|m| units::body_units(m.body.len()))
            .sum();
        let mut out = vec![Effect::Work(bytes)];
        self.deleted.clear();
        self.missed.clear();
        let mut batch = Vec::new();
        for (i, m) in messages.into_iter().enumerate() {
            let receive_count = m
                .attributes
                .iter()
                .find(|(k, _)| *k == "ApproximateReceiveCount")
                .and_then(|(_, v)| v.parse().ok())
                .unwrap_or(1);
            if let Some(holder) = holders.get(i).cloned().flatten() {
                out.push(Effect::Log(SimEvent::DuplicateDelivery {
                    consumer: consumer.clone(),
                    queue: queue.clone(),
                    message_id: m.message_id.clone(),
                    receive_count,
                    also_held_by: holder,
                }));
            }
            let resolved = payloads.get(i).cloned().unwrap_or_default();
            batch.push(Held {
                message_id: m.message_id,
                body: m.body,
                handle: m.receipt_handle,
                receive_count,
                failed: false,
                deleted: false,
                payload: resolved.guide_object,
                payload_missing: resolved.missing,
                attributes: m.message_attributes,
            });
        }
        let commands = self.observe(&Observation::Received { batch: &batch });
        apply(&batch, 0, &commands, &mut out);
        self.begin(batch, 0, now, rng, &mut out);
        out
    }

    /// Starts processing `batch[current]`.
    fn begin(
        &mut self,
        batch: Vec<Held>,
        current: usize,
        now: Millis,
        rng: &mut SimRng,
        out: &mut Vec<Effect>,
    ) {
        let unit = rng.unit();
        // A batch's own cost (a connection, a commit) is paid once, with
        // its first message.
        let overhead = if current == 0 {
            self.spec.batch_overhead_ms
        } else {
            0
        };
        let done_at = now
            .saturating_add(processing_ms(&self.spec.processing, unit))
            .saturating_add(overhead);
        let heartbeat_every = self
            .observe(&Observation::Started)
            .iter()
            .find_map(|c| match c {
                Command::Heartbeat { every_ms } => Some(*every_ms),
                _ => None,
            });
        let held = &batch[current];
        let event = SimEvent::ProcessingStarted {
            consumer: self.name.clone(),
            queue: queue_name(&self.url),
            message_id: held.message_id.clone(),
            receive_count: held.receive_count,
            until: done_at,
        };
        out.push(Effect::Become(State::Working {
            batch,
            current,
            started_at: now,
            done_at,
            next_heartbeat: heartbeat_every.map(|every| now.saturating_add(every)),
            heartbeat_every: heartbeat_every.unwrap_or(1000).max(1),
        }));
        out.push(Effect::Log(event));
    }

    /// A heartbeat is due: the behaviours say what it does.
    fn heartbeat(&mut self, now: Millis, out: &mut Vec<Effect>) {
        let mut state = self.state_now();
        let State::Working {
            batch,
            current,
            next_heartbeat: next @ Some(_),
            heartbeat_every,
            ..
        } = &mut state
        else {
            return;
        };
        let commands = self.observe(&Observation::HeartbeatDue);
        let mut calls = Vec::new();
        apply(batch, *current, &commands, &mut calls);
        let beat = next.unwrap_or(now);
        *next = Some(beat.saturating_add(*heartbeat_every).max(now + 1));
        // The next beat is set before the calls, so a refused one can end it.
        out.push(Effect::Become(state));
        out.extend(calls);
    }

    /// The handler is done with the current message: its behaviours decide
    /// whether it crashes, fails, or performs the side effect (and what is
    /// deleted when).
    fn finish_current(&mut self, now: Millis, rng: &mut SimRng, out: &mut Vec<Effect>) {
        let State::Working {
            mut batch,
            current,
            started_at,
            ..
        } = self.state_now()
        else {
            return;
        };
        let consumer = self.name.clone();
        let held = batch[current].clone();
        let handled = self.observe(&Observation::Handled {
            message: &held,
            now,
            epoch_ms: self.start_epoch_ms.saturating_add(now),
        });
        if self.crash_if_asked(&held, &handled, now, out) {
            return;
        }
        if let Some(seconds) = redelay(&handled) {
            out.push(Effect::Redelay {
                message_id: held.message_id.clone(),
                body: held.body.clone(),
                attributes: held.attributes.clone(),
                seconds,
                handle: held.handle.clone(),
            });
        } else if held.payload_missing || handled.contains(&Command::Fail) {
            // A pointer to nothing: the handler has no payload to work on.
            batch[current].failed = true;
            out.push(Effect::Log(SimEvent::ProcessingFailed {
                consumer: consumer.clone(),
                message_id: held.message_id.clone(),
                receive_count: held.receive_count,
            }));
            self.lost_if_deleted(&held, false, out);
            let failed = self.observe(&Observation::Failed {
                message: &held,
                current,
            });
            apply(&batch, current, &failed, out);
        } else {
            out.push(Effect::Perform {
                message_id: held.message_id.clone(),
                body: held.body.clone(),
                once: handled.contains(&Command::SideEffectOnce),
            });
            let done = self.observe(&Observation::SideEffectDone {
                message: &held,
                current,
            });
            if self.crash_if_asked(&held, &done, now, out) {
                return;
            }
            apply(&batch, current, &done, out);
        }
        if self.spec.publish_metrics.is_some() {
            out.push(Effect::PublishMetrics {
                processing_ms: now.saturating_sub(started_at),
                success: !batch[current].failed,
            });
        }
        out.push(Effect::DoneWith {
            message_id: held.message_id.clone(),
        });
        if current + 1 < batch.len() {
            self.begin(batch, current + 1, now, rng, out);
            return;
        }
        let done = self.observe(&Observation::BatchDone);
        apply(&batch, current, &done, out);
        out.push(Effect::Become(State::Idle { until: now }));
    }

    /// Crashes the worker if the behaviour's `commands` say so (restarting
    /// `restart_ms` after `now`); true if it crashed.
    fn crash_if_asked(
        &self,
        held: &Held,
        commands: &[Command],
        now: Millis,
        out: &mut Vec<Effect>,
    ) -> bool {
        let Some((before_side_effect, restart_ms)) = crash(commands) else {
            return false;
        };
        out.push(Effect::Log(SimEvent::WorkerCrashed {
            consumer: self.name.clone(),
            message_id: held.message_id.clone(),
            before_side_effect,
        }));
        if before_side_effect {
            self.lost_if_deleted(held, true, out);
        }
        // The crash drops the whole batch it held.
        let dropped: Vec<String> = match &self.state {
            State::Working { batch, current, .. } => batch[*current..]
                .iter()
                .map(|h| h.message_id.clone())
                .collect(),
            _ => vec![held.message_id.clone()],
        };
        let until = now.saturating_add(restart_ms);
        out.push(Effect::Become(State::Crashed { until }));
        for message_id in dropped {
            out.push(Effect::DoneWith { message_id });
        }
        true
    }

    /// A message deleted before processing has no copy left to retry when
    /// its handler then crashes or fails (unless the delete missed a copy,
    /// which comes back: nothing is lost).
    fn lost_if_deleted(&self, held: &Held, handler_crashed: bool, out: &mut Vec<Effect>) {
        if held.deleted && !self.missed.contains(&held.handle) {
            out.push(Effect::Log(SimEvent::MessageLost {
                consumer: self.name.clone(),
                message_id: held.message_id.clone(),
                handler_crashed,
            }));
        }
    }
}

/// A worker as an actor: woken at its moments, or by its receive's answer.
impl<'a> Actor<Seen<'a>, Effect> for Worker {
    fn name(&self) -> &Arc<str> {
        &self.name
    }

    fn wake_at(&self) -> Option<Millis> {
        Worker::wake_at(self)
    }

    fn step(&mut self, now: Millis, seen: &mut Seen<'a>) -> Vec<Effect> {
        match seen.answer.take() {
            Some((result, holders, payloads)) => {
                self.received(result, (&holders, &payloads), now, seen.rng)
            }
            None => self.wake(now, seen.rng),
        }
    }
}

/// The engine-facing commands of a worker's behaviours on its `batch`
/// (whose current message is `batch[current]`), as effects. The loop's
/// own commands (crash, fail, side effect, heartbeat timing) are decided
/// by the transitions above.
fn apply(batch: &[Held], current: usize, commands: &[Command], out: &mut Vec<Effect>) {
    for command in commands {
        match command {
            Command::Delete { index } => out.push(Effect::Delete {
                handle: batch[*index].handle.clone(),
                payload: batch[*index].payload.clone(),
            }),
            Command::ExtendVisibility { seconds } => out.push(Effect::ChangeVisibility {
                handles: batch[current..]
                    .iter()
                    .filter(|h| !h.deleted)
                    .map(|h| h.handle.clone())
                    .collect(),
                seconds: *seconds,
                heartbeat: true,
            }),
            Command::ChangeVisibility { index, seconds } => out.push(Effect::ChangeVisibility {
                handles: vec![batch[*index].handle.clone()],
                seconds: Some(*seconds),
                heartbeat: false,
            }),
            Command::Heartbeat { .. }
            | Command::Redelay { .. }
            | Command::Fail
            | Command::Crash { .. }
            | Command::SideEffectOnce => {}
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

/// The delay of a behaviour's re-delay, if one asks for it.
fn redelay(commands: &[Command]) -> Option<i64> {
    commands.iter().find_map(|c| match c {
        Command::Redelay { seconds } => Some(*seconds),
        _ => None,
    })
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

#[cfg(test)]
mod account_tests {
    use super::*;

    fn worker(account: Option<&str>) -> Worker {
        let spec: Consumer = serde_json::from_value(serde_json::json!({
            "name": "reader", "queue": "q", "account": account,
            "processing": { "fixedMs": 10 },
        }))
        .unwrap();
        Worker::new(spec, "https://q".into()).unwrap()
    }

    #[test]
    fn a_worker_of_a_consumer_with_an_account_calls_as_that_account_under_its_name() {
        let arn = "arn:aws:iam::222222222222:role/reader";
        let reader = Principal::account(arn).unwrap().named("reader");
        assert_eq!(worker(Some(arn)).principal, reader);
        assert_eq!(worker(None).principal, Principal::caller(Some("reader")));
    }
}
