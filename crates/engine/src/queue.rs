//! One queue: its messages and the ordered indexes that keep every hot
//! operation logarithmic — visible messages, delay and visibility deadlines,
//! retention age, and (FIFO) message groups whose head can be delivered.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use crate::attempts::Attempts;
use crate::dedup::Dedup;
use crate::events::{EventKind, EventLog, UnlockCause};
use crate::message::{Message, State};
use crate::settings::Settings;
use crate::time::later;
use crate::Millis;

/// The largest step between two FIFO sequence numbers of one queue (a
/// choice: SQS documents only that the numbers are not consecutive).
const MAX_SEQUENCE_GAP: u64 = 4096;

/// What a change to one stored message did to its FIFO group's lock:
/// nothing, or a `GroupLocked`/`GroupUnlocked` event. The mutators of
/// [`Queue`] return it instead of logging it, because only their caller
/// knows the event that caused it, and the log must show the cause first
/// ("received", then "group locked"). It is `must_use` so that no caller
/// can drop it unlogged.
#[must_use = "log it after the event that caused it"]
pub(crate) struct GroupChange(Option<Lock>);

/// A group's lock changed: locked (its head went in flight) or unlocked
/// (its head left flight, by the event logged before it).
struct Lock {
    queue: Arc<str>,
    group: Arc<str>,
    locked: bool,
}

impl GroupChange {
    /// Logs `cause`, then this change (an unlock says it was `cause`).
    pub(crate) fn log_after(self, cause: EventKind, log: &mut EventLog, now: Millis) {
        let unlock = UnlockCause::after(&cause);
        log.push(now, cause);
        self.log_as(unlock, log, now);
    }

    /// Logs this change alone: for a message arriving by a dead-letter move
    /// or a redrive, whose cause was logged against the queue it left, or
    /// a replayed receive. Neither frees a group's head, so neither unlocks.
    pub(crate) fn log(self, log: &mut EventLog, now: Millis) {
        self.log_as(None, log, now);
    }

    fn log_as(self, unlock: Option<UnlockCause>, log: &mut EventLog, now: Millis) {
        let Some(Lock {
            queue,
            group,
            locked,
        }) = self.0
        else {
            return;
        };
        if locked {
            log.push(now, EventKind::GroupLocked { queue, group });
        } else if let Some(cause) = unlock {
            log.push(
                now,
                EventKind::GroupUnlocked {
                    queue,
                    group,
                    cause,
                },
            );
        } else {
            // Only a head leaving flight unlocks, and every way it leaves
            // names its cause (`UnlockCause::after`).
            debug_assert!(false, "group {group} of {queue} unlocked with no cause");
        }
    }
}

/// The engine's running totals of stored messages and their bytes (body
/// plus attributes, as SQS counts a message's size), shared by every queue
/// of one engine. `Queue::insert` and `Queue::remove` keep them, and a
/// deleted queue gives its messages back when it is dropped, so the budget
/// check before a send (`Engine::check_storage`) reads two numbers instead
/// of visiting queues, and no caller can forget to count.
#[derive(Default, Debug)]
pub(crate) struct Storage {
    bytes: AtomicU64,
    messages: AtomicU64,
}

impl Storage {
    pub(crate) fn bytes(&self) -> u64 {
        self.bytes.load(Relaxed)
    }

    pub(crate) fn messages(&self) -> u64 {
        self.messages.load(Relaxed)
    }

    fn add(&self, bytes: u64, messages: u64) {
        self.bytes.fetch_add(bytes, Relaxed);
        self.messages.fetch_add(messages, Relaxed);
    }

    fn sub(&self, bytes: u64, messages: u64) {
        self.bytes.fetch_sub(bytes, Relaxed);
        self.messages.fetch_sub(messages, Relaxed);
    }
}

/// A FIFO group whose head is visible, as `Queue::available_groups` files
/// it: ((head availability, head key), group name).
pub(crate) type AvailableGroup = ((u64, u64), Arc<str>);

/// A FIFO message group: its messages in send order.
#[derive(Default)]
pub(crate) struct Group {
    pub keys: BTreeSet<u64>,
    /// The (head availability, head key) under which the group sits in
    /// `available_groups`.
    available_as: Option<(u64, u64)>,
    pub locked: bool,
}

pub(crate) struct Queue {
    pub id: u32,
    pub name: Arc<str>,
    pub arn: Arc<str>,
    pub url: Arc<str>,
    pub fifo: bool,
    pub settings: Settings,
    pub created_at: Millis,
    pub modified_at: Millis,
    pub tags: BTreeMap<String, String>,
    pub last_purge: Option<Millis>,
    pub dedup: Dedup,
    /// The next short poll sees every message (after a sampled one came up short).
    pub sampling_owes_full_read: bool,
    /// FIFO `ReceiveRequestAttemptId`s seen in the last five minutes.
    pub attempts: Attempts,
    /// SSE-KMS: its KMS requests and the data keys it reuses.
    pub kms: crate::kms::QueueKms,
    /// Boxed: a B-tree's nodes are often half empty, and a pointer wastes
    /// far less of that space than a whole message would.
    messages: BTreeMap<u64, Box<Message>>,
    next_key: u64,
    next_sequence: u64,
    /// The last `Message::available_since` given out.
    availability: u64,
    /// Standard queues: visible messages in key (enqueue) order.
    visible: BTreeSet<u64>,
    delayed: BTreeSet<(Millis, u64)>,
    in_flight: BTreeSet<(Millis, u64)>,
    by_age: BTreeSet<(Millis, u64)>,
    /// The messages ApproximateAgeOfOldestMessage counts, by the moment
    /// their age counts from (`Message::age_from`, `counts_for_age`).
    aging: BTreeSet<(Millis, u64)>,
    groups: BTreeMap<Arc<str>, Group>,
    /// FIFO groups whose head message is visible, in the order their heads
    /// became available (sqs-facts: send time if never received, else the
    /// moment it came back; ties keep send order).
    available_groups: BTreeSet<AvailableGroup>,
    /// Messages this queue's accessors have handed out, counted only with
    /// the `scan-count` feature: tests/scans.rs holds a receive to a number
    /// that does not grow with the queue. Without the feature it does not exist.
    #[cfg(feature = "scan-count")]
    pub(crate) examined: std::cell::Cell<u64>,
    /// The engine's totals, which this queue's messages are counted in.
    storage: Arc<Storage>,
    /// Bytes of this queue's messages (their share of `storage`).
    stored_bytes: u64,
}

impl Drop for Queue {
    /// A deleted queue's messages leave the engine's totals with it.
    fn drop(&mut self) {
        self.storage
            .sub(self.stored_bytes, self.messages.len() as u64);
    }
}

impl Queue {
    pub(crate) fn new(
        id: u32,
        name: Arc<str>,
        arn: Arc<str>,
        url: Arc<str>,
        fifo: bool,
        now: Millis,
        storage: Arc<Storage>,
    ) -> Self {
        Queue {
            id,
            name,
            arn,
            url,
            fifo,
            settings: Settings::default(),
            created_at: now,
            modified_at: now,
            tags: BTreeMap::new(),
            last_purge: None,
            dedup: Dedup::default(),
            sampling_owes_full_read: false,
            attempts: Attempts::default(),
            kms: crate::kms::QueueKms::default(),
            messages: BTreeMap::new(),
            next_key: 1,
            next_sequence: 0,
            availability: 0,
            visible: BTreeSet::new(),
            delayed: BTreeSet::new(),
            in_flight: BTreeSet::new(),
            by_age: BTreeSet::new(),
            aging: BTreeSet::new(),
            groups: BTreeMap::new(),
            available_groups: BTreeSet::new(),
            #[cfg(feature = "scan-count")]
            examined: std::cell::Cell::new(0),
            storage,
            stored_bytes: 0,
        }
    }

    /// Counts one message looked at (see `examined`); an empty function,
    /// compiled away, without the `scan-count` feature.
    #[inline(always)]
    fn examine(&self) {
        #[cfg(feature = "scan-count")]
        self.examined.set(self.examined.get() + 1);
    }

    pub(crate) fn get(&self, key: u64) -> Option<&Message> {
        self.examine();
        self.messages.get(&key).map(|m| &**m)
    }

    pub(crate) fn messages(&self) -> impl Iterator<Item = (u64, &Message)> {
        self.messages.iter().map(|(k, m)| {
            self.examine();
            (*k, &**m)
        })
    }

    pub(crate) fn count_delayed(&self) -> usize {
        self.delayed.len()
    }

    pub(crate) fn count_in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Visible messages, counting FIFO messages behind a locked group too.
    pub(crate) fn count_visible(&self) -> usize {
        self.messages.len() - self.delayed.len() - self.in_flight.len()
    }

    /// The next FIFO sequence number: larger than the last by a gap drawn
    /// from the engine's PRNG, so that, as in SQS, the numbers strictly
    /// increase but are not a gapless counter (and a seed still gives the
    /// same numbers).
    pub(crate) fn next_sequence(&mut self, rng: &mut crate::Rng) -> u64 {
        self.next_sequence += 1 + rng.next_u64() % MAX_SEQUENCE_GAP;
        self.next_sequence
    }

    pub(crate) fn groups(&self) -> impl Iterator<Item = (&Arc<str>, &Group)> {
        self.groups.iter()
    }

    pub(crate) fn group(&self, name: &str) -> Option<&Group> {
        self.groups.get(name)
    }

    pub(crate) fn count_groups(&self) -> usize {
        self.groups.len()
    }

    pub(crate) fn retention_ms(&self) -> Millis {
        u64::from(self.settings.message_retention_period) * 1000
    }

    /// The earliest moment something in this queue changes by itself.
    pub(crate) fn next_deadline(&self) -> Option<Millis> {
        [
            self.delayed.first().map(|d| d.0),
            self.in_flight.first().map(|d| d.0),
            self.by_age.first().map(|d| later(d.0, self.retention_ms())),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    pub(crate) fn first_delay_end(&self) -> Option<(Millis, u64)> {
        self.delayed.first().copied()
    }

    pub(crate) fn first_visibility_end(&self) -> Option<(Millis, u64)> {
        self.in_flight.first().copied()
    }

    /// The oldest message by retention age and the time it expires.
    pub(crate) fn first_expiry(&self) -> Option<(Millis, u64)> {
        self.by_age
            .first()
            .map(|(at, key)| (later(*at, self.retention_ms()), *key))
    }

    /// The key the next stored message will get: a receive only considers
    /// messages stored before it began, so one that comes back during the
    /// receive (through a redrive cycle) cannot make it loop.
    pub(crate) fn next_key(&self) -> u64 {
        self.next_key
    }

    /// Keys of standard-queue visible messages after `after`, in order.
    pub(crate) fn visible_after(&self, after: u64) -> Option<u64> {
        self.examine();
        self.visible.range(after + 1..).next().copied()
    }

    /// The FIFO group with the oldest visible head, and that head.
    pub(crate) fn first_available_group(&self) -> Option<(u64, Arc<str>)> {
        self.examine();
        self.available_groups
            .first()
            .map(|((_, head), group)| (*head, group.clone()))
    }

    /// The FIFO group whose head became available next after `after` (an
    /// entry this method gave out, `None` for the first), among the heads
    /// available by `until` (an [`Queue::availability`]): its entry is
    /// ((head availability, head key), group). A receive walks the groups
    /// with it, so it visits each group at most once, and a head that
    /// becomes available while it runs (a visibility timeout of 0, a
    /// message moved in) waits for the next receive.
    pub(crate) fn available_group_after(
        &self,
        after: Option<&AvailableGroup>,
        until: u64,
    ) -> Option<AvailableGroup> {
        use std::ops::Bound::{Excluded, Unbounded};
        self.examine();
        let start = after.map_or(Unbounded, Excluded);
        self.available_groups
            .range((start, Unbounded))
            .next()
            .filter(|((since, _), _)| *since <= until)
            .cloned()
    }

    /// The last `available_since` given out: a message or FIFO group head
    /// available by now has one at most this.
    pub(crate) fn availability(&self) -> u64 {
        self.availability
    }

    /// The key after `key` in a FIFO group's send order.
    pub(crate) fn next_in_group(&self, group: &str, key: u64) -> Option<u64> {
        let group = self.groups.get(group)?;
        group.keys.range(key + 1..).next().copied()
    }

    pub(crate) fn has_visible(&self) -> bool {
        if self.fifo {
            !self.available_groups.is_empty()
        } else {
            !self.visible.is_empty()
        }
    }

    /// Stores a message under the next key.
    pub(crate) fn insert(&mut self, mut message: Message) -> GroupChange {
        let key = self.next_key;
        self.next_key += 1;
        self.availability += 1;
        message.available_since = self.availability;
        self.by_age.insert((message.enqueued_at, key));
        if message.counts_for_age(self.fifo) {
            self.aging.insert((message.age_from(), key));
        }
        self.index(key, &message.state);
        let group = message.group.clone();
        let bytes = message.size();
        self.stored_bytes += bytes;
        self.storage.add(bytes, 1);
        self.messages.insert(key, Box::new(message));
        match group.filter(|_| self.fifo) {
            Some(group) => {
                self.groups
                    .entry(group.clone())
                    .or_default()
                    .keys
                    .insert(key);
                self.refresh_group(&group)
            }
            None => GroupChange(None),
        }
    }

    pub(crate) fn remove(&mut self, key: u64) -> Option<(Message, GroupChange)> {
        let message = *self.messages.remove(&key)?;
        let bytes = message.size();
        self.stored_bytes -= bytes;
        self.storage.sub(bytes, 1);
        self.unindex(key, &message.state);
        self.by_age.remove(&(message.enqueued_at, key));
        self.aging.remove(&(message.age_from(), key));
        let change = match (self.fifo, &message.group) {
            (true, Some(group)) => {
                if let Some(g) = self.groups.get_mut(group) {
                    g.keys.remove(&key);
                }
                self.refresh_group(group)
            }
            _ => GroupChange(None),
        };
        Some((message, change))
    }

    /// Moves a message to a new state, keeping every index in step.
    pub(crate) fn set_state(&mut self, key: u64, state: State) -> GroupChange {
        let Some(message) = self.messages.get_mut(&key) else {
            return GroupChange(None);
        };
        let old = std::mem::replace(&mut message.state, state);
        if matches!(old, State::InFlight { .. }) && state == State::Visible {
            self.availability += 1;
            message.available_since = self.availability;
        }
        let group = message.group.clone();
        self.unindex(key, &old);
        self.index(key, &state);
        match group.filter(|_| self.fifo) {
            Some(group) => self.refresh_group(&group),
            None => GroupChange(None),
        }
    }

    /// A receive of the message at `key` was counted: one received too
    /// often leaves ApproximateAgeOfOldestMessage.
    pub(crate) fn received(&mut self, key: u64) {
        if let Some(m) = self.messages.get(&key) {
            if !m.counts_for_age(self.fifo) {
                self.aging.remove(&(m.age_from(), key));
            }
        }
    }

    /// The moment the age of the oldest message CloudWatch counts runs
    /// from, if the queue holds one.
    pub(crate) fn oldest_counted(&self) -> Option<Millis> {
        self.aging.first().map(|(at, _)| *at)
    }

    pub(crate) fn message_mut(&mut self, key: u64) -> Option<&mut Message> {
        // Callers must not change `state`, `group`, `enqueued_at` or what
        // `age_from` reads here: those are indexed and go through
        // `set_state`/`insert`/`remove` (a receive, then `received`).
        self.examine();
        self.messages.get_mut(&key).map(|m| &mut **m)
    }

    /// Adds a message to the index of its state.
    fn index(&mut self, key: u64, state: &State) {
        match *state {
            State::Delayed { until } => {
                self.delayed.insert((until, key));
            }
            State::Visible => {
                if !self.fifo {
                    self.visible.insert(key);
                }
            }
            State::InFlight { deadline, .. } => {
                self.in_flight.insert((deadline, key));
            }
        }
    }

    fn unindex(&mut self, key: u64, state: &State) {
        match *state {
            State::Delayed { until } => {
                self.delayed.remove(&(until, key));
            }
            State::Visible => {
                self.visible.remove(&key);
            }
            State::InFlight { deadline, .. } => {
                self.in_flight.remove(&(deadline, key));
            }
        }
    }

    /// Re-derives a FIFO group's availability and lock from its head
    /// message, and returns the lock change for the caller to log.
    fn refresh_group(&mut self, name: &Arc<str>) -> GroupChange {
        let Some(group) = self.groups.get_mut(name) else {
            return GroupChange(None);
        };
        let head = group.keys.first().and_then(|k| {
            self.messages
                .get(k)
                .map(|m| (*k, m.state, m.available_since))
        });
        let available = head
            .filter(|(_, s, _)| *s == State::Visible)
            .map(|(k, _, since)| (since, k));
        if available != group.available_as {
            if let Some(old) = group.available_as {
                self.available_groups.remove(&(old, name.clone()));
            }
            if let Some(new) = available {
                self.available_groups.insert((new, name.clone()));
            }
            group.available_as = available;
        }
        let locked = matches!(head, Some((_, State::InFlight { .. }, _)));
        let change = (locked != group.locked).then(|| {
            group.locked = locked;
            Lock {
                queue: self.name.clone(),
                group: name.clone(),
                locked,
            }
        });
        if head.is_none() {
            self.groups.remove(name);
        }
        GroupChange(change)
    }
}
