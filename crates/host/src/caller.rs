//! Who makes a call, from the words a host's caller gives
//! (`dispatch`'s `caller`, `principal`, `sourceArn`, `sourceAccount`) to
//! the engine's `Principal` and back: the journal records a call's
//! principal in those words, and a replay makes it again from them, so
//! every host refuses the same values in the same sentences.

use queuelab_engine::{is_caller_name, Identity, Principal, MAX_CALLER_CHARS};

use crate::options::DispatchOptions;

/// A service principal's names end so (`sns.amazonaws.com`); any other
/// principal is an account's (its id or an IAM ARN).
const SERVICE_SUFFIX: &str = ".amazonaws.com";

impl DispatchOptions {
    /// The principal these options make a call as: the queues' owner under
    /// the name `caller` without `principal` (as every call was before
    /// principals); another account or a service with it. A principal not
    /// named by `caller` is named in the log by its own words (an account
    /// id, an ARN of at most `MAX_CALLER_CHARS`, or else its account id,
    /// a service's name), so the log can say who acted. A refusal names
    /// the option and says what was expected.
    pub fn principal(&self) -> Result<Principal, String> {
        if let Some(caller) = self.caller.as_deref().filter(|c| !is_caller_name(c)) {
            // Every event of the call records the name (MAX_CALLER_CHARS says why).
            return Err(format!(
                "dispatch option caller must be at most {MAX_CALLER_CHARS} characters, got {}",
                caller.chars().count()
            ));
        }
        let Some(text) = self.principal.as_deref() else {
            self.only_for_a_service("the queue's own account (no principal)")?;
            return Ok(Principal::caller(self.caller.as_deref()));
        };
        let by = if text.ends_with(SERVICE_SUFFIX) {
            self.service(text)?
        } else {
            self.only_for_a_service(&format!("principal {}", quoted(text)))?;
            Principal::account(text).map_err(|e| format!("dispatch option principal: {e}"))?
        };
        Ok(match self.caller.as_deref() {
            Some(name) => by.named(name),
            None => {
                let name = display_name(text, &by);
                by.named(&name)
            }
        })
    }

    /// A service principal with its `aws:SourceArn` and `aws:SourceAccount`,
    /// each refusal naming the option at fault.
    fn service(&self, service: &str) -> Result<Principal, String> {
        Principal::service(service, None, None)
            .map_err(|e| format!("dispatch option principal: {e}"))?;
        let arn = self.source_arn.as_deref();
        Principal::service(service, arn, None)
            .map_err(|e| format!("dispatch option sourceArn: {e}"))?;
        Principal::service(service, arn, self.source_account.as_deref())
            .map_err(|e| format!("dispatch option sourceAccount: {e}"))
    }

    /// `sourceArn` and `sourceAccount` are a service principal's: refused
    /// for `who`, any other caller.
    fn only_for_a_service(&self, who: &str) -> Result<(), String> {
        let given = [
            ("sourceArn", &self.source_arn),
            ("sourceAccount", &self.source_account),
        ];
        match given.iter().find(|(_, value)| value.is_some()) {
            None => Ok(()),
            Some((option, _)) => Err(format!(
                "dispatch option {option} is only for a service principal \
                 (principal \"sns.amazonaws.com\" or \"s3.amazonaws.com\"), not for {who}"
            )),
        }
    }
}

/// The log's name for a principal the caller did not name: its words, or
/// for an ARN too long to record, its account id.
fn display_name(text: &str, by: &Principal) -> String {
    match by.identity() {
        Identity::Account { account_id, .. } if !is_caller_name(text) => account_id.clone(),
        _ => text.to_string(),
    }
}

/// A principal in the words `dispatch` takes, as the journal records it:
/// `(principal, sourceArn, sourceAccount)`, all `None` for the owner.
pub(crate) fn principal_words(by: &Principal) -> (Option<String>, Option<String>, Option<String>) {
    match by.identity() {
        Identity::Owner => (None, None, None),
        Identity::Account { account_id, arn } => (
            Some(arn.clone().unwrap_or_else(|| account_id.clone())),
            None,
            None,
        ),
        Identity::Service {
            service,
            source_arn,
            source_account,
        } => (
            Some(service.name().to_string()),
            source_arn.clone(),
            source_account.clone(),
        ),
    }
}

fn quoted(text: &str) -> String {
    format!("\"{}\"", queuelab_engine::echo(text))
}
