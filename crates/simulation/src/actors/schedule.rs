//! A schedule: sends each listed message at its moment, as a scheduler
//! (EventBridge Scheduler, a cron job) would. It waits in the run until
//! the moment comes, so a message can be sent hours or days ahead of now,
//! where SQS's own `DelaySeconds` stops at 15 minutes (900 s).

use std::sync::Arc;

use queuelab_engine::{Millis, SqsResult};

use super::{listed_until, new_message, Actor, Command, Reads, SendPlan, UrlOf};
use crate::scenario::{Scenario, ScheduledSend};
use crate::time_order;

pub(crate) struct Schedule {
    name: Arc<str>,
    url: String,
    /// Its place in the scenario's `schedule`.
    index: usize,
    /// In time order (listed order among sends of one moment).
    sends: Vec<ScheduledSend>,
    next: usize,
}

pub(crate) fn build(scenario: &Scenario, url_of: UrlOf) -> SqsResult<Vec<Box<dyn Actor>>> {
    let mut out: Vec<Box<dyn Actor>> = Vec::new();
    for (index, s) in scenario.schedule.iter().enumerate() {
        let mut sends = s.sends.clone();
        time_order::sort_by_time(&mut sends, |s| s.at_ms);
        out.push(Box::new(Schedule {
            name: s.name.as_str().into(),
            url: url_of(&format!("schedule \"{}\"", s.name), &s.queue)?,
            index,
            sends,
            next: 0,
        }));
    }
    Ok(out)
}

impl Actor for Schedule {
    fn name(&self) -> &Arc<str> {
        &self.name
    }

    fn wake_at(&self) -> Option<Millis> {
        self.sends.get(self.next).map(|s| s.at_ms)
    }

    fn step(&mut self, now: Millis, _seen: &mut Reads) -> Vec<Command> {
        let due = self.sends[self.next..].partition_point(|s| s.at_ms <= now);
        let sends = &self.sends[self.next..self.next + due];
        self.next += due;
        sends
            .iter()
            .map(|send| Command::Send {
                queue_url: self.url.clone(),
                message: new_message(send.clone()),
            })
            .collect()
    }

    fn queue_url(&self) -> Option<&str> {
        Some(&self.url)
    }

    fn plan(&self, until: Millis, hits: &dyn Fn(&str) -> bool) -> Option<SendPlan> {
        let (sends, units, matching) = listed_until(&self.sends, self.next, until, hits);
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
