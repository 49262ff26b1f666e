//! The SQS JSON 1.0 codec: a request's JSON members decoded into the
//! engine's [`Request`](queuelab_engine::Request) (decode.rs, reading with
//! input.rs), the call made through the engine's gate, its
//! [`Response`](queuelab_engine::Response) encoded as JSON (encode.rs,
//! bodies.rs), and an error as the JSON error envelope (envelope.rs).
//! The query protocol (`query/`) translates to and from this codec, so
//! both wires make the same engine calls.

mod bodies;
mod decode;
mod encode;
mod envelope;
mod input;

use queuelab_engine::{Action, Engine, ErrorCode, Principal, SqsError, SqsResult};

pub use decode::Decoder;
pub use encode::{receive_body, Outcome};
pub use envelope::{error_body, CONTENT_TYPE};
pub use input::WHOLE_NUMBER;

/// Every operation this endpoint answers, by its `X-Amz-Target` suffix, in
/// alphabetical order: [`Action::BY_NAME`], each with its decoder.
pub const OPERATIONS: &[(&str, Decoder)] = &operations();

const fn operations() -> [(&'static str, Decoder); Action::COUNT] {
    let mut out: [(&str, Decoder); Action::COUNT] =
        [("", decode::decoder(Action::SendMessage)); Action::COUNT];
    let mut i = 0;
    while i < Action::COUNT {
        let action = Action::BY_NAME[i];
        out[i] = (action.name(), decode::decoder(action));
        i += 1;
    }
    out
}

/// The operation a target names ("AmazonSQS.SendMessage" names
/// "SendMessage"); "" when it names none, which no operation is called.
pub fn operation_name(target: &str) -> &str {
    target.strip_prefix("AmazonSQS.").unwrap_or("")
}

/// Decodes the request `body` of the operation `target` names, calls the
/// engine's gate as `by`, and encodes the answer.
pub fn call(engine: &mut Engine, target: &str, body: &str, by: &Principal) -> SqsResult<Outcome> {
    let Some(decoder) = Action::from_name(operation_name(target)).map(decode::decoder) else {
        // As AWS's JSON endpoints answer: the framework's shape, no text.
        return Err(SqsError::new(ErrorCode::UnknownOperation, ""));
    };
    let object = input::parse_body(body)?;
    let response = decoder(&input::Input::new(&object), &mut |request| {
        engine.call(by, request)
    })?;
    Ok(encode::encode(response))
}
