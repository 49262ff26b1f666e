//! `deletesBeforeProcessing`: delete each message as soon as it is
//! received, before processing; a crash or failure then loses it.

use super::{Command, Observation, Spec, WorkerBehaviour};

struct DeleteFirst;

pub(super) fn new(spec: &Spec) -> Result<Option<Box<dyn WorkerBehaviour>>, String> {
    Ok(spec
        .deletes_before_processing
        .then(|| Box::new(DeleteFirst) as Box<dyn WorkerBehaviour>))
}

pub(super) fn words(spec: &Spec) -> Option<String> {
    spec.deletes_before_processing
        .then(|| "deletes before processing".into())
}

impl WorkerBehaviour for DeleteFirst {
    fn observe(&mut self, observation: &Observation) -> Vec<Command> {
        match observation {
            Observation::Received { batch } => (0..batch.len())
                .map(|index| Command::Delete { index })
                .collect(),
            _ => Vec::new(),
        }
    }
}
