//! Redrive back from a dead-letter queue: StartMessageMoveTask,
//! ListMessageMoveTasks and CancelMessageMoveTask, run in virtual time at
//! the task's rate.

use std::sync::Arc;

use crate::error::{ErrorCode, SqsError, SqsResult};
use crate::events::EventKind;
use crate::ids::{decode_task_handle, encode_task_handle, task_id, MessageId};
use crate::message::{Message, State};
use crate::time::later;
use crate::timeline::Due;
use crate::{Engine, Millis, MoveTaskInfo, Principal};

/// Without `MaxNumberOfMessagesPerSecond` SQS picks a rate; we use the maximum.
const DEFAULT_RATE: i64 = 500;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Running,
    Completed,
    /// Cancelled, and winding down until the task's next step.
    Cancelling,
    Cancelled,
    Failed,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Running => "RUNNING",
            Status::Completed => "COMPLETED",
            Status::Cancelling => "CANCELLING",
            Status::Cancelled => "CANCELLED",
            Status::Failed => "FAILED",
        }
    }
}

struct MoveTask {
    id: u64,
    source_arn: Arc<str>,
    destination_arn: Option<String>,
    rate: Option<i64>,
    status: Status,
    moved: u64,
    to_move: u64,
    started_at: Millis,
    /// When a cancelled task stops: one step of its rate after the cancel.
    cancelled_at: Option<Millis>,
    failure: Option<String>,
}

impl MoveTask {
    /// Running or winding down: the one task a source may have at a time.
    fn is_active(&self) -> bool {
        matches!(self.status, Status::Running | Status::Cancelling)
    }

    /// When the timeline must wake this task: its next message, or the end
    /// of its cancelling.
    fn due_at(&self) -> Millis {
        self.cancelled_at.unwrap_or_else(|| self.next_step())
    }

    /// The time one message takes at the task's rate.
    fn step_ms(&self) -> Millis {
        1000u64.div_ceil(self.rate.unwrap_or(DEFAULT_RATE).max(1) as u64)
    }

    /// When the next message moves: message k leaves at start + k/rate
    /// seconds (never past the last moment virtual time can reach).
    fn next_step(&self) -> Millis {
        let rate = self.rate.unwrap_or(DEFAULT_RATE).max(1) as u64;
        let offset = self
            .moved
            .saturating_add(1)
            .saturating_mul(1000)
            .div_ceil(rate);
        later(self.started_at, offset)
    }
}

#[derive(Default)]
pub(crate) struct MoveTasks {
    tasks: Vec<MoveTask>,
}

/// An ARN SQS can read: `arn:<partition>:<service>:<region>:<account>:<resource>`.
fn check_arn(parameter: &str, arn: &str) -> SqsResult<()> {
    let parts: Vec<&str> = arn.split(':').collect();
    if parts.len() == 6 && parts[0] == "arn" && parts[1..].iter().all(|p| !p.is_empty()) {
        return Ok(());
    }
    Err(SqsError::invalid_parameter(format!(
        "You must use this format to specify the {parameter}: \
         arn:<partition>:<service>:<region>:<account-id>:<resource-id>"
    )))
}

fn not_found(parameter: &str) -> SqsError {
    SqsError::new(
        ErrorCode::ResourceNotFound,
        format!("The resource that you specified for the {parameter} parameter doesn't exist."),
    )
}

impl Engine {
    pub(crate) fn start_message_move_task_as(
        &mut self,
        source_arn: &str,
        destination_arn: Option<&str>,
        rate: Option<i64>,
        _by: &Principal,
    ) -> SqsResult<String> {
        check_arn("SourceArn", source_arn)?;
        if let Some(destination) = destination_arn {
            check_arn("DestinationArn", destination)?;
        }
        let source = self
            .resolve_arn(source_arn)
            .ok_or_else(|| not_found("SourceArn"))?;
        let is_dlq = self.queues.values().any(|q| {
            q.settings
                .redrive_policy
                .as_ref()
                .is_some_and(|p| p.dead_letter_target_arn == source_arn)
        });
        if !is_dlq {
            return Err(SqsError::invalid_parameter(
                "Source queue must be configured as a Dead Letter Queue.",
            ));
        }
        if let Some(destination) = destination_arn {
            let dest = self
                .resolve_arn(destination)
                .ok_or_else(|| not_found("DestinationArn"))?;
            if self.queue(dest).fifo != self.queue(source).fifo {
                return Err(SqsError::invalid_parameter(
                    "The destination queue must be of the same type as the source queue.",
                ));
            }
        }
        if let Some(r) = rate {
            if !(1..=500).contains(&r) {
                return Err(SqsError::invalid_value(
                    "MaxNumberOfMessagesPerSecond",
                    r,
                    "Must be between 1 and 500.",
                ));
            }
        }
        if self
            .tasks
            .tasks
            .iter()
            .any(|t| t.is_active() && *t.source_arn == *source_arn)
        {
            return Err(SqsError::invalid_parameter(
                "There is already a task running. Only one active task is allowed for a source \
                 queue arn at a given time.",
            ));
        }
        let id = self.tasks.tasks.len() as u64 + 1;
        let source_queue = self.queue(source);
        let task = MoveTask {
            id,
            source_arn: source_queue.arn.clone(),
            destination_arn: destination_arn.map(str::to_string),
            rate,
            status: Status::Running,
            moved: 0,
            to_move: source_queue.count_visible() as u64,
            started_at: self.now,
            cancelled_at: None,
            failure: None,
        };
        let source_name = task.source_arn.clone();
        let step = (task.next_step(), Due::Task(self.tasks.tasks.len()));
        self.tasks.tasks.push(task);
        self.queues.timeline.insert(step);
        self.emit(EventKind::MoveTaskStarted {
            source: source_name.clone(),
            task: id,
        });
        Ok(encode_task_handle(task_id(id, self.secret), &source_name))
    }

    pub(crate) fn cancel_message_move_task_as(
        &mut self,
        handle: &str,
        _by: &Principal,
    ) -> SqsResult<u64> {
        let (wanted, source_arn) = decode_task_handle(handle).ok_or_else(|| {
            SqsError::invalid_parameter("Value for parameter TaskHandle is invalid.")
        })?;
        self.resolve_arn(&source_arn)
            .ok_or_else(|| not_found("SourceArn"))?;
        let secret = self.secret;
        let task = self
            .tasks
            .tasks
            .iter_mut()
            .find(|t| {
                t.status == Status::Running
                    && *t.source_arn == *source_arn
                    && task_id(t.id, secret).to_string() == wanted
            })
            .ok_or_else(|| SqsError::new(ErrorCode::ResourceNotFound, "Task does not exist."))?;
        let id = task.id;
        // SQS reports CANCELLING until the task stops; here it stops one
        // step of its rate later, moving nothing more meanwhile.
        let index = id as usize - 1;
        self.queues
            .timeline
            .remove(&(task.due_at(), Due::Task(index)));
        task.status = Status::Cancelling;
        let stop_at = later(self.now, task.step_ms());
        task.cancelled_at = Some(stop_at);
        let (source, moved) = (task.source_arn.clone(), task.moved);
        self.queues.timeline.insert((stop_at, Due::Task(index)));
        self.emit(EventKind::MoveTaskCancelling {
            source,
            task: id,
            moved,
        });
        Ok(moved)
    }

    pub(crate) fn list_message_move_tasks_as(
        &self,
        source_arn: &str,
        max_results: Option<i64>,
        _by: &Principal,
    ) -> SqsResult<Vec<MoveTaskInfo>> {
        check_arn("SourceArn", source_arn)?;
        self.resolve_arn(source_arn)
            .ok_or_else(|| not_found("SourceArn"))?;
        let max = max_results.unwrap_or(1);
        if !(1..=10).contains(&max) {
            return Err(SqsError::invalid_value(
                "MaxResults",
                max,
                "Must be between 1 and 10, if provided.",
            ));
        }
        Ok(self
            .tasks
            .tasks
            .iter()
            .rev()
            .filter(|t| *t.source_arn == *source_arn)
            .take(max as usize)
            .map(|t| MoveTaskInfo {
                task_handle: (t.status == Status::Running)
                    .then(|| encode_task_handle(task_id(t.id, self.secret), &t.source_arn)),
                status: t.status.as_str(),
                source_arn: t.source_arn.to_string(),
                destination_arn: t.destination_arn.clone(),
                max_number_of_messages_per_second: t.rate,
                approximate_number_of_messages_moved: t.moved,
                approximate_number_of_messages_to_move: t.to_move,
                failure_reason: t.failure.clone(),
                started_timestamp: self.epoch_ms(t.started_at),
            })
            .collect())
    }

    /// Moves every message whose turn has come, for the tasks `settle`
    /// found due (taken out of the timeline, in task order); a task still
    /// running is filed again under its next step.
    pub(crate) fn run_move_tasks(&mut self, due: &[usize]) {
        for &index in due {
            let task = &self.tasks.tasks[index];
            if task.status == Status::Cancelling {
                if task.due_at() <= self.now {
                    self.end_task(index, Status::Cancelled, None);
                }
                continue;
            }
            while self.tasks.tasks[index].status == Status::Running
                && self.tasks.tasks[index].next_step() <= self.now
            {
                self.step_task(index);
            }
            let task = &self.tasks.tasks[index];
            if task.status == Status::Running {
                self.queues
                    .timeline
                    .insert((task.next_step(), Due::Task(index)));
            }
        }
    }

    fn end_task(&mut self, index: usize, status: Status, failure: Option<String>) {
        let task = &mut self.tasks.tasks[index];
        self.queues
            .timeline
            .remove(&(task.due_at(), Due::Task(index)));
        task.status = status;
        task.failure = failure;
        let event = EventKind::MoveTaskEnded {
            source: task.source_arn.clone(),
            task: task.id,
            status: status.as_str(),
            moved: task.moved,
        };
        self.emit(event);
    }

    fn step_task(&mut self, index: usize) {
        let task = &self.tasks.tasks[index];
        let source = self.resolve_arn(&task.source_arn);
        let next = source.and_then(|s| {
            let queue = self.queue(s);
            let key = if queue.fifo {
                queue.first_available_group().map(|(k, _)| k)
            } else {
                queue.visible_after(0)
            };
            key.map(|k| (s, k))
        });
        let (Some((source, key)), true) = (next, task.moved < task.to_move) else {
            self.end_task(index, Status::Completed, None);
            return;
        };
        // `key` came from the source's index, so the message is there; if it
        // ever were not, ending the task beats retrying the same step forever.
        let Some(message) = self.queue(source).get(key) else {
            self.end_task(index, Status::Failed, Some("InternalError".into()));
            return;
        };
        let destination_arn = task.destination_arn.clone().or_else(|| {
            message
                .extras()
                .and_then(|e| e.dead_letter_source.as_ref().map(|s| s.to_string()))
        });
        let Some(destination) = destination_arn.and_then(|arn| self.resolve_arn(&arn)) else {
            self.end_task(
                index,
                Status::Failed,
                Some("AWS.SimpleQueueService.NonExistentQueue".into()),
            );
            return;
        };
        let now = self.now;
        // AWS redrives a message as a new message: new id, new enqueue time.
        let new_id = MessageId::from_random(self.rng.bytes16());
        let destination_name = self.queue(destination).name.clone();
        let removed = self.queues.get_mut(&source).and_then(|mut q| {
            let (old, lock) = q.remove(key)?;
            Some((q.name.clone(), old, lock))
        });
        let Some((source_name, old, lock)) = removed else {
            self.end_task(index, Status::Failed, Some("InternalError".into()));
            return;
        };
        let event = EventKind::Redriven {
            queue: source_name,
            destination: destination_name,
            message_id: old.id,
            new_message_id: new_id,
        };
        lock.log_after(event, &mut self.log, now);
        let Some(mut target) = self.queues.get_mut(&destination) else {
            // Resolved above; unreachable, but never spin on it.
            self.end_task(index, Status::Failed, Some("InternalError".into()));
            return;
        };
        let sequence = if target.fifo {
            target.next_sequence(&mut self.rng)
        } else {
            0
        };
        let mut extras = old.extras.clone();
        if let Some(extras) = extras.as_deref_mut() {
            extras.dead_letter_source = None;
            extras.holder = None;
            extras.holders.clear();
            // A new message: none of the old one's receipts are its own.
            extras.serial_at_arrival = 0;
        }
        let message = Message::new(
            new_id,
            old.body,
            old.md5_of_body,
            old.group,
            sequence,
            State::Visible,
            extras,
            now,
        );
        target.insert(message).log(&mut self.log, now);
        drop(target);
        self.tasks.tasks[index].moved += 1;
        self.serve_waiters(destination);
    }

    /// Tasks reading from or writing to a deleted queue fail.
    pub(crate) fn fail_tasks_on(&mut self, arn: &str) {
        for index in 0..self.tasks.tasks.len() {
            let task = &self.tasks.tasks[index];
            let involved = *task.source_arn == *arn || task.destination_arn.as_deref() == Some(arn);
            if task.status == Status::Running && involved {
                self.end_task(
                    index,
                    Status::Failed,
                    Some("AWS.SimpleQueueService.NonExistentQueue".into()),
                );
            }
        }
    }
}
