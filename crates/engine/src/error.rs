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
    InvalidAction,
    QueueDoesNotExist,
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
            InvalidAction => "InvalidAction",
            QueueDoesNotExist => "AWS.SimpleQueueService.NonExistentQueue",
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
        }
    }

    /// The modelled error shape (`__type` is `com.amazonaws.sqs#<shape>`).
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
            InvalidAction => "InvalidAction",
            QueueDoesNotExist => "QueueDoesNotExist",
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
        }
    }

    /// HTTP status of the error response.
    pub fn status(self) -> u16 {
        match self {
            ErrorCode::OverLimit | ErrorCode::PurgeQueueInProgress => 403,
            ErrorCode::ResourceNotFound => 404,
            _ => 400,
        }
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
        SqsError {
            code,
            message: message.into(),
        }
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
        Self::invalid_parameter(format!(
            "Value {value} for parameter {parameter} is invalid. Reason: {reason}"
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
