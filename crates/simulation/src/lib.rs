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

mod actors;
mod behaviours;
mod bill;
mod calls;
pub mod cloudwatch;
mod commands;
mod document;
pub mod lab;
pub mod lambda_runtime;
mod ledger;
pub mod log;
mod numbers;
mod observer;
mod observers;
pub mod payload;
mod rng;
pub mod s3;
pub mod scenario;
pub mod sns;
mod teach;
mod time_order;
mod units;
mod wall_clock;
mod work;
mod worker;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

pub use actors::{InvocationSnapshot, LambdaSnapshot, PendingInvocation};
pub use behaviours::behaviour_names;
pub use bill::{Bill, CallerBill};
pub use cloudwatch::{AlarmSnapshot, AlarmState, AlarmTransition, MetricsSnapshot};
pub use lab::check::{
    check_lab, run_seed, CheckFailure, CheckProgress, CheckReport, LabCheck, MovedProblem,
    CHECK_SEEDS, CHECK_WORK_BUDGET,
};
pub use lab::goal::{name_of, Breach, ConditionText, Measures};
pub use lab::view::{KnobChoice, KnobKind, KnobView, LabView};
pub use lab::{
    AlarmBy, Doc, Explain, Fix, Goal, Knob, KnobValue, LeastPrivilege, Need, NonFix, Off,
    OldestAge, Settings, Target, TopicBy, MAX_FIXES, MAX_NON_FIXES,
};
pub use ledger::{MAX_SIDE_EFFECT_DETAILS, MAX_SIDE_EFFECT_NAMES};
pub use log::{Kind, LogEvent, SimEvent};
pub use numbers::thousands;
pub use s3::{BucketSnapshot, NotificationSnapshot};
pub use scenario::*;
pub use teach::story::Outcome;
pub use units::BODY_BYTES_PER_UNIT;
pub use work::{ESTIMATE_FACTOR, MAX_SCENARIO_WORK, MAX_WORK_WITHOUT_ASKING};

use worker::{State, Worker};

use queuelab_engine::{
    AttributeName, AttributeSelection, Config, Engine, Millis, PollId, QueueAttribute,
    ReceivedMessage, RedrivePolicy, SqsError, SqsResult, Tags, TimeLimit, MAX_VIRTUAL_MS,
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
    /// ReceiveMessage requests the engine billed to this worker so far
    /// (empty ones included): what short and long polling cost.
    pub receive_requests: u64,
}

/// What one of the scenario's senders (a producer, or a schedule) has
/// done so far.
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

/// An SNS topic: what it published and what became of each subscription's
/// deliveries, for the page to draw the topic and its arrows.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TopicSnapshot {
    pub name: String,
    pub arn: String,
    pub fifo: bool,
    /// Publishes made (duplicates a FIFO topic dropped included).
    pub published: u64,
    /// Publishes a FIFO topic dropped as duplicates.
    pub deduplicated: u64,
    pub subscriptions: Vec<SubscriptionSnapshot>,
}

/// One queue subscribed to a topic, and what its deliveries came to.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionSnapshot {
    pub queue: String,
    pub raw_message_delivery: bool,
    /// It has a filter policy.
    pub filtered: bool,
    #[cfg_attr(feature = "contract", ts(optional))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dead_letter_queue: Option<String>,
    /// Messages the queue accepted.
    pub delivered: u64,
    /// Messages its filter policy kept from it.
    pub filtered_out: u64,
    /// Delivery attempts SQS refused.
    pub failed: u64,
    /// Messages sent to its dead-letter queue.
    pub dead_lettered: u64,
    /// Messages discarded.
    pub dropped: u64,
    /// Deliveries waiting for a retry.
    pub retrying: u64,
    /// The latest refusal: SQS's code and words.
    #[cfg_attr(feature = "contract", ts(optional))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_failure: Option<FailureSnapshot>,
}

/// A refused delivery, as SQS answered it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct FailureSnapshot {
    pub code: String,
    pub error: String,
    pub client_side: bool,
}

/// The simulation's part of a snapshot.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SimulationSnapshot {
    pub title: String,
    /// The scenario's summary, its `{placeholders}` filled from the run's
    /// settings (a learner's 5 s is said as 5 s).
    pub summary: String,
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
    /// The CloudWatch alarms, their states and changes of state.
    pub alarms: Vec<AlarmSnapshot>,
    /// The scenario's S3 buckets, their notifications' arrows and counts.
    pub buckets: Vec<BucketSnapshot>,
    /// SNS topics and their subscriptions.
    pub topics: Vec<TopicSnapshot>,
    /// Lambda functions, their event source mappings' pollers and the
    /// invocations running.
    pub lambdas: Vec<LambdaSnapshot>,
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

/// An engine with a scenario's producers and consumers running in it.
pub struct Simulation {
    engine: Engine,
    scenario: Scenario,
    /// Producers, schedules, buckets and topics (`actors/`), in registry order.
    actors: Vec<Box<dyn actors::Actor>>,
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
    /// Whether `advance` stops at the end of a moment an invocation was
    /// handed out to your code in (`lambda_runtime.rs`).
    pause_at_invocations: bool,
    /// A checkpoint was asked or answered since `advance` began.
    checkpointed: bool,
    narration: Option<String>,
    /// The scenario's summary with its `{placeholders}` filled in.
    summary: String,
    /// Long polls answered for callers other than the workers.
    external_answers: Vec<(PollId, SqsResult<Vec<ReceivedMessage>>)>,
    /// Processing times are drawn here, never from the engine's PRNG.
    rng: rng::SimRng,
    /// The engine's events and the simulation's, in one sequence.
    log: log::Log,
    /// Units of work done so far, counted as they happen (`work.rs`).
    work_done: u64,
    /// S3 requests made of the run's buckets (`s3/service.rs`), by the
    /// price class S3 bills them in (`bill.rs`).
    s3_requests: bill::S3Requests,
}

/// A scenario that cannot run: which part, and why.
fn invalid(what: &str, error: impl std::fmt::Display) -> SqsError {
    SqsError::invalid_parameter(format!("scenario {what}: {error}"))
}

impl Simulation {
    /// Whether `by` calls as the run's own account (the owner, or a caller
    /// of its account): the neighbours' APIs take no other (IAM is not
    /// modelled).
    pub(crate) fn is_own_account(&self, by: &queuelab_engine::Principal) -> bool {
        use queuelab_engine::Identity;
        match by.identity() {
            Identity::Owner => true,
            Identity::Account { account_id, .. } => *account_id == self.engine.config().account_id,
            Identity::Service { .. } => false,
        }
    }

    /// An engine with no scenario: an SQS endpoint and nothing else.
    pub fn empty(config: Config) -> Self {
        let scenario = Scenario {
            title: String::new(),
            summary: String::new(),
            seed: config.seed,
            throttling: false,
            start_epoch_ms: None,
            duration_ms: 0,
            keys: Vec::new(),
            queues: Vec::new(),
            producers: Vec::new(),
            schedule: Vec::new(),
            requesters: Vec::new(),
            responders: Vec::new(),
            consumers: Vec::new(),
            operators: Vec::new(),
            topics: Vec::new(),
            narration: Vec::new(),
            checkpoints: Vec::new(),
            metrics: None,
            alarms: Vec::new(),
            buckets: Vec::new(),
            lambdas: Vec::new(),
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
        let mut realism = config.realism.clone();
        realism.throttling |= scenario.throttling;
        let mut engine = Engine::new(Config {
            seed: scenario.seed,
            realism,
            // A scenario that names its start (its schedule's wall-clock
            // times count from it) keeps it whatever the host's.
            start_epoch_ms: scenario.start_epoch_ms.unwrap_or(config.start_epoch_ms),
            ..config
        });
        for key in &scenario.keys {
            engine
                .create_key(std::slice::from_ref(&key.alias), &key.allow)
                .map_err(|e| invalid(&format!("key \"{}\"", key.alias), e))?;
        }
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
        simulation.actors = actors::build(&scenario, &url_of, simulation.engine.config())?;
        for c in &scenario.consumers {
            let what = format!("consumer \"{}\"", c.name);
            let url = url_of(&what, &c.queue)?;
            // `replicas` identical workers, in listed order.
            for name in worker_names(c) {
                let spec = Consumer { name, ..c.clone() };
                let mut worker = Worker::new(spec, url.clone()).map_err(|e| invalid(&what, e))?;
                worker.start_epoch_ms = simulation.engine.config().start_epoch_ms;
                simulation.workers.push(worker);
            }
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
        // Not refused (a learner who removes a consumer in the editor still
        // runs the scenario): a summary that cannot be filled keeps its words.
        let summary = teach::placeholders::fill(&scenario.summary, &scenario)
            .unwrap_or_else(|_| scenario.summary.clone());
        Simulation {
            observers: observers::registered(&scenario),
            observed_to: 1,
            pause_at_checkpoints: false,
            pause_at_invocations: false,
            checkpointed: false,
            rng: rng::SimRng::new(engine.config().seed),
            log: log::Log::new(&engine),
            engine,
            scenario,
            actors: Vec::new(),
            workers: Vec::new(),
            ledger: ledger::Ledger::default(),
            narration: None,
            summary,
            external_answers: Vec::new(),
            work_done: 0,
            s3_requests: bill::S3Requests::default(),
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
            let handed_out = self.handed_out() && self.pause_at_invocations;
            if (self.checkpointed && self.pause_at_checkpoints) || handed_out {
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

    /// Makes [`Self::advance`] stop at the end of a moment an invocation
    /// was handed out to your code in, so a page can call the handler
    /// before virtual time moves on (a long advance could otherwise pass
    /// the invocation's timeout before the handler saw it); advancing
    /// again goes on. Off by default: the run is the same either way.
    pub fn pause_at_invocations(&mut self, on: bool) {
        self.pause_at_invocations = on;
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
        // Each observer reaches the moment and tells what it has, in
        // registry order; the later ones see what it told (the story
        // hears CloudWatch's alarm changes at the moment they happen).
        for i in 0..self.observers.len() {
            let ledger = &self.ledger;
            let moment = observer::Moment {
                now,
                ended: now >= self.scenario.duration_ms,
                meter: self.engine.meter(),
                engine: &self.engine,
                each_exactly: &|n: u64| ledger.each_exactly(n),
            };
            self.observers[i].reach(&moment);
            for event in self.observers[i].take_events(now) {
                for later in &mut self.observers[i + 1..] {
                    later.observe(now, observer::Seen::Sim(&event));
                }
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
                let acts =
                    matches!(&event, SimEvent::AlarmChanged { actions, .. } if !actions.is_empty());
                let acted = acts.then(|| event.clone());
                self.log.push(&self.engine, event);
                if let Some(event) = acted {
                    self.alarm_actions(&event);
                }
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
            .chain(self.actors.iter().map(|a| a.wake_at()))
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

    /// Everything due now: narration, senders, then workers, repeated
    /// while anything acted (a worker that finishes may receive at once),
    /// then the watchers, on the moment settled.
    fn act(&mut self) {
        let now = self.now();
        // Scene-setting lines come first, as before anything acts now.
        self.tell();
        self.step_actors(actors::Phase::Send, now);
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
        self.step_actors(actors::Phase::Watch, now);
        // Then the lines that what just happened triggered.
        self.tell();
    }

    /// Steps the actors of `phase` that are due (a watcher at every
    /// moment), carrying out their commands one actor at a time.
    fn step_actors(&mut self, phase: actors::Phase, now: Millis) {
        for index in 0..self.actors.len() {
            let actor = &self.actors[index];
            let due = match phase {
                actors::Phase::Send => actor.wake_at().is_some_and(|t| t <= now),
                // One read (GetQueueAttributes) at each of its steps.
                actors::Phase::Watch => true,
            };
            if actor.phase() != phase || !due {
                continue;
            }
            if phase == actors::Phase::Watch {
                self.count_work(1);
            }
            let commands = self.actors[index].step(now, &mut self.engine);
            self.execute(index, commands, now);
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
            let actor = self.actors.iter().position(|a| a.owns_poll(poll));
            match (owner, actor) {
                (Some(index), _) => self.deliver(index, result, now),
                (None, Some(index)) => {
                    let commands = self.actors[index].answered(now, poll, result, &mut self.engine);
                    self.execute(index, commands, now);
                }
                (None, None) => self.external_answers.push((poll, result)),
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
            summary: self.summary.clone(),
            duration_ms: self.scenario.duration_ms,
            finished: self.now() >= self.scenario.duration_ms,
            narration: self.narration.clone(),
            // The observers' parts (the story's), filled in below.
            explanation: None,
            outcome: Outcome::default(),
            producers: self.parts(|part| match part {
                actors::Part::Producer(p) => Some(p),
                _ => None,
            }),
            workers: self
                .workers
                .iter()
                .map(|w| worker_snapshot(w, receive_requests(self.engine.meter(), &w.name)))
                .collect(),
            side_effects_omitted: self.ledger.omitted,
            side_effects: self
                .ledger
                .entries
                .iter()
                .zip(&self.ledger.seqs)
                .filter(|(_, &seq)| seq >= since)
                .map(|(s, _)| s.clone())
                .collect(),
            // The CloudWatch observer's part, filled in below.
            alarms: Vec::new(),
            buckets: self.parts(|part| match part {
                actors::Part::Bucket(b) => Some(b),
                _ => None,
            }),
            topics: self.parts(|part| match part {
                actors::Part::Topic(t) => Some(t),
                _ => None,
            }),
            lambdas: self.parts(|part| match part {
                actors::Part::Lambda(l) => Some(l),
                _ => None,
            }),
        };
        for o in &self.observers {
            o.fill_snapshot(self.now(), &mut snapshot);
        }
        snapshot.outcome.bill = bill::Bill::of(self.engine.meter(), &self.s3_requests);
        snapshot
    }

    /// The actors' parts of a snapshot that `pick` keeps, in order.
    fn parts<T>(&self, pick: impl Fn(actors::Part) -> Option<T>) -> Vec<T> {
        self.actors
            .iter()
            .filter_map(|a| a.snapshot())
            .filter_map(pick)
            .collect()
    }

    /// The run's CloudWatch metrics, each with its datapoints from `from_ms`
    /// on (one per resolution step, by the step's start).
    pub fn metrics(&self, from_ms: Millis) -> MetricsSnapshot {
        observer::find::<cloudwatch::CloudWatch>(&self.observers)
            .map(|c| c.metrics(from_ms))
            .unwrap_or_default()
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

/// The ReceiveMessage requests billed to `name` (a loop over the meter's
/// few lines, not a map: a map of a new type costs the wasm kilobytes).
fn receive_requests(meter: &queuelab_engine::billing::Meter, name: &str) -> u64 {
    let mut n = 0;
    for (line, tally) in meter.lines() {
        if line.action == queuelab_engine::Action::ReceiveMessage
            && line.caller.as_deref() == Some(name)
        {
            n += tally.requests;
        }
    }
    n
}

fn worker_snapshot(w: &Worker, receive_requests: u64) -> WorkerSnapshot {
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
        receive_requests,
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

/// The queue an SQS ARN names (`arn:aws:sqs:<region>:<account>:<name>`)
/// and its URL, as a subscription's endpoint or a bucket's destination
/// names it; `None` for anything else.
pub(crate) fn queue_of_arn(arn: &str) -> Option<(&str, String)> {
    let parts: Vec<&str> = arn.split(':').collect();
    match parts[..] {
        ["arn", "aws", "sqs", region, account, name]
            if !region.is_empty() && account.len() == 12 && !name.is_empty() =>
        {
            Some((
                name,
                format!("https://sqs.{region}.amazonaws.com/{account}/{name}"),
            ))
        }
        _ => None,
    }
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
    let ints: [fn(i64) -> QueueAttribute; 5] = [
        QueueAttribute::VisibilityTimeout,
        QueueAttribute::DelaySeconds,
        QueueAttribute::MessageRetentionPeriod,
        QueueAttribute::ReceiveMessageWaitTimeSeconds,
        QueueAttribute::MaximumMessageSize,
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
    if let Some(limit) = &spec.fifo_throughput_limit {
        // `Scenario::validate` refused any other text before this.
        let limit = scenario::throughput_limit(limit).ok_or_else(|| {
            invalid(
                &format!("queue \"{}\"", spec.name),
                format!("fifoThroughputLimit \"{limit}\""),
            )
        })?;
        out.push(QueueAttribute::FifoThroughputLimit(limit));
    }
    out.extend(encryption_attributes(spec.encryption.as_ref()));
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
    if let Some(text) = spec.policy_text() {
        // `Scenario::validate` refused a policy SQS would not take.
        out.push(QueueAttribute::Policy(Some(queuelab_policy::read(&text)?)));
    }
    Ok(out)
}

/// The attributes a queue's `encryption` sets: none for SSE-SQS, SQS's
/// default for a new queue.
fn encryption_attributes(encryption: Option<&document::Encryption>) -> Vec<QueueAttribute> {
    use document::{Encryption, EncryptionName};
    match encryption {
        None | Some(Encryption::Named(EncryptionName::Sqs)) => Vec::new(),
        Some(Encryption::Named(EncryptionName::None)) => {
            vec![QueueAttribute::SqsManagedSseEnabled(false)]
        }
        Some(Encryption::Kms(kms)) => {
            let mut out = vec![QueueAttribute::KmsMasterKeyId(kms.kms_key.clone())];
            if let Some(seconds) = kms.data_key_reuse_period_seconds {
                out.push(QueueAttribute::KmsDataKeyReusePeriodSeconds(seconds));
            }
            out
        }
    }
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
