//! A schedule: sends each listed message at its moment, as a scheduler
//! (EventBridge Scheduler, a cron job) would. It waits in the run until
//! the moment comes, so a message can be sent hours or days ahead of now,
//! where SQS's own `DelaySeconds` stops at 15 minutes (900 s). A send
//! may name its moment as a wall-clock time (`at`), as a one-time schedule
//! of EventBridge Scheduler does: it is read against the scenario's
//! `startEpochMs` (`ScheduledSend::moment`).

use std::sync::Arc;

use queuelab_engine::{Millis, SqsResult};

use super::{new_message, Actor, Command, Listed, Outcome, Part, Reads, SendPlan, Sends, UrlOf};
use crate::scenario::Scenario;

pub(crate) struct Schedule {
    name: Arc<str>,
    url: String,
    /// Its place in the scenario's `schedule`.
    index: usize,
    listed: Listed,
    sends: Sends,
}

pub(crate) fn build(
    scenario: &Scenario,
    url_of: UrlOf,
    _config: &queuelab_engine::Config,
) -> SqsResult<Vec<Box<dyn Actor>>> {
    let mut out: Vec<Box<dyn Actor>> = Vec::new();
    for (index, s) in scenario.schedule.iter().enumerate() {
        out.push(Box::new(Schedule {
            name: s.name.as_str().into(),
            url: url_of(&format!("schedule \"{}\"", s.name), &s.queue)?,
            index,
            listed: Listed::new(&s.sends, scenario.start_epoch_ms),
            sends: Sends::default(),
        }));
    }
    Ok(out)
}

impl Actor for Schedule {
    fn name(&self) -> &Arc<str> {
        &self.name
    }

    fn wake_at(&self) -> Option<Millis> {
        self.listed.next_at()
    }

    fn step(&mut self, now: Millis, _seen: &mut Reads) -> Vec<Command> {
        let mut out = Vec::new();
        while let Some(send) = self.listed.pop_due(now) {
            out.push(Command::Send {
                queue_url: self.url.clone(),
                message: new_message(send),
                account: None,
            });
        }
        out
    }

    fn outcome(&mut self, outcome: &Outcome) {
        self.sends.count(outcome);
    }

    fn snapshot(&self) -> Option<Part> {
        Some(self.sends.part(&self.name, &self.url))
    }

    fn queue_url(&self) -> Option<&str> {
        Some(&self.url)
    }

    fn plan(&self, until: Millis, hits: &dyn Fn(&str) -> bool) -> Option<SendPlan> {
        let (sends, units, matching) = self.listed.until(until, hits);
        Some(SendPlan {
            sends,
            units,
            matching,
            steady: None,
        })
    }

    fn place(&self) -> Option<String> {
        Some(format!("schedule[{}]", self.index))
    }
}
