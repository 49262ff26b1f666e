//! What each event of the run tells the story: the facts it keeps about
//! messages (labels, receipts, waits, work not done yet), the outcome's
//! tallies, the explanation of the moment, and the trigger it fires.

use std::sync::Arc;

use queuelab_engine::{EventKind, Millis};

use super::{explain, returned, Happening, LastReceive, Receipt, Story, Waiting};
use crate::document::TriggerEvent;
use crate::log::SimEvent;

impl Story {
    /// One of the engine's SQS events.
    pub(super) fn observe_sqs(&mut self, now: Millis, kind: &EventKind) {
        use TriggerEvent as T;
        match kind {
            EventKind::Sent { .. } => self.on_sent(now, kind),
            EventKind::Received { .. } => self.on_received(now, kind),
            EventKind::VisibilityChanged { .. } => self.on_visibility_changed(now, kind),
            EventKind::VisibilityExpired { .. } => self.on_visibility_expired(now, kind),
            EventKind::Deleted {
                queue,
                message_id,
                by,
            } => self.deleted(now, queue, message_id.to_string(), by.as_ref()),
            EventKind::MovedToDeadLetterQueue { .. } => {
                self.on_moved_to_dead_letter_queue(now, kind)
            }
            EventKind::DuplicateDropped { .. } => self.on_duplicate_dropped(now, kind),
            EventKind::GroupLocked { queue, group }
            | EventKind::GroupUnlocked { queue, group, .. } => {
                let (what, cause) = match kind {
                    EventKind::GroupUnlocked { cause, .. } => (T::GroupUnlocked, Some(*cause)),
                    _ => (T::GroupLocked, None),
                };
                let text = match cause {
                    None => explain::group_locked(group, queue, &self.last_received),
                    Some(cause) => explain::group_unlocked(group, &self.last_release, cause),
                };
                self.explain(now, text);
                let h = Happening {
                    queue: Some(queue),
                    group: Some(group),
                    cause,
                    ..Happening::default()
                };
                self.happened(now, what, h);
            }
            EventKind::EmptyReceive { queue, by } => {
                self.outcome.empty_receives += 1;
                if let Some(by) = by {
                    *self.empty_by.entry(by.clone()).or_default() += 1;
                    let wait = self.waits.get(&**by).copied();
                    self.explain(now, explain::empty_receive(by, queue, wait));
                }
                let h = Happening {
                    // Someone other than the scenario's consumers: the learner.
                    learners: by.as_deref().is_none_or(|b| !self.waits.contains_key(b)),
                    queue: Some(queue),
                    consumer: by.as_deref(),
                    ..Happening::default()
                };
                self.happened(now, T::EmptyReceive, h);
            }
            EventKind::Expired { queue, message_id } => {
                self.outcome.expired += 1;
                let id = message_id.to_string();
                // A FIFO group's head that expires unlocks its group: say so.
                self.last_release = format!("{} expired", self.label(&id));
                self.stop_waiting(&id, Some(now));
                self.receipts.remove(&id);
                let learners = self.learners.remove(&id);
                self.groups.remove(&id);
                let label = self.labels.remove(&id);
                if let Some((label, sent)) = &label {
                    let text =
                        explain::expired(&crate::lab::goal::name_of(label), queue, now - sent);
                    self.explain(now, text);
                }
                let h = Happening {
                    learners,
                    queue: Some(queue),
                    message: label.as_ref().map(|(l, _)| l.as_str()),
                    ..Happening::default()
                };
                self.happened(now, T::Expired, h);
            }
            EventKind::DeleteMissedCopy { .. } => self.on_delete_missed_copy(kind),
            EventKind::AccessDecided { .. } | EventKind::KmsRequested { .. } => {
                self.on_security(now, kind)
            }
            EventKind::Purged { .. }
            | EventKind::Redriven { .. }
            | EventKind::MoveTaskCancelling { .. }
            | EventKind::MoveTaskEnded { .. }
            | EventKind::QueuePurged { .. } => self.on_operation(now, kind),
            // The scenario's own queues, made at time 0, are not counted.
            EventKind::QueueCreated { queue, .. }
                if now > 0 || !self.own_queues.contains(&**queue) =>
            {
                self.outcome.queues_created += 1;
            }
            EventKind::QueueDeleted { queue } => {
                self.outcome.queues_deleted += 1;
                let gone: Vec<String> = self
                    .waiting
                    .iter()
                    .filter(|(_, w)| w.queue == *queue)
                    .map(|(id, _)| id.clone())
                    .collect();
                for id in gone {
                    self.stop_waiting(&id, None);
                }
            }
            _ => {}
        }
    }

    /// The gate's decision on another account's call, or a KMS request
    /// (with the queue's count of them so far, as its card shows).
    fn on_security(&mut self, now: Millis, kind: &EventKind) {
        use TriggerEvent as T;
        match kind {
            EventKind::AccessDecided {
                queue, by, allowed, ..
            } => {
                let what = if *allowed {
                    T::AccessAllowed
                } else {
                    T::AccessDenied
                };
                let h = Happening {
                    queue: Some(queue),
                    consumer: by.as_deref(),
                    ..Happening::default()
                };
                self.happened(now, what, h);
            }
            EventKind::KmsRequested { queue, by, .. } => {
                let count = self.kms_by_queue.entry(queue.clone()).or_default();
                *count += 1;
                let h = Happening {
                    queue: Some(queue),
                    consumer: by.as_deref(),
                    count: Some(*count),
                    ..Happening::default()
                };
                self.happened(now, T::KmsRequested, h);
            }
            _ => {}
        }
    }

    /// What an operator's calls did (a purge, a message move task), and
    /// the messages they moved or deleted.
    fn on_operation(&mut self, now: Millis, kind: &EventKind) {
        use TriggerEvent as T;
        match kind {
            EventKind::Purged { message_id, queue } => {
                let id = message_id.to_string();
                // A FIFO group's head purged in flight unlocks its group.
                self.last_release = format!("{} was purged", self.label(&id));
                self.stop_waiting(&id, None);
                let held = self.receipts.remove(&id).and_then(|r| r.by);
                if let Some(by) =
                    held.filter(|by| self.unprocessed.contains(&(by.clone(), id.clone())))
                {
                    self.purged_held.insert((by.clone(), id.clone()));
                    let h = Happening {
                        queue: Some(queue),
                        consumer: Some(&by),
                        ..Happening::default()
                    };
                    self.happened(now, T::PurgedInFlight, h);
                }
                self.learners.remove(&id);
                self.groups.remove(&id);
            }
            EventKind::Redriven {
                destination,
                new_message_id,
                message_id,
                ..
            } => {
                let id = new_message_id.to_string();
                // The new message carries the old one's body: its label too.
                let old = message_id.to_string();
                self.last_release = format!("{} moved to {destination}", self.label(&old));
                self.receipts.remove(&old);
                let label = self.labels.remove(&old).map(|(l, _)| l);
                if let Some(label) = &label {
                    self.labels.insert(id.clone(), (label.clone(), now));
                }
                let waiting = label.unwrap_or_else(|| "a redriven message".into());
                self.wait(destination, id, now, waiting);
                let h = Happening {
                    queue: Some(destination),
                    ..Happening::default()
                };
                self.happened(now, T::Redriven, h);
            }
            EventKind::MoveTaskCancelling { moved, .. }
            | EventKind::MoveTaskEnded {
                moved,
                status: "COMPLETED",
                ..
            } => {
                let what = match kind {
                    EventKind::MoveTaskCancelling { .. } => T::MoveTaskCancelled,
                    _ => T::MoveTaskCompleted,
                };
                let h = Happening {
                    count: Some(*moved),
                    ..Happening::default()
                };
                self.happened(now, what, h);
            }
            EventKind::QueuePurged { queue, count } => {
                let h = Happening {
                    queue: Some(queue),
                    count: Some(*count),
                    ..Happening::default()
                };
                self.happened(now, T::QueuePurged, h);
            }
            _ => {}
        }
    }

    fn on_sent(&mut self, now: Millis, kind: &EventKind) {
        use TriggerEvent as T;
        let EventKind::Sent {
            queue,
            message_id,
            label,
            group,
            delayed_until,
            by,
            ..
        } = kind
        else {
            return;
        };
        let since = delayed_until.unwrap_or(now);
        let id = message_id.to_string();
        let learners = by.as_deref().is_none_or(|b| !self.producers.contains(b));
        if learners {
            self.learners.insert(id.clone());
        }
        if let Some(group) = group {
            self.groups.insert(id.clone(), group.clone());
        }
        self.labels.insert(id.clone(), (label.clone(), now));
        self.wait(queue, id, since, label.clone());
        let h = Happening {
            learners,
            queue: Some(queue),
            consumer: by.as_deref(),
            group: group.as_deref(),
            message: Some(label),
            ..Happening::default()
        };
        self.happened(now, T::Sent, h);
    }

    fn on_received(&mut self, now: Millis, kind: &EventKind) {
        use TriggerEvent as T;
        let EventKind::Received {
            queue,
            message_id,
            by,
            receive_count,
            visible_at,
            ..
        } = kind
        else {
            return;
        };
        let id = message_id.to_string();
        self.stop_waiting(&id, Some(now));
        if let Some(by) = by {
            self.unprocessed.insert((by.clone(), id.clone()));
        }
        self.last_received = self.label(&id);
        let last = LastReceive {
            by: by.clone(),
            id: id.clone(),
            at: now,
        };
        self.last_receives.insert(queue.clone(), last);
        self.abandoned.remove(&id);
        self.receipts.insert(
            id,
            Receipt {
                queue: queue.clone(),
                by: by.clone(),
                receive_count: *receive_count,
                visible_at: *visible_at,
                timeout_ms: visible_at.saturating_sub(now),
                changed: false,
            },
        );
        let id = message_id.to_string();
        let group = self.groups.get(&id).cloned();
        let body = self.body(&id);
        let h = Happening {
            learners: self.learners.contains(&id),
            queue: Some(queue),
            consumer: by.as_deref(),
            group: group.as_deref(),
            receive_count: Some(*receive_count),
            message: body.as_deref(),
            ..Happening::default()
        };
        self.happened(now, T::Received, h);
    }

    fn on_visibility_changed(&mut self, now: Millis, kind: &EventKind) {
        use TriggerEvent as T;
        let EventKind::VisibilityChanged {
            queue,
            message_id,
            by,
            visible_at,
        } = kind
        else {
            return;
        };
        let id = message_id.to_string();
        let before = self.receipts.get(&id).map(|r| r.visible_at);
        let rc = self.receipts.get_mut(&id).map(|r| {
            r.visible_at = *visible_at;
            // The timeout that will end now is this one (a heartbeat's,
            // a backoff's), not the receive's.
            r.timeout_ms = visible_at.saturating_sub(now);
            r.changed = true;
            r.receive_count
        });
        if *visible_at <= now {
            let label = self.label(&id);
            self.last_release = format!("{label} was made visible again at once");
        }
        if let Some(by) = by {
            let text = explain::visibility_changed(&self.label(&id), by, now, before, *visible_at);
            self.explain(now, text);
        }
        let body = self.body(&id);
        let h = Happening {
            learners: self.learners.contains(&id),
            queue: Some(queue),
            consumer: by.as_deref(),
            receive_count: rc,
            message: body.as_deref(),
            ..Happening::default()
        };
        self.happened(now, T::VisibilityChanged, h);
    }

    fn on_visibility_expired(&mut self, now: Millis, kind: &EventKind) {
        use TriggerEvent as T;
        let EventKind::VisibilityExpired {
            queue,
            message_id,
            holder,
        } = kind
        else {
            return;
        };
        let id = message_id.to_string();
        let rc = self.receipts.get(&id).map(|r| r.receive_count);
        let label = self.label(&id);
        self.last_release = format!(
            "{} ended",
            explain::possessive(&label, "visibility timeout")
        );
        if let (Some(holder), Some(r)) = (holder, self.receipts.get(&id)) {
            let timeout = explain::timeout(r.timeout_ms, r.changed);
            let text = match self.abandoned.remove(&id) {
                Some((who, what)) if who == *holder && what == returned::MISSED_COPY => {
                    explain::missed_copy(&label, holder, &timeout)
                }
                Some((who, what)) if who == *holder => {
                    explain::came_back(&label, holder, &what, &timeout)
                }
                _ => {
                    // Of a caller from outside (your code, an SDK) the run
                    // cannot say whether it is still working.
                    let seen = self.workers.contains(&**holder);
                    explain::visibility_expired(&label, holder, r.receive_count, &timeout, seen)
                }
            };
            self.explain(now, text);
        }
        let body = self.body(&id);
        let h = Happening {
            learners: self.learners.contains(&id),
            queue: Some(queue),
            consumer: holder.as_deref(),
            receive_count: rc,
            message: body.as_deref(),
            ..Happening::default()
        };
        self.happened(now, T::VisibilityExpired, h);
    }

    fn on_moved_to_dead_letter_queue(&mut self, now: Millis, kind: &EventKind) {
        use TriggerEvent as T;
        let EventKind::MovedToDeadLetterQueue {
            queue,
            dead_letter_queue,
            message_id,
            receive_count,
        } = kind
        else {
            return;
        };
        self.outcome.dead_lettered += 1;
        let id = message_id.to_string();
        let learners = self.learners.remove(&id);
        let label = self.label(&id);
        self.last_release = format!("{label} moved to {dead_letter_queue}");
        let text = explain::moved_to_dlq(&label, dead_letter_queue, *receive_count);
        self.explain(now, text);
        let body = self.body(&id);
        let h = Happening {
            learners,
            queue: Some(queue),
            receive_count: Some(*receive_count),
            message: body.as_deref(),
            ..Happening::default()
        };
        self.happened(now, T::MovedToDeadLetterQueue, h);
    }

    fn on_duplicate_dropped(&mut self, now: Millis, kind: &EventKind) {
        use TriggerEvent as T;
        let EventKind::DuplicateDropped {
            queue,
            by,
            message_id,
            dedup_id,
        } = kind
        else {
            return;
        };
        let sender = by.as_deref().unwrap_or("A producer");
        let matched = message_id.to_string();
        let text = explain::duplicate_dropped(sender, queue, dedup_id, &matched);
        self.explain(now, text);
        let h = Happening {
            learners: by.as_deref().is_none_or(|b| !self.producers.contains(b)),
            queue: Some(queue),
            consumer: by.as_deref(),
            ..Happening::default()
        };
        self.happened(now, T::DuplicateDropped, h);
    }

    /// What becomes of a message `consumer` stopped working on without
    /// deleting it, in words: when it can be received again (or moved to
    /// its dead-letter queue), or why it will not come back to it.
    fn fate(&self, id: &str, consumer: &str, now: Millis) -> String {
        let Some(r) = self.receipts.get(id) else {
            return "The message was already deleted, so SQS will not deliver it again.".into();
        };
        // Another worker's receive since, while its timeout runs: it holds
        // the message (once that timeout ends, nobody does).
        if r.by.as_deref() != Some(consumer) && r.visible_at > now {
            let holder = r.by.as_deref().unwrap_or("someone else");
            return format!("{holder} has received the message since, and holds it now.");
        }
        let exhausted = |(_, max): &&(String, i64)| i64::from(r.receive_count) >= *max;
        let moves_to = self.redrives.get(&*r.queue).filter(exhausted);
        explain::comes_back(now, r.visible_at, moves_to.map(|(dlq, _)| dlq.as_str()))
    }

    /// A message's body, for the triggers and claims that name messages
    /// by it (None when none does: no copy per event).
    fn body(&self, id: &str) -> Option<String> {
        if !self.reads_bodies {
            return None;
        }
        self.labels.get(id).map(|(label, _)| label.clone())
    }

    fn wait(&mut self, queue: &Arc<str>, id: String, since: Millis, label: String) {
        self.waiting_since.insert((since, id.clone()));
        let queue = queue.clone();
        self.waiting.insert(
            id,
            Waiting {
                queue,
                since,
                label,
            },
        );
    }

    /// A message stopped waiting; with `at`, its wait counts for the outcome.
    fn stop_waiting(&mut self, id: &str, at: Option<Millis>) {
        if let Some(w) = self.waiting.remove(id) {
            self.waiting_since.remove(&(w.since, id.to_string()));
            if let Some(at) = at {
                self.waited(at.saturating_sub(w.since), w.label);
            }
        }
    }

    fn deleted(&mut self, now: Millis, queue: &str, id: String, by: Option<&Arc<str>>) {
        use TriggerEvent as T;
        self.stop_waiting(&id, None);
        let receipt = self.receipts.get(&id);
        let rc = receipt.map(|r| r.receive_count);
        let stale = by.is_some() && receipt.is_some_and(|r| r.by.as_ref() != by);
        let learners = self.learners.contains(&id);
        let body = self.body(&id);
        let h = || Happening {
            learners,
            queue: Some(queue),
            consumer: by.map(|b| &**b),
            receive_count: rc,
            message: body.as_deref(),
            ..Happening::default()
        };
        let before_work = by.is_some_and(|b| self.unprocessed.contains(&(b.clone(), id.clone())));
        let label = self.label(&id);
        self.last_release = format!("{label} was deleted");
        if let (true, Some(by), Some(r)) = (stale, by, receipt) {
            let latest = r.by.as_deref().unwrap_or("someone else");
            let text = explain::stale_delete(&label, by, latest, r.receive_count);
            self.explain(now, text);
        }
        self.happened(now, T::Deleted, h());
        if stale {
            self.happened(now, T::DeletedWithStaleHandle, h());
        }
        if before_work {
            self.happened(now, T::DeletedBeforeProcessing, h());
        }
        // The message is gone: its receipt and label are no longer needed
        // (a story keeps only what stored messages need, however long the
        // run). Deleted before its work, it keeps its label until the work
        // is done, so a trigger naming it still matches its side effect.
        self.receipts.remove(&id);
        if before_work {
            self.in_work.insert(id.clone());
        } else {
            self.labels.remove(&id);
        }
        self.abandoned.remove(&id);
        self.groups.remove(&id);
        // `learners` keeps the id: a worker that deleted first still
        // processes the message afterwards.
    }

    fn waited(&mut self, ms: Millis, label: String) {
        if ms > self.outcome.longest_wait_ms || self.outcome.longest_wait_label.is_none() {
            self.outcome.longest_wait_ms = ms;
            self.outcome.longest_wait_label = Some(label);
        }
    }

    /// `consumer`'s work on `id` is done (or given up). A message deleted
    /// before its work is forgotten once the work is done; given up, it is
    /// forgotten when it is logged lost, next.
    fn done(&mut self, consumer: &Arc<str>, id: &str) {
        self.unprocessed.remove(&(consumer.clone(), id.to_string()));
        self.purged_held.remove(&(consumer.clone(), id.to_string()));
    }

    /// The work on a message deleted before it is over (done, or lost).
    fn forget_deleted(&mut self, id: &str) {
        if self.in_work.remove(id) {
            self.labels.remove(id);
        }
    }

    /// One of the simulation's own events.
    pub(super) fn observe_sim(&mut self, now: Millis, event: &SimEvent) {
        use TriggerEvent as T;
        match event {
            SimEvent::ProcessingStarted { .. } => self.on_processing_started(now, event),
            SimEvent::DuplicateDelivery { .. } => self.on_duplicate_delivery(now, event),
            SimEvent::SideEffectPerformed { .. } => self.on_side_effect_performed(now, event),
            SimEvent::SkippedAlreadyProcessed {
                consumer,
                message_id,
            } => {
                let body = self.body(message_id);
                self.done(consumer, message_id);
                let h = Happening {
                    learners: self.learners.contains(message_id.as_str()),
                    message: body.as_deref(),
                    consumer: Some(consumer),
                    ..Happening::default()
                };
                self.happened(now, T::SkippedAlreadyProcessed, h);
                self.forget_deleted(message_id);
            }
            SimEvent::ProcessingFailed { .. } => self.on_processing_failed(now, event),
            SimEvent::WorkerCrashed { .. } => self.on_worker_crashed(now, event),
            SimEvent::MessageLost { .. } => self.on_message_lost(now, event),
            SimEvent::ActionFailed { actor, code, .. } => {
                let h = Happening {
                    consumer: Some(actor),
                    code: Some(code),
                    ..Happening::default()
                };
                self.happened(now, T::CallFailed, h);
            }
            SimEvent::ReplyMatched { .. }
            | SimEvent::ReplyWaitEnded { .. }
            | SimEvent::ReplyLost { .. } => self.on_reply(now, event),
            SimEvent::TopicFilteredOut { topic, queue, .. } => {
                let h = Happening {
                    queue: Some(queue),
                    consumer: Some(topic),
                    ..Happening::default()
                };
                self.happened(now, T::TopicFilteredOut, h);
            }
            SimEvent::BucketObjectChanged { bucket, key, .. } => {
                let h = Happening {
                    consumer: Some(bucket),
                    message: Some(key),
                    ..Happening::default()
                };
                self.happened(now, T::BucketObjectChanged, h);
            }
            SimEvent::PayloadResolved { consumer, key, .. } => {
                let h = Happening {
                    consumer: Some(consumer),
                    message: Some(key),
                    ..Happening::default()
                };
                self.happened(now, T::PayloadResolved, h);
            }
            SimEvent::PayloadMissing { consumer, key, .. } => {
                let h = Happening {
                    consumer: Some(consumer),
                    message: Some(key),
                    ..Happening::default()
                };
                self.happened(now, T::PayloadMissing, h);
            }
            SimEvent::LambdaReturned { .. }
            | SimEvent::LambdaThrottled { .. }
            | SimEvent::LambdaScaled { .. }
            | SimEvent::AlarmChanged { .. } => self.on_lambda_or_alarm(now, event),
            SimEvent::BucketNotified {
                bucket, queue, key, ..
            } => {
                let h = Happening {
                    queue: Some(queue),
                    consumer: Some(bucket),
                    message: Some(key),
                    ..Happening::default()
                };
                self.happened(now, T::BucketNotified, h);
            }
            _ => {}
        }
    }

    /// A requester's reply matched or waited for in vain, or a responder's
    /// reply lost: counted for the recap, and its trigger fired.
    fn on_reply(&mut self, now: Millis, event: &SimEvent) {
        use TriggerEvent as T;
        let (what, who, queue, id, result) = match event {
            SimEvent::ReplyMatched {
                requester,
                correlation_id,
                queue,
                late,
                ..
            } => {
                self.outcome.replies_matched += 1;
                self.outcome.replies_late += u64::from(*late);
                let result = if *late { "late" } else { "onTime" };
                (
                    T::ReplyMatched,
                    requester,
                    queue,
                    correlation_id,
                    Some(result),
                )
            }
            SimEvent::ReplyWaitEnded {
                requester,
                correlation_id,
                queue,
                ..
            } => {
                self.outcome.reply_waits_ended += 1;
                (T::ReplyWaitEnded, requester, queue, correlation_id, None)
            }
            SimEvent::ReplyLost {
                responder,
                correlation_id,
                queue,
            } => {
                self.outcome.replies_lost += 1;
                (T::ReplyLost, responder, queue, correlation_id, None)
            }
            _ => return,
        };
        let h = Happening {
            queue: Some(queue),
            consumer: Some(who),
            message: Some(id),
            result,
            ..Happening::default()
        };
        self.happened(now, what, h);
    }

    fn on_processing_started(&mut self, now: Millis, event: &SimEvent) {
        use TriggerEvent as T;
        let SimEvent::ProcessingStarted {
            consumer,
            queue,
            message_id,
            receive_count,
            until,
        } = event
        else {
            return;
        };
        let outlasts = self
            .receipts
            .get(message_id)
            .is_some_and(|r| *until > r.visible_at);
        if outlasts {
            let body = self.body(message_id);
            let h = Happening {
                learners: self.learners.contains(message_id.as_str()),
                message: body.as_deref(),
                queue: Some(queue),
                consumer: Some(consumer),
                receive_count: Some(*receive_count),
                ..Happening::default()
            };
            self.happened(now, T::ProcessingOutlastsVisibility, h);
        }
    }

    fn on_duplicate_delivery(&mut self, now: Millis, event: &SimEvent) {
        use TriggerEvent as T;
        let SimEvent::DuplicateDelivery {
            consumer,
            queue,
            message_id,
            receive_count,
            also_held_by,
        } = event
        else {
            return;
        };
        self.outcome.duplicate_deliveries += 1;
        let label = self.label(message_id);
        let text = explain::duplicate_delivery(&label, consumer, *receive_count, also_held_by);
        self.explain(now, text);
        let body = self.body(message_id);
        let h = Happening {
            learners: self.learners.contains(message_id.as_str()),
            message: body.as_deref(),
            queue: Some(queue),
            consumer: Some(consumer),
            receive_count: Some(*receive_count),
            ..Happening::default()
        };
        self.happened(now, T::DuplicateDelivery, h);
    }

    fn on_side_effect_performed(&mut self, now: Millis, event: &SimEvent) {
        use TriggerEvent as T;
        let SimEvent::SideEffectPerformed {
            consumer,
            message_id,
            count,
            ..
        } = event
        else {
            return;
        };
        let key = (consumer.clone(), message_id.clone());
        let purged = self.purged_held.contains(&key);
        let body = self.body(message_id);
        self.done(consumer, message_id);
        let learners = self.learners.contains(message_id.as_str());
        let h = || Happening {
            learners,
            message: body.as_deref(),
            consumer: Some(consumer),
            count: Some(*count),
            ..Happening::default()
        };
        self.happened(now, T::SideEffect, h());
        if purged {
            self.happened(now, T::PurgedProcessed, h());
        }
        self.forget_deleted(message_id);
    }

    fn on_processing_failed(&mut self, now: Millis, event: &SimEvent) {
        use TriggerEvent as T;
        let SimEvent::ProcessingFailed {
            consumer,
            message_id,
            receive_count,
        } = event
        else {
            return;
        };
        let body = self.body(message_id);
        self.done(consumer, message_id);
        if self.receipts.contains_key(message_id) {
            let fate = self.fate(message_id, consumer, now);
            let label = self.label(message_id);
            let text = explain::processing_failed(&label, consumer, *receive_count, &fate);
            self.explain(now, text);
        }
        let what = "its handler failed".to_string();
        (self.abandoned).insert(message_id.clone(), (consumer.clone(), what));
        let h = Happening {
            learners: self.learners.contains(message_id.as_str()),
            message: body.as_deref(),
            consumer: Some(consumer),
            receive_count: Some(*receive_count),
            ..Happening::default()
        };
        self.happened(now, T::ProcessingFailed, h);
    }

    fn on_worker_crashed(&mut self, now: Millis, event: &SimEvent) {
        use TriggerEvent as T;
        let SimEvent::WorkerCrashed {
            consumer,
            message_id,
            before_side_effect,
        } = event
        else {
            return;
        };
        let body = self.body(message_id);
        self.done(consumer, message_id);
        let fate = self.fate(message_id, consumer, now);
        let label = self.label(message_id);
        let deleted = !self.receipts.contains_key(message_id);
        let text = explain::worker_crashed(&label, consumer, *before_side_effect, deleted, &fate);
        self.explain(now, text);
        let what = "it crashed".to_string();
        (self.abandoned).insert(message_id.clone(), (consumer.clone(), what));
        let h = Happening {
            learners: self.learners.contains(message_id.as_str()),
            message: body.as_deref(),
            consumer: Some(consumer),
            ..Happening::default()
        };
        self.happened(now, T::WorkerCrashed, h);
    }

    fn on_message_lost(&mut self, now: Millis, event: &SimEvent) {
        use TriggerEvent as T;
        let SimEvent::MessageLost {
            consumer,
            message_id,
            handler_crashed,
        } = event
        else {
            return;
        };
        self.outcome.lost += 1;
        let label = self.label(message_id);
        self.explain(now, explain::lost(&label, consumer, *handler_crashed));
        let body = self.body(message_id);
        let h = Happening {
            learners: self.learners.contains(message_id.as_str()),
            message: body.as_deref(),
            consumer: Some(consumer),
            ..Happening::default()
        };
        self.happened(now, T::MessageLost, h);
        self.forget_deleted(message_id);
    }
}
