//! A small SQS client over the JSON protocol, for tests: every test talks to
//! the engine exactly as an SDK would, through `queuelab_protocol::dispatch`.
#![allow(dead_code)]

use queuelab_engine::{Config, Engine, Event, EventKind, Principal};
use queuelab_protocol::{answered_polls, dispatch, dispatch_as, Dispatched, Response};
use serde_json::{json, Value};

pub struct Sqs {
    pub engine: Engine,
}

/// What a call answered: the status, the parsed body and the error code.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub body: Value,
    pub response: Response,
}

impl Reply {
    /// The SDK-visible error code (from `x-amzn-query-error`), or "" on success.
    pub fn code(&self) -> &str {
        self.response
            .header("x-amzn-query-error")
            .and_then(|h| h.split(';').next())
            .unwrap_or("")
    }

    pub fn message(&self) -> &str {
        self.body["message"].as_str().unwrap_or("")
    }

    #[track_caller]
    pub fn ok(self) -> Value {
        assert_eq!(self.status, 200, "expected success, got {:?}", self.body);
        self.body
    }

    #[track_caller]
    pub fn err(&self, code: &str) -> &Self {
        assert_ne!(
            self.status, 200,
            "expected {code}, got success {:?}",
            self.body
        );
        assert_eq!(self.code(), code, "wrong error: {:?}", self.body);
        self
    }

    #[track_caller]
    pub fn message_contains(&self, text: &str) -> &Self {
        assert!(
            self.message().contains(text),
            "message {:?} does not contain {text:?}",
            self.message()
        );
        self
    }

    /// Received messages (empty when the answer has no `Messages`).
    /// Asserts the call succeeded: an error answer has no `Messages` either,
    /// and must not pass for "nothing to receive".
    #[track_caller]
    pub fn messages(&self) -> Vec<Value> {
        assert_eq!(self.status, 200, "expected success, got {:?}", self.body);
        self.body["Messages"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }
}

impl Sqs {
    pub fn new() -> Self {
        Self::with(Config::default())
    }

    pub fn seeded(seed: u64) -> Self {
        Self::with(Config {
            seed,
            ..Config::default()
        })
    }

    pub fn with(config: Config) -> Self {
        Sqs {
            engine: Engine::new(config),
        }
    }

    /// Calls an operation and expects an immediate answer.
    #[track_caller]
    pub fn call(&mut self, operation: &str, body: Value) -> Reply {
        self.call_as(None, operation, body)
    }

    #[track_caller]
    pub fn call_as(&mut self, caller: Option<&str>, operation: &str, body: Value) -> Reply {
        let target = format!("AmazonSQS.{operation}");
        match dispatch(&mut self.engine, &target, &body.to_string(), caller) {
            Dispatched::Done(response) => reply(response),
            Dispatched::Waiting(poll) => panic!("{operation} is waiting (poll {poll})"),
        }
    }

    /// Calls an operation as `by` (another account, a service) and expects
    /// an immediate answer.
    #[track_caller]
    pub fn call_by(&mut self, by: &Principal, operation: &str, body: Value) -> Reply {
        let target = format!("AmazonSQS.{operation}");
        match dispatch_as(&mut self.engine, &target, &body.to_string(), by) {
            Dispatched::Done(response) => reply(response),
            Dispatched::Waiting(poll) => panic!("{operation} is waiting (poll {poll})"),
        }
    }

    /// Sends raw text as the body of an operation.
    pub fn raw(&mut self, target: &str, body: &str) -> Reply {
        match dispatch(&mut self.engine, target, body, None) {
            Dispatched::Done(response) => reply(response),
            Dispatched::Waiting(poll) => panic!("waiting (poll {poll})"),
        }
    }

    /// Starts a call that may wait (a long poll); returns its poll id if it waits.
    pub fn start(&mut self, operation: &str, body: Value) -> Result<Reply, u64> {
        let target = format!("AmazonSQS.{operation}");
        match dispatch(&mut self.engine, &target, &body.to_string(), None) {
            Dispatched::Done(response) => Ok(reply(response)),
            Dispatched::Waiting(poll) => Err(poll),
        }
    }

    /// Long polls answered so far.
    pub fn answered(&mut self) -> Vec<(u64, Reply)> {
        answered_polls(&mut self.engine)
            .into_iter()
            .map(|(id, r)| (id, reply(r)))
            .collect()
    }

    pub fn advance(&mut self, ms: u64) {
        self.engine.advance(ms);
    }

    #[track_caller]
    pub fn create(&mut self, name: &str, attributes: Value) -> String {
        let body = self
            .call(
                "CreateQueue",
                json!({ "QueueName": name, "Attributes": attributes }),
            )
            .ok();
        body["QueueUrl"].as_str().unwrap().to_string()
    }

    #[track_caller]
    pub fn arn(&mut self, url: &str) -> String {
        self.attribute(url, "QueueArn")
    }

    #[track_caller]
    pub fn attribute(&mut self, url: &str, name: &str) -> String {
        let body = self
            .call(
                "GetQueueAttributes",
                json!({ "QueueUrl": url, "AttributeNames": [name] }),
            )
            .ok();
        body["Attributes"][name].as_str().unwrap_or("").to_string()
    }

    #[track_caller]
    pub fn send(&mut self, url: &str, text: &str) -> Value {
        self.call(
            "SendMessage",
            json!({ "QueueUrl": url, "MessageBody": text }),
        )
        .ok()
    }

    #[track_caller]
    pub fn send_fifo(&mut self, url: &str, text: &str, group: &str, dedup: &str) -> Value {
        self.call(
            "SendMessage",
            json!({ "QueueUrl": url, "MessageBody": text, "MessageGroupId": group,
                    "MessageDeduplicationId": dedup }),
        )
        .ok()
    }

    /// A short-poll receive of up to `max` messages, with all system attributes.
    #[track_caller]
    pub fn receive(&mut self, url: &str, max: u32) -> Vec<Value> {
        self.short_poll(url, max).messages()
    }

    /// A short-poll receive of up to `max` messages that must find none:
    /// a success whose body is exactly `{}`.
    #[track_caller]
    pub fn receive_none(&mut self, url: &str, max: u32) {
        self.short_poll(url, max).empty();
    }

    #[track_caller]
    fn short_poll(&mut self, url: &str, max: u32) -> Reply {
        self.call(
            "ReceiveMessage",
            json!({ "QueueUrl": url, "MaxNumberOfMessages": max,
                    "MessageSystemAttributeNames": ["All"], "WaitTimeSeconds": 0 }),
        )
    }

    /// Bodies of a short-poll receive.
    #[track_caller]
    pub fn receive_bodies(&mut self, url: &str, max: u32) -> Vec<String> {
        self.receive(url, max)
            .iter()
            .map(|m| m["Body"].as_str().unwrap().to_string())
            .collect()
    }

    #[track_caller]
    pub fn delete(&mut self, url: &str, handle: &Value) -> Reply {
        self.call(
            "DeleteMessage",
            json!({ "QueueUrl": url, "ReceiptHandle": handle }),
        )
    }

    pub fn events(&self) -> Vec<Event> {
        self.engine.events(0).cloned().collect()
    }

    /// Event kinds, for matching.
    pub fn kinds(&self) -> Vec<EventKind> {
        self.engine.events(0).map(|e| e.kind.clone()).collect()
    }
}

fn reply(response: Response) -> Reply {
    Reply {
        status: response.status,
        body: response.json(),
        response,
    }
}

impl Sqs {
    /// Sends raw text to a target; `Err(poll)` when it waits. Asserts the
    /// answer is a success or a client error, never a server failure.
    pub fn start_raw(&mut self, target: &str, body: &str) -> Result<Reply, u64> {
        match dispatch(&mut self.engine, target, body, None) {
            Dispatched::Done(response) => {
                assert!(
                    response.status == 200 || (400..500).contains(&response.status),
                    "{target} {body:?} -> {}",
                    response.status
                );
                Ok(reply(response))
            }
            Dispatched::Waiting(poll) => Err(poll),
        }
    }
}

// ---------------------------------------------------------------------------
// Shared set-up and assertions of the conformance tests
// ---------------------------------------------------------------------------

impl Sqs {
    /// A CreateQueue call, answered as it is (`create` expects success).
    #[track_caller]
    pub fn create_reply(&mut self, name: &str, attributes: Value) -> Reply {
        self.call(
            "CreateQueue",
            json!({ "QueueName": name, "Attributes": attributes }),
        )
    }

    /// A SetQueueAttributes call on `url`.
    #[track_caller]
    pub fn set_attributes(&mut self, url: &str, attributes: Value) -> Reply {
        self.call(
            "SetQueueAttributes",
            json!({ "QueueUrl": url, "Attributes": attributes }),
        )
    }

    /// A fresh engine holding one queue: `(sqs, url)`.
    #[track_caller]
    pub fn with_queue(name: &str, attributes: Value) -> (Sqs, String) {
        let mut sqs = Sqs::new();
        let url = sqs.create(name, attributes);
        (sqs, url)
    }

    /// Creates a queue and answers its url and ARN.
    #[track_caller]
    pub fn create_with_arn(&mut self, name: &str, attributes: Value) -> (String, String) {
        let url = self.create(name, attributes);
        let arn = self.arn(&url);
        (url, arn)
    }

    /// A `SendMessageBatch` of `entries` to `url`.
    #[track_caller]
    pub fn send_batch(&mut self, url: &str, entries: Value) -> Reply {
        self.call(
            "SendMessageBatch",
            json!({ "QueueUrl": url, "Entries": entries }),
        )
    }

    /// A `ReceiveMessage` on `url` asking for every message attribute.
    #[track_caller]
    pub fn receive_with_message_attributes(&mut self, url: &str) -> Vec<Value> {
        self.call(
            "ReceiveMessage",
            json!({ "QueueUrl": url, "MessageAttributeNames": ["All"] }),
        )
        .messages()
    }

    /// The only long poll answered so far, checked to be `poll`.
    #[track_caller]
    pub fn only_answer(&mut self, poll: u64) -> Reply {
        let mut answered = self.answered();
        assert_eq!(answered.len(), 1, "expected one answered poll");
        let (id, reply) = answered.remove(0);
        assert_eq!(id, poll);
        reply
    }
}

/// Error shapes AWS's request framework answers with, not SQS's model.
pub const FRAMEWORK_SHAPES: [&str; 4] = [
    "AccessDeniedException",
    "InvalidParameterValueException",
    "MissingRequiredParameterException",
    "SerializationException",
];

impl Reply {
    /// Asserts an error answer with this status, code and exact message.
    #[track_caller]
    pub fn rejected(&self, status: u16, code: &str, message: &str) -> &Self {
        self.err(code);
        assert_eq!(self.status, status);
        assert_eq!(self.message(), message);
        self
    }

    /// Asserts the full error envelope: status, `__type` shape, the
    /// `x-amzn-query-error` header with the query code, and a message.
    #[track_caller]
    pub fn error_envelope(&self, status: u16, code: &str, shape: &str) -> &Self {
        assert_eq!(self.status, status, "status of {code}: {:?}", self.body);
        self.err(code);
        // The shapes SQS's model does not name come from AWS's request
        // framework (a real answer: com.amazon.coral.service#InvalidParameterValueException).
        let namespace = if FRAMEWORK_SHAPES.contains(&shape) {
            "com.amazon.coral.service"
        } else {
            "com.amazonaws.sqs"
        };
        assert_eq!(
            self.body["__type"],
            format!("{namespace}#{shape}"),
            "__type of {code}"
        );
        assert_eq!(
            self.response.header("x-amzn-query-error"),
            Some(format!("{code};Sender").as_str())
        );
        assert!(
            !self.message().is_empty(),
            "{code} has a message: {:?}",
            self.body
        );
        self
    }

    /// Asserts a success with an empty body (no `Messages` key at all).
    #[track_caller]
    pub fn empty(&self) {
        assert_eq!(self.status, 200, "expected success, got {:?}", self.body);
        assert_eq!(self.body, json!({}), "expected an empty answer");
    }
}

/// A message attribute of type String.
pub fn string_attribute(value: &str) -> Value {
    json!({ "DataType": "String", "StringValue": value })
}

/// The ids of a batch answer's `Successful` entries, in order.
pub fn successful_ids(body: &Value) -> Vec<&str> {
    body["Successful"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["Id"].as_str().unwrap())
        .collect()
}

/// The names of a JSON object's members, sorted (none when it is absent).
pub fn sorted_keys(value: &Value) -> Vec<String> {
    let mut keys: Vec<String> = value
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    keys.sort();
    keys
}
