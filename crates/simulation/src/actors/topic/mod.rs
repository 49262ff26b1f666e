//! An SNS topic: publishes at listed moments and at a steady rate, and
//! fans each message out to its subscribed queues as SNS does. Each
//! subscription's filter policy decides whether its queue gets the
//! message; the body is SNS's JSON envelope, or the message itself with
//! raw message delivery; a FIFO topic keeps the group id and the
//! deduplication id. Every delivery is a `SendAs` of `sns.amazonaws.com`
//! with `aws:SourceArn` the topic's ARN, so the queue's policy decides.
//! A refused delivery follows SNS's rules (`sns::retry`): a client-side
//! error is not retried, a server-side one is retried on the SQS delivery
//! policy's schedule; then the message goes to the subscription's
//! dead-letter queue, or is dropped.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use queuelab_engine::{
    AttributeValue, Config, MessageAttribute, Millis, NewMessage, Principal, SqsError, SqsResult,
};

mod api;

use super::{Actor, Command, Outcome, Part, Reads, SendPlan, UrlOf};
use crate::document::{FilterPolicyScope, Publish, Rate, Topic as TopicSpec};
use crate::log::SimEvent;
use crate::scenario::Scenario;
use crate::sns::envelope::{hex_digest, Notification};
use crate::sns::filter::FilterPolicy;
use crate::sns::{retry, uuid};
use crate::{units, FailureSnapshot, SubscriptionSnapshot, TopicSnapshot};

/// SNS FIFO topics drop a publish whose deduplication id was seen within
/// the last 5 minutes.
const DEDUP_WINDOW_MS: Millis = 300_000;

/// A subscription, its queues found when it was made.
struct Subscription {
    queue: Arc<str>,
    url: String,
    /// The queue's ARN (Subscribe's `Endpoint`).
    endpoint: String,
    raw: bool,
    filter: Option<FilterPolicy>,
    /// The filter policy as written, for GetSubscriptionAttributes.
    filter_text: Option<String>,
    scope: FilterPolicyScope,
    /// The dead-letter queue's name, URL and ARN.
    dead_letter: Option<(Arc<str>, String, String)>,
    arn: String,
    /// Unsubscribed: kept so deliveries' indexes stay valid, never sent to.
    removed: bool,
    counts: SubscriptionSnapshot,
}

/// One message on its way to one subscription's queue (or to its
/// dead-letter queue), and how many times it was tried.
#[derive(Clone)]
struct Delivery {
    subscription: usize,
    message_id: String,
    /// The message without its FIFO ids, which only a FIFO queue is sent.
    message: NewMessage,
    group_id: Option<String>,
    dedup_id: Option<String>,
    attempt: u32,
    to_dead_letter_queue: bool,
}

pub(crate) struct Topic {
    name: Arc<str>,
    index: usize,
    arn: String,
    region: String,
    seed: u64,
    epoch_ms: u64,
    principal: Principal,
    fifo: bool,
    content_based_deduplication: bool,
    subscriptions: Vec<Subscription>,
    /// Listed publishes in time order (listed order within a moment).
    listed: Vec<Publish>,
    next_listed: usize,
    rate: Option<Rate>,
    next_rate: u64,
    published: u64,
    deduplicated: u64,
    /// A FIFO topic's deduplication ids and when each was first seen.
    seen: BTreeMap<String, Millis>,
    /// Deliveries waiting for a retry, with their moments.
    retries: Vec<(Millis, Delivery)>,
    /// Deliveries sent whose outcome is awaited, in the order they run.
    in_flight: VecDeque<Delivery>,
    /// Commands an outcome decided, to run next (`follow_up`).
    follow: Vec<Command>,
    /// The moment of its latest step: its outcomes come within it.
    last_now: Millis,
    /// Attributes the SNS API sets and reads back (`api.rs`).
    display_name: String,
    policy: Option<String>,
    delivery_policy: Option<String>,
    /// DeleteTopic was called: it publishes and shows nothing more.
    deleted: bool,
}

pub(crate) fn build(
    scenario: &Scenario,
    url_of: UrlOf,
    config: &Config,
) -> SqsResult<Vec<Box<dyn Actor>>> {
    let mut out: Vec<Box<dyn Actor>> = Vec::new();
    for (index, spec) in scenario.topics.iter().enumerate() {
        out.push(Box::new(Topic::new(
            scenario.seed,
            spec,
            index,
            url_of,
            config,
        )?));
    }
    Ok(out)
}

impl Topic {
    /// The topic `spec` describes, the `index`th of its run, its
    /// subscriptions' queues found by `url_of`.
    pub(crate) fn new(
        seed: u64,
        spec: &TopicSpec,
        index: usize,
        url_of: UrlOf,
        config: &Config,
    ) -> SqsResult<Self> {
        let what = format!("topic \"{}\"", spec.name);
        let arn = format!(
            "arn:aws:sns:{}:{}:{}",
            config.region, config.account_id, spec.name
        );
        let seed_text = seed.to_string();
        let mut subscriptions = Vec::new();
        for (i, s) in spec.subscriptions.iter().enumerate() {
            let scope = s.filter_policy_scope.unwrap_or_default();
            let filter = match &s.filter_policy {
                Some(policy) => {
                    Some(FilterPolicy::parse(policy, scope).map_err(SqsError::invalid_parameter)?)
                }
                None => None,
            };
            let queue_arn =
                |q: &str| format!("arn:aws:sqs:{}:{}:{q}", config.region, config.account_id);
            let dead_letter = match &s.dead_letter_queue {
                Some(q) => Some((Arc::from(q.as_str()), url_of(&what, q)?, queue_arn(q))),
                None => None,
            };
            subscriptions.push(Subscription {
                queue: s.queue.as_str().into(),
                url: url_of(&what, &s.queue)?,
                endpoint: queue_arn(&s.queue),
                raw: s.raw_message_delivery,
                filter,
                filter_text: s.filter_policy.as_ref().map(|p| p.to_string()),
                scope,
                dead_letter,
                arn: format!(
                    "{arn}:{}",
                    uuid(&[&seed_text, "subscription", &arn, &i.to_string()])
                ),
                removed: false,
                counts: empty_counts(s.queue.clone(), s),
            });
        }
        let principal =
            Principal::service("sns.amazonaws.com", Some(&arn), Some(&config.account_id))
                .map_err(|e| SqsError::invalid_parameter(format!("scenario {what}: {e}")))?
                .named(&spec.name);
        let mut listed = spec.publishes.clone();
        crate::time_order::sort_by_time(&mut listed, |p| p.at_ms);
        Ok(Topic {
            name: spec.name.as_str().into(),
            index,
            arn,
            region: config.region.clone(),
            seed,
            epoch_ms: config.start_epoch_ms,
            principal,
            fifo: spec.fifo,
            content_based_deduplication: spec.content_based_deduplication,
            subscriptions,
            listed,
            next_listed: 0,
            rate: spec.rate.clone(),
            next_rate: 0,
            published: 0,
            deduplicated: 0,
            seen: BTreeMap::new(),
            retries: Vec::new(),
            in_flight: VecDeque::new(),
            follow: Vec::new(),
            last_now: 0,
            display_name: String::new(),
            policy: None,
            delivery_policy: None,
            deleted: false,
        })
    }

    /// Its next publish due at or before `now`: a listed one first.
    fn next_due(&mut self, now: Millis) -> Option<Publish> {
        if let Some(p) = self.listed.get(self.next_listed).filter(|p| p.at_ms <= now) {
            let p = p.clone();
            self.next_listed += 1;
            return Some(p);
        }
        let rate = self.rate.as_ref()?;
        let at = rate.at(self.next_rate).filter(|at| *at <= now)?;
        self.next_rate += 1;
        Some(Publish {
            at_ms: at,
            message: rate.body_of(self.next_rate),
            subject: None,
            attributes: BTreeMap::new(),
            group_id: rate.group_of(self.next_rate),
            dedup_id: None,
        })
    }

    /// The publish's deduplication id on a FIFO topic.
    fn dedup_id(&self, publish: &Publish) -> Option<String> {
        if !self.fifo {
            return None;
        }
        (publish.dedup_id.clone()).or_else(|| {
            (self.content_based_deduplication).then(|| hex_digest(publish.message.as_bytes()))
        })
    }

    /// A FIFO topic's duplicate of a publish within the window.
    fn is_duplicate(&mut self, dedup_id: Option<&String>, now: Millis) -> bool {
        let Some(id) = dedup_id else { return false };
        self.seen
            .retain(|_, at| now.saturating_sub(*at) < DEDUP_WINDOW_MS);
        if self.seen.contains_key(id) {
            return true;
        }
        self.seen.insert(id.clone(), now);
        false
    }

    /// Publishes one message: logs it, then each subscription's filtered
    /// out event or delivery. Its message id and, on a FIFO topic, its
    /// sequence number.
    fn publish(
        &mut self,
        publish: Publish,
        now: Millis,
        out: &mut Vec<Command>,
    ) -> (String, Option<String>) {
        self.published += 1;
        let seed = self.seed.to_string();
        let message_id = uuid(&[&seed, "message", &self.arn, &self.published.to_string()]);
        let dedup_id = self.dedup_id(&publish);
        let deduplicated = self.is_duplicate(dedup_id.as_ref(), now);
        out.push(Command::Log(SimEvent::TopicPublished {
            topic: self.name.clone(),
            message_id: message_id.clone(),
            deduplicated,
        }));
        // A FIFO topic numbers its messages, as SQS FIFO queues do.
        let sequence = (self.fifo)
            .then(|| (10_000_000_000_000_000_000u128 + u128::from(self.published)).to_string());
        if deduplicated {
            self.deduplicated += 1;
            return (message_id, sequence);
        }
        let attributes = sns_attributes(&publish);
        let sqs_attributes = sqs_attributes(&attributes);
        for index in 0..self.subscriptions.len() {
            let s = &self.subscriptions[index];
            if s.removed {
                continue;
            }
            let matches =
                (s.filter.as_ref()).is_none_or(|f| f.matches(&sqs_attributes, &publish.message));
            if !matches {
                out.push(Command::Log(SimEvent::TopicFilteredOut {
                    topic: self.name.clone(),
                    queue: s.queue.clone(),
                    message_id: message_id.clone(),
                }));
                self.subscriptions[index].counts.filtered_out += 1;
                continue;
            }
            let body = match s.raw {
                true => publish.message.clone(),
                false => Notification {
                    message_id: &message_id,
                    sequence_number: sequence.as_deref(),
                    topic_arn: &self.arn,
                    subject: publish.subject.as_deref(),
                    message: &publish.message,
                    timestamp_ms: self.epoch_ms.saturating_add(now),
                    region: &self.region,
                    subscription_arn: &s.arn,
                    attributes: &attributes,
                }
                .envelope(),
            };
            let message = NewMessage {
                body,
                delay_seconds: None,
                attributes: if s.raw {
                    sqs_attributes.clone()
                } else {
                    Vec::new()
                },
                system_attributes: Vec::new(),
                group_id: None,
                dedup_id: None,
            };
            let delivery = Delivery {
                subscription: index,
                message_id: message_id.clone(),
                message,
                group_id: publish.group_id.clone(),
                dedup_id: dedup_id.clone(),
                attempt: 1,
                to_dead_letter_queue: false,
            };
            out.push(self.send(&delivery));
            self.in_flight.push_back(delivery);
        }
        (message_id, sequence)
    }

    /// The SendMessage of a delivery, as SNS: a FIFO queue is sent the
    /// publish's group and deduplication ids, a standard queue neither.
    fn send(&self, delivery: &Delivery) -> Command {
        let s = &self.subscriptions[delivery.subscription];
        let (queue, url) = match (&s.dead_letter, delivery.to_dead_letter_queue) {
            (Some((queue, url, _)), true) => (queue, url),
            _ => (&s.queue, &s.url),
        };
        let fifo_queue = queue.ends_with(".fifo");
        let mut message = delivery.message.clone();
        message.group_id = delivery.group_id.clone().filter(|_| fifo_queue);
        message.dedup_id = delivery.dedup_id.clone().filter(|_| fifo_queue);
        Command::SendAs {
            queue_url: url.clone(),
            message,
            principal: self.principal.clone(),
        }
    }

    /// A delivery SQS took.
    fn accepted(&mut self, delivery: Delivery) {
        let s = &mut self.subscriptions[delivery.subscription];
        let event = match (&s.dead_letter, delivery.to_dead_letter_queue) {
            (Some((dlq, _, _)), true) => {
                s.counts.dead_lettered += 1;
                SimEvent::TopicDeadLettered {
                    topic: self.name.clone(),
                    queue: s.queue.clone(),
                    dead_letter_queue: dlq.clone(),
                    message_id: delivery.message_id,
                }
            }
            _ => {
                s.counts.delivered += 1;
                SimEvent::TopicDelivered {
                    topic: self.name.clone(),
                    queue: s.queue.clone(),
                    message_id: delivery.message_id,
                    attempt: delivery.attempt,
                }
            }
        };
        self.follow.push(Command::Log(event));
    }

    /// A delivery SQS refused: logged, then retried, dead-lettered or dropped.
    /// `code` and `error` are SQS's; the delivery policy reads the code.
    fn refused(&mut self, mut delivery: Delivery, code: &'static str, error: &str) {
        // The moment of the refusal (its step's): a retry counts from it.
        let now = self.last_now;
        let (topic, queue) = (
            self.name.clone(),
            self.subscriptions[delivery.subscription].queue.clone(),
        );
        let dropped = |message_id: String, reason: &'static str| {
            Command::Log(SimEvent::TopicDropped {
                topic: topic.clone(),
                queue: queue.clone(),
                message_id,
                reason,
            })
        };
        if delivery.to_dead_letter_queue {
            self.subscriptions[delivery.subscription].counts.dropped += 1;
            self.follow
                .push(dropped(delivery.message_id, "deadLetterQueueRefused"));
            return;
        }
        let client_side = !retry::is_server_side(code);
        let delay = (!client_side)
            .then(|| retry::next_delay(delivery.attempt))
            .flatten();
        let s = &mut self.subscriptions[delivery.subscription];
        s.counts.failed += 1;
        s.counts.last_failure = Some(FailureSnapshot {
            code: code.to_string(),
            error: error.to_string(),
            client_side,
        });
        let has_dead_letter_queue = s.dead_letter.is_some();
        self.follow
            .push(Command::Log(SimEvent::TopicDeliveryFailed {
                topic: topic.clone(),
                queue: queue.clone(),
                message_id: delivery.message_id.clone(),
                attempt: delivery.attempt,
                code,
                error: error.to_string(),
                client_side,
                retry_at: delay.map(|d| now.saturating_add(d)),
            }));
        match delay {
            Some(delay) => {
                delivery.attempt += 1;
                if delay == 0 {
                    self.follow.push(self.send(&delivery));
                    self.in_flight.push_front(delivery);
                } else {
                    self.subscriptions[delivery.subscription].counts.retrying += 1;
                    self.retries.push((now.saturating_add(delay), delivery));
                }
            }
            None if has_dead_letter_queue => {
                delivery.to_dead_letter_queue = true;
                self.follow.push(self.send(&delivery));
                self.in_flight.push_front(delivery);
            }
            None => {
                self.subscriptions[delivery.subscription].counts.dropped += 1;
                self.follow
                    .push(dropped(delivery.message_id, "noDeadLetterQueue"));
            }
        }
    }
}

/// A subscription's counts before anything is published.
fn empty_counts(queue: String, s: &crate::document::Subscription) -> SubscriptionSnapshot {
    SubscriptionSnapshot {
        queue,
        raw_message_delivery: s.raw_message_delivery,
        filtered: s.filter_policy.is_some(),
        dead_letter_queue: s.dead_letter_queue.clone(),
        delivered: 0,
        filtered_out: 0,
        failed: 0,
        dead_lettered: 0,
        dropped: 0,
        retrying: 0,
        last_failure: None,
    }
}

/// A publish's attributes as SNS types them: name, type, value.
fn sns_attributes(publish: &Publish) -> Vec<(String, &'static str, String)> {
    (publish.attributes.iter())
        .map(|(name, value)| {
            // `Scenario::validate` allowed only these three.
            let (kind, text) = match value {
                serde_json::Value::String(s) => ("String", s.clone()),
                serde_json::Value::Number(n) => ("Number", n.to_string()),
                other => ("String.Array", other.to_string()),
            };
            (name.clone(), kind, text)
        })
        .collect()
}

/// The same attributes as SQS message attributes (raw delivery, and what
/// a filter policy reads).
fn sqs_attributes(attributes: &[(String, &'static str, String)]) -> Vec<MessageAttribute> {
    (attributes.iter())
        .map(|(name, kind, value)| MessageAttribute {
            name: name.clone(),
            data_type: (*kind).to_string(),
            value: AttributeValue::String(value.clone()),
        })
        .collect()
}

impl Actor for Topic {
    fn name(&self) -> &Arc<str> {
        &self.name
    }

    fn wake_at(&self) -> Option<Millis> {
        let listed = self.listed.get(self.next_listed).map(|p| p.at_ms);
        let rated = self.rate.as_ref().and_then(|r| r.at(self.next_rate));
        let retry = self.retries.iter().map(|(at, _)| *at).min();
        [listed, rated, retry].into_iter().flatten().min()
    }

    fn step(&mut self, now: Millis, _seen: &mut Reads) -> Vec<Command> {
        self.last_now = now;
        let mut out = Vec::new();
        // Retries due now first, in the order they failed.
        let (due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut self.retries)
            .into_iter()
            .partition(|(at, _)| *at <= now);
        self.retries = later;
        for (_, delivery) in due {
            self.subscriptions[delivery.subscription].counts.retrying -= 1;
            out.push(self.send(&delivery));
            self.in_flight.push_back(delivery);
        }
        while let Some(publish) = self.next_due(now) {
            self.publish(publish, now, &mut out);
        }
        out
    }

    fn outcome(&mut self, outcome: &Outcome) {
        let delivered = matches!(outcome, Outcome::Sent { .. } | Outcome::Deduplicated);
        if !delivered && !matches!(outcome, Outcome::Refused(_)) {
            return;
        }
        let Some(delivery) = self.in_flight.pop_front() else {
            return;
        };
        match outcome {
            Outcome::Refused(e) => self.refused(delivery, e.code.query_code(), &e.message),
            _ => self.accepted(delivery),
        }
    }

    fn follow_up(&mut self, _now: Millis) -> Vec<Command> {
        std::mem::take(&mut self.follow)
    }

    fn snapshot(&self) -> Option<Part> {
        if self.deleted {
            return None;
        }
        Some(Part::Topic(TopicSnapshot {
            name: self.name.to_string(),
            arn: self.arn.clone(),
            fifo: self.fifo,
            published: self.published,
            deduplicated: self.deduplicated,
            subscriptions: (self.subscriptions.iter())
                .filter(|s| !s.removed)
                .map(|s| s.counts.clone())
                .collect(),
        }))
    }

    fn plan(&self, until: Millis, _hits: &dyn Fn(&str) -> bool) -> Option<SendPlan> {
        let pending = &self.listed[self.next_listed.min(self.listed.len())..];
        let listed = &pending[..pending.partition_point(|p| p.at_ms <= until)];
        let rated = self
            .rate
            .as_ref()
            .map_or(0, |r| r.due_until(until, self.next_rate));
        let fan_out = self.subscriptions.len() as u64;
        // Each delivery's body: the message and an envelope of about 1 KiB.
        let units = listed.iter().fold(0u64, |sum, p| {
            sum.saturating_add(units::body_units(p.message.len() + 1024))
        });
        let rate_units = self.rate.as_ref().map_or(0, |r| {
            rated.saturating_mul(units::body_units(r.body.len() + 1044))
        });
        Some(SendPlan {
            sends: (listed.len() as u64)
                .saturating_add(rated)
                .saturating_mul(fan_out),
            units: units.saturating_add(rate_units).saturating_mul(fan_out),
            matching: 0,
            steady: None,
        })
    }

    fn place(&self) -> Option<String> {
        Some(format!("topics[{}]", self.index))
    }

    fn topic(&mut self) -> Option<&mut Topic> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A topic publishing one message at 1 s to `orders`, stepped to it.
    fn stepped() -> (Topic, Vec<Command>) {
        let scenario: Scenario = serde_json::from_value(serde_json::json!({
            "title": "t", "durationMs": 100_000, "queues": [{ "name": "orders" }],
            "topics": [{ "name": "orders-topic", "subscriptions": [{ "queue": "orders" }],
                "publishes": [{ "atMs": 1000, "message": "m" }] }]
        }))
        .unwrap();
        let url_of = |_: &str, q: &str| {
            Ok(format!(
                "https://sqs.us-east-1.amazonaws.com/000000000000/{q}"
            ))
        };
        let config = Config::default();
        let mut topic =
            Topic::new(scenario.seed, &scenario.topics[0], 0, &url_of, &config).unwrap();
        let commands = topic.step(1000, &mut NoReads);
        (topic, commands)
    }

    struct NoReads;
    impl super::super::Observe for NoReads {
        fn visible(&self, _: &str) -> Option<u64> {
            None
        }
    }

    fn sends(commands: &[Command]) -> usize {
        commands
            .iter()
            .filter(|c| matches!(c, Command::SendAs { .. }))
            .count()
    }

    fn failure(commands: &[Command]) -> Option<(u32, Option<Millis>)> {
        commands.iter().find_map(|c| match c {
            Command::Log(SimEvent::TopicDeliveryFailed {
                attempt, retry_at, ..
            }) => Some((*attempt, *retry_at)),
            _ => None,
        })
    }

    #[test]
    fn a_server_side_error_is_retried_at_once_twice_then_a_second_later() {
        let (mut topic, commands) = stepped();
        assert_eq!(sends(&commands), 1);
        // Attempts 1 and 2 fail: each retried at once (a follow-up send).
        for attempt in 1..=2 {
            let delivery = topic.in_flight.pop_front().unwrap();
            topic.refused(delivery, "ServiceUnavailable", "down");
            let next = topic.follow_up(0);
            assert_eq!(failure(&next), Some((attempt, Some(1000))));
            assert_eq!(sends(&next), 1, "attempt {attempt}");
        }
        // Attempt 3 fails: the next waits a second.
        let delivery = topic.in_flight.pop_front().unwrap();
        topic.refused(delivery, "ServiceUnavailable", "down");
        let next = topic.follow_up(0);
        assert_eq!((failure(&next), sends(&next)), (Some((3, Some(2000))), 0));
        assert_eq!(topic.wake_at(), Some(2000));
        assert_eq!(topic.subscriptions[0].counts.retrying, 1);
        // At 2 s it sends again, and this time SQS takes it.
        assert_eq!(sends(&topic.step(2000, &mut NoReads)), 1);
        topic.outcome(&Outcome::Sent {
            message_id: "m".into(),
        });
        let delivered = topic.follow_up(0);
        assert!(matches!(
            delivered[..],
            [Command::Log(SimEvent::TopicDelivered { attempt: 4, .. })]
        ));
        let counts = &topic.subscriptions[0].counts;
        assert_eq!(
            (counts.failed, counts.delivered, counts.retrying),
            (3, 1, 0)
        );
        assert_eq!(topic.wake_at(), None);
    }

    #[test]
    fn a_client_side_error_is_not_retried() {
        let (mut topic, _) = stepped();
        let delivery = topic.in_flight.pop_front().unwrap();
        topic.refused(
            delivery,
            "AccessDenied",
            "Access to the resource is denied.",
        );
        let next = topic.follow_up(0);
        assert_eq!(failure(&next), Some((1, None)));
        assert_eq!(sends(&next), 0);
        assert_eq!(topic.wake_at(), None);
        assert_eq!(topic.subscriptions[0].counts.dropped, 1);
    }
}
