//! `requesters` and `responders` held to their ranges: names, queues,
//! counts, the reply wait and the reply queues' names, refused in words
//! naming the field.

use super::fields::{at_most, quoted, short_name, within, FieldError};
use crate::document::{Processing, ReplyMode, Scenario, MAX_REQUESTERS, MAX_RESPONDERS};

/// The most requests one requester sends (Queuelab's choice: with
/// per-request queues each is a CreateQueue and a DeleteQueue, and a
/// run's queues are bounded by `maxQueues`).
pub const MAX_REQUESTS: u64 = 1_000;

/// The longest reply-queue prefix: `-<n>` (at most 5 characters) is added,
/// and SQS's queue names stop at 80.
pub const MAX_PREFIX_CHARS: usize = 60;

fn refusal(path: String, rule: &str, got: String) -> FieldError {
    FieldError {
        path,
        rule: rule.into(),
        got,
    }
}

impl Scenario {
    pub(super) fn validate_request_reply(&self) -> Result<(), FieldError> {
        let count = self.requesters.len() as u64;
        at_most("requesters", count, MAX_REQUESTERS as u64, "requesters")?;
        let count = self.responders.len() as u64;
        at_most("responders", count, MAX_RESPONDERS as u64, "responders")?;
        // A standard queue: the pattern's requests and replies carry no
        // MessageGroupId, which a FIFO queue requires.
        let queue = |path: String, name: &str| match self.queues.iter().any(|q| q.name == name) {
            true if name.ends_with(".fifo") => Err(refusal(
                path,
                "the name of one of the scenario's standard queues (requests carry no \
                 MessageGroupId)",
                quoted(name),
            )),
            true => Ok(()),
            false => Err(refusal(
                path,
                "the name of one of the scenario's queues",
                quoted(name),
            )),
        };
        for (i, r) in self.requesters.iter().enumerate() {
            let path = |field: &str| format!("requesters[{i}].{field}");
            short_name(path("name"), &r.name)?;
            queue(path("queue"), &r.queue)?;
            within(path("rate.startMs"), i128::from(r.rate.start_ms))?;
            within(path("rate.everyMs"), i128::from(r.rate.every_ms))?;
            if r.rate.count > MAX_REQUESTS {
                let rule = format!("a whole number of requests from 0 to {MAX_REQUESTS}");
                return Err(FieldError {
                    path: path("rate.count"),
                    rule,
                    got: r.rate.count.to_string(),
                });
            }
            if r.rate.body.is_empty() {
                let rule = "a request body of at least 1 character";
                return Err(refusal(path("rate.body"), rule, "none".into()));
            }
            if let Some(n) = r.rate.batch_size {
                let rule = "left out: a requester sends one request at a time";
                return Err(refusal(path("rate.batchSize"), rule, n.to_string()));
            }
            if let Some(n) = r.rate.group_count {
                let rule = "left out: requests carry no message group";
                return Err(refusal(path("rate.groupCount"), rule, n.to_string()));
            }
            if r.rate.group_id.is_some() {
                let rule = "no groupId: requests go to a standard queue";
                return Err(refusal(path("rate.groupId"), rule, "a group id".into()));
            }
            within(path("replyWaitSeconds"), i128::from(r.reply_wait_seconds))?;
            if let Some(prefix) = &r.queue_name_prefix {
                let fits = !prefix.is_empty()
                    && prefix.chars().count() <= MAX_PREFIX_CHARS
                    && (prefix.chars()).all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
                if !fits {
                    let rule = format!(
                        "1 to {MAX_PREFIX_CHARS} letters, digits, hyphens (-) or underscores (_), \
                         as SQS's queue names allow"
                    );
                    return Err(refusal(path("queueNamePrefix"), &rule, quoted(prefix)));
                }
            }
            if r.reuse_queue_name && r.mode == ReplyMode::PerClient {
                let rule = "false with mode perClient (its one queue keeps its name)";
                return Err(refusal(path("reuseQueueName"), rule, "true".into()));
            }
        }
        for (i, r) in self.responders.iter().enumerate() {
            let path = |field: &str| format!("responders[{i}].{field}");
            short_name(path("name"), &r.name)?;
            queue(path("queue"), &r.queue)?;
            let at = |field: &str, v: u64| within(path(field), i128::from(v));
            match r.processing {
                Processing::FixedMs(ms) => at("processing.fixedMs", ms)?,
                Processing::UniformMs { min, max } => {
                    at("processing.uniformMs.min", min)?;
                    at("processing.uniformMs.max", max)?;
                }
                Processing::ExponentialMs { mean } => at("processing.exponentialMs.mean", mean)?,
            }
        }
        Ok(())
    }
}
