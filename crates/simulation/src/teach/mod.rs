//! Teaching: what the run means to a learner, decided from its log. The
//! story (`story.rs`: which narration lines apply, and the run's outcome),
//! the checkpoints it asks and answers (`story/checkpoints.rs`), the sentences
//! the simulation writes itself for a run's key moments (`explain.rs`),
//! the `{queue.property}` placeholders in authored words
//! (`placeholders.rs`) and why a receive came back empty
//! (`empty_receive.rs`). The runtime (workers, producers, commands) never
//! calls into it: the story watches the log as an observer.

mod empty_receive;
pub(crate) mod explain;
pub(crate) mod placeholders;
pub(crate) mod story;
