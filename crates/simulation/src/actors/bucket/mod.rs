//! An S3 bucket of the scenario: its notification configuration is saved
//! at its moment, and each object put or deleted at its moment tells the
//! queues whose configuration wants that event of that key, with S3's
//! event JSON, sent as S3 (`s3.amazonaws.com` for the bucket's ARN and
//! the owner's account).
//!
//! Saving the configuration is S3's destination validation: it sends each
//! queue an `s3:TestEvent`, and if a queue refuses it, S3 refuses the whole
//! configuration ("Unable to validate the following destination
//! configurations") and the bucket notifies no queue. A notification a
//! queue refuses later is not retried: the event is lost, and logged.

mod api;

pub(crate) use api::created;

use std::sync::Arc;

use queuelab_engine::{Config, Millis, NewMessage, Principal, Service, SqsError, SqsResult};

use super::{Actor, Command, Outcome, Part, Reads, SendPlan, UrlOf};
use crate::document::Bucket as BucketSpec;
use crate::log::SimEvent;
use crate::s3::{self, event, EventType, KeyFilter, ObjectEvent, QueueConfiguration, RECENT_KEYS};
use crate::scenario::Scenario;
use crate::units;
use crate::{BucketSnapshot, NotificationSnapshot};

/// S3's answer to a configuration a destination refused (400).
const S3_CODE: &str = "InvalidArgument";
const S3_ERROR: &str = "Unable to validate the following destination configurations";

/// One object operation, at its moment.
enum Op {
    Put { key: String, size: u64 },
    Delete { key: String },
}

/// Where the bucket's configuration stands.
enum Status {
    /// Not saved yet: no queue is told of anything.
    Unsaved,
    /// Its test events are out; their answers decide.
    Validating,
    Valid,
    /// S3 refused it, in these words.
    Failed(String),
}

/// What a `SendAs` given and not answered yet was for.
enum Awaiting {
    Test {
        queue: Arc<str>,
    },
    Notice {
        config: usize,
        event: EventType,
        key: String,
    },
}

/// What one queue configuration's deliveries came to.
#[derive(Default)]
struct Deliveries {
    sent: u64,
    failed: u64,
    last_error: Option<String>,
}

/// The moment the bucket acts in: the queues' region and account (the
/// bucket's too), and the epoch time, set when it steps.
struct Moment {
    epoch_ms: u64,
    region: String,
    account: String,
}

pub(crate) struct BucketActor {
    name: Arc<str>,
    bucket: s3::Bucket,
    configured_at: Millis,
    configurations: Vec<QueueConfiguration>,
    status: Status,
    /// Its object operations in time order (listed order within a moment).
    ops: Vec<(Millis, Op)>,
    next: usize,
    /// In the order given (few at a time: a moment's sends).
    awaiting: Vec<Awaiting>,
    /// The first test event refused: its queue, and SQS's error.
    refused_test: Option<(Arc<str>, SqsError)>,
    /// Refusals to log once the moment's answers are in.
    to_log: Vec<SimEvent>,
    /// The engine's epoch milliseconds at virtual time 0.
    start_epoch_ms: u64,
    moment: Moment,
    deliveries: Vec<Deliveries>,
    puts: u64,
    deletes: u64,
    recent: Vec<String>,
}

pub(crate) fn build(
    scenario: &Scenario,
    url_of: UrlOf,
    config: &Config,
) -> SqsResult<Vec<Box<dyn Actor>>> {
    let mut out: Vec<Box<dyn Actor>> = Vec::new();
    for spec in &scenario.buckets {
        out.push(Box::new(BucketActor::new(spec, url_of, config)?));
    }
    Ok(out)
}

impl BucketActor {
    /// The bucket `spec` describes, its queues found by `url_of`.
    pub(crate) fn new(spec: &BucketSpec, url_of: UrlOf, config: &Config) -> SqsResult<Self> {
        let what = format!("bucket \"{}\"", spec.name);
        let mut configurations = Vec::new();
        for (j, n) in spec.notifications.iter().enumerate() {
            configurations.push(QueueConfiguration {
                id: n
                    .id
                    .clone()
                    .unwrap_or_else(|| format!("notification-{}", j + 1)),
                queue: n.queue.as_str().into(),
                queue_url: url_of(&what, &n.queue)?,
                // `Scenario::validate` refused any other name.
                events: n
                    .events
                    .iter()
                    .filter_map(|e| EventType::parse(e))
                    .collect(),
                filter: KeyFilter {
                    prefix: n.prefix.clone().unwrap_or_default(),
                    suffix: n.suffix.clone().unwrap_or_default(),
                },
            });
        }
        let mut ops: Vec<(Millis, Op)> = (spec.objects.iter())
            .filter_map(|o| {
                let op = match (&o.put, &o.delete) {
                    (Some(key), _) => Op::Put {
                        key: key.clone(),
                        size: o.size_bytes.unwrap_or(0),
                    },
                    (None, Some(key)) => Op::Delete { key: key.clone() },
                    (None, None) => return None,
                };
                Some((o.at_ms, op))
            })
            .collect();
        crate::time_order::sort_by_time(&mut ops, |(at, _)| *at);
        Ok(BucketActor {
            name: spec.name.as_str().into(),
            bucket: s3::Bucket::new(&spec.name),
            configured_at: spec.configured_at_ms,
            deliveries: configurations
                .iter()
                .map(|_| Deliveries::default())
                .collect(),
            configurations,
            status: Status::Unsaved,
            ops,
            next: 0,
            awaiting: Vec::new(),
            refused_test: None,
            to_log: Vec::new(),
            start_epoch_ms: config.start_epoch_ms,
            moment: Moment {
                epoch_ms: config.start_epoch_ms,
                region: config.region.clone(),
                account: config.account_id.clone(),
            },
            puts: 0,
            deletes: 0,
            recent: Vec::new(),
        })
    }

    /// The queues its configuration names, each once, in listed order.
    fn queues(&self) -> Vec<(Arc<str>, String)> {
        let mut out: Vec<(Arc<str>, String)> = Vec::new();
        for c in &self.configurations {
            if !out.iter().any(|(q, _)| *q == c.queue) {
                out.push((c.queue.clone(), c.queue_url.clone()));
            }
        }
        out
    }

    /// S3 sending for this bucket: `s3.amazonaws.com`, with the bucket's
    /// ARN and its owner's account as `aws:SourceArn` and
    /// `aws:SourceAccount`.
    fn principal(&self) -> Principal {
        let (s3, arn) = (Service::S3.name(), event::bucket_arn(&self.name));
        let account = self.moment.account.as_str();
        // The ARN is a valid bucket's; an engine whose account is not 12
        // digits sends without aws:SourceAccount rather than not at all.
        Principal::service(s3, Some(&arn), Some(account))
            .or_else(|_| Principal::service(s3, Some(&arn), None))
            .unwrap_or_default()
    }

    fn send_as(&self, queue_url: &str, body: String) -> Command {
        Command::SendAs {
            queue_url: queue_url.to_string(),
            message: NewMessage {
                body,
                ..NewMessage::default()
            },
            principal: self.principal(),
        }
    }

    /// PutBucketNotificationConfiguration: a test event to each queue
    /// (none for an empty configuration, saved at once).
    fn configure(&mut self) -> Vec<Command> {
        let queues = self.queues();
        if queues.is_empty() {
            self.status = Status::Valid;
            return Vec::new();
        }
        self.status = Status::Validating;
        let mut out = Vec::new();
        for (queue, url) in queues {
            let (request_id, host_id) = self.bucket.next_request();
            let body = event::test_event(&self.name, self.moment.epoch_ms, &request_id, &host_id);
            out.push(self.send_as(&url, body));
            self.awaiting.push(Awaiting::Test { queue });
        }
        out
    }

    /// What the test events' answers decide: saved, or refused in S3's words.
    fn verdict(&mut self) -> SimEvent {
        let Some((queue, error)) = self.refused_test.take() else {
            self.status = Status::Valid;
            let queues = self.queues().into_iter().map(|(q, _)| q).collect();
            return SimEvent::BucketConfigured {
                bucket: self.name.clone(),
                queues,
            };
        };
        let Moment {
            region, account, ..
        } = &self.moment;
        let destination = format!("arn:aws:sqs:{region}:{account}:{queue}");
        let code = error.code.query_code();
        self.status = Status::Failed(format!(
            "{S3_CODE}: {S3_ERROR}: {destination} ({code}: {})",
            error.message
        ));
        SimEvent::BucketConfigurationFailed {
            bucket: self.name.clone(),
            queue,
            destination,
            code,
            error: error.message,
            s3_code: S3_CODE,
            s3_error: S3_ERROR,
        }
    }

    /// The object operations due by `now`: each logged, then its
    /// notifications to the queues that want it (a saved configuration's).
    fn operate(&mut self, now: Millis) -> Vec<Command> {
        let mut out = Vec::new();
        while let Some((_, op)) = self.ops.get(self.next).filter(|(at, _)| *at <= now) {
            let epoch = self.moment.epoch_ms;
            let event = match op {
                Op::Put { key, size } => {
                    let (key, size) = (key.clone(), *size);
                    self.puts += 1;
                    self.recent.push(key.clone());
                    if self.recent.len() > RECENT_KEYS {
                        self.recent.remove(0);
                    }
                    self.bucket.put(&key, size, epoch)
                }
                Op::Delete { key } => {
                    let key = key.clone();
                    self.deletes += 1;
                    self.bucket.delete(&key, epoch)
                }
            };
            self.next += 1;
            out.push(Command::Log(SimEvent::BucketObjectChanged {
                bucket: self.name.clone(),
                event_name: event.event.event_name(),
                key: event.key.clone(),
                size_bytes: event.object.as_ref().map(|(size, _)| *size),
            }));
            out.extend(self.notify(&event));
        }
        out
    }

    /// The notifications of `event`, one per queue configuration that wants it.
    fn notify(&mut self, event: &ObjectEvent) -> Vec<Command> {
        if !matches!(self.status, Status::Valid) {
            return Vec::new();
        }
        let home = (self.moment.region.as_str(), self.moment.account.as_str());
        let mut out = Vec::new();
        for (c, config) in self.configurations.iter().enumerate() {
            if !config.wants(event.event, &event.key) {
                continue;
            }
            let body = self
                .bucket
                .notification(event, config, home, self.moment.epoch_ms);
            out.push(self.send_as(&config.queue_url, body));
            self.awaiting.push(Awaiting::Notice {
                config: c,
                event: event.event,
                key: event.key.clone(),
            });
        }
        out
    }
}

impl Actor for BucketActor {
    fn name(&self) -> &Arc<str> {
        &self.name
    }

    fn wake_at(&self) -> Option<Millis> {
        let configure = matches!(self.status, Status::Unsaved).then_some(self.configured_at);
        let op = self.ops.get(self.next).map(|(at, _)| *at);
        configure.into_iter().chain(op).min()
    }

    fn step(&mut self, now: Millis, _seen: &mut Reads) -> Vec<Command> {
        self.moment.epoch_ms = self.start_epoch_ms.saturating_add(now);
        if matches!(self.status, Status::Unsaved) && self.configured_at <= now {
            let out = self.configure();
            if matches!(self.status, Status::Validating) {
                // This moment's objects wait for the verdict (`follow_up`).
                return out;
            }
        }
        self.operate(now)
    }

    fn outcome(&mut self, outcome: &Outcome) {
        if matches!(outcome, Outcome::Logged) {
            return;
        }
        let refused = match outcome {
            Outcome::Refused(error) => Some(error),
            _ => None,
        };
        let first = (!self.awaiting.is_empty()).then(|| self.awaiting.remove(0));
        match first {
            Some(Awaiting::Test { queue }) => {
                if let (Some(error), None) = (refused, &self.refused_test) {
                    self.refused_test = Some((queue, error.clone()));
                }
            }
            Some(Awaiting::Notice { config, event, key }) => {
                let d = &mut self.deliveries[config];
                let Some(error) = refused else {
                    d.sent += 1;
                    self.to_log.push(SimEvent::BucketNotified {
                        bucket: self.name.clone(),
                        queue: self.configurations[config].queue.clone(),
                        event_name: event.event_name(),
                        key,
                    });
                    return;
                };
                let code = error.code.query_code();
                d.failed += 1;
                d.last_error = Some(format!("{code}: {}", error.message));
                self.to_log.push(SimEvent::BucketDeliveryFailed {
                    bucket: self.name.clone(),
                    queue: self.configurations[config].queue.clone(),
                    event_name: event.event_name(),
                    key,
                    code,
                    error: error.message.clone(),
                });
            }
            None => {}
        }
    }

    fn follow_up(&mut self, now: Millis) -> Vec<Command> {
        let mut out: Vec<Command> = self.to_log.drain(..).map(Command::Log).collect();
        if matches!(self.status, Status::Validating) && self.awaiting.is_empty() {
            out.push(Command::Log(self.verdict()));
            out.extend(self.operate(now));
        }
        out
    }

    /// Its test events (the configuration still to be saved by `until`)
    /// and the notifications of its operations due by then: each an S3
    /// event of about 1 KiB. Each operation is logged whether or not it
    /// notifies, so it counts a unit of its own.
    fn plan(&self, until: Millis, _hits: &dyn Fn(&str) -> bool) -> Option<SendPlan> {
        let saving = matches!(self.status, Status::Unsaved) && self.configured_at <= until;
        let tests = if saving {
            self.configurations.len() as u64
        } else {
            0
        };
        let pending = &self.ops[self.next.min(self.ops.len())..];
        let due = &pending[..pending.partition_point(|(at, _)| *at <= until)];
        let notices = due.iter().map(|(_, op)| {
            let (event, key) = match op {
                Op::Put { key, .. } => (EventType::CreatedPut, key),
                Op::Delete { key } => (EventType::RemovedDelete, key),
            };
            let wanting = self.configurations.iter().filter(|c| c.wants(event, key));
            wanting.count() as u64
        });
        let sends = tests.saturating_add(notices.sum());
        Some(SendPlan {
            sends,
            units: (due.len() as u64).saturating_add(sends.saturating_mul(units::body_units(1024))),
            matching: 0,
            steady: None,
        })
    }

    fn bucket(&mut self) -> Option<&mut BucketActor> {
        Some(self)
    }

    fn snapshot(&self) -> Option<Part> {
        let (configuration, configuration_error) = match &self.status {
            Status::Unsaved | Status::Validating => ("pending", None),
            Status::Valid => ("valid", None),
            Status::Failed(words) => ("failed", Some(words.clone())),
        };
        let notifications = (self.configurations.iter().zip(&self.deliveries))
            .map(|(c, d)| NotificationSnapshot {
                id: c.id.clone(),
                queue: c.queue.to_string(),
                events: c.events.iter().map(|e| e.name().to_string()).collect(),
                prefix: Some(c.filter.prefix.clone()).filter(|p| !p.is_empty()),
                suffix: Some(c.filter.suffix.clone()).filter(|s| !s.is_empty()),
                sent: d.sent,
                failed: d.failed,
                last_error: d.last_error.clone(),
            })
            .collect();
        Some(Part::Bucket(BucketSnapshot {
            name: self.name.to_string(),
            arn: event::bucket_arn(&self.name),
            configuration,
            configuration_error,
            notifications,
            objects: self.bucket.object_count() as u64,
            puts: self.puts,
            deletes: self.deletes,
            recent_keys: self.recent.clone(),
            sent: self.deliveries.iter().map(|d| d.sent).sum(),
            failed: self.deliveries.iter().map(|d| d.failed).sum(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use queuelab_engine::{Identity, Service};

    use super::*;
    use crate::actors::Observe;
    use crate::document::{BucketNotification, ObjectOperation};

    /// A queue that shows nothing: a bucket reads nothing of its queues.
    struct Unseen;

    impl Observe for Unseen {
        fn visible(&self, _queue_url: &str) -> Option<u64> {
            None
        }
    }

    /// The queues' home in the test: a bucket of the scenario is there too.
    fn home() -> Config {
        Config {
            region: "eu-west-1".into(),
            account_id: "111122223333".into(),
            start_epoch_ms: 0,
            ..Config::default()
        }
    }

    #[test]
    fn a_bucket_sends_as_s3_for_its_arn_and_its_owners_account() {
        let spec = BucketSpec {
            name: "uploads".into(),
            configured_at_ms: 0,
            notifications: vec![BucketNotification {
                id: None,
                queue: "jobs".into(),
                events: vec!["s3:ObjectCreated:*".into()],
                prefix: None,
                suffix: None,
            }],
            objects: vec![ObjectOperation {
                at_ms: 0,
                put: Some("a.jpg".into()),
                delete: None,
                size_bytes: None,
            }],
        };
        let url_of = |_: &str, queue: &str| Ok(format!("https://sqs/{queue}"));
        let mut bucket = BucketActor::new(&spec, &url_of, &home()).unwrap();
        let commands = bucket.step(0, &mut Unseen);
        let [Command::SendAs { principal, .. }] = commands.as_slice() else {
            panic!("the test event first: {commands:?}");
        };
        assert_eq!(
            principal.identity(),
            &Identity::Service {
                service: Service::S3,
                source_arn: Some("arn:aws:s3:::uploads".into()),
                source_account: Some("111122223333".into()),
            }
        );
        bucket.outcome(&Outcome::Sent {
            message_id: "m".into(),
        });
        let settled = bucket.follow_up(0);
        let sent: Vec<&Principal> = (settled.iter())
            .filter_map(|c| match c {
                Command::SendAs { principal, .. } => Some(principal),
                _ => None,
            })
            .collect();
        assert_eq!(sent, [principal], "the notification, as the test event");
    }
}
