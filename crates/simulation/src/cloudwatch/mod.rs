//! CloudWatch for a run: the metrics SQS (and Lambda) publish, kept as
//! CloudWatch keeps them (`store.rs`), and the scenario's alarms,
//! evaluated as CloudWatch evaluates them (`evaluate.rs`). One observer of
//! the run's log (`watch.rs`): it counts what the events say happened
//! (messages sent, received, deleted, empty receives), reads the engine's
//! gauges at the end of each resolution step, and judges each alarm at
//! the end of each of its periods, logging every change of state. Its API
//! (`api.rs`; `service.rs` and `service_alarms.rs` answer it) puts custom
//! metrics into the same store and alarms into the same judging.

mod actions;
pub mod api;
pub mod evaluate;
mod service;
mod service_alarms;
pub mod store;
mod watch;

pub use evaluate::AlarmState;
pub(crate) use service::namespace_rule;
pub use store::{MetricId, StatSet};
pub(crate) use watch::CloudWatch;
pub use watch::{AlarmSnapshot, AlarmTransition, MetricsSnapshot, SeriesSnapshot};

/// The metrics SQS publishes for each queue (namespace AWS/SQS, dimension
/// QueueName), by CloudWatch's names.
pub const SQS_METRICS: [&str; 10] = [
    "NumberOfMessagesSent",
    "NumberOfMessagesReceived",
    "NumberOfMessagesDeleted",
    "NumberOfEmptyReceives",
    "NumberOfDeduplicatedSentMessages",
    "SentMessageSize",
    "ApproximateNumberOfMessagesVisible",
    "ApproximateNumberOfMessagesNotVisible",
    "ApproximateNumberOfMessagesDelayed",
    "ApproximateAgeOfOldestMessage",
];

/// The metrics Lambda publishes for each function (namespace AWS/Lambda,
/// dimension FunctionName).
pub const LAMBDA_METRICS: [&str; 5] = [
    "Invocations",
    "Errors",
    "Throttles",
    "ConcurrentExecutions",
    "Duration",
];

/// Every metric SQS and Lambda publish, by name (what a scenario's
/// `metrics.plot` may name).
pub fn published_metrics() -> Vec<&'static str> {
    SQS_METRICS.iter().chain(&LAMBDA_METRICS).copied().collect()
}
