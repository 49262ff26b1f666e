//! Rules every batch call shares: 1-10 entries with distinct, well-formed ids.

use std::collections::BTreeSet;

use crate::error::{ErrorCode, SqsError, SqsResult};
use crate::{validate, BatchFailure};

pub(crate) const MAX_BATCH_ENTRIES: usize = 10;

/// Checks the batch as a whole. `entry_kind` names the entry type in
/// messages, e.g. `SendMessageBatchRequestEntry`.
pub(crate) fn check_entries<'a>(
    entry_kind: &str,
    ids: impl ExactSizeIterator<Item = &'a str>,
) -> SqsResult<()> {
    let count = ids.len();
    if count == 0 {
        return Err(SqsError::new(
            ErrorCode::EmptyBatchRequest,
            format!("There should be at least one {entry_kind} in the request."),
        ));
    }
    if count > MAX_BATCH_ENTRIES {
        return Err(SqsError::new(
            ErrorCode::TooManyEntriesInBatchRequest,
            format!("Maximum number of entries per request are {MAX_BATCH_ENTRIES}. You have sent {count}."),
        ));
    }
    let mut seen = BTreeSet::new();
    for id in ids {
        validate::batch_entry_id(id)?;
        if !seen.insert(id) {
            return Err(SqsError::new(
                ErrorCode::BatchEntryIdsNotDistinct,
                format!("Id {} repeated.", crate::echo(id)),
            ));
        }
    }
    Ok(())
}

pub(crate) fn failure(id: &str, error: SqsError) -> BatchFailure {
    BatchFailure {
        id: id.to_string(),
        sender_fault: error.code.status() < 500,
        code: error.code.query_code(),
        message: error.message,
    }
}

impl crate::Engine {
    /// A batch call on the queue `id`: check the batch as a whole, then
    /// run `op` on each entry.
    pub(crate) fn run_batch<E, T>(
        &mut self,
        id: u32,
        entry_kind: &str,
        entries: &[(String, E)],
        mut op: impl FnMut(&mut Self, u32, &E) -> SqsResult<T>,
    ) -> SqsResult<crate::BatchResult<T>> {
        check_entries(entry_kind, entries.iter().map(|(id, _)| id.as_str()))?;
        Ok(each(entries, |entry| op(self, id, entry)))
    }
}

/// Runs `op` on each entry, sorting results into `Successful` and `Failed`.
pub(crate) fn each<E, T>(
    entries: &[(String, E)],
    mut op: impl FnMut(&E) -> SqsResult<T>,
) -> crate::BatchResult<T> {
    let mut result = crate::BatchResult {
        successful: Vec::new(),
        failed: Vec::new(),
    };
    for (id, entry) in entries {
        match op(entry) {
            Ok(value) => result.successful.push((id.clone(), value)),
            Err(error) => result.failed.push(failure(id, error)),
        }
    }
    result
}
