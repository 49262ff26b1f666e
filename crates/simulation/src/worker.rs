//! One simulated consumer: the receive -> process -> delete loop real code
//! runs, as a state machine in virtual time.

use std::sync::Arc;

use super::scenario::{Consumer, Processing};
use queuelab_engine::{Millis, PollId};

/// A message a worker holds, from its receive until it is done with it.
#[derive(Clone, Debug)]
pub struct Held {
    pub message_id: String,
    pub body: String,
    pub handle: String,
    pub receive_count: u32,
    /// The handler failed on it: it is not deleted and comes back.
    pub failed: bool,
    /// Deleted already (deletes-before-processing).
    pub deleted: bool,
}

#[derive(Clone, Debug)]
pub enum State {
    /// Not started yet, or pausing after an empty short poll.
    Idle {
        until: Millis,
    },
    /// A long poll is waiting in the engine.
    Polling {
        poll: PollId,
    },
    /// Handling `batch[current]` until `done_at`.
    Working {
        batch: Vec<Held>,
        current: usize,
        started_at: Millis,
        done_at: Millis,
        next_heartbeat: Option<Millis>,
    },
    Crashed {
        until: Millis,
    },
    Stopped,
}

pub struct Worker {
    pub spec: Consumer,
    pub name: Arc<str>,
    pub url: String,
    pub state: State,
    /// Side effects this worker performed.
    pub side_effects: u64,
}

impl Worker {
    pub fn new(spec: Consumer, url: String) -> Self {
        Worker {
            name: spec.name.as_str().into(),
            state: State::Idle {
                until: spec.start_ms,
            },
            spec,
            url,
            side_effects: 0,
        }
    }

    /// When this worker next acts by itself (a long poll waits for the engine).
    pub fn wake_at(&self) -> Option<Millis> {
        match &self.state {
            State::Idle { until } | State::Crashed { until } => Some(*until),
            State::Working {
                done_at,
                next_heartbeat,
                ..
            } => Some(next_heartbeat.map_or(*done_at, |h| h.min(*done_at))),
            State::Polling { .. } | State::Stopped => None,
        }
    }

    pub fn stopped_by(&self, now: Millis) -> bool {
        self.spec.stop_ms.is_some_and(|stop| now >= stop)
    }

    /// Whether this worker is still working on `message_id`.
    pub fn is_processing(&self, message_id: &str) -> bool {
        match &self.state {
            State::Working { batch, current, .. } => {
                batch[*current..].iter().any(|h| h.message_id == message_id)
            }
            _ => false,
        }
    }

    pub fn matches(patterns: &[String], body: &str) -> bool {
        patterns.iter().any(|p| body.contains(p.as_str()))
    }
}

/// Draws a processing time; `unit` is a uniform draw in [0, 1).
///
/// Only correctly rounded operations (+, -, *, /, conversions) and the
/// `libm` crate's portable `log` are used: `f64::ln` calls the platform's
/// math library natively but a different implementation in wasm, and a
/// last-bit difference could round a duration the other way, so the same
/// seed would replay differently on the page than in native tests.
pub fn processing_ms(processing: &Processing, unit: f64) -> Millis {
    match *processing {
        Processing::FixedMs(ms) => ms,
        Processing::UniformMs { min, max } => {
            let (lo, hi) = (min.min(max), min.max(max));
            lo + ((hi - lo + 1) as f64 * unit) as u64
        }
        Processing::ExponentialMs { mean } => {
            (-(mean as f64) * libm::log(1.0 - unit)).round() as u64
        }
    }
}
