//! What the S3 API does to one bucket (`s3/service.rs` finds the bucket
//! and answers): a notification configuration saved (its test events
//! carried out by the run at once, their answers deciding), objects put
//! with content, read, listed and deleted, each put or delete telling
//! the queues that want it, as the scenario's own operations do.

use std::sync::Arc;

use queuelab_engine::Millis;

use super::{BucketActor, Deliveries, Status};
use crate::actors::Command;
use crate::log::SimEvent;
use crate::s3::{ObjectEvent, QueueConfiguration, Stored, RECENT_KEYS};

impl BucketActor {
    pub(crate) fn bucket_name(&self) -> &Arc<str> {
        &self.name
    }

    /// The epoch time of virtual moment `now`, as the bucket's events tell it.
    fn at(&mut self, now: Millis) {
        self.moment.epoch_ms = self.start_epoch_ms.saturating_add(now);
        self.configured_at = self.configured_at.min(now);
    }

    /// PutBucketNotificationConfiguration: the new configuration replaces
    /// the old, and its test events go out now (none for an empty one).
    pub(crate) fn configure_now(
        &mut self,
        now: Millis,
        configurations: Vec<QueueConfiguration>,
    ) -> Vec<Command> {
        self.at(now);
        self.deliveries = configurations
            .iter()
            .map(|_| Deliveries::default())
            .collect();
        self.configurations = configurations;
        self.refused_test = None;
        let mut out = self.configure();
        if self.awaiting.is_empty() {
            out.push(Command::Log(self.verdict()));
        }
        out
    }

    /// S3's words for the configuration last saved, if S3 refused it.
    pub(crate) fn configuration_refusal(&self) -> Option<&str> {
        match &self.status {
            Status::Failed(words) => Some(words),
            _ => None,
        }
    }

    /// PutObject of `key` with `body`, now: its eTag, and its notifications.
    pub(crate) fn put_now(
        &mut self,
        now: Millis,
        key: &str,
        body: String,
    ) -> (String, Vec<Command>) {
        self.at(now);
        let event = self.bucket.put_content(key, body, self.moment.epoch_ms);
        self.puts += 1;
        self.recent.push(key.to_string());
        if self.recent.len() > RECENT_KEYS {
            self.recent.remove(0);
        }
        let e_tag = event
            .object
            .as_ref()
            .map_or(String::new(), |(_, e)| e.clone());
        (e_tag, self.changed(&event))
    }

    /// DeleteObject of `key`, now: S3 answers the same whether or not it
    /// was there, and tells of the removal either way.
    pub(crate) fn delete_now(&mut self, now: Millis, key: &str) -> Vec<Command> {
        self.at(now);
        let event = self.bucket.delete(key, self.moment.epoch_ms);
        self.deletes += 1;
        self.changed(&event)
    }

    /// The object change logged, then the notifications it makes.
    fn changed(&mut self, event: &ObjectEvent) -> Vec<Command> {
        let mut out = vec![Command::Log(SimEvent::BucketObjectChanged {
            bucket: self.name.clone(),
            event_name: event.event.event_name(),
            key: event.key.clone(),
            size_bytes: event.object.as_ref().map(|(size, _)| *size),
        })];
        out.extend(self.notify(event));
        out
    }

    pub(crate) fn object(&self, key: &str) -> Option<&Stored> {
        self.bucket.get(key)
    }

    pub(crate) fn objects<'a>(
        &'a self,
        prefix: &'a str,
        after: &'a str,
    ) -> impl Iterator<Item = (&'a String, &'a Stored)> + 'a {
        self.bucket.list(prefix, after)
    }

    pub(crate) fn object_count(&self) -> usize {
        self.bucket.object_count()
    }

    pub(crate) fn content_bytes(&self) -> usize {
        self.bucket.content_bytes()
    }
}

/// A bucket CreateBucket makes: no configuration, no objects; it tells
/// no queue of anything until a configuration is saved.
pub(crate) fn created(name: &str, config: &queuelab_engine::Config) -> BucketActor {
    let spec = crate::document::Bucket {
        name: name.to_string(),
        configured_at_ms: 0,
        notifications: Vec::new(),
        objects: Vec::new(),
    };
    let no_queues = |_: &str, _: &str| -> queuelab_engine::SqsResult<String> {
        unreachable!("a bucket without notifications names no queue")
    };
    let mut bucket = BucketActor::new(&spec, &no_queues, config)
        .expect("a bucket without notifications names no queue");
    bucket.status = Status::Valid;
    bucket
}
