//! A picture of the engine at this moment: every queue, and every message
//! with its state, group, receive count and visibility deadline, or only
//! each queue's first messages (a window, for big queues: the page draws no
//! more than that), or one page of one queue's messages. The page draws
//! from this; tests compare it.
//!
//! A listed message carries its body's length and only its first KiB
//! (`BODY_PREVIEW_BYTES`): with bodies of up to 1 MiB, a window of 200
//! messages read after every frame was 200 MiB of JSON and froze the page
//! for seconds. `peek` carries the whole body, for the one message a person
//! opens. A window is bounded by bytes as well (`SNAPSHOT_WINDOW_BYTES`).

use std::collections::BTreeSet;

use serde::Serialize;

use crate::ids::{sequence_number, Receipt};
use crate::message::{Message, State};
use crate::queue::{Group, Queue};
use crate::{Engine, MessageId, Millis};

/// A snapshot message's body is its first this many bytes of UTF-8 (cut
/// back to a character boundary); `bodyBytes` gives the whole length, and
/// `peek` the whole body.
pub const BODY_PREVIEW_BYTES: usize = 1024;

/// A windowed snapshot lists messages, queue by queue in name order and
/// each queue in its order, while their JSON (as `MessageSnapshot::json_bytes`
/// counts it) totals at most this many bytes; from the first message that
/// does not fit, every queue's `messagesOmitted` counts the messages left
/// out. 1 MiB: about 700 messages with 1 KiB previews, or 3,000 with short
/// bodies, and a few milliseconds of `JSON.parse` for the page.
pub const SNAPSHOT_WINDOW_BYTES: usize = 1 << 20;

/// The first `BODY_PREVIEW_BYTES` of `body`, cut on a character boundary,
/// and whether anything was cut.
pub fn body_preview(body: &str) -> (&str, bool) {
    if body.len() <= BODY_PREVIEW_BYTES {
        return (body, false);
    }
    let mut end = BODY_PREVIEW_BYTES;
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    (&body[..end], true)
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[cfg_attr(feature = "contract", ts(rename = "EngineSnapshot"))]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    pub time_ms: Millis,
    pub next_event_seq: u64,
    pub waiting_polls: usize,
    pub queues: Vec<QueueSnapshot>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct QueueSnapshot {
    pub name: String,
    pub url: String,
    pub arn: String,
    pub fifo: bool,
    pub visibility_timeout_seconds: u32,
    pub delay_seconds: u32,
    pub message_retention_period_seconds: u32,
    pub dead_letter_target_arn: Option<String>,
    pub max_receive_count: Option<i64>,
    /// Its role in redrive: the name of the dead-letter queue its redrive
    /// policy names (when that queue exists) ...
    pub dead_letter_queue: Option<String>,
    /// ... and the queues whose redrive policy names it as theirs, by name.
    pub dead_letter_sources: Vec<String>,
    pub visible: usize,
    pub in_flight: usize,
    pub delayed: usize,
    /// Virtual ms when the oldest message was enqueued (retention age).
    pub oldest_enqueued_at: Option<Millis>,
    /// Its stored messages in queue order (the order they were stored in,
    /// which is the order the page draws them); in a windowed snapshot
    /// only the first `messagesPerQueue` of them.
    pub messages: Vec<MessageSnapshot>,
    /// Only in a windowed snapshot: the stored messages the window left out
    /// of `messages` (`visible + inFlight + delayed - messages.length`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub messages_omitted: Option<usize>,
    /// FIFO message groups in name order; in a windowed snapshot only the
    /// groups of the messages listed.
    pub groups: Vec<GroupSnapshot>,
    /// Only in a windowed snapshot: the groups it left out of `groups`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub groups_omitted: Option<usize>,
    /// Server-side encryption: `sse-sqs` (SqsManagedSseEnabled, AWS's
    /// default), `sse-kms` (a KmsMasterKeyId) or `none`.
    #[cfg_attr(feature = "contract", ts(type = r#""none" | "sse-sqs" | "sse-kms""#))]
    pub encryption: &'static str,
    /// SSE-KMS: the key, named by its first alias when it exists, else
    /// the queue's KmsMasterKeyId as set.
    pub kms_key: Option<String>,
    /// SSE-KMS: the data key reuse period (KmsDataKeyReusePeriodSeconds).
    pub kms_data_key_reuse_period_seconds: Option<u32>,
    /// The KMS requests SQS made for this queue's sends and receives.
    pub kms_requests: KmsRequests,
}

/// KMS requests an SSE-KMS queue made, by operation (kms.rs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct KmsRequests {
    pub generate_data_key: u64,
    pub decrypt: u64,
}

/// One page of one queue's messages (`queueMessages`): messages
/// `offset .. offset + messages.length` of `total`, in queue order.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct MessagePage {
    pub queue: String,
    pub url: String,
    /// Every message the queue stores now.
    pub total: usize,
    pub offset: usize,
    pub messages: Vec<MessageSnapshot>,
    /// The offset of the next page, or null when this page is the last.
    pub next_offset: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct MessageSnapshot {
    pub message_id: MessageId,
    /// The body's first `BODY_PREVIEW_BYTES` (1 KiB, cut on a character
    /// boundary) in a snapshot or a page; the whole body in a peek.
    pub body: String,
    /// The whole body's length in bytes of UTF-8 (as SQS counts it).
    pub body_bytes: usize,
    /// `body` is only the body's beginning: `peek` gives the whole of it.
    pub body_truncated: bool,
    /// `delayed`, `visible` or `in-flight`.
    #[cfg_attr(
        feature = "contract",
        ts(type = r#""delayed" | "visible" | "in-flight""#)
    )]
    pub state: &'static str,
    pub group: Option<String>,
    pub receive_count: u32,
    /// When a delayed or in-flight message becomes visible.
    pub visible_at: Option<Millis>,
    pub sent_at: Millis,
    /// The caller that received it last: kept after its visibility timeout
    /// runs out, until the next receive (none before the first receive, or
    /// after a dead-letter move or a redrive).
    pub holder: Option<String>,
    /// Every consumer that received it in this queue, the current holder
    /// last (an earlier one may still be working on it after its
    /// visibility timeout ran out).
    pub holders: Vec<String>,
    /// When an in-flight message's visibility window began (its latest
    /// receive or visibility change).
    pub in_flight_since: Option<Millis>,
    pub receipt_handle: Option<String>,
    pub sequence_number: Option<String>,
    pub dead_letter_source_arn: Option<String>,
}

/// A snapshot without messages or settings: counts by state per queue.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    pub time_ms: Millis,
    pub queues: Vec<QueueCounts>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct QueueCounts {
    pub name: String,
    pub visible: usize,
    pub in_flight: usize,
    pub delayed: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct GroupSnapshot {
    pub group: String,
    pub locked: bool,
    pub messages: usize,
}

impl MessageSnapshot {
    /// About how many bytes of JSON this message is, never fewer: its
    /// strings as JSON escapes them, plus a fixed allowance for the member
    /// names, numbers and punctuation. What a window's byte budget counts.
    pub fn json_bytes(&self) -> usize {
        /// Member names (about 200 bytes), numbers, `null`s and punctuation.
        const FIXED: usize = 400;
        let optional = [
            &self.group,
            &self.holder,
            &self.receipt_handle,
            &self.sequence_number,
            &self.dead_letter_source_arn,
        ];
        FIXED
            + json_len(&self.body)
            + optional
                .iter()
                .filter_map(|s| s.as_deref())
                .map(json_len)
                .sum::<usize>()
            + self.holders.iter().map(|h| json_len(h) + 3).sum::<usize>()
    }
}

/// The length of `s` as a JSON string's contents: a quote or a backslash
/// is two bytes, a control character up to six.
fn json_len(s: &str) -> usize {
    s.bytes()
        .map(|b| match b {
            b'"' | b'\\' => 2,
            0..=0x1f => 6,
            _ => 1,
        })
        .sum()
}

impl Engine {
    /// One message as snapshots list it: its body's preview, or with
    /// `whole_body` (a peek) its whole body.
    fn message_snapshot(
        &self,
        q: &Queue,
        key: u64,
        m: &Message,
        whole_body: bool,
    ) -> MessageSnapshot {
        let (state, visible_at) = match m.state {
            State::Delayed { until } => ("delayed", Some(until)),
            State::Visible => ("visible", None),
            State::InFlight { deadline } => ("in-flight", Some(deadline)),
        };
        let extras = m.extras();
        let in_flight = matches!(m.state, State::InFlight { .. });
        let (body, body_truncated) = match whole_body {
            true => (&*m.body, false),
            false => body_preview(&m.body),
        };
        MessageSnapshot {
            message_id: m.id,
            body: body.to_string(),
            body_bytes: m.body.len(),
            body_truncated,
            state,
            group: m.group.as_ref().map(|g| g.to_string()),
            receive_count: m.receive_count,
            visible_at,
            sent_at: m.sent_at,
            holder: m.holder().map(|h| h.to_string()),
            holders: extras
                .map(|e| e.holders.iter().map(|h| h.to_string()).collect())
                .unwrap_or_default(),
            in_flight_since: extras.filter(|_| in_flight).map(|e| e.in_flight_since),
            receipt_handle: (!m.receipts_here().is_empty()).then(|| {
                Receipt {
                    queue: q.id,
                    message: key,
                    serial: m.receipt_serial,
                }
                .encode(self.secret)
            }),
            sequence_number: q.fifo.then(|| sequence_number(m.sequence)),
            dead_letter_source_arn: extras
                .and_then(|e| e.dead_letter_source.as_ref().map(|s| s.to_string())),
        }
    }

    /// Every queue with every message.
    pub fn snapshot(&self) -> Snapshot {
        self.snapshot_window(None)
    }

    /// Every queue with its first `messages_per_queue` messages (all of
    /// them for `None`), a window listing at most `SNAPSHOT_WINDOW_BYTES`
    /// of them; the counts always cover every message. Building it costs
    /// the messages listed, not the messages stored.
    pub fn snapshot_window(&self, messages_per_queue: Option<usize>) -> Snapshot {
        let queues: Vec<&Queue> = self.by_name.values().map(|id| self.queue(*id)).collect();
        // A full snapshot lists every message: only a window has a budget.
        let mut budget = messages_per_queue.map(|_| SNAPSHOT_WINDOW_BYTES);
        Snapshot {
            time_ms: self.now,
            next_event_seq: self.log.next_seq(),
            waiting_polls: self.waiting_polls(),
            queues: queues
                .iter()
                .map(|q| self.queue_snapshot(q, &queues, messages_per_queue, &mut budget))
                .collect(),
        }
    }

    /// How many messages `snapshot_window(messages_per_queue)` would list
    /// at most (a window's byte budget may list fewer), without building
    /// it: so that a host can refuse one too big to hand over before
    /// paying for it.
    pub fn messages_listed(&self, messages_per_queue: Option<usize>) -> usize {
        self.queues
            .values()
            .map(|q| {
                let stored = q.count_visible() + q.count_in_flight() + q.count_delayed();
                messages_per_queue.map_or(stored, |n| stored.min(n))
            })
            .sum()
    }

    /// Messages `offset .. offset + limit` of the queue at `url`, in queue
    /// order; `None` when no queue has that URL. Costs `offset + limit`
    /// steps: for paging through a queue a person is looking at.
    pub fn queue_messages(&self, url: &str, offset: usize, limit: usize) -> Option<MessagePage> {
        let q = self.queue(self.resolve(url).ok()?);
        let total = q.count_visible() + q.count_in_flight() + q.count_delayed();
        let messages: Vec<MessageSnapshot> = q
            .messages()
            .skip(offset)
            .take(limit)
            .map(|(key, m)| self.message_snapshot(q, key, m, false))
            .collect();
        let end = offset.saturating_add(messages.len());
        Some(MessagePage {
            queue: q.name.to_string(),
            url: q.url.to_string(),
            total,
            offset,
            messages,
            next_offset: (end < total).then_some(end),
        })
    }

    /// Only the counts by state of every queue: cheap enough for every
    /// frame of a busy run, where a full snapshot copies every message.
    pub fn counts(&self) -> Counts {
        Counts {
            time_ms: self.now,
            queues: self
                .by_name
                .values()
                .map(|id| {
                    let q = self.queue(*id);
                    QueueCounts {
                        name: q.name.to_string(),
                        visible: q.count_visible(),
                        in_flight: q.count_in_flight(),
                        delayed: q.count_delayed(),
                    }
                })
                .collect(),
        }
    }

    /// `all` is every queue, to name the queue's redrive partners; `window`
    /// how many messages to list (all for `None`); `budget` the bytes of
    /// messages the snapshot may still list (`None`: no limit), spent here.
    fn queue_snapshot(
        &self,
        q: &Queue,
        all: &[&Queue],
        window: Option<usize>,
        budget: &mut Option<usize>,
    ) -> QueueSnapshot {
        let stored = q.count_visible() + q.count_in_flight() + q.count_delayed();
        let mut messages: Vec<MessageSnapshot> = Vec::new();
        for (key, m) in q.messages().take(window.unwrap_or(usize::MAX)) {
            let message = self.message_snapshot(q, key, m, false);
            if let Some(left) = budget {
                match left.checked_sub(message.json_bytes()) {
                    Some(rest) => *left = rest,
                    None => {
                        // Spent: no later message is listed either, so the
                        // window stays a prefix of the snapshot's order.
                        *left = 0;
                        break;
                    }
                }
            }
            messages.push(message);
        }
        let groups: Vec<GroupSnapshot> = match window {
            None => q
                .groups()
                .map(|(name, g)| group_snapshot(name, g))
                .collect(),
            // Only the listed messages' groups, still in name order.
            Some(_) => {
                // Inserted one by one: collecting into a B-tree compiles
                // a sort for its element type (wasm size).
                let mut names = BTreeSet::new();
                for name in messages.iter().filter_map(|m| m.group.as_deref()) {
                    names.insert(name);
                }
                names
                    .into_iter()
                    .filter_map(|name| q.group(name).map(|g| group_snapshot(name, g)))
                    .collect()
            }
        };
        let redrive = q.settings.redrive_policy.as_ref();
        let target = redrive.map(|p| p.dead_letter_target_arn.as_str());
        QueueSnapshot {
            name: q.name.to_string(),
            url: q.url.to_string(),
            arn: q.arn.to_string(),
            fifo: q.fifo,
            visibility_timeout_seconds: q.settings.visibility_timeout,
            delay_seconds: q.settings.delay_seconds,
            message_retention_period_seconds: q.settings.message_retention_period,
            dead_letter_target_arn: redrive.map(|p| p.dead_letter_target_arn.clone()),
            max_receive_count: redrive.map(|p| p.max_receive_count),
            dead_letter_queue: all
                .iter()
                .find(|other| Some(&*other.arn) == target)
                .map(|dlq| dlq.name.to_string()),
            dead_letter_sources: all
                .iter()
                .filter(|source| {
                    source
                        .settings
                        .redrive_policy
                        .as_ref()
                        .map(|p| p.dead_letter_target_arn.as_str())
                        == Some(&*q.arn)
                })
                .map(|source| source.name.to_string())
                .collect(),
            visible: q.count_visible(),
            in_flight: q.count_in_flight(),
            delayed: q.count_delayed(),
            oldest_enqueued_at: q.first_expiry().map(|(at, _)| at - q.retention_ms()),
            encryption: match (&q.settings.kms_master_key_id, q.settings.sqs_managed_sse) {
                (Some(_), _) => "sse-kms",
                (None, true) => "sse-sqs",
                (None, false) => "none",
            },
            kms_key: q.settings.kms_master_key_id.as_ref().map(|text| {
                self.kms_key(text)
                    .map_or(text.as_str(), |key| key.label())
                    .to_string()
            }),
            kms_data_key_reuse_period_seconds: q.settings.kms_master_key_id.as_ref().map(|_| {
                q.settings
                    .kms_data_key_reuse_period
                    .unwrap_or(crate::DEFAULT_DATA_KEY_REUSE_SECONDS)
            }),
            kms_requests: KmsRequests {
                generate_data_key: q.kms.generate_data_key,
                decrypt: q.kms.decrypt,
            },
            messages_omitted: window.map(|_| stored - messages.len()),
            groups_omitted: window.map(|_| q.count_groups() - groups.len()),
            messages,
            groups,
        }
    }
}

fn group_snapshot(name: &str, g: &Group) -> GroupSnapshot {
    GroupSnapshot {
        group: name.to_string(),
        locked: g.locked,
        messages: g.keys.len(),
    }
}

/// Everything about one stored message, without changing it (the page's
/// "peek"): unlike a receive, this is not an SQS operation and has no effect.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(rename = "MessagePeek"))]
#[serde(rename_all = "camelCase")]
pub struct Peek {
    pub queue: String,
    pub message: MessageSnapshot,
    /// String and Number attributes as text, Binary ones as base64.
    pub attributes: Vec<PeekAttribute>,
    pub dedup_id: Option<String>,
    /// Every receipt handle this queue issued for the message, oldest first
    /// (a dead-lettered message's earlier handles belong to its source queue).
    pub receipt_handles: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PeekAttribute {
    pub name: String,
    pub data_type: String,
    pub value: String,
}

impl Engine {
    /// Looks a message up by id in every queue (a scan: this is for a
    /// person clicking on one message, not for a hot path).
    pub fn peek(&self, message_id: &str) -> Option<Peek> {
        use base64::Engine as _;
        for id in self.by_name.values() {
            let q = self.queue(*id);
            let Some((key, m)) = q.messages().find(|(_, m)| m.id.to_string() == message_id) else {
                continue;
            };
            let extras = m.extras();
            let attributes = extras
                .map(|e| {
                    e.attributes
                        .iter()
                        .map(|a| PeekAttribute {
                            name: a.name.clone(),
                            data_type: a.data_type.clone(),
                            value: match &a.value {
                                crate::message::AttributeValue::String(s) => s.clone(),
                                crate::message::AttributeValue::Binary(b) => {
                                    base64::engine::general_purpose::STANDARD.encode(b)
                                }
                            },
                        })
                        .collect()
                })
                .unwrap_or_default();
            let receipt_handles = m
                .receipts_here()
                .map(|serial| {
                    Receipt {
                        queue: q.id,
                        message: key,
                        serial,
                    }
                    .encode(self.secret)
                })
                .collect();
            return Some(Peek {
                queue: q.name.to_string(),
                message: self.message_snapshot(q, key, m, true),
                attributes,
                dedup_id: extras.and_then(|e| e.dedup_id.as_ref().map(|d| d.to_string())),
                receipt_handles,
            });
        }
        None
    }
}
