//! Virtual time's edge. Issue 10: "Time saturates at 2^53−1, so long polls
//! are never answered and nextEventTime() names a moment that can never
//! come." Deadlines past the last moment are clamped to it, so everything
//! falls due at the latest there, and a move past it is refused.

mod common;

use common::Sqs;
use queuelab_engine::{TimeLimit, MAX_VIRTUAL_MS};
use serde_json::json;

/// An engine whose clock stands `before_edge` ms before the last moment.
fn near_the_edge(before_edge: u64) -> (Sqs, String) {
    let (mut sqs, url) = Sqs::with_queue("edge", json!({}));
    sqs.engine
        .try_advance(MAX_VIRTUAL_MS - before_edge)
        .unwrap();
    (sqs, url)
}

#[test]
fn a_long_poll_whose_wait_crosses_the_last_moment_is_answered_there() {
    let (mut sqs, url) = near_the_edge(5_000);
    let poll = sqs
        .start(
            "ReceiveMessage",
            json!({ "QueueUrl": url, "WaitTimeSeconds": 20 }),
        )
        .expect_err("an empty queue: the poll waits");
    assert_eq!(sqs.engine.next_deadline(), Some(MAX_VIRTUAL_MS));
    assert_eq!(sqs.engine.try_advance(5_000), Ok(MAX_VIRTUAL_MS));
    assert!(sqs.only_answer(poll).messages().is_empty());
    assert_eq!(sqs.engine.next_deadline(), None);
}

#[test]
fn next_event_time_never_names_a_moment_past_the_last() {
    let (mut sqs, url) = near_the_edge(1_000);
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": "late", "DelaySeconds": 900 }),
    )
    .ok();
    let next = sqs.engine.next_deadline().expect("the delay ends");
    assert_eq!(next, MAX_VIRTUAL_MS);
    sqs.engine.try_advance(next - sqs.engine.now()).unwrap();
    // Its retention, four days on, also ends at the edge: it expires there,
    // and nothing is left waiting for a moment that cannot come.
    assert_eq!(
        sqs.attribute(&url, "ApproximateNumberOfMessagesDelayed"),
        "0"
    );
    assert_eq!(sqs.engine.next_deadline(), None);
}

#[test]
fn advance_past_the_last_representable_moment_is_refused_and_names_the_limit() {
    let (mut sqs, _url) = near_the_edge(10);
    let now = sqs.engine.now();
    let refused = sqs.engine.try_advance(11).unwrap_err();
    assert_eq!(refused, TimeLimit { ms: 11, now });
    assert_eq!(sqs.engine.now(), now, "a refused advance moves nothing");
    let message = refused.to_string();
    assert!(message.contains("advance(11) would pass the last representable moment, 2^53−1 ms"));
    assert!(message.contains("about 285,000 years"));
    assert!(message.contains(&format!("virtual time is now {now} ms")));
    assert!(sqs.engine.try_advance(u64::MAX).is_err());
    assert_eq!(sqs.engine.try_advance(10), Ok(MAX_VIRTUAL_MS));
}
