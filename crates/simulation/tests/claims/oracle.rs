//! The oracle: each sentence a run shows, held against the run's log as
//! the oracle reads it (`facts.rs`), never against the story's own state.
//! A narration line shown must have had its moment, its trigger's event
//! (every filter matching, at or after `atMs`, before the line), the line
//! it follows, and its end condition; a checkpoint's verdict must be the
//! choice the run made true (the first `when` event after the question,
//! else the first `atEnd` that holds, else the choice that gives neither);
//! every "Why:" must say what the log says at its moment (`why.rs`); the
//! recap must count what the log counts.

use queuelab_simulation::{
    EndCondition, Kind, Narration, SimEvent, Trigger, MAX_SIDE_EFFECT_NAMES,
};

use super::facts::{Facts, Happening};
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
    fn claim(
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

pub fn matches(t: &Trigger, h: &Happening) -> bool {
    fn same<T: PartialEq>(want: Option<&T>, got: Option<&T>) -> bool {
        want.is_none_or(|w| got == Some(w))
    }
    t.event == h.event
        && same(t.queue.as_ref(), h.queue.as_ref())
        && same(t.consumer.as_ref(), h.consumer.as_ref())
        && same(t.group.as_ref(), h.group.as_ref())
        && same(t.receive_count.as_ref(), h.receive_count.as_ref())
        && same(t.count.as_ref(), h.count.as_ref())
}

/// Whether an end condition holds for the whole run, from the log's counts.
pub fn holds(c: &EndCondition, f: &Facts) -> bool {
    let each = c.side_effects_each.is_none_or(|n| {
        !f.side_effects.is_empty() && f.side_effects.values().all(|by| by.len() as u64 == n)
    });
    let no_dup = !c.no_duplicate_delivery || f.duplicate_deliveries == 0;
    let none_lost = !c.none_lost || f.lost + f.expired + f.dead_lettered == 0;
    let most = c.most_empty_receives.as_ref().is_none_or(|name| {
        let mine = f.empty_by.get(name).copied().unwrap_or(0);
        mine > 0 && f.empty_by.iter().all(|(k, v)| k == name || *v < mine)
    });
    each && no_dup && none_lost && most
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
    narration(run, &facts, &mut v);
    checkpoints(run, &facts, &mut v);
    for (at, text) in &run.whys {
        let result = super::why::check(*at, text, &facts, &run.scenario);
        v.claim(result.is_ok(), "Why:", *at, text, || {
            result.err().unwrap_or_default()
        });
    }
    recap(run, &facts, &mut v);
    v
}

/// The narration lines shown: (seq, moment, text).
fn shown_lines(run: &Played) -> Vec<(u64, u64, String)> {
    (run.events.iter())
        .filter_map(|e| match &e.kind {
            Kind::Simulation(SimEvent::Narration { text }) => {
                Some((e.seq, e.time_ms, text.clone()))
            }
            _ => None,
        })
        .collect()
}

fn narration(run: &Played, f: &Facts, v: &mut Verdict) {
    let lines = &run.scenario.narration;
    let shown = shown_lines(run);
    let end = run.scenario.duration_ms;
    for (seq, at, text) in &shown {
        // Lines of the same words are told apart by what they wait for:
        // the line is true if one of them is.
        let candidates: Vec<&Narration> = lines.iter().filter(|l| fits(&l.text, text)).collect();
        let why = candidates
            .iter()
            .map(|l| line_false(l, *seq, *at, end, lines, &shown, f))
            .collect::<Vec<_>>();
        let ok = why.iter().any(Option::is_none);
        v.claim(!candidates.is_empty() && ok, "narration", *at, text, || {
            why.into_iter()
                .flatten()
                .next()
                .unwrap_or_else(|| "no line of the file has these words".into())
        });
    }
}

/// Why `line`, shown as event `seq` at `at`, is false for the run (None: it holds).
fn line_false(
    line: &Narration,
    seq: u64,
    at: u64,
    end: u64,
    lines: &[Narration],
    shown: &[(u64, u64, String)],
    f: &Facts,
) -> Option<String> {
    if at < line.at_ms {
        return Some(format!("shown at {at} ms, before its atMs {}", line.at_ms));
    }
    if let Some(after) = &line.after {
        let first = lines.iter().find(|l| l.id.as_deref() == Some(after));
        let before =
            first.is_some_and(|l| shown.iter().any(|(s, _, t)| *s < seq && fits(&l.text, t)));
        if !before {
            return Some(format!("shown before the line {after:?} it follows"));
        }
    }
    if let Some(t) = &line.when {
        let happened = f
            .happenings
            .iter()
            .any(|h| h.seq < seq && h.at >= line.at_ms && matches(t, h));
        if !happened {
            return Some(format!("its trigger {t:?} never happened before it"));
        }
    }
    if let Some(c) = &line.at_end {
        if at != end {
            return Some(format!(
                "an atEnd line shown at {at} ms, not at the end ({end} ms)"
            ));
        }
        if !holds(c, f) {
            return Some(format!(
                "its end condition {c:?} is false: side effects {:?}, {} duplicate deliveries, {} lost, {} expired, {} dead-lettered, empty receives {:?}",
                f.side_effects.values().map(Vec::len).collect::<Vec<_>>(),
                f.duplicate_deliveries, f.lost, f.expired, f.dead_lettered, f.empty_by
            ));
        }
    }
    None
}

fn checkpoints(run: &Played, f: &Facts, v: &mut Verdict) {
    let end = run.scenario.duration_ms;
    for e in &run.events {
        let Kind::Simulation(SimEvent::CheckpointAnswered {
            id, choice, answer, ..
        }) = &e.kind
        else {
            continue;
        };
        let Some(c) = run.scenario.checkpoints.iter().find(|c| &c.id == id) else {
            v.claim(false, "verdict", e.time_ms, answer, || {
                format!("no checkpoint {id:?} in the file")
            });
            continue;
        };
        let asked = run.events.iter().find_map(|a| match &a.kind {
            Kind::Simulation(SimEvent::CheckpointAsked { id: q, .. }) if q == id => Some(a.seq),
            _ => None,
        });
        let Some(asked) = asked else {
            v.claim(false, "verdict", e.time_ms, answer, || {
                "answered but never asked".into()
            });
            continue;
        };
        // The first event after the question that some choice waits for.
        let first = f.happenings.iter().filter(|h| h.seq > asked).find_map(|h| {
            let j = c
                .choices
                .iter()
                .position(|ch| ch.when.as_ref().is_some_and(|t| matches(t, h)));
            j.map(|j| (j, h))
        });
        let truth = match first {
            Some((j, _)) => Some(j),
            None => c
                .choices
                .iter()
                .position(|ch| ch.at_end.as_ref().is_some_and(|x| holds(x, f)))
                .or_else(|| {
                    c.choices
                        .iter()
                        .position(|ch| ch.when.is_none() && ch.at_end.is_none())
                }),
        };
        let picked = choice.map(|j| j as usize);
        let moment_right = match first {
            Some((_, h)) => h.at == e.time_ms,
            None => e.time_ms == end,
        };
        v.claim(picked == truth && moment_right, "verdict", e.time_ms, answer, || match first {
            Some((j, h)) => format!(
                "choice {j} ({:?}) happened first after the question: {:?} at {} ms (seq {})",
                c.choices[j].text, h.event, h.at, h.seq
            ),
            None => format!("no choice's event happened after the question; by the end the truth is choice {truth:?}"),
        });
    }
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
