//! Metric datapoints as CloudWatch keeps them: per metric (namespace,
//! name, dimensions), one statistic set (sum, sample count, minimum,
//! maximum) per resolution step, from which any period's Sum, Average,
//! Minimum, Maximum or SampleCount is computed. Bounded: at most
//! `MAX_SERIES` metrics, each keeping its latest `MAX_POINTS` steps
//! (CloudWatch too lets old datapoints go).

use std::collections::BTreeMap;

use queuelab_engine::Millis;
use serde::Serialize;

use crate::document::Statistic;

/// The most metrics a run keeps: its queues' and functions' (a dozen
/// each) and the custom ones published to it.
pub const MAX_SERIES: usize = 1_000;

/// The most resolution steps a metric keeps: 10,000 minutes is a week,
/// 10,000 seconds nearly three hours.
pub const MAX_POINTS: usize = 10_000;

/// A metric's identity: namespace, name and dimensions (sorted by name).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct MetricId {
    pub namespace: String,
    pub metric_name: String,
    pub dimensions: BTreeMap<String, String>,
}

impl MetricId {
    pub fn new(namespace: &str, metric_name: &str, dimension: (&str, &str)) -> Self {
        MetricId {
            namespace: namespace.into(),
            metric_name: metric_name.into(),
            dimensions: BTreeMap::from([(dimension.0.into(), dimension.1.into())]),
        }
    }
}

/// The values a step or a period received: what every statistic needs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct StatSet {
    pub sum: f64,
    pub sample_count: f64,
    pub minimum: f64,
    pub maximum: f64,
}

impl StatSet {
    pub fn one(value: f64) -> Self {
        StatSet {
            sum: value,
            sample_count: 1.0,
            minimum: value,
            maximum: value,
        }
    }

    pub fn add(&mut self, other: &StatSet) {
        self.sum += other.sum;
        self.sample_count += other.sample_count;
        self.minimum = self.minimum.min(other.minimum);
        self.maximum = self.maximum.max(other.maximum);
    }

    pub fn value(&self, statistic: Statistic) -> f64 {
        match statistic {
            Statistic::Sum => self.sum,
            Statistic::Average => self.sum / self.sample_count.max(1.0),
            Statistic::Minimum => self.minimum,
            Statistic::Maximum => self.maximum,
            Statistic::SampleCount => self.sample_count,
        }
    }
}

/// One metric's steps, by the moment each step starts.
#[derive(Default)]
struct Series {
    unit: &'static str,
    steps: BTreeMap<Millis, StatSet>,
}

/// Every metric of a run.
pub struct Store {
    /// Milliseconds per step.
    pub resolution_ms: Millis,
    series: BTreeMap<MetricId, Series>,
}

/// A value put past [`MAX_SERIES`].
#[derive(Debug, PartialEq)]
pub struct TooManyMetrics;

impl Store {
    pub fn new(resolution_ms: Millis) -> Self {
        Store {
            resolution_ms: resolution_ms.max(1),
            series: BTreeMap::new(),
        }
    }

    /// The step `at` falls in, by its start.
    pub fn step_of(&self, at: Millis) -> Millis {
        at - at % self.resolution_ms
    }

    /// Adds `values` to the metric's step holding `at`.
    pub fn put(
        &mut self,
        id: &MetricId,
        unit: &'static str,
        at: Millis,
        values: StatSet,
    ) -> Result<(), TooManyMetrics> {
        if !self.series.contains_key(id) {
            if self.series.len() >= MAX_SERIES {
                return Err(TooManyMetrics);
            }
            self.series.insert(id.clone(), Series::default());
        }
        let step = self.step_of(at);
        let series = self.series.get_mut(id).expect("inserted above");
        series.unit = unit;
        series
            .steps
            .entry(step)
            .and_modify(|s| s.add(&values))
            .or_insert(values);
        while series.steps.len() > MAX_POINTS {
            series.steps.pop_first();
        }
        Ok(())
    }

    /// The statistic set of the metric's steps in `[start, end)`, or None
    /// (a missing datapoint) when it has none there.
    pub fn period(&self, id: &MetricId, start: Millis, end: Millis) -> Option<StatSet> {
        let series = self.series.get(id)?;
        let mut steps = series.steps.range(start..end).map(|(_, s)| s);
        let mut out = *steps.next()?;
        for s in steps {
            out.add(s);
        }
        Some(out)
    }

    /// Every metric, with its unit.
    pub fn metrics(&self) -> impl Iterator<Item = (&MetricId, &'static str)> {
        self.series.iter().map(|(id, s)| (id, s.unit))
    }

    /// The metric's steps from `from` on: (step start, values).
    pub fn steps<'a>(
        &'a self,
        id: &MetricId,
        from: Millis,
    ) -> impl Iterator<Item = (Millis, &'a StatSet)> + 'a {
        self.series
            .get(id)
            .into_iter()
            .flat_map(move |s| s.steps.range(from..).map(|(t, v)| (*t, v)))
    }

    /// Whether the store keeps this metric.
    pub fn has(&self, id: &MetricId) -> bool {
        self.series.contains_key(id)
    }

    /// How many metrics it keeps, and how many of them are custom (a
    /// namespace other than `AWS/…`).
    pub fn counts(&self) -> (usize, usize) {
        let custom = (self.series.keys())
            .filter(|id| !id.namespace.starts_with("AWS/"))
            .count();
        (self.series.len(), custom)
    }

    /// Steps held, over every metric (what the store costs).
    pub fn held(&self) -> usize {
        self.series.values().map(|s| s.steps.len()).sum()
    }
}
