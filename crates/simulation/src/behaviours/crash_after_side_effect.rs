//! `crashesAfterSideEffectOn`: the worker crashes after the side effect and
//! before the delete on bodies containing any of the patterns, so the
//! message comes back and the side effect happens again.

use super::{matches, quoted_list, span, Command, Observation, Spec, WorkerBehaviour};
use queuelab_engine::Millis;

struct CrashAfterSideEffect {
    patterns: Vec<String>,
    restart_ms: Millis,
}

pub(super) fn new(spec: &Spec) -> Result<Option<Box<dyn WorkerBehaviour>>, String> {
    let patterns = &spec.crashes_after_side_effect_on;
    Ok((!patterns.is_empty()).then(|| {
        Box::new(CrashAfterSideEffect {
            patterns: patterns.clone(),
            restart_ms: spec.restart_ms,
        }) as Box<dyn WorkerBehaviour>
    }))
}

pub(super) fn words(spec: &Spec) -> Option<String> {
    let on = &spec.crashes_after_side_effect_on;
    (!on.is_empty()).then(|| {
        format!(
            "crashes after the side effect on {} (back after {})",
            quoted_list(on),
            span(spec.restart_ms)
        )
    })
}

impl WorkerBehaviour for CrashAfterSideEffect {
    fn observe(&mut self, observation: &Observation) -> Vec<Command> {
        match observation {
            Observation::SideEffectDone { message, .. }
                if matches(&self.patterns, &message.body) =>
            {
                vec![Command::Crash {
                    before_side_effect: false,
                    restart_ms: self.restart_ms,
                }]
            }
            _ => Vec::new(),
        }
    }
}
