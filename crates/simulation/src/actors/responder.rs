//! A responder: the service side of request-response over SQS. It
//! long-polls the request queue for one request at a time, works on it
//! for its `processing` time (drawn from a stream of the scenario's seed
//! of its own), sends its reply to the queue the request's `ReplyTo`
//! attribute names, with the request's `CorrelationId`, then deletes the
//! request. A reply whose queue is gone (the requester gave up and
//! deleted it) is refused with QueueDoesNotExist: the reply is lost, and
//! the log says so (`replyLost`).

use std::sync::Arc;

use queuelab_engine::{
    AttributeValue, ErrorCode, MessageAttribute, Millis, NewMessage, PollId, Principal,
    ReceivedMessage, SqsResult,
};

use super::agenda::Agenda;
use super::requester::{CORRELATION_ID, REPLY_TO};
use super::{Actor, Command, Outcome, Reads, UrlOf};
use crate::document::{Processing, Scenario};
use crate::log::SimEvent;
use crate::rng::SimRng;

/// How long SQS's long poll of the request queue waits (its maximum).
const POLL_SECONDS: i64 = 20;

/// The first stream of the responders' draws (`SimRng::for_part`), past
/// the Lambda functions' (at most 20 of them, from 1).
const RNG_PART: u64 = 1_000;

/// After a receive that failed, the wait before the next one.
const RETRY_MS: Millis = 1_000;

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Asked {
    #[default]
    Nothing,
    Receive,
    Reply,
}

pub(crate) struct Responder {
    name: Arc<str>,
    url: String,
    processing: Processing,
    rng: SimRng,
    /// The request in hand and when its work is over.
    working: Option<(ReceivedMessage, Millis)>,
    /// Its long poll, while one waits.
    poll: Option<PollId>,
    /// When it next receives (None: a receive or a poll is under way).
    receive_at: Option<Millis>,
    agenda: Agenda<Asked>,
}

pub(crate) fn build(
    scenario: &Scenario,
    url_of: UrlOf,
    _config: &queuelab_engine::Config,
) -> SqsResult<Vec<Box<dyn Actor>>> {
    let mut out: Vec<Box<dyn Actor>> = Vec::new();
    for (index, r) in scenario.responders.iter().enumerate() {
        out.push(Box::new(Responder {
            name: r.name.as_str().into(),
            url: url_of(&format!("responder \"{}\"", r.name), &r.queue)?,
            processing: r.processing.clone(),
            rng: SimRng::for_part(scenario.seed, RNG_PART + index as u64),
            working: None,
            poll: None,
            receive_at: Some(0),
            agenda: Agenda::default(),
        }));
    }
    Ok(out)
}

/// A string attribute of a received message.
fn attribute(m: &ReceivedMessage, name: &str) -> Option<String> {
    m.message_attributes.iter().find_map(|a| match &a.value {
        AttributeValue::String(v) if a.name == name => Some(v.clone()),
        _ => None,
    })
}

impl Responder {
    fn receive(&mut self) {
        self.receive_at = None;
        let receive = Command::Receive {
            queue_url: self.url.clone(),
            max_number_of_messages: 1,
            wait_time_seconds: POLL_SECONDS,
        };
        self.agenda.push(receive, Asked::Receive);
    }

    /// A receive's messages: the first is worked on; none, poll again.
    fn got(&mut self, now: Millis, messages: Vec<ReceivedMessage>) {
        match messages.into_iter().next() {
            Some(m) => {
                let ms = crate::worker::processing_ms(&self.processing, self.rng.unit());
                self.working = Some((m, now.saturating_add(ms)));
                // Work of no time is over now: the run steps an actor only
                // at moments still to come.
                if ms == 0 {
                    self.reply();
                }
            }
            None => self.receive(),
        }
    }

    /// The work is over: the reply, to the queue `ReplyTo` names.
    fn reply(&mut self) {
        let Some((request, _)) = &self.working else {
            return;
        };
        let correlation = attribute(request, CORRELATION_ID).unwrap_or_default();
        let Some(reply_to) = attribute(request, REPLY_TO) else {
            // Not a request of the pattern: nowhere to reply.
            self.delete_request();
            return;
        };
        let message = NewMessage {
            body: format!("reply to {}", request.body),
            attributes: vec![MessageAttribute {
                name: CORRELATION_ID.into(),
                data_type: "String".into(),
                value: AttributeValue::String(correlation),
            }],
            ..NewMessage::default()
        };
        // Sent as the queues' owner under its name; `SendAs` hands back
        // SQS's refusal, so a lost reply is told in its own words.
        let send = Command::SendAs {
            queue_url: reply_to,
            message,
            principal: Principal::owner(),
        };
        self.agenda.push(send, Asked::Reply);
    }

    /// Deletes the request in hand, then receives the next.
    fn delete_request(&mut self) {
        if let Some((request, _)) = self.working.take() {
            let delete = Command::DeleteBatch {
                queue_url: self.url.clone(),
                entries: vec![("request".into(), request.receipt_handle)],
            };
            self.agenda.push(delete, Asked::Nothing);
        }
        self.receive();
    }

    /// The request in hand's CorrelationId, the name of the queue its
    /// ReplyTo names (empty where it names none) and its message id.
    fn addressed(&self) -> Option<(String, Arc<str>, String)> {
        let (request, _) = self.working.as_ref()?;
        let reply_to = attribute(request, REPLY_TO).unwrap_or_default();
        let correlation_id = attribute(request, CORRELATION_ID).unwrap_or_default();
        let queue = crate::queue_name(&reply_to);
        Some((correlation_id, queue, request.message_id.clone()))
    }

    /// The reply was stored: said, with the request it answers (the stage
    /// links the two), and the request deleted.
    fn replied(&mut self, message_id: String) {
        let Some((correlation_id, queue, request_id)) = self.addressed() else {
            return;
        };
        let event = SimEvent::ReplySent {
            responder: self.name.clone(),
            correlation_id,
            message_id,
            request_id,
            queue,
        };
        self.agenda.push(Command::Log(event), Asked::Nothing);
        self.delete_request();
    }

    /// The reply was refused: said, and the request deleted all the same
    /// (the guide's responder does not retry a reply).
    fn refused(&mut self, error: queuelab_engine::SqsError) {
        let Some((correlation_id, queue, _)) = self.addressed() else {
            return;
        };
        let lost = error.code == ErrorCode::QueueDoesNotExist;
        let failed = SimEvent::action_failed(&self.name, "SendMessage", error);
        self.agenda.push(Command::Log(failed), Asked::Nothing);
        if lost {
            let event = SimEvent::ReplyLost {
                responder: self.name.clone(),
                correlation_id,
                queue,
            };
            self.agenda.push(Command::Log(event), Asked::Nothing);
        }
        self.delete_request();
    }

    fn decide(&mut self, asked: Asked, outcome: Outcome, now: Millis) {
        match (asked, outcome) {
            (Asked::Receive, Outcome::Received(messages)) => self.got(now, messages),
            (Asked::Receive, Outcome::Waiting(poll)) => self.poll = Some(poll),
            (Asked::Receive, _) => self.receive_at = Some(now.saturating_add(RETRY_MS)),
            (Asked::Reply, Outcome::Refused(error)) => self.refused(error),
            (Asked::Reply, Outcome::Sent { message_id }) => self.replied(message_id),
            (Asked::Reply, _) => self.delete_request(),
            _ => {}
        }
    }
}

impl Actor for Responder {
    fn name(&self) -> &Arc<str> {
        &self.name
    }

    fn wake_at(&self) -> Option<Millis> {
        match &self.working {
            Some((_, until)) => Some(*until),
            None => self.receive_at,
        }
    }

    fn step(&mut self, now: Millis, _seen: &mut Reads) -> Vec<Command> {
        match &self.working {
            Some((_, until)) if *until <= now => self.reply(),
            Some(_) => {}
            None if self.receive_at.is_some_and(|t| t <= now) => self.receive(),
            None => {}
        }
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
        self.poll == Some(poll)
    }

    fn answered(
        &mut self,
        now: Millis,
        _poll: PollId,
        result: SqsResult<Vec<ReceivedMessage>>,
        _seen: &mut Reads,
    ) -> Vec<Command> {
        self.poll = None;
        match result {
            Ok(messages) => self.got(now, messages),
            Err(_) => self.receive_at = Some(now.saturating_add(RETRY_MS)),
        }
        self.agenda.give()
    }

    fn queue_url(&self) -> Option<&str> {
        Some(&self.url)
    }

    fn place(&self) -> Option<String> {
        Some(format!("responder \"{}\"", self.name))
    }

    /// Its idle long polls (one each 20 s) and, for each request sent to
    /// its queue, the receive, the work's wake, the reply and the delete.
    fn own_work(
        &self,
        now: Millis,
        until: Millis,
        arriving: &dyn Fn(&str) -> (u64, u64),
    ) -> Option<u64> {
        let (requests, units) = arriving(&self.url);
        let polls = until.saturating_sub(now) / (POLL_SECONDS as u64 * 1000) + 1;
        Some(
            polls
                .saturating_mul(PER_POLL)
                .saturating_add(requests.saturating_mul(PER_REQUEST))
                .saturating_add(units.saturating_mul(2)),
        )
    }
}

/// An empty long poll: the action, the call, its time-out.
const PER_POLL: u64 = 5;
/// One request: its receive, the wake when its work is over, the reply's
/// send, the request's delete and the steps between.
const PER_REQUEST: u64 = 12;
