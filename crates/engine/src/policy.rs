//! A queue's `Policy`: the document's types ([`QueuePolicy`], its members
//! and statements), SQS's policy quotas, and the [`JsonWriter`] the engine
//! writes policy JSON with. The statements' typed members are statement.rs;
//! evaluating a policy (who may call) is access.rs.
//!
//! The engine parses no JSON. A policy a caller sets with SetQueueAttributes
//! reaches it already read by the protocol layer into a [`QueuePolicy`]: its
//! text, plus its top-level members as JSON text and its statements with
//! their `Sid`s, the way `RedrivePolicy` arrives as a typed value. Everything
//! the engine writes, it writes with [`JsonWriter`], which escapes strings.

use crate::error::{ErrorCode, SqsError, SqsResult};
use crate::statement::{
    ActionPattern, Condition, Effect, Element, PrincipalPattern, ResourcePattern,
};

/// Actions per AddPermission, as SQS's policy quotas say ("Actions per statement: 7").
pub const MAX_ACTIONS: usize = 7;
/// Accounts per AddPermission ("Principals: 50").
pub const MAX_PRINCIPALS: usize = 50;
/// Statements in one queue policy ("Statements: 20").
pub(crate) const MAX_STATEMENTS: usize = 20;
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

/// A queue's `Policy` attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuePolicy {
    /// What GetQueueAttributes answers: the text as set, until AddPermission
    /// or RemovePermission rewrites it.
    text: String,
    pub(crate) members: Vec<PolicyMember>,
}

/// A top-level member of a policy document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyMember {
    /// `Statement` holding one statement object or a list of them.
    Statements(Vec<PolicyStatement>),
    /// `Version` or `Id`: its name, and its value as JSON text, kept as
    /// they came.
    Other { name: String, json: String },
}

/// One statement of a policy: its label, if it has one, its JSON text, and
/// its typed members (read by whoever read the JSON, with the constructors
/// of statement.rs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyStatement {
    pub sid: Option<String>,
    pub json: String,
    pub effect: Effect,
    pub principal: Element<PrincipalPattern>,
    pub action: Element<ActionPattern>,
    pub resource: Element<ResourcePattern>,
    /// Every key under every operator of its `Condition` (all must hold).
    pub conditions: Vec<Condition>,
}

impl PolicyStatement {
    /// What SQS's policy quotas count in it: values of its `Action`,
    /// values of its `Principal` (`"*"` is one, each account, ARN or
    /// service one more), and keys of its `Condition` under every operator.
    fn counts(&self) -> (usize, usize, usize) {
        (
            self.action.items.len(),
            self.principal.items.len(),
            self.conditions.len(),
        )
    }
}

/// "Invalid value for the parameter Policy." is AWS's whole answer to a
/// policy it cannot take (recorded); Queuelab adds the reason, in the
/// shape SQS uses for RedriveAllowPolicy.
pub fn malformed_policy(reason: &str) -> SqsError {
    SqsError::new(
        ErrorCode::InvalidAttributeValue,
        format!("Invalid value for the parameter Policy. Reason: {reason}."),
    )
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
            over_quota(s.counts().0, what, MAX_ACTIONS)?;
        }
        let principals = statements().map(|s| s.counts().1).sum();
        over_quota(principals, &found("principals"), MAX_PRINCIPALS)?;
        let conditions = statements().map(|s| s.counts().2).sum();
        over_quota(conditions, &found("conditions"), MAX_POLICY_CONDITIONS)
    }

    pub(crate) fn statements(&self) -> impl Iterator<Item = &PolicyStatement> {
        self.members.iter().flat_map(|m| match m {
            PolicyMember::Statements(list) => list.as_slice(),
            PolicyMember::Other { .. } => &[],
        })
    }

    pub(crate) fn has_label(&self, label: &str) -> bool {
        self.statements().any(|s| s.sid.as_deref() == Some(label))
    }

    /// The statement list AddPermission appends to, made when the policy has
    /// no `Statement` yet (a read policy's `Statement` is always statements:
    /// anything else is refused when it is set).
    pub(crate) fn statement_list(&mut self) -> &mut Vec<PolicyStatement> {
        let at = self
            .members
            .iter()
            .position(|m| matches!(m, PolicyMember::Statements(_)));
        let at = at.unwrap_or_else(|| {
            self.members.push(PolicyMember::Statements(Vec::new()));
            self.members.len() - 1
        });
        match &mut self.members[at] {
            PolicyMember::Statements(list) => list,
            PolicyMember::Other { .. } => unreachable!("found as statements"),
        }
    }

    /// Writes the document back into `text`, members in their order.
    pub(crate) fn rewrite(&mut self) {
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
pub(crate) struct JsonWriter {
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

    pub(crate) fn open(&mut self, bracket: char) {
        self.separate();
        self.out.push(bracket);
        self.comma = false;
    }

    pub(crate) fn close(&mut self, bracket: char) {
        self.out.push(bracket);
        self.comma = true;
    }

    /// An object member's name; its value follows without a comma.
    pub(crate) fn key(&mut self, name: &str) {
        self.string(name);
        self.out.push(':');
        self.comma = false;
    }

    pub(crate) fn string(&mut self, s: &str) {
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
    pub(crate) fn raw(&mut self, json: &str) {
        self.separate();
        self.out.push_str(json);
    }

    /// One string, or a list of them when there are several (as SQS writes
    /// `Principal.AWS` and `Action`).
    pub(crate) fn one_or_list(&mut self, items: &[String]) {
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

    pub(crate) fn finish(self) -> String {
        self.out
    }
}

/// The statement AddPermission writes.
pub(crate) fn statement(label: &str, accounts: &[String], actions: &[String], arn: &str) -> String {
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
pub(crate) fn generated(arn: &str) -> QueuePolicy {
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
