//! Where what actors decide meets the engine: every SQS call a producer,
//! a schedule, an alarm or a worker makes (SendMessage, CreateQueue,
//! DeleteQueue, GetQueueAttributes, ReceiveMessage, DeleteMessage,
//! DeleteMessageBatch, ChangeMessageVisibility) and the side-effect ledger. Actors
//! (`actors/`), the workers' loop (`worker.rs`) and the behaviours
//! (`behaviours/`) only decide; this applies, through the engine's gate
//! (`calls.rs`) as the owner under the actor's name, or as the account a
//! scenario gives it, or as the service a neighbour sends as, like any
//! other caller.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::actors::{self, Actor as _, Outcome};
use crate::payload::{self, Location};
use crate::s3::api::{ObjectKey, PutObject, S3Answer, S3Call};
use crate::scenario::DeleteObject;
use crate::worker::{self, Effect, Resolved};
use crate::{calls, observer, queue_name, units, SimEvent, Simulation};
use queuelab_engine::{
    AttributeName, AttributeSelection, Engine, EventKind, Millis, NewMessage, Principal,
    QueueAttribute, ReceiveMessage, ReceiveOutcome, ReceivedMessage, SendMessage, SqsError,
    SqsResult,
};

/// What actors read of the engine: calls any caller may make, none that
/// changes anything (`Observe` has no other method).
impl actors::Observe for Engine {
    fn visible(&self, queue_url: &str) -> Option<u64> {
        queue_number(self, queue_url, AttributeName::ApproximateNumberOfMessages)
    }
    fn visibility_timeout(&self, queue_url: &str) -> Option<u64> {
        queue_number(self, queue_url, AttributeName::VisibilityTimeout)
    }
    fn queue_arn(&self, queue_url: &str) -> Option<String> {
        queue_arn(self, queue_url)
    }
}

/// The most follow-up commands one moment runs for an actor (retries, a
/// dead-letter send, a verdict and the sends it let go): a bound, so an
/// actor that always has more cannot stall the run.
const MAX_FOLLOW_UPS: usize = 10_000;

/// Who an actor's send is made as: the scenario's account for it, or the
/// owner, under the actor's name either way.
fn acting_as(name: &str, account: Option<Principal>) -> Principal {
    match account {
        Some(principal) => principal.named(name),
        None => Principal::caller(Some(name)),
    }
}

/// A queue's ARN, read through GetQueueAttributes as any caller would.
fn queue_arn(engine: &Engine, url: &str) -> Option<String> {
    let selection = AttributeSelection::Names(vec![AttributeName::QueueArn]);
    match engine.get_queue_attributes(url, &selection).ok()?.first()? {
        QueueAttribute::QueueArn(arn) => Some(arn.clone()),
        _ => None,
    }
}

/// A numeric queue attribute, read through GetQueueAttributes as any
/// caller would (workers and alarms never look inside a queue).
fn queue_number(engine: &Engine, url: &str, name: AttributeName) -> Option<u64> {
    let selection = AttributeSelection::Names(vec![name]);
    match engine.get_queue_attributes(url, &selection).ok()?.first()? {
        QueueAttribute::VisibilityTimeout(v) => u64::try_from(*v).ok(),
        QueueAttribute::ApproximateNumberOfMessages(v) => Some(*v),
        _ => None,
    }
}

impl Simulation {
    /// Carries out actor `index`'s commands in order, telling it what
    /// became of each before the next; what it decides on an outcome
    /// (`Actor::follow_up`) runs next, before the rest.
    pub(crate) fn execute(&mut self, index: usize, commands: Vec<actors::Command>, now: Millis) {
        let mut queue: VecDeque<_> = commands.into();
        let mut follow_ups = 0;
        while let Some(command) = queue.pop_front() {
            let outcome = self.carry_out(index, command, now);
            self.actors[index].outcome(&outcome);
            let next = self.actors[index].follow_up(now);
            follow_ups += next.len();
            // An actor's follow-ups end (a retry policy runs out, a verdict
            // is given once); the bound keeps a mistaken one from hanging
            // the run.
            debug_assert!(
                follow_ups <= MAX_FOLLOW_UPS,
                "an actor followed up without end"
            );
            if follow_ups <= MAX_FOLLOW_UPS {
                for command in next.into_iter().rev() {
                    queue.push_front(command);
                }
            }
        }
    }

    /// One command of actor `index`, and what became of it.
    fn carry_out(&mut self, index: usize, command: actors::Command, now: Millis) -> Outcome {
        let name = self.actors[index].name().clone();
        match command {
            actors::Command::Send {
                queue_url,
                message,
                account,
            } => {
                let by = acting_as(&name, account);
                match self.send(&by, queue_url, message, None, now) {
                    Ok(outcome) => outcome,
                    Err(error) => self.failed(&name, "SendMessage", error),
                }
            }
            actors::Command::SendBatch {
                queue_url,
                messages,
                account,
            } => {
                let by = acting_as(&name, account);
                self.send_batch(&name, &by, &queue_url, messages, now)
            }
            actors::Command::SendAs {
                queue_url,
                message,
                principal,
            } => {
                let by = principal.named(&name);
                self.send(&by, queue_url, message, None, now)
                    .unwrap_or_else(Outcome::Refused)
            }
            actors::Command::CreateQueue {
                name: queue,
                attributes,
            } => self.create_queue_for(&name, &queue, &attributes),
            actors::Command::DeleteQueue { queue_url } => self.delete_queue_for(&name, &queue_url),
            actors::Command::PurgeQueue { queue_url } => {
                self.count_work(1);
                match self.engine.purge_queue(&queue_url) {
                    Ok(()) => Outcome::Done,
                    Err(error) => self.failed(&name, "PurgeQueue", error),
                }
            }
            actors::Command::StartMoveTask {
                source_url,
                destination_url,
                rate,
            } => self.start_move_task(&name, &source_url, destination_url.as_deref(), rate),
            actors::Command::CancelMoveTask { handle } => {
                self.count_work(1);
                match self.engine.cancel_message_move_task(&handle) {
                    Ok(_) => Outcome::Done,
                    Err(error) => self.failed(&name, "CancelMessageMoveTask", error),
                }
            }
            actors::Command::AddPermission { queue_url, request } => {
                self.count_work(1);
                match (self.engine).add_permission(&queue_url, &request, Some(&name)) {
                    Ok(()) => Outcome::Done,
                    Err(error) => self.failed(&name, "AddPermission", error),
                }
            }
            actors::Command::SetKeyState { key, state } => self.set_key_state(&name, &key, state),
            actors::Command::Receive {
                queue_url,
                max_number_of_messages,
                wait_time_seconds,
            } => self.receive_for(&name, queue_url, max_number_of_messages, wait_time_seconds),
            actors::Command::DeleteBatch { queue_url, entries } => {
                self.delete_batch(&name, &queue_url, &entries)
            }
            actors::Command::Perform {
                message_id,
                body,
                effect,
            } => self.perform_for(name, message_id, &body, effect),
            actors::Command::DoneWith { message_id } => {
                if self.ledger.is_gone_while_held(&message_id) && !self.is_held(&message_id) {
                    self.gone(&message_id);
                }
                Outcome::Done
            }
            actors::Command::PutObject { bucket, key, body } => {
                self.put_object_for(&name, bucket, key, body)
            }
            actors::Command::Log(event) => {
                self.emit(event);
                Outcome::Logged
            }
        }
    }

    /// An actor's CreateQueue, under its name, so the bill counts its
    /// queues' calls as its own.
    fn create_queue_for(
        &mut self,
        name: &Arc<str>,
        queue: &str,
        attributes: &[QueueAttribute],
    ) -> Outcome {
        self.count_work(1);
        let by = Principal::caller(Some(name));
        match calls::create_queue(&mut self.engine, &by, queue, attributes) {
            Ok(queue_url) => Outcome::Created { queue_url },
            Err(error) => self.failed(name, "CreateQueue", error),
        }
    }

    /// An actor's DeleteQueue, under its name.
    fn delete_queue_for(&mut self, name: &Arc<str>, queue_url: &str) -> Outcome {
        self.count_work(1);
        let by = Principal::caller(Some(name));
        match calls::delete_queue(&mut self.engine, &by, queue_url) {
            Ok(()) => Outcome::Deleted,
            Err(error) => self.failed(name, "DeleteQueue", error),
        }
    }

    /// An actor's PutObject through the run's S3 API, and S3's answer.
    fn put_object_for(
        &mut self,
        name: &Arc<str>,
        bucket: String,
        key: String,
        body: String,
    ) -> Outcome {
        self.count_work(1 + units::body_units(body.len()));
        let call = S3Call::PutObject(PutObject {
            bucket: Some(bucket),
            key: Some(key),
            body: Some(body),
            content_type: None,
        });
        Outcome::S3(self.s3(call, &Principal::caller(Some(name))))
    }

    /// KMS DisableKey or EnableKey, for actor `name` (not an SQS call).
    fn set_key_state(
        &mut self,
        name: &Arc<str>,
        key: &str,
        state: queuelab_engine::KeyState,
    ) -> Outcome {
        self.count_work(1);
        let action = match state {
            queuelab_engine::KeyState::Enabled => "EnableKey",
            queuelab_engine::KeyState::Disabled => "DisableKey",
            queuelab_engine::KeyState::PendingDeletion => "ScheduleKeyDeletion",
        };
        match self.engine.set_key_state(key, state) {
            Ok(()) => Outcome::Done,
            Err(e) => self.failed(name, action, SqsError::invalid_parameter(e)),
        }
    }

    /// An actor's side effect on a message (a Lambda function's handler),
    /// counted in the ledger under its name.
    fn perform_for(
        &mut self,
        name: Arc<str>,
        message_id: String,
        body: &str,
        effect: String,
    ) -> Outcome {
        self.count_work(1);
        let body = queuelab_engine::echo(body).into_owned();
        // The event about to be logged gets this number or a later one.
        let seq = self.next_event_seq();
        let performed = (self.ledger).perform(&message_id, &body, &effect, &name, seq);
        self.emit(SimEvent::SideEffectPerformed {
            consumer: name,
            message_id,
            effect,
            count: performed.count,
        });
        Outcome::Done
    }

    /// An actor's SendMessage, made as `by` (named for the actor); a
    /// worker's, `again_of` the message it re-delays.
    fn send(
        &mut self,
        by: &Principal,
        queue_url: String,
        message: NewMessage,
        again_of: Option<&str>,
        now: Millis,
    ) -> SqsResult<Outcome> {
        let request = SendMessage { queue_url, message };
        // The actor's action, its SendMessage call, and its body's bytes.
        self.count_work(2 + units::body_units(request.message.body.len()));
        let before = self.engine.next_event_seq();
        match calls::send(&mut self.engine, by, &request) {
            Ok(result) => {
                // SQS answers a deduplicated FIFO send like any other;
                // only the engine's event says it was dropped.
                let dropped = self
                    .engine
                    .events(before - 1)
                    .any(|e| matches!(e.kind, EventKind::DuplicateDropped { .. }));
                if dropped {
                    return Ok(Outcome::Deduplicated);
                }
                // A lab's goal reads the whole body (poison patterns) and the
                // attributes, which the engine's event does not carry: read
                // from the request, which the call only borrowed.
                if self.observers.iter().any(|o| o.wants_sends()) {
                    let queue = queue_name(&request.queue_url);
                    let attributes = actors::string_attributes(&request.message);
                    let send = observer::Produced {
                        message_id: &result.message_id,
                        queue: &queue,
                        body: &request.message.body,
                        attributes: &attributes,
                        group: request.message.group_id.as_deref(),
                        again_of,
                    };
                    for o in &mut self.observers {
                        o.produced(now, &send);
                    }
                }
                Ok(Outcome::Sent {
                    message_id: result.message_id,
                })
            }
            Err(error) => Err(error),
        }
    }

    /// A producer's SendMessageBatch, and what became of its messages: each
    /// stored one told to the observers as a send is, each refused entry
    /// (or the whole call) logged as the run's `actionFailed`.
    fn send_batch(
        &mut self,
        name: &Arc<str>,
        by: &Principal,
        queue_url: &str,
        messages: Vec<NewMessage>,
        now: Millis,
    ) -> Outcome {
        let units: u64 = (messages.iter())
            .map(|m| units::body_units(m.body.len()))
            .sum();
        self.count_work(2 + units);
        let entries: Vec<(String, NewMessage)> = (messages.into_iter().enumerate())
            .map(|(i, m)| (i.to_string(), m))
            .collect();
        let before = self.engine.next_event_seq();
        let result = match calls::send_batch(&mut self.engine, by, queue_url, &entries) {
            Ok(result) => result,
            Err(error) => {
                self.action_failed(name, "SendMessageBatch", error);
                let failed = entries.len() as u64;
                return Outcome::Batch {
                    sent: 0,
                    deduplicated: 0,
                    failed,
                };
            }
        };
        let deduplicated = (self.engine.events(before - 1))
            .filter(|e| matches!(e.kind, EventKind::DuplicateDropped { .. }))
            .count() as u64;
        for failure in &result.failed {
            self.emit(SimEvent::ActionFailed {
                actor: name.clone(),
                action: "SendMessageBatch",
                code: failure.code,
                error: failure.message.clone(),
            });
        }
        if self.observers.iter().any(|o| o.wants_sends()) {
            let queue = queue_name(queue_url).to_string();
            for (id, sent) in &result.successful {
                let Some((_, message)) = entries.iter().find(|(entry, _)| entry == id) else {
                    continue;
                };
                let attributes = actors::string_attributes(message);
                let send = observer::Produced {
                    message_id: &sent.message_id,
                    queue: &queue,
                    body: &message.body,
                    attributes: &attributes,
                    group: message.group_id.as_deref(),
                    again_of: None,
                };
                for o in &mut self.observers {
                    o.produced(now, &send);
                }
            }
        }
        let stored = result.successful.len() as u64;
        Outcome::Batch {
            sent: stored.saturating_sub(deduplicated),
            deduplicated,
            failed: result.failed.len() as u64,
        }
    }

    /// An operator's StartMessageMoveTask: the queues' ARNs read as any
    /// caller reads them (GetQueueAttributes QueueArn), then the call.
    fn start_move_task(
        &mut self,
        name: &Arc<str>,
        source_url: &str,
        destination_url: Option<&str>,
        rate: Option<i64>,
    ) -> Outcome {
        self.count_work(3);
        let arn = |url: &str| match queue_arn(&self.engine, url) {
            Some(arn) => Ok(arn),
            None => Err(SqsError::no_queue()),
        };
        let arns = arn(source_url).and_then(|source| match destination_url {
            Some(d) => Ok((source, Some(arn(d)?))),
            None => Ok((source, None)),
        });
        let started = arns.and_then(|(source, destination)| {
            (self.engine).start_message_move_task(&source, destination.as_deref(), rate)
        });
        match started {
            Ok(handle) => Outcome::MoveStarted { handle },
            Err(error) => self.failed(name, "StartMessageMoveTask", error),
        }
    }

    /// An actor's ReceiveMessage with every attribute (a Lambda poller's):
    /// the messages, or the long poll that waits.
    fn receive_for(&mut self, name: &Arc<str>, queue_url: String, max: i64, wait: i64) -> Outcome {
        let request = ReceiveMessage {
            queue_url,
            max_number_of_messages: Some(max),
            wait_time_seconds: Some(wait),
            system_attribute_names: vec!["All".into()],
            message_attribute_names: vec!["All".into()],
            ..ReceiveMessage::default()
        };
        self.count_work(2);
        match calls::receive(&mut self.engine, &Principal::caller(Some(name)), &request) {
            Ok(ReceiveOutcome::Done(messages)) => {
                // Each body is copied into the event, then read by the handler.
                let bytes = messages.iter().map(|m| m.body.len()).sum::<usize>();
                self.count_work(messages.len() as u64 + 2 * units::body_units(bytes));
                Outcome::Received(messages)
            }
            Ok(ReceiveOutcome::Waiting(poll)) => Outcome::Waiting(poll),
            Err(error) => self.failed(name, "ReceiveMessage", error),
        }
    }

    /// An actor's DeleteMessageBatch; each failed entry is logged.
    fn delete_batch(
        &mut self,
        name: &Arc<str>,
        queue_url: &str,
        entries: &[(String, String)],
    ) -> Outcome {
        self.count_work(1 + entries.len() as u64);
        let request = queuelab_engine::Request::DeleteMessageBatch { queue_url, entries };
        let by = Principal::caller(Some(name));
        match self.engine.call(&by, request) {
            Ok(queuelab_engine::Response::DeleteMessageBatch(result)) => {
                for failure in result.failed {
                    self.emit(SimEvent::ActionFailed {
                        actor: name.clone(),
                        action: "DeleteMessageBatch",
                        code: failure.code,
                        error: failure.message,
                    });
                }
                Outcome::Done
            }
            Ok(_) => Outcome::Done,
            Err(error) => self.failed(name, "DeleteMessageBatch", error),
        }
    }

    fn failed(&mut self, actor: &Arc<str>, action: &'static str, error: SqsError) -> Outcome {
        self.action_failed(actor, action, error);
        Outcome::Failed
    }
}

impl Simulation {
    /// Worker `index` is due now: its transition, carried out.
    pub(crate) fn step_worker(&mut self, index: usize, now: Millis) {
        let mut seen = worker::Seen {
            rng: &mut self.rng,
            answer: None,
        };
        let effects = self.workers[index].step(now, &mut seen);
        self.run_worker(index, effects, now);
    }

    /// A receive of worker `index` came back: its transition, carried out.
    pub(crate) fn deliver(
        &mut self,
        index: usize,
        result: SqsResult<Vec<ReceivedMessage>>,
        now: Millis,
    ) {
        let mut result = result;
        let payloads = match &mut result {
            Ok(messages) => self.resolve_payloads(index, messages),
            Err(_) => Vec::new(),
        };
        // Which worker already processes each message (a duplicate delivery).
        let holders: Vec<Option<Arc<str>>> = match &result {
            Ok(messages) => messages
                .iter()
                .map(|m| {
                    let holder = self.workers.iter().find(|w| w.is_processing(&m.message_id));
                    holder.map(|w| w.name.clone())
                })
                .collect(),
            Err(_) => Vec::new(),
        };
        let mut seen = worker::Seen {
            rng: &mut self.rng,
            answer: Some((result, holders, payloads)),
        };
        let effects = self.workers[index].step(now, &mut seen);
        self.run_worker(index, effects, now);
    }

    /// Carries out worker `index`'s effects, in order.
    fn run_worker(&mut self, index: usize, effects: Vec<Effect>, now: Millis) {
        let (consumer, url, by) = {
            let w = &self.workers[index];
            (w.name.clone(), w.url.clone(), w.principal.clone())
        };
        for effect in effects {
            match effect {
                Effect::Work(units) => self.count_work(units),
                Effect::Log(event) => self.emit(event),
                Effect::Receive => match self.receive(index) {
                    Ok(ReceiveOutcome::Done(messages)) => self.deliver(index, Ok(messages), now),
                    Ok(ReceiveOutcome::Waiting(poll)) => self.workers[index].polling(poll),
                    Err(error) => self.deliver(index, Err(error), now),
                },
                Effect::Delete { handle, payload } => {
                    self.count_work(1);
                    let before = self.engine.next_event_seq();
                    // The extended client deletes the object first, then
                    // the message with SQS's own handle.
                    let sqs_handle = match payload::split_handle(&handle) {
                        Some((at, sqs_handle)) => {
                            if self.deletes_objects(index, DeleteObject::WithMessage) {
                                self.delete_object(index, &at);
                            }
                            sqs_handle.to_string()
                        }
                        None => handle.clone(),
                    };
                    match calls::delete(&mut self.engine, &by, &url, &sqs_handle) {
                        Ok(()) => {
                            // The guide's fix: the object goes once the
                            // message is processed and deleted.
                            if let Some(at) = &payload {
                                if self.deletes_objects(index, DeleteObject::WithMessage) {
                                    self.delete_object(index, at);
                                }
                            }
                            // SQS answers a delete that missed a copy (realism)
                            // like any other; only the engine's event says so.
                            let missed = (self.engine.events(before - 1))
                                .any(|e| matches!(e.kind, EventKind::DeleteMissedCopy { .. }));
                            if missed {
                                self.workers[index].delete_missed(handle.clone());
                            }
                            self.workers[index].deleted(handle);
                        }
                        Err(error) => self.action_failed(&consumer, "DeleteMessage", error),
                    }
                }
                Effect::ChangeVisibility {
                    handles,
                    seconds,
                    heartbeat,
                } => {
                    let seconds = match seconds {
                        Some(seconds) => seconds,
                        None => {
                            self.count_work(1);
                            self.visibility_timeout(&url)
                        }
                    };
                    for handle in handles {
                        self.count_work(1);
                        let handle = match payload::split_handle(&handle) {
                            Some((_, sqs_handle)) => sqs_handle.to_string(),
                            None => handle,
                        };
                        if let Err(error) =
                            calls::change_visibility(&mut self.engine, &by, &url, &handle, seconds)
                        {
                            self.action_failed(&consumer, "ChangeMessageVisibility", error);
                            if heartbeat {
                                self.workers[index].stop_heartbeat();
                            }
                        }
                    }
                }
                Effect::Redelay {
                    message_id,
                    body,
                    attributes,
                    seconds,
                    handle,
                } => self.redelay(index, (message_id, body), attributes, seconds, handle, now),
                Effect::Perform {
                    message_id,
                    body,
                    once,
                } => self.side_effect(index, &message_id, &body, once),
                Effect::DoneWith { message_id } => self.done_with(index, &message_id),
                Effect::PublishMetrics {
                    processing_ms,
                    success,
                } => self.publish_metrics(index, processing_ms, success),
                Effect::Become(state) => self.workers[index].state = state,
            }
        }
    }

    /// A worker's message not yet due (`again`: its id and body), sent
    /// again to its queue delayed `seconds` (its calls, billed like any),
    /// then the original deleted.
    fn redelay(
        &mut self,
        index: usize,
        again: (String, String),
        attributes: Vec<queuelab_engine::MessageAttribute>,
        seconds: i64,
        handle: String,
        now: Millis,
    ) {
        let (message_id, body) = again;
        let worker = &self.workers[index];
        let (consumer, url, by) = (
            worker.name.clone(),
            worker.url.clone(),
            worker.principal.clone(),
        );
        let message = NewMessage {
            body,
            delay_seconds: Some(seconds),
            attributes,
            ..NewMessage::default()
        };
        if let Err(error) = self.send(&by, url, message, Some(&message_id), now) {
            self.action_failed(&consumer, "SendMessage", error);
            return;
        }
        // The copy sent again points at the same payload: only the message goes.
        let delete = Effect::Delete {
            handle,
            payload: None,
        };
        self.run_worker(index, vec![delete], now);
    }

    /// The worker's ReceiveMessage, as its spec configures it (a reader
    /// of payloads asks for the pointers' attributes, as the extended
    /// client adds its reserved names to the request).
    fn receive(&mut self, index: usize) -> SqsResult<ReceiveOutcome> {
        let worker = &self.workers[index];
        let pointers = [
            payload::RESERVED_ATTRIBUTE,
            payload::LEGACY_RESERVED_ATTRIBUTE,
            payload::LOCATION_ATTRIBUTE,
        ];
        let message_attribute_names = match worker.spec.payloads {
            Some(_) => pointers.iter().map(|n| n.to_string()).collect(),
            None => Vec::new(),
        };
        let request = ReceiveMessage {
            queue_url: worker.url.clone(),
            max_number_of_messages: Some(worker.spec.batch_size),
            wait_time_seconds: Some(worker.spec.wait_time_seconds),
            system_attribute_names: vec!["ApproximateReceiveCount".into()],
            // Only a handler that reads an attribute asks for them: a
            // re-delaying one all of them, a reader of payloads the pointers'.
            message_attribute_names: match &worker.spec.behaviour.redelay_until {
                Some(_) => vec!["All".into()],
                None => message_attribute_names,
            },
            ..ReceiveMessage::default()
        };
        let by = worker.principal.clone();
        self.count_work(1);
        calls::receive(&mut self.engine, &by, &request)
    }

    /// Worker `index` reads its messages' pointers, as its library's
    /// receive does: GetObject of each, the body replaced by the payload
    /// (the extended client's receipt handle made the extended one), the
    /// object deleted at once by a reader that deletes on receive. A
    /// pointer to nothing is logged and marked: processing it fails.
    fn resolve_payloads(
        &mut self,
        index: usize,
        messages: &mut [ReceivedMessage],
    ) -> Vec<Resolved> {
        if self.workers[index].spec.payloads.is_none() {
            return Vec::new();
        }
        let (consumer, by) = {
            let w = &self.workers[index];
            (w.name.clone(), w.principal.clone())
        };
        let mut out = Vec::with_capacity(messages.len());
        for m in messages.iter_mut() {
            let Some((at, extended)) = payload::pointer(&m.body, &m.message_attributes) else {
                out.push(Resolved::default());
                continue;
            };
            self.count_work(1);
            let call = S3Call::GetObject(ObjectKey {
                bucket: Some(at.bucket.clone()),
                key: Some(at.key.clone()),
            });
            let missing = match self.s3(call, &by) {
                Ok(S3Answer::Object(object)) => {
                    self.count_work(units::body_units(object.body.len()));
                    self.emit(SimEvent::PayloadResolved {
                        consumer: consumer.clone(),
                        message_id: m.message_id.clone(),
                        bucket: at.bucket.clone(),
                        key: at.key.clone(),
                        size_bytes: object.content_length,
                    });
                    m.body = object.body;
                    if self.deletes_objects(index, DeleteObject::OnReceive) {
                        self.delete_object(index, &at);
                    }
                    false
                }
                Ok(_) => false,
                Err(e) => {
                    self.emit(SimEvent::PayloadMissing {
                        consumer: consumer.clone(),
                        message_id: m.message_id.clone(),
                        bucket: at.bucket.clone(),
                        key: at.key.clone(),
                        code: e.code,
                        error: e.message,
                    });
                    true
                }
            };
            if extended {
                m.receipt_handle = payload::extended_handle(&m.receipt_handle, &at);
            }
            out.push(Resolved {
                guide_object: (!extended).then_some(at),
                missing,
            });
        }
        out
    }

    /// Whether worker `index` deletes payload objects `when`.
    fn deletes_objects(&self, index: usize, when: DeleteObject) -> bool {
        let spec = &self.workers[index].spec;
        spec.payloads
            .as_ref()
            .is_some_and(|p| p.delete_object == when)
    }

    /// Worker `index`'s DeleteObject of a payload; a refusal is logged as
    /// any refused call of the worker is.
    fn delete_object(&mut self, index: usize, at: &Location) {
        let (consumer, by) = {
            let w = &self.workers[index];
            (w.name.clone(), w.principal.clone())
        };
        self.count_work(1);
        let call = S3Call::DeleteObject(ObjectKey {
            bucket: Some(at.bucket.clone()),
            key: Some(at.key.clone()),
        });
        if let Err(e) = self.s3(call, &by) {
            self.emit(SimEvent::ActionFailed {
                actor: consumer,
                action: "DeleteObject",
                code: e.code,
                error: e.message,
            });
        }
    }

    fn visibility_timeout(&self, url: &str) -> i64 {
        queue_number(&self.engine, url, AttributeName::VisibilityTimeout).map_or(30, |v| v as i64)
    }

    pub(crate) fn action_failed(
        &mut self,
        actor: &Arc<str>,
        action: &'static str,
        error: SqsError,
    ) {
        self.emit(SimEvent::action_failed(actor, action, error));
    }

    /// A worker's PutMetricData after a message, as AWS's guide to SQS
    /// consumers publishes: `ProcessingTime` (Milliseconds) and
    /// `ProcessingSuccess` (Count) to its `publishMetrics` namespace. A
    /// refusal is logged as any refused call of the worker is.
    fn publish_metrics(&mut self, index: usize, processing_ms: Millis, success: bool) {
        use crate::cloudwatch::api::{CwCall, MetricDatum, PutMetricData};
        let worker = &self.workers[index];
        let Some(publish) = &worker.spec.publish_metrics else {
            return;
        };
        let (consumer, by) = (worker.name.clone(), worker.principal.clone());
        let datum = |name: &str, value: f64, unit: &str| MetricDatum {
            metric_name: Some(name.into()),
            value: Some(value),
            unit: Some(unit.into()),
            ..MetricDatum::default()
        };
        let call = CwCall::PutMetricData(PutMetricData {
            namespace: Some(publish.namespace.clone()),
            metric_data: vec![
                datum("ProcessingTime", processing_ms as f64, "Milliseconds"),
                datum(
                    "ProcessingSuccess",
                    if success { 1.0 } else { 0.0 },
                    "Count",
                ),
            ],
        });
        self.count_work(1);
        if let Err(e) = self.cloudwatch(call, &by) {
            self.emit(SimEvent::ActionFailed {
                actor: consumer,
                action: "PutMetricData",
                code: e.code,
                error: e.message,
            });
        }
    }

    /// Performs the side effect, or skips it when `once` and an idempotent
    /// handler recorded the message already (a table all of them share).
    fn side_effect(&mut self, index: usize, message_id: &str, body: &str, once: bool) {
        let worker = &self.workers[index];
        let consumer = worker.name.clone();
        if once && self.ledger.seen_once(message_id) {
            self.emit(SimEvent::SkippedAlreadyProcessed {
                consumer,
                message_id: message_id.to_owned(),
            });
            return;
        }
        let effect = worker.spec.side_effect.clone();
        self.workers[index].side_effects += 1;
        // The event about to be logged gets this number or a later one.
        let seq = self.next_event_seq();
        let performed = self
            .ledger
            .perform(message_id, body, &effect, &consumer, seq);
        self.emit(SimEvent::SideEffectPerformed {
            consumer,
            message_id: message_id.to_owned(),
            effect,
            count: performed.count,
        });
    }

    /// A message that left the engine for good (deleted, expired, purged)
    /// and that no worker holds is forgotten by the ledger's bounded parts.
    pub(crate) fn forget_if_gone(&mut self, kind: &EventKind) {
        let id = match kind {
            EventKind::Deleted { message_id, .. }
            | EventKind::Expired { message_id, .. }
            | EventKind::Purged { message_id, .. } => message_id.to_string(),
            _ => return,
        };
        match self.is_held(&id) {
            false => self.gone(&id),
            true => self.ledger.gone_while_held(&id),
        }
    }

    /// Whether a worker is processing `id`, or an actor holds it (a Lambda
    /// poller's batch).
    fn is_held(&self, id: &str) -> bool {
        self.workers.iter().any(|w| w.is_processing(id)) || self.actors.iter().any(|a| a.holds(id))
    }

    /// Worker `index` is done with `id`: a message that left the engine
    /// while held is forgotten once no other worker holds it.
    pub(crate) fn done_with(&mut self, index: usize, id: &str) {
        let held_elsewhere = self
            .workers
            .iter()
            .enumerate()
            .any(|(i, w)| i != index && w.is_processing(id));
        if self.ledger.is_gone_while_held(id) && !held_elsewhere {
            self.gone(id);
        }
    }

    /// A message is gone for good: what follows it per message forgets it.
    fn gone(&mut self, id: &str) {
        self.ledger.gone(id);
        for o in &mut self.observers {
            o.forget(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::*;
    use crate::actors::{Actor, Command, Reads};
    use queuelab_engine::Config;

    /// Creates a queue at 10 ms and deletes it at 20 ms, noting outcomes.
    struct Requester {
        name: Arc<str>,
        next: Option<Millis>,
        seen: Rc<RefCell<Vec<Outcome>>>,
    }

    impl Actor for Requester {
        fn name(&self) -> &Arc<str> {
            &self.name
        }
        fn wake_at(&self) -> Option<Millis> {
            self.next
        }
        fn step(&mut self, now: Millis, _seen: &mut Reads) -> Vec<Command> {
            self.next = (now == 10).then_some(20);
            match self.seen.borrow().last() {
                Some(Outcome::Created { queue_url }) => vec![Command::DeleteQueue {
                    queue_url: queue_url.clone(),
                }],
                _ => vec![Command::CreateQueue {
                    name: "replies".into(),
                    attributes: Vec::new(),
                }],
            }
        }
        fn outcome(&mut self, outcome: &Outcome) {
            self.seen.borrow_mut().push(outcome.clone());
        }
    }

    #[test]
    fn an_actor_creates_and_deletes_a_queue_through_its_commands() {
        let mut sim = Simulation::empty(Config::default());
        let seen = Rc::new(RefCell::new(Vec::new()));
        sim.actors.push(Box::new(Requester {
            name: "requester".into(),
            next: Some(10),
            seen: seen.clone(),
        }));
        let names = |sim: &Simulation| -> Vec<String> {
            let queues = sim.engine().snapshot().queues;
            queues.into_iter().map(|q| q.name.to_string()).collect()
        };
        sim.advance(15);
        assert_eq!(names(&sim), ["replies"]);
        sim.advance(10);
        assert!(names(&sim).is_empty());
        let seen = seen.borrow();
        assert!(
            matches!(&seen[..], [Outcome::Created { queue_url }, Outcome::Deleted] if queue_url.ends_with("/replies")),
            "{seen:?}"
        );
    }
}
