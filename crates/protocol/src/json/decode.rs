//! Members in, engine [`Request`] out: one decoder per [`Action`]. A
//! decoder reads its members with [`Input`] (SQS's errors for a missing or
//! mistyped member), builds the request from them, and hands it to `call`
//! (the engine's gate). No SQS rule is decided here: ranges, defaults and
//! what an empty map means are the engine's.

use queuelab_engine::{
    Action, AddPermission, AttributeSelection, NewMessage, ReceiveMessage, Request, Response,
    SendMessage, SqsError, SqsResult,
};

use super::input::Input;
use crate::attributes;

/// Makes the call a request was decoded into (the engine's gate).
pub type Call<'c> = dyn FnMut(Request<'_>) -> SqsResult<Response> + 'c;

/// Reads one operation's members and makes its call.
pub type Decoder = fn(&Input, &mut Call) -> SqsResult<Response>;

/// The decoder of `action`: one per action, which the compiler holds to
/// [`Action`]'s list.
pub const fn decoder(action: Action) -> Decoder {
    use Action as A;
    match action {
        A::AddPermission => add_permission,
        A::CancelMessageMoveTask => cancel_message_move_task,
        A::ChangeMessageVisibility => change_message_visibility,
        A::ChangeMessageVisibilityBatch => change_message_visibility_batch,
        A::CreateQueue => create_queue,
        A::DeleteMessage => delete_message,
        A::DeleteMessageBatch => delete_message_batch,
        A::DeleteQueue => delete_queue,
        A::GetQueueAttributes => get_queue_attributes,
        A::GetQueueUrl => get_queue_url,
        A::ListDeadLetterSourceQueues => list_dead_letter_source_queues,
        A::ListMessageMoveTasks => list_message_move_tasks,
        A::ListQueueTags => list_queue_tags,
        A::ListQueues => list_queues,
        A::PurgeQueue => purge_queue,
        A::ReceiveMessage => receive_message,
        A::RemovePermission => remove_permission,
        A::SendMessage => send_message,
        A::SendMessageBatch => send_message_batch,
        A::SetQueueAttributes => set_queue_attributes,
        A::StartMessageMoveTask => start_message_move_task,
        A::TagQueue => tag_queue,
        A::UntagQueue => untag_queue,
    }
}

fn create_queue(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let name = input.required_string("QueueName")?;
    let attributes = attributes::parse_settable(&input.string_map("Attributes")?)?;
    // The JSON API spells this member in lower case.
    let tags = input.string_map("tags")?;
    call(Request::CreateQueue {
        name: &name,
        attributes: &attributes,
        tags: &tags,
    })
}

fn get_queue_url(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let name = input.required_string("QueueName")?;
    let owner = input.string("QueueOwnerAWSAccountId")?;
    call(Request::GetQueueUrl {
        name: &name,
        owner: owner.as_deref(),
    })
}

fn list_queues(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let prefix = input.string("QueueNamePrefix")?;
    let max_results = input.int("MaxResults")?;
    let next_token = input.string("NextToken")?;
    call(Request::ListQueues {
        prefix: prefix.as_deref(),
        max_results,
        next_token: next_token.as_deref(),
    })
}

fn list_dead_letter_source_queues(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    let max_results = input.int("MaxResults")?;
    let next_token = input.string("NextToken")?;
    call(Request::ListDeadLetterSourceQueues {
        queue_url: &queue_url,
        max_results,
        next_token: next_token.as_deref(),
    })
}

fn delete_queue(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    call(Request::DeleteQueue {
        queue_url: &queue_url,
    })
}

fn get_queue_attributes(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    let selection = AttributeSelection::from_names(&input.string_list("AttributeNames")?)?;
    call(Request::GetQueueAttributes {
        queue_url: &queue_url,
        selection: &selection,
    })
}

fn set_queue_attributes(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    let attributes = attributes::parse_settable(&input.string_map("Attributes")?)?;
    call(Request::SetQueueAttributes {
        queue_url: &queue_url,
        attributes: &attributes,
    })
}

fn purge_queue(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    call(Request::PurgeQueue {
        queue_url: &queue_url,
    })
}

fn tag_queue(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    let tags = input.string_map("Tags")?;
    call(Request::TagQueue {
        queue_url: &queue_url,
        tags: &tags,
    })
}

fn untag_queue(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    // A required member (an empty list is the engine's to judge).
    if !input.has("TagKeys") {
        return Err(SqsError::missing("TagKeys"));
    }
    let keys = input.string_list("TagKeys")?;
    call(Request::UntagQueue {
        queue_url: &queue_url,
        keys: &keys,
    })
}

fn list_queue_tags(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    call(Request::ListQueueTags {
        queue_url: &queue_url,
    })
}

fn add_permission(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    let request = AddPermission {
        label: input.required_string("Label")?,
        account_ids: input.string_list("AWSAccountIds")?,
        actions: input.string_list("Actions")?,
    };
    call(Request::AddPermission {
        queue_url: &queue_url,
        request: &request,
    })
}

fn remove_permission(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    let label = input.required_string("Label")?;
    call(Request::RemovePermission {
        queue_url: &queue_url,
        label: &label,
    })
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

fn send_message(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let request = SendMessage {
        queue_url: input.required_string("QueueUrl")?,
        message: new_message(input)?,
    };
    call(Request::SendMessage(&request))
}

fn entry_id(entry: &Input) -> SqsResult<String> {
    entry.required_string("Id")
}

/// A batch's `Entries`, each read by `read` after its `Id`.
fn entries<T>(input: &Input, read: impl Fn(&Input) -> SqsResult<T>) -> SqsResult<Vec<(String, T)>> {
    input
        .entries("Entries")?
        .iter()
        .map(|e| Ok((entry_id(e)?, read(e)?)))
        .collect()
}

fn send_message_batch(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    let entries = entries(input, new_message)?;
    call(Request::SendMessageBatch {
        queue_url: &queue_url,
        entries: &entries,
    })
}

fn receive_message(input: &Input, call: &mut Call) -> SqsResult<Response> {
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
    call(Request::ReceiveMessage(&request))
}

fn delete_message(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    let receipt_handle = input.required_string("ReceiptHandle")?;
    call(Request::DeleteMessage {
        queue_url: &queue_url,
        receipt_handle: &receipt_handle,
    })
}

fn delete_message_batch(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    let entries = entries(input, |e| e.required_string("ReceiptHandle"))?;
    call(Request::DeleteMessageBatch {
        queue_url: &queue_url,
        entries: &entries,
    })
}

fn change_message_visibility(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    let receipt_handle = input.required_string("ReceiptHandle")?;
    let visibility_timeout = input.required_int("VisibilityTimeout")?;
    call(Request::ChangeMessageVisibility {
        queue_url: &queue_url,
        receipt_handle: &receipt_handle,
        visibility_timeout,
    })
}

fn change_message_visibility_batch(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let queue_url = input.required_string("QueueUrl")?;
    let entries = entries(input, |e| {
        let handle = e.required_string("ReceiptHandle")?;
        Ok((handle, e.int("VisibilityTimeout")?))
    })?;
    call(Request::ChangeMessageVisibilityBatch {
        queue_url: &queue_url,
        entries: &entries,
    })
}

fn start_message_move_task(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let source_arn = input.required_string("SourceArn")?;
    let destination_arn = input.string("DestinationArn")?;
    let rate = input.int("MaxNumberOfMessagesPerSecond")?;
    call(Request::StartMessageMoveTask {
        source_arn: &source_arn,
        destination_arn: destination_arn.as_deref(),
        max_number_of_messages_per_second: rate,
    })
}

fn cancel_message_move_task(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let task_handle = input.required_string("TaskHandle")?;
    call(Request::CancelMessageMoveTask {
        task_handle: &task_handle,
    })
}

fn list_message_move_tasks(input: &Input, call: &mut Call) -> SqsResult<Response> {
    let source_arn = input.required_string("SourceArn")?;
    let max_results = input.int("MaxResults")?;
    call(Request::ListMessageMoveTasks {
        source_arn: &source_arn,
        max_results,
    })
}
