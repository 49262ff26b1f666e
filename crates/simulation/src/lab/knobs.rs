//! Knob settings applied to typed fields (`Scenario::with_settings`; a knob
//! never names a free-form path), or only checked against the knobs
//! (`Scenario::check_settings`, which `with_settings` calls first).

use super::target::consumer_indexes;
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
