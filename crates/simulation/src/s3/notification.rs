//! A bucket's notification configuration, as S3 reads it: the event types
//! a queue configuration names (`s3:ObjectCreated:*`, exact names), its
//! key name filter (a prefix and a suffix), and the rule S3 refuses a
//! configuration by: two rules whose event types meet and whose prefixes
//! and suffixes both overlap ("Configuration is ambiguously defined").

use std::sync::Arc;

/// The event types a queue configuration may name here: S3's object
/// creation and removal events (S3 knows others, restores, replication,
/// lifecycle…, which nothing in a scenario causes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EventType {
    CreatedAny,
    CreatedPut,
    CreatedPost,
    CreatedCopy,
    CreatedCompleteMultipartUpload,
    RemovedAny,
    RemovedDelete,
    RemovedDeleteMarkerCreated,
}

/// Every event type with its name, as a configuration writes it.
pub(crate) const EVENT_TYPES: [(&str, EventType); 8] = [
    ("s3:ObjectCreated:*", EventType::CreatedAny),
    ("s3:ObjectCreated:Put", EventType::CreatedPut),
    ("s3:ObjectCreated:Post", EventType::CreatedPost),
    ("s3:ObjectCreated:Copy", EventType::CreatedCopy),
    (
        "s3:ObjectCreated:CompleteMultipartUpload",
        EventType::CreatedCompleteMultipartUpload,
    ),
    ("s3:ObjectRemoved:*", EventType::RemovedAny),
    ("s3:ObjectRemoved:Delete", EventType::RemovedDelete),
    (
        "s3:ObjectRemoved:DeleteMarkerCreated",
        EventType::RemovedDeleteMarkerCreated,
    ),
];

impl EventType {
    /// The type a configuration's text names, if it is one of [`EVENT_TYPES`].
    pub(crate) fn parse(name: &str) -> Option<Self> {
        EVENT_TYPES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
    }

    /// Its name in a configuration: "s3:ObjectCreated:Put".
    pub(crate) fn name(self) -> &'static str {
        EVENT_TYPES
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("", |(n, _)| n)
    }

    /// Its name in an event record (`eventName`): "ObjectCreated:Put".
    pub(crate) fn event_name(self) -> &'static str {
        self.name().trim_start_matches("s3:")
    }

    fn created(self) -> bool {
        self.name().starts_with("s3:ObjectCreated:")
    }

    fn wildcard(self) -> bool {
        matches!(self, EventType::CreatedAny | EventType::RemovedAny)
    }

    /// Whether a configuration naming `self` is told of `happened` (an
    /// exact type): the same name, or the wildcard of its family.
    pub(crate) fn covers(self, happened: EventType) -> bool {
        self == happened || (self.wildcard() && self.created() == happened.created())
    }

    /// Whether some event is covered by both (S3's "same event type").
    fn meets(self, other: EventType) -> bool {
        self.covers(other) || other.covers(self)
    }
}

/// A queue configuration: which events of which keys go to which queue.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct QueueConfiguration {
    /// Its `Id`: the record's `configurationId`.
    pub id: String,
    /// The destination queue's name and URL.
    pub queue: Arc<str>,
    pub queue_url: String,
    pub events: Vec<EventType>,
    /// The key name filter ("" where the configuration gives none).
    pub filter: KeyFilter,
}

/// A key name filter: the key starts with `prefix` and ends with `suffix`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct KeyFilter {
    pub prefix: String,
    pub suffix: String,
}

impl KeyFilter {
    pub(crate) fn matches(&self, key: &str) -> bool {
        // A key shorter than prefix and suffix together (prefix "a",
        // suffix "a", key "a") cannot carry both apart.
        key.len() >= self.prefix.len() + self.suffix.len()
            && key.starts_with(&self.prefix)
            && key.ends_with(&self.suffix)
    }

    /// Whether some key could match both: each prefix starts the other
    /// or is started by it, and so do the suffixes (S3's overlap rule).
    fn overlaps(&self, other: &KeyFilter) -> bool {
        let prefixes =
            self.prefix.starts_with(&other.prefix) || other.prefix.starts_with(&self.prefix);
        let suffixes = self.suffix.ends_with(&other.suffix) || other.suffix.ends_with(&self.suffix);
        prefixes && suffixes
    }
}

impl QueueConfiguration {
    /// Whether S3 sends this configuration's queue the event `happened` on `key`.
    pub(crate) fn wants(&self, happened: EventType, key: &str) -> bool {
        self.events.iter().any(|e| e.covers(happened)) && self.filter.matches(key)
    }
}

/// S3's words refusing two rules that overlap for the same event type
/// (PutBucketNotificationConfiguration answers 400 InvalidArgument).
pub(crate) const AMBIGUOUS: &str = "Configuration is ambiguously defined. Cannot have overlapping \
                                    suffixes in two rules if the prefixes are overlapping for the \
                                    same event type.";

/// The first two rules (by their places) S3 would refuse together: their
/// event types meet and their filters overlap.
pub(crate) fn ambiguous_pair(rules: &[(&[EventType], &KeyFilter)]) -> Option<(usize, usize)> {
    for (j, (events_j, filter_j)) in rules.iter().enumerate() {
        for (i, (events_i, filter_i)) in rules[..j].iter().enumerate() {
            let meet = events_i
                .iter()
                .any(|a| events_j.iter().any(|b| a.meets(*b)));
            if meet && filter_i.overlaps(filter_j) {
                return Some((i, j));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(prefix: &str, suffix: &str) -> KeyFilter {
        KeyFilter {
            prefix: prefix.into(),
            suffix: suffix.into(),
        }
    }

    #[test]
    fn a_wildcard_covers_its_family_only() {
        assert!(EventType::CreatedAny.covers(EventType::CreatedPut));
        assert!(!EventType::CreatedAny.covers(EventType::RemovedDelete));
        assert!(!EventType::CreatedPost.covers(EventType::CreatedPut));
        assert_eq!(EventType::CreatedPut.event_name(), "ObjectCreated:Put");
    }

    #[test]
    fn filters_overlap_when_both_prefixes_and_suffixes_overlap() {
        let put = [EventType::CreatedPut];
        let any = [EventType::CreatedAny];
        let removed = [EventType::RemovedAny];
        let (images, images_jpg) = (filter("images/", ""), filter("images/thumbs/", ".jpg"));
        let pair = |a: &[EventType], fa: &KeyFilter, b: &[EventType], fb: &KeyFilter| {
            ambiguous_pair(&[(a, fa), (b, fb)])
        };
        assert_eq!(pair(&put, &images, &any, &images_jpg), Some((0, 1)));
        assert_eq!(pair(&put, &images, &removed, &images_jpg), None);
        let (jpg, png) = (filter("images/", ".jpg"), filter("images/", ".png"));
        assert_eq!(pair(&any, &jpg, &any, &png), None);
        let (a, b) = (filter("a/", ""), filter("b/", ""));
        assert_eq!(pair(&any, &a, &any, &b), None);
    }
}
