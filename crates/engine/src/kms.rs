//! KMS keys, for queues encrypted with SSE-KMS, and the KMS requests SQS
//! makes for them.
//!
//! The engine holds a registry of keys ([`KmsKey`]): an id, its ARN
//! (`arn:aws:kms:<region>:<account>:key/<id>`), aliases (`alias/orders`), a
//! state (enabled, disabled, pending deletion) and a key policy reduced to
//! what SQS needs of it: which service principals and other accounts may
//! use the key (`kms:GenerateDataKey`, `kms:Decrypt`) besides the owner
//! account. The AWS managed key `alias/aws/sqs` always exists; its policy
//! cannot be changed and lets only the owner account use it through SQS,
//! so no service and no other account can send to a queue encrypted with it.
//!
//! A queue's `KmsMasterKeyId` is kept as given (any text, as SQS accepts it)
//! and looked up when a message is sent or received: a key that does not
//! exist, is disabled or pending deletion, or does not let the caller use
//! it fails the call with SQS's `KMS.*` error.
//!
//! SQS reuses a data key for `KmsDataKeyReusePeriodSeconds` (SQS Developer
//! Guide, "Understanding the data key reuse period"): a principal's send
//! after the period ends calls `GenerateDataKey` and `Decrypt` (to verify
//! the new data key); a principal's receive of a message whose data key it
//! has not decrypted within the period calls `Decrypt`. Principals do not
//! share data keys. Each queue counts these requests, the billing meter
//! bills them at KMS's price, and each one is an event (`kmsRequested`):
//! at most two per principal and key per period of at least 60 s, so they
//! never flood the log.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::Serialize;

use crate::error::{echo, ErrorCode, SqsError, SqsResult};
use crate::events::EventKind;
use crate::kms_api::KmsApi;
use crate::principal::{is_account_id, Identity, Principal, Service};
use crate::{Engine, Millis};

/// The AWS managed key for SQS, which always exists.
pub const SQS_MANAGED_KEY_ALIAS: &str = "alias/aws/sqs";

/// The most keys one engine holds (the managed key included). KMS's own
/// quota is 100,000 keys a Region; a scenario names a handful.
pub const MAX_KMS_KEYS: usize = 1_000;

/// The most aliases one key has. KMS allows many; a scenario names one.
pub const MAX_KMS_ALIASES_PER_KEY: usize = 10;

/// The most principals and services one key's policy names.
pub const MAX_KMS_KEY_POLICY_PRINCIPALS: usize = 50;

/// The most data keys a queue remembers for encrypting, and for
/// decrypting: one per principal (and data key) within the reuse period.
/// Past it the oldest is forgotten, so that principal's next call asks KMS
/// again (more requests, never fewer): a host inventing a principal per
/// call cannot grow a queue without bound.
pub const MAX_CACHED_DATA_KEYS: usize = 1_000;

/// The reuse period SQS applies when a queue sets none: 300 s.
pub const DEFAULT_DATA_KEY_REUSE_SECONDS: u32 = 300;

/// A key's state, as KMS names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum KeyState {
    Enabled,
    Disabled,
    PendingDeletion,
}

/// One KMS key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KmsKey {
    /// A UUID, derived from the engine's secret and the key's number.
    pub id: String,
    pub arn: Arc<str>,
    /// Alias names (`alias/orders`), in the order given.
    pub aliases: Vec<String>,
    pub state: KeyState,
    /// The AWS managed key `alias/aws/sqs`: its policy cannot be changed.
    pub managed: bool,
    /// Service principals (`sns.amazonaws.com`) and other accounts
    /// (12-digit ids) the key policy lets use the key besides the owner.
    pub allowed: BTreeSet<String>,
}

impl KmsKey {
    /// Whether the key policy lets `identity` call KMS with this key. The
    /// owner account always may. The managed key's policy allows callers
    /// in the owner account through SQS only (`kms:CallerAccount`,
    /// `kms:ViaService`), so never a service or another account.
    fn allows(&self, identity: &Identity, owner: &str) -> bool {
        match identity {
            Identity::Owner => true,
            Identity::Account { account_id, .. } if account_id == owner => true,
            _ if self.managed => false,
            Identity::Account { account_id, .. } => self.allowed.contains(account_id),
            Identity::Service { service, .. } => self.allowed.contains(service.name()),
        }
    }

    /// The alias a page names the key by, else its id.
    pub fn label(&self) -> &str {
        self.aliases.first().map_or(&self.id, String::as_str)
    }
}

/// The engine's keys.
pub(crate) struct Keys {
    keys: Vec<KmsKey>,
    /// Alias name → index in `keys`.
    aliases: BTreeMap<String, usize>,
    /// Data keys made so far: the next one's number.
    next_data_key: u64,
}

/// A data key SQS generated for one principal and KMS key: messages sent
/// with it carry it, so a receive knows which data key to decrypt.
#[derive(Debug)]
pub(crate) struct DataKey {
    pub id: u64,
    pub key_arn: Arc<str>,
    pub generated_at: Millis,
    pub reuse_ms: Millis,
}

/// A queue's KMS requests and the data keys it reuses.
#[derive(Default)]
pub(crate) struct QueueKms {
    pub generate_data_key: u64,
    pub decrypt: u64,
    /// (principal, KMS key ARN) → the data key its sends use.
    encrypting: BTreeMap<(Arc<str>, Arc<str>), Arc<DataKey>>,
    /// (principal, data key) → until when it stays decrypted.
    decrypted: BTreeMap<(Arc<str>, u64), Millis>,
}

/// Forgets the entry that expires first when `map` is full.
fn make_room<K: Ord + Clone, V>(map: &mut BTreeMap<K, V>, expiry: impl Fn(&V) -> Millis) {
    if map.len() < MAX_CACHED_DATA_KEYS {
        return;
    }
    if let Some(oldest) = map
        .iter()
        .min_by_key(|(_, v)| expiry(v))
        .map(|(k, _)| k.clone())
    {
        map.remove(&oldest);
    }
}

/// Who a data key belongs to: principals do not share data keys
/// (Developer Guide). The owner's callers are one principal, another
/// account's principal its ARN or id, a service its name and source.
fn principal_key(identity: &Identity) -> Arc<str> {
    match identity {
        Identity::Owner => "owner".into(),
        Identity::Account { account_id, arn } => arn.as_deref().unwrap_or(account_id).into(),
        Identity::Service {
            service,
            source_arn,
            ..
        } => format!("{} {}", service.name(), source_arn.as_deref().unwrap_or("")).into(),
    }
}

/// How a principal is named in KMS's refusal.
fn principal_words(identity: &Identity, owner: &str) -> String {
    match identity {
        Identity::Owner => format!("arn:aws:iam::{owner}:root"),
        Identity::Account { account_id, arn } => arn
            .clone()
            .unwrap_or_else(|| format!("arn:aws:iam::{account_id}:root")),
        Identity::Service { service, .. } => service.name().to_string(),
    }
}

/// KMS's error as SQS passes it on: KMS's text and its own error code.
fn kms_error(code: ErrorCode, kms_code: &str, text: String) -> SqsError {
    SqsError::new(
        code,
        format!("{text} (Service: AWSKMS; Status Code: 400; Error Code: {kms_code})"),
    )
}

fn not_found(key: &str, arn_prefix: &str) -> SqsError {
    let text = if key.starts_with("alias/") {
        format!("Alias {arn_prefix}{} is not found.", echo(key))
    } else if key.starts_with("arn:aws:kms:") && key.contains(":alias/") {
        format!("Alias {} is not found.", echo(key))
    } else if key.starts_with("arn:aws:kms:") || is_key_id(key) {
        format!("Key '{}' does not exist", echo(key))
    } else {
        format!("Invalid keyId {}", echo(key))
    };
    kms_error(ErrorCode::KmsNotFound, "NotFoundException", text)
}

/// A KMS key id: a UUID (36 characters, hex and hyphens).
fn is_key_id(text: &str) -> bool {
    text.len() == 36
        && text.bytes().enumerate().all(|(i, b)| {
            matches!(i, 8 | 13 | 18 | 23) == (b == b'-') && (b == b'-' || b.is_ascii_hexdigit())
        })
}

/// An alias name KMS accepts for a customer's key: `alias/` then letters,
/// digits, `/_-`, at most 256 characters, not in the `alias/aws/` space
/// AWS keeps for its managed keys.
pub fn is_kms_alias(alias: &str) -> bool {
    let rest = alias.strip_prefix("alias/").unwrap_or("");
    !rest.is_empty()
        && alias.len() <= 256
        && !alias.starts_with("alias/aws/")
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'_' | b'-'))
}

/// What a key policy may allow besides the owner: a service that sends to
/// queues, or another account's 12-digit id.
pub fn is_key_policy_principal(principal: &str) -> bool {
    [Service::Sns, Service::S3]
        .iter()
        .any(|s| s.name() == principal)
        || is_account_id(principal)
}

/// `is_kms_alias`, or why not.
fn check_alias(alias: &str) -> Result<(), String> {
    if alias.starts_with("alias/aws/") {
        return Err(format!(
            "the alias {} is in alias/aws/, which AWS keeps for its managed keys",
            echo(alias)
        ));
    }
    if !is_kms_alias(alias) {
        return Err(format!(
            "a KMS alias is alias/ and then letters, digits, '/', '_' or '-' (at most 256 \
             characters), got {}",
            echo(alias)
        ));
    }
    Ok(())
}

impl Keys {
    /// The registry with the AWS managed key for SQS.
    pub(crate) fn new(region: &str, account: &str, secret: u64) -> Self {
        let mut keys = Keys {
            keys: Vec::new(),
            aliases: BTreeMap::new(),
            next_data_key: 1,
        };
        let key = keys.make(region, account, secret, true, BTreeSet::new());
        keys.aliases.insert(SQS_MANAGED_KEY_ALIAS.into(), 0);
        keys.keys.push(KmsKey {
            aliases: vec![SQS_MANAGED_KEY_ALIAS.into()],
            ..key
        });
        keys
    }

    fn make(
        &self,
        region: &str,
        account: &str,
        secret: u64,
        managed: bool,
        allowed: BTreeSet<String>,
    ) -> KmsKey {
        // Not drawn from the PRNG: making a key shifts no message id.
        let id =
            crate::ids::task_id(self.keys.len() as u64, secret ^ 0x4b4d_535f_4b45_5953).to_string();
        KmsKey {
            arn: format!("arn:aws:kms:{region}:{account}:key/{id}").into(),
            id,
            aliases: Vec::new(),
            state: KeyState::Enabled,
            managed,
            allowed,
        }
    }

    /// The key `text` names: its id, its ARN, an alias name or an alias
    /// ARN, in this engine's Region and account.
    pub(crate) fn find(&self, text: &str, region: &str, account: &str) -> Option<&KmsKey> {
        let prefix = format!("arn:aws:kms:{region}:{account}:");
        let id = match text.strip_prefix(&prefix) {
            Some(alias) if alias.starts_with("alias/") => return self.alias(alias),
            Some(resource) => resource.strip_prefix("key/")?,
            // Another Region's or account's key is not found here.
            None if text.starts_with("arn:") => return None,
            None if text.starts_with("alias/") => return self.alias(text),
            None => text,
        };
        self.keys.iter().find(|k| k.id == id)
    }

    fn alias(&self, name: &str) -> Option<&KmsKey> {
        self.aliases.get(name).map(|&i| &self.keys[i])
    }

    fn find_index(&self, text: &str, region: &str, account: &str) -> Option<usize> {
        let arn = self.find(text, region, account)?.arn.clone();
        self.keys.iter().position(|k| k.arn == arn)
    }
}

impl Engine {
    /// Makes a customer managed key with the aliases `aliases` whose key
    /// policy lets the services (`sns.amazonaws.com`, `s3.amazonaws.com`)
    /// and accounts (12-digit ids) in `allow` use it besides the owner.
    /// Not an SQS operation: how a scenario or a test sets up KMS.
    pub fn create_key(&mut self, aliases: &[String], allow: &[String]) -> Result<KmsKey, String> {
        if self.kms.keys.len() >= MAX_KMS_KEYS {
            return Err(format!(
                "this playground already has {MAX_KMS_KEYS} KMS keys, the most it holds"
            ));
        }
        if aliases.len() > MAX_KMS_ALIASES_PER_KEY {
            return Err(format!(
                "a KMS key has at most {MAX_KMS_ALIASES_PER_KEY} aliases here, got {}",
                aliases.len()
            ));
        }
        if allow.len() > MAX_KMS_KEY_POLICY_PRINCIPALS {
            return Err(format!(
                "a key policy names at most {MAX_KMS_KEY_POLICY_PRINCIPALS} principals here, got {}",
                allow.len()
            ));
        }
        for (i, alias) in aliases.iter().enumerate() {
            check_alias(alias)?;
            if self.kms.aliases.contains_key(alias) || aliases[..i].contains(alias) {
                return Err(format!("the alias {} already names a key", echo(alias)));
            }
        }
        let services = [Service::Sns, Service::S3].map(Service::name);
        for principal in allow {
            if !is_key_policy_principal(principal) {
                return Err(format!(
                    "a key policy allows a service ({}) or a 12-digit account id, got {}",
                    services.join(", "),
                    echo(principal)
                ));
            }
        }
        let c = &self.config;
        let mut key = self.kms.make(
            &c.region,
            &c.account_id,
            self.secret,
            false,
            allow.iter().cloned().collect(),
        );
        key.aliases = aliases.to_vec();
        let index = self.kms.keys.len();
        for alias in aliases {
            self.kms.aliases.insert(alias.clone(), index);
        }
        self.kms.keys.push(key.clone());
        Ok(key)
    }

    /// Enables or disables a key, or schedules its deletion (a key pending
    /// deletion is never deleted here; `Enabled` cancels it). The AWS
    /// managed key's state cannot be changed, as in AWS.
    pub fn set_key_state(&mut self, key: &str, state: KeyState) -> Result<(), String> {
        let c = &self.config;
        let index = self
            .kms
            .find_index(key, &c.region, &c.account_id)
            .ok_or_else(|| format!("no KMS key is named {}", echo(key)))?;
        let key = &mut self.kms.keys[index];
        if key.managed {
            return Err(format!(
                "{SQS_MANAGED_KEY_ALIAS} is an AWS managed key: its state cannot be changed"
            ));
        }
        key.state = state;
        Ok(())
    }

    /// The key named by its id, its ARN, an alias name or an alias ARN.
    pub fn kms_key(&self, key: &str) -> Option<&KmsKey> {
        self.kms
            .find(key, &self.config.region, &self.config.account_id)
    }

    /// Every key, the managed key first, then in the order they were made.
    pub fn kms_keys(&self) -> impl Iterator<Item = &KmsKey> {
        self.kms.keys.iter()
    }

    /// The key a queue's `KmsMasterKeyId` names, usable by `identity` for
    /// `api`, or SQS's `KMS.*` error saying why not.
    fn usable_key(&self, text: &str, identity: &Identity, api: KmsApi) -> SqsResult<&KmsKey> {
        let c = &self.config;
        let key = self.kms_key(text).ok_or_else(|| {
            not_found(text, &format!("arn:aws:kms:{}:{}:", c.region, c.account_id))
        })?;
        match key.state {
            KeyState::Enabled => {}
            KeyState::Disabled => {
                return Err(kms_error(
                    ErrorCode::KmsDisabled,
                    "DisabledException",
                    format!("{} is disabled.", key.arn),
                ))
            }
            KeyState::PendingDeletion => {
                return Err(kms_error(
                    ErrorCode::KmsInvalidState,
                    "KMSInvalidStateException",
                    format!("{} is pending deletion.", key.arn),
                ))
            }
        }
        if !key.allows(identity, &c.account_id) {
            let text = match api {
                KmsApi::GenerateDataKey => format!(
                    "User: {} is not authorized to perform: {} on resource: {} because no \
                     resource-based policy allows the {} action",
                    principal_words(identity, &c.account_id),
                    api.action(),
                    key.arn,
                    api.action()
                ),
                // KMS's Decrypt refusal does not name the key (real text).
                KmsApi::Decrypt => "The ciphertext refers to a customer master key that does not \
                                    exist, does not exist in this region, or you are not allowed \
                                    to access."
                    .to_string(),
            };
            return Err(kms_error(
                ErrorCode::KmsAccessDenied,
                "AccessDeniedException",
                text,
            ));
        }
        Ok(key)
    }

    /// The data key a send by `by` to the queue `id` encrypts with: none on
    /// a queue without SSE-KMS; the principal's own while its reuse period
    /// lasts; else a new one (`GenerateDataKey`, then `Decrypt` to verify
    /// it). Fails with the `KMS.*` error when the key cannot be used.
    pub(crate) fn data_key_for_send(
        &mut self,
        id: u32,
        by: &Principal,
    ) -> SqsResult<Option<Arc<DataKey>>> {
        let queue = self.queue(id);
        let Some(text) = queue.settings.kms_master_key_id.as_deref() else {
            return Ok(None);
        };
        let key_arn = self
            .usable_key(text, by.identity(), KmsApi::GenerateDataKey)?
            .arn
            .clone();
        let reuse_seconds = queue
            .settings
            .kms_data_key_reuse_period
            .unwrap_or(DEFAULT_DATA_KEY_REUSE_SECONDS);
        let now = self.now;
        let cache_key = (principal_key(by.identity()), key_arn.clone());
        if let Some(data_key) = queue.kms.encrypting.get(&cache_key) {
            if now < data_key.generated_at.saturating_add(data_key.reuse_ms) {
                return Ok(Some(data_key.clone()));
            }
        }
        let data_key = Arc::new(DataKey {
            id: self.kms.next_data_key,
            key_arn: key_arn.clone(),
            generated_at: now,
            reuse_ms: u64::from(reuse_seconds) * 1000,
        });
        self.kms.next_data_key += 1;
        let mut queue = self.queue_mut(id);
        let cache = &mut queue.kms.encrypting;
        make_room(cache, |d| d.generated_at.saturating_add(d.reuse_ms));
        cache.insert(cache_key, data_key.clone());
        queue.kms.generate_data_key += 1;
        queue.kms.decrypt += 1;
        let name = queue.name.clone();
        drop(queue);
        for api in [KmsApi::GenerateDataKey, KmsApi::Decrypt] {
            self.kms_requested(&name, api, &key_arn, by.name());
        }
        Ok(Some(data_key))
    }

    /// Refuses a receive from an SSE-KMS queue whose key `by` cannot
    /// decrypt with (missing, disabled, pending deletion, not allowed).
    pub(crate) fn check_receive_key(&self, id: u32, by: &Principal) -> SqsResult<()> {
        match self.queue(id).settings.kms_master_key_id.as_deref() {
            Some(text) => self
                .usable_key(text, by.identity(), KmsApi::Decrypt)
                .map(|_| ()),
            None => Ok(()),
        }
    }

    /// Counts the `Decrypt` a delivery of the message `key` of queue `id`
    /// needs: one per principal and data key per reuse period.
    pub(crate) fn decrypt_for_receive(
        &mut self,
        id: u32,
        key: u64,
        identity: &Identity,
        by: Option<&str>,
    ) {
        // Most messages carry no data key: only those look further.
        let Some(data_key) = self.queue(id).get(key).and_then(|m| m.data_key.clone()) else {
            return;
        };
        let now = self.now;
        let mut queue = self.queue_mut(id);
        let cache_key = (principal_key(identity), data_key.id);
        let cache = &mut queue.kms.decrypted;
        if cache.get(&cache_key).is_some_and(|until| now < *until) {
            return;
        }
        make_room(cache, |until| *until);
        cache.insert(cache_key, now.saturating_add(data_key.reuse_ms));
        queue.kms.decrypt += 1;
        let name = queue.name.clone();
        drop(queue);
        self.kms_requested(&name, KmsApi::Decrypt, &data_key.key_arn, by);
    }

    fn kms_requested(&mut self, queue: &Arc<str>, api: KmsApi, key: &Arc<str>, by: Option<&str>) {
        self.meter.bill_kms(by, api);
        self.emit(EventKind::KmsRequested {
            queue: queue.clone(),
            api,
            key: key.clone(),
            by: by.map(Arc::from),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_ids_are_uuids() {
        assert!(is_key_id("1234abcd-12ab-34cd-56ef-1234567890ab"));
        assert!(!is_key_id("1234abcd-12ab-34cd-56ef-1234567890a"));
        assert!(!is_key_id("1234abcd112ab-34cd-56ef-1234567890ab"));
    }

    #[test]
    fn aliases_are_checked() {
        assert!(check_alias("alias/orders").is_ok());
        assert!(check_alias("alias/aws/mine").is_err());
        assert!(check_alias("orders").is_err());
        assert!(check_alias("alias/").is_err());
        assert!(check_alias("alias/a b").is_err());
    }
}
