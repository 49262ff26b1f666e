//! The operations a test case is made of, and how proptest draws them.
//! Values are small on purpose: three groups, four deduplication ids,
//! timeouts of 0-3 s, so that collisions, locks and deadlines happen often.

use proptest::prelude::*;

use super::reference::{Actions, Caller, Rule, Who, DLQ, DLQ_FIFO, WORK, WORK_FIFO};

/// A message to send. Bodies are numbered by the harness.
#[derive(Clone, Debug)]
pub struct MessageSpec {
    pub group: u8,
    pub dedup: u8,
    /// `None` leaves DelaySeconds out; FIFO queues refuse anything above 0.
    pub delay: Option<u8>,
    pub with_attributes: bool,
    /// Standard queues take a MessageGroupId too (fair queues).
    pub standard_group: bool,
}

/// A receipt handle to use: one of the last few the engine issued (most
/// likely still current), any it issued (an index into every handle so
/// far, modulo their number: mostly stale ones), or text it never issued.
#[derive(Clone, Copy, Debug)]
pub enum Pick {
    Recent(u8),
    Issued(u16),
    Garbage,
}

/// How a batch call is malformed as a whole, if at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchFlaw {
    None,
    Empty,
    Eleven,
    RepeatedId,
}

#[derive(Clone, Debug)]
pub enum SystemNames {
    None,
    All,
    /// Through the older `AttributeNames` member.
    LegacyAll,
    Some,
}

#[derive(Clone, Debug)]
pub enum AttributeNames {
    None,
    All,
    Star,
    Exact,
    Prefix,
}

#[derive(Clone, Debug)]
pub struct ReceiveOp {
    pub queue: usize,
    pub max: Option<i64>,
    pub visibility: Option<i64>,
    pub wait: Option<i64>,
    pub system: SystemNames,
    pub attributes: AttributeNames,
    /// A ReceiveRequestAttemptId; its retries use the same visibility
    /// timeout: 1 s for attempt 0, 400 s for attempt 1 (longer than the
    /// attempt's 5-minute window, so that its end can be seen).
    pub attempt: Option<u8>,
}

#[derive(Clone, Debug)]
pub enum Attribute {
    VisibilityTimeout(i64),
    DelaySeconds(i64),
    MessageRetentionPeriod(i64),
    ReceiveMessageWaitTimeSeconds(i64),
    /// maxReceiveCount, to the DLQ of the same type.
    Redrive(i64),
    /// To the DLQ of the other type (refused).
    RedriveToOtherType,
    NoRedrive,
}

#[derive(Clone, Debug)]
pub enum Step {
    /// The `nth` next message timer of the model (a delay or visibility
    /// timeout ending, a long poll's wait ending), then `offset` ms (-1, 0, +1).
    ToTimer {
        nth: u8,
        offset: i8,
    },
    /// The same over every deadline: retention, and the 60 s and 5 min
    /// windows (purge, deleted names, deduplication, receive attempts) too.
    ToDeadline {
        nth: u8,
        offset: i8,
    },
    /// The `nth` next end of a 60 s or 5 min window, then `offset` ms.
    ToWindow {
        nth: u8,
        offset: i8,
    },
    Small(u16),
    Large(u32),
}

#[derive(Clone, Debug)]
pub enum Op {
    Send {
        queue: usize,
        message: MessageSpec,
    },
    SendBatch {
        queue: usize,
        entries: Vec<MessageSpec>,
        flaw: BatchFlaw,
    },
    Receive(ReceiveOp),
    Delete {
        pick: Pick,
    },
    DeleteBatch {
        picks: Vec<Pick>,
        flaw: BatchFlaw,
    },
    ChangeVisibility {
        pick: Pick,
        seconds: i64,
    },
    ChangeVisibilityBatch {
        entries: Vec<(Pick, i64)>,
        flaw: BatchFlaw,
    },
    Purge {
        queue: usize,
    },
    SetAttribute {
        queue: usize,
        attribute: Attribute,
    },
    DeleteQueue {
        queue: usize,
    },
    CreateQueue {
        queue: usize,
    },
    StartMoveTask {
        source: usize,
        /// Name the source's work queue as DestinationArn.
        explicit_destination: bool,
        rate: Option<i64>,
    },
    ListMoveTasks {
        source: usize,
    },
    /// The newest task of `source`, or a garbage handle.
    CancelMoveTask {
        source: usize,
        garbage: bool,
    },
    Advance(Step),
    /// A queue policy of these statements (none: the policy is cleared).
    SetPolicy {
        queue: usize,
        rules: Vec<Rule>,
    },
    /// A send, or a batch of sends, made as another principal.
    SendAs {
        queue: usize,
        caller: Caller,
        entries: Vec<MessageSpec>,
        batch: bool,
    },
}

fn caller() -> impl Strategy<Value = Caller> {
    prop_oneof![
        Just(Caller::Owner),
        Just(Caller::Partner),
        Just(Caller::PartnerUser),
        Just(Caller::Stranger),
        Just(Caller::Topic),
        Just(Caller::OtherTopic),
    ]
}

/// A statement: any whom; an Allow any actions, a Deny only sends (a
/// denied receive or attribute read would blind the harness itself).
fn rule() -> impl Strategy<Value = Rule> {
    let who = prop_oneof![
        Just(Who::Anyone),
        Just(Who::Partner),
        Just(Who::PartnerUser),
        Just(Who::Topic),
    ];
    let allow_actions = prop_oneof![
        Just(Actions::Send),
        Just(Actions::SendWildcard),
        Just(Actions::Receive),
        Just(Actions::All),
    ];
    let deny_actions = prop_oneof![Just(Actions::Send), Just(Actions::SendWildcard)];
    prop_oneof![
        3 => (who.clone(), allow_actions).prop_map(|(who, actions)| Rule { allow: true, who, actions }),
        1 => (who, deny_actions).prop_map(|(who, actions)| Rule { allow: false, who, actions }),
    ]
}

/// Work queues are used more than their DLQs.
fn queue() -> impl Strategy<Value = usize> {
    prop_oneof![3 => Just(WORK), 3 => Just(WORK_FIFO), 1 => Just(DLQ), 1 => Just(DLQ_FIFO)]
}

fn dead_letter_queue() -> impl Strategy<Value = usize> {
    prop_oneof![4 => Just(DLQ), 4 => Just(DLQ_FIFO), 1 => Just(WORK)]
}

fn message() -> impl Strategy<Value = MessageSpec> {
    (
        0..3u8,
        0..4u8,
        prop_oneof![4 => Just(None), 2 => Just(Some(0)), 2 => (1..3u8).prop_map(Some)],
        any::<bool>(),
        prop::bool::weighted(0.2),
    )
        .prop_map(
            |(group, dedup, delay, with_attributes, standard_group)| MessageSpec {
                group,
                dedup,
                delay,
                with_attributes,
                standard_group,
            },
        )
}

fn pick() -> impl Strategy<Value = Pick> {
    prop_oneof![
        8 => (0..3u8).prop_map(Pick::Recent),
        6 => any::<u16>().prop_map(Pick::Issued),
        1 => Just(Pick::Garbage),
    ]
}

fn flaw() -> impl Strategy<Value = BatchFlaw> {
    prop_oneof![
        20 => Just(BatchFlaw::None),
        1 => Just(BatchFlaw::Empty),
        1 => Just(BatchFlaw::Eleven),
        1 => Just(BatchFlaw::RepeatedId),
    ]
}

/// Visibility timeouts in seconds: mostly 0-3; rarely the 12-hour
/// ceiling (reached exactly by 43,200 s right after a receive, or 43,199 s
/// a second later) or out of range.
fn seconds() -> impl Strategy<Value = i64> {
    prop_oneof![
        // 0 makes a message visible at once: a moment long polls wait for.
        8 => Just(0),
        18 => 1..4i64,
        2 => Just(30),
        1 => Just(43_199),
        1 => Just(43_200),
        1 => Just(43_201),
    ]
}

fn receive() -> impl Strategy<Value = ReceiveOp> {
    let max = prop_oneof![
        6 => Just(None),
        12 => (1..4i64).prop_map(Some),
        2 => Just(Some(10)),
        1 => Just(Some(11)),
    ];
    let visibility = prop_oneof![
        6 => Just(None),
        12 => (0..4i64).prop_map(Some),
        1 => Just(Some(43_201)),
    ];
    let wait = prop_oneof![
        8 => Just(None),
        6 => Just(Some(0)),
        10 => (1..4i64).prop_map(Some),
        1 => Just(Some(21)),
    ];
    let system = prop_oneof![
        Just(SystemNames::None),
        Just(SystemNames::All),
        Just(SystemNames::LegacyAll),
        Just(SystemNames::Some)
    ];
    let attributes = prop_oneof![
        Just(AttributeNames::None),
        Just(AttributeNames::All),
        Just(AttributeNames::Star),
        Just(AttributeNames::Exact),
        Just(AttributeNames::Prefix)
    ];
    let attempt = prop_oneof![4 => Just(None), 1 => (0..2u8).prop_map(Some)];
    (queue(), max, visibility, wait, system, attributes, attempt).prop_map(
        |(queue, max, visibility, wait, system, attributes, attempt)| ReceiveOp {
            queue,
            max,
            visibility,
            wait,
            system,
            attributes,
            attempt,
        },
    )
}

fn attribute() -> impl Strategy<Value = Attribute> {
    prop_oneof![
        (0..4i64).prop_map(Attribute::VisibilityTimeout),
        prop_oneof![0..3i64, Just(901)].prop_map(Attribute::DelaySeconds),
        prop_oneof![Just(59i64), Just(60), Just(61), Just(150), Just(345_600)]
            .prop_map(Attribute::MessageRetentionPeriod),
        (0..3i64).prop_map(Attribute::ReceiveMessageWaitTimeSeconds),
        (0..4i64).prop_map(Attribute::Redrive),
        Just(Attribute::RedriveToOtherType),
        Just(Attribute::NoRedrive),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        16 => (0..3u8, -1..=1i8).prop_map(|(nth, offset)| Step::ToTimer { nth, offset }),
        4 => (0..3u8, -1..=1i8).prop_map(|(nth, offset)| Step::ToDeadline { nth, offset }),
        3 => (0..2u8, -1..=1i8).prop_map(|(nth, offset)| Step::ToWindow { nth, offset }),
        4 => (0..3_000u16).prop_map(Step::Small),
        1 => (0..400_000u32).prop_map(Step::Large),
    ]
}

/// Relative weights: receives, clock steps and sends most; the calls that
/// wreck the world (purge, queue deletion) rarely; now and then a queue
/// policy, and sends made as another account or an SNS topic.
pub fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        14 => (queue(), message()).prop_map(|(queue, message)| Op::Send { queue, message }),
        3 => (queue(), prop::collection::vec(message(), 1..4), flaw())
            .prop_map(|(queue, entries, flaw)| Op::SendBatch { queue, entries, flaw }),
        22 => receive().prop_map(Op::Receive),
        5 => pick().prop_map(|pick| Op::Delete { pick }),
        2 => (prop::collection::vec(pick(), 1..4), flaw())
            .prop_map(|(picks, flaw)| Op::DeleteBatch { picks, flaw }),
        5 => (pick(), seconds()).prop_map(|(pick, seconds)| Op::ChangeVisibility { pick, seconds }),
        2 => (prop::collection::vec((pick(), seconds()), 1..4), flaw())
            .prop_map(|(entries, flaw)| Op::ChangeVisibilityBatch { entries, flaw }),
        1 => queue().prop_map(|queue| Op::Purge { queue }),
        4 => (queue(), attribute()).prop_map(|(queue, attribute)| Op::SetAttribute { queue, attribute }),
        1 => (queue(), prop::bool::weighted(0.3)).prop_map(|(queue, delete)| if delete {
            Op::DeleteQueue { queue }
        } else {
            Op::CreateQueue { queue }
        }),
        2 => (dead_letter_queue(), any::<bool>(), prop_oneof![Just(None), (1..4i64).prop_map(Some)])
            .prop_map(|(source, explicit_destination, rate)| Op::StartMoveTask {
                source,
                explicit_destination,
                rate,
            }),
        1 => dead_letter_queue().prop_map(|source| Op::ListMoveTasks { source }),
        1 => (dead_letter_queue(), prop::bool::weighted(0.2))
            .prop_map(|(source, garbage)| Op::CancelMoveTask { source, garbage }),
        37 => step().prop_map(Op::Advance),
        2 => (queue(), prop::collection::vec(rule(), 0..3))
            .prop_map(|(queue, rules)| Op::SetPolicy { queue, rules }),
        5 => (queue(), caller(), prop::collection::vec(message(), 1..3), any::<bool>())
            .prop_map(|(queue, caller, entries, batch)| Op::SendAs { queue, caller, entries, batch }),
    ]
}
