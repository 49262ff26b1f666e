//! The oracle's own reading of a run's log, written apart from the story
//! (src/teach/): what happened, in log order, as the triggers of the
//! scenario format name it (docs/scenario-format.md), each message's
//! history, and the counts the recap and the end conditions speak of.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use queuelab_engine::{EventKind, Millis};
use queuelab_simulation::{Kind, LogEvent, SimEvent, TriggerEvent, UnlockCause};

/// One event as a trigger sees it.
#[derive(Clone, Debug)]
pub struct Happening {
    pub seq: u64,
    pub at: Millis,
    pub event: TriggerEvent,
    pub queue: Option<String>,
    pub consumer: Option<String>,
    pub group: Option<String>,
    pub receive_count: Option<u32>,
    pub count: Option<u64>,
    /// The message's label (its body's first 80 characters).
    pub message: Option<String>,
    /// `groupUnlocked`: how the group's head left flight.
    pub cause: Option<UnlockCause>,
    /// `callFailed`: the error code SQS answered.
    pub code: Option<String>,
    /// `lambdaReturned`: the invocation's result; `alarmChanged`: the
    /// state the alarm went to.
    pub result: Option<String>,
}

/// One receive of a message.
#[derive(Clone, Debug)]
pub struct Receive {
    pub seq: u64,
    pub at: Millis,
    pub by: Option<String>,
    pub receive_count: u32,
}

/// What the log says of one message.
#[derive(Clone, Debug, Default)]
pub struct Message {
    pub label: String,
    pub queue: String,
    pub group: Option<String>,
    pub sent_at: Millis,
    pub receives: Vec<Receive>,
    /// Every event naming it: (seq, moment, event).
    pub history: Vec<(u64, Millis, Kind)>,
}

#[derive(Default)]
pub struct Facts {
    pub happenings: Vec<Happening>,
    pub messages: BTreeMap<String, Message>,
    /// Side effects per message: who performed each, in order.
    pub side_effects: BTreeMap<String, Vec<String>>,
    pub duplicate_deliveries: u64,
    pub lost: u64,
    pub expired: u64,
    pub dead_lettered: u64,
    pub empty_receives: u64,
    pub empty_by: BTreeMap<String, u64>,
    /// Each queue's KMS requests so far.
    pub kms_by_queue: BTreeMap<String, u64>,
    /// (worker, message): purged while the worker was still working on it.
    pub purged_held: BTreeSet<(String, String)>,
    /// Each message's wait before its first receive (or until the end):
    /// (ms, label).
    pub waits: Vec<(Millis, String)>,
}

/// The message an event is about, if any.
pub fn message_of(kind: &Kind) -> Option<String> {
    match kind {
        Kind::Sqs(k) => match k {
            EventKind::Sent { message_id, .. }
            | EventKind::Received { message_id, .. }
            | EventKind::VisibilityChanged { message_id, .. }
            | EventKind::VisibilityExpired { message_id, .. }
            | EventKind::Deleted { message_id, .. }
            | EventKind::DeleteMissedCopy { message_id, .. }
            | EventKind::MovedToDeadLetterQueue { message_id, .. }
            | EventKind::Expired { message_id, .. }
            | EventKind::Purged { message_id, .. }
            | EventKind::Redriven { message_id, .. }
            | EventKind::DelayEnded { message_id, .. } => Some(message_id.to_string()),
            _ => None,
        },
        Kind::Simulation(s) => match s {
            SimEvent::ProcessingStarted { message_id, .. }
            | SimEvent::DuplicateDelivery { message_id, .. }
            | SimEvent::SideEffectPerformed { message_id, .. }
            | SimEvent::SkippedAlreadyProcessed { message_id, .. }
            | SimEvent::ProcessingFailed { message_id, .. }
            | SimEvent::WorkerCrashed { message_id, .. }
            | SimEvent::MessageLost { message_id, .. } => Some(message_id.clone()),
            _ => None,
        },
    }
}

/// The messages a Lambda function gave back in one event (each such
/// message's history holds it).
pub fn batch_of(kind: &Kind) -> &[String] {
    match kind {
        Kind::Simulation(
            SimEvent::LambdaReturned { failed: ids, .. }
            | SimEvent::LambdaThrottled { messages: ids, .. },
        ) => ids,
        _ => &[],
    }
}

/// A worker's work on a message ended (done, skipped, failed or crashed).
pub fn work_ended(kind: &Kind, consumer: &str) -> bool {
    match kind {
        Kind::Simulation(
            SimEvent::SideEffectPerformed { consumer: c, .. }
            | SimEvent::SkippedAlreadyProcessed { consumer: c, .. }
            | SimEvent::ProcessingFailed { consumer: c, .. }
            | SimEvent::WorkerCrashed { consumer: c, .. },
        ) => &**c == consumer,
        _ => false,
    }
}

/// Messages waiting for their first receive: id -> since.
type Waiting = BTreeMap<String, Millis>;
/// (consumer, message): received, and not yet worked on.
type Unworked = BTreeSet<(String, String)>;

impl Facts {
    pub fn read(events: &[LogEvent], end: Millis) -> Facts {
        let mut f = Facts::default();
        let mut waiting = Waiting::new();
        let mut unworked = Unworked::new();
        for e in events {
            let ids = message_of(&e.kind).into_iter();
            for id in ids.chain(batch_of(&e.kind).iter().cloned()) {
                let m = f.messages.entry(id).or_default();
                m.history.push((e.seq, e.time_ms, e.kind.clone()));
            }
            f.read_one(e, &mut waiting, &mut unworked);
        }
        // A message still waiting at the end has waited since then; one
        // whose delay ends later has not begun to wait.
        for (id, since) in waiting.into_iter().filter(|(_, since)| *since < end) {
            let label = f
                .messages
                .get(&id)
                .map(|m| m.label.clone())
                .unwrap_or_default();
            f.waits.push((end.saturating_sub(since), label));
        }
        f
    }

    fn happen(&mut self, e: &LogEvent, h: Happening) {
        // A message is known by its body for every event about it, even
        // after its delete (a worker that deleted first still works on it).
        // A bucket's events name an object by its key instead.
        let id = message_of(&e.kind);
        let message = id
            .and_then(|id| self.messages.get(&id))
            .map(|m| m.label.clone())
            .or(h.message.clone());
        self.happenings.push(Happening {
            seq: e.seq,
            at: e.time_ms,
            message,
            ..h
        });
    }

    /// The latest receive of a message.
    fn latest(&self, id: &str) -> Option<Receive> {
        self.messages
            .get(id)
            .and_then(|m| m.receives.last().cloned())
    }

    fn read_one(&mut self, e: &LogEvent, waiting: &mut Waiting, unworked: &mut Unworked) {
        use TriggerEvent as T;
        let h = |event, queue: &Arc<str>| Happening::new(event, Some(queue.to_string()));
        match &e.kind {
            Kind::Sqs(k) => match k {
                EventKind::Sent { .. } => self.sent(e, k, waiting),
                EventKind::Received { .. } => self.received(e, k, waiting, unworked),
                EventKind::VisibilityChanged {
                    queue,
                    message_id,
                    by,
                    ..
                } => {
                    let rc = self
                        .latest(&message_id.to_string())
                        .map(|r| r.receive_count);
                    let happening = h(T::VisibilityChanged, queue).by(by).count_of(rc);
                    self.happen(e, happening);
                }
                EventKind::VisibilityExpired {
                    queue,
                    message_id,
                    holder,
                } => {
                    let rc = self
                        .latest(&message_id.to_string())
                        .map(|r| r.receive_count);
                    let happening = h(T::VisibilityExpired, queue).by(holder).count_of(rc);
                    self.happen(e, happening);
                }
                EventKind::Deleted {
                    queue,
                    message_id,
                    by,
                } => self.deleted(e, queue, &message_id.to_string(), by, waiting, unworked),
                EventKind::MovedToDeadLetterQueue {
                    queue,
                    receive_count,
                    ..
                } => {
                    self.dead_lettered += 1;
                    let happening =
                        h(T::MovedToDeadLetterQueue, queue).count_of(Some(*receive_count));
                    self.happen(e, happening);
                }
                EventKind::DuplicateDropped { queue, by, .. } => {
                    self.happen(e, h(T::DuplicateDropped, queue).by(by));
                }
                EventKind::GroupLocked { queue, group } => {
                    self.happen(
                        e,
                        h(T::GroupLocked, queue).in_group(Some(group.to_string())),
                    );
                }
                EventKind::GroupUnlocked {
                    queue,
                    group,
                    cause,
                } => {
                    let happening = h(T::GroupUnlocked, queue).in_group(Some(group.to_string()));
                    let cause = Some(*cause);
                    self.happen(e, Happening { cause, ..happening });
                }
                EventKind::EmptyReceive { queue, by } => {
                    self.empty_receives += 1;
                    if let Some(by) = by {
                        *self.empty_by.entry(by.to_string()).or_default() += 1;
                    }
                    self.happen(e, h(T::EmptyReceive, queue).by(by));
                }
                EventKind::Expired { queue, message_id } => {
                    self.expired += 1;
                    self.waited(&message_id.to_string(), e.time_ms, waiting);
                    self.happen(e, h(T::Expired, queue));
                }
                EventKind::Purged { .. }
                | EventKind::Redriven { .. }
                | EventKind::MoveTaskCancelling { .. }
                | EventKind::MoveTaskEnded { .. }
                | EventKind::QueuePurged { .. } => self.operation(e, k, waiting, unworked),
                EventKind::AccessDecided { .. } | EventKind::KmsRequested { .. } => {
                    self.security(e, k)
                }
                _ => {}
            },
            Kind::Simulation(sim) => self.read_sim(e, sim, unworked),
        }
    }

    /// The gate's decision on another account's call, or a KMS request
    /// (with the queue's count of them so far).
    fn security(&mut self, e: &LogEvent, k: &EventKind) {
        use TriggerEvent as T;
        let h = |event, queue: &Arc<str>| Happening::new(event, Some(queue.to_string()));
        match k {
            EventKind::AccessDecided {
                queue, by, allowed, ..
            } => {
                let event = if *allowed {
                    T::AccessAllowed
                } else {
                    T::AccessDenied
                };
                self.happen(e, h(event, queue).by(by));
            }
            EventKind::KmsRequested { queue, by, .. } => {
                let n = self.kms_by_queue.entry(queue.to_string()).or_default();
                *n += 1;
                let count = Some(*n);
                self.happen(
                    e,
                    Happening {
                        count,
                        ..h(T::KmsRequested, queue).by(by)
                    },
                );
            }
            _ => {}
        }
    }

    /// What an operator's call did: a purge (and the messages it took from
    /// a worker still working on them), a message move task's moves and
    /// its end.
    fn operation(
        &mut self,
        e: &LogEvent,
        k: &EventKind,
        waiting: &mut Waiting,
        unworked: &mut Unworked,
    ) {
        use TriggerEvent as T;
        match k {
            EventKind::Purged { message_id, queue } => {
                let id = message_id.to_string();
                waiting.remove(&id);
                // Its latest receiver, still working on it: a purge in flight.
                let holder = self.latest(&id).and_then(|r| r.by);
                if let Some(by) = holder.filter(|by| unworked.contains(&(by.clone(), id.clone()))) {
                    self.purged_held.insert((by.clone(), id));
                    let h = Happening::new(T::PurgedInFlight, Some(queue.to_string()));
                    let by: Option<Arc<str>> = Some(by.as_str().into());
                    self.happen(e, h.by(&by));
                }
            }
            EventKind::Redriven {
                destination,
                message_id,
                new_message_id,
                ..
            } => {
                // A new message (new id, new enqueue time) with the old one's body.
                let old = self.messages.get(&message_id.to_string()).cloned();
                let id = new_message_id.to_string();
                waiting.insert(id.clone(), e.time_ms);
                let m = self.messages.entry(id).or_default();
                m.label = old.as_ref().map(|o| o.label.clone()).unwrap_or_default();
                m.group = old.and_then(|o| o.group);
                m.queue = destination.to_string();
                m.sent_at = e.time_ms;
                let h = Happening::new(T::Redriven, Some(destination.to_string()));
                self.happen(e, h);
            }
            EventKind::MoveTaskCancelling { moved, .. }
            | EventKind::MoveTaskEnded {
                moved,
                status: "COMPLETED",
                ..
            } => {
                let event = match k {
                    EventKind::MoveTaskCancelling { .. } => T::MoveTaskCancelled,
                    _ => T::MoveTaskCompleted,
                };
                let h = Happening::new(event, None);
                self.happen(
                    e,
                    Happening {
                        count: Some(*moved),
                        ..h
                    },
                );
            }
            EventKind::QueuePurged { queue, count } => {
                let h = Happening::new(T::QueuePurged, Some(queue.to_string()));
                self.happen(
                    e,
                    Happening {
                        count: Some(*count),
                        ..h
                    },
                );
            }
            _ => {}
        }
    }

    /// A message's wait ends now (its first receive, or its expiry).
    fn waited(&mut self, id: &str, at: Millis, waiting: &mut Waiting) {
        if let Some(since) = waiting.remove(id) {
            let label = self.messages[id].label.clone();
            self.waits.push((at.saturating_sub(since), label));
        }
    }

    fn sent(&mut self, e: &LogEvent, k: &EventKind, waiting: &mut Waiting) {
        let EventKind::Sent {
            queue,
            message_id,
            label,
            group,
            delayed_until,
            by,
            ..
        } = k
        else {
            return;
        };
        let id = message_id.to_string();
        let m = self.messages.get_mut(&id).unwrap();
        m.label = label.clone();
        m.queue = queue.to_string();
        m.group = group.as_ref().map(|g| g.to_string());
        m.sent_at = e.time_ms;
        waiting.insert(id, delayed_until.unwrap_or(e.time_ms));
        let happening = Happening::new(TriggerEvent::Sent, Some(queue.to_string()));
        let group = m.group.clone();
        self.happen(e, happening.by(by).in_group(group));
    }

    fn received(
        &mut self,
        e: &LogEvent,
        k: &EventKind,
        waiting: &mut Waiting,
        unworked: &mut Unworked,
    ) {
        let EventKind::Received {
            queue,
            message_id,
            by,
            receive_count,
            ..
        } = k
        else {
            return;
        };
        let id = message_id.to_string();
        self.waited(&id, e.time_ms, waiting);
        if let Some(by) = by {
            unworked.insert((by.to_string(), id.clone()));
        }
        let m = self.messages.get_mut(&id).unwrap();
        m.receives.push(Receive {
            seq: e.seq,
            at: e.time_ms,
            by: by.as_ref().map(|b| b.to_string()),
            receive_count: *receive_count,
        });
        let group = m.group.clone();
        let happening = Happening::new(TriggerEvent::Received, Some(queue.to_string()));
        let happening = happening
            .by(by)
            .in_group(group)
            .count_of(Some(*receive_count));
        self.happen(e, happening);
    }

    /// A delete, and the triggers it fires: `deleted`, and
    /// `deletedWithStaleHandle` when another worker received the message
    /// since, `deletedBeforeProcessing` before the deleter's work on it.
    fn deleted(
        &mut self,
        e: &LogEvent,
        queue: &Arc<str>,
        id: &str,
        by: &Option<Arc<str>>,
        waiting: &mut Waiting,
        unworked: &mut Unworked,
    ) {
        use TriggerEvent as T;
        waiting.remove(id);
        let last = self.latest(id);
        let rc = last.as_ref().map(|r| r.receive_count);
        let h = |event| {
            Happening::new(event, Some(queue.to_string()))
                .by(by)
                .count_of(rc)
        };
        self.happen(e, h(T::Deleted));
        let by_name = by.as_ref().map(|b| b.to_string());
        if by.is_some() && last.as_ref().is_some_and(|r| r.by != by_name) {
            self.happen(e, h(T::DeletedWithStaleHandle));
        }
        if by_name.is_some_and(|b| unworked.contains(&(b, id.to_string()))) {
            self.happen(e, h(T::DeletedBeforeProcessing));
        }
    }

    fn read_sim(&mut self, e: &LogEvent, sim: &SimEvent, unworked: &mut Unworked) {
        use TriggerEvent as T;
        let by = |c: &Arc<str>| Happening::new(T::Sent, None).by(&Some(c.clone()));
        let (event, happening) = match sim {
            SimEvent::ProcessingStarted {
                consumer,
                queue,
                message_id,
                receive_count,
                until,
            } => {
                let deadline = self
                    .messages
                    .get(message_id)
                    .and_then(|m| deadline_before(m, e.seq));
                if deadline.is_none_or(|d| *until <= d) {
                    return;
                }
                let h = by(consumer).count_of(Some(*receive_count));
                (
                    T::ProcessingOutlastsVisibility,
                    Happening {
                        queue: Some(queue.to_string()),
                        ..h
                    },
                )
            }
            SimEvent::DuplicateDelivery {
                consumer,
                queue,
                receive_count,
                ..
            } => {
                self.duplicate_deliveries += 1;
                let h = by(consumer).count_of(Some(*receive_count));
                (
                    T::DuplicateDelivery,
                    Happening {
                        queue: Some(queue.to_string()),
                        ..h
                    },
                )
            }
            SimEvent::SideEffectPerformed {
                consumer,
                message_id,
                count,
                ..
            } => self.side_effect(e, consumer, message_id, *count, unworked),
            SimEvent::SkippedAlreadyProcessed {
                consumer,
                message_id,
            } => {
                unworked.remove(&(consumer.to_string(), message_id.clone()));
                (T::SkippedAlreadyProcessed, by(consumer))
            }
            SimEvent::ProcessingFailed {
                consumer,
                message_id,
                receive_count,
            } => {
                unworked.remove(&(consumer.to_string(), message_id.clone()));
                (
                    T::ProcessingFailed,
                    by(consumer).count_of(Some(*receive_count)),
                )
            }
            SimEvent::WorkerCrashed {
                consumer,
                message_id,
                ..
            } => {
                unworked.remove(&(consumer.to_string(), message_id.clone()));
                (T::WorkerCrashed, by(consumer))
            }
            SimEvent::MessageLost {
                consumer,
                message_id,
                ..
            } => {
                if !self.really_deleted(message_id, consumer) {
                    return;
                }
                self.lost += 1;
                (T::MessageLost, by(consumer))
            }
            SimEvent::ActionFailed { actor, code, .. } => (
                T::CallFailed,
                Happening {
                    code: Some(code.to_string()),
                    ..by(actor)
                },
            ),
            _ => match neighbour(sim) {
                Some(happened) => happened,
                None => return,
            },
        };
        self.happen(e, Happening { event, ..happening });
    }
}

impl Facts {
    /// A side effect, and `purgedProcessed` too when a purge had deleted
    /// the message while this worker was working on it.
    fn side_effect(
        &mut self,
        e: &LogEvent,
        consumer: &Arc<str>,
        message_id: &str,
        count: u64,
        unworked: &mut Unworked,
    ) -> (TriggerEvent, Happening) {
        use TriggerEvent as T;
        let key = (consumer.to_string(), message_id.to_string());
        unworked.remove(&key);
        let who = self.side_effects.entry(message_id.to_string()).or_default();
        who.push(consumer.to_string());
        let h = Happening {
            count: Some(count),
            ..Happening::new(T::Sent, None).by(&Some(consumer.clone()))
        };
        if !self.purged_held.contains(&key) {
            return (T::SideEffect, h);
        }
        let side_effect = Happening {
            event: T::SideEffect,
            ..h.clone()
        };
        self.happen(e, side_effect);
        (T::PurgedProcessed, h)
    }

    /// Whether SQS really deleted the message on `by`'s delete: a lost
    /// message is one, while a delete that missed a copy (realism) leaves
    /// it to come back.
    fn really_deleted(&self, id: &str, by: &Arc<str>) -> bool {
        self.messages.get(id).is_some_and(|m| {
            (m.history.iter()).any(|(_, _, k)| {
                matches!(k, Kind::Sqs(EventKind::Deleted { by: Some(b), .. }) if b == by)
            })
        })
    }
}

impl Happening {
    fn new(event: TriggerEvent, queue: Option<String>) -> Self {
        Happening {
            seq: 0,
            at: 0,
            event,
            queue,
            consumer: None,
            group: None,
            receive_count: None,
            count: None,
            message: None,
            cause: None,
            code: None,
            result: None,
        }
    }

    fn by(self, who: &Option<Arc<str>>) -> Self {
        Happening {
            consumer: who.as_ref().map(|w| w.to_string()),
            ..self
        }
    }

    fn in_group(self, group: Option<String>) -> Self {
        Happening { group, ..self }
    }

    fn count_of(self, receive_count: Option<u32>) -> Self {
        Happening {
            receive_count,
            ..self
        }
    }
}

/// A message's visibility deadline just before event `seq`: its latest
/// receive's, as later changes of visibility moved it.
pub fn deadline_before(m: &Message, seq: u64) -> Option<Millis> {
    let mut deadline = None;
    for (s, _, kind) in &m.history {
        if *s >= seq {
            break;
        }
        match kind {
            Kind::Sqs(EventKind::Received { visible_at, .. })
            | Kind::Sqs(EventKind::VisibilityChanged { visible_at, .. }) => {
                deadline = Some(*visible_at)
            }
            _ => {}
        }
    }
    deadline
}

/// What an SNS topic's or an S3 bucket's event tells the story: the topic
/// or bucket is its `consumer`, a bucket's object key its message.
fn neighbour(sim: &SimEvent) -> Option<(TriggerEvent, Happening)> {
    use TriggerEvent as T;
    let by = |c: &Arc<str>| Happening::new(T::Sent, None).by(&Some(c.clone()));
    Some(match sim {
        SimEvent::TopicFilteredOut { topic, queue, .. } => (
            T::TopicFilteredOut,
            Happening {
                queue: Some(queue.to_string()),
                ..by(topic)
            },
        ),
        SimEvent::BucketObjectChanged { bucket, key, .. } => (
            T::BucketObjectChanged,
            Happening {
                message: Some(key.clone()),
                ..by(bucket)
            },
        ),
        SimEvent::PayloadResolved { consumer, key, .. } => (
            T::PayloadResolved,
            Happening {
                message: Some(key.clone()),
                ..by(consumer)
            },
        ),
        SimEvent::PayloadMissing { consumer, key, .. } => (
            T::PayloadMissing,
            Happening {
                message: Some(key.clone()),
                ..by(consumer)
            },
        ),
        SimEvent::BucketNotified {
            bucket, queue, key, ..
        } => (
            T::BucketNotified,
            Happening {
                queue: Some(queue.to_string()),
                message: Some(key.clone()),
                ..by(bucket)
            },
        ),
        // A Lambda mapping's and a CloudWatch alarm's: the function or
        // the alarm is the `consumer`.
        SimEvent::LambdaReturned {
            function,
            result,
            failed,
            ..
        } => (
            T::LambdaReturned,
            Happening {
                count: Some(failed.len() as u64),
                result: Some(result.to_string()),
                ..by(function)
            },
        ),
        SimEvent::LambdaThrottled { function, messages } => (
            T::LambdaThrottled,
            Happening {
                count: Some(messages.len() as u64),
                ..by(function)
            },
        ),
        SimEvent::LambdaScaled { function, pollers } => (
            T::LambdaScaled,
            Happening {
                count: Some(*pollers),
                ..by(function)
            },
        ),
        SimEvent::AlarmChanged {
            alarm, queue, to, ..
        } => (
            T::AlarmChanged,
            Happening {
                queue: queue.as_ref().map(|q| q.to_string()),
                result: Some(to.word().to_string()),
                ..by(alarm)
            },
        ),
        _ => return reply(sim),
    })
}

/// What a requester's or a responder's event tells the story: the
/// requester or responder is the `consumer`, the reply queue the `queue`,
/// the correlation id the message.
fn reply(sim: &SimEvent) -> Option<(TriggerEvent, Happening)> {
    use TriggerEvent as T;
    let by = |c: &Arc<str>| Happening::new(T::Sent, None).by(&Some(c.clone()));
    Some(match sim {
        SimEvent::ReplyMatched {
            requester,
            correlation_id,
            queue,
            late,
            ..
        } => (
            T::ReplyMatched,
            Happening {
                queue: Some(queue.to_string()),
                message: Some(correlation_id.clone()),
                result: Some(if *late { "late" } else { "onTime" }.to_string()),
                ..by(requester)
            },
        ),
        SimEvent::ReplyWaitEnded {
            requester,
            correlation_id,
            queue,
            ..
        } => (
            T::ReplyWaitEnded,
            Happening {
                queue: Some(queue.to_string()),
                message: Some(correlation_id.clone()),
                ..by(requester)
            },
        ),
        SimEvent::ReplyLost {
            responder,
            correlation_id,
            queue,
        } => (
            T::ReplyLost,
            Happening {
                queue: Some(queue.to_string()),
                message: Some(correlation_id.clone()),
                ..by(responder)
            },
        ),
        _ => return None,
    })
}
