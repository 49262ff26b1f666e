//! The checks of a scenario's CloudWatch: its metrics' resolution and its
//! alarms, each refused as PutMetricAlarm refuses it (a period that is not
//! a multiple of the metric's, more datapoints to alarm than evaluation
//! periods, an evaluation of more than a day) or because it names what the
//! scenario does not have (a queue, a topic, a metric SQS does not
//! publish), and placed at its field.

use super::fields::{at_most, quoted, refuse, FieldError};
use crate::cloudwatch::{published_metrics, LAMBDA_METRICS, SQS_METRICS};
use crate::document::{Alarm, Scenario, MAX_ALARMS};

/// The resolutions a run keeps metrics at, in seconds.
pub const RESOLUTIONS: [u64; 5] = [1, 5, 10, 30, 60];

/// CloudWatch's longest evaluation: periods times their length, a day.
const MAX_EVALUATION_SECONDS: u64 = 86_400;

impl Scenario {
    pub(crate) fn validate_cloudwatch(&self) -> Result<(), FieldError> {
        let metrics = self.metrics.clone().unwrap_or_default();
        let resolution = metrics.resolution_seconds;
        if !RESOLUTIONS.contains(&resolution) {
            let rule = "1, 5, 10, 30 or 60 (seconds per datapoint)";
            return Err(refuse(
                "metrics.resolutionSeconds".into(),
                rule,
                resolution.to_string(),
            ));
        }
        if let Some(plot) = &metrics.plot {
            let published = published_metrics();
            if !published.contains(&plot.as_str()) {
                let rule = format!(
                    "the name of a metric SQS or Lambda publishes: {}",
                    published.join(", ")
                );
                return Err(refuse("metrics.plot".into(), rule, quoted(plot)));
            }
        }
        at_most(
            "alarms",
            self.alarms.len() as u64,
            MAX_ALARMS as u64,
            "alarms",
        )?;
        for (i, alarm) in self.alarms.iter().enumerate() {
            let at = |field: &str| format!("alarms[{i}].{field}");
            if alarm.name.is_empty() || alarm.name.chars().count() > 255 {
                return Err(refuse(
                    at("name"),
                    "1 to 255 characters",
                    quoted(&alarm.name),
                ));
            }
            if let Some(first) = self.alarms[..i].iter().position(|a| a.name == alarm.name) {
                let rule = format!("a name no other alarm has (alarms[{first}] is also named so)");
                return Err(refuse(at("name"), rule, quoted(&alarm.name)));
            }
            self.validate_metric(&at, alarm)?;
            validate_periods(&at, alarm, resolution)?;
            for (field, topics) in [
                ("alarmActions", &alarm.alarm_actions),
                ("okActions", &alarm.ok_actions),
            ] {
                for (j, topic) in topics.iter().enumerate() {
                    if !self.topics.iter().any(|t| &t.name == topic) {
                        let rule = "the name of one of the scenario's SNS topics";
                        return Err(refuse(at(&format!("{field}[{j}]")), rule, quoted(topic)));
                    }
                }
            }
        }
        Ok(())
    }

    /// The metric: one SQS or Lambda publishes, of a queue (or function)
    /// the scenario has; any name in a namespace of the scenario's own.
    fn validate_metric(
        &self,
        at: &dyn Fn(&str) -> String,
        alarm: &Alarm,
    ) -> Result<(), FieldError> {
        let dimensions = alarm.all_dimensions();
        let (known, dimension): (&[&str], &str) = match alarm.namespace() {
            "AWS/SQS" => (&SQS_METRICS, "QueueName"),
            "AWS/Lambda" => (&LAMBDA_METRICS, "FunctionName"),
            _ => (&[], ""),
        };
        let name = alarm.metric_name();
        if !known.is_empty() && !known.contains(&name) {
            let rule = format!(
                "one of the metrics {} publishes: {}",
                alarm.namespace(),
                known.join(", ")
            );
            return Err(refuse(at("metricName"), rule, quoted(name)));
        }
        if name.is_empty() || name.chars().count() > 255 {
            return Err(refuse(
                at("metricName"),
                "1 to 255 characters",
                quoted(name),
            ));
        }
        if dimension == "QueueName" {
            let queue = dimensions.get(dimension).map(String::as_str).unwrap_or("");
            if !self.queues.iter().any(|q| q.name == queue) {
                let path = if alarm.queue.is_some() {
                    at("queue")
                } else {
                    at("dimensions.QueueName")
                };
                return Err(refuse(
                    path,
                    "the name of one of the scenario's queues",
                    quoted(queue),
                ));
            }
        }
        if dimension == "FunctionName" {
            let function = dimensions.get(dimension).map(String::as_str).unwrap_or("");
            if !self.lambdas.iter().any(|l| l.name == function) {
                let rule = "the name of one of the scenario's functions (lambdas)";
                return Err(refuse(
                    at("dimensions.FunctionName"),
                    rule,
                    quoted(function),
                ));
            }
        }
        Ok(())
    }
}

/// The period, N and M, as PutMetricAlarm takes them (CloudWatch's API
/// checks an alarm it is given with these too).
pub(crate) fn validate_periods(
    at: &dyn Fn(&str) -> String,
    alarm: &Alarm,
    resolution: u64,
) -> Result<(), FieldError> {
    let period = alarm.period_seconds.unwrap_or(resolution);
    if period == 0 || period % resolution != 0 {
        let rule = format!("a multiple of the metrics' resolution, {resolution} s");
        return Err(refuse(at("periodSeconds"), rule, period.to_string()));
    }
    let n = alarm.evaluation_periods();
    if n == 0 {
        return Err(refuse(at("evaluationPeriods"), "1 or more", "0"));
    }
    if u64::from(n).saturating_mul(period) > MAX_EVALUATION_SECONDS {
        let rule = format!("at most a day in all: {n} periods of {period} s is more");
        return Err(refuse(at("evaluationPeriods"), rule, n.to_string()));
    }
    let m = alarm.datapoints_to_alarm();
    if m == 0 || m > n {
        let rule = format!("from 1 to evaluationPeriods ({n})");
        return Err(refuse(at("datapointsToAlarm"), rule, m.to_string()));
    }
    if !alarm.threshold.is_finite() {
        return Err(refuse(
            at("threshold"),
            "a number",
            alarm.threshold.to_string(),
        ));
    }
    Ok(())
}
