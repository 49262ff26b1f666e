//! The scenario's Lambda functions, each with its Amazon SQS event source
//! mapping: Lambda's pollers receive from the queue, hand batches to the
//! function, and delete what it processed (`crate::actors::lambda`).

use serde::{Deserialize, Serialize};

use super::scenario::Processing;

/// A Lambda function and its event source mapping on one of the
/// scenario's queues (CreateEventSourceMapping's parameters for Amazon
/// SQS, and the function's own settings). Lambda's pollers long-poll the
/// queue (WaitTimeSeconds 20, up to 10 messages a receive) under the
/// function's name, gather a batch, invoke the function with it, and
/// delete the messages it processed with DeleteMessageBatch.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Lambda {
    /// The function's name, 1 to 64 letters, digits, hyphens or
    /// underscores (Lambda's rule): the caller of its mapping's SQS calls
    /// in the log.
    #[cfg_attr(feature = "contract", schemars(length(min = 1, max = 64)))]
    pub name: String,
    /// The queue it reads: one of the scenario's queues.
    pub queue: String,
    /// BatchSize: the most records in one invocation, 1 to 10,000 for a
    /// standard queue, 1 to 10 for a FIFO queue. Above 10 needs a batching
    /// window of at least 1 second. Default 10.
    #[serde(default = "ten")]
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = MAX_BATCH_SIZE)))]
    pub batch_size: i64,
    /// MaximumBatchingWindowInSeconds: how long the pollers gather
    /// records before invoking the function, counted from the batch's
    /// first record, 0 to 300. A batch goes to the function as soon as it
    /// holds `batchSize` records, the window ends, or the next record
    /// would pass the 6 MB invocation payload. FIFO queues take no window.
    /// Default 0.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(min = 0, max = MAX_BATCHING_WINDOW)))]
    pub maximum_batching_window_in_seconds: i64,
    /// FunctionResponseTypes: `["ReportBatchItemFailures"]` lets the
    /// function return the records that failed (`batchItemFailures`), so
    /// only those return to the queue. Without it, any error returns the
    /// whole batch.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = 1)))]
    pub function_response_types: Vec<String>,
    /// ScalingConfig's MaximumConcurrency: the most batches this mapping
    /// hands to the function at once, 2 to 1,000. Default: no cap but
    /// Lambda's own 1,000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    #[cfg_attr(feature = "contract", schemars(range(min = 2, max = MAX_CONCURRENCY)))]
    pub maximum_concurrency: Option<i64>,
    /// The function's reserved concurrency, 0 to 1,000: the most
    /// invocations that run at once. The mapping does not read it: a
    /// batch handed over when they are all busy is throttled, and stays
    /// in flight while the poller retries. 0 throttles every invocation.
    /// Default: none reserved (the account's 1,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    #[cfg_attr(feature = "contract", schemars(range(min = 0, max = ACCOUNT_CONCURRENCY)))]
    pub reserved_concurrency: Option<i64>,
    /// The function's timeout, 1 to 900 seconds (Lambda's range): an
    /// invocation still running then is stopped and its whole batch
    /// returns to the queue. Lambda refuses to create the mapping when it
    /// is above the queue's visibility timeout; AWS advises a visibility
    /// timeout of at least six times the function's timeout, because a
    /// batch can wait in the poller and be retried while the function is
    /// throttled, its messages in flight all along. Default 3.
    #[serde(default = "three")]
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = MAX_TIMEOUT_SECONDS)))]
    pub timeout_seconds: i64,
    /// Enabled: false creates the mapping stopped, so nothing polls.
    /// Default true.
    #[serde(default = "yes")]
    pub enabled: bool,
    /// What the function's code does with each batch.
    pub handler: LambdaHandler,
}

/// The function's code, described: how long each record takes, which
/// records fail, and what it returns for them. It reads the event Lambda
/// builds (its `Records`' ids, bodies and group ids) and answers as a
/// handler would: a response, an error, or no answer before the timeout.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LambdaHandler {
    /// How long one record takes, fixed or drawn from the seeded PRNG; an
    /// invocation takes the sum over its batch's records.
    pub processing: Processing,
    /// Records whose body contains any of these fail every time (poison
    /// messages). At most 20, each at most 80 characters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_PATTERNS)))]
    pub fails_on: Vec<String>,
    /// Fails every Nth record it handles (the Nth, 2Nth, …, counting
    /// retries), whatever the body: a flaky dependency. 0: never. Default 0.
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(min = 0, max = MAX_FAIL_EVERY_NTH)))]
    pub fail_every_nth: i64,
    /// A record whose body contains any of these hangs the function: the
    /// invocation runs until its timeout. At most 20, each at most 80
    /// characters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_PATTERNS)))]
    pub times_out_on: Vec<String>,
    /// With ReportBatchItemFailures, what the function returns when
    /// records failed. Default "valid".
    #[serde(default)]
    pub response: BatchResponse,
    /// What the function does for each record it processes without
    /// failing (counted per message, as a consumer's side effect: a record
    /// processed twice did it twice), at most 80 characters. Default
    /// "charged".
    #[serde(default = "charged")]
    #[cfg_attr(feature = "contract", schemars(length(max = 80)))]
    pub side_effect: String,
}

/// What a function with ReportBatchItemFailures returns for its failed
/// records (with none failed, it returns an empty `batchItemFailures`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum BatchResponse {
    /// `{"batchItemFailures": [{"itemIdentifier": "<messageId>"}, …]}`:
    /// only the failed records return to the queue.
    #[default]
    Valid,
    /// An itemIdentifier that is the messageId of no record in the
    /// batch: Lambda fails the whole batch.
    UnknownId,
    /// `{"itemIdentifier": null}`: Lambda fails the whole batch.
    Null,
    /// Not the documented shape (`{"messageId": …}` where Lambda reads
    /// `itemIdentifier`): Lambda fails the whole batch.
    Malformed,
    /// An empty `batchItemFailures` although records failed: Lambda takes
    /// it as success and deletes them all.
    Empty,
}

/// The most Lambda functions a scenario has (Queuelab's choice).
pub const MAX_LAMBDAS: usize = 20;
/// BatchSize's largest value for a standard queue (Lambda's), and for a
/// FIFO queue.
pub const MAX_BATCH_SIZE: i64 = 10_000;
pub const MAX_FIFO_BATCH_SIZE: i64 = 10;
/// MaximumBatchingWindowInSeconds' largest value (Lambda's).
pub const MAX_BATCHING_WINDOW: i64 = 300;
/// ScalingConfig's MaximumConcurrency's largest value (Lambda's).
pub const MAX_CONCURRENCY: i64 = 1_000;
/// The account's concurrency: Lambda's default quota of concurrent
/// executions in a Region, the most a function reserves.
pub const ACCOUNT_CONCURRENCY: i64 = 1_000;
/// A function's longest timeout (Lambda's: 15 minutes).
pub const MAX_TIMEOUT_SECONDS: i64 = 900;
/// The most patterns in `failsOn` or `timesOutOn` (Queuelab's choice).
pub const MAX_PATTERNS: usize = 20;
/// The largest `failEveryNth` (Queuelab's choice).
pub const MAX_FAIL_EVERY_NTH: i64 = 1_000_000;

fn ten() -> i64 {
    10
}

fn three() -> i64 {
    3
}

fn yes() -> bool {
    true
}

fn charged() -> String {
    "charged".into()
}
