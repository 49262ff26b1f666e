//! The edge of virtual time: the last moment it can reach, clamping a
//! deadline to it ([`later`]), and the refusal to pass it ([`TimeLimit`]).
//! A leaf: the queues, the receive path and the clock all read it.

use crate::Millis;

/// Virtual time stops here (about 285,000 years): it stays an exact integer
/// in JavaScript. Deadlines computed past it are clamped to it ([`later`]),
/// so everything due falls due at the latest here, where `advance` can reach.
pub const MAX_VIRTUAL_MS: Millis = (1 << 53) - 1;

/// `by` milliseconds after `at`, clamped to the last moment virtual time
/// can reach: a deadline past the edge falls due at the edge.
pub(crate) fn later(at: Millis, by: Millis) -> Millis {
    at.saturating_add(by).min(MAX_VIRTUAL_MS)
}

/// `advance` refused: the moment asked for is past [`MAX_VIRTUAL_MS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimit {
    /// The milliseconds asked for.
    pub ms: Millis,
    /// Virtual time when it was asked.
    pub now: Millis,
}

impl TimeLimit {
    /// The moment `ms` after `now`, or the refusal when it is past the edge.
    pub fn check(now: Millis, ms: Millis) -> Result<Millis, TimeLimit> {
        now.checked_add(ms)
            .filter(|t| *t <= MAX_VIRTUAL_MS)
            .ok_or(TimeLimit { ms, now })
    }
}

impl std::fmt::Display for TimeLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "advance({}) would pass the last representable moment, 2^53−1 ms \
             (about 285,000 years); virtual time is now {} ms, so at most {} ms remain",
            self.ms,
            self.now,
            MAX_VIRTUAL_MS.saturating_sub(self.now)
        )
    }
}

impl std::error::Error for TimeLimit {}
