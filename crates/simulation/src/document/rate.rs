//! A steady rate of sends (a producer's, a topic's publishes): `count`
//! of them, one every `everyMs` from `startMs`.

#[cfg(feature = "contract")]
use queuelab_engine::MAX_VIRTUAL_MS;
use serde::{Deserialize, Serialize};

/// count sends, one every everyMs from startMs; {n} in body and groupId
/// becomes the send's number (in groupId, the group's among groupCount).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Rate {
    #[serde(default)]
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_VIRTUAL_MS)))]
    pub start_ms: u64,
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = MAX_SPAN_MS)))]
    pub every_ms: u64,
    #[cfg_attr(feature = "contract", schemars(range(max = MAX_RATE_COUNT)))]
    pub count: u64,
    #[cfg_attr(feature = "contract", schemars(length(min = 1)))]
    pub body: String,
    #[serde(default)]
    pub group_id: Option<String>,
    /// A producer's sends per SendMessageBatch call, 1 to 10: sends are
    /// made as they fall due and go out ten (or this many) at a time, as
    /// a buffering client batches them; the last batch goes when the rate
    /// ends. Without it, each send is its own SendMessage. Not a topic's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = 10)))]
    pub batch_size: Option<u64>,
    /// How many message groups the sends take turns in, 1 to 10,000: `{n}`
    /// in `groupId` becomes ((n - 1) mod groupCount) + 1, so send 1 and send
    /// groupCount + 1 share a group. Without it, `{n}` is the send's number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", schemars(range(min = 1, max = MAX_GROUP_COUNT)))]
    pub group_count: Option<u64>,
}

/// The most message groups a rate's sends take turns in (Queuelab's
/// choice: far more than a lesson spreads sends over).
pub const MAX_GROUP_COUNT: u64 = 10_000;

impl Rate {
    /// The moment of send number `k` (from 0), if it comes: within
    /// `count`, and not past the last moment a run reaches (checked: a
    /// send that would fall past it never comes).
    pub(crate) fn at(&self, k: u64) -> Option<u64> {
        let at = self.every_ms.checked_mul(k)?.checked_add(self.start_ms)?;
        (k < self.count && at <= queuelab_engine::MAX_VIRTUAL_MS).then_some(at)
    }

    /// Send number `n`'s (from 1) body, `{n}` filled in.
    pub(crate) fn body_of(&self, n: u64) -> String {
        self.body.replace("{n}", &n.to_string())
    }

    /// Send number `n`'s (from 1) message group, its `{n}` the group's
    /// number among `groupCount` (or the send's, without it).
    pub(crate) fn group_of(&self, n: u64) -> Option<String> {
        let group = match self.group_count {
            Some(groups) if groups > 0 => (n.saturating_sub(1) % groups) + 1,
            _ => n,
        };
        (self.group_id.as_deref()).map(|g| g.replace("{n}", &group.to_string()))
    }

    /// How many of its sends from number `from` on fall at or before `until`.
    pub(crate) fn due_until(&self, until: u64, from: u64) -> u64 {
        if until < self.start_ms || self.every_ms == 0 {
            return 0;
        }
        // Sends numbered 0..=k fall at or before `until`.
        let due = ((until - self.start_ms) / self.every_ms).saturating_add(1);
        due.min(self.count).saturating_sub(from)
    }
}

/// The longest span a scenario gives in milliseconds (a poll interval, a
/// rate's step, a processing time, a restart, a heartbeat): one year.
/// Bounded so that adding it to any moment of a run stays exact.
pub const MAX_SPAN_MS: u64 = 365 * 24 * 3_600_000;

/// The most sends one `rate` makes.
pub const MAX_RATE_COUNT: u64 = 10_000_000;
