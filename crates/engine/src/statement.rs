//! The typed members of a policy statement (`Effect`, `Principal`,
//! `Action`, `Resource`, `Condition`), each made valid or refused with a
//! sentence naming what is wrong, and how each matches a request.
//!
//! The protocol layer reads a policy's JSON and builds these with the
//! constructors here, so the rules on values (which effects, which
//! principals, which operators) are the engine's. Matching follows IAM:
//! actions case-insensitively with `*` and `?` wildcards, resources and
//! ARN conditions with wildcards, condition values ORed and keys ANDed.

use crate::action::{Action, Grant};
use crate::error::echo;
use crate::principal::{iam_arn_account, is_account_id};

fn quoted(value: &str) -> String {
    format!("\"{}\"", echo(value))
}

/// Allow or Deny.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Allow,
    Deny,
}

impl Effect {
    /// `Allow` or `Deny`, spelled as IAM spells them.
    pub fn parse(text: &str) -> Result<Effect, String> {
        match text {
            "Allow" => Ok(Effect::Allow),
            "Deny" => Ok(Effect::Deny),
            _ => Err(format!(
                "unknown Effect {}: it must be Allow or Deny",
                quoted(text)
            )),
        }
    }
}

/// A statement element (`Principal`, `Action`, `Resource`) and whether it
/// is written in its `Not` form (`NotPrincipal`, `NotAction`,
/// `NotResource`): then the statement applies to whatever the list does
/// not match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element<T> {
    pub not: bool,
    pub items: Vec<T>,
}

impl<T> Element<T> {
    pub fn new(not: bool, items: Vec<T>) -> Self {
        Element { not, items }
    }

    pub(crate) fn matches(&self, mut test: impl FnMut(&T) -> bool) -> bool {
        self.items.iter().any(&mut test) != self.not
    }
}

/// One value of a statement's `Principal`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrincipalPattern {
    /// `"*"` or `{"AWS": "*"}`: anyone, a service included.
    Anyone,
    /// An account: its id or its root ARN (`arn:aws:iam::<id>:root`), which
    /// stands for every principal of that account.
    Account(String),
    /// One IAM user or role, by its ARN.
    Arn(String),
    /// A service principal (`sns.amazonaws.com`).
    Service(String),
}

impl PrincipalPattern {
    /// A value of `Principal.AWS`: `*`, an account id, or an IAM ARN.
    pub fn aws(value: &str) -> Result<Self, String> {
        if value == "*" {
            return Ok(PrincipalPattern::Anyone);
        }
        if is_account_id(value) {
            return Ok(PrincipalPattern::Account(value.to_string()));
        }
        match iam_arn_account(value) {
            Ok(account) if value.ends_with(":root") => {
                Ok(PrincipalPattern::Account(account.to_string()))
            }
            Ok(_) => Ok(PrincipalPattern::Arn(value.to_string())),
            Err(_) => Err(format!(
                "invalid principal {}: an AWS principal is \"*\", a 12-digit account id or an \
                 IAM ARN (arn:aws:iam::111111111111:root, …:user/name or …:role/name)",
                quoted(value)
            )),
        }
    }

    /// A value of `Principal.Service`: `<name>.amazonaws.com`.
    pub fn service(value: &str) -> Result<Self, String> {
        let name = value.strip_suffix(".amazonaws.com").unwrap_or("");
        if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            Ok(PrincipalPattern::Service(value.to_string()))
        } else {
            Err(format!(
                "invalid service principal {}: a service is named like sns.amazonaws.com",
                quoted(value)
            ))
        }
    }
}

/// One value of a statement's `Action`: `*`, or `sqs:` and an action name
/// that may hold wildcards (`sqs:Send*`), kept lower-cased.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionPattern {
    /// The pattern after `sqs:` (`*` for the bare `*`).
    name: String,
}

/// The actions a policy can name: every action but a batch, which is
/// authorised as its single form.
fn nameable() -> impl Iterator<Item = Action> {
    Action::ALL
        .into_iter()
        .filter(|a| !matches!(a.grant(), Grant::Through(_)))
}

impl ActionPattern {
    /// `*`, `sqs:*`, `sqs:SendMessage`, `sqs:Send*` (any case). A pattern
    /// that names no SQS action is refused, so a typo cannot pass silently.
    pub fn parse(text: &str) -> Result<Self, String> {
        if text == "*" {
            return Ok(ActionPattern { name: "*".into() });
        }
        let lower = text.to_ascii_lowercase();
        let Some(name) = lower.strip_prefix("sqs:") else {
            return Err(format!(
                "Action {} is not an SQS action: write sqs:<Action> (sqs:SendMessage, sqs:Send*, \
                 sqs:*) or *",
                quoted(text)
            ));
        };
        let pattern = ActionPattern { name: name.into() };
        if !nameable().any(|a| pattern.matches(a)) {
            return Err(format!(
                "Action {} names no SQS action (a batch is authorised as its single action: \
                 sqs:SendMessage covers SendMessageBatch)",
                quoted(text)
            ));
        }
        Ok(pattern)
    }

    /// Whether it names `action`, case-insensitively.
    pub(crate) fn matches(&self, action: Action) -> bool {
        glob(&self.name, &action.name().to_ascii_lowercase())
    }
}

/// One value of a statement's `Resource`: `*` or an ARN that may hold
/// wildcards (`arn:aws:sqs:*:111111111111:orders-*`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourcePattern(String);

impl ResourcePattern {
    pub fn parse(text: &str) -> Result<Self, String> {
        let arn = text.starts_with("arn:") && text.split(':').count() >= 6;
        if text == "*" || arn {
            Ok(ResourcePattern(text.to_string()))
        } else {
            Err(format!(
                "Resource {} is not an ARN: write the queue's ARN \
                 (arn:aws:sqs:<region>:<account>:<queue>, wildcards allowed) or *",
                quoted(text)
            ))
        }
    }

    pub(crate) fn matches(&self, arn: &str) -> bool {
        glob(&self.0, arn)
    }
}

/// A condition operator, as IAM names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    ArnEquals,
    ArnLike,
    ArnNotEquals,
    ArnNotLike,
    StringEquals,
    StringNotEquals,
    StringEqualsIgnoreCase,
    StringNotEqualsIgnoreCase,
    StringLike,
    StringNotLike,
    Bool,
    IpAddress,
    NotIpAddress,
}

impl Operator {
    const ALL: [Operator; 13] = [
        Operator::ArnEquals,
        Operator::ArnLike,
        Operator::ArnNotEquals,
        Operator::ArnNotLike,
        Operator::StringEquals,
        Operator::StringNotEquals,
        Operator::StringEqualsIgnoreCase,
        Operator::StringNotEqualsIgnoreCase,
        Operator::StringLike,
        Operator::StringNotLike,
        Operator::Bool,
        Operator::IpAddress,
        Operator::NotIpAddress,
    ];

    pub fn name(self) -> &'static str {
        use Operator::*;
        match self {
            ArnEquals => "ArnEquals",
            ArnLike => "ArnLike",
            ArnNotEquals => "ArnNotEquals",
            ArnNotLike => "ArnNotLike",
            StringEquals => "StringEquals",
            StringNotEquals => "StringNotEquals",
            StringEqualsIgnoreCase => "StringEqualsIgnoreCase",
            StringNotEqualsIgnoreCase => "StringNotEqualsIgnoreCase",
            StringLike => "StringLike",
            StringNotLike => "StringNotLike",
            Bool => "Bool",
            IpAddress => "IpAddress",
            NotIpAddress => "NotIpAddress",
        }
    }

    /// The negated operators match a request that lacks the key.
    fn negated(self) -> bool {
        use Operator::*;
        matches!(
            self,
            ArnNotEquals
                | ArnNotLike
                | StringNotEquals
                | StringNotEqualsIgnoreCase
                | StringNotLike
                | NotIpAddress
        )
    }

    /// Whether the policy's `value` matches the request's `got`, in the
    /// operator's positive sense. ArnEquals and ArnLike both take
    /// wildcards, as IAM's do. No request here has an IP address (no
    /// simulated caller has a source IP), so IpAddress never matches.
    fn compares(self, value: &str, got: &str) -> bool {
        use Operator::*;
        match self {
            ArnEquals | ArnLike | ArnNotEquals | ArnNotLike | StringLike | StringNotLike => {
                glob(value, got)
            }
            StringEquals | StringNotEquals => value == got,
            StringEqualsIgnoreCase | StringNotEqualsIgnoreCase | Bool => {
                value.eq_ignore_ascii_case(got)
            }
            IpAddress | NotIpAddress => false,
        }
    }
}

/// One key under one operator: `{"ArnEquals": {"aws:SourceArn": [...]}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub operator: Operator,
    /// Written `<Operator>IfExists`: a request without the key matches.
    pub if_exists: bool,
    /// The key as written (matched case-insensitively).
    pub key: String,
    pub values: Vec<String>,
}

/// A condition that held: its operator, key, and the request's value of
/// the key (`None` when the request has none, which a negated or
/// IfExists operator accepts).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct ConditionMatch {
    pub operator: String,
    pub key: String,
    pub value: Option<String>,
}

impl Condition {
    /// A condition from its operator's name (`ArnLike`, `StringEqualsIfExists`),
    /// its key and its values; refused with a sentence when the operator is
    /// unknown, the key is not `<service>:<name>`, there is no value, or an
    /// IP operator's value is not an address or a CIDR block.
    pub fn new(operator: &str, key: &str, values: Vec<String>) -> Result<Self, String> {
        let (name, if_exists) = match operator.strip_suffix("IfExists") {
            Some(name) => (name, true),
            None => (operator, false),
        };
        let Some(op) = Operator::ALL.into_iter().find(|o| o.name() == name) else {
            let known: Vec<_> = Operator::ALL.iter().map(|o| o.name()).collect();
            return Err(format!(
                "unknown condition operator {}: Queuelab knows {} (each also with IfExists)",
                quoted(operator),
                known.join(", ")
            ));
        };
        let well_formed = key
            .split_once(':')
            .is_some_and(|(service, name)| !service.is_empty() && !name.is_empty());
        if !well_formed {
            return Err(format!(
                "condition key {} under {operator} is not a key such as aws:SourceArn",
                quoted(key)
            ));
        }
        if values.is_empty() {
            return Err(format!("condition {operator} {} has no value", quoted(key)));
        }
        if matches!(op, Operator::IpAddress | Operator::NotIpAddress) {
            if let Some(bad) = values.iter().find(|v| !is_ip_or_cidr(v)) {
                return Err(format!(
                    "condition {operator} {}: {} is not an IP address or CIDR block",
                    quoted(key),
                    quoted(bad)
                ));
            }
        }
        Ok(Condition {
            operator: op,
            if_exists,
            key: key.to_string(),
            values,
        })
    }

    /// Whether the condition holds for a request whose value of the key is
    /// `got`: some value matches (values are ORed); for a negated operator,
    /// none does. A request without the key matches only a negated or
    /// IfExists operator.
    pub(crate) fn holds(&self, got: Option<&str>) -> Option<ConditionMatch> {
        let holds = match got {
            None => self.if_exists || self.operator.negated(),
            Some(got) => {
                let any = self.values.iter().any(|v| self.operator.compares(v, got));
                any != self.operator.negated()
            }
        };
        holds.then(|| ConditionMatch {
            operator: self.operator_name(),
            key: self.key.clone(),
            value: got.map(str::to_string),
        })
    }

    fn operator_name(&self) -> String {
        let suffix = if self.if_exists { "IfExists" } else { "" };
        format!("{}{suffix}", self.operator.name())
    }
}

/// An IPv4 or IPv6 address, or a CIDR block of one.
fn is_ip_or_cidr(text: &str) -> bool {
    let (ip, bits) = match text.split_once('/') {
        Some((ip, bits)) => (ip, Some(bits)),
        None => (text, None),
    };
    let Ok(ip) = ip.parse::<std::net::IpAddr>() else {
        return false;
    };
    let max = if ip.is_ipv4() { 32 } else { 128 };
    bits.is_none_or(|b| b.parse::<u8>().is_ok_and(|b| b <= max))
}

/// `*` (any run of characters) and `?` (any one character) against `text`,
/// iteratively with one backtrack point, so no pattern can take long.
pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < t.len() {
        if i < p.len() && (p[i] == '?' || p[i] == t[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_matches_stars_and_question_marks() {
        assert!(glob("sendmessage", "sendmessage"));
        assert!(glob("send*", "sendmessage"));
        assert!(glob("*", ""));
        assert!(glob(
            "arn:aws:sns:*:111111111111:orders-?",
            "arn:aws:sns:us-east-1:111111111111:orders-1"
        ));
        assert!(!glob(
            "arn:aws:sns:*:111111111111:orders-?",
            "arn:aws:sns:us-east-1:111111111111:orders-12"
        ));
        assert!(glob("*a*b*", "xxaxxbxx"));
        assert!(!glob("*a*b", "xxaxxbxx"));
    }

    #[test]
    fn ip_addresses_and_cidr_blocks_are_told_from_other_text() {
        for good in ["192.0.2.1", "192.0.2.0/24", "2001:db8::/32"] {
            assert!(is_ip_or_cidr(good), "{good}");
        }
        for bad in ["192.0.2", "192.0.2.0/33", "anywhere", ""] {
            assert!(!is_ip_or_cidr(bad), "{bad}");
        }
    }
}
