//! What a message body weighs in units of work (`work.rs`): counted by
//! the run as it moves bodies (`commands.rs`, `worker.rs`) and predicted
//! by the estimate from the scenario's senders (`actors/`). A leaf: the
//! run and the estimate both read it, neither through the other.

/// Body bytes that weigh one unit: a body is copied, hashed (MD5) and
/// encoded at each send and each receive, at roughly 256 bytes a
/// microsecond natively, so a 1 MiB body costs 4,096 units each time.
pub const BODY_BYTES_PER_UNIT: u64 = 256;

/// The units a body of `len` bytes adds to the send or receive that moves it.
pub(crate) fn body_units(len: usize) -> u64 {
    len as u64 / BODY_BYTES_PER_UNIT
}
