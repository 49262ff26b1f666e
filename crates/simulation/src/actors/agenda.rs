//! An actor's agenda: the commands it decided, given one at a time, each
//! with what it asked, so the outcome that comes back is read as the
//! answer to that question. The request-response pair (requester.rs,
//! responder.rs) decide this way: a step or an outcome queues commands,
//! and the run gives each one's outcome back before the next is given.

use super::{Command, Outcome};

#[derive(Default)]
pub(crate) struct Agenda<A: Copy + Default> {
    /// Commands decided and not given yet, each with what it asks (few:
    /// a Vec, no second queue type compiled, for the wasm's size).
    queued: Vec<(Command, A)>,
    /// What the command given last asked (`A::default()`: nothing).
    asked: A,
    /// Its outcome, until the actor decides on it.
    told: Option<Outcome>,
}

impl<A: Copy + Default> Agenda<A> {
    pub(crate) fn push(&mut self, command: Command, asked: A) {
        self.queued.push((command, asked));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.queued.is_empty()
    }

    /// The next command decided, noted as asked (nothing asked when none is left).
    pub(crate) fn give(&mut self) -> Vec<Command> {
        if self.queued.is_empty() {
            self.asked = A::default();
            return Vec::new();
        }
        let (command, asked) = self.queued.remove(0);
        self.asked = asked;
        vec![command]
    }

    /// Keeps the outcome of the command given, for `told`.
    pub(crate) fn tell(&mut self, outcome: &Outcome) {
        self.told = Some(outcome.clone());
    }

    /// The outcome told, with what its command asked.
    pub(crate) fn told(&mut self) -> Option<(A, Outcome)> {
        self.told.take().map(|outcome| (self.asked, outcome))
    }
}
