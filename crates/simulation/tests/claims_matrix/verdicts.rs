//! Checkpoint verdicts: the answer the run gave must be the choice it
//! made true (the first choice's `when` event after the question, at that
//! moment; else, at the end, the first choice whose `atEnd` holds; else
//! the choice that gives neither), and a `because` said must make its
//! choice's claims true then, one withheld must have made one false.

use queuelab_simulation::{Checkpoint, Kind, LogEvent, SimEvent};

use super::conditions::{matches, SoFar};
use super::facts::Facts;
use super::oracle::{fits, holds, Verdict};
use super::play::Played;

pub fn judge(run: &Played, f: &Facts, v: &mut Verdict) {
    questions(run, f, v);
    for e in &run.events {
        let Kind::Simulation(SimEvent::CheckpointAnswered {
            id,
            choice,
            answer,
            because,
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
        let truth = truth(run, f, c, asked);
        let picked = choice.map(|j| j as usize);
        v.claim(
            picked == truth.0 && e.time_ms == truth.1,
            "verdict",
            e.time_ms,
            answer,
            || {
                format!(
                    "the run made choice {:?} true, at {} ms ({})",
                    truth.0, truth.1, truth.2
                )
            },
        );
        if let Some(j) = picked {
            let upto = truth.3.unwrap_or(e.seq);
            because_said(run, f, (c, j, upto), e, because.as_deref(), v);
        }
    }
}

/// The choice the run made true, the moment it did, how, and the event
/// its claims are weighed at (its `when` event; else None: the answer).
fn truth(
    run: &Played,
    f: &Facts,
    c: &Checkpoint,
    asked: u64,
) -> (Option<usize>, u64, String, Option<u64>) {
    let s = &run.scenario;
    let first = f.happenings.iter().filter(|h| h.seq > asked).find_map(|h| {
        let j = c
            .choices
            .iter()
            .position(|ch| ch.when.as_ref().is_some_and(|t| matches(t, h, s)));
        j.map(|j| (j, h))
    });
    if let Some((j, h)) = first {
        return (
            Some(j),
            h.at,
            format!(
                "its event {:?} came first after the question, seq {}",
                h.event, h.seq
            ),
            Some(h.seq),
        );
    }
    let at_end = c
        .choices
        .iter()
        .position(|ch| ch.at_end.as_ref().is_some_and(|x| holds(x, f)));
    let fallback = || {
        c.choices
            .iter()
            .position(|ch| ch.when.is_none() && ch.at_end.is_none())
    };
    let j = at_end.or_else(fallback);
    (
        j,
        s.duration_ms,
        "no choice's event happened after the question".into(),
        None,
    )
}

/// The picked choice's `because`: said only if its claims hold at the
/// answer; withheld (logged right after the answer) only if one does not.
fn because_said(
    run: &Played,
    f: &Facts,
    (c, j, upto): (&Checkpoint, usize, u64),
    answer: &LogEvent,
    said: Option<&str>,
    v: &mut Verdict,
) {
    let choice = &c.choices[j];
    let Some(written) = &choice.because else {
        return;
    };
    let so_far = SoFar {
        upto,
        facts: f,
        events: &run.events,
        scenario: &run.scenario,
    };
    let fails = so_far.any_fails(&choice.claims);
    match said {
        Some(text) => {
            v.claim(
                fits(written, text) && fails.is_none(),
                "because",
                answer.time_ms,
                text,
                || fails.unwrap_or_else(|| "not the picked choice's words".into()),
            );
        }
        None => {
            let withheld = run.events.iter().any(|w| {
                w.seq > answer.seq
                    && w.time_ms == answer.time_ms
                    && matches!(&w.kind, Kind::Simulation(SimEvent::NarrationWithheld { text, .. }) if fits(written, text))
            });
            v.claim(withheld && fails.is_some(), "withheld", answer.time_ms, written, || {
                format!("its because was left out, but its claims hold (logged as withheld: {withheld})")
            });
        }
    }
}

/// A question asked makes its claims true when asked; one not asked
/// (logged as withheld) made one false.
fn questions(run: &Played, f: &Facts, v: &mut Verdict) {
    for e in &run.events {
        let (c, withheld) = match &e.kind {
            Kind::Simulation(SimEvent::CheckpointAsked { id, .. }) => {
                (run.scenario.checkpoints.iter().find(|c| &c.id == id), false)
            }
            Kind::Simulation(SimEvent::NarrationWithheld { text, .. }) => {
                let asked = run
                    .scenario
                    .checkpoints
                    .iter()
                    .find(|c| fits(&c.question, text));
                (asked, true)
            }
            _ => continue,
        };
        let Some(c) = c else { continue };
        let so_far = SoFar {
            upto: e.seq,
            facts: f,
            events: &run.events,
            scenario: &run.scenario,
        };
        let fails = so_far.any_fails(&c.claims);
        let what = if withheld { "withheld" } else { "question" };
        v.claim(
            fails.is_some() == withheld,
            what,
            e.time_ms,
            &c.question,
            || fails.unwrap_or_else(|| "not asked, but every claim it makes holds".into()),
        );
    }
}
