//! Queuelab for JavaScript: the `Playground` class.
//!
//! The only crate that knows about JavaScript. Every method decodes its
//! arguments, calls the engine or the protocol layer, and encodes the result
//! with one configured serializer. Misuse (bad options, a negative time)
//! throws a real `Error`: a `TypeError` for an argument of the wrong type
//! (checked here, before anything reaches the allocator), a `RangeError`
//! for a number outside its range. SQS errors are ordinary HTTP-style
//! answers with status 400/403/404, as from AWS.

use std::collections::BTreeMap;

use js_sys::{Function, JsString, Promise, Reflect};
use queuelab_engine::{is_caller_name, Config, PollId, Realism, Snapshot, MAX_CALLER_CHARS};
use queuelab_protocol::{dispatch, oversized, poll_response, Dispatched, MAX_REQUEST_BYTES};
use queuelab_simulation::{
    thousands, Consumer, Producer, Scenario, Simulation, SimulationSnapshot,
};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

mod args;
mod json_path;
mod lab_check;
mod response;
mod scenario_error;

use args::{copy_options, string_arg, whole_number_arg};
pub use lab_check::LabCheck;

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

// Events, snapshots, the scenario and the defaults: generated from the
// Rust types by tests/contract.rs (ts-rs), never edited by hand.
#[wasm_bindgen(typescript_custom_section)]
const GENERATED_TYPES: &'static str = include_str!("contract.d.ts");

// The binding's own option and answer shapes.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Options for `new Playground(...)`. Every field is optional. */
export interface PlaygroundOptions {
  /** Seed of the engine's PRNG (PCG-64); same seed + same calls = same results. Default 0
   * (with `fromScenario`, the scenario's own seed). */
  seed?: number;
  /** Region in queue URLs and ARNs. Default "us-east-1". */
  region?: string;
  /** Account id in queue URLs and ARNs. Default "000000000000". */
  accountId?: string;
  /** Epoch milliseconds that virtual time 0 stands for. Default 2024-01-01T00:00:00Z.
   * At most `limits().maxStartEpochMs` (9999-12-31T23:59:59.999Z), so every timestamp
   * is an exact integer and a valid `Date` (timestamps stop at the last `Date`). */
  startEpochMs?: number;
  /** How many recent events the log keeps. Default 100000, at most
   * `limits().largestBudgets.eventCapacity`. */
  eventCapacity?: number;
  /** Budget: bytes of stored messages (bodies and attributes) across every queue.
   * Default `limits().defaultBudgets.maxStoredBytes` (256 MiB), from 1 to
   * `limits().largestBudgets.maxStoredBytes`. Past it, a send answers `OverLimit` naming this option. */
  maxStoredBytes?: number;
  /** Budget: messages stored across every queue. Default
   * `limits().defaultBudgets.maxStoredMessages` (1,000,000), from 1 to
   * `limits().largestBudgets.maxStoredMessages`. Past it, a send answers `OverLimit`. */
  maxStoredMessages?: number;
  /** Budget: queues that may exist at once. Default `limits().defaultBudgets.maxQueues`
   * (200,000), from 1 to `limits().largestBudgets.maxQueues`. Past it, CreateQueue answers `OverLimit`. */
  maxQueues?: number;
  /** Teaching knobs, all off (0) by default. */
  realism?: {
    /** Standard short polls see each visible message with this probability. */
    shortPollSampleRate?: number;
    /** Probability that a standard-queue delete misses a copy (the message comes back). */
    duplicateDeliveryProbability?: number;
    /** Probability that a receive returns fewer messages than it could. */
    fewerMessagesProbability?: number;
  };
}

/** Per-call options for `dispatch`. */
export interface DispatchOptions {
  /** Who makes the call, as the event log should name them ("worker-1"):
   * at most 80 characters (`limits().maxCallerChars`; a longer one is a
   * RangeError), since every event of the call records it. */
  caller?: string;
}

/** Options for `snapshot(...)`. */
export interface SnapshotOptions {
  /** List only each queue's first N stored messages (in queue order, the
   * order the page draws them), and only their FIFO groups; each queue then
   * says how many it left out (`messagesOmitted`, `groupsOmitted`). Its
   * counts (`visible`, `inFlight`, `delayed`) always cover every message.
   * A window also lists at most `limits().snapshotWindowBytes` (1 MiB) of
   * messages across its queues, in queue order: past it, the rest are
   * counted in `messagesOmitted` too. 0 gives every queue's settings and
   * counts without messages. A whole number; default: every message. A
   * full snapshot listing more than 1,000,000 messages, or more than
   * 256 MiB of JSON, is refused with an Error that says to ask for a
   * window. Every message carries its body's first
   * `limits().bodyPreviewBytes` (1 KiB) with `bodyBytes` and
   * `bodyTruncated`; `peek(messageId)` gives the whole body. (For counts
   * alone, `counts()` is cheaper.) */
  messagesPerQueue?: number;
  /** List in `simulation.sideEffects` only the side effects performed at or
   * after event number N: pass the `nextEventSeq` of your previous snapshot
   * and merge the entries by `messageId` into the list you keep (each entry
   * is whole: its count and performers so far; new ones come in the order
   * they first happened). A whole number; default 0: every side effect. */
  sideEffectsSince?: number;
}

/** Options for `queueMessages(queueUrl, ...)`: which page of the queue. */
export interface QueueMessagesOptions {
  /** How many messages to skip, in queue order. A whole number; default 0. */
  offset?: number;
  /** How many messages at most: a whole number from 0 to 10000; default 100. */
  limit?: number;
}

/** An SQS answer, as AWS's HTTP endpoint would give it. */
export interface SqsResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON text: the result, or {"__type": "com.amazonaws.sqs#...", "message": "..."}. */
  body: string;
}

"#;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct PlaygroundOptions {
    seed: Option<u64>,
    region: Option<String>,
    account_id: Option<String>,
    // Read as numbers and checked by `whole`, so that a bad value is
    // refused naming its option and range.
    start_epoch_ms: Option<f64>,
    event_capacity: Option<f64>,
    max_stored_bytes: Option<f64>,
    max_stored_messages: Option<f64>,
    max_queues: Option<f64>,
    /// Checked and decoded on its own, so its unknown fields are caught too.
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    realism: JsValue,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct RealismOptions {
    short_poll_sample_rate: Option<f64>,
    duplicate_delivery_probability: Option<f64>,
    fewer_messages_probability: Option<f64>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct DispatchOptions {
    caller: Option<String>,
}

/// The engine's snapshot with the scenario's workers and counts beside it.
#[derive(Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(rename = "Snapshot"))]
pub struct FullSnapshot {
    #[serde(flatten)]
    engine: Snapshot,
    /// The scenario's part (empty lists without a scenario).
    simulation: SimulationSnapshot,
}

/// What a queue, a consumer and a producer get for what they leave out,
/// from the engine's settings and the scenario format's own defaults, so
/// that the page never keeps a copy.
#[derive(Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct Defaults {
    queue: QueueDefaults,
    /// A consumer given only its required fields (empty names, processing
    /// `{ fixedMs: 0 }`): every other field is its default.
    consumer: Consumer,
    /// A producer given only its name and queue.
    producer: Producer,
}

/// A moment a timeline marks before the run: a scene-setting narration
/// line, or a checkpoint's question (`checkpoint`).
#[derive(Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct PlannedMoment {
    t: f64,
    text: String,
    checkpoint: bool,
}

/// SQS's queue attribute defaults, named as in a scenario's queue.
#[derive(Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct QueueDefaults {
    visibility_timeout_seconds: u32,
    delay_seconds: u32,
    message_retention_period_seconds: u32,
    receive_message_wait_time_seconds: u32,
    maximum_message_size: u32,
}

impl Defaults {
    /// The defaults, read from where they are decided.
    pub fn new() -> Self {
        let settings = queuelab_engine::Settings::default();
        // The scenario format's defaults are serde's: parse the smallest
        // valid consumer and producer.
        let consumer = r#"{"name": "", "queue": "", "processing": {"fixedMs": 0}}"#;
        let producer = r#"{"name": "", "queue": ""}"#;
        Defaults {
            queue: QueueDefaults {
                visibility_timeout_seconds: settings.visibility_timeout,
                delay_seconds: settings.delay_seconds,
                message_retention_period_seconds: settings.message_retention_period,
                receive_message_wait_time_seconds: settings.receive_wait_seconds,
                maximum_message_size: settings.maximum_message_size,
            },
            consumer: serde_json::from_str(consumer).expect("a minimal consumer parses"),
            producer: serde_json::from_str(producer).expect("a minimal producer parses"),
        }
    }
}

impl Default for Defaults {
    fn default() -> Self {
        Self::new()
    }
}

/// Bounds a host needs before it runs anything, read from where they are
/// decided (the page keeps no copy). Units of work are those of
/// `Playground.workEstimate`: one engine call, one timer firing, or one
/// producer or worker action.
#[derive(Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    /// Units of work a host runs without asking the learner first (a share
    /// link that needs more opens paused and offers to run it).
    max_work_without_asking: u64,
    /// Units of work a scenario's whole run (0 to `durationMs`) may take:
    /// `fromScenario` refuses a scenario estimated past it.
    max_scenario_work: u64,
    /// The last moment virtual time can reach, in ms (2^53 − 1: every
    /// time stays an exact JavaScript integer).
    max_virtual_ms: u64,
    /// The latest `startEpochMs` (9999-12-31T23:59:59.999Z).
    max_start_epoch_ms: u64,
    /// The longest span a scenario may give (a poll interval, a rate's
    /// step, a processing time): one year, in ms.
    max_span_ms: u64,
    /// The most sends one producer's `rate` makes.
    max_rate_count: u64,
    /// The most characters of a caller's value an error message repeats.
    max_echo_chars: usize,
    /// The longest name of who makes a call: a scenario's producer or
    /// consumer (and a consumer's `sideEffect`), or `dispatch`'s `caller`.
    max_caller_chars: usize,
    /// The bytes of a body a snapshot message carries (`body`, cut on a
    /// character boundary; `bodyBytes` is the whole length, `peek` the
    /// whole body).
    body_preview_bytes: usize,
    /// The bytes of messages (about their JSON) a windowed snapshot lists
    /// at most, across its queues; past it, `messagesOmitted` counts the rest.
    snapshot_window_bytes: usize,
    /// The most bytes one `dispatch` may carry (target and body, as UTF-8):
    /// past it the answer is a 413 before the text is read.
    max_request_bytes: usize,
    /// The messages whose side effects the simulation keeps in detail (the
    /// first ones handled); the snapshot's `sideEffectsOmitted` counts the rest.
    max_side_effect_details: usize,
    /// What a playground gets when its options leave a budget out.
    default_budgets: Budgets,
    /// The largest value each budget option accepts.
    largest_budgets: Budgets,
}

/// The engine's budgets, named as the options that set them.
#[derive(Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Budgets {
    max_stored_bytes: u64,
    max_stored_messages: u64,
    max_queues: usize,
    event_capacity: usize,
}

impl Limits {
    pub fn new() -> Self {
        use queuelab_engine as engine;
        let d = Config::default();
        Limits {
            max_work_without_asking: queuelab_simulation::MAX_WORK_WITHOUT_ASKING,
            max_scenario_work: queuelab_simulation::MAX_SCENARIO_WORK,
            max_virtual_ms: engine::MAX_VIRTUAL_MS,
            max_start_epoch_ms: engine::MAX_START_EPOCH_MS,
            max_span_ms: queuelab_simulation::MAX_SPAN_MS,
            max_rate_count: queuelab_simulation::MAX_RATE_COUNT,
            max_echo_chars: engine::MAX_ECHO_CHARS,
            max_caller_chars: engine::MAX_CALLER_CHARS,
            body_preview_bytes: engine::BODY_PREVIEW_BYTES,
            snapshot_window_bytes: engine::SNAPSHOT_WINDOW_BYTES,
            max_request_bytes: MAX_REQUEST_BYTES,
            max_side_effect_details: queuelab_simulation::MAX_SIDE_EFFECT_DETAILS,
            default_budgets: Budgets {
                max_stored_bytes: d.max_stored_bytes,
                max_stored_messages: d.max_stored_messages,
                max_queues: d.max_queues,
                event_capacity: d.event_capacity,
            },
            largest_budgets: Budgets {
                max_stored_bytes: engine::MAX_STORED_BYTES,
                max_stored_messages: engine::MAX_STORED_MESSAGES,
                max_queues: engine::MAX_QUEUES,
                event_capacity: engine::MAX_EVENT_CAPACITY,
            },
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::new()
    }
}

/// The names of the SQS operations the engine answers (`"SendMessage"`, …),
/// in alphabetical order: the protocol's `OPERATIONS` table.
#[wasm_bindgen(unchecked_return_type = "string[]")]
pub fn operations() -> Result<JsValue, JsError> {
    let names: Vec<&str> = queuelab_protocol::OPERATIONS
        .iter()
        .map(|(name, _)| *name)
        .collect();
    to_js(&names)
}

/// Queue attribute, consumer and producer defaults (see `Defaults`).
#[wasm_bindgen(unchecked_return_type = "Defaults")]
pub fn defaults() -> Result<JsValue, JsError> {
    to_js(&Defaults::new())
}

/// The bounds of work and time (see `Limits`).
#[wasm_bindgen(unchecked_return_type = "Limits")]
pub fn limits() -> Result<JsValue, JsError> {
    to_js(&Limits::new())
}

/// A lab as a page shows it (`LabView`): the goal's conditions in words,
/// the knobs with their kinds, ranges and choices, the knob values the
/// scenario has now, and the explanation; `null` for a scenario without
/// a goal. A malformed scenario throws like `fromScenario`.
#[wasm_bindgen(js_name = labView, unchecked_return_type = "LabView | null")]
pub fn lab_view(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, JsValue> {
    let lab = parse_lab("labView", &text)?;
    match lab.lab_view() {
        Some(view) => Ok(to_js(&view)?),
        None => Ok(JsValue::NULL),
    }
}

/// The scenario the learner runs: the lab (its JSON text) with `settings`
/// (`{ knobId: value }`, partial: the others keep the file's), and with
/// `seed` when one is given (a check's failing seed), as a `Scenario`
/// object with every field set (a field not set is `null`), so two such
/// scenarios differ exactly where their settings do. `fromScenario` runs
/// its JSON. Errors as `checkLab`'s.
#[wasm_bindgen(js_name = labScenario, unchecked_return_type = "Scenario")]
pub fn lab_scenario(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Record<string, KnobValue> | undefined")]
    settings: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | undefined")] seed: JsValue,
) -> Result<JsValue, JsValue> {
    let lab = parse_lab("labScenario", &text)?;
    let settings = parse_settings("labScenario", &settings)?;
    let seed = match seed.is_undefined() || seed.is_null() {
        true => None,
        false => Some(whole_number_arg("labScenario", "seed", &seed, 0, u64::MAX)?),
    };
    let mut scenario = lab.with_settings(&settings).map_err(settings_error)?;
    if let Some(seed) = seed {
        scenario.seed = seed;
    }
    // The same encoder as `Playground.scenario()`: one copy of the
    // scenario's serializer in the wasm.
    Ok(to_js(&scenario)?)
}

/// Check my fix: runs the lab (the text of a lab file) with `settings`
/// (`{ knobId: value }`, a partial map; `undefined` for the file's own
/// settings) over every check seed, in one call, and answers a
/// `CheckReport`. A malformed lab throws like `fromScenario`; a setting
/// outside its knob throws an Error "invalid settings: settings.visibility
/// must be …" with `path` ("settings.visibility") and `rule`; a check
/// estimated past its budget throws "check refused: …" (`path` "check")
/// before it runs. A page runs it in slices instead: `LabCheck`.
#[wasm_bindgen(js_name = checkLab, unchecked_return_type = "CheckReport")]
pub fn check_lab(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Record<string, KnobValue> | undefined")]
    settings: JsValue,
) -> Result<JsValue, JsValue> {
    let lab = parse_lab("checkLab", &text)?;
    let settings = parse_settings("checkLab", &settings)?;
    let report = queuelab_simulation::check_lab(&lab, &settings).map_err(settings_error)?;
    Ok(to_js(&report)?)
}

/// A lab's text, parsed and checked, or the error `fromScenario` gives.
fn parse_lab(method: &str, text: &JsValue) -> Result<Scenario, JsValue> {
    let text = string_arg(method, "text", "the lab's JSON text (a string)", text)?;
    let lab: Scenario = serde_json::from_str(&text)
        .map_err(|e| scenario_js_error(scenario_error::from_serde(&text, &e)))?;
    lab.validate()
        .map_err(|e| scenario_js_error(scenario_error::from_field(&text, &e)))?;
    Ok(lab)
}

/// Knob values by knob id; `undefined` is none. A plain copy through
/// JSON: a getter or Proxy that throws throws here.
fn parse_settings(
    method: &str,
    settings: &JsValue,
) -> Result<queuelab_simulation::Settings, JsValue> {
    if settings.is_undefined() {
        return Ok(Default::default());
    }
    let json = js_sys::JSON::stringify(settings)?
        .as_string()
        .unwrap_or_default();
    let refused = |why: String| {
        args::type_error(format!(
            "{method}: settings must be an object of knob values by knob id \
             ({{\"visibility\": 10, \"heartbeat\": \"off\"}}): {why}"
        ))
    };
    serde_json::from_str(&json).map_err(|e| {
        // Name the value that is no knob value, in words rather than serde's.
        let values: BTreeMap<String, serde_json::Value> = match serde_json::from_str(&json) {
            Ok(values) => values,
            Err(_) => return refused(e.to_string()),
        };
        let bad = values.iter().find(|(_, v)| {
            serde_json::from_str::<queuelab_simulation::KnobValue>(&v.to_string()).is_err()
        });
        match bad {
            Some((id, value)) => refused(format!(
                "settings.{} is {}, not a whole number, true or false, a choice or \"off\"",
                queuelab_engine::echo(id),
                queuelab_engine::echo(&value.to_string())
            )),
            None => refused(e.to_string()),
        }
    })
}

/// A setting refused (path `settings.<id>`) or a scenario that is no lab.
fn settings_error(e: queuelab_simulation::FieldError) -> JsValue {
    let placed = scenario_error::from_field("", &e);
    let js = scenario_js_error(placed);
    let what = match e.path.as_str() {
        "check" => "check refused",
        path if path.starts_with("settings") => "invalid settings",
        _ => "not a lab",
    };
    let _ = Reflect::set(&js, &"message".into(), &format!("{what}: {e}").into());
    js
}

fn error(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

/// A scenario that cannot run, as a JS `Error` whose message says why in
/// plain words ("invalid scenario: line 12: consumers[0].batchSize must be
/// a whole number from 1 to 10, got 2.5"), with the place as properties a
/// page puts it beside: `path`, `rule` (what the field must be), `line`
/// and `column` (each absent when not known).
fn scenario_js_error(placed: scenario_error::Placed) -> JsValue {
    let e = js_sys::Error::new(&format!("invalid scenario: {}", placed.message));
    let set = |key: &str, value: JsValue| {
        let _ = Reflect::set(&e, &JsValue::from_str(key), &value);
    };
    if let Some(path) = placed.path {
        set("path", JsValue::from_str(&path));
    }
    if let Some(rule) = placed.rule {
        set("rule", JsValue::from_str(&rule));
    }
    if let Some(line) = placed.line {
        set("line", JsValue::from_f64(line as f64));
    }
    if let Some(column) = placed.column {
        set("column", JsValue::from_f64(column as f64));
    }
    e.into()
}

/// Decodes an optional options object (`undefined`/`null` mean defaults)
/// through a plain copy of its own properties (see `args.rs`): a throwing
/// getter throws to the caller and leaves the Playground usable. A misspelt
/// option is an error rather than silently ignored; a value of the wrong
/// type is a `TypeError`.
fn options<T: for<'de> Deserialize<'de> + Default>(
    value: JsValue,
    method: &str,
    what: &str,
    known: &[&str],
    nested: &[&str],
) -> Result<T, JsValue> {
    match copy_options(&value, method, what, known, nested)? {
        None => Ok(T::default()),
        Some(copy) => serde_wasm_bindgen::from_value(copy.into())
            .map_err(|e| args::type_error(format!("{method}: invalid {what}: {e}"))),
    }
}

fn probability(name: &str, value: Option<f64>) -> Result<f64, JsError> {
    match value {
        None => Ok(0.0),
        Some(p) if (0.0..=1.0).contains(&p) => Ok(p),
        Some(p) => Err(error(format!(
            "realism.{name} must be between 0 and 1, got {p}"
        ))),
    }
}

/// A full snapshot lists at most this many messages; past it, ask for a
/// window (`snapshot({ messagesPerQueue })`). At a million messages the
/// JSON is already about 230 MB.
const MAX_SNAPSHOT_MESSAGES: usize = 1_000_000;

/// No value handed to JavaScript is more JSON than this (large bodies can
/// make even a few messages big). V8's longest string is about 512 MiB.
const MAX_JSON_BYTES: usize = 256 << 20;

/// `queueMessages`' largest page.
const MAX_PAGE: u64 = 10_000;

/// Why a snapshot was refused (`json`: its JSON outgrew `MAX_JSON_BYTES`,
/// rather than its messages `MAX_SNAPSHOT_MESSAGES`), and the way out.
fn too_big(listed: usize, window: Option<usize>, json: bool) -> String {
    let limit = if json {
        format!("more than {} MiB of JSON", MAX_JSON_BYTES >> 20)
    } else {
        format!(
            "more than the {} a snapshot hands to JavaScript",
            thousands(MAX_SNAPSHOT_MESSAGES as u64)
        )
    };
    let way_out = match window {
        None => "ask for a window with snapshot({ messagesPerQueue })",
        Some(_) => "ask for a smaller window (snapshot({ messagesPerQueue }))",
    };
    format!(
        "the snapshot holds {} messages, {limit}; {way_out}, \
         or page through one queue with queueMessages(queueUrl, {{ offset, limit }})",
        thousands(listed as u64),
    )
}

/// A `Write` that refuses to grow past its limit, so that a value too big
/// to hand over fails before it fills the module's memory.
struct Bounded {
    text: Vec<u8>,
    limit: usize,
}

impl std::io::Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.text.len() + buf.len() > self.limit {
            return Err(std::io::Error::other("too big"));
        }
        self.text.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Hands a value to JavaScript as JSON text parsed by `JSON.parse`: one
/// string crosses the boundary instead of a call per field, which is much
/// faster for snapshots of many messages, and keeps the module smaller.
/// The outer `Err` is a value of more than `limit` bytes of JSON.
fn to_js_within<T: Serialize + ?Sized>(
    value: &T,
    limit: usize,
) -> Result<Result<JsValue, JsError>, ()> {
    let mut out = Bounded {
        text: Vec::new(),
        limit,
    };
    if serde_json::to_writer(&mut out, value).is_err() {
        return Err(());
    }
    // serde_json writes only valid UTF-8.
    let text = String::from_utf8(out.text).map_err(|_| ())?;
    Ok(js_sys::JSON::parse(&text).map_err(|_| error("could not hand a value to JavaScript")))
}

fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    to_js_within(value, MAX_JSON_BYTES).unwrap_or_else(|()| {
        Err(error(format!(
            "the answer is more than {} MiB of JSON, more than JavaScript can take at once",
            MAX_JSON_BYTES >> 20
        )))
    })
}

/// A whole-number option, or its default; `Config::validate` then holds
/// it to its range. A fraction, a negative or a non-finite number is
/// refused here, naming the option and its range.
fn whole(option: &str, value: Option<f64>, default: u64) -> Result<u64, JsError> {
    match value {
        None => Ok(default),
        // Up to 2^53: past it, numbers are not exact integers.
        Some(v) if v.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(&v) => Ok(v as u64),
        // JavaScript's spelling of the value: 1.5, -1, Infinity, NaN.
        Some(v) => Err(error(Config::range_error(
            option,
            js_sys::Number::from(v)
                .to_string_with_radix(10)
                .map_or(v.to_string(), String::from),
        ))),
    }
}

/// The engine's configuration from `PlaygroundOptions`, and the seed if
/// the options gave one.
fn config(method: &str, options_value: JsValue) -> Result<(Config, Option<u64>), JsValue> {
    let o: PlaygroundOptions = options(
        options_value,
        method,
        "Playground option",
        &[
            "seed",
            "region",
            "accountId",
            "startEpochMs",
            "eventCapacity",
            "maxStoredBytes",
            "maxStoredMessages",
            "maxQueues",
            "realism",
        ],
        &["realism"],
    )?;
    let defaults = Config::default();
    let r: RealismOptions = options(
        o.realism,
        method,
        "realism option",
        &[
            "shortPollSampleRate",
            "duplicateDeliveryProbability",
            "fewerMessagesProbability",
        ],
        &[],
    )?;
    let config = Config {
        seed: o.seed.unwrap_or(defaults.seed),
        region: o.region.unwrap_or(defaults.region),
        account_id: o.account_id.unwrap_or(defaults.account_id),
        start_epoch_ms: whole("startEpochMs", o.start_epoch_ms, defaults.start_epoch_ms)?,
        event_capacity: whole(
            "eventCapacity",
            o.event_capacity,
            defaults.event_capacity as u64,
        )? as usize,
        max_stored_bytes: whole(
            "maxStoredBytes",
            o.max_stored_bytes,
            defaults.max_stored_bytes,
        )?,
        max_stored_messages: whole(
            "maxStoredMessages",
            o.max_stored_messages,
            defaults.max_stored_messages,
        )?,
        max_queues: whole("maxQueues", o.max_queues, defaults.max_queues as u64)? as usize,
        realism: Realism {
            short_poll_sample_rate: probability("shortPollSampleRate", r.short_poll_sample_rate)?,
            duplicate_delivery_probability: probability(
                "duplicateDeliveryProbability",
                r.duplicate_delivery_probability,
            )?,
            fewer_messages_probability: probability(
                "fewerMessagesProbability",
                r.fewer_messages_probability,
            )?,
        },
    };
    config.validate().map_err(error)?;
    Ok((config, o.seed))
}

/// An SQS endpoint with its own engine and virtual clock, optionally
/// running a scenario's producers and workers.
#[wasm_bindgen]
pub struct Playground {
    sim: Simulation,
    /// Resolvers of long polls still waiting in virtual time.
    waiting: BTreeMap<PollId, Function>,
    /// Made by `fromScenario` (a `new` one runs an empty scenario).
    from_scenario: bool,
}

impl Playground {
    fn with(sim: Simulation, from_scenario: bool) -> Self {
        Playground {
            sim,
            waiting: BTreeMap::new(),
            from_scenario,
        }
    }
}

#[wasm_bindgen]
impl Playground {
    /// An SQS endpoint with no scenario: queues come from your own calls.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<args::PlaygroundOptionsArg>) -> Result<Playground, JsValue> {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        Ok(Playground::with(
            Simulation::empty(config("new Playground", options)?.0),
            false,
        ))
    }

    /// A playground running a scenario (the text of a scenario file): its
    /// queues exist at time 0, and its producers and workers act as virtual
    /// time advances. `options.seed`, when given, replaces the scenario's
    /// seed (`fromScenario(text, { seed })`: another run of it). A
    /// malformed scenario throws an Error naming the field and what was
    /// expected; an invalid queue setting throws with the SQS error text.
    #[wasm_bindgen(js_name = fromScenario)]
    pub fn from_scenario(
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        options: Option<args::PlaygroundOptionsArg>,
    ) -> Result<Playground, JsValue> {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let text = string_arg(
            "fromScenario",
            "text",
            "the scenario's JSON text (a string; JSON.stringify an object first)",
            &text,
        )?;
        let text = text.as_str();
        let (config, seed) = config("fromScenario", options)?;
        // serde_json names missing and unknown fields and the expected
        // variants, and gives the line and column of the mistake; the path
        // in front names the field of a value of the wrong type or range.
        let mut scenario: Scenario = serde_json::from_str(text)
            .map_err(|e| scenario_js_error(scenario_error::from_serde(text, &e)))?;
        if let Some(seed) = seed {
            scenario.seed = seed;
        }
        // Checked here too (Simulation::new checks again) for the field's place in the text.
        scenario
            .validate()
            .map_err(|e| scenario_js_error(scenario_error::from_field(text, &e)))?;
        let simulation = Simulation::new(scenario, config).map_err(|e| error(e.message))?;
        Ok(Playground::with(simulation, true))
    }

    /// Sends one SQS request: `target` is the `X-Amz-Target` header value
    /// (`"AmazonSQS.SendMessage"`), `body` the JSON request text. Resolves
    /// at once, except a long poll that waits: it resolves when virtual time
    /// reaches the moment a message is available or its wait ends.
    #[wasm_bindgen(unchecked_return_type = "Promise<SqsResponse>")]
    pub fn dispatch(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] target: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] body: JsValue,
        #[wasm_bindgen(js_name = options)] options_arg: Option<args::DispatchOptionsArg>,
    ) -> Result<Promise, JsValue> {
        match self.answer("dispatch", &target, &body, options_arg)? {
            // The engine has acted: nothing may throw from here on (a
            // throw would hide a call that happened), and `Promise.resolve`
            // of a plain object runs no page code (only a replaced
            // `Promise.resolve` could throw, and that is caught).
            Answer::Done(response) => resolved(&response).map_err(|_| {
                error("could not hand a response to JavaScript: Promise.resolve failed").into()
            }),
            Answer::Waiting(promise) => Ok(promise),
        }
    }

    /// `dispatch` without the Promise, for a caller that cannot wait a
    /// microtask (and the fastest way to drive the engine with JSON): the
    /// response itself, or for a long poll that must wait in virtual time,
    /// a Promise of it, resolved as `dispatch`'s would be.
    #[wasm_bindgen(
        js_name = dispatchSync,
        unchecked_return_type = "SqsResponse | Promise<SqsResponse>"
    )]
    pub fn dispatch_sync(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] target: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] body: JsValue,
        #[wasm_bindgen(js_name = options)] options_arg: Option<args::DispatchOptionsArg>,
    ) -> Result<JsValue, JsValue> {
        Ok(
            match self.answer("dispatchSync", &target, &body, options_arg)? {
                Answer::Done(response) => response,
                Answer::Waiting(promise) => promise.into(),
            },
        )
    }

    /// Moves virtual time forward by `ms` milliseconds, a whole number
    /// (a fraction, a negative or a non-number is refused: `advance(0.5)`
    /// used to round, so two of them moved 2 ms); returns the new time.
    pub fn advance(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] ms: JsValue,
    ) -> Result<f64, JsValue> {
        let ms = whole_number_arg("advance", "ms", &ms, 0, u64::MAX)?;
        // Past the last representable moment: an Error naming the limit.
        let now = self
            .sim
            .try_advance(ms)
            .map_err(|limit| error(limit.to_string()))?;
        self.resolve_answered()?;
        Ok(now as f64)
    }

    /// With `true`, `advance` stops at the end of a moment a scenario's
    /// checkpoint is asked or answered in (`checkpointAsked`,
    /// `checkpointAnswered`), so a page can pause for the learner's
    /// prediction and to show the run's answer; calling `advance` again
    /// goes on. The run is the same either way.
    #[wasm_bindgen(js_name = pauseAtCheckpoints)]
    pub fn pause_at_checkpoints(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean")] on: JsValue,
    ) -> Result<(), JsValue> {
        let on = args::bool_arg("pauseAtCheckpoints", "on", &on)?;
        self.sim.pause_at_checkpoints(on);
        Ok(())
    }

    /// The narration lines and checkpoints whose moments are known before
    /// the run (they wait only for time), words filled in, in time order:
    /// a timeline's landmarks when playing a copy to its end is too much work.
    #[wasm_bindgen(js_name = plannedMoments, unchecked_return_type = "PlannedMoment[]")]
    pub fn planned_moments(&self) -> Result<JsValue, JsError> {
        let moments: Vec<PlannedMoment> = self
            .sim
            .planned_moments()
            .into_iter()
            .map(|(t, text, checkpoint)| PlannedMoment {
                t: t as f64,
                text,
                checkpoint,
            })
            .collect();
        to_js(&moments)
    }

    /// Virtual milliseconds since the playground started.
    pub fn now(&self) -> f64 {
        self.sim.now() as f64
    }

    /// Events with a sequence number greater than `since` (a whole number,
    /// default 0), oldest first.
    #[wasm_bindgen(unchecked_return_type = "QueuelabEvent[]")]
    pub fn events(&self, since: Option<args::NumberArg>) -> Result<JsValue, JsValue> {
        let since = since.map_or(JsValue::UNDEFINED, JsValue::from);
        let since = whole_number_arg("events", "since", &since, 0, u64::MAX)?;
        let events: Vec<_> = self.sim.events(since).collect();
        Ok(to_js(&events)?)
    }

    /// Every queue and message as it is now, or with
    /// `{ messagesPerQueue: n }` only each queue's first n messages (see
    /// `SnapshotOptions`). A snapshot too big to hand over is refused with
    /// an Error saying how many messages it holds and to ask for a window.
    #[wasm_bindgen(unchecked_return_type = "Snapshot")]
    pub fn snapshot(&self, options: Option<args::SnapshotOptionsArg>) -> Result<JsValue, JsValue> {
        let copy = copy_options(
            &options.map_or(JsValue::UNDEFINED, JsValue::from),
            "snapshot",
            "snapshot option",
            &["messagesPerQueue", "sideEffectsSince"],
            &[],
        )?;
        let option = |name: &str, max: u64| -> Result<Option<u64>, JsValue> {
            let Some(copy) = &copy else { return Ok(None) };
            let n = Reflect::get(copy, &name.into())?;
            (!n.is_undefined())
                .then(|| whole_number_arg("snapshot", name, &n, 0, max))
                .transpose()
        };
        let window = option("messagesPerQueue", usize::MAX as u64)?.map(|n| n as usize);
        let side_effects_since = option("sideEffectsSince", u64::MAX)?.unwrap_or(0);
        let listed = self.sim.engine().messages_listed(window);
        // A window is held to its byte budget by the engine instead.
        if window.is_none() && listed > MAX_SNAPSHOT_MESSAGES {
            return Err(error(too_big(listed, window, false)).into());
        }
        let mut engine = self.sim.engine().snapshot_window(window);
        // The page reads events by this number: the run's log, which
        // numbers the simulation's events and the engine's in one sequence.
        engine.next_event_seq = self.sim.next_event_seq();
        let full = FullSnapshot {
            engine,
            simulation: self.sim.snapshot_since(side_effects_since),
        };
        to_js_within(&full, MAX_JSON_BYTES)
            .map_err(|_| error(too_big(listed, window, true)).into())
            .and_then(|v| v.map_err(JsValue::from))
    }

    /// One page of one queue's stored messages, in queue order (the order
    /// snapshots list them): `{ offset, limit }` are whole numbers, default
    /// 0 and 100, `limit` at most 10000. Null when no queue has that URL.
    #[wasm_bindgen(js_name = queueMessages, unchecked_return_type = "MessagePage | null")]
    pub fn queue_messages(
        &self,
        #[wasm_bindgen(js_name = queueUrl, unchecked_param_type = "string")] queue_url: JsValue,
        options: Option<args::QueueMessagesOptionsArg>,
    ) -> Result<JsValue, JsValue> {
        const METHOD: &str = "queueMessages";
        let url = string_arg(METHOD, "queueUrl", "a queue URL (a string)", &queue_url)?;
        let copy = copy_options(
            &options.map_or(JsValue::UNDEFINED, JsValue::from),
            METHOD,
            "queueMessages option",
            &["offset", "limit"],
            &[],
        )?;
        let field = |name: &str| -> Result<JsValue, JsValue> {
            match &copy {
                Some(copy) => Reflect::get(copy, &name.into()),
                None => Ok(JsValue::UNDEFINED),
            }
        };
        let offset = whole_number_arg(METHOD, "offset", &field("offset")?, 0, usize::MAX as u64)?;
        let limit = whole_number_arg(METHOD, "limit", &field("limit")?, 100, MAX_PAGE)?;
        match self
            .sim
            .engine()
            .queue_messages(&url, offset as usize, limit as usize)
        {
            Some(page) => Ok(to_js(&page)?),
            None => Ok(JsValue::NULL),
        }
    }

    /// Counts by state of every queue, without messages: for the frames of
    /// a busy run, where a full snapshot would copy every message.
    #[wasm_bindgen(unchecked_return_type = "Counts")]
    pub fn counts(&self) -> Result<JsValue, JsError> {
        to_js(&self.sim.engine().counts())
    }

    /// The scenario as the engine read it, every default filled in (and
    /// the seed in force); null for a playground made with `new`.
    #[wasm_bindgen(unchecked_return_type = "Scenario | null")]
    pub fn scenario(&self) -> Result<JsValue, JsError> {
        if self.from_scenario {
            to_js(self.sim.scenario())
        } else {
            Ok(JsValue::NULL)
        }
    }

    /// The next moment anything happens by itself, or null (for "step"):
    /// never past 2^53−1 ms, so `advance` can always reach it.
    #[wasm_bindgen(js_name = nextEventTime)]
    pub fn next_event_time(&self) -> Option<f64> {
        self.sim.next_event_time().map(|t| t as f64)
    }

    /// Estimated units of work to advance from now to virtual time
    /// `untilMs`: one unit is one engine call, one timer firing, or one
    /// producer or worker action. Computed from the scenario's numbers
    /// (sends, rates, poll intervals, processing times, stored messages),
    /// never by running, so it is cheap; an estimate that leans high.
    /// 0 when `untilMs` is not later than now. `untilMs` is a whole number
    /// (a fraction or a non-number is refused). Compare it with
    /// `limits().maxWorkWithoutAsking` before replaying a link.
    #[wasm_bindgen(js_name = workEstimate)]
    pub fn work_estimate(
        &self,
        #[wasm_bindgen(js_name = untilMs, unchecked_param_type = "number")] until_ms: JsValue,
    ) -> Result<f64, JsValue> {
        let end = queuelab_engine::MAX_VIRTUAL_MS;
        let until = match until_ms.as_f64() {
            // A whole moment past the end of time is estimated to it.
            Some(n) if n.is_finite() && n.fract() == 0.0 && n > end as f64 => end,
            _ => whole_number_arg("workEstimate", "untilMs", &until_ms, 0, end)?,
        };
        Ok(self.sim.work_estimate(until) as f64)
    }

    /// Everything about one stored message, without changing it, its
    /// whole body included (a snapshot carries only its first KiB); null
    /// when no queue holds it (deleted, expired, never sent).
    #[wasm_bindgen(unchecked_return_type = "MessagePeek | null")]
    pub fn peek(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] message_id: JsValue,
    ) -> Result<JsValue, JsValue> {
        let id = string_arg("peek", "messageId", "a message id (a string)", &message_id)?;
        match self.sim.engine().peek(&id) {
            Some(peek) => Ok(to_js(&peek)?),
            None => Ok(JsValue::NULL),
        }
    }

    /// Why `caller`'s receive from `queueUrl` came back empty, in
    /// sentences (who took the message first, what is in flight or
    /// delayed and until when, a locked FIFO group): the page's words
    /// beside an empty receive of yours. It reads the run; it changes
    /// nothing.
    #[wasm_bindgen(js_name = whyEmpty)]
    pub fn why_empty(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] queue_url: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] caller: JsValue,
    ) -> Result<String, JsValue> {
        let url = string_arg("whyEmpty", "queueUrl", "a queue URL (a string)", &queue_url)?;
        let caller = string_arg(
            "whyEmpty",
            "caller",
            "the caller's name (a string)",
            &caller,
        )?;
        Ok(self.sim.why_empty(&url, &caller))
    }

    /// Reads a request's arguments (`method` names the call in errors),
    /// hands it to the protocol, and gives its response, or a Promise of it
    /// for a long poll that waits. Every refusal comes before the engine
    /// acts; after it, building the answer runs no page code.
    fn answer(
        &mut self,
        method: &str,
        target: &JsValue,
        body: &JsValue,
        options_arg: Option<args::DispatchOptionsArg>,
    ) -> Result<Answer, JsValue> {
        let options_value = options_arg.map_or(JsValue::UNDEFINED, JsValue::from);
        // Refused before its text is copied into wasm memory, where a 1.5 GB
        // string trapped: a string's UTF-8 bytes are at least its UTF-16
        // units, so more units than MAX_REQUEST_BYTES is too large for sure.
        // Under that, the copy is at most three times the limit, and
        // `dispatch` counts the bytes exactly.
        let units = |v: &JsValue| v.dyn_ref::<JsString>().map_or(0, |s| s.length() as usize);
        if units(target).saturating_add(units(body)) > MAX_REQUEST_BYTES {
            return Ok(Answer::Done(response::to_js(&oversized(
                self.sim.engine_mut(),
            ))?));
        }
        let target = string_arg(
            method,
            "target",
            "a string such as \"AmazonSQS.SendMessage\"",
            target,
        )?;
        let body = string_arg(
            method,
            "body",
            "the request's JSON text, a string such as \"{}\" (JSON.stringify an object first)",
            body,
        )?;
        let o: DispatchOptions =
            options(options_value, method, "dispatch option", &["caller"], &[])?;
        if let Some(caller) = o.caller.as_deref().filter(|c| !is_caller_name(c)) {
            // Every event of the call records the name (MAX_CALLER_CHARS says why).
            return Err(args::range_error(format!(
                "{method}: dispatch option caller must be at most {MAX_CALLER_CHARS} characters, got {}",
                caller.chars().count()
            )));
        }
        let answer = match dispatch(self.sim.engine_mut(), &target, &body, o.caller.as_deref()) {
            Dispatched::Done(response) => Answer::Done(response::to_js(&response)?),
            Dispatched::Waiting(poll) => Answer::Waiting(self.wait(poll)),
        };
        // A send may have answered other waiting polls.
        self.resolve_answered()?;
        Ok(answer)
    }

    /// A Promise of a long poll's response, resolved by `resolve_answered`.
    fn wait(&mut self, poll: PollId) -> Promise {
        let mut resolver = None;
        let promise = Promise::new(&mut |resolve, _reject| resolver = Some(resolve));
        if let Some(resolve) = resolver {
            self.waiting.insert(poll, resolve);
        }
        promise
    }

    fn resolve_answered(&mut self) -> Result<(), JsError> {
        for (poll, result) in self.sim.take_external_answers() {
            let response = poll_response(self.sim.engine_mut(), result);
            if let Some(resolve) = self.waiting.remove(&poll) {
                resolve
                    .call1(&JsValue::UNDEFINED, &response::to_js(&response)?)
                    .map_err(|_| error("resolving a long poll failed"))?;
            }
        }
        Ok(())
    }
}

/// A dispatched call's answer: the response, or the Promise of a long poll
/// that waits in virtual time.
enum Answer {
    Done(JsValue),
    Waiting(Promise),
}

#[wasm_bindgen]
extern "C" {
    /// `Promise.resolve`, caught: it is called after the engine acted.
    #[wasm_bindgen(catch, js_namespace = Promise, js_name = resolve)]
    fn resolved(value: &JsValue) -> Result<Promise, JsValue>;
}

/// Runs `n` send -> receive -> delete cycles inside wasm through the typed
/// engine API (the same workload as the native benchmark); returns nothing,
/// the caller times it. Only in builds with the `bench` feature.
#[cfg(feature = "bench")]
#[wasm_bindgen(js_name = benchCycles)]
pub fn bench_cycles(n: u32) {
    let mut engine = queuelab_engine::Engine::new(Config {
        event_capacity: 1_000,
        ..Config::default()
    });
    let url = queuelab_engine::workload::queue(&mut engine, "bench", false);
    queuelab_engine::workload::cycles(&mut engine, &url, u64::from(n));
}
