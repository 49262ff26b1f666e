//! `crashesBeforeSideEffectOn`: the worker crashes while processing bodies
//! containing any of the patterns, before the side effect, and restarts
//! after `restartMs`.

use super::{matches, quoted_list, span, Command, Observation, Spec, WorkerBehaviour};
use queuelab_engine::Millis;

struct CrashBeforeSideEffect {
    patterns: Vec<String>,
    restart_ms: Millis,
}

pub(super) fn new(spec: &Spec) -> Result<Option<Box<dyn WorkerBehaviour>>, String> {
    let patterns = &spec.crashes_before_side_effect_on;
    Ok((!patterns.is_empty()).then(|| {
        Box::new(CrashBeforeSideEffect {
            patterns: patterns.clone(),
            restart_ms: spec.restart_ms,
        }) as Box<dyn WorkerBehaviour>
    }))
}

pub(super) fn words(spec: &Spec) -> Option<String> {
    let on = &spec.crashes_before_side_effect_on;
    (!on.is_empty()).then(|| {
        format!(
            "crashes before the side effect on {} (back after {})",
            quoted_list(on),
            span(spec.restart_ms)
        )
    })
}

impl WorkerBehaviour for CrashBeforeSideEffect {
    fn observe(&mut self, observation: &Observation) -> Vec<Command> {
        match observation {
            Observation::Handled { message, .. } if matches(&self.patterns, &message.body) => {
                vec![Command::Crash {
                    before_side_effect: true,
                    restart_ms: self.restart_ms,
                }]
            }
            _ => Vec::new(),
        }
    }
}
