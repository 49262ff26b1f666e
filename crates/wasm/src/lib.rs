//! Queuelab for JavaScript: the `Playground` class.
//!
//! The only crate that knows about JavaScript. Every method decodes its
//! arguments, calls the host layer (`queuelab_host`: the run, its journal,
//! scenarios, options, snapshots) or the engine's read-only queries, and
//! encodes the result with one configured serializer. Misuse (bad options, a negative time)
//! throws a real `Error`: a `TypeError` for an argument of the wrong type
//! (checked here, before anything reaches the allocator), a `RangeError`
//! for a number outside its range. SQS errors are ordinary HTTP-style
//! answers with status 400/403/404, as from AWS.

use std::collections::BTreeMap;

use js_sys::{Function, JsString, Promise, Reflect};
use queuelab_engine::{PollId, Principal};
use queuelab_host::{
    field_names, json_within, lab_refusal, too_much_json, DispatchOptions, Host, Placed,
    PlaygroundOptions, QueueMessagesOptions, RealismOptions, Refusal, SnapshotOptions,
    DEFAULT_PAGE, MAX_JSON_BYTES, MAX_PAGE,
};
use queuelab_protocol::{Dispatched, MAX_REQUEST_BYTES};
use queuelab_simulation::Scenario;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

mod args;
mod lab_check;
mod response;

// The host-neutral types, where they were before the host layer: the
// contract test and other hosts may name them from here.
pub use queuelab_host::{Budgets, Defaults, FullSnapshot, Limits, PlannedMoment, QueueDefaults};

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

// The binding's own answer shape (the options are generated, with the
// other types, from the host's structs).
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** An SQS answer, as AWS's HTTP endpoint would give it. */
export interface SqsResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON text: the result, or {"__type": "com.amazonaws.sqs#...", "message": "..."}. */
  body: string;
}
"#;

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

/// The scenario format in words (`Vocabulary`): every field's path,
/// label, name in a sentence, unit, range (the one `Scenario::validate`
/// holds it to) and choices, for a page's settings form, its "you
/// changed" line and its field errors.
#[wasm_bindgen(unchecked_return_type = "Vocabulary")]
pub fn vocabulary() -> Result<JsValue, JsError> {
    to_js(&queuelab_simulation::vocabulary())
}

/// A worker's card line, in parts ("long-polls 20 s", "200 ms per
/// message", "retries a failure at once"): what a consumer of a scenario
/// does, each behaviour in its own words. Throws like `fromScenario` for
/// a consumer a scenario could not have.
#[wasm_bindgen(js_name = consumerTraits, unchecked_return_type = "string[]")]
pub fn consumer_traits(
    #[wasm_bindgen(unchecked_param_type = "Consumer")] consumer: JsValue,
) -> Result<JsValue, JsValue> {
    let text = js_sys::JSON::stringify(&consumer)?
        .as_string()
        .unwrap_or_default();
    let traits = queuelab_host::consumer_traits(&text).map_err(placed_error)?;
    Ok(to_js(&traits)?)
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
    queuelab_host::parse_scenario(&text, None).map_err(placed_error)
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
    queuelab_host::parse_settings(method, &json).map_err(args::type_error)
}

/// A setting refused (path `settings.<id>`) or a scenario that is no lab.
fn settings_error(e: queuelab_simulation::FieldError) -> JsValue {
    placed_error(lab_refusal(&e))
}

fn error(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

/// A scenario that cannot run, as a JS `Error` whose message says why in
/// plain words ("invalid scenario: line 12: consumers[0].batchSize must be
/// a whole number from 1 to 10, got 2.5"), with the place as properties a
/// page puts it beside: `path`, `rule` (what the field must be), `line`
/// and `column` (each absent when not known).
fn placed_error(placed: Placed) -> JsValue {
    let e = js_sys::Error::new(&placed.message);
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
/// option is an error rather than silently ignored (the struct's own
/// field names are the known ones); a value of the wrong type is a `TypeError`.
fn options<T: for<'de> Deserialize<'de> + Default>(
    value: JsValue,
    method: &str,
    what: &str,
) -> Result<T, JsValue> {
    match copy_options(&value, method, what, field_names::<T>(), &[])? {
        None => Ok(T::default()),
        Some(copy) => decode(copy.into(), method, what),
    }
}

fn decode<T: for<'de> Deserialize<'de>>(
    copy: JsValue,
    method: &str,
    what: &str,
) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value(copy)
        .map_err(|e| args::type_error(format!("{method}: invalid {what}: {e}")))
}

/// Hands a value to JavaScript as JSON text parsed by `JSON.parse`: one
/// string crosses the boundary instead of a call per field, which is much
/// faster for snapshots of many messages, and keeps the module smaller.
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let text = json_within(value, MAX_JSON_BYTES).ok_or_else(|| error(too_much_json()))?;
    parsed(&text)
}

fn parsed(json: &str) -> Result<JsValue, JsError> {
    js_sys::JSON::parse(json).map_err(|_| error("could not hand a value to JavaScript"))
}

/// `PlaygroundOptions`, read through catching copies: `realism`, an
/// object of its own, is copied and decoded on its own (so its unknown
/// fields are caught, and its errors name it).
fn playground_options(method: &str, value: JsValue) -> Result<PlaygroundOptions, JsValue> {
    const WHAT: &str = "Playground option";
    let fields = field_names::<PlaygroundOptions>();
    let Some(copy) = copy_options(&value, method, WHAT, fields, &["realism"])? else {
        return Ok(PlaygroundOptions::default());
    };
    let realism = Reflect::get(&copy, &"realism".into())?;
    Reflect::delete_property(&copy, &"realism".into())?;
    let mut o: PlaygroundOptions = decode(copy.into(), method, WHAT)?;
    if !realism.is_undefined() && !realism.is_null() {
        o.realism = Some(options::<RealismOptions>(
            realism,
            method,
            "realism option",
        )?);
    }
    Ok(o)
}

/// Who a call is made as, from `dispatch`'s options: a `TypeError` for a
/// principal option that is not a string, a `RangeError` for a value the
/// host refuses (each naming the option and what was expected).
fn dispatch_principal(method: &str, value: JsValue) -> Result<Principal, JsValue> {
    const WHAT: &str = "dispatch option";
    let Some(copy) = copy_options(&value, method, WHAT, field_names::<DispatchOptions>(), &[])?
    else {
        return Ok(Principal::owner());
    };
    const EXPECTED: [(&str, &str); 4] = [
        ("caller", "a name for the log (a string)"),
        (
            "principal",
            "an account id such as \"111111111111\", an IAM ARN or a service principal such as \"sns.amazonaws.com\" (a string)",
        ),
        ("sourceArn", "an ARN (a string)"),
        ("sourceAccount", "a 12-digit account id (a string)"),
    ];
    for (name, expected) in EXPECTED {
        let field = Reflect::get(&copy, &name.into())?;
        if !field.is_undefined() && !field.is_null() && field.as_string().is_none() {
            return Err(args::type_error(format!(
                "{method}: {WHAT} {name} must be {expected}, got {}",
                args::kind(&field)
            )));
        }
    }
    let o: DispatchOptions = decode(copy.into(), method, WHAT)?;
    o.principal()
        .map_err(|e| args::range_error(format!("{method}: {e}")))
}

/// Why a run could not be made, as a JS `Error`.
fn refusal_error(refusal: Refusal) -> JsValue {
    match refusal {
        Refusal::Scenario(placed) => placed_error(placed),
        Refusal::Message(message) => error(message).into(),
    }
}

/// An SQS endpoint with its own engine and virtual clock, optionally
/// running a scenario's producers and workers.
#[wasm_bindgen]
pub struct Playground {
    /// The run, and its journal: every call goes through it.
    host: Host,
    /// Resolvers of long polls still waiting in virtual time.
    waiting: BTreeMap<PollId, Function>,
}

impl Playground {
    fn with(host: Host) -> Self {
        Playground {
            host,
            waiting: BTreeMap::new(),
        }
    }
}

#[wasm_bindgen]
impl Playground {
    /// An SQS endpoint with no scenario: queues come from your own calls.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<args::PlaygroundOptionsArg>) -> Result<Playground, JsValue> {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let options = playground_options("new Playground", options)?;
        Ok(Playground::with(Host::new(options).map_err(error)?))
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
        let options = playground_options("fromScenario", options)?;
        let host = Host::from_scenario(&text, options).map_err(refusal_error)?;
        Ok(Playground::with(host))
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
        let now = self.host.advance(ms).map_err(error)?;
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
        self.host.pause_at_checkpoints(on);
        Ok(())
    }

    /// With `on`, `advance` stops at the end of a moment an invocation was
    /// handed out to your code in (see `pendingInvocations`), so the page
    /// can call the handler before virtual time moves on; calling
    /// `advance` again goes on. The run is the same either way.
    #[wasm_bindgen(js_name = pauseAtInvocations)]
    pub fn pause_at_invocations(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean")] on: JsValue,
    ) -> Result<(), JsValue> {
        let on = args::bool_arg("pauseAtInvocations", "on", &on)?;
        self.host.pause_at_invocations(on);
        Ok(())
    }

    /// The narration lines and checkpoints whose moments are known before
    /// the run (they wait only for time), words filled in, in time order:
    /// a timeline's landmarks when playing a copy to its end is too much work.
    #[wasm_bindgen(js_name = plannedMoments, unchecked_return_type = "PlannedMoment[]")]
    pub fn planned_moments(&self) -> Result<JsValue, JsError> {
        to_js(&self.host.planned_moments())
    }

    /// Virtual milliseconds since the playground started.
    pub fn now(&self) -> f64 {
        self.host.simulation().now() as f64
    }

    /// Events with a sequence number greater than `since` (a whole number,
    /// default 0), oldest first.
    #[wasm_bindgen(unchecked_return_type = "QueuelabEvent[]")]
    pub fn events(&self, since: Option<args::NumberArg>) -> Result<JsValue, JsValue> {
        let since = since.map_or(JsValue::UNDEFINED, JsValue::from);
        let since = whole_number_arg("events", "since", &since, 0, u64::MAX)?;
        let events: Vec<_> = self.host.simulation().events(since).collect();
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
            field_names::<SnapshotOptions>(),
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
        match self.host.snapshot_json(window, side_effects_since) {
            Ok(json) => Ok(parsed(&json)?),
            Err(too_big) => Err(error(too_big).into()),
        }
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
            field_names::<QueueMessagesOptions>(),
            &[],
        )?;
        let field = |name: &str| -> Result<JsValue, JsValue> {
            match &copy {
                Some(copy) => Reflect::get(copy, &name.into()),
                None => Ok(JsValue::UNDEFINED),
            }
        };
        let offset = whole_number_arg(METHOD, "offset", &field("offset")?, 0, usize::MAX as u64)?;
        let limit = whole_number_arg(METHOD, "limit", &field("limit")?, DEFAULT_PAGE, MAX_PAGE)?;
        match self
            .host
            .simulation()
            .engine()
            .queue_messages(&url, offset as usize, limit as usize)
        {
            Some(page) => Ok(to_js(&page)?),
            None => Ok(JsValue::NULL),
        }
    }

    /// The run's CloudWatch metrics (`MetricsSnapshot`): every metric SQS
    /// and Lambda publish in it, each with its datapoints (one per
    /// resolution step, by the step's start) from `fromMs` on (a whole
    /// number, default 0: pass the last step read to get only the new ones).
    #[wasm_bindgen(unchecked_return_type = "MetricsSnapshot")]
    pub fn metrics(&self, from_ms: Option<args::NumberArg>) -> Result<JsValue, JsValue> {
        let from = from_ms.map_or(JsValue::UNDEFINED, JsValue::from);
        let from = whole_number_arg("metrics", "fromMs", &from, 0, u64::MAX)?;
        Ok(to_js(&self.host.simulation().metrics(from))?)
    }

    /// The invocations of functions your code is attached to
    /// (`Lambda.AttachHandler`) that wait for its answer, oldest first,
    /// each with Lambda's event JSON as text: at most 10, and past the first
    /// at most 6 MB of events (answer them, then ask again). Answer one with
    /// `dispatch("Lambda.InvocationResponse", {FunctionName, Invocation,
    /// Response})` or `"Lambda.InvocationError"`: the answer is recorded
    /// like any request, so replays give it again without your code.
    #[wasm_bindgen(js_name = pendingInvocations, unchecked_return_type = "PendingInvocation[]")]
    pub fn pending_invocations(&self) -> Result<JsValue, JsError> {
        to_js(&self.host.simulation().pending_invocations())
    }

    /// Counts by state of every queue, without messages: for the frames of
    /// a busy run, where a full snapshot would copy every message.
    #[wasm_bindgen(unchecked_return_type = "Counts")]
    pub fn counts(&self) -> Result<JsValue, JsError> {
        to_js(&self.host.simulation().engine().counts())
    }

    /// The scenario as the engine read it, every default filled in (and
    /// the seed in force); null for a playground made with `new`.
    #[wasm_bindgen(unchecked_return_type = "Scenario | null")]
    pub fn scenario(&self) -> Result<JsValue, JsError> {
        match self.host.scenario() {
            Some(scenario) => to_js(scenario),
            None => Ok(JsValue::NULL),
        }
    }

    /// The run's journal (`Journal`): the scenario's text, the options and
    /// the seed in force, and every call dispatched so far, failed ones
    /// too, as `{ t, op, body, caller }`, listed from the `from`-th on (a
    /// whole number, default 0: pass the `recorded` of the journal you
    /// read last to get only the calls since). `Playground.fromScenario`
    /// with its scenario and seed, and its calls made again at their
    /// moments, is the same run. Bounded: past `limits().maxJournalCalls`
    /// or `limits().maxJournalBytes`, calls are counted in `unrecorded`.
    #[wasm_bindgen(unchecked_return_type = "Journal")]
    pub fn journal(&self, from: Option<args::NumberArg>) -> Result<JsValue, JsValue> {
        let from = from.map_or(JsValue::UNDEFINED, JsValue::from);
        let from = whole_number_arg("journal", "from", &from, 0, u64::MAX)?;
        let from = usize::try_from(from).unwrap_or(usize::MAX);
        // Held to MAX_JSON_BYTES like every answer: the calls are bounded,
        // but the scenario's text and escaped bodies are counted only here.
        Ok(to_js(&self.host.journal().since(from))?)
    }

    /// The next moment anything happens by itself, or null (for "step"):
    /// never past 2^53−1 ms, so `advance` can always reach it.
    #[wasm_bindgen(js_name = nextEventTime)]
    pub fn next_event_time(&self) -> Option<f64> {
        self.host.simulation().next_event_time().map(|t| t as f64)
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
        Ok(self.host.simulation().work_estimate(until) as f64)
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
        match self.host.simulation().engine().peek(&id) {
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
        Ok(self.host.simulation().why_empty(&url, &caller))
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
            // Answered before anything is read, the options included: the
            // journal records the call without its caller.
            return Ok(Answer::Done(response::to_js(
                &self.host.oversized(&Principal::owner()),
            )?));
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
        let by = dispatch_principal(method, options_value)?;
        let answer = match self.host.dispatch(&target, &body, &by) {
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
        for (poll, response) in self.host.take_answers() {
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
    let mut engine = queuelab_engine::Engine::new(queuelab_engine::Config {
        event_capacity: 1_000,
        ..queuelab_engine::Config::default()
    });
    let url = queuelab_engine::workload::queue(&mut engine, "bench", false);
    queuelab_engine::workload::cycles(&mut engine, &url, u64::from(n));
}
