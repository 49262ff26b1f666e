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
use crate::{queue_name, Simulation};

/// The most work a host runs without asking the learner first: about a
/// second or two of engine work on a laptop's browser tab.
pub const MAX_WORK_WITHOUT_ASKING: u64 = 2_000_000;

/// The most work a scenario's whole run may take; a scenario estimated past
/// it is refused. About a minute or two of engine work in a browser tab.
pub const MAX_SCENARIO_WORK: u64 = 100_000_000;

/// One send: the producer's wake and action and its SendMessage call.
const PER_SEND: u64 = 3;
/// A timer a message sets off by itself: its delay ending, its retention
/// ending, its visibility expiring while a slow handler works (the wake
/// and the event).
const PER_TIMER: u64 = 2;
/// One empty short poll: the worker's wake, its action, the ReceiveMessage call.
const PER_SHORT_POLL: u64 = 3;
/// One empty long poll: the same, plus the poll's time-out firing.
const PER_LONG_POLL: u64 = 5;
/// One handled message: the wake at its end, the worker's action, the
/// delete, and a visibility deadline that may fire.
const PER_HANDLED: u64 = 3 + PER_TIMER;
/// One heartbeat: the wake and the action, plus one
/// ChangeMessageVisibility per message still held.
const PER_HEARTBEAT: u64 = 2;
/// One narration line or one alarm check.
const PER_LINE: u64 = 1;
/// The estimate is the expected work (from the scenario's mean rates)
/// times this margin: draws, batches and the order of competing workers
/// move the real figure around its expectation.
const MARGIN: f64 = 1.5;

/// The mean time one message keeps a worker busy, in ms (0 for a handler
/// that takes no time), with its share of the batch's overhead.
fn mean_processing(worker: &Worker) -> f64 {
    use crate::Processing::*;
    let ms = match worker.spec.processing {
        FixedMs(ms) => ms as f64,
        UniformMs { min, max } => (min as f64 + max as f64) / 2.0,
        ExponentialMs { mean } => mean as f64,
    };
    ms + worker.spec.batch_overhead_ms as f64 / batch_size(worker)
}

fn batch_size(worker: &Worker) -> f64 {
    worker.spec.batch_size.clamp(1, 10) as f64
}

/// The most batches a worker receives in one moment: a handler that takes
/// no time polls again at once after each batch, while messages are
/// visible, for as many rounds as `Simulation::act` runs in a moment (each
/// batch is two of its rounds: the receive, then the handling).
const BATCHES_PER_MOMENT: f64 = 5_000.0;

/// The share of the messages a worker handles that fail whatever their
/// body (`failsEveryNth`: 1 for every message).
fn fail_rate(worker: &Worker) -> f64 {
    worker
        .spec
        .behaviour
        .fails_every_nth
        .map_or(0.0, |n| 1.0 / n.max(1) as f64)
}

/// Whether a worker's handler fails now and then whatever the body
/// (every Nth message, an outage window).
fn flaky(worker: &Worker) -> bool {
    let b = &worker.spec.behaviour;
    b.fails_every_nth.is_some() || b.fails_during_ms.is_some()
}

/// The body patterns a worker fails or crashes on.
fn failing_patterns(worker: &Worker) -> impl Iterator<Item = &String> {
    let b = &worker.spec.behaviour;
    b.fails_on
        .iter()
        .chain(&b.crashes_after_side_effect_on)
        .chain(&b.crashes_before_side_effect_on)
}

/// One worker's share of the run from `now` to `until`.
struct WorkerPlan {
    /// Its span of time, in ms.
    span: f64,
    /// The mean time per message.
    mean: f64,
    /// The messages it could handle in its span, plus the batch it
    /// holds at the end.
    capacity: f64,
    /// The messages it is expected to handle (its share of its queue's).
    handled: f64,
    /// The time it is surely busy (what the others cannot take of a
    /// steady supply): only then does it not poll.
    busy_low: f64,
    /// The most time it may be busy (it got every message it could).
    busy_high: f64,
}

impl WorkerPlan {
    fn new(worker: &Worker, now: Millis, until: Millis) -> Self {
        let from = now.max(worker.spec.start_ms);
        let to = until.min(worker.spec.stop_ms.unwrap_or(Millis::MAX));
        let span = to.saturating_sub(from) as f64;
        let mean = mean_processing(worker);
        let batch = batch_size(worker);
        // A handler quicker than a millisecond handles many messages a
        // millisecond (one taking no time, all that are visible), up to
        // the batches a moment holds, in the first moment too.
        let per_ms = (1.0 / mean).min(BATCHES_PER_MOMENT * batch);
        let moments = if mean < 1.0 { span + 1.0 } else { span };
        let capacity = if from > to {
            0.0
        } else {
            moments * per_ms + batch
        };
        WorkerPlan {
            span,
            // Busy time is counted in whole milliseconds of the run.
            mean: mean.max(1.0),
            capacity,
            handled: 0.0,
            busy_low: 0.0,
            busy_high: 0.0,
        }
    }

    /// Its expected units: empty polls while idle, each handled message,
    /// heartbeats while busy, crashes.
    fn units(&self, worker: &Worker) -> f64 {
        let spec = &worker.spec;
        let busy = self.busy_high;
        let idle = self.span - self.busy_low.min(self.span);
        let polls = if spec.wait_time_seconds > 0 {
            idle / (spec.wait_time_seconds as f64 * 1000.0) * PER_LONG_POLL as f64
        } else {
            idle / spec.poll_interval_ms.max(1) as f64 * PER_SHORT_POLL as f64
        };
        let heartbeats = spec.behaviour.heartbeat_every_ms.map_or(0.0, |every| {
            // It holds a full batch only when there are messages enough.
            let held = (spec.batch_size.clamp(1, 10) as f64).min(self.handled.max(1.0));
            // Without its own seconds, each beat reads the queue's timeout.
            let read = spec.behaviour.heartbeat_visibility_seconds.is_none() as u64 as f64;
            (busy / every.max(1) as f64 + self.handled) * (PER_HEARTBEAT as f64 + held + read)
        });
        // A crash is a wake and a restart, at most one per message.
        let crashes = match failing_patterns(worker).next() {
            Some(_) => self.handled * 2.0,
            None => 0.0,
        };
        // A consumer's publishMetrics: one PutMetricData a message.
        let published = spec.publish_metrics.is_some() as u64 as f64 * self.handled;
        polls
            + PER_SHORT_POLL as f64
            + self.handled * PER_HANDLED as f64
            + heartbeats
            + crashes
            + published
    }
}

/// What a queue is given during the run, for its workers.
#[derive(Default, Clone)]
struct QueuePlan {
    /// Messages sent to it or stored in it now.
    messages: f64,
    /// Of those, the ones its workers fail or crash on every time.
    failing: f64,
    /// Messages moved in from the queues it is the dead-letter queue of.
    moved_in: f64,
    /// Body units of one average message.
    body_units: f64,
    /// Messages that arrive at a producer's steady rate, and the window
    /// they arrive in (the only supply that surely keeps workers busy).
    steady: f64,
    steady_window: (Millis, Millis),
}

/// How a queue's messages are delivered over the run, for its workers.
struct Deliveries {
    /// Deliveries in all (redeliveries counted).
    total: f64,
    /// Messages no worker always fails on.
    ok: f64,
    /// The chance a delivery fails at a flaky worker.
    fails: f64,
    /// Whether any of its workers is flaky.
    flaky: bool,
    /// Deliveries of a message every worker fails on.
    per_failing: f64,
    max_receives: f64,
}

impl Simulation {
    /// Every worker's plan, with its expected share of its queue's
    /// deliveries: a queue's messages, delivered once each, again while a
    /// slow handler outlasts the visibility timeout (at most once per
    /// other worker), and again each visibility timeout after a failure
    /// (up to `maxReceiveCount`); its workers handle what they can, each
    /// in proportion to how fast it works.
    fn plans(&self, until: Millis) -> (Vec<WorkerPlan>, Vec<QueuePlan>) {
        let now = self.now();
        let mut plans: Vec<WorkerPlan> = self
            .workers
            .iter()
            .map(|w| WorkerPlan::new(w, now, until))
            .collect();
        let (mut queues, mut units) = self.supply(until);
        let span = until.saturating_sub(now) as f64;
        // A dead-letter queue is listed before its sources: sources first.
        for q in (0..queues.len()).rev() {
            let on_q: Vec<usize> = (0..self.workers.len())
                .filter(|w| self.queue_index(&self.workers[*w].url) == Some(q))
                .collect();
            let plan = queues[q].clone();
            queues[q].body_units = units[q] / plan.messages.max(1.0);
            let d = self.deliveries(q, &on_q, &plans, &plan, span);
            // What exhausts `maxReceiveCount` moves on to the dead-letter queue.
            let dlq = self.scenario.queues[q].redrive.as_ref().and_then(|r| {
                let specs = &self.scenario.queues;
                specs.iter().position(|s| s.name == r.dead_letter_queue)
            });
            if let Some(dlq) = dlq {
                let flaky_out = match d.flaky {
                    true => d.ok * d.fails.max(0.5).powf(d.max_receives),
                    false => 0.0,
                };
                let failing_out = match d.per_failing >= d.max_receives {
                    true => plan.failing,
                    false => 0.0,
                };
                queues[dlq].moved_in += flaky_out + failing_out;
                units[dlq] += (flaky_out + failing_out) * queues[q].body_units;
            }
            share(&mut plans, &on_q, &plan, d.total);
        }
        (plans, queues)
    }

    fn queue_index(&self, url: &str) -> Option<usize> {
        let name = queue_name(url);
        self.scenario.queues.iter().position(|q| *q.name == *name)
    }

    /// What each queue holds now and is sent up to `until` (by the
    /// actors that send), and those messages' body units.
    fn supply(&self, until: Millis) -> (Vec<QueuePlan>, Vec<f64>) {
        let now = self.now();
        let specs = &self.scenario.queues;
        let mut queues = vec![QueuePlan::default(); specs.len()];
        let counts = self.engine.counts();
        for (i, spec) in specs.iter().enumerate() {
            let stored = counts
                .queues
                .iter()
                .find(|q| q.name == spec.name)
                .map_or(0, |q| q.visible + q.in_flight + q.delayed);
            queues[i].messages = stored as f64;
        }
        let mut units = vec![0.0; specs.len()];
        for a in &self.actors {
            let Some(url) = a.queue_url() else { continue };
            let Some(q) = self.queue_index(url) else {
                continue;
            };
            // A delayed message reaches the workers its delay later.
            let delay = specs[q].delay_seconds.unwrap_or(0).max(0) as u64 * 1000;
            let arrived = until.saturating_sub(delay);
            let patterns: Vec<&String> = (self.workers.iter())
                .filter(|w| w.url == url)
                .flat_map(failing_patterns)
                .collect();
            let hits = |body: &str| patterns.iter().any(|p| body.contains(p.as_str()));
            let Some(sent) = a.plan(arrived, &hits) else {
                continue;
            };
            queues[q].messages += sent.sends as f64;
            if let Some((rated, start, end)) = sent.steady {
                let start = start.saturating_add(delay);
                let end = end.saturating_add(delay);
                let (lo, hi) = queues[q].steady_window;
                queues[q].steady += rated as f64;
                queues[q].steady_window = match queues[q].steady == rated as f64 {
                    true => (start.max(now), end.min(until)),
                    false => (lo.min(start.max(now)), hi.max(end.min(until))),
                };
            }
            queues[q].failing += sent.matching as f64;
            units[q] += sent.units as f64;
        }
        (queues, units)
    }

    /// Queue `q`'s deliveries over `span`, by its workers (`on_q`).
    fn deliveries(
        &self,
        q: usize,
        on_q: &[usize],
        plans: &[WorkerPlan],
        plan: &QueuePlan,
        span: f64,
    ) -> Deliveries {
        let spec = &self.scenario.queues[q];
        let all = plan.messages + plan.moved_in;
        let vt = spec.visibility_timeout_seconds.unwrap_or(30).max(0) as f64 * 1000.0;
        let max_receives = spec
            .redrive
            .as_ref()
            .map_or(f64::INFINITY, |r| r.max_receive_count.max(1) as f64);
        let workers = &self.workers;
        let flaky = on_q.iter().any(|w| flaky(&workers[*w]));
        // A failed message comes back after the visibility timeout,
        // or the retry's own delay.
        let retry_ms = |w: &Worker| match (
            &w.spec.behaviour.retry_backoff,
            w.spec.behaviour.retry_immediately,
        ) {
            (_, true) => 0.0,
            (Some(b), _) => b.base_seconds.max(0) as f64 * 1000.0,
            (None, false) => vt,
        };
        let comeback = on_q
            .iter()
            .map(|w| retry_ms(&workers[*w]))
            .fold(vt, f64::min)
            .max(1.0);
        let per_failing = max_receives.min(1.0 + span / comeback);
        let slowest = on_q
            .iter()
            .filter(|w| workers[**w].spec.behaviour.heartbeat_every_ms.is_none())
            .map(|w| plans[*w].mean)
            .fold(0.0, f64::max);
        let mut per_message = match slowest > vt {
            true => (1.0 + slowest / vt.max(1.0))
                .min(on_q.len() as f64)
                .max(1.0),
            false => 1.0,
        };
        // The chance a delivery fails, by who takes it: each worker in
        // proportion to how much it can take (one that takes no time
        // takes all that is visible when it polls).
        let capacity: f64 = on_q.iter().map(|w| plans[*w].capacity).sum();
        let fails = match capacity > 0.0 {
            true => {
                on_q.iter()
                    .map(|w| plans[*w].capacity * fail_rate(&workers[*w]))
                    .sum::<f64>()
                    / capacity
            }
            false => 0.0,
        };
        if flaky {
            per_message = (per_message * 2.0).max(1.0 + span.min(comeback * 2.0) / comeback);
            // A message failing at that chance is received 1 / (1 -
            // chance) times (every time when it is 1), each visibility
            // timeout, until the run ends or it is moved on.
            let expected = 1.0 / (1.0 - fails).max(f64::MIN_POSITIVE);
            per_message = per_message.max(expected.min(1.0 + span / comeback));
        }
        let per_message = per_message.min(max_receives.max(1.0));
        let ok = (all - plan.failing).max(0.0);
        Deliveries {
            total: ok * per_message + plan.failing * per_failing,
            ok,
            fails,
            flaky,
            per_failing,
            max_receives,
        }
    }

    /// The part of the scenario that needs the most work up to `until`,
    /// in the author's words ("consumers[0] (pollIntervalMs 1)"), to name
    /// it when a scenario is refused.
    pub(crate) fn heaviest_part(&self, until: Millis) -> String {
        let (plans, _) = self.plans(until);
        let senders = self.actors.iter().filter_map(|a| {
            let sent = a.plan(until, &|_| false)?;
            let work = sent
                .sends
                .saturating_mul(PER_SEND)
                .saturating_add(sent.units);
            Some((work, format!("{} ({} sends)", a.place()?, sent.sends)))
        });
        let workers = self
            .workers
            .iter()
            .zip(&plans)
            .enumerate()
            .map(|(i, (w, plan))| {
                let work = (plan.units(w) * MARGIN) as u64;
                let polling = if w.spec.wait_time_seconds > 0 {
                    format!("waitTimeSeconds {}", w.spec.wait_time_seconds)
                } else {
                    format!("pollIntervalMs {}", w.spec.poll_interval_ms)
                };
                (work, format!("consumers[{i}] ({polling})"))
            });
        let now = self.now();
        let arriving = |url: &str| self.arriving(url, until);
        let own = self.actors.iter().filter_map(|a| {
            let work = a.own_work(now, until, &arriving)?;
            Some((work, a.place()?))
        });
        senders
            .chain(workers)
            .chain(own)
            .max_by_key(|(work, _)| *work)
            .map_or_else(String::new, |(work, part)| {
                format!("{part} alone needs about {work}")
            })
    }

    /// Estimated units of work (engine calls, timer firings, producer and
    /// worker actions, body bytes) to advance from now to `until`; 0 when
    /// `until` is not later than now. Computed from the scenario's numbers
    /// and mean rates, never by running it: within
    /// [`ESTIMATE_FACTOR`] of the work the run does, never below it, on
    /// the generated scenarios of `tests/work.rs`.
    pub fn work_estimate(&self, until: Millis) -> u64 {
        let now = self.now();
        if until <= now {
            return 0;
        }
        let (plans, queues) = self.plans(until);
        let mut sends = 0u64;
        let mut producers = 0f64;
        for a in &self.actors {
            let Some(sent) = a.plan(until, &|_| false) else {
                continue;
            };
            let (n, bytes) = (sent.sends, sent.units);
            let delayed = (a.queue_url().and_then(|url| self.queue_index(url)))
                .is_some_and(|q| self.scenario.queues[q].delay_seconds.unwrap_or(0) > 0);
            let per_send = PER_SEND + if delayed { PER_TIMER } else { 0 };
            sends = sends.saturating_add(n);
            producers += n as f64 * per_send as f64 + bytes as f64;
        }
        // A message still there when its retention ends expires (a timer).
        let retention = self
            .scenario
            .queues
            .iter()
            .map(|q| q.message_retention_period_seconds.unwrap_or(345_600).max(0) as u64 * 1000)
            .min()
            .unwrap_or(Millis::MAX);
        if until - now >= retention {
            producers += sends as f64 * PER_TIMER as f64;
        }
        let mut workers = 0f64;
        for (w, plan) in self.workers.iter().zip(&plans) {
            let q = self.queue_index(&w.url);
            let bytes = q.map_or(0.0, |q| queues[q].body_units);
            workers += plan.units(w) + plan.handled * bytes;
        }
        let lines = (self.observers.iter())
            .map(|o| o.moments_until(until))
            .sum::<u64>() as f64
            * PER_LINE as f64;
        // Actors with work of their own (Lambda mappings' polls and invocations).
        let arriving = |url: &str| self.arriving(url, until);
        for a in &self.actors {
            workers += a.own_work(now, until, &arriving).unwrap_or(0) as f64;
        }
        let acting = producers + workers;
        // Alarms (the watchers) are checked at every wake.
        let watchers = self.actors.iter().filter(|a| a.watches());
        let watchers = watchers.count() as u64;
        let alarm_checks = watchers as f64 * acting.min((until - now) as f64);
        let expected = acting + lines + alarm_checks;
        // The last wake, at `until` itself, and its alarm checks.
        (expected * MARGIN).min(u64::MAX as f64) as u64 + 1 + watchers
    }
}

impl Simulation {
    /// The sends to the queue at `url` up to `until` and their bodies'
    /// units (a Lambda mapping's supply).
    fn arriving(&self, url: &str, until: Millis) -> (u64, u64) {
        let mut out = (0u64, 0u64);
        for a in self.actors.iter().filter(|a| a.queue_url() == Some(url)) {
            if let Some(sent) = a.plan(until, &|_| false) {
                out = (
                    out.0.saturating_add(sent.sends),
                    out.1.saturating_add(sent.units),
                );
            }
        }
        out
    }
}

/// Shares a queue's `deliveries` among its workers (`on_q`): whoever
/// polls when a message is there gets it, fast or slow, so a split by the
/// time each is there, each up to what it can handle (what it cannot goes
/// to the others); then each one's busy time.
fn share(plans: &mut [WorkerPlan], on_q: &[usize], plan: &QueuePlan, deliveries: f64) {
    let capacity: f64 = on_q.iter().map(|w| plans[*w].capacity).sum();
    let handled = deliveries.min(capacity);
    let (lo, hi) = plan.steady_window;
    let steady_span = hi.saturating_sub(lo) as f64;
    let mut by_capacity = on_q.to_vec();
    // Unstable with the index as tie-break: the stable order, without
    // a stable sort's 8 KB of wasm (time_order.rs says why).
    by_capacity.sort_unstable_by(|a, b| {
        let per_ms = |w: &usize| plans[*w].capacity / plans[*w].span.max(1.0);
        per_ms(a).total_cmp(&per_ms(b)).then(a.cmp(b))
    });
    let mut left = handled;
    let mut time: f64 = on_q.iter().map(|w| plans[*w].span).sum();
    for w in by_capacity {
        let span = plans[w].span;
        let share = (left * span / time.max(1.0)).min(plans[w].capacity);
        plans[w].handled = share;
        left -= share;
        time -= span;
    }
    for &w in on_q {
        let p = &mut plans[w];
        // Its expected share of the busy time: a draw longer than
        // the span keeps it busy for the span, no longer.
        p.busy_high = (p.handled * p.mean.min(p.span)).min(p.span);
        let others = capacity - p.capacity;
        let surely = (plan.steady - others).max(0.0).min(p.capacity);
        p.busy_low = (surely * p.mean).min(steady_span).min(p.span);
    }
}

/// How far above the real work [`Simulation::work_estimate`] may be
/// (never below it, give or take 100 units of fixed cost): checked on the
/// generated scenarios of `tests/work.rs`, where most runs are within 2–8×.
/// The far ones are coin flips the estimate cannot call without running:
/// one message that either a worker heartbeating every millisecond or a
/// plain one receives first (276 units one way, about 8,000 the other;
/// the estimate says 6,331).
pub const ESTIMATE_FACTOR: u64 = 25;

impl Simulation {
    /// Moves the engine's clock to `t`: one wake of the run, plus each
    /// event its timers made (a visibility or retention deadline, a delay
    /// ending, a long poll answered or timed out).
    pub(crate) fn advance_engine(&mut self, t: Millis) {
        let before = self.engine.next_event_seq();
        self.engine.advance(t - self.now());
        let fired = self.engine.next_event_seq() - before;
        self.count_work(1 + fired);
    }

    pub(crate) fn count_work(&mut self, units: u64) {
        self.work_done = self.work_done.saturating_add(units);
    }

    /// Units of work done so far (engine calls, timer firings, producer
    /// and worker actions, body bytes), counted as they happen: what
    /// [`Simulation::work_estimate`] predicts.
    pub fn work_done(&self) -> u64 {
        self.work_done
    }
}
