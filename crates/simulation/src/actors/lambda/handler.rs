//! A function's code, as the mapping sees it: an event JSON in, and after
//! a while a response, an error, or nothing before the timeout
//! ([`Handler`]). The scenario's described handler ([`Described`]) reads
//! the event as code would (each record's `messageId`, `body` and FIFO
//! `MessageGroupId`) and writes its response as JSON text; the mapping
//! then reads that text as Lambda reads a partial batch response
//! ([`read_response`]), so a learner's own code can take the handler's
//! place without the mapping changing.

use std::collections::BTreeSet;

use queuelab_engine::Millis;
use serde_json::Value;

use crate::document::{BatchResponse, LambdaHandler};
use crate::rng::SimRng;
use crate::worker::processing_ms;

/// What one invocation came to, and how long it ran.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Ran {
    pub duration_ms: Millis,
    pub returned: Returned,
    /// The records whose side effect it performed (processed without
    /// failing before it returned, threw or hung), by messageId.
    pub performed: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Returned {
    /// The function returned this JSON text.
    Response(String),
    /// The function threw (its error's words).
    Error(String),
    /// The learner's code threw, or Lambda failed its invocation for it
    /// (a response past 6 MB): the words go into the log's `why`.
    Thrown(String),
    /// The function was still running at its timeout.
    TimedOut,
}

/// A function's code: one invocation of `event` (Lambda's event JSON),
/// within `timeout_ms`.
pub(crate) trait Handler {
    fn invoke(&mut self, event: &str, timeout_ms: Millis) -> Ran;
    /// How long the scenario says the function works on `event`, whoever
    /// answers it: the learner's code answers at once in the page's time,
    /// and its invocation still lasts the scenario's virtual duration.
    fn duration(&mut self, event: &str) -> Millis;
}

/// The records of Lambda's event JSON (none if it is not one).
fn records(event: &str) -> Vec<Value> {
    match serde_json::from_str::<Value>(event) {
        Ok(Value::Object(mut event)) => match event.remove("Records") {
            Some(Value::Array(records)) => records,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The scenario's described handler: a processing time per record summed
/// over the batch, failures by body or every Nth record, hangs by body,
/// and with ReportBatchItemFailures the response the scenario chose. On a
/// FIFO queue it stops a message group at its first failure and returns
/// the group's later records with it, as AWS tells FIFO functions to do.
pub(crate) struct Described {
    spec: LambdaHandler,
    report_failures: bool,
    fifo: bool,
    rng: SimRng,
    /// Records handled so far (for `failEveryNth`).
    handled: u64,
}

impl Described {
    pub(crate) fn new(spec: LambdaHandler, report_failures: bool, fifo: bool, rng: SimRng) -> Self {
        Described {
            spec,
            report_failures,
            fifo,
            rng,
            handled: 0,
        }
    }

    /// The response for `failed` records (none: an empty list).
    fn response(&self, failed: &[String]) -> String {
        let items: Vec<Value> = match (failed.is_empty(), self.spec.response) {
            (true, _) | (false, BatchResponse::Empty) => Vec::new(),
            (false, BatchResponse::Valid) => failed
                .iter()
                .map(|id| serde_json::json!({ "itemIdentifier": id }))
                .collect(),
            (false, BatchResponse::UnknownId) => {
                vec![serde_json::json!({ "itemIdentifier": "not-a-message-of-this-batch" })]
            }
            (false, BatchResponse::Null) => vec![serde_json::json!({ "itemIdentifier": null })],
            (false, BatchResponse::Malformed) => failed
                .iter()
                .map(|id| serde_json::json!({ "messageId": id }))
                .collect(),
        };
        serde_json::json!({ "batchItemFailures": items }).to_string()
    }
}

impl Handler for Described {
    fn duration(&mut self, event: &str) -> Millis {
        let records = records(event);
        (records.iter()).fold(0, |ms: Millis, _| {
            ms.saturating_add(processing_ms(&self.spec.processing, self.rng.unit()))
        })
    }

    fn invoke(&mut self, event: &str, timeout_ms: Millis) -> Ran {
        let records = records(event);
        let mut ms: Millis = 0;
        let mut failed = Vec::new();
        let mut performed = Vec::new();
        let mut stopped_groups = BTreeSet::new();
        for r in &records {
            let text = |key: &str| r.get(key).and_then(Value::as_str).unwrap_or("");
            let (id, body) = (text("messageId"), text("body"));
            let group = (r.get("attributes"))
                .and_then(|a| a.get("MessageGroupId"))
                .and_then(Value::as_str);
            // FIFO: a group stopped at a failure is not processed further.
            if let Some(g) = group.filter(|_| self.fifo) {
                if stopped_groups.contains(g) {
                    failed.push(id.to_owned());
                    continue;
                }
            }
            ms = ms.saturating_add(processing_ms(&self.spec.processing, self.rng.unit()));
            let hangs = self
                .spec
                .times_out_on
                .iter()
                .any(|p| body.contains(p.as_str()));
            if hangs || ms > timeout_ms {
                return Ran {
                    duration_ms: timeout_ms,
                    returned: Returned::TimedOut,
                    performed,
                };
            }
            self.handled += 1;
            let nth = u64::try_from(self.spec.fail_every_nth).unwrap_or(0);
            let fails = self.spec.fails_on.iter().any(|p| body.contains(p.as_str()))
                || (nth > 0 && self.handled % nth == 0);
            if fails {
                failed.push(id.to_owned());
                if let Some(g) = group.filter(|_| self.fifo) {
                    stopped_groups.insert(g.to_owned());
                }
            } else {
                performed.push(id.to_owned());
            }
        }
        let returned = match (failed.first(), self.report_failures) {
            (Some(id), false) => Returned::Error(format!("processing message {id} failed")),
            (_, true) => Returned::Response(self.response(&failed)),
            (None, false) => Returned::Response("null".into()),
        };
        Ran {
            duration_ms: ms,
            returned,
            performed,
        }
    }
}

/// The ids a function's partial batch response lists, read as Lambda
/// reads it for an SQS batch (the developer guide's "Implementing partial
/// batch responses"): null, an object without `batchItemFailures`, or an
/// empty list is success (`Ok` of none); an `itemIdentifier` that is
/// null, empty, missing (another key) or not the messageId of a record of
/// the batch, or a response that is not JSON, fails the whole batch
/// (`Err` says what was wrong, in plain words).
pub(crate) fn read_response(text: &str, batch: &[String]) -> Result<Vec<String>, String> {
    let value: Value = serde_json::from_str(text)
        .map_err(|_| "the function's response is not valid JSON".to_owned())?;
    let items = match &value {
        Value::Null => return Ok(Vec::new()),
        Value::Object(o) => match o.get("batchItemFailures") {
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(Value::Array(items)) => items,
            Some(_) => return Err("batchItemFailures is not a list".into()),
        },
        _ => return Err("the function's response is not a JSON object".into()),
    };
    // Sets, not scans: a learner's response may list a batch's 10,000 ids
    // many times over (up to a request's 4 MiB).
    let in_batch: BTreeSet<&str> = batch.iter().map(String::as_str).collect();
    let mut seen = BTreeSet::new();
    let mut ids = Vec::new();
    for item in items {
        let id = match item.get("itemIdentifier") {
            Some(Value::String(id)) if id.is_empty() => {
                return Err("an itemIdentifier is an empty string".into())
            }
            Some(Value::String(id)) => id,
            Some(Value::Null) => return Err("an itemIdentifier is null".into()),
            Some(_) => return Err("an itemIdentifier is not a string".into()),
            None => return Err(
                "an entry of batchItemFailures has no itemIdentifier (a key Lambda does not read)"
                    .into(),
            ),
        };
        if !in_batch.contains(id.as_str()) {
            return Err(format!(
                "itemIdentifier \"{}\" is not the messageId of a message in the batch",
                queuelab_engine::echo(id)
            ));
        }
        if seen.insert(id.as_str()) {
            ids.push(id.clone());
        }
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch() -> Vec<String> {
        vec!["a".into(), "b".into()]
    }

    #[test]
    fn a_partial_batch_response_lists_the_failed_ids() {
        let text = r#"{"batchItemFailures":[{"itemIdentifier":"b"}]}"#;
        assert_eq!(read_response(text, &batch()), Ok(vec!["b".into()]));
    }

    #[test]
    fn a_response_that_repeats_an_id_lists_it_once_and_reads_quickly() {
        let batch: Vec<String> = (0..10_000).map(|i| format!("m{i}")).collect();
        let items: Vec<String> = (0..50_000)
            .map(|i| format!(r#"{{"itemIdentifier":"m{}"}}"#, i % 10_000))
            .collect();
        let text = format!(r#"{{"batchItemFailures":[{}]}}"#, items.join(","));
        let ids = read_response(&text, &batch).unwrap();
        assert_eq!(ids.len(), 10_000);
        assert_eq!(ids[1], "m1");
    }

    #[test]
    fn null_no_list_or_an_empty_list_is_success() {
        for text in [
            "null",
            "{}",
            r#"{"batchItemFailures":null}"#,
            r#"{"batchItemFailures":[]}"#,
        ] {
            assert_eq!(read_response(text, &batch()), Ok(Vec::new()), "{text}");
        }
    }

    #[test]
    fn an_invalid_item_fails_the_whole_batch() {
        for text in [
            r#"{"batchItemFailures":[{"itemIdentifier":null}]}"#,
            r#"{"batchItemFailures":[{"itemIdentifier":""}]}"#,
            r#"{"batchItemFailures":[{"messageId":"a"}]}"#,
            r#"{"batchItemFailures":[{"itemIdentifier":"zzz"}]}"#,
            "not json",
        ] {
            assert!(read_response(text, &batch()).is_err(), "{text}");
        }
    }
}
