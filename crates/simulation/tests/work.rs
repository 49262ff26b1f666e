//! The work estimate (`Simulation::work_estimate`) and the scenario work
//! limit: a host asks how much a replay costs before running it, and a
//! scenario whose whole run is estimated past `MAX_SCENARIO_WORK` is refused.

use std::path::Path;

use queuelab_engine::Config;
use queuelab_simulation::{
    Scenario, Simulation, ESTIMATE_FACTOR, MAX_SCENARIO_WORK, MAX_WORK_WITHOUT_ASKING,
};
use serde_json::{json, Value};

fn scenario(value: Value) -> Scenario {
    serde_json::from_value(value).expect("a well-formed scenario")
}

/// One consumer short-polling an empty queue every `poll_ms` for `duration_ms`.
fn idle_poller(poll_ms: u64, duration_ms: u64) -> Scenario {
    scenario(json!({
        "title": "idle", "durationMs": duration_ms,
        "queues": [{ "name": "q" }],
        "consumers": [{ "name": "c", "queue": "q", "pollIntervalMs": poll_ms,
                        "processing": { "fixedMs": 10 } }],
    }))
}

fn shipped() -> Vec<(String, Scenario)> {
    shipped_in("../../web/scenarios")
}

fn shipped_in(folder: &str) -> Vec<(String, Scenario)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".json") && f.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(dir.join(&f)).unwrap();
            let parsed = serde_json::from_str(&text).unwrap();
            (f, parsed)
        })
        .collect()
}

#[test]
fn work_estimate_of_a_moment_already_reached_is_zero() {
    let mut sim = Simulation::new(idle_poller(100, 10_000), Config::default()).unwrap();
    sim.advance(5_000);
    assert_eq!(sim.work_estimate(5_000), 0);
    assert_eq!(sim.work_estimate(1_000), 0);
    assert!(sim.work_estimate(6_000) > 0);
}

#[test]
fn work_estimate_grows_with_how_often_a_consumer_polls() {
    let slow = Simulation::new(idle_poller(1_000, 60_000), Config::default()).unwrap();
    let fast = Simulation::new(idle_poller(1, 60_000), Config::default()).unwrap();
    let (slow, fast) = (slow.work_estimate(60_000), fast.work_estimate(60_000));
    assert!(fast >= slow * 500, "1 ms polls: {fast}, 1 s polls: {slow}");
}

#[test]
fn work_estimate_counts_a_producers_remaining_sends() {
    let mut sim = Simulation::new(
        scenario(json!({
            "title": "rate", "durationMs": 100_000, "queues": [{ "name": "q" }],
            "producers": [{ "name": "p", "queue": "q",
                            "rate": { "everyMs": 10, "count": 5_000, "body": "m{n}" } }],
        })),
        Config::default(),
    )
    .unwrap();
    let whole = sim.work_estimate(100_000);
    // 5,000 sends fall by 50,000 ms; nothing is sent after: past it only
    // CloudWatch's step at 60 s (its line and the queue's gauges) counts.
    assert_eq!(sim.work_estimate(59_999), sim.work_estimate(50_000));
    assert!(whole > sim.work_estimate(59_999));
    assert!(whole >= 5_000, "{whole}");
    sim.advance(25_000);
    let rest = sim.work_estimate(100_000);
    assert!(rest < whole && rest >= 2_500, "{rest} of {whole}");
}

/// The estimate is meant to be asked before a replay: it must not promise
/// a cheap run that then takes far more steps (each step logs an event).
#[test]
fn work_estimate_is_not_below_the_events_a_run_logs() {
    let mut runs = shipped();
    runs.push(("idle poller".into(), idle_poller(1, 20_000)));
    for (name, scenario) in runs {
        let duration = scenario.duration_ms;
        let mut sim = Simulation::new(scenario, Config::default()).unwrap();
        let estimate = sim.work_estimate(duration);
        let before = sim.next_event_seq();
        sim.advance(duration);
        let logged = sim.next_event_seq() - before;
        assert!(
            estimate >= logged,
            "{name}: estimated {estimate}, logged {logged}"
        );
    }
}

#[test]
fn every_shipped_scenario_runs_to_its_end_without_asking() {
    for (name, scenario) in shipped() {
        let duration = scenario.duration_ms;
        let sim = Simulation::new(scenario, Config::default()).unwrap();
        let estimate = sim.work_estimate(duration);
        assert!(estimate <= MAX_WORK_WITHOUT_ASKING, "{name}: {estimate}");
    }
}

/// The 146-byte scenario: one consumer polling an empty queue
/// every millisecond for 35 days.
#[test]
fn a_scenario_estimated_past_the_work_limit_is_refused() {
    let days_35 = 35 * 24 * 3_600_000;
    let error = match Simulation::new(idle_poller(1, days_35), Config::default()) {
        Ok(_) => panic!("a 35-day run of 1 ms polls loaded"),
        Err(error) => error.message,
    };
    assert!(
        error.contains("consumers[0] (pollIntervalMs 1) alone needs"),
        "{error}"
    );
    assert!(error.contains("durationMs"), "{error}");
    assert!(error.contains(&MAX_SCENARIO_WORK.to_string()), "{error}");
    // The same consumer polling every second is fine.
    Simulation::new(idle_poller(1_000, days_35), Config::default()).expect("loads");
}

/// Units of fixed cost the estimate may add to a tiny run (an empty
/// scenario does 1 unit; its estimate may say a few).
const ESTIMATE_SLACK: u64 = 100;

/// A small seeded generator (SplitMix64), so the scenarios are the same
/// on every run and every machine.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// In `lo..=hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
    /// In `lo..=hi`, each power of ten as likely as the next.
    fn log(&mut self, lo: u64, hi: u64) -> u64 {
        let (a, b) = ((lo.max(1) as f64).ln(), (hi as f64).ln());
        let unit = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((a + (b - a) * unit).exp() as u64).clamp(lo, hi)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.range(1, 100) <= percent
    }
}

const YEAR_MS: u64 = 31_536_000_000;

fn generated_processing(g: &mut Gen) -> Value {
    match g.range(0, 3) {
        0 => json!({ "fixedMs": g.log(0, 5_000) }),
        1 => {
            let min = g.log(0, 1_000);
            json!({ "uniformMs": { "min": min, "max": min + g.log(1, 10_000) } })
        }
        // The range: 1 ms to a year.
        2 => json!({ "uniformMs": { "min": g.range(0, 5), "max": g.log(10_000, YEAR_MS) } }),
        _ => json!({ "exponentialMs": { "mean": g.log(1, 5_000) } }),
    }
}

fn generated_behaviour(g: &mut Gen) -> Value {
    let mut b = serde_json::Map::new();
    if g.chance(35) {
        b.insert("heartbeatEveryMs".into(), json!(g.log(1, 3_000)));
    }
    if g.chance(20) {
        b.insert("failsOn".into(), json!(["poison"]));
    }
    if g.chance(10) {
        b.insert("failsEveryNth".into(), json!(g.range(2, 5)));
    }
    if g.chance(10) {
        b.insert("crashesAfterSideEffectOn".into(), json!(["crash"]));
        b.insert("restartMs".into(), json!(g.log(0, 5_000)));
    }
    if g.chance(10) {
        b.insert("crashesBeforeSideEffectOn".into(), json!(["crash"]));
    }
    if g.chance(15) {
        b.insert("idempotent".into(), json!(true));
    }
    if g.chance(10) {
        b.insert("deletesBeforeProcessing".into(), json!(true));
    }
    // Where a Lambda-style worker once was (a function is a `lambdas` entry
    // now): its draws are kept, so the generated scenarios stay the same.
    if g.chance(10) {
        let _ = g.chance(50);
    }
    match g.range(0, 9) {
        0 => {
            b.insert("retryImmediately".into(), json!(true));
        }
        1 => {
            let base = g.range(1, 5);
            b.insert(
                "retryBackoff".into(),
                json!({ "baseSeconds": base, "maxSeconds": base + g.range(0, 60) }),
            );
        }
        _ => {}
    }
    if g.chance(10) {
        let start = g.range(0, 10_000);
        b.insert(
            "failsDuringMs".into(),
            json!({ "startMs": start, "endMs": start + g.log(1, 20_000) }),
        );
    }
    Value::Object(b)
}

/// A body: mostly small, sometimes poison or crashing, sometimes big.
fn generated_body(g: &mut Gen, big: bool) -> String {
    let tag = match g.range(0, 9) {
        0 => "poison",
        1 => "crash",
        _ => "order",
    };
    let mut body = format!("{tag} {{n}}");
    if big {
        body.push_str(&"x".repeat(g.log(1_000, 200_000) as usize));
    }
    body
}

/// One scenario from the generator: 1–3 queues (some with a dead-letter
/// queue), 0–3 producers, 0–3 consumers of any behaviour, 1–60 s. A
/// redelivery `storm` (the fuzzer's hang) is 1 ms to 2 s, a 0 s visibility
/// timeout, `maxReceiveCount` 50 to 1,000 or none, workers polling every
/// millisecond that only fail (every message, every other or every
/// third) and take 0–2 ms, batches up to 10, 20–300 messages a producer.
fn generated(g: &mut Gen, storm: bool) -> Value {
    let duration = match storm {
        true => g.log(1, 2_000),
        false => g.log(1_000, 60_000),
    };
    let mut queues = vec![json!({ "name": "dlq" })];
    let main = g.range(1, 2);
    for i in 0..main {
        let visibility = if storm { 0 } else { g.range(0, 40) };
        let mut q = json!({ "name": format!("q{i}"), "visibilityTimeoutSeconds": visibility });
        if g.chance(30) && !storm {
            q["delaySeconds"] = json!(g.range(0, 5));
        }
        if g.chance(if storm { 70 } else { 40 }) {
            let most = if storm {
                g.log(50, 1_000)
            } else {
                g.range(1, 5)
            };
            q["redrive"] = json!({ "deadLetterQueue": "dlq", "maxReceiveCount": most });
        }
        queues.push(q);
    }
    // A storm's producers and workers meet on one queue.
    let queue = |g: &mut Gen| match g.range(0, 4) {
        _ if storm => "q0".to_string(),
        0 => "dlq".to_string(),
        k => format!("q{}", k as usize % main as usize),
    };
    let least = storm as u64;
    let producers: Vec<Value> = (0..g.range(least, 3))
        .map(|i| {
            // A storm's bodies are small: its work is in redeliveries.
            let big = g.chance(10) && !storm;
            let q = queue(g);
            let mut p = json!({ "name": format!("p{i}"), "queue": q });
            if g.chance(30) && !storm {
                let sends: Vec<Value> = (0..g.range(1, 20))
                    .map(|_| {
                        let body = generated_body(g, big).replace("{n}", "1");
                        json!({ "atMs": g.range(0, duration), "body": body })
                    })
                    .collect();
                p["sends"] = json!(sends);
            } else {
                let every = if storm { g.log(1, 10) } else { g.log(1, 5_000) };
                let count = if big {
                    g.range(1, 100)
                } else if storm {
                    g.range(20, 300)
                } else {
                    g.log(1, 20_000)
                };
                p["rate"] = json!({ "startMs": g.range(0, duration / 2), "everyMs": every,
                                    "count": count, "body": generated_body(g, big) });
            }
            p
        })
        .collect();
    let consumers: Vec<Value> = (0..g.range(least, 3))
        .map(|i| {
            let q = queue(g);
            let mut c = json!({
                "name": format!("c{i}"), "queue": q,
                "batchSize": g.range(1, 10),
                "pollIntervalMs": if storm { 1 } else { g.log(1, 5_000) },
                "processing": match storm {
                    true => json!({ "fixedMs": g.range(0, 2) }),
                    false => generated_processing(g),
                },
                "replicas": g.range(1, 3),
                // A storm's handlers only fail: every message, every
                // other or every third, each back at once to any worker.
                "behaviour": match storm {
                    true => json!({ "failsEveryNth": g.range(1, 3) }),
                    false => generated_behaviour(g),
                },
            });
            if storm {
                return c;
            }
            if g.chance(40) {
                c["waitTimeSeconds"] = json!(g.range(1, 20));
            }
            if g.chance(20) {
                c["batchOverheadMs"] = json!(g.log(1, 2_000));
            }
            if g.chance(15) {
                c["startMs"] = json!(g.range(0, duration / 2));
            }
            if g.chance(15) {
                c["stopMs"] = json!(g.range(duration / 2, duration));
            }
            c
        })
        .collect();
    let mut s = json!({ "title": "generated", "durationMs": duration, "seed": g.next() % 1000,
                        "queues": queues, "producers": producers, "consumers": consumers });
    if g.chance(20) {
        s["alarms"] = json!([{ "name": "deep", "queue": "q0", "threshold": g.range(1, 50) }]);
    }
    s
}

/// Runs `scenario` to its end: (estimate before, work counted while running).
fn estimate_and_work(scenario: Scenario) -> Option<(u64, u64)> {
    let duration = scenario.duration_ms;
    estimate_and_work_until(scenario, duration)
}

/// Runs `scenario` to `until` (its actors go on past `durationMs`, as a
/// host advancing further makes them): (estimate before, work counted).
fn estimate_and_work_until(scenario: Scenario, until: u64) -> Option<(u64, u64)> {
    let mut sim = Simulation::new(scenario, Config::default()).ok()?;
    let estimate = sim.work_estimate(until);
    let before = sim.work_done();
    sim.advance(until);
    Some((estimate, sim.work_done() - before))
}

/// The estimate against the work really done, on scenarios from a seeded
/// generator: every kind of producer, processing time, polling,
/// behaviour, batch, dead-letter queue and replica count; then 30
/// redelivery storms, half of them run on past their `durationMs` (up to
/// 2 s more, as a host advancing further does).
#[test]
fn work_estimate_is_within_its_factor_of_the_work_done_on_generated_scenarios() {
    let mut g = Gen(25);
    let mut storms = Gen(846);
    let mut worst: Vec<(f64, usize, u64, u64)> = Vec::new();
    let mut failures = Vec::new();
    for i in 0..150 {
        let storm = i >= 120;
        let (value, until) = match storm {
            false => {
                let value = generated(&mut g, false);
                let duration = value["durationMs"].as_u64().expect("a duration");
                (value, duration)
            }
            true => {
                let value = generated(&mut storms, true);
                let duration = value["durationMs"].as_u64().expect("a duration");
                let past = if storms.chance(50) {
                    storms.log(1, 2_000)
                } else {
                    0
                };
                (value, duration + past)
            }
        };
        let Some((estimate, done)) = estimate_and_work_until(scenario(value.clone()), until) else {
            failures.push(format!("#{i} did not load: {value}"));
            continue;
        };
        worst.push((estimate as f64 / done.max(1) as f64, i, estimate, done));
        if done > estimate || estimate > ESTIMATE_FACTOR * done + ESTIMATE_SLACK {
            failures.push(format!(
                "#{i} to {until} ms: estimated {estimate}, did {done}: {value}"
            ));
        }
    }
    worst.sort_by(|a, b| a.0.total_cmp(&b.0));
    eprintln!("median estimate/work: {:.2}", worst[worst.len() / 2].0);
    eprintln!("lowest estimate/work: {:?}", &worst[..5]);
    eprintln!("highest estimate/work: {:?}", &worst[worst.len() - 5..]);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The case: processing drawn from 1 ms to a year, a heartbeat
/// every millisecond. Each heartbeat is work, at the heartbeat's rate.
#[test]
fn work_estimate_counts_heartbeats_at_their_rate() {
    let s = scenario(json!({
        "title": "heartbeats", "durationMs": 100_000,
        "queues": [{ "name": "q" }],
        "producers": [{ "name": "p", "queue": "q", "sends": [{ "atMs": 0, "body": "one" }] }],
        "consumers": [{ "name": "c", "queue": "q", "processing": { "uniformMs": { "min": 1, "max": YEAR_MS } },
                        "behaviour": { "heartbeatEveryMs": 1 } }],
    }));
    let (estimate, done) = estimate_and_work(s).expect("loads");
    assert!(done >= 100_000, "{done}");
    assert!(
        estimate >= done && estimate <= ESTIMATE_FACTOR * done,
        "estimated {estimate}, did {done}"
    );
}

/// A producer of 1 MiB bodies costs more than one of 10-byte bodies.
#[test]
fn work_estimate_weighs_body_bytes() {
    let sender = |body: String| {
        scenario(json!({
            "title": "bytes", "durationMs": 10_000, "queues": [{ "name": "q" }],
            "producers": [{ "name": "p", "queue": "q",
                            "rate": { "everyMs": 100, "count": 100, "body": body } }],
        }))
    };
    let small = Simulation::new(sender("x".repeat(10)), Config::default()).unwrap();
    let big = Simulation::new(sender("x".repeat(1 << 20)), Config::default()).unwrap();
    let (small, big) = (small.work_estimate(10_000), big.work_estimate(10_000));
    let weight = 100 * (1 << 20) / queuelab_simulation::BODY_BYTES_PER_UNIT;
    assert!(
        big >= small + weight,
        "1 MiB bodies: {big}, 10 bytes: {small}"
    );
}

/// The shipped scenarios and labs, run to their end: the same factor.
#[test]
fn work_estimate_is_within_its_factor_of_the_work_done_on_shipped_scenarios_and_labs() {
    let mut all = shipped();
    all.extend(shipped_in("../../web/scenarios/labs"));
    assert!(all.len() >= 18, "{}", all.len());
    // Every file is tried, and every one outside the factor named.
    let mut outside = Vec::new();
    for (name, scenario) in all {
        let (estimate, done) = estimate_and_work(scenario).expect("loads");
        eprintln!("{name}: estimated {estimate}, did {done}");
        if !(done <= estimate && estimate <= ESTIMATE_FACTOR * done + ESTIMATE_SLACK) {
            outside.push(format!("{name}: estimated {estimate}, did {done}"));
        }
    }
    assert!(outside.is_empty(), "{}", outside.join("; "));
}

/// A message every handler fails comes back when its visibility timeout
/// ends (at once with 0 s) and is received again and again, up to its
/// queue's `maxReceiveCount`: every delivery is work, at the rate the
/// workers can poll (the fuzzer's case: 200 sends a millisecond, a 1 ms
/// poller of batch 10 failing every message, `maxReceiveCount` 1000,
/// run past its 1 ms `durationMs` to 2 s).
#[test]
fn work_estimate_counts_failed_messages_redelivered_until_their_max_receive_count() {
    let s = scenario(json!({
        "title": "fuzz", "seed": 846, "durationMs": 1,
        "queues": [
            { "name": "dlq" },
            { "name": "work", "visibilityTimeoutSeconds": 0,
              "redrive": { "deadLetterQueue": "dlq", "maxReceiveCount": 1000 } }
        ],
        "producers": [
            { "name": "p", "queue": "work",
              "rate": { "everyMs": 1, "count": 200, "body": "m{n}", "groupId": "g{n}" } },
            { "name": "s", "queue": "work",
              "sends": [{ "atMs": 548, "body": "x", "delaySeconds": 900 }] }
        ],
        "consumers": [
            { "name": "w0", "queue": "work", "waitTimeSeconds": 0, "batchSize": 10,
              "pollIntervalMs": 1, "processing": { "fixedMs": 0 },
              "behaviour": { "failsEveryNth": 1 } },
            { "name": "w1", "queue": "work", "waitTimeSeconds": 0, "batchSize": 1,
              "pollIntervalMs": 1000, "processing": { "fixedMs": 300 },
              "behaviour": { "failsEveryNth": 3 } }
        ],
        "alarms": [{ "name": "a", "queue": "dlq", "threshold": 1 }],
        "narration": [{ "atMs": 0, "text": "n" }]
    }));
    let mut sim = Simulation::new(s, Config::default()).expect("loads");
    let estimate = sim.work_estimate(2_000);
    // `advance` takes a span: twice 1 s, as the fuzzer did.
    sim.advance(1_000);
    sim.advance(1_000);
    let done = sim.work_done();
    eprintln!("estimated {estimate}, did {done}");
    assert!(
        done <= estimate && estimate <= ESTIMATE_FACTOR * done + ESTIMATE_SLACK,
        "estimated {estimate}, did {done}"
    );
}

#[test]
fn work_estimate_counts_a_schedules_sends_within_its_factor() {
    let sends: Vec<Value> = (0..2_000u64)
        .map(|i| json!({ "atMs": i * 50, "body": "x".repeat(1_000) }))
        .collect();
    let value = json!({
        "title": "schedule", "durationMs": 100_000, "queues": [{ "name": "q" }],
        "schedule": [{ "name": "cron", "queue": "q", "sends": sends }],
        "consumers": [{ "name": "w", "queue": "q", "processing": { "fixedMs": 20 } }],
    });
    let sim = Simulation::new(scenario(value.clone()), Config::default()).unwrap();
    // 2,000 sends by 100,000 ms, half of them by 50,000 ms.
    let (whole, half) = (sim.work_estimate(100_000), sim.work_estimate(50_000));
    assert!(whole >= 2_000 * 3 && half < whole, "{half} of {whole}");
    let (estimate, done) = estimate_and_work(scenario(value)).unwrap();
    assert!(
        done <= estimate && estimate <= ESTIMATE_FACTOR * done + ESTIMATE_SLACK,
        "estimated {estimate}, did {done}"
    );
}

#[test]
fn a_buckets_object_operations_and_notifications_count_in_the_work_estimate() {
    let puts: Vec<Value> = (0..200)
        .map(|i| json!({ "atMs": i * 10, "put": format!("images/{i}.jpg") }))
        .collect();
    let policy = json!({ "Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": { "Service": "s3.amazonaws.com" },
        "Action": "sqs:SendMessage", "Resource": "*" }] });
    let (estimate, done) = estimate_and_work(scenario(json!({
        "title": "uploads", "durationMs": 3000,
        "queues": [{ "name": "jobs", "policy": policy }],
        "buckets": [{ "name": "uploads", "objects": puts, "notifications": [
            { "queue": "jobs", "events": ["s3:ObjectCreated:*"], "suffix": ".jpg" }] }],
    })))
    .expect("loads");
    assert!(
        done <= estimate && estimate <= ESTIMATE_FACTOR * done + ESTIMATE_SLACK,
        "estimated {estimate}, did {done}"
    );
}

#[test]
fn work_estimate_counts_a_consumers_published_metrics() {
    let with = |publish: bool| {
        let mut doc = json!({
            "title": "busy", "durationMs": 60_000,
            "queues": [{ "name": "q" }],
            "producers": [{ "name": "p", "queue": "q", "rate": { "count": 10, "everyMs": 1000, "body": "m{n}" } }],
            "consumers": [{ "name": "c", "queue": "q", "processing": { "fixedMs": 10 } }],
        });
        if publish {
            doc["consumers"][0]["publishMetrics"] = json!({ "namespace": "OrderProcessing" });
        }
        Simulation::new(scenario(doc), Config::default())
            .expect("loads")
            .work_estimate(60_000)
    };
    assert!(
        with(true) > with(false),
        "one PutMetricData a message is work"
    );
}
