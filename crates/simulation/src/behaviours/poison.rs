//! `failsOn`: the handler fails every time on bodies containing any of the
//! patterns (poison messages): no side effect, no delete, so the message
//! comes back until its queue's redrive policy moves it.

use super::{matches, quoted_list, Command, Observation, Spec, WorkerBehaviour};

struct Poison {
    patterns: Vec<String>,
}

pub(super) fn new(spec: &Spec) -> Result<Option<Box<dyn WorkerBehaviour>>, String> {
    Ok((!spec.fails_on.is_empty()).then(|| {
        Box::new(Poison {
            patterns: spec.fails_on.clone(),
        }) as Box<dyn WorkerBehaviour>
    }))
}

pub(super) fn words(spec: &Spec) -> Option<String> {
    (!spec.fails_on.is_empty()).then(|| format!("fails on {}", quoted_list(&spec.fails_on)))
}

impl WorkerBehaviour for Poison {
    fn observe(&mut self, observation: &Observation) -> Vec<Command> {
        match observation {
            Observation::Handled { message, .. } if matches(&self.patterns, &message.body) => {
                vec![Command::Fail]
            }
            _ => Vec::new(),
        }
    }
}
