//! SQS's request quotas in virtual time, through the JSON protocol: with
//! the realism knob `throttling` on, a FIFO queue takes 300 transactions
//! per second per action (a batch is one), a high-throughput FIFO queue
//! the region's figure and 300 per message group, and a standard queue is
//! never throttled. Past a quota, SQS answers `RequestThrottled`.
mod common;

use common::Sqs;
use queuelab_engine::billing::{BillLine, Tally};
use queuelab_engine::{Action, Config, Realism};
use serde_json::{json, Value};

fn throttled_engine(region: &str) -> Sqs {
    Sqs::with(Config {
        region: region.to_string(),
        realism: Realism {
            throttling: true,
            ..Realism::default()
        },
        ..Config::default()
    })
}

fn fifo(sqs: &mut Sqs, high_throughput: bool) -> String {
    let attributes = if high_throughput {
        json!({ "FifoQueue": "true", "ContentBasedDeduplication": "true",
                "DeduplicationScope": "messageGroup", "FifoThroughputLimit": "perMessageGroupId" })
    } else {
        json!({ "FifoQueue": "true", "ContentBasedDeduplication": "true" })
    };
    sqs.create("orders.fifo", attributes)
}

fn send(sqs: &mut Sqs, url: &str, group: &str, i: usize) -> common::Reply {
    sqs.call(
        "SendMessage",
        json!({ "QueueUrl": url, "MessageBody": format!("m{i}"), "MessageGroupId": group }),
    )
}

/// Sends `n` messages in one virtual second; answers how many succeeded.
fn sends_accepted(sqs: &mut Sqs, url: &str, n: usize, group_of: impl Fn(usize) -> String) -> usize {
    (0..n)
        .filter(|&i| send(sqs, url, &group_of(i), i).status == 200)
        .count()
}

#[test]
fn a_fifo_queue_takes_300_sends_per_second_and_throttles_the_301st() {
    let mut sqs = throttled_engine("us-east-1");
    let url = fifo(&mut sqs, false);
    for i in 0..300 {
        send(&mut sqs, &url, "g", i).ok();
    }
    send(&mut sqs, &url, "g", 300).error_envelope(403, "RequestThrottled", "RequestThrottled");
    let throttled = send(&mut sqs, &url, "g", 301);
    throttled.rejected(403, "RequestThrottled", "Request is throttled.");
    assert_eq!(
        sqs.attribute(&url, "ApproximateNumberOfMessages"),
        "300",
        "a throttled send stores nothing"
    );
}

#[test]
fn the_quota_starts_again_at_the_next_virtual_second() {
    let mut sqs = throttled_engine("us-east-1");
    let url = fifo(&mut sqs, false);
    assert_eq!(sends_accepted(&mut sqs, &url, 320, |_| "g".into()), 300);
    sqs.advance(999);
    send(&mut sqs, &url, "g", 0).err("RequestThrottled");
    sqs.advance(1);
    assert_eq!(sends_accepted(&mut sqs, &url, 320, |_| "g".into()), 300);
}

#[test]
fn a_batch_of_ten_is_one_transaction_so_batching_sends_3000_messages_per_second() {
    let mut sqs = throttled_engine("us-east-1");
    let url = fifo(&mut sqs, false);
    let mut sent = 0;
    for b in 0..301 {
        let entries: Vec<Value> = (0..10)
            .map(|i| json!({ "Id": format!("e{i}"), "MessageBody": format!("b{b}-{i}"), "MessageGroupId": "g" }))
            .collect();
        let reply = sqs.send_batch(&url, json!(entries));
        if reply.status == 200 {
            sent += reply.body["Successful"].as_array().map_or(0, Vec::len);
        } else {
            reply.rejected(403, "RequestThrottled", "Request is throttled.");
        }
    }
    assert_eq!(sent, 3_000);
}

#[test]
fn each_action_has_its_own_quota_and_an_action_shares_it_with_its_batch_form() {
    let mut sqs = throttled_engine("us-east-1");
    let url = fifo(&mut sqs, false);
    for i in 0..299 {
        send(&mut sqs, &url, "g", i).ok();
    }
    let batch = json!([{ "Id": "a", "MessageBody": "last", "MessageGroupId": "g" }]);
    sqs.send_batch(&url, batch.clone()).ok();
    sqs.send_batch(&url, batch).err("RequestThrottled");
    // Receives count apart from sends.
    let received = sqs.call(
        "ReceiveMessage",
        json!({ "QueueUrl": url, "MaxNumberOfMessages": 10 }),
    );
    assert_eq!(received.messages().len(), 10);
}

#[test]
fn a_standard_queue_is_never_throttled() {
    let mut sqs = throttled_engine("us-east-1");
    let url = sqs.create("orders", json!({}));
    for i in 0..2_000 {
        sqs.call(
            "SendMessage",
            json!({ "QueueUrl": url, "MessageBody": format!("m{i}") }),
        )
        .ok();
    }
}

#[test]
fn throttling_is_off_unless_the_realism_knob_turns_it_on() {
    let mut sqs = Sqs::new();
    let url = fifo(&mut sqs, false);
    assert_eq!(sends_accepted(&mut sqs, &url, 400, |_| "g".into()), 400);
}

#[test]
fn high_throughput_fifo_holds_one_message_group_to_one_partitions_300_sends_per_second() {
    let mut sqs = throttled_engine("us-east-1");
    let url = fifo(&mut sqs, true);
    assert_eq!(sends_accepted(&mut sqs, &url, 400, |_| "hot".into()), 300);
    assert_eq!(
        sends_accepted(&mut sqs, &url, 10, |_| "other".into()),
        10,
        "another group has its own partition"
    );
}

#[test]
fn high_throughput_fifo_takes_many_groups_past_300_per_second() {
    let mut sqs = throttled_engine("us-east-1");
    let url = fifo(&mut sqs, true);
    assert_eq!(
        sends_accepted(&mut sqs, &url, 3_000, |i| format!("g{}", i % 20)),
        3_000
    );
}

#[test]
fn high_throughput_fifo_quota_per_action_is_the_regions() {
    // A region outside AWS's named tiers takes 2,400 per second per action.
    let mut sqs = throttled_engine("af-south-1");
    let url = fifo(&mut sqs, true);
    assert_eq!(
        sends_accepted(&mut sqs, &url, 2_500, |i| format!("g{}", i % 20)),
        2_400
    );
    assert_eq!(
        queuelab_engine::high_throughput_per_second("us-east-1"),
        70_000
    );
    assert_eq!(
        queuelab_engine::high_throughput_per_second("eu-central-1"),
        19_000
    );
}

#[test]
fn a_throttled_call_is_not_billed() {
    let mut sqs = throttled_engine("us-east-1");
    let url = fifo(&mut sqs, false);
    sends_accepted(&mut sqs, &url, 310, |_| "g".into());
    let sends = |(line, tally): (&BillLine, &Tally)| match line.action {
        Action::SendMessage => tally.calls,
        _ => 0,
    };
    let billed: u64 = sqs.engine.meter().lines().map(sends).sum();
    assert_eq!(billed, 300);
}
