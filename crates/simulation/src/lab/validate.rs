//! A lab's parts checked against its scenario (`validate_lab`, called by
//! `Scenario::validate`): the goal's conditions name the scenario's queues
//! and fit its sends, each knob's target names what the scenario has and
//! its range fits the field's own, and the explanation's fixes and
//! non-fixes are settings the knobs accept.

use std::collections::BTreeMap;

use super::rename::queue_index;
use super::security::need_principal;
use super::target::{consumer_indexes, Kind};
use crate::document::{
    Explain, Goal, Knob, KnobValue, LeastPrivilege, Scenario, Target, MAX_FIXES, MAX_GRANTS,
    MAX_HINTS, MAX_NON_FIXES,
};
use crate::scenario::{at_most, quoted, FieldError};

pub(super) fn refuse<T>(
    path: impl Into<String>,
    rule: impl Into<String>,
    got: String,
) -> Result<T, FieldError> {
    Err(FieldError {
        path: path.into(),
        rule: rule.into(),
        got,
    })
}
impl Goal {
    /// The goal's own rules, in the scenario's words.
    fn validate(&self, s: &Scenario) -> Result<(), FieldError> {
        if self.ids().is_empty() {
            return refuse(
                "goal",
                "a goal with at least one condition (sideEffectsAtMost, noneLost, processedByMs, …)",
                "none".into(),
            );
        }
        let is_queue = |name: &str| s.queues.iter().any(|q| q.name == name);
        let queue_rule = "the name of one of the scenario's queues";
        if let Some(age) = &self.oldest_age {
            if !is_queue(&age.queue) {
                return refuse("goal.oldestAge.queue", queue_rule, quoted(&age.queue));
            }
        }
        if let Some(dlq) = &self.dead_letter_queue {
            if !is_queue(dlq) {
                return refuse("goal.deadLetterQueue", queue_rule, quoted(dlq));
            }
        }
        if let Some(queue) = &self.encrypted_with_kms {
            if !is_queue(queue) {
                return refuse("goal.encryptedWithKms", queue_rule, quoted(queue));
            }
        }
        if let Some(lp) = &self.least_privilege {
            if !is_queue(&lp.queue) {
                return refuse("goal.leastPrivilege.queue", queue_rule, quoted(&lp.queue));
            }
            lp.validate()?;
        }
        for (i, p) in self.poison.iter().enumerate() {
            if p.is_empty() {
                return refuse(
                    format!("goal.poison[{i}]"),
                    "a text of one character or more",
                    "\"\"".into(),
                );
            }
        }
        if !self.poison.is_empty() && self.dead_letter_queue.is_none() {
            return refuse(
                "goal.deadLetterQueue",
                "given when goal.poison is (where should the poison messages end?)",
                "nothing".into(),
            );
        }
        if self.side_effects_exactly == Some(0) {
            return refuse(
                "goal.sideEffectsExactly",
                "1 or more (to forbid the side effect, use sideEffectsAtMost 0)",
                "0".into(),
            );
        }
        if let Some(t) = self.processed_by_ms.filter(|t| *t > s.duration_ms) {
            return refuse(
                "goal.processedByMs",
                format!(
                    "a moment within the run (0 to durationMs = {})",
                    s.duration_ms
                ),
                t.to_string(),
            );
        }
        if let Some(name) = &self.not_handled_before {
            if name.is_empty() || name.len() > 256 {
                return refuse(
                    "goal.notHandledBefore",
                    "a message attribute's name of 1 to 256 characters",
                    quoted(name),
                );
            }
        }
        self.validate_alarm_conditions(s)?;
        if let Some(attribute) = &self.order_kept_per {
            for (i, p) in s.producers.iter().enumerate() {
                if p.rate.is_some() {
                    return refuse(
                        format!("producers[{i}].rate"),
                        format!(
                            "left out when goal.orderKeptPer names the message attribute {} (a rate's sends carry no attributes: use sends with attributes)",
                            quoted(attribute)
                        ),
                        "a rate".into(),
                    );
                }
                for (j, send) in p.sends.iter().enumerate() {
                    if !send.attributes.contains_key(attribute) {
                        return refuse(
                            format!("producers[{i}].sends[{j}].attributes"),
                            format!(
                                "attributes with {} (goal.orderKeptPer keeps order per its value)",
                                quoted(attribute)
                            ),
                            "none by that name".into(),
                        );
                    }
                }
            }
        }
        Ok(())
    }
}

impl Goal {
    /// `alarmFires` names an alarm of the scenario (or one an `addAlarm`
    /// knob adds), `alarmNotifies` a topic; each moment is within the run.
    fn validate_alarm_conditions(&self, s: &Scenario) -> Result<(), FieldError> {
        let within = |field: &str, t: u64| match t > s.duration_ms {
            true => refuse(
                format!("goal.{field}.byMs"),
                format!(
                    "a moment within the run (0 to durationMs = {})",
                    s.duration_ms
                ),
                t.to_string(),
            ),
            false => Ok(()),
        };
        if let Some(fires) = &self.alarm_fires {
            let added = |k: &crate::document::Knob| matches!(&k.target, Target::AddAlarm { alarm } if alarm.name == fires.alarm);
            if !s.alarms.iter().any(|a| a.name == fires.alarm) && !s.knobs.iter().any(added) {
                let rule = "the name of one of the scenario's alarms (or of an addAlarm knob's)";
                return refuse("goal.alarmFires.alarm", rule, quoted(&fires.alarm));
            }
            within("alarmFires", fires.by_ms)?;
        }
        if let Some(notifies) = &self.alarm_notifies {
            if !s.topics.iter().any(|t| t.name == notifies.topic) {
                let rule = "the name of one of the scenario's SNS topics";
                return refuse("goal.alarmNotifies.topic", rule, quoted(&notifies.topic));
            }
            within("alarmNotifies", notifies.by_ms)?;
        }
        Ok(())
    }
}

impl LeastPrivilege {
    /// Its grants: 1 to `MAX_GRANTS`, each a principal SQS knows and
    /// actions a policy can name.
    fn validate(&self) -> Result<(), FieldError> {
        let path = "goal.leastPrivilege.grants";
        if !(1..=MAX_GRANTS).contains(&self.grants.len()) {
            let rule = format!("a list of 1 to {MAX_GRANTS} grants (who needs which actions)");
            return refuse(path, rule, self.grants.len().to_string());
        }
        for (i, need) in self.grants.iter().enumerate() {
            if let Err(why) = need_principal(need) {
                return refuse(
                    format!("{path}[{i}].principal"),
                    why,
                    quoted(&need.principal),
                );
            }
            if need.actions.is_empty() {
                let rule = "a list of at least one SQS action (\"ReceiveMessage\")";
                return refuse(format!("{path}[{i}].actions"), rule, "none".into());
            }
            for (j, action) in need.actions.iter().enumerate() {
                let known = queuelab_engine::Action::from_name(action)
                    .filter(|a| !matches!(a.grant(), queuelab_engine::Grant::Through(_)));
                if known.is_none() {
                    let rule = "the name of an SQS action a policy can grant (\"ReceiveMessage\", \
                                \"DeleteMessage\"; a batch is granted by its single action)";
                    return refuse(format!("{path}[{i}].actions[{j}]"), rule, quoted(action));
                }
            }
        }
        Ok(())
    }
}

impl Knob {
    /// The knob's own rules; `i` is its place in `knobs`.
    fn validate(&self, i: usize, s: &Scenario) -> Result<(), FieldError> {
        self.validate_target(i, s)?;
        self.validate_range(i)?;
        // The file's own setting is one the learner could have chosen.
        let own = self.target.read(s).unwrap_or(KnobValue::OFF);
        if let Err(e) = self.check(&own) {
            let paths = self.target.paths(s).join(", ");
            return refuse(
                format!("knobs[{i}]"),
                format!(
                    "a knob whose range holds the file's own setting ({paths}): {}",
                    e.rule
                ),
                e.got,
            );
        }
        Ok(())
    }

    /// What the target names is in the scenario, and fits the knob.
    fn validate_target(&self, i: usize, s: &Scenario) -> Result<(), FieldError> {
        let target = format!("knobs[{i}].target.{}", self.target.name());
        if let Some(queue) = self.target.queue() {
            if queue_index(s, queue).is_none() {
                let rule = "the name of one of the scenario's queues";
                return refuse(format!("{target}.queue"), rule, quoted(queue));
            }
        }
        if let Target::Redrive {
            queue,
            dead_letter_queue,
        } = &self.target
        {
            let (q, dlq) = (queue_index(s, queue), queue_index(s, dead_letter_queue));
            let same_type = |a: &str, b: &str| a.ends_with(".fifo") == b.ends_with(".fifo");
            if !matches!((q, dlq), (Some(q), Some(d)) if d < q && same_type(queue, dead_letter_queue))
            {
                let rule = format!(
                    "the name of a queue listed before {} and of the same type (SQS moves messages only between queues of the same type)",
                    quoted(queue)
                );
                return refuse(
                    format!("{target}.deadLetterQueue"),
                    rule,
                    quoted(dead_letter_queue),
                );
            }
        }
        if let Target::ReplyQueue { requester } | Target::ReplyWaitSeconds { requester } =
            &self.target
        {
            if !s.requesters.iter().any(|r| &r.name == requester) {
                let rule = "the name of one of the scenario's requesters";
                return refuse(format!("{target}.requester"), rule, quoted(requester));
            }
        }
        if let Target::MoveTaskAt { operator, source } = &self.target {
            if !s.operators.iter().any(|o| &o.name == operator) {
                let rule = "the name of one of the scenario's operators";
                return refuse(format!("{target}.operator"), rule, quoted(operator));
            }
            if queue_index(s, source).is_none() {
                let rule = "the name of one of the scenario's queues";
                return refuse(format!("{target}.source"), rule, quoted(source));
            }
        }
        if let Target::GroupId {
            producer,
            attribute,
        } = &self.target
        {
            let Some((i, p)) = s
                .producers
                .iter()
                .enumerate()
                .find(|(_, p)| &p.name == producer)
            else {
                let rule = "the name of one of the scenario's producers";
                return refuse(format!("{target}.producer"), rule, quoted(producer));
            };
            if p.rate.is_some() {
                let rule =
                    "left out when a groupId knob sets this producer's group ids (use sends)";
                return refuse(format!("producers[{i}].rate"), rule, "a rate".into());
            }
            if let Some(j) = p
                .sends
                .iter()
                .position(|send| !send.attributes.contains_key(attribute))
            {
                let rule = format!(
                    "attributes with {} (the groupId knob groups by it)",
                    quoted(attribute)
                );
                return refuse(
                    format!("producers[{i}].sends[{j}].attributes"),
                    rule,
                    "none by that name".into(),
                );
            }
        }
        self.validate_queue_target(&target, s)?;
        self.validate_function_or_alarm(&target, s)?;
        if let Some(consumer) = self.target.consumer() {
            if consumer_indexes(s, consumer).is_empty() {
                let rule = "\"*\" or the name of one of the scenario's consumers";
                return refuse(format!("{target}.consumer"), rule, quoted(consumer));
            }
        }
        Ok(())
    }

    /// A Lambda function's or an alarm's: it is in the scenario (an alarm
    /// `addAlarm` adds is checked as the scenario would check it).
    fn validate_function_or_alarm(&self, target: &str, s: &Scenario) -> Result<(), FieldError> {
        if let Some(lambda) = self.target.lambda() {
            if !s.lambdas.iter().any(|l| l.name == lambda) {
                let rule = "the name of one of the scenario's functions (lambdas)";
                return refuse(format!("{target}.lambda"), rule, quoted(lambda));
            }
        }
        if let Target::AddAlarm { alarm } = &self.target {
            let mut with = s.clone();
            with.alarms.retain(|a| a.name != alarm.name);
            with.alarms.push((**alarm).clone());
            let i = with.alarms.len() - 1;
            return with.validate_cloudwatch().map_err(|mut e| {
                e.path = e
                    .path
                    .replacen(&format!("alarms[{i}]"), &format!("{target}.alarm"), 1);
                e
            });
        }
        if let Some(alarm) = self.target.alarm() {
            if !s.alarms.iter().any(|a| a.name == alarm) {
                let rule = "the name of one of the scenario's alarms";
                return refuse(format!("{target}.alarm"), rule, quoted(alarm));
            }
        }
        Ok(())
    }

    /// A queue's policy or encryption: what the knob starts from is there.
    fn validate_queue_target(&self, target: &str, s: &Scenario) -> Result<(), FieldError> {
        let Some(q) = self
            .target
            .queue()
            .and_then(|name| s.queues.iter().find(|q| q.name == name))
        else {
            return Ok(());
        };
        match &self.target {
            Target::QueuePolicy { queue } if q.policy.is_none() => refuse(
                format!("{target}.queue"),
                "a queue with a policy (the knob's text starts from it)",
                format!("{} with none", quoted(queue)),
            ),
            Target::Encryption { kms_key, .. }
                if kms_key != "alias/aws/sqs" && !s.keys.iter().any(|k| &k.alias == kms_key) =>
            {
                refuse(
                    format!("{target}.kmsKey"),
                    "the alias of one of the scenario's keys, or alias/aws/sqs",
                    quoted(kms_key),
                )
            }
            _ => Ok(()),
        }
    }

    /// `min`, `max` and `off` as the target's kind allows them.
    fn validate_range(&self, i: usize) -> Result<(), FieldError> {
        let path = |field: &str| format!("knobs[{i}].{field}");
        match self.target.kind() {
            kind @ (Kind::Choice(_) | Kind::Bool | Kind::Text) => {
                let what = match kind {
                    Kind::Choice(_) => "a choice",
                    Kind::Text => "a text (a document)",
                    _ => "a toggle (true or false)",
                };
                for (field, given) in [
                    ("min", self.min.is_some()),
                    ("max", self.max.is_some()),
                    ("off", self.off),
                ] {
                    if given {
                        let rule = format!("left out: {} is {what}", self.target.name());
                        return refuse(path(field), rule, "a value".into());
                    }
                }
            }
            Kind::Int { lo, hi, optional } => {
                let field_rule = self.target.rule();
                let (Some(min), Some(max)) = (self.min, self.max) else {
                    let rule = format!("given: a number knob gives min and max, each {field_rule}");
                    let which = if self.min.is_none() { "min" } else { "max" };
                    return refuse(path(which), rule, "nothing".into());
                };
                for (field, v) in [("min", min), ("max", max)] {
                    if !(lo..=hi).contains(&v) {
                        return refuse(path(field), field_rule.clone(), v.to_string());
                    }
                }
                if min > max {
                    return refuse(
                        path("max"),
                        format!("at least min ({min})"),
                        max.to_string(),
                    );
                }
                if self.off && !optional {
                    let rule = format!(
                        "left out: {} cannot be off (only heartbeatEveryMs, heartbeatVisibilitySeconds, redrive and retryBackoff can)",
                        self.target.name()
                    );
                    return refuse(path("off"), rule, "true".into());
                }
            }
        }
        Ok(())
    }

    /// A value for this knob, or the rule it breaks (path `settings.<id>`).
    pub(super) fn check(&self, value: &KnobValue) -> Result<(), FieldError> {
        let got = match value {
            KnobValue::Text(t) => quoted(t),
            KnobValue::Off(_) => "\"off\"".to_string(),
            KnobValue::Bool(b) => b.to_string(),
            KnobValue::Int(v) => v.to_string(),
        };
        let path = format!("settings.{}", self.id);
        match (self.target.kind(), value) {
            (Kind::Choice(choices), KnobValue::Text(t)) if choices.contains(&t.as_str()) => Ok(()),
            (Kind::Choice(choices), _) => {
                let words: Vec<String> = choices.iter().map(|c| format!("\"{c}\"")).collect();
                let rule = match words.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} or {last}", rest.join(", "))
                    }
                    _ => words.join(""),
                };
                refuse(path, rule, got)
            }
            (Kind::Text, KnobValue::Text(text)) => check_policy(&path, text),
            (Kind::Text, _) => refuse(path, "a queue policy as JSON text", got),
            (Kind::Bool, KnobValue::Bool(_)) => Ok(()),
            (Kind::Bool, _) => refuse(path, "true or false", got),
            (Kind::Int { .. }, KnobValue::Int(v))
                if (self.min.unwrap_or(i64::MIN)..=self.max.unwrap_or(i64::MAX)).contains(v) =>
            {
                Ok(())
            }
            (Kind::Int { .. }, KnobValue::Off(_)) if self.off || self.target.lapses() => Ok(()),
            (Kind::Int { .. }, _) => {
                let unit = self.target.range().map_or("", |(.., unit)| unit);
                let (min, max) = (self.min.unwrap_or(0), self.max.unwrap_or(0));
                let off = if self.off { ", or \"off\"" } else { "" };
                refuse(
                    path,
                    format!("a whole number{unit} from {min} to {max}{off}"),
                    got,
                )
            }
        }
    }
}

/// A policy text as SQS takes it at SetQueueAttributes: its size, then
/// the one policy reader (`queuelab_policy::read`), whose refusal names
/// what is wrong ("statement 1: it has no Effect").
fn check_policy(path: &str, text: &str) -> Result<(), FieldError> {
    let read = queuelab_engine::check_attribute_text(queuelab_engine::AttributeName::Policy, text)
        .and_then(|()| queuelab_policy::read(text));
    match read {
        Ok(_) => Ok(()),
        Err(error) => refuse(
            path,
            "a queue policy SQS accepts (a JSON object with Version and Statement)",
            error.message,
        ),
    }
}

impl Explain {
    fn validate(&self, s: &Scenario) -> Result<(), FieldError> {
        if !(1..=MAX_HINTS).contains(&self.hints.len()) {
            let rule = format!("a list of 1 to {MAX_HINTS} hints");
            return refuse("explain.hints", rule, self.hints.len().to_string());
        }
        for (field, text) in [
            ("cause", &self.cause),
            ("fix", &self.fix),
            ("doc.title", &self.doc.title),
        ] {
            if text.trim().is_empty() {
                return refuse(format!("explain.{field}"), "a sentence", "nothing".into());
            }
        }
        let url = &self.doc.url;
        if !(url.starts_with("https://docs.aws.amazon.com/")
            || url.starts_with("https://aws.amazon.com/"))
        {
            let rule = "an AWS documentation address (https://docs.aws.amazon.com/… or https://aws.amazon.com/…)";
            return refuse("explain.doc.url", rule, quoted(url));
        }
        if self.fixes.is_empty() {
            return refuse("explain.fixes", "a list of at least one fix", "none".into());
        }
        if self.non_fixes.is_empty() {
            return refuse(
                "explain.nonFixes",
                "a list of at least one setting that only moves the problem",
                "none".into(),
            );
        }
        at_most(
            "explain.fixes",
            self.fixes.len() as u64,
            MAX_FIXES as u64,
            "fixes",
        )?;
        at_most(
            "explain.nonFixes",
            self.non_fixes.len() as u64,
            MAX_NON_FIXES as u64,
            "non-fixes",
        )?;
        let ids = s.goal.as_ref().map(Goal::ids).unwrap_or_default();
        let fixes = self.fixes.iter().map(|f| ("fixes", &f.settings));
        let non_fixes = self.non_fixes.iter().map(|f| ("nonFixes", &f.settings));
        let mut counts = BTreeMap::new();
        for (list, settings) in fixes.chain(non_fixes) {
            let j = counts.entry(list).or_insert(0usize);
            // Checked against the knobs, not applied: no copy of the scenario.
            if let Err(e) = s.check_settings(settings) {
                return refuse(format!("explain.{list}[{}].{}", j, e.path), e.rule, e.got);
            }
            *j += 1;
        }
        for (j, n) in self.non_fixes.iter().enumerate() {
            if !ids.contains(&n.fails.as_str()) {
                let rule = format!(
                    "the id of one of the goal's conditions ({})",
                    ids.join(", ")
                );
                return refuse(
                    format!("explain.nonFixes[{j}].fails"),
                    rule,
                    quoted(&n.fails),
                );
            }
        }
        Ok(())
    }
}

/// A lab's goal, knobs and explanation: each checked against the
/// scenario (nothing is checked when the parts are absent).
pub(crate) fn validate_lab(s: &Scenario) -> Result<(), FieldError> {
    if let Some(goal) = &s.goal {
        goal.validate(s)?;
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, knob) in s.knobs.iter().enumerate() {
        if knob.id.is_empty() || !seen.insert(&knob.id) {
            return refuse(
                format!("knobs[{i}].id"),
                "a name no other knob has",
                quoted(&knob.id),
            );
        }
        knob.validate(i, s)?;
    }
    if let Some(explain) = &s.explain {
        if s.goal.is_none() {
            return refuse(
                "explain",
                "left out of a scenario without a goal",
                "an explanation".into(),
            );
        }
        explain.validate(s)?;
    }
    Ok(())
}
