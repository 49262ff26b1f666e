//! Queuelab for JavaScript: the `Playground` class.
//!
//! The only crate that knows about JavaScript. Every method decodes its
//! arguments, calls the engine or the protocol layer, and encodes the result
//! with one configured serializer. Misuse (bad options, a negative time)
//! throws a real `Error`; SQS errors are ordinary HTTP-style answers with
//! status 400/403/404, as from AWS.

use std::collections::BTreeMap;

use js_sys::{Function, Promise};
use queuelab_engine::{Config, PollId, Realism, Snapshot};
use queuelab_protocol::{dispatch, poll_response, Dispatched, Response};
use queuelab_simulation::{Consumer, Producer, Scenario, Simulation, SimulationSnapshot};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

mod json_path;

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
  /** Epoch milliseconds that virtual time 0 stands for. Default 2024-01-01T00:00:00Z. */
  startEpochMs?: number;
  /** How many recent events the log keeps. Default 100000. */
  eventCapacity?: number;
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
  /** Who makes the call, as the event log should name them ("worker-1"). */
  caller?: string;
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
    start_epoch_ms: Option<u64>,
    event_capacity: Option<usize>,
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

#[derive(Serialize)]
struct JsResponse<'a> {
    status: u16,
    headers: BTreeMap<&'a str, &'a str>,
    body: &'a str,
}

fn error(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

/// "invalid scenario: producers[0].sends[0].atMs: invalid type: ..." for a
/// scenario serde_json refused, the path naming the field it was reading.
fn scenario_error(text: &str, e: &serde_json::Error) -> String {
    match json_path::path_at(text, e.line(), e.column()) {
        path if path.is_empty() => format!("invalid scenario: {e}"),
        path => format!("invalid scenario: {path}: {e}"),
    }
}

/// Decodes an optional options object; `undefined`/`null` mean defaults.
/// A misspelt option is an error rather than silently ignored.
fn options<T: for<'de> Deserialize<'de> + Default>(
    value: JsValue,
    what: &str,
    known: &[&str],
) -> Result<T, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    if let Some(object) = value.dyn_ref::<js_sys::Object>() {
        for key in js_sys::Object::keys(object).iter() {
            let key = key.as_string().unwrap_or_default();
            if !known.contains(&key.as_str()) {
                return Err(error(format!(
                    "unknown {what} field \"{key}\"; expected one of: {}",
                    known.join(", ")
                )));
            }
        }
    }
    serde_wasm_bindgen::from_value(value).map_err(|e| error(format!("invalid {what}: {e}")))
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

/// Hands a value to JavaScript as JSON text parsed by `JSON.parse`: one
/// string crosses the boundary instead of a call per field, which is much
/// faster for snapshots of many messages, and keeps the module smaller.
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let text = serde_json::to_string(value).map_err(error)?;
    js_sys::JSON::parse(&text).map_err(|_| error("could not hand a value to JavaScript"))
}

fn response_to_js(response: &Response) -> Result<JsValue, JsError> {
    to_js(&JsResponse {
        status: response.status,
        headers: response
            .headers
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect(),
        body: &response.body,
    })
}

/// The engine's configuration from `PlaygroundOptions`, and the seed if
/// the options gave one.
fn config(options_value: JsValue) -> Result<(Config, Option<u64>), JsError> {
    let o: PlaygroundOptions = options(
        options_value,
        "Playground option",
        &[
            "seed",
            "region",
            "accountId",
            "startEpochMs",
            "eventCapacity",
            "realism",
        ],
    )?;
    let defaults = Config::default();
    let r: RealismOptions = options(
        o.realism,
        "realism option",
        &[
            "shortPollSampleRate",
            "duplicateDeliveryProbability",
            "fewerMessagesProbability",
        ],
    )?;
    let config = Config {
        seed: o.seed.unwrap_or(defaults.seed),
        region: o.region.unwrap_or(defaults.region),
        account_id: o.account_id.unwrap_or(defaults.account_id),
        start_epoch_ms: o.start_epoch_ms.unwrap_or(defaults.start_epoch_ms),
        event_capacity: o.event_capacity.unwrap_or(defaults.event_capacity),
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
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "PlaygroundOptions | undefined")]
        options_value: JsValue,
    ) -> Result<Playground, JsError> {
        Ok(Playground::with(
            Simulation::empty(config(options_value)?.0),
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
        text: &str,
        #[wasm_bindgen(unchecked_param_type = "PlaygroundOptions | undefined")]
        options_value: JsValue,
    ) -> Result<Playground, JsError> {
        let (config, seed) = config(options_value)?;
        // serde_json names missing and unknown fields and the expected
        // variants, and gives the line and column of the mistake; the path
        // in front names the field of a value of the wrong type or range.
        let mut scenario: Scenario =
            serde_json::from_str(text).map_err(|e| error(scenario_error(text, &e)))?;
        if let Some(seed) = seed {
            scenario.seed = seed;
        }
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
        target: &str,
        body: &str,
        #[wasm_bindgen(unchecked_param_type = "DispatchOptions | undefined")]
        options_value: JsValue,
    ) -> Result<Promise, JsError> {
        let o: DispatchOptions = options(options_value, "dispatch option", &["caller"])?;
        let promise = match dispatch(self.sim.engine_mut(), target, body, o.caller.as_deref()) {
            Dispatched::Done(response) => Promise::resolve(&response_to_js(&response)?),
            Dispatched::Waiting(poll) => {
                let mut resolver = None;
                let promise = Promise::new(&mut |resolve, _reject| resolver = Some(resolve));
                if let Some(resolve) = resolver {
                    self.waiting.insert(poll, resolve);
                }
                promise
            }
        };
        // A send may have answered other waiting polls.
        self.resolve_answered()?;
        Ok(promise)
    }

    /// Moves virtual time forward by `ms` milliseconds; returns the new time.
    pub fn advance(&mut self, ms: f64) -> Result<f64, JsError> {
        if !ms.is_finite() || ms < 0.0 {
            return Err(error(format!(
                "advance(ms) needs a finite number of milliseconds >= 0, got {ms}"
            )));
        }
        // Past the last representable moment: an Error naming the limit.
        let now = self
            .sim
            .try_advance(ms.round() as u64)
            .map_err(|limit| error(limit.to_string()))?;
        self.resolve_answered()?;
        Ok(now as f64)
    }

    /// Virtual milliseconds since the playground started.
    pub fn now(&self) -> f64 {
        self.sim.now() as f64
    }

    /// Events with a sequence number greater than `since` (default 0), oldest first.
    #[wasm_bindgen(unchecked_return_type = "QueuelabEvent[]")]
    pub fn events(&self, since: Option<f64>) -> Result<JsValue, JsError> {
        let since = since.filter(|s| s.is_finite() && *s > 0.0).unwrap_or(0.0) as u64;
        let events: Vec<_> = self.sim.events(since).collect();
        to_js(&events)
    }

    /// Every queue and message as it is now.
    #[wasm_bindgen(unchecked_return_type = "Snapshot")]
    pub fn snapshot(&self) -> Result<JsValue, JsError> {
        let mut engine = self.sim.engine().snapshot();
        // The page reads events by this number: the run's log, which
        // numbers the simulation's events and the engine's in one sequence.
        engine.next_event_seq = self.sim.next_event_seq();
        to_js(&FullSnapshot {
            engine,
            simulation: self.sim.snapshot(),
        })
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

    /// Everything about one stored message, without changing it; null
    /// when no queue holds it (deleted, expired, never sent).
    #[wasm_bindgen(unchecked_return_type = "MessagePeek | null")]
    pub fn peek(&self, message_id: &str) -> Result<JsValue, JsError> {
        match self.sim.engine().peek(message_id) {
            Some(peek) => to_js(&peek),
            None => Ok(JsValue::NULL),
        }
    }

    fn resolve_answered(&mut self) -> Result<(), JsError> {
        for (poll, result) in self.sim.take_external_answers() {
            let response = poll_response(self.sim.engine_mut(), result);
            if let Some(resolve) = self.waiting.remove(&poll) {
                resolve
                    .call1(&JsValue::UNDEFINED, &response_to_js(&response)?)
                    .map_err(|_| error("resolving a long poll failed"))?;
            }
        }
        Ok(())
    }
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
