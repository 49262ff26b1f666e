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
    Lambda, LambdaHandler, Processing, Scenario, ACCOUNT_CONCURRENCY, MAX_BATCHING_WINDOW,
    MAX_BATCH_SIZE, MAX_CONCURRENCY, MAX_FAIL_EVERY_NTH, MAX_FIFO_BATCH_SIZE, MAX_LAMBDAS,
    MAX_PATTERNS, MAX_TIMEOUT_SECONDS,
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
            validate_lambda(
                &format!("lambdas[{i}]"),
                lambda,
                queue.name.ends_with(".fifo"),
            )?;
        }
        Ok(())
    }
}

/// The range of a Lambda function's counted field, by its name (the last
/// part of its path): (lowest, highest, unit), as `field_range` gives the
/// others' (the vocabulary reads it for paths under `lambdas[]`). A
/// processing time's are `field_range`'s.
pub(crate) fn lambda_range(field: &str) -> Option<(u64, u64, &'static str)> {
    let most = |n: i64| n.unsigned_abs();
    Some(match field {
        "batchSize" => (1, most(MAX_BATCH_SIZE), ""),
        "maximumBatchingWindowInSeconds" => (0, most(MAX_BATCHING_WINDOW), super::fields::SECONDS),
        "maximumConcurrency" => (2, most(MAX_CONCURRENCY), ""),
        "reservedConcurrency" => (0, most(ACCOUNT_CONCURRENCY), ""),
        "timeoutSeconds" => (1, most(MAX_TIMEOUT_SECONDS), super::fields::SECONDS),
        "failEveryNth" => (0, most(MAX_FAIL_EVERY_NTH), ""),
        _ => return None,
    })
}

/// A whole number within its field's range (`lambda_range`, its highest
/// `most` when given), worded with what it sets.
fn ranged(path: String, value: i64, most: Option<u64>, what: &str) -> Result<(), FieldError> {
    let field = path.rsplit('.').next().unwrap_or(&path);
    let Some((lo, hi, _)) = lambda_range(field) else {
        return Ok(());
    };
    let hi = most.unwrap_or(hi);
    if (i128::from(lo)..=i128::from(hi)).contains(&i128::from(value)) {
        return Ok(());
    }
    Err(FieldError {
        rule: format!(
            "a whole number from {} to {}{what}",
            crate::thousands(lo),
            crate::thousands(hi)
        ),
        got: value.to_string(),
        path,
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
        true => (Some(MAX_FIFO_BATCH_SIZE.unsigned_abs()), "a FIFO queue"),
        false => (None, "a standard queue"),
    };
    ranged(
        path("batchSize"),
        l.batch_size,
        most,
        &format!(", the range of BatchSize for {queue_kind}"),
    )?;
    let window = l.maximum_batching_window_in_seconds;
    ranged(
        path("maximumBatchingWindowInSeconds"),
        window,
        None,
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
                rule: format!(
                    "\"{REPORT_BATCH_ITEM_FAILURES}\", the one response type for Amazon SQS"
                ),
                got: quoted(t),
            });
        }
    }
    if let Some(n) = l.maximum_concurrency {
        ranged(
            path("maximumConcurrency"),
            n,
            None,
            ", the range of ScalingConfig's MaximumConcurrency",
        )?;
    }
    if let Some(n) = l.reserved_concurrency {
        ranged(
            path("reservedConcurrency"),
            n,
            None,
            " (0 throttles every invocation; the account has 1,000)",
        )?;
    }
    ranged(
        path("timeoutSeconds"),
        l.timeout_seconds,
        None,
        " of seconds (900 is 15 minutes), the range of a function's timeout",
    )?;
    validate_handler(&path("handler"), &l.handler)
}

/// Lambda's function names: 1 to 64 letters, digits, hyphens or underscores.
fn is_function_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A function's described handler: its processing time, failures and side effect.
fn validate_handler(at: &str, h: &LambdaHandler) -> Result<(), FieldError> {
    let ms = |field: &str, v: u64| within(format!("{at}.processing.{field}"), v.into());
    match h.processing {
        Processing::FixedMs(v) => ms("fixedMs", v)?,
        Processing::UniformMs { min, max } => {
            ms("uniformMs.min", min)?;
            ms("uniformMs.max", max)?;
        }
        Processing::ExponentialMs { mean } => ms("exponentialMs.mean", mean)?,
    }
    ranged(
        format!("{at}.failEveryNth"),
        h.fail_every_nth,
        None,
        " (0: never)",
    )?;
    short_name(format!("{at}.sideEffect"), &h.side_effect)?;
    for (field, patterns) in [("failsOn", &h.fails_on), ("timesOutOn", &h.times_out_on)] {
        let n = patterns.len() as u64;
        at_most(&format!("{at}.{field}"), n, MAX_PATTERNS as u64, "patterns")?;
        for (j, p) in patterns.iter().enumerate() {
            short_name(format!("{at}.{field}[{j}]"), p)?;
        }
    }
    Ok(())
}
