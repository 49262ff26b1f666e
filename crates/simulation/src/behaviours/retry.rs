//! What a handler does with a message it failed on, besides leaving it
//! for its visibility timeout to end: `retryImmediately` releases it at
//! once with ChangeMessageVisibility 0 (the "nack now" anti-pattern: a
//! tight retry loop against a failing dependency); `retryBackoff` hides
//! it for base × 2^(receiveCount − 1) seconds, capped at the maximum (the
//! ApproximateReceiveCount × ChangeMessageVisibility pattern; no jitter,
//! so runs stay readable and deterministic).

use super::{span, Command, Observation, Spec, WorkerBehaviour};

enum Retry {
    Immediately,
    Backoff { base: i64, max: i64 },
}

pub(super) fn new(spec: &Spec) -> Result<Option<Box<dyn WorkerBehaviour>>, String> {
    match (spec.retry_immediately, &spec.retry_backoff) {
        (true, Some(_)) => Err(
            "behaviour.retryImmediately and behaviour.retryBackoff cannot \
                                both be set: a message released at once cannot also wait"
                .into(),
        ),
        (true, None) => Ok(Some(Box::new(Retry::Immediately))),
        (false, Some(b)) => Ok(Some(Box::new(Retry::Backoff {
            base: b.base_seconds,
            max: b.max_seconds,
        }))),
        (false, None) => Ok(None),
    }
}

pub(super) fn words(spec: &Spec) -> Option<String> {
    let seconds = |s: i64| span(s.saturating_mul(1000).unsigned_abs());
    match (spec.retry_immediately, &spec.retry_backoff) {
        (true, _) => Some("retries a failure at once".into()),
        (false, Some(b)) => Some(format!(
            "backs off {} after a failure, doubling up to {}",
            seconds(b.base_seconds),
            seconds(b.max_seconds)
        )),
        (false, None) => None,
    }
}

impl Retry {
    /// The delay before the message's next receive, in seconds.
    fn delay(&self, receive_count: u32) -> i64 {
        match self {
            Retry::Immediately => 0,
            Retry::Backoff { base, max } => {
                let doublings = receive_count.saturating_sub(1).min(40);
                base.saturating_mul(1i64 << doublings).min(*max)
            }
        }
    }
}

impl WorkerBehaviour for Retry {
    fn observe(&mut self, observation: &Observation) -> Vec<Command> {
        match observation {
            Observation::Failed { message, current } => vec![Command::ChangeVisibility {
                index: *current,
                seconds: self.delay(message.receive_count),
            }],
            _ => Vec::new(),
        }
    }
}
