//! The scenario document's request-response parts: requesters, which send
//! a request with `ReplyTo` and `CorrelationId` message attributes and
//! long-poll a reply queue for the matching reply, and responders, which
//! answer each request to the queue its `ReplyTo` names. Types only
//! (`actors/requester.rs` and `actors/responder.rs` run them).

#[cfg(feature = "contract")]
use queuelab_engine::MAX_CALLER_CHARS;
use serde::{Deserialize, Serialize};

use super::rate::Rate;
use super::scenario::Processing;

/// The most requesters, and the most responders, a scenario has
/// (Queuelab's choice: a few clients and services make the pattern).
pub const MAX_REQUESTERS: usize = 20;
pub const MAX_RESPONDERS: usize = 20;

/// The longest a requester waits for a reply, in seconds (Queuelab's
/// choice: an hour; each of its long polls waits at most SQS's 20 s).
pub const MAX_REPLY_WAIT_SECONDS: u64 = 3_600;

/// A client that sends requests and waits for each reply, one request at
/// a time, as the request-response pattern's client code does.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Requester {
    /// Its name in the log, at most 80 characters.
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_CALLER_CHARS)))]
    pub name: String,
    /// The request queue, one of the scenario's queues.
    pub queue: String,
    /// Its reply queue: `perRequest` (a temporary queue created for each
    /// request and deleted when its wait ends, as the guide's `finally`
    /// does) or `perClient` (one queue, created once and kept).
    #[serde(default)]
    pub mode: ReplyMode,
    /// Its requests: `count` of them, one every `everyMs` from `startMs`,
    /// `{n}` in `body` numbering each. A request due while the previous
    /// one still waits is sent when that wait ends.
    pub rate: Rate,
    /// How long it waits for each reply, in seconds (1 to 3,600): long
    /// polls of at most 20 s each, until the reply or the wait's end.
    #[cfg_attr(
        feature = "contract",
        schemars(range(min = 1, max = MAX_REPLY_WAIT_SECONDS))
    )]
    pub reply_wait_seconds: u64,
    /// The start of its reply queues' names: `perRequest` names each
    /// `<prefix>-<n>` (unique), `perClient` names its one queue `<prefix>`.
    /// Default: `<name>-replies`. Letters, digits, `-` and `_`, at most 60.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub queue_name_prefix: Option<String>,
    /// `perRequest` only: every temporary queue gets this same name
    /// instead of a unique one, so a name deleted less than 60 seconds
    /// ago is created again (SQS refuses: `QueueDeletedRecently`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reuse_queue_name: bool,
}

/// Where a requester's replies come back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum ReplyMode {
    /// A temporary queue per request, deleted when its wait ends.
    #[default]
    PerRequest,
    /// One reply queue for the client, made once and kept.
    PerClient,
}

impl ReplyMode {
    /// Its name in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            ReplyMode::PerRequest => "perRequest",
            ReplyMode::PerClient => "perClient",
        }
    }
}

/// A service that answers requests: it receives one request at a time
/// from `queue`, works `processing` ms, sends its reply to the queue the
/// request's `ReplyTo` attribute names with the same `CorrelationId`,
/// then deletes the request.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Responder {
    /// Its name in the log, at most 80 characters.
    #[cfg_attr(feature = "contract", schemars(length(max = MAX_CALLER_CHARS)))]
    pub name: String,
    /// The request queue, one of the scenario's queues.
    pub queue: String,
    /// How long each request takes (drawn from the scenario's seed).
    pub processing: Processing,
}
