//! A scenario producer: sends at listed moments (`sends`) and at a steady
//! rate (`rate`, `{n}` in its body and group id numbering each send).

use std::sync::Arc;

use queuelab_engine::{Millis, Principal};

use super::{new_message, Actor, Command, Listed, Outcome, Part, Reads, SendPlan, Sends, UrlOf};
use crate::scenario::{Rate, Scenario, ScheduledSend};
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
    sends: Sends,
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
            sends: Sends::default(),
        }));
    }
    Ok(out)
}

impl Producer {
    /// The moment of the rate's next send.
    fn rate_at(&self) -> Option<Millis> {
        self.rate.as_ref()?.at(self.next_rate)
    }

    /// Its next send due at or before `now`: a listed one first.
    fn next_due(&mut self, now: Millis) -> Option<ScheduledSend> {
        if let Some(send) = self.listed.pop_due(now) {
            return Some(send);
        }
        let at = self.rate_at().filter(|at| *at <= now)?;
        let rate = self.rate.as_ref()?;
        let n = self.next_rate + 1;
        let fill = |s: &str| s.replace("{n}", &n.to_string());
        let send = ScheduledSend {
            at_ms: at,
            at: None,
            body: fill(&rate.body),
            group_id: rate.group_id.as_deref().map(fill),
            dedup_id: None,
            delay_seconds: None,
            attributes: Default::default(),
            pad_to_bytes: None,
        };
        self.next_rate += 1;
        Some(send)
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
        while let Some(send) = self.next_due(now) {
            let (queue_url, message) = (self.url.clone(), new_message(send));
            out.push(Command::Send {
                queue_url,
                message,
                account: self.principal.clone(),
            });
        }
        out
    }

    fn outcome(&mut self, outcome: &Outcome) {
        self.sends.count(outcome);
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
