//! The KMS operations SQS calls for SSE-KMS, named once: the `kmsRequested`
//! event carries one, and the key registry (`kms.rs`, which logs events)
//! counts them.

use serde::Serialize;

/// The two KMS operations SQS calls for SSE-KMS.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub enum KmsApi {
    GenerateDataKey,
    Decrypt,
}

impl KmsApi {
    /// The permission's name in a key policy (`kms:GenerateDataKey`).
    pub fn action(self) -> &'static str {
        match self {
            KmsApi::GenerateDataKey => "kms:GenerateDataKey",
            KmsApi::Decrypt => "kms:Decrypt",
        }
    }
}
