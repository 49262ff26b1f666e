//! The goal's conditions on who may call (and when: `noCallThrottled`)
//! and on what encryption costs,
//! watched beside the others (goal.rs): `noDeliveryLost` and
//! `noAccessDenied` from the run's events (SNS's delivery outcomes, the
//! gate's `accessDecided`), `kmsRequestsAtMost` from the `kmsRequested`
//! events, and at the end `leastPrivilege` and `encryptedWithKms` from the
//! engine itself: the policy as SQS evaluates it (`Engine::decide`, asked
//! for every action a policy can name), the encryption as its snapshot
//! shows it. Nothing here reads a policy's JSON or decides an SQS rule.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use queuelab_engine::{AccessReason, Action, Engine, EventKind, Grant, Millis, Principal};

use crate::document::{Goal, LeastPrivilege, Need};
use crate::log::SimEvent;
use crate::numbers::{count, ordinal, thousands};
use crate::teach::explain::secs;

/// A condition broken: its id and what happened, in words.
pub(super) type Found = (&'static str, String);

fn at(ms: Millis) -> String {
    format!("t = {}", secs(ms))
}

/// "account 111111111111", an IAM ARN, or a service's name.
fn who(principal: &str) -> String {
    let account = principal.len() == 12 && principal.bytes().all(|b| b.is_ascii_digit());
    match account {
        true => format!("account {principal}"),
        false => principal.to_string(),
    }
}

/// "statement PartnerReads", "statement #2".
fn statement_words(sid: Option<&str>, index: u32) -> String {
    sid.map_or_else(
        || format!("statement #{index}"),
        |s| format!("statement {s}"),
    )
}

/// Why the gate refused a call, in words, from its decision.
fn refusal(reason: &AccessReason, principal: &str, action: &str) -> String {
    let who = who(principal);
    match reason {
        AccessReason::Denied { statement, .. } => format!(
            "{} denies {who} {action}",
            statement_words(statement.sid.as_deref(), statement.index)
        ),
        AccessReason::OwnerOnly => format!("only the queue's own account may call {action}"),
        AccessReason::OtherAccount => format!("{who} cannot create queues here"),
        AccessReason::NoSuchQueue => "the queue does not exist".into(),
        _ => format!("no statement of its policy allows {who} to {action}"),
    }
}

pub(super) struct SecurityWatch {
    no_delivery_lost: bool,
    no_access_denied: bool,
    no_call_throttled: bool,
    kms_most: Option<u64>,
    /// The scenario's actors by name: only their calls count.
    actors: BTreeSet<String>,
    /// Each delivery still being tried whose last attempt SQS refused:
    /// (topic, queue, SNS message id) -> SQS's code.
    refused: BTreeMap<(Arc<str>, Arc<str>, String), &'static str>,
    deliveries: u64,
    lost: u64,
    denied: u64,
    throttled: u64,
    kms: BTreeMap<&'static str, u64>,
}

impl SecurityWatch {
    pub(super) fn new(goal: &Goal, actors: BTreeSet<String>) -> Self {
        SecurityWatch {
            no_delivery_lost: goal.no_delivery_lost,
            no_access_denied: goal.no_access_denied,
            no_call_throttled: goal.no_call_throttled,
            kms_most: goal.kms_requests_at_most,
            actors,
            refused: BTreeMap::new(),
            deliveries: 0,
            lost: 0,
            denied: 0,
            throttled: 0,
            kms: BTreeMap::new(),
        }
    }

    /// KMS requests so far.
    pub(super) fn kms_requests(&self) -> u64 {
        self.kms.values().sum()
    }

    /// One of the engine's events: a refused call, a KMS request.
    pub(super) fn observe_sqs(&mut self, now: Millis, kind: &EventKind) -> Option<Found> {
        match kind {
            EventKind::AccessDecided {
                queue,
                action,
                by: Some(by),
                principal,
                allowed: false,
                reason,
            } if self.no_access_denied && self.actors.contains(&**by) => {
                self.denied += 1;
                let why = refusal(reason, principal, action);
                let text = format!(
                    "{by}'s {action} on {queue} was refused at {}: AccessDenied, {why}",
                    at(now)
                );
                Some(("noAccessDenied", text))
            }
            EventKind::KmsRequested { api, .. } => {
                let name = match api {
                    queuelab_engine::KmsApi::GenerateDataKey => "GenerateDataKey",
                    queuelab_engine::KmsApi::Decrypt => "Decrypt",
                };
                *self.kms.entry(name).or_default() += 1;
                let n = self.kms_requests();
                let most = self.kms_most.filter(|most| n == most + 1)?;
                let text = format!(
                    "SQS made its {} KMS request at {} (goal: at most {})",
                    ordinal(n),
                    at(now),
                    thousands(most)
                );
                Some(("kmsRequestsAtMost", text))
            }
            _ => None,
        }
    }

    /// One of the simulation's events: a call SQS throttled, an SNS
    /// delivery's outcome.
    pub(super) fn observe_sim(&mut self, now: Millis, event: &SimEvent) -> Option<Found> {
        if let SimEvent::ActionFailed {
            actor,
            action,
            code,
            ..
        } = event
        {
            if !(self.no_call_throttled && *code == "RequestThrottled") {
                return None;
            }
            self.throttled += 1;
            let text = format!(
                "{actor}'s {action} was refused at {}: RequestThrottled, over the queue's \
                 quota for the second",
                at(now)
            );
            return (self.throttled == 1).then_some(("noCallThrottled", text));
        }
        if !self.no_delivery_lost {
            return None;
        }
        let key = |t: &Arc<str>, q: &Arc<str>, m: &str| (t.clone(), q.clone(), m.to_string());
        let (topic, queue, how) = match event {
            SimEvent::TopicDelivered {
                topic,
                queue,
                message_id,
                ..
            } => {
                self.deliveries += 1;
                self.refused.remove(&key(topic, queue, message_id));
                return None;
            }
            SimEvent::TopicDeliveryFailed {
                topic,
                queue,
                message_id,
                code,
                ..
            } => {
                self.refused.insert(key(topic, queue, message_id), code);
                return None;
            }
            SimEvent::TopicDropped {
                topic,
                queue,
                message_id,
                reason,
            } => {
                let how = match *reason {
                    "deadLetterQueueRefused" => {
                        "dropped: its dead-letter queue refused it too".to_string()
                    }
                    _ => "dropped: the subscription has no dead-letter queue".to_string(),
                };
                (topic, queue, (message_id, how))
            }
            SimEvent::TopicDeadLettered {
                topic,
                queue,
                dead_letter_queue,
                message_id,
            } => {
                let how =
                    format!("moved to the subscription's dead-letter queue {dead_letter_queue}");
                (topic, queue, (message_id, how))
            }
            _ => return None,
        };
        let (message_id, how) = how;
        self.deliveries += 1;
        self.lost += 1;
        let code = self
            .refused
            .remove(&key(topic, queue, message_id))
            .unwrap_or("an error");
        let text = format!(
            "{topic}'s delivery to {queue} was refused at {}: {code}, and {how}",
            at(now)
        );
        Some(("noDeliveryLost", text))
    }

    /// What a breach's sentence adds at the end: the run's totals.
    pub(super) fn totals(&self, condition: &str) -> Option<String> {
        let kms = || {
            let parts: Vec<String> = (self.kms.iter().rev())
                .map(|(api, n)| format!("{} {api}", thousands(*n)))
                .collect();
            parts.join(", ")
        };
        match condition {
            "noDeliveryLost" => Some(format!(
                "; {} of {} {} lost by the end",
                thousands(self.lost),
                thousands(self.deliveries),
                if self.deliveries == 1 {
                    "delivery was"
                } else {
                    "deliveries were"
                }
            )),
            "noAccessDenied" => Some(format!(
                "; {} refused by the end",
                count(self.denied, "call", "calls")
            )),
            "noCallThrottled" => Some(format!(
                "; {} throttled by the end",
                count(self.throttled, "call", "calls")
            )),
            "kmsRequestsAtMost" => Some(format!(
                "; {} by the end ({})",
                thousands(self.kms_requests()),
                kms()
            )),
            _ => None,
        }
    }
}

/// `encryptedWithKms`: the queue's encryption at the end, as the engine's
/// snapshot shows it; None when it is SSE-KMS.
pub(super) fn judge_encryption(queue: &str, engine: &Engine, now: Millis) -> Option<String> {
    let snapshot = engine.snapshot_window(Some(0));
    let q = snapshot.queues.iter().find(|q| q.name == queue);
    let state = match q.map(|q| q.encryption) {
        Some("sse-kms") => return None,
        Some("sse-sqs") => "encrypted with SSE-SQS (keys SQS owns), not with a KMS key",
        Some(_) => "not encrypted at all",
        None => "gone",
    };
    Some(format!("at the end ({}), {queue} was {state}", at(now)))
}

/// The actions a policy can name (a batch is authorised as its single form).
fn nameable() -> impl Iterator<Item = Action> {
    Action::ALL
        .into_iter()
        .filter(|a| !matches!(a.grant(), Grant::Through(_)))
}

/// A principal as SQS sees it: an account (id or IAM ARN), or a service
/// calling for `source_arn` (its account from the ARN, as SNS and S3 send it).
fn principal(name: &str, source_arn: Option<&str>) -> Result<Principal, String> {
    if !name.ends_with(".amazonaws.com") {
        return Principal::account(name);
    }
    let account = source_arn
        .and_then(|arn| arn.split(':').nth(4))
        .filter(|a| a.len() == 12 && a.bytes().all(|b| b.is_ascii_digit()));
    Principal::service(name, source_arn, account)
}

/// A need's principal, checked when the lab loads (validate.rs).
pub(super) fn need_principal(need: &Need) -> Result<(), String> {
    principal(&need.principal, need.source_arn.as_deref()).map(|_| ())
}

/// What `leastPrivilege` asks about a principal: whom, in words, and the
/// actions it may be allowed.
struct Probe {
    principal: Principal,
    words: String,
    may: Vec<String>,
}

/// The probes: each need's principal, then strangers (another account,
/// another account's topic and bucket) that may be allowed nothing.
fn probes(lp: &LeastPrivilege, region: &str) -> Vec<Probe> {
    let named: Vec<&str> = lp.grants.iter().map(|g| g.principal.as_str()).collect();
    let stranger = ["999999999999", "888888888888"]
        .into_iter()
        .find(|a| !named.iter().any(|n| n.contains(a)))
        .unwrap_or("999999999999");
    let mut out: Vec<Probe> = (lp.grants.iter())
        .filter_map(|g| {
            let principal = principal(&g.principal, g.source_arn.as_deref()).ok()?;
            let words = match &g.source_arn {
                Some(arn) => format!("{} (for {arn})", g.principal),
                None => who(&g.principal),
            };
            Some(Probe {
                principal,
                words,
                may: g.actions.clone(),
            })
        })
        .collect();
    let topic = format!("arn:aws:sns:{region}:{stranger}:another-topic");
    let bucket = "arn:aws:s3:::another-bucket".to_string();
    let strangers = [
        (
            stranger.to_string(),
            None,
            format!("any account ({stranger}, for one)"),
        ),
        (
            "sns.amazonaws.com".into(),
            Some(topic.clone()),
            format!("sns.amazonaws.com for any topic ({topic}, for one)"),
        ),
        (
            "s3.amazonaws.com".into(),
            Some(bucket.clone()),
            format!("s3.amazonaws.com for any bucket ({bucket}, for one)"),
        ),
    ];
    for (name, arn, words) in strangers {
        if let Ok(principal) = principal(&name, arn.as_deref()) {
            out.push(Probe {
                principal,
                words,
                may: Vec::new(),
            });
        }
    }
    out
}

/// "orders'", "partner-inbox's".
fn possessive(name: &str) -> String {
    match name.ends_with('s') {
        true => format!("{name}'"),
        false => format!("{name}'s"),
    }
}

/// "SendMessage, ListDeadLetterSourceQueues and PurgeQueue"; past four
/// names, "SendMessage, ReceiveMessage, DeleteMessage and 5 more".
fn some_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] if names.len() <= 4 => format!("{} and {last}", rest.join(", ")),
        _ => format!("{} and {} more", names[..3].join(", "), names.len() - 3),
    }
}

/// `leastPrivilege`: the first probe the queue's policy allows more than
/// it needs, as SQS decides; None when it allows no more than the grants.
pub(super) fn judge_privilege(lp: &LeastPrivilege, engine: &Engine, now: Millis) -> Option<String> {
    let snapshot = engine.snapshot_window(Some(0));
    let Some(q) = snapshot.queues.iter().find(|q| q.name == lp.queue) else {
        return Some(format!("{} was gone at the end ({})", lp.queue, at(now)));
    };
    for probe in probes(lp, &engine.config().region) {
        let mut extra: Vec<&str> = Vec::new();
        let mut statements: Vec<String> = Vec::new();
        for action in nameable() {
            if probe.may.iter().any(|m| m == action.name()) {
                continue;
            }
            let decision = engine.decide(&probe.principal, action, &q.url);
            if !decision.allowed {
                continue;
            }
            extra.push(action.name());
            if let AccessReason::Allowed { statement, .. } = &decision.reason {
                let words = statement_words(statement.sid.as_deref(), statement.index);
                if !statements.contains(&words) {
                    statements.push(words);
                }
            }
        }
        if extra.is_empty() {
            continue;
        }
        let needs = match probe.may.is_empty() {
            true => {
                let named: Vec<&str> = lp.grants.iter().map(|g| g.principal.as_str()).collect();
                format!("only {} should be allowed anything", named.join(" and "))
            }
            false => format!("it may be granted only {}", probe.may.join(", ")),
        };
        return Some(format!(
            "at the end ({}), {} policy lets {} call {} ({} allows it): {needs}",
            at(now),
            possessive(&lp.queue),
            probe.words,
            some_of(&extra),
            statements.join(", "),
        ));
    }
    None
}
