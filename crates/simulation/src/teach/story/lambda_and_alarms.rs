//! What a Lambda event source mapping's events and a CloudWatch alarm's
//! changes of state tell the story: the triggers they fire, and why a
//! record an invocation did not have deleted comes back. (Lambda's records
//! are the queue's messages: their receives, deletes and side effects are
//! told by the events those already log.)

use queuelab_engine::Millis;

use super::{Happening, Story};
use crate::document::TriggerEvent;
use crate::log::SimEvent;

impl Story {
    /// One of the events of a function's mapping, or an alarm's change.
    pub(super) fn on_lambda_or_alarm(&mut self, now: Millis, event: &SimEvent) {
        use TriggerEvent as T;
        let (what, h) = match event {
            SimEvent::LambdaReturned {
                function,
                result,
                failed,
                ..
            } => {
                self.returned_undeleted(function, result, failed);
                let h = Happening {
                    consumer: Some(function),
                    count: Some(failed.len() as u64),
                    result: Some(result),
                    ..Happening::default()
                };
                (T::LambdaReturned, h)
            }
            SimEvent::LambdaThrottled { function, messages } => {
                let h = Happening {
                    consumer: Some(function),
                    count: Some(messages.len() as u64),
                    ..Happening::default()
                };
                (T::LambdaThrottled, h)
            }
            SimEvent::LambdaScaled { function, pollers } => {
                let h = Happening {
                    consumer: Some(function),
                    count: Some(*pollers),
                    ..Happening::default()
                };
                (T::LambdaScaled, h)
            }
            SimEvent::AlarmChanged {
                alarm, queue, to, ..
            } => {
                let h = Happening {
                    consumer: Some(alarm),
                    queue: queue.as_deref(),
                    result: Some(to.word()),
                    ..Happening::default()
                };
                (T::AlarmChanged, h)
            }
            _ => return,
        };
        self.happened(now, what, h);
    }

    /// The records an invocation left undeleted come back when their
    /// visibility timeout ends: each says why then, never that the
    /// function was still working on it.
    fn returned_undeleted(
        &mut self,
        function: &std::sync::Arc<str>,
        result: &str,
        failed: &[String],
    ) {
        let what = match result {
            "error" => {
                "its invocation failed (the function threw), so Lambda returned the whole batch"
            }
            "timeout" => "its invocation timed out, so Lambda returned the whole batch",
            "invalidResponse" => {
                "the function's batchItemFailures was not valid, so Lambda returned the whole batch"
            }
            "partial" => "the function listed it in batchItemFailures",
            _ => return,
        };
        for id in failed {
            (self.abandoned).insert(id.clone(), (function.clone(), what.to_string()));
        }
    }
}
