//! The plain loop: delete each message once its side effect is done (a
//! Lambda batch deletes at the end of the batch instead, see lambda_batch.rs;
//! a message deleted on receipt, see delete_first.rs, is not deleted again).

use super::{Command, Observation, Spec, WorkerBehaviour};

struct Naive;

pub(super) fn new(spec: &Spec) -> Result<Option<Box<dyn WorkerBehaviour>>, String> {
    Ok((!spec.lambda_batch).then(|| Box::new(Naive) as Box<dyn WorkerBehaviour>))
}

/// The plain loop has no words of its own on the card.
pub(super) fn words(_: &Spec) -> Option<String> {
    None
}

impl WorkerBehaviour for Naive {
    fn observe(&mut self, observation: &Observation) -> Vec<Command> {
        match observation {
            Observation::SideEffectDone { message, current } if !message.deleted => {
                vec![Command::Delete { index: *current }]
            }
            _ => Vec::new(),
        }
    }
}
