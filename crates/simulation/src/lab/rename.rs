//! A scenario's queues renamed everywhere they are named, and a queue made
//! FIFO or standard (which renames it): what the `queueType` target writes
//! and what a host may call (`rename_queue`). A leaf of the lab's modules.

use crate::document::Scenario;

/// The index of the queue named `name`, if the scenario has one.
pub(super) fn queue_index(s: &Scenario, name: &str) -> Option<usize> {
    s.queues.iter().position(|q| q.name == name)
}

/// Makes `queue` a FIFO queue (`fifo`) or a standard one: renames it to
/// or from its `.fifo` name, and its dead-letter queue with it, since SQS
/// moves messages only between queues of the same type. A FIFO queue gets
/// content-based deduplication (a lab's bodies are unique); a standard
/// one loses the FIFO-only fields.
pub(super) fn set_queue_type(s: &mut Scenario, queue: &str, fifo: bool) {
    let Some(i) = queue_index(s, queue) else {
        return;
    };
    let renamed = |name: &str| match fifo {
        true if !name.ends_with(".fifo") => format!("{name}.fifo"),
        true => name.to_string(),
        false => name.strip_suffix(".fifo").unwrap_or(name).to_string(),
    };
    let mut names = vec![queue.to_string()];
    if let Some(r) = &s.queues[i].redrive {
        names.push(r.dead_letter_queue.clone());
    }
    for name in names {
        let Some(j) = queue_index(s, &name) else {
            continue;
        };
        let q = &mut s.queues[j];
        if fifo {
            q.content_based_deduplication = Some(true);
        } else {
            q.content_based_deduplication = None;
            q.deduplication_scope = None;
            q.fifo_throughput_limit = None;
        }
        rename_queue(s, &name, &renamed(&name));
    }
}

/// Renames a queue everywhere the scenario names it: the queue, redrive
/// policies, producers, consumers, schedules, operators, alarms, topics'
/// subscriptions, buckets' notifications, the goal, knob selectors,
/// narration and checkpoint triggers, and `{name.…}` placeholders.
pub fn rename_queue(s: &mut Scenario, from: &str, to: &str) {
    if from == to {
        return;
    }
    let fix = |name: &mut String| {
        if name == from {
            *name = to.to_string();
        }
    };
    for q in &mut s.queues {
        fix(&mut q.name);
        if let Some(r) = &mut q.redrive {
            fix(&mut r.dead_letter_queue);
        }
    }
    s.producers.iter_mut().for_each(|p| fix(&mut p.queue));
    s.consumers.iter_mut().for_each(|c| fix(&mut c.queue));
    s.schedule.iter_mut().for_each(|e| fix(&mut e.queue));
    for a in &mut s.alarms {
        a.queue.iter_mut().for_each(fix);
        a.dimensions.get_mut("QueueName").into_iter().for_each(fix);
    }
    for n in s.buckets.iter_mut().flat_map(|b| &mut b.notifications) {
        fix(&mut n.queue);
    }
    for sub in s.topics.iter_mut().flat_map(|t| &mut t.subscriptions) {
        fix(&mut sub.queue);
        sub.dead_letter_queue.iter_mut().for_each(fix);
    }
    for call in s.operators.iter_mut().flat_map(|o| &mut o.calls) {
        call.call.queue_names_mut().into_iter().for_each(fix);
    }
    if let Some(goal) = &mut s.goal {
        if let Some(age) = &mut goal.oldest_age {
            fix(&mut age.queue);
        }
        if let Some(dlq) = &mut goal.dead_letter_queue {
            fix(dlq);
        }
    }
    for knob in &mut s.knobs {
        knob.target.queue_names_mut().into_iter().for_each(fix);
    }
    let (old, new) = (format!("{{{from}."), format!("{{{to}."));
    let words = |text: &mut String| {
        if text.contains(&old) {
            *text = text.replace(&old, &new);
        }
    };
    for line in &mut s.narration {
        words(&mut line.text);
        if let Some(q) = line.when.as_mut().and_then(|w| w.queue.as_mut()) {
            fix(q);
        }
    }
    for c in &mut s.checkpoints {
        words(&mut c.question);
        if let Some(q) = c.when.as_mut().and_then(|w| w.queue.as_mut()) {
            fix(q);
        }
        for choice in &mut c.choices {
            words(&mut choice.text);
            if let Some(b) = &mut choice.because {
                words(b);
            }
            if let Some(q) = choice.when.as_mut().and_then(|w| w.queue.as_mut()) {
                fix(q);
            }
        }
    }
}
