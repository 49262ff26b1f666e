//! Why a receive came back empty, in sentences, from what the run holds
//! now and remembers: who received from the queue last (and whether that
//! consumer long-polls), what is in flight and until when, what is
//! delayed and until when, and a FIFO queue's locked group. For the page's
//! "Act yourself" panel: a learner's receive that returned nothing gets the
//! reason beside it. It reads what the engine did; it decides nothing.

use queuelab_engine::{MessageSnapshot, Millis, QueueCounts};

use super::explain::secs;
use crate::{worker_names, Simulation};

/// Messages a queue's reasons read: the first ones, as the stage draws.
const READ_WINDOW: usize = 200;

impl Simulation {
    /// Why `caller`'s receive from `queue_url` found nothing: "Nothing
    /// received. worker-1's long poll took order Z-9001 first, at t = 0 s.
    /// 1 message is in flight (invisible to every receive); the first
    /// comes back at t = 30 s unless worker-1 deletes it."
    pub fn why_empty(&self, queue_url: &str, caller: &str) -> String {
        let engine = self.engine();
        let counts = engine.counts();
        let found = engine
            .queue_messages(queue_url, 0, READ_WINDOW)
            .and_then(|page| {
                let queue = counts.queues.iter().find(|q| q.name == page.queue)?;
                Some((page, queue))
            });
        let Some((page, queue)) = found else {
            return "Nothing received. The queue no longer exists.".into();
        };
        let mut said = Vec::new();
        if let Some((Some(by), name, at)) = self.story().and_then(|s| s.last_receive(&page.queue)) {
            if by != caller {
                let how = match self.long_polls(by) {
                    true => format!("{by}'s long poll"),
                    false => by.to_string(),
                };
                said.push(format!("{how} took {name} first, at t = {}.", secs(at)));
            }
        }
        said.extend(in_flight(queue, &page.messages));
        said.extend(delayed(queue, &page.messages));
        // In a FIFO queue a message in flight locks its group.
        if queue.visible > 0 && queue.in_flight > 0 && page.queue.ends_with(".fifo") {
            said.push(
                "Its visible messages wait behind a locked group: a FIFO group gives out its next \
                 message only after the one in flight is deleted."
                    .into(),
            );
        }
        if queue.visible + queue.in_flight + queue.delayed == 0 {
            said.push("The queue holds no messages.".into());
        }
        format!("Nothing received. {}", said.join(" "))
    }

    /// Whether the scenario's worker `name` long-polls.
    fn long_polls(&self, name: &str) -> bool {
        self.scenario()
            .consumers
            .iter()
            .any(|c| c.wait_time_seconds > 0 && worker_names(c).iter().any(|w| w == name))
    }
}

/// "2 messages are in flight (invisible to every receive); the first comes
/// back at t = 30 s unless worker-1 deletes it."
fn in_flight(q: &QueueCounts, messages: &[MessageSnapshot]) -> Option<String> {
    if q.in_flight == 0 {
        return None;
    }
    let when = first_visible(messages, "in-flight")
        .map(|(m, at)| {
            let holder = m.holder.as_deref().unwrap_or("its holder");
            format!(
                "; the first comes back at t = {} unless {holder} deletes it",
                secs(at)
            )
        })
        .unwrap_or_default();
    Some(format!(
        "{} (invisible to every receive){when}.",
        count(q.in_flight, "in flight")
    ))
}

/// "1 message is delayed until t = 12 s."
fn delayed(q: &QueueCounts, messages: &[MessageSnapshot]) -> Option<String> {
    if q.delayed == 0 {
        return None;
    }
    let until = first_visible(messages, "delayed")
        .map(|(_, at)| format!(" until t = {}", secs(at)))
        .unwrap_or_default();
    Some(format!("{}{until}.", count(q.delayed, "delayed")))
}

/// The listed message in `state` that becomes visible first, and when.
fn first_visible<'a>(
    messages: &'a [MessageSnapshot],
    state: &str,
) -> Option<(&'a MessageSnapshot, Millis)> {
    messages
        .iter()
        .filter(|m| m.state == state)
        .filter_map(|m| Some((m, m.visible_at?)))
        .min_by_key(|&(_, at)| at)
}

/// "1 message is in flight", "3 messages are delayed".
fn count(n: usize, what: &str) -> String {
    match n {
        1 => format!("1 message is {what}"),
        _ => format!("{n} messages are {what}"),
    }
}
