//! Property tests of the engine's bookkeeping over random call sequences:
//! no message is lost or duplicated, FIFO groups deliver in order and are
//! locked exactly while their head is in flight, the deduplication window holds,
//! and the same seed and calls always give the same event log.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use queuelab_engine::settings::RedrivePolicy;
use queuelab_engine::snapshot::Snapshot;
use queuelab_engine::{
    Config, Engine, EventKind, NewMessage, QueueAttribute, ReceiveMessage, ReceiveOutcome,
    SendMessage, Tags,
};

#[derive(Clone, Debug)]
enum Op {
    Send {
        queue: usize,
        group: u8,
        dedup: u8,
        delay: u8,
    },
    Receive {
        queue: usize,
        max: u8,
        visibility: u8,
    },
    Delete {
        pick: usize,
    },
    ChangeVisibility {
        pick: usize,
        seconds: u8,
    },
    Advance {
        ms: u32,
    },
    Purge {
        queue: usize,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..3usize, 0..3u8, 0..6u8, 0..3u8).prop_map(|(queue, group, dedup, delay)| Op::Send { queue, group, dedup, delay }),
        4 => (0..4usize, 1..4u8, 0..4u8).prop_map(|(queue, max, visibility)| Op::Receive { queue, max, visibility }),
        2 => any::<usize>().prop_map(|pick| Op::Delete { pick }),
        1 => (any::<usize>(), 0..4u8).prop_map(|(pick, seconds)| Op::ChangeVisibility { pick, seconds }),
        3 => (0..400_000u32).prop_map(|ms| Op::Advance { ms }),
        1 => (0..4usize).prop_map(|queue| Op::Purge { queue }),
    ]
}

/// A world of four queues: a standard queue and a FIFO queue, each with a
/// dead-letter queue after two receives, and short retention so expiry happens.
struct World {
    engine: Engine,
    urls: Vec<String>,
    /// (queue index, receipt handle) of every receive so far.
    handles: Vec<(usize, String)>,
    /// Every message id the engine created (duplicates excluded).
    sent: BTreeSet<String>,
    /// FIFO dedup model: dedup id -> (first send time, message id).
    dedup: BTreeMap<String, (u64, String)>,
}

const FIFO: usize = 1;

impl World {
    fn new(seed: u64) -> Self {
        let mut engine = Engine::new(Config {
            seed,
            ..Config::default()
        });
        let tags = Tags::new();
        let dlq = engine.create_queue("dlq", &[], &tags).unwrap();
        let fifo_dlq = engine
            .create_queue("dlq.fifo", &[QueueAttribute::FifoQueue(true)], &tags)
            .unwrap();
        let redrive = |target: &str| {
            QueueAttribute::RedrivePolicy(Some(RedrivePolicy {
                dead_letter_target_arn: format!("arn:aws:sqs:us-east-1:000000000000:{target}"),
                max_receive_count: 2,
            }))
        };
        let common = [
            QueueAttribute::VisibilityTimeout(1),
            QueueAttribute::MessageRetentionPeriod(600),
        ];
        let mut standard = common.to_vec();
        standard.push(redrive("dlq"));
        let mut fifo = common.to_vec();
        fifo.extend([QueueAttribute::FifoQueue(true), redrive("dlq.fifo")]);
        let standard = engine.create_queue("work", &standard, &tags).unwrap();
        let fifo = engine.create_queue("work.fifo", &fifo, &tags).unwrap();
        World {
            engine,
            urls: vec![standard, fifo, dlq, fifo_dlq],
            handles: Vec::new(),
            sent: BTreeSet::new(),
            dedup: BTreeMap::new(),
        }
    }

    fn apply(&mut self, op: &Op) {
        let now = self.engine.now();
        match *op {
            Op::Send {
                queue,
                group,
                dedup,
                delay,
            } => {
                let queue = queue.min(FIFO);
                let fifo = queue == FIFO;
                let dedup_id = format!("d{dedup}");
                let message = NewMessage {
                    body: format!("m{}", self.sent.len()),
                    delay_seconds: (!fifo).then_some(i64::from(delay)),
                    group_id: fifo.then(|| format!("g{group}")),
                    dedup_id: fifo.then(|| dedup_id.clone()),
                    ..NewMessage::default()
                };
                let request = SendMessage {
                    queue_url: self.urls[queue].clone(),
                    message,
                };
                let id = self.engine.send_message(&request, None).unwrap().message_id;
                if fifo {
                    match self.dedup.get(&dedup_id) {
                        Some((first, original)) if now < first + 300_000 => {
                            assert_eq!(&id, original, "a send within 5 minutes is a duplicate");
                            return;
                        }
                        _ => {
                            self.dedup.insert(dedup_id, (now, id.clone()));
                        }
                    }
                }
                assert!(self.sent.insert(id), "message ids are unique");
            }
            Op::Receive {
                queue,
                max,
                visibility,
            } => {
                let request = ReceiveMessage {
                    queue_url: self.urls[queue].clone(),
                    max_number_of_messages: Some(i64::from(max)),
                    visibility_timeout: Some(i64::from(visibility)),
                    wait_time_seconds: Some(0),
                    ..ReceiveMessage::default()
                };
                let ReceiveOutcome::Done(messages) =
                    self.engine.receive_message(&request, None).unwrap()
                else {
                    panic!("a short poll never waits");
                };
                if queue == FIFO {
                    let ids: Vec<String> = messages.iter().map(|m| m.message_id.clone()).collect();
                    self.check_fifo_delivery(&ids);
                }
                for m in messages {
                    self.handles.push((queue, m.receipt_handle));
                }
            }
            Op::Delete { pick } | Op::ChangeVisibility { pick, .. } if self.handles.is_empty() => {
                let _ = pick;
            }
            Op::Delete { pick } => {
                let (queue, handle) = self.handles[pick % self.handles.len()].clone();
                // FIFO refuses expired handles; either answer is fine here.
                let _ = self.engine.delete_message(&self.urls[queue], &handle, None);
            }
            Op::ChangeVisibility { pick, seconds } => {
                let (queue, handle) = self.handles[pick % self.handles.len()].clone();
                let _ = self.engine.change_message_visibility(
                    &self.urls[queue],
                    &handle,
                    i64::from(seconds),
                    None,
                );
            }
            Op::Advance { ms } => {
                self.engine.advance(u64::from(ms));
            }
            Op::Purge { queue } => {
                let _ = self.engine.purge_queue(&self.urls[queue]);
            }
        }
    }

    /// Every sent message is in exactly one place, or left exactly once.
    fn check_accounting(&self, snapshot: &Snapshot) {
        let mut present = BTreeSet::new();
        for queue in &snapshot.queues {
            for message in &queue.messages {
                assert!(
                    present.insert(message.message_id.to_string()),
                    "message {} is stored twice",
                    message.message_id
                );
            }
        }
        let mut gone = BTreeSet::new();
        for event in self.engine.events(0) {
            if let EventKind::Deleted { message_id, .. }
            | EventKind::Expired { message_id, .. }
            | EventKind::Purged { message_id, .. } = &event.kind
            {
                assert!(
                    gone.insert(message_id.to_string()),
                    "{message_id} left twice"
                );
            }
        }
        assert!(
            present.is_disjoint(&gone),
            "a message left but is still stored"
        );
        let accounted: BTreeSet<String> = present.union(&gone).cloned().collect();
        assert_eq!(accounted, self.sent, "every sent message is stored or left");
    }

    /// A FIFO group is locked exactly while its head message is in flight.
    fn check_fifo_locks(&self, snapshot: &Snapshot) {
        for queue in snapshot.queues.iter().filter(|q| q.fifo) {
            for group in &queue.groups {
                let head = queue
                    .messages
                    .iter()
                    .find(|m| m.group.as_deref() == Some(group.group.as_str()))
                    .unwrap();
                assert_eq!(
                    group.locked,
                    head.state == "in-flight",
                    "lock follows the head"
                );
            }
        }
    }

    /// A FIFO receive never delivers a message while an earlier message of
    /// its group is waiting (visible or delayed).
    fn check_fifo_delivery(&self, delivered: &[String]) {
        let snapshot = self.engine.snapshot();
        let queue = snapshot
            .queues
            .iter()
            .find(|q| q.name == "work.fifo")
            .unwrap();
        for id in delivered {
            let Some(at) = queue
                .messages
                .iter()
                .position(|m| m.message_id.to_string() == *id)
            else {
                continue;
            };
            let group = &queue.messages[at].group;
            // With a zero visibility timeout, messages of this very receive
            // are visible again already.
            for earlier in queue.messages[..at].iter().filter(|m| m.group == *group) {
                let taken = delivered.contains(&earlier.message_id.to_string());
                assert!(
                    earlier.state == "in-flight" || taken,
                    "{id} delivered while an earlier message waits"
                );
            }
        }
    }
}

fn run(seed: u64, ops: &[Op]) -> World {
    let mut world = World::new(seed);
    for op in ops {
        world.apply(op);
        let snapshot = world.engine.snapshot();
        world.check_accounting(&snapshot);
        world.check_fifo_locks(&snapshot);
    }
    world
}

/// First receives per FIFO group, in event order, must follow send order.
fn check_first_receive_order(world: &World) {
    let mut sent_order: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut first_received: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut group_of = BTreeMap::new();
    for event in world.engine.events(0) {
        match &event.kind {
            EventKind::Sent {
                queue,
                message_id,
                group: Some(group),
                ..
            } if &**queue == "work.fifo" => {
                sent_order
                    .entry(group.to_string())
                    .or_default()
                    .push(message_id.to_string());
                group_of.insert(message_id.to_string(), group.to_string());
            }
            EventKind::Received {
                queue,
                message_id,
                receive_count: 1,
                ..
            } if &**queue == "work.fifo" => {
                let group = group_of[&message_id.to_string()].clone();
                first_received
                    .entry(group)
                    .or_default()
                    .push(message_id.to_string());
            }
            _ => {}
        }
    }
    for (group, received) in first_received {
        let sent = &sent_order[&group];
        let order: Vec<usize> = received
            .iter()
            .map(|id| sent.iter().position(|s| s == id).unwrap())
            .collect();
        assert!(
            order.windows(2).all(|w| w[0] < w[1]),
            "group {group} out of order: {order:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 128,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn no_message_is_lost_or_duplicated_and_fifo_groups_hold(
        seed in any::<u64>(),
        ops in proptest::collection::vec(op(), 1..120),
    ) {
        let world = run(seed, &ops);
        check_first_receive_order(&world);
    }

    #[test]
    fn same_seed_and_calls_give_identical_event_logs(
        seed in any::<u64>(),
        ops in proptest::collection::vec(op(), 1..60),
    ) {
        let a = run(seed, &ops);
        let b = run(seed, &ops);
        let log = |w: &World| format!("{:?}", w.engine.events(0).collect::<Vec<_>>());
        prop_assert_eq!(log(&a), log(&b));
        prop_assert_eq!(a.engine.snapshot(), b.engine.snapshot());
    }
}

#[test]
fn different_seeds_give_different_ids() {
    let a = run(
        1,
        &[Op::Send {
            queue: 0,
            group: 0,
            dedup: 0,
            delay: 0,
        }],
    );
    let b = run(
        2,
        &[Op::Send {
            queue: 0,
            group: 0,
            dedup: 0,
            delay: 0,
        }],
    );
    assert_ne!(a.sent, b.sent);
}
