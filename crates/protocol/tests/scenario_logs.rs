//! Golden event logs: every shipped scenario (and the test-only scenarios of
//! `tests/fixtures/scenarios/`), run natively with the realism knobs off and
//! on, must produce exactly the log checked in beside them in
//! `tests/fixtures/scenario-logs/`. A behaviour change shows up as a diff a
//! reviewer reads; `QUEUELAB_BLESS=1 cargo test -p queuelab-protocol --test
//! scenario_logs` rewrites the files after an intended one (and fails, so a
//! blessing run never passes for a checking one).
//!
//! The same files hold the other runs to the same bytes: the run advanced
//! in random chunks, as the page advances it frame by frame, with read-only
//! SQS calls between the chunks (they must never shift a later id); and the
//! wasm build under Node (`tests/node/scenario-logs.test.mjs`).
//!
//! It lives in the protocol's tests because the read-only calls go through
//! `dispatch`, the way the page's code cell and `el.sqs` make them.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use queuelab_engine::{Config, Realism};
use queuelab_golden::Golden;
use queuelab_protocol::{dispatch, Dispatched};
use queuelab_simulation::{Scenario, Simulation};
use serde_json::json;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every scenario with a golden log: the shipped ones and the test-only ones.
fn scenario_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for (dir, shipped) in [("web/scenarios", true), ("tests/fixtures/scenarios", false)] {
        for entry in std::fs::read_dir(repo().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let is_scenario = name.ends_with(".json")
                && (!shipped || name.starts_with(|c: char| c.is_ascii_digit()));
            if is_scenario {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The two configurations every scenario is logged under. The realism
/// values are high enough that every knob fires in every scenario that can
/// feel it; `tests/node/scenario-logs.test.mjs` passes the same numbers.
fn variants() -> [(&'static str, Realism); 2] {
    [
        ("plain", Realism::default()),
        (
            "realism",
            Realism {
                short_poll_sample_rate: 0.5,
                duplicate_delivery_probability: 0.5,
                fewer_messages_probability: 0.5,
                throttling: false,
            },
        ),
    ]
}

fn golden_path(scenario: &Path, variant: &str) -> PathBuf {
    let stem = scenario.file_stem().unwrap().to_string_lossy();
    repo().join(format!(
        "tests/fixtures/scenario-logs/{stem}.{variant}.jsonl"
    ))
}

fn start(scenario: &Path, realism: &Realism) -> Simulation {
    let text = std::fs::read_to_string(scenario).unwrap();
    let scenario: Scenario =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{scenario:?}: {e}"));
    let config = Config {
        realism: realism.clone(),
        ..Config::default()
    };
    Simulation::new(scenario, config).expect("scenario loads")
}

/// The log as the golden files hold it: one event per line, as JSON.
fn log(sim: &Simulation) -> String {
    // A golden log must be whole: a scenario that outgrew the event log's
    // capacity would silently compare only its tail.
    assert_eq!(
        sim.events(0).next().map(|e| e.seq),
        Some(1),
        "the event log lost its first events"
    );
    sim.events(0)
        .map(|e| serde_json::to_string(&e).unwrap() + "\n")
        .collect()
}

/// A tiny xorshift, so the chunk sizes are random but the same every run
/// (and independent of the engine's own PRNG).
struct Chunks(u64);

impl Chunks {
    fn next(&mut self, sim: &Simulation) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        let r = self.0;
        match r % 8 {
            // Exactly to the next thing that happens, as the page's Step does.
            0 => sim
                .next_event_time()
                .map_or(1, |t| t.saturating_sub(sim.now())),
            1 => 0,
            2 => 1,
            // Frame-sized steps, and the odd long one.
            3..=6 => 1 + (r >> 8) % 50,
            _ => 1 + (r >> 8) % 3_000,
        }
    }
}

/// Read-only calls a learner's code (or the page) might make between
/// frames. They must never change what the run does next.
fn read_only_calls(sim: &mut Simulation) {
    let snapshot = sim.engine().snapshot();
    let engine = sim.engine_mut();
    let mut call = |operation: &str, body: serde_json::Value| {
        let target = format!("AmazonSQS.{operation}");
        match dispatch(engine, &target, &body.to_string(), Some("reader")) {
            Dispatched::Done(response) => assert_eq!(
                response.status, 200,
                "{operation} {body}: {}",
                response.body
            ),
            Dispatched::Waiting(_) => panic!("{operation} is not a long poll"),
        }
    };
    call("ListQueues", json!({}));
    for queue in &snapshot.queues {
        let url = &queue.url;
        call("GetQueueUrl", json!({ "QueueName": &*queue.name }));
        call(
            "GetQueueAttributes",
            json!({ "QueueUrl": url, "AttributeNames": ["All"] }),
        );
        call("ListQueueTags", json!({ "QueueUrl": url }));
        call("ListDeadLetterSourceQueues", json!({ "QueueUrl": url }));
    }
    for message in snapshot.queues.iter().flat_map(|q| &q.messages) {
        let id = message.message_id.to_string();
        assert!(sim.engine().peek(&id).is_some(), "peek {id}");
    }
    let _ = sim.snapshot();
}

#[test]
fn every_scenario_gives_its_golden_event_log() {
    let files = scenario_files();
    assert!(
        files.len() > 10,
        "the shipped and test-only scenarios: {files:?}"
    );
    let mut golden = Golden::from_env();
    for file in &files {
        for (variant, realism) in variants() {
            let mut sim = start(file, &realism);
            sim.advance(sim.scenario().duration_ms);
            golden.check_text(&golden_path(file, variant), &log(&sim));
        }
    }
    golden.finish();
}

#[test]
fn a_run_advanced_in_random_chunks_with_read_only_calls_gives_the_same_log() {
    // Each run (a file, plain or with realism) on the next free core: the
    // hour-long runs alone take most of a minute each.
    let files = scenario_files();
    let runs: Vec<(usize, &Path, (&str, Realism))> = (files.iter().enumerate())
        .flat_map(|(index, file)| variants().map(|variant| (index, file.as_path(), variant)))
        .collect();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                while let Some((index, file, (variant, realism))) =
                    runs.get(next.fetch_add(1, Ordering::Relaxed))
                {
                    chunked_run_gives_the_same_log(*index, file, variant, realism);
                }
            });
        }
    });
}

/// One run, advanced in random chunks with the read-only calls after each,
/// against its golden log.
fn chunked_run_gives_the_same_log(index: usize, file: &Path, variant: &str, realism: &Realism) {
    let mut sim = start(file, realism);
    let end = sim.scenario().duration_ms;
    let mut chunks = Chunks(0x9E37_79B9_7F4A_7C15 ^ index as u64);
    // A run of hours goes in longer chunks: its steps stay a few
    // thousand, each with the read-only calls over every message.
    let scale = (end / 200_000).max(1);
    for step in 0.. {
        if sim.now() >= end {
            break;
        }
        assert!(step < 100_000, "{file:?}: still at {} ms", sim.now());
        let step = (chunks.next(&sim) * scale).min(end - sim.now());
        sim.advance(step);
        read_only_calls(&mut sim);
    }
    let expected = std::fs::read_to_string(golden_path(file, variant)).unwrap();
    assert!(
        log(&sim) == expected,
        "{file:?} ({variant}): advancing in chunks with read-only calls changed the log"
    );
}

#[test]
fn the_realism_knobs_change_the_runs_they_can_reach() {
    // Guards the golden files themselves: if the knobs stopped drawing, the
    // "realism" logs would quietly equal the plain ones and prove nothing.
    let differ = scenario_files()
        .iter()
        .filter(|file| {
            let plain = std::fs::read_to_string(golden_path(file, "plain")).unwrap();
            let realism = std::fs::read_to_string(golden_path(file, "realism")).unwrap();
            plain != realism
        })
        .count();
    assert!(
        differ >= 8,
        "only {differ} scenarios changed with realism on"
    );
}
