//! Virtual time: moving the clock, firing what falls due (delays ending,
//! visibility timeouts, retention, long-poll waits, move-task steps) in time
//! order, and answering long polls the moment a message is available.

use std::collections::BTreeMap;

use crate::error::{SqsError, SqsResult};
use crate::events::EventKind;
use crate::message::State;
use crate::receive::ReceiveSpec;
use crate::{Engine, Millis, PollId, ReceivedMessage};

/// Virtual time stops here (about 285,000 years): it stays an exact integer
/// in JavaScript, and deadlines computed from it can never overflow.
pub const MAX_VIRTUAL_MS: Millis = (1 << 53) - 1;

struct Poll {
    queue: u32,
    spec: ReceiveSpec,
    deadline: Millis,
}

/// Long polls waiting for messages, answered in the order they arrived.
#[derive(Default)]
pub(crate) struct Polls {
    next_id: PollId,
    waiting: BTreeMap<PollId, Poll>,
    answered: Vec<(PollId, SqsResult<Vec<ReceivedMessage>>)>,
}

impl Polls {
    pub(crate) fn wait(&mut self, queue: u32, spec: ReceiveSpec, now: Millis) -> PollId {
        self.next_id += 1;
        let deadline = now + spec.wait_ms;
        self.waiting.insert(
            self.next_id,
            Poll {
                queue,
                spec,
                deadline,
            },
        );
        self.next_id
    }

    fn next_deadline(&self) -> Option<Millis> {
        self.waiting.values().map(|p| p.deadline).min()
    }

    /// The oldest poll waiting on `queue`, and what it asked for.
    pub(crate) fn first_for(&self, queue: u32) -> Option<(PollId, ReceiveSpec)> {
        self.waiting
            .iter()
            .find(|(_, p)| p.queue == queue)
            .map(|(id, p)| (*id, p.spec.clone()))
    }

    /// Answers a poll: it stops waiting, and the host hears of it.
    pub(crate) fn answer(&mut self, id: PollId, result: SqsResult<Vec<ReceivedMessage>>) {
        self.waiting.remove(&id);
        self.answered.push((id, result));
    }
}

impl Engine {
    /// Moves virtual time forward by `ms`, firing everything that falls due
    /// on the way at its own moment. Returns the new time.
    pub fn advance(&mut self, ms: Millis) -> Millis {
        let target = self.now.saturating_add(ms).min(MAX_VIRTUAL_MS);
        loop {
            self.settle();
            match self.next_deadline() {
                // `settle` clears everything due by `now`, so the next
                // deadline is always later; the guard keeps a bug from spinning.
                Some(t) if t <= target && t > self.now => self.now = t,
                _ => break,
            }
        }
        self.now = target;
        self.settle();
        self.now
    }

    /// Long polls answered since the last call: each with its messages
    /// (possibly none, when its wait ended) or an error (queue deleted).
    pub fn take_answered_polls(&mut self) -> Vec<(PollId, SqsResult<Vec<ReceivedMessage>>)> {
        std::mem::take(&mut self.polls.answered)
    }

    /// Number of long polls still waiting.
    pub fn waiting_polls(&self) -> usize {
        self.polls.waiting.len()
    }

    /// The next moment something in the engine changes by itself.
    pub fn next_deadline(&self) -> Option<Millis> {
        self.queues
            .values()
            .filter_map(|q| q.next_deadline())
            .chain(self.polls.next_deadline())
            .chain(self.next_task_step())
            .min()
    }

    /// Fires everything due at or before `now`, in a fixed order: queue
    /// timers, then waiting polls, then poll time-outs, then move tasks.
    pub(crate) fn settle(&mut self) {
        let now = self.now;
        let ids: Vec<u32> = self.queues.keys().copied().collect();
        for id in ids {
            self.fire_queue_timers(id, now);
            self.serve_waiters(id);
        }
        let expired: Vec<PollId> = self
            .polls
            .waiting
            .iter()
            .filter(|(_, p)| p.deadline <= now)
            .map(|(id, _)| *id)
            .collect();
        for poll_id in expired {
            if let Some(poll) = self.polls.waiting.remove(&poll_id) {
                if let Some(queue) = self.queues.get(&poll.queue) {
                    let queue = queue.name.clone();
                    self.emit(EventKind::EmptyReceive {
                        queue,
                        by: poll.spec.by,
                    });
                }
                self.polls.answered.push((poll_id, Ok(Vec::new())));
            }
        }
        self.run_move_tasks();
    }

    pub(crate) fn fire_queue_timers(&mut self, id: u32, now: Millis) {
        let Some(queue) = self.queues.get_mut(&id) else {
            return;
        };
        // Keys come from the queue's own indexes, so each message is stored.
        while let Some((_, key)) = queue.first_delay_end().filter(|d| d.0 <= now) {
            let Some(message) = queue.get(key) else { break };
            let event = EventKind::DelayEnded {
                queue: queue.name.clone(),
                message_id: message.id,
            };
            let lock = queue.set_state(key, State::Visible);
            lock.log_after(event, &mut self.log, now);
        }
        while let Some((_, key)) = queue.first_visibility_end().filter(|d| d.0 <= now) {
            let Some(message) = queue.get(key) else { break };
            let event = EventKind::VisibilityExpired {
                queue: queue.name.clone(),
                message_id: message.id,
                holder: message.holder().cloned(),
            };
            let lock = queue.set_state(key, State::Visible);
            lock.log_after(event, &mut self.log, now);
        }
        while let Some((_, key)) = queue.first_expiry().filter(|d| d.0 <= now) {
            let Some((message, lock)) = queue.remove(key) else {
                break;
            };
            let event = EventKind::Expired {
                queue: queue.name.clone(),
                message_id: message.id,
            };
            lock.log_after(event, &mut self.log, now);
        }
    }

    /// A deleted queue answers its waiting polls with an error.
    pub(crate) fn fail_polls_on(&mut self, id: u32) {
        let ids: Vec<PollId> = self
            .polls
            .waiting
            .iter()
            .filter(|(_, p)| p.queue == id)
            .map(|(id, _)| *id)
            .collect();
        for poll_id in ids {
            self.polls.waiting.remove(&poll_id);
            self.polls
                .answered
                .push((poll_id, Err(SqsError::no_queue())));
        }
    }
}
