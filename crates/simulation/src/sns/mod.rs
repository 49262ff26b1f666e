//! Amazon SNS as far as a topic that sends to SQS queues needs it: the
//! subscription filter policy (`filter.rs`), the JSON envelope
//! (`envelope.rs`), and what SNS does when a delivery fails (`retry.rs`).
//! The topic itself is an actor (`actors/topic.rs`): it decides, the run
//! carries its deliveries out as calls of `sns.amazonaws.com`. The SNS
//! API (`api.rs`, answered by `service.rs`) creates topics, subscribes
//! queues and publishes from outside the scenario.

pub mod api;
pub mod envelope;
pub mod filter;
pub mod retry;
mod service;

/// The largest message SNS publishes: 256 KiB.
pub const MAX_MESSAGE_BYTES: usize = 262_144;

/// A UUID-shaped id (version 4's layout) drawn from `parts`: the same
/// parts give the same id, so a run and its seed replay identically, and
/// the simulation's random stream is left alone.
pub fn uuid(parts: &[&str]) -> String {
    let hex = envelope::hex_digest(parts.join("\u{1f}").as_bytes());
    let h = hex.as_bytes();
    let s = |a: usize, b: usize| std::str::from_utf8(&h[a..b]).unwrap_or("0");
    // The version nibble 4 and the variant bits 10xx, as a v4 UUID has.
    let variant = ['8', '9', 'a', 'b'][usize::from(h[16] % 4)];
    format!(
        "{}-{}-4{}-{variant}{}-{}",
        s(0, 8),
        s(8, 12),
        s(13, 16),
        s(17, 20),
        s(20, 32)
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_uuid_shaped_and_the_same_for_the_same_parts() {
        let id = super::uuid(&["7", "orders-topic", "1"]);
        assert_eq!(id, super::uuid(&["7", "orders-topic", "1"]));
        assert_ne!(id, super::uuid(&["8", "orders-topic", "1"]));
        let groups: Vec<usize> = id.split('-').map(str::len).collect();
        assert_eq!(groups, [8, 4, 4, 4, 12], "{id}");
        assert_eq!(&id[14..15], "4");
        assert!("89ab".contains(&id[19..20]), "{id}");
    }
}
