//! AddPermission and RemovePermission: the statements SQS writes into a
//! queue's `Policy` for you.
//!
//! AddPermission appends one statement (`Sid` = the label) to the policy,
//! making the generated document `{"Version":"2008-10-17","Id":"<arn>/SQSDefaultPolicy",
//! "Statement":[…]}` when the queue has none yet; RemovePermission takes the
//! statement with that label out, and removes the `Policy` attribute with
//! its last statement.
//!
//! The engine parses no JSON. A policy a caller sets with SetQueueAttributes
//! reaches it already read by the protocol layer into a [`QueuePolicy`]: its
//! text, plus its top-level members as JSON text and its statements with
//! their `Sid`s, the way `RedrivePolicy` arrives as a typed value. Everything
//! the engine writes, it writes with [`JsonWriter`], which escapes strings.

use std::sync::Arc;

use crate::api::{AddPermission, Caller};
use crate::error::{echo, ErrorCode, SqsError, SqsResult};
use crate::events::EventKind;
use crate::Engine;

/// Actions per AddPermission, as SQS's policy quotas say ("Actions per statement: 7").
const MAX_ACTIONS: usize = 7;
/// Accounts per AddPermission ("Principals: 50").
const MAX_PRINCIPALS: usize = 50;
/// Statements in one queue policy ("Statements: 20").
const MAX_STATEMENTS: usize = 20;
/// The longest label (API reference: "Maximum 80 characters").
const MAX_LABEL_CHARS: usize = 80;
/// The longest policy document, in bytes (SQS's policy quotas: "Bytes 8,192").
pub const MAX_POLICY_BYTES: usize = 8_192;
/// Conditions in one policy (SQS's policy quotas: "Conditions 10").
pub const MAX_POLICY_CONDITIONS: usize = 10;

/// A caller-set policy of more than [`MAX_POLICY_BYTES`]: refused before it
/// is read, in AWS's own words (recorded: 403 `OverLimit`, "Submitted
/// policy is over max allowed size.").
pub(crate) fn check_policy_bytes(text: &str) -> SqsResult<()> {
    if text.len() <= MAX_POLICY_BYTES {
        return Ok(());
    }
    Err(SqsError::new(
        ErrorCode::OverLimit,
        "Submitted policy is over max allowed size.",
    ))
}

/// A policy quota passed: `OverLimit` in the words AWS uses for actions
/// (recorded: "10 actions were found in a statement from the submitted
/// policy, max allowed is 7"), the same shape for the other counts.
fn over_quota(found: usize, what: &str, max: usize) -> SqsResult<()> {
    if found <= max {
        return Ok(());
    }
    Err(SqsError::new(
        ErrorCode::OverLimit,
        format!("{found} {what}, max allowed is {max}."),
    ))
}

/// The actions another account may be granted. The Developer Guide lists
/// the ones cross-account permissions never apply to (`OWNER_ONLY`); these
/// are the rest of the API's actions, plus `*`. A batch action is granted
/// through its single form (SendMessage covers SendMessageBatch).
const GRANTABLE: &[&str] = &[
    "*",
    "ChangeMessageVisibility",
    "DeleteMessage",
    "GetQueueAttributes",
    "GetQueueUrl",
    "ListDeadLetterSourceQueues",
    "PurgeQueue",
    "ReceiveMessage",
    "SendMessage",
];

/// "Cross-account permissions don't apply to the following actions" (Developer Guide).
const OWNER_ONLY: &[&str] = &[
    "AddPermission",
    "CancelMessageMoveTask",
    "CreateQueue",
    "DeleteQueue",
    "ListMessageMoveTasks",
    "ListQueues",
    "ListQueueTags",
    "RemovePermission",
    "SetQueueAttributes",
    "StartMessageMoveTask",
    "TagQueue",
    "UntagQueue",
];

/// A queue's `Policy` attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuePolicy {
    /// What GetQueueAttributes answers: the text as set, until AddPermission
    /// or RemovePermission rewrites it.
    text: String,
    members: Vec<PolicyMember>,
}

/// A top-level member of a policy document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyMember {
    /// `Statement` holding one statement object or a list of them.
    Statements(Vec<PolicyStatement>),
    /// Any other member (or a `Statement` that is not statement objects):
    /// its name, and its value as JSON text, kept as they came.
    Other { name: String, json: String },
}

/// One statement of a policy: its label, if it has one, its JSON text, and
/// what SQS's policy quotas count in it (read by whoever read the JSON).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PolicyStatement {
    pub sid: Option<String>,
    pub json: String,
    /// Values of its `Action` (or `NotAction`).
    pub actions: usize,
    /// Values of its `Principal` (or `NotPrincipal`): `"*"` is one, each
    /// account, ARN or service in its lists one more.
    pub principals: usize,
    /// Keys of its `Condition`, counted under every operator.
    pub conditions: usize,
}

impl QueuePolicy {
    /// A policy a caller set: its text and the members read from it, in
    /// their order.
    pub fn new(text: String, members: Vec<PolicyMember>) -> Self {
        QueuePolicy { text, members }
    }

    /// The policy's text, as GetQueueAttributes answers it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// SQS's policy quotas on a policy a caller sets: 8,192 bytes, 20
    /// statements, 7 actions per statement, and across the policy 50
    /// principals and 10 conditions (how AWS counts the last two is not
    /// recorded: docs/fidelity.md).
    pub(crate) fn check_quotas(&self) -> SqsResult<()> {
        check_policy_bytes(&self.text)?;
        let statements = || self.statements();
        let found = |what: &str| format!("{what} were found in the submitted policy");
        over_quota(statements().count(), &found("statements"), MAX_STATEMENTS)?;
        for s in statements() {
            let what = "actions were found in a statement from the submitted policy";
            over_quota(s.actions, what, MAX_ACTIONS)?;
        }
        let principals = statements().map(|s| s.principals).sum();
        over_quota(principals, &found("principals"), MAX_PRINCIPALS)?;
        let conditions = statements().map(|s| s.conditions).sum();
        over_quota(conditions, &found("conditions"), MAX_POLICY_CONDITIONS)
    }

    fn statements(&self) -> impl Iterator<Item = &PolicyStatement> {
        self.members.iter().flat_map(|m| match m {
            PolicyMember::Statements(list) => list.as_slice(),
            PolicyMember::Other { .. } => &[],
        })
    }

    fn has_label(&self, label: &str) -> bool {
        self.statements().any(|s| s.sid.as_deref() == Some(label))
    }

    /// The statement list AddPermission appends to, made when the policy has
    /// no `Statement` yet; `None` when its `Statement` holds something else.
    fn statement_list(&mut self) -> Option<&mut Vec<PolicyStatement>> {
        let at = self.members.iter().position(|m| match m {
            PolicyMember::Statements(_) => true,
            PolicyMember::Other { name, .. } => name == "Statement",
        });
        let at = match at {
            Some(at) => at,
            None => {
                self.members.push(PolicyMember::Statements(Vec::new()));
                self.members.len() - 1
            }
        };
        match &mut self.members[at] {
            PolicyMember::Statements(list) => Some(list),
            PolicyMember::Other { .. } => None,
        }
    }

    /// Writes the document back into `text`, members in their order.
    fn rewrite(&mut self) {
        let mut w = JsonWriter::default();
        w.open('{');
        for member in &self.members {
            match member {
                PolicyMember::Statements(list) => {
                    w.key("Statement");
                    w.open('[');
                    for s in list {
                        w.raw(&s.json);
                    }
                    w.close(']');
                }
                PolicyMember::Other { name, json } => {
                    w.key(name);
                    w.raw(json);
                }
            }
        }
        w.close('}');
        self.text = w.finish();
    }
}

/// A small JSON writer for the documents the engine makes: it places the
/// commas and escapes every string, so a value can never break the document.
#[derive(Default)]
struct JsonWriter {
    out: String,
    /// Whether the next value in the current object or list needs a comma.
    comma: bool,
}

impl JsonWriter {
    fn separate(&mut self) {
        if self.comma {
            self.out.push(',');
        }
        self.comma = true;
    }

    fn open(&mut self, bracket: char) {
        self.separate();
        self.out.push(bracket);
        self.comma = false;
    }

    fn close(&mut self, bracket: char) {
        self.out.push(bracket);
        self.comma = true;
    }

    /// An object member's name; its value follows without a comma.
    fn key(&mut self, name: &str) {
        self.string(name);
        self.out.push(':');
        self.comma = false;
    }

    fn string(&mut self, s: &str) {
        self.separate();
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '\t' => self.out.push_str("\\t"),
                c if c < ' ' => self.out.push_str(&format!("\\u{:04x}", c as u32)),
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    /// A value already written as JSON text.
    fn raw(&mut self, json: &str) {
        self.separate();
        self.out.push_str(json);
    }

    /// One string, or a list of them when there are several (as SQS writes
    /// `Principal.AWS` and `Action`).
    fn one_or_list(&mut self, items: &[String]) {
        if let [one] = items {
            self.string(one);
        } else {
            self.open('[');
            for item in items {
                self.string(item);
            }
            self.close(']');
        }
    }

    fn finish(self) -> String {
        self.out
    }
}

/// The statement AddPermission writes.
fn statement(label: &str, accounts: &[String], actions: &[String], arn: &str) -> String {
    let principals: Vec<String> = accounts
        .iter()
        .map(|a| format!("arn:aws:iam::{a}:root"))
        .collect();
    let actions: Vec<String> = actions.iter().map(|a| format!("SQS:{a}")).collect();
    let mut w = JsonWriter::default();
    w.open('{');
    w.key("Sid");
    w.string(label);
    w.key("Effect");
    w.string("Allow");
    w.key("Principal");
    w.open('{');
    w.key("AWS");
    w.one_or_list(&principals);
    w.close('}');
    w.key("Action");
    w.one_or_list(&actions);
    w.key("Resource");
    w.string(arn);
    w.close('}');
    w.finish()
}

/// The document AddPermission starts from when the queue has no policy.
fn generated(arn: &str) -> QueuePolicy {
    let mut id = JsonWriter::default();
    id.string(&format!("{arn}/SQSDefaultPolicy"));
    QueuePolicy {
        text: String::new(),
        members: vec![
            PolicyMember::Other {
                name: "Version".into(),
                json: "\"2008-10-17\"".into(),
            },
            PolicyMember::Other {
                name: "Id".into(),
                json: id.finish(),
            },
        ],
    }
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

/// An AWS account id: twelve digits.
fn is_account_id(id: &str) -> bool {
    id.len() == 12 && id.bytes().all(|b| b.is_ascii_digit())
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
        if GRANTABLE.contains(&action.as_str()) {
            continue;
        }
        let reason = if OWNER_ONLY.contains(&action.as_str()) {
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

impl Engine {
    /// AddPermission: lets `account_ids` call `actions` on the queue, by
    /// appending a statement labelled `label` to its `Policy`.
    pub fn add_permission(
        &mut self,
        queue_url: &str,
        request: &AddPermission,
        by: Caller,
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
        let Some(list) = policy.statement_list() else {
            return Err(SqsError::new(
                ErrorCode::InvalidAttributeValue,
                "Invalid value for the parameter Policy. Reason: the queue's Policy has a \
                 Statement that is not a statement or a list of statements, so AddPermission \
                 has nothing to add to. Set a valid policy, or clear it with an empty Policy.",
            ));
        };
        if list.len() >= MAX_STATEMENTS {
            return Err(SqsError::new(
                ErrorCode::OverLimit,
                format!(
                    "{} Statements were found, maximum allowed is {MAX_STATEMENTS}.",
                    list.len() + 1
                ),
            ));
        }
        list.push(PolicyStatement {
            sid: Some(label.clone()),
            json: statement(label, &request.account_ids, &request.actions, &arn),
            actions: request.actions.len(),
            principals: request.account_ids.len(),
            conditions: 0,
        });
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
            by: by.map(Arc::from),
        });
        Ok(())
    }

    /// RemovePermission: takes the statement labelled `label` out of the
    /// queue's `Policy`; with the last statement, the `Policy` goes too.
    pub fn remove_permission(&mut self, queue_url: &str, label: &str, by: Caller) -> SqsResult<()> {
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
            by: by.map(Arc::from),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_writer_escapes_what_would_break_a_json_string() {
        let mut w = JsonWriter::default();
        w.string("a\"b\\c\nd\u{1}é");
        assert_eq!(w.finish(), r#""a\"b\\c\nd\u0001é""#);
    }

    #[test]
    fn one_item_is_a_string_and_several_are_a_list() {
        let mut w = JsonWriter::default();
        w.open('[');
        w.one_or_list(&["x".into()]);
        w.one_or_list(&["x".into(), "y".into()]);
        w.close(']');
        assert_eq!(w.finish(), r#"["x",["x","y"]]"#);
    }
}
