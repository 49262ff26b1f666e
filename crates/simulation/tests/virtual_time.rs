//! Virtual time's edge in a run (issue 10: "Time saturates at 2^53−1 …
//! nextEventTime() names a moment that can never come").

use queuelab_engine::{Config, TimeLimit, MAX_VIRTUAL_MS};
use queuelab_simulation::Simulation;

#[test]
fn a_run_refuses_to_advance_past_the_last_representable_moment() {
    let mut sim = Simulation::empty(Config::default());
    assert_eq!(sim.try_advance(MAX_VIRTUAL_MS - 5), Ok(MAX_VIRTUAL_MS - 5));
    let refused = sim.try_advance(6).unwrap_err();
    assert_eq!(
        refused,
        TimeLimit {
            ms: 6,
            now: MAX_VIRTUAL_MS - 5
        }
    );
    assert_eq!(sim.now(), MAX_VIRTUAL_MS - 5, "nothing moved");
    assert!(refused.to_string().contains("2^53−1 ms"));
    assert_eq!(sim.try_advance(5), Ok(MAX_VIRTUAL_MS));
    assert!(sim.next_event_time().is_none_or(|t| t <= MAX_VIRTUAL_MS));
}
