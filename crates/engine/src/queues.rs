//! Queue management: create, look up, list, delete, attributes, purge, tags.

use std::sync::Arc;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use crate::error::{ErrorCode, SqsError, SqsResult};
use crate::events::EventKind;
use crate::queue::Queue;
use crate::settings::{
    unknown_attribute, AttributeName, QueueAttribute, RedrivePermission, RedrivePolicy, Settings,
};
use crate::{validate, AttributeSelection, Engine, ListQueuesResult, Millis, Principal, Tags};

const QUEUE_REUSE_DELAY_MS: Millis = 60_000;
const PURGE_INTERVAL_MS: Millis = 60_000;
const MAX_TAGS: usize = 50;

impl Engine {
    pub(crate) fn create_queue_as(
        &mut self,
        name: &str,
        attributes: &[QueueAttribute],
        tags: &Tags,
        _by: &Principal,
    ) -> SqsResult<String> {
        validate::queue_name(name)?;
        let fifo = name.ends_with(".fifo");
        let asked_fifo = attributes.iter().find_map(|a| match a {
            QueueAttribute::FifoQueue(v) => Some(*v),
            _ => None,
        });
        match (fifo, asked_fifo) {
            (true, Some(true)) | (false, None) => {}
            (false, Some(false)) => return Err(unknown_attribute("FifoQueue")),
            _ => return Err(SqsError::invalid_parameter(
                "The name of a FIFO queue can only include alphanumeric characters, hyphens, or \
                     underscores, must end with .fifo suffix and be 1 to 80 in length.",
            )),
        }
        let mut settings = Settings::default();
        self.apply_attributes(name, fifo, &mut settings, attributes)?;
        check_tags(name, tags, 0)?;

        if let Some(&id) = self.by_name.get(name) {
            let existing = &self.queue(id).settings;
            let mut wanted = existing.clone();
            for attribute in attributes {
                wanted.apply(attribute)?;
                if wanted != *existing {
                    return Err(SqsError::new(
                        ErrorCode::QueueAlreadyExists,
                        format!(
                            "A queue already exists with the same name and a different value for attribute {}",
                            attribute.name().as_str()
                        ),
                    ));
                }
            }
            // Tags given must be the queue's tags (seen against AWS; the
            // text is ours, see docs/fidelity.md).
            if !tags.is_empty() && *tags != self.queue(id).tags {
                return Err(SqsError::new(
                    ErrorCode::QueueAlreadyExists,
                    "A queue already exists with the same name and different tags",
                ));
            }
            return Ok(self.queue(id).url.to_string());
        }
        if let Some(deleted_at) = self.recently_deleted.get(name) {
            if self.now < deleted_at + QUEUE_REUSE_DELAY_MS {
                return Err(SqsError::new(
                    ErrorCode::QueueDeletedRecently,
                    "You must wait 60 seconds after deleting a queue before you can create another \
                     with the same name.",
                ));
            }
        }

        if self.queues.len() >= self.config.max_queues {
            return Err(SqsError::new(
                ErrorCode::OverLimit,
                format!(
                    "This playground already has {} {}, its budget (maxQueues). Delete a \
                     queue, or raise the maxQueues option.",
                    self.queues.len(),
                    if self.queues.len() == 1 {
                        "queue"
                    } else {
                        "queues"
                    }
                ),
            ));
        }
        let id = self.next_queue_id;
        self.next_queue_id += 1;
        let name: Arc<str> = name.into();
        let mut queue = Queue::new(
            id,
            name.clone(),
            self.queue_arn(&name).into(),
            self.queue_url_for(&name).into(),
            fifo,
            self.now,
            self.storage.clone(),
        );
        queue.settings = settings;
        queue.tags = tags.clone();
        let url = queue.url.to_string();
        self.queues.insert(id, queue);
        self.by_name.insert(name.clone(), id);
        self.emit(EventKind::QueueCreated { queue: name, fifo });
        Ok(url)
    }

    /// Validates and applies attributes for a queue named `name`, including
    /// the rules that involve other queues (redrive targets).
    fn apply_attributes(
        &self,
        name: &str,
        fifo: bool,
        settings: &mut Settings,
        attributes: &[QueueAttribute],
    ) -> SqsResult<()> {
        for attribute in attributes {
            let attr_name = attribute.name();
            if attr_name.read_only() {
                return Err(unknown_attribute(attr_name.as_str()));
            }
            if !fifo && attr_name.fifo_only() {
                return Err(match attr_name {
                    AttributeName::DeduplicationScope | AttributeName::FifoThroughputLimit => {
                        SqsError::new(
                            ErrorCode::InvalidAttributeName,
                            format!(
                                "You can specify the {} only when FifoQueue is set to true.",
                                attr_name.as_str()
                            ),
                        )
                    }
                    _ => unknown_attribute(attr_name.as_str()),
                });
            }
            if let QueueAttribute::RedrivePolicy(Some(policy)) = attribute {
                self.check_dead_letter_target(name, fifo, policy)?;
            }
            settings.apply(attribute)?;
        }
        let kms = attributes
            .iter()
            .any(|a| matches!(a, QueueAttribute::KmsMasterKeyId(k) if !k.is_empty()));
        let sse = attributes
            .iter()
            .any(|a| matches!(a, QueueAttribute::SqsManagedSseEnabled(true)));
        if kms && sse {
            return Err(SqsError::new(
                ErrorCode::InvalidAttributeName,
                "You can use one type of server-side encryption (SSE) at one time. You can either \
                 enable KMS SSE or SQS SSE.",
            ));
        }
        check_high_throughput(settings)
    }

    fn check_dead_letter_target(
        &self,
        source: &str,
        fifo: bool,
        policy: &RedrivePolicy,
    ) -> SqsResult<()> {
        let arn = &policy.dead_letter_target_arn;
        if !arn.starts_with("arn:aws:sqs:") || arn.split(':').count() != 6 {
            return Err(policy.refused("Invalid value for deadLetterTargetArn."));
        }
        // A DLQ must be in the source's account (Developer Guide); the
        // text is the one an emulator copied from AWS's answers.
        if arn.split(':').nth(4) != Some(self.config.account_id.as_str()) {
            return Err(policy.refused("Dead-letter target owner should be same as the source."));
        }
        let target = self
            .resolve_arn(arn)
            .map(|id| self.queue(id))
            .ok_or_else(|| policy.refused("Dead letter target does not exist."))?;
        // A target that is the queue itself, or a chain that leads back
        // here, is accepted, as AWS accepts it; delivery never moves a
        // message to the queue it is in (see `move_if_exhausted`), and the
        // delivery loop ends any cycle (delivery.rs).
        if target.fifo != fifo {
            // Two periods: AWS's text.
            return Err(
                policy.refused("Dead-letter queue must be same type of queue as the source..")
            );
        }
        if let Some(allow) = &target.settings.redrive_allow_policy {
            let source_arn = self.queue_arn(source);
            let allowed = match allow.permission {
                RedrivePermission::AllowAll => true,
                RedrivePermission::DenyAll => false,
                RedrivePermission::ByQueue => allow.source_queue_arns.contains(&source_arn),
            };
            if !allowed {
                return Err(policy.refused(&format!(
                    "Queue {} does not allow {source_arn} as a dead-letter source (its \
                     RedriveAllowPolicy is {}).",
                    target.arn,
                    allow.permission.as_str()
                )));
            }
        }
        Ok(())
    }

    pub(crate) fn get_queue_url_as(
        &self,
        name: &str,
        owner: Option<&str>,
        _by: &Principal,
    ) -> SqsResult<String> {
        if owner.is_some_and(|o| o != self.config.account_id) {
            return Err(SqsError::no_queue());
        }
        let id = self.by_name.get(name).ok_or_else(SqsError::no_queue)?;
        Ok(self.queue(*id).url.to_string())
    }

    pub(crate) fn list_queues_as(
        &self,
        prefix: Option<&str>,
        max_results: Option<i64>,
        next_token: Option<&str>,
        by: &Principal,
    ) -> SqsResult<ListQueuesResult> {
        let prefix = prefix.unwrap_or("");
        // Another account lists its own queues: it has none here.
        let mine = self.is_owner(by);
        let names = self
            .by_name
            .range::<str, _>((
                std::ops::Bound::Included(prefix),
                std::ops::Bound::Unbounded,
            ))
            .take_while(|(n, _)| mine && n.starts_with(prefix))
            .map(|(_, id)| self.queue(*id));
        page(names, max_results, next_token)
    }

    pub(crate) fn list_dead_letter_source_queues_as(
        &self,
        queue_url: &str,
        max_results: Option<i64>,
        next_token: Option<&str>,
        _by: &Principal,
    ) -> SqsResult<ListQueuesResult> {
        let target = self.queue(self.resolve(queue_url)?).arn.clone();
        let sources = self.by_name.values().map(|id| self.queue(*id)).filter(|q| {
            q.settings
                .redrive_policy
                .as_ref()
                .is_some_and(|p| *p.dead_letter_target_arn == *target)
        });
        page(sources, max_results, next_token)
    }

    pub(crate) fn delete_queue_as(&mut self, queue_url: &str, _by: &Principal) -> SqsResult<()> {
        let id = self.resolve(queue_url)?;
        let Some(queue) = self.queues.remove(&id) else {
            return Err(SqsError::no_queue());
        };
        self.by_name.remove(&queue.name);
        self.recently_deleted
            .insert(queue.name.to_string(), self.now);
        self.emit(EventKind::QueueDeleted {
            queue: queue.name.clone(),
        });
        self.fail_polls_on(id);
        self.fail_tasks_on(&queue.arn);
        Ok(())
    }

    pub(crate) fn get_queue_attributes_as(
        &self,
        queue_url: &str,
        selection: &AttributeSelection,
        _by: &Principal,
    ) -> SqsResult<Vec<QueueAttribute>> {
        let queue = self.queue(self.resolve(queue_url)?);
        let names: Vec<AttributeName> = match selection {
            AttributeSelection::All => AttributeName::ALL.to_vec(),
            AttributeSelection::Names(names) => names.clone(),
        };
        Ok(names
            .into_iter()
            .filter_map(|name| self.attribute_value(queue, name))
            .collect())
    }

    /// The value of one attribute, or `None` where it does not apply or is unset.
    fn attribute_value(&self, q: &Queue, name: AttributeName) -> Option<QueueAttribute> {
        use AttributeName as N;
        use QueueAttribute as A;
        let s = &q.settings;
        let seconds = |at: Millis| self.epoch_ms(at) / 1000;
        if name.fifo_only() && !q.fifo {
            return None;
        }
        Some(match name {
            N::ApproximateNumberOfMessages => {
                A::ApproximateNumberOfMessages(q.count_visible() as u64)
            }
            N::ApproximateNumberOfMessagesDelayed => {
                A::ApproximateNumberOfMessagesDelayed(q.count_delayed() as u64)
            }
            N::ApproximateNumberOfMessagesNotVisible => {
                A::ApproximateNumberOfMessagesNotVisible(q.count_in_flight() as u64)
            }
            N::CreatedTimestamp => A::CreatedTimestamp(seconds(q.created_at)),
            N::LastModifiedTimestamp => A::LastModifiedTimestamp(seconds(q.modified_at)),
            N::QueueArn => A::QueueArn(q.arn.to_string()),
            N::DelaySeconds => A::DelaySeconds(s.delay_seconds.into()),
            N::MaximumMessageSize => A::MaximumMessageSize(s.maximum_message_size.into()),
            N::MessageRetentionPeriod => {
                A::MessageRetentionPeriod(s.message_retention_period.into())
            }
            N::ReceiveMessageWaitTimeSeconds => {
                A::ReceiveMessageWaitTimeSeconds(s.receive_wait_seconds.into())
            }
            N::VisibilityTimeout => A::VisibilityTimeout(s.visibility_timeout.into()),
            N::SqsManagedSseEnabled => A::SqsManagedSseEnabled(s.sqs_managed_sse),
            N::RedrivePolicy => A::RedrivePolicy(Some(s.redrive_policy.clone()?)),
            N::RedriveAllowPolicy => A::RedriveAllowPolicy(Some(s.redrive_allow_policy.clone()?)),
            N::Policy => A::Policy(Some(s.policy.clone()?)),
            N::KmsMasterKeyId => A::KmsMasterKeyId(s.kms_master_key_id.clone()?),
            // Listed only beside a key: with the key reset to "", AWS lists
            // neither (recorded).
            N::KmsDataKeyReusePeriodSeconds => {
                s.kms_master_key_id.as_ref()?;
                let seconds = s.kms_data_key_reuse_period;
                A::KmsDataKeyReusePeriodSeconds(
                    seconds
                        .unwrap_or(crate::DEFAULT_DATA_KEY_REUSE_SECONDS)
                        .into(),
                )
            }
            N::FifoQueue => A::FifoQueue(true),
            N::ContentBasedDeduplication => {
                A::ContentBasedDeduplication(s.content_based_deduplication)
            }
            N::DeduplicationScope => A::DeduplicationScope(s.deduplication_scope),
            N::FifoThroughputLimit => A::FifoThroughputLimit(s.fifo_throughput_limit),
        })
    }

    /// SetQueueAttributes. No attributes at all is a missing parameter
    /// (before the queue is looked up), as SQS answers an empty map.
    pub(crate) fn set_queue_attributes_as(
        &mut self,
        queue_url: &str,
        attributes: &[QueueAttribute],
        _by: &Principal,
    ) -> SqsResult<()> {
        if attributes.is_empty() {
            return Err(SqsError::missing("Attributes"));
        }
        let id = self.resolve(queue_url)?;
        let queue = self.queue(id);
        for attribute in attributes {
            match attribute {
                // Tools write back the whole map they read: a FIFO queue's
                // own "true" is accepted and changes nothing.
                QueueAttribute::FifoQueue(true) if queue.fifo => {}
                QueueAttribute::FifoQueue(_) if queue.fifo => {
                    return Err(SqsError::new(
                        ErrorCode::InvalidAttributeValue,
                        "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.",
                    ))
                }
                QueueAttribute::FifoQueue(_) => return Err(unknown_attribute("FifoQueue")),
                _ => {}
            }
        }
        let mut settings = queue.settings.clone();
        self.apply_attributes(&queue.name.clone(), queue.fifo, &mut settings, attributes)?;
        let now = self.now;
        let mut queue = self.queue_mut(id);
        queue.settings = settings;
        queue.modified_at = now;
        drop(queue);
        // A lowered MessageRetentionPeriod can leave messages already past
        // it: they expire now, before any receive could deliver them.
        self.settle();
        Ok(())
    }

    pub(crate) fn purge_queue_as(&mut self, queue_url: &str, _by: &Principal) -> SqsResult<()> {
        let id = self.resolve(queue_url)?;
        let now = self.now;
        let Some(mut queue) = self.queues.get_mut(&id) else {
            return Err(SqsError::no_queue());
        };
        if queue
            .last_purge
            .is_some_and(|at| now < at + PURGE_INTERVAL_MS)
        {
            return Err(SqsError::new(
                ErrorCode::PurgeQueueInProgress,
                format!(
                    "Only one PurgeQueue operation on {} is allowed every 60 seconds.",
                    queue.name
                ),
            ));
        }
        queue.last_purge = Some(now);
        // Recorded against AWS: a purge clears the deduplication window too,
        // and with it the receive attempts it could replay.
        queue.dedup = crate::dedup::Dedup::default();
        queue.attempts = crate::attempts::Attempts::default();
        let keys: Vec<u64> = queue.messages().map(|(k, _)| k).collect();
        let count = keys.len() as u64;
        for key in keys {
            if let Some((message, lock)) = queue.remove(key) {
                let event = EventKind::Purged {
                    queue: queue.name.clone(),
                    message_id: message.id,
                };
                lock.log_after(event, &mut self.log, now);
            }
        }
        let name = queue.name.clone();
        drop(queue);
        self.emit(EventKind::QueuePurged { queue: name, count });
        Ok(())
    }

    /// TagQueue. No tags at all is a missing parameter (before the queue
    /// is looked up), as SQS answers an empty map.
    pub(crate) fn tag_queue_as(
        &mut self,
        queue_url: &str,
        tags: &Tags,
        _by: &Principal,
    ) -> SqsResult<()> {
        if tags.is_empty() {
            return Err(SqsError::missing("Tags"));
        }
        let id = self.resolve(queue_url)?;
        let mut queue = self.queue_mut(id);
        let added = tags.keys().filter(|k| !queue.tags.contains_key(*k)).count();
        check_tags(&queue.name, tags, queue.tags.len() + added - tags.len())?;
        queue.tags.extend(tags.clone());
        Ok(())
    }

    pub(crate) fn untag_queue_as(
        &mut self,
        queue_url: &str,
        keys: &[String],
        _by: &Principal,
    ) -> SqsResult<()> {
        let id = self.resolve(queue_url)?;
        // AWS's text, for an empty list too (recorded).
        if keys.is_empty() || keys.iter().any(|k| k.is_empty() || k.chars().count() > 128) {
            return Err(SqsError::invalid_parameter(
                "Tag keys must be between 1 and 128 characters in length.",
            ));
        }
        let mut queue = self.queue_mut(id);
        for key in keys {
            queue.tags.remove(key);
        }
        Ok(())
    }

    pub(crate) fn list_queue_tags_as(&self, queue_url: &str, _by: &Principal) -> SqsResult<Tags> {
        Ok(self.queue(self.resolve(queue_url)?).tags.clone())
    }
}

/// Checks tag keys and values, and that `existing` plus `tags` stays within 50.
fn check_tags(queue: &str, tags: &Tags, existing: usize) -> SqsResult<()> {
    if existing + tags.len() > MAX_TAGS {
        return Err(SqsError::invalid_parameter(format!(
            "Too many tags added for queue {queue}. A queue can have at most {MAX_TAGS} tags."
        )));
    }
    for (key, value) in tags {
        if key.is_empty()
            || key.chars().count() > 128
            || key.to_ascii_lowercase().starts_with("aws:")
        {
            return Err(SqsError::invalid_parameter(format!(
                "Tag key '{}' is invalid: keys are 1 to 128 characters and may not start with 'aws:'.",
                crate::echo(key)
            )));
        }
        if value.chars().count() > 256 {
            return Err(SqsError::invalid_parameter(format!(
                "Tag value for key '{key}' is invalid: values are at most 256 characters."
            )));
        }
    }
    Ok(())
}

/// One page of queue URLs in name order. Tokens carry the last name returned.
fn page<'a>(
    queues: impl Iterator<Item = &'a Queue>,
    max_results: Option<i64>,
    next_token: Option<&str>,
) -> SqsResult<ListQueuesResult> {
    if let Some(max) = max_results {
        if !(1..=1000).contains(&max) {
            return Err(SqsError::invalid_value(
                "MaxResults",
                max,
                "MaxResults must be an integer between 1 and 1000.",
            ));
        }
    }
    let after = match next_token {
        Some(token) => Some(
            URL_SAFE_NO_PAD
                .decode(token)
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .ok_or_else(|| SqsError::invalid_parameter("Invalid NextToken value."))?,
        ),
        None => None,
    };
    let limit = max_results.unwrap_or(1000) as usize;
    let mut rest = queues.filter(|q| after.as_deref().is_none_or(|a| *q.name > *a));
    let queue_urls: Vec<String> = rest
        .by_ref()
        .take(limit)
        .map(|q| q.url.to_string())
        .collect();
    let more = rest.next().is_some();
    let next_token = (more && max_results.is_some())
        .then(|| queue_urls.last())
        .flatten()
        .and_then(|url| url.rsplit('/').next())
        .map(|name| URL_SAFE_NO_PAD.encode(name));
    Ok(ListQueuesResult {
        queue_urls,
        next_token,
    })
}

/// High-throughput FIFO: `FifoThroughputLimit` `perMessageGroupId` works only
/// with `DeduplicationScope` `messageGroup` (the documented pairing that
/// turns it on), checked on the settings a create or set would leave.
fn check_high_throughput(settings: &Settings) -> SqsResult<()> {
    use crate::settings::{DedupScope, ThroughputLimit};
    if settings.fifo_throughput_limit == ThroughputLimit::PerMessageGroupId
        && settings.deduplication_scope != DedupScope::MessageGroup
    {
        return Err(SqsError::new(
            ErrorCode::InvalidAttributeValue,
            // The text AWS answers (recorded by cdkd against AWS, 2026-07).
            "To set FifoThroughputLimit to perMessageGroupId, the DeduplicationScope must be \
             messageGroup",
        ));
    }
    Ok(())
}
