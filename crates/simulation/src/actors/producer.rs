//! A scenario producer: sends at listed moments (`sends`) and at a steady
//! rate (`rate`, `{n}` in its body and group id numbering each send). With
//! `offload`, a body over its threshold is put in a bucket first and a
//! pointer to it sent instead (`payload.rs`): the send waits for
//! PutObject's answer, and is not made if S3 refused it.

use std::sync::Arc;

use queuelab_engine::{Millis, NewMessage, Principal};

use super::{new_message, Actor, Command, Listed, Outcome, Part, Reads, SendPlan, Sends, UrlOf};
use crate::log::SimEvent;
use crate::payload::{self, Location};
use crate::scenario::{Offload, OffloadStyle, Rate, Scenario, ScheduledSend};
use crate::units;

pub(crate) struct Producer {
    name: Arc<str>,
    /// The account it calls as (`account`), under its name; `None`: the
    /// queues' owner.
    principal: Option<Principal>,
    url: String,
    /// Its place in the scenario's `producers`.
    index: usize,
    listed: Listed,
    rate: Option<Rate>,
    next_rate: u64,
    /// The rate's sends made but not yet sent, with `batchSize`: they go
    /// out a full batch at a time (the last when the rate ends).
    buffered: Vec<NewMessage>,
    sends: Sends,
    offload: Option<Offload>,
    /// Payloads put so far (each key's number).
    offloaded: u64,
    /// Sends waiting for their payload's PutObject, in the order put.
    waiting: Vec<NewMessage>,
    /// A send its PutObject's answer let go, to make next.
    ready: Option<NewMessage>,
    /// A PutObject S3 refused, to log next.
    refused: Option<SimEvent>,
}

pub(crate) fn build(
    scenario: &Scenario,
    url_of: UrlOf,
    _config: &queuelab_engine::Config,
) -> queuelab_engine::SqsResult<Vec<Box<dyn Actor>>> {
    let mut out: Vec<Box<dyn Actor>> = Vec::new();
    for (index, p) in scenario.producers.iter().enumerate() {
        let what = format!("producer \"{}\"", p.name);
        // Checked by `Scenario::validate`; refused here too, in its words.
        let principal = (p.account.as_deref())
            .map(|account| crate::calls::principal_of(&p.name, Some(account)))
            .transpose()
            .map_err(|e| crate::invalid(&what, e))?;
        out.push(Box::new(Producer {
            name: p.name.as_str().into(),
            principal,
            url: url_of(&what, &p.queue)?,
            index,
            listed: Listed::new(&p.sends, scenario.start_epoch_ms),
            rate: p.rate.clone(),
            next_rate: 0,
            buffered: Vec::new(),
            sends: Sends::default(),
            offload: p.offload.clone(),
            offloaded: 0,
            waiting: Vec::new(),
            ready: None,
            refused: None,
        }));
    }
    Ok(out)
}

impl Producer {
    /// The moment of the rate's next send.
    fn rate_at(&self) -> Option<Millis> {
        self.rate.as_ref()?.at(self.next_rate)
    }

    /// Its next send due at or before `now`: a listed one first; `true`
    /// for one of the rate's.
    fn next_due(&mut self, now: Millis) -> Option<(ScheduledSend, bool)> {
        if let Some(send) = self.listed.pop_due(now) {
            return Some((send, false));
        }
        let at = self.rate_at().filter(|at| *at <= now)?;
        let rate = self.rate.as_ref()?;
        let n = self.next_rate + 1;
        let send = ScheduledSend {
            at_ms: at,
            at: None,
            body: rate.body_of(n),
            group_id: rate.group_of(n),
            dedup_id: None,
            delay_seconds: None,
            attributes: Default::default(),
            pad_to_bytes: None,
            pad_with: None,
        };
        self.next_rate += 1;
        Some((send, true))
    }

    fn send(&self, message: NewMessage) -> Command {
        Command::Send {
            queue_url: self.url.clone(),
            message,
            account: self.principal.clone(),
        }
    }

    /// The commands for one send: the send itself, or, past the offload
    /// threshold, the payload's PutObject (the send follows its answer),
    /// or the extended client's refusal (nothing is sent).
    fn offloaded_or_sent(&mut self, message: NewMessage) -> Vec<Command> {
        let Some(offload) = &self.offload else {
            return vec![self.send(message)];
        };
        let large = match offload.style {
            OffloadStyle::ExtendedClient => {
                let threshold = offload
                    .threshold_bytes
                    .unwrap_or(payload::DEFAULT_THRESHOLD_BYTES);
                payload::counted_bytes(&message) > threshold
            }
            OffloadStyle::Guide => {
                let threshold = offload
                    .threshold_chars
                    .unwrap_or(payload::DEFAULT_THRESHOLD_CHARS);
                // The guide counts characters (`len(body)` in Python), not bytes.
                message.body.chars().count() as u64 > threshold
            }
        };
        if !large {
            return vec![self.send(message)];
        }
        if offload.style == OffloadStyle::ExtendedClient {
            if let Some(error) = payload::refusal(&message) {
                self.sends.count(&Outcome::Failed);
                return vec![Command::Log(SimEvent::ActionFailed {
                    actor: self.name.clone(),
                    action: "SendMessage",
                    code: "SdkClientException",
                    error,
                })];
            }
        }
        self.offloaded += 1;
        let at = Location {
            bucket: offload.bucket.clone(),
            key: payload::key(&self.name, self.offloaded),
        };
        let pointer = match offload.style {
            OffloadStyle::ExtendedClient => payload::extended_message(&message, &at),
            OffloadStyle::Guide => payload::guide_message(&message, &at),
        };
        self.waiting.push(pointer);
        vec![Command::PutObject {
            bucket: at.bucket,
            key: at.key,
            body: message.body,
        }]
    }

    /// Rated sends at or before `until`, and their bodies' units.
    fn rated_until(&self, until: Millis) -> (u64, u64) {
        self.rate.as_ref().map_or((0, 0), |rate| {
            let n = rate.due_until(until, self.next_rate);
            // `{n}` becomes at most 20 digits.
            (n, n.saturating_mul(units::body_units(rate.body.len() + 20)))
        })
    }
}

impl Actor for Producer {
    fn name(&self) -> &Arc<str> {
        &self.name
    }

    fn wake_at(&self) -> Option<Millis> {
        [self.listed.next_at(), self.rate_at()]
            .into_iter()
            .flatten()
            .min()
    }

    fn step(&mut self, now: Millis, _seen: &mut Reads) -> Vec<Command> {
        let mut out = Vec::new();
        let batch = self.rate.as_ref().and_then(|r| r.batch_size).unwrap_or(1);
        while let Some((send, rated)) = self.next_due(now) {
            if rated && batch > 1 {
                self.buffered.push(new_message(send));
            } else {
                out.extend(self.offloaded_or_sent(new_message(send)));
            }
        }
        // Full batches go now; the rest waits for more, or for the rate's end.
        let ended = self.rate_at().is_none();
        while self.buffered.len() >= batch as usize || (ended && !self.buffered.is_empty()) {
            let rest = self
                .buffered
                .split_off(self.buffered.len().min(batch as usize));
            out.push(Command::SendBatch {
                queue_url: self.url.clone(),
                messages: std::mem::replace(&mut self.buffered, rest),
                account: self.principal.clone(),
            });
        }
        out
    }

    fn outcome(&mut self, outcome: &Outcome) {
        let Outcome::S3(answer) = outcome else {
            self.sends.count(outcome);
            return;
        };
        let message = (!self.waiting.is_empty()).then(|| self.waiting.remove(0));
        match answer {
            Ok(_) => self.ready = message,
            Err(e) => {
                // The library's send throws: no message is sent.
                self.sends.count(&Outcome::Failed);
                self.ready = None;
                self.refused = Some(SimEvent::ActionFailed {
                    actor: self.name.clone(),
                    action: "PutObject",
                    code: e.code,
                    error: e.message.clone(),
                });
            }
        }
    }

    fn follow_up(&mut self, _now: Millis) -> Vec<Command> {
        let logged = self.refused.take().map(Command::Log);
        let sent = self.ready.take().map(|message| self.send(message));
        logged.into_iter().chain(sent).collect()
    }

    fn snapshot(&self) -> Option<Part> {
        Some(self.sends.part(&self.name, &self.url))
    }

    fn queue_url(&self) -> Option<&str> {
        Some(&self.url)
    }

    fn plan(&self, until: Millis, hits: &dyn Fn(&str) -> bool) -> Option<SendPlan> {
        let (listed, listed_units, listed_matching) = self.listed.until(until, hits);
        let (rated, rated_units) = self.rated_until(until);
        let steady = self.rate.as_ref().map(|rate| {
            let end = rate
                .start_ms
                .saturating_add(rate.every_ms.saturating_mul(rate.count));
            (rated, rate.start_ms, end)
        });
        let rated_matching = match &self.rate {
            Some(rate) if hits(&rate.body) => rated,
            _ => 0,
        };
        Some(SendPlan {
            sends: listed.saturating_add(rated),
            units: listed_units.saturating_add(rated_units),
            matching: listed_matching.saturating_add(rated_matching),
            steady,
        })
    }

    fn place(&self) -> Option<String> {
        Some(format!("producers[{}]", self.index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actors::Observe;

    /// A queue that shows nothing: a producer reads nothing to send.
    struct Unseen;

    impl Observe for Unseen {
        fn visible(&self, _queue_url: &str) -> Option<u64> {
            None
        }
    }

    fn producer(account: Option<&str>) -> Box<dyn Actor> {
        let scenario: Scenario = serde_json::from_value(serde_json::json!({
            "title": "t", "durationMs": 1000, "queues": [{ "name": "q" }],
            "producers": [{ "name": "partner", "queue": "q", "account": account,
                            "sends": [{ "atMs": 0, "body": "hi" }] }],
        }))
        .unwrap();
        let url_of = |_: &str, _: &str| Ok("https://q".to_string());
        build(&scenario, &url_of, &queuelab_engine::Config::default())
            .unwrap()
            .pop()
            .unwrap()
    }

    #[test]
    fn a_producer_with_an_account_sends_as_that_account_under_its_name() {
        let commands = producer(Some("111111111111")).step(0, &mut Unseen);
        let [Command::Send {
            account: Some(principal),
            ..
        }] = commands.as_slice()
        else {
            panic!("one Send as an account: {commands:?}")
        };
        let partner = Principal::account("111111111111").unwrap().named("partner");
        assert_eq!(principal, &partner);
    }

    #[test]
    fn a_producer_without_an_account_sends_as_the_owner() {
        let commands = producer(None).step(0, &mut Unseen);
        assert!(
            matches!(commands.as_slice(), [Command::Send { account: None, .. }]),
            "{commands:?}"
        );
    }
}
