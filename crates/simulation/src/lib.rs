//! Scenarios: producers and consumers that run in the engine's virtual time.
//!
//! Consumers are simulated workers running the loop real consumer code runs
//! (receive, process for a while, delete), through the same typed SQS
//! operations as every other caller, under their own names. The side effect
//! each handler performs is counted per message, so "order A-1001 was
//! charged twice" is a number the engine knows. Everything draws from the
//! engine's seeded PRNG, so a scenario and a seed replay identically: the
//! page scrubs to any moment by replaying from time 0.

pub mod scenario;
mod worker;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::Serialize;

pub use scenario::*;
use worker::{processing_ms, Held, State, Worker};

use queuelab_engine::{
    AttributeName, AttributeSelection, AttributeValue, Config, DedupScope, Engine, EventKind,
    MessageAttribute, Millis, NewMessage, PollId, QueueAttribute, ReceiveMessage, ReceiveOutcome,
    ReceivedMessage, RedrivePolicy, SendMessage, SqsError, SqsResult, Tags, MAX_VIRTUAL_MS,
};

/// How often a side effect happened to one message.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SideEffect {
    pub message_id: String,
    pub body: String,
    pub effect: String,
    pub count: u64,
    /// Who performed it, in order (a name repeats if it did it twice).
    pub by: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct HeldSnapshot {
    pub message_id: String,
    pub body: String,
    pub receive_count: u32,
    /// Being processed now (the others of a batch wait their turn or are done).
    pub current: bool,
    pub done: bool,
    pub failed: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct WorkerSnapshot {
    pub name: String,
    pub queue: String,
    /// `idle`, `polling`, `processing`, `crashed` or `stopped`.
    #[cfg_attr(
        feature = "contract",
        ts(type = r#""idle" | "polling" | "processing" | "crashed" | "stopped""#)
    )]
    pub state: &'static str,
    pub holding: Vec<HeldSnapshot>,
    /// Start and end of the current message's processing.
    pub started_at: Option<Millis>,
    pub done_at: Option<Millis>,
    pub side_effects: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct AlarmSnapshot {
    pub name: String,
    pub queue: String,
    pub threshold: u64,
    pub in_alarm: bool,
}

/// The simulation's part of a snapshot.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SimulationSnapshot {
    pub title: String,
    pub duration_ms: Millis,
    pub finished: bool,
    pub narration: Option<String>,
    pub workers: Vec<WorkerSnapshot>,
    pub side_effects: Vec<SideEffect>,
    pub alarms: Vec<AlarmSnapshot>,
}

struct ProducerState {
    name: Arc<str>,
    url: String,
    sends: Vec<ScheduledSend>,
    next_send: usize,
    rate: Option<Rate>,
    next_rate: u64,
}

impl ProducerState {
    fn rate_at(&self) -> Option<Millis> {
        let rate = self.rate.as_ref()?;
        (self.next_rate < rate.count).then(|| rate.start_ms + self.next_rate * rate.every_ms)
    }

    fn wake_at(&self) -> Option<Millis> {
        let scheduled = self.sends.get(self.next_send).map(|s| s.at_ms);
        [scheduled, self.rate_at()].into_iter().flatten().min()
    }
}

/// An engine with a scenario's producers and consumers running in it.
pub struct Simulation {
    engine: Engine,
    scenario: Scenario,
    producers: Vec<ProducerState>,
    workers: Vec<Worker>,
    /// Message ids every idempotent handler has recorded (a shared table).
    processed: BTreeSet<String>,
    side_effects: Vec<SideEffect>,
    next_narration: usize,
    narration: Option<String>,
    alarms: Vec<(Alarm, String, bool)>,
    /// Long polls answered for callers other than the workers.
    external_answers: Vec<(PollId, SqsResult<Vec<ReceivedMessage>>)>,
}

/// A scenario that cannot run: which part, and why.
fn invalid(what: &str, error: impl std::fmt::Display) -> SqsError {
    SqsError::invalid_parameter(format!("scenario {what}: {error}"))
}

impl Simulation {
    /// An engine with no scenario: an SQS endpoint and nothing else.
    pub fn empty(config: Config) -> Self {
        let scenario = Scenario {
            title: String::new(),
            summary: String::new(),
            seed: config.seed,
            duration_ms: 0,
            queues: Vec::new(),
            producers: Vec::new(),
            consumers: Vec::new(),
            narration: Vec::new(),
            alarms: Vec::new(),
        };
        Self::start(Engine::new(config), scenario)
    }

    /// Creates the scenario's queues at time 0 and readies its producers
    /// and consumers. The scenario's seed replaces `config.seed`.
    pub fn new(scenario: Scenario, config: Config) -> SqsResult<Self> {
        let mut engine = Engine::new(Config {
            seed: scenario.seed,
            ..config
        });
        let mut urls = BTreeMap::new();
        for spec in &scenario.queues {
            let attributes = queue_attributes(&engine, spec, &urls)?;
            let url = engine
                .create_queue(&spec.name, &attributes, &Tags::new())
                .map_err(|e| invalid(&format!("queue \"{}\"", spec.name), with_field(e.message)))?;
            urls.insert(spec.name.clone(), url);
        }
        let url_of = |what: &str, queue: &str| {
            urls.get(queue).cloned().ok_or_else(|| {
                invalid(
                    what,
                    format!("queue \"{queue}\" is not one of the scenario's queues"),
                )
            })
        };
        let mut simulation = Self::start(engine, scenario.clone());
        for p in &scenario.producers {
            let mut sends = p.sends.clone();
            sends.sort_by_key(|s| s.at_ms);
            if p.rate.as_ref().is_some_and(|r| r.every_ms == 0) {
                return Err(invalid(
                    &format!("producer \"{}\"", p.name),
                    "rate.everyMs must be above 0",
                ));
            }
            simulation.producers.push(ProducerState {
                name: p.name.as_str().into(),
                url: url_of(&format!("producer \"{}\"", p.name), &p.queue)?,
                sends,
                next_send: 0,
                rate: p.rate.clone(),
                next_rate: 0,
            });
        }
        for c in &scenario.consumers {
            let what = format!("consumer \"{}\"", c.name);
            if !(1..=10).contains(&c.batch_size) {
                return Err(invalid(&what, "batchSize must be between 1 and 10"));
            }
            if !(0..=20).contains(&c.wait_time_seconds) {
                return Err(invalid(&what, "waitTimeSeconds must be between 0 and 20"));
            }
            if c.behaviour.heartbeat_every_ms == Some(0) {
                return Err(invalid(&what, "behaviour.heartbeatEveryMs must be above 0"));
            }
            let url = url_of(&what, &c.queue)?;
            simulation.workers.push(Worker::new(c.clone(), url));
        }
        for alarm in &scenario.alarms {
            let url = url_of(&format!("alarm \"{}\"", alarm.name), &alarm.queue)?;
            simulation.alarms.push((alarm.clone(), url, false));
        }
        simulation.act();
        Ok(simulation)
    }

    fn start(engine: Engine, mut scenario: Scenario) -> Self {
        // Lines are shown as time reaches them, so they are kept in time
        // order; a stable sort keeps same-moment lines as the author wrote them.
        scenario.narration.sort_by_key(|line| line.at_ms);
        Simulation {
            engine,
            scenario,
            producers: Vec::new(),
            workers: Vec::new(),
            processed: BTreeSet::new(),
            side_effects: Vec::new(),
            next_narration: 0,
            narration: None,
            alarms: Vec::new(),
            external_answers: Vec::new(),
        }
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// For calls from outside the scenario (the page's manual actions).
    /// Long polls they start are answered through [`Self::take_external_answers`].
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    pub fn now(&self) -> Millis {
        self.engine.now()
    }

    /// Moves virtual time forward by `ms`: engine timers, producers and
    /// workers all act at their own moments, in time order.
    pub fn advance(&mut self, ms: Millis) -> Millis {
        let target = self.now().saturating_add(ms).min(MAX_VIRTUAL_MS);
        while let Some(t) = self.next_event_time().filter(|t| *t <= target) {
            self.engine.advance(t - self.now());
            self.act();
        }
        self.engine.advance(target - self.now());
        self.act();
        self.now()
    }

    /// The next moment anything happens by itself (for "step to the next event").
    pub fn next_event_time(&self) -> Option<Millis> {
        let now = self.now();
        let narration = self
            .scenario
            .narration
            .get(self.next_narration)
            .map(|n| n.at_ms);
        [self.engine.next_deadline(), narration]
            .into_iter()
            .chain(self.producers.iter().map(ProducerState::wake_at))
            .chain(self.workers.iter().map(Worker::wake_at))
            .flatten()
            .map(|t| t.max(now))
            .filter(|t| *t > now)
            .min()
    }

    /// Long polls of outside callers answered since the last call.
    pub fn take_external_answers(&mut self) -> Vec<(PollId, SqsResult<Vec<ReceivedMessage>>)> {
        self.route_answers();
        std::mem::take(&mut self.external_answers)
    }

    /// Everything due now: narration, producers, then workers, repeated
    /// while anything acted (a worker that finishes may receive at once).
    fn act(&mut self) {
        let now = self.now();
        while let Some(line) = self.scenario.narration.get(self.next_narration) {
            if line.at_ms > now {
                break;
            }
            let text = line.text.clone();
            self.narration = Some(text.clone());
            self.engine.record_event(EventKind::Narration { text });
            self.next_narration += 1;
        }
        for index in 0..self.producers.len() {
            self.run_producer(index, now);
        }
        // Bounded: each round either changes a worker's state or stops.
        for _ in 0..10_000 {
            self.route_answers();
            let due: Vec<usize> = (0..self.workers.len())
                .filter(|i| self.workers[*i].wake_at().is_some_and(|t| t <= now))
                .collect();
            if due.is_empty() {
                break;
            }
            for index in due {
                self.step_worker(index, now);
            }
        }
        self.check_alarms();
    }

    fn run_producer(&mut self, index: usize, now: Millis) {
        loop {
            let producer = &self.producers[index];
            let scheduled = producer
                .sends
                .get(producer.next_send)
                .filter(|s| s.at_ms <= now)
                .cloned();
            let (name, url) = (producer.name.clone(), producer.url.clone());
            let send = if let Some(send) = scheduled {
                self.producers[index].next_send += 1;
                send
            } else if let Some(at) = producer.rate_at().filter(|at| *at <= now) {
                let rate = producer.rate.clone().expect("rate_at implies a rate");
                let n = producer.next_rate + 1;
                let fill = |s: &str| s.replace("{n}", &n.to_string());
                let send = ScheduledSend {
                    at_ms: at,
                    body: fill(&rate.body),
                    group_id: rate.group_id.as_deref().map(fill),
                    dedup_id: None,
                    delay_seconds: None,
                    attributes: BTreeMap::new(),
                };
                self.producers[index].next_rate += 1;
                send
            } else {
                return;
            };
            let message = NewMessage {
                body: send.body,
                delay_seconds: send.delay_seconds,
                attributes: send
                    .attributes
                    .into_iter()
                    .map(|(name, value)| MessageAttribute {
                        name,
                        data_type: "String".into(),
                        value: AttributeValue::String(value),
                    })
                    .collect(),
                system_attributes: Vec::new(),
                group_id: send.group_id,
                dedup_id: send.dedup_id,
            };
            let request = SendMessage {
                queue_url: url,
                message,
            };
            if let Err(error) = self.engine.send_message(&request, Some(&name)) {
                self.action_failed(&name, "SendMessage", error);
            }
        }
    }

    fn action_failed(&mut self, actor: &Arc<str>, action: &'static str, error: SqsError) {
        self.engine.record_event(EventKind::ActionFailed {
            actor: actor.clone(),
            action,
            code: error.code.query_code(),
            error: error.message,
        });
    }

    /// Hands answered long polls to their workers, and keeps the others.
    fn route_answers(&mut self) {
        let now = self.now();
        for (poll, result) in self.engine.take_answered_polls() {
            let owner = self
                .workers
                .iter()
                .position(|w| matches!(w.state, State::Polling { poll: p } if p == poll));
            match owner {
                Some(index) => self.received(index, result, now),
                None => self.external_answers.push((poll, result)),
            }
        }
    }

    fn step_worker(&mut self, index: usize, now: Millis) {
        match self.workers[index].state.clone() {
            State::Idle { .. } | State::Crashed { .. } => {
                let restarting = matches!(self.workers[index].state, State::Crashed { .. });
                if self.workers[index].stopped_by(now) {
                    self.workers[index].state = State::Stopped;
                    return;
                }
                if restarting {
                    let consumer = self.workers[index].name.clone();
                    self.engine
                        .record_event(EventKind::WorkerRestarted { consumer });
                }
                self.poll(index, now);
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

    fn poll(&mut self, index: usize, now: Millis) {
        let worker = &self.workers[index];
        let request = ReceiveMessage {
            queue_url: worker.url.clone(),
            max_number_of_messages: Some(worker.spec.batch_size),
            wait_time_seconds: Some(worker.spec.wait_time_seconds),
            system_attribute_names: vec!["ApproximateReceiveCount".into()],
            ..ReceiveMessage::default()
        };
        let name = worker.name.clone();
        match self.engine.receive_message(&request, Some(&name)) {
            Ok(ReceiveOutcome::Done(messages)) => self.received(index, Ok(messages), now),
            Ok(ReceiveOutcome::Waiting(poll)) => {
                self.workers[index].state = State::Polling { poll }
            }
            Err(error) => self.received(index, Err(error), now),
        }
    }

    /// A receive came back: start on the batch, or poll again.
    fn received(&mut self, index: usize, result: SqsResult<Vec<ReceivedMessage>>, now: Millis) {
        let worker = &self.workers[index];
        let pause = State::Idle {
            until: now + worker.spec.poll_interval_ms,
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
        for m in messages {
            let receive_count = m
                .attributes
                .iter()
                .find(|(k, _)| *k == "ApproximateReceiveCount")
                .and_then(|(_, v)| v.parse().ok())
                .unwrap_or(1);
            let also_held_by: Vec<Arc<str>> = self
                .workers
                .iter()
                .filter(|w| w.is_processing(&m.message_id))
                .map(|w| w.name.clone())
                .collect();
            if let Some(holder) = also_held_by.into_iter().next() {
                self.engine.record_event(EventKind::DuplicateDelivery {
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
        if self.workers[index].spec.behaviour.deletes_before_processing {
            for held in &mut batch {
                let url = self.workers[index].url.clone();
                held.deleted = self
                    .engine
                    .delete_message(&url, &held.handle, Some(&consumer))
                    .is_ok();
            }
        }
        self.begin(index, batch, 0, now);
    }

    /// Starts processing `batch[current]`.
    fn begin(&mut self, index: usize, batch: Vec<Held>, current: usize, now: Millis) {
        let unit = self.engine.draw_unit();
        let worker = &self.workers[index];
        let done_at = now + processing_ms(&worker.spec.processing, unit);
        let next_heartbeat = worker
            .spec
            .behaviour
            .heartbeat_every_ms
            .map(|every| now + every);
        let held = &batch[current];
        self.engine.record_event(EventKind::ProcessingStarted {
            consumer: worker.name.clone(),
            queue: queue_name(&worker.url),
            message_id: held.message_id.clone(),
            receive_count: held.receive_count,
            until: done_at,
        });
        self.workers[index].state = State::Working {
            batch,
            current,
            started_at: now,
            done_at,
            next_heartbeat,
        };
    }

    /// Extends the visibility of every message the worker still holds.
    fn heartbeat(&mut self, index: usize, now: Millis) {
        let worker = &self.workers[index];
        let State::Working {
            batch,
            current,
            next_heartbeat: Some(beat),
            ..
        } = &worker.state
        else {
            return;
        };
        let seconds = worker
            .spec
            .behaviour
            .heartbeat_visibility_seconds
            .unwrap_or_else(|| self.engine_visibility(&worker.url));
        let (name, url) = (worker.name.clone(), worker.url.clone());
        let handles: Vec<String> = batch[*current..]
            .iter()
            .filter(|h| !h.deleted)
            .map(|h| h.handle.clone())
            .collect();
        let next = beat
            + worker
                .spec
                .behaviour
                .heartbeat_every_ms
                .unwrap_or(1000)
                .max(1);
        for handle in handles {
            if let Err(error) =
                self.engine
                    .change_message_visibility(&url, &handle, seconds, Some(&name))
            {
                self.action_failed(&name, "ChangeMessageVisibility", error);
            }
        }
        if let State::Working { next_heartbeat, .. } = &mut self.workers[index].state {
            *next_heartbeat = Some(next.max(now + 1));
        }
    }

    fn engine_visibility(&self, url: &str) -> i64 {
        self.queue_number(url, AttributeName::VisibilityTimeout)
            .map_or(30, |v| v as i64)
    }

    /// A numeric queue attribute, read through GetQueueAttributes as any
    /// caller would (workers and alarms never look inside a queue).
    fn queue_number(&self, url: &str, name: AttributeName) -> Option<u64> {
        let selection = AttributeSelection::Names(vec![name]);
        match self
            .engine
            .get_queue_attributes(url, &selection)
            .ok()?
            .first()?
        {
            QueueAttribute::VisibilityTimeout(v) => u64::try_from(*v).ok(),
            QueueAttribute::ApproximateNumberOfMessages(v) => Some(*v),
            _ => None,
        }
    }

    /// The handler is done with the current message: fail, crash, or
    /// perform the side effect (and delete, unless it is a Lambda batch).
    fn finish_current(&mut self, index: usize, now: Millis) {
        let State::Working {
            mut batch, current, ..
        } = self.workers[index].state.clone()
        else {
            return;
        };
        let behaviour = self.workers[index].spec.behaviour.clone();
        let consumer = self.workers[index].name.clone();
        let url = self.workers[index].url.clone();
        let held = batch[current].clone();
        let crash = |before: bool| EventKind::WorkerCrashed {
            consumer: consumer.clone(),
            message_id: held.message_id.clone(),
            before_side_effect: before,
        };
        if Worker::matches(&behaviour.crashes_before_side_effect_on, &held.body) {
            self.engine.record_event(crash(true));
            self.lost_if_deleted(&consumer, &held, true);
            self.workers[index].state = State::Crashed {
                until: now + behaviour.restart_ms,
            };
            return;
        }
        if Worker::matches(&behaviour.fails_on, &held.body) {
            batch[current].failed = true;
            self.engine.record_event(EventKind::ProcessingFailed {
                consumer: consumer.clone(),
                message_id: held.message_id.clone(),
                receive_count: held.receive_count,
            });
            self.lost_if_deleted(&consumer, &held, false);
        } else {
            self.side_effect(index, &held);
            if Worker::matches(&behaviour.crashes_after_side_effect_on, &held.body) {
                self.engine.record_event(crash(false));
                self.workers[index].state = State::Crashed {
                    until: now + behaviour.restart_ms,
                };
                return;
            }
            if !behaviour.lambda_batch && !held.deleted {
                self.delete(&consumer, &url, &held.handle);
            }
        }
        if current + 1 < batch.len() {
            self.begin(index, batch, current + 1, now);
            return;
        }
        if behaviour.lambda_batch {
            // The invocation returns: with ReportBatchItemFailures only the
            // failed records go back; without it, one failure returns all.
            let any_failed = batch.iter().any(|h| h.failed);
            if behaviour.report_batch_item_failures || !any_failed {
                for h in batch.iter().filter(|h| !h.failed && !h.deleted) {
                    self.delete(&consumer, &url, &h.handle);
                }
            }
        }
        self.workers[index].state = State::Idle { until: now };
    }

    /// A message deleted before processing has no copy left to retry when
    /// its handler then crashes or fails.
    fn lost_if_deleted(&mut self, consumer: &Arc<str>, held: &Held, handler_crashed: bool) {
        if held.deleted {
            self.engine.record_event(EventKind::MessageLost {
                consumer: consumer.clone(),
                message_id: held.message_id.clone(),
                handler_crashed,
            });
        }
    }

    fn delete(&mut self, consumer: &Arc<str>, url: &str, handle: &str) {
        if let Err(error) = self.engine.delete_message(url, handle, Some(consumer)) {
            self.action_failed(consumer, "DeleteMessage", error);
        }
    }

    /// Performs (or, for an idempotent handler that has seen the message, skips) the side effect.
    fn side_effect(&mut self, index: usize, held: &Held) {
        let worker = &self.workers[index];
        let consumer = worker.name.clone();
        if worker.spec.behaviour.idempotent && self.processed.contains(&held.message_id) {
            self.engine
                .record_event(EventKind::SkippedAlreadyProcessed {
                    consumer,
                    message_id: held.message_id.clone(),
                });
            return;
        }
        if worker.spec.behaviour.idempotent {
            self.processed.insert(held.message_id.clone());
        }
        let effect = worker.spec.side_effect.clone();
        self.workers[index].side_effects += 1;
        let entry = match self
            .side_effects
            .iter_mut()
            .find(|s| s.message_id == held.message_id)
        {
            Some(entry) => entry,
            None => {
                self.side_effects.push(SideEffect {
                    message_id: held.message_id.clone(),
                    body: held.body.clone(),
                    effect: effect.clone(),
                    count: 0,
                    by: Vec::new(),
                });
                self.side_effects.last_mut().expect("just pushed")
            }
        };
        entry.count += 1;
        entry.by.push(consumer.to_string());
        let count = entry.count;
        self.engine.record_event(EventKind::SideEffectPerformed {
            consumer,
            message_id: held.message_id.clone(),
            effect,
            count,
        });
    }

    fn check_alarms(&mut self) {
        for i in 0..self.alarms.len() {
            let (alarm, url, was) = &self.alarms[i];
            let visible = self
                .queue_number(url, AttributeName::ApproximateNumberOfMessages)
                .unwrap_or(0);
            let now_in_alarm = visible >= alarm.threshold;
            if now_in_alarm != *was {
                let event = EventKind::AlarmChanged {
                    alarm: alarm.name.as_str().into(),
                    queue: alarm.queue.as_str().into(),
                    in_alarm: now_in_alarm,
                    visible,
                };
                self.alarms[i].2 = now_in_alarm;
                self.engine.record_event(event);
            }
        }
    }

    pub fn snapshot(&self) -> SimulationSnapshot {
        SimulationSnapshot {
            title: self.scenario.title.clone(),
            duration_ms: self.scenario.duration_ms,
            finished: self.now() >= self.scenario.duration_ms,
            narration: self.narration.clone(),
            workers: self.workers.iter().map(worker_snapshot).collect(),
            side_effects: self.side_effects.clone(),
            alarms: self
                .alarms
                .iter()
                .map(|(a, _, in_alarm)| AlarmSnapshot {
                    name: a.name.clone(),
                    queue: a.queue.clone(),
                    threshold: a.threshold,
                    in_alarm: *in_alarm,
                })
                .collect(),
        }
    }

    /// Side effects per message, in the order they first happened.
    pub fn side_effects(&self) -> &[SideEffect] {
        &self.side_effects
    }
}

fn worker_snapshot(w: &Worker) -> WorkerSnapshot {
    let (state, holding, started_at, done_at) = match &w.state {
        State::Idle { .. } => ("idle", Vec::new(), None, None),
        State::Polling { .. } => ("polling", Vec::new(), None, None),
        State::Crashed { .. } => ("crashed", Vec::new(), None, None),
        State::Stopped => ("stopped", Vec::new(), None, None),
        State::Working {
            batch,
            current,
            started_at,
            done_at,
            ..
        } => (
            "processing",
            batch
                .iter()
                .enumerate()
                .map(|(i, h)| HeldSnapshot {
                    message_id: h.message_id.clone(),
                    body: h.body.clone(),
                    receive_count: h.receive_count,
                    current: i == *current,
                    done: i < *current,
                    failed: h.failed,
                })
                .collect(),
            Some(*started_at),
            Some(*done_at),
        ),
    };
    WorkerSnapshot {
        name: w.name.to_string(),
        queue: queue_name(&w.url).to_string(),
        state,
        holding,
        started_at,
        done_at,
        side_effects: w.side_effects,
    }
}

fn queue_name(url: &str) -> Arc<str> {
    url.rsplit('/').next().unwrap_or(url).into()
}

/// The scenario field that sets each queue attribute a scenario can set.
const QUEUE_FIELDS: [(AttributeName, &str); 7] = [
    (AttributeName::VisibilityTimeout, "visibilityTimeoutSeconds"),
    (AttributeName::DelaySeconds, "delaySeconds"),
    (
        AttributeName::MessageRetentionPeriod,
        "messageRetentionPeriodSeconds",
    ),
    (
        AttributeName::ReceiveMessageWaitTimeSeconds,
        "receiveMessageWaitTimeSeconds",
    ),
    (
        AttributeName::ContentBasedDeduplication,
        "contentBasedDeduplication",
    ),
    (AttributeName::DeduplicationScope, "deduplicationScope"),
    (AttributeName::RedrivePolicy, "redrive"),
];

/// CreateQueue's refusal, prefixed with the scenario field it concerns:
/// SQS names the attribute ("VisibilityTimeout"), the author wrote the
/// field ("visibilityTimeoutSeconds").
fn with_field(message: String) -> String {
    match QUEUE_FIELDS
        .iter()
        .find(|(attribute, _)| message.contains(attribute.as_str()))
    {
        Some((_, field)) => format!("{field}: {message}"),
        None => message,
    }
}

/// A queue spec's attributes as the engine types them.
fn queue_attributes(
    engine: &Engine,
    spec: &QueueSpec,
    urls: &BTreeMap<String, String>,
) -> SqsResult<Vec<QueueAttribute>> {
    let mut out = Vec::new();
    if spec.name.ends_with(".fifo") {
        out.push(QueueAttribute::FifoQueue(true));
    }
    let ints = [
        (
            spec.visibility_timeout_seconds,
            QueueAttribute::VisibilityTimeout as fn(i64) -> _,
        ),
        (spec.delay_seconds, QueueAttribute::DelaySeconds),
        (
            spec.message_retention_period_seconds,
            QueueAttribute::MessageRetentionPeriod,
        ),
        (
            spec.receive_message_wait_time_seconds,
            QueueAttribute::ReceiveMessageWaitTimeSeconds,
        ),
    ];
    out.extend(ints.into_iter().filter_map(|(v, make)| v.map(make)));
    if let Some(v) = spec.content_based_deduplication {
        out.push(QueueAttribute::ContentBasedDeduplication(v));
    }
    if let Some(scope) = &spec.deduplication_scope {
        out.push(QueueAttribute::DeduplicationScope(match scope.as_str() {
            "queue" => DedupScope::Queue,
            "messageGroup" => DedupScope::MessageGroup,
            other => {
                return Err(invalid(
                    &format!("queue \"{}\"", spec.name),
                    format!(
                        "deduplicationScope must be \"queue\" or \"messageGroup\", not \"{other}\""
                    ),
                ))
            }
        }));
    }
    if let Some(redrive) = &spec.redrive {
        let Some(dlq_url) = urls.get(&redrive.dead_letter_queue) else {
            return Err(invalid(
                &format!("queue \"{}\"", spec.name),
                format!(
                    "redrive.deadLetterQueue \"{}\" must be a queue listed before it",
                    redrive.dead_letter_queue
                ),
            ));
        };
        out.push(QueueAttribute::RedrivePolicy(Some(RedrivePolicy {
            dead_letter_target_arn: queue_arn(engine, dlq_url)?,
            max_receive_count: redrive.max_receive_count,
        })));
    }
    Ok(out)
}

/// A queue's ARN, asked of the engine with GetQueueAttributes as any caller
/// would (the simulation does not build ARNs itself).
fn queue_arn(engine: &Engine, url: &str) -> SqsResult<String> {
    let selection = AttributeSelection::Names(vec![AttributeName::QueueArn]);
    match engine.get_queue_attributes(url, &selection)?.as_slice() {
        [QueueAttribute::QueueArn(arn)] => Ok(arn.clone()),
        other => Err(SqsError::invalid_parameter(format!(
            "GetQueueAttributes answered {other:?} for QueueArn"
        ))),
    }
}
