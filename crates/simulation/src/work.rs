//! How much work a run needs to reach a moment, estimated without running it.
//!
//! A scenario of 146 bytes (one consumer short-polling every millisecond
//! for a month) asks for billions of engine calls. Hosts ask
//! [`Simulation::work_estimate`] before replaying to a moment, and
//! [`Simulation::new`] refuses a scenario whose whole run is estimated past
//! [`MAX_SCENARIO_WORK`]. The estimate reads only the scenario's numbers
//! (sends, rates, poll intervals, processing times, counts of stored
//! messages), so it costs microseconds, whatever it predicts.
//!
//! One unit of work is one engine call, one timer firing, or one producer
//! or worker action. The figures below count them per send, per poll and
//! per handled message; they are an estimate, not a bound, and lean high
//! (a worker that polls is assumed to find nothing each time).

use queuelab_engine::Millis;

use crate::worker::Worker;
use crate::{ProducerState, Simulation};

/// The most work a host runs without asking the learner first: about a
/// second or two of engine work on a laptop's browser tab.
pub const MAX_WORK_WITHOUT_ASKING: u64 = 2_000_000;

/// The most work a scenario's whole run may take; a scenario estimated past
/// it is refused. About a minute or two of engine work in a browser tab.
pub const MAX_SCENARIO_WORK: u64 = 100_000_000;

/// One send: the SendMessage call and the timer that ends the message
/// (retention, or a delay that ends).
const PER_SEND: u64 = 2;
/// One empty poll: the ReceiveMessage call and the worker waking for the
/// next one (or the long poll's time-out).
const PER_POLL: u64 = 2;
/// One handled message: its share of the receive, processing start and
/// finish, the delete, and a visibility deadline.
const PER_HANDLED: u64 = 5;
/// One narration line or one alarm check.
const PER_LINE: u64 = 1;

impl ProducerState {
    /// Sends this producer still makes at or before `until`.
    fn sends_until(&self, until: Millis) -> u64 {
        let pending = &self.sends[self.next_send.min(self.sends.len())..];
        let scheduled = pending.partition_point(|s| s.at_ms <= until) as u64;
        let rated = self.rate.as_ref().map_or(0, |rate| {
            if until < rate.start_ms || rate.every_ms == 0 {
                return 0;
            }
            // Sends numbered 0..=k fall at or before `until`.
            let due = ((until - rate.start_ms) / rate.every_ms).saturating_add(1);
            due.min(rate.count).saturating_sub(self.next_rate)
        });
        scheduled.saturating_add(rated)
    }
}

/// The shortest time one message keeps a worker busy, in ms (at least 1).
fn processing_floor(worker: &Worker) -> Millis {
    use crate::Processing::*;
    let ms = match worker.spec.processing {
        FixedMs(ms) => ms,
        UniformMs { min, max } => min.min(max),
        // Draws are often far below the mean; a tenth of it is the floor
        // assumed for a long run of them.
        ExponentialMs { mean } => mean / 10,
    };
    ms.max(1)
}

/// Whether a worker's handler can leave messages to come back (so one
/// message may be handled many times).
fn can_fail(worker: &Worker) -> bool {
    let b = &worker.spec.behaviour;
    !b.fails_on.is_empty()
        || b.fails_every_nth.is_some()
        || !b.crashes_after_side_effect_on.is_empty()
        || !b.crashes_before_side_effect_on.is_empty()
        || b.lambda_batch
}

/// One worker's work from `now` to `until`, with `messages` messages in
/// the whole run to handle (each once, unless its handler can fail).
fn worker_work(worker: &Worker, now: Millis, until: Millis, messages: u64) -> u64 {
    let from = now.max(worker.spec.start_ms);
    let to = until.min(worker.spec.stop_ms.unwrap_or(Millis::MAX));
    if from > to {
        return 0;
    }
    let span = to - from;
    let poll_every = if worker.spec.wait_time_seconds > 0 {
        (worker.spec.wait_time_seconds as u64).saturating_mul(1000)
    } else {
        worker.spec.poll_interval_ms.max(1)
    };
    let polls = (span / poll_every).saturating_add(1);
    let per_message = processing_floor(worker);
    let batch = worker.spec.batch_size.clamp(1, 10) as u64;
    // A worker cannot handle messages faster than it processes them.
    let time_bound = (span / per_message).saturating_add(1).saturating_mul(batch);
    let handled = if can_fail(worker) {
        time_bound
    } else {
        time_bound.min(messages)
    };
    let heartbeats = worker
        .spec
        .behaviour
        .heartbeat_every_ms
        .map_or(0, |every| per_message / every.max(1));
    polls
        .saturating_mul(PER_POLL)
        .saturating_add(handled.saturating_mul(PER_HANDLED.saturating_add(heartbeats)))
}

impl Simulation {
    /// The part of the scenario that needs the most work up to `until`,
    /// in the author's words ("consumers[0] (pollIntervalMs 1)"), to name
    /// it when a scenario is refused.
    pub(crate) fn heaviest_part(&self, until: Millis) -> String {
        let now = self.now();
        let producers = self.producers.iter().enumerate().map(|(i, p)| {
            let work = p.sends_until(until).saturating_mul(PER_SEND);
            (
                work,
                format!("producers[{i}] ({} sends)", p.sends_until(until)),
            )
        });
        let workers = self.workers.iter().enumerate().map(|(i, w)| {
            let work = worker_work(w, now, until, u64::MAX);
            let polling = if w.spec.wait_time_seconds > 0 {
                format!("waitTimeSeconds {}", w.spec.wait_time_seconds)
            } else {
                format!("pollIntervalMs {}", w.spec.poll_interval_ms)
            };
            (work, format!("consumers[{i}] ({polling})"))
        });
        producers
            .chain(workers)
            .max_by_key(|(work, _)| *work)
            .map_or_else(String::new, |(work, part)| {
                format!("{part} alone needs about {work}")
            })
    }

    /// Estimated units of work (engine calls, timer firings, producer and
    /// worker actions) to advance from now to `until`; 0 when `until` is
    /// not later than now. Computed from the scenario's numbers, never by
    /// running it.
    pub fn work_estimate(&self, until: Millis) -> u64 {
        let now = self.now();
        if until <= now {
            return 0;
        }
        let sends = self
            .producers
            .iter()
            .fold(0u64, |sum, p| sum.saturating_add(p.sends_until(until)));
        let stored = self.engine.counts().queues.iter().fold(0u64, |sum, q| {
            sum.saturating_add((q.visible + q.in_flight + q.delayed) as u64)
        });
        let messages = sends.saturating_add(stored);
        let lines = self.story.timed_until(until);
        let workers = self.workers.iter().fold(0u64, |sum, w| {
            sum.saturating_add(worker_work(w, now, until, messages))
        });
        // Alarms are checked every time anything acts.
        let alarm_checks = (self.alarms.len() as u64)
            .saturating_mul(PER_LINE)
            .saturating_mul(sends.saturating_add(workers).min(until - now));
        sends
            .saturating_mul(PER_SEND)
            .saturating_add(lines.saturating_mul(PER_LINE))
            .saturating_add(workers)
            .saturating_add(alarm_checks)
    }
}
