//! Queuelab for JavaScript: the `Playground` class.
//!
//! The only crate that knows about JavaScript. Every method decodes its
//! arguments, calls the engine or the protocol layer, and encodes the result
//! with one configured serializer. Misuse (bad options, a negative time)
//! throws a real `Error`; SQS errors are ordinary HTTP-style answers with
//! status 400/403/404, as from AWS.

use std::collections::BTreeMap;

use js_sys::{Function, Promise};
use queuelab_engine::{Config, Engine, PollId, Realism};
use queuelab_protocol::{answered_polls, dispatch, Dispatched, Response};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Options for `new Playground(...)`. Every field is optional. */
export interface PlaygroundOptions {
  /** Seed of the engine's PRNG (PCG-64); same seed + same calls = same results. Default 0. */
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

/** One state change; `type` says which, the other fields depend on it. */
export interface QueuelabEvent {
  seq: number;
  timeMs: number;
  type:
    | "queueCreated" | "queueDeleted" | "queuePurged" | "sent" | "duplicateDropped"
    | "delayEnded" | "received" | "visibilityChanged" | "visibilityExpired" | "deleted"
    | "deleteMissedCopy" | "movedToDeadLetterQueue" | "redriven" | "expired" | "purged"
    | "groupLocked" | "groupUnlocked" | "emptyReceive" | "moveTaskStarted" | "moveTaskEnded";
  queue?: string;
  messageId?: string;
  group?: string | null;
  by?: string | null;
  receiveCount?: number;
  visibleAt?: number;
  delayedUntil?: number | null;
  previousHolder?: string | null;
  holder?: string | null;
  deadLetterQueue?: string;
  [field: string]: unknown;
}

export interface MessageSnapshot {
  messageId: string;
  body: string;
  state: "delayed" | "visible" | "in-flight";
  group: string | null;
  receiveCount: number;
  visibleAt: number | null;
  sentAt: number;
  holder: string | null;
  receiptHandle: string | null;
  sequenceNumber: string | null;
  deadLetterSourceArn: string | null;
}

export interface QueueSnapshot {
  name: string;
  url: string;
  arn: string;
  fifo: boolean;
  visibilityTimeoutSeconds: number;
  delaySeconds: number;
  messageRetentionPeriodSeconds: number;
  deadLetterTargetArn: string | null;
  maxReceiveCount: number | null;
  visible: number;
  inFlight: number;
  delayed: number;
  oldestEnqueuedAt: number | null;
  messages: MessageSnapshot[];
  groups: { group: string; locked: boolean; messages: number }[];
}

export interface Snapshot {
  timeMs: number;
  nextEventSeq: number;
  waitingPolls: number;
  queues: QueueSnapshot[];
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

#[derive(Serialize)]
struct JsResponse<'a> {
    status: u16,
    headers: BTreeMap<&'a str, &'a str>,
    body: &'a str,
}

fn error(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
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

fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(error)
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

/// An SQS endpoint with its own engine and virtual clock.
#[wasm_bindgen]
pub struct Playground {
    engine: Engine,
    /// Resolvers of long polls still waiting in virtual time.
    waiting: BTreeMap<PollId, Function>,
}

#[wasm_bindgen]
impl Playground {
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "PlaygroundOptions | undefined")]
        options_value: JsValue,
    ) -> Result<Playground, JsError> {
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
                short_poll_sample_rate: probability(
                    "shortPollSampleRate",
                    r.short_poll_sample_rate,
                )?,
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
        Ok(Playground {
            engine: Engine::new(config),
            waiting: BTreeMap::new(),
        })
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
        let promise = match dispatch(&mut self.engine, target, body, o.caller.as_deref()) {
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
        let now = self.engine.advance(ms.round() as u64);
        self.resolve_answered()?;
        Ok(now as f64)
    }

    /// Virtual milliseconds since the playground started.
    pub fn now(&self) -> f64 {
        self.engine.now() as f64
    }

    /// Events with a sequence number greater than `since` (default 0), oldest first.
    #[wasm_bindgen(unchecked_return_type = "QueuelabEvent[]")]
    pub fn events(&self, since: Option<f64>) -> Result<JsValue, JsError> {
        let since = since.filter(|s| s.is_finite() && *s > 0.0).unwrap_or(0.0) as u64;
        let events: Vec<_> = self.engine.events(since).collect();
        to_js(&events)
    }

    /// Every queue and message as it is now.
    #[wasm_bindgen(unchecked_return_type = "Snapshot")]
    pub fn snapshot(&self) -> Result<JsValue, JsError> {
        to_js(&self.engine.snapshot())
    }

    fn resolve_answered(&mut self) -> Result<(), JsError> {
        for (poll, response) in answered_polls(&mut self.engine) {
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
    let mut engine = Engine::new(Config {
        event_capacity: 1_000,
        ..Config::default()
    });
    let url = queuelab_engine::workload::queue(&mut engine, "bench", false);
    queuelab_engine::workload::cycles(&mut engine, &url, u64::from(n));
}
