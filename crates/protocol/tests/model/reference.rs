//! The reference model: SQS semantics written from /work/shared/sqs-facts.md
//! as plainly as possible. Every queue is a `Vec` of messages in arrival
//! order and every question ("which group goes first?", "is this group
//! locked?", "what is due?") is answered by scanning it. Nothing here calls
//! the engine or borrows its formulas; the harness feeds in only what SQS
//! leaves to chance (message ids, receipt handles, sequence numbers, poll ids)
//! and the timing of move-task steps.

use std::collections::BTreeMap;

/// Epoch milliseconds of virtual time 0 (the engine's default `Config`).
pub const EPOCH_MS: u64 = 1_704_067_200_000;
pub const ACCOUNT: &str = "000000000000";
/// FIFO deduplication ids and `ReceiveRequestAttemptId`s last five minutes.
pub const FIVE_MINUTES: u64 = 300_000;
/// One purge per queue per 60 s; a deleted queue's name is free after 60 s.
pub const ONE_MINUTE: u64 = 60_000;
/// The total visibility of one receive may not exceed 12 hours.
pub const TWELVE_HOURS: u64 = 43_200_000;

/// The world's four queues, by slot: two work queues, each with a DLQ.
pub const WORK: usize = 0;
pub const WORK_FIFO: usize = 1;
pub const DLQ: usize = 2;
pub const DLQ_FIFO: usize = 3;
pub const NAMES: [&str; 4] = ["work", "work.fifo", "dlq", "dlq.fifo"];

pub fn is_fifo(slot: usize) -> bool {
    NAMES[slot].ends_with(".fifo")
}

pub fn arn(slot: usize) -> String {
    format!("arn:aws:sqs:us-east-1:{ACCOUNT}:{}", NAMES[slot])
}

/// The DLQ of the same type as `slot` (what a work queue's redrive targets).
pub fn dead_letter_slot(slot: usize) -> usize {
    if is_fifo(slot) {
        DLQ_FIFO
    } else {
        DLQ
    }
}

/// An SQS error answer: the SDK-visible code (status follows from it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError(pub &'static str);

pub const ACCESS_DENIED: &str = "AccessDenied";

/// Who makes a call: the queues' owner, or another principal the model's
/// policies name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    Owner,
    /// Account 111111111111 by its id.
    Partner,
    /// arn:aws:iam::111111111111:user/alice.
    PartnerUser,
    /// Account 222222222222.
    Stranger,
    /// sns.amazonaws.com for the topic `orders-topic`.
    Topic,
    /// sns.amazonaws.com for another topic.
    OtherTopic,
}

/// Whom a statement names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Anyone,
    /// Account 111111111111 (every principal of it).
    Partner,
    /// Only the user alice of that account.
    PartnerUser,
    /// sns.amazonaws.com, with ArnEquals on aws:SourceArn the topic.
    Topic,
}

/// Which actions a statement names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actions {
    Send,
    /// `sqs:Send*`.
    SendWildcard,
    Receive,
    /// `sqs:*`.
    All,
}

/// A statement of the model's policies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    pub allow: bool,
    pub who: Who,
    pub actions: Actions,
}

impl Rule {
    /// Whether the rule applies to `caller` sending.
    fn applies_to_send(&self, caller: Caller) -> bool {
        let who = match self.who {
            Who::Anyone => true,
            Who::Partner => matches!(caller, Caller::Partner | Caller::PartnerUser),
            Who::PartnerUser => caller == Caller::PartnerUser,
            Who::Topic => caller == Caller::Topic,
        };
        who && self.actions != Actions::Receive
    }
}

pub const NO_QUEUE: &str = "AWS.SimpleQueueService.NonExistentQueue";
pub const INVALID_VALUE: &str = "InvalidParameterValue";
pub const INVALID_HANDLE: &str = "ReceiptHandleIsInvalid";
pub const INVALID_ATTRIBUTE_VALUE: &str = "InvalidAttributeValue";
pub const PURGE_IN_PROGRESS: &str = "AWS.SimpleQueueService.PurgeQueueInProgress";
pub const DELETED_RECENTLY: &str = "AWS.SimpleQueueService.QueueDeletedRecently";
pub const ALREADY_EXISTS: &str = "QueueAlreadyExists";
pub const NOT_FOUND: &str = "ResourceNotFoundException";
pub const EMPTY_BATCH: &str = "AWS.SimpleQueueService.EmptyBatchRequest";
pub const TOO_MANY_ENTRIES: &str = "AWS.SimpleQueueService.TooManyEntriesInBatchRequest";
pub const IDS_NOT_DISTINCT: &str = "AWS.SimpleQueueService.BatchEntryIdsNotDistinct";

impl ApiError {
    /// HTTP status per sqs-facts and SQS's service model: 403 for
    /// purge-in-progress, 404 for a missing move-task resource and a
    /// malformed receipt handle, 400 otherwise.
    pub fn status(&self) -> u16 {
        match self.0 {
            PURGE_IN_PROGRESS | ACCESS_DENIED => 403,
            NOT_FOUND | INVALID_HANDLE => 404,
            _ => 400,
        }
    }
}

pub type Answer<T> = Result<T, ApiError>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Delayed { until: u64 },
    Visible,
    InFlight { until: u64 },
}

/// A message attribute: (name, data type, string value).
pub type Attribute = (String, String, String);

#[derive(Clone, Debug)]
pub struct Message {
    /// Index into `Model::ids`: the message id is learned from the engine.
    pub key: usize,
    pub body: String,
    pub attributes: Vec<Attribute>,
    pub group: Option<String>,
    pub dedup_id: Option<String>,
    pub state: State,
    pub receive_count: u32,
    pub sent_at: u64,
    /// Retention counts from here.
    pub enqueued_at: u64,
    /// FIFO group order: when this message last became receivable by
    /// arriving or by coming back (not by a delay ending), as a count of
    /// such moments. Virtual time often stands still (every call of a test
    /// can happen at 0 ms), so the order in which things happened is what
    /// "the moment it became visible" means here; comebacks of one instant
    /// are counted in send order, which is the facts' tie rule.
    pub available_since: u64,
    pub first_receive: Option<u64>,
    pub last_receive: Option<u64>,
    /// Index into `Model::handles` of this queue's latest receipt.
    pub last_handle: Option<usize>,
    pub dead_letter_source: Option<usize>,
    /// A standard-queue ChangeMessageVisibility with an expired handle:
    /// sqs-facts leaves open whether the message is hidden again, so the
    /// harness accepts "still visible" or "in flight until this moment".
    pub unsettled_until: Option<u64>,
}

impl Message {
    /// A message entering a queue as new: sent, or redriven (which AWS
    /// also treats as a new message), never received yet.
    #[allow(clippy::too_many_arguments)]
    fn arriving(
        key: usize,
        body: String,
        attributes: Vec<Attribute>,
        group: Option<String>,
        dedup_id: Option<String>,
        state: State,
        now: u64,
        available_since: u64,
    ) -> Self {
        Message {
            key,
            body,
            attributes,
            group,
            dedup_id,
            state,
            receive_count: 0,
            sent_at: now,
            enqueued_at: now,
            available_since,
            first_receive: None,
            last_receive: None,
            last_handle: None,
            dead_letter_source: None,
            unsettled_until: None,
        }
    }

    /// Has its delay or visibility timeout ended by `now`?
    fn visible_by(&self, now: u64) -> bool {
        match self.state {
            State::Delayed { until } | State::InFlight { until } => until <= now,
            State::Visible => true,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub visibility_timeout: u64,
    pub delay: u64,
    pub retention: u64,
    pub wait: u64,
    /// (dead-letter slot, maxReceiveCount)
    pub redrive: Option<(usize, u32)>,
}

impl Settings {
    /// What the world creates each queue with.
    pub fn initial(slot: usize) -> Self {
        let work = slot == WORK || slot == WORK_FIFO;
        Settings {
            visibility_timeout: if work { 2 } else { 1 },
            delay: 0,
            retention: if work { 90 } else { 120 },
            wait: 0,
            redrive: work.then(|| (dead_letter_slot(slot), 2)),
        }
    }
}

#[derive(Clone, Debug)]
struct Dedup {
    id: String,
    at: u64,
    key: usize,
}

#[derive(Clone, Debug)]
struct Attempt {
    id: String,
    at: u64,
    delivered: Vec<(usize, usize)>,
    visibility: Option<u64>,
    until: u64,
}

#[derive(Clone, Debug)]
pub struct Queue {
    pub exists: bool,
    /// Counts creations: a handle is only valid in the queue that issued it.
    pub incarnation: u32,
    pub deleted_at: Option<u64>,
    pub settings: Settings,
    /// The queue's policy (none: empty).
    pub policy: Vec<Rule>,
    pub messages: Vec<Message>,
    dedup: Vec<Dedup>,
    last_purge: Option<u64>,
    attempts: Vec<Attempt>,
}

impl Queue {
    fn new(slot: usize) -> Self {
        Queue {
            exists: true,
            incarnation: 1,
            deleted_at: None,
            settings: Settings::initial(slot),
            policy: Vec::new(),
            messages: Vec::new(),
            dedup: Vec::new(),
            last_purge: None,
            attempts: Vec::new(),
        }
    }

    fn position(&self, key: usize) -> Option<usize> {
        self.messages.iter().position(|m| m.key == key)
    }

    /// A message older than the retention period is deleted wherever it
    /// is. Whether any was.
    fn expire(&mut self, now: u64) -> bool {
        let retention = self.settings.retention * 1000;
        let before = self.messages.len();
        self.messages.retain(|m| now < m.enqueued_at + retention);
        self.messages.len() != before
    }

    pub fn count(&self, wanted: fn(&State) -> bool) -> usize {
        self.messages.iter().filter(|m| wanted(&m.state)).count()
    }

    /// Group names in first-seen order.
    pub fn groups(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for group in self.messages.iter().filter_map(|m| m.group.clone()) {
            if !names.contains(&group) {
                names.push(group);
            }
        }
        names
    }

    /// The group's first stored message: the one its order waits on.
    pub fn head(&self, group: &str) -> Option<usize> {
        self.messages
            .iter()
            .position(|m| m.group.as_deref() == Some(group))
    }

    /// A FIFO group is locked while its head message is in flight.
    pub fn locked(&self, group: &str) -> bool {
        self.head(group)
            .is_some_and(|i| matches!(self.messages[i].state, State::InFlight { .. }))
    }
}

/// What a ReceiveMessage asks for.
#[derive(Clone, Debug)]
pub struct ReceiveSpec {
    pub max: usize,
    /// Seconds; `None` takes the queue's timeout at delivery.
    pub visibility: Option<u64>,
    pub wait_ms: u64,
    pub system_names: Vec<String>,
    pub attribute_names: Vec<String>,
    pub attempt: Option<String>,
}

/// One delivered message as the receive shows it, captured at delivery.
#[derive(Clone, Debug)]
pub struct Delivered {
    pub slot: usize,
    pub key: usize,
    pub handle: usize,
    pub body: String,
    /// (name, value) of the system attributes asked for, in name order.
    /// `SequenceNumber` is filled in by the harness (it is learned).
    pub attributes: Vec<(&'static str, String)>,
    pub wants_sequence: bool,
    /// `MessageDeduplicationId` asked for, of a message a FIFO dead-letter
    /// move gave its message id as deduplication id while that id was not
    /// yet learned (moved within the call that sent it): the harness fills
    /// it in from the id, once the send's answer has told it.
    pub dedup_is_id: bool,
    pub message_attributes: Vec<Attribute>,
}

#[derive(Clone, Debug)]
pub struct HandleRecord {
    pub slot: usize,
    pub incarnation: u32,
    pub key: usize,
    /// The engine's text, learned when the receive answers.
    pub text: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Poll {
    pub id: usize,
    pub slot: usize,
    pub spec: ReceiveSpec,
    pub until: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskStatus {
    Running,
    Completed,
    /// Cancelled at this moment, not yet stopped.
    Cancelling(u64),
    Cancelled,
    Failed,
}

impl TaskStatus {
    pub fn as_str(&self) -> &'static str {
        match self {
            TaskStatus::Running => "RUNNING",
            TaskStatus::Completed => "COMPLETED",
            TaskStatus::Cancelling(_) => "CANCELLING",
            TaskStatus::Cancelled => "CANCELLED",
            TaskStatus::Failed => "FAILED",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Task {
    pub source: usize,
    pub destination: Option<usize>,
    pub rate: Option<u64>,
    pub status: TaskStatus,
    pub moved: u64,
    pub to_move: u64,
    pub started: u64,
    pub failure: Option<&'static str>,
    /// Learned from StartMessageMoveTask's answer.
    pub handle: Option<String>,
}

/// A send request's message.
#[derive(Clone, Debug)]
pub struct NewMessage {
    pub body: String,
    pub delay: Option<u64>,
    pub group: Option<String>,
    pub dedup_id: Option<String>,
    pub attributes: Vec<Attribute>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sent {
    New(usize),
    /// A FIFO duplicate: answered with the original message, nothing added.
    Duplicate(usize),
}

/// What the engine's log says a move task did, fed to `advance`.
#[derive(Clone, Debug)]
pub enum TaskStep {
    Moved {
        at: u64,
        source: usize,
        message_id: String,
        new_message_id: String,
    },
    Ended {
        at: u64,
        task: usize,
        status: String,
        moved: u64,
    },
}

impl TaskStep {
    fn at(&self) -> u64 {
        match self {
            TaskStep::Moved { at, .. } | TaskStep::Ended { at, .. } => *at,
        }
    }
}

/// A queue attribute change.
#[derive(Clone, Debug)]
pub enum SetAttribute {
    VisibilityTimeout(i64),
    DelaySeconds(i64),
    MessageRetentionPeriod(i64),
    ReceiveMessageWaitTimeSeconds(i64),
    /// (target slot, maxReceiveCount); `None` removes the policy.
    RedrivePolicy(Option<(usize, i64)>),
}

#[derive(Clone, Debug)]
pub struct Model {
    pub now: u64,
    pub queues: Vec<Queue>,
    /// Message ids by key, learned from send answers and move-task events.
    pub ids: Vec<Option<String>>,
    pub handles: Vec<HandleRecord>,
    pub polls: Vec<Poll>,
    next_poll: usize,
    /// Long polls answered since the harness last looked, in answer order.
    pub answered: Vec<(usize, Answer<Vec<Delivered>>)>,
    pub tasks: Vec<Task>,
    /// The last `available_since` given out.
    availability: u64,
    /// Who the calls are made as now (the harness sets it).
    pub caller: Caller,
}

impl Model {
    pub fn new() -> Self {
        Model {
            now: 0,
            queues: (0..NAMES.len()).map(Queue::new).collect(),
            ids: Vec::new(),
            handles: Vec::new(),
            polls: Vec::new(),
            next_poll: 1,
            answered: Vec::new(),
            tasks: Vec::new(),
            availability: 0,
            caller: Caller::Owner,
        }
    }

    /// The next `available_since`: later than every one before.
    fn now_available(&mut self) -> u64 {
        self.availability += 1;
        self.availability
    }

    fn queue(&self, slot: usize) -> Answer<&Queue> {
        let queue = &self.queues[slot];
        if queue.exists {
            Ok(queue)
        } else {
            Err(ApiError(NO_QUEUE))
        }
    }

    fn new_key(&mut self) -> usize {
        self.ids.push(None);
        self.ids.len() - 1
    }

    pub fn key_of(&self, message_id: &str) -> Option<usize> {
        self.ids
            .iter()
            .position(|id| id.as_deref() == Some(message_id))
    }

    /// Where a message is stored: (slot, index).
    pub fn find(&self, key: usize) -> Option<(usize, usize)> {
        self.queues
            .iter()
            .enumerate()
            .filter(|(_, q)| q.exists)
            .find_map(|(slot, q)| q.position(key).map(|i| (slot, i)))
    }

    // ------------------------------------------------------------------
    // Queue policies (only sends are ever decided by one here)
    // ------------------------------------------------------------------

    /// Sets the queue's policy (an empty one clears it).
    pub fn set_policy(&mut self, slot: usize, rules: &[Rule]) -> Answer<()> {
        self.queue(slot)?;
        self.queues[slot].policy = rules.to_vec();
        Ok(())
    }

    /// Whether the current caller may send to `slot`: a Deny that applies
    /// refuses anyone; the owner needs nothing more, anyone else an Allow
    /// (a batch is authorised as a send).
    fn may_send(&self, slot: usize) -> Answer<()> {
        let rules = &self.queues[slot].policy;
        let applies = |allow: bool| {
            rules
                .iter()
                .any(|r| r.allow == allow && r.applies_to_send(self.caller))
        };
        if applies(false) || (self.caller != Caller::Owner && !applies(true)) {
            return Err(ApiError(ACCESS_DENIED));
        }
        Ok(())
    }

    // ------------------------------------------------------------------
    // SendMessage
    // ------------------------------------------------------------------

    pub fn send(&mut self, slot: usize, new: &NewMessage) -> Answer<Sent> {
        self.queue(slot)?;
        self.may_send(slot)?;
        let sent = self.add(slot, new)?;
        self.settle();
        Ok(sent)
    }

    /// One message into a queue (shared by SendMessage and each batch entry).
    fn add(&mut self, slot: usize, new: &NewMessage) -> Answer<Sent> {
        let fifo = is_fifo(slot);
        let now = self.now;
        let queue = &self.queues[slot];
        // A FIFO queue refuses a per-message delay above 0; 0 keeps the queue's.
        let delay = match new.delay {
            Some(d) if d > 0 && fifo => return Err(ApiError(INVALID_VALUE)),
            Some(d) if !fifo => d,
            _ => queue.settings.delay,
        };
        if let Some(id) = &new.dedup_id {
            let seen = queue
                .dedup
                .iter()
                .find(|d| d.id == *id && now < d.at + FIVE_MINUTES);
            if let Some(original) = seen {
                return Ok(Sent::Duplicate(original.key));
            }
        }
        let key = self.new_key();
        let available_since = self.now_available();
        let queue = &mut self.queues[slot];
        if let Some(id) = &new.dedup_id {
            queue.dedup.retain(|d| d.id != *id);
            queue.dedup.push(Dedup {
                id: id.clone(),
                at: now,
                key,
            });
        }
        let state = if delay > 0 {
            State::Delayed {
                until: now + delay * 1000,
            }
        } else {
            State::Visible
        };
        queue.messages.push(Message::arriving(
            key,
            new.body.clone(),
            new.attributes.clone(),
            new.group.clone(),
            new.dedup_id.clone(),
            state,
            now,
            available_since,
        ));
        Ok(Sent::New(key))
    }

    /// SendMessageBatch: the whole call fails on a bad entry count or
    /// repeated ids; otherwise each entry succeeds or fails alone, as a
    /// SendMessage would (a waiting long poll returns as soon as the first
    /// entry is stored, not after the batch).
    pub fn send_batch(
        &mut self,
        slot: usize,
        entries: &[(String, NewMessage)],
    ) -> Answer<Vec<(String, Answer<Sent>)>> {
        self.queue(slot)?;
        self.may_send(slot)?;
        check_batch(entries.iter().map(|(id, _)| id))?;
        Ok(entries
            .iter()
            .map(|(id, new)| (id.clone(), self.send(slot, new)))
            .collect())
    }

    // ------------------------------------------------------------------
    // ReceiveMessage
    // ------------------------------------------------------------------

    /// ReceiveMessage's numbers: the queue must exist, then each in range.
    pub fn check_receive(
        &self,
        slot: usize,
        max: Option<i64>,
        visibility: Option<i64>,
        wait: Option<i64>,
    ) -> Answer<()> {
        self.queue(slot)?;
        let outside = |v: Option<i64>, lo: i64, hi: i64| v.is_some_and(|v| !(lo..=hi).contains(&v));
        if outside(max, 1, 10) || outside(visibility, 0, 43_200) || outside(wait, 0, 20) {
            return Err(ApiError(INVALID_VALUE));
        }
        Ok(())
    }

    /// `Ok(Ok(messages))` when it answers now, `Ok(Err(poll))` when it waits.
    pub fn receive(
        &mut self,
        slot: usize,
        spec: &ReceiveSpec,
    ) -> Answer<Result<Vec<Delivered>, usize>> {
        self.queue(slot)?;
        if let Some(replayed) = self.replay(slot, spec)? {
            return Ok(Ok(replayed));
        }
        let delivered = self.take(slot, spec);
        if delivered.is_empty() && spec.wait_ms > 0 {
            let id = self.next_poll;
            self.next_poll += 1;
            self.polls.push(Poll {
                id,
                slot,
                spec: spec.clone(),
                until: self.now + spec.wait_ms,
            });
            return Ok(Err(id));
        }
        self.settle();
        Ok(Ok(delivered))
    }

    fn wait_default(&self, slot: usize) -> u64 {
        self.queues[slot].settings.wait * 1000
    }

    /// The queue's ReceiveMessageWaitTimeSeconds applies when the request
    /// does not say.
    pub fn wait_ms(&self, slot: usize, asked: Option<u64>) -> u64 {
        asked.map_or_else(|| self.wait_default(slot), |s| s * 1000)
    }

    /// Delivers up to `spec.max` messages, moving exhausted ones to the DLQ.
    fn take(&mut self, slot: usize, spec: &ReceiveSpec) -> Vec<Delivered> {
        let mut delivered = Vec::new();
        if is_fifo(slot) {
            self.take_fifo(slot, spec, &mut delivered);
        } else {
            // Standard queues are best-effort ordered: oldest arrival first.
            let candidates: Vec<usize> = self.queues[slot]
                .messages
                .iter()
                .filter(|m| m.state == State::Visible)
                .map(|m| m.key)
                .collect();
            for key in candidates {
                if delivered.len() == spec.max {
                    break;
                }
                self.deliver_or_dead_letter(slot, key, spec, &mut delivered);
            }
        }
        self.remember_attempt(slot, spec, &delivered);
        delivered
    }

    /// FIFO: the group whose head became available first, as many of its
    /// messages in order as possible, then the next group.
    fn take_fifo(&mut self, slot: usize, spec: &ReceiveSpec, delivered: &mut Vec<Delivered>) {
        while delivered.len() < spec.max {
            let Some(group) = self.first_available_group(slot) else {
                return;
            };
            let keys: Vec<usize> = self.queues[slot]
                .messages
                .iter()
                .filter(|m| m.group.as_deref() == Some(group.as_str()))
                .map(|m| m.key)
                .collect();
            for key in keys {
                let queue = &self.queues[slot];
                let visible = queue
                    .position(key)
                    .is_some_and(|i| queue.messages[i].state == State::Visible);
                if delivered.len() == spec.max || !visible {
                    break;
                }
                self.deliver_or_dead_letter(slot, key, spec, delivered);
            }
        }
    }

    /// Groups are served in the order their head became available; ties
    /// keep send (arrival) order.
    pub fn first_available_group(&self, slot: usize) -> Option<String> {
        let queue = &self.queues[slot];
        queue
            .groups()
            .into_iter()
            .filter_map(|g| {
                let head = queue.head(&g)?;
                let m = &queue.messages[head];
                (m.state == State::Visible).then_some(((m.available_since, head), g))
            })
            .min()
            .map(|(_, g)| g)
    }

    /// Whether a receive on `slot` would find anything right now.
    fn has_receivable(&self, slot: usize) -> bool {
        if is_fifo(slot) {
            self.first_available_group(slot).is_some()
        } else {
            self.queues[slot]
                .messages
                .iter()
                .any(|m| m.state == State::Visible)
        }
    }

    fn dead_letter_target(&self, slot: usize, message: &Message) -> Option<usize> {
        let (target, max) = self.queues[slot].settings.redrive?;
        (message.receive_count >= max && self.queues[target].exists).then_some(target)
    }

    fn deliver_or_dead_letter(
        &mut self,
        slot: usize,
        key: usize,
        spec: &ReceiveSpec,
        delivered: &mut Vec<Delivered>,
    ) {
        let Some(i) = self.queues[slot].position(key) else {
            return;
        };
        match self.dead_letter_target(slot, &self.queues[slot].messages[i]) {
            Some(target) => self.dead_letter(slot, i, target),
            None => delivered.push(self.deliver(slot, i, spec)),
        }
    }

    fn deliver(&mut self, slot: usize, i: usize, spec: &ReceiveSpec) -> Delivered {
        let now = self.now;
        let queue = &self.queues[slot];
        let visibility = spec.visibility.unwrap_or(queue.settings.visibility_timeout);
        let incarnation = queue.incarnation;
        let handle = self.handles.len();
        let message = &mut self.queues[slot].messages[i];
        message.receive_count += 1;
        message.first_receive.get_or_insert(now);
        message.last_receive = Some(now);
        message.state = State::InFlight {
            until: now + visibility * 1000,
        };
        message.last_handle = Some(handle);
        message.unsettled_until = None;
        self.handles.push(HandleRecord {
            slot,
            incarnation,
            key: message.key,
            text: None,
        });
        view(slot, message, handle, spec)
    }

    /// The lazy dead-letter move: the message keeps its id, body,
    /// attributes and receive count, and names its source.
    fn dead_letter(&mut self, slot: usize, i: usize, target: usize) {
        let now = self.now;
        let mut message = self.queues[slot].messages.remove(i);
        message.state = State::Visible;
        message.dead_letter_source = Some(slot);
        message.available_since = self.now_available();
        message.last_handle = None;
        message.unsettled_until = None;
        if is_fifo(target) {
            // A FIFO DLQ resets retention, and the message's deduplication
            // id becomes its message id (Developer Guide, DLQ redrive).
            message.enqueued_at = now;
            message.dedup_id = self.ids[message.key].clone();
        }
        self.queues[target].messages.push(message);
        // A standard DLQ keeps the enqueue time: the message may be past the
        // DLQ's retention already, and then it is gone before anyone sees it.
        self.queues[target].expire(self.now);
        // A long poll on the DLQ returns as soon as the message is there.
        self.serve(target);
    }

    /// A message id learned from a send's answer: a copy of that message a
    /// FIFO dead-letter move made within the same call, before the id was
    /// known, takes it as its deduplication id now (see `dead_letter`).
    pub fn learned_id(&mut self, key: usize) {
        let id = self.ids[key].clone();
        for (slot, queue) in self.queues.iter_mut().enumerate() {
            let moved = queue
                .messages
                .iter_mut()
                .filter(|m| m.key == key && m.dead_letter_source.is_some() && m.dedup_id.is_none());
            for message in moved.filter(|_| is_fifo(slot)) {
                message.dedup_id = id.clone();
            }
        }
    }

    // ------------------------------------------------------------------
    // ReceiveRequestAttemptId (FIFO)
    // ------------------------------------------------------------------

    /// A retry within five minutes, with nothing changed since, returns the
    /// same messages and handles and resets their visibility. A message
    /// deleted, or whose visibility a call changed, makes the attempt not
    /// retryable (an error); messages that came back by themselves let the
    /// retry receive afresh (`Ok(None)`).
    fn replay(&mut self, slot: usize, spec: &ReceiveSpec) -> Answer<Option<Vec<Delivered>>> {
        let Some(id) = spec.attempt.as_ref().filter(|_| is_fifo(slot)) else {
            return Ok(None);
        };
        let now = self.now;
        let queue = &mut self.queues[slot];
        queue.attempts.retain(|a| now < a.at + FIVE_MINUTES);
        let Some(attempt) = queue.attempts.iter().find(|a| a.id == *id).cloned() else {
            return Ok(None);
        };
        let mut unchanged = true;
        for (key, handle) in &attempt.delivered {
            let message = queue.position(*key).map(|i| &queue.messages[i]);
            let same_handle = message.filter(|m| m.last_handle == Some(*handle));
            let replayable = same_handle.is_some_and(|m| {
                m.state
                    == State::InFlight {
                        until: attempt.until,
                    }
            });
            if replayable {
                continue;
            }
            unchanged = false;
            let changed_by_a_call = message.is_none()
                || same_handle.is_some_and(|m| {
                    matches!(m.state, State::InFlight { .. }) || now < attempt.until
                });
            if changed_by_a_call {
                return Err(ApiError(INVALID_VALUE));
            }
        }
        if !unchanged {
            return Ok(None);
        }
        let visibility = attempt
            .visibility
            .unwrap_or(queue.settings.visibility_timeout);
        let until = now + visibility * 1000;
        let mut replayed = Vec::new();
        for (key, handle) in &attempt.delivered {
            let Some(i) = queue.position(*key) else {
                continue;
            };
            queue.messages[i].state = State::InFlight { until };
            replayed.push(view(slot, &queue.messages[i], *handle, spec));
        }
        if let Some(stored) = queue.attempts.iter_mut().find(|a| a.id == *id) {
            stored.until = until;
        }
        Ok(Some(replayed))
    }

    /// An attempt that delivered nothing is not remembered.
    fn remember_attempt(&mut self, slot: usize, spec: &ReceiveSpec, delivered: &[Delivered]) {
        let Some(id) = spec.attempt.as_ref().filter(|_| is_fifo(slot)) else {
            return;
        };
        if delivered.is_empty() {
            return;
        }
        let now = self.now;
        let queue = &mut self.queues[slot];
        let visibility = spec.visibility.unwrap_or(queue.settings.visibility_timeout);
        queue.attempts.retain(|a| a.id != *id);
        queue.attempts.push(Attempt {
            id: id.clone(),
            at: now,
            delivered: delivered.iter().map(|d| (d.key, d.handle)).collect(),
            visibility: spec.visibility,
            until: now + visibility * 1000,
        });
    }

    // ------------------------------------------------------------------
    // DeleteMessage, ChangeMessageVisibility
    // ------------------------------------------------------------------

    /// The message a handle names, if it is this queue's handle; `Err` for
    /// text this queue never issued (garbage, another queue, or a deleted
    /// queue of the same name).
    fn resolve_handle(&self, slot: usize, handle: Option<usize>) -> Answer<Option<usize>> {
        let queue = self.queue(slot)?;
        let record = handle
            .map(|h| &self.handles[h])
            .filter(|r| r.slot == slot && r.incarnation == queue.incarnation)
            .ok_or(ApiError(INVALID_HANDLE))?;
        Ok(queue.position(record.key))
    }

    /// Is `handle` the message's latest receipt, still in flight?
    fn current(&self, slot: usize, i: usize, handle: Option<usize>) -> bool {
        let m = &self.queues[slot].messages[i];
        m.last_handle == handle && matches!(m.state, State::InFlight { .. })
    }

    pub fn delete(&mut self, slot: usize, handle: Option<usize>) -> Answer<()> {
        // Deleting a message that is already gone answers 200.
        let Some(i) = self.resolve_handle(slot, handle)? else {
            return Ok(());
        };
        // A FIFO queue refuses a handle whose visibility has expired; a
        // standard queue deletes with any handle of the message.
        if is_fifo(slot) && !self.current(slot, i, handle) {
            return Err(ApiError(INVALID_VALUE));
        }
        self.queues[slot].messages.remove(i);
        // Deleting a FIFO head unlocks its group for waiting polls.
        self.settle();
        Ok(())
    }

    pub fn delete_batch(
        &mut self,
        slot: usize,
        entries: &[(String, Option<usize>)],
    ) -> Answer<Vec<(String, Answer<()>)>> {
        self.queue(slot)?;
        check_batch(entries.iter().map(|(id, _)| id))?;
        // Entry by entry, each as the single call would be.
        Ok(entries
            .iter()
            .map(|(id, handle)| (id.clone(), self.delete(slot, *handle)))
            .collect())
    }

    pub fn change_visibility(
        &mut self,
        slot: usize,
        handle: Option<usize>,
        seconds: i64,
    ) -> Answer<()> {
        let found = self.resolve_handle(slot, handle)?;
        if !(0..=43_200).contains(&seconds) {
            return Err(ApiError(INVALID_VALUE));
        }
        let Some(i) = found else {
            // "Message does not exist or is not available for visibility timeout change."
            return Err(ApiError(INVALID_VALUE));
        };
        if is_fifo(slot) && !self.current(slot, i, handle) {
            return Err(ApiError(INVALID_VALUE));
        }
        let now = self.now;
        let until = now + seconds as u64 * 1000;
        let comeback = self.now_available();
        let message = &mut self.queues[slot].messages[i];
        let received = message.last_receive.unwrap_or(0);
        if until - received > TWELVE_HOURS {
            return Err(ApiError(INVALID_VALUE));
        }
        match message.state {
            State::InFlight { .. } if seconds == 0 => {
                message.state = State::Visible;
                message.available_since = comeback;
            }
            State::InFlight { .. } => message.state = State::InFlight { until },
            // Only a standard queue gets here (expired handle): unsettled.
            _ => message.unsettled_until = (seconds > 0).then_some(until),
        }
        self.settle();
        Ok(())
    }

    pub fn change_visibility_batch(
        &mut self,
        slot: usize,
        entries: &[(String, Option<usize>, i64)],
    ) -> Answer<Vec<(String, Answer<()>)>> {
        self.queue(slot)?;
        check_batch(entries.iter().map(|(id, _, _)| id))?;
        Ok(entries
            .iter()
            .map(|(id, handle, seconds)| {
                (id.clone(), self.change_visibility(slot, *handle, *seconds))
            })
            .collect())
    }

    /// The harness saw the engine hide an unsettled message again.
    pub fn hide_unsettled(&mut self, slot: usize, i: usize) {
        let message = &mut self.queues[slot].messages[i];
        if let Some(until) = message.unsettled_until.take() {
            message.state = State::InFlight { until };
        }
    }

    // ------------------------------------------------------------------
    // Queues: purge, attributes, delete, create
    // ------------------------------------------------------------------

    /// Deletes every message and clears the deduplication window; a second
    /// purge within 60 s is refused.
    pub fn purge(&mut self, slot: usize) -> Answer<()> {
        self.queue(slot)?;
        let now = self.now;
        let queue = &mut self.queues[slot];
        if queue.last_purge.is_some_and(|at| now < at + ONE_MINUTE) {
            return Err(ApiError(PURGE_IN_PROGRESS));
        }
        queue.last_purge = Some(now);
        queue.messages.clear();
        queue.dedup.clear();
        queue.attempts.clear();
        Ok(())
    }

    pub fn set_attribute(&mut self, slot: usize, attribute: &SetAttribute) -> Answer<()> {
        self.queue(slot)?;
        let in_range = |v: i64, lo: i64, hi: i64| {
            if (lo..=hi).contains(&v) {
                Ok(v as u64)
            } else {
                Err(ApiError(INVALID_ATTRIBUTE_VALUE))
            }
        };
        let mut settings = self.queues[slot].settings.clone();
        match *attribute {
            SetAttribute::VisibilityTimeout(v) => {
                settings.visibility_timeout = in_range(v, 0, 43_200)?
            }
            SetAttribute::DelaySeconds(v) => settings.delay = in_range(v, 0, 900)?,
            SetAttribute::MessageRetentionPeriod(v) => {
                settings.retention = in_range(v, 60, 1_209_600)?
            }
            SetAttribute::ReceiveMessageWaitTimeSeconds(v) => settings.wait = in_range(v, 0, 20)?,
            SetAttribute::RedrivePolicy(None) => settings.redrive = None,
            SetAttribute::RedrivePolicy(Some((target, max))) => {
                // The DLQ must exist and be of the same type.
                if !self.queues[target].exists || is_fifo(target) != is_fifo(slot) {
                    return Err(ApiError(INVALID_VALUE));
                }
                // A count out of range refuses the policy as a parameter.
                if !(1..=1000).contains(&max) {
                    return Err(ApiError(INVALID_VALUE));
                }
                settings.redrive = Some((target, max as u32));
            }
        }
        self.queues[slot].settings = settings;
        // A lower retention applies to the messages already there.
        self.settle();
        Ok(())
    }

    /// Deletes the queue: its messages go, its waiting polls fail, and move
    /// tasks reading from it (or writing to it by name) fail.
    pub fn delete_queue(&mut self, slot: usize) -> Answer<()> {
        self.queue(slot)?;
        let now = self.now;
        let queue = &mut self.queues[slot];
        queue.exists = false;
        queue.deleted_at = Some(now);
        queue.messages.clear();
        queue.dedup.clear();
        queue.attempts.clear();
        let (gone, kept): (Vec<Poll>, Vec<Poll>) =
            self.polls.drain(..).partition(|p| p.slot == slot);
        self.polls = kept;
        for poll in gone {
            self.answered.push((poll.id, Err(ApiError(NO_QUEUE))));
        }
        for task in &mut self.tasks {
            let involved = task.source == slot || task.destination == Some(slot);
            if task.status == TaskStatus::Running && involved {
                task.status = TaskStatus::Failed;
                task.failure = Some(NO_QUEUE);
            }
        }
        Ok(())
    }

    /// CreateQueue with the slot's initial attributes: the existing queue
    /// when they match, `QueueAlreadyExists` when they differ, and a
    /// deleted name only after 60 s. The request is validated first: its
    /// RedrivePolicy needs an existing DLQ.
    pub fn create_queue(&mut self, slot: usize) -> Answer<()> {
        let wanted = Settings::initial(slot);
        if let Some((target, _)) = wanted.redrive {
            if !self.queues[target].exists {
                return Err(ApiError(INVALID_VALUE));
            }
        }
        let now = self.now;
        let queue = &mut self.queues[slot];
        if queue.exists {
            let same = queue.settings.visibility_timeout == wanted.visibility_timeout
                && queue.settings.retention == wanted.retention
                && (wanted.redrive.is_none() || queue.settings.redrive == wanted.redrive);
            return if same {
                Ok(())
            } else {
                Err(ApiError(ALREADY_EXISTS))
            };
        }
        if queue.deleted_at.is_some_and(|at| now < at + ONE_MINUTE) {
            return Err(ApiError(DELETED_RECENTLY));
        }
        let incarnation = queue.incarnation + 1;
        *queue = Queue {
            incarnation,
            ..Queue::new(slot)
        };
        Ok(())
    }

    // ------------------------------------------------------------------
    // Message move tasks
    // ------------------------------------------------------------------

    /// A queue is a DLQ while some existing queue's RedrivePolicy targets it.
    fn is_dead_letter_queue(&self, slot: usize) -> bool {
        self.queues
            .iter()
            .any(|q| q.exists && q.settings.redrive.is_some_and(|(t, _)| t == slot))
    }

    pub fn start_move_task(
        &mut self,
        source: usize,
        destination: Option<usize>,
        rate: Option<u64>,
    ) -> Answer<usize> {
        if !self.queues[source].exists {
            return Err(ApiError(NOT_FOUND));
        }
        if !self.is_dead_letter_queue(source) {
            return Err(ApiError(INVALID_VALUE));
        }
        if let Some(d) = destination {
            if !self.queues[d].exists {
                return Err(ApiError(NOT_FOUND));
            }
            if is_fifo(d) != is_fifo(source) {
                return Err(ApiError(INVALID_VALUE));
            }
        }
        // A task winding down after a cancel is still the source's one task.
        let running = self.tasks.iter().any(|t| {
            t.source == source
                && matches!(t.status, TaskStatus::Running | TaskStatus::Cancelling(_))
        });
        if running {
            return Err(ApiError(INVALID_VALUE));
        }
        self.tasks.push(Task {
            source,
            destination,
            rate,
            status: TaskStatus::Running,
            moved: 0,
            to_move: self.queues[source].count(|s| *s == State::Visible) as u64,
            started: self.now,
            failure: None,
            handle: None,
        });
        Ok(self.tasks.len() - 1)
    }

    /// The source's tasks, newest first (of every queue that had its name).
    pub fn list_move_tasks(&self, source: usize, max: usize) -> Answer<Vec<&Task>> {
        if !self.queues[source].exists {
            return Err(ApiError(NOT_FOUND));
        }
        Ok(self
            .tasks
            .iter()
            .rev()
            .filter(|t| t.source == source)
            .take(max)
            .collect())
    }

    /// Cancels a running task; a handle of a task no longer running names
    /// nothing that can be cancelled.
    pub fn cancel_move_task(&mut self, task: Option<usize>) -> Answer<u64> {
        let task = task
            .map(|t| &mut self.tasks[t])
            .ok_or(ApiError(INVALID_VALUE))?;
        if task.status != TaskStatus::Running {
            return Err(ApiError(NOT_FOUND));
        }
        task.status = TaskStatus::Cancelling(self.now);
        Ok(task.moved)
    }

    /// The message a task would move next: the oldest visible one
    /// (standard), the head of the first available group (FIFO).
    fn next_to_move(&self, slot: usize) -> Option<usize> {
        let queue = &self.queues[slot];
        if is_fifo(slot) {
            queue.head(&self.first_available_group(slot)?)
        } else {
            queue
                .messages
                .iter()
                .position(|m| m.state == State::Visible)
        }
    }

    fn destination_of(&self, task: &Task, message: &Message) -> Option<usize> {
        task.destination
            .or(message.dead_letter_source)
            .filter(|d| self.queues[*d].exists)
    }

    /// Applies one step the engine's log reports, after checking that the
    /// model allows it at this moment. Pacing itself is not modelled: the
    /// rate is a maximum, checked as an upper bound on messages moved.
    fn apply_task_step(&mut self, step: &TaskStep) -> Result<(), String> {
        match step {
            TaskStep::Moved {
                source,
                message_id,
                new_message_id,
                ..
            } => self.apply_task_moved(*source, message_id, new_message_id),
            TaskStep::Ended {
                task,
                status,
                moved,
                ..
            } => self.apply_task_ended(*task, status, *moved),
        }
    }

    /// A task moved the next message of `source` (checked against the
    /// model's next message, the task's count and its rate).
    fn apply_task_moved(
        &mut self,
        source: usize,
        message_id: &str,
        new_message_id: &str,
    ) -> Result<(), String> {
        let t = self
            .tasks
            .iter()
            .rposition(|t| t.source == source && t.status == TaskStatus::Running)
            .ok_or_else(|| {
                format!(
                    "a message moved from {} with no task running",
                    NAMES[source]
                )
            })?;
        let task = self.tasks[t].clone();
        let i = self
            .next_to_move(source)
            .ok_or("a task moved a message while none was visible")?;
        let queue = &self.queues[source];
        let message = &queue.messages[i];
        if self.ids[message.key].as_deref() != Some(message_id) {
            return Err(format!(
                "the task moved {message_id}, but the next message to move is {:?}",
                self.ids[message.key]
            ));
        }
        if task.moved >= task.to_move {
            return Err("a task moved more messages than it had to move".into());
        }
        let rate = task.rate.unwrap_or(500);
        if task.moved * 1000 > rate * (self.now - task.started) {
            return Err(format!(
                "a task moved message {} at {} ms, faster than {rate} per second",
                task.moved + 1,
                self.now - task.started
            ));
        }
        let destination = self
            .destination_of(&task, message)
            .ok_or("a task moved a message to a queue that does not exist")?;
        if self.key_of(new_message_id).is_some() {
            return Err(format!("redriven message reuses id {new_message_id}"));
        }
        self.redrive(source, i, destination, new_message_id);
        self.tasks[t].moved += 1;
        self.settle();
        Ok(())
    }

    /// A task ended: cancelled, completed or failed, as the model allows.
    fn apply_task_ended(&mut self, task: usize, status: &str, moved: u64) -> Result<(), String> {
        let t = &self.tasks[task];
        if moved != t.moved {
            return Err(format!(
                "task ended having moved {moved}, model {}",
                t.moved
            ));
        }
        if let TaskStatus::Cancelling(since) = t.status {
            // A cancelled task stops later, having moved nothing more.
            if status != "CANCELLED" || self.now <= since {
                return Err(format!(
                    "a task cancelled at {since} ms ended {status} at {} ms",
                    self.now
                ));
            }
            self.tasks[task].status = TaskStatus::Cancelled;
            self.settle();
            return Ok(());
        }
        if t.status != TaskStatus::Running {
            // Ended by a call the model already applied (delete).
            return if t.status.as_str() == status {
                Ok(())
            } else {
                Err(format!("task ended {status}, model {:?}", t.status))
            };
        }
        let next = self.next_to_move(t.source);
        let allowed = match status {
            "COMPLETED" => t.moved == t.to_move || next.is_none(),
            "FAILED" => next.is_some_and(|i| {
                let message = &self.queues[t.source].messages[i];
                self.destination_of(t, message).is_none()
            }),
            _ => false,
        };
        if !allowed {
            return Err(format!(
                "task ended {status} after {moved} of {} with next {next:?}",
                t.to_move
            ));
        }
        let t = &mut self.tasks[task];
        if status == "COMPLETED" {
            t.status = TaskStatus::Completed;
        } else {
            t.status = TaskStatus::Failed;
            t.failure = Some(NO_QUEUE);
        }
        self.settle();
        Ok(())
    }

    /// Redrive makes a new message (AWS: "All redriven messages are
    /// considered new messages ... assigned a new messageID and
    /// enqueueTime"): same body, attributes and group, nothing received.
    fn redrive(&mut self, source: usize, i: usize, destination: usize, new_id: &str) {
        let now = self.now;
        let old = self.queues[source].messages.remove(i);
        let key = self.new_key();
        self.ids[key] = Some(new_id.to_string());
        let available_since = self.now_available();
        self.queues[destination].messages.push(Message::arriving(
            key,
            old.body,
            old.attributes,
            old.group,
            old.dedup_id,
            State::Visible,
            now,
            available_since,
        ));
    }

    /// A running task must be done once it had time to move everything at
    /// one message per second (the slowest rate a task can have), plus a
    /// second of slack.
    pub fn overdue_task(&self) -> Option<&Task> {
        self.tasks.iter().find(|t| {
            let rate = t.rate.unwrap_or(1);
            match t.status {
                TaskStatus::Running => self.now > t.started + (t.to_move + 1) * 1000 / rate + 1000,
                // Cancelling lasts about one step: at most a second.
                TaskStatus::Cancelling(since) => self.now > since + 1000,
                _ => false,
            }
        })
    }

    // ------------------------------------------------------------------
    // Time
    // ------------------------------------------------------------------

    /// Every future moment at which something in the model changes by
    /// itself or a window closes, sorted and distinct.
    pub fn deadlines(&self) -> Vec<u64> {
        let retention = self.queues.iter().filter(|q| q.exists).flat_map(|q| {
            q.messages
                .iter()
                .map(|m| m.enqueued_at + q.settings.retention * 1000)
        });
        let mut all: Vec<u64> = retention
            .chain(self.timers())
            .chain(self.windows())
            .filter(|t| *t > self.now)
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The future ends of the 60 s and 5 min windows: a deleted name, a
    /// purge, a deduplication id, a receive attempt id. Sorted, distinct.
    pub fn windows(&self) -> Vec<u64> {
        let mut all = Vec::new();
        for queue in &self.queues {
            all.extend(queue.deleted_at.map(|at| at + ONE_MINUTE));
            if queue.exists {
                all.extend(queue.dedup.iter().map(|d| d.at + FIVE_MINUTES));
                all.extend(queue.attempts.iter().map(|a| a.at + FIVE_MINUTES));
                all.extend(queue.last_purge.map(|at| at + ONE_MINUTE));
            }
        }
        all.retain(|t| *t > self.now);
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The future moments at which a delay or a visibility timeout ends or
    /// a long poll's wait ends, sorted and distinct.
    pub fn timers(&self) -> Vec<u64> {
        let mut all: Vec<u64> = self
            .queues
            .iter()
            .filter(|q| q.exists)
            .flat_map(|q| &q.messages)
            .filter_map(|m| match m.state {
                State::Delayed { until } | State::InFlight { until } => Some(until),
                State::Visible => None,
            })
            .chain(self.polls.iter().map(|p| p.until))
            .filter(|t| *t > self.now)
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// Moments at which the model's state changes by itself.
    fn next_change(&self) -> Option<u64> {
        let messages = self.queues.iter().filter(|q| q.exists).flat_map(|q| {
            q.messages.iter().flat_map(move |m| {
                let timer = match m.state {
                    State::Delayed { until } | State::InFlight { until } => Some(until),
                    State::Visible => None,
                };
                timer
                    .into_iter()
                    .chain([m.enqueued_at + q.settings.retention * 1000])
            })
        });
        messages
            .chain(self.polls.iter().map(|p| p.until))
            .filter(|t| *t > self.now)
            .min()
    }

    /// Moves time forward by `ms`, visiting every moment something is due
    /// in order. Move-task steps come from the engine's log (`steps`, in
    /// log order) and are checked as they are applied.
    pub fn advance(&mut self, ms: u64, steps: &[TaskStep]) -> Result<(), String> {
        let target = self.now + ms;
        let mut steps = steps.iter().peekable();
        loop {
            let next_step = steps.peek().map(|s| s.at());
            let next = [self.next_change(), next_step].into_iter().flatten().min();
            match next {
                Some(t) if t <= target => {
                    self.now = self.now.max(t);
                    self.settle();
                    self.time_out_polls();
                    while let Some(step) = steps.next_if(|s| s.at() <= self.now) {
                        self.apply_task_step(step)?;
                    }
                }
                _ => break,
            }
        }
        self.now = target;
        self.settle();
        self.time_out_polls();
        Ok(())
    }

    /// Fires what is due now and serves waiting polls until nothing changes:
    /// a message received with visibility 0 is visible again at once, and
    /// may answer the next waiting poll.
    pub fn settle(&mut self) {
        while self.fire_due() | self.serve_all() {}
    }

    fn fire_due(&mut self) -> bool {
        let mut changed = false;
        for slot in 0..self.queues.len() {
            changed |= self.fire_due_in(slot);
        }
        changed
    }

    /// Expires and brings back what is due now in one queue.
    fn fire_due_in(&mut self, slot: usize) -> bool {
        let now = self.now;
        let mut changed = false;
        let mut availability = self.availability;
        let queue = &mut self.queues[slot];
        if !queue.exists {
            return false;
        }
        changed |= queue.expire(now);
        for m in &mut queue.messages {
            match m.state {
                State::Delayed { .. } if m.visible_by(now) => m.state = State::Visible,
                State::InFlight { .. } if m.visible_by(now) => {
                    m.state = State::Visible;
                    availability += 1;
                    m.available_since = availability;
                }
                _ => continue,
            }
            changed = true;
        }
        self.availability = availability;
        changed
    }

    fn serve_all(&mut self) -> bool {
        let before = self.answered.len();
        for slot in 0..self.queues.len() {
            self.serve(slot);
        }
        self.answered.len() != before
    }

    /// Answers the oldest waiting polls on `slot` while it has messages.
    fn serve(&mut self, slot: usize) {
        while self.queues[slot].exists && self.has_receivable(slot) {
            let Some(poll) = self.polls.iter().find(|p| p.slot == slot).cloned() else {
                return;
            };
            let delivered = self.take(slot, &poll.spec);
            if delivered.is_empty() {
                return;
            }
            // By id: a dead-letter move in `take` may have answered DLQ polls.
            self.polls.retain(|p| p.id != poll.id);
            self.answered.push((poll.id, Ok(delivered)));
            // Messages this poll received with VisibilityTimeout 0 are
            // visible again at once: the next waiting poll finds them (and
            // moves one whose count reached maxReceiveCount to the DLQ).
            self.fire_due_in(slot);
        }
    }

    /// Polls whose wait has ended answer empty.
    fn time_out_polls(&mut self) {
        let now = self.now;
        let (ended, waiting): (Vec<Poll>, Vec<Poll>) =
            self.polls.drain(..).partition(|p| p.until <= now);
        self.polls = waiting;
        for poll in ended {
            self.answered.push((poll.id, Ok(Vec::new())));
        }
    }
}

/// Rules of every batch call: 1 to 10 entries with distinct ids.
fn check_batch<'a>(ids: impl ExactSizeIterator<Item = &'a String>) -> Answer<()> {
    match ids.len() {
        0 => return Err(ApiError(EMPTY_BATCH)),
        11.. => return Err(ApiError(TOO_MANY_ENTRIES)),
        _ => {}
    }
    let mut seen = Vec::new();
    for id in ids {
        if seen.contains(&id) {
            return Err(ApiError(IDS_NOT_DISTINCT));
        }
        seen.push(id);
    }
    Ok(())
}

/// Does `names` ask for message attribute `name`? `All`, `.*` and `*` mean
/// all, `prefix.*` a prefix, anything else an exact name.
fn wants(names: &[String], name: &str) -> bool {
    names.iter().any(|n| match n.as_str() {
        "All" | ".*" | "*" => true,
        n => n
            .strip_suffix(".*")
            .map_or(n == name, |prefix| name.starts_with(prefix)),
    })
}

/// What a receive shows of `message`, given what `spec` asks for.
fn view(slot: usize, message: &Message, handle: usize, spec: &ReceiveSpec) -> Delivered {
    let asked = |name: &str| spec.system_names.iter().any(|n| n == "All" || n == name);
    let fifo = is_fifo(slot);
    let mut attributes: BTreeMap<&'static str, String> = BTreeMap::new();
    let mut put = |name: &'static str, value: Option<String>| {
        if let (true, Some(value)) = (asked(name), value) {
            attributes.insert(name, value);
        }
    };
    put(
        "ApproximateFirstReceiveTimestamp",
        message.first_receive.map(|t| (EPOCH_MS + t).to_string()),
    );
    put(
        "ApproximateReceiveCount",
        Some(message.receive_count.to_string()),
    );
    put(
        "DeadLetterQueueSourceArn",
        message.dead_letter_source.map(arn),
    );
    put(
        "MessageDeduplicationId",
        message.dedup_id.clone().filter(|_| fifo),
    );
    put("MessageGroupId", message.group.clone());
    put("SenderId", Some(ACCOUNT.to_string()));
    put(
        "SentTimestamp",
        Some((EPOCH_MS + message.sent_at).to_string()),
    );
    Delivered {
        slot,
        key: message.key,
        handle,
        body: message.body.clone(),
        attributes: attributes.into_iter().collect(),
        wants_sequence: fifo && asked("SequenceNumber"),
        dedup_is_id: fifo
            && asked("MessageDeduplicationId")
            && message.dead_letter_source.is_some()
            && message.dedup_id.is_none(),
        message_attributes: message
            .attributes
            .iter()
            .filter(|(name, _, _)| wants(&spec.attribute_names, name))
            .cloned()
            .collect(),
    }
}
