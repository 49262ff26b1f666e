//! An SNS request's members read into the simulation's typed call.

use queuelab_simulation::sns::api::{
    AttributeValue, CreateTopic, MessageInput, Page, Publish, PublishBatch, SetAttribute, SnsCall,
    SnsError, Subscribe, SubscriptionArn, TopicArn, TopicPage,
};

use crate::members::{Members, Wrong};

/// The call `action` names, with `m`'s members; `action` is one of SNS's operations.
pub(super) fn call(action: &str, m: &Members) -> Result<SnsCall, SnsError> {
    read(action, m).map_err(|(name, why)| SnsError::invalid(&name, why))
}

fn read(action: &str, m: &Members) -> Result<SnsCall, Wrong> {
    let topic = || {
        Ok::<_, Wrong>(TopicArn {
            topic_arn: m.text("TopicArn")?,
        })
    };
    let subscription = || {
        Ok::<_, Wrong>(SubscriptionArn {
            subscription_arn: m.text("SubscriptionArn")?,
        })
    };
    let set = || {
        Ok::<_, Wrong>(SetAttribute {
            topic_arn: m.text("TopicArn")?,
            subscription_arn: m.text("SubscriptionArn")?,
            attribute_name: m.text("AttributeName")?,
            attribute_value: m.text("AttributeValue")?,
        })
    };
    Ok(match action {
        "CreateTopic" => SnsCall::CreateTopic(CreateTopic {
            name: m.text("Name")?,
            attributes: m.text_map("Attributes")?,
        }),
        "DeleteTopic" => SnsCall::DeleteTopic(topic()?),
        "ListTopics" => SnsCall::ListTopics(Page {
            next_token: m.text("NextToken")?,
        }),
        "GetTopicAttributes" => SnsCall::GetTopicAttributes(topic()?),
        "SetTopicAttributes" => SnsCall::SetTopicAttributes(set()?),
        "Subscribe" => SnsCall::Subscribe(Subscribe {
            topic_arn: m.text("TopicArn")?,
            protocol: m.text("Protocol")?,
            endpoint: m.text("Endpoint")?,
            attributes: m.text_map("Attributes")?,
        }),
        "Unsubscribe" => SnsCall::Unsubscribe(subscription()?),
        "GetSubscriptionAttributes" => SnsCall::GetSubscriptionAttributes(subscription()?),
        "SetSubscriptionAttributes" => SnsCall::SetSubscriptionAttributes(set()?),
        "ListSubscriptionsByTopic" => SnsCall::ListSubscriptionsByTopic(TopicPage {
            topic_arn: m.text("TopicArn")?,
            next_token: m.text("NextToken")?,
        }),
        "Publish" => SnsCall::Publish(Publish {
            topic_arn: m.text("TopicArn")?,
            target_arn: m.text("TargetArn")?,
            phone_number: m.text("PhoneNumber")?,
            message: message(m)?,
        }),
        _ => SnsCall::PublishBatch(PublishBatch {
            topic_arn: m.text("TopicArn")?,
            publish_batch_request_entries: (m.list("PublishBatchRequestEntries")?.iter())
                .map(|e| Ok((e.text("Id")?, message(e)?)))
                .collect::<Result<_, Wrong>>()?,
        }),
    })
}

/// A message's members, as Publish and each PublishBatch entry carry them.
fn message(m: &Members) -> Result<MessageInput, Wrong> {
    let mut message_attributes = std::collections::BTreeMap::new();
    for (name, value) in m.object_map("MessageAttributes")? {
        let value = AttributeValue {
            data_type: value.text("DataType")?,
            string_value: value.text("StringValue")?,
            binary_value: value.text("BinaryValue")?,
        };
        message_attributes.insert(name, value);
    }
    Ok(MessageInput {
        message: m.text("Message")?,
        subject: m.text("Subject")?,
        message_structure: m.text("MessageStructure")?,
        message_attributes,
        message_group_id: m.text("MessageGroupId")?,
        message_deduplication_id: m.text("MessageDeduplicationId")?,
    })
}
