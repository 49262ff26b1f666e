//! Narration lines, as the log shows them: each line shown had its
//! moment (`atMs`), its trigger's event (every filter matching, at or
//! after `atMs`, at the line's moment), the line it follows, its end
//! condition, and its declared claims true when it fired; a line shown in
//! its `otherwise` words, or withheld, had a claim false then.

use queuelab_simulation::{Kind, Narration, SimEvent};

use super::conditions::{matches, SoFar};
use super::facts::Facts;
use super::oracle::{fits, holds, Verdict};
use super::play::Played;

/// How a shown text relates to a line: its own words, or its `otherwise`.
#[derive(Clone, Copy, PartialEq)]
enum Words {
    Text,
    Otherwise,
}

pub fn judge(run: &Played, f: &Facts, v: &mut Verdict) {
    let lines = &run.scenario.narration;
    for e in &run.events {
        let (text, withheld) = match &e.kind {
            Kind::Simulation(SimEvent::Narration { text }) => (text, false),
            Kind::Simulation(SimEvent::NarrationWithheld { text, .. }) => (text, true),
            _ => continue,
        };
        let candidates = lines.iter().flat_map(|l| {
            let own = fits(&l.text, text).then_some((l, Words::Text));
            let other = l
                .otherwise
                .as_ref()
                .filter(|o| fits(o, text))
                .map(|_| (l, Words::Otherwise));
            own.into_iter().chain(other)
        });
        let reasons: Vec<Option<String>> = candidates
            .map(|(l, words)| line_false(run, f, l, words, withheld, e.seq, e.time_ms))
            .collect();
        // A verdict's withheld `because` is judged with the verdict.
        if withheld && reasons.is_empty() {
            continue;
        }
        let what = if withheld { "withheld" } else { "narration" };
        let ok = reasons.iter().any(Option::is_none);
        v.claim(ok, what, e.time_ms, text, || {
            (reasons.into_iter().flatten().next())
                .unwrap_or_else(|| "no line of the file has these words".into())
        });
    }
}

/// Why `line`, shown (or withheld) as event `seq` at `at` in these
/// `words`, is false for the run (None: it is true).
fn line_false(
    run: &Played,
    f: &Facts,
    line: &Narration,
    words: Words,
    withheld: bool,
    seq: u64,
    at: u64,
) -> Option<String> {
    let s = &run.scenario;
    let lines = &s.narration;
    if at < line.at_ms {
        return Some(format!("shown at {at} ms, before its atMs {}", line.at_ms));
    }
    if let Some(after) = &line.after {
        let first = lines.iter().find(|l| l.id.as_deref() == Some(after));
        let before = first.is_some_and(|l| shown_before(run, l, seq));
        if !before {
            return Some(format!("shown before the line {after:?} it follows"));
        }
    }
    // The event the claims were weighed at: the trigger's first match this
    // moment (an atEnd line, a timed one: the moment as a whole).
    let mut upto = seq;
    if let (Some(t), None) = (&line.when, &line.at_end) {
        let fired = f
            .happenings
            .iter()
            .find(|h| h.at == at && h.seq < seq && h.at >= line.at_ms && matches(t, h, s));
        match fired {
            Some(h) => upto = h.seq,
            None => return Some(format!("its trigger {t:?} did not happen at {at} ms")),
        }
    }
    if let Some(c) = &line.at_end {
        let happened = line.when.as_ref().is_none_or(|t| {
            f.happenings
                .iter()
                .any(|h| h.at >= line.at_ms && matches(t, h, s))
        });
        if at != s.duration_ms || !happened || !holds(c, f) {
            return Some(format!(
                "its end condition {c:?} (with its trigger {:?}) is false for the run",
                line.when
            ));
        }
    }
    let so_far = SoFar {
        upto,
        facts: f,
        events: &run.events,
        scenario: s,
    };
    match (words, withheld, so_far.any_fails(&line.claims)) {
        (Words::Text, false, Some(why)) => Some(format!("its claim is false: {why}")),
        (Words::Text, true, None) | (Words::Otherwise, false, None) => {
            Some("withheld, but every claim it makes holds".into())
        }
        _ => None,
    }
}

/// Whether `line` was shown (in its words or its `otherwise`) before event `seq`.
fn shown_before(run: &Played, line: &Narration, seq: u64) -> bool {
    run.events
        .iter()
        .take_while(|e| e.seq < seq)
        .any(|e| match &e.kind {
            Kind::Simulation(SimEvent::Narration { text }) => {
                fits(&line.text, text) || line.otherwise.as_ref().is_some_and(|o| fits(o, text))
            }
            _ => false,
        })
}
