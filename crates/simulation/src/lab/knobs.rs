//! Knob settings applied to typed fields (`Scenario::with_settings`; a knob
//! never names a free-form path), or only checked against the knobs
//! (`Scenario::check_settings`, which `with_settings` calls first).

use super::target::{consumer_indexes, queue_index};
use super::validate::refuse;
use crate::document::{KnobValue, Scenario, Settings, Target};
use crate::scenario::{quoted, FieldError};

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
pub(super) fn set_queue_type(s: &mut Scenario, queue: &str, fifo: bool) {
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
/// policies, producers, consumers, schedules, alarms, the goal, knob selectors,
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
    s.schedule.iter_mut().for_each(|e| fix(&mut e.queue));
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
        knob.target.queue_names_mut().into_iter().for_each(fix);
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
