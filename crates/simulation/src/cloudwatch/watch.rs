//! The CloudWatch observer: metrics from the log and the engine's gauges,
//! alarms judged on them (see `mod.rs`).

use std::collections::BTreeMap;
use std::sync::Arc;

use queuelab_engine::{EventKind, Millis, QueueGauges};
use serde::Serialize;

use super::evaluate::{self, AlarmState, Rule};
use super::store::{MetricId, StatSet, Store};
use super::SQS_METRICS;
use crate::document::{Alarm, ComparisonOperator, Scenario, Statistic, TreatMissingData};
use crate::log::SimEvent;
use crate::observer::{Moment, Observer, Seen};
use crate::SimulationSnapshot;

const SQS: &str = "AWS/SQS";
const LAMBDA: &str = "AWS/Lambda";

/// The most state changes an alarm's history keeps (CloudWatch keeps two
/// weeks of it); older ones go first.
pub const MAX_ALARM_HISTORY: usize = 200;

/// The most periods' values an alarm keeps for the page to draw (a day of
/// minutes is 1,440); older ones go first.
pub const MAX_ALARM_DATAPOINTS: usize = 2_000;

/// An alarm as the page shows it: its definition, its state and why, and
/// its changes of state.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct AlarmSnapshot {
    pub name: String,
    /// The queue of an AWS/SQS metric (its QueueName dimension).
    pub queue: Option<String>,
    pub metric: MetricId,
    pub statistic: Statistic,
    pub period_seconds: u64,
    pub evaluation_periods: u32,
    pub datapoints_to_alarm: u32,
    pub threshold: f64,
    pub comparison_operator: ComparisonOperator,
    pub treat_missing_data: TreatMissingData,
    pub state: AlarmState,
    /// In ALARM now.
    pub in_alarm: bool,
    /// Why it is in its state, from its latest evaluation.
    pub reason: String,
    /// Its changes of state, oldest first (the latest `MAX_ALARM_HISTORY`).
    pub history: Vec<AlarmTransition>,
    /// Each period it judged, oldest first: the period's end and the
    /// statistic's value (None: no datapoint), the latest
    /// `MAX_ALARM_DATAPOINTS`.
    pub datapoints: Vec<(Millis, Option<f64>)>,
}

/// One change of an alarm's state, at the end of the period that caused it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct AlarmTransition {
    pub at_ms: Millis,
    pub from: AlarmState,
    pub to: AlarmState,
    pub reason: String,
}

/// The run's metrics, each with its datapoints, one per resolution step.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct MetricsSnapshot {
    pub resolution_ms: Millis,
    pub series: Vec<SeriesSnapshot>,
}

/// One metric and its steps: (step start, values), oldest first.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SeriesSnapshot {
    pub metric: MetricId,
    pub unit: String,
    pub points: Vec<(Millis, StatSet)>,
}

/// What one queue's events said in one step.
#[derive(Default)]
struct Counts {
    sent: u64,
    received: u64,
    deleted: u64,
    empty_receives: u64,
    deduplicated: u64,
    sizes: Option<StatSet>,
}

/// What one function's events said in one step.
#[derive(Default)]
struct Invocations {
    invocations: u64,
    errors: u64,
    throttles: u64,
    durations: Option<StatSet>,
    /// The most invocations running at once in the step.
    peak: u64,
}

/// An alarm and where it stands.
pub(crate) struct Watched {
    pub(crate) alarm: Alarm,
    /// What PutMetricAlarm sets besides the scenario's fields.
    pub(crate) extra: AlarmExtra,
    pub(crate) metric: MetricId,
    pub(crate) period_ms: Millis,
    rule: Rule,
    pub(crate) state: AlarmState,
    pub(crate) reason: String,
    history: Vec<AlarmTransition>,
    datapoints: std::collections::VecDeque<(Millis, Option<f64>)>,
    /// When its configuration was last put (0: the scenario's).
    pub(crate) configured_ms: Millis,
    /// When its state last changed (or it was made).
    pub(crate) state_updated_ms: Millis,
}

/// An alarm's members that a scenario's alarm does not have: a
/// scenario's alarm has the defaults (actions enabled, none on
/// INSUFFICIENT_DATA).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AlarmExtra {
    pub(crate) description: Option<String>,
    pub(crate) actions_enabled: bool,
    /// SNS topics (by name) published to when it goes into INSUFFICIENT_DATA.
    pub(crate) insufficient_data_actions: Vec<String>,
    pub(crate) unit: Option<String>,
}

impl Default for AlarmExtra {
    fn default() -> Self {
        AlarmExtra {
            description: None,
            actions_enabled: true,
            insufficient_data_actions: Vec::new(),
            unit: None,
        }
    }
}

/// A PutMetricAlarm past [`super::api::MAX_RUN_ALARMS`].
#[derive(Debug, PartialEq)]
pub(crate) struct TooManyAlarms;

impl Watched {
    /// An alarm starting to be watched at `now`, in INSUFFICIENT_DATA.
    fn new(alarm: Alarm, extra: AlarmExtra, resolution_ms: Millis, now: Millis) -> Self {
        Watched {
            metric: MetricId {
                namespace: alarm.namespace().into(),
                metric_name: alarm.metric_name().into(),
                dimensions: alarm.all_dimensions(),
            },
            period_ms: alarm
                .period_seconds
                .map_or(resolution_ms, |s| s.saturating_mul(1000)),
            rule: Rule {
                threshold: alarm.threshold,
                comparison: alarm.comparison_operator(),
                evaluation_periods: alarm.evaluation_periods(),
                datapoints_to_alarm: alarm.datapoints_to_alarm(),
                treat_missing: alarm.treat_missing_data(),
            },
            state: AlarmState::InsufficientData,
            reason: "Not evaluated yet: an alarm starts with insufficient data.".into(),
            history: Vec::new(),
            datapoints: Default::default(),
            configured_ms: now,
            state_updated_ms: now,
            alarm,
            extra,
        }
    }

    /// The queue of an AWS/SQS metric (its QueueName dimension).
    fn queue(&self) -> Option<String> {
        (self.metric.namespace == SQS)
            .then(|| self.metric.dimensions.get("QueueName").cloned())
            .flatten()
    }
}

pub(crate) struct CloudWatch {
    store: Store,
    /// The queues publishing metrics now, in the order of their names,
    /// each with its metrics' ids (made once: a step's close puts ten
    /// values without making a name, and a jump of days closes thousands
    /// of steps). A vector, not a map: no B-tree code of its own in the wasm.
    queues: Vec<(Arc<str>, Vec<MetricId>)>,
    /// Counts of steps not closed yet, by (step start, queue).
    pending: BTreeMap<(Millis, Arc<str>), Counts>,
    /// Lambda's counts of steps not closed yet, by (step start, function).
    invoked: BTreeMap<(Millis, Arc<str>), Invocations>,
    /// Invocations running now, by function.
    running: BTreeMap<Arc<str>, u64>,
    /// The end of the next step to close.
    next_close: Millis,
    duration: Millis,
    alarms: Vec<Watched>,
    events: Vec<SimEvent>,
}

impl CloudWatch {
    pub(crate) fn new(scenario: &Scenario) -> Self {
        let resolution_ms = scenario
            .metrics
            .clone()
            .unwrap_or_default()
            .resolution_seconds
            * 1000;
        let alarms = (scenario.alarms.iter())
            .map(|alarm| Watched::new(alarm.clone(), AlarmExtra::default(), resolution_ms, 0))
            .collect();
        CloudWatch {
            store: Store::new(resolution_ms),
            queues: Vec::new(),
            pending: BTreeMap::new(),
            invoked: BTreeMap::new(),
            running: BTreeMap::new(),
            next_close: resolution_ms.max(1),
            duration: scenario.duration_ms,
            alarms,
            events: Vec::new(),
        }
    }

    fn invocations(&mut self, at: Millis, function: &Arc<str>) -> &mut Invocations {
        let step = self.store.step_of(at);
        self.invoked.entry((step, function.clone())).or_default()
    }

    /// Lambda's metrics of the step from `start`: only for a function
    /// that ran or was throttled in it (Lambda publishes nothing for an
    /// idle function).
    fn close_functions(&mut self, start: Millis) {
        let end = start + self.store.resolution_ms;
        let mut steps: BTreeMap<Arc<str>, Invocations> = BTreeMap::new();
        for ((step, function), counts) in std::mem::take(&mut self.invoked) {
            match step {
                s if s == start => {
                    steps.insert(function, counts);
                }
                s if s >= end => {
                    self.invoked.insert((step, function), counts);
                }
                _ => {}
            }
        }
        for (function, running) in &self.running {
            let step = steps.entry(function.clone()).or_default();
            step.peak = step.peak.max(*running);
        }
        for (function, step) in steps {
            let dimension = ("FunctionName", &*function);
            let mut put = |name: &str, unit: &'static str, values: StatSet| {
                let id = MetricId::new(LAMBDA, name, dimension);
                let _ = self.store.put(&id, unit, start, values);
            };
            let count = |n: u64| StatSet::one(n as f64);
            if step.invocations + step.throttles > 0 || step.durations.is_some() {
                put("Invocations", "Count", count(step.invocations));
                put("Errors", "Count", count(step.errors));
                put("Throttles", "Count", count(step.throttles));
            }
            if let Some(durations) = step.durations {
                put("Duration", "Milliseconds", durations);
            }
            if step.peak > 0 {
                put("ConcurrentExecutions", "Count", count(step.peak));
            }
        }
    }

    fn counts(&mut self, at: Millis, queue: &Arc<str>) -> &mut Counts {
        let step = self.store.step_of(at);
        self.pending.entry((step, queue.clone())).or_default()
    }

    /// Writes the step ending at `end`: every queue's counts (zero when
    /// nothing happened: SQS publishes every minute for an active queue)
    /// and its gauges, read `now`. Nothing changed the queues since `end`
    /// (the run acts at every step's end within its duration, and past it
    /// at every moment anything happens), but time: the oldest message
    /// was younger then.
    fn close(&mut self, end: Millis, now: Millis, gauges: &[Option<QueueGauges>]) {
        let start = end - self.store.resolution_ms;
        for ((queue, ids), gauges) in self.queues.iter().zip(gauges) {
            let counts = self
                .pending
                .remove(&(start, queue.clone()))
                .unwrap_or_default();
            let store = &mut self.store;
            let mut put = |name: &str, unit: &'static str, values: StatSet| {
                let at = SQS_METRICS.iter().position(|m| *m == name);
                let id = at
                    .and_then(|i| ids.get(i))
                    .expect("every SQS metric has its id");
                // Past the bound, a metric is not kept (the bound names
                // itself in `MAX_SERIES`); the queue's are made first.
                let _ = store.put(id, unit, start, values);
            };
            let count = |n: u64| StatSet::one(n as f64);
            put("NumberOfMessagesSent", "Count", count(counts.sent));
            put("NumberOfMessagesReceived", "Count", count(counts.received));
            put("NumberOfMessagesDeleted", "Count", count(counts.deleted));
            put(
                "NumberOfEmptyReceives",
                "Count",
                count(counts.empty_receives),
            );
            put(
                "NumberOfDeduplicatedSentMessages",
                "Count",
                count(counts.deduplicated),
            );
            if let Some(sizes) = counts.sizes {
                put("SentMessageSize", "Bytes", sizes);
            }
            if let Some(g) = gauges {
                put(
                    "ApproximateNumberOfMessagesVisible",
                    "Count",
                    count(g.visible),
                );
                put(
                    "ApproximateNumberOfMessagesNotVisible",
                    "Count",
                    count(g.not_visible),
                );
                put(
                    "ApproximateNumberOfMessagesDelayed",
                    "Count",
                    count(g.delayed),
                );
                put(
                    "ApproximateAgeOfOldestMessage",
                    "Seconds",
                    StatSet::one((g.age_of_oldest_ms.saturating_sub(now - end) / 1000) as f64),
                );
            }
        }
        // Counts of queues deleted before the step closed.
        self.pending.retain(|(step, _), _| *step >= end);
        self.close_functions(start);
        self.judge(end);
    }

    /// Evaluates each alarm whose period ends at `end`.
    fn judge(&mut self, end: Millis) {
        for watched in &mut self.alarms {
            let period = watched.period_ms.max(1);
            if end % period != 0 {
                continue;
            }
            let n = watched.rule.evaluation_periods;
            let statistic = watched.alarm.statistic();
            let range: Vec<Option<f64>> = (0..evaluate::range_len(n) as u64)
                .rev()
                .map(|k| {
                    let period_end = end.checked_sub(k * period)?;
                    let start = period_end.checked_sub(period)?;
                    let values = self.store.period(&watched.metric, start, period_end)?;
                    Some(values.value(statistic))
                })
                .collect();
            if watched.datapoints.len() >= MAX_ALARM_DATAPOINTS {
                watched.datapoints.pop_front();
            }
            watched
                .datapoints
                .push_back((end, range.last().copied().flatten()));
            let verdict = evaluate::evaluate(&watched.rule, &range, watched.state);
            watched.reason = verdict.reason.clone();
            if verdict.state == watched.state {
                continue;
            }
            let from = std::mem::replace(&mut watched.state, verdict.state);
            watched.state_updated_ms = end;
            if watched.history.len() >= MAX_ALARM_HISTORY {
                watched.history.remove(0);
            }
            watched.history.push(AlarmTransition {
                at_ms: end,
                from,
                to: verdict.state,
                reason: verdict.reason.clone(),
            });
            let actions = match verdict.state {
                _ if !watched.extra.actions_enabled => Vec::new(),
                AlarmState::ALARM => watched.alarm.alarm_actions.clone(),
                AlarmState::OK => watched.alarm.ok_actions.clone(),
                AlarmState::InsufficientData => watched.extra.insufficient_data_actions.clone(),
            };
            self.events.push(SimEvent::AlarmChanged {
                alarm: watched.alarm.name.as_str().into(),
                queue: watched.queue().map(Into::into),
                metric: watched.metric.metric_name.clone(),
                from,
                to: verdict.state,
                reason: verdict.reason,
                actions,
            });
        }
    }

    fn snapshot_alarm(&self, w: &Watched) -> AlarmSnapshot {
        AlarmSnapshot {
            name: w.alarm.name.clone(),
            queue: w.queue(),
            metric: w.metric.clone(),
            statistic: w.alarm.statistic(),
            period_seconds: w.period_ms / 1000,
            evaluation_periods: w.rule.evaluation_periods,
            datapoints_to_alarm: w.rule.datapoints_to_alarm,
            threshold: w.rule.threshold,
            comparison_operator: w.rule.comparison,
            treat_missing_data: w.rule.treat_missing,
            state: w.state,
            in_alarm: w.state == AlarmState::ALARM,
            reason: w.reason.clone(),
            history: w.history.clone(),
            datapoints: w.datapoints.iter().copied().collect(),
        }
    }

    /// The run's alarms, in the order they were made.
    pub(crate) fn watched(&self) -> &[Watched] {
        &self.alarms
    }

    /// The alarm named `name`.
    pub(crate) fn alarm(&self, name: &str) -> Option<&Alarm> {
        (self.alarms.iter().find(|w| w.alarm.name == name)).map(|w| &w.alarm)
    }

    /// PutMetricAlarm: a new alarm, judged from its next period's end on,
    /// or a new configuration of the alarm of that name, which keeps its
    /// state (as CloudWatch keeps it), its history and, on the same
    /// metric, its datapoints.
    pub(crate) fn put_alarm(
        &mut self,
        alarm: Alarm,
        extra: AlarmExtra,
        now: Millis,
    ) -> Result<(), TooManyAlarms> {
        let mut fresh = Watched::new(alarm, extra, self.store.resolution_ms, now);
        let Some(old) = (self.alarms.iter_mut()).find(|w| w.alarm.name == fresh.alarm.name) else {
            if self.alarms.len() >= super::api::MAX_RUN_ALARMS {
                return Err(TooManyAlarms);
            }
            self.alarms.push(fresh);
            return Ok(());
        };
        fresh.state = old.state;
        fresh.reason = std::mem::take(&mut old.reason);
        fresh.state_updated_ms = old.state_updated_ms;
        fresh.history = std::mem::take(&mut old.history);
        if fresh.metric == old.metric && fresh.period_ms == old.period_ms {
            fresh.datapoints = std::mem::take(&mut old.datapoints);
        }
        *old = fresh;
        Ok(())
    }

    /// DeleteAlarms: removes the alarms named, or none when one of them
    /// is not an alarm of the run (its name is the error).
    pub(crate) fn delete_alarms(&mut self, names: &[String]) -> Result<(), String> {
        if let Some(missing) =
            (names.iter()).find(|n| !self.alarms.iter().any(|w| &w.alarm.name == *n))
        {
            return Err(missing.clone());
        }
        self.alarms.retain(|w| !names.contains(&w.alarm.name));
        Ok(())
    }

    /// The store of the run's metrics.
    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// PutMetricData: `values` added to the metric's step holding `at`.
    pub(crate) fn put_datum(
        &mut self,
        id: &MetricId,
        unit: &'static str,
        at: Millis,
        values: StatSet,
    ) -> Result<(), super::store::TooManyMetrics> {
        self.store.put(id, unit, at, values)
    }

    /// Every metric and its steps from `from` on.
    pub(crate) fn metrics(&self, from: Millis) -> MetricsSnapshot {
        MetricsSnapshot {
            resolution_ms: self.store.resolution_ms,
            series: self
                .store
                .metrics()
                .map(|(id, unit)| SeriesSnapshot {
                    metric: id.clone(),
                    unit: unit.into(),
                    points: self.store.steps(id, from).map(|(t, v)| (t, *v)).collect(),
                })
                .collect(),
        }
    }
}

impl CloudWatch {
    /// Lambda's metrics, from the event source mappings' events.
    fn lambda(&mut self, now: Millis, event: &SimEvent) {
        match event {
            SimEvent::LambdaInvoked { function, .. } => {
                let running = self.running.entry(function.clone()).or_default();
                *running += 1;
                let running = *running;
                let step = self.invocations(now, function);
                step.invocations += 1;
                step.peak = step.peak.max(running);
            }
            SimEvent::LambdaReturned {
                function,
                duration_ms,
                result,
                ..
            } => {
                if let Some(running) = self.running.get_mut(function) {
                    *running = running.saturating_sub(1);
                }
                let step = self.invocations(now, function);
                // Errors counts the function's own failures: a throw or a
                // timeout, not an invalid partial batch response.
                if matches!(*result, "error" | "timeout") {
                    step.errors += 1;
                }
                let duration = StatSet::one(*duration_ms as f64);
                match &mut step.durations {
                    Some(d) => d.add(&duration),
                    None => step.durations = Some(duration),
                }
            }
            SimEvent::LambdaThrottled { function, .. } => {
                self.invocations(now, function).throttles += 1;
            }
            _ => {}
        }
    }
}

impl Observer for CloudWatch {
    fn observe(&mut self, now: Millis, event: Seen<'_>) {
        let kind = match event {
            Seen::Sqs(kind) => kind,
            Seen::Sim(event) => return self.lambda(now, event),
        };
        match kind {
            EventKind::QueueCreated { queue, .. } => {
                if let Err(at) = self.queues.binary_search_by(|(q, _)| q.cmp(queue)) {
                    let ids = (SQS_METRICS.iter())
                        .map(|name| MetricId::new(SQS, name, ("QueueName", queue)))
                        .collect();
                    self.queues.insert(at, (queue.clone(), ids));
                }
            }
            EventKind::QueueDeleted { queue } => {
                self.queues.retain(|(q, _)| q != queue);
            }
            EventKind::Sent { queue, size, .. } => {
                let counts = self.counts(now, queue);
                counts.sent += 1;
                let size = StatSet::one(*size as f64);
                match &mut counts.sizes {
                    Some(sizes) => sizes.add(&size),
                    None => counts.sizes = Some(size),
                }
            }
            EventKind::DuplicateDropped { queue, .. } => self.counts(now, queue).deduplicated += 1,
            EventKind::Received { queue, .. } => self.counts(now, queue).received += 1,
            EventKind::Deleted { queue, .. } => self.counts(now, queue).deleted += 1,
            EventKind::EmptyReceive { queue, .. } => self.counts(now, queue).empty_receives += 1,
            _ => {}
        }
    }

    fn reach(&mut self, moment: &Moment<'_>) {
        let step = self.store.resolution_ms;
        // Bounded however far time jumped: a store keeps only its latest
        // MAX_POINTS steps, so older ones are skipped, not written.
        let keep = step.saturating_mul(super::store::MAX_POINTS as Millis);
        if let Some(first_kept) = moment.now.checked_sub(keep) {
            if self.next_close < first_kept {
                self.next_close = first_kept - first_kept % step + step;
            }
        }
        if self.next_close > moment.now {
            return;
        }
        // Read once for every step this moment closes: nothing changed the
        // queues since the first of them (see `close`).
        let gauges: Vec<Option<QueueGauges>> = (self.queues.iter())
            .map(|(queue, _)| moment.engine.queue_gauges(queue))
            .collect();
        while self.next_close <= moment.now {
            self.close(self.next_close, moment.now, &gauges);
            self.next_close = self.next_close.saturating_add(step);
        }
    }

    fn take_events(&mut self, _now: Millis) -> Vec<SimEvent> {
        std::mem::take(&mut self.events)
    }

    fn next_moment(&self, duration: Millis) -> Option<Millis> {
        (self.next_close <= duration).then_some(self.next_close)
    }

    fn moments_until(&self, until: Millis) -> u64 {
        let last = until.min(self.duration);
        let steps = match last.checked_sub(self.next_close) {
            Some(span) => span / self.store.resolution_ms + 1,
            None => 0,
        };
        // Each step reads every queue's gauges and judges the alarms.
        let per_step = 1 + self.queues.len().max(1) as u64 + self.alarms.len() as u64;
        steps.saturating_mul(per_step)
    }

    fn fill_snapshot(&self, _now: Millis, snapshot: &mut SimulationSnapshot) {
        snapshot.alarms = self.alarms.iter().map(|w| self.snapshot_alarm(w)).collect();
    }
}
