//! AddPermission and RemovePermission: the statements SQS writes into a
//! queue's `Policy` for you.
//!
//! AddPermission appends one statement (`Sid` = the label) to the policy,
//! making the generated document `{"Version":"2008-10-17","Id":"<arn>/SQSDefaultPolicy",
//! "Statement":[…]}` when the queue has none yet; RemovePermission takes the
//! statement with that label out, and removes the `Policy` attribute with
//! its last statement.
//!
//! The policy document itself (its types, quotas and writer) is `policy.rs`.

use crate::action::{Action, Grant};
use crate::api::AddPermission;
use crate::error::{echo, ErrorCode, SqsError, SqsResult};
use crate::events::EventKind;
use crate::policy::{
    generated, statement, PolicyMember, PolicyStatement, QueuePolicy, MAX_ACTIONS, MAX_PRINCIPALS,
    MAX_STATEMENTS,
};
use crate::principal::is_account_id;
use crate::statement::{ActionPattern, Effect, Element, PrincipalPattern, ResourcePattern};
use crate::{Engine, Principal};

/// The longest label (API reference: "Maximum 80 characters").
const MAX_LABEL_CHARS: usize = 80;

/// Whether AddPermission may grant `action` to another account: `*`, or an
/// action whose [`Grant`] says so ([`Action`] lists them). A batch action
/// is granted through its single form (SendMessage covers SendMessageBatch).
fn grantable(action: &str) -> bool {
    action == "*" || Action::from_name(action).is_some_and(|a| a.grant() == Grant::Grantable)
}

/// "Cross-account permissions don't apply to the following actions" (Developer Guide).
fn owner_only(action: &str) -> bool {
    Action::from_name(action).is_some_and(|a| a.grant() == Grant::OwnerOnly)
}

fn check_label(label: &str) -> SqsResult<()> {
    let ok = (1..=MAX_LABEL_CHARS).contains(&label.chars().count())
        && label
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(SqsError::invalid_value(
            "Label",
            label,
            "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length.",
        ))
    }
}

fn check_request(request: &AddPermission) -> SqsResult<()> {
    check_label(&request.label)?;
    let actions = &request.actions;
    if actions.is_empty() {
        return Err(SqsError::missing("Actions"));
    }
    if actions.len() > MAX_ACTIONS {
        return Err(SqsError::new(
            ErrorCode::OverLimit,
            format!(
                "{} Actions were found, maximum allowed is {MAX_ACTIONS}.",
                actions.len()
            ),
        ));
    }
    let accounts = &request.account_ids;
    if accounts.is_empty() {
        return Err(SqsError::invalid_value(
            "PrincipalId",
            "[]",
            "Unable to verify.",
        ));
    }
    if accounts.len() > MAX_PRINCIPALS {
        return Err(SqsError::new(
            ErrorCode::OverLimit,
            format!(
                "{} Principals were found, maximum allowed is {MAX_PRINCIPALS}.",
                accounts.len()
            ),
        ));
    }
    if let Some(bad) = accounts.iter().find(|a| !is_account_id(a)) {
        return Err(SqsError::invalid_value(
            "PrincipalId",
            format!("[{}]", echo(bad)),
            "Unable to verify.",
        ));
    }
    for action in actions {
        if grantable(action) {
            continue;
        }
        let reason = if owner_only(action) {
            "Only the queue owner is allowed to invoke this action."
        } else {
            "Please refer to the appropriate WSDL for a list of valid actions."
        };
        return Err(SqsError::invalid_value(
            "ActionName",
            format!("SQS:{}", echo(action)),
            reason,
        ));
    }
    Ok(())
}

/// The statement AddPermission adds: its text, and the same grant typed
/// (each account's root, each action `SQS:<Action>`, the queue's ARN).
fn granted(label: &str, accounts: &[String], actions: &[String], arn: &str) -> PolicyStatement {
    let action = |a: &String| {
        ActionPattern::parse(&format!("SQS:{a}")).expect("check_request took only SQS actions")
    };
    PolicyStatement {
        sid: Some(label.to_string()),
        json: statement(label, accounts, actions, arn),
        effect: Effect::Allow,
        principal: Element::new(
            false,
            accounts
                .iter()
                .map(|a| PrincipalPattern::Account(a.clone()))
                .collect(),
        ),
        action: Element::new(false, actions.iter().map(action).collect()),
        resource: Element::new(
            false,
            vec![ResourcePattern::parse(arn).expect("a queue ARN is an ARN")],
        ),
        conditions: Vec::new(),
    }
}

impl Engine {
    /// AddPermission: lets `account_ids` call `actions` on the queue, by
    /// appending a statement labelled `label` to its `Policy`.
    pub(crate) fn add_permission_as(
        &mut self,
        queue_url: &str,
        request: &AddPermission,
        by: &Principal,
    ) -> SqsResult<()> {
        let id = self.resolve(queue_url)?;
        check_request(request)?;
        let queue = self.queue(id);
        let mut policy = match &queue.settings.policy {
            Some(policy) => policy.clone(),
            None => generated(&queue.arn),
        };
        let label = &request.label;
        if policy.has_label(label) {
            return Err(SqsError::invalid_value("Label", label, "Already exists."));
        }
        let arn = queue.arn.clone();
        let list = policy.statement_list();
        if list.len() >= MAX_STATEMENTS {
            return Err(SqsError::new(
                ErrorCode::OverLimit,
                format!(
                    "{} Statements were found, maximum allowed is {MAX_STATEMENTS}.",
                    list.len() + 1
                ),
            ));
        }
        list.push(granted(label, &request.account_ids, &request.actions, &arn));
        policy.rewrite();
        // The whole policy is held to the quotas a caller-set one is, so
        // what AddPermission writes can always be read back and set again.
        policy.check_quotas()?;
        self.store_policy(id, Some(policy));
        let queue = self.queue(id).name.clone();
        self.emit(EventKind::PermissionAdded {
            queue,
            label: label.clone(),
            accounts: request.account_ids.clone(),
            actions: request.actions.clone(),
            by: by.by(),
        });
        Ok(())
    }

    /// RemovePermission: takes the statement labelled `label` out of the
    /// queue's `Policy`; with the last statement, the `Policy` goes too.
    pub(crate) fn remove_permission_as(
        &mut self,
        queue_url: &str,
        label: &str,
        by: &Principal,
    ) -> SqsResult<()> {
        let id = self.resolve(queue_url)?;
        let queue = self.queue(id);
        let Some(mut policy) = queue.settings.policy.clone().filter(|p| p.has_label(label)) else {
            return Err(SqsError::invalid_value("Label", label, "can't find label."));
        };
        for member in &mut policy.members {
            if let PolicyMember::Statements(list) = member {
                list.retain(|s| s.sid.as_deref() != Some(label));
            }
        }
        let left = policy.statements().count();
        let policy = if left == 0 {
            None
        } else {
            policy.rewrite();
            Some(policy)
        };
        self.store_policy(id, policy);
        let queue = self.queue(id).name.clone();
        self.emit(EventKind::PermissionRemoved {
            queue,
            label: label.to_string(),
            by: by.by(),
        });
        Ok(())
    }

    fn store_policy(&mut self, id: u32, policy: Option<QueuePolicy>) {
        let now = self.now;
        let mut queue = self.queue_mut(id);
        queue.settings.policy = policy;
        queue.modified_at = now;
    }
}
