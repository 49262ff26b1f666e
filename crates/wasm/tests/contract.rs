//! The generated contract between the Rust crates and JavaScript, checked
//! for freshness: the TypeScript declarations of what the binding hands to
//! JavaScript (events, snapshots, the scenario, the defaults, the journal)
//! and of the options it takes in
//! `crates/wasm/src/contract.d.ts`, which the package's `queuelab.d.ts`
//! includes, and the scenario's JSON Schema in
//! `web/scenarios/scenario.schema.json`. Both come from the Rust types
//! (ts-rs and schemars, behind the `contract` feature, so the page's wasm
//! never carries them). The client's command classes (`web/client/sqs-commands.js`
//! and its `.d.ts`) come from the engine's one list of operations,
//! `Action`. A committed file that differs from what the types
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

use queuelab_engine::{AccessReason, ConditionMatch, StatementRef};
use queuelab_engine::{Action, Event, EventKind, KmsApi, KmsRequests, MessageId};
use queuelab_engine::{
    Counts, GroupSnapshot, MessagePage, MessageSnapshot, Peek, PeekAttribute, QueueCounts,
    QueueSnapshot, Snapshot,
};
use queuelab_host::{
    Budgets, Defaults, DispatchOptions, FullSnapshot, JournalCall, Limits, PlannedMoment,
    PlaygroundOptions, QueueDefaults, QueueMessagesOptions, RealismOptions, Since, SnapshotOptions,
};
use queuelab_simulation::cloudwatch::{
    AlarmState, AlarmTransition, MetricId, MetricsSnapshot, SeriesSnapshot, StatSet,
};
use queuelab_simulation::{
    Alarm, Behaviour, Bill, CallerBill, Checkpoint, Choice, Claim, Consumer, Count, EndCondition,
    Narration, Operation, Operator, OperatorCall, Outcome, Processing, Producer, PublishMetrics,
    QueueSpec, Rate, Redrive, ReplyMode, Requester, Responder, RetryBackoff, Scenario, Schedule,
    ScheduledSend, Trigger, TriggerEvent, UnlockCause, Window,
};
use queuelab_simulation::{
    AlarmBy, CheckFailure, CheckProgress, CheckReport, ConditionText, Doc, Explain, Fix, Goal,
    Knob, KnobChoice, KnobKind, KnobValue, KnobView, LabView, LeastPrivilege, MovedProblem, Need,
    NonFix, Off, OldestAge, Target, TopicBy,
};
use queuelab_simulation::{
    AlarmSnapshot, FailureSnapshot, HeldSnapshot, Kind, LogEvent, ProducerSnapshot, SideEffect,
    SimEvent, SimulationSnapshot, SubscriptionSnapshot, TopicSnapshot, WorkerSnapshot,
};
use queuelab_simulation::{
    BatchResponse, InvocationSnapshot, Lambda, LambdaHandler, LambdaSnapshot, PendingInvocation,
};
use queuelab_simulation::{
    Bucket, BucketNotification, BucketSnapshot, NotificationSnapshot, ObjectOperation,
};
use queuelab_simulation::{ComparisonOperator, Metrics, Statistic, TreatMissingData};
use queuelab_simulation::{DeleteObject, Offload, OffloadStyle, ReadPayloads};
use queuelab_simulation::{Encryption, EncryptionName, KeySpec, KmsEncryption};
use queuelab_simulation::{FieldKind, FieldWords, Vocabulary};
use queuelab_simulation::{FilterPolicyScope, Publish, PublishAttribute, Subscription, Topic};
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
    let (declared, used) = declare_every_type(&cfg, &mut out);
    let missing: Vec<_> = used.difference(&declared).collect();
    assert!(
        missing.is_empty(),
        "referenced but not declared: {missing:?}"
    );
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// Declares each type into `out` (its name into `declared`) and notes the
/// names its declaration refers to in `used`.
macro_rules! all {
    ($cfg:expr, $out:expr, $declared:expr, $used:expr; $($t:ty),* $(,)?) => {
        $(
            declare::<$t>($cfg, $out, $declared);
            referenced::<$t>($cfg, $used);
        )*
    };
}

/// Declares the types of the AWS neighbours and who may call: SNS topics,
/// S3 buckets, encryption and queue policies' decisions (the scenario's,
/// the snapshot's and the events').
fn declare_pattern_types(
    cfg: &Config,
    out: &mut String,
    declared: &mut BTreeSet<String>,
    used: &mut BTreeSet<String>,
) {
    all!(cfg, out, declared, used;
        // SNS topics.
        TopicSnapshot,
        SubscriptionSnapshot,
        FailureSnapshot,
        Topic,
        Subscription,
        FilterPolicyScope,
        Publish,
        PublishAttribute,
        // S3 buckets.
        BucketSnapshot,
        NotificationSnapshot,
        Bucket,
        BucketNotification,
        ObjectOperation,
        // Lambda functions and their event source mappings.
        LambdaSnapshot,
        InvocationSnapshot,
        PendingInvocation,
        Lambda,
        LambdaHandler,
        BatchResponse,
        // CloudWatch metrics and alarms.
        AlarmState,
        AlarmTransition,
        MetricId,
        MetricsSnapshot,
        SeriesSnapshot,
        StatSet,
        Metrics,
        Statistic,
        ComparisonOperator,
        TreatMissingData,
        // Encryption.
        KmsRequests,
        KmsApi,
        KeySpec,
        Encryption,
        EncryptionName,
        KmsEncryption,
        // Queue policies' decisions.
        AccessReason,
        StatementRef,
        ConditionMatch,
    );
}

/// Declares a lab's types (its goal, knobs, explanations, check and view).
fn declare_lab_types(
    cfg: &Config,
    out: &mut String,
    declared: &mut BTreeSet<String>,
    used: &mut BTreeSet<String>,
) {
    all!(cfg, out, declared, used;
        Goal,
        OldestAge,
        LeastPrivilege,
        AlarmBy,
        TopicBy,
        Need,
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
    );
}

/// Declares every type the binding hands over, in order, into `out`: the
/// names declared, and the names their declarations refer to.
fn declare_every_type(cfg: &Config, out: &mut String) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut declared, mut used) = (BTreeSet::new(), BTreeSet::new());
    let (d, u) = (&mut declared, &mut used);
    declare_pattern_types(cfg, out, d, u);
    all!(cfg, out, d, u;
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
        Bill,
        CallerBill,
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
        Requester,
        ReplyMode,
        Responder,
        Operator,
        OperatorCall,
        Operation,
        Consumer,
        Processing,
        Behaviour,
        PublishMetrics,
        ReadPayloads,
        DeleteObject,
        Offload,
        OffloadStyle,
        Window,
        RetryBackoff,
        Narration,
        Checkpoint,
        Choice,
        Trigger,
        TriggerEvent,
        Count,
        UnlockCause,
        Claim,
        EndCondition,
        Alarm,
    );
    declare_lab_types(cfg, out, d, u);
    all!(cfg, out, d, u;
        // The scenario format in words.
        Vocabulary,
        FieldWords,
        FieldKind,
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
    (declared, used)
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
    check_all(&[(path, fresh)]);
}

/// `check` of several files, each written when blessing before any fails.
fn check_all(files: &[(&str, &str)]) {
    let mut golden = queuelab_golden::Golden::from_env();
    for (path, fresh) in files {
        let file = root().join(path);
        if !golden.bless(&file, fresh) {
            let committed = std::fs::read_to_string(&file).unwrap_or_default();
            assert!(
                committed == *fresh,
                "{path} is stale: it is generated from the Rust types. Regenerate it with\n\
                 QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract\n\
                 and commit the result."
            );
        }
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

const REGENERATE: &str =
    "Regenerate: QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract";

/// A service whose command classes the built-in clients use.
struct Service {
    /// "SQS": the operations' owner, in comments.
    word: &'static str,
    /// Whose list of operations it is, for the header.
    source: &'static str,
    /// The SDK package the classes are named after.
    sdk: &'static str,
    /// The module with each operation's `<Name>Input` and `<Name>Output`.
    shapes: &'static str,
    /// The interface of the client's camelCase methods.
    methods: &'static str,
    example: &'static str,
    names: Vec<&'static str>,
}

fn sqs_service() -> Service {
    Service {
        word: "SQS",
        source: "the engine's Action list",
        sdk: "@aws-sdk/client-sqs",
        shapes: "./sqs-client.js",
        methods: "SqsClientMethods",
        example: "SendMessage",
        names: Action::BY_NAME.iter().map(|a| a.name()).collect(),
    }
}

fn sns_service() -> Service {
    let mut names = queuelab_simulation::sns::api::OPERATIONS.to_vec();
    names.sort_unstable();
    Service {
        word: "SNS",
        source: "the simulation's SNS operations (sns/api.rs)",
        sdk: "@aws-sdk/client-sns",
        shapes: "./sns-client.js",
        methods: "SnsClientMethods",
        example: "Publish",
        names,
    }
}

fn s3_service() -> Service {
    let mut names = queuelab_simulation::s3::api::OPERATIONS.to_vec();
    names.sort_unstable();
    Service {
        word: "S3",
        source: "the simulation's S3 operations (s3/api.rs)",
        sdk: "@aws-sdk/client-s3",
        shapes: "./s3-client.js",
        methods: "S3ClientMethods",
        example: "PutObject",
        names,
    }
}

fn cloudwatch_service() -> Service {
    let mut names = queuelab_simulation::cloudwatch::api::OPERATIONS.to_vec();
    names.sort_unstable();
    Service {
        word: "CloudWatch",
        source: "the simulation's CloudWatch operations (cloudwatch/api.rs)",
        sdk: "@aws-sdk/client-cloudwatch",
        shapes: "./cloudwatch-client.js",
        methods: "CloudWatchClientMethods",
        example: "PutMetricData",
        names,
    }
}

/// The client's commands: one class per operation, in alphabetical order,
/// named as in the service's SDK package (named imports need them written out).
fn commands_js(service: &Service) -> String {
    let Service {
        source,
        sdk,
        example,
        ..
    } = service;
    let mut out = format!(
        "// Generated from {source} by crates/wasm/tests/contract.rs; do not edit.\n// {REGENERATE}\n\n\
         /** Base of the command classes (service-client.js): `input` is kept as given, as the SDK does. */\n\
         import {{ Command }} from \"./service-client.js\";\n\n\
         export {{ Command }};\n\n\
         // One class per operation, named as in {sdk} so that swapping\n\
         // the import is all it takes to move to the SDK.\n"
    );
    for action in &service.names {
        out.push_str(&format!(
            "export class {action}Command extends Command {{ static operation = \"{action}\"; }}\n"
        ));
    }
    out.push_str(&format!(
        "\n/** Operation name (\"{example}\") -> command class ({example}Command). */\n"
    ));
    out.push_str("export const commands = Object.freeze({\n");
    for action in &service.names {
        out.push_str(&format!("  {action}: {action}Command,\n"));
    }
    out.push_str("});\n\n");
    out.push_str(&format!(
        "/** The {} {} operations the engine answers, in alphabetical order. */\n\
         export const OPERATIONS = Object.freeze(Object.keys(commands));\n",
        service.names.len(),
        service.word
    ));
    out
}

/// The declarations of `commands_js`, and the client's camelCase methods.
/// Each operation's `<Name>Input` and `<Name>Output` are written by hand in
/// the client's own declarations (`shapes`).
fn commands_dts(service: &Service) -> String {
    let Service {
        source,
        shapes: module,
        methods,
        example,
        ..
    } = service;
    let names = &service.names;
    let shapes: Vec<String> = names
        .iter()
        .flat_map(|n| [format!("{n}Input"), format!("{n}Output")])
        .collect();
    let mut out = format!("// Generated from {source} by crates/wasm/tests/contract.rs; do not edit.\n// {REGENERATE}\n\nimport type {{\n  MetadataBearer,\n");
    for shape in &shapes {
        out.push_str(&format!("  {shape},\n"));
    }
    out.push_str(&format!("}} from \"{module}\";\n\n"));
    out.push_str("export type OperationName =\n");
    for name in names {
        out.push_str(&format!("  | \"{name}\"\n"));
    }
    out.push_str(&format!(
        ";\n\n/** The {} operations, in alphabetical order. */\n\
         export declare const OPERATIONS: readonly OperationName[];\n\n\
         import type {{ Command, InputArgs }} from \"./service-client.js\";\n\
         export type {{ Command, InputArgs }} from \"./service-client.js\";\n\n",
        names.len()
    ));
    for name in names {
        out.push_str(&format!(
            "export declare class {name}Command extends Command<{name}Input, {name}Output> {{ static readonly operation: \"{name}\" }}\n"
        ));
    }
    let first = example.to_string();
    out.push_str(&format!("\n/** Operation name -> command class: `new commands.{first}(input)`. */\nexport declare const commands: {{\n"));
    for name in names {
        out.push_str(&format!("  readonly {name}: typeof {name}Command;\n"));
    }
    let method = |name: &str| format!("{}{}", name[..1].to_lowercase(), &name[1..]);
    out.push_str(&format!(
        "}};\n\n/** One camelCase method per operation: `client.{}(input)` is `client.send(new {first}Command(input))`. */\nexport interface {methods} {{\n",
        method(&first)
    ));
    for name in names {
        out.push_str(&format!(
            "  {}(...[input]: InputArgs<{name}Input>): Promise<{name}Output & MetadataBearer>;\n",
            method(name)
        ));
    }
    out.push_str("}\n");
    out
}

#[test]
fn client_commands_are_fresh() {
    let (sqs, sns, s3) = (sqs_service(), sns_service(), s3_service());
    let cloudwatch = cloudwatch_service();
    check_all(&[
        (
            "web/client/cloudwatch-commands.js",
            &commands_js(&cloudwatch),
        ),
        (
            "web/client/cloudwatch-commands.d.ts",
            &commands_dts(&cloudwatch),
        ),
        ("web/client/s3-commands.js", &commands_js(&s3)),
        ("web/client/s3-commands.d.ts", &commands_dts(&s3)),
        ("web/client/sqs-commands.js", &commands_js(&sqs)),
        ("web/client/sqs-commands.d.ts", &commands_dts(&sqs)),
        ("web/client/sns-commands.js", &commands_js(&sns)),
        ("web/client/sns-commands.d.ts", &commands_dts(&sns)),
    ]);
}
