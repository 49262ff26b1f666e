//! What a Lambda event source mapping's events and a CloudWatch alarm's
//! changes of state tell the story: the triggers they fire, and why a
//! record an invocation did not have deleted comes back. (Lambda's records
//! are the queue's messages: their receives, deletes and side effects are
//! told by the events those already log.)

use std::sync::Arc;

use queuelab_engine::Millis;

use super::{returned, Happening, Story};
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
                self.given_back(function, failed, returned::by_invocation(result));
                let h = Happening {
                    consumer: Some(function),
                    count: Some(failed.len() as u64),
                    result: Some(result),
                    ..Happening::default()
                };
                (T::LambdaReturned, h)
            }
            SimEvent::LambdaThrottled { function, messages } => {
                self.given_back(function, messages, returned::THROTTLED);
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

    /// The function gave `ids` back to the queue without deleting them
    /// (`what`: how): when one comes back, the story says so, never that
    /// the function was still working on it. Only the ids it still holds
    /// (a stale copy's return is not about a later receive).
    fn given_back(&mut self, function: &Arc<str>, ids: &[String], what: &str) {
        for id in ids {
            let held = (self.receipts.get(id)).is_some_and(|r| r.by.as_ref() == Some(function));
            if held {
                let entry = (function.clone(), what.to_string());
                self.abandoned.insert(id.clone(), entry);
            }
        }
    }
}
