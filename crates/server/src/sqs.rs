//! SQS's two wires over HTTP: the JSON 1.0 protocol (`X-Amz-Target:
//! AmazonSQS.<Operation>`, what current SDKs and the AWS CLI speak) and
//! the query protocol (`Action=<Operation>` in a form or the URL, XML
//! answers: older SDKs and tutorials). Both become one JSON call to the
//! run (`queuelab_protocol::query` turns a form into it and the answer
//! back into XML), so no operation is implemented twice and the journal
//! holds JSON whichever wire a call came on.
//!
//! What is HTTP's is here: the body read within its limit and time, the
//! caller named by the access key of the request's signature, the queue
//! URL of a request posted to `/<account>/<name>`, and the queue URLs of
//! answers pointing at this server (as the request's `Host` names it).

use std::time::Duration;

use axum::body::{to_bytes, Body};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response as HttpResponse};
use queuelab_host::DispatchOptions;
use queuelab_protocol::{query, Response, CONTENT_TYPE, MAX_REQUEST_BYTES};

use crate::app::App;
use crate::owner::Answer;
use crate::urls;

/// How long a client may take to send its request's body.
const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// Any request that is not the control API's or the page's.
pub async fn handle(
    State(app): State<App>,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> HttpResponse {
    let by = caller(&headers);
    let host = urls::request_host(&headers, app.bound);
    // One byte past the limit tells a body too large from one at it.
    let body = match tokio::time::timeout(BODY_TIMEOUT, to_bytes(body, MAX_REQUEST_BYTES + 1)).await
    {
        Err(_) => {
            return plain(
                StatusCode::REQUEST_TIMEOUT,
                "the request's body did not arrive in 30 s",
            )
        }
        Ok(Err(_)) => return answer_oversized(&app, &headers, by).await,
        Ok(Ok(bytes)) => bytes,
    };
    let Ok(text) = String::from_utf8(body.to_vec()) else {
        return plain(
            StatusCode::BAD_REQUEST,
            "the request's body is not UTF-8 text",
        );
    };
    if let Some(target) = headers.get("x-amz-target") {
        let Ok(target) = target.to_str() else {
            return plain(
                StatusCode::BAD_REQUEST,
                "the X-Amz-Target header is not text",
            );
        };
        let response = app
            .call(target.to_string(), Some(text), by, Wire::Json)
            .await;
        return http(urls::local(response, &app.aws_prefix, &host));
    }
    // The query protocol: the form may be in the URL, the body, or both.
    let form = [uri.query().unwrap_or(""), &text]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("&");
    let path_queue = urls::path_queue_url(uri.path(), &host);
    match query::read_request(&form, path_queue.as_deref()) {
        Ok(request) => {
            let wire = Wire::Query(request.action.clone());
            let response = app
                .call(request.target, Some(request.body), by, wire.clone())
                .await;
            let response = urls::local(response, &app.aws_prefix, &host);
            http(query::answer(&request.action, &response))
        }
        Err(refusal) => http(query::error_response(&refusal, &request_id())),
    }
}

/// Which wire a call came on, to answer a long poll the server closes.
#[derive(Clone, Debug)]
pub enum Wire {
    Json,
    Query(String),
}

impl App {
    /// One call to the run, its answer in the JSON protocol.
    async fn call(
        &self,
        target: String,
        body: Option<String>,
        by: DispatchOptions,
        wire: Wire,
    ) -> Response {
        let (op, caller) = (target.clone(), by.caller.clone());
        let response = match self.run.call(target, body, by).await {
            Ok(Answer::Now(response)) => response,
            // The server is stopping: a waiting long poll ends empty.
            Ok(Answer::Closing) => empty_receive(&wire),
            // The run is gone (the server is stopping): nothing was done.
            Err(_) => unavailable(),
        };
        tracing::debug!(op, caller, wire = ?wire, status = response.status, "call");
        response
    }
}

async fn answer_oversized(app: &App, headers: &HeaderMap, by: DispatchOptions) -> HttpResponse {
    let target = headers
        .get("x-amz-target")
        .and_then(|t| t.to_str().ok())
        .unwrap_or("")
        .to_string();
    let json = !target.is_empty();
    let response = app.call(target, None, by, Wire::Json).await;
    match json {
        true => http(response),
        false => http(query::answer("", &response)),
    }
}

/// Who calls: the access key id of the request's signature
/// (`Credential=<key>/<date>/…`) names the caller, and a key of 12 digits
/// is that account's (the convention LocalStack documents), so a queue's
/// policy decides whether it may call. Any other key is the queues' own
/// account's. A key the run cannot name a caller by (over its length
/// limit) is left out.
fn caller(headers: &HeaderMap) -> DispatchOptions {
    let key = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split("Credential=").nth(1))
        .and_then(|v| v.split('/').next())
        .filter(|key| queuelab_engine::is_caller_name(key));
    let account = key.filter(|key| key.len() == 12 && key.bytes().all(|b| b.is_ascii_digit()));
    DispatchOptions {
        caller: key.map(str::to_string),
        principal: account.map(str::to_string),
        ..DispatchOptions::default()
    }
}

/// A ReceiveMessage's empty answer on its wire.
fn empty_receive(wire: &Wire) -> Response {
    let json = Response {
        status: 200,
        headers: vec![
            ("Content-Type".into(), CONTENT_TYPE.into()),
            ("x-amzn-RequestId".into(), request_id()),
        ],
        body: "{}".into(),
    };
    match wire {
        Wire::Json => json,
        Wire::Query(action) => query::answer(action, &json),
    }
}

/// The answer to a call the stopping server did not make: 503, which the
/// SDKs retry, rather than a success that did nothing.
fn unavailable() -> Response {
    Response {
        status: 503,
        headers: vec![("x-amzn-RequestId".into(), request_id())],
        body: "the server is stopping".into(),
    }
}

/// A request id for an answer the run did not make (it makes its own).
fn request_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// The protocol's answer as an HTTP response.
pub fn http(response: Response) -> HttpResponse {
    let status = StatusCode::from_u16(response.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut out = (status, response.body).into_response();
    for (name, value) in response.headers {
        if let (Ok(name), Ok(value)) = (
            header::HeaderName::try_from(name),
            HeaderValue::try_from(value),
        ) {
            out.headers_mut().insert(name, value);
        }
    }
    out
}

/// A refusal in words, for what is HTTP's rather than SQS's.
pub fn plain(status: StatusCode, words: &str) -> HttpResponse {
    (status, format!("{words}\n")).into_response()
}
