//! The engine calls actors and workers make, each as a [`Principal`]
//! through the engine's gate (`Engine::call`): the queues' owner under the
//! actor's name, or another account (a scenario's `account`) under it.
//! The typed API's shorthands call only as the owner.

use queuelab_engine::{
    BatchResult, Engine, NewMessage, Principal, QueueAttribute, ReceiveMessage, ReceiveOutcome,
    Request, Response, SendMessage, SendResult, SqsResult,
};

/// Who an actor named `name` calls as: the owner, or the scenario's
/// `account` (checked by `Scenario::validate`; a refusal says what was
/// expected), named `name` in the log either way.
pub(crate) fn principal_of(name: &str, account: Option<&str>) -> Result<Principal, String> {
    Ok(match account {
        None => Principal::caller(Some(name)),
        Some(account) => Principal::account(account)?.named(name),
    })
}

pub(crate) fn send(
    engine: &mut Engine,
    by: &Principal,
    request: &SendMessage,
) -> SqsResult<SendResult> {
    match engine.call(by, Request::SendMessage(request))? {
        Response::SendMessage(result) => Ok(result),
        other => unreachable!("SendMessage answered {other:?}"),
    }
}

pub(crate) fn send_batch(
    engine: &mut Engine,
    by: &Principal,
    queue_url: &str,
    entries: &[(String, NewMessage)],
) -> SqsResult<BatchResult<SendResult>> {
    match engine.call(by, Request::SendMessageBatch { queue_url, entries })? {
        Response::SendMessageBatch(result) => Ok(result),
        other => unreachable!("SendMessageBatch answered {other:?}"),
    }
}

pub(crate) fn receive(
    engine: &mut Engine,
    by: &Principal,
    request: &ReceiveMessage,
) -> SqsResult<ReceiveOutcome> {
    match engine.call(by, Request::ReceiveMessage(request))? {
        Response::ReceiveMessage(outcome) => Ok(outcome),
        other => unreachable!("ReceiveMessage answered {other:?}"),
    }
}

pub(crate) fn delete(
    engine: &mut Engine,
    by: &Principal,
    queue_url: &str,
    handle: &str,
) -> SqsResult<()> {
    let request = Request::DeleteMessage {
        queue_url,
        receipt_handle: handle,
    };
    match engine.call(by, request)? {
        Response::DeleteMessage => Ok(()),
        other => unreachable!("DeleteMessage answered {other:?}"),
    }
}

pub(crate) fn change_visibility(
    engine: &mut Engine,
    by: &Principal,
    queue_url: &str,
    handle: &str,
    seconds: i64,
) -> SqsResult<()> {
    let request = Request::ChangeMessageVisibility {
        queue_url,
        receipt_handle: handle,
        visibility_timeout: seconds,
    };
    match engine.call(by, request)? {
        Response::ChangeMessageVisibility => Ok(()),
        other => unreachable!("ChangeMessageVisibility answered {other:?}"),
    }
}

pub(crate) fn create_queue(
    engine: &mut Engine,
    by: &Principal,
    name: &str,
    attributes: &[QueueAttribute],
) -> SqsResult<String> {
    let tags = queuelab_engine::Tags::new();
    let request = Request::CreateQueue {
        name,
        attributes,
        tags: &tags,
    };
    match engine.call(by, request)? {
        Response::CreateQueue(url) => Ok(url),
        other => unreachable!("CreateQueue answered {other:?}"),
    }
}

pub(crate) fn delete_queue(engine: &mut Engine, by: &Principal, queue_url: &str) -> SqsResult<()> {
    match engine.call(by, Request::DeleteQueue { queue_url })? {
        Response::DeleteQueue => Ok(()),
        other => unreachable!("DeleteQueue answered {other:?}"),
    }
}
