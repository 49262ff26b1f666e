//! A decision of the gate's authorisation step, as data: allowed or not,
//! and why ([`AccessReason`], which the `accessDecided` event carries and
//! the page words). Its own module so the event log can name it without
//! reaching the evaluation (`access.rs`), which logs events.

use serde::Serialize;

use crate::statement::ConditionMatch;

/// Which statement decided: its `Sid`, if it has one, and its place in the
/// policy (counting from 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct StatementRef {
    pub sid: Option<String>,
    pub index: u32,
}

/// Why a call was allowed or refused, as data (the page words it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum AccessReason {
    /// The queue's own account, which no statement denies.
    OwnerAccount,
    /// `statement` allows the call; `matched` are its conditions as the
    /// request met them.
    Allowed {
        statement: StatementRef,
        matched: Vec<ConditionMatch>,
    },
    /// The Deny `statement` applies: an explicit deny wins over any allow.
    Denied {
        statement: StatementRef,
        matched: Vec<ConditionMatch>,
    },
    /// Another account or a service, and no statement allows it.
    NoStatementAllows,
    /// An action cross-account permissions do not apply to: only the
    /// queue's own account may call it, whatever the policy says.
    OwnerOnly,
    /// CreateQueue by another account: the playground holds one account's
    /// queues.
    OtherAccount,
    /// [`Engine::decide`] on a URL that names no queue here.
    NoSuchQueue,
}

/// A decision: allowed or not, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub allowed: bool,
    pub reason: AccessReason,
}
