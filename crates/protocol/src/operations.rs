//! One function per SQS operation: read the members, call the engine,
//! shape the answer.

use queuelab_engine::{
    AddPermission, AttributeName, AttributeSelection, BatchResult, Engine, ErrorCode, NewMessage,
    PollId, ReceiveMessage, ReceiveOutcome, ReceivedMessage, SendMessage, SendResult, SqsError,
    SqsResult,
};
use serde_json::{json, Map, Value};

use crate::attributes;
use crate::bodies::{self, Received, Sent};
use crate::input::{parse_body, Input};

pub enum Outcome {
    /// The answer's JSON text.
    Body(String),
    Waiting(PollId),
}

type Caller<'a> = Option<&'a str>;
type Operation = fn(&mut Engine, &Input, Caller) -> SqsResult<Outcome>;

/// Every operation this endpoint answers, by its `X-Amz-Target` suffix.
pub const OPERATIONS: &[(&str, Operation)] = &[
    ("AddPermission", add_permission),
    ("CancelMessageMoveTask", cancel_message_move_task),
    ("ChangeMessageVisibility", change_message_visibility),
    (
        "ChangeMessageVisibilityBatch",
        change_message_visibility_batch,
    ),
    ("CreateQueue", create_queue),
    ("DeleteMessage", delete_message),
    ("DeleteMessageBatch", delete_message_batch),
    ("DeleteQueue", delete_queue),
    ("GetQueueAttributes", get_queue_attributes),
    ("GetQueueUrl", get_queue_url),
    ("ListDeadLetterSourceQueues", list_dead_letter_source_queues),
    ("ListMessageMoveTasks", list_message_move_tasks),
    ("ListQueueTags", list_queue_tags),
    ("ListQueues", list_queues),
    ("PurgeQueue", purge_queue),
    ("ReceiveMessage", receive_message),
    ("RemovePermission", remove_permission),
    ("SendMessage", send_message),
    ("SendMessageBatch", send_message_batch),
    ("SetQueueAttributes", set_queue_attributes),
    ("StartMessageMoveTask", start_message_move_task),
    ("TagQueue", tag_queue),
    ("UntagQueue", untag_queue),
];

pub fn call(engine: &mut Engine, target: &str, body: &str, caller: Caller) -> SqsResult<Outcome> {
    let name = target.strip_prefix("AmazonSQS.").unwrap_or("");
    let Some((_, operation)) = OPERATIONS.iter().find(|(n, _)| *n == name) else {
        // As AWS's JSON endpoints answer: the framework's shape, no text.
        return Err(SqsError::new(ErrorCode::UnknownOperation, ""));
    };
    let object = parse_body(body)?;
    operation(engine, &Input::new(&object), caller)
}

fn body(value: Value) -> SqsResult<Outcome> {
    Ok(Outcome::Body(bodies::text(&value)))
}

fn empty() -> SqsResult<Outcome> {
    Ok(Outcome::Body("{}".to_string()))
}

/// Adds `key` only when the value is present: SQS leaves empty members out.
/// A JSON object from its members, inserted one by one: collecting into
/// a `Map` (a B-tree) sorts first, compiling a sort for each iterator's
/// element type (wasm size).
fn object(members: impl IntoIterator<Item = (String, Value)>) -> Map<String, Value> {
    let mut map = Map::new();
    for (key, value) in members {
        map.insert(key, value);
    }
    map
}

fn put(object: &mut Map<String, Value>, key: &str, value: Option<impl Into<Value>>) {
    if let Some(value) = value {
        object.insert(key.to_string(), value.into());
    }
}

fn create_queue(engine: &mut Engine, input: &Input, _: Caller) -> SqsResult<Outcome> {
    let name = input.required_string("QueueName")?;
    let attributes = attributes::parse_settable(&input.string_map("Attributes")?)?;
    // The JSON API spells this member in lower case.
    let tags = input.string_map("tags")?;
    let url = engine.create_queue(&name, &attributes, &tags)?;
    body(json!({ "QueueUrl": url }))
}

fn get_queue_url(engine: &mut Engine, input: &Input, _: Caller) -> SqsResult<Outcome> {
    let name = input.required_string("QueueName")?;
    let owner = input.string("QueueOwnerAWSAccountId")?;
    let url = engine.get_queue_url(&name, owner.as_deref())?;
    body(json!({ "QueueUrl": url }))
}

fn queue_list(urls_key: &str, list: queuelab_engine::ListQueuesResult, always: bool) -> Value {
    let mut out = Map::new();
    if always || !list.queue_urls.is_empty() {
        out.insert(urls_key.into(), json!(list.queue_urls));
    }
    put(&mut out, "NextToken", list.next_token);
    Value::Object(out)
}

fn list_queues(engine: &mut Engine, input: &Input, _: Caller) -> SqsResult<Outcome> {
    let list = engine.list_queues(
        input.string("QueueNamePrefix")?.as_deref(),
        input.int("MaxResults")?,
        input.string("NextToken")?.as_deref(),
    )?;
    body(queue_list("QueueUrls", list, false))
}

fn list_dead_letter_source_queues(
    engine: &mut Engine,
    input: &Input,
    _: Caller,
) -> SqsResult<Outcome> {
    let list = engine.list_dead_letter_source_queues(
        &input.required_string("QueueUrl")?,
        input.int("MaxResults")?,
        input.string("NextToken")?.as_deref(),
    )?;
    // The JSON API spells this member in lower case, and always sends it.
    body(queue_list("queueUrls", list, true))
}

fn delete_queue(engine: &mut Engine, input: &Input, _: Caller) -> SqsResult<Outcome> {
    engine.delete_queue(&input.required_string("QueueUrl")?)?;
    empty()
}

fn get_queue_attributes(engine: &mut Engine, input: &Input, _: Caller) -> SqsResult<Outcome> {
    let url = input.required_string("QueueUrl")?;
    let names = input.string_list("AttributeNames")?;
    let selection = if names.iter().any(|n| n == "All") {
        AttributeSelection::All
    } else {
        AttributeSelection::Names(
            names
                .iter()
                .map(|n| n.parse::<AttributeName>())
                .collect::<SqsResult<_>>()?,
        )
    };
    let values = engine.get_queue_attributes(&url, &selection)?;
    let map = object(values.iter().map(|a| {
        (
            a.name().as_str().to_string(),
            Value::String(attributes::format(a)),
        )
    }));
    let mut out = Map::new();
    if !map.is_empty() {
        out.insert("Attributes".into(), Value::Object(map));
    }
    body(Value::Object(out))
}

fn set_queue_attributes(engine: &mut Engine, input: &Input, _: Caller) -> SqsResult<Outcome> {
    let url = input.required_string("QueueUrl")?;
    let map = input.string_map("Attributes")?;
    if map.is_empty() {
        return Err(SqsError::missing("Attributes"));
    }
    engine.set_queue_attributes(&url, &attributes::parse_settable(&map)?)?;
    empty()
}

fn purge_queue(engine: &mut Engine, input: &Input, _: Caller) -> SqsResult<Outcome> {
    engine.purge_queue(&input.required_string("QueueUrl")?)?;
    empty()
}

fn tag_queue(engine: &mut Engine, input: &Input, _: Caller) -> SqsResult<Outcome> {
    let url = input.required_string("QueueUrl")?;
    let tags = input.string_map("Tags")?;
    if tags.is_empty() {
        return Err(SqsError::missing("Tags"));
    }
    engine.tag_queue(&url, &tags)?;
    empty()
}

fn untag_queue(engine: &mut Engine, input: &Input, _: Caller) -> SqsResult<Outcome> {
    let url = input.required_string("QueueUrl")?;
    if !input.has("TagKeys") {
        return Err(SqsError::missing("TagKeys"));
    }
    let keys = input.string_list("TagKeys")?;
    engine.untag_queue(&url, &keys)?;
    empty()
}

fn list_queue_tags(engine: &mut Engine, input: &Input, _: Caller) -> SqsResult<Outcome> {
    let tags = engine.list_queue_tags(&input.required_string("QueueUrl")?)?;
    let mut out = Map::new();
    if !tags.is_empty() {
        out.insert("Tags".into(), json!(tags));
    }
    body(Value::Object(out))
}

fn add_permission(engine: &mut Engine, input: &Input, caller: Caller) -> SqsResult<Outcome> {
    let url = input.required_string("QueueUrl")?;
    let request = AddPermission {
        label: input.required_string("Label")?,
        account_ids: input.string_list("AWSAccountIds")?,
        actions: input.string_list("Actions")?,
    };
    engine.add_permission(&url, &request, caller)?;
    empty()
}

fn remove_permission(engine: &mut Engine, input: &Input, caller: Caller) -> SqsResult<Outcome> {
    let url = input.required_string("QueueUrl")?;
    engine.remove_permission(&url, &input.required_string("Label")?, caller)?;
    empty()
}

fn new_message(input: &Input) -> SqsResult<NewMessage> {
    Ok(NewMessage {
        body: input.string("MessageBody")?.unwrap_or_default(),
        delay_seconds: input.int("DelaySeconds")?,
        attributes: input.message_attributes("MessageAttributes")?,
        system_attributes: input.message_attributes("MessageSystemAttributes")?,
        group_id: input.string("MessageGroupId")?,
        dedup_id: input.string("MessageDeduplicationId")?,
    })
}

/// A successful batch entry's members beside its `Id`: a SendMessage answer's.
fn send_fields(result: SendResult, out: &mut Map<String, Value>) {
    if let Ok(Value::Object(members)) = serde_json::to_value(Sent::from(&result)) {
        out.extend(members);
    }
}

fn send_message(engine: &mut Engine, input: &Input, caller: Caller) -> SqsResult<Outcome> {
    let request = SendMessage {
        queue_url: input.required_string("QueueUrl")?,
        message: new_message(input)?,
    };
    let result = engine.send_message(&request, caller)?;
    Ok(Outcome::Body(bodies::text(&Sent::from(&result))))
}

/// `Successful` / `Failed` lists, each successful entry shaped by `fields`;
/// an empty list is left out, as SQS leaves it out.
fn batch_body<T>(result: BatchResult<T>, fields: impl Fn(T, &mut Map<String, Value>)) -> Value {
    let successful: Vec<Value> = result
        .successful
        .into_iter()
        .map(|(id, value)| {
            let mut entry = Map::new();
            entry.insert("Id".into(), id.into());
            fields(value, &mut entry);
            Value::Object(entry)
        })
        .collect();
    let failed: Vec<Value> = result
        .failed
        .into_iter()
        .map(|f| {
            json!({ "Id": f.id, "SenderFault": f.sender_fault, "Code": f.code, "Message": f.message })
        })
        .collect();
    let mut out = Map::new();
    for (key, list) in [("Successful", successful), ("Failed", failed)] {
        if !list.is_empty() {
            out.insert(key.into(), list.into());
        }
    }
    Value::Object(out)
}

fn entry_id(entry: &Input) -> SqsResult<String> {
    entry.required_string("Id")
}

fn send_message_batch(engine: &mut Engine, input: &Input, caller: Caller) -> SqsResult<Outcome> {
    let url = input.required_string("QueueUrl")?;
    let entries = input
        .entries("Entries")?
        .iter()
        .map(|e| Ok((entry_id(e)?, new_message(e)?)))
        .collect::<SqsResult<Vec<_>>>()?;
    let result = engine.send_message_batch(&url, &entries, caller)?;
    body(batch_body(result, send_fields))
}

fn receive_message(engine: &mut Engine, input: &Input, caller: Caller) -> SqsResult<Outcome> {
    let mut system_attribute_names = input.string_list("AttributeNames")?;
    system_attribute_names.extend(input.string_list("MessageSystemAttributeNames")?);
    let request = ReceiveMessage {
        queue_url: input.required_string("QueueUrl")?,
        max_number_of_messages: input.int("MaxNumberOfMessages")?,
        visibility_timeout: input.int("VisibilityTimeout")?,
        wait_time_seconds: input.int("WaitTimeSeconds")?,
        system_attribute_names,
        message_attribute_names: input.string_list("MessageAttributeNames")?,
        receive_request_attempt_id: input.string("ReceiveRequestAttemptId")?,
    };
    match engine.receive_message(&request, caller)? {
        ReceiveOutcome::Done(messages) => Ok(Outcome::Body(receive_body(&messages))),
        ReceiveOutcome::Waiting(poll) => Ok(Outcome::Waiting(poll)),
    }
}

/// The ReceiveMessage answer's text.
pub fn receive_body(messages: &[ReceivedMessage]) -> String {
    bodies::text(&Received::new(messages))
}

fn delete_message(engine: &mut Engine, input: &Input, caller: Caller) -> SqsResult<Outcome> {
    let url = input.required_string("QueueUrl")?;
    let handle = input.required_string("ReceiptHandle")?;
    engine.delete_message(&url, &handle, caller)?;
    empty()
}

fn delete_message_batch(engine: &mut Engine, input: &Input, caller: Caller) -> SqsResult<Outcome> {
    let url = input.required_string("QueueUrl")?;
    let entries = input
        .entries("Entries")?
        .iter()
        .map(|e| Ok((entry_id(e)?, e.required_string("ReceiptHandle")?)))
        .collect::<SqsResult<Vec<_>>>()?;
    let result = engine.delete_message_batch(&url, &entries, caller)?;
    body(batch_body(result, |(), _| {}))
}

fn change_message_visibility(
    engine: &mut Engine,
    input: &Input,
    caller: Caller,
) -> SqsResult<Outcome> {
    let url = input.required_string("QueueUrl")?;
    let handle = input.required_string("ReceiptHandle")?;
    let timeout = input.required_int("VisibilityTimeout")?;
    engine.change_message_visibility(&url, &handle, timeout, caller)?;
    empty()
}

fn change_message_visibility_batch(
    engine: &mut Engine,
    input: &Input,
    caller: Caller,
) -> SqsResult<Outcome> {
    let url = input.required_string("QueueUrl")?;
    let entries = input
        .entries("Entries")?
        .iter()
        .map(|e| {
            let handle = e.required_string("ReceiptHandle")?;
            Ok((
                entry_id(e)?,
                (handle, e.int("VisibilityTimeout")?.unwrap_or(0)),
            ))
        })
        .collect::<SqsResult<Vec<_>>>()?;
    let result = engine.change_message_visibility_batch(&url, &entries, caller)?;
    body(batch_body(result, |(), _| {}))
}

fn start_message_move_task(engine: &mut Engine, input: &Input, _: Caller) -> SqsResult<Outcome> {
    let handle = engine.start_message_move_task(
        &input.required_string("SourceArn")?,
        input.string("DestinationArn")?.as_deref(),
        input.int("MaxNumberOfMessagesPerSecond")?,
    )?;
    body(json!({ "TaskHandle": handle }))
}

fn cancel_message_move_task(engine: &mut Engine, input: &Input, _: Caller) -> SqsResult<Outcome> {
    let moved = engine.cancel_message_move_task(&input.required_string("TaskHandle")?)?;
    body(json!({ "ApproximateNumberOfMessagesMoved": moved }))
}

fn list_message_move_tasks(engine: &mut Engine, input: &Input, _: Caller) -> SqsResult<Outcome> {
    let tasks = engine.list_message_move_tasks(
        &input.required_string("SourceArn")?,
        input.int("MaxResults")?,
    )?;
    let results: Vec<Value> = tasks
        .into_iter()
        .map(|t| {
            let mut out = Map::new();
            put(&mut out, "TaskHandle", t.task_handle);
            out.insert("Status".into(), t.status.into());
            out.insert("SourceArn".into(), t.source_arn.into());
            put(&mut out, "DestinationArn", t.destination_arn);
            put(
                &mut out,
                "MaxNumberOfMessagesPerSecond",
                t.max_number_of_messages_per_second,
            );
            out.insert(
                "ApproximateNumberOfMessagesMoved".into(),
                t.approximate_number_of_messages_moved.into(),
            );
            out.insert(
                "ApproximateNumberOfMessagesToMove".into(),
                t.approximate_number_of_messages_to_move.into(),
            );
            put(&mut out, "FailureReason", t.failure_reason);
            out.insert("StartedTimestamp".into(), t.started_timestamp.into());
            Value::Object(out)
        })
        .collect();
    body(json!({ "Results": results }))
}
