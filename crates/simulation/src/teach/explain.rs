//! Sentences the simulation writes itself for the key moments of any run,
//! from the same events the log shows (never from a script): each names
//! the message, the worker, the numbers and the rule of SQS that made it
//! happen. `Story` calls these with what it remembers of the run; the page
//! shows the latest one when no authored narration line covers its moment.

use queuelab_engine::{Millis, UnlockCause};

use crate::numbers::count;

/// "2 s", "3.5 s", "0.25 s".
pub(crate) fn secs(ms: Millis) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        format!("{} s", s.trim_end_matches('0'))
    }
}

/// "order A-1001's visibility": a message's name with its possessive. A
/// name in quotes (a body with no short name) keeps its closing quote
/// last: "the visibility of “hello world”".
pub(crate) fn possessive(name: &str, what: &str) -> String {
    if name.ends_with('”') || name.ends_with('"') {
        format!("the {what} of {name}")
    } else if name.ends_with('s') {
        format!("{name}' {what}")
    } else {
        format!("{name}'s {what}")
    }
}

/// A message's visibility timeout in words: "its 30 s visibility
/// timeout", or, when the latest ChangeMessageVisibility set it rather
/// than the receive, "the 2 s visibility timeout ChangeMessageVisibility
/// gave it".
pub(crate) fn timeout(ms: Millis, changed: bool) -> String {
    match changed {
        true => format!(
            "the {} visibility timeout ChangeMessageVisibility gave it",
            secs(ms)
        ),
        false => format!("its {} visibility timeout", secs(ms)),
    }
}

/// `timeout`: the words of [`timeout`]. `seen_working`: the holder is one
/// of the run's own workers, whose work the run sees; of a caller from
/// outside (your code, an SDK) it knows only that no delete came.
pub(crate) fn visibility_expired(
    label: &str,
    holder: &str,
    receive_count: u32,
    timeout: &str,
    seen_working: bool,
) -> String {
    let (ended, rule) = match seen_working {
        true => (
            format!("ended while {holder} was still working on it"),
            "SQS does not know a worker is busy",
        ),
        false => (
            format!("ended before {holder} deleted it"),
            "SQS does not know whether a consumer is still working",
        ),
    };
    format!(
        "{label}: {timeout} (receive #{receive_count}) {ended}, so SQS made it visible again. \
         {rule}: a message not deleted within its visibility timeout is delivered again."
    )
}

pub(crate) fn came_back(label: &str, holder: &str, what: &str, timeout: &str) -> String {
    format!(
        "{label} is visible again: {holder} received it, then {what} without deleting it, and \
         {timeout} ended. A message not deleted comes back for another try."
    )
}

/// A message back because its holder's delete missed a copy (realism);
/// `timeout`: the words of [`timeout`].
pub(crate) fn missed_copy(label: &str, holder: &str, timeout: &str) -> String {
    format!(
        "{label} is visible again: {holder} deleted it, but the delete reached only some of \
         SQS's copies (the realism knob duplicateDeliveryProbability), so when {timeout} \
         ended a copy came back. SQS delivers at least once: even a deleted message can be \
         delivered again."
    )
}

pub(crate) fn duplicate_delivery(
    label: &str,
    consumer: &str,
    receive_count: u32,
    also_held_by: &str,
) -> String {
    format!(
        "{consumer} received {label} (receive #{receive_count}) while {also_held_by} still \
         holds it: a duplicate delivery. SQS delivers at least once, so a handler must expect \
         to see a message twice."
    )
}

pub(crate) fn moved_to_dlq(label: &str, dlq: &str, receive_count: u32) -> String {
    format!(
        "{label} moved to {dlq} after {}: when a receive finds a visible \
         message whose receive count has reached maxReceiveCount, SQS moves it to the \
         dead-letter queue instead of returning it. The move is lazy: it waits for that receive.",
        count(u64::from(receive_count), "receive", "receives")
    )
}

pub(crate) fn group_locked(group: &str, queue: &str, label: &str) -> String {
    format!(
        "Group {group} of {queue} is locked: {label} is in flight, and FIFO delivers no other \
         message of the group until that one is deleted (if its visibility timeout ends first, \
         that same message is delivered again first)."
    )
}

/// A group unlocked: `why` its head left flight (the event before), and
/// what comes next, by the engine's `cause`: after a timeout or a release
/// the same message is still the head, so it comes next, not the group's
/// next message.
pub(crate) fn group_unlocked(group: &str, why: &str, cause: UnlockCause) -> String {
    match cause {
        UnlockCause::VisibilityTimeout | UnlockCause::Released => format!(
            "Group {group} unlocked: {why}. That message is still the group's head, so it is \
             delivered again before any other message of the group: FIFO keeps the order \
             across retries."
        ),
        _ => format!(
            "Group {group} unlocked: {why}, so the group's next message can be delivered, in order."
        ),
    }
}

/// What becomes of a message its worker stopped on without deleting it:
/// invisible until `visible_at` (its receive's deadline), then visible
/// again, or moved to `moves_to` by the next receive (its receive count
/// has reached maxReceiveCount).
pub(crate) fn comes_back(now: Millis, visible_at: Millis, moves_to: Option<&str>) -> String {
    let then = match moves_to {
        Some(dlq) => format!(
            "the next receive moves it to {dlq} instead of returning it: its receive count has \
             reached maxReceiveCount"
        ),
        None => "it is visible again, for another receive".to_string(),
    };
    if visible_at > now {
        format!(
            "The message stays invisible until {} ({} from now), when its visibility timeout \
             ends; then {then}.",
            secs(visible_at),
            secs(visible_at - now)
        )
    } else {
        format!("Its visibility timeout has already ended, so {then}.")
    }
}

/// A worker crashed while handling a message, before or after its side
/// effect; `deleted`: the message was deleted already (by this worker
/// first, or by another while this one worked on a copy); `fate` is what
/// becomes of the message (`comes_back`, or why not).
pub(crate) fn worker_crashed(
    label: &str,
    consumer: &str,
    before: bool,
    deleted: bool,
    fate: &str,
) -> String {
    let work = match (before, deleted) {
        (true, false) => {
            "before its side effect: the work was not done, and the message was not deleted"
        }
        (true, true) => "before its side effect: the work was not done",
        (false, false) => {
            "after its side effect, before deleting the message: the work was done, but the \
             message is still in SQS, so the side effect can happen again"
        }
        (false, true) => "after its side effect: the work was done",
    };
    format!("{consumer} crashed while handling {label}, {work}. SQS does not know a worker crashed. {fate}")
}

/// A handler failed on a message and did not delete it.
pub(crate) fn processing_failed(
    label: &str,
    consumer: &str,
    receive_count: u32,
    fate: &str,
) -> String {
    format!(
        "{consumer}'s handler failed on {label} (receive #{receive_count}) and did not delete it. {fate}"
    )
}

pub(crate) fn duplicate_dropped(by: &str, queue: &str, dedup_id: &str, matched: &str) -> String {
    format!(
        "{by}'s send to {queue} was dropped: its deduplication id {dedup_id} matched message \
         {matched}, sent less than 5 minutes before. SQS answers such a send with success and \
         the original MessageId, and stores nothing."
    )
}

pub(crate) fn empty_receive(by: &str, queue: &str, wait_seconds: Option<i64>) -> String {
    match wait_seconds {
        Some(0) => format!(
            "{by}'s receive from {queue} came back empty at once: a short poll (WaitTimeSeconds=0) \
             answers immediately, and asks only some of SQS's servers, so it can even miss a \
             message that is there."
        ),
        Some(wait) => format!(
            "{by}'s long poll of {queue} waited its {wait} s and no message arrived: a long poll \
             answers as soon as a message is there, or empty when WaitTimeSeconds runs out."
        ),
        None => format!("{by}'s receive from {queue} returned no message."),
    }
}

pub(crate) fn expired(label: &str, queue: &str, stored_ms: Millis) -> String {
    format!(
        "{label} expired after {} in {queue}: nobody deleted it within the queue's retention \
         period (MessageRetentionPeriod), so SQS deleted it. Retention counts from the send.",
        secs(stored_ms)
    )
}

pub(crate) fn lost(label: &str, consumer: &str, handler_crashed: bool) -> String {
    let what = if handler_crashed {
        "crashed"
    } else {
        "its handler failed"
    };
    format!(
        "{label} is lost: {consumer} deleted it before doing the work, then {what}. A deleted \
         message is never delivered again, so no retry can happen."
    )
}

/// A ChangeMessageVisibility by a worker, said as what it did: a release
/// (timeout 0: visible now), or a deadline moved later or sooner than the
/// one `before` it (unknown: the message's receive was not seen).
pub(crate) fn visibility_changed(
    label: &str,
    by: &str,
    now: Millis,
    before: Option<Millis>,
    visible_at: Millis,
) -> String {
    if visible_at <= now {
        return format!(
            "{by} made {label} visible again at once: ChangeMessageVisibility with a timeout \
             of 0 ends its visibility timeout now, so the next receive can take it (and counts \
             one more receive)."
        );
    }
    let did = match before {
        Some(before) if visible_at < before => {
            format!("shortened {}", possessive(label, "visibility"))
        }
        Some(before) if visible_at == before => {
            format!("set {} to the same moment", possessive(label, "visibility"))
        }
        _ => format!("extended {}", possessive(label, "visibility")),
    };
    format!(
        "{by} {did}: it stays invisible until {} ({} from now). \
         ChangeMessageVisibility counts the new timeout from now, not from the receive.",
        secs(visible_at),
        secs(visible_at - now)
    )
}

pub(crate) fn stale_delete(label: &str, by: &str, latest: &str, receive_count: u32) -> String {
    format!(
        "{by} deleted {label} with an older receipt handle, though {latest} has received it \
         since (receive #{receive_count}). On a standard queue the request succeeds, though AWS \
         warns that with a handle other than the latest the message might not be deleted. \
         Either way, the other worker's work goes on."
    )
}
