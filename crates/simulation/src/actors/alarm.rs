//! A depth alarm, like a CloudWatch alarm on
//! ApproximateNumberOfMessagesVisible: a watcher that reads its queue's
//! depth at the end of every moment the run acts, and logs each change
//! between OK and ALARM.

use std::sync::Arc;

use queuelab_engine::{Millis, SqsResult};

use super::{Actor, Command, Part, Phase, Reads, UrlOf};
use crate::log::SimEvent;
use crate::scenario::Scenario;
use crate::AlarmSnapshot;

pub(crate) struct Alarm {
    name: Arc<str>,
    queue: Arc<str>,
    url: String,
    threshold: u64,
    in_alarm: bool,
}

pub(crate) fn build(
    scenario: &Scenario,
    url_of: UrlOf,
    _config: &queuelab_engine::Config,
) -> SqsResult<Vec<Box<dyn Actor>>> {
    let mut out: Vec<Box<dyn Actor>> = Vec::new();
    for alarm in &scenario.alarms {
        out.push(Box::new(Alarm {
            name: alarm.name.as_str().into(),
            queue: alarm.queue.as_str().into(),
            url: url_of(&format!("alarm \"{}\"", alarm.name), &alarm.queue)?,
            threshold: alarm.threshold,
            in_alarm: false,
        }));
    }
    Ok(out)
}

impl Actor for Alarm {
    fn name(&self) -> &Arc<str> {
        &self.name
    }

    fn wake_at(&self) -> Option<Millis> {
        None
    }

    fn phase(&self) -> Phase {
        Phase::Watch
    }

    fn step(&mut self, _now: Millis, seen: &mut Reads) -> Vec<Command> {
        let visible = seen.visible(&self.url).unwrap_or(0);
        let in_alarm = visible >= self.threshold;
        if in_alarm == self.in_alarm {
            return Vec::new();
        }
        self.in_alarm = in_alarm;
        vec![Command::Log(SimEvent::AlarmChanged {
            alarm: self.name.clone(),
            queue: self.queue.clone(),
            in_alarm,
            visible,
        })]
    }

    fn snapshot(&self) -> Option<Part> {
        Some(Part::Alarm(AlarmSnapshot {
            name: self.name.to_string(),
            queue: self.queue.to_string(),
            threshold: self.threshold,
            in_alarm: self.in_alarm,
        }))
    }
}
