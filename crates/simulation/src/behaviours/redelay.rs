//! `redelayUntil`: scheduling past SQS's 15 minutes by re-delaying. The
//! handler reads the message's due time from a message attribute
//! (`DeliverAt`); a message not yet due is sent again with DelaySeconds of
//! the time left, at most 900 (SQS's longest delay), and the original
//! deleted, so a message due R seconds after it is first sent takes
//! ceil(R / 900) sends in all, the last one delayed by what remains. A
//! consumer without it handles a "delay 900, due later" message when it
//! arrives: early.

use super::{Command, Observation, Spec, WorkerBehaviour};
use queuelab_engine::{AttributeValue, Millis};

/// SQS's longest DelaySeconds.
pub(crate) const MAX_DELAY_SECONDS: i64 = 900;

struct Redelay {
    attribute: String,
}

pub(super) fn new(spec: &Spec) -> Result<Option<Box<dyn WorkerBehaviour>>, String> {
    match &spec.redelay_until {
        None => Ok(None),
        Some(name) if name.is_empty() || name.len() > 256 => Err(format!(
            "behaviour.redelayUntil must be a message attribute's name of 1 to 256 \
             characters, got {} characters",
            name.len()
        )),
        Some(name) => Ok(Some(Box::new(Redelay {
            attribute: name.clone(),
        }))),
    }
}

pub(super) fn words(spec: &Spec) -> Option<String> {
    let name = spec.redelay_until.as_ref()?;
    Some(format!("re-delays each message until its {name}"))
}

/// The DelaySeconds that brings a message due at `due` (epoch ms) back no
/// earlier than its time, sent at `now`: None when it is due already.
pub(crate) fn delay_until(due: Millis, now: Millis) -> Option<i64> {
    let left = due.checked_sub(now).filter(|left| *left > 0)?;
    // Whole seconds, rounded up: a message never comes back early.
    let seconds = i64::try_from(left.div_ceil(1000)).unwrap_or(i64::MAX);
    Some(seconds.min(MAX_DELAY_SECONDS))
}

impl WorkerBehaviour for Redelay {
    fn observe(&mut self, observation: &Observation) -> Vec<Command> {
        let Observation::Handled {
            message, epoch_ms, ..
        } = observation
        else {
            return Vec::new();
        };
        let due = message.attributes.iter().find_map(|a| match &a.value {
            AttributeValue::String(text) if a.name == self.attribute => {
                crate::wall_clock::epoch_ms(text).ok()
            }
            _ => None,
        });
        match due.and_then(|due| delay_until(due, *epoch_ms)) {
            Some(seconds) => vec![Command::Redelay { seconds }],
            None => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::delay_until;

    #[test]
    fn a_message_not_yet_due_is_delayed_by_the_time_left_at_most_900_seconds() {
        assert_eq!(delay_until(10_000_000, 0), Some(900));
        assert_eq!(delay_until(1_000_000, 400_000), Some(600));
        // 1 ms left is a whole second: never early.
        assert_eq!(delay_until(1_001, 1_000), Some(1));
        assert_eq!(delay_until(5_000, 5_000), None);
        assert_eq!(delay_until(5_000, 9_000), None);
    }
}
