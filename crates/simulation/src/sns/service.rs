//! The SNS API over the run's topics: `Simulation::sns` answers one call,
//! finding a topic by its ARN among the actors, making new ones, and
//! carrying a publish's deliveries out at once, as the scenario's own
//! publishes are. Only the topics' own account calls it: topic policies
//! are not modelled (docs/fidelity.md), so another account is refused
//! as SNS refuses a caller its topic's default policy does not name.

use queuelab_engine::{Identity, Principal};

use super::api::{
    required, BatchFailure, BatchSuccess, CreateTopic, MessageInput, Publish, PublishBatch,
    SetAttribute, SnsAnswer, SnsCall, SnsError, Subscribe, TopicEntry, MAX_TOPICS_MADE,
};
use crate::actors::Topic;
use crate::document::{Publish as PublishSpec, Topic as TopicSpec};
use crate::Simulation;

/// Items a List call returns at a time, as SNS's pages hold.
const PAGE: usize = 100;

/// The largest PublishBatch: 10 entries, 256 KiB in all.
const MAX_BATCH_ENTRIES: usize = 10;
const MAX_BATCH_BYTES: usize = super::MAX_MESSAGE_BYTES;

impl Simulation {
    /// One call of the SNS API as `by`.
    pub fn sns(&mut self, call: SnsCall, by: &Principal) -> Result<SnsAnswer, SnsError> {
        self.sns_caller(by, &call)?;
        match call {
            SnsCall::CreateTopic(c) => self.create_topic(&c),
            SnsCall::DeleteTopic(c) => {
                let arn = topic_arn(&c.topic_arn, "TopicArn")?;
                if let Some(index) = self.topic_index(arn) {
                    self.topic_at(index).delete();
                }
                Ok(SnsAnswer::Empty {})
            }
            SnsCall::ListTopics(c) => {
                let live = self.topic_indexes();
                let arns: Vec<String> = live.into_iter().map(|i| self.arn_at(i)).collect();
                let (page, next_token) = page_of(&arns, c.next_token.as_deref())?;
                let topics = (page.iter()).map(|a| TopicEntry {
                    topic_arn: a.clone(),
                });
                Ok(SnsAnswer::Topics {
                    topics: topics.collect(),
                    next_token,
                })
            }
            SnsCall::GetTopicAttributes(c) => {
                let index = self.find_topic(&c.topic_arn)?;
                let owner = self.engine.config().account_id.clone();
                let attributes = self.topic_at(index).attributes(&owner);
                Ok(SnsAnswer::Attributes { attributes })
            }
            SnsCall::SetTopicAttributes(c) => {
                let index = self.find_topic(&c.topic_arn)?;
                let (name, value) = attribute(&c)?;
                self.topic_at(index).set_attribute(name, value)?;
                Ok(SnsAnswer::Empty {})
            }
            SnsCall::Subscribe(c) => self.subscribe(&c),
            SnsCall::Unsubscribe(c) => {
                let (index, s) = self.find_subscription(&c.subscription_arn)?;
                self.topic_at(index).unsubscribe(s);
                Ok(SnsAnswer::Empty {})
            }
            SnsCall::GetSubscriptionAttributes(c) => {
                let (index, s) = self.find_subscription(&c.subscription_arn)?;
                let owner = self.engine.config().account_id.clone();
                let attributes = self.topic_at(index).subscription_attributes(s, &owner);
                Ok(SnsAnswer::Attributes { attributes })
            }
            SnsCall::SetSubscriptionAttributes(c) => {
                let (index, s) = self.find_subscription(&c.subscription_arn)?;
                let (name, value) = attribute(&c)?;
                self.topic_at(index)
                    .set_subscription_attribute(s, name, value)?;
                Ok(SnsAnswer::Empty {})
            }
            SnsCall::ListSubscriptionsByTopic(c) => {
                let index = self.find_topic(&c.topic_arn)?;
                let owner = self.engine.config().account_id.clone();
                let all = self.topic_at(index).subscription_entries(&owner);
                let (page, next_token) = page_of(&all, c.next_token.as_deref())?;
                Ok(SnsAnswer::Subscriptions {
                    subscriptions: page.to_vec(),
                    next_token,
                })
            }
            SnsCall::Publish(c) => self.publish(&c),
            SnsCall::PublishBatch(c) => self.publish_batch(&c),
        }
    }

    /// Refuses a caller of another account, or a service: the topic's
    /// default policy lets only its owner's account act on it.
    fn sns_caller(&self, by: &Principal, call: &SnsCall) -> Result<(), SnsError> {
        let own = &self.engine.config().account_id;
        let who = match by.identity() {
            Identity::Owner => return Ok(()),
            Identity::Account { account_id, .. } if account_id == own => return Ok(()),
            Identity::Account { account_id, arn } => arn
                .clone()
                .unwrap_or_else(|| format!("arn:aws:iam::{account_id}:root")),
            Identity::Service { service, .. } => service.name().to_string(),
        };
        let action = operation(call);
        Err(SnsError::authorization(format!(
            "User: {who} is not authorized to perform: SNS:{action} (Queuelab's topics take calls \
             from their own account, {own}, only)"
        )))
    }

    /// The indexes of the live topics among the actors, in order.
    fn topic_indexes(&mut self) -> Vec<usize> {
        (0..self.actors.len())
            .filter(|&i| self.actors[i].topic().is_some_and(|t| !t.is_deleted()))
            .collect()
    }

    fn topic_at(&mut self, index: usize) -> &mut Topic {
        self.actors[index]
            .topic()
            .expect("a topic index names a topic")
    }

    fn arn_at(&mut self, index: usize) -> String {
        self.topic_at(index).arn().to_string()
    }

    fn topic_index(&mut self, arn: &str) -> Option<usize> {
        let live = self.topic_indexes();
        live.into_iter().find(|&i| self.arn_at(i) == arn)
    }

    /// The live topic a required `TopicArn` names, or SNS's error.
    fn find_topic(&mut self, arn: &Option<String>) -> Result<usize, SnsError> {
        let arn = topic_arn(arn, "TopicArn")?;
        self.topic_index(arn)
            .ok_or_else(|| SnsError::not_found("Topic does not exist"))
    }

    /// The topic and index of the live subscription with this ARN.
    fn find_subscription(&mut self, arn: &Option<String>) -> Result<(usize, usize), SnsError> {
        let arn = required(arn, "SubscriptionArn")?;
        if !arn.starts_with("arn:aws:sns:") {
            return Err(SnsError::invalid(
                "SubscriptionArn",
                "An ARN must have at least 6 elements, not 1",
            ));
        }
        for index in self.topic_indexes() {
            if let Some(s) = self.topic_at(index).subscription(arn) {
                return Ok((index, s));
            }
        }
        Err(SnsError::not_found("Subscription does not exist"))
    }

    fn create_topic(&mut self, c: &CreateTopic) -> Result<SnsAnswer, SnsError> {
        let name = required(&c.name, "Name")?;
        let mut fifo = false;
        let mut content_based_deduplication = false;
        for (key, value) in &c.attributes {
            match key.as_str() {
                "FifoTopic" => fifo = value.eq_ignore_ascii_case("true"),
                "ContentBasedDeduplication" => {
                    content_based_deduplication = value.eq_ignore_ascii_case("true");
                }
                "DisplayName" | "Policy" | "DeliveryPolicy" => {}
                other => {
                    return Err(SnsError::invalid(
                        "Attributes",
                        &format!(
                            "Queuelab's topics take FifoTopic, ContentBasedDeduplication, \
                             DisplayName, Policy and DeliveryPolicy; \"{other}\" is not one of them"
                        ),
                    ))
                }
            }
        }
        check_topic_name(name, fifo)?;
        if let Some(index) = self.topic_indexes().into_iter().find(|&i| {
            self.actors[i]
                .topic()
                .is_some_and(|t| &**t.topic_name() == name)
        }) {
            let same = self.topic_at(index).is_fifo() == fifo;
            return match same {
                true => Ok(SnsAnswer::TopicArn {
                    topic_arn: self.arn_at(index),
                }),
                false => Err(SnsError::invalid(
                    "Attributes",
                    "Topic already exists with different attributes",
                )),
            };
        }
        let made = (self.actors.iter_mut()).filter_map(|a| a.topic()).count();
        if made >= self.scenario.topics.len() + MAX_TOPICS_MADE {
            return Err(SnsError::new(
                "TopicLimitExceeded",
                403,
                format!("Topic limit exceeded: Queuelab makes at most {MAX_TOPICS_MADE} topics over a run"),
            ));
        }
        let spec = TopicSpec {
            name: name.to_string(),
            fifo,
            content_based_deduplication,
            subscriptions: Vec::new(),
            publishes: Vec::new(),
            rate: None,
        };
        let no_queues = |_: &str, _: &str| unreachable_queue();
        let mut topic = Topic::new(
            self.scenario.seed,
            &spec,
            made,
            &no_queues,
            self.engine.config(),
        )
        .map_err(|e| SnsError::invalid("Name", &e.message))?;
        for (key, value) in &c.attributes {
            if matches!(key.as_str(), "DisplayName" | "Policy" | "DeliveryPolicy") {
                topic.set_attribute(key, value)?;
            }
        }
        let topic_arn = topic.arn().to_string();
        self.actors.push(Box::new(topic));
        Ok(SnsAnswer::TopicArn { topic_arn })
    }

    fn subscribe(&mut self, c: &Subscribe) -> Result<SnsAnswer, SnsError> {
        let index = self.find_topic(&c.topic_arn)?;
        let protocol = required(&c.protocol, "Protocol")?;
        if protocol != "sqs" {
            return Err(SnsError::invalid(
                "Protocol",
                &format!("Queuelab's topics deliver to SQS queues (protocol sqs), not {protocol}"),
            ));
        }
        let endpoint = required(&c.endpoint, "Endpoint")?;
        let subscription_arn = self.topic_at(index).subscribe(endpoint, &c.attributes)?;
        Ok(SnsAnswer::SubscriptionArn { subscription_arn })
    }

    fn publish(&mut self, c: &Publish) -> Result<SnsAnswer, SnsError> {
        if c.phone_number.is_some() {
            return Err(SnsError::invalid(
                "PhoneNumber",
                "Queuelab's topics publish to SQS queues, not to phone numbers",
            ));
        }
        let arn = match (&c.topic_arn, &c.target_arn) {
            (Some(_), _) => &c.topic_arn,
            (None, Some(_)) => &c.target_arn,
            (None, None) => return Err(SnsError::missing("TopicArn or TargetArn")),
        };
        let index = self.find_topic(arn)?;
        self.publish_entry(index, &c.message)
            .map(SnsAnswer::Published)
    }

    fn publish_batch(&mut self, c: &PublishBatch) -> Result<SnsAnswer, SnsError> {
        let index = self.find_topic(&c.topic_arn)?;
        let entries = &c.publish_batch_request_entries;
        if entries.is_empty() {
            return Err(SnsError::new(
                "EmptyBatchRequest",
                400,
                "The batch request doesn't contain any entries",
            ));
        }
        if entries.len() > MAX_BATCH_ENTRIES {
            return Err(SnsError::new(
                "TooManyEntriesInBatchRequest",
                400,
                "The batch request contains more entries than permissible",
            ));
        }
        let mut ids = Vec::new();
        for (id, _) in entries {
            let id = required(id, "PublishBatchRequestEntries.member.N.Id")?;
            let fine = id.len() <= 80
                && (id.chars()).all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            if !fine {
                return Err(SnsError::new(
                    "InvalidBatchEntryId",
                    400,
                    "The Id of a batch entry in a batch request doesn't abide by the specification",
                ));
            }
            if ids.contains(&id) {
                return Err(SnsError::new(
                    "BatchEntryIdsNotDistinct",
                    400,
                    "Two or more batch entries in the request have the same Id",
                ));
            }
            ids.push(id);
        }
        let bytes: usize = (entries.iter())
            .map(|(_, e)| e.message.as_ref().map_or(0, String::len))
            .sum();
        if bytes > MAX_BATCH_BYTES {
            return Err(SnsError::new(
                "BatchRequestTooLong",
                400,
                "The length of all the messages put together is more than the limit",
            ));
        }
        let (mut successful, mut failed) = (Vec::new(), Vec::new());
        for ((_, e), id) in entries.iter().zip(ids) {
            match self.publish_entry(index, e) {
                Ok(p) => successful.push(BatchSuccess {
                    id: id.to_string(),
                    message_id: p.message_id,
                    sequence_number: p.sequence_number,
                }),
                Err(error) => failed.push(BatchFailure {
                    id: id.to_string(),
                    code: error.code.to_string(),
                    message: error.message,
                    sender_fault: true,
                }),
            }
        }
        Ok(SnsAnswer::Batch { successful, failed })
    }

    /// One message published to the topic at `index`, its deliveries
    /// carried out now.
    fn publish_entry(
        &mut self,
        index: usize,
        e: &MessageInput,
    ) -> Result<super::api::Published, SnsError> {
        let message = required(&e.message, "Message")?;
        let message = match e.message_structure.as_deref() {
            None => message.to_string(),
            Some("json") => for_sqs(message)?,
            Some(_) => {
                return Err(SnsError::invalid(
                    "MessageStructure",
                    "Invalid value, only 'json' is supported",
                ))
            }
        };
        let now = self.now();
        let publish = PublishSpec {
            at_ms: now,
            message,
            subject: e.subject.clone(),
            attributes: Default::default(),
            group_id: e.message_group_id.clone(),
            dedup_id: e.message_deduplication_id.clone(),
        };
        let (answer, commands) =
            self.topic_at(index)
                .publish_now(now, publish, &e.message_attributes)?;
        self.execute(index, commands, now);
        Ok(answer)
    }
}

/// Whether a queue URL is found: a topic made by the API has no
/// scenario subscriptions, so this is never asked.
fn unreachable_queue() -> queuelab_engine::SqsResult<String> {
    Err(queuelab_engine::SqsError::invalid_parameter(
        "a topic made by CreateTopic has no scenario subscriptions",
    ))
}

/// The operation's name, as SNS's actions and errors name it.
fn operation(call: &SnsCall) -> &'static str {
    match call {
        SnsCall::CreateTopic(_) => "CreateTopic",
        SnsCall::DeleteTopic(_) => "DeleteTopic",
        SnsCall::ListTopics(_) => "ListTopics",
        SnsCall::GetTopicAttributes(_) => "GetTopicAttributes",
        SnsCall::SetTopicAttributes(_) => "SetTopicAttributes",
        SnsCall::Subscribe(_) => "Subscribe",
        SnsCall::Unsubscribe(_) => "Unsubscribe",
        SnsCall::GetSubscriptionAttributes(_) => "GetSubscriptionAttributes",
        SnsCall::SetSubscriptionAttributes(_) => "SetSubscriptionAttributes",
        SnsCall::ListSubscriptionsByTopic(_) => "ListSubscriptionsByTopic",
        SnsCall::Publish(_) => "Publish",
        SnsCall::PublishBatch(_) => "PublishBatch",
    }
}

/// A required topic ARN, checked for its form.
fn topic_arn<'a>(value: &'a Option<String>, name: &str) -> Result<&'a str, SnsError> {
    let arn = required(value, name)?;
    if !arn.starts_with("arn:") {
        return Err(SnsError::invalid(
            name,
            &format!("{arn} does not start with arn"),
        ));
    }
    Ok(arn)
}

/// The name and value of a Set…Attributes call.
fn attribute(c: &SetAttribute) -> Result<(&str, &str), SnsError> {
    let name = required(&c.attribute_name, "AttributeName")?;
    Ok((name, c.attribute_value.as_deref().unwrap_or("")))
}

/// SNS's rule for topic names, with the log's 80-character bound.
fn check_topic_name(name: &str, fifo: bool) -> Result<(), SnsError> {
    let stem = match (fifo, name.strip_suffix(".fifo")) {
        (true, Some(stem)) => stem,
        (false, None) => name,
        (true, None) | (false, Some(_)) => {
            return Err(SnsError::invalid(
                "Name",
                "Fifo Topic names must end with .fifo, and a standard topic's must not (set \
                 the FifoTopic attribute to \"true\" for a FIFO topic)",
            ))
        }
    };
    let fine = !stem.is_empty()
        && name.len() <= 80
        && (stem.chars()).all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    match fine {
        true => Ok(()),
        false => Err(SnsError::invalid(
            "Name",
            "Topic names must be made up of only uppercase and lowercase ASCII letters, \
             numbers, underscores, and hyphens, and be 1 to 80 characters long (SNS allows \
             256; Queuelab's log keeps names to 80)",
        )),
    }
}

/// The message an SQS subscriber gets from a `json` message structure:
/// its `sqs` entry, else its `default` one.
fn for_sqs(message: &str) -> Result<String, SnsError> {
    let object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(message)
        .map_err(|_| {
            SnsError::invalid(
                "Message",
                "Message Structure - JSON message body failed to parse",
            )
        })?;
    let pick = object.get("sqs").or_else(|| object.get("default"));
    match pick {
        Some(serde_json::Value::String(text)) => Ok(text.clone()),
        Some(_) => Err(SnsError::invalid(
            "Message",
            "Message Structure - the entries must be strings",
        )),
        None => Err(SnsError::invalid(
            "Message",
            "Message Structure - No default entry in JSON message body",
        )),
    }
}

/// One page of `all` from a `NextToken` (the index of its first item).
fn page_of<'a, T>(
    all: &'a [T],
    token: Option<&str>,
) -> Result<(&'a [T], Option<String>), SnsError> {
    let start = match token {
        None => 0,
        Some(t) => t
            .parse::<usize>()
            .ok()
            .filter(|&n| n <= all.len())
            .ok_or_else(|| SnsError::invalid("NextToken", ""))?,
    };
    let end = (start + PAGE).min(all.len());
    let next = (end < all.len()).then(|| end.to_string());
    Ok((&all[start..end], next))
}
