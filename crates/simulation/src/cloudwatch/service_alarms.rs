//! CloudWatch's alarm calls over the run's alarms: PutMetricAlarm makes
//! (or replaces) an alarm the observer judges as it judges the scenario's,
//! DescribeAlarms shows every alarm of the run in CloudWatch's members,
//! DeleteAlarms removes some. An alarm's actions are the run's SNS topics,
//! named by their ARNs.

use serde::de::DeserializeOwned;

use super::api::{
    required, CwAnswer, CwError, DeleteAlarms, DescribeAlarms, DescribedAlarms, MetricAlarm,
    PutMetricAlarm, MAX_RECORDS,
};
use super::evaluate::AlarmState;
use super::service::{check_length, dimensions, dimensions_out, page_start, unit};
use super::watch::{AlarmExtra, Watched};
use crate::document::{Alarm, ComparisonOperator, Statistic, TreatMissingData};
use crate::Simulation;

/// An alarm's most actions of each kind (CloudWatch's limit).
const MAX_ACTIONS: usize = 5;

/// DescribeAlarms' and DeleteAlarms' most names (CloudWatch's limit).
const MAX_NAMES: usize = 100;

impl Simulation {
    pub(super) fn put_metric_alarm(&mut self, c: &PutMetricAlarm) -> Result<CwAnswer, CwError> {
        let name = required(&c.alarm_name, "AlarmName")?;
        check_length("AlarmName", name, 255)?;
        if c.metric_math {
            return Err(CwError::invalid(
                "The run's alarms watch one metric (MetricName, Namespace, Statistic, Period): \
                 metric math (Metrics), anomaly detection and ThresholdMetricId are not simulated",
            ));
        }
        if let Some(d) = &c.alarm_description {
            if d.chars().count() > 1024 {
                return Err(CwError::invalid(
                    "The parameter AlarmDescription must be at most 1024 characters long",
                ));
            }
        }
        let alarm = Alarm {
            name: name.into(),
            queue: None,
            namespace: Some(metric_part(&c.namespace, "Namespace")?),
            metric_name: Some(metric_part(&c.metric_name, "MetricName")?),
            dimensions: dimensions(&c.dimensions, "Dimensions")?,
            statistic: Some(statistic(c)?),
            period_seconds: Some(whole(c.period, "Period")?),
            evaluation_periods: Some(whole(c.evaluation_periods, "EvaluationPeriods")?),
            datapoints_to_alarm: match c.datapoints_to_alarm {
                None => None,
                some => Some(whole(some, "DatapointsToAlarm")?),
            },
            threshold: c.threshold.ok_or_else(|| CwError::missing("Threshold"))?,
            comparison_operator: Some(comparison(c)?),
            treat_missing_data: match &c.treat_missing_data {
                None => None,
                Some(t) => Some(word::<TreatMissingData>(t, "TreatMissingData", TREAT)?),
            },
            alarm_actions: self.topics_of(&c.alarm_actions, "AlarmActions")?,
            ok_actions: self.topics_of(&c.ok_actions, "OKActions")?,
        };
        let resolution = self
            .scenario
            .metrics
            .clone()
            .unwrap_or_default()
            .resolution_seconds;
        let at = |field: &str| api_member(field).to_string();
        crate::scenario::alarms::validate_periods(&at, &alarm, resolution)
            .map_err(|e| CwError::invalid(e.to_string()))?;
        let extra = AlarmExtra {
            description: c.alarm_description.clone(),
            actions_enabled: c.actions_enabled.unwrap_or(true),
            insufficient_data_actions: self
                .topics_of(&c.insufficient_data_actions, "InsufficientDataActions")?,
            unit: unit(c.unit.as_deref(), "Unit")?.map(str::to_string),
        };
        let now = self.now();
        self.watch_mut()?
            .put_alarm(alarm, extra, now)
            .map_err(|_| {
                CwError::limit(format!(
                    "A run holds at most {} alarms (Queuelab's bound, MAX_RUN_ALARMS), the \
                 scenario's among them: delete one first",
                    super::api::MAX_RUN_ALARMS
                ))
            })?;
        Ok(CwAnswer::Empty {})
    }

    /// Action ARNs as the names of the run's topics: SNS topics of the
    /// run's region and account (what the run can publish to).
    fn topics_of(&self, arns: &[String], member: &str) -> Result<Vec<String>, CwError> {
        if arns.len() > MAX_ACTIONS {
            return Err(CwError::invalid(format!(
                "The collection {member} must not have a size greater than {MAX_ACTIONS}"
            )));
        }
        let config = self.engine.config();
        let prefix = format!("arn:aws:sns:{}:{}:", config.region, config.account_id);
        (arns.iter())
            .map(|arn| match arn.strip_prefix(&prefix) {
                Some(topic) if !topic.is_empty() && !topic.contains(':') => Ok(topic.to_string()),
                _ => Err(CwError::invalid(format!(
                    "The value {arn} for parameter {member} is invalid: the run's alarms act by \
                     publishing to an SNS topic of the run, {prefix}<topic>"
                ))),
            })
            .collect()
    }

    pub(super) fn describe_alarms(&mut self, c: &DescribeAlarms) -> Result<CwAnswer, CwError> {
        if c.alarm_names.len() > MAX_NAMES {
            return Err(CwError::invalid(format!(
                "The collection AlarmNames must not have a size greater than {MAX_NAMES}"
            )));
        }
        if !c.alarm_names.is_empty() && c.alarm_name_prefix.is_some() {
            return Err(CwError::combination(
                "The parameters AlarmNames and AlarmNamePrefix are mutually exclusive",
            ));
        }
        let state = match c.state_value.as_deref() {
            None => None,
            Some(s) => Some(
                [AlarmState::OK, AlarmState::ALARM, AlarmState::InsufficientData]
                    .into_iter()
                    .find(|st| st.word() == s)
                    .ok_or_else(|| {
                        CwError::invalid(format!(
                            "The value {s} for parameter StateValue is invalid: it is OK, ALARM or INSUFFICIENT_DATA"
                        ))
                    })?,
            ),
        };
        let max = c.max_records.unwrap_or(50);
        if !(1..=MAX_RECORDS).contains(&max) {
            return Err(CwError::invalid(format!(
                "The value {max} for parameter MaxRecords is invalid: it is 1 to {MAX_RECORDS}"
            )));
        }
        let skip = page_start(c.next_token.as_deref())?;
        let all: Vec<MetricAlarm> = (self.watch()?.watched().iter())
            .filter(|w| c.alarm_names.is_empty() || c.alarm_names.contains(&w.alarm.name))
            .filter(|w| (c.alarm_name_prefix.as_ref()).is_none_or(|p| w.alarm.name.starts_with(p)))
            .filter(|w| state.is_none_or(|s| w.state == s))
            .map(|w| self.metric_alarm(w))
            .filter(|a| {
                (c.action_prefix.as_ref()).is_none_or(|p| {
                    (a.alarm_actions.iter().chain(&a.ok_actions))
                        .chain(&a.insufficient_data_actions)
                        .any(|arn| arn.starts_with(p))
                })
            })
            .collect();
        let max = max as usize;
        let end = skip.saturating_add(max);
        let next_token = (all.len() > end).then(|| end.to_string());
        Ok(CwAnswer::Alarms(DescribedAlarms {
            metric_alarms: all.into_iter().skip(skip).take(max).collect(),
            composite_alarms: Vec::new(),
            next_token,
        }))
    }

    /// An alarm in DescribeAlarms' members.
    fn metric_alarm(&self, w: &Watched) -> MetricAlarm {
        let config = self.engine.config();
        let (region, account) = (&config.region, &config.account_id);
        let arns = |topics: &[String]| -> Vec<String> {
            (topics.iter())
                .map(|t| format!("arn:aws:sns:{region}:{account}:{t}"))
                .collect()
        };
        let a = &w.alarm;
        MetricAlarm {
            alarm_name: a.name.clone(),
            alarm_arn: format!("arn:aws:cloudwatch:{region}:{account}:alarm:{}", a.name),
            alarm_description: w.extra.description.clone(),
            alarm_configuration_updated_timestamp: self.epoch_seconds(w.configured_ms),
            actions_enabled: w.extra.actions_enabled,
            ok_actions: arns(&a.ok_actions),
            alarm_actions: arns(&a.alarm_actions),
            insufficient_data_actions: arns(&w.extra.insufficient_data_actions),
            state_value: w.state.word(),
            state_reason: w.reason.clone(),
            state_updated_timestamp: self.epoch_seconds(w.state_updated_ms),
            state_transitioned_timestamp: self.epoch_seconds(w.state_updated_ms),
            metric_name: w.metric.metric_name.clone(),
            namespace: w.metric.namespace.clone(),
            statistic: statistic_word(a.statistic()),
            dimensions: dimensions_out(&w.metric.dimensions),
            period: w.period_ms / 1000,
            unit: w.extra.unit.clone(),
            evaluation_periods: a.evaluation_periods(),
            datapoints_to_alarm: a.datapoints_to_alarm(),
            threshold: a.threshold,
            comparison_operator: comparison_word(a.comparison_operator()),
            treat_missing_data: treat_word(a.treat_missing_data()),
        }
    }

    pub(super) fn delete_alarms(&mut self, c: &DeleteAlarms) -> Result<CwAnswer, CwError> {
        if c.alarm_names.is_empty() {
            return Err(CwError::missing("AlarmNames"));
        }
        if c.alarm_names.len() > MAX_NAMES {
            return Err(CwError::invalid(format!(
                "The collection AlarmNames must not have a size greater than {MAX_NAMES}"
            )));
        }
        self.watch_mut()?
            .delete_alarms(&c.alarm_names)
            .map_err(|name| {
                CwError::new(
                    "ResourceNotFound",
                    404,
                    format!("The alarm {name} does not exist (no alarm was deleted)"),
                )
            })?;
        Ok(CwAnswer::Empty {})
    }
}

/// The API's member for a scenario alarm's field, in a refusal.
fn api_member(field: &str) -> &str {
    match field {
        "periodSeconds" => "Period",
        "evaluationPeriods" => "EvaluationPeriods",
        "datapointsToAlarm" => "DatapointsToAlarm",
        "threshold" => "Threshold",
        other => other,
    }
}

/// MetricName or Namespace: required, 1 to 255 characters.
fn metric_part(value: &Option<String>, name: &str) -> Result<String, CwError> {
    let v = required(value, name)?;
    check_length(name, v, 255)?;
    Ok(v.to_string())
}

/// A whole number of 1 or more.
fn whole<T: TryFrom<i64>>(value: Option<i64>, name: &str) -> Result<T, CwError> {
    let v = value.ok_or_else(|| CwError::missing(name))?;
    (v >= 1)
        .then(|| T::try_from(v).ok())
        .flatten()
        .ok_or_else(|| {
            CwError::invalid(format!(
                "The value {v} for parameter {name} is invalid: it is a whole number of 1 or more"
            ))
        })
}

const STATISTICS: &str = "SampleCount, Average, Sum, Minimum or Maximum";
const COMPARISONS: &str = "GreaterThanOrEqualToThreshold, GreaterThanThreshold, \
                           LessThanThreshold or LessThanOrEqualToThreshold";
const TREAT: &str = "missing, notBreaching, breaching or ignore";

/// One of an enumeration's words, or CloudWatch's refusal listing them.
fn word<T: DeserializeOwned>(given: &str, name: &str, words: &str) -> Result<T, CwError> {
    serde_json::from_value(serde_json::Value::String(given.into())).map_err(|_| {
        CwError::invalid(format!(
            "The value {given} for parameter {name} is invalid: it is {words}"
        ))
    })
}

fn statistic(c: &PutMetricAlarm) -> Result<Statistic, CwError> {
    match (&c.statistic, &c.extended_statistic) {
        (Some(_), Some(_)) => Err(CwError::combination(
            "The parameters Statistic and ExtendedStatistic are mutually exclusive",
        )),
        (None, Some(p)) => Err(CwError::invalid(format!(
            "The value {p} for parameter ExtendedStatistic is invalid: the run keeps sums, counts, \
             minimums and maximums, not every value, so percentiles are not simulated; use Statistic"
        ))),
        (None, None) => Err(CwError::new(
            "MissingParameter",
            400,
            "The parameter Statistic is required (or ExtendedStatistic, which is not simulated)",
        )),
        (Some(s), None) => word(s, "Statistic", STATISTICS),
    }
}

fn comparison(c: &PutMetricAlarm) -> Result<ComparisonOperator, CwError> {
    let given = required(&c.comparison_operator, "ComparisonOperator")?;
    word(given, "ComparisonOperator", COMPARISONS)
}

fn statistic_word(s: Statistic) -> &'static str {
    match s {
        Statistic::Sum => "Sum",
        Statistic::Average => "Average",
        Statistic::Minimum => "Minimum",
        Statistic::Maximum => "Maximum",
        Statistic::SampleCount => "SampleCount",
    }
}

fn comparison_word(c: ComparisonOperator) -> &'static str {
    match c {
        ComparisonOperator::GreaterThanOrEqualToThreshold => "GreaterThanOrEqualToThreshold",
        ComparisonOperator::GreaterThanThreshold => "GreaterThanThreshold",
        ComparisonOperator::LessThanThreshold => "LessThanThreshold",
        ComparisonOperator::LessThanOrEqualToThreshold => "LessThanOrEqualToThreshold",
    }
}

fn treat_word(t: TreatMissingData) -> &'static str {
    match t {
        TreatMissingData::Missing => "missing",
        TreatMissingData::NotBreaching => "notBreaching",
        TreatMissingData::Breaching => "breaching",
        TreatMissingData::Ignore => "ignore",
    }
}
