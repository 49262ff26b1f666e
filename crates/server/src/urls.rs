//! Queue URLs that point at this server.
//!
//! The engine names queues as AWS does (`https://sqs.<region>.amazonaws.com/<account>/<name>`)
//! and accepts any host in a queue URL. A client of a local endpoint
//! should get URLs it can reach (the AWS SDK for JavaScript sends a call
//! to its QueueUrl's host), so answers name the queue at the host the
//! request was sent to, as AWS and ElasticMQ do. Only answers change:
//! what the run records is untouched.

use std::net::SocketAddr;

use axum::http::{header, HeaderMap};
use queuelab_protocol::Response;
use serde_json::Value;

/// The members of answers that hold queue URLs (CreateQueue, GetQueueUrl,
/// ListQueues, ListDeadLetterSourceQueues).
const URL_MEMBERS: [&str; 3] = ["QueueUrl", "QueueUrls", "queueUrls"];

/// The host a request was sent to (its `Host` header), or the address
/// the server listens on for a request without one.
pub fn request_host(headers: &HeaderMap, bound: SocketAddr) -> String {
    headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| !h.is_empty() && !h.contains('/'))
        .map_or_else(|| bound.to_string(), str::to_string)
}

/// The queue URL of a request posted to a queue's own URL
/// (`/<account>/<name>`, as older clients do), at `host`.
pub fn path_queue_url(path: &str, host: &str) -> Option<String> {
    let mut parts = path.trim_start_matches('/').split('/');
    let (account, name) = (parts.next()?, parts.next()?);
    let whole = parts.next().is_none() && !account.is_empty() && !name.is_empty();
    whole.then(|| format!("http://{host}/{account}/{name}"))
}

/// `response` with its queue URLs at `host` instead of under `aws_prefix`.
pub fn local(mut response: Response, aws_prefix: &str, host: &str) -> Response {
    if response.status != 200 || !response.body.contains(aws_prefix) {
        return response;
    }
    let Ok(Value::Object(mut members)) = serde_json::from_str::<Value>(&response.body) else {
        return response;
    };
    let mut changed = false;
    let mut at_host = |url: &mut Value| {
        if let Some(rest) = url.as_str().and_then(|u| u.strip_prefix(aws_prefix)) {
            *url = Value::String(format!("http://{host}/{rest}"));
            changed = true;
        }
    };
    for name in URL_MEMBERS {
        match members.get_mut(name) {
            Some(Value::Array(urls)) => urls.iter_mut().for_each(&mut at_host),
            Some(url) => at_host(url),
            None => {}
        }
    }
    if changed {
        response.body = Value::Object(members).to_string();
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    const AWS: &str = "https://sqs.us-east-1.amazonaws.com/";

    fn answer(body: &str) -> Response {
        Response {
            status: 200,
            headers: vec![],
            body: body.into(),
        }
    }

    #[test]
    fn a_created_queue_is_named_at_the_requests_host() {
        let body = r#"{"QueueUrl":"https://sqs.us-east-1.amazonaws.com/000000000000/orders"}"#;
        let out = local(answer(body), AWS, "127.0.0.1:9324");
        assert_eq!(
            out.json()["QueueUrl"],
            "http://127.0.0.1:9324/000000000000/orders"
        );
    }

    #[test]
    fn every_listed_queue_is_named_at_the_requests_host() {
        let body = r#"{"QueueUrls":["https://sqs.us-east-1.amazonaws.com/000000000000/a","https://sqs.us-east-1.amazonaws.com/000000000000/b"]}"#;
        let out = local(answer(body), AWS, "localhost:1");
        assert_eq!(
            out.json()["QueueUrls"][1],
            "http://localhost:1/000000000000/b"
        );
    }

    #[test]
    fn a_message_body_naming_a_queue_url_is_left_as_it_was_sent() {
        let body =
            r#"{"Messages":[{"Body":"https://sqs.us-east-1.amazonaws.com/000000000000/a"}]}"#;
        assert_eq!(local(answer(body), AWS, "localhost:1").body, body);
    }

    #[test]
    fn a_request_posted_to_a_queues_url_names_that_queue() {
        assert_eq!(
            path_queue_url("/000000000000/orders", "h:1").as_deref(),
            Some("http://h:1/000000000000/orders")
        );
        assert_eq!(path_queue_url("/", "h:1"), None);
        assert_eq!(path_queue_url("/a/b/c", "h:1"), None);
    }
}
