//! The registry of observers (`observer.rs`): which watch a run, in the
//! order they see each event. One row per observer.

use crate::cloudwatch::CloudWatch;
use crate::document::Scenario;
use crate::lab::goal::GoalWatch;
use crate::observer::Observer;
use crate::teach::story::Story;

/// An observer for a scenario, or None when it has nothing to watch.
type Make = fn(&Scenario) -> Option<Box<dyn Observer>>;

/// The observers a scenario gets, in the order they see each event:
/// CloudWatch (whose alarm changes the story may tell) and the story
/// always, the goal watch for a lab.
const REGISTRY: [Make; 3] = [
    |s| Some(Box::new(CloudWatch::new(s))),
    |s| Some(Box::new(Story::new(s))),
    |s| {
        let goal = s.goal.as_ref()?;
        Some(Box::new(GoalWatch::new(goal, s)))
    },
];

/// The observers registered for `scenario`.
pub(crate) fn registered(scenario: &Scenario) -> Vec<Box<dyn Observer>> {
    REGISTRY.iter().filter_map(|make| make(scenario)).collect()
}
