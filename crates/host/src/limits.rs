//! What a host reads before it runs anything: the defaults of what a
//! scenario leaves out, and the bounds of work, time and size. Read from
//! where each is decided (the engine's settings and budgets, the
//! simulation's work limits, the protocol's request cap, this crate's
//! journal budget), so no host and no page keeps a copy.

use queuelab_engine::Config;
use queuelab_protocol::MAX_REQUEST_BYTES;
use queuelab_simulation::{Consumer, Producer};
use serde::Serialize;

use crate::journal::{MAX_JOURNAL_BYTES, MAX_JOURNAL_CALLS};

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
    /// The external calls a playground's journal records (`journal()`);
    /// past it (or past `maxJournalBytes`) a call is counted in its
    /// `unrecorded`, and a replay from the journal stops short of it.
    max_journal_calls: usize,
    /// The bytes of calls (operation, body, caller) a journal records.
    max_journal_bytes: usize,
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
            max_journal_calls: MAX_JOURNAL_CALLS,
            max_journal_bytes: MAX_JOURNAL_BYTES,
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
