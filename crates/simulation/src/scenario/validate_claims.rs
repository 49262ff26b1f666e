//! The story's triggers and claims, checked with the scenario: a count
//! written as a setting names a count the scenario has, a line or answer
//! makes at most `MAX_CLAIMS` claims, a quiet span runs forward in range.

use super::fields::{quoted, within, FieldError};
use crate::document::{Claim, Count, Scenario, Trigger, MAX_CLAIMS};
use crate::teach::placeholders::check_count;

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
                Claim::NoDuplicateDelivery | Claim::NoneLost => {}
            }
        }
        Ok(())
    }
}
