//! Virtual time: moving the clock, firing what falls due (delays ending,
//! visibility timeouts, retention, long-poll waits, move-task steps) in time
//! order, and answering long polls the moment a message is available.

use std::collections::BTreeMap;

use crate::error::{SqsError, SqsResult};
use crate::events::EventKind;
use crate::message::State;
use crate::receive::ReceiveSpec;
use crate::time::{later, TimeLimit};
use crate::timeline::Due;
use crate::{Engine, Millis, PollId, ReceivedMessage};

struct Poll {
    queue: u32,
    spec: ReceiveSpec,
    deadline: Millis,
}

/// Long polls waiting for messages. Which queue each waits on, oldest
/// first, and when each ends, are in `timeline.rs`.
#[derive(Default)]
pub(crate) struct Polls {
    next_id: PollId,
    waiting: BTreeMap<PollId, Poll>,
    answered: Vec<(PollId, SqsResult<Vec<ReceivedMessage>>)>,
}

impl Engine {
    /// Moves virtual time forward by `ms`, firing everything that falls due
    /// on the way at its own moment. Returns the new time. Time stops at
    /// [`MAX_VIRTUAL_MS`]; [`Engine::try_advance`] refuses to go past it.
    pub fn advance(&mut self, ms: Millis) -> Millis {
        let target = later(self.now, ms);
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

    /// [`Engine::advance`], refused when it would pass [`MAX_VIRTUAL_MS`].
    pub fn try_advance(&mut self, ms: Millis) -> Result<Millis, TimeLimit> {
        TimeLimit::check(self.now, ms)?;
        Ok(self.advance(ms))
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

    /// The next moment something in the engine changes by itself: never
    /// past [`MAX_VIRTUAL_MS`], so `advance` can always reach it.
    pub fn next_deadline(&self) -> Option<Millis> {
        self.queues.timeline.first().map(|(t, _)| *t)
    }

    /// Registers a long poll that found nothing: it waits on `queue` until
    /// a message comes or its wait ends.
    pub(crate) fn wait(&mut self, queue: u32, spec: ReceiveSpec) -> PollId {
        self.polls.next_id += 1;
        let id = self.polls.next_id;
        let deadline = later(self.now, spec.wait_ms);
        let poll = Poll {
            queue,
            spec,
            deadline,
        };
        self.polls.waiting.insert(id, poll);
        self.queues.timeline.insert((deadline, Due::Poll(id)));
        self.queues.add_waiter(queue, id);
        id
    }

    /// The oldest poll waiting on `queue`, and what it asked for.
    pub(crate) fn first_waiter(&self, queue: u32) -> Option<(PollId, ReceiveSpec)> {
        let id = self.queues.first_waiter(queue)?;
        self.polls.waiting.get(&id).map(|p| (id, p.spec.clone()))
    }

    /// Answers a poll: it stops waiting, and the host hears of it.
    pub(crate) fn answer_poll(&mut self, id: PollId, result: SqsResult<Vec<ReceivedMessage>>) {
        if let Some(poll) = self.polls.waiting.remove(&id) {
            self.queues.timeline.remove(&(poll.deadline, Due::Poll(id)));
            self.queues.remove_waiter(poll.queue, id);
        }
        self.polls.answered.push((id, result));
    }

    /// Fires everything due at or before `now`, in a fixed order: queue
    /// timers and waiting polls queue by queue in id order, then poll
    /// time-outs in poll order, then move tasks in task order. Only what
    /// is due or ready is visited.
    pub(crate) fn settle(&mut self) {
        let now = self.now;
        let (mut due_polls, mut due_tasks) = (Vec::new(), Vec::new());
        // Queue ids in order, each once. A queue that becomes due or ready
        // behind the cursor waits for the next settle, as when every queue
        // was visited in one pass.
        let mut cursor = 0;
        loop {
            while let Some(&(t, due)) = self.queues.timeline.first().filter(|e| e.0 <= now) {
                self.queues.timeline.remove(&(t, due));
                match due {
                    Due::Queue(id) => {
                        self.queues.ready.insert(id);
                    }
                    Due::Poll(id) => due_polls.push(id),
                    Due::Task(index) => due_tasks.push(index),
                }
            }
            let Some(id) = self.queues.ready.range(cursor..).next().copied() else {
                break;
            };
            self.queues.ready.remove(&id);
            self.count_queue_visit();
            self.fire_queue_timers(id, now);
            self.serve_waiters(id);
            match id.checked_add(1) {
                Some(next) => cursor = next,
                None => break,
            }
        }
        // Queues left behind the cursor: their deadlines go back in the index.
        let left: Vec<u32> = self.queues.ready.range(..cursor).copied().collect();
        for id in left {
            self.queues.refile(id);
        }
        due_polls.sort_unstable();
        for poll_id in due_polls {
            self.count_poll_visit();
            // Polls answered with messages above are gone already.
            let Some(poll) = self.polls.waiting.get(&poll_id) else {
                continue;
            };
            let (queue, by) = (poll.queue, poll.spec.by.clone());
            if let Some(queue) = self.queues.get(&queue) {
                let queue = queue.name.clone();
                self.emit(EventKind::EmptyReceive { queue, by });
            }
            self.answer_poll(poll_id, Ok(Vec::new()));
        }
        due_tasks.sort_unstable();
        self.run_move_tasks(&due_tasks);
    }

    pub(crate) fn fire_queue_timers(&mut self, id: u32, now: Millis) {
        let Some(mut queue) = self.queues.get_mut(&id) else {
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
        let polls = self.queues.waiters.get(&id).cloned().unwrap_or_default();
        for poll_id in polls {
            self.count_poll_visit();
            self.answer_poll(poll_id, Err(SqsError::no_queue()));
        }
    }

    #[inline(always)]
    fn count_queue_visit(&self) {
        #[cfg(feature = "scan-count")]
        self.visits.queues.set(self.visits.queues.get() + 1);
    }

    #[inline(always)]
    fn count_poll_visit(&self) {
        #[cfg(feature = "scan-count")]
        self.visits.polls.set(self.visits.polls.get() + 1);
    }
}
