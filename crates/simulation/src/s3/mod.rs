//! S3 in the simulation: buckets that hold objects and tell queues of
//! what happens to them (event notifications). A bucket here is what S3
//! knows of one: its objects (key, size, eTag), the order of its events
//! (the sequencer) and its notification configuration
//! (`notification.rs`); the messages it sends are S3's own JSON
//! (`event.rs`). The bucket's actor (`actors/bucket.rs`) decides when it
//! sends them and carries its configuration's validation out; the
//! scenario's refusals are in `scenario/buckets.rs`, and S3's naming rule
//! for buckets in `names.rs`.

pub mod api;
pub(crate) mod event;
pub(crate) mod names;
pub(crate) mod notification;
mod service;
mod snapshot;

use std::collections::BTreeMap;
use std::sync::Arc;

use md5::{Digest as _, Md5};

pub(crate) use notification::{EventType, KeyFilter, QueueConfiguration};
pub(crate) use snapshot::RECENT_KEYS;
pub use snapshot::{BucketSnapshot, NotificationSnapshot};

/// A bucket: its objects and the count of its events so far.
pub(crate) struct Bucket {
    pub name: Arc<str>,
    /// How many times each key was put (at most one entry per key a
    /// scenario names, or PutObject stored), so a new put's eTag is new.
    puts: BTreeMap<String, u64>,
    /// The objects held now.
    held: BTreeMap<String, Stored>,
    /// The bytes of content its objects hold (PutObject's bodies).
    content_bytes: usize,
    /// Events so far: each one's sequencer and request id come from it.
    events: u64,
}

/// An object held: its size, eTag and when it was last written; its
/// content when PutObject stored one (a scenario's put gives a size only).
#[derive(Clone, Debug)]
pub(crate) struct Stored {
    pub size: u64,
    pub e_tag: String,
    pub modified_epoch_ms: u64,
    pub body: Option<String>,
}

/// An event on one object, as its records tell it.
#[derive(Clone, Debug)]
pub(crate) struct ObjectEvent {
    pub event: EventType,
    pub key: String,
    /// Size and eTag (an object creation's).
    pub object: Option<(u64, String)>,
    /// A hex string greater than every earlier event's of this bucket (so
    /// of this key), as S3's `sequencer`.
    pub sequencer: String,
    /// S3's request ids: `x-amz-request-id` and `x-amz-id-2`.
    pub request_id: String,
    pub host_id: String,
}

impl Bucket {
    pub(crate) fn new(name: &str) -> Self {
        Bucket {
            name: name.into(),
            puts: BTreeMap::new(),
            held: BTreeMap::new(),
            content_bytes: 0,
            events: 0,
        }
    }

    /// PutObject of `key` (`size` bytes) at epoch time `epoch_ms`: the
    /// object is stored (replacing one of that key), and its event is
    /// `ObjectCreated:Put`. Its eTag is an MD5 in hex, as a single-part
    /// upload's is, of the key and the number of this put of it (there is
    /// no content to digest).
    pub(crate) fn put(&mut self, key: &str, size: u64, epoch_ms: u64) -> ObjectEvent {
        let puts = self.puts.get(key).map_or(0, |n| n + 1);
        let e_tag = hex(&Md5::digest(format!("{key}\n{puts}").as_bytes()));
        self.puts.insert(key.to_string(), puts);
        self.store(key, size, e_tag, None, epoch_ms)
    }

    /// PutObject of `key` with this content: its eTag is the MD5 of the
    /// content, as a single-part upload's is.
    pub(crate) fn put_content(&mut self, key: &str, body: String, epoch_ms: u64) -> ObjectEvent {
        let e_tag = hex(&Md5::digest(body.as_bytes()));
        self.store(key, body.len() as u64, e_tag, Some(body), epoch_ms)
    }

    fn store(
        &mut self,
        key: &str,
        size: u64,
        e_tag: String,
        body: Option<String>,
        epoch_ms: u64,
    ) -> ObjectEvent {
        self.content_bytes += body.as_ref().map_or(0, String::len);
        let stored = Stored {
            size,
            e_tag: e_tag.clone(),
            modified_epoch_ms: epoch_ms,
            body,
        };
        if let Some(old) = self.held.insert(key.to_string(), stored) {
            self.content_bytes -= old.body.as_ref().map_or(0, String::len);
        }
        self.event(EventType::CreatedPut, key, Some((size, e_tag)), epoch_ms)
    }

    /// The object held under `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&Stored> {
        self.held.get(key)
    }

    /// The objects held, in key order, whose keys start with `prefix`
    /// and come after `after`: read from the first such key on, and no
    /// further than the last, so a page costs its own keys.
    pub(crate) fn list<'a>(
        &'a self,
        prefix: &'a str,
        after: &'a str,
    ) -> impl Iterator<Item = (&'a String, &'a Stored)> + 'a {
        use std::ops::Bound::{Excluded, Included};
        let from = match after > prefix {
            true => Excluded(after.to_string()),
            false => Included(prefix.to_string()),
        };
        (self.held.range((from, std::ops::Bound::Unbounded)))
            .take_while(move |(k, _)| k.starts_with(prefix))
    }

    /// The bytes of content its objects hold.
    pub(crate) fn content_bytes(&self) -> usize {
        self.content_bytes
    }

    /// DeleteObject of `key`: S3 answers the same whether or not the key
    /// is there, and tells of an `ObjectRemoved:Delete` either way.
    pub(crate) fn delete(&mut self, key: &str, epoch_ms: u64) -> ObjectEvent {
        // Its count of puts stays, so a later put's eTag is new.
        if let Some(old) = self.held.remove(key) {
            self.content_bytes -= old.body.as_ref().map_or(0, String::len);
        }
        self.event(EventType::RemovedDelete, key, None, epoch_ms)
    }

    fn event(
        &mut self,
        event: EventType,
        key: &str,
        object: Option<(u64, String)>,
        epoch_ms: u64,
    ) -> ObjectEvent {
        self.events += 1;
        let (request_id, host_id) = request_ids(&self.name, self.events);
        ObjectEvent {
            event,
            key: key.to_string(),
            object,
            // 12 hex digits of the time, 6 of the event's number: later
            // events have greater values, as S3's 18-digit sequencers do.
            sequencer: format!("{epoch_ms:012X}{:06X}", self.events & 0xFF_FFFF),
            request_id,
            host_id,
        }
    }

    /// The request ids of the bucket's next request (a configuration's test event).
    pub(crate) fn next_request(&mut self) -> (String, String) {
        self.events += 1;
        request_ids(&self.name, self.events)
    }

    /// Objects held now.
    pub(crate) fn object_count(&self) -> usize {
        self.held.len()
    }

    /// The body of the notification `event` makes for `configuration`, in
    /// the bucket owner's `account` (whose uploads cause the events).
    pub(crate) fn notification(
        &self,
        event: &ObjectEvent,
        configuration: &QueueConfiguration,
        (region, account): (&str, &str),
        epoch_ms: u64,
    ) -> String {
        event::notification(&event::Record {
            region,
            epoch_ms,
            event: event.event,
            principal_id: &customer_id(account),
            request_id: &event.request_id,
            host_id: &event.host_id,
            configuration_id: &configuration.id,
            bucket: &self.name,
            key: &event.key,
            object: event
                .object
                .as_ref()
                .map(|(size, e_tag)| (*size, e_tag.as_str())),
            sequencer: &event.sequencer,
        })
    }
}

/// An Amazon customer id for an account ("A" and 13 capitals and digits),
/// the same for the same account, as records name the bucket's owner.
fn customer_id(account: &str) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let digest = Md5::digest(account.as_bytes());
    let tail: String = (digest.iter().take(13))
        .map(|b| ALPHABET[(b & 31) as usize] as char)
        .collect();
    format!("A{tail}")
}

/// `x-amz-request-id` (16 capital hex digits) and `x-amz-id-2` (64
/// base64 characters) of a bucket's `n`th request, the same on every run.
fn request_ids(bucket: &str, n: u64) -> (String, String) {
    let seed = |part: u8| Md5::digest(format!("{bucket}\n{n}\n{part}").as_bytes());
    let request = hex(&seed(0)[..8]).to_uppercase();
    let host: Vec<u8> = (1..=3).flat_map(|p| seed(p).to_vec()).collect();
    (request, base64(&host))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Standard base64 of whole 3-byte groups (the ids here are 48 bytes).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len() / 3 * 4);
    for chunk in bytes.chunks_exact(3) {
        let n = u32::from(chunk[0]) << 16 | u32::from(chunk[1]) << 8 | u32::from(chunk[2]);
        for shift in [18, 12, 6, 0] {
            out.push(ALPHABET[(n >> shift & 63) as usize] as char);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequencers_increase_and_etags_are_md5_shaped() {
        let mut bucket = Bucket::new("uploads");
        let first = bucket.put("a.jpg", 10, 1_000);
        let second = bucket.delete("a.jpg", 1_000);
        let third = bucket.put("a.jpg", 10, 2_000);
        assert!(first.sequencer < second.sequencer && second.sequencer < third.sequencer);
        assert_eq!(first.sequencer.len(), 18);
        let (_, e_tag) = first.object.clone().unwrap();
        assert_eq!(e_tag.len(), 32);
        assert_ne!(
            Some(e_tag),
            third.object.map(|(_, e)| e),
            "a new put, a new eTag"
        );
        assert_eq!(first.request_id.len(), 16);
        assert_eq!(first.host_id.len(), 64);
        assert_eq!(bucket.object_count(), 1);
    }
}
