//! The journal: what made a run, as the host received it. The scenario's
//! text, the options and the seed in force, and every external call
//! dispatched through the host at its moment (`{ t, op, body, caller }`,
//! with `principal`, `sourceArn`, `sourceAccount` for a call made as
//! another account or a service),
//! failed calls too: a refused call still spends a request id and may be
//! billed, so a replay that left it out would not reach the same state.
//! The engine is deterministic, so the journal alone rebuilds the run
//! (`Host::replay`, which the host's tests hold to the same state), and a
//! share link carries the calls of it that succeeded.
//!
//! It is bounded (docs/limits.md): the first
//! `MAX_JOURNAL_CALLS` calls, or `MAX_JOURNAL_BYTES` of their text. Past
//! either it records no more and counts the calls it leaves out
//! (`unrecorded`, from `unrecordedFrom`), so a replay from it is exact up
//! to that moment and says where it stops being so.

use serde::{Serialize, Serializer};

use queuelab_engine::Principal;

use crate::caller::principal_words;
use crate::options::{DispatchOptions, PlaygroundOptions};

/// The most calls a journal records.
pub const MAX_JOURNAL_CALLS: usize = 100_000;

/// The most bytes of calls (operation, body and caller) a journal records:
/// 32 MiB, eight of the largest requests (`MAX_REQUEST_BYTES`).
pub const MAX_JOURNAL_BYTES: usize = 32 << 20;

/// One external call, as it was dispatched.
#[derive(Serialize, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct JournalCall {
    /// The virtual moment of the call, in ms.
    pub t: u64,
    /// The operation ("SendMessage"): the target without its `AmazonSQS.`
    /// prefix; "" for a target that names none, or a request too large to
    /// read; an SNS or S3 request's whole target ("AmazonSNS", its action
    /// in its form body, "AmazonSNS.Publish", "AmazonS3.PutObject").
    pub op: String,
    /// The request's JSON as a value (its text when it is not JSON; null
    /// for a request past `limits().maxRequestBytes`, answered without
    /// being read).
    #[cfg_attr(feature = "contract", ts(type = "unknown"))]
    pub body: Body,
    /// Who made the call, as the log names them (`dispatch`'s `caller`, or
    /// the name it gave a principal), or null.
    pub caller: Option<String>,
    /// Who the call was made as (`dispatch`'s `principal`): an account id,
    /// an IAM ARN or a service principal. Absent for the queues' own account
    /// (as in journals written before principals).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub principal: Option<String>,
    /// A service principal's `aws:SourceArn` (`dispatch`'s `sourceArn`).
    #[serde(rename = "sourceArn", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub source_arn: Option<String>,
    /// A service principal's `aws:SourceAccount` (`dispatch`'s `sourceAccount`).
    #[serde(rename = "sourceAccount", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub source_account: Option<String>,
}

impl JournalCall {
    /// The `dispatch` options that make this call again as the same principal.
    pub fn options(&self) -> DispatchOptions {
        DispatchOptions {
            caller: self.caller.clone(),
            principal: self.principal.clone(),
            source_arn: self.source_arn.clone(),
            source_account: self.source_account.clone(),
        }
    }
}

/// A call's body as sent: its exact text, or none for a request answered
/// without being read. Written out as the JSON it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Body(pub Option<String>);

impl Serialize for Body {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            None => s.serialize_none(),
            Some(text) => match serde_json::from_str::<serde_json::Value>(text) {
                Ok(value) => value.serialize(s),
                Err(_) => s.serialize_str(text),
            },
        }
    }
}

/// A run's journal, as the host keeps it (written out as `Since`).
#[derive(Clone, Debug, PartialEq)]
pub struct Journal {
    pub scenario: Option<String>,
    pub seed: u64,
    pub options: PlaygroundOptions,
    /// Every call recorded, in the order they were made.
    pub calls: Vec<JournalCall>,
    pub unrecorded: u64,
    pub unrecorded_from: Option<u64>,
    /// Bytes of the calls recorded, for the budget.
    bytes: usize,
}

/// A run's journal as a host hands it over, listing the calls from the
/// `from`-th on (all of them from 0), so a caller that read the first
/// calls already is not handed them again. (In Rust, a view of `Journal`.)
#[derive(Serialize, Debug, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(rename = "Journal"))]
#[serde(rename_all = "camelCase")]
pub struct Since<'a> {
    /// The scenario's text as given to `fromScenario`; null for a
    /// playground made with `new`.
    pub scenario: Option<&'a str>,
    /// The seed in force: the scenario's, or the options' that replaced it.
    pub seed: u64,
    /// The options the playground was made with.
    pub options: &'a PlaygroundOptions,
    /// The index of the first call listed.
    pub from: usize,
    /// The calls recorded, from `from` on, in the order they were made.
    pub calls: &'a [JournalCall],
    /// How many calls are recorded in all.
    pub recorded: usize,
    /// Calls made past the journal's budget and not recorded.
    pub unrecorded: u64,
    /// The moment of the first call not recorded: a replay from this
    /// journal is the run up to then. Null while every call is recorded.
    pub unrecorded_from: Option<u64>,
}

impl Serialize for Journal {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.since(0).serialize(s)
    }
}

impl Journal {
    pub(crate) fn new(scenario: Option<String>, seed: u64, options: PlaygroundOptions) -> Self {
        Journal {
            scenario,
            seed,
            options,
            calls: Vec::new(),
            unrecorded: 0,
            unrecorded_from: None,
            bytes: 0,
        }
    }

    /// Notes a call at moment `t` made as `by`. `target` and `body` are
    /// `None` for a request answered without being read (too large).
    pub(crate) fn record(
        &mut self,
        t: u64,
        target: Option<&str>,
        body: Option<&str>,
        by: &Principal,
    ) {
        let op = target.map_or("", op_of);
        let caller = by.name();
        let (principal, source_arn, source_account) = principal_words(by);
        let words = [&principal, &source_arn, &source_account];
        let bytes = op.len()
            + body.map_or(0, str::len)
            + caller.map_or(0, str::len)
            + words
                .iter()
                .map(|w| w.as_ref().map_or(0, String::len))
                .sum::<usize>();
        // Once one call is left out, every later one is too: what is
        // recorded stays the run's beginning, exact up to `unrecorded_from`.
        let full = self.calls.len() >= MAX_JOURNAL_CALLS
            || self.bytes.saturating_add(bytes) > MAX_JOURNAL_BYTES;
        if self.unrecorded > 0 || full {
            self.unrecorded += 1;
            self.unrecorded_from.get_or_insert(t);
            return;
        }
        self.bytes += bytes;
        self.calls.push(JournalCall {
            t,
            op: op.to_string(),
            body: Body(body.map(str::to_string)),
            caller: caller.map(str::to_string),
            principal,
            source_arn,
            source_account,
        });
    }

    /// The calls from the `from`-th on, with everything else: what a host
    /// hands to a caller that has read the first `from` already.
    pub fn since(&self, from: usize) -> Since<'_> {
        let from = from.min(self.calls.len());
        Since {
            scenario: self.scenario.as_deref(),
            seed: self.seed,
            options: &self.options,
            from,
            calls: &self.calls[from..],
            recorded: self.calls.len(),
            unrecorded: self.unrecorded,
            unrecorded_from: self.unrecorded_from,
        }
    }
}

/// A call's `op` in the journal: an SQS operation's name
/// (`SendMessage`), or another service's whole target (`AmazonSNS`,
/// `AmazonSNS.Publish`, `AmazonS3.PutObject`).
fn op_of(target: &str) -> &str {
    match queuelab_protocol::is_neighbour(target) {
        true => target,
        false => queuelab_protocol::operation_name(target),
    }
}

/// The target a journal's `op` was dispatched to (`op_of` undone).
pub(crate) fn target_of(op: &str) -> String {
    match queuelab_protocol::is_neighbour(op) {
        true => op.to_string(),
        false => format!("AmazonSQS.{op}"),
    }
}
