//! "Why:" for a worker that stopped on a message without deleting it (a
//! crash, a handler failure), and what becomes of the message: each fact
//! held against the log at its moment.

use queuelab_engine::{EventKind, Millis};
use queuelab_simulation::{Kind, Scenario, SimEvent};

use super::facts::{deadline_before, Facts, Message};
use super::why::{any_of, named, Check};

/// "{worker} crashed while handling {label}, before|after its side effect…"
pub fn crashed(at: Millis, text: &str, f: &Facts, s: &Scenario) -> Option<Check> {
    let (who, rest) = text.split_once(" crashed while handling ")?;
    let (all, rest) = named(f, rest)?;
    // (before its side effect?, says it is still in SQS?, the words)
    const SAID: [(bool, bool, &str); 4] = [
        (true, true, ", before its side effect: the work was not done, and the message was not deleted."),
        (true, false, ", before its side effect: the work was not done."),
        (
            false,
            true,
            ", after its side effect, before deleting the message: the work was done, but the message is still in SQS, so the side effect can happen again.",
        ),
        (false, false, ", after its side effect: the work was done."),
    ];
    let (before, in_sqs, fate) = SAID.iter().find_map(|(before, in_sqs, words)| {
        let fate = rest
            .strip_prefix(words)?
            .strip_prefix(" SQS does not know a worker crashed. ")?;
        Some((*before, *in_sqs, fate))
    })?;
    Some(any_of(&all, |_, m| {
        let seq = event_at(m, at, |k| {
            matches!(k, Kind::Simulation(SimEvent::WorkerCrashed { consumer, before_side_effect, .. })
                if &**consumer == who && *before_side_effect == before)
        })
        .ok_or(format!("{who} did not crash on it at {at} ms, {} its side effect", if before { "before" } else { "after" }))?;
        let received = latest_receive_by(m, who, seq).ok_or(format!("{who} never received it"))?;
        let worked = m.history.iter().any(|(s, _, k)| {
            *s > received && *s < seq && matches!(k, Kind::Simulation(SimEvent::SideEffectPerformed { consumer, .. }) if &**consumer == who)
        });
        if worked == before {
            return Err(format!(
                "{who}'s side effect on it since its receive: {worked}"
            ));
        }
        let gone = gone_before(m, seq);
        if in_sqs != gone.is_none() {
            return Err(format!(
                "[not-deleted] it says the message is {}in SQS; it left the queue: {gone:?}",
                if in_sqs { "" } else { "not " }
            ));
        }
        fate_holds(m, who, seq, at, fate, s)
    }))
}

/// "{worker}'s handler failed on {label} (receive #N) and did not delete it. {fate}"
pub fn failed(at: Millis, text: &str, f: &Facts, s: &Scenario) -> Option<Check> {
    let (who, rest) = text.split_once("'s handler failed on ")?;
    let (all, rest) = named(f, rest)?;
    let rest = rest.strip_prefix(" (receive #")?;
    let (rc, rest) = rest.split_once(")")?;
    let fate = rest.strip_prefix(" and did not delete it. ")?;
    let rc: u32 = rc.parse().ok()?;
    Some(any_of(&all, |_, m| {
        let seq = event_at(m, at, |k| {
            matches!(k, Kind::Simulation(SimEvent::ProcessingFailed { consumer, receive_count, .. })
                if &**consumer == who && *receive_count == rc)
        })
        .ok_or(format!(
            "{who}'s handler did not fail on receive #{rc} of it at {at} ms"
        ))?;
        let received = latest_receive_by(m, who, seq).ok_or(format!("{who} never received it"))?;
        let deleted = m.history.iter().any(|(s, _, k)| {
            *s > received
                && *s < seq
                && matches!(k, Kind::Sqs(EventKind::Deleted { by: Some(b), .. }) if &**b == who)
        });
        if deleted {
            return Err(format!(
                "[not-deleted] {who} had deleted it (before processing)"
            ));
        }
        fate_holds(m, who, seq, at, fate, s)
    }))
}

fn event_at(m: &Message, at: Millis, pick: impl Fn(&Kind) -> bool) -> Option<u64> {
    m.history
        .iter()
        .find(|(_, t, k)| *t == at && pick(k))
        .map(|(s, _, _)| *s)
}

/// The seq of `who`'s latest receive of `m` before event `seq`.
fn latest_receive_by(m: &Message, who: &str, seq: u64) -> Option<u64> {
    (m.receives.iter().rev())
        .find(|r| r.seq < seq && r.by.as_deref() == Some(who))
        .map(|r| r.seq)
}

/// The event (seq) by which `m` left its queue before `seq`, if it did.
fn gone_before(m: &Message, seq: u64) -> Option<u64> {
    m.history.iter().find_map(|(s, _, k)| {
        let gone = matches!(
            k,
            Kind::Sqs(
                EventKind::Deleted { .. } | EventKind::Expired { .. } | EventKind::Purged { .. }
            )
        );
        (gone && *s < seq).then_some(*s)
    })
}

/// What the sentence says becomes of `m` after `who` stopped on it (event `seq`).
fn fate_holds(m: &Message, who: &str, seq: u64, at: Millis, fate: &str, s: &Scenario) -> Check {
    if fate == "The message was already deleted, so SQS will not deliver it again." {
        return gone_before(m, seq)
            .map(|_| ())
            .ok_or("it was not deleted".into());
    }
    if let Some((holder, _)) = fate.split_once(" has received the message since, and holds it now.")
    {
        let last = m
            .receives
            .iter()
            .rev()
            .find(|r| r.seq < seq)
            .ok_or("never received")?;
        let left = m.history.iter().any(|(s2, _, k)| {
            *s2 > last.seq
                && *s2 < seq
                && matches!(
                    k,
                    Kind::Sqs(
                        EventKind::Deleted { .. }
                            | EventKind::VisibilityExpired { .. }
                            | EventKind::MovedToDeadLetterQueue { .. }
                    )
                )
        });
        let right = last.by.as_deref() == Some(holder) && holder != who && !left;
        return right.then_some(()).ok_or(format!(
            "[holds-now] its latest receive was by {:?}; left flight since: {left}",
            last.by
        ));
    }
    let deadline = deadline_before(m, seq).ok_or("it was never received")?;
    let then = if let Some(rest) = fate.strip_prefix("The message stays invisible until ") {
        let (until, rest) = rest.split_once(" (").ok_or("unreadable")?;
        let (from_now, rest) = rest
            .split_once(" from now), when its visibility timeout ends; then ")
            .ok_or("unreadable")?;
        let (until, from_now) = (
            ms(until).ok_or("unreadable")?,
            ms(from_now).ok_or("unreadable")?,
        );
        if until != deadline || until <= at || until - at != from_now {
            return Err(format!(
                "its deadline is {deadline} ms, said {until} ms ({from_now} ms from {at} ms)"
            ));
        }
        rest
    } else {
        let rest = fate
            .strip_prefix("Its visibility timeout has already ended, so ")
            .ok_or("no reader knows this fate")?;
        if deadline > at {
            return Err(format!("its deadline is {deadline} ms, after {at} ms"));
        }
        rest
    };
    let rc = m
        .receives
        .iter()
        .rev()
        .find(|r| r.seq < seq)
        .map_or(0, |r| r.receive_count);
    let redrive = s
        .queues
        .iter()
        .find(|q| q.name == m.queue)
        .and_then(|q| q.redrive.as_ref());
    let moves = redrive.filter(|r| i64::from(rc) >= r.max_receive_count);
    match (then, moves) {
        ("it is visible again, for another receive.", None) => Ok(()),
        (then, Some(r)) if then == format!("the next receive moves it to {} instead of returning it: its receive count has reached maxReceiveCount.", r.dead_letter_queue) => Ok(()),
        _ => Err(format!("receive count {rc}, redrive {redrive:?}: not “{then}”")),
    }
}

fn ms(secs: &str) -> Option<Millis> {
    let n: f64 = secs.strip_suffix(" s")?.parse().ok()?;
    Some((n * 1000.0).round() as Millis)
}
