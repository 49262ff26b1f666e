//! CloudWatch's API over a run's metrics and alarms, as far as custom
//! metrics and alarms on them need it: typed calls and answers, their
//! members named as CloudWatch's API reference names them (the protocol's
//! JSON wire reads them, and writes the answers with serde), and
//! CloudWatch's errors. `service.rs` answers them.

use serde::Serialize;

/// The operations, by their names in CloudWatch's API reference.
pub const OPERATIONS: [&str; 5] = [
    "PutMetricData",
    "PutMetricAlarm",
    "DescribeAlarms",
    "DeleteAlarms",
    "ListMetrics",
];

/// PutMetricData's most datums in one call (CloudWatch's own limit).
pub const MAX_METRIC_DATA: usize = 1_000;

/// A datum's most `Values` (CloudWatch's own limit).
pub const MAX_VALUES: usize = 150;

/// A metric's most dimensions (CloudWatch's own limit).
pub const MAX_DIMENSIONS: usize = 30;

/// The most custom metrics a run keeps (namespaces other than `AWS/`):
/// half of the store's `MAX_SERIES`, so the queues' and functions' own
/// metrics always have room.
pub const MAX_CUSTOM_METRICS: usize = 500;

/// The most alarms a run holds, the scenario's and PutMetricAlarm's
/// together (CloudWatch allows 5,000 a region; each is drawn on the page).
pub const MAX_RUN_ALARMS: usize = 50;

/// DescribeAlarms' default and largest page (`MaxRecords`).
pub const MAX_RECORDS: i64 = 100;

/// ListMetrics' page (CloudWatch answers up to 500 a call).
pub const LIST_METRICS_PAGE: usize = 500;

/// The largest magnitude CloudWatch takes for a value: 2^360.
pub const MAX_MAGNITUDE: f64 = 2.348_542_582_773_833e108;

/// CloudWatch's units (`StandardUnit`).
pub const UNITS: [&str; 27] = [
    "Seconds",
    "Microseconds",
    "Milliseconds",
    "Bytes",
    "Kilobytes",
    "Megabytes",
    "Gigabytes",
    "Terabytes",
    "Bits",
    "Kilobits",
    "Megabits",
    "Gigabits",
    "Terabits",
    "Percent",
    "Count",
    "Bytes/Second",
    "Kilobytes/Second",
    "Megabytes/Second",
    "Gigabytes/Second",
    "Terabytes/Second",
    "Bits/Second",
    "Kilobits/Second",
    "Megabits/Second",
    "Gigabits/Second",
    "Terabits/Second",
    "Count/Second",
    "None",
];

/// One CloudWatch call. Members CloudWatch requires are still `Option`s
/// here: a missing one is CloudWatch's `MissingParameter` naming it.
/// (PutMetricAlarm's many members make it the largest; a call is made
/// and answered one at a time, never kept, so its size costs nothing.)
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum CwCall {
    PutMetricData(PutMetricData),
    PutMetricAlarm(PutMetricAlarm),
    DescribeAlarms(DescribeAlarms),
    DeleteAlarms(DeleteAlarms),
    ListMetrics(ListMetrics),
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dimension {
    pub name: Option<String>,
    pub value: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatisticSet {
    pub sample_count: Option<f64>,
    pub sum: Option<f64>,
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetricDatum {
    pub metric_name: Option<String>,
    pub dimensions: Vec<Dimension>,
    /// Seconds since the epoch (the JSON protocol's timestamps); None: now.
    pub timestamp: Option<f64>,
    pub value: Option<f64>,
    pub statistic_values: Option<StatisticSet>,
    pub values: Vec<f64>,
    pub counts: Vec<f64>,
    pub unit: Option<String>,
    pub storage_resolution: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct PutMetricData {
    pub namespace: Option<String>,
    pub metric_data: Vec<MetricDatum>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct PutMetricAlarm {
    pub alarm_name: Option<String>,
    pub alarm_description: Option<String>,
    pub actions_enabled: Option<bool>,
    pub ok_actions: Vec<String>,
    pub alarm_actions: Vec<String>,
    pub insufficient_data_actions: Vec<String>,
    pub metric_name: Option<String>,
    pub namespace: Option<String>,
    pub statistic: Option<String>,
    pub extended_statistic: Option<String>,
    pub dimensions: Vec<Dimension>,
    pub period: Option<i64>,
    pub unit: Option<String>,
    pub evaluation_periods: Option<i64>,
    pub datapoints_to_alarm: Option<i64>,
    pub threshold: Option<f64>,
    pub comparison_operator: Option<String>,
    pub treat_missing_data: Option<String>,
    /// Metric math, anomaly detection or a threshold metric were given
    /// (`Metrics`, `ThresholdMetricId`): not simulated.
    pub metric_math: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct DescribeAlarms {
    pub alarm_names: Vec<String>,
    pub alarm_name_prefix: Option<String>,
    pub state_value: Option<String>,
    pub action_prefix: Option<String>,
    pub max_records: Option<i64>,
    pub next_token: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeleteAlarms {
    pub alarm_names: Vec<String>,
}

/// ListMetrics' dimension filter: a name, and a value or any.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DimensionFilter {
    pub name: Option<String>,
    pub value: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ListMetrics {
    pub namespace: Option<String>,
    pub metric_name: Option<String>,
    pub dimensions: Vec<DimensionFilter>,
    pub next_token: Option<String>,
}

/// What a call answers.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum CwAnswer {
    /// PutMetricData, PutMetricAlarm, DeleteAlarms.
    Empty {},
    Alarms(DescribedAlarms),
    Metrics(ListedMetrics),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct DescribedAlarms {
    pub metric_alarms: Vec<MetricAlarm>,
    /// Composite alarms are not simulated: always empty.
    pub composite_alarms: Vec<MetricAlarm>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_token: Option<String>,
}

/// A dimension as CloudWatch answers it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct DimensionOut {
    pub name: String,
    pub value: String,
}

/// An alarm as DescribeAlarms answers it (timestamps in seconds since the
/// epoch, as the JSON protocol carries them).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct MetricAlarm {
    pub alarm_name: String,
    pub alarm_arn: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alarm_description: Option<String>,
    pub alarm_configuration_updated_timestamp: f64,
    pub actions_enabled: bool,
    #[serde(rename = "OKActions")]
    pub ok_actions: Vec<String>,
    pub alarm_actions: Vec<String>,
    pub insufficient_data_actions: Vec<String>,
    pub state_value: &'static str,
    pub state_reason: String,
    pub state_updated_timestamp: f64,
    pub state_transitioned_timestamp: f64,
    pub metric_name: String,
    pub namespace: String,
    pub statistic: &'static str,
    pub dimensions: Vec<DimensionOut>,
    pub period: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    pub evaluation_periods: u32,
    pub datapoints_to_alarm: u32,
    pub threshold: f64,
    pub comparison_operator: &'static str,
    pub treat_missing_data: &'static str,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListedMetrics {
    pub metrics: Vec<MetricOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_token: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct MetricOut {
    pub namespace: String,
    pub metric_name: String,
    pub dimensions: Vec<DimensionOut>,
}

/// A CloudWatch error: its code (the query protocol's, which the JSON
/// protocol's `x-amzn-query-error` header carries), HTTP status and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CwError {
    pub code: &'static str,
    pub status: u16,
    pub message: String,
}

impl CwError {
    pub fn new(code: &'static str, status: u16, message: impl Into<String>) -> Self {
        CwError {
            code,
            status,
            message: message.into(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new("InvalidParameterValue", 400, message)
    }

    pub fn combination(message: impl Into<String>) -> Self {
        Self::new("InvalidParameterCombination", 400, message)
    }

    pub fn limit(message: impl Into<String>) -> Self {
        Self::new("LimitExceeded", 400, message)
    }

    /// A member CloudWatch requires, left out.
    pub fn missing(name: &str) -> Self {
        Self::new(
            "MissingParameter",
            400,
            format!("The parameter {name} is required."),
        )
    }

    /// The error's shape in CloudWatch's model (the JSON envelope's
    /// `__type`), by its code.
    pub fn shape(&self) -> &'static str {
        match self.code {
            "InvalidParameterValue" => "InvalidParameterValueException",
            "InvalidParameterCombination" => "InvalidParameterCombinationException",
            "MissingParameter" => "MissingRequiredParameterException",
            "LimitExceeded" => "LimitExceededFault",
            "ResourceNotFound" => "ResourceNotFound",
            "InvalidNextToken" => "InvalidNextToken",
            "InternalServiceError" => "InternalServiceFault",
            other => other,
        }
    }
}

/// A required text member's value, or CloudWatch's error naming it.
pub fn required<'a>(value: &'a Option<String>, name: &str) -> Result<&'a str, CwError> {
    match value.as_deref() {
        Some(v) if !v.is_empty() => Ok(v),
        _ => Err(CwError::missing(name)),
    }
}
