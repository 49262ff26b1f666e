//! The JSON error envelope: `{"__type": "<namespace>#<Shape>", "message": …}`.

use queuelab_engine::SqsError;
use serde_json::json;

use super::bodies;

/// The `content-type` of every response.
pub const CONTENT_TYPE: &str = "application/x-amz-json-1.0";

/// An error's body: its shape in its namespace, and its text when it has
/// one (an unknown operation has none).
pub fn error_body(error: SqsError) -> String {
    let code = error.code;
    let mut body = json!({ "__type": format!("{}#{}", code.namespace(), code.shape()) });
    if !error.message.is_empty() {
        body["message"] = error.message.into();
    }
    bodies::text(&body)
}
