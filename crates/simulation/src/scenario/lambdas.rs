//! The checks of a scenario's Lambda functions and their event source
//! mappings, with the ranges CreateEventSourceMapping and the function's
//! settings take (the Lambda API reference): BatchSize 1–10,000 (FIFO
//! 1–10), above 10 only with a batching window of at least 1 second,
//! MaximumBatchingWindowInSeconds 0–300 (none on a FIFO queue),
//! MaximumConcurrency 2–1,000, a timeout of 1–900 seconds, reserved
//! concurrency 0–1,000, and FunctionResponseTypes only
//! "ReportBatchItemFailures". A function timeout above the queue's
//! visibility timeout is refused when the mapping is created in the run
//! (`actors/lambda`), as Lambda refuses it, since a lab's knob may change
//! the queue's visibility timeout.

use super::fields::{at_most, quoted, short_name, within, FieldError};
use crate::document::{
    Lambda, Processing, Scenario, ACCOUNT_CONCURRENCY, MAX_BATCHING_WINDOW, MAX_BATCH_SIZE,
    MAX_CONCURRENCY, MAX_FAIL_EVERY_NTH, MAX_FIFO_BATCH_SIZE, MAX_LAMBDAS, MAX_PATTERNS,
    MAX_TIMEOUT_SECONDS,
};

/// The one value FunctionResponseTypes takes for Amazon SQS.
pub(crate) const REPORT_BATCH_ITEM_FAILURES: &str = "ReportBatchItemFailures";

impl Scenario {
    pub(super) fn validate_lambdas(&self) -> Result<(), FieldError> {
        let count = self.lambdas.len() as u64;
        at_most("lambdas", count, MAX_LAMBDAS as u64, "functions")?;
        for (i, lambda) in self.lambdas.iter().enumerate() {
            let Some(queue) = self.queues.iter().find(|q| q.name == lambda.queue) else {
                return Err(FieldError {
                    path: format!("lambdas[{i}].queue"),
                    rule: "the name of one of the scenario's queues".into(),
                    got: quoted(&lambda.queue),
                });
            };
            validate_lambda(&format!("lambdas[{i}]"), lambda, queue.name.ends_with(".fifo"))?;
        }
        Ok(())
    }
}

/// A whole number within `lo..=hi`, worded with what it sets.
fn ranged(path: String, value: i64, lo: i64, hi: i64, what: &str) -> Result<(), FieldError> {
    if (lo..=hi).contains(&value) {
        return Ok(());
    }
    Err(FieldError {
        path,
        rule: format!(
            "a whole number from {} to {}{what}",
            crate::thousands(lo.unsigned_abs()),
            crate::thousands(hi.unsigned_abs())
        ),
        got: value.to_string(),
    })
}

fn validate_lambda(at: &str, l: &Lambda, fifo: bool) -> Result<(), FieldError> {
    let path = |field: &str| format!("{at}.{field}");
    if !is_function_name(&l.name) {
        return Err(FieldError {
            path: path("name"),
            rule: "a function name of 1 to 64 letters, digits, hyphens or underscores".into(),
            got: quoted(&l.name),
        });
    }
    let (most, queue_kind) = match fifo {
        true => (MAX_FIFO_BATCH_SIZE, "a FIFO queue"),
        false => (MAX_BATCH_SIZE, "a standard queue"),
    };
    ranged(
        path("batchSize"),
        l.batch_size,
        1,
        most,
        &format!(", the range of BatchSize for {queue_kind}"),
    )?;
    let window = l.maximum_batching_window_in_seconds;
    ranged(
        path("maximumBatchingWindowInSeconds"),
        window,
        0,
        MAX_BATCHING_WINDOW,
        " of seconds (300 is 5 minutes), the range of MaximumBatchingWindowInSeconds",
    )?;
    if fifo && window != 0 {
        return Err(FieldError {
            path: path("maximumBatchingWindowInSeconds"),
            rule: "0 or left out: Lambda supports no batching window on FIFO queues".into(),
            got: window.to_string(),
        });
    }
    if l.batch_size > 10 && window < 1 {
        return Err(FieldError {
            path: path("maximumBatchingWindowInSeconds"),
            rule: "at least 1 when batchSize is above 10 (Lambda: \"Maximum batch window in \
                   seconds must be greater than 0 if maximum batch size is greater than 10\")"
                .into(),
            got: window.to_string(),
        });
    }
    let types = l.function_response_types.len() as u64;
    at_most(&path("functionResponseTypes"), types, 1, "response types")?;
    for (j, t) in l.function_response_types.iter().enumerate() {
        if t != REPORT_BATCH_ITEM_FAILURES {
            return Err(FieldError {
                path: path(&format!("functionResponseTypes[{j}]")),
                rule: format!("\"{REPORT_BATCH_ITEM_FAILURES}\", the one response type for Amazon SQS"),
                got: quoted(t),
            });
        }
    }
    if let Some(n) = l.maximum_concurrency {
        ranged(
            path("maximumConcurrency"),
            n,
            2,
            MAX_CONCURRENCY,
            ", the range of ScalingConfig's MaximumConcurrency",
        )?;
    }
    if let Some(n) = l.reserved_concurrency {
        ranged(
            path("reservedConcurrency"),
            n,
            0,
            ACCOUNT_CONCURRENCY,
            " (0 throttles every invocation; the account has 1,000)",
        )?;
    }
    ranged(
        path("timeoutSeconds"),
        l.timeout_seconds,
        1,
        MAX_TIMEOUT_SECONDS,
        " of seconds (900 is 15 minutes), the range of a function's timeout",
    )?;
    let h = &l.handler;
    let ms = |field: &str, v: u64| within(path(&format!("handler.processing.{field}")), v.into());
    match h.processing {
        Processing::FixedMs(v) => ms("fixedMs", v)?,
        Processing::UniformMs { min, max } => {
            ms("uniformMs.min", min)?;
            ms("uniformMs.max", max)?;
        }
        Processing::ExponentialMs { mean } => ms("exponentialMs.mean", mean)?,
    }
    ranged(
        path("handler.failEveryNth"),
        h.fail_every_nth,
        0,
        MAX_FAIL_EVERY_NTH,
        " (0: never)",
    )?;
    for (field, patterns) in [("failsOn", &h.fails_on), ("timesOutOn", &h.times_out_on)] {
        let n = patterns.len() as u64;
        at_most(&path(&format!("handler.{field}")), n, MAX_PATTERNS as u64, "patterns")?;
        for (j, p) in patterns.iter().enumerate() {
            short_name(path(&format!("handler.{field}[{j}]")), p)?;
        }
    }
    Ok(())
}

/// Lambda's function names: 1 to 64 letters, digits, hyphens or underscores.
fn is_function_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}
