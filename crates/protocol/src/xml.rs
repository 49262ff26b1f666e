//! The query protocol's answer, as every AWS query service writes it:
//! `<{Op}Response>` holding `<{Op}Result>` and the request id, or
//! `<ErrorResponse>`; each codec (`sns/xml.rs`, `query/write.rs`) writes
//! what goes inside in its own service's names.

/// `<{op}Response xmlns="{namespace}">` holding `<{op}Result>` with
/// `result` inside (none when `result` is `None`: an operation without
/// output; `<{op}Result/>` when it is empty), then the request id.
pub(crate) fn response(
    namespace: &str,
    op: &str,
    result: Option<&str>,
    request_id: &str,
) -> String {
    let mut out = format!("<{op}Response xmlns=\"{namespace}\">");
    match result {
        None => {}
        Some("") => out.push_str(&format!("<{op}Result/>")),
        Some(result) => out.push_str(&format!("<{op}Result>{result}</{op}Result>")),
    }
    out.push_str(&format!(
        "<ResponseMetadata><RequestId>{}</RequestId></ResponseMetadata></{op}Response>",
        escape(request_id)
    ));
    out
}

/// `<ErrorResponse>`: the error's `Type` (`Sender` or `Receiver`), `Code`
/// and `Message`, then `extra` (SQS adds an empty `<Detail/>`), and the
/// request id beside the error.
pub(crate) fn error_response(
    namespace: &str,
    kind: &str,
    code: &str,
    message: &str,
    extra: &str,
    request_id: &str,
) -> String {
    format!(
        "<ErrorResponse xmlns=\"{namespace}\"><Error><Type>{kind}</Type><Code>{}</Code>\
         <Message>{}</Message>{extra}</Error><RequestId>{}</RequestId></ErrorResponse>",
        escape(code),
        escape(message),
        escape(request_id)
    )
}

/// XML's five escapes, and a carriage return as `&#13;`: written raw, an
/// XML parser would read it back as a line feed.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
    out
}
