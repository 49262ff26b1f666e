//! The SQS error codes the engine can answer with.
//!
//! Each code knows its wire identity (the modelled shape name, the query code
//! the SDKs report, the HTTP status) so that every layer above agrees on it.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ErrorCode {
    InvalidParameterValue,
    MissingParameter,
    InvalidAttributeName,
    InvalidAttributeValue,
    InvalidMessageContents,
    ReceiptHandleIsInvalid,
    OverLimit,
    /// A call past one of SQS's request quotas (throttle.rs), 403.
    RequestThrottled,
    /// A queue policy (or SQS's own rules on who may call) refused the
    /// caller: answered by AWS's request framework, 403.
    AccessDenied,
    /// An `X-Amz-Target` that names no SQS operation. AWS's JSON endpoints
    /// answer it in their request framework, before SQS sees the call: the
    /// shape is the framework's, with no SQS query code and no text.
    UnknownOperation,
    QueueDoesNotExist,
    /// A `QueueUrl` that is neither a queue URL nor a queue name.
    InvalidAddress,
    QueueAlreadyExists,
    QueueDeletedRecently,
    PurgeQueueInProgress,
    EmptyBatchRequest,
    TooManyEntriesInBatchRequest,
    BatchEntryIdsNotDistinct,
    BatchRequestTooLong,
    InvalidBatchEntryId,
    ResourceNotFound,
    /// The request body was not valid JSON or a member had the wrong type.
    Serialization,
    /// A request past the size a host accepts, refused before it is read.
    /// AWS's front end answers such a request with HTTP 413 before SQS sees
    /// it, so, like an unknown operation, it carries no SQS query code.
    RequestEntityTooLarge,
    /// SSE-KMS: the key policy does not let the caller use the queue's key.
    KmsAccessDenied,
    /// SSE-KMS: the queue's key is disabled.
    KmsDisabled,
    /// SSE-KMS: the queue's key is pending deletion.
    KmsInvalidState,
    /// SSE-KMS: the queue's key does not exist.
    KmsNotFound,
}

impl ErrorCode {
    /// The code the SDKs report (`x-amzn-query-error`, and `Code` in batch failures).
    pub fn query_code(self) -> &'static str {
        use ErrorCode::*;
        match self {
            InvalidParameterValue => "InvalidParameterValue",
            MissingParameter => "MissingParameter",
            InvalidAttributeName => "InvalidAttributeName",
            InvalidAttributeValue => "InvalidAttributeValue",
            InvalidMessageContents => "InvalidMessageContents",
            ReceiptHandleIsInvalid => "ReceiptHandleIsInvalid",
            OverLimit => "OverLimit",
            RequestThrottled => "RequestThrottled",
            AccessDenied => "AccessDenied",
            UnknownOperation => "UnknownOperationException",
            QueueDoesNotExist => "AWS.SimpleQueueService.NonExistentQueue",
            InvalidAddress => "InvalidAddress",
            QueueAlreadyExists => "QueueAlreadyExists",
            QueueDeletedRecently => "AWS.SimpleQueueService.QueueDeletedRecently",
            PurgeQueueInProgress => "AWS.SimpleQueueService.PurgeQueueInProgress",
            EmptyBatchRequest => "AWS.SimpleQueueService.EmptyBatchRequest",
            TooManyEntriesInBatchRequest => "AWS.SimpleQueueService.TooManyEntriesInBatchRequest",
            BatchEntryIdsNotDistinct => "AWS.SimpleQueueService.BatchEntryIdsNotDistinct",
            BatchRequestTooLong => "AWS.SimpleQueueService.BatchRequestTooLong",
            InvalidBatchEntryId => "AWS.SimpleQueueService.InvalidBatchEntryId",
            ResourceNotFound => "ResourceNotFoundException",
            Serialization => "SerializationException",
            RequestEntityTooLarge => "RequestEntityTooLarge",
            KmsAccessDenied => "KMS.AccessDeniedException",
            KmsDisabled => "KMS.DisabledException",
            KmsInvalidState => "KMS.InvalidStateException",
            KmsNotFound => "KMS.NotFoundException",
        }
    }

    /// Where the shape is modelled: in SQS's model, or by the request
    /// framework (`com.amazon.coral.service`): an unknown operation, and the
    /// generic validation errors SQS's model does not name (a real AWS
    /// answer: `com.amazon.coral.service#InvalidParameterValueException`).
    pub fn namespace(self) -> &'static str {
        use ErrorCode::*;
        match self {
            UnknownOperation
            | AccessDenied
            | InvalidParameterValue
            | MissingParameter
            | Serialization
            | RequestEntityTooLarge => "com.amazon.coral.service",
            _ => "com.amazonaws.sqs",
        }
    }

    /// Does the answer carry SQS's `x-amzn-query-error` header? Every error
    /// SQS answers does; an unknown operation never reaches SQS.
    pub fn has_query_code(self) -> bool {
        !matches!(
            self,
            ErrorCode::UnknownOperation | ErrorCode::RequestEntityTooLarge
        )
    }

    /// The modelled error shape (`__type` is `<namespace>#<shape>`).
    pub fn shape(self) -> &'static str {
        use ErrorCode::*;
        match self {
            InvalidParameterValue => "InvalidParameterValueException",
            MissingParameter => "MissingRequiredParameterException",
            InvalidAttributeName => "InvalidAttributeName",
            InvalidAttributeValue => "InvalidAttributeValue",
            InvalidMessageContents => "InvalidMessageContents",
            ReceiptHandleIsInvalid => "ReceiptHandleIsInvalid",
            OverLimit => "OverLimit",
            RequestThrottled => "RequestThrottled",
            AccessDenied => "AccessDeniedException",
            UnknownOperation => "UnknownOperationException",
            QueueDoesNotExist => "QueueDoesNotExist",
            InvalidAddress => "InvalidAddress",
            QueueAlreadyExists => "QueueNameExists",
            QueueDeletedRecently => "QueueDeletedRecently",
            PurgeQueueInProgress => "PurgeQueueInProgress",
            EmptyBatchRequest => "EmptyBatchRequest",
            TooManyEntriesInBatchRequest => "TooManyEntriesInBatchRequest",
            BatchEntryIdsNotDistinct => "BatchEntryIdsNotDistinct",
            BatchRequestTooLong => "BatchRequestTooLong",
            InvalidBatchEntryId => "InvalidBatchEntryId",
            ResourceNotFound => "ResourceNotFoundException",
            Serialization => "SerializationException",
            RequestEntityTooLarge => "RequestEntityTooLargeException",
            KmsAccessDenied => "KmsAccessDenied",
            KmsDisabled => "KmsDisabled",
            KmsInvalidState => "KmsInvalidState",
            KmsNotFound => "KmsNotFound",
        }
    }

    /// HTTP status of the error response.
    pub fn status(self) -> u16 {
        match self {
            ErrorCode::OverLimit
            | ErrorCode::RequestThrottled
            | ErrorCode::PurgeQueueInProgress
            | ErrorCode::AccessDenied => 403,
            // As SQS's service model gives them.
            ErrorCode::ResourceNotFound
            | ErrorCode::ReceiptHandleIsInvalid
            | ErrorCode::InvalidAddress => 404,
            ErrorCode::RequestEntityTooLarge => 413,
            _ => 400,
        }
    }
}

/// The most characters of a caller's value an error message repeats: more
/// than any SQS field may hold (AWS repeats a 129-character group id whole),
/// far less than a value a caller could send.
pub const MAX_ECHO_CHARS: usize = 1_024;

/// The longest error message: a safety net behind [`echo`], for a message
/// that repeats values of its own.
const MAX_MESSAGE_CHARS: usize = 4_000;

/// A caller's value as an error message repeats it: whole up to
/// [`MAX_ECHO_CHARS`] characters, else its start and "…". A queue name of
/// 300 million characters must not be copied into its own refusal.
pub fn echo(value: &str) -> std::borrow::Cow<'_, str> {
    match value.char_indices().nth(MAX_ECHO_CHARS) {
        None => value.into(),
        Some((end, _)) => format!("{}…", &value[..end]).into(),
    }
}

/// An SQS error: a code and the human-readable message SQS would give.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SqsError {
    pub code: ErrorCode,
    pub message: String,
}

impl SqsError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        let mut message = message.into();
        if let Some((end, _)) = message.char_indices().nth(MAX_MESSAGE_CHARS) {
            message.truncate(end);
            message.push('…');
        }
        SqsError { code, message }
    }

    pub fn invalid_parameter(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidParameterValue, message)
    }

    pub fn missing(parameter: &str) -> Self {
        Self::new(
            ErrorCode::MissingParameter,
            format!("The request must contain the parameter {parameter}."),
        )
    }

    /// `Value <v> for parameter <p> is invalid. Reason: <reason>`, SQS's usual phrasing.
    pub fn invalid_value(parameter: &str, value: impl fmt::Display, reason: &str) -> Self {
        let value = value.to_string();
        Self::invalid_parameter(format!(
            "Value {} for parameter {} is invalid. Reason: {reason}",
            echo(&value),
            echo(parameter)
        ))
    }

    pub fn no_queue() -> Self {
        Self::new(
            ErrorCode::QueueDoesNotExist,
            "The specified queue does not exist.",
        )
    }
}

impl fmt::Display for SqsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.query_code(), self.message)
    }
}

impl std::error::Error for SqsError {}

pub type SqsResult<T> = Result<T, SqsError>;
