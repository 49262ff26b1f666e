//! The scenario document: every type a scenario file is read into (queues,
//! producers, consumers, behaviours, alarms; narration and checkpoints; a
//! lab's goal, knobs and explanation), and nothing else. A leaf: it
//! imports only the engine's names and ranges and serde, so what checks a
//! document (`scenario/`), applies a lab's settings (`lab/`) or tells its
//! story (`teach/`) sits above it, and no circle runs through it.

mod bucket;
mod cloudwatch;
mod lab;
mod lambda;
mod narration;
mod rate;
mod request_reply;
mod scenario;
mod topic;

pub use bucket::*;
pub use cloudwatch::*;
pub use lab::*;
pub use lambda::*;
pub use narration::*;
pub use rate::*;
pub use request_reply::*;
pub use scenario::*;
pub use topic::*;
