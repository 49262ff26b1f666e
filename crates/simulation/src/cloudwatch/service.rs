//! CloudWatch's API over the run's metrics: `Simulation::cloudwatch`
//! answers one call. PutMetricData adds to the store the observer keeps
//! (so a custom metric is drawn and alarmed on like a queue's), and
//! ListMetrics lists it; the alarm calls are in `service_alarms.rs`. Only
//! the run's own account calls it (IAM is not modelled: docs/fidelity.md).

use std::collections::{BTreeMap, BTreeSet};

use queuelab_engine::{Millis, Principal};

use super::api::{
    required, CwAnswer, CwCall, CwError, Dimension, DimensionOut, ListMetrics, ListedMetrics,
    MetricDatum, MetricOut, PutMetricData, LIST_METRICS_PAGE, MAX_CUSTOM_METRICS, MAX_DIMENSIONS,
    MAX_MAGNITUDE, MAX_METRIC_DATA, MAX_VALUES, UNITS,
};
use super::store::{MetricId, StatSet, MAX_SERIES};
use super::CloudWatch;
use crate::Simulation;

/// How far back a datum's Timestamp may be: two weeks (CloudWatch's).
const MAX_AGE_MS: Millis = 14 * 24 * 3_600_000;

/// How far ahead a datum's Timestamp may be: two hours (CloudWatch's).
const MAX_AHEAD_MS: Millis = 2 * 3_600_000;

/// A datum read and checked: its metric, unit, moment and values.
type Datum = (MetricId, &'static str, Millis, StatSet);

impl Simulation {
    /// One call of the CloudWatch API as `by`.
    pub fn cloudwatch(&mut self, call: CwCall, by: &Principal) -> Result<CwAnswer, CwError> {
        let own = &self.engine.config().account_id;
        if !self.is_own_account(by) {
            return Err(CwError::new(
                "AccessDenied",
                403,
                format!("The run's CloudWatch takes calls from its own account, {own}, only (IAM is not modelled)"),
            ));
        }
        match call {
            CwCall::PutMetricData(c) => self.put_metric_data(&c),
            CwCall::PutMetricAlarm(c) => self.put_metric_alarm(&c),
            CwCall::DescribeAlarms(c) => self.describe_alarms(&c),
            CwCall::DeleteAlarms(c) => self.delete_alarms(&c),
            CwCall::ListMetrics(c) => self.list_metrics(&c),
        }
    }

    /// The run's CloudWatch (always registered).
    pub(crate) fn watch_mut(&mut self) -> Result<&mut CloudWatch, CwError> {
        crate::observer::find_mut::<CloudWatch>(&mut self.observers)
            .ok_or_else(|| CwError::new("InternalServiceError", 500, "The run has no CloudWatch"))
    }

    pub(crate) fn watch(&self) -> Result<&CloudWatch, CwError> {
        crate::observer::find::<CloudWatch>(&self.observers)
            .ok_or_else(|| CwError::new("InternalServiceError", 500, "The run has no CloudWatch"))
    }

    /// An epoch time in seconds as the JSON protocol carries it.
    pub(crate) fn epoch_seconds(&self, at: Millis) -> f64 {
        self.engine.config().start_epoch_ms.saturating_add(at) as f64 / 1000.0
    }

    fn put_metric_data(&mut self, c: &PutMetricData) -> Result<CwAnswer, CwError> {
        let namespace = required(&c.namespace, "Namespace")?;
        check_namespace(namespace)?;
        if c.metric_data.is_empty() {
            return Err(CwError::missing("MetricData"));
        }
        if c.metric_data.len() > MAX_METRIC_DATA {
            return Err(CwError::invalid(format!(
                "The collection MetricData must not have a size greater than {MAX_METRIC_DATA} (it has {})",
                c.metric_data.len()
            )));
        }
        let mut data = Vec::with_capacity(c.metric_data.len());
        for (i, datum) in c.metric_data.iter().enumerate() {
            let at = format!("MetricData.member.{}", i + 1);
            data.push(self.datum(namespace, datum, &at)?);
        }
        let watch = self.watch_mut()?;
        let new: BTreeSet<&MetricId> = (data.iter().map(|d| &d.0))
            .filter(|id| !watch.store().has(id))
            .collect();
        let (held, custom) = watch.store().counts();
        if custom + new.len() > MAX_CUSTOM_METRICS {
            return Err(CwError::limit(format!(
                "A run keeps at most {MAX_CUSTOM_METRICS} custom metrics (Queuelab's bound, \
                 MAX_CUSTOM_METRICS): it keeps {custom}, and this call would add {} more",
                new.len()
            )));
        }
        if held + new.len() > MAX_SERIES {
            return Err(CwError::limit(format!(
                "A run keeps at most {MAX_SERIES} metrics (Queuelab's bound, MAX_SERIES), and it keeps {held}"
            )));
        }
        for (id, unit, at, values) in data {
            // Within both bounds, checked above.
            let _ = watch.put_datum(&id, unit, at, values);
        }
        Ok(CwAnswer::Empty {})
    }

    /// One datum read into its metric, unit, virtual moment and values.
    fn datum(&self, namespace: &str, d: &MetricDatum, at: &str) -> Result<Datum, CwError> {
        let name = required(&d.metric_name, &format!("{at}.MetricName"))?;
        check_length(&format!("{at}.MetricName"), name, 255)?;
        let id = MetricId {
            namespace: namespace.into(),
            metric_name: name.into(),
            dimensions: dimensions(&d.dimensions, &format!("{at}.Dimensions"))?,
        };
        let unit = unit(d.unit.as_deref(), &format!("{at}.Unit"))?.unwrap_or("None");
        if let Some(r) = d.storage_resolution.filter(|r| ![1, 60].contains(r)) {
            return Err(CwError::invalid(format!(
                "The value {r} for parameter {at}.StorageResolution is invalid: it is 1 (high \
                 resolution) or 60 (standard)"
            )));
        }
        let when = self.moment(d.timestamp, &format!("{at}.Timestamp"))?;
        Ok((id, unit, when, values(d, at)?))
    }

    /// A datum's Timestamp (seconds since the epoch) as the run's virtual
    /// moment; now when it has none.
    fn moment(&self, timestamp: Option<f64>, name: &str) -> Result<Millis, CwError> {
        let now = self.now();
        let Some(seconds) = timestamp else {
            return Ok(now);
        };
        let start = self.engine.config().start_epoch_ms as f64;
        let ms = seconds * 1000.0 - start;
        let earliest = now.saturating_sub(MAX_AGE_MS) as f64;
        let latest = now.saturating_add(MAX_AHEAD_MS) as f64;
        if !ms.is_finite() || ms < 0.0 || ms < earliest || ms > latest {
            return Err(CwError::invalid(format!(
                "The parameter {name} must specify a time within the past two weeks and up to two \
                 hours in the future, and not before the run began (the run is at {} s since the epoch)",
                crate::numbers::plain(self.epoch_seconds(now))
            )));
        }
        Ok(ms as Millis)
    }

    fn list_metrics(&mut self, c: &ListMetrics) -> Result<CwAnswer, CwError> {
        if c.dimensions.len() > MAX_DIMENSIONS {
            return Err(CwError::invalid(format!(
                "The collection Dimensions must not have a size greater than {MAX_DIMENSIONS}"
            )));
        }
        let mut filters = Vec::new();
        for (i, f) in c.dimensions.iter().enumerate() {
            let name = required(&f.name, &format!("Dimensions.member.{}.Name", i + 1))?;
            filters.push((name, f.value.as_deref()));
        }
        let skip = page_start(c.next_token.as_deref())?;
        let store = self.watch()?.store();
        let mut found = (store.metrics().map(|(id, _)| id))
            .filter(|id| c.namespace.as_ref().is_none_or(|n| &id.namespace == n))
            .filter(|id| c.metric_name.as_ref().is_none_or(|n| &id.metric_name == n))
            .filter(|id| {
                (filters.iter()).all(|(name, value)| match id.dimensions.get(*name) {
                    Some(v) => value.is_none_or(|want| want == v),
                    None => false,
                })
            })
            .skip(skip);
        let metrics: Vec<MetricOut> = (found.by_ref().take(LIST_METRICS_PAGE))
            .map(|id| MetricOut {
                namespace: id.namespace.clone(),
                metric_name: id.metric_name.clone(),
                dimensions: dimensions_out(&id.dimensions),
            })
            .collect();
        let next_token = found
            .next()
            .map(|_| skip.saturating_add(LIST_METRICS_PAGE).to_string());
        Ok(CwAnswer::Metrics(ListedMetrics {
            metrics,
            next_token,
        }))
    }
}

/// Where a page begins, from a NextToken this API gave.
pub(crate) fn page_start(token: Option<&str>) -> Result<usize, CwError> {
    match token {
        None => Ok(0),
        Some(t) => t.parse().map_err(|_| {
            CwError::new(
                "InvalidNextToken",
                400,
                format!("The NextToken \"{t}\" is not one this API gave"),
            )
        }),
    }
}

/// A custom metric's namespace: 1 to 255 ASCII characters, no control
/// characters, not beginning with ":" or with "AWS/" (kept for AWS's own).
fn check_namespace(namespace: &str) -> Result<(), CwError> {
    check_length("Namespace", namespace, 255)?;
    match namespace_rule(namespace) {
        None => Ok(()),
        Some(rule) => Err(CwError::invalid(format!(
            "The value {namespace} for parameter Namespace is invalid: it must be {rule}"
        ))),
    }
}

/// The rule a custom namespace breaks, in words, if any (a consumer's
/// `publishMetrics.namespace` is held to it too).
pub(crate) fn namespace_rule(namespace: &str) -> Option<&'static str> {
    let n = namespace.chars().count();
    if n == 0 || n > 255 {
        return Some("1 to 255 characters");
    }
    if namespace.starts_with("AWS/") {
        return Some(
            "a namespace of your own: namespaces beginning with \"AWS/\" are reserved for AWS \
             services' own metrics (SQS publishes AWS/SQS itself)",
        );
    }
    if namespace.starts_with(':') {
        return Some("a namespace not beginning with \":\"");
    }
    if !namespace
        .chars()
        .all(|c| c.is_ascii() && !c.is_ascii_control())
    {
        return Some("ASCII characters, without control characters");
    }
    None
}

/// A text member's length, 1 to `most` characters.
pub(crate) fn check_length(name: &str, value: &str, most: usize) -> Result<(), CwError> {
    let n = value.chars().count();
    if n == 0 || n > most {
        return Err(CwError::invalid(format!(
            "The parameter {name} must be 1 to {most} characters long (it is {n})"
        )));
    }
    Ok(())
}

/// A metric's dimensions: at most 30, each with a name (1 to 255
/// characters) and a value (1 to 1,024), no name twice.
pub(crate) fn dimensions(
    given: &[Dimension],
    at: &str,
) -> Result<BTreeMap<String, String>, CwError> {
    if given.len() > MAX_DIMENSIONS {
        return Err(CwError::invalid(format!(
            "The collection {at} must not have a size greater than {MAX_DIMENSIONS} (it has {})",
            given.len()
        )));
    }
    let mut out = BTreeMap::new();
    for (j, d) in given.iter().enumerate() {
        let here = format!("{at}.member.{}", j + 1);
        let name = required(&d.name, &format!("{here}.Name"))?;
        let value = required(&d.value, &format!("{here}.Value"))?;
        check_length(&format!("{here}.Name"), name, 255)?;
        check_length(&format!("{here}.Value"), value, 1024)?;
        if out.insert(name.to_string(), value.to_string()).is_some() {
            return Err(CwError::invalid(format!(
                "The collection {at} must not contain duplicate dimension names ({name} is given twice)"
            )));
        }
    }
    Ok(out)
}

/// Dimensions as CloudWatch answers them.
pub(crate) fn dimensions_out(dimensions: &BTreeMap<String, String>) -> Vec<DimensionOut> {
    (dimensions.iter())
        .map(|(name, value)| DimensionOut {
            name: name.clone(),
            value: value.clone(),
        })
        .collect()
}

/// A unit, one of CloudWatch's (`StandardUnit`).
pub(crate) fn unit(given: Option<&str>, name: &str) -> Result<Option<&'static str>, CwError> {
    let Some(given) = given else {
        return Ok(None);
    };
    match UNITS.iter().find(|u| **u == given) {
        Some(u) => Ok(Some(u)),
        None => Err(CwError::invalid(format!(
            "The value {given} for parameter {name} is invalid: it is one of {}",
            UNITS.join(", ")
        ))),
    }
}

/// A value CloudWatch takes: a number within ±2^360.
fn check_value(value: f64, name: &str) -> Result<f64, CwError> {
    if !value.is_finite() || value.abs() > MAX_MAGNITUDE {
        return Err(CwError::invalid(format!(
            "The value {value} for parameter {name} is invalid: values are from -2^360 to 2^360"
        )));
    }
    Ok(value)
}

/// A datum's values as one statistic set: `Value`, `Values` (with
/// `Counts`) or `StatisticValues`, exactly one of them.
fn values(d: &MetricDatum, at: &str) -> Result<StatSet, CwError> {
    let given = [
        d.value.is_some(),
        !d.values.is_empty(),
        d.statistic_values.is_some(),
    ];
    if given.iter().filter(|g| **g).count() > 1 {
        return Err(CwError::combination(format!(
            "The parameters {at}.Value, {at}.Values and {at}.StatisticValues are mutually exclusive: give one"
        )));
    }
    if !d.counts.is_empty() && d.values.is_empty() {
        return Err(CwError::combination(format!(
            "The parameter {at}.Counts is given only with {at}.Values"
        )));
    }
    if let Some(v) = d.value {
        return Ok(StatSet::one(check_value(v, &format!("{at}.Value"))?));
    }
    if let Some(s) = &d.statistic_values {
        let field = |v: Option<f64>, member: &str| {
            let name = format!("{at}.StatisticValues.{member}");
            check_value(v.ok_or_else(|| CwError::missing(&name))?, &name)
        };
        let set = StatSet {
            sample_count: field(s.sample_count, "SampleCount")?,
            sum: field(s.sum, "Sum")?,
            minimum: field(s.minimum, "Minimum")?,
            maximum: field(s.maximum, "Maximum")?,
        };
        if set.sample_count <= 0.0 || set.minimum > set.maximum {
            return Err(CwError::invalid(format!(
                "The parameter {at}.StatisticValues needs a SampleCount above 0 and a Minimum no greater than its Maximum"
            )));
        }
        return Ok(set);
    }
    if d.values.is_empty() {
        return Err(CwError::new(
            "MissingParameter",
            400,
            format!("The parameter {at}.Value is required: give Value, Values or StatisticValues"),
        ));
    }
    weighted(d, at)
}

/// `Values` weighted by `Counts` (each 1 without them).
fn weighted(d: &MetricDatum, at: &str) -> Result<StatSet, CwError> {
    if d.values.len() > MAX_VALUES {
        return Err(CwError::invalid(format!(
            "The collection {at}.Values must not have a size greater than {MAX_VALUES} (it has {})",
            d.values.len()
        )));
    }
    if !d.counts.is_empty() && d.counts.len() != d.values.len() {
        return Err(CwError::invalid(format!(
            "The parameters {at}.Values and {at}.Counts must be of the same size ({} and {})",
            d.values.len(),
            d.counts.len()
        )));
    }
    let mut set: Option<StatSet> = None;
    for (k, v) in d.values.iter().enumerate() {
        let v = check_value(*v, &format!("{at}.Values.member.{}", k + 1))?;
        let count = d.counts.get(k).copied().unwrap_or(1.0);
        let count = check_value(count, &format!("{at}.Counts.member.{}", k + 1))?;
        if count < 0.0 {
            return Err(CwError::invalid(format!(
                "The value {count} for parameter {at}.Counts.member.{} is invalid: a count is 0 or more",
                k + 1
            )));
        }
        let one = StatSet {
            sum: v * count,
            sample_count: count,
            minimum: v,
            maximum: v,
        };
        match &mut set {
            Some(s) => s.add(&one),
            None => set = Some(one),
        }
    }
    set.ok_or_else(|| CwError::missing(&format!("{at}.Values")))
}
