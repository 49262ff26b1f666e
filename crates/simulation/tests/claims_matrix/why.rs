//! "Why:" explanations read back into their facts and held against the
//! log at their moment: the message named, who did what, receive numbers,
//! times and settings. Each sentence the simulation writes has a reader
//! here; a sentence no reader knows is itself a finding (a new kind of
//! explanation needs its reader, so that it is checked too).

use queuelab_engine::{EventKind, Millis};
use queuelab_simulation::{Kind, Scenario, SimEvent};

use super::facts::{deadline_before, work_ended, Facts, Message};

pub type Check = Result<(), String>;

/// A reader: None if the sentence is not its kind, else whether it holds.
type Reader = fn(Millis, &str, &Facts, &Scenario) -> Option<Check>;

/// "2 s", "3.5 s", "0.25 s" in milliseconds.
fn ms(secs: &str) -> Option<Millis> {
    let n: f64 = secs.strip_suffix(" s")?.parse().ok()?;
    Some((n * 1000.0).round() as Millis)
}

/// A message's name as people say it, from its body alone: the body up
/// to its first colon when that is 1 to 40 characters ("order A-1003"
/// from "order A-1003: charge $25"), else its first 40 characters in
/// quotes (with "…" when the body is longer). A body that is a JSON
/// document (it starts with `{` or `[`) is always quoted, each run of
/// whitespace in it one space. The oracle's own reading of the rule,
/// never the story's code.
pub fn name_of(body: &str) -> String {
    let json = body.starts_with('{') || body.starts_with('[');
    if let Some((head, _)) = body.split_once(':') {
        if !json && (1..=40).contains(&head.chars().count()) {
            return head.trim().to_string();
        }
    }
    let words: Vec<&str> = body.split_whitespace().collect();
    let flat = if json {
        words.join(" ")
    } else {
        body.to_string()
    };
    let cut: String = flat.chars().take(40).collect();
    let more = if flat.chars().count() > 40 { "…" } else { "" };
    format!("“{cut}{more}”")
}

/// The message a sentence names, and the rest of it: its name as
/// `name_of` gives it from the log's body (the longest name of the log
/// that starts the sentence and ends at a word's end), or "message <id>".
pub fn named<'a>(
    facts: &'a Facts,
    text: &'a str,
) -> Option<(Vec<(&'a String, &'a Message)>, &'a str)> {
    if let Some(rest) = text.strip_prefix("message ") {
        let (id, rest) = rest.split_at(rest.find([' ', ':', '\'', ',', ')'])?);
        let all: Vec<_> = (facts.messages.iter())
            .filter(|(k, _)| k.as_str() == id || (id.len() == 8 && k.starts_with(id)))
            .collect();
        if !all.is_empty() {
            return Some((all, rest));
        }
    }
    let ends_word =
        |rest: &str| rest.is_empty() || rest.starts_with([' ', ':', '\'', ',', ')', '.']);
    let names: Vec<(String, (&String, &Message))> = (facts.messages.iter())
        .filter(|(_, m)| !m.label.is_empty())
        .map(|(k, m)| (name_of(&m.label), (k, m)))
        .filter(|(n, _)| text.strip_prefix(n.as_str()).is_some_and(ends_word))
        .collect();
    let longest = names.iter().map(|(n, _)| n.len()).max()?;
    let all = (names.iter())
        .filter(|(n, _)| n.len() == longest)
        .map(|(_, m)| *m)
        .collect();
    Some((all, &text[longest..]))
}

/// A message named with a possessive, as people write it ("order
/// A-1001's visibility", "orders' visibility", "the visibility of
/// “hello”"): the message and the rest after the possessive.
pub fn named_possessive<'a>(
    facts: &'a Facts,
    text: &'a str,
    what: &str,
) -> Option<(Vec<(&'a String, &'a Message)>, &'a str)> {
    if let Some(rest) = text.strip_prefix(&format!("the {what} of ")) {
        let (all, rest) = named(facts, rest)?;
        let quoted = all.iter().all(|(_, m)| name_of(&m.label).ends_with('”'));
        return quoted.then_some((all, rest));
    }
    let (all, rest) = named(facts, text)?;
    let name_ends_s = all.iter().all(|(_, m)| name_of(&m.label).ends_with('s'));
    let mark = if name_ends_s { "' " } else { "'s " };
    let rest = rest.strip_prefix(mark)?.strip_prefix(what)?;
    Some((all, rest))
}

/// Whether some message of `all` makes `ok` true; each one's reason otherwise.
pub fn any_of(all: &[(&String, &Message)], mut ok: impl FnMut(&str, &Message) -> Check) -> Check {
    let mut why = Vec::new();
    for (id, m) in all {
        match ok(id, m) {
            Ok(()) => return Ok(()),
            Err(e) => why.push(format!("{} in {}: {e}", &id[..8.min(id.len())], m.queue)),
        }
    }
    match why.is_empty() {
        true => Err("no message of the log has that label".into()),
        false => Err(why.join(" / ")),
    }
}

/// An event of `m` at moment `at` that `pick` accepts: its seq.
fn event_at(m: &Message, at: Millis, pick: impl Fn(&Kind) -> bool) -> Option<u64> {
    m.history
        .iter()
        .find(|(_, t, k)| *t == at && pick(k))
        .map(|(s, _, _)| *s)
}

/// A consumer's settings by worker name (a replica "w-2" is consumer "w"'s).
fn consumer<'a>(s: &'a Scenario, worker: &str) -> Option<&'a queuelab_simulation::Consumer> {
    s.consumers.iter().find(|c| c.name == worker).or_else(|| {
        let (base, _) = worker.rsplit_once('-')?;
        s.consumers
            .iter()
            .find(|c| c.name == base && c.replicas > 1)
    })
}

pub fn check(at: Millis, text: &str, facts: &Facts, s: &Scenario) -> Check {
    let readers: [Reader; 15] = [
        missed_copy,
        super::fate::crashed,
        super::fate::failed,
        visibility_expired,
        came_back,
        duplicate_delivery,
        moved,
        group_locked,
        group_unlocked,
        dropped,
        empty,
        expired,
        lost,
        visibility_changed,
        stale_delete,
    ];
    for read in readers {
        if let Some(result) = read(at, text, facts, s) {
            return result;
        }
    }
    Err("no reader knows this sentence: the oracle cannot check it".into())
}

/// Whether `holder`'s latest receive of `m` before `seq` is still being
/// worked on by it (no end of its work, no delete, since).
fn still_working(m: &Message, holder: &str, seq: u64) -> Result<super::facts::Receive, String> {
    let r = (m.receives.iter().rev())
        .find(|r| r.seq < seq && r.by.as_deref() == Some(holder))
        .ok_or_else(|| format!("{holder} never received it"))?;
    let ended = m
        .history
        .iter()
        .any(|(s, _, k)| *s > r.seq && *s < seq && work_ended(k, holder));
    if ended {
        return Err(format!(
            "[holder-done] {holder} had finished its work on it (receive at {} ms)",
            r.at
        ));
    }
    Ok(r.clone())
}

/// "its T visibility timeout ended" at `at` (event `expiry_seq`): the
/// timeout that ended is T long, counted from the receive or the
/// ChangeMessageVisibility that set it (a heartbeat's new timeout is one
/// too; a backoff's delay is not the queue's timeout).
fn timeout_ended(m: &Message, (t, changed): (Millis, bool), expiry_seq: u64, at: Millis) -> Check {
    let set = (m.history.iter().rev())
        .filter(|(s, _, _)| *s < expiry_seq)
        .find_map(|(_, when, k)| match k {
            Kind::Sqs(EventKind::Received { visible_at, .. }) => Some((*when, *visible_at, false)),
            Kind::Sqs(EventKind::VisibilityChanged { visible_at, .. }) => {
                Some((*when, *visible_at, true))
            }
            _ => None,
        });
    match set {
        Some((when, deadline, by_change)) if deadline == at && at - when == t && by_change == changed => Ok(()),
        Some((when, deadline, by_change)) => Err(format!(
            "[timeout-length] the visibility timeout that ended at {at} ms was set at {when} ms (by a ChangeMessageVisibility: {by_change}) to end at {deadline} ms: {} ms long",
            deadline.saturating_sub(when)
        )),
        None => Err("it was never received".into()),
    }
}

/// "its 2 s visibility timeout" (its receive's), or "the 2 s visibility
/// timeout ChangeMessageVisibility gave it": (ms, set by a change).
fn timeout_said(words: &str) -> Option<(Millis, bool)> {
    if let Some(rest) = words.strip_prefix("its ") {
        return Some((ms(rest.strip_suffix(" visibility timeout")?)?, false));
    }
    let rest = words.strip_prefix("the ")?;
    let rest = rest.strip_suffix(" visibility timeout ChangeMessageVisibility gave it")?;
    Some((ms(rest)?, true))
}

fn visibility_expired(at: Millis, text: &str, f: &Facts, _: &Scenario) -> Option<Check> {
    let (all, rest) = named(f, text)?;
    let rest = rest.strip_prefix(": ")?;
    let (t, rest) = rest.split_once(" (receive #")?;
    let (rc, rest) = rest.split_once(") ended ")?;
    // "while w was still working on it" (the run saw it work), or "before
    // w deleted it" (a holder whose work the run does not see: a
    // responder): only the first says the holder is still at work.
    let (holder, working) = match rest.strip_prefix("while ") {
        Some(rest) => (rest.split_once(" was still working on it")?.0, true),
        None => (
            rest.strip_prefix("before ")?.split_once(" deleted it")?.0,
            false,
        ),
    };
    let (t, rc) = (timeout_said(t)?, rc.parse::<u32>().ok()?);
    Some(any_of(&all, |_, m| {
        let seq = event_at(m, at, |k| {
            matches!(k, Kind::Sqs(EventKind::VisibilityExpired { holder: Some(h), .. }) if &**h == holder)
        })
        .ok_or(format!("no visibility timeout of it ended at {at} ms with {holder} holding it"))?;
        let latest = (m.receives.iter().rev().find(|r| r.seq < seq)).ok_or("never received")?;
        if working {
            let r = still_working(m, holder, seq)?;
            if latest.seq != r.seq {
                return Err(format!("its latest receive was by {:?}", latest.by));
            }
        } else if latest.by.as_deref() != Some(holder) {
            return Err(format!("its latest receive was by {:?}", latest.by));
        }
        if latest.receive_count != rc {
            return Err(format!(
                "its latest receive was #{} by {:?}",
                latest.receive_count, latest.by
            ));
        }
        timeout_ended(m, t, seq, at)
    }))
}

fn came_back(at: Millis, text: &str, f: &Facts, _: &Scenario) -> Option<Check> {
    let (all, rest) = named(f, text)?;
    let rest = rest.strip_prefix(" is visible again: ")?;
    let (holder, rest) = rest.split_once(" received it, then ")?;
    let (what, rest) = rest.split_once(" without deleting it, and ")?;
    let (t, _) = rest.split_once(" ended. A message not deleted")?;
    let t = timeout_said(t)?;
    Some(any_of(&all, |_, m| {
        let seq = event_at(m, at, |k| {
            matches!(k, Kind::Sqs(EventKind::VisibilityExpired { holder: Some(h), .. }) if &**h == holder)
        })
        .ok_or(format!("no visibility timeout of it ended at {at} ms with {holder} holding it"))?;
        let r = (m.receives.iter().rev())
            .find(|r| r.seq < seq)
            .ok_or("never received")?;
        if r.by.as_deref() != Some(holder) {
            return Err(format!("its latest receive was by {:?}", r.by));
        }
        let by_holder = |k: &Kind| match (what, k) {
            ("it crashed", Kind::Simulation(SimEvent::WorkerCrashed { consumer, .. })) => {
                &**consumer == holder
            }
            (
                "its handler failed",
                Kind::Simulation(SimEvent::ProcessingFailed { consumer, .. }),
            ) => &**consumer == holder,
            // A function's record gave back (it is in the event's batch).
            (
                _,
                Kind::Simulation(SimEvent::LambdaReturned {
                    function, result, ..
                }),
            ) => &**function == holder && lambda_words(result) == Some(what),
            (
                "was throttled (no concurrency was free to run the batch)",
                Kind::Simulation(SimEvent::LambdaThrottled { function, .. }),
            ) => &**function == holder,
            _ => false,
        };
        let did = m
            .history
            .iter()
            .any(|(s, _, k)| *s > r.seq && *s < seq && by_holder(k));
        if !did {
            return Err(format!(
                "[other-holder] {holder} did not do this ({what}) after receiving it"
            ));
        }
        timeout_ended(m, t, seq, at)
    }))
}

/// What a function that gave a record back with `result` did to it.
fn lambda_words(result: &str) -> Option<&'static str> {
    Some(match result {
        "error" => "its invocation failed (the function threw), so Lambda returned the whole batch",
        "timeout" => "its invocation timed out, so Lambda returned the whole batch",
        "partial" => "reported it as a failed item (batchItemFailures)",
        "invalidResponse" => {
            "the function's batchItemFailures was not valid, so Lambda returned the whole batch"
        }
        _ => return None,
    })
}

/// "{label} is visible again: {holder} deleted it, but the delete reached
/// only some of SQS's copies …, so when its T visibility timeout ended a
/// copy came back."
fn missed_copy(at: Millis, text: &str, f: &Facts, _: &Scenario) -> Option<Check> {
    let (all, rest) = named(f, text)?;
    let rest = rest.strip_prefix(" is visible again: ")?;
    let (holder, rest) =
        rest.split_once(" deleted it, but the delete reached only some of SQS's copies")?;
    let (_, rest) = rest.split_once(", so when ")?;
    let (t, _) = rest.split_once(" ended a copy came back.")?;
    let t = timeout_said(t)?;
    Some(any_of(&all, |_, m| {
        let seq = event_at(m, at, |k| {
            matches!(k, Kind::Sqs(EventKind::VisibilityExpired { holder: Some(h), .. }) if &**h == holder)
        })
        .ok_or(format!("no visibility timeout of it ended at {at} ms with {holder} holding it"))?;
        let r = (m.receives.iter().rev())
            .find(|r| r.seq < seq)
            .ok_or("never received")?;
        let missed = m.history.iter().any(|(s, _, k)| {
            *s > r.seq
                && *s < seq
                && matches!(k, Kind::Sqs(EventKind::DeleteMissedCopy { by: Some(b), .. }) if &**b == holder)
        });
        if r.by.as_deref() != Some(holder) || !missed {
            return Err(format!(
                "{holder}'s delete of its latest receive (by {:?}) missed no copy",
                r.by
            ));
        }
        timeout_ended(m, t, seq, at)
    }))
}

fn duplicate_delivery(at: Millis, text: &str, f: &Facts, _: &Scenario) -> Option<Check> {
    let (who, rest) = text.split_once(" received ")?;
    let (all, rest) = named(f, rest)?;
    let rest = rest.strip_prefix(" (receive #")?;
    let (rc, rest) = rest.split_once(") while ")?;
    let (also, _) = rest.split_once(" still holds it: a duplicate delivery.")?;
    let rc = rc.parse::<u32>().ok()?;
    Some(any_of(&all, |_, m| {
        let r = (m.receives.iter())
            .find(|r| r.at == at && r.by.as_deref() == Some(who) && r.receive_count == rc)
            .ok_or(format!("{who} made no receive #{rc} of it at {at} ms"))?;
        still_working(m, also, r.seq).map(|_| ())
    }))
}

fn moved(at: Millis, text: &str, f: &Facts, s: &Scenario) -> Option<Check> {
    let (all, rest) = named(f, text)?;
    let rest = rest.strip_prefix(" moved to ")?;
    let (dlq, rest) = rest.split_once(" after ")?;
    let (n, _) = rest.split_once(": when a receive finds")?;
    let n = match n.split_once(' ')? {
        ("1", "receive") => 1,
        (n, "receives") if n != "1" => n.parse::<u32>().ok()?,
        _ => return Some(Err(format!("“{n}”: not a count of receives in words"))),
    };
    Some(any_of(&all, |_, m| {
        let seq = event_at(m, at, |k| {
            matches!(k, Kind::Sqs(EventKind::MovedToDeadLetterQueue { dead_letter_queue, receive_count, .. })
                if &**dead_letter_queue == dlq && *receive_count == n)
        })
        .ok_or(format!("it did not move to {dlq} with receive count {n} at {at} ms"))?;
        let receives = m.receives.iter().filter(|r| r.seq < seq).count() as u32;
        let max = (s.queues.iter().find(|q| q.name == m.queue))
            .and_then(|q| q.redrive.as_ref())
            .map(|r| r.max_receive_count);
        if receives != n {
            return Err(format!("the log shows {receives} receives of it"));
        }
        match max {
            Some(max) if i64::from(n) >= max => Ok(()),
            _ => Err(format!(
                "its queue's maxReceiveCount is {max:?}, not reached by {n}"
            )),
        }
    }))
}

/// Whether `m` is in flight (received, not deleted, moved or made visible
/// again) at the end of moment `at`.
fn in_flight(m: &Message, at: Millis) -> bool {
    let mut flying = false;
    for (_, t, k) in m.history.iter().filter(|(_, t, _)| *t <= at) {
        match k {
            Kind::Sqs(EventKind::Received { .. }) => flying = true,
            Kind::Sqs(EventKind::VisibilityChanged { visible_at, .. }) if visible_at <= t => {
                flying = false
            }
            Kind::Sqs(
                EventKind::Deleted { .. }
                | EventKind::VisibilityExpired { .. }
                | EventKind::MovedToDeadLetterQueue { .. }
                | EventKind::Expired { .. }
                | EventKind::Purged { .. },
            ) => flying = false,
            _ => {}
        }
    }
    flying
}

fn group_locked(at: Millis, text: &str, f: &Facts, _: &Scenario) -> Option<Check> {
    let rest = text.strip_prefix("Group ")?;
    let (group, rest) = rest.split_once(" of ")?;
    let (queue, rest) = rest.split_once(" is locked: ")?;
    let (all, rest) = named(f, rest)?;
    rest.strip_prefix(" is in flight, and FIFO delivers")?;
    let locked = f.happenings.iter().any(|h| {
        h.at == at
            && h.event == queuelab_simulation::TriggerEvent::GroupLocked
            && h.group.as_deref() == Some(group)
            && h.queue.as_deref() == Some(queue)
    });
    if !locked {
        return Some(Err(format!(
            "group {group} of {queue} did not lock at {at} ms"
        )));
    }
    Some(any_of(&all, |_, m| {
        if m.group.as_deref() != Some(group) || m.queue != queue {
            return Err(format!(
                "the message named is in group {:?} of {}, not {group}",
                m.group, m.queue
            ));
        }
        in_flight(m, at)
            .then_some(())
            .ok_or(format!("it is not in flight at {at} ms"))
    }))
}

fn group_unlocked(at: Millis, text: &str, f: &Facts, _: &Scenario) -> Option<Check> {
    use queuelab_simulation::UnlockCause as C;
    let rest = text.strip_prefix("Group ")?;
    let (group, rest) = rest.split_once(" unlocked: ")?;
    // A head that left flight for good lets the next message come; one
    // that timed out or was released is still the head, and comes again.
    let (why, still_head) = match rest.split_once(", so the group's next message can be delivered")
    {
        Some((why, _)) => (why, false),
        None => (
            rest.split_once(". That message is still the group's head, so it is delivered again")?
                .0,
            true,
        ),
    };
    // The same group name may live in two queues: some unlock of it now,
    // of the right cause, in the named message's queue.
    let unlocks: Vec<_> = (f.happenings.iter())
        .filter(|h| {
            h.at == at
                && h.event == queuelab_simulation::TriggerEvent::GroupUnlocked
                && h.group.as_deref() == Some(group)
        })
        .filter(|h| still_head == matches!(h.cause, Some(C::VisibilityTimeout | C::Released)))
        .collect();
    if unlocks.is_empty() {
        return Some(Err(format!(
            "group {group} did not unlock at {at} ms so that its head is {}the same",
            if still_head { "" } else { "not " }
        )));
    }
    // "order A-1's visibility timeout ended", "the visibility timeout of
    // “A-1 create account” ended": its timeout; else what happened to it.
    let (all, rest) = match named_possessive(f, why, "visibility timeout") {
        Some((all, " ended")) => (all, "'s visibility timeout ended"),
        _ => named(f, why)?,
    };
    Some(any_of(&all, |_, m| {
        let in_queue = unlocks
            .iter()
            .any(|h| h.queue.as_deref() == Some(m.queue.as_str()));
        if m.group.as_deref() != Some(group) || !in_queue {
            return Err(format!(
                "the message named is in group {:?}, not {group}",
                m.group
            ));
        }
        let happened = event_at(m, at, |k| match k {
            Kind::Sqs(EventKind::VisibilityExpired { .. }) => rest == "'s visibility timeout ended",
            Kind::Sqs(EventKind::VisibilityChanged { visible_at, .. }) => {
                *visible_at <= at && rest == " was made visible again at once"
            }
            Kind::Sqs(EventKind::Deleted { .. }) => rest == " was deleted",
            Kind::Sqs(EventKind::Purged { .. }) => rest == " was purged",
            Kind::Sqs(EventKind::Expired { .. }) => rest == " expired",
            Kind::Sqs(EventKind::Redriven { destination, .. }) => {
                rest == format!(" moved to {destination}")
            }
            Kind::Sqs(EventKind::MovedToDeadLetterQueue {
                dead_letter_queue, ..
            }) => rest == format!(" moved to {dead_letter_queue}"),
            _ => false,
        });
        happened
            .map(|_| ())
            .ok_or(format!("that did not happen to it at {at} ms"))
    }))
}

fn dropped(at: Millis, text: &str, f: &Facts, _: &Scenario) -> Option<Check> {
    let (by, rest) = text.split_once("'s send to ")?;
    let (queue, rest) = rest.split_once(" was dropped: its deduplication id ")?;
    let (dedup, rest) = rest.split_once(" matched message ")?;
    let (id, _) = rest.split_once(", sent less than 5 minutes before.")?;
    let m = f.messages.get(id);
    let sent = m.is_some_and(|m| m.queue == queue && at.saturating_sub(m.sent_at) < 300_000);
    let logged = m.is_some_and(|m| {
        event_at(m, at, |k| {
            matches!(k, Kind::Sqs(EventKind::DuplicateDropped { dedup_id, by: b, .. })
                if dedup_id == dedup && b.as_deref().unwrap_or("A producer") == by)
        })
        .is_some()
    });
    Some(match (sent, logged) {
        (true, true) => Ok(()),
        _ => Err(format!(
            "the log: message {id} sent at {:?} ms, dropped send logged: {logged}",
            m.map(|m| m.sent_at)
        )),
    })
}

fn empty(at: Millis, text: &str, f: &Facts, s: &Scenario) -> Option<Check> {
    let (by, queue, wait) = if let Some((by, rest)) = text.split_once("'s receive from ") {
        if let Some((queue, _)) = rest.split_once(" came back empty at once: a short poll") {
            (by, queue, Some(0))
        } else {
            let (queue, _) = rest.split_once(" returned no message.")?;
            (by, queue, None)
        }
    } else {
        let (by, rest) = text.split_once("'s long poll of ")?;
        let (queue, rest) = rest.split_once(" waited its ")?;
        let (w, _) = rest.split_once(" s and no message arrived")?;
        (by, queue, Some(w.parse::<i64>().ok()?))
    };
    let logged = f.happenings.iter().any(|h| {
        h.at == at
            && h.event == queuelab_simulation::TriggerEvent::EmptyReceive
            && h.queue.as_deref() == Some(queue)
            && h.consumer.as_deref() == Some(by)
    });
    if !logged {
        return Some(Err(format!(
            "{by} had no empty receive from {queue} at {at} ms"
        )));
    }
    let set = consumer(s, by).map(|c| c.wait_time_seconds);
    Some(match wait {
        Some(w) if set != Some(w) => Err(format!("{by}'s WaitTimeSeconds is {set:?}, not {w}")),
        _ => Ok(()),
    })
}

fn expired(at: Millis, text: &str, f: &Facts, _: &Scenario) -> Option<Check> {
    let (all, rest) = named(f, text)?;
    let rest = rest.strip_prefix(" expired after ")?;
    let (t, rest) = rest.split_once(" in ")?;
    let (queue, _) = rest.split_once(": nobody deleted it")?;
    let t = ms(t)?;
    Some(any_of(&all, |_, m| {
        event_at(
            m,
            at,
            |k| matches!(k, Kind::Sqs(EventKind::Expired { queue: q, .. }) if &**q == queue),
        )
        .ok_or(format!("it did not expire from {queue} at {at} ms"))?;
        match at - m.sent_at == t {
            true => Ok(()),
            false => Err(format!(
                "it was sent at {} ms: stored {} ms",
                m.sent_at,
                at - m.sent_at
            )),
        }
    }))
}

fn lost(at: Millis, text: &str, f: &Facts, _: &Scenario) -> Option<Check> {
    let (all, rest) = named(f, text)?;
    let rest = rest.strip_prefix(" is lost: ")?;
    let (who, rest) = rest.split_once(" deleted it before doing the work, then ")?;
    let (what, _) = rest.split_once(". A deleted message is never delivered again")?;
    let crashed = match what {
        "crashed" => true,
        "its handler failed" => false,
        _ => return None,
    };
    Some(any_of(&all, |_, m| {
        let seq = event_at(m, at, |k| {
            matches!(k, Kind::Simulation(SimEvent::MessageLost { consumer, handler_crashed, .. })
                if &**consumer == who && *handler_crashed == crashed)
        })
        .ok_or(format!("no loss of it by {who} at {at} ms"))?;
        // This loss's receive: what came before it was another try.
        let since = (m.receives.iter().rev())
            .find(|r| r.seq < seq && r.by.as_deref() == Some(who))
            .map_or(0, |r| r.seq);
        let deleted = m.history.iter().find(|(s, _, k)| {
            *s < seq
                && *s > since
                && matches!(k, Kind::Sqs(EventKind::Deleted { by: Some(b), .. }) if &**b == who)
        });
        let worked = m.history.iter().any(|(s, _, k)| {
            *s < seq && *s > since && matches!(k, Kind::Simulation(SimEvent::SideEffectPerformed { consumer, .. }) if &**consumer == who)
        });
        let failed = m.history.iter().any(|(s, _, k)| {
            *s < seq
                && match k {
                    Kind::Simulation(SimEvent::WorkerCrashed { consumer, .. }) => {
                        crashed && &**consumer == who
                    }
                    Kind::Simulation(SimEvent::ProcessingFailed { consumer, .. }) => {
                        !crashed && &**consumer == who
                    }
                    _ => false,
                }
        });
        match (deleted, worked, failed) {
            (Some(_), false, true) => Ok(()),
            _ => Err(format!(
                "deleted by {who}: {}, its work done: {worked}, then {what}: {failed}",
                deleted.is_some()
            )),
        }
    }))
}

fn visibility_changed(at: Millis, text: &str, f: &Facts, _: &Scenario) -> Option<Check> {
    // "{by} made {label} visible again at once: …"
    if let Some((by, rest)) = text.split_once(" made ") {
        if let Some((all, rest)) = named(f, rest) {
            if rest.starts_with(" visible again at once: ChangeMessageVisibility") {
                return Some(any_of(&all, |_, m| {
                    event_at(m, at, |k| {
                        matches!(k, Kind::Sqs(EventKind::VisibilityChanged { by: Some(b), visible_at, .. })
                            if &**b == by && *visible_at <= at)
                    })
                    .map(|_| ())
                    .ok_or(format!("{by} did not release it at {at} ms"))
                }));
            }
        }
    }
    // "{by} extended|shortened|set {label}'s visibility[ to the same moment]: it stays invisible until T (D from now)."
    let (head, tail) = text.split_once(": it stays invisible until ")?;
    let (until, rest) = tail.split_once(" (")?;
    let (from_now, _) = rest.split_once(" from now).")?;
    let (until, from_now) = (ms(until)?, ms(from_now)?);
    let (by, did, label_part) = ["extended", "shortened", "set"].iter().find_map(|verb| {
        let (by, rest) = head.split_once(&format!(" {verb} "))?;
        Some((by, *verb, rest))
    })?;
    let (all, rest) = named_possessive(f, label_part, "visibility")?;
    if !(rest.is_empty() || (did == "set" && rest == " to the same moment")) {
        return None;
    }
    if until.checked_sub(at) != Some(from_now) {
        return Some(Err(format!(
            "until {until} ms is {} ms from {at} ms, not {from_now}",
            until.saturating_sub(at)
        )));
    }
    Some(any_of(&all, |_, m| {
        let seq = event_at(m, at, |k| {
            matches!(k, Kind::Sqs(EventKind::VisibilityChanged { by: Some(b), visible_at, .. })
                if &**b == by && *visible_at == until)
        })
        .ok_or(format!(
            "{by} did not set its visibility to {until} ms at {at} ms"
        ))?;
        let before = deadline_before(m, seq);
        let right = match (did, before) {
            ("extended", Some(b)) => until > b,
            ("shortened", Some(b)) => until < b,
            ("set", Some(b)) => until == b,
            (_, None) => did == "extended",
            _ => false,
        };
        right.then_some(()).ok_or(format!(
            "its deadline before was {before:?} ms, now {until} ms: not {did}"
        ))
    }))
}

fn stale_delete(at: Millis, text: &str, f: &Facts, _: &Scenario) -> Option<Check> {
    let (by, rest) = text.split_once(" deleted ")?;
    let (all, rest) = named(f, rest)?;
    let rest = rest.strip_prefix(" with an older receipt handle, though ")?;
    let (latest, rest) = rest.split_once(" has received it since (receive #")?;
    let (rc, _) = rest.split_once(").")?;
    let rc = rc.parse::<u32>().ok()?;
    Some(any_of(&all, |_, m| {
        let seq = event_at(
            m,
            at,
            |k| matches!(k, Kind::Sqs(EventKind::Deleted { by: Some(b), .. }) if &**b == by),
        )
        .ok_or(format!("{by} did not delete it at {at} ms"))?;
        let last = m
            .receives
            .iter()
            .rev()
            .find(|r| r.seq < seq)
            .ok_or("never received")?;
        let mine = m
            .receives
            .iter()
            .any(|r| r.seq < last.seq && r.by.as_deref() == Some(by));
        let right =
            last.by.as_deref() == Some(latest) && latest != by && last.receive_count == rc && mine;
        right.then_some(()).ok_or(format!(
            "its latest receive before the delete: #{} by {:?}; {by} received it before that: {mine}",
            last.receive_count, last.by
        ))
    }))
}
