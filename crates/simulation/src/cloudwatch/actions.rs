//! An alarm's actions: on a change into ALARM (or back to OK) CloudWatch
//! publishes to each of the alarm's SNS topics, as
//! `cloudwatch.amazonaws.com`, a JSON message in CloudWatch's shape
//! (AlarmName, NewStateValue, NewStateReason, StateChangeTime, Trigger, …)
//! with the subject `ALARM: "<name>" in <region>`. What the topic then
//! does with it is SNS's (its subscriptions, `sns/`).

use serde_json::json;

use crate::document::{Alarm, Statistic};
use crate::log::SimEvent;
use crate::sns::api::{MessageInput, Publish, SnsCall};
use crate::Simulation;

impl Simulation {
    /// Carries out an `alarmChanged` event's actions, if it has any.
    pub(crate) fn alarm_actions(&mut self, event: &SimEvent) {
        let SimEvent::AlarmChanged {
            alarm,
            from,
            to,
            reason,
            actions,
            ..
        } = event
        else {
            return;
        };
        // The scenario's alarm or PutMetricAlarm's: the run's CloudWatch has both.
        let spec = crate::observer::find::<super::CloudWatch>(&self.observers)
            .and_then(|c| c.alarm(alarm))
            .cloned();
        let Some(spec) = spec else {
            return;
        };
        let config = self.engine.config();
        let (region, account) = (config.region.clone(), config.account_id.clone());
        let at = config.start_epoch_ms.saturating_add(self.now());
        let resolution = self
            .scenario
            .metrics
            .clone()
            .unwrap_or_default()
            .resolution_seconds;
        let period = spec.period_seconds.unwrap_or(resolution);
        let states = (from.word(), to.word());
        let message = notification(&spec, period, (&region, &account), at, states, reason);
        for topic in actions {
            let publish = Publish {
                topic_arn: Some(format!("arn:aws:sns:{region}:{account}:{topic}")),
                message: MessageInput {
                    message: Some(message.clone()),
                    subject: Some(format!("{}: \"{}\" in {region}", to.word(), spec.name)),
                    ..MessageInput::default()
                },
                ..Publish::default()
            };
            // The topic's own account publishes (topic policies are not
            // modelled); a refusal (the topic was deleted) is the log's
            // `topicPublished` not happening, as on AWS, where the alarm's
            // history notes a failed action.
            let _ = self.sns(
                SnsCall::Publish(publish),
                &queuelab_engine::Principal::owner(),
            );
        }
    }
}

/// CloudWatch's alarm notification, as the JSON text SNS delivers.
fn notification(
    alarm: &Alarm,
    period: u64,
    (region, account): (&str, &str),
    epoch_ms: u64,
    (old, new): (&str, &str),
    reason: &str,
) -> String {
    let statistic = match alarm.statistic() {
        Statistic::SampleCount => "SAMPLE_COUNT",
        Statistic::Sum => "SUM",
        Statistic::Average => "AVERAGE",
        Statistic::Minimum => "MINIMUM",
        Statistic::Maximum => "MAXIMUM",
    };
    let dimensions: Vec<_> = alarm
        .all_dimensions()
        .into_iter()
        .map(|(name, value)| json!({ "name": name, "value": value }))
        .collect();
    json!({
        "AlarmName": alarm.name,
        "AWSAccountId": account,
        "NewStateValue": new,
        "NewStateReason": reason,
        "StateChangeTime": crate::sns::envelope::iso8601(epoch_ms),
        "Region": region,
        "OldStateValue": old,
        "Trigger": {
            "MetricName": alarm.metric_name(),
            "Namespace": alarm.namespace(),
            "Statistic": statistic,
            "Dimensions": dimensions,
            "Period": period,
            "EvaluationPeriods": alarm.evaluation_periods(),
            "DatapointsToAlarm": alarm.datapoints_to_alarm(),
            "ComparisonOperator": format!("{:?}", alarm.comparison_operator()),
            "Threshold": alarm.threshold,
            "TreatMissingData": alarm.treat_missing_data(),
        }
    })
    .to_string()
}
