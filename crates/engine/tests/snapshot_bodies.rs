//! Snapshots of big bodies (issue 25, item 2): a snapshot message carries
//! its body's length and only its first KiB (`peek` has the whole body),
//! and a windowed snapshot is bounded by bytes as well as by messages, so
//! a page reading one after every frame never copies megabytes of bodies.

use queuelab_engine::{
    body_preview, workload, Config, Engine, BODY_PREVIEW_BYTES, SNAPSHOT_WINDOW_BYTES,
};

const MIB: usize = 1 << 20;

fn engine() -> Engine {
    Engine::new(Config::default())
}

#[test]
fn a_snapshot_message_carries_its_body_length_and_only_its_first_kib() {
    let mut engine = engine();
    let url = workload::queue(&mut engine, "big", false);
    let big = "x".repeat(MIB);
    workload::send(&mut engine, &url, &big, false, 1, 0);
    workload::send(&mut engine, &url, "small", false, 1, 1);
    let messages = &engine.snapshot().queues[0].messages;
    assert_eq!(BODY_PREVIEW_BYTES, 1024);
    assert_eq!(messages[0].body, big[..1024]);
    assert_eq!(
        (messages[0].body_bytes, messages[0].body_truncated),
        (MIB, true)
    );
    assert_eq!(messages[1].body, "small");
    assert_eq!(
        (messages[1].body_bytes, messages[1].body_truncated),
        (5, false)
    );
}

#[test]
fn a_body_preview_is_cut_on_a_character_boundary() {
    // 3-byte characters: 1024 is not a boundary, 1023 is.
    let euros = "€".repeat(400);
    let (preview, cut) = body_preview(&euros);
    assert_eq!((preview.len(), cut), (1023, true));
    assert_eq!(preview, "€".repeat(341));
    let exact = "y".repeat(1024);
    assert_eq!(body_preview(&exact), (exact.as_str(), false));
}

#[test]
fn peek_carries_the_whole_body() {
    let mut engine = engine();
    let url = workload::queue(&mut engine, "big", false);
    let big = "é".repeat(MIB / 2);
    workload::send(&mut engine, &url, &big, false, 1, 0);
    let id = engine.snapshot().queues[0].messages[0]
        .message_id
        .to_string();
    let peek = engine.peek(&id).expect("stored");
    assert_eq!(peek.message.body, big);
    assert_eq!(
        (peek.message.body_bytes, peek.message.body_truncated),
        (MIB, false)
    );
}

#[test]
fn a_snapshot_of_200_messages_of_1_mib_is_a_few_hundred_kib_and_carries_each_length() {
    let mut engine = engine();
    let url = workload::queue(&mut engine, "big", false);
    for i in 0..200 {
        workload::send(&mut engine, &url, &"z".repeat(MIB), false, 1, i);
    }
    for snapshot in [engine.snapshot(), engine.snapshot_window(Some(200))] {
        let json = serde_json::to_vec(&snapshot).expect("serializes");
        // Before: each message carried its whole body, 200 MiB of JSON.
        assert!(json.len() <= 400 << 10, "{} bytes of JSON", json.len());
        let q = &snapshot.queues[0];
        assert_eq!(q.messages.len(), 200);
        assert!(q
            .messages
            .iter()
            .all(|m| m.body_bytes == MIB && m.body_truncated));
    }
}

#[test]
fn a_windowed_snapshot_lists_messages_up_to_its_byte_budget_and_counts_the_rest_as_omitted() {
    let mut engine = engine();
    // Ten queues of 200 messages with bodies past the preview: 2,000
    // previews of 1 KiB, twice the budget.
    let urls: Vec<String> = (0..10)
        .map(|i| workload::queue(&mut engine, &format!("q{i}"), false))
        .collect();
    for url in &urls {
        for i in 0..200 {
            workload::send(&mut engine, url, &"b".repeat(4096), false, 1, i);
        }
    }
    let window = engine.snapshot_window(Some(200));
    let listed: usize = window.queues.iter().map(|q| q.messages.len()).sum();
    assert!(
        listed < 2_000,
        "the budget cut the window ({listed} listed)"
    );
    assert!(listed >= SNAPSHOT_WINDOW_BYTES / 2048, "{listed} listed");
    let json = serde_json::to_vec(&window).expect("serializes");
    assert!(
        json.len() <= SNAPSHOT_WINDOW_BYTES + (64 << 10),
        "{} bytes",
        json.len()
    );
    for q in &window.queues {
        assert_eq!(
            q.messages_omitted,
            Some(200 - q.messages.len()),
            "{}",
            q.name
        );
    }
    // Queue order: the first queues are listed whole, the cut is at the end.
    assert_eq!(window.queues[0].messages.len(), 200);
    assert_eq!(window.queues[9].messages.len(), 0);
    // A full snapshot still lists every message (bounded by its previews).
    let full = engine.snapshot();
    assert_eq!(
        full.queues.iter().map(|q| q.messages.len()).sum::<usize>(),
        2_000
    );
}

#[test]
fn a_message_is_never_more_json_than_its_window_weight() {
    let mut engine = engine();
    let fifo = workload::queue(&mut engine, "jobs", true);
    let standard = workload::queue(&mut engine, "plain", false);
    let bodies = [
        "\"\\".repeat(700),
        "\n\t".repeat(800),
        "a".repeat(10),
        "€".repeat(5),
    ];
    for (i, body) in bodies.iter().enumerate() {
        workload::send(&mut engine, &fifo, body, true, 3, i as u64);
        workload::send(&mut engine, &standard, body, false, 1, i as u64);
    }
    workload::receive(&mut engine, &fifo, 10);
    workload::receive(&mut engine, &standard, 10);
    for q in engine.snapshot().queues {
        for m in q.messages {
            let json = serde_json::to_vec(&m).expect("serializes").len();
            assert!(json <= m.json_bytes(), "{json} > {}", m.json_bytes());
        }
    }
}
