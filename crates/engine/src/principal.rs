//! [`Principal`]: who makes a call. Every call reaches the engine through
//! its gate (`Engine::call`) with one; the gate authorises it against the
//! queue's policy (access.rs), and the operations
//! record its display name in the events they log.
//!
//! A principal is made valid or not at all: an account id that is not 12
//! digits, an ARN that is not an IAM principal's, or a service SQS does not
//! take messages from is refused when it is made, with a sentence saying
//! what was expected.

use std::sync::Arc;

/// Who is calling: an identity, and the name the event log shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Principal {
    identity: Identity,
    /// The display name events record (`"worker-1"`); SQS has no such
    /// notion, it only labels the log.
    name: Option<Arc<str>>,
}

/// The identity behind a call.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Identity {
    /// The queues' owner: the engine's account (`Config::account_id`).
    #[default]
    Owner,
    /// Another AWS account: its 12-digit id, and the IAM ARN when the call
    /// names one (`arn:aws:iam::111111111111:root`, `:user/x`, `:role/x`).
    Account {
        account_id: String,
        arn: Option<String>,
    },
    /// An AWS service sending on a resource's behalf, with the
    /// `aws:SourceArn` / `aws:SourceAccount` a queue policy matches on.
    Service {
        service: Service,
        source_arn: Option<String>,
        source_account: Option<String>,
    },
}

/// The services that send to SQS queues here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Service {
    /// An SNS topic's subscription (`sns.amazonaws.com`).
    Sns,
    /// An S3 bucket's event notification (`s3.amazonaws.com`).
    S3,
}

impl Service {
    /// The service principal's name, as a policy's `Principal.Service` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Service::Sns => "sns.amazonaws.com",
            Service::S3 => "s3.amazonaws.com",
        }
    }
}

/// The longest ARN AWS accepts (IAM's `ArnType`: 2,048 characters).
const MAX_ARN_CHARS: usize = 2_048;

/// An AWS account id: twelve digits.
pub(crate) fn is_account_id(id: &str) -> bool {
    id.len() == 12 && id.bytes().all(|b| b.is_ascii_digit())
}

fn quoted(value: &str) -> String {
    crate::echo(value).into_owned()
}

impl Principal {
    /// The queues' owner, unnamed in the log.
    pub fn owner() -> Self {
        Principal::default()
    }

    /// The owner under the display name `name` (`None`: unnamed): what a
    /// caller that only names itself is, as every call was before
    /// principals.
    pub fn caller(name: Option<&str>) -> Self {
        Principal {
            identity: Identity::Owner,
            name: name.map(Arc::from),
        }
    }

    /// Another account, by its 12-digit id or an IAM principal's ARN in it
    /// (`arn:aws:iam::111111111111:root`, `…:user/name`, `…:role/name`).
    pub fn account(id_or_arn: &str) -> Result<Self, String> {
        let identity = if is_account_id(id_or_arn) {
            Identity::Account {
                account_id: id_or_arn.to_string(),
                arn: None,
            }
        } else {
            let account_id = iam_arn_account(id_or_arn)?;
            Identity::Account {
                account_id: account_id.to_string(),
                arn: Some(id_or_arn.to_string()),
            }
        };
        Ok(Principal {
            identity,
            name: None,
        })
    }

    /// A service principal (`sns.amazonaws.com`, `s3.amazonaws.com`) calling
    /// for the resource `source_arn` of the account `source_account`.
    pub fn service(
        service: &str,
        source_arn: Option<&str>,
        source_account: Option<&str>,
    ) -> Result<Self, String> {
        const SERVICES: [Service; 2] = [Service::Sns, Service::S3];
        let Some(service) = SERVICES.into_iter().find(|s| s.name() == service) else {
            let names = SERVICES.map(Service::name).join(" or ");
            return Err(format!(
                "a service principal must be {names}, got {}",
                quoted(service)
            ));
        };
        if let Some(arn) = source_arn {
            check_arn(arn, "aws:SourceArn")?;
        }
        if let Some(account) = source_account.filter(|a| !is_account_id(a)) {
            return Err(format!(
                "aws:SourceAccount must be a 12-digit AWS account id, got {}",
                quoted(account)
            ));
        }
        Ok(Principal {
            identity: Identity::Service {
                service,
                source_arn: source_arn.map(str::to_string),
                source_account: source_account.map(str::to_string),
            },
            name: None,
        })
    }

    /// The same principal under the display name `name` in the log.
    pub fn named(mut self, name: &str) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The display name the log shows, if any.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// The name as events record it (shared, not copied, per event).
    pub(crate) fn by(&self) -> Option<Arc<str>> {
        self.name.clone()
    }
}

/// `arn:aws:<service>:<region>:<account>:<resource>`, at most 2,048 characters.
fn check_arn(arn: &str, what: &str) -> Result<(), String> {
    let parts: Vec<&str> = arn.splitn(6, ':').collect();
    let ok = arn.chars().count() <= MAX_ARN_CHARS
        && parts.len() == 6
        && parts[0] == "arn"
        && parts[1].starts_with("aws")
        && !parts[2].is_empty()
        && !parts[5].is_empty();
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{what} must be an ARN (arn:aws:<service>:<region>:<account>:<resource>), got {}",
            quoted(arn)
        ))
    }
}

/// The account of an IAM principal's ARN: `arn:aws:iam::<account>:root`,
/// `…:user/<name>` or `…:role/<name>` (names may have paths: `role/a/b`).
pub(crate) fn iam_arn_account(arn: &str) -> Result<&str, String> {
    let refuse = || {
        format!(
            "a principal must be a 12-digit AWS account id or an IAM ARN \
             (arn:aws:iam::111111111111:root, …:user/name or …:role/name), got {}",
            quoted(arn)
        )
    };
    if arn.chars().count() > MAX_ARN_CHARS {
        return Err(refuse());
    }
    let rest = arn.strip_prefix("arn:aws:iam::").ok_or_else(refuse)?;
    let (account, resource) = rest.split_once(':').ok_or_else(refuse)?;
    let named = |kind: &str| {
        resource
            .strip_prefix(kind)
            .is_some_and(|name| !name.is_empty() && !name.ends_with('/'))
    };
    if is_account_id(account) && (resource == "root" || named("user/") || named("role/")) {
        Ok(account)
    } else {
        Err(refuse())
    }
}
