//! `failsDuringMs`: the handler fails every message whose processing ends
//! within a window of the run, whatever the body: a dependency (a payment
//! API) that is down for a while, then back.

use super::{secs, Command, Observation, Spec, WorkerBehaviour};
use queuelab_engine::Millis;

struct FailsDuring {
    start_ms: Millis,
    end_ms: Millis,
}

pub(super) fn new(spec: &Spec) -> Result<Option<Box<dyn WorkerBehaviour>>, String> {
    Ok(spec.fails_during_ms.as_ref().map(|w| {
        Box::new(FailsDuring {
            start_ms: w.start_ms,
            end_ms: w.end_ms,
        }) as Box<dyn WorkerBehaviour>
    }))
}

pub(super) fn words(spec: &Spec) -> Option<String> {
    let w = spec.fails_during_ms.as_ref()?;
    Some(format!(
        "fails every message from t = {} to t = {}",
        secs(w.start_ms),
        secs(w.end_ms)
    ))
}

impl WorkerBehaviour for FailsDuring {
    fn observe(&mut self, observation: &Observation) -> Vec<Command> {
        match observation {
            Observation::Handled { now, .. } if (self.start_ms..self.end_ms).contains(now) => {
                vec![Command::Fail]
            }
            _ => Vec::new(),
        }
    }
}
