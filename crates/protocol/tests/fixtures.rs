//! Scripted sessions from `tests/fixtures/scripts` against their expected
//! responses, event logs and snapshots. `tests/node/fixtures.test.mjs` runs
//! the same scripts in wasm against the same files. Bless new expectations
//! with `QUEUELAB_BLESS=1` (the blessing run then fails: run again without it).

use std::fs;
use std::path::{Path, PathBuf};

use queuelab_engine::{Config, Engine};
use queuelab_golden::Golden;
use queuelab_protocol::{answered_polls, dispatch, Dispatched, Response};
use serde_json::{json, Value};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/scripts")
}

/// Replaces `"$N.path"` strings with fields of earlier response bodies.
fn resolve(value: &Value, responses: &[Value]) -> Value {
    match value {
        Value::String(s) if s.starts_with('$') => {
            let mut parts = s[1..].split('.');
            let step: usize = parts.next().and_then(|n| n.parse().ok()).expect("$N.path");
            parts
                .fold(&responses[step]["body"], |v, key| {
                    match key.parse::<usize>() {
                        Ok(i) => &v[i],
                        Err(_) => &v[key],
                    }
                })
                .clone()
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| resolve(v, responses)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), resolve(v, responses)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn recorded(response: &Response) -> Value {
    json!({ "status": response.status, "body": response.json() })
}

fn run(script: &Value) -> Value {
    let mut engine = Engine::new(Config {
        seed: script["seed"].as_u64().unwrap_or(0),
        ..Config::default()
    });
    let mut responses: Vec<Value> = Vec::new();
    let mut waiting = Vec::new();
    for step in script["steps"].as_array().expect("steps") {
        if let Some(ms) = step["advance"].as_u64() {
            engine.advance(ms);
            responses.push(json!({ "advance": ms }));
        } else {
            let target = format!("AmazonSQS.{}", step["call"].as_str().expect("call"));
            let body = resolve(&step["body"], &responses).to_string();
            match dispatch(&mut engine, &target, &body, step["caller"].as_str()) {
                Dispatched::Done(response) => responses.push(recorded(&response)),
                Dispatched::Waiting(poll) => {
                    waiting.push((poll, responses.len()));
                    responses.push(json!("waiting"));
                }
            }
        }
        for (poll, response) in answered_polls(&mut engine) {
            if let Some((_, index)) = waiting.iter().find(|(p, _)| *p == poll) {
                responses[*index] = recorded(&response);
            }
        }
    }
    let events: Vec<Value> = engine
        .events(0)
        .map(|e| serde_json::to_value(e).expect("events serialize"))
        .collect();
    json!({
        "responses": responses,
        "events": events,
        "snapshot": serde_json::to_value(engine.snapshot()).expect("snapshot serializes"),
    })
}

#[test]
fn scripted_sessions_produce_their_expected_responses_events_and_snapshots() {
    let mut golden = Golden::from_env();
    let mut scripts: Vec<PathBuf> = fs::read_dir(fixtures())
        .expect("tests/fixtures/scripts")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| !p.to_string_lossy().ends_with(".expected.json"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty(), "no scripts in {:?}", fixtures());
    for path in scripts {
        let script: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        let actual = run(&script);
        let expected_path = path.with_extension("expected.json");
        let text = serde_json::to_string_pretty(&actual).unwrap() + "\n";
        if golden.bless(&expected_path, &text) {
            continue;
        }
        let expected: Value =
            serde_json::from_str(&fs::read_to_string(&expected_path).unwrap_or_else(|_| {
                panic!("{expected_path:?} missing: run with QUEUELAB_BLESS=1")
            }))
            .unwrap();
        assert_eq!(
            actual, expected,
            "{path:?} no longer produces {expected_path:?}; if the change is intended, \
             re-run with QUEUELAB_BLESS=1 and review the diff"
        );
    }
    golden.finish();
}
