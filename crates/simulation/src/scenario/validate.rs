//! `Scenario::validate`: every time, span and count held to its range,
//! each queue to what CreateQueue accepts, each name to one thing, and the
//! words (placeholders) and the lab's parts checked against the scenario.

use std::collections::BTreeMap;

use queuelab_engine::{
    check_attribute_text, is_queue_name, AttributeName, DedupScope, ThroughputLimit,
};

use super::fields::{account, at_most, quoted, refuse, short_name, within, FieldError};
use crate::document::{
    Consumer, Processing, QueueSpec, Scenario, ScheduledSend, MAX_CHECKPOINTS, MAX_CHOICES,
    MAX_NARRATION_LINES, MAX_PRODUCERS, MAX_SCENARIO_QUEUES, MAX_SCHEDULES, MAX_WORKERS,
};

impl Scenario {
    /// Holds every time, span and count to its range, so that nothing the
    /// simulation adds or multiplies can overflow, and each consumer's
    /// batch size and wait to what ReceiveMessage accepts. `Err` names the
    /// field by its path in the scenario file.
    /// Queues, producers and workers are found by name (a consumer's
    /// queue, the log's callers, a trigger's filter): each name names one.
    /// A consumer's replicas are `name`, `name-2`, …, and a producer and a
    /// worker may not share a name either (the log could not tell them apart).
    fn unique_names(&self) -> Result<(), FieldError> {
        let mut queues = BTreeMap::new();
        for (i, q) in self.queues.iter().enumerate() {
            if let Some(first) = queues.insert(q.name.as_str(), i) {
                return Err(FieldError {
                    path: format!("queues[{i}].name"),
                    rule: format!("a name no other queue has (queues[{first}] is also named so)"),
                    got: quoted(&q.name),
                });
            }
        }
        let mut callers: BTreeMap<String, String> = BTreeMap::new();
        let lists = self
            .producers
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("producers[{i}]"), vec![p.name.clone()]))
            .chain(
                self.consumers
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (format!("consumers[{i}]"), crate::worker_names(c))),
            )
            .chain(
                (self.schedule.iter().enumerate())
                    .map(|(i, s)| (format!("schedule[{i}]"), vec![s.name.clone()])),
            )
            .chain(
                (self.operators.iter().enumerate())
                    .map(|(i, o)| (format!("operators[{i}]"), vec![o.name.clone()])),
            )
            .chain(
                (self.topics.iter().enumerate())
                    .map(|(i, t)| (format!("topics[{i}]"), vec![t.name.clone()])),
            )
            .chain(
                (self.lambdas.iter().enumerate())
                    .map(|(i, l)| (format!("lambdas[{i}]"), vec![l.name.clone()])),
            )
            .chain(
                (self.requesters.iter().enumerate())
                    .map(|(i, r)| (format!("requesters[{i}]"), vec![r.name.clone()])),
            )
            .chain(
                (self.responders.iter().enumerate())
                    .map(|(i, r)| (format!("responders[{i}]"), vec![r.name.clone()])),
            );
        for (who, names) in lists {
            for name in names {
                if let Some(first) = callers.insert(name.clone(), who.clone()) {
                    return Err(FieldError {
                        path: format!("{who}.name"),
                        rule: format!(
                            "a name no other producer or worker has (replicas are named name, name-2, …; {first} is also named {})",
                            quoted(&name)
                        ),
                        got: quoted(&name),
                    });
                }
            }
        }
        Ok(())
    }

    pub fn validate(&self) -> Result<(), FieldError> {
        let at = |path: String, v: u64| within(path, i128::from(v));
        at("durationMs".into(), self.duration_ms)?;
        if let Some(start) = self.start_epoch_ms {
            at("startEpochMs".into(), start)?;
        }
        at_most(
            "queues",
            self.queues.len() as u64,
            MAX_SCENARIO_QUEUES as u64,
            "queues",
        )?;
        at_most(
            "producers",
            self.producers.len() as u64,
            MAX_PRODUCERS as u64,
            "producers",
        )?;
        let workers = (self.consumers.iter()).fold(0u64, |n, c| n.saturating_add(c.replicas));
        at_most(
            "consumers",
            workers,
            MAX_WORKERS,
            "workers (replicas counted)",
        )?;
        self.validate_keys()?;
        for (i, queue) in self.queues.iter().enumerate() {
            queue.validate(i, &self.queues[..i])?;
            self.validate_encryption(i, queue)?;
        }
        self.unique_names()?;
        self.validate_producers()?;
        self.validate_padding()?;
        self.validate_schedule()?;
        self.validate_request_reply()?;
        self.validate_operators()?;
        self.validate_buckets()?;
        self.validate_topics()?;
        self.validate_cloudwatch()?;
        self.validate_lambdas()?;
        for (i, c) in self.consumers.iter().enumerate() {
            validate_consumer(&format!("consumers[{i}]"), c)?;
            // SQS has no per-message DelaySeconds on a FIFO queue: every
            // re-delay would be refused and the message would loop.
            if let Some(name) = c
                .behaviour
                .redelay_until
                .as_ref()
                .filter(|_| is_fifo(&c.queue))
            {
                return Err(refuse(
                    format!("consumers[{i}].behaviour.redelayUntil"),
                    "left out on a FIFO queue's consumer (SQS refuses a message's own \
                     DelaySeconds on a FIFO queue, so it cannot be re-delayed)",
                    quoted(name),
                ));
            }
        }
        at_most(
            "narration",
            self.narration.len() as u64,
            MAX_NARRATION_LINES as u64,
            "lines",
        )?;
        // Inserted one by one: collecting into a B-tree compiles a sort.
        let mut ids = std::collections::BTreeSet::new();
        for id in self.narration.iter().filter_map(|l| l.id.as_ref()) {
            ids.insert(id);
        }
        for (i, line) in self.narration.iter().enumerate() {
            at(format!("narration[{i}].atMs"), line.at_ms)?;
            if let Some(after) = &line.after {
                if !ids.contains(after) {
                    return Err(FieldError {
                        path: format!("narration[{i}].after"),
                        rule: "the id of another narration line".into(),
                        got: quoted(after),
                    });
                }
            }
        }
        self.validate_checkpoints(&ids)?;
        self.validate_claims()?;
        self.validate_words()?;
        crate::lab::validate_lab(self)
    }

    /// Each schedule: at most `MAX_SCHEDULES`, a short name, one of the
    /// scenario's queues, moments the run can reach, a delay SQS accepts,
    /// and what a FIFO queue requires of every send.
    fn validate_schedule(&self) -> Result<(), FieldError> {
        let count = self.schedule.len() as u64;
        at_most("schedule", count, MAX_SCHEDULES as u64, "schedules")?;
        for (i, s) in self.schedule.iter().enumerate() {
            short_name(format!("schedule[{i}].name"), &s.name)?;
            let Some(queue) = self.queues.iter().find(|q| q.name == s.queue) else {
                return Err(FieldError {
                    path: format!("schedule[{i}].queue"),
                    rule: "the name of one of the scenario's queues".into(),
                    got: quoted(&s.queue),
                });
            };
            let fifo = is_fifo(&queue.name);
            let content_dedup = queue.content_based_deduplication == Some(true);
            for (j, send) in s.sends.iter().enumerate() {
                let path = |field: &str| format!("schedule[{i}].sends[{j}].{field}");
                self.validate_moment(&path(""), send)?;
                if let Some(bytes) = send.pad_to_bytes {
                    within(path("padToBytes"), i128::from(bytes))?;
                }
                if let Some(delay) = send.delay_seconds {
                    within(path("delaySeconds"), i128::from(delay))?;
                }
                let missing = |field: &str, rule: &str| FieldError {
                    path: path(field),
                    rule: rule.into(),
                    got: "none".into(),
                };
                if send.body.is_empty() {
                    return Err(missing("body", "a message body of at least 1 character"));
                }
                if fifo && send.group_id.is_none() {
                    return Err(missing(
                        "groupId",
                        "a MessageGroupId: every send to a FIFO queue has one",
                    ));
                }
                if fifo && !content_dedup && send.dedup_id.is_none() {
                    return Err(missing(
                        "dedupId",
                        "a MessageDeduplicationId: the queue has no contentBasedDeduplication",
                    ));
                }
            }
        }
        Ok(())
    }

    /// A send's moment (`prefix` is its path and a dot): `atMs` within
    /// range, or a wall-clock `at` (not both) that reads as a UTC time,
    /// with the scenario's `startEpochMs` to count from, no earlier than
    /// the run's start and no later than its end.
    fn validate_moment(&self, prefix: &str, send: &ScheduledSend) -> Result<(), FieldError> {
        within(format!("{prefix}atMs"), i128::from(send.at_ms))?;
        let Some(text) = &send.at else {
            return Ok(());
        };
        let path = format!("{prefix}at");
        if send.at_ms != 0 {
            let rule = "left out when atMs is given (a send has one moment)";
            return Err(refuse(path, rule, quoted(text)));
        }
        let at = crate::wall_clock::epoch_ms(text)
            .map_err(|rule| refuse(path.clone(), rule, quoted(text)))?;
        let Some(start) = self.start_epoch_ms else {
            let rule = "a wall-clock time only in a scenario with startEpochMs (the moment \
                        its run starts, which the time counts from)";
            return Err(refuse(path, rule, quoted(text)));
        };
        let end = start.saturating_add(self.duration_ms);
        let (from, to) = (
            crate::s3::event::iso8601(start),
            crate::s3::event::iso8601(end),
        );
        if !(start..=end).contains(&at) {
            let when = if at < start {
                "before the run starts"
            } else {
                "after the run ends"
            };
            let rule = format!(
                "a time within the run, from {from} (startEpochMs) to {to} (durationMs later)"
            );
            return Err(refuse(path, rule, format!("{} ({when})", quoted(text))));
        }
        Ok(())
    }

    /// Each producer's name and moments.
    /// The padded bodies of all sends together stay within a byte budget.
    fn validate_padding(&self) -> Result<(), FieldError> {
        let producers = self.producers.iter().enumerate();
        let sends = producers.flat_map(|(i, p)| {
            let at = move |j| format!("producers[{i}].sends[{j}].padToBytes");
            p.sends.iter().enumerate().map(move |(j, s)| (at(j), s))
        });
        let schedules = self.schedule.iter().enumerate().flat_map(|(i, p)| {
            let at = move |j| format!("schedule[{i}].sends[{j}].padToBytes");
            p.sends.iter().enumerate().map(move |(j, s)| (at(j), s))
        });
        let mut total: u64 = 0;
        for (path, send) in sends.chain(schedules) {
            let Some(bytes) = send.pad_to_bytes else {
                continue;
            };
            total = total.saturating_add(bytes.min(crate::document::MAX_PAD_BYTES));
            if total > crate::document::MAX_PADDED_TOTAL {
                return Err(FieldError {
                    path,
                    rule: format!(
                        "a size that keeps the scenario's padded bodies within {} bytes in all",
                        crate::numbers::thousands(crate::document::MAX_PADDED_TOTAL)
                    ),
                    got: bytes.to_string(),
                });
            }
        }
        Ok(())
    }

    fn validate_producers(&self) -> Result<(), FieldError> {
        let at = |path: String, v: u64| within(path, i128::from(v));
        for (i, p) in self.producers.iter().enumerate() {
            short_name(format!("producers[{i}].name"), &p.name)?;
            account(format!("producers[{i}].account"), p.account.as_deref())?;
            for (j, s) in p.sends.iter().enumerate() {
                self.validate_moment(&format!("producers[{i}].sends[{j}]."), s)?;
                if let Some(bytes) = s.pad_to_bytes {
                    at(format!("producers[{i}].sends[{j}].padToBytes"), bytes)?;
                }
            }
            if let Some(offload) = &p.offload {
                self.validate_offload(&format!("producers[{i}].offload"), offload)?;
            }
            if let Some(rate) = &p.rate {
                at(format!("producers[{i}].rate.startMs"), rate.start_ms)?;
                at(format!("producers[{i}].rate.everyMs"), rate.every_ms)?;
                at(format!("producers[{i}].rate.count"), rate.count)?;
                if let Some(size) = rate.batch_size {
                    at(format!("producers[{i}].rate.batchSize"), size)?;
                }
                if let Some(groups) = rate.group_count {
                    at(format!("producers[{i}].rate.groupCount"), groups)?;
                }
            }
        }
        Ok(())
    }

    /// A producer's offload: one of the scenario's buckets, and the
    /// threshold its style counts (bytes for the extended client,
    /// characters for the guide's code), in range.
    fn validate_offload(&self, path: &str, o: &crate::document::Offload) -> Result<(), FieldError> {
        use crate::document::OffloadStyle;
        if !self.buckets.iter().any(|b| b.name == o.bucket) {
            return Err(FieldError {
                path: format!("{path}.bucket"),
                rule: "the name of one of the scenario's buckets".into(),
                got: quoted(&o.bucket),
            });
        }
        let (given, other, other_style) = match o.style {
            OffloadStyle::ExtendedClient => {
                (o.threshold_bytes, o.threshold_chars, "thresholdChars")
            }
            OffloadStyle::Guide => (o.threshold_chars, o.threshold_bytes, "thresholdBytes"),
        };
        if let Some(n) = other {
            return Err(FieldError {
                path: format!("{path}.{other_style}"),
                rule: "left out: the extended client counts bytes (thresholdBytes), the guide's \
                       code characters (thresholdChars)"
                    .into(),
                got: n.to_string(),
            });
        }
        let field = match o.style {
            OffloadStyle::ExtendedClient => "thresholdBytes",
            OffloadStyle::Guide => "thresholdChars",
        };
        match given {
            Some(n) => within(format!("{path}.{field}"), i128::from(n)),
            None => Ok(()),
        }
    }

    /// Each checkpoint: a unique id, a moment in range, an `after` naming a
    /// narration line, 2 to 6 choices, each decided one way.
    fn validate_checkpoints(
        &self,
        line_ids: &std::collections::BTreeSet<&String>,
    ) -> Result<(), FieldError> {
        let err = |path: String, rule: &str, got: String| {
            Err(FieldError {
                path,
                rule: rule.into(),
                got,
            })
        };
        if self.checkpoints.len() > MAX_CHECKPOINTS {
            let rule = format!("a list of at most {MAX_CHECKPOINTS} checkpoints");
            return err(
                "checkpoints".into(),
                &rule,
                format!("{}", self.checkpoints.len()),
            );
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, c) in self.checkpoints.iter().enumerate() {
            let path = |field: &str| format!("checkpoints[{i}].{field}");
            if c.id.is_empty() || !seen.insert(&c.id) {
                let rule = "a name no other checkpoint has";
                return err(path("id"), rule, quoted(&c.id));
            }
            within(path("atMs"), i128::from(c.at_ms))?;
            if let Some(after) = c.after.as_ref().filter(|a| !line_ids.contains(a)) {
                return err(path("after"), "the id of a narration line", quoted(after));
            }
            if !(2..=MAX_CHOICES).contains(&c.choices.len()) {
                let rule = format!("a list of 2 to {MAX_CHOICES} answers");
                return err(path("choices"), &rule, format!("{}", c.choices.len()));
            }
            let mut otherwise = 0;
            for (j, choice) in c.choices.iter().enumerate() {
                match (&choice.when, &choice.at_end) {
                    (Some(_), Some(_)) => {
                        let rule = "an answer with `when` or `atEnd`, not both";
                        return err(path(&format!("choices[{j}]")), rule, "both".into());
                    }
                    (None, None) => otherwise += 1,
                    _ => {}
                }
            }
            if otherwise > 1 {
                let rule = "a list with at most one answer that gives neither `when` nor `atEnd` \
                            (the answer when no other is true)";
                return err(path("choices"), rule, format!("{otherwise} such answers"));
            }
        }
        Ok(())
    }

    /// Every text a learner reads: its `{queue.property}` placeholders
    /// name this scenario's queues and consumers.
    fn validate_words(&self) -> Result<(), FieldError> {
        let narration = self.narration.iter().enumerate().flat_map(|(i, l)| {
            let otherwise = l.otherwise.as_ref();
            let otherwise = otherwise.map(|o| (format!("narration[{i}].otherwise"), o));
            std::iter::once((format!("narration[{i}].text"), &l.text)).chain(otherwise)
        });
        let checkpoints = self.checkpoints.iter().enumerate().flat_map(|(i, c)| {
            let question = std::iter::once((format!("checkpoints[{i}].question"), &c.question));
            let choices = c.choices.iter().enumerate().flat_map(move |(j, choice)| {
                let text = (format!("checkpoints[{i}].choices[{j}].text"), &choice.text);
                let because = choice
                    .because
                    .as_ref()
                    .map(|b| (format!("checkpoints[{i}].choices[{j}].because"), b));
                std::iter::once(text).chain(because)
            });
            question.chain(choices)
        });
        for (path, text) in narration.chain(checkpoints) {
            if let Err(got) = crate::teach::placeholders::fill(text, self) {
                return Err(FieldError {
                    path,
                    rule: "text whose {placeholders} each name one of the scenario's queues or \
                           consumers and one of its properties"
                        .into(),
                    got,
                });
            }
        }
        Ok(())
    }
}

/// One consumer's names, moments, counts and behaviour, each in its range
/// (`i`: its place in `consumers`).
impl Consumer {
    /// The checks `Scenario::validate` makes of each consumer, for one
    /// consumer alone (its paths begin "consumer.").
    pub fn validate(&self) -> Result<(), FieldError> {
        validate_consumer("consumer", self)
    }
}

/// One consumer's fields held to their ranges; `at` is its place ("consumers[2]").
fn validate_consumer(at_path: &str, c: &Consumer) -> Result<(), FieldError> {
    let at = |path: String, v: u64| within(path, i128::from(v));
    let path = |field: &str| format!("{at_path}.{field}");
    short_name(path("name"), &c.name)?;
    account(path("account"), c.account.as_deref())?;
    short_name(path("sideEffect"), &c.side_effect)?;
    at(path("startMs"), c.start_ms)?;
    if let Some(stop) = c.stop_ms {
        at(path("stopMs"), stop)?;
    }
    within(path("batchSize"), i128::from(c.batch_size))?;
    at(path("replicas"), c.replicas)?;
    at(path("batchOverheadMs"), c.batch_overhead_ms)?;
    if let Some(publish) = &c.publish_metrics {
        if let Some(rule) = crate::cloudwatch::namespace_rule(&publish.namespace) {
            return Err(FieldError {
                path: path("publishMetrics.namespace"),
                rule: rule.into(),
                got: quoted(&publish.namespace),
            });
        }
    }
    within(path("waitTimeSeconds"), i128::from(c.wait_time_seconds))?;
    at(path("pollIntervalMs"), c.poll_interval_ms)?;
    match c.processing {
        Processing::FixedMs(ms) => at(path("processing.fixedMs"), ms)?,
        Processing::UniformMs { min, max } => {
            at(path("processing.uniformMs.min"), min)?;
            at(path("processing.uniformMs.max"), max)?;
        }
        Processing::ExponentialMs { mean } => at(path("processing.exponentialMs.mean"), mean)?,
    }
    let b = &c.behaviour;
    retired_lambda_batch(&path, b)?;
    at(path("behaviour.restartMs"), b.restart_ms)?;
    if let Some(every) = b.heartbeat_every_ms {
        at(path("behaviour.heartbeatEveryMs"), every)?;
    }
    if let Some(name) = b
        .redelay_until
        .as_ref()
        .filter(|n| n.is_empty() || n.len() > 256)
    {
        let rule = "a message attribute's name of 1 to 256 characters";
        return Err(refuse(path("behaviour.redelayUntil"), rule, quoted(name)));
    }
    if let Some(w) = &b.fails_during_ms {
        at(path("behaviour.failsDuringMs.startMs"), w.start_ms)?;
        at(path("behaviour.failsDuringMs.endMs"), w.end_ms)?;
    }
    if let Some(r) = &b.retry_backoff {
        within(
            path("behaviour.retryBackoff.baseSeconds"),
            i128::from(r.base_seconds),
        )?;
        within(
            path("behaviour.retryBackoff.maxSeconds"),
            i128::from(r.max_seconds),
        )?;
        if b.retry_immediately {
            return Err(FieldError {
                path: path("behaviour.retryBackoff"),
                rule: "left out when retryImmediately is true (a message released at \
                           once cannot also wait)"
                    .into(),
                got: "a backoff".into(),
            });
        }
    }
    Ok(())
}

/// `lambdaBatch` and `reportBatchItemFailures` were a worker that acted
/// like a Lambda function; a function is now a `lambdas` entry, its SQS
/// event source mapping run as Lambda runs it. A file that still has them
/// is refused with the way there.
fn retired_lambda_batch(
    path: &dyn Fn(&str) -> String,
    b: &crate::document::Behaviour,
) -> Result<(), FieldError> {
    let (field, got) = match (&b.lambda_batch, &b.report_batch_item_failures) {
        (Some(v), _) => ("lambdaBatch", v),
        (None, Some(v)) => ("reportBatchItemFailures", v),
        (None, None) => return Ok(()),
    };
    Err(FieldError {
        path: path(&format!("behaviour.{field}")),
        rule: "left out: a consumer no longer plays a Lambda function. Describe the function in \
               the scenario's `lambdas` section (its SQS event source mapping: queue, batchSize, \
               maximumBatchingWindowInSeconds, and functionResponseTypes \
               [\"ReportBatchItemFailures\"] for partial batch responses; what it does in \
               handler)"
            .into(),
        got: queuelab_engine::echo(&got.to_string()).into_owned(),
    })
}

/// The FIFO fields' words: one the engine does not know (a
/// `deduplicationScope` or `fifoThroughputLimit` it has no value of)
/// is refused at its field, naming the values it takes.
fn validate_fifo_words(q: &QueueSpec, i: usize) -> Result<(), FieldError> {
    let scope = q.deduplication_scope.as_deref();
    let limit = q.fifo_throughput_limit.as_deref();
    let words = [
        (
            "deduplicationScope",
            scope.filter(|s| dedup_scope(s).is_none()),
            "\"queue\" or \"messageGroup\"",
        ),
        (
            "fifoThroughputLimit",
            limit.filter(|l| throughput_limit(l).is_none()),
            "\"perQueue\" or \"perMessageGroupId\"",
        ),
    ];
    match words
        .into_iter()
        .find_map(|(f, got, rule)| Some((f, got?, rule)))
    {
        Some((field, got, rule)) => Err(FieldError {
            path: format!("queues[{i}].{field}"),
            rule: rule.into(),
            got: quoted(got),
        }),
        None => Ok(()),
    }
}

impl QueueSpec {
    /// What CreateQueue would refuse in this queue, said in the scenario's
    /// words and placed at its field ("queues[0].visibilityTimeoutSeconds
    /// must be a whole number of seconds from 0 to 43200 (12 hours), got
    /// 50000"), rather than as SQS's "Invalid value for the parameter
    /// VisibilityTimeout.": each attribute within the engine's range, the
    /// FIFO-only attributes only on a FIFO queue, and a dead-letter queue
    /// listed `earlier`, of the same type. `i` is its place in `queues`.
    fn validate(&self, i: usize, earlier: &[QueueSpec]) -> Result<(), FieldError> {
        let path = |field: &str| format!("queues[{i}].{field}");
        if let Some(text) = self.policy_text() {
            // The words SQS would answer SetQueueAttributes with, placed at
            // the field: the same reader and checks as the protocol's.
            let read = check_attribute_text(AttributeName::Policy, &text)
                .and_then(|()| queuelab_policy::read(&text));
            if let Err(error) = read {
                return Err(FieldError {
                    path: path("policy"),
                    rule: "a queue policy SQS accepts (a JSON object with Version and Statement)"
                        .into(),
                    got: format!("one SQS refuses with \"{}\"", error.message),
                });
            }
        }
        if !is_queue_name(&self.name) {
            return Err(FieldError {
                path: path("name"),
                rule: "1 to 80 letters, digits, hyphens or underscores (a FIFO queue's: 1 to 75 \
                       of them, then .fifo)"
                    .into(),
                got: quoted(&self.name),
            });
        }
        for (field, _, value) in self.seconds() {
            if let Some(v) = value {
                within(path(field), i128::from(v))?;
            }
        }
        let fifo = is_fifo(&self.name);
        let fifo_fields = [
            (
                "contentBasedDeduplication",
                AttributeName::ContentBasedDeduplication,
                self.content_based_deduplication.map(|v| v.to_string()),
            ),
            (
                "deduplicationScope",
                AttributeName::DeduplicationScope,
                self.deduplication_scope.as_ref().map(|s| quoted(s)),
            ),
            (
                "fifoThroughputLimit",
                AttributeName::FifoThroughputLimit,
                self.fifo_throughput_limit.as_ref().map(|s| quoted(s)),
            ),
        ];
        for (field, attribute, given) in fifo_fields {
            if let Some(got) = given.filter(|_| !fifo && attribute.fifo_only()) {
                return Err(FieldError {
                    path: path(field),
                    rule: "left out on a standard queue (it is for FIFO queues, whose names end \
                           in .fifo)"
                        .into(),
                    got,
                });
            }
        }
        validate_fifo_words(self, i)?;
        if let Some(redrive) = &self.redrive {
            within(
                path("redrive.maxReceiveCount"),
                i128::from(redrive.max_receive_count),
            )?;
            let dlq = &redrive.dead_letter_queue;
            let kind = if fifo {
                "a FIFO queue"
            } else {
                "a standard queue"
            };
            let refused = |rule: String| FieldError {
                path: path("redrive.deadLetterQueue"),
                rule,
                got: quoted(dlq),
            };
            match earlier.iter().find(|q| &q.name == dlq) {
                None => {
                    return Err(refused(
                        "the name of a queue listed before this one (queues are created in order)"
                            .into(),
                    ))
                }
                Some(target) if is_fifo(&target.name) != fifo => {
                    return Err(refused(format!(
                        "the name of {kind} listed before this one (SQS moves messages only \
                         between queues of the same type)"
                    )))
                }
                Some(_) => {}
            }
        }
        Ok(())
    }
}

/// `deduplicationScope`'s text as the engine types it, or None for a text
/// that is neither value: checked by `validate`, used to create the queue.
pub(crate) fn dedup_scope(text: &str) -> Option<DedupScope> {
    match text {
        "queue" => Some(DedupScope::Queue),
        "messageGroup" => Some(DedupScope::MessageGroup),
        _ => None,
    }
}

pub(crate) fn throughput_limit(text: &str) -> Option<ThroughputLimit> {
    match text {
        "perQueue" => Some(ThroughputLimit::PerQueue),
        "perMessageGroupId" => Some(ThroughputLimit::PerMessageGroupId),
        _ => None,
    }
}

/// A name ending in .fifo makes a FIFO queue, as CreateQueue decides.
fn is_fifo(name: &str) -> bool {
    name.ends_with(".fifo")
}
