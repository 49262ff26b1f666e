//! The scenario document's teaching parts: narration lines, checkpoints,
//! the events they wait for and the conditions they hold at the end. Types
//! only (`teach/` decides when they apply, from the run's events).

pub use queuelab_engine::UnlockCause;
#[cfg(feature = "contract")]
use queuelab_engine::MAX_VIRTUAL_MS;
use serde::{Deserialize, Serialize};

/// One narration line. It is shown at the first moment every condition it
/// gives holds: `atMs` reached, the `when` event happened (at or after
/// `atMs`), the `after` line shown; an `atEnd` line waits for the end of
/// the run and is shown only if its condition holds for the run (and, with
/// `when`, only if that event happened). A line
/// with none of them is shown at time 0. Each line is shown at most once.
/// The simulation decides which lines fire, from the run's own events.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Narration {
    /// Alone: the moment a scene-setting line is shown. With `when`: the
    /// earliest moment its event counts. Default 0.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub at_ms: u64,
    /// What must happen in the run for the line to apply: the first event
    /// matching this trigger shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub when: Option<Trigger>,
    /// Shown at the end of the run (`durationMs`), only if this holds for
    /// the whole run (and, with `when`, only if that event happened).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "object_only"
    )]
    #[cfg_attr(feature = "contract", schemars(with = "Option<EndCondition>"))]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub at_end: Option<EndCondition>,
    /// A name other lines' `after` can refer to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub id: Option<String>,
    /// Shown only after the line with this `id` was shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub after: Option<String>,
    pub text: String,
    /// What the text says beyond its trigger, checked against the run when
    /// the line fires: if one does not hold, the text is withheld (the log
    /// says so, and why) and `otherwise` is shown instead, if given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_CLAIMS)))]
    pub claims: Vec<Claim>,
    /// Shown instead of `text` when one of its `claims` does not hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub otherwise: Option<String>,
}

/// A question asked before the moment it is about ("predict, then see").
/// It is asked at the first moment `atMs` has come, the `when` event (if
/// any) has happened and the `after` line (if any) was shown, once that
/// moment's events have happened; a page
/// playing the run pauses there for the learner's answer. The answer is
/// decided by the run, never by the file: the first choice whose `when`
/// event happens after the question is the truth, at once; if none has by
/// the end of the run, the first choice whose `atEnd` condition holds, or
/// else the choice that gives neither ("anything else"). When no choice
/// matches, the page says none of them happened.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Checkpoint {
    /// A name unique among the scenario's checkpoints (a page remembers
    /// the learner's answer by it).
    pub id: String,
    /// The earliest moment it is asked. Default 0.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub at_ms: u64,
    /// Asked only once the narration line with this `id` was shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub after: Option<String>,
    /// Asked only once this event has happened (at or after `atMs`): at
    /// the end of its moment, before anything later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub when: Option<Trigger>,
    pub question: String,
    /// What the question says about the run so far ("A-2 is next"),
    /// checked when it would be asked: if one does not hold, it is not
    /// asked (the log says so, and why).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_CLAIMS)))]
    pub claims: Vec<Claim>,
    /// From 2 to 6 possible answers.
    #[cfg_attr(feature = "contract", schemars(length(min = 2, max = MAX_CHOICES)))]
    pub choices: Vec<Choice>,
}

/// One possible answer to a checkpoint, and what in the run makes it true.
/// Give `when`, or `atEnd`, or neither (true when no other choice is).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Choice {
    pub text: String,
    /// True at once if this event happens after the question is asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub when: Option<Trigger>,
    /// True if this holds for the whole run, at its end.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "object_only"
    )]
    #[cfg_attr(feature = "contract", schemars(with = "Option<EndCondition>"))]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub at_end: Option<EndCondition>,
    /// Said with the answer when this choice is what happened: why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub because: Option<String>,
    /// What `because` says beyond the choice's own `when` or `atEnd`,
    /// checked when the answer is decided: if one does not hold, the
    /// answer is given without its `because` (the log says why).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_CLAIMS)))]
    pub claims: Vec<Claim>,
}

/// An `atEnd` condition written as an object, never as an array: serde
/// would read `[]` as a struct whose fields all have defaults, and the
/// schema says object.
fn object_only<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<EndCondition>, D::Error> {
    struct Object;
    impl<'de> serde::de::Visitor<'de> for Object {
        type Value = EndCondition;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<EndCondition, A::Error> {
            EndCondition::deserialize(serde::de::value::MapAccessDeserializer::new(map))
        }
    }
    d.deserialize_map(Object).map(Some)
}

/// An event of the run, with optional filters; every filter given must match.
/// A filter that the event does not carry (a group on a delete) never matches.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Trigger {
    pub event: TriggerEvent,
    /// The queue it happened on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub queue: Option<String>,
    /// The consumer (or producer, for `sent`) that did it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub consumer: Option<String>,
    /// The FIFO message group (`groupLocked`, `groupUnlocked`, `sent`, `received`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub group: Option<String>,
    /// The message's receive count at that moment (1 = its first
    /// receive): a number, or a setting of the run such as
    /// `"{orders.maxReceiveCount}"` (filled from the scenario as run, with
    /// the learner's changes; a setting the run does not have, such as a
    /// removed redrive policy, matches nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub receive_count: Option<Count>,
    /// `sideEffect`: how many times, in total, the side effect has now
    /// happened to this message (2 = the second time); `queuePurged`,
    /// `moveTaskCancelled`, `moveTaskCompleted`: how many messages. A
    /// number or a setting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub count: Option<Count>,
    /// The message's body contains this text ("A-1002"). A message is
    /// known by its body from its send until it leaves the queue (its
    /// delete, expiry or purge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub message: Option<String>,
    /// `groupUnlocked` only: how the group's head left flight. `deleted`
    /// delivers the group's next message; `visibilityTimeout` (or
    /// `released`) leaves the same message at the head, delivered again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub cause: Option<UnlockCause>,
    /// `callFailed` only: the error code SQS answered, as the log gives
    /// it (`"KMS.DisabledException"`, `"AccessDenied"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub code: Option<String>,
    /// `lambdaReturned`: the invocation's result (`success`, `error`,
    /// `timeout`, `partial`, `invalidResponse`); `alarmChanged`: the state
    /// the alarm went to (`ALARM`, `OK`, `INSUFFICIENT_DATA`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub result: Option<String>,
}

/// A count a trigger or claim compares with: a number, or a
/// `"{queue.property}"` placeholder naming a count the run has
/// (`maxReceiveCount`, `batchSize`), filled from the scenario as run.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(untagged)]
pub enum Count {
    Number(u64),
    Setting(String),
}

impl Count {
    /// The number, if it is one (a setting is filled by `Story::new`).
    pub fn number(&self) -> Option<u64> {
        match self {
            Count::Number(n) => Some(*n),
            Count::Setting(_) => None,
        }
    }
}

impl From<u64> for Count {
    fn from(n: u64) -> Self {
        Count::Number(n)
    }
}

/// One thing a narration line or a checkpoint's `because` says about the
/// run beyond its trigger, in the vocabulary of lab goals: checked against
/// the run so far when the words would be shown (an `atEnd` line: the
/// whole run). An event is written as a trigger (`event` and filters).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Claim {
    /// An event like this has happened ("worker-2 received A-1001 with
    /// receive count 2": `{"event": "received", "consumer": "worker-2",
    /// "message": "A-1001", "receiveCount": 2}`).
    Happened(Trigger),
    /// No event like this has happened ("worker-2 never received it").
    NotHappened(Trigger),
    /// `first` has happened, and no `then` event happened before it ("A-1
    /// was deleted before A-2 was received"; `then` may not have happened yet).
    Before { first: Trigger, then: Trigger },
    /// The latest receive count of the message whose body contains
    /// `message` equals `equals` (a number or a setting: "its receive
    /// count has reached `{orders.maxReceiveCount}`").
    ReceiveCount { message: String, equals: Count },
    /// Nothing happened from `fromMs` to `toMs` (inclusive): no SQS event
    /// and no worker's. Checked over the part already run.
    Quiet { from_ms: u64, to_ms: u64 },
    /// `then` first happened at the very moment `first` first did ("the
    /// waiting receive returns it at once": the send, then the receive).
    AtOnce { first: Trigger, then: Trigger },
    /// No message was received while another worker still held it.
    NoDuplicateDelivery,
    /// No message was lost, expired or dead-lettered.
    NoneLost,
    /// Every message the scenario's producers sent so far was deleted
    /// ("the queue is empty"; a message lost after its delete counts as
    /// deleted: add `noneLost`).
    AllDeleted,
    /// The consumer runs with this behaviour (a name of the behaviour
    /// registry: `idempotent`, `heartbeat`, `deleteFirst` …).
    Behaviour { consumer: String, is: String },
    /// The consumer runs without this behaviour.
    NoBehaviour { consumer: String, is: String },
    /// A setting of the run, written as placeholders, reads exactly
    /// `is` (`{"value": "{worker-1.waitTime}", "is": "0 s"}`).
    SettingIs { value: String, is: String },
    /// A setting of the run does not read `is`.
    SettingIsNot { value: String, is: String },
}

/// The most claims one line or one answer makes.
pub const MAX_CLAIMS: usize = 8;

/// The kinds of event a narration line (or a checkpoint) can wait for;
/// docs/scenario-format.md says when each happens. (Plain comments on the
/// variants keep the schema a plain `enum` of names.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum TriggerEvent {
    // A message was sent and stored (not dropped as a duplicate).
    #[default]
    Sent,
    // A message was received by anyone.
    Received,
    // A message was received while another worker still holds it.
    DuplicateDelivery,
    // A worker started processing a message for longer than its
    // visibility timeout has left.
    ProcessingOutlastsVisibility,
    // A message's visibility timeout was changed (a heartbeat, say).
    VisibilityChanged,
    // A message's visibility timeout ended while it was in flight.
    VisibilityExpired,
    // A message was deleted.
    Deleted,
    // A message was deleted by a worker whose receive is no longer the
    // latest (another worker received it since).
    DeletedWithStaleHandle,
    // A worker deleted a message before doing its work.
    DeletedBeforeProcessing,
    // A handler's side effect happened.
    SideEffect,
    // An idempotent handler skipped a message it had already processed.
    SkippedAlreadyProcessed,
    // A handler failed; the message was not deleted.
    ProcessingFailed,
    // A message moved to its dead-letter queue.
    MovedToDeadLetterQueue,
    // A FIFO send was dropped as a duplicate.
    DuplicateDropped,
    // A FIFO message group locked (its head went in flight).
    GroupLocked,
    // A FIFO message group unlocked.
    GroupUnlocked,
    // A receive returned no message.
    EmptyReceive,
    // A message's retention period ended.
    Expired,
    // A worker crashed.
    WorkerCrashed,
    // Work was lost: deleted before processing, then the worker failed.
    MessageLost,
    // A message move task moved a message out of a dead-letter queue (the
    // queue filter names where it went).
    Redriven,
    // CancelMessageMoveTask was answered: the task reports CANCELLING and
    // moves nothing more (`count`: how many it had moved).
    MoveTaskCancelled,
    // A message move task COMPLETED (`count`: how many it moved).
    MoveTaskCompleted,
    // A queue was purged (`count`: how many messages it deleted).
    QueuePurged,
    // A purge deleted a message a worker had received and still held.
    PurgedInFlight,
    // A worker performed the side effect of a message a purge had deleted
    // while it held it.
    PurgedProcessed,
    // An SQS call of a scenario's producer, worker or operator failed (the
    // consumer filter names who called).
    CallFailed,
    // An SNS topic's subscription filter policy did not match a message, so
    // the subscribed queue is not sent it (the queue filter names the
    // queue, the consumer filter the topic).
    TopicFilteredOut,
    // An S3 bucket's object was put or deleted (the message filter reads
    // its key, the consumer filter names the bucket).
    BucketObjectChanged,
    // A consumer read a message's pointer and got its payload from S3 (the
    // consumer filter names the consumer, the message filter reads the key).
    PayloadResolved,
    // A consumer read a message's pointer and S3 had nothing there
    // (NoSuchKey): its processing fails (the consumer filter names the
    // consumer, the message filter reads the key).
    PayloadMissing,
    // A queue took a bucket's notification of an object's event (the
    // queue filter names the queue, the message filter reads the key, the
    // consumer filter names the bucket).
    BucketNotified,
    // The queue's policy refused a call (the engine's accessDecided, not
    // allowed; the consumer filter names who called).
    AccessDenied,
    // A call by someone other than the queue's own account was allowed
    // (the engine's accessDecided, allowed).
    AccessAllowed,
    // SSE-KMS: SQS called KMS for a call on the queue (`count`: the
    // queue's KMS requests in the run so far, this one included).
    KmsRequested,
    // A Lambda function's invocation ended (the consumer filter names the
    // function, `result` its result, `count` how many of its records
    // return to the queue).
    LambdaReturned,
    // Lambda throttled a batch: no concurrency was free (`count`: the
    // batch's records).
    LambdaThrottled,
    // A function's event source mapping changed its pollers (`count`: how
    // many batches may now run at once).
    LambdaScaled,
    // A CloudWatch alarm changed state (the consumer filter names the
    // alarm, the queue filter its queue, `result` the new state).
    AlarmChanged,
    // A requester took the reply to its request from its reply queue (the
    // consumer filter names the requester, the queue filter the reply
    // queue, the message filter reads the correlation id, `result` is
    // `onTime` or `late`: after its wait had ended).
    ReplyMatched,
    // A requester's wait for a reply ended with none (the consumer filter
    // names the requester, the message filter reads the correlation id).
    ReplyWaitEnded,
    // A responder's reply was refused because its reply queue no longer
    // exists: the reply is lost (the consumer filter names the responder,
    // the queue filter the deleted reply queue).
    ReplyLost,
}

/// What must hold for a whole run for an `atEnd` line to be shown. Every
/// condition given must hold; none given always holds.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EndCondition {
    /// Every message that had a side effect had it exactly this many times
    /// (1: "every order was charged exactly once"), and at least one had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub side_effects_each: Option<u64>,
    /// No message was received while another worker still held it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_duplicate_delivery: bool,
    /// No message was lost, expired or dead-lettered.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub none_lost: bool,
    /// This consumer made more empty receives than any other consumer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub most_empty_receives: Option<String>,
    /// This queue made more KMS requests (SSE-KMS) than any other queue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub most_kms_requests: Option<String>,
}
/// The most narration lines a scenario has. A story is a handful of lines
/// (the shipped ones have at most 5); the bound keeps every check of one
/// line against the others (`after`, triggers per event) small, so that a
/// hostile file with 50,000 chained lines cannot freeze the tab.
pub const MAX_NARRATION_LINES: usize = 200;

/// The most checkpoints a scenario has (each pauses the run for an answer;
/// the shipped scenarios have one or two), and the most answers one offers.
pub const MAX_CHECKPOINTS: usize = 20;
pub const MAX_CHOICES: usize = 6;
