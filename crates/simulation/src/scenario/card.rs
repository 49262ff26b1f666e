//! A worker's card line: what a consumer does, in words ("long-polls 20 s
//! · 200 ms per message · fails every message from t = 0 s to t = 15 s ·
//! retries a failure at once"). Its receiving and processing are said
//! here; each behaviour says itself (`behaviours::REGISTRY`), so a new
//! behaviour is on the card without a word added to any page.

use crate::behaviours;
use crate::document::{Consumer, Processing};
use crate::teach::explain::secs;

impl Consumer {
    /// The card's parts, in order (a page joins them with " · ").
    pub fn traits(&self) -> Vec<String> {
        let mut out = vec![match self.wait_time_seconds {
            0 => format!("short-polls every {}", span(self.poll_interval_ms)),
            s => format!("long-polls {s} s"),
        }];
        if self.batch_size > 1 {
            out.push(format!("batches of {}", self.batch_size));
        }
        out.push(match self.processing {
            Processing::FixedMs(ms) => format!("{} per message", span(ms)),
            Processing::UniformMs { min, max } => {
                format!("{}–{} per message", span(min), span(max))
            }
            Processing::ExponentialMs { mean } => format!("~{} per message (random)", span(mean)),
        });
        if self.batch_overhead_ms > 0 {
            out.push(format!("+{} per receive", span(self.batch_overhead_ms)));
        }
        out.extend(behaviours::words(&self.behaviour));
        if let Some(publish) = &self.publish_metrics {
            out.push(format!("publishes metrics to {}", publish.namespace));
        }
        if self.start_ms > 0 {
            out.push(format!("starts at t = {}", secs(self.start_ms)));
        }
        if let Some(stop) = self.stop_ms {
            out.push(format!("stops at t = {}", secs(stop)));
        }
        out
    }
}

/// A duration for people: "800 ms", "3.5 s", "5 min", "4 d" (the page's
/// `span` says the same).
pub(crate) fn span(ms: u64) -> String {
    // Up to `places` decimals, trailing zeros dropped: 1.50 -> "1.5".
    let short = |x: f64, places: usize| {
        let text = format!("{x:.places$}");
        match text.contains('.') {
            true => text.trim_end_matches('0').trim_end_matches('.').to_string(),
            false => text,
        }
    };
    let s = ms as f64 / 1000.0;
    match ms {
        0..=999 => format!("{ms} ms"),
        1_000..=119_999 => format!("{} s", short(s, 2)),
        120_000..=7_199_999 => format!("{} min", short(s / 60.0, 1)),
        7_200_000..=172_799_999 => format!("{} h", short(s / 3600.0, 1)),
        _ => format!("{} d", short(s / 86_400.0, 1)),
    }
}

/// “a”, “b”: body patterns as a card quotes them.
pub(crate) fn quoted_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("“{i}”")).collect();
    quoted.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_reads_as_the_pages_did() {
        let cases = [
            (800, "800 ms"),
            (1000, "1 s"),
            (3500, "3.5 s"),
            (1250, "1.25 s"),
            (300_000, "5 min"),
            (90_000_000, "25 h"),
            (4 * 86_400_000, "4 d"),
        ];
        for (ms, words) in cases {
            assert_eq!(span(ms), words);
        }
    }
}
