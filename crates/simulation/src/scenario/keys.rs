//! The checks of a scenario's KMS keys and its queues' encryption: how many
//! keys, aliases KMS accepts and no two alike, key policies that name a
//! service or an account, and a queue's `kmsKey` one of the scenario's
//! keys (or the AWS managed `alias/aws/sqs`), with a reuse period SQS takes.

use queuelab_engine::{
    is_key_policy_principal, is_kms_alias, MAX_KMS_KEY_POLICY_PRINCIPALS, SQS_MANAGED_KEY_ALIAS,
};

use super::fields::{at_most, quoted, within, FieldError};
use crate::document::{Encryption, Operation, QueueSpec, Scenario, MAX_KEYS};

impl Scenario {
    pub(super) fn validate_keys(&self) -> Result<(), FieldError> {
        at_most("keys", self.keys.len() as u64, MAX_KEYS as u64, "keys")?;
        for (i, key) in self.keys.iter().enumerate() {
            let path = |field: &str| format!("keys[{i}].{field}");
            if !is_kms_alias(&key.alias) {
                return Err(FieldError {
                    path: path("alias"),
                    rule: "alias/ and then letters, digits, '/', '_' or '-', at most 256 \
                           characters, not under alias/aws/ (AWS's own keys)"
                        .into(),
                    got: quoted(&key.alias),
                });
            }
            if let Some(first) = self.keys[..i].iter().position(|k| k.alias == key.alias) {
                return Err(FieldError {
                    path: path("alias"),
                    rule: format!("an alias no other key has (keys[{first}] has it)"),
                    got: quoted(&key.alias),
                });
            }
            let count = key.allow.len() as u64;
            let most = MAX_KMS_KEY_POLICY_PRINCIPALS as u64;
            at_most(&path("allow"), count, most, "principals")?;
            for (j, principal) in key.allow.iter().enumerate() {
                if !is_key_policy_principal(principal) {
                    return Err(FieldError {
                        path: path(&format!("allow[{j}]")),
                        rule: "sns.amazonaws.com, s3.amazonaws.com or a 12-digit account id".into(),
                        got: quoted(principal),
                    });
                }
            }
        }
        Ok(())
    }

    /// Queue `i`'s `encryption`: a key the scenario has, a reuse period SQS takes.
    pub(super) fn validate_encryption(
        &self,
        i: usize,
        queue: &QueueSpec,
    ) -> Result<(), FieldError> {
        let Some(Encryption::Kms(kms)) = &queue.encryption else {
            return Ok(());
        };
        let path = |field: &str| format!("queues[{i}].encryption.{field}");
        if kms.kms_key != SQS_MANAGED_KEY_ALIAS && !self.has_key(&kms.kms_key) {
            return Err(FieldError {
                path: path("kmsKey"),
                rule: format!(
                    "the alias of one of the scenario's keys, or {SQS_MANAGED_KEY_ALIAS}"
                ),
                got: quoted(&kms.kms_key),
            });
        }
        if let Some(seconds) = kms.data_key_reuse_period_seconds {
            within(path("dataKeyReusePeriodSeconds"), i128::from(seconds))?;
        }
        Ok(())
    }

    pub(super) fn has_key(&self, alias: &str) -> bool {
        self.keys.iter().any(|k| k.alias == alias)
    }
}

/// The key an operator's call names, if it names one.
pub(super) fn key_of(call: &Operation) -> Option<(&'static str, &str)> {
    match call {
        Operation::DisableKey { key } => Some(("disableKey.key", key)),
        Operation::EnableKey { key } => Some(("enableKey.key", key)),
        _ => None,
    }
}
