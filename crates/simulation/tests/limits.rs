//! Scenario fields held to their ranges (`Scenario::validate`), so nothing
//! the simulation adds or multiplies overflows, and the engine's budgets
//! as a scenario's producers meet them: a refused send is a failed send,
//! and the run goes on.

use queuelab_engine::Config;
use queuelab_simulation::{Kind, Scenario, SimEvent, Simulation};
use serde_json::{json, Value};

fn load(value: Value) -> Result<Simulation, String> {
    let scenario: Scenario = serde_json::from_value(value).expect("a well-formed scenario");
    Simulation::new(scenario, Config::default()).map_err(|e| e.message)
}

fn refused(value: Value) -> String {
    match load(value) {
        Ok(_) => panic!("the scenario loaded"),
        Err(message) => message,
    }
}

fn consumer(fields: Value) -> Value {
    let mut c = json!({ "name": "c", "queue": "q", "processing": { "fixedMs": 10 } });
    for (k, v) in fields.as_object().unwrap() {
        c[k] = v.clone();
    }
    json!({ "title": "t", "durationMs": 10_000, "queues": [{ "name": "q" }], "consumers": [c] })
}

fn rate(rate: Value) -> Value {
    json!({ "title": "t", "durationMs": 10_000, "queues": [{ "name": "q" }],
            "producers": [{ "name": "p", "queue": "q", "rate": rate }] })
}

#[test]
fn a_poll_interval_of_0_ms_is_refused_naming_the_field() {
    let error = refused(consumer(json!({ "pollIntervalMs": 0 })));
    assert!(
        error.contains("consumers[0].pollIntervalMs must be a whole number of milliseconds from 1"),
        "{error}"
    );
    assert!(error.ends_with("got 0"), "{error}");
}

/// Issue 12: the settings form shows `rule` under the field `path` names.
#[test]
fn a_batch_size_out_of_range_names_its_field_and_rule_in_words() {
    for (size, got) in [(11, "11"), (0, "0"), (-3, "-3")] {
        let scenario: Scenario =
            serde_json::from_value(consumer(json!({ "batchSize": size }))).unwrap();
        let error = scenario.validate().expect_err("refused");
        assert_eq!(error.path, "consumers[0].batchSize");
        assert_eq!(error.rule, "a whole number from 1 to 10");
        assert_eq!(error.got, got);
        assert_eq!(
            error.to_string(),
            format!("consumers[0].batchSize must be a whole number from 1 to 10, got {got}")
        );
    }
    let error = refused(consumer(json!({ "waitTimeSeconds": 21 })));
    assert!(
        error.contains(
            "consumers[0].waitTimeSeconds must be a whole number of seconds from 0 to 20, got 21"
        ),
        "{error}"
    );
    assert_eq!(
        queuelab_simulation::rule_for("consumers[3].processing.fixedMs").unwrap(),
        "a whole number of milliseconds from 0 to 31536000000 (a year)"
    );
    assert_eq!(queuelab_simulation::rule_for("queues[0].name"), None);
}

/// The issue's `rate.everyMs` near 2^64 wrapped and sent a million messages
/// in one `advance(1)`; a later start trapped.
#[test]
fn a_rate_every_ms_near_2_to_the_64_is_refused() {
    let error = refused(rate(
        json!({ "everyMs": u64::MAX - 5, "count": 1_000_000, "body": "m" }),
    ));
    assert!(error.contains("producers[0].rate.everyMs"), "{error}");
    let error = refused(rate(
        json!({ "startMs": u64::MAX - 5, "everyMs": 10, "count": 3, "body": "m" }),
    ));
    assert!(error.contains("producers[0].rate.startMs"), "{error}");
}

#[test]
fn times_past_the_last_moment_are_refused() {
    let error = refused(consumer(json!({ "startMs": 1u64 << 60 })));
    assert!(error.contains("consumers[0].startMs"), "{error}");
    let mut late = consumer(json!({}));
    late["durationMs"] = json!(1u64 << 53);
    assert!(refused(late).contains("durationMs"));
}

#[test]
fn a_processing_time_past_a_year_is_refused() {
    let error = refused(consumer(
        json!({ "processing": { "uniformMs": { "min": 0, "max": u64::MAX } } }),
    ));
    assert!(
        error.contains("consumers[0].processing.uniformMs.max"),
        "{error}"
    );
}

#[test]
fn producers_count_budget_refusals_as_failed_sends_and_the_run_goes_on() {
    let scenario: Scenario = serde_json::from_value(rate(
        json!({ "everyMs": 100, "count": 50, "body": "order {n}" }),
    ))
    .unwrap();
    let config = Config {
        max_stored_messages: 20,
        ..Config::default()
    };
    let mut sim = Simulation::new(scenario, config).expect("loads");
    assert_eq!(sim.advance(10_000), 10_000);
    let producer = &sim.snapshot().producers[0];
    assert_eq!((producer.sent, producer.failed), (20, 30));
    let over_limit = sim
        .events(0)
        .filter(|e| {
            matches!(&e.kind, Kind::Simulation(SimEvent::ActionFailed { code, error, .. })
                if *code == "OverLimit" && error.contains("maxStoredMessages"))
        })
        .count();
    assert_eq!(over_limit, 30);
}

#[test]
fn the_side_effect_ledger_keeps_a_bounded_copy_of_a_body() {
    let body = "b".repeat(10_000);
    let mut sim = load(json!({
        "title": "t", "durationMs": 5_000, "queues": [{ "name": "q" }],
        "producers": [{ "name": "p", "queue": "q", "sends": [{ "atMs": 0, "body": body }] }],
        "consumers": [{ "name": "c", "queue": "q", "processing": { "fixedMs": 10 } }],
    }))
    .expect("loads");
    sim.advance(5_000);
    let ledger = sim.side_effects();
    assert_eq!(ledger.len(), 1);
    assert_eq!(
        ledger[0].body.chars().count(),
        queuelab_engine::MAX_ECHO_CHARS + 1
    );
    assert!(ledger[0].body.ends_with('…'));
}

/// `rule_for` names a field's rule from its path; a name that means other
/// things elsewhere is ranged only where it has that range.
#[test]
fn a_triggers_count_and_a_knobs_min_are_not_ranged_as_a_rates_count_and_a_processing_time() {
    use queuelab_simulation::rule_for;
    assert!(rule_for("producers[0].rate.count")
        .unwrap()
        .starts_with("a whole number from 0 to "));
    assert_eq!(rule_for("narration[2].when.count"), None);
    assert_eq!(rule_for("checkpoints[0].choices[1].when.count"), None);
    assert!(rule_for("consumers[1].processing.uniformMs.min")
        .unwrap()
        .contains("milliseconds"));
    assert_eq!(rule_for("knobs[0].min"), None);
    assert_eq!(rule_for("knobs[0].max"), None);
}

/// Every event of a worker's calls records its name: a megabyte-long one
/// ran a tab out of memory before this limit (a hostile share link).
#[test]
fn a_worker_name_or_side_effect_over_80_characters_is_refused_naming_the_field() {
    let long = "w".repeat(81);
    let error = refused(consumer(json!({ "name": long })));
    assert_eq!(
        error,
        "scenario: consumers[0].name must be at most 80 characters, got 81 characters"
    );
    let error = refused(consumer(json!({ "sideEffect": "x".repeat(1 << 20) })));
    assert_eq!(
        error,
        "scenario: consumers[0].sideEffect must be at most 80 characters, got 1048576 characters"
    );
    let mut producer = rate(json!({ "everyMs": 100, "count": 3, "body": "b" }));
    producer["producers"][0]["name"] = json!("é".repeat(81));
    let error = refused(producer);
    assert!(
        error.starts_with("scenario: producers[0].name must be at most 80 characters"),
        "{error}"
    );
    // 80 characters, counted as characters rather than bytes, are fine.
    assert!(load(consumer(
        json!({ "name": "é".repeat(80), "sideEffect": "ü".repeat(80) })
    ))
    .is_ok());
}

/// The page draws every queue, producer and worker: a share link with
/// 3,000 consumers froze its tab for 23 s.
#[test]
fn more_than_100_queues_producers_or_workers_are_refused_naming_the_list() {
    let queues: Vec<Value> = (0..101)
        .map(|i| json!({ "name": format!("q{i}") }))
        .collect();
    let error = refused(json!({ "title": "t", "durationMs": 1000, "queues": queues }));
    assert_eq!(
        error,
        "scenario: queues must be a list of at most 100 queues, got 101 queues"
    );
    let producers: Vec<Value> = (0..101)
        .map(|i| json!({ "name": format!("p{i}"), "queue": "q" }))
        .collect();
    let error = refused(
        json!({ "title": "t", "durationMs": 1000, "queues": [{ "name": "q" }], "producers": producers }),
    );
    assert!(
        error.starts_with("scenario: producers must be a list of at most 100 producers"),
        "{error}"
    );
    // Workers are counted with their replicas: 5 consumers of 20 are 100, one more is over.
    let worker = |i: usize, replicas: u64| json!({ "name": format!("w{i}"), "queue": "q", "replicas": replicas, "processing": { "fixedMs": 10 } });
    let scenario = |consumers: Vec<Value>| json!({ "title": "t", "durationMs": 1000, "queues": [{ "name": "q" }], "consumers": consumers });
    assert!(load(scenario((0..5).map(|i| worker(i, 20)).collect())).is_ok());
    let mut over: Vec<Value> = (0..5).map(|i| worker(i, 20)).collect();
    over.push(worker(5, 1));
    assert_eq!(
        refused(scenario(over)),
        "scenario: consumers must be a list of at most 100 workers (replicas counted), got 101 workers (replicas counted)"
    );
}

#[test]
fn names_a_scenario_repeats_are_refused_at_the_field() {
    let q = |name: &str| json!({ "name": name });
    let c = |name: &str, replicas: u64| json!({ "name": name, "queue": "a", "replicas": replicas, "processing": { "fixedMs": 1 } });
    let p = |name: &str| json!({ "name": name, "queue": "a" });
    let base = |queues: Value, producers: Value, consumers: Value| {
        json!({ "title": "t", "durationMs": 1000, "queues": queues,
                "producers": producers, "consumers": consumers })
    };
    let error = refused(base(json!([q("a"), q("a")]), json!([]), json!([])));
    assert!(
        error.contains("queues[1].name must be a name no other queue has")
            && error.contains("queues[0]"),
        "{error}"
    );
    let error = refused(base(
        json!([q("a")]),
        json!([]),
        json!([c("w", 1), c("w", 1)]),
    ));
    assert!(error.contains("consumers[1].name must be"), "{error}");
    // A replica of `w` is `w-2`: another consumer may not take that name.
    let error = refused(base(
        json!([q("a")]),
        json!([]),
        json!([c("w", 2), c("w-2", 1)]),
    ));
    assert!(
        error.contains("consumers[1].name") && error.contains("w-2"),
        "{error}"
    );
    let error = refused(base(
        json!([q("a")]),
        json!([p("shop"), p("shop")]),
        json!([]),
    ));
    assert!(error.contains("producers[1].name must be"), "{error}");
    let error = refused(base(json!([q("a")]), json!([p("w")]), json!([c("w", 1)])));
    assert!(error.contains("consumers[0].name must be"), "{error}");
    // Distinct names load.
    load(base(
        json!([q("a"), q("b")]),
        json!([p("shop")]),
        json!([c("w", 2), c("v", 1)]),
    ))
    .expect("loads");
}

#[test]
fn padded_bodies_past_the_scenarios_byte_budget_are_refused_naming_the_send() {
    // 10,000 sends of about 1 MiB each: 10 GB of bodies would freeze a tab.
    let sends: Vec<Value> = (0..10_000)
        .map(|i| json!({ "atMs": i, "body": format!("m{i}"), "padToBytes": 1_048_000 }))
        .collect();
    let error = refused(
        json!({ "title": "t", "durationMs": 20_000, "queues": [{ "name": "q" }],
                                "producers": [{ "name": "p", "queue": "q", "sends": sends }] }),
    );
    assert!(
        error.contains("producers[0].sends[16].padToBytes must be a size that keeps the scenario's padded bodies"),
        "{error}"
    );
}
