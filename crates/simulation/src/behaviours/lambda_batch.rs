//! `lambdaBatch`: the batch is one invocation and nothing is deleted until
//! it returns. With `reportBatchItemFailures` only the failed records go
//! back to the queue; without it, one failure returns the whole batch.

use super::{Command, Observation, Spec, WorkerBehaviour};

struct LambdaBatch {
    report_batch_item_failures: bool,
}

pub(super) fn new(spec: &Spec) -> Result<Option<Box<dyn WorkerBehaviour>>, String> {
    Ok(spec.lambda_batch.then(|| {
        Box::new(LambdaBatch {
            report_batch_item_failures: spec.report_batch_item_failures,
        }) as Box<dyn WorkerBehaviour>
    }))
}

pub(super) fn words(spec: &Spec) -> Option<String> {
    spec.lambda_batch
        .then(|| match spec.report_batch_item_failures {
            true => "Lambda batch, reports item failures".into(),
            false => "Lambda batch".into(),
        })
}

impl WorkerBehaviour for LambdaBatch {
    fn observe(&mut self, observation: &Observation) -> Vec<Command> {
        let Observation::BatchDone { batch } = observation else {
            return Vec::new();
        };
        let any_failed = batch.iter().any(|h| h.failed);
        if any_failed && !self.report_batch_item_failures {
            return Vec::new();
        }
        (0..batch.len())
            .filter(|i| !batch[*i].failed && !batch[*i].deleted)
            .map(|index| Command::Delete { index })
            .collect()
    }
}
