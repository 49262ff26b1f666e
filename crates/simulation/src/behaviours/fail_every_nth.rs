//! `failsEveryNth`: the handler fails on every Nth message it handles (the
//! Nth, 2Nth, ... counting redeliveries), whatever the body: a flaky
//! dependency rather than a poison message.

use super::{ordinal, Command, Observation, Spec, WorkerBehaviour};

struct FailEveryNth {
    every: u64,
    handled: u64,
}

pub(super) fn new(spec: &Spec) -> Result<Option<Box<dyn WorkerBehaviour>>, String> {
    match spec.fails_every_nth {
        None => Ok(None),
        Some(0) => Err("behaviour.failsEveryNth must be above 0".into()),
        Some(every) => Ok(Some(Box::new(FailEveryNth { every, handled: 0 }))),
    }
}

pub(super) fn words(spec: &Spec) -> Option<String> {
    Some(match spec.fails_every_nth? {
        1 => "fails every message".into(),
        n => format!("fails every {} message", ordinal(n)),
    })
}

impl WorkerBehaviour for FailEveryNth {
    fn observe(&mut self, observation: &Observation) -> Vec<Command> {
        match observation {
            Observation::Handled { .. } => {
                self.handled += 1;
                if self.handled % self.every == 0 {
                    vec![Command::Fail]
                } else {
                    Vec::new()
                }
            }
            _ => Vec::new(),
        }
    }
}
