//! A lab's conditions on CloudWatch alarms, watched over one run from the
//! log's `alarmChanged` events: `alarmFires` (the alarm went into ALARM
//! by a moment) and `alarmNotifies` (a change into ALARM published to an
//! SNS topic by a moment). Both are judged at their moment's passing, at
//! the end of the run, and say what the alarm did instead: its last change
//! of state and CloudWatch's reason for it, or that it never changed.

use std::collections::BTreeMap;

use queuelab_engine::Millis;

use crate::cloudwatch::AlarmState;
use crate::document::Goal;
use crate::log::SimEvent;
use crate::teach::explain::secs;

/// An alarm's last change of state: when, to what, and why.
struct Change {
    at_ms: Millis,
    to: AlarmState,
    reason: String,
}

#[derive(Default)]
pub(super) struct AlarmWatch {
    /// The first moment each alarm went into ALARM.
    fired: BTreeMap<String, Millis>,
    /// The first moment an alarm's action notified each topic, and which alarm.
    notified: BTreeMap<String, (Millis, String)>,
    /// The first moment each alarm went into ALARM (`fired` keeps the
    /// first one from `notBeforeMs` on).
    early: BTreeMap<String, Millis>,
    /// Each alarm's changes up to the goal's moment: the latest kept.
    last: BTreeMap<String, Change>,
}

impl AlarmWatch {
    pub(super) fn observe_sim(&mut self, now: Millis, event: &SimEvent, goal: &Goal) {
        let SimEvent::AlarmChanged {
            alarm,
            to,
            reason,
            actions,
            ..
        } = event
        else {
            return;
        };
        let name = alarm.to_string();
        let by = goal.alarm_fires.as_ref().map_or(Millis::MAX, |f| f.by_ms);
        if now <= by {
            let change = Change {
                at_ms: now,
                to: *to,
                reason: reason.clone(),
            };
            self.last.insert(name.clone(), change);
        }
        if *to != AlarmState::ALARM {
            return;
        }
        self.early.entry(name.clone()).or_insert(now);
        let from = goal.alarm_fires.as_ref().and_then(|f| f.not_before_ms);
        if from.is_none_or(|t| now >= t) {
            self.fired.entry(name.clone()).or_insert(now);
        }
        for topic in actions {
            self.notified
                .entry(topic.clone())
                .or_insert((now, name.clone()));
        }
    }

    /// When the goal's alarm fired and its topic was notified, the later
    /// (0 when neither is asked or happened).
    pub(super) fn fired_at(&self, goal: &Goal) -> Millis {
        let fired = (goal.alarm_fires.as_ref()).and_then(|f| self.fired.get(&f.alarm).copied());
        let told = (goal.alarm_notifies.as_ref()).and_then(|n| self.notified.get(&n.topic));
        fired.unwrap_or(0).max(told.map_or(0, |(t, _)| *t))
    }

    /// The conditions broken, judged at the end: (id, moment, words).
    pub(super) fn judge(&self, goal: &Goal) -> Vec<(&'static str, Millis, String)> {
        let mut out = Vec::new();
        if let Some(f) = &goal.alarm_fires {
            let early = f.not_before_ms.and_then(|t| {
                self.early
                    .get(&f.alarm)
                    .filter(|at| **at < t)
                    .map(|at| (*at, t))
            });
            if let Some((at_ms, t)) = early {
                let text = format!(
                    "{} went into ALARM at t = {}, before t = {}: a false alarm, before the \
                     trouble it watches for began",
                    f.alarm,
                    secs(at_ms),
                    secs(t)
                );
                out.push(("alarmFires", at_ms, text));
            } else if self.fired.get(&f.alarm).is_none_or(|t| *t > f.by_ms) {
                let text = format!(
                    "{} was not in ALARM by t = {}: {}",
                    f.alarm,
                    secs(f.by_ms),
                    self.instead(&f.alarm)
                );
                out.push(("alarmFires", f.by_ms, text));
            }
        }
        if let Some(n) = &goal.alarm_notifies {
            if self
                .notified
                .get(&n.topic)
                .is_none_or(|(t, _)| *t > n.by_ms)
            {
                let text = format!(
                    "no alarm notified {} by t = {}: {}",
                    n.topic,
                    secs(n.by_ms),
                    self.nothing_fired(&n.topic, n.by_ms)
                );
                out.push(("alarmNotifies", n.by_ms, text));
            }
        }
        out
    }

    /// What the alarm did instead of going into ALARM.
    fn instead(&self, alarm: &str) -> String {
        match self.last.get(alarm) {
            None => "it never changed state (INSUFFICIENT_DATA from the start: no period of it \
                     had ended with data)"
                .to_string(),
            Some(c) => format!(
                "its last change was to {} at t = {} ({})",
                c.to.word(),
                secs(c.at_ms),
                c.reason.trim_end_matches('.')
            ),
        }
    }

    /// Why nothing notified the topic: which alarms went into ALARM, if any.
    fn nothing_fired(&self, topic: &str, by: Millis) -> String {
        let fired: Vec<&str> = (self.fired.iter())
            .filter(|(_, t)| **t <= by)
            .map(|(name, _)| name.as_str())
            .collect();
        match fired.is_empty() {
            true => "no alarm went into ALARM".to_string(),
            false => format!(
                "{} went into ALARM, but {} no action on {topic}",
                fired.join(", "),
                if fired.len() == 1 {
                    "it has"
                } else {
                    "they have"
                }
            ),
        }
    }
}
