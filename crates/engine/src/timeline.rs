//! The engine's queues and the one index of everything that falls due by
//! itself: each queue's earliest deadline (delay end, visibility end,
//! retention expiry, from the queue's own indexes), each waiting long poll's
//! end and each running move task's next step. `advance` jumps from one
//! entry to the next and visits only what is due, so its cost per step does
//! not grow with unrelated queues or polls.
//!
//! Why one entry per queue, kept by a guard: a queue's own ordered indexes
//! already know its next deadline in O(log n), so the global index only
//! needs that one number per queue. Every change to a queue goes through
//! [`Queues::get_mut`], whose [`QueueMut`] re-files the queue's deadline
//! when it is dropped. No caller has to remember to report a change, and
//! none can forget: there is no other way to a `&mut Queue`.
//!
//! The same drop notes a queue as `ready` when polls wait on it and it has
//! a visible message (a send, an expired timeout, an unlocked FIFO group,
//! room under the in-flight limit). Serving a ready queue with nothing to
//! give does nothing, so noting too often is harmless; noting too rarely
//! would leave a poll waiting, and the guard sees every change.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::{Deref, DerefMut};

use crate::queue::Queue;
use crate::{Millis, PollId};

/// What falls due at a moment. At one moment queues come before polls and
/// polls before tasks, as `settle` fires them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Due {
    Queue(u32),
    Poll(PollId),
    Task(usize),
}

#[derive(Default)]
pub(crate) struct Queues {
    map: BTreeMap<u32, Queue>,
    /// Every deadline, earliest first.
    pub(crate) timeline: BTreeSet<(Millis, Due)>,
    /// The long polls waiting on each queue, oldest first (ids only grow).
    /// A queue without waiting polls has no entry.
    pub(crate) waiters: BTreeMap<u32, BTreeSet<PollId>>,
    /// Queues the next `settle` visits: their deadline has come, or polls
    /// wait on them while they may have a message for them.
    pub(crate) ready: BTreeSet<u32>,
}

impl Queues {
    pub(crate) fn get(&self, id: &u32) -> Option<&Queue> {
        self.map.get(id)
    }

    /// A queue to change; its deadline is re-filed when the guard drops.
    pub(crate) fn get_mut(&mut self, id: &u32) -> Option<QueueMut<'_>> {
        let queue = self.map.get_mut(id)?;
        let filed = queue.next_deadline();
        Some(QueueMut {
            queue,
            filed,
            timeline: &mut self.timeline,
            waiters: &self.waiters,
            ready: &mut self.ready,
        })
    }

    pub(crate) fn values(&self) -> impl Iterator<Item = &Queue> {
        self.map.values()
    }

    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    pub(crate) fn insert(&mut self, id: u32, queue: Queue) {
        if let Some(t) = queue.next_deadline() {
            self.timeline.insert((t, Due::Queue(id)));
        }
        self.map.insert(id, queue);
    }

    /// Removes a queue and its deadline. Its waiting polls are the caller's
    /// to answer (`Engine::fail_polls_on`).
    pub(crate) fn remove(&mut self, id: &u32) -> Option<Queue> {
        let queue = self.map.remove(id)?;
        if let Some(t) = queue.next_deadline() {
            self.timeline.remove(&(t, Due::Queue(*id)));
        }
        self.ready.remove(id);
        Some(queue)
    }

    /// Files a queue's deadline again after `settle` took its entry out to
    /// visit it but did not get to it (see `Engine::settle`).
    pub(crate) fn refile(&mut self, id: u32) {
        if let Some(t) = self.map.get(&id).and_then(Queue::next_deadline) {
            self.timeline.insert((t, Due::Queue(id)));
        }
    }

    /// The oldest poll waiting on a queue.
    pub(crate) fn first_waiter(&self, id: u32) -> Option<PollId> {
        self.waiters.get(&id)?.first().copied()
    }

    pub(crate) fn add_waiter(&mut self, id: u32, poll: PollId) {
        self.waiters.entry(id).or_default().insert(poll);
        // A receive that took nothing can leave a visible message behind
        // (one that came back through a redrive cycle while it ran).
        if self.map.get(&id).is_some_and(Queue::has_visible) {
            self.ready.insert(id);
        }
    }

    pub(crate) fn remove_waiter(&mut self, id: u32, poll: PollId) {
        if let Some(polls) = self.waiters.get_mut(&id) {
            polls.remove(&poll);
            if polls.is_empty() {
                self.waiters.remove(&id);
            }
        }
    }
}

/// A queue being changed. Dropping it re-files the queue's earliest
/// deadline in the timeline and notes the queue as ready when polls wait
/// on it and it has a visible message.
pub(crate) struct QueueMut<'a> {
    queue: &'a mut Queue,
    /// The deadline the queue was filed under when the guard was made.
    filed: Option<Millis>,
    timeline: &'a mut BTreeSet<(Millis, Due)>,
    waiters: &'a BTreeMap<u32, BTreeSet<PollId>>,
    ready: &'a mut BTreeSet<u32>,
}

impl Deref for QueueMut<'_> {
    type Target = Queue;
    fn deref(&self) -> &Queue {
        self.queue
    }
}

impl DerefMut for QueueMut<'_> {
    fn deref_mut(&mut self) -> &mut Queue {
        self.queue
    }
}

impl Drop for QueueMut<'_> {
    fn drop(&mut self) {
        let id = self.queue.id;
        let deadline = self.queue.next_deadline();
        if deadline != self.filed {
            if let Some(t) = self.filed {
                self.timeline.remove(&(t, Due::Queue(id)));
            }
            if let Some(t) = deadline {
                self.timeline.insert((t, Due::Queue(id)));
            }
        }
        if self.waiters.contains_key(&id) && self.queue.has_visible() {
            self.ready.insert(id);
        }
    }
}
