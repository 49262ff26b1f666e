//! Scenarios: producers and consumers that run in the engine's virtual time.
//!
//! Consumers are simulated workers running the loop real consumer code runs
//! (receive, process for a while, delete), through the same typed SQS
//! operations as every other caller, under their own names. The side effect
//! each handler performs is counted per message, so "order A-1001 was
//! charged twice" is a number the simulation knows. Processing times come
//! from the simulation's own PRNG stream of the seed (`rng.rs`), so a
//! scenario and a seed replay identically (the page scrubs to any moment by
//! replaying from time 0) and a worker's draws never shift an engine id.
//! What workers and producers do is logged as [`SimEvent`]s in the run's
//! one log with the engine's events (`log.rs`).

mod behaviours;
mod commands;
mod document;
pub mod lab;
mod ledger;
pub mod log;
mod observer;
mod observers;
mod rng;
pub mod scenario;
mod teach;
mod time_order;
mod work;
mod worker;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

pub use behaviours::behaviour_names;
pub use lab::check::{
    check_lab, run_seed, CheckFailure, CheckProgress, CheckReport, LabCheck, MovedProblem,
    CHECK_SEEDS, CHECK_WORK_BUDGET,
};
pub use lab::goal::{name_of, thousands, Breach, ConditionText, Measures};
pub use lab::view::{KnobChoice, KnobKind, KnobView, LabView};
pub use lab::{
    Doc, Explain, Fix, Goal, Knob, KnobValue, NonFix, Off, OldestAge, Settings, Target, MAX_FIXES,
    MAX_NON_FIXES,
};
pub use ledger::{MAX_SIDE_EFFECT_DETAILS, MAX_SIDE_EFFECT_NAMES};
pub use log::{Kind, LogEvent, SimEvent};
pub use scenario::*;
pub use teach::story::Outcome;
pub use work::{BODY_BYTES_PER_UNIT, ESTIMATE_FACTOR, MAX_SCENARIO_WORK, MAX_WORK_WITHOUT_ASKING};

use worker::{State, Worker};

use queuelab_engine::{
    AttributeName, AttributeSelection, AttributeValue, Config, Engine, EventKind, MessageAttribute,
    Millis, NewMessage, PollId, QueueAttribute, ReceivedMessage, RedrivePolicy, SendMessage,
    SqsError, SqsResult, Tags, TimeLimit, MAX_VIRTUAL_MS,
};

/// How often a side effect happened to one message.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SideEffect {
    pub message_id: String,
    /// The message's body, up to its first 100 characters (then "…").
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
    /// The body's first `BODY_PREVIEW_BYTES` (1 KiB, cut on a character
    /// boundary), as the engine's snapshot gives a stored message's: a
    /// worker holding 1 MiB bodies must not put them in every snapshot.
    pub body: String,
    /// The whole body's length in bytes of UTF-8.
    pub body_bytes: usize,
    /// `body` is only the body's beginning: `peek` gives the whole of it.
    pub body_truncated: bool,
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

/// What one scenario producer has done so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ProducerSnapshot {
    pub name: String,
    pub queue: String,
    /// Sends that put a new message in the queue.
    pub sent: u64,
    /// Sends SQS accepted but dropped as duplicates (FIFO deduplication).
    pub deduplicated: u64,
    /// Sends SQS refused (an `actionFailed` event says why).
    pub failed: u64,
}

/// The simulation's part of a snapshot.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SimulationSnapshot {
    pub title: String,
    pub duration_ms: Millis,
    pub finished: bool,
    /// The latest narration line shown.
    pub narration: Option<String>,
    /// The simulation's own sentence for the latest key moment (a duplicate
    /// delivery, a DLQ move, a group lock…), unless an authored line was
    /// shown at or after it: the message, the worker, the numbers and the
    /// SQS rule, from the run's events.
    pub explanation: Option<String>,
    /// What the run did so far, counted from its events (the recap at its end).
    pub outcome: Outcome,
    pub producers: Vec<ProducerSnapshot>,
    pub workers: Vec<WorkerSnapshot>,
    /// The first `MAX_SIDE_EFFECT_DETAILS` messages' side effects (or
    /// those changed since the page's last read).
    pub side_effects: Vec<SideEffect>,
    /// Messages handled past those, whose details the ledger did not keep
    /// (only their counts, while they may still be handled).
    pub side_effects_omitted: u64,
    pub alarms: Vec<AlarmSnapshot>,
}

/// Per-message records a run keeps now ([`Simulation::retained`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Retained {
    /// The ledger's detailed entries (at most `MAX_SIDE_EFFECT_DETAILS`).
    pub side_effect_details: usize,
    /// Counts of messages past the details that may still be handled.
    pub side_effect_counts: usize,
    /// Ids in the idempotent handlers' table.
    pub processed_ids: usize,
    /// Messages a lab's goal still follows.
    pub goal_messages: usize,
    /// Breaches and end-of-run candidates the goal keeps (one per condition).
    pub goal_breaches: usize,
    /// Messages the story remembers (labels, receipts, waits).
    pub story_messages: usize,
}

struct ProducerState {
    name: Arc<str>,
    url: String,
    sends: Vec<ScheduledSend>,
    next_send: usize,
    rate: Option<Rate>,
    next_rate: u64,
    sent: u64,
    deduplicated: u64,
    failed: u64,
}

impl ProducerState {
    fn rate_at(&self) -> Option<Millis> {
        let rate = self.rate.as_ref()?;
        // Checked: a send that would fall past the last representable
        // moment never comes.
        let at = rate
            .every_ms
            .checked_mul(self.next_rate)?
            .checked_add(rate.start_ms)?;
        (self.next_rate < rate.count && at <= MAX_VIRTUAL_MS).then_some(at)
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
    /// Side effects per message, and the idempotent handlers' shared
    /// table of processed ids (bounded: `ledger.rs`).
    ledger: ledger::Ledger,
    /// What watches the run's log (the story, a lab's goal), in the
    /// order they see each event (`observers.rs`).
    observers: Vec<Box<dyn observer::Observer>>,
    /// The engine's number of the next engine event the observers see.
    observed_to: u64,
    /// Whether `advance` stops at the moment a checkpoint is asked or
    /// answered (a page pausing for the learner's prediction, then for the
    /// run's answer).
    pause_at_checkpoints: bool,
    /// A checkpoint was asked or answered since `advance` began.
    checkpointed: bool,
    narration: Option<String>,
    alarms: Vec<(Alarm, String, bool)>,
    /// Long polls answered for callers other than the workers.
    external_answers: Vec<(PollId, SqsResult<Vec<ReceivedMessage>>)>,
    /// Processing times are drawn here, never from the engine's PRNG.
    rng: rng::SimRng,
    /// The engine's events and the simulation's, in one sequence.
    log: log::Log,
    /// Units of work done so far, counted as they happen (`work.rs`).
    work_done: u64,
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
            checkpoints: Vec::new(),
            alarms: Vec::new(),
            goal: None,
            knobs: Vec::new(),
            explain: None,
        };
        Self::start(Engine::new(config), scenario)
    }

    /// Creates the scenario's queues at time 0 and readies its producers
    /// and consumers. The scenario's seed replaces `config.seed`.
    pub fn new(scenario: Scenario, config: Config) -> SqsResult<Self> {
        scenario
            .validate()
            .map_err(|e| SqsError::invalid_parameter(format!("scenario: {e}")))?;
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
            time_order::sort_by_time(&mut sends, |s| s.at_ms);
            simulation.producers.push(ProducerState {
                name: p.name.as_str().into(),
                url: url_of(&format!("producer \"{}\"", p.name), &p.queue)?,
                sends,
                next_send: 0,
                rate: p.rate.clone(),
                next_rate: 0,
                sent: 0,
                deduplicated: 0,
                failed: 0,
            });
        }
        for c in &scenario.consumers {
            let what = format!("consumer \"{}\"", c.name);
            let url = url_of(&what, &c.queue)?;
            // `replicas` identical workers, in listed order.
            for name in worker_names(c) {
                let spec = Consumer { name, ..c.clone() };
                let worker = Worker::new(spec, url.clone()).map_err(|e| invalid(&what, e))?;
                simulation.workers.push(worker);
            }
        }
        for alarm in &scenario.alarms {
            let url = url_of(&format!("alarm \"{}\"", alarm.name), &alarm.queue)?;
            simulation.alarms.push((alarm.clone(), url, false));
        }
        let duration = simulation.scenario.duration_ms;
        let work = simulation.work_estimate(duration);
        if work > MAX_SCENARIO_WORK {
            return Err(invalid(
                "as a whole",
                format!(
                    "running it for durationMs would take about {work} steps of work, more than \
                     the limit of {MAX_SCENARIO_WORK} ({}): poll less often (consumers' \
                     pollIntervalMs), send less (producers' rate), or shorten durationMs",
                    simulation.heaviest_part(duration)
                ),
            ));
        }
        simulation.act();
        Ok(simulation)
    }

    fn start(engine: Engine, scenario: Scenario) -> Self {
        Simulation {
            observers: observers::registered(&scenario),
            observed_to: 1,
            pause_at_checkpoints: false,
            checkpointed: false,
            rng: rng::SimRng::new(engine.config().seed),
            log: log::Log::new(&engine),
            engine,
            scenario,
            producers: Vec::new(),
            workers: Vec::new(),
            ledger: ledger::Ledger::default(),
            narration: None,
            alarms: Vec::new(),
            external_answers: Vec::new(),
            work_done: 0,
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
        self.checkpointed = false;
        while let Some(t) = self.next_event_time().filter(|t| *t <= target) {
            self.advance_engine(t);
            self.act();
            if self.checkpointed && self.pause_at_checkpoints {
                self.log.sync(&self.engine);
                return self.now();
            }
        }
        self.advance_engine(target);
        self.act();
        // Copies the engine's events in now, so reading the log between
        // frames clones only what came after.
        self.log.sync(&self.engine);
        self.now()
    }

    /// Makes [`Self::advance`] stop at the end of a moment a checkpoint is
    /// asked or answered in (its event is among the last of that moment),
    /// so a page can pause there for the learner's prediction, and again
    /// to show the run's answer; advancing again goes on. Off by default:
    /// the run is the same either way.
    pub fn pause_at_checkpoints(&mut self, on: bool) {
        self.pause_at_checkpoints = on;
    }

    /// [`Simulation::advance`], refused when it would pass the last moment
    /// virtual time can reach ([`MAX_VIRTUAL_MS`]): hosts taking a time
    /// from a person or a link use this.
    pub fn try_advance(&mut self, ms: Millis) -> Result<Millis, TimeLimit> {
        TimeLimit::check(self.now(), ms)?;
        Ok(self.advance(ms))
    }

    /// Events (the engine's and the simulation's) numbered after `since`,
    /// oldest first: the run's one log, capped at `Config::event_capacity`.
    pub fn events(&self, since: u64) -> impl Iterator<Item = LogEvent> + '_ {
        self.log.since(&self.engine, since)
    }

    /// The number the next event of [`Self::events`] will get.
    pub fn next_event_seq(&self) -> u64 {
        self.log.next_seq(&self.engine)
    }

    /// Logs a simulation event at this moment, after the engine's so far.
    fn emit(&mut self, event: SimEvent) {
        // Observers read every event once, in log order: the engine's so
        // far, then this one.
        self.read_engine_events();
        let now = self.engine.now();
        for o in &mut self.observers {
            o.observe(now, observer::Seen::Sim(&event));
        }
        self.log.push(&self.engine, event);
    }

    /// Hands the engine's events not read yet to the observers.
    fn read_engine_events(&mut self) {
        let since = self.observed_to - 1;
        if self.engine.next_event_seq() <= since + 1 {
            return;
        }
        let events: Vec<_> = self
            .engine
            .events(since)
            .map(|e| (e.seq, e.time_ms, e.kind.clone()))
            .collect();
        for (seq, at, kind) in events {
            self.observed_to = seq + 1;
            for o in &mut self.observers {
                o.observe(at, observer::Seen::Sqs(&kind));
            }
            self.forget_if_gone(&kind);
        }
    }

    /// Tells the observers the moment reached, and logs what they have to
    /// tell (narration lines, checkpoints), in order.
    fn tell(&mut self) {
        self.read_engine_events();
        let now = self.now();
        let ledger = &self.ledger;
        let moment = observer::Moment {
            now,
            ended: now >= self.scenario.duration_ms,
            meter: self.engine.meter(),
            each_exactly: &|n: u64| ledger.each_exactly(n),
        };
        for o in &mut self.observers {
            o.reach(&moment);
        }
        for i in 0..self.observers.len() {
            for event in self.observers[i].take_events(now) {
                match &event {
                    SimEvent::Narration { text } => {
                        self.work_done = self.work_done.saturating_add(1);
                        self.narration = Some(text.clone());
                    }
                    SimEvent::CheckpointAsked { .. } | SimEvent::CheckpointAnswered { .. } => {
                        self.checkpointed = true;
                    }
                    _ => {}
                }
                self.log.push(&self.engine, event);
            }
        }
    }

    /// The next moment anything happens by itself (for "step to the next event").
    pub fn next_event_time(&self) -> Option<Millis> {
        let now = self.now();
        let duration = self.scenario.duration_ms;
        let watched = self.observers.iter().map(|o| o.next_moment(duration));
        [self.engine.next_deadline()]
            .into_iter()
            .chain(watched)
            .chain(self.producers.iter().map(ProducerState::wake_at))
            .chain(self.workers.iter().map(Worker::wake_at))
            .flatten()
            // Never a moment `advance` cannot reach.
            .map(|t| t.max(now).min(MAX_VIRTUAL_MS))
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
        // Scene-setting lines come first, as before anything acts now.
        self.tell();
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
        // Then the lines that what just happened triggered.
        self.tell();
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
            // A lab's goal reads the whole body (poison patterns) and the
            // attributes, which the engine's event does not carry.
            let watched = (self.observers.iter().any(|o| o.wants_sends()))
                .then(|| (send.body.clone(), send.attributes.clone()));
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
            // The producer's action, its SendMessage call, and its body's bytes.
            self.count_work(2 + work::body_units(request.message.body.len()));
            let before = self.engine.next_event_seq();
            match self.engine.send_message(&request, Some(&name)) {
                Ok(result) => {
                    // SQS answers a deduplicated FIFO send like any other;
                    // only the engine's event says it was dropped.
                    let dropped = self
                        .engine
                        .events(before - 1)
                        .any(|e| matches!(e.kind, EventKind::DuplicateDropped { .. }));
                    let producer = &mut self.producers[index];
                    if dropped {
                        producer.deduplicated += 1;
                    } else {
                        producer.sent += 1;
                        let queue = queue_name(&producer.url);
                        if let Some((body, attributes)) = &watched {
                            let send = observer::Produced {
                                message_id: &result.message_id,
                                queue: &queue,
                                body,
                                attributes,
                            };
                            for o in &mut self.observers {
                                o.produced(now, &send);
                            }
                        }
                    }
                }
                Err(error) => {
                    self.producers[index].failed += 1;
                    self.action_failed(&name, "SendMessage", error);
                }
            }
        }
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

    /// A numeric queue attribute, read through GetQueueAttributes as any
    /// caller would (workers and alarms never look inside a queue).
    pub(crate) fn queue_number(&self, url: &str, name: AttributeName) -> Option<u64> {
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

    fn check_alarms(&mut self) {
        // One GetQueueAttributes call per alarm.
        self.count_work(self.alarms.len() as u64);
        for i in 0..self.alarms.len() {
            let (alarm, url, was) = &self.alarms[i];
            let visible = self
                .queue_number(url, AttributeName::ApproximateNumberOfMessages)
                .unwrap_or(0);
            let now_in_alarm = visible >= alarm.threshold;
            if now_in_alarm != *was {
                let event = SimEvent::AlarmChanged {
                    alarm: alarm.name.as_str().into(),
                    queue: alarm.queue.as_str().into(),
                    in_alarm: now_in_alarm,
                    visible,
                };
                self.alarms[i].2 = now_in_alarm;
                self.emit(event);
            }
        }
    }

    pub fn snapshot(&self) -> SimulationSnapshot {
        self.snapshot_since(0)
    }

    /// [`Self::snapshot`], with only the side effects performed at or after
    /// event number `since` (a previous snapshot's `nextEventSeq`): a page
    /// that keeps the ledger itself reads only what changed, so a long run
    /// does not hand over its whole ledger every frame.
    pub fn snapshot_since(&self, since: u64) -> SimulationSnapshot {
        let mut snapshot = SimulationSnapshot {
            title: self.scenario.title.clone(),
            duration_ms: self.scenario.duration_ms,
            finished: self.now() >= self.scenario.duration_ms,
            narration: self.narration.clone(),
            // The observers' parts (the story's), filled in below.
            explanation: None,
            outcome: Outcome::default(),
            producers: self
                .producers
                .iter()
                .map(|p| ProducerSnapshot {
                    name: p.name.to_string(),
                    queue: queue_name(&p.url).to_string(),
                    sent: p.sent,
                    deduplicated: p.deduplicated,
                    failed: p.failed,
                })
                .collect(),
            workers: self.workers.iter().map(worker_snapshot).collect(),
            side_effects_omitted: self.ledger.omitted,
            side_effects: self
                .ledger
                .entries
                .iter()
                .zip(&self.ledger.seqs)
                .filter(|(_, &seq)| seq >= since)
                .map(|(s, _)| s.clone())
                .collect(),
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
        };
        for o in &self.observers {
            o.fill_snapshot(self.now(), &mut snapshot);
        }
        snapshot
    }

    /// Side effects per message, in the order they first happened: the
    /// first `MAX_SIDE_EFFECT_DETAILS` messages (see
    /// [`SimulationSnapshot::side_effects_omitted`]).
    pub fn side_effects(&self) -> &[SideEffect] {
        &self.ledger.entries
    }

    /// How many per-message records the run keeps now: what bounds its
    /// memory however many messages it handled.
    pub fn retained(&self) -> Retained {
        let (details, live, processed) = self.ledger.retained();
        let mut retained = Retained {
            side_effect_details: details,
            side_effect_counts: live,
            processed_ids: processed,
            ..Retained::default()
        };
        for o in &self.observers {
            o.count_retained(&mut retained);
        }
        retained
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
                .map(|(i, h)| {
                    let (body, body_truncated) = queuelab_engine::body_preview(&h.body);
                    HeldSnapshot {
                        message_id: h.message_id.clone(),
                        body: body.to_owned(),
                        body_bytes: h.body.len(),
                        body_truncated,
                        receive_count: h.receive_count,
                        current: i == *current,
                        done: i < *current,
                        failed: h.failed,
                    }
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

/// The names of a consumer's workers: its own, then `name-2`, `name-3`, …
/// for its `replicas`.
pub(crate) fn worker_names(c: &Consumer) -> Vec<String> {
    (1..=c.replicas.max(1))
        .map(|k| match k {
            1 => c.name.clone(),
            _ => format!("{}-{k}", c.name),
        })
        .collect()
}

pub(crate) fn queue_name(url: &str) -> Arc<str> {
    url.rsplit('/').next().unwrap_or(url).into()
}

/// CreateQueue's refusal, prefixed with the scenario field it concerns:
/// SQS names the attribute ("VisibilityTimeout"), the author wrote the
/// field ("visibilityTimeoutSeconds").
fn with_field(message: String) -> String {
    match scenario::QUEUE_FIELDS
        .iter()
        .find(|(_, attribute)| message.contains(attribute.as_str()))
    {
        Some((field, _)) => format!("{field}: {message}"),
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
    // Each whole-number attribute's typed value, found by its name.
    let ints: [fn(i64) -> QueueAttribute; 4] = [
        QueueAttribute::VisibilityTimeout,
        QueueAttribute::DelaySeconds,
        QueueAttribute::MessageRetentionPeriod,
        QueueAttribute::ReceiveMessageWaitTimeSeconds,
    ];
    for (_, attribute, value) in spec.seconds() {
        let make = ints.iter().find(|make| make(0).name() == attribute);
        if let (Some(make), Some(v)) = (make, value) {
            out.push(make(v));
        }
    }
    if let Some(v) = spec.content_based_deduplication {
        out.push(QueueAttribute::ContentBasedDeduplication(v));
    }
    if let Some(scope) = &spec.deduplication_scope {
        // `Scenario::validate` refused any other text before this.
        let scope = scenario::dedup_scope(scope).ok_or_else(|| {
            invalid(
                &format!("queue \"{}\"", spec.name),
                format!("deduplicationScope \"{scope}\""),
            )
        })?;
        out.push(QueueAttribute::DeduplicationScope(scope));
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
            text: String::new(),
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
