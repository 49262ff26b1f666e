//! The generated contract between the Rust crates and JavaScript, checked
//! for freshness: the TypeScript declarations of what the binding hands to
//! JavaScript (events, snapshots, the scenario, the defaults, the journal)
//! and of the options it takes in
//! `crates/wasm/src/contract.d.ts`, which the package's `queuelab.d.ts`
//! includes, and the scenario's JSON Schema in
//! `web/scenarios/scenario.schema.json`. Both come from the Rust types
//! (ts-rs and schemars, behind the `contract` feature, so the page's wasm
//! never carries them). A committed file that differs from what the types
//! give fails this test; regenerate with
//!
//! ```sh
//! QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract
//! ```
//!
//! which writes both files and then fails (every blessing run does): run it
//! again without the variable to check them.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::PathBuf;

use queuelab_engine::{
    Counts, GroupSnapshot, MessagePage, MessageSnapshot, Peek, PeekAttribute, QueueCounts,
    QueueSnapshot, Snapshot,
};
use queuelab_engine::{Event, EventKind, MessageId};
use queuelab_host::{
    Budgets, Defaults, DispatchOptions, FullSnapshot, JournalCall, Limits, PlannedMoment,
    PlaygroundOptions, QueueDefaults, QueueMessagesOptions, RealismOptions, Since, SnapshotOptions,
};
use queuelab_simulation::{
    Alarm, Behaviour, Checkpoint, Choice, Consumer, EndCondition, Narration, Outcome, Processing,
    Producer, QueueSpec, Rate, Redrive, RetryBackoff, Scenario, Schedule, ScheduledSend, Trigger,
    TriggerEvent, Window,
};
use queuelab_simulation::{
    AlarmSnapshot, HeldSnapshot, Kind, LogEvent, ProducerSnapshot, SideEffect, SimEvent,
    SimulationSnapshot, WorkerSnapshot,
};
use queuelab_simulation::{
    CheckFailure, CheckProgress, CheckReport, ConditionText, Doc, Explain, Fix, Goal, Knob,
    KnobChoice, KnobKind, KnobValue, KnobView, LabView, MovedProblem, NonFix, Off, OldestAge,
    Target,
};
use serde_json::Value;
use ts_rs::{Config, TS};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One declaration, with its doc comment, exported.
fn declare<T: TS + 'static>(cfg: &Config, out: &mut String, names: &mut BTreeSet<String>) {
    if let Some(docs) = T::docs() {
        out.push_str(&docs);
    }
    out.push_str("export ");
    out.push_str(&T::decl(cfg));
    out.push_str("\n\n");
    names.insert(T::ident(cfg));
}

/// Every type a declaration refers to, so none is left undeclared.
fn referenced<T: TS + 'static>(cfg: &Config, out: &mut BTreeSet<String>) {
    out.extend(T::dependencies(cfg).into_iter().map(|d| d.ts_name));
}

fn typescript() -> String {
    // The binding hands values over as JSON: every integer is a JS number
    // (virtual times and counts stay far below 2^53).
    let cfg = Config::new().with_large_int("number");
    let mut out = String::from(
        "// Generated from the Rust types by crates/wasm/tests/contract.rs (ts-rs); do not edit.\n\
         // Regenerate: QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract\n\n",
    );
    let (mut declared, mut used) = (BTreeSet::new(), BTreeSet::new());
    macro_rules! all {
        ($($t:ty),* $(,)?) => {
            $(
                declare::<$t>(&cfg, &mut out, &mut declared);
                referenced::<$t>(&cfg, &mut used);
            )*
        };
    }
    all!(
        // The event log.
        Event,
        EventKind,
        LogEvent,
        Kind,
        SimEvent,
        MessageId,
        // Snapshots.
        FullSnapshot,
        Snapshot,
        QueueSnapshot,
        MessageSnapshot,
        GroupSnapshot,
        Counts,
        QueueCounts,
        SimulationSnapshot,
        Outcome,
        ProducerSnapshot,
        WorkerSnapshot,
        HeldSnapshot,
        SideEffect,
        AlarmSnapshot,
        Peek,
        PeekAttribute,
        MessagePage,
        // The scenario as parsed, defaults filled in.
        Scenario,
        QueueSpec,
        Redrive,
        Producer,
        ScheduledSend,
        Rate,
        Schedule,
        Consumer,
        Processing,
        Behaviour,
        Window,
        RetryBackoff,
        Narration,
        Checkpoint,
        Choice,
        Trigger,
        TriggerEvent,
        EndCondition,
        Alarm,
        // A lab's parts.
        Goal,
        OldestAge,
        Knob,
        Target,
        KnobValue,
        Off,
        Explain,
        Doc,
        Fix,
        NonFix,
        CheckReport,
        CheckFailure,
        MovedProblem,
        CheckProgress,
        LabView,
        ConditionText,
        KnobView,
        KnobKind,
        KnobChoice,
        Defaults,
        QueueDefaults,
        PlannedMoment,
        Limits,
        Budgets,
        // The binding's options and the journal (the host's structs).
        PlaygroundOptions,
        RealismOptions,
        DispatchOptions,
        SnapshotOptions,
        QueueMessagesOptions,
        Since,
        JournalCall,
    );
    let missing: Vec<_> = used.difference(&declared).collect();
    assert!(
        missing.is_empty(),
        "referenced but not declared: {missing:?}"
    );
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// Drops what validators of draft-07 do not know (`format: "uint64"`,
/// which Ajv's strict mode refuses), and `null` as a value of an optional
/// field: a field is left out to mean "not set" (the engine happens to
/// read `null` as absent, but the format does not promise it).
fn tidy(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("format");
            if map.get("default") == Some(&Value::Null) {
                map.remove("default");
            }
            if let Some(Value::Array(types)) = map.get_mut("type") {
                types.retain(|t| t != "null");
                if let [one] = types.as_slice() {
                    let one = one.clone();
                    map.insert("type".into(), one);
                }
            }
            let null = serde_json::json!({ "type": "null" });
            if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
                branches.retain(|b| *b != null);
            }
            // `allOf`/`anyOf` of one schema (schemars wraps a `$ref` that
            // has a description) is that schema.
            for key in ["allOf", "anyOf"] {
                if let Some(Value::Array(branches)) = map.get(key) {
                    if let [Value::Object(one)] = branches.as_slice() {
                        let one = one.clone();
                        map.remove(key);
                        map.extend(one);
                    }
                }
            }
            // A default object would list `null` for its optional fields.
            if matches!(map.get("default"), Some(Value::Object(_))) {
                map.remove("default");
            }
            map.values_mut().for_each(tidy);
        }
        Value::Array(items) => items.iter_mut().for_each(tidy),
        _ => {}
    }
}

fn schema() -> String {
    let generator = schemars::generate::SchemaSettings::draft07().into_generator();
    let mut schema = generator.into_root_schema_for::<Scenario>().to_value();
    tidy(&mut schema);
    let map = schema.as_object_mut().expect("an object schema");
    map.insert(
        "$id".into(),
        "https://queuelab.example/scenario.schema.json".into(),
    );
    map.insert(
        "$comment".into(),
        "Generated from the Rust types by crates/wasm/tests/contract.rs (schemars); do not edit. \
         Regenerate: QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract"
            .into(),
    );
    serde_json::to_string_pretty(&schema).expect("serializable") + "\n"
}

/// Compares `fresh` with the committed file, or writes it when blessing
/// (and then fails, as every blessing run does).
fn check(path: &str, fresh: &str) {
    let file = root().join(path);
    let mut golden = queuelab_golden::Golden::from_env();
    if !golden.bless(&file, fresh) {
        let committed = std::fs::read_to_string(&file).unwrap_or_default();
        assert!(
            committed == fresh,
            "{path} is stale: it is generated from the Rust types. Regenerate it with\n\
             QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract\n\
             and commit the result."
        );
    }
    golden.finish();
}

#[test]
fn typescript_declarations_are_fresh() {
    check("crates/wasm/src/contract.d.ts", &typescript());
}

#[test]
fn scenario_schema_is_fresh() {
    check("web/scenarios/scenario.schema.json", &schema());
}
