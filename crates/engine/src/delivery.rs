//! Delivering messages: to a caller's receive, or to the long polls waiting
//! on a queue, with the lazy move to a dead-letter queue on the way.
//!
//! These call each other in a cycle: a receive may move a message to a
//! DLQ, the DLQ's waiting polls are then answered at once (as SQS answers a
//! long poll the moment a message arrives), each such answer is a receive on
//! the DLQ, which may move a message on again. With a redrive cycle (a queue
//! recreated under a name another policy already targets) that chain never
//! ends by itself. So the chain is not recursion: it is one loop over an
//! explicit stack of [`Work`], where a receive is data that a dead-letter
//! move pauses and the loop resumes. The stack says what is in progress, so
//! the rule that ends a cycle is plain: a queue whose waiting polls are
//! already being served further down is not served again (its polls wait
//! for the next settle). Without a cycle that never happens. Either way the
//! DLQ's polls are answered before the paused receive goes on, so the log
//! reads in the order things happened.
//!
//! That alone does not bound the loop: a queue served, popped and served
//! again can take back a message it just gave away, and with a cycle of
//! dead-letter queues one message could bounce between them for ever inside
//! one call (issue 25: two FIFO queues, each the other's DLQ, froze a page).
//! So one run of the loop moves a message at most once: a message that
//! arrived by a dead-letter move in this run may still be delivered (the
//! DLQ's waiting poll gets it at once), but if it is due to move on, it is
//! held where it is, visible, for the next run (`settle` serves each queue
//! with waiting polls at most once per pass, so a chain of DLQs is still
//! walked to its end at one moment, one queue per visit, and a cycle stops
//! after one lap). A receive also visits each message and each FIFO group
//! at most once, and only those available when it began. Then every run
//! does bounded work: at most one move per stored message, one answer per
//! waiting poll, and at most ten deliveries per receive, whatever the
//! redrive graph.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::error::{ErrorCode, SqsError};
use crate::events::EventKind;
use crate::ids::Receipt;
use crate::message::{Message, State};
use crate::queue::AvailableGroup;
use crate::receive::{view, ReceiveSpec};
use crate::time::later;
use crate::{Engine, PollId, ReceivedMessage, SqsResult, IN_FLIGHT_LIMIT};

/// The delivery loop's work, and the queues whose `Serve` is on it: a
/// dead-letter move asks "is this DLQ already being served?" once per move,
/// and with a chain of 10,000 queues the stack is 20,000 deep, so the
/// answer comes from a set, not from a walk down the stack.
#[derive(Default)]
pub(crate) struct Stack {
    work: Vec<Work>,
    serving: BTreeSet<u32>,
    /// Where the messages moved to a dead-letter queue in this run now are
    /// (queue, key): none of them moves again in this run.
    moved: BTreeSet<(u32, u64)>,
}

impl Stack {
    fn push(&mut self, work: Work) {
        if let Work::Serve(id) = work {
            self.serving.insert(id);
        }
        self.work.push(work);
    }

    fn pop(&mut self) -> Option<Work> {
        let work = self.work.pop();
        if let Some(Work::Serve(id)) = work {
            self.serving.remove(&id);
        }
        work
    }
}

/// One item on the delivery stack.
// Not boxed: the stack's buffer is reused, and a box would cost every
// receive an allocation.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Work {
    /// Answer the polls waiting on this queue while it has visible messages.
    Serve(u32),
    /// A receive in progress.
    Take(Take),
}

/// A receive in progress, for a caller or for a waiting long poll.
pub(crate) struct Take {
    queue: u32,
    spec: ReceiveSpec,
    /// The waiting poll it answers; `None` for a caller's own receive.
    poll: Option<PollId>,
    want: usize,
    /// Only messages stored before the receive began (keys below this) are
    /// considered: one that comes back during it through a redrive cycle
    /// cannot make it loop.
    end: u64,
    out: Vec<ReceivedMessage>,
    walk: Walk,
}

/// Where a receive is in its queue.
enum Walk {
    /// Visible messages in key order after `cursor`. A sampled short poll
    /// (Realism) looks at a bounded number of candidates, as a poll of a few
    /// servers would, and notes whether it skipped any.
    Standard {
        cursor: u64,
        sampling: bool,
        skipped: bool,
        budget: usize,
    },
    /// FIFO: as many messages as possible from one group, in order, before
    /// the next group.
    Fifo(FifoWalk),
}

/// A FIFO receive's place: the groups in the order their heads became
/// available, each visited once.
struct FifoWalk {
    /// The last group begun (its entry among the available groups).
    after: Option<AvailableGroup>,
    /// Only heads available when the receive began (see [`Take::end`]).
    until: u64,
    /// The group being walked; `None` between groups.
    current: Option<GroupWalk>,
}

struct GroupWalk {
    group: Arc<str>,
    next: Option<u64>,
}

/// What one step of a receive did.
enum Step {
    Delivered,
    /// A message moved to this dead-letter queue.
    Moved(u32),
    /// A message that moved in this run was due to move again: it stays.
    Held,
    Done,
}

impl Engine {
    /// A caller's receive: up to `spec.max` messages, moving exhausted ones
    /// to their DLQ (and answering the DLQ's waiting polls) on the way.
    pub(crate) fn take_messages(
        &mut self,
        id: u32,
        spec: &ReceiveSpec,
    ) -> SqsResult<Vec<ReceivedMessage>> {
        let Some(take) = self.begin_take(id, spec.clone(), None)? else {
            return Ok(Vec::new());
        };
        Ok(self.run(Work::Take(take)).unwrap_or_default())
    }

    /// Answers the polls waiting on a queue while it has visible messages.
    pub(crate) fn serve_waiters(&mut self, id: u32) {
        self.run(Work::Serve(id));
    }

    /// The delivery loop (see the module comment). Returns the messages of
    /// a caller's receive when `first` was one.
    fn run(&mut self, first: Work) -> Option<Vec<ReceivedMessage>> {
        // The stack's buffer is kept between calls: most calls push nothing
        // onto `first`, and a send or a receive should not allocate for it.
        let mut stack = std::mem::take(&mut self.delivery_stack);
        stack.push(first);
        let mut delivered = None;
        while let Some(work) = stack.work.last_mut() {
            match work {
                Work::Serve(id) => {
                    let id = *id;
                    let Some((poll, spec)) = self.next_waiter(id) else {
                        stack.pop();
                        continue;
                    };
                    match self.begin_take(id, spec, Some(poll)) {
                        Ok(Some(take)) => stack.push(Work::Take(take)),
                        Ok(None) => {
                            stack.pop();
                        }
                        Err(error) => self.answer(id, poll, Err(error)),
                    }
                }
                Work::Take(take) => match self.step(take, &mut stack.moved) {
                    Step::Delivered | Step::Held => {}
                    Step::Moved(dlq) => {
                        if !stack.serving.contains(&dlq) {
                            stack.push(Work::Serve(dlq));
                        }
                    }
                    Step::Done => {
                        let Some(Work::Take(take)) = stack.pop() else {
                            unreachable!("the top of the stack is this take");
                        };
                        let (id, poll) = (take.queue, take.poll);
                        let out = self.finish_take(take);
                        match poll {
                            // A caller's receive is only ever at the bottom.
                            None => delivered = Some(out),
                            // Nothing for this poll: serving its queue ends.
                            Some(_) if out.is_empty() => {
                                stack.pop();
                            }
                            Some(poll) => self.answer(id, poll, Ok(out)),
                        }
                    }
                },
            }
        }
        stack.moved.clear();
        self.delivery_stack = stack;
        delivered
    }

    /// The oldest poll waiting on a queue, if the queue has a visible message.
    fn next_waiter(&self, id: u32) -> Option<(PollId, ReceiveSpec)> {
        if !self.queues.get(&id).is_some_and(|q| q.has_visible()) {
            return None;
        }
        self.first_waiter(id)
    }

    fn answer(&mut self, id: u32, poll: PollId, result: SqsResult<Vec<ReceivedMessage>>) {
        self.answer_poll(poll, result);
        // A zero visibility timeout makes the messages visible again at
        // once, for the next waiting poll too.
        self.fire_queue_timers(id, self.now);
    }

    /// Starts a receive; `None` when it can take nothing (the queue is at
    /// its in-flight limit), an error when a short poll must say so.
    fn begin_take(
        &mut self,
        id: u32,
        spec: ReceiveSpec,
        poll: Option<PollId>,
    ) -> SqsResult<Option<Take>> {
        let queue = self.queue(id);
        let short_poll = spec.wait_ms == 0;
        if queue.count_in_flight() >= IN_FLIGHT_LIMIT {
            if short_poll && !queue.fifo {
                return Err(SqsError::new(
                    ErrorCode::OverLimit,
                    format!(
                        "Too many messages in flight for queue {}: the limit is {IN_FLIGHT_LIMIT}.",
                        queue.name
                    ),
                ));
            }
            return Ok(None);
        }
        let realism = &self.config.realism;
        let sample_rate = realism.short_poll_sample_rate;
        let fewer = realism.fewer_messages_probability;
        let mut want = spec.max.min(IN_FLIGHT_LIMIT - queue.count_in_flight());
        let (fifo, owes_full_read, end, until) = (
            queue.fifo,
            queue.sampling_owes_full_read,
            queue.next_key(),
            queue.availability(),
        );
        if self.rng.chance(fewer) {
            want = self.rng.one_to(want);
        }
        let walk = if fifo {
            Walk::Fifo(FifoWalk {
                after: None,
                until,
                current: None,
            })
        } else {
            Walk::Standard {
                cursor: 0,
                sampling: short_poll && sample_rate > 0.0 && !owes_full_read,
                skipped: false,
                budget: want * 8,
            }
        };
        Ok(Some(Take {
            queue: id,
            spec,
            poll,
            want,
            end,
            out: Vec::new(),
            walk,
        }))
    }

    /// Moves, holds or delivers the receive's next message. `moved` says
    /// where the messages this run moved are, and learns the new one.
    fn step(&mut self, take: &mut Take, moved: &mut BTreeSet<(u32, u64)>) -> Step {
        let Some(key) = self.next_candidate(take) else {
            return Step::Done;
        };
        let Some(dlq) = self.dead_letter_target(take.queue, key) else {
            take.out.push(self.deliver(take.queue, key, &take.spec));
            return Step::Delivered;
        };
        if moved.contains(&(take.queue, key)) {
            // FIFO: the rest of its group waits behind it.
            if let Walk::Fifo(walk) = &mut take.walk {
                walk.current = None;
            }
            return Step::Held;
        }
        if let Some(arrived) = self.move_to_dead_letter_queue(take.queue, key, dlq) {
            moved.insert((dlq, arrived));
        }
        Step::Moved(dlq)
    }

    /// The next message a receive should get, or `None` when it is done.
    fn next_candidate(&mut self, take: &mut Take) -> Option<u64> {
        let (id, end, room) = (take.queue, take.end, take.out.len() < take.want);
        match &mut take.walk {
            Walk::Standard {
                cursor,
                sampling,
                skipped,
                budget,
            } => {
                let sample_rate = self.config.realism.short_poll_sample_rate;
                while room && *budget > 0 {
                    let key = self.queue(id).visible_after(*cursor).filter(|k| *k < end)?;
                    *cursor = key;
                    if *sampling {
                        *budget -= 1;
                        if !self.rng.chance(sample_rate) {
                            *skipped = true;
                            continue;
                        }
                    }
                    return Some(key);
                }
                None
            }
            Walk::Fifo(walk) => loop {
                let queue = self.queue(id);
                if let Some(group) = &mut walk.current {
                    // Messages stored since the receive began are not its own.
                    let key = group.next.filter(|k| {
                        room && *k < end && queue.get(*k).is_some_and(Message::is_visible)
                    });
                    if let Some(key) = key {
                        group.next = queue.next_in_group(&group.group, key);
                        return Some(key);
                    }
                    walk.current = None;
                }
                if !room {
                    return None;
                }
                let entry = queue.available_group_after(walk.after.as_ref(), walk.until)?;
                let ((_, head), group) = entry.clone();
                walk.after = Some(entry);
                walk.current = Some(GroupWalk {
                    group,
                    next: Some(head),
                });
            },
        }
    }

    /// Ends a receive: its messages, remembered under its attempt id.
    fn finish_take(&mut self, take: Take) -> Vec<ReceivedMessage> {
        if let Walk::Standard {
            sampling: true,
            skipped,
            ..
        } = take.walk
        {
            let mut queue = self.queue_mut(take.queue);
            // With fewer than 1,000 messages the next request sees them all.
            queue.sampling_owes_full_read =
                skipped && take.out.len() < take.want && queue.count_visible() < 1000;
        }
        // Here, not in `receive_message`: a long poll answered later counts too.
        self.record_attempt(take.queue, &take.spec, &take.out);
        take.out
    }

    fn deliver(&mut self, id: u32, key: u64, spec: &ReceiveSpec) -> ReceivedMessage {
        // SQS decrypts the message before handing it over.
        self.decrypt_for_receive(id, key, &spec.identity, spec.by.as_deref());
        let now = self.now;
        let secret = self.secret;
        let epoch = self.config.start_epoch_ms;
        let sender = self.config.account_id.clone();
        let mut queue = self.queues.get_mut(&id).expect("resolved");
        let visibility = spec
            .visibility_ms
            .unwrap_or(u64::from(queue.settings.visibility_timeout) * 1000);
        let queue_name = queue.name.clone();
        let message = queue.message_mut(key).expect("delivering a stored message");
        message.receive_count += 1;
        message.receipt_serial += 1;
        message.received_at = now;
        message.first_received_at.get_or_insert(now);
        let extras = message.extras_mut();
        let previous_holder = std::mem::replace(&mut extras.holder, spec.by.clone());
        extras.in_flight_since = now;
        if let Some(by) = &spec.by {
            // Everyone who received it, the current holder last.
            extras.holders.retain(|h| h != by);
            extras.holders.push(by.clone());
        }
        let receipt = Receipt {
            queue: id,
            message: key,
            serial: message.receipt_serial,
        };
        let event = EventKind::Received {
            queue: queue_name,
            message_id: message.id,
            by: spec.by.clone(),
            receive_count: message.receive_count,
            visible_at: later(now, visibility),
            previous_holder,
        };
        let deadline = later(now, visibility);
        queue.received(key);
        let lock = queue.set_state(key, State::InFlight { deadline });
        lock.log_after(event, &mut self.log, now);
        drop(queue);
        let queue = self.queue(id);
        let message = queue.get(key).expect("still stored");
        view(queue, message, spec, receipt.encode(secret), epoch, &sender)
    }

    /// The dead-letter queue a message goes to when a receive reaches it:
    /// its queue's, once its receive count has reached `maxReceiveCount`. A
    /// policy naming the message's own queue moves nothing (docs/fidelity.md).
    fn dead_letter_target(&self, id: u32, key: u64) -> Option<u32> {
        let queue = self.queue(id);
        let policy = queue.settings.redrive_policy.as_ref()?;
        let dlq = self.resolve_arn(&policy.dead_letter_target_arn)?;
        let exhausted = queue
            .get(key)
            .is_some_and(|m| i64::from(m.receive_count) >= policy.max_receive_count);
        (exhausted && dlq != id).then_some(dlq)
    }

    /// The lazy dead-letter move of an exhausted message. Returns its key
    /// in the DLQ (whose waiting polls then get served).
    fn move_to_dead_letter_queue(&mut self, id: u32, key: u64, dlq: u32) -> Option<u64> {
        let now = self.now;
        let dead_letter_queue = self.queue(dlq).name.clone();
        let mut queue = self.queues.get_mut(&id).expect("resolved");
        let (mut message, lock) = queue.remove(key)?;
        let event = EventKind::MovedToDeadLetterQueue {
            queue: queue.name.clone(),
            dead_letter_queue,
            message_id: message.id,
            receive_count: message.receive_count,
        };
        lock.log_after(event, &mut self.log, now);
        let source_arn = queue.arn.clone();
        drop(queue);
        let mut target = self.queues.get_mut(&dlq).expect("resolved");
        // A standard DLQ keeps the original enqueue time for retention; a FIFO DLQ resets it.
        if target.fifo {
            message.enqueued_at = now;
            message.sequence = target.next_sequence(&mut self.rng);
        }
        message.state = State::Visible;
        let (serial, message_id) = (message.receipt_serial, message.id);
        let extras = message.extras_mut();
        extras.dead_letter_source = Some(source_arn);
        // FIFO to FIFO: the message id becomes the deduplication id, so that
        // two messages that shared one are both kept (Developer Guide).
        if target.fifo {
            extras.dedup_id = Some(message_id.to_string().into());
        }
        extras.serial_at_arrival = serial;
        extras.arrived_at = now;
        extras.holder = None;
        extras.holders.clear();
        let arrived = target.next_key();
        target.insert(message).log(&mut self.log, now);
        drop(target);
        // Kept enqueue time: a message already older than the DLQ's
        // retention expires on arrival, before any poll could get it.
        self.fire_queue_timers(dlq, now);
        Some(arrived)
    }
}
