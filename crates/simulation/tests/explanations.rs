//! The simulation's own explanations of a run's key moments (src/explain.rs):
//! written from the run's events, naming the message, the worker, the
//! numbers and the SQS rule; shown when no authored line covers the moment.

use queuelab_engine::Config;
use queuelab_simulation::{Scenario, Simulation};
use serde_json::json;

fn load(name: &str) -> Scenario {
    let path = format!("{}/../../web/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The explanation shown at `at` in a run of `scenario`.
fn explained_at(scenario: Scenario, at: u64) -> String {
    let mut sim = Simulation::new(scenario, Config::default()).unwrap();
    sim.advance(at);
    sim.snapshot().explanation.unwrap_or_default()
}

/// A shipped scenario without its authored lines.
fn bare(name: &str) -> Scenario {
    let mut s = load(name);
    s.narration.clear();
    s
}

fn one_slow_worker(workers: usize) -> Scenario {
    let consumers: Vec<_> = (1..=workers)
        .map(|i| json!({ "name": format!("worker-{i}"), "queue": "orders", "waitTimeSeconds": 20, "processing": { "fixedMs": 3500 } }))
        .collect();
    serde_json::from_value(json!({
        "title": "t", "durationMs": 10_000,
        "queues": [{ "name": "orders", "visibilityTimeoutSeconds": 2 }],
        "producers": [{ "name": "shop", "queue": "orders", "sends": [{ "atMs": 0, "body": "order A" }] }],
        "consumers": consumers,
    }))
    .unwrap()
}

#[test]
fn visibility_expiry_while_the_worker_is_busy_names_the_timeout_receive_and_worker() {
    let text = explained_at(one_slow_worker(1), 2000);
    assert!(
        text.starts_with("“order A”: its 2 s visibility timeout (receive #1) ended while worker-1 was still working on it"),
        "{text}"
    );
}

#[test]
fn visibility_expiry_for_a_caller_from_outside_says_it_had_not_deleted_not_that_it_was_working() {
    // A script (an SDK, a server's client) received it: the run cannot see it work.
    let mut sim = Simulation::new(one_slow_worker(0), Config::default()).unwrap();
    sim.advance(10);
    let url = sim.engine().snapshot().queues[0].url.clone();
    let receive = queuelab_engine::ReceiveMessage {
        queue_url: url,
        ..Default::default()
    };
    sim.engine_mut()
        .receive_message(&receive, Some("script"))
        .unwrap();
    sim.advance(2000);
    let text = sim.snapshot().explanation.unwrap_or_default();
    assert!(
        text.starts_with("“order A”: its 2 s visibility timeout (receive #1) ended before script deleted it, so SQS made it visible again."),
        "{text}"
    );
    assert!(!text.contains("still working on it"), "{text}");
}

#[test]
fn a_duplicate_delivery_names_both_workers_and_the_receive_number() {
    let text = explained_at(one_slow_worker(2), 2000);
    assert!(
        text.starts_with("worker-2 received “order A” (receive #2) while worker-1 still holds it"),
        "{text}"
    );
}

#[test]
fn a_delete_with_a_stale_handle_names_who_received_it_since() {
    let text = explained_at(one_slow_worker(2), 3500);
    assert!(
        text.starts_with("worker-1 deleted “order A” with an older receipt handle, though worker-2 has received it since (receive #2)"),
        "{text}"
    );
}

#[test]
fn a_lazy_dead_letter_move_names_the_queue_and_the_receive_count() {
    let text = explained_at(bare("05-poison-message.json"), 6300);
    assert!(
        text.contains("moved to orders-dlq after 3 receives"),
        "{text}"
    );
    assert!(text.contains("The move is lazy"), "{text}");
}

#[test]
fn an_authored_line_at_the_same_moment_covers_the_explanation() {
    assert_eq!(explained_at(load("05-poison-message.json"), 6300), "");
}

#[test]
fn a_group_lock_and_unlock_say_which_message_and_why() {
    let text = explained_at(bare("06-fifo-message-groups.json"), 600);
    assert!(
        text.starts_with("Group customer-B of orders.fifo is locked: “B-1"),
        "{text}"
    );
    let one: Scenario = serde_json::from_value(json!({
        "title": "t", "durationMs": 5_000,
        "queues": [{ "name": "jobs.fifo", "contentBasedDeduplication": true }],
        "producers": [{ "name": "p", "queue": "jobs.fifo", "sends": [{ "atMs": 0, "body": "job 1", "groupId": "g" }] }],
        "consumers": [{ "name": "w", "queue": "jobs.fifo", "waitTimeSeconds": 20, "processing": { "fixedMs": 500 } }],
    }))
    .unwrap();
    let text = explained_at(one, 500);
    assert!(
        text.starts_with(
            "Group g unlocked: “job 1” was deleted, so the group's next message can be delivered"
        ),
        "{text}"
    );
}

#[test]
fn a_dedup_drop_names_the_id_it_matched() {
    let text = explained_at(bare("07-fifo-deduplication.json"), 3000);
    assert!(
        text.starts_with("payment-service's send to payments.fifo was dropped: its deduplication id pay-A-1001 matched message "),
        "{text}"
    );
}

#[test]
fn an_empty_short_poll_is_told_apart_from_an_empty_long_poll() {
    let mut s = bare("08-long-vs-short-polling.json");
    s.consumers.retain(|c| c.name == "short-poller");
    let text = explained_at(s, 30_000);
    assert!(
        text.contains("a short poll (WaitTimeSeconds=0) answers immediately"),
        "{text}"
    );
    let mut s = bare("08-long-vs-short-polling.json");
    s.consumers.retain(|c| c.name == "long-poller");
    s.producers.clear();
    let text = explained_at(s, 20_000);
    assert!(
        text.starts_with("long-poller's long poll of long-polled waited its 20 s"),
        "{text}"
    );
}

#[test]
fn retention_expiry_says_how_long_the_message_was_stored() {
    let text = explained_at(bare("10-delay-and-retention.json"), 60_500);
    assert!(text.contains("expired after 60 s in unwatched"), "{text}");
}

#[test]
fn a_message_lost_after_delete_before_process_names_the_worker_and_the_crash() {
    let text = explained_at(bare("09-delete-before-process.json"), 3000);
    assert!(
        text.contains("is lost: worker-1 deleted it before doing the work, then crashed"),
        "{text}"
    );
}

#[test]
fn an_extended_visibility_says_until_when_and_how_long_from_now() {
    let text = explained_at(bare("04-heartbeat.json"), 1000);
    assert!(
        text.starts_with("worker-1 extended order A-1001's visibility"),
        "{text}"
    );
    assert!(text.contains("until 3 s (2 s from now)"), "{text}");
}

#[test]
fn a_message_whose_worker_crashed_comes_back_without_claiming_the_worker_is_busy() {
    let mut s = bare("09-delete-before-process.json");
    s.consumers[0].behaviour.deletes_before_processing = false;
    // A-1002 is received at 1.5 s (5 s timeout) and its worker crashes at 3 s.
    let text = explained_at(s, 6500);
    assert!(text.starts_with("order A-1002 is visible again"), "{text}");
    assert!(text.contains("worker-1 received it, then it crashed without deleting it, and its 5 s visibility timeout ended"), "{text}");
}

fn one_worker(visibility_s: u32, behaviour: serde_json::Value) -> Scenario {
    serde_json::from_value(json!({
        "title": "t", "durationMs": 10_000,
        "queues": [{ "name": "orders", "visibilityTimeoutSeconds": visibility_s }],
        "producers": [{ "name": "shop", "queue": "orders", "sends": [{ "atMs": 0, "body": "order A" }] }],
        "consumers": [{ "name": "worker-1", "queue": "orders", "waitTimeSeconds": 20,
                        "processing": { "fixedMs": 2000 }, "behaviour": behaviour }],
    }))
    .unwrap()
}

#[test]
fn a_release_with_visibility_zero_is_not_called_an_extension() {
    // The handler fails at 2 s and the worker releases the message at once.
    let s = one_worker(
        30,
        json!({ "failsDuringMs": { "startMs": 0, "endMs": 5000 }, "retryImmediately": true }),
    );
    let text = explained_at(s, 2000);
    assert!(
        text.starts_with("worker-1 made “order A” visible again at once"),
        "{text}"
    );
    assert!(!text.contains("extended"), "{text}");
}

#[test]
fn a_shorter_visibility_is_not_called_an_extension() {
    // Received at 0 with 30 s; the heartbeat at 1 s sets 5 s: until 6 s, sooner than 30 s.
    let s = one_worker(
        30,
        json!({ "heartbeatEveryMs": 1000, "heartbeatVisibilitySeconds": 5 }),
    );
    let text = explained_at(s, 1000);
    assert!(
        text.starts_with("worker-1 shortened the visibility of “order A”"),
        "{text}"
    );
    assert!(text.contains("until 6 s (5 s from now)"), "{text}");
}

#[test]
fn a_crash_before_the_side_effect_says_so_and_when_the_message_can_come_back() {
    let mut s = bare("09-delete-before-process.json");
    s.consumers[0].behaviour.deletes_before_processing = false;
    // A-1002 is received at 1.5 s (5 s timeout: until 6.5 s); worker-1 crashes at 3 s.
    let text = explained_at(s, 3000);
    assert!(
        text.starts_with("worker-1 crashed while handling order A-1002"),
        "{text}"
    );
    assert!(text.contains("before its side effect"), "{text}");
    assert!(text.contains("until 6.5 s"), "{text}");
    assert!(!text.contains("after its side effect"), "{text}");
}

#[test]
fn a_crash_after_the_side_effect_says_the_work_may_happen_again() {
    let s = one_worker(5, json!({ "crashesAfterSideEffectOn": ["order A"] }));
    // Received at 0 (5 s timeout), processed by 2 s, crashed before its delete.
    let text = explained_at(s, 2000);
    assert!(
        text.starts_with("worker-1 crashed while handling “order A”, after its side effect"),
        "{text}"
    );
    assert!(text.contains("until 5 s"), "{text}");
}

#[test]
fn a_handler_failure_says_until_when_the_message_stays_invisible_and_that_it_comes_back() {
    let s = one_worker(5, json!({ "failsOn": ["order A"] }));
    // Received at 0 with a 5 s timeout; the handler fails at 2 s.
    let text = explained_at(s, 2000);
    assert!(
        text.starts_with("worker-1's handler failed on “order A” (receive #1)"),
        "{text}"
    );
    assert!(
        text.contains("invisible until 5 s (3 s from now)"),
        "{text}"
    );
    assert!(text.contains("visible again"), "{text}");
}

#[test]
fn a_handler_failure_at_max_receive_count_says_the_next_receive_moves_it() {
    // Receive #3 of A-1002 fails at 4.6 s; maxReceiveCount is 3.
    let text = explained_at(bare("05-poison-message.json"), 4600);
    assert!(text.contains("(receive #3)"), "{text}");
    assert!(
        text.contains("the next receive moves it to orders-dlq"),
        "{text}"
    );
}

#[test]
fn a_group_unlocked_by_a_timeout_says_the_same_message_comes_next() {
    // w receives "job 1" at 0 (2 s timeout) and crashes; it restarts at
    // 5.5 s, so nothing takes the message when its timeout ends at 2 s.
    let s: Scenario = serde_json::from_value(json!({
        "title": "t", "durationMs": 8_000,
        "queues": [{ "name": "jobs.fifo", "visibilityTimeoutSeconds": 2, "contentBasedDeduplication": true }],
        "producers": [{ "name": "p", "queue": "jobs.fifo", "sends": [
            { "atMs": 0, "body": "job 1", "groupId": "g" }, { "atMs": 0, "body": "job 2", "groupId": "g" }] }],
        "consumers": [{ "name": "w", "queue": "jobs.fifo", "waitTimeSeconds": 20, "processing": { "fixedMs": 500 },
                        "behaviour": { "crashesBeforeSideEffectOn": ["job 1"], "restartMs": 5000 } }],
    }))
    .unwrap();
    let text = explained_at(s, 2000);
    assert!(
        text.starts_with("Group g unlocked: the visibility timeout of “job 1” ended"),
        "{text}"
    );
    assert!(!text.contains("next message"), "{text}");
    assert!(text.contains("delivered again"), "{text}");
}

/// Scenario 3 (two idempotent workers, 2 s timeout, 3.5 s of work) with
/// worker-1 crashing right after charging: worker-2 has received the
/// order again at 2 s, and worker-1 crashes at 3.5 s on its stale copy.
fn stale_crash() -> Scenario {
    let mut s = bare("03-idempotent-consumer.json");
    s.consumers[0].behaviour.crashes_after_side_effect_on = vec!["A-1001".into()];
    s
}

#[test]
fn a_crash_on_a_stale_copy_is_not_blamed_on_the_worker_that_holds_the_message() {
    // At 4 s worker-2's receive times out while it is still working:
    // it is worker-1 that crashed, on the copy it received before.
    let text = explained_at(stale_crash(), 4000);
    assert!(
        text.contains("ended while worker-2 was still working on it"),
        "{text}"
    );
}

#[test]
fn a_crash_on_a_message_another_worker_deleted_does_not_say_it_was_not_deleted() {
    // Scenario 3 with worker-2 crashing before charging its duplicate:
    // worker-1 deleted the order at 3.5 s, worker-2 crashes at 5.5 s.
    let mut s = bare("03-idempotent-consumer.json");
    s.consumers[1].behaviour.crashes_before_side_effect_on = vec!["A-1001".into()];
    let text = explained_at(s, 5500);
    assert!(text.contains("crashed while handling"), "{text}");
    assert!(!text.contains("the message was not deleted"), "{text}");
    assert!(text.contains("already deleted"), "{text}");
}

#[test]
fn a_message_back_because_its_delete_missed_a_copy_says_so_not_that_its_worker_is_busy() {
    // Realism: every delete on a standard queue misses a copy. worker-1
    // charges order A in 2 s and deletes it; the 5 s timeout then ends.
    let mut config = Config::default();
    config.realism.duplicate_delivery_probability = 1.0;
    let mut sim = Simulation::new(one_worker(5, json!({})), config).unwrap();
    sim.advance(5000);
    let text = sim.snapshot().explanation.unwrap_or_default();
    assert!(
        text.contains("worker-1 deleted it, but the delete reached only some of SQS's copies"),
        "{text}"
    );
    assert!(!text.contains("still working"), "{text}");
}

#[test]
fn a_record_back_after_its_lambda_invocation_failed_says_lambda_returned_the_batch() {
    // Lab 03: an invocation fails on the corrupt record (the function
    // throws) about 1 s in; the 5 s timeout of its batch's records ends
    // after the invocation is over.
    let path = format!(
        "{}/../../web/scenarios/labs/03-lost-batches.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let lab: Scenario = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let text = explained_at(lab, 5000);
    assert!(
        text.contains(
            "send-invoices received it, then its invocation failed (the function threw), so \
             Lambda returned the whole batch without deleting it"
        ),
        "{text}"
    );
    assert!(!text.contains("still working"), "{text}");
}

#[test]
fn a_message_back_after_a_backoff_quotes_the_backoff_not_the_queues_timeout() {
    // The handler fails at 2 s; the backoff sets its visibility to 2 s, so
    // it comes back at 4 s, not at the queue's 30 s.
    let s = one_worker(
        30,
        json!({ "failsOn": ["order A"], "retryBackoff": { "baseSeconds": 2, "maxSeconds": 60 } }),
    );
    let text = explained_at(s, 4000);
    assert!(text.starts_with("“order A” is visible again"), "{text}");
    assert!(!text.contains("30 s"), "{text}");
    assert!(text.contains("2 s"), "{text}");
}

/// One FIFO group of two jobs, the first in flight (worked on for
/// `work_ms`) when `operators` act or its retention ends.
fn one_group_in_flight(retention_s: u32, work_ms: u64, operators: serde_json::Value) -> Scenario {
    serde_json::from_value(json!({
        "title": "t", "durationMs": work_ms + 2_000,
        "queues": [{ "name": "jobs.fifo", "contentBasedDeduplication": true, "messageRetentionPeriodSeconds": retention_s, "visibilityTimeoutSeconds": 43_200 }],
        "producers": [{ "name": "p", "queue": "jobs.fifo", "sends": [
            { "atMs": 0, "body": "job 1", "groupId": "g" },
            { "atMs": 0, "body": "job 2", "groupId": "g" }
        ] }],
        "consumers": [{ "name": "w", "queue": "jobs.fifo", "waitTimeSeconds": 20, "processing": { "fixedMs": work_ms } }],
        "operators": operators,
    }))
    .unwrap()
}

#[test]
fn a_group_unlocked_by_a_purge_says_its_head_was_purged() {
    let ops = json!([{ "name": "ops", "calls": [{ "atMs": 1000, "call": { "purgeQueue": { "queue": "jobs.fifo" } } }] }]);
    let text = explained_at(one_group_in_flight(345_600, 3000, ops), 1000);
    assert!(
        text.starts_with("Group g unlocked: “job 1” was purged, so"),
        "{text}"
    );
}

#[test]
fn a_group_unlocked_by_retention_says_its_head_expired() {
    // One job only: a second one's own expiry would be the latest "Why:".
    let mut s = one_group_in_flight(60, 70_000, json!([]));
    s.producers[0].sends.truncate(1);
    let text = explained_at(s, 60_000);
    assert!(
        text.starts_with("Group g unlocked: “job 1” expired, so"),
        "{text}"
    );
}

#[test]
fn a_json_body_is_named_by_its_quoted_start_not_by_its_first_key() {
    use queuelab_simulation::name_of;
    let envelope = "{\n  \"Type\" : \"Notification\",\n  \"MessageId\" : \"cf142bb5\"\n}";
    assert_eq!(
        name_of(envelope),
        "“{ \"Type\" : \"Notification\", \"MessageId\" :…”"
    );
    assert_eq!(name_of(r#"{"Records":[]}"#), "“{\"Records\":[]}”");
    // A plain body keeps its name before the colon.
    assert_eq!(name_of("order A-1: 2 books"), "order A-1");
}
