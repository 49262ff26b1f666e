//! The scenario's CloudWatch: how finely the run keeps metrics, and its
//! alarms, in the names of CloudWatch's PutMetricAlarm (`crate::cloudwatch`
//! evaluates them).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The most alarms a scenario has (CloudWatch allows 5,000 per region;
/// each is drawn on the page).
pub const MAX_ALARMS: usize = 20;

/// The run's metrics.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Metrics {
    /// Seconds per datapoint: 60, as SQS and Lambda publish their metrics
    /// (the default), or a finer teaching resolution (1, 5, 10 or 30) so
    /// that a run of a minute or two shows periods and alarms.
    #[serde(default = "sixty")]
    #[cfg_attr(feature = "contract", schemars(extend("enum" = [1, 5, 10, 30, 60])))]
    pub resolution_seconds: u64,
    /// The metric the page's CloudWatch panel opens on, every queue's (or
    /// function's) line of it on one picture: a name SQS or Lambda
    /// publishes ("NumberOfEmptyReceives"). Without it the panel opens on
    /// the first alarm, else on the visible messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", schemars(extend("enum" = crate::cloudwatch::published_metrics())))]
    pub plot: Option<String>,
}

fn sixty() -> u64 {
    60
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            resolution_seconds: sixty(),
            plot: None,
        }
    }
}

/// How a period's datapoints become one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
pub enum Statistic {
    Sum,
    Average,
    Minimum,
    Maximum,
    SampleCount,
}

/// How a period's value is compared with the threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
pub enum ComparisonOperator {
    GreaterThanOrEqualToThreshold,
    GreaterThanThreshold,
    LessThanThreshold,
    LessThanOrEqualToThreshold,
}

/// What a period with no datapoint counts as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum TreatMissingData {
    /// Not considered; all missing makes the alarm INSUFFICIENT_DATA (the default).
    #[default]
    Missing,
    /// Within the threshold.
    NotBreaching,
    /// Over the threshold.
    Breaching,
    /// The alarm keeps its state.
    Ignore,
}

/// A CloudWatch alarm on one metric, evaluated as CloudWatch evaluates
/// alarms: at the end of each period, over the latest `evaluationPeriods`
/// datapoints ("M out of N" with `datapointsToAlarm`). It starts in
/// INSUFFICIENT_DATA.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Alarm {
    /// The alarm's name (1 to 255 characters).
    #[cfg_attr(feature = "contract", schemars(length(min = 1, max = 255)))]
    pub name: String,
    /// Shorthand for an AWS/SQS metric of this queue (the dimension
    /// QueueName).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue: Option<String>,
    /// The metric's namespace: AWS/SQS (the default), AWS/Lambda, or one a
    /// consumer publishes to with PutMetricData.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// The metric, by CloudWatch's name (default
    /// ApproximateNumberOfMessagesVisible).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metric_name: Option<String>,
    /// The metric's dimensions besides `queue` (FunctionName for
    /// AWS/Lambda).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dimensions: BTreeMap<String, String>,
    /// Default Maximum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statistic: Option<Statistic>,
    /// The period in seconds, a multiple of the metrics' resolution
    /// (default: the resolution). Period times evaluationPeriods is at
    /// most a day, as CloudWatch requires.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", schemars(range(min = 1)))]
    pub period_seconds: Option<u64>,
    /// N: how many of the latest periods are evaluated (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", schemars(range(min = 1)))]
    pub evaluation_periods: Option<u32>,
    /// M: how many of them must breach for ALARM (default N).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", schemars(range(min = 1)))]
    pub datapoints_to_alarm: Option<u32>,
    pub threshold: f64,
    /// Default GreaterThanOrEqualToThreshold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comparison_operator: Option<ComparisonOperator>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub treat_missing_data: Option<TreatMissingData>,
    /// SNS topics (names of the scenario's topics) published to when the
    /// alarm goes into ALARM.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alarm_actions: Vec<String>,
    /// SNS topics published to when it goes back to OK.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ok_actions: Vec<String>,
}

impl Alarm {
    pub fn namespace(&self) -> &str {
        self.namespace.as_deref().unwrap_or("AWS/SQS")
    }

    pub fn metric_name(&self) -> &str {
        self.metric_name
            .as_deref()
            .unwrap_or("ApproximateNumberOfMessagesVisible")
    }

    /// Its dimensions, `queue` as QueueName among them.
    pub fn all_dimensions(&self) -> BTreeMap<String, String> {
        let mut out = self.dimensions.clone();
        if let Some(queue) = &self.queue {
            out.insert("QueueName".into(), queue.clone());
        }
        out
    }

    pub fn statistic(&self) -> Statistic {
        self.statistic.unwrap_or(Statistic::Maximum)
    }

    pub fn evaluation_periods(&self) -> u32 {
        self.evaluation_periods.unwrap_or(1)
    }

    pub fn datapoints_to_alarm(&self) -> u32 {
        self.datapoints_to_alarm
            .unwrap_or_else(|| self.evaluation_periods())
    }

    pub fn comparison_operator(&self) -> ComparisonOperator {
        self.comparison_operator
            .unwrap_or(ComparisonOperator::GreaterThanOrEqualToThreshold)
    }

    pub fn treat_missing_data(&self) -> TreatMissingData {
        self.treat_missing_data.unwrap_or_default()
    }
}
