//! Actors: the parts of a scenario that act by themselves in virtual time
//! (producers, schedules, buckets, topics, Lambda's event source mappings,
//! whose long polls the run hands back through [`Actor::answered`];
//! workers are actors too, with their own
//! vocabulary in `worker.rs` and `behaviours/`). Like stateright's actors,
//! an actor says when it next wants to act ([`Actor::wake_at`]) and, when
//! stepped, answers with [`Command`]s: data, never engine calls. The run
//! (`Simulation::act` in `lib.rs`) steps each at its moments, and
//! `commands.rs` carries every command out, in one place, under the
//! actor's name, telling it what became of each ([`Actor::outcome`]).
//!
//! A new actor is one file here, one scenario section (`scenario.rs`) and
//! one row of [`REGISTRY`] (ARCHITECTURE.md, "How to add … an actor").

mod agenda;
mod bucket;
mod lambda;
mod operator;
mod producer;
mod requester;
mod responder;
mod schedule;
mod topic;

pub(crate) use bucket::{created as created_bucket, BucketActor};
pub(crate) use lambda::{Answer, Mapping};
pub use lambda::{InvocationSnapshot, LambdaSnapshot, PendingInvocation};
pub(crate) use topic::Topic;

use std::collections::BTreeMap;
use std::sync::Arc;

use queuelab_engine::{
    AttributeValue, Config, MessageAttribute, Millis, NewMessage, PollId, Principal,
    QueueAttribute, ReceivedMessage, SqsError, SqsResult,
};

use crate::log::SimEvent;
use crate::scenario::{Scenario, ScheduledSend};
use crate::{BucketSnapshot, ProducerSnapshot, TopicSnapshot};

/// What an actor asks of the run. `commands.rs` carries it out.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Command {
    /// SendMessage of `message` to the queue at `queue_url`, as the owner
    /// under the actor's name, or as the scenario's `account` for it. A
    /// refusal is the run's `actionFailed`, as for any caller.
    Send {
        queue_url: String,
        message: NewMessage,
        account: Option<Principal>,
    },
    /// SendMessageBatch of `messages` (at most ten) to the queue at
    /// `queue_url`, as `Send` makes them; entries are numbered from 0. A
    /// refused call, or entry, is the run's `actionFailed`.
    SendBatch {
        queue_url: String,
        messages: Vec<NewMessage>,
        account: Option<Principal>,
    },
    /// SendMessage of `message` to the queue at `queue_url` made as
    /// `principal` (an AWS service sending for a resource: an SNS topic's
    /// delivery, an S3 bucket's notification). Its outcome is `Sent`,
    /// `Deduplicated` or `Refused` with SQS's error; the run logs no
    /// `actionFailed` for it (the actor tells of a refusal in its own words).
    SendAs {
        queue_url: String,
        message: NewMessage,
        principal: Principal,
    },
    /// CreateQueue `name` with these attributes (a requester's reply queue).
    CreateQueue {
        name: String,
        attributes: Vec<QueueAttribute>,
    },
    /// DeleteQueue of the queue at `queue_url`.
    DeleteQueue { queue_url: String },
    /// PurgeQueue of the queue at `queue_url`.
    PurgeQueue { queue_url: String },
    /// StartMessageMoveTask from the dead-letter queue at `source_url`
    /// (to `destination_url`, else back to each message's source).
    StartMoveTask {
        source_url: String,
        destination_url: Option<String>,
        rate: Option<i64>,
    },
    /// CancelMessageMoveTask of the task with this handle.
    CancelMoveTask { handle: String },
    /// AddPermission on the queue, made by the actor (the queues' own account).
    AddPermission {
        queue_url: String,
        request: queuelab_engine::AddPermission,
    },
    /// KMS DisableKey or EnableKey of the key named `key` (not an SQS call).
    SetKeyState {
        key: String,
        state: queuelab_engine::KeyState,
    },
    /// ReceiveMessage from the queue at `queue_url` as the owner under the
    /// actor's name, every attribute asked for (`AttributeNames` and
    /// `MessageAttributeNames` All, as Lambda's pollers ask). Its outcome
    /// is `Received`, `Waiting` (a long poll: its answer comes through
    /// [`Actor::answered`]) or `Failed`.
    Receive {
        queue_url: String,
        max_number_of_messages: i64,
        wait_time_seconds: i64,
    },
    /// DeleteMessageBatch of these (entry id, receipt handle) pairs, at
    /// most 10, as the owner under the actor's name. A failed entry is
    /// logged as the run's `actionFailed`; the outcome is `Done`, or
    /// `Failed` when SQS refused the whole call.
    DeleteBatch {
        queue_url: String,
        entries: Vec<(String, String)>,
    },
    /// The side effect `effect` of a function's code on a message (a
    /// Lambda handler's), counted in the run's side-effect ledger under
    /// the actor's name, as a worker's is.
    Perform {
        message_id: String,
        body: String,
        effect: String,
    },
    /// It no longer holds the message `message_id` (a Lambda poller let
    /// its batch go): the side-effect ledger may forget a message that
    /// left the queue while held.
    DoneWith { message_id: String },
    /// PutObject of `body` as `key` in `bucket`, through the run's S3 API
    /// (`Simulation::s3`) as the owner under the actor's name: a sender's
    /// payload. Its outcome is `S3` with S3's answer.
    PutObject {
        bucket: String,
        key: String,
        body: String,
    },
    /// Logs a simulation event at this moment.
    Log(SimEvent),
}

/// What became of a command, told back to the actor that gave it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Outcome {
    /// A send stored a new message, SQS's `message_id` for it.
    Sent { message_id: String },
    /// SQS accepted a FIFO send but dropped it as a duplicate.
    Deduplicated,
    /// A queue was created at this URL.
    Created { queue_url: String },
    /// A queue was deleted.
    Deleted,
    /// A queue was purged, or a move task cancelled.
    Done,
    /// A move task started; its handle cancels it.
    MoveStarted { handle: String },
    /// SQS refused the call (the run logged an `actionFailed` event).
    Failed,
    /// A SendMessageBatch: how many of its messages were stored, dropped
    /// as duplicates, and refused (the whole call's, or their entries').
    Batch {
        sent: u64,
        deduplicated: u64,
        failed: u64,
    },
    /// SQS refused a `SendAs`, with its error (nothing logged: the actor
    /// says what the refusal means for it).
    Refused(SqsError),
    /// Logged.
    Logged,
    /// A receive returned these messages (perhaps none).
    Received(Vec<ReceivedMessage>),
    /// A long poll waits in the engine.
    Waiting(PollId),
    /// S3 answered a call (nothing logged: the actor says what a refusal
    /// means for it).
    S3(Result<crate::s3::api::S3Answer, crate::s3::api::S3Error>),
}

/// What an actor may read when it steps: what any caller may read, never
/// a change (`commands.rs` implements it for the engine, through its
/// public API).
pub(crate) trait Observe {
    /// A queue's ApproximateNumberOfMessages, by GetQueueAttributes.
    fn visible(&self, queue_url: &str) -> Option<u64>;
    /// A queue's VisibilityTimeout in seconds, by GetQueueAttributes.
    fn visibility_timeout(&self, _queue_url: &str) -> Option<u64> {
        None
    }
    /// A queue's QueueArn, by GetQueueAttributes.
    fn queue_arn(&self, _queue_url: &str) -> Option<String> {
        None
    }
}

/// What the senders and watchers of [`REGISTRY`] see when they step.
pub(crate) type Reads = dyn Observe;

/// When the run steps an actor within a moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// At its `wake_at` moments, before the workers act (senders).
    Send,
    /// At the end of every moment the run acts, after the workers: it sees
    /// the moment settled and never wakes the run itself (alarms).
    Watch,
}

/// What the page's snapshot shows of an actor.
pub(crate) enum Part {
    Producer(ProducerSnapshot),
    Bucket(BucketSnapshot),
    Topic(TopicSnapshot),
    Lambda(LambdaSnapshot),
}

/// What the work estimate (`work.rs`) needs of a sender: its sends to its
/// queue up to a moment.
pub(crate) struct SendPlan {
    /// Sends at or before the moment, and their bodies' units.
    pub sends: u64,
    pub units: u64,
    /// Of those, the ones whose body contains one of the failing patterns.
    pub matching: u64,
    /// Of those, the ones sent at a steady rate, with the window they
    /// fall in (start, end), if any.
    pub steady: Option<(u64, Millis, Millis)>,
}

/// Something in a scenario that acts by itself: what it sees when it
/// steps (`Seen`) and the commands it answers with (`C`) are its kind's.
/// The senders and watchers of [`REGISTRY`] see the engine through
/// [`Observe`] and answer with [`Command`]s; a worker (`worker.rs`) sees
/// its draws and its receive's answer and answers with its `Effect`s.
pub(crate) trait Actor<Seen: ?Sized = Reads, C = Command> {
    /// Its name: the caller of its SQS calls in the log.
    fn name(&self) -> &Arc<str>;
    /// When it next acts by itself (None: never, or only as a watcher).
    fn wake_at(&self) -> Option<Millis>;
    fn phase(&self) -> Phase {
        Phase::Send
    }
    /// A watcher: stepped at every moment the run acts.
    fn watches(&self) -> bool {
        self.phase() == Phase::Watch
    }
    /// Its commands for the moment `now` (all that are due by then).
    fn step(&mut self, now: Millis, seen: &mut Seen) -> Vec<C>;
    /// What became of one of its commands, in the order it gave them.
    fn outcome(&mut self, _outcome: &Outcome) {}
    /// Commands to carry out at once, after the outcome just told and
    /// before its remaining ones (a retry without delay, a dead-letter
    /// send, a verdict once every awaited outcome is in): what an outcome
    /// made it decide at `now`.
    fn follow_up(&mut self, _now: Millis) -> Vec<C> {
        Vec::new()
    }
    fn snapshot(&self) -> Option<Part> {
        None
    }
    /// The queue it sends to (None: it sends nothing).
    fn queue_url(&self) -> Option<&str> {
        None
    }
    /// Its sends up to `until` (None: it sends nothing), counting as
    /// matching the bodies `hits` says yes to.
    fn plan(&self, _until: Millis, _hits: &dyn Fn(&str) -> bool) -> Option<SendPlan> {
        None
    }
    /// Its part of the work estimate, in the author's words
    /// ("producers[0] (12 sends)"), for a refusal to name it.
    fn place(&self) -> Option<String> {
        None
    }
    /// Its own work from `now` to `until` (None: none besides its sends),
    /// given `arriving`: the sends to a queue (by URL) by then and their
    /// bodies' units. A Lambda mapping's polls and invocations (`work.rs`).
    fn own_work(
        &self,
        _now: Millis,
        _until: Millis,
        _arriving: &dyn Fn(&str) -> (u64, u64),
    ) -> Option<u64> {
        None
    }
    /// Whether it holds the message `message_id` now (a Lambda poller's
    /// batch): the ledger keeps counting a message deleted meanwhile.
    fn holds(&self, _message_id: &str) -> bool {
        false
    }
    /// Whether this long poll is one of its own (a Lambda poller's).
    fn owns_poll(&self, _poll: PollId) -> bool {
        false
    }
    /// Its long poll `poll` was answered: its commands for that.
    fn answered(
        &mut self,
        _now: Millis,
        _poll: PollId,
        _result: SqsResult<Vec<ReceivedMessage>>,
        _seen: &mut Seen,
    ) -> Vec<C> {
        Vec::new()
    }
    /// An SNS topic, for the SNS API to reach (`sns/service.rs`).
    fn topic(&mut self) -> Option<&mut Topic> {
        None
    }
    /// An S3 bucket, for the S3 API to reach (`s3/service.rs`).
    fn bucket(&mut self) -> Option<&mut BucketActor> {
        None
    }
    /// A Lambda function's mapping, for your code to answer its
    /// invocations (`lambda_runtime.rs`).
    fn mapping(&mut self) -> Option<&mut Mapping> {
        None
    }
    /// The same, to read.
    fn as_mapping(&self) -> Option<&Mapping> {
        None
    }
}

/// A queue's URL by its name; `Err` names the part of the scenario (`what`).
pub(crate) type UrlOf<'a> = &'a dyn Fn(&str, &str) -> SqsResult<String>;

/// Builds one scenario section's actors, in listed order, in the
/// engine's account and region (`Config`).
pub(crate) type Build = fn(&Scenario, UrlOf, &Config) -> SqsResult<Vec<Box<dyn Actor>>>;

/// Every kind of actor a scenario section makes (workers apart: `worker.rs`),
/// in the order they act within a phase.
pub(crate) const REGISTRY: &[(&str, Build)] = &[
    ("producers", producer::build),
    ("schedule", schedule::build),
    ("operators", operator::build),
    ("buckets", bucket::build),
    ("topics", topic::build),
    ("lambdas", lambda::build),
    ("requesters", requester::build),
    ("responders", responder::build),
];

/// Every actor of a scenario, in registry order.
pub(crate) fn build(
    scenario: &Scenario,
    url_of: UrlOf,
    config: &Config,
) -> SqsResult<Vec<Box<dyn Actor>>> {
    let mut out = Vec::new();
    for (_, build) in REGISTRY {
        out.extend(build(scenario, url_of, config)?);
    }
    Ok(out)
}

/// A scenario's send as SendMessage takes it: string attributes typed.
pub(crate) fn new_message(send: ScheduledSend) -> NewMessage {
    NewMessage {
        body: send.sent_body(),
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
    }
}

/// A message's string attributes, as the scenario wrote them.
pub(crate) fn string_attributes(message: &NewMessage) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for a in &message.attributes {
        if let AttributeValue::String(value) = &a.value {
            out.insert(a.name.clone(), value.clone());
        }
    }
    out
}

/// What a sender's sends came to (a producer's, a schedule's), counted as
/// the engine answered them: the snapshot's `producers` say it, so a page
/// reads the counts rather than adding up events.
#[derive(Default)]
pub(crate) struct Sends {
    sent: u64,
    deduplicated: u64,
    failed: u64,
}

impl Sends {
    pub(crate) fn count(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::Sent { .. } => self.sent += 1,
            Outcome::Deduplicated => self.deduplicated += 1,
            Outcome::Failed => self.failed += 1,
            Outcome::Batch {
                sent,
                deduplicated,
                failed,
            } => {
                self.sent += sent;
                self.deduplicated += deduplicated;
                self.failed += failed;
            }
            _ => {}
        }
    }

    /// The snapshot's part for the sender `name` of the queue at `url`.
    pub(crate) fn part(&self, name: &str, url: &str) -> Part {
        Part::Producer(ProducerSnapshot {
            name: name.to_string(),
            queue: crate::queue_name(url).to_string(),
            sent: self.sent,
            deduplicated: self.deduplicated,
            failed: self.failed,
        })
    }
}

/// A send's moment in virtual ms: its `atMs`, or its wall-clock `at` less
/// the scenario's `startEpochMs` (`Scenario::validate` refuses an `at`
/// without one, malformed, or outside the run).
pub(crate) fn moment(send: &ScheduledSend, start_epoch_ms: Option<u64>) -> Millis {
    let wall = send.at.as_deref().map(crate::wall_clock::epoch_ms);
    match (wall, start_epoch_ms) {
        (Some(Ok(at)), Some(start)) => at.saturating_sub(start),
        _ => send.at_ms,
    }
}

/// Sends listed at moments (a producer's `sends`, a schedule's), in time
/// order (listed order among sends of one moment), and the next not sent.
pub(crate) struct Listed {
    sends: Vec<ScheduledSend>,
    next: usize,
}

impl Listed {
    /// The sends, each at its moment (a wall-clock `at` read against
    /// `start_epoch_ms`, the scenario's).
    pub(crate) fn new(sends: &[ScheduledSend], start_epoch_ms: Option<u64>) -> Self {
        let mut sends: Vec<ScheduledSend> = sends.to_vec();
        for send in &mut sends {
            send.at_ms = moment(send, start_epoch_ms);
        }
        crate::time_order::sort_by_time(&mut sends, |s| s.at_ms);
        Listed { sends, next: 0 }
    }

    /// The moment of the next send.
    pub(crate) fn next_at(&self) -> Option<Millis> {
        self.sends.get(self.next).map(|s| s.at_ms)
    }

    /// The next send, if it is due at or before `now`.
    pub(crate) fn pop_due(&mut self, now: Millis) -> Option<ScheduledSend> {
        let send = self
            .sends
            .get(self.next)
            .filter(|s| s.at_ms <= now)?
            .clone();
        self.next += 1;
        Some(send)
    }

    /// The sends still to come at or before `until`: how many, their
    /// bodies' units, and how many `hits` says yes to.
    pub(crate) fn until(&self, until: Millis, hits: &dyn Fn(&str) -> bool) -> (u64, u64, u64) {
        let pending = &self.sends[self.next.min(self.sends.len())..];
        let due = &pending[..pending.partition_point(|s| s.at_ms <= until)];
        let units = due.iter().fold(0u64, |sum, s| {
            sum.saturating_add(crate::units::body_units(s.sent_len()))
        });
        let matching = due.iter().filter(|s| hits(&s.body)).count() as u64;
        (due.len() as u64, units, matching)
    }
}
