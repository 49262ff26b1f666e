//! The plain loop: delete each message once its side effect is done (a
//! message deleted on receipt, see delete_first.rs, is not deleted again).
//! A Lambda function's batches are its event source mapping's
//! (`actors/lambda/`), not a worker's.

use super::{Command, Observation, Spec, WorkerBehaviour};

struct Naive;

pub(super) fn new(_: &Spec) -> Result<Option<Box<dyn WorkerBehaviour>>, String> {
    Ok(Some(Box::new(Naive)))
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
