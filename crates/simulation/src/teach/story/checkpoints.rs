//! Checkpoints ("predict, then see"), asked and answered by the run: a
//! question is asked (`checkpointAsked`) once its `atMs`, `when` and
//! `after` hold, and answered (`checkpointAnswered`) by the first choice
//! whose `when` event follows it, else at the end by the first whose
//! `atEnd` holds, else by the "anything else" choice. They ride the
//! story's machinery (its triggers, its lines shown, its end conditions).

use super::{Happening, Story, Told};
use crate::document::TriggerEvent;
use queuelab_engine::Millis;

/// Where a checkpoint is: not asked yet, asked and open, or answered.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Asked {
    Not,
    Open,
    Answered,
}

impl Story {
    /// Open checkpoints whose `when` choice this event is: answered now.
    pub(super) fn answer_open(&mut self, what: TriggerEvent, h: &Happening) {
        for i in 0..self.checkpoints.len() {
            if self.asked[i] != Asked::Open {
                continue;
            }
            let choices = &self.checkpoints[i].choices;
            let hit = choices
                .iter()
                .position(|c| c.when.as_ref().is_some_and(|t| t.matches(what, h)));
            if let Some(choice) = hit {
                self.answer(i, Some(choice));
            }
        }
    }

    /// Checkpoint `i` is answered by `choice` (None: no choice happened).
    /// The answer is the run's; its `because` is said only if its claims
    /// hold now (else the log says it was withheld, and why).
    fn answer(&mut self, i: usize, choice: Option<usize>) {
        self.asked[i] = Asked::Answered;
        let checkpoint = &self.checkpoints[i];
        let picked = choice.map(|j| &checkpoint.choices[j]);
        let mut because = picked.and_then(|c| c.because.clone());
        let claims = choice.map_or(Ok(()), |j| self.claims.choice(i, j, &self.outcome));
        let withheld = match (claims, &because) {
            (Err(reason), Some(text)) => Some(Told::NarrationWithheld {
                text: text.clone(),
                reason,
            }),
            _ => None,
        };
        if withheld.is_some() {
            because = None;
        }
        self.told.push(Told::CheckpointAnswered {
            id: checkpoint.id.clone(),
            choice: choice.map(|j| j as u32),
            answer: picked.map_or_else(
                || "None of these happened in this run.".to_string(),
                |c| c.text.clone(),
            ),
            because,
        });
        self.told.extend(withheld);
    }

    /// Asks the checkpoints whose moment has come and whose `after` line
    /// was shown; at the run's end, answers those still open from the run
    /// as a whole.
    pub(super) fn ask(&mut self, now: Millis, end: Option<&dyn Fn(u64) -> bool>) {
        for i in 0..self.checkpoints.len() {
            let c = &self.checkpoints[i];
            let ready = match &c.after {
                None => true,
                Some(id) => self.ids.get(id).is_some_and(|l| self.shown[*l]),
            } && (c.when.is_none() || self.checkpoint_events.contains(&i));
            if self.asked[i] == Asked::Not && c.at_ms <= now && ready {
                // A question whose claims this run does not bear out is
                // not asked (a page never pauses for it).
                if let Err(reason) = self.claims.question(i, &self.outcome) {
                    self.asked[i] = Asked::Answered;
                    self.told.push(Told::NarrationWithheld {
                        text: c.question.clone(),
                        reason,
                    });
                    continue;
                }
                self.asked[i] = Asked::Open;
                self.told.push(Told::CheckpointAsked {
                    id: c.id.clone(),
                    question: c.question.clone(),
                    choices: c.choices.iter().map(|c| c.text.clone()).collect(),
                });
            }
        }
        if let Some(each_exactly) = end {
            for i in 0..self.checkpoints.len() {
                if self.asked[i] == Asked::Open {
                    let choices = &self.checkpoints[i].choices;
                    let holds = choices.iter().position(|c| {
                        c.at_end
                            .as_ref()
                            .is_some_and(|e| self.holds(e, each_exactly))
                    });
                    let otherwise = || {
                        choices
                            .iter()
                            .position(|c| c.when.is_none() && c.at_end.is_none())
                    };
                    self.answer(i, holds.or_else(otherwise));
                }
            }
        }
    }

    /// The checkpoint events due since the last call, in order.
    pub(super) fn take_told(&mut self) -> Vec<Told> {
        std::mem::take(&mut self.told)
    }
}
