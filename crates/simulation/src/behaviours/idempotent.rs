//! `idempotent`: the handler records each message id it processed and skips
//! the side effect for one it has seen (an idempotent consumer).

use super::{Command, Observation, Spec, WorkerBehaviour};

struct Idempotent;

pub(super) fn new(spec: &Spec) -> Result<Option<Box<dyn WorkerBehaviour>>, String> {
    Ok(spec
        .idempotent
        .then(|| Box::new(Idempotent) as Box<dyn WorkerBehaviour>))
}

pub(super) fn words(spec: &Spec) -> Option<String> {
    spec.idempotent.then(|| "idempotent".into())
}

impl WorkerBehaviour for Idempotent {
    fn observe(&mut self, observation: &Observation) -> Vec<Command> {
        match observation {
            Observation::Handled { .. } => vec![Command::SideEffectOnce],
            _ => Vec::new(),
        }
    }
}
