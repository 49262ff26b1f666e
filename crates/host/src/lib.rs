//! Queuelab for any host: what the wasm binding and a native server share.
//!
//! A host takes text and options from its caller and hands answers back.
//! This crate does everything between that knows nothing of JavaScript or
//! HTTP: a scenario read from its text with refusals in plain words and
//! placed (`parse_scenario`, `Placed`), the options as typed structs
//! (`PlaygroundOptions`, … with their field names and the `Config` they
//! make), `Defaults` and `Limits`, snapshots within their bounds, and
//! `Host`: a simulation that every external call reaches through
//! `Host::dispatch`, which records it in the run's `Journal`.
//!
//! The binding (`crates/wasm`) keeps what is JavaScript's: checking its
//! arguments' types, the response object and the Promises of long polls.
#![warn(unreachable_pub)]

mod caller;
mod journal;
mod json_path;
mod limits;
mod options;
mod scenario;
mod scenario_error;
mod snapshot;

use queuelab_engine::{PollId, Principal};
use queuelab_protocol::{
    cloudwatch, dispatch_as, lambda, oversized, poll_response, s3, sns, too_large, Dispatched,
    Response,
};
use queuelab_simulation::{Scenario, Simulation};

pub use journal::{Body, Journal, JournalCall, Since, MAX_JOURNAL_BYTES, MAX_JOURNAL_CALLS};
pub use limits::{Budgets, Defaults, Limits, QueueDefaults};
pub use options::{
    field_names, js_number_text, DispatchOptions, PlaygroundOptions, QueueMessagesOptions,
    RealismOptions, SnapshotOptions, DEFAULT_PAGE, MAX_PAGE,
};
pub use scenario::{consumer_traits, lab_refusal, parse_scenario, parse_settings};
pub use scenario_error::Placed;
pub use snapshot::{
    json_within, too_much_json, FullSnapshot, PlannedMoment, MAX_JSON_BYTES, MAX_SNAPSHOT_MESSAGES,
};

/// Why a run could not be made: a scenario that cannot run, placed in its
/// text, or a refusal in words (an option out of range, a queue SQS
/// would not create).
#[derive(Debug)]
pub enum Refusal {
    Scenario(Placed),
    Message(String),
}

/// A simulation behind a host: every external call goes through
/// `dispatch` (or `oversized`), which records it in the journal first.
pub struct Host {
    sim: Simulation,
    journal: Journal,
    /// Responses of external long polls answered, not yet taken.
    answered: Vec<(PollId, Response)>,
}

impl Host {
    /// An SQS endpoint with no scenario: queues come from its callers.
    pub fn new(options: PlaygroundOptions) -> Result<Host, String> {
        let config = options.config()?;
        let journal = Journal::new(None, config.seed, options);
        Ok(Host {
            sim: Simulation::empty(config),
            journal,
            answered: Vec::new(),
        })
    }

    /// A run of a scenario (the text of a scenario file), the options'
    /// seed replacing the scenario's when given.
    pub fn from_scenario(text: &str, options: PlaygroundOptions) -> Result<Host, Refusal> {
        let config = options.config().map_err(Refusal::Message)?;
        let scenario = parse_scenario(text, options.seed).map_err(Refusal::Scenario)?;
        let seed = scenario.seed;
        let sim = Simulation::new(scenario, config).map_err(|e| Refusal::Message(e.message))?;
        Ok(Host {
            sim,
            journal: Journal::new(Some(text.to_string()), seed, options),
            answered: Vec::new(),
        })
    }

    /// The run a journal describes, its calls made again at their moments,
    /// ending at the moment of its last call. Its own journal is the same
    /// journal. (Answers of long polls are taken by the host itself after
    /// every call and advance, so when its caller takes them changes nothing.)
    pub fn replay(journal: &Journal) -> Result<Host, Refusal> {
        let options = PlaygroundOptions {
            seed: Some(journal.seed),
            ..journal.options.clone()
        };
        let mut host = match &journal.scenario {
            Some(text) => Host::from_scenario(text, options)?,
            None => Host::new(options).map_err(Refusal::Message)?,
        };
        host.journal.options = journal.options.clone();
        for call in &journal.calls {
            let by = call.options().principal().map_err(Refusal::Message)?;
            let target = journal::target_of(&call.op);
            host.make_again(call.t, &target, call.body.0.as_deref(), &by)
                .map_err(Refusal::Message)?;
        }
        host.answered.clear();
        Ok(host)
    }

    /// Makes a recorded call again at its moment `t`: `dispatch` (or
    /// `oversized` for a call recorded without its body) once time has
    /// moved to `t`. What `replay` does for each call, for a host whose
    /// calls are kept elsewhere (a server's database). Err: the limit
    /// advancing to `t` would pass, in words.
    pub fn make_again(
        &mut self,
        t: u64,
        target: &str,
        body: Option<&str>,
        by: &Principal,
    ) -> Result<(), String> {
        // Time moves only to a later call: the host that recorded two
        // calls at one moment did not advance between them.
        if t > self.sim.now() {
            self.advance(t - self.sim.now())?;
        }
        match body {
            Some(body) => {
                self.dispatch(target, body, by);
            }
            None => {
                self.oversized(by);
            }
        }
        Ok(())
    }

    /// One request: `target` is the `X-Amz-Target` header
    /// (`AmazonSQS.SendMessage`), `body` its JSON text, `by` who makes it
    /// (`DispatchOptions::principal` reads a caller's words); or an SNS
    /// request (`AmazonSNS` with a query-protocol form, `AmazonSNS.Publish`
    /// with JSON: `queuelab_protocol::sns`), or an S3 one (`AmazonS3.PutObject`
    /// with JSON: `queuelab_protocol::s3`), or a CloudWatch one
    /// (`GraniteServiceVersion20100801.PutMetricData`, CloudWatch's JSON
    /// protocol: `queuelab_protocol::cloudwatch`), or your code's answer to
    /// a Lambda invocation (`Lambda.InvocationResponse`:
    /// `queuelab_protocol::lambda`). Recorded in the journal first,
    /// principal and all, so a replay makes the same call.
    pub fn dispatch(&mut self, target: &str, body: &str, by: &Principal) -> Dispatched {
        // What the protocol will not read is not kept either.
        if too_large(target, body) {
            return Dispatched::Done(self.oversized(by));
        }
        self.journal
            .record(self.sim.now(), Some(target), Some(body), by);
        let dispatched = if sns::is_sns(target) {
            Dispatched::Done(sns::dispatch(&mut self.sim, target, body, by))
        } else if s3::is_s3(target) {
            Dispatched::Done(s3::dispatch(&mut self.sim, target, body, by))
        } else if cloudwatch::is_cloudwatch(target) {
            Dispatched::Done(cloudwatch::dispatch(&mut self.sim, target, body, by))
        } else if lambda::is_lambda(target) {
            Dispatched::Done(lambda::dispatch(&mut self.sim, target, body, by))
        } else {
            dispatch_as(self.sim.engine_mut(), target, body, by)
        };
        // A send (a publish's deliveries too) may have answered waiting polls.
        self.collect_answers();
        dispatched
    }

    /// The answer to a request the host could tell was too large without
    /// reading it (past `MAX_REQUEST_BYTES`); recorded without its text.
    pub fn oversized(&mut self, by: &Principal) -> Response {
        self.journal.record(self.sim.now(), None, None, by);
        oversized(self.sim.engine_mut())
    }

    /// The responses of external long polls answered since the last time.
    pub fn take_answers(&mut self) -> Vec<(PollId, Response)> {
        std::mem::take(&mut self.answered)
    }

    /// Takes the answers of external polls from the simulation at once,
    /// after every call and advance: when the simulation hands them over
    /// shapes the run (its workers' answers are routed then too), so it
    /// is the host's rule, not each caller's.
    fn collect_answers(&mut self) {
        for (poll, result) in self.sim.take_external_answers() {
            let response = poll_response(self.sim.engine_mut(), result);
            self.answered.push((poll, response));
        }
    }

    /// Moves virtual time forward by `ms`; the new time, or the limit it
    /// would pass, in words.
    pub fn advance(&mut self, ms: u64) -> Result<u64, String> {
        let now = self
            .sim
            .try_advance(ms)
            .map_err(|limit| limit.to_string())?;
        self.collect_answers();
        Ok(now)
    }

    /// See `Simulation::pause_at_checkpoints`.
    pub fn pause_at_checkpoints(&mut self, on: bool) {
        self.sim.pause_at_checkpoints(on);
    }

    /// See `Simulation::pause_at_invocations`.
    pub fn pause_at_invocations(&mut self, on: bool) {
        self.sim.pause_at_invocations(on);
    }

    /// The run, to read (its events, counts, messages, estimates).
    pub fn simulation(&self) -> &Simulation {
        &self.sim
    }

    /// The scenario as the engine read it, every default filled in (and
    /// the seed in force); `None` for a host made with `new`.
    pub fn scenario(&self) -> Option<&Scenario> {
        self.journal.scenario.is_some().then(|| self.sim.scenario())
    }

    /// The moments known before the run (see `PlannedMoment`).
    pub fn planned_moments(&self) -> Vec<PlannedMoment> {
        snapshot::planned_moments(&self.sim)
    }

    /// The snapshot as JSON text, or why it is refused (see
    /// `snapshot::snapshot_json`).
    pub fn snapshot_json(
        &self,
        window: Option<usize>,
        side_effects_since: u64,
    ) -> Result<String, String> {
        snapshot::snapshot_json(&self.sim, window, side_effects_since)
    }

    /// The run's journal.
    pub fn journal(&self) -> &Journal {
        &self.journal
    }
}
