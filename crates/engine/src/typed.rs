//! The typed API: one method per SQS operation, each a call through the
//! gate ([`Engine::call`]), so a typed caller is authorised, throttled and
//! metered exactly as a codec's call is. The message calls take the
//! caller's display name ([`Caller`]) and are made as the owner under it;
//! to call as another principal, use [`Engine::call`].
//!
//! The read-only management calls (GetQueueUrl, ListQueues, …) also have
//! `&self` forms for an owner reading its own engine (the simulation's
//! alarms and actors looking up a setting); they run the operation as the
//! owner without the gate's steps, so they are neither throttled nor
//! billed.

use crate::api::{
    AddPermission, AttributeSelection, BatchResult, Caller, ListQueuesResult, MoveTaskInfo,
    NewMessage, ReceiveMessage, ReceiveOutcome, Request, Response, SendMessage, SendResult, Tags,
    VisibilityEntry,
};
use crate::error::SqsResult;
use crate::principal::Principal;
use crate::settings::QueueAttribute;
use crate::Engine;

/// The result inside the gate's answer: the gate answers a request with its
/// own action's variant, always.
macro_rules! answer {
    ($call:expr, $variant:ident) => {
        match $call? {
            Response::$variant => Ok(()),
            other => unreachable!("{} answered {other:?}", stringify!($variant)),
        }
    };
    ($call:expr, $variant:ident(_)) => {
        match $call? {
            Response::$variant(value) => Ok(value),
            other => unreachable!("{} answered {other:?}", stringify!($variant)),
        }
    };
}

impl Engine {
    pub fn create_queue(
        &mut self,
        name: &str,
        attributes: &[QueueAttribute],
        tags: &Tags,
    ) -> SqsResult<String> {
        let request = Request::CreateQueue {
            name,
            attributes,
            tags,
        };
        answer!(self.call(&Principal::owner(), request), CreateQueue(_))
    }

    pub fn delete_queue(&mut self, queue_url: &str) -> SqsResult<()> {
        let request = Request::DeleteQueue { queue_url };
        answer!(self.call(&Principal::owner(), request), DeleteQueue)
    }

    pub fn set_queue_attributes(
        &mut self,
        queue_url: &str,
        attributes: &[QueueAttribute],
    ) -> SqsResult<()> {
        let request = Request::SetQueueAttributes {
            queue_url,
            attributes,
        };
        answer!(self.call(&Principal::owner(), request), SetQueueAttributes)
    }

    pub fn purge_queue(&mut self, queue_url: &str) -> SqsResult<()> {
        let request = Request::PurgeQueue { queue_url };
        answer!(self.call(&Principal::owner(), request), PurgeQueue)
    }

    pub fn tag_queue(&mut self, queue_url: &str, tags: &Tags) -> SqsResult<()> {
        let request = Request::TagQueue { queue_url, tags };
        answer!(self.call(&Principal::owner(), request), TagQueue)
    }

    pub fn untag_queue(&mut self, queue_url: &str, keys: &[String]) -> SqsResult<()> {
        let request = Request::UntagQueue { queue_url, keys };
        answer!(self.call(&Principal::owner(), request), UntagQueue)
    }

    /// AddPermission: lets `account_ids` call `actions` on the queue, by
    /// appending a statement labelled `label` to its `Policy`.
    pub fn add_permission(
        &mut self,
        queue_url: &str,
        request: &AddPermission,
        by: Caller,
    ) -> SqsResult<()> {
        let request = Request::AddPermission { queue_url, request };
        answer!(self.call(&Principal::caller(by), request), AddPermission)
    }

    /// RemovePermission: takes the statement labelled `label` out of the
    /// queue's `Policy`; with the last statement, the `Policy` goes too.
    pub fn remove_permission(&mut self, queue_url: &str, label: &str, by: Caller) -> SqsResult<()> {
        let request = Request::RemovePermission { queue_url, label };
        answer!(self.call(&Principal::caller(by), request), RemovePermission)
    }

    pub fn send_message(&mut self, request: &SendMessage, by: Caller) -> SqsResult<SendResult> {
        let request = Request::SendMessage(request);
        answer!(self.call(&Principal::caller(by), request), SendMessage(_))
    }

    pub fn send_message_batch(
        &mut self,
        queue_url: &str,
        entries: &[(String, NewMessage)],
        by: Caller,
    ) -> SqsResult<BatchResult<SendResult>> {
        let request = Request::SendMessageBatch { queue_url, entries };
        answer!(
            self.call(&Principal::caller(by), request),
            SendMessageBatch(_)
        )
    }

    pub fn receive_message(
        &mut self,
        request: &ReceiveMessage,
        by: Caller,
    ) -> SqsResult<ReceiveOutcome> {
        let request = Request::ReceiveMessage(request);
        answer!(
            self.call(&Principal::caller(by), request),
            ReceiveMessage(_)
        )
    }

    pub fn delete_message(&mut self, queue_url: &str, handle: &str, by: Caller) -> SqsResult<()> {
        let request = Request::DeleteMessage {
            queue_url,
            receipt_handle: handle,
        };
        answer!(self.call(&Principal::caller(by), request), DeleteMessage)
    }

    pub fn delete_message_batch(
        &mut self,
        queue_url: &str,
        entries: &[(String, String)],
        by: Caller,
    ) -> SqsResult<BatchResult<()>> {
        let request = Request::DeleteMessageBatch { queue_url, entries };
        answer!(
            self.call(&Principal::caller(by), request),
            DeleteMessageBatch(_)
        )
    }

    pub fn change_message_visibility(
        &mut self,
        queue_url: &str,
        handle: &str,
        timeout: i64,
        by: Caller,
    ) -> SqsResult<()> {
        let request = Request::ChangeMessageVisibility {
            queue_url,
            receipt_handle: handle,
            visibility_timeout: timeout,
        };
        answer!(
            self.call(&Principal::caller(by), request),
            ChangeMessageVisibility
        )
    }

    /// ChangeMessageVisibilityBatch: each entry's handle and timeout (an
    /// entry without one sets 0).
    pub fn change_message_visibility_batch(
        &mut self,
        queue_url: &str,
        entries: &[(String, VisibilityEntry)],
        by: Caller,
    ) -> SqsResult<BatchResult<()>> {
        let request = Request::ChangeMessageVisibilityBatch { queue_url, entries };
        let call = self.call(&Principal::caller(by), request);
        answer!(call, ChangeMessageVisibilityBatch(_))
    }

    pub fn start_message_move_task(
        &mut self,
        source_arn: &str,
        destination_arn: Option<&str>,
        rate: Option<i64>,
    ) -> SqsResult<String> {
        let request = Request::StartMessageMoveTask {
            source_arn,
            destination_arn,
            max_number_of_messages_per_second: rate,
        };
        answer!(
            self.call(&Principal::owner(), request),
            StartMessageMoveTask(_)
        )
    }

    pub fn cancel_message_move_task(&mut self, handle: &str) -> SqsResult<u64> {
        let request = Request::CancelMessageMoveTask {
            task_handle: handle,
        };
        answer!(
            self.call(&Principal::owner(), request),
            CancelMessageMoveTask(_)
        )
    }

    // The owner's reads of its own engine, outside the gate (see above).

    pub fn get_queue_url(&self, name: &str, owner: Option<&str>) -> SqsResult<String> {
        self.get_queue_url_as(name, owner, &Principal::owner())
    }

    pub fn list_queues(
        &self,
        prefix: Option<&str>,
        max_results: Option<i64>,
        next_token: Option<&str>,
    ) -> SqsResult<ListQueuesResult> {
        self.list_queues_as(prefix, max_results, next_token, &Principal::owner())
    }

    pub fn list_dead_letter_source_queues(
        &self,
        queue_url: &str,
        max_results: Option<i64>,
        next_token: Option<&str>,
    ) -> SqsResult<ListQueuesResult> {
        let owner = Principal::owner();
        self.list_dead_letter_source_queues_as(queue_url, max_results, next_token, &owner)
    }

    pub fn get_queue_attributes(
        &self,
        queue_url: &str,
        selection: &AttributeSelection,
    ) -> SqsResult<Vec<QueueAttribute>> {
        self.get_queue_attributes_as(queue_url, selection, &Principal::owner())
    }

    pub fn list_queue_tags(&self, queue_url: &str) -> SqsResult<Tags> {
        self.list_queue_tags_as(queue_url, &Principal::owner())
    }

    pub fn list_message_move_tasks(
        &self,
        source_arn: &str,
        max_results: Option<i64>,
    ) -> SqsResult<Vec<MoveTaskInfo>> {
        self.list_message_move_tasks_as(source_arn, max_results, &Principal::owner())
    }
}
