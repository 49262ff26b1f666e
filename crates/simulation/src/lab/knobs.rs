//! Knob settings applied to typed fields (`Scenario::with_settings`; a knob
//! never names a free-form path), or only checked against the knobs
//! (`Scenario::check_settings`, which `with_settings` calls first).

use super::validate::refuse;
use crate::document::{KnobValue, Redrive, Scenario, Settings, Target, GROUP_IDS, QUEUE_TYPES};
use crate::scenario::{field_range, quoted, FieldError};

/// What a target's value is.
pub(crate) enum Kind {
    /// A whole number within the field's own range (lo, hi, unit words);
    /// `optional`: the field may be left out (off).
    Int {
        lo: i64,
        hi: i64,
        optional: bool,
    },
    Bool,
    Choice(&'static [&'static str]),
}

impl Target {
    /// The scenario field's name, whose own range (`field_range`) bounds
    /// the knob's.
    pub(super) fn field(&self) -> &'static str {
        match self {
            Target::VisibilityTimeoutSeconds { .. } | Target::HeartbeatVisibilitySeconds { .. } => {
                "visibilityTimeoutSeconds"
            }
            Target::ReceiveMessageWaitTimeSeconds { .. } => "receiveMessageWaitTimeSeconds",
            Target::Redrive { .. } => "maxReceiveCount",
            Target::BatchSize { .. } => "batchSize",
            Target::Replicas { .. } => "replicas",
            Target::WaitTimeSeconds { .. } => "waitTimeSeconds",
            Target::PollIntervalMs { .. } => "pollIntervalMs",
            Target::HeartbeatEveryMs { .. } => "heartbeatEveryMs",
            Target::Idempotent { .. } => "idempotent",
            Target::ReportBatchItemFailures { .. } => "reportBatchItemFailures",
            Target::DeletesBeforeProcessing { .. } => "deletesBeforeProcessing",
            Target::RetryImmediately { .. } => "retryImmediately",
            Target::RetryBackoff { .. } => "baseSeconds",
            Target::QueueType { .. } => "queueType",
            Target::GroupId { .. } => "groupId",
        }
    }

    pub(crate) fn kind(&self) -> Kind {
        match self {
            Target::QueueType { .. } => return Kind::Choice(&QUEUE_TYPES),
            Target::GroupId { .. } => return Kind::Choice(&GROUP_IDS),
            _ => {}
        }
        let optional = matches!(
            self,
            Target::Redrive { .. }
                | Target::HeartbeatEveryMs { .. }
                | Target::HeartbeatVisibilitySeconds { .. }
                | Target::RetryBackoff { .. }
        );
        match field_range(self.field()) {
            Some((lo, hi, _)) => Kind::Int {
                lo: i64::try_from(lo).unwrap_or(i64::MAX),
                hi: i64::try_from(hi).unwrap_or(i64::MAX),
                optional,
            },
            None => Kind::Bool,
        }
    }

    /// The name of the target (its key in the file).
    pub(super) fn name(&self) -> &'static str {
        match self {
            Target::VisibilityTimeoutSeconds { .. } => "visibilityTimeoutSeconds",
            Target::ReceiveMessageWaitTimeSeconds { .. } => "receiveMessageWaitTimeSeconds",
            Target::Redrive { .. } => "redrive",
            Target::BatchSize { .. } => "batchSize",
            Target::Replicas { .. } => "replicas",
            Target::WaitTimeSeconds { .. } => "waitTimeSeconds",
            Target::PollIntervalMs { .. } => "pollIntervalMs",
            Target::HeartbeatEveryMs { .. } => "heartbeatEveryMs",
            Target::HeartbeatVisibilitySeconds { .. } => "heartbeatVisibilitySeconds",
            Target::Idempotent { .. } => "idempotent",
            Target::ReportBatchItemFailures { .. } => "reportBatchItemFailures",
            Target::DeletesBeforeProcessing { .. } => "deletesBeforeProcessing",
            Target::RetryImmediately { .. } => "retryImmediately",
            Target::RetryBackoff { .. } => "retryBackoff",
            Target::QueueType { .. } => "queueType",
            Target::GroupId { .. } => "groupId",
        }
    }

    pub(super) fn queue(&self) -> Option<&str> {
        match self {
            Target::VisibilityTimeoutSeconds { queue }
            | Target::ReceiveMessageWaitTimeSeconds { queue }
            | Target::Redrive { queue, .. }
            | Target::QueueType { queue } => Some(queue),
            _ => None,
        }
    }

    pub(super) fn producer(&self) -> Option<&str> {
        match self {
            Target::GroupId { producer, .. } => Some(producer),
            _ => None,
        }
    }

    pub(super) fn consumer(&self) -> Option<&str> {
        match self {
            Target::BatchSize { consumer }
            | Target::Replicas { consumer }
            | Target::WaitTimeSeconds { consumer }
            | Target::PollIntervalMs { consumer }
            | Target::HeartbeatEveryMs { consumer }
            | Target::HeartbeatVisibilitySeconds { consumer }
            | Target::Idempotent { consumer }
            | Target::ReportBatchItemFailures { consumer }
            | Target::DeletesBeforeProcessing { consumer }
            | Target::RetryImmediately { consumer }
            | Target::RetryBackoff { consumer, .. } => Some(consumer),
            _ => None,
        }
    }

    /// The scenario paths the knob writes (`consumer: "*"`: each
    /// consumer's), for a page to show an error at the field.
    pub fn paths(&self, s: &Scenario) -> Vec<String> {
        let behaviour = matches!(
            self,
            Target::HeartbeatEveryMs { .. }
                | Target::HeartbeatVisibilitySeconds { .. }
                | Target::Idempotent { .. }
                | Target::ReportBatchItemFailures { .. }
                | Target::DeletesBeforeProcessing { .. }
                | Target::RetryImmediately { .. }
                | Target::RetryBackoff { .. }
        );
        if let Some(producer) = self.producer() {
            return (0..s.producers.len())
                .filter(|i| s.producers[*i].name == producer)
                .map(|i| format!("producers[{i}].sends"))
                .collect();
        }
        let field = match self {
            Target::Redrive { .. } => "redrive".to_string(),
            Target::QueueType { .. } => "name".to_string(),
            _ if behaviour => format!("behaviour.{}", self.name()),
            _ => self.name().to_string(),
        };
        if let Some(queue) = self.queue() {
            return queue_index(s, queue)
                .map(|i| vec![format!("queues[{i}].{field}")])
                .unwrap_or_default();
        }
        consumer_indexes(s, self.consumer().unwrap_or_default())
            .into_iter()
            .map(|i| format!("consumers[{i}].{field}"))
            .collect()
    }

    /// The value the scenario gives now (the first consumer's for `*`).
    pub(crate) fn read(&self, s: &Scenario) -> Option<KnobValue> {
        if let Target::GroupId {
            producer,
            attribute,
        } = self
        {
            let p = s.producers.iter().find(|p| &p.name == producer)?;
            let all = |f: &dyn Fn(usize, &crate::scenario::ScheduledSend) -> Option<String>| {
                p.sends
                    .iter()
                    .enumerate()
                    .all(|(i, send)| send.group_id == f(i, send))
            };
            let choice = if all(&|_, _| Some(producer.clone())) {
                "one"
            } else if all(&|_, send| send.attributes.get(attribute).cloned()) {
                "perAttribute"
            } else if all(&|i, _| Some(format!("{producer}-{}", i + 1))) {
                "perMessage"
            } else {
                return None;
            };
            return Some(KnobValue::Text(choice.into()));
        }
        if let Target::QueueType { queue } = self {
            let q = &s.queues[queue_index(s, queue)?];
            let kind = if q.name.ends_with(".fifo") {
                "fifo"
            } else {
                "standard"
            };
            return Some(KnobValue::Text(kind.into()));
        }
        if let Some(queue) = self.queue() {
            let q = &s.queues[queue_index(s, queue)?];
            let int = |v: Option<i64>| v.map_or(KnobValue::OFF, KnobValue::Int);
            return Some(match self {
                Target::VisibilityTimeoutSeconds { .. } => int(q.visibility_timeout_seconds),
                Target::ReceiveMessageWaitTimeSeconds { .. } => {
                    int(q.receive_message_wait_time_seconds)
                }
                _ => int(q.redrive.as_ref().map(|r| r.max_receive_count)),
            });
        }
        let c = &s.consumers[*consumer_indexes(s, self.consumer()?).first()?];
        let b = &c.behaviour;
        let ms = |v: u64| KnobValue::Int(i64::try_from(v).unwrap_or(i64::MAX));
        Some(match self {
            Target::BatchSize { .. } => KnobValue::Int(c.batch_size),
            Target::Replicas { .. } => ms(c.replicas),
            Target::WaitTimeSeconds { .. } => KnobValue::Int(c.wait_time_seconds),
            Target::PollIntervalMs { .. } => ms(c.poll_interval_ms),
            Target::HeartbeatEveryMs { .. } => b.heartbeat_every_ms.map_or(KnobValue::OFF, ms),
            Target::HeartbeatVisibilitySeconds { .. } => b
                .heartbeat_visibility_seconds
                .map_or(KnobValue::OFF, KnobValue::Int),
            Target::Idempotent { .. } => KnobValue::Bool(b.idempotent),
            Target::ReportBatchItemFailures { .. } => KnobValue::Bool(b.report_batch_item_failures),
            Target::DeletesBeforeProcessing { .. } => KnobValue::Bool(b.deletes_before_processing),
            Target::RetryImmediately { .. } => KnobValue::Bool(b.retry_immediately),
            Target::RetryBackoff { .. } => b
                .retry_backoff
                .as_ref()
                .map_or(KnobValue::OFF, |r| KnobValue::Int(r.base_seconds)),
            _ => return None,
        })
    }

    /// Writes a value already checked against the knob (`Knob::check`).
    fn write(&self, s: &mut Scenario, value: &KnobValue) {
        let int = match value {
            KnobValue::Int(v) => Some(*v),
            _ => None,
        };
        let on = matches!(value, KnobValue::Bool(true));
        let text = match value {
            KnobValue::Text(t) => t.as_str(),
            _ => "",
        };
        if let Target::QueueType { queue } = self {
            set_queue_type(s, queue, text == "fifo");
            return;
        }
        if let Target::GroupId {
            producer,
            attribute,
        } = self
        {
            for p in s.producers.iter_mut().filter(|p| &p.name == producer) {
                let name = p.name.clone();
                for (i, send) in p.sends.iter_mut().enumerate() {
                    send.group_id = match text {
                        "one" => Some(name.clone()),
                        "perAttribute" => send.attributes.get(attribute).cloned(),
                        _ => Some(format!("{name}-{}", i + 1)),
                    };
                }
            }
            return;
        }
        if let Some(queue) = self.queue() {
            let Some(i) = queue_index(s, queue) else {
                return;
            };
            let q = &mut s.queues[i];
            match self {
                Target::VisibilityTimeoutSeconds { .. } => q.visibility_timeout_seconds = int,
                Target::ReceiveMessageWaitTimeSeconds { .. } => {
                    q.receive_message_wait_time_seconds = int
                }
                Target::Redrive {
                    dead_letter_queue, ..
                } => {
                    q.redrive = int.map(|max_receive_count| Redrive {
                        dead_letter_queue: dead_letter_queue.clone(),
                        max_receive_count,
                    })
                }
                _ => {}
            }
            return;
        }
        let ms = int.and_then(|v| u64::try_from(v).ok());
        for i in consumer_indexes(s, self.consumer().unwrap_or_default()) {
            let c = &mut s.consumers[i];
            let b = &mut c.behaviour;
            match self {
                Target::BatchSize { .. } => c.batch_size = int.unwrap_or(c.batch_size),
                Target::Replicas { .. } => c.replicas = ms.unwrap_or(c.replicas),
                Target::WaitTimeSeconds { .. } => {
                    c.wait_time_seconds = int.unwrap_or(c.wait_time_seconds)
                }
                Target::PollIntervalMs { .. } => {
                    c.poll_interval_ms = ms.unwrap_or(c.poll_interval_ms)
                }
                Target::HeartbeatEveryMs { .. } => b.heartbeat_every_ms = ms,
                Target::HeartbeatVisibilitySeconds { .. } => b.heartbeat_visibility_seconds = int,
                Target::Idempotent { .. } => b.idempotent = on,
                Target::ReportBatchItemFailures { .. } => b.report_batch_item_failures = on,
                Target::DeletesBeforeProcessing { .. } => b.deletes_before_processing = on,
                Target::RetryImmediately { .. } => b.retry_immediately = on,
                Target::RetryBackoff { max_seconds, .. } => {
                    b.retry_backoff = int.map(|base_seconds| crate::scenario::RetryBackoff {
                        base_seconds,
                        max_seconds: *max_seconds,
                    })
                }
                _ => {}
            }
        }
    }
}

pub(super) fn queue_index(s: &Scenario, name: &str) -> Option<usize> {
    s.queues.iter().position(|q| q.name == name)
}

/// The consumers a selector names: `*` is every one.
pub(super) fn consumer_indexes(s: &Scenario, name: &str) -> Vec<usize> {
    (0..s.consumers.len())
        .filter(|i| name == "*" || s.consumers[*i].name == name)
        .collect()
}

impl Scenario {
    /// The lab's own settings (the broken ones): each knob's value in the file.
    pub fn lab_settings(&self) -> Settings {
        self.knobs
            .iter()
            .map(|k| (k.id.clone(), k.target.read(self).unwrap_or(KnobValue::OFF)))
            .collect()
    }

    /// The scenario the learner runs: this one with the given knob values
    /// (a partial map: the others keep the file's). Goal, knobs and
    /// explanation are kept, so the result is a plain scenario a page runs,
    /// replays and shares like any other.
    pub fn with_settings(&self, settings: &Settings) -> Result<Scenario, FieldError> {
        self.check_settings(settings)?;
        let mut out = self.clone();
        for (id, value) in settings {
            // Read from the result: a queueType setting renames the queue
            // in the other knobs' selectors too.
            if let Some(knob) = out.knobs.iter().find(|k| &k.id == id).cloned() {
                knob.target.write(&mut out, value);
            }
        }
        Ok(out)
    }

    /// Whether `with_settings` accepts these settings, found without
    /// making the scenario: each id names a knob, each value is within its
    /// knob, and together they ask for nothing no handler does. Costs the
    /// settings and the consumers, never the scenario's sends, so a lab's
    /// fixes are checked at load for next to nothing.
    pub fn check_settings(&self, settings: &Settings) -> Result<(), FieldError> {
        // Per consumer: (retryImmediately, a retryBackoff), as the
        // settings leave them; later ids win, as `with_settings` writes.
        let mut retries: Vec<(bool, bool)> = (self.consumers.iter())
            .map(|c| {
                let b = &c.behaviour;
                (b.retry_immediately, b.retry_backoff.is_some())
            })
            .collect();
        for (id, value) in settings {
            // Knob ids never change with a setting (a queueType renames
            // selectors only), so the file's knobs answer for the result's.
            let Some(knob) = self.knobs.iter().find(|k| &k.id == id) else {
                let ids: Vec<&str> = self.knobs.iter().map(|k| k.id.as_str()).collect();
                let rule = match ids.is_empty() {
                    true => "the id of a knob, and this scenario has none".to_string(),
                    false => format!("the id of one of this lab's knobs ({})", ids.join(", ")),
                };
                // An id from outside (a page script's settings): its echo is bounded.
                let path = format!("settings.{}", queuelab_engine::echo(id));
                return refuse(path, rule, quoted(id));
            };
            knob.check(value)?;
            match &knob.target {
                Target::RetryImmediately { consumer } => {
                    for i in consumer_indexes(self, consumer) {
                        retries[i].0 = matches!(value, KnobValue::Bool(true));
                    }
                }
                Target::RetryBackoff { consumer, .. } => {
                    for i in consumer_indexes(self, consumer) {
                        retries[i].1 = matches!(value, KnobValue::Int(_));
                    }
                }
                _ => {}
            }
        }
        // Settings that together ask for what no handler does.
        if retries.iter().any(|(now, backoff)| *now && *backoff) {
            let ids: Vec<String> = (self.knobs.iter())
                .filter(|k| {
                    matches!(
                        k.target,
                        Target::RetryImmediately { .. } | Target::RetryBackoff { .. }
                    )
                })
                .map(|k| format!("settings.{}", k.id))
                .collect();
            return refuse(
                ids.first().cloned().unwrap_or_else(|| "settings".into()),
                format!(
                    "settings where {} are not both on (a message released at once cannot also \
                     wait)",
                    ids.join(" and ")
                ),
                "both on".into(),
            );
        }
        Ok(())
    }
}

/// Makes `queue` a FIFO queue (`fifo`) or a standard one: renames it to
/// or from its `.fifo` name, and its dead-letter queue with it, since SQS
/// moves messages only between queues of the same type. A FIFO queue gets
/// content-based deduplication (a lab's bodies are unique); a standard
/// one loses the FIFO-only fields.
fn set_queue_type(s: &mut Scenario, queue: &str, fifo: bool) {
    let Some(i) = queue_index(s, queue) else {
        return;
    };
    let renamed = |name: &str| match fifo {
        true if !name.ends_with(".fifo") => format!("{name}.fifo"),
        true => name.to_string(),
        false => name.strip_suffix(".fifo").unwrap_or(name).to_string(),
    };
    let mut names = vec![queue.to_string()];
    if let Some(r) = &s.queues[i].redrive {
        names.push(r.dead_letter_queue.clone());
    }
    for name in names {
        let Some(j) = queue_index(s, &name) else {
            continue;
        };
        let q = &mut s.queues[j];
        if fifo {
            q.content_based_deduplication = Some(true);
        } else {
            q.content_based_deduplication = None;
            q.deduplication_scope = None;
        }
        rename_queue(s, &name, &renamed(&name));
    }
}

/// Renames a queue everywhere the scenario names it: the queue, redrive
/// policies, producers, consumers, alarms, the goal, knob selectors,
/// narration and checkpoint triggers, and `{name.…}` placeholders.
pub fn rename_queue(s: &mut Scenario, from: &str, to: &str) {
    if from == to {
        return;
    }
    let fix = |name: &mut String| {
        if name == from {
            *name = to.to_string();
        }
    };
    for q in &mut s.queues {
        fix(&mut q.name);
        if let Some(r) = &mut q.redrive {
            fix(&mut r.dead_letter_queue);
        }
    }
    s.producers.iter_mut().for_each(|p| fix(&mut p.queue));
    s.consumers.iter_mut().for_each(|c| fix(&mut c.queue));
    s.alarms.iter_mut().for_each(|a| fix(&mut a.queue));
    if let Some(goal) = &mut s.goal {
        if let Some(age) = &mut goal.oldest_age {
            fix(&mut age.queue);
        }
        if let Some(dlq) = &mut goal.dead_letter_queue {
            fix(dlq);
        }
    }
    for knob in &mut s.knobs {
        match &mut knob.target {
            Target::VisibilityTimeoutSeconds { queue }
            | Target::ReceiveMessageWaitTimeSeconds { queue }
            | Target::QueueType { queue } => fix(queue),
            Target::Redrive {
                queue,
                dead_letter_queue,
            } => {
                fix(queue);
                fix(dead_letter_queue);
            }
            _ => {}
        }
    }
    let (old, new) = (format!("{{{from}."), format!("{{{to}."));
    let words = |text: &mut String| {
        if text.contains(&old) {
            *text = text.replace(&old, &new);
        }
    };
    for line in &mut s.narration {
        words(&mut line.text);
        if let Some(q) = line.when.as_mut().and_then(|w| w.queue.as_mut()) {
            fix(q);
        }
    }
    for c in &mut s.checkpoints {
        words(&mut c.question);
        if let Some(q) = c.when.as_mut().and_then(|w| w.queue.as_mut()) {
            fix(q);
        }
        for choice in &mut c.choices {
            words(&mut choice.text);
            if let Some(b) = &mut choice.because {
                words(b);
            }
            if let Some(q) = choice.when.as_mut().and_then(|w| w.queue.as_mut()) {
                fix(q);
            }
        }
    }
}
