//! The options a host takes, as typed structs: the names a caller may
//! give (`field_names`, read from the structs themselves, never listed by
//! hand), their TypeScript and JSON Schema (derived behind the `contract`
//! feature, written by `crates/wasm/tests/contract.rs`), and the engine's
//! `Config` they make (`PlaygroundOptions::config`).
//!
//! A host reads its caller's options into these structs (the binding
//! through its catching copy of a JavaScript object, a server from JSON)
//! and checks each number here, so a bad value is refused naming its
//! option and range, in the same words for every host.

use queuelab_engine::{Config, Realism};
use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::Serialize;

/// Options for `new Playground(...)`. Every field is optional.
#[derive(Serialize, serde::Deserialize, Default, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[cfg_attr(feature = "contract", ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct PlaygroundOptions {
    /// Seed of the engine's PRNG (PCG-64); same seed + same calls = same results. Default 0
    /// (with `fromScenario`, the scenario's own seed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Region in queue URLs and ARNs. Default "us-east-1".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// Account id in queue URLs and ARNs. Default "000000000000".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account_id: Option<String>,
    /// Epoch milliseconds that virtual time 0 stands for. Default 2024-01-01T00:00:00Z.
    /// At most `limits().maxStartEpochMs` (9999-12-31T23:59:59.999Z), so every timestamp
    /// is an exact integer and a valid `Date` (timestamps stop at the last `Date`).
    // The numbers are read as numbers and checked by `whole`, so that a
    // bad value is refused naming its option and range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_epoch_ms: Option<f64>,
    /// How many recent events the log keeps. Default 100000, at most
    /// `limits().largestBudgets.eventCapacity`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_capacity: Option<f64>,
    /// Budget: bytes of stored messages (bodies and attributes) across every queue.
    /// Default `limits().defaultBudgets.maxStoredBytes` (256 MiB), from 1 to
    /// `limits().largestBudgets.maxStoredBytes`. Past it, a send answers `OverLimit` naming this option.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_stored_bytes: Option<f64>,
    /// Budget: messages stored across every queue. Default
    /// `limits().defaultBudgets.maxStoredMessages` (1,000,000), from 1 to
    /// `limits().largestBudgets.maxStoredMessages`. Past it, a send answers `OverLimit`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_stored_messages: Option<f64>,
    /// Budget: queues that may exist at once. Default `limits().defaultBudgets.maxQueues`
    /// (200,000), from 1 to `limits().largestBudgets.maxQueues`. Past it, CreateQueue answers `OverLimit`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_queues: Option<f64>,
    /// Teaching knobs, all off (0) by default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub realism: Option<RealismOptions>,
}

/// `PlaygroundOptions.realism`: the teaching knobs, each a probability,
/// and throttling, on or off.
#[derive(Serialize, serde::Deserialize, Default, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[cfg_attr(feature = "contract", ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct RealismOptions {
    /// Standard short polls see each visible message with this probability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short_poll_sample_rate: Option<f64>,
    /// Probability that a standard-queue delete misses a copy (the message comes back).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplicate_delivery_probability: Option<f64>,
    /// Probability that a receive returns fewer messages than it could.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fewer_messages_probability: Option<f64>,
    /// SQS's request quotas: a FIFO queue's call past one answers `RequestThrottled`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throttling: Option<bool>,
}

/// Per-call options for `dispatch`.
#[derive(Serialize, serde::Deserialize, Default, Clone, Debug)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[cfg_attr(feature = "contract", ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct DispatchOptions {
    /// Who makes the call, as the event log should name them ("worker-1"):
    /// at most 80 characters (`limits().maxCallerChars`; a longer one is a
    /// RangeError), since every event of the call records it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caller: Option<String>,
    /// Who the call is made as: an AWS account id ("111111111111"), an IAM
    /// ARN (`arn:aws:iam::111111111111:root`, `…:user/name`, `…:role/name`)
    /// or a service principal ("sns.amazonaws.com", "s3.amazonaws.com").
    /// Default: the queues' own account. Without `caller`, the log names
    /// the call by this principal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub principal: Option<String>,
    /// With a service principal only: the ARN of the resource it calls for
    /// (`aws:SourceArn` in a queue policy's conditions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_arn: Option<String>,
    /// With a service principal only: the 12-digit account that owns that
    /// resource (`aws:SourceAccount`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_account: Option<String>,
}

/// Options for `snapshot(...)`.
#[derive(serde::Deserialize, Default, Clone, Debug)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[cfg_attr(feature = "contract", ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct SnapshotOptions {
    /// List only each queue's first N stored messages (in queue order, the
    /// order the page draws them), and only their FIFO groups; each queue then
    /// says how many it left out (`messagesOmitted`, `groupsOmitted`). Its
    /// counts (`visible`, `inFlight`, `delayed`) always cover every message.
    /// A window also lists at most `limits().snapshotWindowBytes` (1 MiB) of
    /// messages across its queues, in queue order: past it, the rest are
    /// counted in `messagesOmitted` too. 0 gives every queue's settings and
    /// counts without messages. A whole number; default: every message. A
    /// full snapshot listing more than 1,000,000 messages, or more than
    /// 256 MiB of JSON, is refused with an Error that says to ask for a
    /// window. Every message carries its body's first
    /// `limits().bodyPreviewBytes` (1 KiB) with `bodyBytes` and
    /// `bodyTruncated`; `peek(messageId)` gives the whole body. (For counts
    /// alone, `counts()` is cheaper.)
    pub messages_per_queue: Option<u64>,
    /// List in `simulation.sideEffects` only the side effects performed at or
    /// after event number N: pass the `nextEventSeq` of your previous snapshot
    /// and merge the entries by `messageId` into the list you keep (each entry
    /// is whole: its count and performers so far; new ones come in the order
    /// they first happened). A whole number; default 0: every side effect.
    pub side_effects_since: Option<u64>,
}

/// Options for `queueMessages(queueUrl, ...)`: which page of the queue.
#[derive(serde::Deserialize, Default, Clone, Debug)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[cfg_attr(feature = "contract", ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct QueueMessagesOptions {
    /// How many messages to skip, in queue order. A whole number; default 0.
    pub offset: Option<u64>,
    /// How many messages at most: a whole number from 0 to 10000; default 100.
    pub limit: Option<u64>,
}

/// `queueMessages`' largest page.
pub const MAX_PAGE: u64 = 10_000;

/// `queueMessages`' page when the caller names no `limit`.
pub const DEFAULT_PAGE: u64 = 100;

/// The names of an options struct's fields, as a caller writes them
/// ("messagesPerQueue"): read from its `Deserialize`, so a field added to
/// the struct is known to every host's check of unknown names at once.
pub fn field_names<T: for<'de> Deserialize<'de>>() -> &'static [&'static str] {
    let mut names = Names(&[]);
    // The probe always fails once it has the names.
    let _ = T::deserialize(&mut names);
    names.0
}

/// A deserializer that only notes the field names of the struct asked for.
struct Names(&'static [&'static str]);

#[derive(Debug)]
struct Noted;

impl std::fmt::Display for Noted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("field names noted")
    }
}

impl std::error::Error for Noted {}

impl de::Error for Noted {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Noted
    }
}

impl<'de> Deserializer<'de> for &mut Names {
    type Error = Noted;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Noted> {
        self.0 = fields;
        Err(Noted)
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Noted> {
        Err(Noted)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

impl PlaygroundOptions {
    /// The engine's configuration these options make, every number held
    /// to its range (`Config::validate`), or why not in words.
    pub fn config(&self) -> Result<Config, String> {
        let defaults = Config::default();
        let realism = self.realism.clone().unwrap_or_default();
        let config = Config {
            seed: self.seed.unwrap_or(defaults.seed),
            region: self.region.clone().unwrap_or(defaults.region),
            account_id: self.account_id.clone().unwrap_or(defaults.account_id),
            start_epoch_ms: whole("startEpochMs", self.start_epoch_ms, defaults.start_epoch_ms)?,
            event_capacity: whole(
                "eventCapacity",
                self.event_capacity,
                defaults.event_capacity as u64,
            )? as usize,
            max_stored_bytes: whole(
                "maxStoredBytes",
                self.max_stored_bytes,
                defaults.max_stored_bytes,
            )?,
            max_stored_messages: whole(
                "maxStoredMessages",
                self.max_stored_messages,
                defaults.max_stored_messages,
            )?,
            max_queues: whole("maxQueues", self.max_queues, defaults.max_queues as u64)? as usize,
            realism: realism.knobs(),
        };
        config.validate().map_err(|e| e.to_string())?;
        Ok(config)
    }
}

impl RealismOptions {
    /// The knobs as given (an absent one is off); `Config::validate` holds
    /// each to 0..=1 and words a refusal, so no host restates the range.
    fn knobs(&self) -> Realism {
        Realism {
            short_poll_sample_rate: self.short_poll_sample_rate.unwrap_or(0.0),
            duplicate_delivery_probability: self.duplicate_delivery_probability.unwrap_or(0.0),
            fewer_messages_probability: self.fewer_messages_probability.unwrap_or(0.0),
            throttling: self.throttling.unwrap_or(false),
        }
    }
}

/// A whole-number option, or its default; `Config::validate` then holds
/// it to its range. A fraction, a negative or a non-finite number is
/// refused here, naming the option and its range.
fn whole(option: &str, value: Option<f64>, default: u64) -> Result<u64, String> {
    match value {
        None => Ok(default),
        // Up to 2^53: past it, numbers are not exact integers.
        Some(v) if v.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(&v) => Ok(v as u64),
        Some(v) => Err(Config::range_error(option, js_number_text(v))),
    }
}

/// A number as JavaScript spells it (`String(n)`): 1.5, -1, Infinity,
/// NaN, 1e+21, 1e-7. The options' numbers come from JavaScript (or JSON,
/// which reads the same), so a refusal repeats the value as it was written.
pub fn js_number_text(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if v == 0.0 {
        return "0".into();
    }
    // Both languages give the shortest digits that read back the same;
    // they differ only in when they switch to an exponent. Rust's `Display`
    // never does, so the exponent is read off its digits (rather than by
    // `{:e}`, whose formatting code the wasm would carry for this alone).
    let plain = v.abs().to_string();
    if (1e-6..1e21).contains(&v.abs()) {
        return v.to_string();
    }
    let (digits, exponent) = match plain.strip_prefix("0.") {
        // 0.0000001234 → 1234, -(zeros + 1)
        Some(fraction) => {
            let zeros = fraction.len() - fraction.trim_start_matches('0').len();
            (fraction.trim_start_matches('0'), -(zeros as i64 + 1))
        }
        // 1500000000000000000000 → 15, places - 1
        None => (plain.trim_end_matches('0'), plain.len() as i64 - 1),
    };
    let (first, rest) = digits.split_at(1);
    let sign = if v < 0.0 { "-" } else { "" };
    let dot = if rest.is_empty() { "" } else { "." };
    let plus = if exponent > 0 { "+" } else { "" };
    format!("{sign}{first}{dot}{rest}e{plus}{exponent}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_spelt_as_javascript_spells_them() {
        let cases = [
            (1.5, "1.5"),
            (-1.0, "-1"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (f64::NAN, "NaN"),
            (-0.0, "0"),
            (1e21, "1e+21"),
            (1.5e300, "1.5e+300"),
            (1e20, "100000000000000000000"),
            (0.000001, "0.000001"),
            (1e-7, "1e-7"),
            (-2.5e-8, "-2.5e-8"),
            (123456.789, "123456.789"),
        ];
        for (v, js) in cases {
            assert_eq!(js_number_text(v), js, "{v:?}");
        }
    }

    #[test]
    fn an_options_struct_names_its_fields_as_callers_write_them() {
        assert_eq!(
            field_names::<SnapshotOptions>(),
            ["messagesPerQueue", "sideEffectsSince"]
        );
        assert_eq!(field_names::<RealismOptions>().len(), 4);
        assert!(field_names::<PlaygroundOptions>().contains(&"maxStoredMessages"));
    }

    #[test]
    fn a_fractional_budget_is_refused_naming_its_option() {
        let options = PlaygroundOptions {
            max_queues: Some(1.5),
            ..Default::default()
        };
        let refused = options.config().expect_err("a fraction");
        assert!(refused.contains("maxQueues"), "{refused}");
        assert!(refused.contains("1.5"), "{refused}");
    }
}
