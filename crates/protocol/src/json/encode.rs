//! Engine [`Response`] out as the JSON answer: one shape per action, members
//! left out when SQS leaves them out. SendMessage and ReceiveMessage, the
//! calls in a consumer's loop, are written straight to text (bodies.rs);
//! the others build a `serde_json::Value`.

use queuelab_engine::{
    BatchResult, ListQueuesResult, MoveTaskInfo, PollId, ReceiveOutcome, ReceivedMessage, Response,
    SendResult,
};
use serde_json::{json, Map, Value};

use super::bodies::{self, Received, Sent};
use crate::attributes;

/// What an answered call becomes.
pub enum Outcome {
    /// The answer's JSON text.
    Body(String),
    /// A long poll waiting in virtual time.
    Waiting(PollId),
}

/// The answer to a call.
pub fn encode(response: Response) -> Outcome {
    use Response as R;
    let value = match response {
        R::SendMessage(result) => return Outcome::Body(bodies::text(&Sent::from(&result))),
        R::ReceiveMessage(ReceiveOutcome::Done(messages)) => {
            return Outcome::Body(receive_body(&messages))
        }
        R::ReceiveMessage(ReceiveOutcome::Waiting(poll)) => return Outcome::Waiting(poll),
        R::CreateQueue(url) | R::GetQueueUrl(url) => json!({ "QueueUrl": url }),
        R::ListQueues(list) => queue_list("QueueUrls", list, false),
        // The JSON API spells this member in lower case, and always sends it.
        R::ListDeadLetterSourceQueues(list) => queue_list("queueUrls", list, true),
        R::GetQueueAttributes(values) => {
            let map = object(values.iter().map(|a| {
                let text = Value::String(attributes::format(a));
                (a.name().as_str().to_string(), text)
            }));
            member_unless_empty("Attributes", map)
        }
        R::ListQueueTags(tags) => {
            let map = object(tags.into_iter().map(|(k, v)| (k, Value::String(v))));
            member_unless_empty("Tags", map)
        }
        R::SendMessageBatch(result) => batch_body(result, send_fields),
        R::DeleteMessageBatch(result) | R::ChangeMessageVisibilityBatch(result) => {
            batch_body(result, |(), _| {})
        }
        R::StartMessageMoveTask(handle) => json!({ "TaskHandle": handle }),
        R::CancelMessageMoveTask(moved) => json!({ "ApproximateNumberOfMessagesMoved": moved }),
        R::ListMessageMoveTasks(tasks) => {
            json!({ "Results": tasks.into_iter().map(move_task).collect::<Vec<_>>() })
        }
        R::DeleteQueue
        | R::SetQueueAttributes
        | R::PurgeQueue
        | R::TagQueue
        | R::UntagQueue
        | R::AddPermission
        | R::RemovePermission
        | R::DeleteMessage
        | R::ChangeMessageVisibility => return Outcome::Body("{}".to_string()),
    };
    Outcome::Body(bodies::text(&value))
}

/// The ReceiveMessage answer's text.
pub fn receive_body(messages: &[ReceivedMessage]) -> String {
    bodies::text(&Received::new(messages))
}

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

/// `{ key: map }`, or `{}` when the map is empty: SQS leaves it out.
fn member_unless_empty(key: &str, map: Map<String, Value>) -> Value {
    let mut out = Map::new();
    if !map.is_empty() {
        out.insert(key.into(), Value::Object(map));
    }
    Value::Object(out)
}

/// Adds `key` only when the value is present: SQS leaves empty members out.
fn put(object: &mut Map<String, Value>, key: &str, value: Option<impl Into<Value>>) {
    if let Some(value) = value {
        object.insert(key.to_string(), value.into());
    }
}

fn queue_list(urls_key: &str, list: ListQueuesResult, always: bool) -> Value {
    let mut out = Map::new();
    if always || !list.queue_urls.is_empty() {
        out.insert(urls_key.into(), json!(list.queue_urls));
    }
    put(&mut out, "NextToken", list.next_token);
    Value::Object(out)
}

/// A successful batch entry's members beside its `Id`: a SendMessage answer's.
fn send_fields(result: SendResult, out: &mut Map<String, Value>) {
    if let Ok(Value::Object(members)) = serde_json::to_value(Sent::from(&result)) {
        out.extend(members);
    }
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

fn move_task(t: MoveTaskInfo) -> Value {
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
}
