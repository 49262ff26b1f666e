//! Snapshots of big queues: a window lists each queue's first messages
//! (what the page draws) and says how many it left out, at the cost of the
//! messages listed; `queue_messages` pages through one queue. Issue 10:
//! "snapshots scale".

use queuelab_engine::{workload, Config, Engine};

fn engine_with(n: u64, fifo: bool, groups: u64) -> (Engine, String) {
    let mut engine = Engine::new(Config::default());
    let url = workload::queue(&mut engine, "big", fifo);
    for i in 0..n {
        workload::send(&mut engine, &url, &format!("m{i}"), fifo, groups, i);
    }
    (engine, url)
}

#[test]
fn a_windowed_snapshot_lists_the_first_messages_of_the_full_one_and_counts_the_rest() {
    let (mut engine, url) = engine_with(1_000, false, 1);
    workload::receive(&mut engine, &url, 10);
    let full = engine.snapshot();
    let window = engine.snapshot_window(Some(50));
    let (f, w) = (&full.queues[0], &window.queues[0]);
    assert_eq!(w.messages, f.messages[..50]);
    assert_eq!(w.messages_omitted, Some(950));
    assert_eq!(f.messages_omitted, None);
    assert_eq!((w.visible, w.in_flight, w.delayed), (990, 10, 0));
    assert_eq!(engine.messages_listed(Some(50)), 50);
    assert_eq!(engine.messages_listed(None), 1_000);
    let none = engine.snapshot_window(Some(0));
    assert!(none.queues[0].messages.is_empty());
    assert_eq!(none.queues[0].messages_omitted, Some(1_000));
}

#[test]
fn a_windowed_snapshot_of_a_fifo_queue_lists_only_the_listed_messages_groups() {
    let (engine, _) = engine_with(300, true, 100);
    let w = &engine.snapshot_window(Some(10)).queues[0];
    let mut listed: Vec<&str> = w
        .messages
        .iter()
        .filter_map(|m| m.group.as_deref())
        .collect();
    listed.sort();
    listed.dedup();
    let groups: Vec<&str> = w.groups.iter().map(|g| g.group.as_str()).collect();
    assert_eq!(groups, listed);
    assert_eq!(w.groups_omitted, Some(100 - groups.len()));
    assert!(
        w.groups.iter().all(|g| g.messages == 3),
        "a group's count covers all its messages"
    );
}

#[test]
fn queue_messages_pages_through_a_queue_in_snapshot_order() {
    let (engine, url) = engine_with(250, false, 1);
    let full = engine.snapshot().queues[0].messages.clone();
    let mut seen = Vec::new();
    let mut offset = Some(0);
    while let Some(at) = offset {
        let page = engine
            .queue_messages(&url, at, 100)
            .expect("the queue exists");
        assert_eq!((page.total, page.offset), (250, at));
        seen.extend(page.messages);
        offset = page.next_offset;
    }
    assert_eq!(seen, full);
    assert!(engine
        .queue_messages(&url, 999, 10)
        .unwrap()
        .messages
        .is_empty());
    assert!(engine
        .queue_messages(&url.replace("big", "none"), 0, 10)
        .is_none());
}
