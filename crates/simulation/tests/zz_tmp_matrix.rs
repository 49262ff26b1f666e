use queuelab_engine::Config;
use queuelab_simulation::{Kind, Processing, Scenario, SimEvent, Simulation};
use std::collections::BTreeMap;

#[test]
#[ignore]
fn matrix() {
    let dir = format!("{}/../../web/scenarios", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    names.sort();
    type Change = (&'static str, fn(&mut Scenario));
    let changes: Vec<Change> = vec![
        ("file", |_| {}),
        ("vis0", |s| {
            for q in &mut s.queues {
                q.visibility_timeout_seconds = Some(0)
            }
        }),
        ("vis1", |s| {
            for q in &mut s.queues {
                q.visibility_timeout_seconds = Some(1)
            }
        }),
        ("vis600", |s| {
            for q in &mut s.queues {
                q.visibility_timeout_seconds = Some(600)
            }
        }),
        ("delay900", |s| {
            for q in &mut s.queues {
                q.delay_seconds = Some(900)
            }
        }),
        ("delay3", |s| {
            for q in &mut s.queues {
                q.delay_seconds = Some(3)
            }
        }),
        ("ret60", |s| {
            for q in &mut s.queues {
                q.message_retention_period_seconds = Some(60)
            }
        }),
        ("max1", |s| {
            for q in &mut s.queues {
                if let Some(r) = &mut q.redrive {
                    r.max_receive_count = 1
                }
            }
        }),
        ("max1000", |s| {
            for q in &mut s.queues {
                if let Some(r) = &mut q.redrive {
                    r.max_receive_count = 1000
                }
            }
        }),
        ("batch10", |s| {
            for c in &mut s.consumers {
                c.batch_size = 10
            }
        }),
        ("wait0", |s| {
            for c in &mut s.consumers {
                c.wait_time_seconds = 0
            }
        }),
        ("wait20", |s| {
            for c in &mut s.consumers {
                c.wait_time_seconds = 20
            }
        }),
        ("proc0", |s| {
            for c in &mut s.consumers {
                c.processing = Processing::FixedMs(0)
            }
        }),
        ("proc30s", |s| {
            for c in &mut s.consumers {
                c.processing = Processing::FixedMs(30000)
            }
        }),
        ("idem", |s| {
            for c in &mut s.consumers {
                c.behaviour.idempotent = !c.behaviour.idempotent
            }
        }),
        ("nth1", |s| {
            for c in &mut s.consumers {
                c.behaviour.fails_every_nth = Some(1)
            }
        }),
        ("nth2", |s| {
            for c in &mut s.consumers {
                c.behaviour.fails_every_nth = Some(2)
            }
        }),
        ("crashB", |s| {
            for c in &mut s.consumers {
                c.behaviour.crashes_before_side_effect_on = vec!["1".into()]
            }
        }),
        ("crashA", |s| {
            for c in &mut s.consumers {
                c.behaviour.crashes_after_side_effect_on = vec!["1".into()]
            }
        }),
        ("delfirst", |s| {
            for c in &mut s.consumers {
                c.behaviour.deletes_before_processing = !c.behaviour.deletes_before_processing
            }
        }),
        ("hb", |s| {
            for c in &mut s.consumers {
                c.behaviour.heartbeat_every_ms = Some(500)
            }
        }),
        ("nohb", |s| {
            for c in &mut s.consumers {
                c.behaviour.heartbeat_every_ms = None
            }
        }),
        ("retry0", |s| {
            for c in &mut s.consumers {
                c.behaviour.retry_immediately = true;
                c.behaviour.fails_every_nth = Some(2)
            }
        }),
        ("nofail", |s| {
            for c in &mut s.consumers {
                c.behaviour.fails_on.clear();
                c.behaviour.crashes_before_side_effect_on.clear()
            }
        }),
    ];
    for name in names {
        let base: Scenario =
            serde_json::from_str(&std::fs::read_to_string(format!("{dir}/{name}")).unwrap())
                .unwrap();
        let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (cname, change) in &changes {
            let mut s = base.clone();
            change(&mut s);
            if s.validate().is_err() {
                continue;
            }
            let d = s.duration_ms;
            let Ok(mut sim) = Simulation::new(s, Config::default()) else {
                continue;
            };
            sim.advance(d);
            for e in sim.events(0) {
                let t = match e.kind {
                    Kind::Simulation(SimEvent::Narration { text }) => text,
                    Kind::Simulation(SimEvent::CheckpointAnswered {
                        answer, because, ..
                    }) => format!("VERDICT {answer} BECAUSE {}", because.unwrap_or_default()),
                    _ => continue,
                };
                seen.entry(t)
                    .or_default()
                    .push(format!("{cname}@{}", e.time_ms));
            }
        }
        eprintln!("=== {name}");
        for (t, v) in seen {
            eprintln!("  [{}] {}", v.join(","), t);
        }
    }
    panic!();
}
