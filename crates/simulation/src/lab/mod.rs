//! Labs: a scenario with a `goal` (what a fixed system achieves), `knobs`
//! (the settings a learner may change, with their ranges) and `explain`
//! (hints, the cause, the standard fix, and the fixes and "moves the
//! problem" non-fixes the native tests prove). A scenario without these
//! parts runs exactly as before: they only add checks.
//!
//! The parts' types are the document's (`document/lab.rs`). Here: their
//! checks against the scenario (`validate.rs`), knob settings applied to
//! typed fields (`knobs.rs`, through each target's row in `target.rs`; a knob never names a free-form JSON path, so
//! each target is checked at load and the page never edits a scenario
//! itself; a queue policy's text laid out for a text area in
//! `policy_text.rs`), the goal watched over a run (`goal.rs`, with the
//! conditions on who may call and on encryption in `security.rs`), Check my fix
//! (`check.rs`) and the lab as a page shows it (`view.rs`).

mod alarm_goal;
pub(crate) mod check;
pub(crate) mod goal;
mod knobs;
mod policy_text;
mod rename;
mod security;
mod target;
mod validate;
pub(crate) mod view;

pub use crate::document::{
    AlarmBy, Doc, Explain, Fix, Goal, Knob, KnobValue, LeastPrivilege, Need, NonFix, Off,
    OldestAge, Settings, Target, TopicBy, CONDITION_IDS, ENCRYPTIONS, GROUP_IDS, MAX_FIXES,
    MAX_GRANTS, MAX_HINTS, MAX_NON_FIXES, QUEUE_TYPES,
};
pub use rename::rename_queue;
pub(crate) use target::Kind;
pub(crate) use validate::validate_lab;
