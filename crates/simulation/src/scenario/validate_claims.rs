//! The story's triggers and claims, checked with the scenario: a count
//! written as a setting names a count the scenario has, a line or answer
//! makes at most `MAX_CLAIMS` claims, a quiet span runs forward in range.

use super::fields::{quoted, within, FieldError};
use crate::document::{Claim, Count, Scenario, Trigger, MAX_CLAIMS};
use crate::teach::placeholders::{check_count, fill};

impl Scenario {
    /// Every trigger and claim of the narration and the checkpoints.
    pub(super) fn validate_claims(&self) -> Result<(), FieldError> {
        for (i, line) in self.narration.iter().enumerate() {
            let at = format!("narration[{i}]");
            self.trigger(&format!("{at}.when"), line.when.as_ref())?;
            self.claims(&at, &line.claims)?;
        }
        for (i, c) in self.checkpoints.iter().enumerate() {
            let at = format!("checkpoints[{i}]");
            self.trigger(&format!("{at}.when"), c.when.as_ref())?;
            self.claims(&at, &c.claims)?;
            for (j, choice) in c.choices.iter().enumerate() {
                let at = format!("{at}.choices[{j}]");
                self.trigger(&format!("{at}.when"), choice.when.as_ref())?;
                self.claims(&at, &choice.claims)?;
            }
        }
        Ok(())
    }

    fn trigger(&self, at: &str, trigger: Option<&Trigger>) -> Result<(), FieldError> {
        let Some(t) = trigger else { return Ok(()) };
        self.count(&format!("{at}.receiveCount"), t.receive_count.as_ref())?;
        self.count(&format!("{at}.count"), t.count.as_ref())
    }

    fn count(&self, at: &str, count: Option<&Count>) -> Result<(), FieldError> {
        let Some(count) = count else { return Ok(()) };
        check_count(count, self).map_err(|got| FieldError {
            path: at.into(),
            rule: "a number, or one {placeholder} naming a count of the scenario's queues or \
                   consumers (\"{orders.maxReceiveCount}\")"
                .into(),
            got,
        })
    }

    /// A behaviour claim names one of the scenario's consumers and one of
    /// the registry's behaviours.
    fn behaviour_claim(&self, at: &str, consumer: &str, is: &str) -> Result<(), FieldError> {
        if !self.consumers.iter().any(|c| c.name == consumer) {
            return Err(FieldError {
                path: format!("{at}.consumer"),
                rule: "the name of one of the scenario's consumers".into(),
                got: quoted(consumer),
            });
        }
        let names: Vec<&str> = crate::behaviour_names()
            .into_iter()
            .filter(|n| *n != "naive")
            .collect();
        if !names.contains(&is) {
            return Err(FieldError {
                path: format!("{at}.is"),
                rule: format!("one of {}", names.join(", ")),
                got: quoted(is),
            });
        }
        Ok(())
    }

    /// A setting claim's value names settings the scenario has.
    fn setting_claim(&self, at: &str, value: &str) -> Result<(), FieldError> {
        fill(value, self).map(|_| ()).map_err(|got| FieldError {
            path: at.into(),
            rule: "text whose {placeholders} each name one of the scenario's queues or \
                   consumers and one of its properties"
                .into(),
            got,
        })
    }

    /// `at`'s claims (`at`: "narration[2]", "checkpoints[0].choices[1]").
    fn claims(&self, at: &str, claims: &[Claim]) -> Result<(), FieldError> {
        super::at_most(
            &format!("{at}.claims"),
            claims.len() as u64,
            MAX_CLAIMS as u64,
            "claims",
        )?;
        for (k, claim) in claims.iter().enumerate() {
            let at = format!("{at}.claims[{k}]");
            match claim {
                Claim::Happened(t) => self.trigger(&format!("{at}.happened"), Some(t))?,
                Claim::NotHappened(t) => self.trigger(&format!("{at}.notHappened"), Some(t))?,
                Claim::Before { first, then } => {
                    self.trigger(&format!("{at}.before.first"), Some(first))?;
                    self.trigger(&format!("{at}.before.then"), Some(then))?;
                }
                Claim::ReceiveCount { equals, .. } => {
                    self.count(&format!("{at}.receiveCount.equals"), Some(equals))?
                }
                Claim::Quiet { from_ms, to_ms } => {
                    within(format!("{at}.quiet.fromMs"), i128::from(*from_ms))?;
                    within(format!("{at}.quiet.toMs"), i128::from(*to_ms))?;
                    if to_ms < from_ms {
                        return Err(FieldError {
                            path: format!("{at}.quiet.toMs"),
                            rule: "a moment at or after fromMs".into(),
                            got: quoted(&to_ms.to_string()),
                        });
                    }
                }
                Claim::AtOnce { first, then } => {
                    self.trigger(&format!("{at}.atOnce.first"), Some(first))?;
                    self.trigger(&format!("{at}.atOnce.then"), Some(then))?;
                }
                Claim::Behaviour { consumer, is } => {
                    self.behaviour_claim(&format!("{at}.behaviour"), consumer, is)?
                }
                Claim::NoBehaviour { consumer, is } => {
                    self.behaviour_claim(&format!("{at}.noBehaviour"), consumer, is)?
                }
                Claim::SettingIs { value, .. } => {
                    self.setting_claim(&format!("{at}.settingIs.value"), value)?
                }
                Claim::SettingIsNot { value, .. } => {
                    self.setting_claim(&format!("{at}.settingIsNot.value"), value)?
                }
                Claim::NoDuplicateDelivery | Claim::NoneLost | Claim::AllDeleted => {}
            }
        }
        Ok(())
    }
}
