//! Snapshots as a host hands them over: the engine's with the scenario's
//! part beside it, within the bounds of what a caller can take at once. A
//! full snapshot of more than `MAX_SNAPSHOT_MESSAGES`, or any answer of
//! more than `MAX_JSON_BYTES` of JSON, is refused with words that name
//! the way out (a window, a page of one queue).

use queuelab_engine::Snapshot;
use queuelab_simulation::{thousands, Simulation, SimulationSnapshot};
use serde::Serialize;

/// A full snapshot lists at most this many messages; past it, ask for a
/// window (`snapshot({ messagesPerQueue })`). At a million messages the
/// JSON is already about 230 MB.
pub const MAX_SNAPSHOT_MESSAGES: usize = 1_000_000;

/// No answer a host hands over is more JSON than this (large bodies can
/// make even a few messages big). V8's longest string is about 512 MiB.
pub const MAX_JSON_BYTES: usize = 256 << 20;

/// The engine's snapshot with the scenario's workers and counts beside it.
#[derive(Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(rename = "Snapshot"))]
pub struct FullSnapshot {
    #[serde(flatten)]
    engine: Snapshot,
    /// The scenario's part (empty lists without a scenario).
    simulation: SimulationSnapshot,
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

/// The moments of `sim` known before the run, in time order (see
/// `Simulation::planned_moments`).
pub(crate) fn planned_moments(sim: &Simulation) -> Vec<PlannedMoment> {
    sim.planned_moments()
        .into_iter()
        .map(|(t, text, checkpoint)| PlannedMoment {
            t: t as f64,
            text,
            checkpoint,
        })
        .collect()
}

/// The snapshot of `sim` as JSON text: every message, or each queue's
/// first `window` (held to its byte budget by the engine), and the side
/// effects performed at or after event `side_effects_since`. Refused, in
/// words, when it lists more than `MAX_SNAPSHOT_MESSAGES` without a
/// window or its JSON passes `MAX_JSON_BYTES`.
pub(crate) fn snapshot_json(
    sim: &Simulation,
    window: Option<usize>,
    side_effects_since: u64,
) -> Result<String, String> {
    let listed = sim.engine().messages_listed(window);
    // A window is held to its byte budget by the engine instead.
    if window.is_none() && listed > MAX_SNAPSHOT_MESSAGES {
        return Err(too_big(listed, window, false));
    }
    let mut engine = sim.engine().snapshot_window(window);
    // The page reads events by this number: the run's log, which
    // numbers the simulation's events and the engine's in one sequence.
    engine.next_event_seq = sim.next_event_seq();
    let full = FullSnapshot {
        engine,
        simulation: sim.snapshot_since(side_effects_since),
    };
    json_within(&full, MAX_JSON_BYTES).ok_or_else(|| too_big(listed, window, true))
}

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

/// An answer too big to hand over at once, in words.
pub fn too_much_json() -> String {
    format!(
        "the answer is more than {} MiB of JSON, more than JavaScript can take at once",
        MAX_JSON_BYTES >> 20
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

/// `value` as JSON text, or `None` past `limit` bytes (written no further
/// than that). Hosts hand values over as JSON text: one string crosses
/// into JavaScript instead of a call per field.
pub fn json_within<T: Serialize + ?Sized>(value: &T, limit: usize) -> Option<String> {
    let mut out = Bounded {
        text: Vec::new(),
        limit,
    };
    serde_json::to_writer(&mut out, value).ok()?;
    // serde_json writes only valid UTF-8.
    String::from_utf8(out.text).ok()
}
