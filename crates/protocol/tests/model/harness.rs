//! Runs the engine (through the JSON protocol) and the reference model side
//! by side. Every operation goes to both; every answer is compared, and
//! after every operation so is the whole state: each message's place,
//! receive count and deadlines, the counts, the FIFO group locks, the queue
//! settings and the move tasks. A mismatch is an `Err` naming what differs.

use std::collections::{BTreeMap, BTreeSet};

use md5::{Digest, Md5};
use queuelab_engine::{EventKind, MessageSnapshot, Principal, QueueSnapshot};
use serde_json::{json, Map, Value};

use super::ops::{AttributeNames, BatchFlaw, MessageSpec, Op, Pick, ReceiveOp, Step, SystemNames};
use super::reference::{
    arn, dead_letter_slot, is_fifo, Actions, Answer, ApiError, Attribute, Caller, Delivered, Model,
    NewMessage, ReceiveSpec, Rule, Sent, SetAttribute, Settings, State, Task, TaskStatus, TaskStep,
    Who, DLQ, DLQ_FIFO, EPOCH_MS, NAMES, NO_QUEUE, WORK, WORK_FIFO,
};
use crate::common::{Reply, Sqs};

type Check = Result<(), String>;

/// Fails with `what` unless `engine == model`.
fn same<T: PartialEq + std::fmt::Debug>(what: &str, engine: T, model: T) -> Check {
    if engine == model {
        Ok(())
    } else {
        Err(format!("{what}: engine {engine:?}, model {model:?}"))
    }
}

fn md5_hex(bytes: &[u8]) -> String {
    Md5::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// MD5OfMessageAttributes as sqs-facts describes it: names sorted; each of
/// name, type and value preceded by its 4-byte big-endian length; a
/// transport byte 1 (String, Number) before the value.
fn md5_of_attributes(attributes: &[Attribute]) -> String {
    let mut sorted: Vec<&Attribute> = attributes.iter().collect();
    sorted.sort();
    let mut bytes = Vec::new();
    let field = |bytes: &mut Vec<u8>, text: &str| {
        bytes.extend((text.len() as u32).to_be_bytes());
        bytes.extend(text.as_bytes());
    };
    for (name, data_type, value) in sorted {
        field(&mut bytes, name);
        field(&mut bytes, data_type);
        bytes.push(1);
        field(&mut bytes, value);
    }
    md5_hex(&bytes)
}

fn attributes_json(attributes: &[Attribute]) -> Value {
    let map: Map<String, Value> = attributes
        .iter()
        .map(|(name, data_type, value)| {
            (
                name.clone(),
                json!({ "DataType": data_type, "StringValue": value }),
            )
        })
        .collect();
    Value::Object(map)
}

/// Sequence numbers are large decimal strings: compare them as numbers.
fn sequence_order(a: &str, b: &str) -> std::cmp::Ordering {
    (a.len(), a).cmp(&(b.len(), b))
}

/// A batch answer's list; sqs-facts says an empty list is left out, the
/// protocol sends `[]` (reported, and wire.rs asserts `[]`): both read as
/// empty here, so the entries themselves are what is compared.
fn batch_list(body: &Value, key: &str) -> Vec<Value> {
    body[key].as_array().cloned().unwrap_or_default()
}

pub struct World {
    pub sqs: Sqs,
    pub model: Model,
    urls: Vec<String>,
    /// Model poll id -> engine poll id.
    polls: BTreeMap<usize, u64>,
    handles_seen: BTreeSet<String>,
    /// Sequence numbers by (message key, queue slot), learned.
    sequences: BTreeMap<(usize, usize), String>,
    last_sequence: Vec<Option<String>>,
    /// Engine move-task id -> model task index.
    tasks: BTreeMap<u64, usize>,
    bodies: usize,
    /// Sequence number of the first event not looked at yet.
    event_cursor: u64,
}

impl World {
    pub fn new() -> Self {
        let mut world = World {
            sqs: Sqs::new(),
            model: Model::new(),
            urls: Vec::new(),
            polls: BTreeMap::new(),
            handles_seen: BTreeSet::new(),
            sequences: BTreeMap::new(),
            last_sequence: vec![None; NAMES.len()],
            tasks: BTreeMap::new(),
            bodies: 0,
            event_cursor: 0,
        };
        // DLQs first: the work queues' redrive policies need them.
        let mut urls = vec![String::new(); NAMES.len()];
        for slot in [DLQ, DLQ_FIFO, WORK, WORK_FIFO] {
            urls[slot] = world
                .sqs
                .create(NAMES[slot], creation_attributes(slot))
                .to_string();
        }
        world.urls = urls;
        world.event_cursor = world.sqs.engine.next_event_seq();
        world
    }

    /// Applies `op` to both and compares everything.
    pub fn step(&mut self, op: &Op) -> Check {
        self.apply(op)?;
        // Task ends a call caused (cancel, queue deletion), checked.
        self.apply_task_events()?;
        self.compare_answered_polls()?;
        self.check_state()
    }

    fn apply(&mut self, op: &Op) -> Check {
        match op {
            Op::Send { queue, message } => self.send(*queue, message),
            Op::SendBatch {
                queue,
                entries,
                flaw,
            } => self.send_batch(*queue, entries, *flaw),
            Op::Receive(receive) => self.receive(receive),
            Op::Delete { pick } => self.delete(*pick),
            Op::DeleteBatch { picks, flaw } => self.delete_batch(picks, *flaw),
            Op::ChangeVisibility { pick, seconds } => self.change_visibility(*pick, *seconds),
            Op::ChangeVisibilityBatch { entries, flaw } => {
                self.change_visibility_batch(entries, *flaw)
            }
            Op::Purge { queue } => {
                let reply = self.call("PurgeQueue", json!({ "QueueUrl": self.urls[*queue] }));
                let model = self.model.purge(*queue);
                empty_answer(&reply, model)
            }
            Op::SetAttribute { queue, attribute } => self.set_attribute(*queue, attribute),
            Op::DeleteQueue { queue } => {
                let reply = self.call("DeleteQueue", json!({ "QueueUrl": self.urls[*queue] }));
                let model = self.model.delete_queue(*queue);
                empty_answer(&reply, model)
            }
            Op::CreateQueue { queue } => self.create_queue(*queue),
            Op::StartMoveTask {
                source,
                explicit_destination,
                rate,
            } => self.start_move_task(*source, *explicit_destination, *rate),
            Op::ListMoveTasks { source } => {
                let reply = self.call("ListMessageMoveTasks", json!({ "SourceArn": arn(*source) }));
                self.compare_move_tasks(*source, 1, &reply)
            }
            Op::CancelMoveTask { source, garbage } => self.cancel_move_task(*source, *garbage),
            Op::Advance(step) => self.advance(step),
            Op::SetPolicy { queue, rules } => {
                let policy = policy_text(*queue, rules);
                let reply = self.call(
                    "SetQueueAttributes",
                    json!({ "QueueUrl": self.urls[*queue], "Attributes": { "Policy": policy } }),
                );
                let model = self.model.set_policy(*queue, rules);
                empty_answer(&reply, model)
            }
            Op::SendAs {
                queue,
                caller,
                entries,
                batch,
            } => {
                self.model.caller = *caller;
                let checked = if *batch {
                    self.send_batch(*queue, entries, BatchFlaw::None)
                } else {
                    self.send(*queue, &entries[0])
                };
                self.model.caller = Caller::Owner;
                checked
            }
        }
    }

    /// A call that never waits, made as the model's current caller.
    fn call(&mut self, operation: &str, body: Value) -> Reply {
        match principal(self.model.caller) {
            None => self.sqs.call(operation, body),
            Some(by) => self.sqs.call_by(&by, operation, body),
        }
    }

    // ------------------------------------------------------------------
    // Send
    // ------------------------------------------------------------------

    fn next_body(&mut self) -> String {
        self.bodies += 1;
        format!("m{}", self.bodies)
    }

    /// The request member object and the model's view of one message.
    fn message(&mut self, slot: usize, spec: &MessageSpec) -> (Map<String, Value>, NewMessage) {
        let body = self.next_body();
        let fifo = is_fifo(slot);
        let group = (fifo || spec.standard_group).then(|| format!("g{}", spec.group));
        let dedup_id = fifo.then(|| format!("d{}", spec.dedup));
        let attributes: Vec<Attribute> = if spec.with_attributes {
            vec![
                ("kind".into(), "String".into(), format!("k{}", spec.group)),
                ("note.a".into(), "Number".into(), self.bodies.to_string()),
            ]
        } else {
            Vec::new()
        };
        let mut request = Map::new();
        request.insert("MessageBody".into(), json!(body));
        if let Some(group) = &group {
            request.insert("MessageGroupId".into(), json!(group));
        }
        if let Some(dedup_id) = &dedup_id {
            request.insert("MessageDeduplicationId".into(), json!(dedup_id));
        }
        if let Some(delay) = spec.delay {
            request.insert("DelaySeconds".into(), json!(delay));
        }
        if !attributes.is_empty() {
            request.insert("MessageAttributes".into(), attributes_json(&attributes));
        }
        let new = NewMessage {
            body,
            delay: spec.delay.map(u64::from),
            group,
            dedup_id,
            attributes,
        };
        (request, new)
    }

    fn send(&mut self, slot: usize, spec: &MessageSpec) -> Check {
        let (mut request, new) = self.message(slot, spec);
        request.insert("QueueUrl".into(), json!(self.urls[slot]));
        let reply = self.call("SendMessage", Value::Object(request));
        let model = self.model.send(slot, &new);
        match model {
            Ok(sent) => {
                let body = ok(&reply)?;
                self.compare_sent(slot, &new, sent, &body)
            }
            Err(error) => error_answer(&reply, &error),
        }
    }

    /// A send answer (or a batch's successful entry) against the model:
    /// a new message has a new id and a larger sequence number, a
    /// duplicate answers with the original's.
    fn compare_sent(&mut self, slot: usize, new: &NewMessage, sent: Sent, body: &Value) -> Check {
        let id = body["MessageId"].as_str().unwrap_or_default().to_string();
        let sequence = body["SequenceNumber"].as_str().map(str::to_string);
        let key = match sent {
            Sent::New(key) => {
                if self.model.key_of(&id).is_some() {
                    return Err(format!("a new message reuses the id {id}"));
                }
                self.model.ids[key] = Some(id.clone());
                self.model.learned_id(key);
                if let Some(sequence) = &sequence {
                    self.learn_sequence(slot, key, sequence)?;
                }
                key
            }
            Sent::Duplicate(key) => {
                same(
                    "a duplicate's MessageId",
                    Some(id.as_str()),
                    self.model.ids[key].as_deref(),
                )?;
                key
            }
        };
        let mut expected = json!({
            "MessageId": self.model.ids[key],
            "MD5OfMessageBody": md5_hex(new.body.as_bytes()),
        });
        if !new.attributes.is_empty() {
            expected["MD5OfMessageAttributes"] = json!(md5_of_attributes(&new.attributes));
        }
        if is_fifo(slot) {
            expected["SequenceNumber"] = json!(self.sequences.get(&(key, slot)));
        }
        let mut got = body.clone();
        if let Some(object) = got.as_object_mut() {
            object.remove("Id");
        }
        same("send answer", got, expected)
    }

    /// Records a sequence number seen for the first time: it must be larger
    /// than any this queue gave before.
    fn learn_sequence(&mut self, slot: usize, key: usize, sequence: &str) -> Check {
        if let Some(known) = self.sequences.get(&(key, slot)) {
            return same("SequenceNumber", sequence, known.as_str());
        }
        if let Some(last) = &self.last_sequence[slot] {
            if sequence_order(sequence, last).is_le() {
                return Err(format!(
                    "{}: sequence number {sequence} after {last}",
                    NAMES[slot]
                ));
            }
        }
        self.last_sequence[slot] = Some(sequence.to_string());
        self.sequences.insert((key, slot), sequence.to_string());
        Ok(())
    }

    fn send_batch(&mut self, slot: usize, specs: &[MessageSpec], flaw: BatchFlaw) -> Check {
        let messages: Vec<(Map<String, Value>, NewMessage)> =
            specs.iter().map(|spec| self.message(slot, spec)).collect();
        let mut entries = Vec::new();
        let mut news = Vec::new();
        for (id, i) in layout(messages.len(), flaw) {
            let mut entry = messages[i].0.clone();
            entry.insert("Id".into(), json!(id));
            entries.push(Value::Object(entry));
            news.push((id, messages[i].1.clone()));
        }
        let reply = self.call(
            "SendMessageBatch",
            json!({ "QueueUrl": self.urls[slot], "Entries": entries }),
        );
        match self.model.send_batch(slot, &news) {
            Err(error) => error_answer(&reply, &error),
            Ok(results) => {
                let body = ok(&reply)?;
                compare_failed(&body, &results)?;
                let successful = batch_list(&body, "Successful");
                let expected: Vec<(&String, &Sent)> = results
                    .iter()
                    .filter_map(|(id, r)| r.as_ref().ok().map(|s| (id, s)))
                    .collect();
                same("successful entries", successful.len(), expected.len())?;
                for (got, (id, sent)) in successful.iter().zip(expected) {
                    same("entry Id", got["Id"].as_str(), Some(id.as_str()))?;
                    let new = &news.iter().find(|(i, _)| i == id).expect("entry").1;
                    self.compare_sent(slot, new, *sent, got)?;
                }
                Ok(())
            }
        }
    }

    // ------------------------------------------------------------------
    // Receive
    // ------------------------------------------------------------------

    fn receive(&mut self, op: &ReceiveOp) -> Check {
        let slot = op.queue;
        // A retry carries the same request, so the same visibility timeout.
        let visibility = match op.attempt {
            Some(0) => Some(1),
            Some(_) => Some(400),
            None => op.visibility,
        };
        let mut request = json!({ "QueueUrl": self.urls[slot] });
        let put = |request: &mut Value, key: &str, value: Option<i64>| {
            if let Some(value) = value {
                request[key] = json!(value);
            }
        };
        put(&mut request, "MaxNumberOfMessages", op.max);
        put(&mut request, "VisibilityTimeout", visibility);
        put(&mut request, "WaitTimeSeconds", op.wait);
        let system: Vec<String> = match op.system {
            SystemNames::None => vec![],
            SystemNames::All | SystemNames::LegacyAll => vec!["All".into()],
            SystemNames::Some => [
                "ApproximateReceiveCount",
                "DeadLetterQueueSourceArn",
                "MessageGroupId",
                "SequenceNumber",
            ]
            .map(String::from)
            .to_vec(),
        };
        let member = match op.system {
            SystemNames::LegacyAll => "AttributeNames",
            _ => "MessageSystemAttributeNames",
        };
        if !system.is_empty() {
            request[member] = json!(system);
        }
        let attribute_names: Vec<String> = match op.attributes {
            AttributeNames::None => vec![],
            AttributeNames::All => vec!["All".into()],
            AttributeNames::Star => vec!["*".into()],
            AttributeNames::Exact => vec!["kind".into()],
            AttributeNames::Prefix => vec!["note.*".into()],
        };
        if !attribute_names.is_empty() {
            request["MessageAttributeNames"] = json!(attribute_names);
        }
        let attempt = op.attempt.map(|a| format!("attempt-{a}"));
        if let Some(attempt) = &attempt {
            request["ReceiveRequestAttemptId"] = json!(attempt);
        }
        let engine = self.sqs.start("ReceiveMessage", request);
        let before = self.model.clone();
        let model = self
            .model
            .check_receive(slot, op.max, visibility, op.wait)
            .and_then(|()| {
                let spec = ReceiveSpec {
                    max: op.max.unwrap_or(1) as usize,
                    visibility: visibility.map(|v| v as u64),
                    wait_ms: self.model.wait_ms(slot, op.wait.map(|w| w as u64)),
                    system_names: system,
                    attribute_names,
                    attempt,
                };
                self.model.receive(slot, &spec)
            });
        match (engine, model) {
            (Ok(reply), Err(error)) => error_answer(&reply, &error),
            (Ok(reply), Ok(Ok(delivered))) => {
                fifo_order_holds(&before, &self.model, slot, &delivered)?;
                self.compare_messages(&reply, &delivered)
            }
            (Err(poll), Ok(Err(model_poll))) => {
                self.polls.insert(model_poll, poll);
                Ok(())
            }
            (Err(_), _) => Err("the engine waits, the model answers".into()),
            (Ok(reply), Ok(Err(_))) => Err(format!(
                "the model waits, the engine answered {}",
                reply.body
            )),
        }
    }

    /// A receive answer against the model's deliveries, learning handles
    /// (each new) and sequence numbers.
    fn compare_messages(&mut self, reply: &Reply, delivered: &[Delivered]) -> Check {
        let body = ok(reply)?;
        let got = reply.messages();
        let bodies = |messages: &[Value]| -> Vec<String> {
            messages
                .iter()
                .map(|m| m["Body"].as_str().unwrap_or_default().to_string())
                .collect()
        };
        let expected_bodies: Vec<String> = delivered.iter().map(|d| d.body.clone()).collect();
        same("received bodies", bodies(&got), expected_bodies)?;
        if delivered.is_empty() {
            return same("empty receive", body, json!({}));
        }
        for (message, d) in got.iter().zip(delivered) {
            let handle = message["ReceiptHandle"].as_str().unwrap_or_default();
            self.learn_handle(d.handle, handle)?;
            let expected = self.expected_message(d, message)?;
            same("received message", message.clone(), expected)?;
        }
        Ok(())
    }

    fn learn_handle(&mut self, index: usize, text: &str) -> Check {
        match &self.model.handles[index].text {
            Some(known) => same("replayed receipt handle", text, known.as_str()),
            None => {
                if !self.handles_seen.insert(text.to_string()) {
                    return Err(format!("receipt handle {text} issued twice"));
                }
                self.model.handles[index].text = Some(text.to_string());
                Ok(())
            }
        }
    }

    /// What the model says `got` (the engine's message) should be.
    fn expected_message(&mut self, d: &Delivered, got: &Value) -> Result<Value, String> {
        let mut attributes: Map<String, Value> = d
            .attributes
            .iter()
            .map(|(name, value)| (name.to_string(), json!(value)))
            .collect();
        if d.wants_sequence {
            let sequence = match self.sequences.get(&(d.key, d.slot)) {
                Some(known) => known.clone(),
                None => {
                    // First seen in this answer (a message that just arrived
                    // by a dead-letter move or a redrive, and may be gone
                    // again before any snapshot): taken as given; snapshots
                    // check its order among the queue's messages.
                    let given = got["Attributes"]["SequenceNumber"]
                        .as_str()
                        .ok_or("no SequenceNumber in a FIFO receive asking for it")?
                        .to_string();
                    self.sequences.insert((d.key, d.slot), given.clone());
                    given
                }
            };
            attributes.insert("SequenceNumber".into(), json!(sequence));
        }
        if d.dedup_is_id {
            attributes.insert(
                "MessageDeduplicationId".into(),
                json!(self.model.ids[d.key]),
            );
        }
        let handle = self.model.handles[d.handle].text.clone();
        let mut expected = json!({
            "MessageId": self.model.ids[d.key],
            "ReceiptHandle": handle,
            "MD5OfBody": md5_hex(d.body.as_bytes()),
            "Body": d.body,
        });
        if !attributes.is_empty() {
            expected["Attributes"] = Value::Object(attributes);
        }
        if !d.message_attributes.is_empty() {
            expected["MessageAttributes"] = attributes_json(&d.message_attributes);
            expected["MD5OfMessageAttributes"] = json!(md5_of_attributes(&d.message_attributes));
        }
        Ok(expected)
    }

    /// Long polls the engine answered since the last look, against the
    /// model's. Which polls, and what each got, must agree; the order of
    /// answers is compared by poll id, since polls on different queues
    /// answered at one instant have no order a caller could see.
    fn compare_answered_polls(&mut self) -> Check {
        let mut engine = self.sqs.answered();
        engine.sort_by_key(|(id, _)| *id);
        let mut model: Vec<(Option<u64>, Answer<Vec<Delivered>>)> =
            std::mem::take(&mut self.model.answered)
                .into_iter()
                .map(|(id, answer)| (self.polls.remove(&id), answer))
                .collect();
        model.sort_by_key(|(id, _)| *id);
        let engine_ids: Vec<Option<u64>> = engine.iter().map(|(id, _)| Some(*id)).collect();
        let model_ids: Vec<Option<u64>> = model.iter().map(|(id, _)| *id).collect();
        same("answered polls", engine_ids, model_ids)?;
        for ((_, reply), (_, answer)) in engine.iter().zip(model) {
            match answer {
                Ok(delivered) => self.compare_messages(reply, &delivered)?,
                Err(error) => error_answer(reply, &error)?,
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------------
    // Delete, change visibility
    // ------------------------------------------------------------------

    /// The handle text to send and the model's view of it.
    fn handle(&self, pick: Pick) -> (usize, String, Option<usize>) {
        let handles = &self.model.handles;
        let index = match pick {
            Pick::Recent(n) => handles.len().checked_sub(1 + usize::from(n)),
            Pick::Issued(n) => Some(usize::from(n) % handles.len().max(1)),
            Pick::Garbage => None,
        };
        match index.filter(|i| *i < handles.len()) {
            Some(index) => {
                let record = &handles[index];
                let text = record.text.clone().expect("handles are learned at once");
                (record.slot, text, Some(index))
            }
            None => (WORK, "AQEBnot-a-handle".to_string(), None),
        }
    }

    fn delete(&mut self, pick: Pick) -> Check {
        let (slot, text, handle) = self.handle(pick);
        let reply = self.call(
            "DeleteMessage",
            json!({ "QueueUrl": self.urls[slot], "ReceiptHandle": text }),
        );
        let model = self.model.delete(slot, handle);
        empty_answer(&reply, model)
    }

    /// Batch entries go to the queue of the first handle.
    fn delete_batch(&mut self, picks: &[Pick], flaw: BatchFlaw) -> Check {
        let slot = self.handle(picks[0]).0;
        let mut entries = Vec::new();
        let mut model_entries = Vec::new();
        for (id, i) in layout(picks.len(), flaw) {
            let (_, text, handle) = self.handle(picks[i]);
            entries.push(json!({ "Id": id, "ReceiptHandle": text }));
            model_entries.push((id, handle));
        }
        let reply = self.call(
            "DeleteMessageBatch",
            json!({ "QueueUrl": self.urls[slot], "Entries": entries }),
        );
        let model = self.model.delete_batch(slot, &model_entries);
        batch_answer(&reply, model)
    }

    fn change_visibility(&mut self, pick: Pick, seconds: i64) -> Check {
        let (slot, text, handle) = self.handle(pick);
        let seconds = in_range_unless_garbage(handle, seconds);
        let reply = self.call(
            "ChangeMessageVisibility",
            json!({ "QueueUrl": self.urls[slot], "ReceiptHandle": text,
                    "VisibilityTimeout": seconds }),
        );
        let model = self.model.change_visibility(slot, handle, seconds);
        empty_answer(&reply, model)
    }

    fn change_visibility_batch(&mut self, picks: &[(Pick, i64)], flaw: BatchFlaw) -> Check {
        let slot = self.handle(picks[0].0).0;
        let mut entries = Vec::new();
        let mut model_entries = Vec::new();
        for (id, i) in layout(picks.len(), flaw) {
            let (pick, seconds) = picks[i];
            let (_, text, handle) = self.handle(pick);
            let seconds = in_range_unless_garbage(handle, seconds);
            entries.push(json!({ "Id": id, "ReceiptHandle": text, "VisibilityTimeout": seconds }));
            model_entries.push((id, handle, seconds));
        }
        let reply = self.call(
            "ChangeMessageVisibilityBatch",
            json!({ "QueueUrl": self.urls[slot], "Entries": entries }),
        );
        let model = self.model.change_visibility_batch(slot, &model_entries);
        batch_answer(&reply, model)
    }

    // ------------------------------------------------------------------
    // Queues
    // ------------------------------------------------------------------

    fn set_attribute(&mut self, slot: usize, attribute: &super::ops::Attribute) -> Check {
        use super::ops::Attribute as A;
        let policy = |target: usize, max: i64| {
            json!({ "deadLetterTargetArn": arn(target), "maxReceiveCount": max }).to_string()
        };
        let other_type = if is_fifo(slot) { DLQ } else { DLQ_FIFO };
        let (name, value, model) = match *attribute {
            A::VisibilityTimeout(v) => (
                "VisibilityTimeout",
                v.to_string(),
                SetAttribute::VisibilityTimeout(v),
            ),
            // FIFO queues apply a changed delay to messages already waiting
            // (AWS docs), which sqs-facts does not record: only standard queues here.
            A::DelaySeconds(_) if is_fifo(slot) => return Ok(()),
            A::DelaySeconds(v) => ("DelaySeconds", v.to_string(), SetAttribute::DelaySeconds(v)),
            A::MessageRetentionPeriod(v) => (
                "MessageRetentionPeriod",
                v.to_string(),
                SetAttribute::MessageRetentionPeriod(v),
            ),
            A::ReceiveMessageWaitTimeSeconds(v) => (
                "ReceiveMessageWaitTimeSeconds",
                v.to_string(),
                SetAttribute::ReceiveMessageWaitTimeSeconds(v),
            ),
            // Redrive policies go on the work queues only: a DLQ that had
            // its own DLQ would make chains this world does not need.
            A::Redrive(_) | A::RedriveToOtherType | A::NoRedrive if slot >= DLQ => return Ok(()),
            A::Redrive(max) => {
                let target = dead_letter_slot(slot);
                (
                    "RedrivePolicy",
                    policy(target, max),
                    SetAttribute::RedrivePolicy(Some((target, max))),
                )
            }
            A::RedriveToOtherType => (
                "RedrivePolicy",
                policy(other_type, 2),
                SetAttribute::RedrivePolicy(Some((other_type, 2))),
            ),
            A::NoRedrive => (
                "RedrivePolicy",
                String::new(),
                SetAttribute::RedrivePolicy(None),
            ),
        };
        let reply = self.call(
            "SetQueueAttributes",
            json!({ "QueueUrl": self.urls[slot], "Attributes": { name: value } }),
        );
        let model = self.model.set_attribute(slot, &model);
        empty_answer(&reply, model)
    }

    fn create_queue(&mut self, slot: usize) -> Check {
        let reply = self.call(
            "CreateQueue",
            json!({ "QueueName": NAMES[slot], "Attributes": creation_attributes(slot) }),
        );
        let incarnation = self.model.queues[slot].incarnation;
        let created = self.model.create_queue(slot);
        if self.model.queues[slot].incarnation != incarnation {
            // A new queue: its sequence numbers start afresh.
            self.last_sequence[slot] = None;
        }
        match created {
            Ok(()) => same(
                "CreateQueue answer",
                ok(&reply)?,
                json!({ "QueueUrl": self.urls[slot] }),
            ),
            Err(error) => error_answer(&reply, &error),
        }
    }

    // ------------------------------------------------------------------
    // Move tasks
    // ------------------------------------------------------------------

    fn start_move_task(&mut self, source: usize, explicit: bool, rate: Option<i64>) -> Check {
        let destination = match source {
            DLQ if explicit => Some(WORK),
            DLQ_FIFO if explicit => Some(WORK_FIFO),
            _ => None,
        };
        let mut request = json!({ "SourceArn": arn(source) });
        if let Some(d) = destination {
            request["DestinationArn"] = json!(arn(d));
        }
        if let Some(rate) = rate {
            request["MaxNumberOfMessagesPerSecond"] = json!(rate);
        }
        let reply = self.call("StartMessageMoveTask", request);
        match self
            .model
            .start_move_task(source, destination, rate.map(|r| r as u64))
        {
            Err(error) => error_answer(&reply, &error),
            Ok(task) => {
                let body = ok(&reply)?;
                let handle = body["TaskHandle"].as_str().unwrap_or_default().to_string();
                if handle.is_empty()
                    || self
                        .model
                        .tasks
                        .iter()
                        .any(|t| t.handle == Some(handle.clone()))
                {
                    return Err(format!("StartMessageMoveTask answered {body}"));
                }
                self.model.tasks[task].handle = Some(handle);
                let started = self.new_events().find_map(|e| match e.kind {
                    EventKind::MoveTaskStarted { task, .. } => Some(task),
                    _ => None,
                });
                let id = started.ok_or("no MoveTaskStarted event")?;
                self.tasks.insert(id, task);
                Ok(())
            }
        }
    }

    fn cancel_move_task(&mut self, source: usize, garbage: bool) -> Check {
        let newest = self.model.tasks.iter().rposition(|t| t.source == source);
        let task = newest.filter(|_| !garbage);
        let handle = task
            .and_then(|t| self.model.tasks[t].handle.clone())
            .unwrap_or_else(|| "not-a-task-handle".into());
        let reply = self.call("CancelMessageMoveTask", json!({ "TaskHandle": handle }));
        match self.model.cancel_move_task(task) {
            Err(error) => error_answer(&reply, &error),
            Ok(moved) => same(
                "CancelMessageMoveTask answer",
                ok(&reply)?,
                json!({ "ApproximateNumberOfMessagesMoved": moved }),
            ),
        }
    }

    /// Events since the last look (`events(n)` lists those after `n`; the
    /// set-up's queue creations make the cursor at least 1).
    fn new_events(&self) -> impl Iterator<Item = &queuelab_engine::Event> {
        self.sqs.engine.events(self.event_cursor - 1)
    }

    /// What the engine's log says tasks did since the last look.
    fn task_steps(&mut self) -> Result<Vec<TaskStep>, String> {
        let slot_of = |name: &str| NAMES.iter().position(|n| *n == name);
        let mut steps = Vec::new();
        let events: Vec<queuelab_engine::Event> = self.new_events().cloned().collect();
        for event in &events {
            match &event.kind {
                EventKind::Redriven {
                    queue,
                    message_id,
                    new_message_id,
                    ..
                } => steps.push(TaskStep::Moved {
                    at: event.time_ms,
                    source: slot_of(queue).ok_or("redriven from an unknown queue")?,
                    message_id: message_id.to_string(),
                    new_message_id: new_message_id.to_string(),
                }),
                EventKind::MoveTaskEnded {
                    task,
                    status,
                    moved,
                    ..
                } => steps.push(TaskStep::Ended {
                    at: event.time_ms,
                    task: *self.tasks.get(task).ok_or("an unknown task ended")?,
                    status: status.to_string(),
                    moved: *moved,
                }),
                _ => {}
            }
        }
        self.event_cursor = self.sqs.engine.next_event_seq();
        Ok(steps)
    }

    /// Applies what tasks did since the last look, at the current moment,
    /// and lets the model settle: whatever is due now has happened, so an
    /// engine that leaves something due undone after a call shows up.
    fn apply_task_events(&mut self) -> Check {
        let steps = self.task_steps()?;
        self.model.advance(0, &steps)
    }

    fn advance(&mut self, step: &Step) -> Check {
        let now = self.model.now;
        // The nth of `moments`, moved by `offset` ms (never into the past).
        let near = |moments: Vec<u64>, nth: u8, offset: i8| match moments
            .get(usize::from(nth) % moments.len().max(1))
        {
            Some(d) => d.saturating_add_signed(i64::from(offset)).max(now) - now,
            None => 500,
        };
        let ms = match *step {
            Step::ToTimer { nth, offset } => near(self.model.timers(), nth, offset),
            Step::ToDeadline { nth, offset } => near(self.model.deadlines(), nth, offset),
            Step::ToWindow { nth, offset } => near(self.model.windows(), nth, offset),
            Step::Small(ms) => u64::from(ms),
            Step::Large(ms) => u64::from(ms),
        };
        self.sqs.advance(ms);
        let steps = self.task_steps()?;
        self.model.advance(ms, &steps)
    }

    // ------------------------------------------------------------------
    // State after every call
    // ------------------------------------------------------------------

    fn check_state(&mut self) -> Check {
        let snapshot = self.sqs.engine.snapshot();
        same("time", snapshot.time_ms, self.model.now)?;
        same(
            "waiting polls",
            snapshot.waiting_polls,
            self.model.polls.len(),
        )?;
        let mut names: Vec<&str> = (0..NAMES.len())
            .filter(|s| self.model.queues[*s].exists)
            .map(|s| NAMES[s])
            .collect();
        names.sort_unstable();
        let engine_names: Vec<&str> = snapshot.queues.iter().map(|q| q.name.as_str()).collect();
        same("queues", engine_names, names)?;
        for queue in &snapshot.queues {
            let slot = NAMES.iter().position(|n| *n == queue.name).expect("known");
            self.compare_queue(slot, queue)
                .map_err(|e| format!("{}: {e}", queue.name))?;
            self.compare_queue_attributes(slot)
                .map_err(|e| format!("{} attributes: {e}", queue.name))?;
        }
        for slot in 0..NAMES.len() {
            let reply = self.call(
                "ListMessageMoveTasks",
                json!({ "SourceArn": arn(slot), "MaxResults": 10 }),
            );
            self.compare_move_tasks(slot, 10, &reply)?;
        }
        if let Some(task) = self.model.overdue_task() {
            return Err(format!("a move task should have finished by now: {task:?}"));
        }
        Ok(())
    }

    fn compare_queue(&mut self, slot: usize, queue: &QueueSnapshot) -> Check {
        let settings = &self.model.queues[slot].settings;
        same(
            "settings",
            (
                u64::from(queue.visibility_timeout_seconds),
                u64::from(queue.delay_seconds),
                u64::from(queue.message_retention_period_seconds),
                queue.dead_letter_target_arn.clone(),
                queue.max_receive_count,
            ),
            (
                settings.visibility_timeout,
                settings.delay,
                settings.retention,
                settings.redrive.map(|(t, _)| arn(t)),
                settings.redrive.map(|(_, m)| i64::from(m)),
            ),
        )?;
        let count = self.model.queues[slot].messages.len();
        same("number of messages", queue.messages.len(), count)?;
        for i in 0..count {
            self.compare_message(slot, i, &queue.messages[i])
                .map_err(|e| format!("message {}: {e}", queue.messages[i].body))?;
        }
        let model = &self.model.queues[slot];
        same(
            "visible, in flight, delayed",
            (queue.visible, queue.in_flight, queue.delayed),
            counts(model),
        )?;
        same(
            "oldest enqueued",
            queue.oldest_enqueued_at,
            model.messages.iter().map(|m| m.enqueued_at).min(),
        )?;
        // Groups, and which are locked: the model's own derivation.
        let mut groups: Vec<(String, bool, usize)> = model
            .groups()
            .into_iter()
            .map(|g| {
                let size = model
                    .messages
                    .iter()
                    .filter(|m| m.group.as_deref() == Some(g.as_str()))
                    .count();
                (g.clone(), model.locked(&g), size)
            })
            .filter(|_| is_fifo(slot))
            .collect();
        groups.sort();
        let engine_groups: Vec<(String, bool, usize)> = queue
            .groups
            .iter()
            .map(|g| (g.group.clone(), g.locked, g.messages))
            .collect();
        same("groups (name, locked, size)", engine_groups, groups)?;
        if is_fifo(slot) {
            let sequences: Vec<&String> = queue
                .messages
                .iter()
                .filter_map(|m| m.sequence_number.as_ref())
                .collect();
            if sequences
                .windows(2)
                .any(|w| sequence_order(w[0], w[1]).is_ge())
            {
                return Err(format!("sequence numbers out of order: {sequences:?}"));
            }
        }
        Ok(())
    }

    fn compare_message(&mut self, slot: usize, i: usize, engine: &MessageSnapshot) -> Check {
        let message = &self.model.queues[slot].messages[i];
        // The unsettled case: an expired standard handle's visibility change.
        if let Some(until) = message.unsettled_until {
            if engine.state == "in-flight" && engine.visible_at == Some(until) {
                self.model.hide_unsettled(slot, i);
            } else {
                self.model.queues[slot].messages[i].unsettled_until = None;
            }
        }
        let message = &self.model.queues[slot].messages[i];
        let (state, at) = match message.state {
            State::Delayed { until } => ("delayed", Some(until)),
            State::Visible => ("visible", None),
            State::InFlight { until } => ("in-flight", Some(until)),
        };
        same(
            "id",
            Some(engine.message_id.to_string()),
            self.model.ids[message.key].clone(),
        )?;
        // A snapshot carries the body's first KiB and its length.
        same(
            "body",
            (
                engine.body.as_str(),
                engine.body_truncated,
                engine.body_bytes,
            ),
            {
                let (preview, cut) = queuelab_engine::body_preview(&message.body);
                (preview, cut, message.body.len())
            },
        )?;
        same(
            "state and deadline",
            (engine.state, engine.visible_at),
            (state, at),
        )?;
        same("group", engine.group.as_deref(), message.group.as_deref())?;
        same("receive count", engine.receive_count, message.receive_count)?;
        same("sent at", engine.sent_at, message.sent_at)?;
        same(
            "dead-letter source",
            engine.dead_letter_source_arn.clone(),
            message.dead_letter_source.map(arn),
        )?;
        let handle = message
            .last_handle
            .and_then(|h| self.model.handles[h].text.clone());
        same(
            "current receipt handle",
            engine.receipt_handle.clone(),
            handle,
        )?;
        same("holder", engine.holder.as_deref(), None)?;
        let key = message.key;
        match (&engine.sequence_number, is_fifo(slot)) {
            (Some(sequence), true) => self.learn_sequence(slot, key, sequence),
            (None, false) => Ok(()),
            (got, _) => Err(format!("sequence number {got:?} on {}", NAMES[slot])),
        }
    }

    /// GetQueueAttributes, the documented way to read counts and settings.
    fn compare_queue_attributes(&mut self, slot: usize) -> Check {
        let reply = self.call(
            "GetQueueAttributes",
            json!({ "QueueUrl": self.urls[slot], "AttributeNames": ["All"] }),
        );
        let body = ok(&reply)?;
        let attributes = &body["Attributes"];
        let model = &self.model.queues[slot];
        let (visible, in_flight, delayed) = counts(model);
        let settings = &model.settings;
        let mut expected = json!({
            "ApproximateNumberOfMessages": visible.to_string(),
            "ApproximateNumberOfMessagesNotVisible": in_flight.to_string(),
            "ApproximateNumberOfMessagesDelayed": delayed.to_string(),
            "VisibilityTimeout": settings.visibility_timeout.to_string(),
            "DelaySeconds": settings.delay.to_string(),
            "MessageRetentionPeriod": settings.retention.to_string(),
            "ReceiveMessageWaitTimeSeconds": settings.wait.to_string(),
            "QueueArn": arn(slot),
        });
        if is_fifo(slot) {
            expected["FifoQueue"] = json!("true");
        }
        let mut got = Map::new();
        for key in expected.as_object().expect("object").keys() {
            got.insert(key.clone(), attributes[key].clone());
        }
        same("attributes", Value::Object(got), expected)?;
        let policy: Option<Value> = attributes["RedrivePolicy"]
            .as_str()
            .map(|p| serde_json::from_str(p).unwrap_or(Value::Null));
        let expected_policy = settings
            .redrive
            .map(|(t, m)| json!({ "deadLetterTargetArn": arn(t), "maxReceiveCount": m }));
        same("RedrivePolicy", policy, expected_policy)
    }

    fn compare_move_tasks(&mut self, slot: usize, max: usize, reply: &Reply) -> Check {
        let tasks: Vec<Task> = match self.model.list_move_tasks(slot, max) {
            Err(error) => return error_answer(reply, &error),
            Ok(tasks) => tasks.into_iter().cloned().collect(),
        };
        let expected: Vec<Value> = tasks.iter().map(task_json).collect();
        same(
            &format!("move tasks of {}", NAMES[slot]),
            ok(reply)?,
            json!({ "Results": expected }),
        )
    }
}

fn task_json(task: &Task) -> Value {
    let mut out = json!({
        "Status": task.status.as_str(),
        "SourceArn": arn(task.source),
        "ApproximateNumberOfMessagesMoved": task.moved,
        "ApproximateNumberOfMessagesToMove": task.to_move,
        "StartedTimestamp": EPOCH_MS + task.started,
    });
    if task.status == TaskStatus::Running {
        out["TaskHandle"] = json!(task.handle);
    }
    if let Some(d) = task.destination {
        out["DestinationArn"] = json!(arn(d));
    }
    if let Some(rate) = task.rate {
        out["MaxNumberOfMessagesPerSecond"] = json!(rate);
    }
    if let Some(reason) = task.failure {
        out["FailureReason"] = json!(reason);
    }
    out
}

/// (visible, in flight, delayed): FIFO messages behind a locked group count as visible.
fn counts(queue: &super::reference::Queue) -> (usize, usize, usize) {
    (
        queue.count(|s| *s == State::Visible),
        queue.count(|s| matches!(s, State::InFlight { .. })),
        queue.count(|s| matches!(s, State::Delayed { .. })),
    )
}

/// The attributes a queue is created with (and re-created with).
fn creation_attributes(slot: usize) -> Value {
    let settings = Settings::initial(slot);
    let mut attributes = json!({
        "VisibilityTimeout": settings.visibility_timeout.to_string(),
        "MessageRetentionPeriod": settings.retention.to_string(),
    });
    if is_fifo(slot) {
        attributes["FifoQueue"] = json!("true");
    }
    if let Some((target, max)) = settings.redrive {
        attributes["RedrivePolicy"] = json!(
            json!({ "deadLetterTargetArn": arn(target), "maxReceiveCount": max }).to_string()
        );
    }
    attributes
}

/// A garbage handle goes with a timeout in range: which of two bad
/// parameters SQS reports first is not recorded.
fn in_range_unless_garbage(handle: Option<usize>, seconds: i64) -> i64 {
    if handle.is_none() {
        seconds.min(30)
    } else {
        seconds
    }
}

/// Which generated entry each request entry is, with its Id: a
/// well-formed batch has each entry once; a flawed one is empty, eleven
/// entries long, or repeats the first entry's Id.
fn layout(n: usize, flaw: BatchFlaw) -> Vec<(String, usize)> {
    let id = |i: usize| format!("e{i}");
    match flaw {
        BatchFlaw::None => (0..n).map(|i| (id(i), i)).collect(),
        BatchFlaw::Empty => Vec::new(),
        BatchFlaw::Eleven => (0..11).map(|i| (id(i), i % n)).collect(),
        BatchFlaw::RepeatedId => (0..n).map(|i| (id(i), i)).chain([(id(0), 0)]).collect(),
    }
}

fn ok(reply: &Reply) -> Result<Value, String> {
    if reply.status == 200 {
        Ok(reply.body.clone())
    } else {
        Err(format!(
            "engine refused ({} {}): {}",
            reply.status,
            reply.code(),
            reply.body
        ))
    }
}

fn error_answer(reply: &Reply, error: &ApiError) -> Check {
    same(
        "error answer (status, code)",
        (reply.status, reply.code()),
        (error.status(), error.0),
    )?;
    if error.0 == NO_QUEUE {
        same(
            "error message",
            reply.message(),
            "The specified queue does not exist.",
        )?;
    }
    Ok(())
}

const TOPIC: &str = "arn:aws:sns:us-east-1:111111111111:orders-topic";
const ALICE: &str = "arn:aws:iam::111111111111:user/alice";

/// The principal a model caller calls as (`None`: the owner).
fn principal(caller: Caller) -> Option<Principal> {
    let topic =
        |arn: &str| Principal::service("sns.amazonaws.com", Some(arn), Some("111111111111"));
    let made = match caller {
        Caller::Owner => return None,
        Caller::Partner => Principal::account("111111111111"),
        Caller::PartnerUser => Principal::account(ALICE),
        Caller::Stranger => Principal::account("222222222222"),
        Caller::Topic => topic(TOPIC),
        Caller::OtherTopic => topic("arn:aws:sns:us-east-1:111111111111:other"),
    };
    Some(made.expect("the model's principals are valid"))
}

/// The policy text of the model's rules on `slot` ("" clears the policy).
fn policy_text(slot: usize, rules: &[Rule]) -> String {
    if rules.is_empty() {
        return String::new();
    }
    let statements: Vec<Value> = rules
        .iter()
        .enumerate()
        .map(|(i, rule)| {
            let action = match rule.actions {
                Actions::Send => "sqs:SendMessage",
                Actions::SendWildcard => "sqs:Send*",
                Actions::Receive => "sqs:ReceiveMessage",
                Actions::All => "sqs:*",
            };
            let mut s = json!({ "Sid": format!("r{i}"),
                "Effect": if rule.allow { "Allow" } else { "Deny" },
                "Action": action, "Resource": arn(slot) });
            s["Principal"] = match rule.who {
                Who::Anyone => json!("*"),
                Who::Partner => json!({ "AWS": "111111111111" }),
                Who::PartnerUser => json!({ "AWS": ALICE }),
                Who::Topic => {
                    s["Condition"] = json!({ "ArnEquals": { "aws:SourceArn": TOPIC } });
                    json!({ "Service": "sns.amazonaws.com" })
                }
            };
            s
        })
        .collect();
    json!({ "Version": "2012-10-17", "Statement": statements }).to_string()
}

/// An answer that is `{}` on success.
fn empty_answer(reply: &Reply, model: Answer<()>) -> Check {
    match model {
        Ok(()) => same("answer", ok(reply)?, json!({})),
        Err(error) => error_answer(reply, &error),
    }
}

/// A delete or change-visibility batch: the whole call, then each entry.
fn batch_answer(reply: &Reply, model: Answer<Vec<(String, Answer<()>)>>) -> Check {
    let results = match model {
        Err(error) => return error_answer(reply, &error),
        Ok(results) => results,
    };
    let body = ok(reply)?;
    compare_failed(&body, &results)?;
    let expected: Vec<Value> = results
        .iter()
        .filter(|(_, r)| r.is_ok())
        .map(|(id, _)| json!({ "Id": id }))
        .collect();
    same(
        "successful entries",
        batch_list(&body, "Successful"),
        expected,
    )
}

/// Failed entries: ids, codes and sender fault, in entry order.
fn compare_failed<T>(body: &Value, results: &[(String, Answer<T>)]) -> Check {
    let got: Vec<(Value, Value, Value)> = batch_list(body, "Failed")
        .iter()
        .map(|f| (f["Id"].clone(), f["Code"].clone(), f["SenderFault"].clone()))
        .collect();
    let expected: Vec<(Value, Value, Value)> = results
        .iter()
        .filter_map(|(id, r)| {
            r.as_ref()
                .err()
                .map(|e| (json!(id), json!(e.0), json!(true)))
        })
        .collect();
    same("failed entries (id, code, sender fault)", got, expected)
}

/// The order promise of FIFO queues, checked on its own: no message is
/// returned while an earlier message of its group waits (in flight, or
/// visible and not returned before it in the same answer). Earlier messages
/// this very receive moved to the DLQ are gone, not waiting.
fn fifo_order_holds(before: &Model, after: &Model, slot: usize, delivered: &[Delivered]) -> Check {
    if !is_fifo(slot) {
        return Ok(());
    }
    let queue = &before.queues[slot];
    for (n, d) in delivered.iter().enumerate() {
        let Some(at) = queue.messages.iter().position(|m| m.key == d.key) else {
            continue;
        };
        let group = &queue.messages[at].group;
        for earlier in queue.messages[..at].iter().filter(|m| m.group == *group) {
            let returned_before = delivered[..n].iter().any(|x| x.key == earlier.key);
            let moved = after.queues[slot]
                .messages
                .iter()
                .all(|m| m.key != earlier.key);
            if !returned_before && !moved {
                return Err(format!(
                    "{} returned while {} of its group waits ahead of it",
                    d.body, earlier.body
                ));
            }
        }
    }
    Ok(())
}
