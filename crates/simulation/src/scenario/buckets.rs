//! The checks of a scenario's buckets: S3's naming rules, queue
//! configurations S3 would save (known event types, standard queues of
//! the scenario, filters that do not overlap for the same event type, in
//! S3's words), and object operations the run can make. What S3 decides
//! at the moment the configuration is saved (whether each queue takes its
//! test event) is the run's: the log shows it.

use std::collections::BTreeSet;

use super::fields::{at_most, quoted, short_name, within, FieldError};
use crate::document::{
    Bucket, BucketNotification, ObjectOperation, Scenario, MAX_BUCKETS, MAX_BUCKET_NOTIFICATIONS,
    MAX_KEY_BYTES, MAX_OBJECT_OPERATIONS,
};
use crate::s3::notification::{ambiguous_pair, AMBIGUOUS, EVENT_TYPES};
use crate::s3::{names, EventType, KeyFilter};

impl Scenario {
    pub(super) fn validate_buckets(&self) -> Result<(), FieldError> {
        let count = self.buckets.len() as u64;
        at_most("buckets", count, MAX_BUCKETS as u64, "buckets")?;
        // The log names producers, workers, schedules and operators too.
        let mut callers: BTreeSet<String> = self.senders().map(str::to_string).collect();
        callers.extend(self.operators.iter().map(|o| o.name.clone()));
        callers.extend(self.consumers.iter().flat_map(crate::worker_names));
        let mut buckets = BTreeSet::new();
        for (i, bucket) in self.buckets.iter().enumerate() {
            let path = |field: &str| format!("buckets[{i}].{field}");
            if let Some(rule) = names::broken_rule(&bucket.name) {
                return Err(refusal(path("name"), rule, quoted(&bucket.name)));
            }
            if callers.contains(&bucket.name) || !buckets.insert(&bucket.name) {
                let rule = "a name no other bucket, producer or worker has (the log names each \
                            by it)";
                return Err(refusal(path("name"), rule.into(), quoted(&bucket.name)));
            }
            within(path("configuredAtMs"), i128::from(bucket.configured_at_ms))?;
            self.validate_notifications(i, bucket)?;
            validate_objects(i, bucket)?;
        }
        Ok(())
    }

    /// A bucket's queue configurations, as S3 saves them or refuses them.
    fn validate_notifications(&self, i: usize, bucket: &Bucket) -> Result<(), FieldError> {
        let list = format!("buckets[{i}].notifications");
        let count = bucket.notifications.len() as u64;
        at_most(
            &list,
            count,
            MAX_BUCKET_NOTIFICATIONS as u64,
            "notifications",
        )?;
        let mut ids = BTreeSet::new();
        let mut rules = Vec::new();
        for (j, n) in bucket.notifications.iter().enumerate() {
            let path = |field: &str| format!("{list}[{j}].{field}");
            if let Some(id) = &n.id {
                short_name(path("id"), id)?;
                if id.is_empty() || !ids.insert(id) {
                    let rule = "an id no other notification of the bucket has";
                    return Err(refusal(path("id"), rule.into(), quoted(id)));
                }
            }
            self.destination(&path("queue"), &n.queue)?;
            rules.push((events(&path("events"), n)?, filter(&path, n)?));
        }
        let pairs: Vec<(&[EventType], &KeyFilter)> =
            rules.iter().map(|(e, f)| (e.as_slice(), f)).collect();
        if let Some((first, second)) = ambiguous_pair(&pairs) {
            let n = &bucket.notifications[second];
            return Err(refusal(
                format!("{list}[{second}]"),
                format!(
                    "a rule whose prefix and suffix do not both overlap those of \
                     notifications[{first}] for the same event type (S3 refuses the \
                     configuration: \"{AMBIGUOUS}\")"
                ),
                describe(n),
            ));
        }
        Ok(())
    }

    /// A queue S3 may send to: one of the scenario's, and not FIFO.
    fn destination(&self, path: &str, queue: &str) -> Result<(), FieldError> {
        let Some(q) = self.queues.iter().find(|q| q.name == queue) else {
            let rule = "the name of one of the scenario's queues";
            return Err(refusal(path.into(), rule.into(), quoted(queue)));
        };
        if q.name.ends_with(".fifo") {
            let rule = "a standard queue (S3 does not send event notifications to FIFO queues)";
            return Err(refusal(path.into(), rule.into(), quoted(queue)));
        }
        Ok(())
    }
}

fn refusal(path: String, rule: String, got: String) -> FieldError {
    FieldError { path, rule, got }
}

/// A notification's event types, each one S3 sends here.
fn events(path: &str, n: &BucketNotification) -> Result<Vec<EventType>, FieldError> {
    let names: Vec<&str> = EVENT_TYPES.iter().map(|(name, _)| *name).collect();
    if n.events.is_empty() {
        let rule = format!("a list of 1 to {} of {}", names.len(), names.join(", "));
        return Err(refusal(path.into(), rule, "an empty list".into()));
    }
    at_most(path, n.events.len() as u64, names.len() as u64, "events")?;
    let mut out = Vec::new();
    for (k, name) in n.events.iter().enumerate() {
        let Some(event) = EventType::parse(name) else {
            let rule = format!(
                "one of the object creation and removal events: {}",
                names.join(", ")
            );
            return Err(refusal(format!("{path}[{k}]"), rule, quoted(name)));
        };
        out.push(event);
    }
    Ok(out)
}

/// A notification's key name filter: a prefix and a suffix of 1 to 1,024
/// bytes each, when given.
fn filter(path: &dyn Fn(&str) -> String, n: &BucketNotification) -> Result<KeyFilter, FieldError> {
    for (field, value) in [("prefix", &n.prefix), ("suffix", &n.suffix)] {
        if let Some(value) = value
            .as_ref()
            .filter(|v| v.is_empty() || v.len() > MAX_KEY_BYTES)
        {
            let rule = format!(
                "a {field} of 1 to {MAX_KEY_BYTES} bytes (leave it out to match every key)"
            );
            return Err(refusal(path(field), rule, format!("{} bytes", value.len())));
        }
    }
    Ok(KeyFilter {
        prefix: n.prefix.clone().unwrap_or_default(),
        suffix: n.suffix.clone().unwrap_or_default(),
    })
}

/// A notification in a refusal: its events and filter.
fn describe(n: &BucketNotification) -> String {
    let part = |name: &str, v: &Option<String>| match v {
        Some(v) => format!(", {name} {}", quoted(v)),
        None => String::new(),
    };
    format!(
        "events {}{}{}",
        n.events.join(", "),
        part("prefix", &n.prefix),
        part("suffix", &n.suffix)
    )
}

/// A bucket's object operations: how many, their moments, one key each.
fn validate_objects(i: usize, bucket: &Bucket) -> Result<(), FieldError> {
    let list = format!("buckets[{i}].objects");
    let count = bucket.objects.len() as u64;
    at_most(
        &list,
        count,
        MAX_OBJECT_OPERATIONS as u64,
        "object operations",
    )?;
    for (j, op) in bucket.objects.iter().enumerate() {
        let path = |field: &str| format!("{list}[{j}].{field}");
        within(path("atMs"), i128::from(op.at_ms))?;
        let (field, key) = match (&op.put, &op.delete) {
            (Some(key), None) => ("put", key),
            (None, Some(key)) => ("delete", key),
            (put, _) => {
                let got = if put.is_some() { "both" } else { "neither" };
                let rule = "an operation with one key, `put` or `delete`";
                return Err(refusal(format!("{list}[{j}]"), rule.into(), got.into()));
            }
        };
        if key.is_empty() || key.len() > MAX_KEY_BYTES {
            let rule = format!("an object key of 1 to {MAX_KEY_BYTES} bytes");
            return Err(refusal(path(field), rule, format!("{} bytes", key.len())));
        }
        match (op, op.size_bytes) {
            (ObjectOperation { put: Some(_), .. }, Some(size)) => {
                within(path("sizeBytes"), i128::from(size))?;
            }
            (
                ObjectOperation {
                    delete: Some(_), ..
                },
                Some(size),
            ) => {
                let rule = "left out of a delete (only a put object has a size)";
                return Err(refusal(path("sizeBytes"), rule.into(), size.to_string()));
            }
            _ => {}
        }
    }
    Ok(())
}
