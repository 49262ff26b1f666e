//! Numbers in a scenario's words, read from the scenario being run.
//!
//! A narration line or checkpoint that says "the visibility timeout is 2 s"
//! is wrong the moment a learner sets it to 5 s. Authors write
//! `{orders.visibilityTimeout}` instead, and the simulation fills it in
//! from the scenario it runs (the file with the learner's settings), so
//! the words always quote the run on screen. A placeholder is a queue's or
//! consumer's name, a dot, and one of the properties below; a name may
//! itself hold dots ("receipts.fifo"), so the property is after the last.

use queuelab_engine::{echo, Settings};

use super::explain::secs;
use crate::document::{Claim, Count, Processing, Scenario, Trigger};

/// The properties a placeholder can name, for the error that lists them.
const QUEUE_PROPERTIES: &str =
    "visibilityTimeout, delay, retention, receiveWaitTime, maxReceiveCount, deadLetterQueue";
const CONSUMER_PROPERTIES: &str =
    "processing, waitTime, pollInterval, batchSize, heartbeatEvery, heartbeatVisibility, failsUntil";
const FUNCTION_PROPERTIES: &str =
    "batchSize, batchingWindow, maximumConcurrency, reservedConcurrency, timeout, processing";

/// `text` with every `{name.property}` replaced by its value in `scenario`;
/// `Err` says which placeholder is wrong and why, in words. `{{` and `}}` write
/// a brace.
pub(crate) fn fill(text: &str, scenario: &Scenario) -> Result<String, String> {
    // Most words hold no placeholder: a byte scan, and no work.
    if !text.bytes().any(|b| b == b'{' || b == b'}') {
        return Ok(text.to_string());
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let brace = &rest[i..i + 1];
        rest = &rest[i + 1..];
        if rest.starts_with(brace) {
            out.push_str(brace);
            rest = &rest[1..];
            continue;
        }
        if brace == "}" {
            return Err("a \"}\" with no \"{\" before it (write \"}}\" for a brace)".into());
        }
        let Some(end) = rest.find('}') else {
            return Err("a \"{\" with no \"}\" after it (write \"{{\" for a brace)".into());
        };
        out.push_str(&value(&rest[..end], scenario)?);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The properties whose value is a count, which a trigger's or claim's
/// count may name.
const COUNT_PROPERTIES: [&str; 3] = ["maxReceiveCount", "batchSize", "maximumConcurrency"];

/// A count written as a setting (`"{orders.maxReceiveCount}"`) is one
/// placeholder naming a count property of the scenario's queues or
/// consumers; `Err` says what is wrong, in words.
pub(crate) fn check_count(count: &Count, scenario: &Scenario) -> Result<(), String> {
    let Count::Setting(text) = count else {
        return Ok(());
    };
    let name = text.strip_prefix('{').and_then(|t| t.strip_suffix('}'));
    let Some(name) = name.filter(|n| !n.contains(['{', '}'])) else {
        return Err(format!(
            "\"{}\" is neither a number nor one {{placeholder}}",
            echo(text)
        ));
    };
    let property = name.rsplit_once('.').map_or("", |(_, p)| p);
    if !COUNT_PROPERTIES.contains(&property) {
        return Err(format!(
            "{{{}}} is not a count (a count is one of {})",
            echo(name),
            COUNT_PROPERTIES.join(", ")
        ));
    }
    value(name, scenario).map(|_| ())
}

/// `count` as a number from the scenario being run; a setting the run
/// does not have (a redrive policy taken away) stays a setting, which
/// matches nothing.
fn counted_value(count: &Count, scenario: &Scenario) -> Count {
    match count {
        Count::Setting(text) => fill(text, scenario)
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or_else(|| count.clone(), Count::Number),
        Count::Number(_) => count.clone(),
    }
}

/// `trigger` with its counts filled from the scenario being run.
pub(crate) fn counted(trigger: &Trigger, scenario: &Scenario) -> Trigger {
    let fill = |c: &Option<Count>| c.as_ref().map(|c| counted_value(c, scenario));
    Trigger {
        receive_count: fill(&trigger.receive_count),
        count: fill(&trigger.count),
        ..trigger.clone()
    }
}

/// `claims` with their counts filled from the scenario being run.
pub(crate) fn counted_claims(claims: &[Claim], scenario: &Scenario) -> Vec<Claim> {
    let t = |t: &Trigger| counted(t, scenario);
    claims
        .iter()
        .map(|c| match c {
            Claim::Happened(x) => Claim::Happened(t(x)),
            Claim::NotHappened(x) => Claim::NotHappened(t(x)),
            Claim::Before { first, then } => Claim::Before {
                first: t(first),
                then: t(then),
            },
            Claim::AtOnce { first, then } => Claim::AtOnce {
                first: t(first),
                then: t(then),
            },
            Claim::ReceiveCount { message, equals } => Claim::ReceiveCount {
                message: message.clone(),
                equals: counted_value(equals, scenario),
            },
            other => other.clone(),
        })
        .collect()
}

/// A processing time in words ("3.5 s", "1 s to 2 s", "1.2 s on average").
fn processing(p: &Processing) -> String {
    match *p {
        Processing::FixedMs(ms) => secs(ms),
        Processing::UniformMs { min, max } => format!("{} to {}", secs(min), secs(max)),
        Processing::ExponentialMs { mean } => format!("{} on average", secs(mean)),
    }
}

/// The value of one placeholder (its text between the braces).
fn value(name: &str, scenario: &Scenario) -> Result<String, String> {
    // A refusal repeats the placeholder cut short: a file may hold a megabyte of it.
    let unknown = |why: String| Err(format!("{{{}}}: {why}", echo(name)));
    let Some((owner, property)) = name.rsplit_once('.') else {
        return unknown("no property after a dot ({queue.property} or {consumer.property})".into());
    };
    if let Some(q) = scenario.queues.iter().find(|q| q.name == owner) {
        let defaults = Settings::default();
        let seconds = |given: Option<i64>, default: u32| {
            secs(given.unwrap_or(i64::from(default)).max(0) as u64 * 1000)
        };
        return Ok(match property {
            "visibilityTimeout" => {
                seconds(q.visibility_timeout_seconds, defaults.visibility_timeout)
            }
            "delay" => seconds(q.delay_seconds, defaults.delay_seconds),
            "retention" => seconds(
                q.message_retention_period_seconds,
                defaults.message_retention_period,
            ),
            "receiveWaitTime" => seconds(
                q.receive_message_wait_time_seconds,
                defaults.receive_wait_seconds,
            ),
            // A learner may take a redrive or heartbeat away: the words then
            // say so rather than the scenario being refused (a line about
            // a DLQ move or a heartbeat is not shown in a run without one).
            "maxReceiveCount" | "deadLetterQueue" => match (&q.redrive, property) {
                (Some(r), "maxReceiveCount") => r.max_receive_count.to_string(),
                (Some(r), _) => r.dead_letter_queue.clone(),
                (None, _) => "no dead-letter queue".into(),
            },
            _ => {
                return unknown(format!(
                    "a queue has no property \"{}\" (it has {QUEUE_PROPERTIES})",
                    echo(property)
                ))
            }
        });
    }
    if let Some(c) = scenario.consumers.iter().find(|c| c.name == owner) {
        return Ok(match property {
            "processing" => processing(&c.processing),
            "waitTime" => secs(c.wait_time_seconds.max(0) as u64 * 1000),
            "pollInterval" => secs(c.poll_interval_ms),
            "batchSize" => c.batch_size.to_string(),
            // The end of the window in which every message fails (a bug
            // until its fix ships): "t = 12 s", or words for none.
            "failsUntil" => match &c.behaviour.fails_during_ms {
                Some(w) => format!("t = {}", secs(w.end_ms)),
                None => "no failure window".into(),
            },
            "heartbeatEvery" | "heartbeatVisibility" => {
                let Some(every) = c.behaviour.heartbeat_every_ms else {
                    return Ok("no heartbeat".into());
                };
                match c.behaviour.heartbeat_visibility_seconds {
                    _ if property == "heartbeatEvery" => secs(every),
                    Some(s) => secs(s.max(0) as u64 * 1000),
                    // A heartbeat without its own timeout sets the queue's.
                    None => value(&format!("{}.visibilityTimeout", c.queue), scenario)?,
                }
            }
            _ => {
                return unknown(format!(
                    "a consumer has no property \"{}\" (it has {CONSUMER_PROPERTIES})",
                    echo(property)
                ))
            }
        });
    }
    if let Some(f) = scenario.lambdas.iter().find(|f| f.name == owner) {
        return Ok(match property {
            "batchSize" => f.batch_size.to_string(),
            "batchingWindow" => secs(f.maximum_batching_window_in_seconds.max(0) as u64 * 1000),
            // Lambda's own bound when the mapping gives none: the words
            // say so, and as a count it matches nothing.
            "maximumConcurrency" => f
                .maximum_concurrency
                .map_or_else(|| "no maximum".into(), |n| n.to_string()),
            "reservedConcurrency" => f
                .reserved_concurrency
                .map_or_else(|| "no reserved concurrency".into(), |n| n.to_string()),
            "timeout" => secs(f.timeout_seconds.max(0) as u64 * 1000),
            "processing" => processing(&f.handler.processing),
            _ => {
                return unknown(format!(
                    "a function has no property \"{}\" (it has {FUNCTION_PROPERTIES})",
                    echo(property)
                ))
            }
        });
    }
    unknown(format!(
        "\"{}\" is not one of the scenario's queues or consumers",
        echo(owner)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario() -> Scenario {
        serde_json::from_str(
            r#"{"title": "t", "durationMs": 1000,
                "queues": [{"name": "dlq"}, {"name": "receipts.fifo", "visibilityTimeoutSeconds": 2,
                            "redrive": {"deadLetterQueue": "dlq", "maxReceiveCount": 3}}],
                "consumers": [{"name": "worker-1", "queue": "dlq", "processing": {"fixedMs": 3500}}]}"#,
        )
        .unwrap()
    }

    #[test]
    fn placeholders_quote_the_scenario_being_run() {
        let s = scenario();
        let text = "{receipts.fifo.visibilityTimeout} < {worker-1.processing}; \
                    {dlq.visibilityTimeout} by default; {receipts.fifo.maxReceiveCount} \
                    receives, then {receipts.fifo.deadLetterQueue}; {{braces}}";
        assert_eq!(
            fill(text, &s).unwrap(),
            "2 s < 3.5 s; 30 s by default; 3 receives, then dlq; {braces}"
        );
    }

    #[test]
    fn an_unknown_placeholder_is_refused_in_words() {
        let s = scenario();
        let e = fill("{orders.visibilityTimeout}", &s).unwrap_err();
        assert_eq!(e, "{orders.visibilityTimeout}: \"orders\" is not one of the scenario's queues or consumers");
        let e = fill("{worker-1.speed}", &s).unwrap_err();
        assert!(
            e.starts_with("{worker-1.speed}: a consumer has no property \"speed\""),
            "{e}"
        );
        assert_eq!(
            fill("{dlq.maxReceiveCount}", &s).unwrap(),
            "no dead-letter queue"
        );
        assert_eq!(
            fill("{worker-1.heartbeatEvery}", &s).unwrap(),
            "no heartbeat"
        );
        assert!(fill("a { b", &s).unwrap_err().contains("no \"}\""));
        assert!(fill("a } b", &s).unwrap_err().contains("no \"{\""));
        assert!(fill("{nodot}", &s).unwrap_err().contains("no property"));
    }

    fn with_functions() -> Scenario {
        serde_json::from_str(
            r#"{"title": "t", "durationMs": 1000,
                "queues": [{"name": "orders", "visibilityTimeoutSeconds": 60}],
                "lambdas": [
                    {"name": "charge", "queue": "orders", "batchSize": 100,
                     "maximumBatchingWindowInSeconds": 2, "maximumConcurrency": 20,
                     "reservedConcurrency": 50, "timeoutSeconds": 10,
                     "handler": {"processing": {"fixedMs": 250}}},
                    {"name": "plain", "queue": "orders",
                     "handler": {"processing": {"uniformMs": {"min": 100, "max": 200}}}}]}"#,
        )
        .unwrap()
    }

    #[test]
    fn a_functions_placeholders_quote_its_mapping_and_its_handler() {
        let s = with_functions();
        let text = "{charge.batchSize} in {charge.batchingWindow}, {charge.maximumConcurrency} \
                    at once, {charge.reservedConcurrency} reserved, {charge.timeout}, \
                    {charge.processing} a record";
        assert_eq!(
            fill(text, &s).unwrap(),
            "100 in 2 s, 20 at once, 50 reserved, 10 s, 0.25 s a record"
        );
        let text = "{plain.batchSize}, {plain.maximumConcurrency}, {plain.reservedConcurrency}, \
                    {plain.timeout}, {plain.processing}";
        assert_eq!(
            fill(text, &s).unwrap(),
            "10, no maximum, no reserved concurrency, 3 s, 0.1 s to 0.2 s"
        );
    }

    #[test]
    fn a_functions_unknown_property_is_refused_naming_the_ones_it_has() {
        let e = fill("{charge.memory}", &with_functions()).unwrap_err();
        assert_eq!(
            e,
            "{charge.memory}: a function has no property \"memory\" (it has batchSize, \
             batchingWindow, maximumConcurrency, reservedConcurrency, timeout, processing)"
        );
    }

    #[test]
    fn a_functions_maximum_concurrency_is_a_count_and_without_one_matches_nothing() {
        let s = with_functions();
        let count = |c: &str| Count::Setting(c.into());
        assert_eq!(
            check_count(&count("{charge.maximumConcurrency}"), &s),
            Ok(())
        );
        assert_eq!(
            counted_value(&count("{charge.maximumConcurrency}"), &s),
            Count::Number(20)
        );
        // Lambda's own bound, unnamed: the setting stays, and matches nothing.
        let none = count("{plain.maximumConcurrency}");
        assert_eq!(counted_value(&none, &s), none);
        assert!(check_count(&count("{charge.timeout}"), &s)
            .unwrap_err()
            .contains("is not a count"));
    }
}
