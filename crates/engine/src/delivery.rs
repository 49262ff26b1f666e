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

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::clock::later;
use crate::error::{ErrorCode, SqsError};
use crate::events::EventKind;
use crate::ids::Receipt;
use crate::message::{Message, State};
use crate::receive::{view, ReceiveSpec};
use crate::{Engine, PollId, ReceivedMessage, SqsResult, IN_FLIGHT_LIMIT};

/// The delivery loop's work, and the queues whose `Serve` is on it: a
/// dead-letter move asks "is this DLQ already being served?" once per move,
/// and with a chain of 10,000 queues the stack is 20,000 deep, so the
/// answer comes from a set, not from a walk down the stack.
#[derive(Default)]
pub(crate) struct Stack {
    work: Vec<Work>,
    serving: BTreeSet<u32>,
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
    /// the next group; `None` between groups.
    Fifo(Option<GroupWalk>),
}

struct GroupWalk {
    group: Arc<str>,
    next: Option<u64>,
    progressed: bool,
}

/// What one step of a receive did.
enum Step {
    Delivered,
    /// A message moved to this dead-letter queue.
    Moved(u32),
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
                Work::Take(take) => match self.step(take) {
                    Step::Delivered => {}
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
        let (fifo, owes_full_read, end) =
            (queue.fifo, queue.sampling_owes_full_read, queue.next_key());
        if self.rng.chance(fewer) {
            want = self.rng.one_to(want);
        }
        let walk = if fifo {
            Walk::Fifo(None)
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

    /// Moves or delivers the receive's next message.
    fn step(&mut self, take: &mut Take) -> Step {
        let Some(key) = self.next_candidate(take) else {
            return Step::Done;
        };
        match self.move_if_exhausted(take.queue, key) {
            Some(dlq) => Step::Moved(dlq),
            None => {
                take.out.push(self.deliver(take.queue, key, &take.spec));
                Step::Delivered
            }
        }
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
            Walk::Fifo(current) => loop {
                let queue = self.queue(id);
                if let Some(walk) = current {
                    let key = walk.next.filter(|_| room);
                    if let Some(key) =
                        key.filter(|k| queue.get(*k).is_some_and(Message::is_visible))
                    {
                        walk.progressed = true;
                        walk.next = queue.next_in_group(&walk.group, key);
                        return Some(key);
                    }
                    // The index promises a visible head; never spin if it did not.
                    if !walk.progressed {
                        return None;
                    }
                    *current = None;
                }
                if !room {
                    return None;
                }
                let (head, group) = queue.first_available_group().filter(|(h, _)| *h < end)?;
                *current = Some(GroupWalk {
                    group,
                    next: Some(head),
                    progressed: false,
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
        let lock = queue.set_state(key, State::InFlight { deadline });
        lock.log_after(event, &mut self.log, now);
        drop(queue);
        let queue = self.queue(id);
        let message = queue.get(key).expect("still stored");
        view(queue, message, spec, receipt.encode(secret), epoch, &sender)
    }

    /// The lazy dead-letter move: a message that has used up its
    /// `maxReceiveCount` goes to the DLQ when a receive reaches it. Returns
    /// the DLQ when the message moved, so its waiting polls get served.
    fn move_if_exhausted(&mut self, id: u32, key: u64) -> Option<u32> {
        let queue = self.queue(id);
        let policy = queue.settings.redrive_policy.as_ref()?;
        let dlq = self.resolve_arn(&policy.dead_letter_target_arn)?;
        let exhausted = queue
            .get(key)
            .is_some_and(|m| i64::from(m.receive_count) >= policy.max_receive_count);
        if !exhausted || dlq == id {
            return None;
        }
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
        extras.holder = None;
        extras.holders.clear();
        target.insert(message).log(&mut self.log, now);
        drop(target);
        // Kept enqueue time: a message already older than the DLQ's
        // retention expires on arrival, before any poll could get it.
        self.fire_queue_timers(dlq, now);
        Some(dlq)
    }
}
