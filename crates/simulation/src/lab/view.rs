//! A lab as a page shows it: the goal's conditions in words, each knob
//! with its kind, range and choices, the settings the scenario has now,
//! and the explanation. Pages read all of it from here (the binding's
//! `labView`), so a knob's range, a choice's words and the goal's
//! sentences have one home, beside the rules that check them.

use serde::Serialize;

use super::check::CHECK_SEEDS;
use super::goal::ConditionText;
use super::Kind;
use crate::document::{Explain, Knob, KnobValue, NonFix, Settings, Target};
use crate::scenario::Scenario;

/// What a page needs to show a lab.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LabView {
    /// The goal's one sentence (may be empty).
    pub summary: String,
    /// The goal's conditions, in words.
    pub conditions: Vec<ConditionText>,
    pub knobs: Vec<KnobView>,
    /// Each knob's value in this scenario now: the lab's broken settings
    /// for the file itself, the learner's for a scenario made with them.
    pub settings: Settings,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub explain: Option<Explain>,
    /// The seeds Check my fix runs.
    pub seeds: Vec<u64>,
}

/// One knob, ready for a form.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct KnobView {
    pub id: String,
    pub label: String,
    pub help: String,
    pub kind: KnobKind,
    /// A number knob's range.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub min: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub max: Option<i64>,
    /// A number knob may be "off" (the field left out).
    pub off: bool,
    /// The scenario field the knob's value is, by its path in the
    /// vocabulary (`vocabulary()`: its unit and the engine's range), or
    /// null when it is no one field (a queue's type).
    pub field: Option<String>,
    /// A choice knob's choices, in order.
    pub choices: Vec<KnobChoice>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum KnobKind {
    Number,
    Toggle,
    Choice,
    /// A document as text: a queue policy's JSON, in a text area.
    Text,
}

/// A choice: its value in settings, and its words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct KnobChoice {
    pub value: String,
    pub label: String,
}

impl Scenario {
    /// The lab view of this scenario, or None when it has no goal.
    pub fn lab_view(&self) -> Option<LabView> {
        let goal = self.goal.as_ref()?;
        Some(LabView {
            summary: goal.summary.clone(),
            conditions: goal.conditions(self),
            knobs: self.knobs.iter().map(Knob::view).collect(),
            settings: self.lab_settings(),
            explain: self.explain.clone(),
            seeds: CHECK_SEEDS.to_vec(),
        })
    }
}

impl Knob {
    fn view(&self) -> KnobView {
        let (kind, choices) = match self.target.kind() {
            Kind::Int { .. } => (KnobKind::Number, Vec::new()),
            Kind::Bool => (KnobKind::Toggle, Vec::new()),
            Kind::Text => (KnobKind::Text, Vec::new()),
            Kind::Choice(values) => (
                KnobKind::Choice,
                values
                    .iter()
                    .map(|v| KnobChoice {
                        value: v.to_string(),
                        label: choice_label(&self.target, v),
                    })
                    .collect(),
            ),
        };
        KnobView {
            id: self.id.clone(),
            label: self.label.clone(),
            help: self.help.clone(),
            kind,
            min: self.min,
            max: self.max,
            off: self.off,
            field: self.target.value_field(),
            choices,
        }
    }
}

/// A choice's words: "FIFO", "A group per customer".
fn choice_label(target: &Target, value: &str) -> String {
    match (target, value) {
        (_, "standard") => "Standard".into(),
        (_, "fifo") => "FIFO".into(),
        (Target::GroupId { producer, .. }, "one") => {
            format!("One group for every message ({producer})")
        }
        (Target::GroupId { attribute, .. }, "perAttribute") => {
            format!("A group per {attribute}")
        }
        (_, "perMessage") => "A group per message".into(),
        (Target::Encryption { kms_key, .. }, "kms") => format!("SSE-KMS ({kms_key})"),
        (Target::Encryption { .. }, "sqs") => "SSE-SQS (keys SQS owns)".into(),
        (Target::Encryption { .. }, "none") => "None (unencrypted)".into(),
        (Target::AddAlarm { .. }, "none") => "No alarm".into(),
        (Target::AddAlarm { alarm }, metric) => match &alarm.queue {
            Some(queue) => format!("On {queue}'s {metric}"),
            None => format!("On {metric}"),
        },
        (Target::BatchResponse { .. }, "valid") => "The failed records' ids".into(),
        (Target::BatchResponse { .. }, "unknownId") => "An id of no record in the batch".into(),
        (Target::BatchResponse { .. }, "null") => "itemIdentifier: null".into(),
        (Target::BatchResponse { .. }, "malformed") => {
            "messageId where Lambda reads itemIdentifier".into()
        }
        (Target::BatchResponse { .. }, "empty") => "An empty list".into(),
        (Target::DeleteObject { .. }, "withMessage") => {
            "After the message is processed and deleted".into()
        }
        (Target::DeleteObject { .. }, "onReceive") => "As soon as it is read (on receive)".into(),
        (Target::DeleteObject { .. }, "never") => "Never".into(),
        _ => value.into(),
    }
}

impl Explain {
    /// The "moves the problem" non-fix the learner chose, when a check
    /// failed `condition`, the one it names, and the learner's settings
    /// (every knob's value) are exactly its own: its words describe those
    /// values, so a near miss gets the run's own failure only.
    pub fn moved_problem(&self, settings: &Settings, condition: &str) -> Option<&NonFix> {
        self.non_fixes.iter().find(|n| {
            n.fails == condition
                && n.settings
                    .iter()
                    .all(|(id, v)| same(settings.get(id).unwrap_or(&KnobValue::OFF), v))
        })
    }
}

/// Two knob values alike: a text knob's documents alike as JSON, however
/// they are laid out (a policy the lab file writes on one line is the one
/// the page shows indented).
fn same(a: &KnobValue, b: &KnobValue) -> bool {
    match (a, b) {
        (KnobValue::Text(x), KnobValue::Text(y)) if x != y => {
            let parse = |t: &str| serde_json::from_str::<serde_json::Value>(t).ok();
            parse(x).is_some_and(|v| Some(v) == parse(y))
        }
        _ => a == b,
    }
}
