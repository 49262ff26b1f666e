//! The messages S3 puts on a queue, written as S3 writes them: an event
//! notification (`Records[]`, event structure version 2.1, fields in the
//! order of the S3 User Guide's example "Event message structure") and the
//! `s3:TestEvent` it sends when a configuration is saved. The simulation
//! parses no JSON; it only writes these two shapes, so a small writer here
//! does it (strings escaped as JSON requires).

use super::notification::EventType;

/// One object event as a record tells it.
pub(crate) struct Record<'a> {
    pub region: &'a str,
    /// Epoch milliseconds of the moment S3 finished the request.
    pub epoch_ms: u64,
    pub event: EventType,
    /// Who caused it, and the bucket's owner (Amazon customer ids).
    pub principal_id: &'a str,
    pub request_id: &'a str,
    pub host_id: &'a str,
    pub configuration_id: &'a str,
    pub bucket: &'a str,
    /// The key as stored: the record carries it URL-encoded.
    pub key: &'a str,
    /// Size and eTag: an object creation's only (a removal has neither).
    pub object: Option<(u64, &'a str)>,
    pub sequencer: &'a str,
}

/// The notification's body: `{"Records":[{…}]}`.
pub(crate) fn notification(r: &Record) -> String {
    let mut w = Json::default();
    w.open('{');
    w.key("Records");
    w.open('[');
    w.open('{');
    w.field("eventVersion", "2.1");
    w.field("eventSource", "aws:s3");
    w.field("awsRegion", r.region);
    w.field("eventTime", &iso8601(r.epoch_ms));
    w.field("eventName", r.event.event_name());
    w.key("userIdentity");
    w.open('{');
    w.field("principalId", r.principal_id);
    w.close('}');
    w.key("requestParameters");
    w.open('{');
    // The address of the scenario's uploader: the documentation's own.
    w.field("sourceIPAddress", "127.0.0.1");
    w.close('}');
    w.key("responseElements");
    w.open('{');
    w.field("x-amz-request-id", r.request_id);
    w.field("x-amz-id-2", r.host_id);
    w.close('}');
    w.key("s3");
    w.open('{');
    w.field("s3SchemaVersion", "1.0");
    w.field("configurationId", r.configuration_id);
    w.key("bucket");
    w.open('{');
    w.field("name", r.bucket);
    w.key("ownerIdentity");
    w.open('{');
    w.field("principalId", r.principal_id);
    w.close('}');
    w.field("arn", &bucket_arn(r.bucket));
    w.close('}');
    w.key("object");
    w.open('{');
    w.field("key", &url_encode_key(r.key));
    if let Some((size, e_tag)) = r.object {
        w.key("size");
        w.raw(&size.to_string());
        w.field("eTag", e_tag);
    }
    w.field("sequencer", r.sequencer);
    w.close('}');
    w.close('}');
    w.close('}');
    w.close(']');
    w.close('}');
    w.out
}

/// The message S3 sends a destination when a configuration naming it is
/// saved, to check it may deliver there.
pub(crate) fn test_event(bucket: &str, epoch_ms: u64, request_id: &str, host_id: &str) -> String {
    let mut w = Json::default();
    w.open('{');
    w.field("Service", "Amazon S3");
    w.field("Event", "s3:TestEvent");
    w.field("Time", &iso8601(epoch_ms));
    w.field("Bucket", bucket);
    w.field("RequestId", request_id);
    w.field("HostId", host_id);
    w.close('}');
    w.out
}

/// A bucket's ARN: S3's have no region or account.
pub(crate) fn bucket_arn(bucket: &str) -> String {
    format!("arn:aws:s3:::{bucket}")
}

/// An object key as a record carries it: URL-encoded the way an HTML form
/// is (`application/x-www-form-urlencoded`, as S3 says of its records),
/// so "red flower.jpg" is "red+flower.jpg"; letters, digits, `-`, `_`,
/// `.`, `*` and the `/` between a key's parts stay as they are, and every
/// other byte of the key's UTF-8 is `%XX`.
pub(crate) fn url_encode_key(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    for b in key.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'*' | b'/' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Epoch milliseconds in ISO 8601, as S3's `eventTime`:
/// "2024-01-01T00:00:01.000Z".
pub(crate) fn iso8601(epoch_ms: u64) -> String {
    let (days, ms) = (epoch_ms / 86_400_000, epoch_ms % 86_400_000);
    let (year, month, day) = civil_from_days(days);
    let (h, m, s, milli) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`, for days on or after the epoch).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

/// A JSON text written in order: members separated as they come.
#[derive(Default)]
struct Json {
    out: String,
    /// Whether the next member or element is the first of its object or list.
    first: bool,
}

impl Json {
    fn open(&mut self, c: char) {
        self.comma();
        self.out.push(c);
        self.first = true;
    }

    fn close(&mut self, c: char) {
        self.out.push(c);
        self.first = false;
    }

    fn comma(&mut self) {
        if !self.first && !self.out.is_empty() && !self.out.ends_with(':') {
            self.out.push(',');
        }
        self.first = false;
    }

    fn key(&mut self, key: &str) {
        self.comma();
        self.string(key);
        self.out.push(':');
    }

    fn field(&mut self, key: &str, value: &str) {
        self.key(key);
        self.string(value);
    }

    fn raw(&mut self, value: &str) {
        self.out.push_str(value);
    }

    /// `s` as a JSON string, escaped by serde_json (as the SNS envelope's
    /// strings are), not by an escaper of this module's own.
    fn string(&mut self, s: &str) {
        // Writing a `str` into a `String` cannot fail.
        let quoted = serde_json::to_string(s).unwrap_or_default();
        self.out.push_str(&quoted);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_iso_8601_with_milliseconds() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(1_704_067_201_234), "2024-01-01T00:00:01.234Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso8601(253_402_300_799_999), "9999-12-31T23:59:59.999Z");
    }

    #[test]
    fn keys_are_form_url_encoded() {
        assert_eq!(url_encode_key("red flower.jpg"), "red+flower.jpg");
        assert_eq!(url_encode_key("a/b=c&d"), "a/b%3Dc%26d");
        assert_eq!(url_encode_key("café"), "caf%C3%A9");
    }

    #[test]
    fn strings_are_escaped() {
        let body = test_event("b\"\\\n", 0, "R", "H");
        assert!(body.contains(r#""Bucket":"b\"\\\n","#), "{body}");
    }
}
