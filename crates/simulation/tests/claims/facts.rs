//! The oracle's own reading of a run's log, written apart from the story
//! (src/teach/): what happened, in log order, as the triggers of the
//! scenario format name it (docs/scenario-format.md), each message's
//! history, and the counts the recap and the end conditions speak of.

use std::collections::{BTreeMap, BTreeSet};

use queuelab_engine::{EventKind, Millis};
use queuelab_simulation::{Kind, LogEvent, SimEvent, TriggerEvent};

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
    pub message: Option<String>,
}

/// One receive of a message.
#[derive(Clone, Debug)]
pub struct Receive {
    pub seq: u64,
    pub at: Millis,
    pub by: Option<String>,
    pub receive_count: u32,
    pub visible_at: Millis,
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

impl Facts {
    pub fn read(events: &[LogEvent], end: Millis) -> Facts {
        let mut f = Facts::default();
        // Messages waiting for their first receive: id -> since.
        let mut waiting: BTreeMap<String, Millis> = BTreeMap::new();
        // (consumer, message) received and not yet worked on.
        let mut unworked: BTreeSet<(String, String)> = BTreeSet::new();
        for e in events {
            if let Some(id) = message_of(&e.kind) {
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

    fn happen(&mut self, e: &LogEvent, event: TriggerEvent, h: Happening) {
        self.happenings.push(Happening {
            seq: e.seq,
            at: e.time_ms,
            event,
            ..h
        });
    }

    fn read_one(
        &mut self,
        e: &LogEvent,
        waiting: &mut BTreeMap<String, Millis>,
        unworked: &mut BTreeSet<(String, String)>,
    ) {
        use TriggerEvent as T;
        let blank = Happening {
            seq: 0,
            at: 0,
            event: T::Sent,
            queue: None,
            consumer: None,
            group: None,
            receive_count: None,
            count: None,
            message: message_of(&e.kind),
        };
        let s = |a: &std::sync::Arc<str>| Some(a.to_string());
        let so = |a: &Option<std::sync::Arc<str>>| a.as_ref().map(|x| x.to_string());
        let latest =
            |f: &Facts, id: &str| f.messages.get(id).and_then(|m| m.receives.last().cloned());
        let group_of = |f: &Facts, id: &str| f.messages.get(id).and_then(|m| m.group.clone());
        match &e.kind {
            Kind::Sqs(k) => match k {
                EventKind::Sent {
                    queue,
                    message_id,
                    label,
                    group,
                    delayed_until,
                    by,
                } => {
                    let id = message_id.to_string();
                    let m = self.messages.get_mut(&id).unwrap();
                    m.label = label.clone();
                    m.queue = queue.to_string();
                    m.group = so(group);
                    m.sent_at = e.time_ms;
                    waiting.insert(id, delayed_until.unwrap_or(e.time_ms));
                    let h = Happening {
                        queue: s(queue),
                        consumer: so(by),
                        group: so(group),
                        ..blank
                    };
                    self.happen(e, T::Sent, h);
                }
                EventKind::Received {
                    queue,
                    message_id,
                    by,
                    receive_count,
                    visible_at,
                    ..
                } => {
                    let id = message_id.to_string();
                    if let Some(since) = waiting.remove(&id) {
                        let label = self.messages[&id].label.clone();
                        self.waits.push((e.time_ms.saturating_sub(since), label));
                    }
                    if let Some(by) = by {
                        unworked.insert((by.to_string(), id.clone()));
                    }
                    let group = group_of(self, &id);
                    self.messages.get_mut(&id).unwrap().receives.push(Receive {
                        seq: e.seq,
                        at: e.time_ms,
                        by: so(by),
                        receive_count: *receive_count,
                        visible_at: *visible_at,
                    });
                    let h = Happening {
                        queue: s(queue),
                        consumer: so(by),
                        group,
                        receive_count: Some(*receive_count),
                        ..blank
                    };
                    self.happen(e, T::Received, h);
                }
                EventKind::VisibilityChanged {
                    queue,
                    message_id,
                    by,
                    ..
                } => {
                    let rc = latest(self, &message_id.to_string()).map(|r| r.receive_count);
                    let h = Happening {
                        queue: s(queue),
                        consumer: so(by),
                        receive_count: rc,
                        ..blank
                    };
                    self.happen(e, T::VisibilityChanged, h);
                }
                EventKind::VisibilityExpired {
                    queue,
                    message_id,
                    holder,
                } => {
                    let rc = latest(self, &message_id.to_string()).map(|r| r.receive_count);
                    let h = Happening {
                        queue: s(queue),
                        consumer: so(holder),
                        receive_count: rc,
                        ..blank
                    };
                    self.happen(e, T::VisibilityExpired, h);
                }
                EventKind::Deleted {
                    queue,
                    message_id,
                    by,
                } => {
                    let id = message_id.to_string();
                    waiting.remove(&id);
                    let last = latest(self, &id);
                    let rc = last.as_ref().map(|r| r.receive_count);
                    let h = Happening {
                        queue: s(queue),
                        consumer: so(by),
                        receive_count: rc,
                        ..blank
                    };
                    self.happen(e, T::Deleted, h.clone());
                    if by.is_some() && last.as_ref().is_some_and(|r| r.by != so(by)) {
                        self.happen(e, T::DeletedWithStaleHandle, h.clone());
                    }
                    if let Some(by) = by {
                        if unworked.contains(&(by.to_string(), id)) {
                            self.happen(e, T::DeletedBeforeProcessing, h);
                        }
                    }
                }
                EventKind::MovedToDeadLetterQueue {
                    queue,
                    receive_count,
                    ..
                } => {
                    self.dead_lettered += 1;
                    let h = Happening {
                        queue: s(queue),
                        receive_count: Some(*receive_count),
                        ..blank
                    };
                    self.happen(e, T::MovedToDeadLetterQueue, h);
                }
                EventKind::DuplicateDropped { queue, by, .. } => {
                    let h = Happening {
                        queue: s(queue),
                        consumer: so(by),
                        ..blank
                    };
                    self.happen(e, T::DuplicateDropped, h);
                }
                EventKind::GroupLocked { queue, group }
                | EventKind::GroupUnlocked { queue, group } => {
                    let what = match k {
                        EventKind::GroupLocked { .. } => T::GroupLocked,
                        _ => T::GroupUnlocked,
                    };
                    let h = Happening {
                        queue: s(queue),
                        group: s(group),
                        ..blank
                    };
                    self.happen(e, what, h);
                }
                EventKind::EmptyReceive { queue, by } => {
                    self.empty_receives += 1;
                    if let Some(by) = by {
                        *self.empty_by.entry(by.to_string()).or_default() += 1;
                    }
                    let h = Happening {
                        queue: s(queue),
                        consumer: so(by),
                        ..blank
                    };
                    self.happen(e, T::EmptyReceive, h);
                }
                EventKind::Expired { queue, message_id } => {
                    self.expired += 1;
                    let id = message_id.to_string();
                    if let Some(since) = waiting.remove(&id) {
                        let label = self.messages[&id].label.clone();
                        self.waits.push((e.time_ms.saturating_sub(since), label));
                    }
                    let h = Happening {
                        queue: s(queue),
                        ..blank
                    };
                    self.happen(e, T::Expired, h);
                }
                EventKind::Purged { message_id, .. } => {
                    waiting.remove(&message_id.to_string());
                }
                EventKind::Redriven { new_message_id, .. } => {
                    waiting.insert(new_message_id.to_string(), e.time_ms);
                    let m = self.messages.entry(new_message_id.to_string()).or_default();
                    m.label = "a redriven message".into();
                }
                _ => {}
            },
            Kind::Simulation(sim) => self.read_sim(e, sim, blank, unworked),
        }
    }

    fn read_sim(
        &mut self,
        e: &LogEvent,
        sim: &SimEvent,
        blank: Happening,
        unworked: &mut BTreeSet<(String, String)>,
    ) {
        use TriggerEvent as T;
        let s = |a: &std::sync::Arc<str>| Some(a.to_string());
        match sim {
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
                if deadline.is_some_and(|d| *until > d) {
                    let h = Happening {
                        queue: s(queue),
                        consumer: s(consumer),
                        receive_count: Some(*receive_count),
                        ..blank
                    };
                    self.happen(e, T::ProcessingOutlastsVisibility, h);
                }
            }
            SimEvent::DuplicateDelivery {
                consumer,
                queue,
                receive_count,
                ..
            } => {
                self.duplicate_deliveries += 1;
                let h = Happening {
                    queue: s(queue),
                    consumer: s(consumer),
                    receive_count: Some(*receive_count),
                    ..blank
                };
                self.happen(e, T::DuplicateDelivery, h);
            }
            SimEvent::SideEffectPerformed {
                consumer,
                message_id,
                count,
                ..
            } => {
                unworked.remove(&(consumer.to_string(), message_id.clone()));
                let by = self.side_effects.entry(message_id.clone()).or_default();
                by.push(consumer.to_string());
                let h = Happening {
                    consumer: s(consumer),
                    count: Some(*count),
                    ..blank
                };
                self.happen(e, T::SideEffect, h);
            }
            SimEvent::SkippedAlreadyProcessed {
                consumer,
                message_id,
            } => {
                unworked.remove(&(consumer.to_string(), message_id.clone()));
                let h = Happening {
                    consumer: s(consumer),
                    ..blank
                };
                self.happen(e, T::SkippedAlreadyProcessed, h);
            }
            SimEvent::ProcessingFailed {
                consumer,
                message_id,
                receive_count,
            } => {
                unworked.remove(&(consumer.to_string(), message_id.clone()));
                let h = Happening {
                    consumer: s(consumer),
                    receive_count: Some(*receive_count),
                    ..blank
                };
                self.happen(e, T::ProcessingFailed, h);
            }
            SimEvent::WorkerCrashed {
                consumer,
                message_id,
                ..
            } => {
                unworked.remove(&(consumer.to_string(), message_id.clone()));
                let h = Happening {
                    consumer: s(consumer),
                    ..blank
                };
                self.happen(e, T::WorkerCrashed, h);
            }
            SimEvent::MessageLost {
                consumer,
                message_id,
                ..
            } => {
                // Lost only if SQS really deleted it (a delete that missed a
                // copy, under realism, leaves it to come back).
                let deleted = self.messages.get(message_id).is_some_and(|m| {
                    m.history.iter().any(|(_, _, k)| {
                        matches!(k, Kind::Sqs(EventKind::Deleted { by: Some(b), .. }) if b == consumer)
                    })
                });
                if !deleted {
                    return;
                }
                self.lost += 1;
                let h = Happening {
                    consumer: s(consumer),
                    ..blank
                };
                self.happen(e, T::MessageLost, h);
            }
            _ => {}
        }
    }

    /// The label of a message id, or "".
    pub fn label(&self, id: &str) -> &str {
        self.messages.get(id).map_or("", |m| m.label.as_str())
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
