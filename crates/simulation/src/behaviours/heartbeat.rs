//! `heartbeatEveryMs`: while processing, extend the visibility of every
//! message still held every N ms (to `heartbeatVisibilitySeconds`, or the
//! queue's visibility timeout).

use super::{span, Command, Observation, Spec, WorkerBehaviour};
use queuelab_engine::Millis;

struct Heartbeat {
    every_ms: Millis,
    seconds: Option<i64>,
}

pub(super) fn new(spec: &Spec) -> Result<Option<Box<dyn WorkerBehaviour>>, String> {
    match spec.heartbeat_every_ms {
        None => Ok(None),
        Some(0) => Err("behaviour.heartbeatEveryMs must be above 0".into()),
        Some(every_ms) => Ok(Some(Box::new(Heartbeat {
            every_ms,
            seconds: spec.heartbeat_visibility_seconds,
        }))),
    }
}

pub(super) fn words(spec: &Spec) -> Option<String> {
    let every = spec.heartbeat_every_ms?;
    let to = (spec.heartbeat_visibility_seconds).map_or(String::new(), |s| {
        format!(
            " (visibility {})",
            span(s.saturating_mul(1000).unsigned_abs())
        )
    });
    Some(format!("heartbeat every {}{to}", span(every)))
}

impl WorkerBehaviour for Heartbeat {
    fn observe(&mut self, observation: &Observation) -> Vec<Command> {
        match observation {
            Observation::Started => vec![Command::Heartbeat {
                every_ms: self.every_ms,
            }],
            Observation::HeartbeatDue => vec![Command::ExtendVisibility {
                seconds: self.seconds,
            }],
            _ => Vec::new(),
        }
    }
}
