//! SNS's JSON envelope: the body an SQS subscription without raw message
//! delivery receives. Its fields in the order AWS sends them (`Type`,
//! `MessageId`, `SequenceNumber` for a FIFO topic, `TopicArn`, `Subject`
//! when the publish had one, `Message`, `Timestamp`, `SignatureVersion`,
//! `Signature`, `SigningCertURL`, `UnsubscribeURL`, `MessageAttributes`
//! when it had any), written as SNS writes them (`"Key" : "value"`, two
//! spaces of indent). `Signature` is not a real RSA signature: base64 of
//! SHA-256 digests of the signed fields, deterministic, the length of a
//! real one (docs/fidelity.md).

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use sha2::{Digest, Sha256};

/// What a notification says.
pub struct Notification<'a> {
    pub message_id: &'a str,
    /// A FIFO topic's number for the message.
    pub sequence_number: Option<&'a str>,
    pub topic_arn: &'a str,
    pub subject: Option<&'a str>,
    pub message: &'a str,
    /// Milliseconds since 1970-01-01T00:00:00Z.
    pub timestamp_ms: u64,
    pub region: &'a str,
    pub subscription_arn: &'a str,
    /// Name, SNS type (`String`, `Number`, `String.Array`) and value.
    pub attributes: &'a [(String, &'static str, String)],
}

impl Notification<'_> {
    /// The envelope's JSON text.
    pub fn envelope(&self) -> String {
        let timestamp = iso8601(self.timestamp_ms);
        let signature = self.signature(&timestamp);
        let cert = format!(
            "https://sns.{}.amazonaws.com/SimpleNotificationService-{}.pem",
            self.region,
            &hex_digest(self.region.as_bytes())[..32]
        );
        let unsubscribe = format!(
            "https://sns.{}.amazonaws.com/?Action=Unsubscribe&SubscriptionArn={}",
            self.region, self.subscription_arn
        );
        let mut fields: Vec<(&str, &str)> = vec![("Type", "Notification")];
        fields.push(("MessageId", self.message_id));
        if let Some(n) = self.sequence_number {
            fields.push(("SequenceNumber", n));
        }
        fields.push(("TopicArn", self.topic_arn));
        if let Some(subject) = self.subject {
            fields.push(("Subject", subject));
        }
        fields.extend([
            ("Message", self.message),
            ("Timestamp", &timestamp),
            ("SignatureVersion", "1"),
            ("Signature", &signature),
            ("SigningCertURL", &cert),
            ("UnsubscribeURL", &unsubscribe),
        ]);
        let mut out = String::from("{\n");
        let lines: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("  {} : {}", json_string(k), json_string(v)))
            .chain(self.attributes_field())
            .collect();
        out.push_str(&lines.join(",\n"));
        out.push_str("\n}");
        out
    }

    /// `"MessageAttributes" : {…}`, each `{"Type":…,"Value":…}`.
    fn attributes_field(&self) -> Option<String> {
        if self.attributes.is_empty() {
            return None;
        }
        let entries: Vec<String> = self
            .attributes
            .iter()
            .map(|(name, kind, value)| {
                format!(
                    "    {} : {{\"Type\":{},\"Value\":{}}}",
                    json_string(name),
                    json_string(kind),
                    json_string(value)
                )
            })
            .collect();
        Some(format!(
            "  \"MessageAttributes\" : {{\n{}\n  }}",
            entries.join(",\n")
        ))
    }

    /// 256 bytes (a 2048-bit RSA signature's length) from SHA-256 digests
    /// of the fields SNS signs, in base64.
    fn signature(&self, timestamp: &str) -> String {
        let signed = format!(
            "Message\n{}\nMessageId\n{}\n{}Timestamp\n{timestamp}\nTopicArn\n{}\nType\nNotification\n",
            self.message,
            self.message_id,
            self.subject
                .map(|s| format!("Subject\n{s}\n"))
                .unwrap_or_default(),
            self.topic_arn
        );
        let mut bytes = Vec::with_capacity(256);
        for block in 0u8..8 {
            let mut hasher = Sha256::new();
            hasher.update([block]);
            hasher.update(signed.as_bytes());
            bytes.extend_from_slice(&hasher.finalize());
        }
        STANDARD.encode(bytes)
    }
}

/// A JSON string literal of `s`.
pub fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

/// The SHA-256 of `bytes` in lowercase hex.
pub fn hex_digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `2024-01-01T00:00:00.000Z` for milliseconds since the Unix epoch.
pub fn iso8601(epoch_ms: u64) -> String {
    let days = (epoch_ms / 86_400_000) as i64;
    let ms_of_day = epoch_ms % 86_400_000;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (h, m, s, ms) = (
        ms_of_day / 3_600_000,
        ms_of_day / 60_000 % 60,
        ms_of_day / 1000 % 60,
        ms_of_day % 1000,
    );
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{ms:03}Z")
}

#[cfg(test)]
mod tests {
    use super::iso8601;

    #[test]
    fn timestamps_are_iso_8601_in_utc_with_milliseconds() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(1_704_067_200_000), "2024-01-01T00:00:00.000Z");
        assert_eq!(iso8601(1_709_210_096_789), "2024-02-29T12:34:56.789Z");
        assert_eq!(iso8601(253_402_300_799_999), "9999-12-31T23:59:59.999Z");
    }
}
