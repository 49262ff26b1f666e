//! A Lambda function and its Amazon SQS event source mapping, as the
//! Lambda developer guide describes the mapping ("Using Lambda with
//! Amazon SQS"): pollers long-poll the queue (WaitTimeSeconds 20, up to
//! 10 messages a receive, every attribute asked for) under the function's
//! name; each gathers a batch until it holds BatchSize records, its
//! batching window (from the batch's first record) ends, or the next
//! record would pass the 6 MB invocation payload; then it invokes the
//! function, and deletes what the function processed with
//! DeleteMessageBatch. What is not deleted returns to the queue when its
//! visibility timeout ends, and a batch held in the poller (gathering,
//! running or throttled) keeps its messages in flight all along.
//!
//! Standard queues: five pollers while messages are there, 300 more a
//! minute while a backlog lasts, back to five when the queue is empty,
//! never above MaximumConcurrency nor Lambda's 1,000 (docs/fidelity.md,
//! "Lambda event source mappings", has every number and its source). A
//! batch handed over while the function's reserved concurrency is all in
//! use is throttled; the poller retries it, 1 s then doubling, until its
//! messages' visibility timeout would have ended, then lets them go.
//!
//! The mapping is created at the run's start: Lambda refuses it, in its
//! words, when the function's timeout is above the queue's visibility
//! timeout, and then nothing polls.

mod event;
mod handler;
mod runtime;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

use queuelab_engine::{Config, Millis, PollId, ReceivedMessage, SqsResult};
use serde::Serialize;

use super::{Actor, Command, Outcome, Part, Reads, UrlOf};
use crate::document::{Lambda, ACCOUNT_CONCURRENCY, MAX_CONCURRENCY};
use crate::log::SimEvent;
use crate::rng::SimRng;
use crate::scenario::Scenario;
use event::{event_json, record_bytes, Source, EMPTY_EVENT_BYTES};
use handler::{read_response, Described, Handler, Ran, Returned};
pub(crate) use runtime::Answer;
pub use runtime::PendingInvocation;

/// Each receive's WaitTimeSeconds (long polling) and MaxNumberOfMessages.
pub(crate) const WAIT_TIME_SECONDS: i64 = 20;
pub(crate) const MESSAGES_PER_RECEIVE: i64 = 10;
/// Lambda's invocation payload quota for a synchronous invocation: 6 MB.
pub(crate) const MAX_PAYLOAD_BYTES: u64 = 6 * 1024 * 1024;
/// Pollers (concurrent batches) when messages are there, and the most
/// added each minute while a backlog lasts.
pub(crate) const START_POLLERS: u64 = 5;
pub(crate) const SCALE_STEP: u64 = 300;
pub(crate) const SCALE_EVERY_MS: Millis = 60_000;
/// A throttled batch's first retry, and the longest wait between retries.
const FIRST_RETRY_MS: Millis = 1_000;
const LAST_RETRY_MS: Millis = 300_000;
/// A receive that failed is tried again after one long poll's time.
const AFTER_FAILURE_MS: Millis = 20_000;
/// A poller gathering a batch receives again 1 ms after an answer with
/// messages (a receive's round trip), so a batch of 10,000 records is a
/// thousand receives over a second, not a thousand in one moment.
const RECEIVE_GAP_MS: Millis = 1;
/// The shortest invocation: Lambda bills by the millisecond, so even a
/// handler that does nothing returns a moment after it was invoked.
const SHORTEST_INVOCATION_MS: Millis = 1;
/// DeleteMessageBatch takes at most 10 entries.
const DELETE_ENTRIES: usize = 10;

/// The most running invocations a snapshot lists per function, and ids
/// it lists per invocation (Queuelab's choice: 1,000 invocations of
/// 10,000 records would be ten million ids in every frame; the counts say
/// the rest).
pub const MAX_SNAPSHOT_INVOCATIONS: usize = 100;
pub const MAX_SNAPSHOT_IDS: usize = 100;

/// What the page's snapshot shows of a function and its mapping.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LambdaSnapshot {
    pub name: String,
    pub queue: String,
    /// The mapping: `enabled` (it polls), `disabled` (created stopped),
    /// `refused` (Lambda refused to create it) or `creating` (before the
    /// run's first moment).
    #[cfg_attr(
        feature = "contract",
        ts(type = r#""creating" | "enabled" | "disabled" | "refused""#)
    )]
    pub state: &'static str,
    /// Pollers: the most batches the mapping hands over at once now.
    pub pollers: u64,
    /// Invocations running now.
    pub concurrency: u64,
    /// The first `MAX_SNAPSHOT_INVOCATIONS` (100) of them.
    pub running: Vec<InvocationSnapshot>,
    /// Invocations so far, those that ended in an error or a timeout, and
    /// throttled hand-overs.
    pub invocations: u64,
    pub errors: u64,
    pub throttles: u64,
}

/// One invocation running now: its batch and when it ends.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct InvocationSnapshot {
    pub invocation: u64,
    /// The batch's first `MAX_SNAPSHOT_IDS` (100) message ids, in order.
    pub messages: Vec<String>,
    /// How many messages the batch holds.
    pub size: u64,
    pub started_at: Millis,
    /// When it ends; while it waits for your code's answer (`awaiting`),
    /// its timeout: the latest it can end.
    pub ends_at: Millis,
    /// It waits for the answer of your code (the code cell's
    /// `lambda.attach`), not yet given.
    pub awaiting: bool,
}

/// A message a poller holds, with its share of the event's bytes.
struct Held {
    message: ReceivedMessage,
    bytes: u64,
    received_at: Millis,
}

/// Where one poller is in its loop.
enum Stage {
    /// Polls at `at`.
    Ready { at: Millis },
    /// Its long poll waits in the engine.
    Polling { poll: PollId },
    /// Its batch's window is open and nothing is waiting: it hands the
    /// batch over at `until`.
    Gathering { until: Millis },
    /// Its batch is with the function until `ends_at`. `ran` is what the
    /// invocation came to, or None while it waits for the learner's code
    /// to answer (`runtime.rs`): then it ends at the answer, never before
    /// `ends_at` (the scenario's duration), and at `deadline` (its
    /// timeout) if no answer came by then.
    Running {
        invocation: u64,
        started_at: Millis,
        ends_at: Millis,
        deadline: Millis,
        ran: Option<Ran>,
    },
    /// Its batch was throttled: it tries again at `retry_at`, then waits
    /// twice `wait`.
    Throttled { retry_at: Millis, wait: Millis },
    /// Scaled down: it no longer polls.
    Retired,
}

struct Poller {
    stage: Stage,
    batch: Vec<Held>,
    /// When the batch's window ends (from its first record).
    window_ends: Millis,
    /// Records received past the 6 MB cut: the next batch's first.
    carry: Vec<Held>,
}

impl Poller {
    fn new(at: Millis) -> Self {
        Poller {
            stage: Stage::Ready { at },
            batch: Vec::new(),
            window_ends: 0,
            carry: Vec::new(),
        }
    }

    fn bytes(&self) -> u64 {
        self.batch.iter().map(|h| h.bytes).sum()
    }

    /// When it acts by itself next.
    fn wake_at(&self) -> Option<Millis> {
        match self.stage {
            Stage::Ready { at } => Some(at),
            Stage::Gathering { until } => Some(until),
            Stage::Running {
                ends_at,
                deadline,
                ref ran,
                ..
            } => match ran {
                Some(_) => Some(ends_at.min(deadline)),
                None => Some(deadline),
            },
            Stage::Throttled { retry_at, .. } => Some(retry_at),
            Stage::Polling { .. } | Stage::Retired => None,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Created {
    Not,
    Enabled,
    Disabled,
    Refused,
}

/// A command and, for a receive, the poller it is for.
type Given = (Command, Option<usize>);

pub(crate) struct Mapping {
    name: Arc<str>,
    queue: Arc<str>,
    url: String,
    index: usize,
    spec: Lambda,
    report_failures: bool,
    handler: Box<dyn Handler>,
    /// The learner's code answers the invocations that start from now on
    /// (`runtime.rs`); otherwise the scenario's described handler does.
    yours: bool,
    /// An invocation was handed out to your code since the run last asked.
    handed_out: bool,
    created: Created,
    arn: String,
    region: String,
    /// The queue's visibility timeout, as last read.
    visibility_ms: Millis,
    pollers: Vec<Poller>,
    /// How many pollers poll now, and the most there may be.
    target: u64,
    cap: u64,
    /// The next look at the backlog (None: no messages seen since the last).
    next_scale_at: Option<Millis>,
    invocations: u64,
    errors: u64,
    throttles: u64,
    /// The poller of each command given and not yet told of (None: not a
    /// receive), in the order they are carried out.
    issued: VecDeque<Option<usize>>,
    /// Receives' outcomes told and not yet acted on.
    told: Vec<(usize, Outcome)>,
    /// The messages its pollers hold (batches and what was cut off at
    /// 6 MB), by id, with how many copies (a message delivered again while
    /// held is held twice).
    held: BTreeMap<String, u32>,
}

pub(crate) fn build(
    scenario: &Scenario,
    url_of: UrlOf,
    config: &Config,
) -> SqsResult<Vec<Box<dyn Actor>>> {
    let mut out: Vec<Box<dyn Actor>> = Vec::new();
    for (index, l) in scenario.lambdas.iter().enumerate() {
        let url = url_of(&format!("lambda \"{}\"", l.name), &l.queue)?;
        let fifo = l.queue.ends_with(".fifo");
        let report_failures = l
            .function_response_types
            .iter()
            .any(|t| t == crate::scenario::REPORT_BATCH_ITEM_FAILURES);
        // Each function draws from its own stream, so adding a function
        // shifts no worker's processing times.
        let rng = SimRng::for_part(scenario.seed, index as u64 + 1);
        let handler = Described::new(l.handler.clone(), report_failures, fifo, rng);
        let cap = l
            .maximum_concurrency
            .unwrap_or(MAX_CONCURRENCY)
            .clamp(1, MAX_CONCURRENCY) as u64;
        out.push(Box::new(Mapping {
            name: l.name.as_str().into(),
            queue: l.queue.as_str().into(),
            url,
            index,
            spec: l.clone(),
            report_failures,
            handler: Box::new(handler),
            yours: false,
            handed_out: false,
            created: Created::Not,
            arn: String::new(),
            region: config.region.clone(),
            visibility_ms: 30_000,
            pollers: Vec::new(),
            target: START_POLLERS.min(cap),
            cap,
            next_scale_at: None,
            invocations: 0,
            errors: 0,
            throttles: 0,
            issued: VecDeque::new(),
            told: Vec::new(),
            held: BTreeMap::new(),
        }));
    }
    Ok(out)
}

impl Mapping {
    fn timeout_ms(&self) -> Millis {
        self.spec.timeout_seconds.max(0) as u64 * 1000
    }

    fn log(event: SimEvent) -> Given {
        (Command::Log(event), None)
    }

    /// CreateEventSourceMapping: refused, as Lambda refuses it, when the
    /// function's timeout is above the queue's visibility timeout.
    fn create(&mut self, now: Millis, seen: &mut Reads) -> Vec<Given> {
        let visibility = seen.visibility_timeout(&self.url).unwrap_or(30);
        self.arn = seen.queue_arn(&self.url).unwrap_or_default();
        if let Some(region) = self.arn.split(':').nth(3) {
            self.region = region.to_owned();
        }
        let timeout = self.spec.timeout_seconds.max(0) as u64;
        if timeout > visibility {
            self.created = Created::Refused;
            return vec![Self::log(SimEvent::EventSourceMappingRefused {
                function: self.name.clone(),
                queue: self.queue.clone(),
                code: "InvalidParameterValueException",
                error: format!(
                    "Queue visibility timeout: {visibility} seconds is less than Function \
                     timeout: {timeout} seconds"
                ),
            })];
        }
        if !self.spec.enabled {
            self.created = Created::Disabled;
            return Vec::new();
        }
        self.created = Created::Enabled;
        for _ in 0..self.target {
            self.pollers.push(Poller::new(now));
        }
        Vec::new()
    }

    /// Once a minute while messages come: 300 more pollers while a
    /// backlog is visible, back to five once the queue is empty.
    fn scale(&mut self, now: Millis, seen: &mut Reads) -> Vec<Given> {
        let base = START_POLLERS.min(self.cap);
        let backlog = seen.visible(&self.url).unwrap_or(0) > 0;
        let before = self.target;
        if backlog {
            self.target = (self.target + SCALE_STEP).min(self.cap);
            self.next_scale_at = Some(now + SCALE_EVERY_MS);
        } else {
            self.target = base;
            self.next_scale_at = None;
        }
        let target = self.target as usize;
        for p in self.pollers.iter_mut().take(target) {
            if matches!(p.stage, Stage::Retired) {
                p.stage = Stage::Ready { at: now };
            }
        }
        while self.pollers.len() < target {
            self.pollers.push(Poller::new(now));
        }
        if self.target == before {
            return Vec::new();
        }
        vec![Self::log(SimEvent::LambdaScaled {
            function: self.name.clone(),
            pollers: self.target,
        })]
    }

    /// Poller `p`'s next receive (or its retirement, past the target).
    fn poll(&mut self, p: usize, now: Millis) -> Vec<Given> {
        let batch_size = self.spec.batch_size.max(1) as usize;
        let poller = &mut self.pollers[p];
        if p as u64 >= self.target && poller.batch.is_empty() && poller.carry.is_empty() {
            poller.stage = Stage::Retired;
            return Vec::new();
        }
        let room = batch_size.saturating_sub(poller.batch.len()).max(1) as i64;
        let wait = match poller.batch.is_empty() {
            true => WAIT_TIME_SECONDS,
            false => {
                ((poller.window_ends.saturating_sub(now) / 1000) as i64).min(WAIT_TIME_SECONDS)
            }
        };
        // Until the engine answers: a long poll then waits.
        poller.stage = Stage::Ready { at: now };
        vec![(
            Command::Receive {
                queue_url: self.url.clone(),
                max_number_of_messages: room.min(MESSAGES_PER_RECEIVE),
                wait_time_seconds: wait,
            },
            Some(p),
        )]
    }

    /// Poller `p`'s receive returned `messages` (perhaps none) at `now`.
    fn took(&mut self, p: usize, messages: Vec<ReceivedMessage>, now: Millis) -> Vec<Given> {
        let nothing = messages.is_empty();
        if !nothing && self.next_scale_at.is_none() {
            self.next_scale_at = Some(now + SCALE_EVERY_MS);
        }
        let window_ms = self.spec.maximum_batching_window_in_seconds.max(0) as u64 * 1000;
        let source = Source {
            arn: &self.arn,
            region: &self.region,
        };
        let poller = &mut self.pollers[p];
        if !nothing && poller.batch.is_empty() {
            poller.window_ends = now + window_ms;
        }
        let mut bytes = poller.bytes();
        for message in messages {
            *self.held.entry(message.message_id.clone()).or_default() += 1;
            let held = Held {
                bytes: record_bytes(&message, &source),
                message,
                received_at: now,
            };
            let over = EMPTY_EVENT_BYTES + bytes + held.bytes > MAX_PAYLOAD_BYTES;
            if !poller.carry.is_empty() || (!poller.batch.is_empty() && over) {
                poller.carry.push(held);
            } else {
                bytes += held.bytes;
                poller.batch.push(held);
            }
        }
        self.next(p, now, nothing)
    }

    /// What poller `p` does after a receive: hands its batch over, polls
    /// for more, or waits for its window to end.
    fn next(&mut self, p: usize, now: Millis, got_nothing: bool) -> Vec<Given> {
        let batch_size = self.spec.batch_size.max(1) as usize;
        let poller = &mut self.pollers[p];
        if poller.batch.is_empty() {
            return self.poll(p, now);
        }
        let full = poller.batch.len() >= batch_size || !poller.carry.is_empty();
        if full || now >= poller.window_ends {
            return self.hand_over(p, now);
        }
        if got_nothing && poller.window_ends - now < 1000 {
            poller.stage = Stage::Gathering {
                until: poller.window_ends,
            };
            return Vec::new();
        }
        if got_nothing {
            return self.poll(p, now);
        }
        poller.stage = Stage::Ready {
            at: now + RECEIVE_GAP_MS,
        };
        Vec::new()
    }

    /// Poller `p` invokes the function with its batch, unless no
    /// concurrency is free: then the invocation is throttled.
    fn hand_over(&mut self, p: usize, now: Millis) -> Vec<Given> {
        let running = self.running();
        let reserved = self
            .spec
            .reserved_concurrency
            .unwrap_or(ACCOUNT_CONCURRENCY);
        let ids: Vec<String> = (self.pollers[p].batch.iter())
            .map(|h| h.message.message_id.clone())
            .collect();
        if running >= reserved.max(0) as u64 {
            return self.throttle(p, now, ids);
        }
        self.invocations += 1;
        let invocation = self.invocations;
        let source = Source {
            arn: &self.arn,
            region: &self.region,
        };
        let messages: Vec<ReceivedMessage> = (self.pollers[p].batch.iter())
            .map(|h| h.message.clone())
            .collect();
        let event = event_json(&messages, &source);
        let timeout_ms = self.timeout_ms();
        let deadline = now.saturating_add(timeout_ms);
        // The learner's code answers later (its answer is an input of the
        // run, `runtime.rs`); the described handler's run is known now.
        let (duration_ms, ran) = match self.yours {
            true => {
                self.handed_out = true;
                (self.handler.duration(&event), None)
            }
            false => {
                let ran = self.handler.invoke(&event, timeout_ms);
                (ran.duration_ms, Some(ran))
            }
        };
        self.pollers[p].stage = Stage::Running {
            invocation,
            started_at: now,
            ends_at: now.saturating_add(duration_ms.max(SHORTEST_INVOCATION_MS)),
            deadline,
            ran,
        };
        vec![Self::log(SimEvent::LambdaInvoked {
            function: self.name.clone(),
            invocation,
            messages: ids,
            bytes: event.len() as u64,
        })]
    }

    /// The batch waits in the poller, its messages in flight, and is
    /// tried again; once their visibility timeout would have ended, the
    /// poller lets them go (they are back in the queue).
    fn throttle(&mut self, p: usize, now: Millis, ids: Vec<String>) -> Vec<Given> {
        self.throttles += 1;
        let visibility_ms = self.visibility_ms;
        let poller = &mut self.pollers[p];
        let wait = match poller.stage {
            Stage::Throttled { wait, .. } => (wait * 2).min(LAST_RETRY_MS),
            _ => FIRST_RETRY_MS,
        };
        let received = poller
            .batch
            .iter()
            .map(|h| h.received_at)
            .min()
            .unwrap_or(now);
        let mut out = vec![Self::log(SimEvent::LambdaThrottled {
            function: self.name.clone(),
            messages: ids,
        })];
        if now + wait >= received.saturating_add(visibility_ms) {
            let mut dropped = std::mem::take(&mut poller.batch);
            dropped.append(&mut poller.carry);
            out.extend(self.release(&dropped));
            out.extend(self.poll(p, now));
        } else {
            poller.stage = Stage::Throttled {
                retry_at: now + wait,
                wait,
            };
        }
        out
    }

    /// Poller `p`'s invocation ended: what Lambda makes of its result,
    /// the deletes, and the poller's next batch.
    fn finish(&mut self, p: usize, now: Millis) -> Vec<Given> {
        let poller = &mut self.pollers[p];
        let Stage::Running {
            invocation,
            started_at,
            ends_at,
            deadline,
            ran,
        } = std::mem::replace(&mut poller.stage, Stage::Ready { at: now })
        else {
            return Vec::new();
        };
        // No answer by the timeout, or one that came too late to end the
        // work in time: Lambda stops the invocation at its timeout.
        let ran = match ran {
            Some(ran) if ends_at <= deadline => ran,
            _ => Ran {
                duration_ms: deadline.saturating_sub(started_at),
                returned: Returned::TimedOut,
                performed: Vec::new(),
            },
        };
        let batch = std::mem::take(&mut poller.batch);
        let ids: Vec<String> = batch.iter().map(|h| h.message.message_id.clone()).collect();
        // What the code did, whatever Lambda makes of its result.
        let performed: BTreeSet<&String> = ran.performed.iter().collect();
        let mut out: Vec<Given> = (batch.iter())
            .filter(|h| performed.contains(&h.message.message_id))
            .map(|h| {
                let perform = Command::Perform {
                    message_id: h.message.message_id.clone(),
                    body: queuelab_engine::echo(&h.message.body).into_owned(),
                    effect: self.spec.handler.side_effect.clone(),
                };
                (perform, None)
            })
            .collect();
        out.extend(self.release(&batch));
        let (result, failed, why) = match ran.returned {
            Returned::TimedOut => ("timeout", ids.clone(), None),
            Returned::Error(_) => ("error", ids.clone(), None),
            Returned::Thrown(words) => ("error", ids.clone(), Some(words)),
            Returned::Response(_) if !self.report_failures => ("success", Vec::new(), None),
            Returned::Response(text) => match read_response(&text, &ids) {
                Ok(failed) if failed.is_empty() => ("success", failed, None),
                Ok(failed) => ("partial", failed, None),
                Err(why) => ("invalidResponse", ids.clone(), Some(why)),
            },
        };
        if matches!(result, "timeout" | "error") {
            self.errors += 1;
        }
        out.push(Self::log(SimEvent::LambdaReturned {
            function: self.name.clone(),
            invocation,
            duration_ms: now - started_at,
            result,
            failed: failed.clone(),
            why,
        }));
        let failing: BTreeSet<&String> = failed.iter().collect();
        let done: Vec<&Held> = batch
            .iter()
            .filter(|h| !failing.contains(&h.message.message_id))
            .collect();
        for chunk in done.chunks(DELETE_ENTRIES) {
            let entries = chunk
                .iter()
                .enumerate()
                .map(|(i, h)| (i.to_string(), h.message.receipt_handle.clone()))
                .collect();
            out.push((
                Command::DeleteBatch {
                    queue_url: self.url.clone(),
                    entries,
                },
                None,
            ));
        }
        // The records cut off at 6 MB start the next batch.
        let window_ms = self.spec.maximum_batching_window_in_seconds.max(0) as u64 * 1000;
        let poller = &mut self.pollers[p];
        poller.batch = std::mem::take(&mut poller.carry);
        if let Some(first) = poller.batch.first() {
            poller.window_ends = first.received_at + window_ms;
        }
        out.extend(self.next(p, now, false));
        out
    }

    /// Its pollers let `held` go: each message no copy of which is held
    /// any more is done with.
    fn release(&mut self, held: &[Held]) -> Vec<Given> {
        let mut out = Vec::new();
        for h in held {
            let id = &h.message.message_id;
            let Some(copies) = self.held.get_mut(id) else {
                continue;
            };
            *copies -= 1;
            if *copies == 0 {
                self.held.remove(id);
                let done = Command::DoneWith {
                    message_id: id.clone(),
                };
                out.push((done, None));
            }
        }
        out
    }

    fn running(&self) -> u64 {
        let running = self
            .pollers
            .iter()
            .filter(|p| matches!(p.stage, Stage::Running { .. }));
        running.count() as u64
    }

    /// Poller `p` is due at `now`.
    fn wake(&mut self, p: usize, now: Millis) -> Vec<Given> {
        match self.pollers[p].stage {
            Stage::Ready { .. } => self.poll(p, now),
            Stage::Gathering { .. } | Stage::Throttled { .. } => self.hand_over(p, now),
            Stage::Running { .. } => self.finish(p, now),
            Stage::Polling { .. } | Stage::Retired => Vec::new(),
        }
    }

    /// A receive of poller `p` failed (the run logged why): what it held
    /// goes to the function, or it tries again after a while.
    fn receive_failed(&mut self, p: usize, now: Millis) -> Vec<Given> {
        if self.pollers[p].batch.is_empty() {
            self.pollers[p].stage = Stage::Ready {
                at: now + AFTER_FAILURE_MS,
            };
            return Vec::new();
        }
        self.hand_over(p, now)
    }

    /// The commands to give, each receive's poller noted, at the front of
    /// what is still to be carried out (`front`: follow-ups) or behind it.
    fn give(&mut self, given: Vec<Given>, front: bool) -> Vec<Command> {
        let (commands, pollers): (Vec<Command>, Vec<Option<usize>>) = given.into_iter().unzip();
        match front {
            true => {
                for p in pollers.into_iter().rev() {
                    self.issued.push_front(p);
                }
            }
            false => self.issued.extend(pollers),
        }
        commands
    }
}

impl Actor for Mapping {
    fn name(&self) -> &Arc<str> {
        &self.name
    }

    fn wake_at(&self) -> Option<Millis> {
        if self.created == Created::Not {
            return Some(0);
        }
        let pollers = self.pollers.iter().filter_map(Poller::wake_at);
        pollers.chain(self.next_scale_at).min()
    }

    fn step(&mut self, now: Millis, seen: &mut Reads) -> Vec<Command> {
        let mut out = Vec::new();
        if self.created == Created::Not {
            out.extend(self.create(now, seen));
        }
        if self.created != Created::Enabled {
            return self.give(out, false);
        }
        self.visibility_ms = seen.visibility_timeout(&self.url).unwrap_or(30) * 1000;
        if self.next_scale_at.is_some_and(|t| t <= now) {
            out.extend(self.scale(now, seen));
        }
        for p in 0..self.pollers.len() {
            if self.pollers[p].wake_at().is_some_and(|t| t <= now) {
                out.extend(self.wake(p, now));
            }
        }
        self.give(out, false)
    }

    fn outcome(&mut self, outcome: &Outcome) {
        if let Some(Some(p)) = self.issued.pop_front() {
            self.told.push((p, outcome.clone()));
        }
    }

    fn follow_up(&mut self, now: Millis) -> Vec<Command> {
        let mut out = Vec::new();
        for (p, outcome) in std::mem::take(&mut self.told) {
            out.extend(match outcome {
                Outcome::Received(messages) => self.took(p, messages, now),
                Outcome::Waiting(poll) => {
                    self.pollers[p].stage = Stage::Polling { poll };
                    Vec::new()
                }
                _ => self.receive_failed(p, now),
            });
        }
        self.give(out, true)
    }

    fn holds(&self, message_id: &str) -> bool {
        self.held.contains_key(message_id)
    }

    fn mapping(&mut self) -> Option<&mut Mapping> {
        Some(self)
    }

    fn as_mapping(&self) -> Option<&Mapping> {
        Some(self)
    }

    fn owns_poll(&self, poll: PollId) -> bool {
        (self.pollers.iter()).any(|p| matches!(p.stage, Stage::Polling { poll: q } if q == poll))
    }

    fn answered(
        &mut self,
        now: Millis,
        poll: PollId,
        result: SqsResult<Vec<ReceivedMessage>>,
        seen: &mut Reads,
    ) -> Vec<Command> {
        let owner = (self.pollers.iter())
            .position(|p| matches!(p.stage, Stage::Polling { poll: q } if q == poll));
        let Some(p) = owner else {
            return Vec::new();
        };
        self.visibility_ms = seen.visibility_timeout(&self.url).unwrap_or(30) * 1000;
        let given = match result {
            Ok(messages) => self.took(p, messages, now),
            Err(error) => {
                let failed = SimEvent::action_failed(&self.name, "ReceiveMessage", error);
                let mut out = vec![Self::log(failed)];
                out.extend(self.receive_failed(p, now));
                out
            }
        };
        self.give(given, false)
    }

    fn snapshot(&self) -> Option<Part> {
        let state = match self.created {
            Created::Not => "creating",
            Created::Enabled => "enabled",
            Created::Disabled => "disabled",
            Created::Refused => "refused",
        };
        let running = (self.pollers.iter())
            .filter_map(|p| match &p.stage {
                Stage::Running {
                    invocation,
                    started_at,
                    ends_at,
                    deadline,
                    ran,
                } => Some(InvocationSnapshot {
                    invocation: *invocation,
                    messages: (p.batch.iter().take(MAX_SNAPSHOT_IDS))
                        .map(|h| h.message.message_id.clone())
                        .collect(),
                    size: p.batch.len() as u64,
                    started_at: *started_at,
                    ends_at: match ran {
                        Some(_) => *ends_at.min(deadline),
                        None => *deadline,
                    },
                    awaiting: ran.is_none(),
                }),
                _ => None,
            })
            .take(MAX_SNAPSHOT_INVOCATIONS)
            .collect::<Vec<_>>();
        let pollers = match self.created {
            Created::Enabled => self.target,
            _ => 0,
        };
        Some(Part::Lambda(LambdaSnapshot {
            name: self.name.to_string(),
            queue: self.queue.to_string(),
            state,
            pollers,
            concurrency: self.running(),
            running,
            invocations: self.invocations,
            errors: self.errors,
            throttles: self.throttles,
        }))
    }

    fn place(&self) -> Option<String> {
        Some(format!("lambdas[{}]", self.index))
    }

    fn own_work(
        &self,
        now: Millis,
        until: Millis,
        arriving: &dyn Fn(&str) -> (u64, u64),
    ) -> Option<u64> {
        let arriving = arriving(&self.url);
        // Pollers past the first five poll only after a look at the
        // backlog, a minute after messages came: none before then.
        let scales_by = match self.target > START_POLLERS.min(self.cap) {
            true => now,
            false => now.saturating_add(SCALE_EVERY_MS),
        };
        Some(work::estimate(
            &self.spec,
            self.cap,
            (now, scales_by),
            until,
            arriving,
        ))
    }
}

mod work {
    //! A mapping's part of the work estimate (`work.rs`): its idle long
    //! polls, each message's receives, invocation and delete, and the
    //! empty polls of pollers scaled up for a backlog.

    use queuelab_engine::Millis;

    use super::{SCALE_EVERY_MS, START_POLLERS, WAIT_TIME_SECONDS};
    use crate::document::Lambda;

    /// An empty long poll: the wake, the action, the call, its time-out.
    const PER_POLL: u64 = 5;
    /// One message: its receive's share, the event (built and read), the
    /// invocation's wake and its share of a delete, a visibility timer.
    const PER_MESSAGE: u64 = 8;

    /// `scales_by`: the first moment pollers past the first five may poll
    /// (now, if the mapping has scaled already).
    pub(super) fn estimate(
        spec: &Lambda,
        cap: u64,
        (now, scales_by): (Millis, Millis),
        until: Millis,
        (sends, units): (u64, u64),
    ) -> u64 {
        if !spec.enabled || until <= now {
            return 0;
        }
        let span = until - now;
        let poll_ms = WAIT_TIME_SECONDS as u64 * 1000;
        let base = START_POLLERS.min(cap);
        let idle = base
            .saturating_mul(span / poll_ms + 1)
            .saturating_mul(PER_POLL);
        // A handler that can fail sees a message again after each
        // visibility timeout (taken here as the shortest, 1 s a retry is
        // too high: a minute).
        let h = &spec.handler;
        let can_fail = !h.fails_on.is_empty() || h.fail_every_nth > 0 || !h.times_out_on.is_empty();
        let rounds = match can_fail {
            true => (span / 60_000).clamp(1, 1_000),
            false => 1,
        };
        let messages = sends
            .saturating_mul(PER_MESSAGE)
            .saturating_add(units.saturating_mul(3))
            .saturating_mul(rounds);
        // Pollers past the first five poll while a backlog lasts, and for
        // up to a minute after it: at most a minute per message sent.
        let minutes = match until.checked_sub(scales_by) {
            Some(scaling) => (scaling / SCALE_EVERY_MS + 1).min(sends),
            None => 0,
        };
        let scaled = (cap - base)
            .saturating_mul(60_000 / poll_ms)
            .saturating_mul(PER_POLL)
            .saturating_mul(minutes);
        idle.saturating_add(messages).saturating_add(scaled)
    }
}
