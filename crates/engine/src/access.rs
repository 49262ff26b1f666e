//! Who may call: a queue's `Policy` evaluated as IAM evaluates a
//! resource-based policy, at the gate (gate.rs), once the queue resolves
//! and before the operation validates anything of its own.
//!
//! An explicit Deny wins. The queue's own account is allowed unless a
//! statement denies it (identity policies are not modelled: an owner's
//! caller is taken to hold every permission its account grants). Another
//! account or a service needs an Allow whose principal, action, resource
//! and every condition match; even then, the actions "cross-account
//! permissions don't apply to" ([`Grant::OwnerOnly`]) stay the owner's.
//! A batch is authorised as its single action.

use crate::action::{Action, Grant};
use crate::api::Request;
use crate::decision::{AccessReason, Decision, StatementRef};
use crate::error::{ErrorCode, SqsError, SqsResult};
use crate::events::EventKind;
use crate::ids::decode_task_handle;
use crate::policy::PolicyStatement;
use crate::principal::{Identity, Principal};
use crate::statement::{ConditionMatch, Effect, PrincipalPattern};
use crate::Engine;

/// The action a call is authorised as: a batch as its single form.
pub fn authorised_as(action: Action) -> Action {
    match action.grant() {
        Grant::Through(single) => single,
        _ => action,
    }
}

/// What a call targets, for authorisation.
enum Target {
    /// A queue that exists.
    Queue(u32),
    /// A queue that does not resolve: the operation answers its own error.
    Missing,
    /// No queue (CreateQueue, ListQueues).
    Nothing,
}

/// The request context a policy's conditions read.
struct Context<'a> {
    by: &'a Principal,
    /// The caller's account (`aws:PrincipalAccount`); none for a service.
    account: Option<&'a str>,
}

impl Context<'_> {
    /// The request's value of a condition key (matched case-insensitively);
    /// `None` for a key this request does not have. Every call here is
    /// taken to come over HTTPS (`aws:SecureTransport` is "true"); no
    /// caller has a source IP.
    fn value(&self, key: &str) -> Option<&str> {
        let is = |name: &str| key.eq_ignore_ascii_case(name);
        match self.by.identity() {
            Identity::Service { source_arn, .. } if is("aws:SourceArn") => source_arn.as_deref(),
            Identity::Service { source_account, .. } if is("aws:SourceAccount") => {
                source_account.as_deref()
            }
            _ if is("aws:PrincipalAccount") => self.account,
            _ if is("aws:SecureTransport") => Some("true"),
            _ => None,
        }
    }

    fn is(&self, pattern: &PrincipalPattern) -> bool {
        match (pattern, self.by.identity()) {
            (PrincipalPattern::Anyone, _) => true,
            (PrincipalPattern::Service(name), Identity::Service { service, .. }) => {
                name == service.name()
            }
            (PrincipalPattern::Service(_), _) => false,
            (PrincipalPattern::Account(id), _) => self.account == Some(id.as_str()),
            (PrincipalPattern::Arn(arn), Identity::Account { arn: Some(own), .. }) => arn == own,
            (PrincipalPattern::Arn(_), _) => false,
        }
    }

    /// Whether `s` applies to this call: its principal, action and resource
    /// match and every condition holds (the conditions as they held).
    fn applies(
        &self,
        s: &PolicyStatement,
        action: Action,
        arn: &str,
    ) -> Option<Vec<ConditionMatch>> {
        let matches = s.principal.matches(|p| self.is(p))
            && s.action.matches(|a| a.matches(action))
            && s.resource.matches(|r| r.matches(arn));
        if !matches {
            return None;
        }
        s.conditions
            .iter()
            .map(|c| c.holds(self.value(&c.key)))
            .collect()
    }
}

impl Engine {
    /// Whether `by` is the queues' own account: the owner, or an account
    /// principal of the engine's account.
    pub(crate) fn is_owner(&self, by: &Principal) -> bool {
        self.account_of(by) == Some(self.config.account_id.as_str())
    }

    fn account_of<'a>(&'a self, by: &'a Principal) -> Option<&'a str> {
        match by.identity() {
            Identity::Owner => Some(&self.config.account_id),
            Identity::Account { account_id, .. } => Some(account_id),
            Identity::Service { .. } => None,
        }
    }

    /// Whether `by` may call `action` on the queue at `queue_url`, and why,
    /// without making the call or logging anything (a neighbour checking a
    /// destination asks this).
    pub fn decide(&self, by: &Principal, action: Action, queue_url: &str) -> Decision {
        match self.resolve(queue_url) {
            Ok(id) => self.decide_on(by, action, id),
            Err(_) => Decision {
                allowed: false,
                reason: AccessReason::NoSuchQueue,
            },
        }
    }

    fn decide_on(&self, by: &Principal, action: Action, id: u32) -> Decision {
        let action = authorised_as(action);
        let queue = self.queue(id);
        let context = Context {
            by,
            account: self.account_of(by),
        };
        let statements = queue.settings.policy.iter().flat_map(|p| p.statements());
        let mut allow = None;
        for (i, s) in statements.enumerate() {
            let Some(matched) = context.applies(s, action, &queue.arn) else {
                continue;
            };
            let statement = StatementRef {
                sid: s.sid.clone(),
                index: i as u32 + 1,
            };
            if s.effect == Effect::Deny && !owner_may_always(self.is_owner(by), action) {
                let reason = AccessReason::Denied { statement, matched };
                return refused(reason);
            }
            allow.get_or_insert(AccessReason::Allowed { statement, matched });
        }
        let reason = match allow {
            _ if !self.is_owner(by) && action.grant() == Grant::OwnerOnly => {
                return refused(AccessReason::OwnerOnly)
            }
            Some(allowed) => allowed,
            None if self.is_owner(by) => AccessReason::OwnerAccount,
            None => return refused(AccessReason::NoStatementAllows),
        };
        Decision {
            allowed: true,
            reason,
        }
    }

    /// The gate's authorisation step: decides, logs the decision when it is
    /// another account's or a refusal, and answers `AccessDenied` for a
    /// refusal. A call whose queue does not resolve goes on to answer that.
    pub(crate) fn authorise(&mut self, by: &Principal, request: &Request<'_>) -> SqsResult<()> {
        let action = request.action();
        let (queue, arn, decision) = match self.target(by, request)? {
            Target::Missing => return Ok(()),
            Target::Nothing => match request {
                Request::CreateQueue { name, .. } if !self.is_owner(by) => {
                    let account = self.account_of(by).unwrap_or("");
                    let arn = format!("arn:aws:sqs:{}:{account}:{name}", self.config.region);
                    (name.to_string(), arn, refused(AccessReason::OtherAccount))
                }
                _ => return Ok(()),
            },
            Target::Queue(id) => {
                let decision = self.decide_on(by, action, id);
                // The owner's plain call logs nothing: answered before the
                // queue's name and ARN are copied for an event (every call
                // passes here).
                if decision.allowed && self.is_owner(by) {
                    return Ok(());
                }
                let queue = self.queue(id);
                (queue.name.to_string(), queue.arn.to_string(), decision)
            }
        };
        let error = (!decision.allowed).then(|| self.access_denied(by, action, &arn, &decision));
        self.emit(EventKind::AccessDecided {
            queue: queue.into(),
            action: authorised_as(action).name(),
            by: by.by(),
            principal: principal_text(by, &self.config.account_id),
            allowed: decision.allowed,
            reason: decision.reason,
        });
        error.map_or(Ok(()), Err)
    }

    /// The queue a request targets. GetQueueUrl looks its name up in the
    /// caller's own account unless `QueueOwnerAWSAccountId` names another,
    /// so another account finds the owner's queue only by naming it.
    fn target(&self, by: &Principal, request: &Request<'_>) -> SqsResult<Target> {
        let found = |id: Option<u32>| id.map_or(Target::Missing, Target::Queue);
        Ok(match request {
            Request::GetQueueUrl { name, owner } => {
                if owner.or(self.account_of(by)) != Some(self.config.account_id.as_str()) {
                    return Err(SqsError::no_queue());
                }
                found(self.by_name.get(*name).copied())
            }
            Request::StartMessageMoveTask { source_arn, .. }
            | Request::ListMessageMoveTasks { source_arn, .. } => {
                found(self.resolve_arn(source_arn))
            }
            Request::CancelMessageMoveTask { task_handle } => {
                found(decode_task_handle(task_handle).and_then(|(_, arn)| self.resolve_arn(&arn)))
            }
            other => match other.queue_url() {
                Some(url) => found(self.resolve(url).ok()),
                None => Target::Nothing,
            },
        })
    }

    /// AWS's refusal in today's words: "User: <arn> is not authorized to
    /// perform: sqs:<action> on resource: <queue arn> because …". A
    /// service principal is named by its service name.
    fn access_denied(
        &self,
        by: &Principal,
        action: Action,
        resource: &str,
        decision: &Decision,
    ) -> SqsError {
        let account = &self.config.account_id;
        let action = format!("sqs:{}", authorised_as(action).name().to_ascii_lowercase());
        let why = match decision.reason {
            AccessReason::Denied { .. } => {
                "with an explicit deny in a resource-based policy".to_string()
            }
            AccessReason::OwnerOnly => format!(
                "because cross-account permissions do not apply to the {action} action: only \
                 the queue's own account may call it"
            ),
            AccessReason::OtherAccount => format!(
                "because this playground holds only account {account}'s queues: another \
                 account cannot create one here"
            ),
            _ => format!("because no resource-based policy allows the {action} action"),
        };
        let user = match by.identity() {
            Identity::Owner => format!("arn:aws:iam::{account}:root"),
            Identity::Account { arn: Some(arn), .. } => arn.clone(),
            Identity::Account { account_id, .. } => format!("arn:aws:iam::{account_id}:root"),
            Identity::Service { service, .. } => service.name().to_string(),
        };
        SqsError::new(
            ErrorCode::AccessDenied,
            format!(
                "User: {user} is not authorized to perform: {action} on resource: {resource} {why}"
            ),
        )
    }
}

/// The queue's own account may always read and set its attributes, so a
/// policy that denies everyone can still be seen and fixed (Queuelab's
/// choice: S3 lets an account's root do the same for a bucket policy;
/// SQS's answer is not recorded).
fn owner_may_always(owner: bool, action: Action) -> bool {
    owner
        && matches!(
            action,
            Action::GetQueueAttributes | Action::SetQueueAttributes
        )
}

fn refused(reason: AccessReason) -> Decision {
    Decision {
        allowed: false,
        reason,
    }
}

/// The principal as the log names it: an account id, an IAM ARN, or a
/// service's name.
fn principal_text(by: &Principal, owner: &str) -> String {
    match by.identity() {
        Identity::Owner => owner.to_string(),
        Identity::Account { arn: Some(arn), .. } => arn.clone(),
        Identity::Account { account_id, .. } => account_id.clone(),
        Identity::Service { service, .. } => service.name().to_string(),
    }
}
