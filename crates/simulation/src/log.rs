//! One ordered event log for a run: the engine's SQS events and the
//! simulation's own (workers, producers, narration, alarms), in one
//! sequence, as the page and the golden logs read them.
//!
//! The engine keeps its own log of SQS events; this log copies them in
//! (`sync`) before each simulation event, so an event's place is the moment
//! it happened. Engine events since the last copy (a host's own calls
//! between frames) are read from the engine as they are and numbered after
//! everything here. The cap is the engine's `event_capacity`, over both
//! kinds together: the most recent events are kept, numbers never restart.

use std::collections::VecDeque;
use std::sync::Arc;

use queuelab_engine::{Engine, EventKind, Millis, SqsError};
use serde::Serialize;

/// One event of the run. Serialized exactly like the engine's `Event`:
/// `seq`, `timeMs` and the fields of its kind, with `type` naming it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(rename = "QueuelabEvent"))]
pub struct LogEvent {
    pub seq: u64,
    #[serde(rename = "timeMs")]
    pub time_ms: Millis,
    #[serde(flatten)]
    pub kind: Kind,
}

/// Whose event: the engine's (SQS) or the simulation's.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(rename = "EventKindOfRun"))]
#[serde(untagged)]
pub enum Kind {
    Sqs(EventKind),
    Simulation(SimEvent),
}

/// What a scenario's simulated workers, producers, narration and alarms do.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum SimEvent {
    /// A scenario's narration line for this moment.
    Narration {
        text: String,
    },
    /// A simulated worker began handling a message; it will be done `until`.
    ProcessingStarted {
        consumer: Arc<str>,
        queue: Arc<str>,
        message_id: String,
        receive_count: u32,
        until: Millis,
    },
    /// A worker received a message another worker is still processing.
    DuplicateDelivery {
        consumer: Arc<str>,
        queue: Arc<str>,
        message_id: String,
        receive_count: u32,
        also_held_by: Arc<str>,
    },
    /// The handler's side effect happened; `count` is how often, in total, for this message.
    SideEffectPerformed {
        consumer: Arc<str>,
        message_id: String,
        effect: String,
        count: u64,
    },
    /// An idempotent handler found the message already processed.
    SkippedAlreadyProcessed {
        consumer: Arc<str>,
        message_id: String,
    },
    /// The handler failed; the message is not deleted and comes back.
    ProcessingFailed {
        consumer: Arc<str>,
        message_id: String,
        receive_count: u32,
    },
    WorkerCrashed {
        consumer: Arc<str>,
        message_id: String,
        before_side_effect: bool,
    },
    WorkerRestarted {
        consumer: Arc<str>,
    },
    /// Deleted before processing, then the worker crashed or its handler
    /// failed: no copy is left to retry, so the work is gone.
    MessageLost {
        consumer: Arc<str>,
        message_id: String,
        handler_crashed: bool,
    },
    /// A consumer read a message's pointer and got its payload from S3
    /// (GetObject): the body it processes is the object's.
    PayloadResolved {
        consumer: Arc<str>,
        message_id: String,
        bucket: String,
        key: String,
        size_bytes: u64,
    },
    /// A consumer read a message's pointer and S3 had nothing there
    /// (GetObject answered `code`): the message's processing fails, and it
    /// comes back pointing at nothing each time.
    PayloadMissing {
        consumer: Arc<str>,
        message_id: String,
        bucket: String,
        key: String,
        code: &'static str,
        error: String,
    },
    /// A scenario's operator makes a call (its answer follows: SQS's
    /// events, or the call's failure). `rate`: a move task's
    /// MaxNumberOfMessagesPerSecond and `destination` its DestinationArn's
    /// queue, when given.
    OperatorCalled {
        operator: Arc<str>,
        action: &'static str,
        queue: Arc<str>,
        #[cfg_attr(feature = "contract", ts(optional))]
        #[serde(skip_serializing_if = "Option::is_none")]
        destination: Option<Arc<str>>,
        #[cfg_attr(feature = "contract", ts(optional))]
        #[serde(skip_serializing_if = "Option::is_none")]
        rate: Option<i64>,
    },
    /// An SQS call of a simulated worker or producer failed.
    ActionFailed {
        actor: Arc<str>,
        action: &'static str,
        code: &'static str,
        error: String,
    },
    /// A requester sent its request, message `messageId`, with the
    /// message attributes CorrelationId `correlationId` and ReplyTo, the
    /// URL of its reply queue `replyQueue`.
    RequestSent {
        requester: Arc<str>,
        correlation_id: String,
        message_id: String,
        reply_queue: Arc<str>,
    },
    /// A responder sent its reply to request `requestId`, message
    /// `messageId`, to the reply queue `queue` the request's ReplyTo
    /// named, with the request's CorrelationId `correlationId`.
    ReplySent {
        responder: Arc<str>,
        correlation_id: String,
        message_id: String,
        request_id: String,
        queue: Arc<str>,
    },
    /// A requester took the reply carrying its request's `correlationId`
    /// from its reply queue `queue`, `latencyMs` after it sent the
    /// request; `late`: after its wait for it had ended (a reply queue
    /// kept per client still holds a late reply).
    ReplyMatched {
        requester: Arc<str>,
        correlation_id: String,
        queue: Arc<str>,
        latency_ms: Millis,
        late: bool,
    },
    /// A requester's wait for the reply to `correlationId` ended with no
    /// reply, `waitedMs` after it sent the request: it gives up on it.
    ReplyWaitEnded {
        requester: Arc<str>,
        correlation_id: String,
        queue: Arc<str>,
        waited_ms: Millis,
    },
    /// A responder's reply to `correlationId` was refused because the
    /// reply queue `queue` its request named no longer exists
    /// (QueueDoesNotExist): the reply is lost.
    ReplyLost {
        responder: Arc<str>,
        correlation_id: String,
        queue: Arc<str>,
    },
    /// An object of a scenario bucket was put or deleted: S3's event
    /// (`eventName`, "ObjectCreated:Put"), and a put object's size.
    BucketObjectChanged {
        bucket: Arc<str>,
        event_name: &'static str,
        key: String,
        #[cfg_attr(feature = "contract", ts(optional))]
        #[serde(skip_serializing_if = "Option::is_none")]
        size_bytes: Option<u64>,
    },
    /// A bucket's notification configuration was saved: each of its
    /// `queues` took S3's `s3:TestEvent`, and the bucket now notifies them.
    BucketConfigured {
        bucket: Arc<str>,
        queues: Vec<Arc<str>>,
    },
    /// S3 refused a bucket's notification configuration: the queue
    /// `queue` (ARN `destination`) refused its test event with SQS's
    /// `code` and `error`, so PutBucketNotificationConfiguration answers
    /// `s3Code` (400) with `s3Error`, and the bucket notifies no queue.
    BucketConfigurationFailed {
        bucket: Arc<str>,
        queue: Arc<str>,
        destination: String,
        code: &'static str,
        error: String,
        s3_code: &'static str,
        s3_error: &'static str,
    },
    /// A queue took a bucket's notification of `eventName` on `key`: S3's
    /// event JSON is stored there.
    BucketNotified {
        bucket: Arc<str>,
        queue: Arc<str>,
        event_name: &'static str,
        key: String,
    },
    /// A queue refused a bucket's notification (`eventName` on `key`) with
    /// SQS's `code` and `error`: S3 does not retry it, so the event is lost.
    BucketDeliveryFailed {
        bucket: Arc<str>,
        queue: Arc<str>,
        event_name: &'static str,
        key: String,
        code: &'static str,
        error: String,
    },
    /// An SNS topic published a message (`deduplicated`: a FIFO topic
    /// dropped it as a duplicate of one published within 5 minutes, and
    /// sends it nowhere).
    TopicPublished {
        topic: Arc<str>,
        message_id: String,
        deduplicated: bool,
    },
    /// A subscription's filter policy did not match the message: this
    /// queue is not sent it.
    TopicFilteredOut {
        topic: Arc<str>,
        queue: Arc<str>,
        message_id: String,
    },
    /// SNS delivered the message to a subscribed queue, at its `attempt`th
    /// try (1: the first).
    TopicDelivered {
        topic: Arc<str>,
        queue: Arc<str>,
        message_id: String,
        attempt: u32,
    },
    /// SQS refused a delivery (`code` and `error` in SQS's words). A
    /// client-side error is not retried; a server-side one is retried at
    /// `retryAt` by the delivery policy, while it lasts.
    TopicDeliveryFailed {
        topic: Arc<str>,
        queue: Arc<str>,
        message_id: String,
        attempt: u32,
        code: &'static str,
        error: String,
        client_side: bool,
        #[cfg_attr(feature = "contract", ts(optional))]
        #[serde(skip_serializing_if = "Option::is_none")]
        retry_at: Option<Millis>,
    },
    /// A message SNS could not deliver to `queue` went to the
    /// subscription's dead-letter queue.
    TopicDeadLettered {
        topic: Arc<str>,
        queue: Arc<str>,
        dead_letter_queue: Arc<str>,
        message_id: String,
    },
    /// A message SNS could not deliver to `queue` is discarded: the
    /// subscription has no dead-letter queue (`noDeadLetterQueue`), or
    /// its dead-letter queue refused it too (`deadLetterQueueRefused`).
    TopicDropped {
        topic: Arc<str>,
        queue: Arc<str>,
        message_id: String,
        #[cfg_attr(
            feature = "contract",
            ts(type = r#""noDeadLetterQueue" | "deadLetterQueueRefused""#)
        )]
        reason: &'static str,
    },
    /// A CloudWatch alarm changed state at the end of a period (`reason`:
    /// its datapoints, in words). `actions` are the SNS topics it notifies.
    AlarmChanged {
        alarm: Arc<str>,
        /// The queue of an AWS/SQS metric.
        queue: Option<Arc<str>>,
        metric: String,
        from: crate::cloudwatch::AlarmState,
        to: crate::cloudwatch::AlarmState,
        reason: String,
        actions: Vec<String>,
    },
    /// Lambda's poller handed a batch to the function: its `invocation`
    /// (numbered from 1 per function), the messages' ids in the batch's
    /// order, and the event's size in bytes.
    LambdaInvoked {
        function: Arc<str>,
        invocation: u64,
        messages: Vec<String>,
        bytes: u64,
    },
    /// An invocation ended after `durationMs`: `success` (every message
    /// deleted), `error` (the function threw: none deleted), `timeout` (it
    /// ran its whole timeout: none deleted), `partial` (it returned
    /// `batchItemFailures`: all but those deleted) or `invalidResponse`
    /// (its `batchItemFailures` were not valid: none deleted, `why` says
    /// what was wrong). `failed`: the ids that return to the queue when
    /// their visibility timeout ends.
    LambdaReturned {
        function: Arc<str>,
        invocation: u64,
        duration_ms: Millis,
        #[cfg_attr(
            feature = "contract",
            ts(type = r#""success" | "error" | "timeout" | "partial" | "invalidResponse""#)
        )]
        result: &'static str,
        failed: Vec<String>,
        #[cfg_attr(feature = "contract", ts(optional))]
        #[serde(skip_serializing_if = "Option::is_none")]
        why: Option<String>,
    },
    /// No concurrency was free for a batch (the function's reserved
    /// concurrency is in use): Lambda throttled the invocation. The
    /// messages stay in flight while the poller retries.
    LambdaThrottled {
        function: Arc<str>,
        messages: Vec<String>,
    },
    /// Lambda refused to create the function's event source mapping on
    /// `queue`, with Lambda's `code` and `error`: nothing polls the queue.
    EventSourceMappingRefused {
        function: Arc<str>,
        queue: Arc<str>,
        code: &'static str,
        error: String,
    },
    /// The mapping's pollers changed: as many batches as `pollers` may now
    /// be handed to the function at once.
    LambdaScaled {
        function: Arc<str>,
        pollers: u64,
    },
    /// A narration line (or a checkpoint answer's `because`) fired, but
    /// one of its claims does not hold for this run: it is not shown.
    /// `reason` says which claim, in words.
    NarrationWithheld {
        text: String,
        reason: String,
    },
    /// A checkpoint's question is asked: a page playing the run pauses
    /// here for the learner's prediction.
    CheckpointAsked {
        id: String,
        question: String,
        choices: Vec<String>,
    },
    /// The run decided a checkpoint's answer: the index of the choice that
    /// happened (none: no choice did), its text and why.
    CheckpointAnswered {
        id: String,
        #[cfg_attr(feature = "contract", ts(optional))]
        #[serde(skip_serializing_if = "Option::is_none")]
        choice: Option<u32>,
        /// The choice's text, or words saying none of them happened.
        answer: String,
        #[cfg_attr(feature = "contract", ts(optional))]
        #[serde(skip_serializing_if = "Option::is_none")]
        because: Option<String>,
    },
}

impl SimEvent {
    /// An SQS call of `actor` that SQS refused, with SQS's code and words.
    pub(crate) fn action_failed(actor: &Arc<str>, action: &'static str, error: SqsError) -> Self {
        SimEvent::ActionFailed {
            actor: actor.clone(),
            action,
            code: error.code.query_code(),
            error: error.message,
        }
    }
}

pub(crate) struct Log {
    events: VecDeque<LogEvent>,
    capacity: usize,
    /// The number the next event appended here gets.
    next_seq: u64,
    /// The engine's number of the first engine event not copied in yet.
    engine_next: u64,
}

impl Log {
    /// A log that will copy in the engine's events from its first on.
    pub(crate) fn new(engine: &Engine) -> Self {
        Log {
            events: VecDeque::new(),
            capacity: engine.config().event_capacity,
            next_seq: 1,
            engine_next: 1,
        }
    }

    /// What to add to an engine event's number to get its number here:
    /// constant from the last simulation event on.
    fn offset(&self) -> u64 {
        self.next_seq - self.engine_next
    }

    fn append(&mut self, seq: u64, time_ms: Millis, kind: Kind) {
        if self.capacity > 0 {
            if self.events.len() == self.capacity {
                self.events.pop_front();
            }
            self.events.push_back(LogEvent { seq, time_ms, kind });
        }
        self.next_seq = seq + 1;
    }

    /// Copies in the engine events logged since the last copy.
    pub(crate) fn sync(&mut self, engine: &Engine) {
        let offset = self.offset();
        let since = self.engine_next - 1;
        for e in engine.events(since) {
            self.append(e.seq + offset, e.time_ms, Kind::Sqs(e.kind.clone()));
        }
        self.engine_next = engine.next_event_seq();
        self.next_seq = self.engine_next + offset;
    }

    /// Logs a simulation event now, after every engine event so far.
    pub(crate) fn push(&mut self, engine: &Engine, event: SimEvent) {
        self.sync(engine);
        self.append(self.next_seq, engine.now(), Kind::Simulation(event));
    }

    /// The number the next event will get.
    pub(crate) fn next_seq(&self, engine: &Engine) -> u64 {
        engine.next_event_seq() + self.offset()
    }

    /// Retained events numbered after `since`, oldest first.
    pub(crate) fn since<'a>(
        &'a self,
        engine: &'a Engine,
        since: u64,
    ) -> impl Iterator<Item = LogEvent> + 'a {
        let offset = self.offset();
        let tail = engine
            .events(self.engine_next - 1)
            .filter(move |e| e.seq + offset > since)
            .map(move |e| LogEvent {
                seq: e.seq + offset,
                time_ms: e.time_ms,
                kind: Kind::Sqs(e.kind.clone()),
            });
        // The cap over both: the newest `capacity` of the copied events and
        // the engine's newer ones (the engine keeps at most `capacity` too).
        let newer = engine.events(self.engine_next - 1).count();
        let keep = self.capacity.saturating_sub(newer);
        let first_kept = self.events.len().saturating_sub(keep);
        let first_after = self.events.partition_point(|e| e.seq <= since);
        self.events
            .range(first_kept.max(first_after)..)
            .cloned()
            .chain(tail)
    }
}
