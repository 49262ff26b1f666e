//! The S3 API over the run's buckets: `Simulation::s3` answers one call,
//! finding a bucket by name among the actors, making new ones, and
//! carrying a configuration's test events and an object's notifications
//! out at once, as the scenario's own are. Only the buckets' own account
//! calls it: bucket policies are not modelled (docs/fidelity.md).

use queuelab_engine::Principal;

use super::api::{
    required, ListObjects, Listed, Listing, Object, PutNotification, PutObject, S3Answer, S3Call,
    S3Error, MAX_BUCKETS_MADE, MAX_CONTENT_BYTES, MAX_OBJECTS_HELD, MAX_OBJECT_BYTES,
};
use super::event::iso8601;
use super::notification::{ambiguous_pair, AMBIGUOUS};
use super::{names, EventType, KeyFilter, QueueConfiguration};
use crate::actors::BucketActor;
use crate::Simulation;

/// S3's longest key: 1,024 bytes.
const MAX_KEY_BYTES: usize = 1024;

/// ListObjectsV2's default and largest page.
const MAX_KEYS: u64 = 1000;

impl Simulation {
    /// One call of the S3 API as `by`.
    pub fn s3(&mut self, call: S3Call, by: &Principal) -> Result<S3Answer, S3Error> {
        let own = &self.engine.config().account_id;
        if !self.is_own_account(by) {
            return Err(S3Error::new(
                "AccessDenied",
                403,
                format!("Access Denied (Queuelab's buckets take calls from their own account, {own}, only)"),
            ));
        }
        self.s3_requests.count(&call);
        match call {
            S3Call::CreateBucket(c) => self.create_bucket(required(&c.bucket, "Bucket")?),
            S3Call::PutBucketNotificationConfiguration(c) => self.put_notification(&c),
            S3Call::PutObject(c) => self.put_object(&c),
            S3Call::GetObject(c) => {
                let index = self.find_bucket(&c.bucket)?;
                let key = required(&c.key, "Key")?;
                let stored = (self.bucket_at(index).object(key).cloned()).ok_or_else(|| {
                    S3Error::new("NoSuchKey", 404, "The specified key does not exist.")
                })?;
                let Some(body) = stored.body else {
                    return Err(S3Error::new(
                        "InvalidObjectState",
                        403,
                        format!(
                            "The scenario put this object with a size ({} bytes) and no content, \
                             so there are no bytes to return; objects put with PutObject come \
                             back whole",
                            stored.size
                        ),
                    ));
                };
                Ok(S3Answer::Object(Object {
                    content_length: stored.size,
                    body,
                    content_type: "binary/octet-stream".into(),
                    e_tag: format!("\"{}\"", stored.e_tag),
                    last_modified: iso8601(stored.modified_epoch_ms),
                }))
            }
            S3Call::DeleteObject(c) => {
                let index = self.find_bucket(&c.bucket)?;
                let key = required(&c.key, "Key")?.to_string();
                let now = self.now();
                let commands = self.bucket_at(index).delete_now(now, &key);
                self.execute(index, commands, now);
                Ok(S3Answer::Empty {})
            }
            S3Call::ListObjectsV2(c) => self.list_objects(&c),
        }
    }

    fn bucket_indexes(&mut self) -> Vec<usize> {
        (0..self.actors.len())
            .filter(|&i| self.actors[i].bucket().is_some())
            .collect()
    }

    fn bucket_at(&mut self, index: usize) -> &mut BucketActor {
        self.actors[index]
            .bucket()
            .expect("a bucket index names a bucket")
    }

    fn bucket_index(&mut self, name: &str) -> Option<usize> {
        let all = self.bucket_indexes();
        all.into_iter()
            .find(|&i| &**self.bucket_at(i).bucket_name() == name)
    }

    fn find_bucket(&mut self, name: &Option<String>) -> Result<usize, S3Error> {
        let name = required(name, "Bucket")?;
        self.bucket_index(name).ok_or_else(S3Error::no_such_bucket)
    }

    fn create_bucket(&mut self, name: &str) -> Result<S3Answer, S3Error> {
        if let Some(rule) = names::broken_rule(name) {
            return Err(S3Error::new(
                "InvalidBucketName",
                400,
                format!("The specified bucket is not valid: a bucket name needs {rule}"),
            ));
        }
        let location = format!("/{name}");
        if self.bucket_index(name).is_some() {
            // us-east-1 answers an owner's second CreateBucket with 200 (S3's legacy); other regions refuse it.
            return match self.engine.config().region.as_str() {
                "us-east-1" => Ok(S3Answer::Created { location }),
                _ => Err(S3Error::new(
                    "BucketAlreadyOwnedByYou",
                    409,
                    "Your previous request to create the named bucket succeeded and you already own it.",
                )),
            };
        }
        if self.bucket_indexes().len() >= self.scenario.buckets.len() + MAX_BUCKETS_MADE {
            return Err(S3Error::new(
                "TooManyBuckets",
                400,
                format!("You have attempted to create more buckets than allowed: Queuelab makes at most {MAX_BUCKETS_MADE} over a run"),
            ));
        }
        let bucket = crate::actors::created_bucket(name, self.engine.config());
        self.actors.push(Box::new(bucket));
        Ok(S3Answer::Created { location })
    }

    fn put_notification(&mut self, c: &PutNotification) -> Result<S3Answer, S3Error> {
        let index = self.find_bucket(&c.bucket)?;
        let configuration = (c.notification_configuration.as_ref())
            .ok_or_else(|| S3Error::missing("NotificationConfiguration"))?;
        if configuration.other_destinations {
            return Err(S3Error::new(
                "InvalidArgument",
                400,
                "Queuelab's buckets notify SQS queues (QueueConfigurations); topic, Lambda and \
                 EventBridge destinations are not simulated",
            ));
        }
        let mut rules = Vec::new();
        for (j, q) in configuration.queue_configurations.iter().enumerate() {
            let arn = required(&q.queue_arn, "QueueArn")?;
            let (queue, queue_url) = queue_of(arn)?;
            let mut events = Vec::new();
            for name in &q.events {
                events.push(EventType::parse(name).ok_or_else(|| {
                    S3Error::new(
                        "InvalidArgument",
                        400,
                        format!("The event is not supported for notifications: {name}"),
                    )
                })?);
            }
            if events.is_empty() {
                return Err(S3Error::missing("Events"));
            }
            rules.push(QueueConfiguration {
                id: q
                    .id
                    .clone()
                    .unwrap_or_else(|| format!("notification-{}", j + 1)),
                queue: queue.into(),
                queue_url,
                events,
                filter: key_filter(q)?,
            });
        }
        let pairs: Vec<_> = rules.iter().map(|r| (&r.events[..], &r.filter)).collect();
        if ambiguous_pair(&pairs).is_some() {
            return Err(S3Error::new("InvalidArgument", 400, AMBIGUOUS));
        }
        let now = self.now();
        let commands = self.bucket_at(index).configure_now(now, rules);
        self.execute(index, commands, now);
        match self.bucket_at(index).configuration_refusal() {
            None => Ok(S3Answer::Empty {}),
            Some(words) => {
                let message = words.strip_prefix("InvalidArgument: ").unwrap_or(words);
                Err(S3Error::new("InvalidArgument", 400, message.to_string()))
            }
        }
    }

    fn put_object(&mut self, c: &PutObject) -> Result<S3Answer, S3Error> {
        let index = self.find_bucket(&c.bucket)?;
        let key = required(&c.key, "Key")?.to_string();
        if key.len() > MAX_KEY_BYTES {
            return Err(S3Error::new("KeyTooLongError", 400, "Your key is too long"));
        }
        let body = c.body.clone().unwrap_or_default();
        if body.len() > MAX_OBJECT_BYTES {
            return Err(S3Error::new(
                "EntityTooLarge",
                400,
                format!(
                    "Your proposed upload exceeds the maximum allowed size: Queuelab keeps objects \
                     of up to {MAX_OBJECT_BYTES} bytes (1 MiB), and this one is {} bytes",
                    body.len()
                ),
            ));
        }
        let held: usize = (self.bucket_indexes().into_iter())
            .map(|i| self.bucket_at(i).content_bytes())
            .sum();
        if held.saturating_add(body.len()) > MAX_CONTENT_BYTES {
            return Err(S3Error::new(
                "EntityTooLarge",
                400,
                format!(
                    "Your proposed upload exceeds the maximum allowed size: a run's objects hold \
                     at most {MAX_CONTENT_BYTES} bytes (16 MiB) of content, and {held} are held; \
                     delete some objects first"
                ),
            ));
        }
        let is_new = self.bucket_at(index).object(&key).is_none();
        let objects: usize = (self.bucket_indexes().into_iter())
            .map(|i| self.bucket_at(i).object_count())
            .sum();
        if is_new && objects >= MAX_OBJECTS_HELD {
            return Err(S3Error::new(
                "InvalidRequest",
                400,
                format!(
                    "A run's buckets hold at most {MAX_OBJECTS_HELD} objects (Queuelab's bound), \
                     and they hold {objects}: delete some objects first"
                ),
            ));
        }
        let now = self.now();
        let (e_tag, commands) = self.bucket_at(index).put_now(now, &key, body);
        self.execute(index, commands, now);
        Ok(S3Answer::Put {
            e_tag: format!("\"{e_tag}\""),
        })
    }

    fn list_objects(&mut self, c: &ListObjects) -> Result<S3Answer, S3Error> {
        let index = self.find_bucket(&c.bucket)?;
        let name = self.bucket_at(index).bucket_name().to_string();
        let max_keys = match c.max_keys {
            None => MAX_KEYS,
            Some(n) if (0..=MAX_KEYS as i64).contains(&n) => n as u64,
            Some(_) => {
                return Err(S3Error::new(
                    "InvalidArgument",
                    400,
                    "MaxKeys is 0 to 1,000 (S3 returns at most 1,000 keys a page)",
                ))
            }
        };
        let prefix = c.prefix.clone().unwrap_or_default();
        let after = (c.continuation_token.as_ref())
            .or(c.start_after.as_ref())
            .cloned()
            .unwrap_or_default();
        let bucket = self.bucket_at(index);
        let mut found = bucket.objects(&prefix, &after);
        let mut contents = Vec::new();
        for (key, stored) in found.by_ref().take(max_keys as usize) {
            contents.push(Listing {
                key: key.clone(),
                size: stored.size,
                e_tag: format!("\"{}\"", stored.e_tag),
                last_modified: iso8601(stored.modified_epoch_ms),
                storage_class: "STANDARD",
            });
        }
        let is_truncated = found.next().is_some();
        drop(found);
        let next_continuation_token = (is_truncated)
            .then(|| contents.last().map(|l| l.key.clone()))
            .flatten();
        Ok(S3Answer::Listed(Listed {
            name,
            prefix: prefix.clone(),
            max_keys,
            key_count: contents.len() as u64,
            is_truncated,
            contents,
            next_continuation_token,
        }))
    }
}

/// The queue an SQS ARN names, and its URL, or S3's refusal.
fn queue_of(arn: &str) -> Result<(&str, String), S3Error> {
    crate::queue_of_arn(arn).ok_or_else(|| {
        S3Error::new(
            "InvalidArgument",
            400,
            format!("The ARN is not well formed: \"{arn}\" (a queue's ARN is arn:aws:sqs:<region>:<account>:<name>)"),
        )
    })
}

/// A queue configuration's key filter: at most one prefix and one suffix rule.
fn key_filter(q: &super::api::QueueConfigurationInput) -> Result<KeyFilter, S3Error> {
    let mut filter = KeyFilter::default();
    let rules = (q.filter.as_ref()).and_then(|f| f.key.as_ref());
    for rule in rules.map_or(&[][..], |k| &k.filter_rules[..]) {
        let name = rule.name.as_deref().unwrap_or("").to_ascii_lowercase();
        let value = rule.value.clone().unwrap_or_default();
        let slot = match name.as_str() {
            "prefix" => &mut filter.prefix,
            "suffix" => &mut filter.suffix,
            _ => {
                return Err(S3Error::new(
                    "InvalidArgument",
                    400,
                    "filter rule name must be either prefix or suffix",
                ))
            }
        };
        if !slot.is_empty() {
            return Err(S3Error::new(
                "InvalidArgument",
                400,
                "Cannot specify more than one prefix rule in a filter.",
            ));
        }
        *slot = value;
    }
    Ok(filter)
}
