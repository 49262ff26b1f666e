//! One changed run played as the page plays it, moment by moment, keeping
//! what the page can show: the whole event log (narration lines and
//! checkpoint verdicts are in it), every "Why:" explanation with the moment
//! it first appeared, and the end-of-run recap (the snapshot's outcome and
//! side effects).

use queuelab_engine::{Config, Millis, Realism, MAX_EVENT_CAPACITY};
use queuelab_simulation::{LogEvent, Outcome, Scenario, SideEffect, Simulation};

/// The page's realism "on": the values the golden logs play with
/// (crates/protocol/tests/scenario_logs.rs), high enough that each knob
/// fires in every scenario that can feel it.
pub fn realism(on: bool) -> Realism {
    let p = if on { 0.5 } else { 0.0 };
    Realism {
        short_poll_sample_rate: p,
        duplicate_delivery_probability: p,
        fewer_messages_probability: p,
        throttling: false,
    }
}

#[derive(Clone)]
pub struct Played {
    pub scenario: Scenario,
    pub events: Vec<LogEvent>,
    /// Each explanation the snapshot offered, at the moment it first did.
    pub whys: Vec<(Millis, String)>,
    pub outcome: Outcome,
    pub side_effects: Vec<SideEffect>,
    pub side_effects_omitted: u64,
}

/// Plays `scenario` with `seed` to its end; Err: it did not start (its
/// work estimate is over the limit: the page refuses it too).
pub fn play(scenario: &Scenario, seed: u64, realism_on: bool) -> Result<Played, String> {
    let scenario = Scenario {
        seed,
        ..scenario.clone()
    };
    let config = Config {
        realism: realism(realism_on),
        event_capacity: MAX_EVENT_CAPACITY,
        ..Config::default()
    };
    let mut sim = Simulation::new(scenario.clone(), config).map_err(|e| e.message)?;
    let duration = scenario.duration_ms;
    let mut whys = Vec::new();
    let mut shown: Option<String> = None;
    loop {
        // Only the explanation is read: no side effects cloned each moment.
        let snap = sim.snapshot_since(u64::MAX);
        if snap.explanation != shown {
            if let Some(text) = &snap.explanation {
                whys.push((sim.now(), text.clone()));
            }
            shown = snap.explanation;
        }
        let now = sim.now();
        match sim.next_event_time() {
            Some(t) if t <= duration => sim.advance(t - now),
            _ => break,
        };
    }
    if sim.now() < duration {
        sim.advance(duration - sim.now());
    }
    let end = sim.snapshot();
    if let Some(text) = &end.explanation {
        if end.explanation != shown {
            whys.push((sim.now(), text.clone()));
        }
    }
    let events: Vec<LogEvent> = sim.events(0).collect();
    assert!(
        events.first().is_none_or(|e| e.seq == 1),
        "the log lost its first events: raise the capacity"
    );
    Ok(Played {
        scenario,
        events,
        whys,
        outcome: end.outcome,
        side_effects: end.side_effects,
        side_effects_omitted: end.side_effects_omitted,
    })
}
