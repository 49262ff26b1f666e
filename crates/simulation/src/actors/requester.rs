//! A requester: the client side of request-response over SQS, as the
//! patterns guide writes it. For each request it has a reply queue
//! (`perRequest`: a temporary queue created for this request and deleted
//! when its wait ends, in the guide's `finally`; `perClient`: one queue
//! made once and kept), sends the request with the message attributes
//! `ReplyTo` (the reply queue's URL) and `CorrelationId`, and long-polls
//! the reply queue until the reply with that id comes or its
//! `replyWaitSeconds` are over. One request at a time, as a blocking
//! client: a request due while another waits is sent when that wait ends.
//!
//! Each call's outcome decides the next call, so it gives one command at
//! a time (`step`, then `follow_up` after each outcome, or `answered`
//! when a long poll returns).

use std::collections::BTreeMap;
use std::sync::Arc;

use queuelab_engine::{
    AttributeValue, MessageAttribute, Millis, NewMessage, PollId, ReceivedMessage, SqsResult,
};

use super::agenda::Agenda;
use super::{Actor, Command, Outcome, Reads, SendPlan, UrlOf};
use crate::document::{Rate, ReplyMode, Requester as Spec, Scenario};
use crate::log::SimEvent;

/// The longest one ReceiveMessage waits (SQS's WaitTimeSeconds maximum).
const MAX_POLL_SECONDS: u64 = 20;

/// The message attributes of the pattern.
pub(crate) const REPLY_TO: &str = "ReplyTo";
pub(crate) const CORRELATION_ID: &str = "CorrelationId";

/// The request in hand.
struct Request {
    /// Its number (from 1), `{n}` in its body.
    n: u64,
    correlation_id: String,
    /// Its reply queue, once created (or the client's).
    reply_url: Option<String>,
    /// When it was sent, and when its wait ends.
    sent_at: Millis,
    deadline: Millis,
    /// Its poll in the engine, while one waits.
    poll: Option<PollId>,
}

/// What the command given last was, to read its outcome.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Asked {
    #[default]
    Nothing,
    Create,
    Send,
    Receive,
    DeleteReply,
    DeleteQueue,
}

pub(crate) struct Requester {
    name: Arc<str>,
    request_url: String,
    mode: ReplyMode,
    rate: Rate,
    wait_ms: Millis,
    prefix: String,
    reuse_name: bool,
    /// The rate's next request (from 0).
    next: u64,
    current: Option<Request>,
    /// `perClient`: its one reply queue, once made.
    client_url: Option<String>,
    /// Its requests whose wait ended without a reply, by correlation id,
    /// with when each was sent (at most `MAX_REQUESTS`): a late reply to
    /// one is still matched, with its latency.
    given_up: BTreeMap<String, Millis>,
    agenda: Agenda<Asked>,
    /// Messages of the latest receive still to read, last first.
    inbox: Vec<ReceivedMessage>,
}

pub(crate) fn build(
    scenario: &Scenario,
    url_of: UrlOf,
    _config: &queuelab_engine::Config,
) -> SqsResult<Vec<Box<dyn Actor>>> {
    let mut out: Vec<Box<dyn Actor>> = Vec::new();
    for r in &scenario.requesters {
        out.push(Box::new(Requester::new(
            r,
            url_of(&format!("requester \"{}\"", r.name), &r.queue)?,
        )));
    }
    Ok(out)
}

impl Requester {
    fn new(spec: &Spec, request_url: String) -> Self {
        Requester {
            name: spec.name.as_str().into(),
            request_url,
            mode: spec.mode,
            rate: spec.rate.clone(),
            wait_ms: spec.reply_wait_seconds.saturating_mul(1000),
            prefix: (spec.queue_name_prefix.clone())
                .unwrap_or_else(|| format!("{}-replies", spec.name)),
            reuse_name: spec.reuse_queue_name,
            next: 0,
            current: None,
            client_url: None,
            given_up: BTreeMap::new(),
            agenda: Agenda::default(),
            inbox: Vec::new(),
        }
    }

    /// The reply queue's name for request `n`.
    fn queue_name(&self, n: u64) -> String {
        match (self.mode, self.reuse_name) {
            (ReplyMode::PerClient, _) | (ReplyMode::PerRequest, true) => self.prefix.clone(),
            (ReplyMode::PerRequest, false) => format!("{}-{n}", self.prefix),
        }
    }

    /// Starts the next request if one is due and none is in hand.
    fn start_due(&mut self, now: Millis) {
        if self.current.is_some() || self.rate.at(self.next).is_none_or(|at| at > now) {
            return;
        }
        self.next += 1;
        let n = self.next;
        self.current = Some(Request {
            n,
            correlation_id: format!("{}-{n}", self.name),
            reply_url: None,
            sent_at: now,
            deadline: now,
            poll: None,
        });
        match (&self.client_url, self.mode) {
            (Some(url), ReplyMode::PerClient) => {
                let url = url.clone();
                if let Some(r) = self.current.as_mut() {
                    r.reply_url = Some(url);
                }
                self.send_request();
            }
            _ => {
                let name = self.queue_name(n);
                let create = Command::CreateQueue {
                    name,
                    attributes: Vec::new(),
                };
                self.agenda.push(create, Asked::Create);
            }
        }
    }

    fn send_request(&mut self) {
        let Some(r) = &self.current else { return };
        let Some(reply_url) = r.reply_url.clone() else {
            return;
        };
        let attribute = |name: &str, value: String| MessageAttribute {
            name: name.into(),
            data_type: "String".into(),
            value: AttributeValue::String(value),
        };
        let message = NewMessage {
            body: self.rate.body.replace("{n}", &r.n.to_string()),
            attributes: vec![
                attribute(REPLY_TO, reply_url),
                attribute(CORRELATION_ID, r.correlation_id.clone()),
            ],
            ..NewMessage::default()
        };
        let send = Command::Send {
            queue_url: self.request_url.clone(),
            message,
            account: None,
        };
        self.agenda.push(send, Asked::Send);
    }

    /// Polls the reply queue for what is left of the wait (at most 20 s
    /// a poll), or gives up when nothing is left.
    fn poll_or_give_up(&mut self, now: Millis) {
        let Some(r) = &self.current else { return };
        let left = r.deadline.saturating_sub(now) / 1000;
        match (&r.reply_url, left) {
            (Some(url), 1..) => {
                let receive = Command::Receive {
                    queue_url: url.clone(),
                    max_number_of_messages: 10,
                    wait_time_seconds: left.min(MAX_POLL_SECONDS) as i64,
                };
                self.agenda.push(receive, Asked::Receive);
            }
            _ => self.give_up(now),
        }
    }

    /// The wait ended with no reply: said, and (per request) the queue deleted.
    fn give_up(&mut self, now: Millis) {
        let Some(r) = &self.current else { return };
        let event = SimEvent::ReplyWaitEnded {
            requester: self.name.clone(),
            correlation_id: r.correlation_id.clone(),
            queue: reply_queue(r),
            waited_ms: now.saturating_sub(r.sent_at),
        };
        if self.mode == ReplyMode::PerClient {
            self.given_up.insert(r.correlation_id.clone(), r.sent_at);
        }
        self.agenda.push(Command::Log(event), Asked::Nothing);
        self.finish();
    }

    /// The request is over: the guide's `finally` deletes a per-request
    /// queue; a client's queue is kept.
    fn finish(&mut self) {
        let Some(r) = &self.current else { return };
        match (&r.reply_url, self.mode) {
            (Some(url), ReplyMode::PerRequest) => {
                let delete = Command::DeleteQueue {
                    queue_url: url.clone(),
                };
                self.agenda.push(delete, Asked::DeleteQueue);
            }
            _ => self.current = None,
        }
    }

    /// Reads the messages a receive returned: the matching reply ends the
    /// wait; a late reply to an earlier request is matched late; each is
    /// deleted from the reply queue.
    fn read(&mut self, now: Millis) {
        while let Some(m) = self.inbox.pop() {
            let Some(r) = &self.current else { return };
            let Some(url) = r.reply_url.clone() else {
                return;
            };
            let id = attribute(&m, CORRELATION_ID).unwrap_or_default();
            let delete = Command::DeleteBatch {
                queue_url: url,
                entries: vec![("reply".into(), m.receipt_handle.clone())],
            };
            self.agenda.push(delete, Asked::DeleteReply);
            if id == r.correlation_id {
                let event = SimEvent::ReplyMatched {
                    requester: self.name.clone(),
                    correlation_id: id,
                    queue: reply_queue(r),
                    latency_ms: now.saturating_sub(r.sent_at),
                    late: false,
                };
                self.agenda.push(Command::Log(event), Asked::Nothing);
                self.inbox.clear();
                self.finish();
                return;
            }
            if let Some(sent_at) = self.given_up.remove(&id) {
                let event = SimEvent::ReplyMatched {
                    requester: self.name.clone(),
                    correlation_id: id,
                    queue: reply_queue(r),
                    latency_ms: now.saturating_sub(sent_at),
                    late: true,
                };
                self.agenda.push(Command::Log(event), Asked::Nothing);
            }
        }
        self.poll_or_give_up(now);
    }

    /// What the last command's outcome decides at `now`.
    fn decide(&mut self, asked: Asked, outcome: Outcome, now: Millis) {
        match (asked, outcome) {
            (Asked::Create, Outcome::Created { queue_url }) => {
                if self.mode == ReplyMode::PerClient {
                    self.client_url = Some(queue_url.clone());
                }
                if let Some(r) = self.current.as_mut() {
                    r.reply_url = Some(queue_url);
                }
                self.send_request();
            }
            // Refused (QueueDeletedRecently, say: the run logged it): the
            // request is never sent.
            (Asked::Create, _) => self.current = None,
            (Asked::Send, Outcome::Sent { message_id }) => {
                if let Some(r) = self.current.as_mut() {
                    r.sent_at = now;
                    r.deadline = now.saturating_add(self.wait_ms);
                    let event = SimEvent::RequestSent {
                        requester: self.name.clone(),
                        correlation_id: r.correlation_id.clone(),
                        message_id,
                        reply_queue: reply_queue(r),
                    };
                    self.agenda.push(Command::Log(event), Asked::Nothing);
                }
                self.poll_or_give_up(now);
            }
            (Asked::Send, _) => self.finish(),
            (Asked::Receive, Outcome::Received(messages)) => {
                self.inbox.extend(messages.into_iter().rev());
                self.read(now);
            }
            (Asked::Receive, Outcome::Waiting(poll)) => {
                if let Some(r) = self.current.as_mut() {
                    r.poll = Some(poll);
                }
            }
            (Asked::Receive, _) => self.give_up(now),
            (Asked::DeleteQueue, _) => self.current = None,
            _ => {}
        }
        if self.agenda.is_empty() && self.current.is_none() {
            self.start_due(now);
        }
    }
}

/// A received message's string attribute.
fn attribute(m: &ReceivedMessage, name: &str) -> Option<String> {
    m.message_attributes.iter().find_map(|a| match &a.value {
        AttributeValue::String(v) if a.name == name => Some(v.clone()),
        _ => None,
    })
}

/// The name of a request's reply queue.
fn reply_queue(r: &Request) -> Arc<str> {
    r.reply_url.as_deref().map_or("".into(), crate::queue_name)
}

impl Actor for Requester {
    fn name(&self) -> &Arc<str> {
        &self.name
    }

    /// The next request's moment while none is in hand (a request in
    /// hand goes on through outcomes and answered polls).
    fn wake_at(&self) -> Option<Millis> {
        match self.current {
            Some(_) => None,
            None => self.rate.at(self.next),
        }
    }

    fn step(&mut self, now: Millis, _seen: &mut Reads) -> Vec<Command> {
        self.start_due(now);
        self.agenda.give()
    }

    fn outcome(&mut self, outcome: &Outcome) {
        self.agenda.tell(outcome);
    }

    fn follow_up(&mut self, now: Millis) -> Vec<Command> {
        if let Some((asked, outcome)) = self.agenda.told() {
            self.decide(asked, outcome, now);
        }
        self.agenda.give()
    }

    fn owns_poll(&self, poll: PollId) -> bool {
        self.current.as_ref().is_some_and(|r| r.poll == Some(poll))
    }

    fn answered(
        &mut self,
        now: Millis,
        _poll: PollId,
        result: SqsResult<Vec<ReceivedMessage>>,
        _seen: &mut Reads,
    ) -> Vec<Command> {
        if let Some(r) = self.current.as_mut() {
            r.poll = None;
        }
        match result {
            Ok(messages) => {
                self.inbox.extend(messages.into_iter().rev());
                self.read(now);
            }
            Err(_) => self.give_up(now),
        }
        if self.agenda.is_empty() && self.current.is_none() {
            self.start_due(now);
        }
        self.agenda.give()
    }

    fn queue_url(&self) -> Option<&str> {
        Some(&self.request_url)
    }

    /// Its requests up to `until`, as sends to the request queue (what a
    /// responder there will have to answer).
    fn plan(&self, until: Millis, hits: &dyn Fn(&str) -> bool) -> Option<SendPlan> {
        let sends = self.rate.due_until(until, self.next);
        let units = crate::units::body_units(self.rate.body.len() + 20);
        Some(SendPlan {
            sends,
            units: sends.saturating_mul(units),
            matching: if hits(&self.rate.body) { sends } else { 0 },
            steady: None,
        })
    }

    fn place(&self) -> Option<String> {
        Some(format!("requester \"{}\"", self.name))
    }

    /// Besides each request's send (its `plan`): its reply queue's
    /// CreateQueue and DeleteQueue, its long polls over the wait, the
    /// reply's delete and the logged outcome.
    fn own_work(
        &self,
        _now: Millis,
        until: Millis,
        _arriving: &dyn Fn(&str) -> (u64, u64),
    ) -> Option<u64> {
        let requests = self.rate.due_until(until, self.next);
        let polls = (self.wait_ms / 1000).div_ceil(MAX_POLL_SECONDS) + 1;
        Some(requests.saturating_mul(PER_REQUEST + PER_POLL * polls))
    }
}

/// A request's own calls and wakes: CreateQueue, the reply's delete,
/// DeleteQueue, the logged outcome and the steps between them.
const PER_REQUEST: u64 = 10;
/// One long poll of the reply queue: the action, the call, its answer.
const PER_POLL: u64 = 5;
