//! [`Action`]: the SQS operations, listed once. Everything that needs the
//! list reads it from here: the protocol's operation table (`OPERATIONS`,
//! checked against [`Action::BY_NAME`]), the gate (which actions are
//! message calls, run on the queue it resolved), AddPermission (which
//! actions another account may be granted, and which only the owner may
//! call), and, later, the throttle
//! keys (one quota per action: [`Action::name`] keys it).

/// One SQS operation. Declared in the billing meter's line order (the
/// message calls first, a batch after its single form), then the
/// management calls alphabetically: `Ord` is this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    SendMessage,
    SendMessageBatch,
    ReceiveMessage,
    DeleteMessage,
    DeleteMessageBatch,
    ChangeMessageVisibility,
    ChangeMessageVisibilityBatch,
    AddPermission,
    CancelMessageMoveTask,
    CreateQueue,
    DeleteQueue,
    GetQueueAttributes,
    GetQueueUrl,
    ListDeadLetterSourceQueues,
    ListMessageMoveTasks,
    ListQueueTags,
    ListQueues,
    PurgeQueue,
    RemovePermission,
    SetQueueAttributes,
    StartMessageMoveTask,
    TagQueue,
    UntagQueue,
}

/// Who may be granted an action with AddPermission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grant {
    /// Another account may be granted it.
    Grantable,
    /// "Cross-account permissions don't apply to the following actions"
    /// (Developer Guide): only the queue's owner calls it.
    OwnerOnly,
    /// Granted through its single form (SendMessage covers
    /// SendMessageBatch); not a name AddPermission takes itself.
    Through(Action),
}

/// What the engine knows of an action: one row each, in [`Action`]'s order.
struct Row {
    name: &'static str,
    /// A message call: the gate resolves its queue and runs it there.
    message_call: bool,
    grant: Grant,
}

const fn row(name: &'static str, message_call: bool, grant: Grant) -> Row {
    Row {
        name,
        message_call,
        grant,
    }
}

use Grant::{Grantable, OwnerOnly, Through};

const ROWS: [Row; Action::COUNT] = [
    row("SendMessage", true, Grantable),
    row("SendMessageBatch", true, Through(Action::SendMessage)),
    row("ReceiveMessage", true, Grantable),
    row("DeleteMessage", true, Grantable),
    row("DeleteMessageBatch", true, Through(Action::DeleteMessage)),
    row("ChangeMessageVisibility", true, Grantable),
    row(
        "ChangeMessageVisibilityBatch",
        true,
        Through(Action::ChangeMessageVisibility),
    ),
    row("AddPermission", false, OwnerOnly),
    row("CancelMessageMoveTask", false, OwnerOnly),
    row("CreateQueue", false, OwnerOnly),
    row("DeleteQueue", false, OwnerOnly),
    row("GetQueueAttributes", false, Grantable),
    row("GetQueueUrl", false, Grantable),
    row("ListDeadLetterSourceQueues", false, Grantable),
    row("ListMessageMoveTasks", false, OwnerOnly),
    row("ListQueueTags", false, OwnerOnly),
    row("ListQueues", false, OwnerOnly),
    row("PurgeQueue", false, Grantable),
    row("RemovePermission", false, OwnerOnly),
    row("SetQueueAttributes", false, OwnerOnly),
    row("StartMessageMoveTask", false, OwnerOnly),
    row("TagQueue", false, OwnerOnly),
    row("UntagQueue", false, OwnerOnly),
];

impl Action {
    /// How many operations SQS has here.
    pub const COUNT: usize = 23;

    /// Every action, in declaration order (`ALL[a as usize] == a`).
    pub const ALL: [Action; Action::COUNT] = [
        Action::SendMessage,
        Action::SendMessageBatch,
        Action::ReceiveMessage,
        Action::DeleteMessage,
        Action::DeleteMessageBatch,
        Action::ChangeMessageVisibility,
        Action::ChangeMessageVisibilityBatch,
        Action::AddPermission,
        Action::CancelMessageMoveTask,
        Action::CreateQueue,
        Action::DeleteQueue,
        Action::GetQueueAttributes,
        Action::GetQueueUrl,
        Action::ListDeadLetterSourceQueues,
        Action::ListMessageMoveTasks,
        Action::ListQueueTags,
        Action::ListQueues,
        Action::PurgeQueue,
        Action::RemovePermission,
        Action::SetQueueAttributes,
        Action::StartMessageMoveTask,
        Action::TagQueue,
        Action::UntagQueue,
    ];

    /// Every action in alphabetical order of its name: the order of the
    /// protocol's table and of the binding's `operations()`.
    pub const BY_NAME: [Action; Action::COUNT] = by_name();

    const fn row(self) -> &'static Row {
        &ROWS[self as usize]
    }

    /// The API action's name, as SQS's documentation, the `X-Amz-Target`
    /// (`AmazonSQS.<name>`) and bills write it.
    pub const fn name(self) -> &'static str {
        self.row().name
    }

    /// Whether it is a message call (a send, receive, delete or
    /// visibility change, single or batch): the gate resolves its queue
    /// before it runs, and a queue that does not resolve is its answer.
    pub const fn message_call(self) -> bool {
        self.row().message_call
    }

    /// Whether AddPermission may grant it to another account.
    pub const fn grant(self) -> Grant {
        self.row().grant
    }

    /// The action named `name` (`"SendMessage"`), exactly as spelled.
    pub fn from_name(name: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.name() == name)
    }
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// `a` sorts before `b`, byte by byte (a `const` string comparison).
const fn before(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

/// [`Action::ALL`] sorted by name (an insertion sort, at compile time).
const fn by_name() -> [Action; Action::COUNT] {
    let mut out = Action::ALL;
    let mut i = 1;
    while i < out.len() {
        let mut j = i;
        while j > 0 && before(out[j].name(), out[j - 1].name()) {
            let swap = out[j];
            out[j] = out[j - 1];
            out[j - 1] = swap;
            j -= 1;
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_every_action_once_at_its_own_index() {
        for (i, action) in Action::ALL.into_iter().enumerate() {
            assert_eq!(action as usize, i, "{action}");
            assert_eq!(Action::from_name(action.name()), Some(action));
        }
    }

    #[test]
    fn by_name_is_alphabetical() {
        let names: Vec<_> = Action::BY_NAME.iter().map(|a| a.name()).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(names, sorted);
    }

    #[test]
    fn a_batch_is_granted_through_its_single_form_which_is_grantable() {
        for action in Action::ALL {
            if let Grant::Through(single) = action.grant() {
                assert_eq!(single.grant(), Grant::Grantable);
                assert_eq!(action.name(), format!("{}Batch", single.name()));
            }
        }
    }
}
