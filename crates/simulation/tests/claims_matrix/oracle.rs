//! The oracle: each sentence a run shows, held against the run's log as
//! the oracle reads it (`facts.rs`), never against the story's own state.
//! Narration lines (`lines.rs`), checkpoint verdicts (`verdicts.rs`),
//! every "Why:" (`why.rs`) and the recap (here) must each say what the
//! log says; a line or a verdict's `because` must also make its declared
//! claims true (`conditions.rs`), and one withheld must have made one false.

use queuelab_simulation::{EndCondition, MAX_SIDE_EFFECT_NAMES};

use super::facts::Facts;
use super::play::Played;

/// A sentence the run made false: what was shown, and what the log says.
#[derive(Debug)]
pub struct Finding {
    pub what: &'static str,
    pub at: u64,
    pub sentence: String,
    pub log_says: String,
}

/// What the oracle found in one run, and how many claims it weighed.
#[derive(Default)]
pub struct Verdict {
    pub findings: Vec<Finding>,
    pub claims: u64,
}

impl Verdict {
    pub fn claim(
        &mut self,
        holds: bool,
        what: &'static str,
        at: u64,
        sentence: &str,
        log_says: impl FnOnce() -> String,
    ) {
        self.claims += 1;
        if !holds {
            self.findings.push(Finding {
                what,
                at,
                sentence: sentence.to_string(),
                log_says: log_says(),
            });
        }
    }
}

/// Whether an end condition holds for the whole run, from the log's counts.
pub fn holds(c: &EndCondition, f: &Facts) -> bool {
    let each = c.side_effects_each.is_none_or(|n| {
        !f.side_effects.is_empty() && f.side_effects.values().all(|by| by.len() as u64 == n)
    });
    let no_dup = !c.no_duplicate_delivery || f.duplicate_deliveries == 0;
    let none_lost = !c.none_lost || f.lost + f.expired + f.dead_lettered == 0;
    let most = |by: &std::collections::BTreeMap<String, u64>, name: &String| {
        let mine = by.get(name).copied().unwrap_or(0);
        mine > 0 && by.iter().all(|(k, v)| k == name || *v < mine)
    };
    let empty = (c.most_empty_receives.as_ref()).is_none_or(|n| most(&f.empty_by, n));
    let kms = (c.most_kms_requests.as_ref()).is_none_or(|n| most(&f.kms_by_queue, n));
    each && no_dup && none_lost && empty && kms
}

/// Whether `text` is `template` with each `{placeholder}` filled somehow:
/// the template's literal pieces, in order, and nothing else around them.
pub fn fits(template: &str, text: &str) -> bool {
    let mut pieces = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        pieces.push(&rest[..open]);
        match rest[open..].find('}') {
            Some(close) => rest = &rest[open + close + 1..],
            None => return template == text,
        }
    }
    pieces.push(rest);
    if pieces.len() == 1 {
        return template == text;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    let Some(mut body) = text.strip_prefix(first) else {
        return false;
    };
    let Some(end) = body.len().checked_sub(last.len()) else {
        return false;
    };
    if !body.ends_with(last) {
        return false;
    }
    body = &body[..end];
    for piece in &pieces[1..pieces.len() - 1] {
        match body.find(piece) {
            Some(i) => body = &body[i + piece.len()..],
            None => return false,
        }
    }
    true
}

/// Every sentence of one run, weighed.
pub fn judge(run: &Played) -> Verdict {
    let end = run.scenario.duration_ms;
    let facts = Facts::read(&run.events, end);
    let mut v = Verdict::default();
    super::lines::judge(run, &facts, &mut v);
    super::verdicts::judge(run, &facts, &mut v);
    for (at, text) in &run.whys {
        let result = super::why::check(*at, text, &facts, &run.scenario);
        v.claim(result.is_ok(), "Why:", *at, text, || {
            result.err().unwrap_or_default()
        });
    }
    recap(run, &facts, &mut v);
    v
}

fn recap(run: &Played, f: &Facts, v: &mut Verdict) {
    let o = &run.outcome;
    let end = run.scenario.duration_ms;
    let counts = [
        (
            "Duplicate deliveries",
            o.duplicate_deliveries,
            f.duplicate_deliveries,
        ),
        ("Lost", o.lost, f.lost),
        ("Expired", o.expired, f.expired),
        ("Dead-lettered", o.dead_lettered, f.dead_lettered),
        ("Empty receives", o.empty_receives, f.empty_receives),
    ];
    for (name, said, counted) in counts {
        v.claim(
            said == counted,
            "recap",
            end,
            &format!("{name}: {said}"),
            || format!("the log counts {counted}"),
        );
    }
    let longest = f.waits.iter().map(|(ms, _)| *ms).max();
    let label_fits = f
        .waits
        .iter()
        .any(|(ms, l)| Some(*ms) == longest && o.longest_wait_label.as_ref() == Some(l));
    let said = format!(
        "Longest wait: {} ms ({:?})",
        o.longest_wait_ms, o.longest_wait_label
    );
    let right = match longest {
        Some(ms) => ms == o.longest_wait_ms && label_fits,
        None => o.longest_wait_label.is_none(),
    };
    v.claim(right, "recap", end, &said, || {
        let top = f.waits.iter().max_by_key(|(ms, _)| *ms);
        format!("the log's longest wait: {top:?}")
    });
    let shown = run.side_effects.len() as u64 + run.side_effects_omitted;
    v.claim(
        shown == f.side_effects.len() as u64,
        "recap",
        end,
        "side effects per message",
        || {
            format!(
                "{} messages had side effects in the log, the recap lists {shown}",
                f.side_effects.len()
            )
        },
    );
    for s in &run.side_effects {
        let logged = f.side_effects.get(&s.message_id);
        // The recap keeps the first MAX_SIDE_EFFECT_NAMES names of who did it.
        let right = logged.is_some_and(|by| {
            let kept = by.len().min(MAX_SIDE_EFFECT_NAMES);
            by.len() as u64 == s.count && by[..kept] == s.by[..]
        });
        v.claim(
            right,
            "recap",
            end,
            &format!("{}: {} ×{}", s.body, s.effect, s.count),
            || format!("the log: {logged:?}"),
        );
    }
}
