//! The gate: the one path every call takes into the engine.
//! [`Engine::call`] authorises the principal, throttles, meters the call
//! once, and only then runs the operation. Each of those is one step
//! here, not a check repeated in every operation: a queue policy's
//! evaluation, a quota or a per-API metric is added to its step.
//!
//! Authorisation is access.rs (the queue's policy, evaluated as IAM
//! does); throttling is throttle.rs (a realism knob, off by default);
//! metering is billing.rs's meter.

use crate::action::Action;
use crate::api::{Request, Response};
use crate::error::SqsResult;
use crate::principal::Principal;
use crate::send::message_size;
use crate::Engine;

impl Engine {
    /// Makes one call as `by`: authorises it, throttles it, meters it, then
    /// runs the operation and answers with its typed result.
    pub fn call(&mut self, by: &Principal, request: Request<'_>) -> SqsResult<Response> {
        let action = request.action();
        self.authorise(by, &request)?;
        self.throttle(&request)?;
        match self.meter_call(by, action, &request)? {
            Some(queue) => self.run_message_call(by, request, queue),
            None => self.run_call(by, request),
        }
    }

    /// Holds the call to its queue's request quotas (throttle.rs), when
    /// the engine's realism has throttling on. A queue that does not
    /// resolve is left to the meter, whose answer it is.
    fn throttle(&mut self, request: &Request<'_>) -> SqsResult<()> {
        if !self.config.realism.throttling {
            return Ok(());
        }
        let Some(Ok(id)) = request.queue_url().map(|url| self.resolve(url)) else {
            return Ok(());
        };
        // Fields apart, not `self.queue`: the quotas are borrowed mutably.
        let queue = self.queues.get(&id).expect("resolved queue ids exist");
        let (settings, fifo) = (&queue.settings, queue.fifo);
        self.quotas
            .take(self.now, id, settings, fifo, &self.config.region, request)
    }

    /// Bills the call (billing.rs: every action is a request) once its
    /// queue is known, whether or not the operation then fails: one call
    /// per request, a batch included, its payload the bodies and
    /// attributes sent. Answers the queue a message call resolved, so the
    /// operation does not look it up again. A queue URL that does not
    /// resolve is not billed: it is a message call's answer (each message
    /// call's first check), and a management call's operation answers it.
    fn meter_call(
        &mut self,
        by: &Principal,
        action: Action,
        request: &Request<'_>,
    ) -> SqsResult<Option<u32>> {
        let queue = match request.queue_url().map(|url| self.resolve(url)) {
            Some(Ok(id)) => Some(id),
            Some(Err(error)) if action.message_call() => return Err(error),
            Some(Err(_)) => return Ok(None),
            None => None,
        };
        let fifo = match (queue, request) {
            (Some(id), _) => self.queue(id).fifo,
            // The calls that name a queue by its name: a FIFO queue's ends
            // in ".fifo". The account's calls (ListQueues, the move tasks
            // by ARN or handle) are billed at the standard price.
            (None, Request::CreateQueue { name, .. } | Request::GetQueueUrl { name, .. }) => {
                name.ends_with(".fifo")
            }
            (None, _) => false,
        };
        let payload = match request {
            Request::SendMessage(r) => message_size(&r.message),
            Request::SendMessageBatch { entries, .. } => {
                entries.iter().map(|(_, m)| message_size(m)).sum()
            }
            _ => 0,
        };
        self.meter.bill(by.name(), action, fifo, payload);
        Ok(queue.filter(|_| action.message_call()))
    }

    /// A management call (the calls on queues and the move tasks), given
    /// the principal it is made as.
    fn run_call(&mut self, by: &Principal, request: Request<'_>) -> SqsResult<Response> {
        use Request as Q;
        use Response as A;
        Ok(match request {
            Q::CreateQueue {
                name,
                attributes: a,
                tags,
            } => A::CreateQueue(self.create_queue_as(name, a, tags, by)?),
            Q::GetQueueUrl { name, owner } => {
                A::GetQueueUrl(self.get_queue_url_as(name, owner, by)?)
            }
            Q::ListQueues {
                prefix,
                max_results: max,
                next_token: next,
            } => A::ListQueues(self.list_queues_as(prefix, max, next, by)?),
            Q::ListDeadLetterSourceQueues {
                queue_url: url,
                max_results: max,
                next_token: next,
            } => A::ListDeadLetterSourceQueues(
                self.list_dead_letter_source_queues_as(url, max, next, by)?,
            ),
            Q::DeleteQueue { queue_url } => self
                .delete_queue_as(queue_url, by)
                .map(|()| A::DeleteQueue)?,
            Q::GetQueueAttributes {
                queue_url: url,
                selection,
            } => A::GetQueueAttributes(self.get_queue_attributes_as(url, selection, by)?),
            Q::SetQueueAttributes {
                queue_url: url,
                attributes,
            } => self
                .set_queue_attributes_as(url, attributes, by)
                .map(|()| A::SetQueueAttributes)?,
            Q::PurgeQueue { queue_url } => {
                self.purge_queue_as(queue_url, by).map(|()| A::PurgeQueue)?
            }
            Q::TagQueue {
                queue_url: url,
                tags,
            } => self.tag_queue_as(url, tags, by).map(|()| A::TagQueue)?,
            Q::UntagQueue {
                queue_url: url,
                keys,
            } => self.untag_queue_as(url, keys, by).map(|()| A::UntagQueue)?,
            Q::ListQueueTags { queue_url } => {
                A::ListQueueTags(self.list_queue_tags_as(queue_url, by)?)
            }
            Q::AddPermission {
                queue_url: url,
                request,
            } => self
                .add_permission_as(url, request, by)
                .map(|()| A::AddPermission)?,
            Q::RemovePermission {
                queue_url: url,
                label,
            } => self
                .remove_permission_as(url, label, by)
                .map(|()| A::RemovePermission)?,
            Q::StartMessageMoveTask {
                source_arn: arn,
                destination_arn: to,
                max_number_of_messages_per_second: rate,
            } => A::StartMessageMoveTask(self.start_message_move_task_as(arn, to, rate, by)?),
            Q::CancelMessageMoveTask { task_handle } => {
                A::CancelMessageMoveTask(self.cancel_message_move_task_as(task_handle, by)?)
            }
            Q::ListMessageMoveTasks {
                source_arn: arn,
                max_results: max,
            } => A::ListMessageMoveTasks(self.list_message_move_tasks_as(arn, max, by)?),
            message_call => unreachable!("{:?} is a message call", message_call.action()),
        })
    }

    /// A message call on the queue `queue` the gate resolved.
    fn run_message_call(
        &mut self,
        by: &Principal,
        request: Request<'_>,
        queue: u32,
    ) -> SqsResult<Response> {
        use Request as Q;
        use Response as A;
        Ok(match request {
            Q::SendMessage(r) => A::SendMessage(self.send_message_in(queue, &r.message, by)?),
            Q::SendMessageBatch { entries, .. } => {
                A::SendMessageBatch(self.send_message_batch_in(queue, entries, by)?)
            }
            Q::ReceiveMessage(r) => A::ReceiveMessage(self.receive_message_in(queue, r, by)?),
            Q::DeleteMessage { receipt_handle, .. } => {
                self.delete_in(queue, receipt_handle, by)?;
                A::DeleteMessage
            }
            Q::DeleteMessageBatch { entries, .. } => {
                A::DeleteMessageBatch(self.delete_message_batch_in(queue, entries, by)?)
            }
            Q::ChangeMessageVisibility {
                receipt_handle: handle,
                visibility_timeout: timeout,
                ..
            } => {
                self.change_visibility_in(queue, handle, timeout, by)?;
                A::ChangeMessageVisibility
            }
            Q::ChangeMessageVisibilityBatch { entries, .. } => A::ChangeMessageVisibilityBatch(
                self.change_message_visibility_batch_in(queue, entries, by)?,
            ),
            management => unreachable!("{:?} is a management call", management.action()),
        })
    }
}
