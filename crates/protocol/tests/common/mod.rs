//! A small SQS client over the JSON protocol, for tests: every test talks to
//! the engine exactly as an SDK would, through `queuelab_protocol::dispatch`.
#![allow(dead_code)]

use queuelab_engine::{Config, Engine, Event, EventKind};
use queuelab_protocol::{answered_polls, dispatch, Dispatched, Response};
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
    pub fn messages(&self) -> Vec<Value> {
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
        self.call(
            "ReceiveMessage",
            json!({ "QueueUrl": url, "MaxNumberOfMessages": max,
                    "MessageSystemAttributeNames": ["All"], "WaitTimeSeconds": 0 }),
        )
        .messages()
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
