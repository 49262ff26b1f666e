//! How CloudWatch decides an alarm's state from its latest datapoints
//! (CloudWatch User Guide, "How alarm state is evaluated when data is
//! missing"). It retrieves more periods than `EvaluationPeriods` (the
//! evaluation range: N + 2 here, the guide's 5 for N = 3), then:
//!
//! - with at least N real datapoints in the range, the latest N decide,
//!   whatever the missing-data setting;
//! - with none, `missing` gives INSUFFICIENT_DATA, `ignore` keeps the
//!   state, `breaching` ALARM, `notBreaching` OK;
//! - with some, `breaching` and `notBreaching` fill the missing ones as
//!   few times as possible, and `missing` and `ignore` decide from the
//!   real ones when they can (M breaching: ALARM; any within the
//!   threshold: OK). Otherwise (every real one breaching, fewer than M)
//!   `ignore` keeps the state and `missing` gives ALARM when the oldest
//!   period of the range has a datapoint (the breach has lasted through
//!   the range), INSUFFICIENT_DATA when it does not: the guide's tables,
//!   row by row (tests below).

use serde::Serialize;

use crate::document::{ComparisonOperator, TreatMissingData};

/// The periods an alarm of `n` evaluation periods retrieves.
pub fn range_len(n: u32) -> usize {
    n as usize + 2
}

/// An alarm's state, in CloudWatch's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[allow(clippy::upper_case_acronyms)]
pub enum AlarmState {
    OK,
    ALARM,
    #[serde(rename = "INSUFFICIENT_DATA")]
    InsufficientData,
}

impl AlarmState {
    pub fn word(self) -> &'static str {
        match self {
            AlarmState::OK => "OK",
            AlarmState::ALARM => "ALARM",
            AlarmState::InsufficientData => "INSUFFICIENT_DATA",
        }
    }
}

/// What one evaluation needs of the alarm.
pub struct Rule {
    pub threshold: f64,
    pub comparison: ComparisonOperator,
    /// N.
    pub evaluation_periods: u32,
    /// M.
    pub datapoints_to_alarm: u32,
    pub treat_missing: TreatMissingData,
}

impl Rule {
    pub fn breaches(&self, value: f64) -> bool {
        match self.comparison {
            ComparisonOperator::GreaterThanOrEqualToThreshold => value >= self.threshold,
            ComparisonOperator::GreaterThanThreshold => value > self.threshold,
            ComparisonOperator::LessThanThreshold => value < self.threshold,
            ComparisonOperator::LessThanOrEqualToThreshold => value <= self.threshold,
        }
    }

    fn words(&self) -> &'static str {
        match self.comparison {
            ComparisonOperator::GreaterThanOrEqualToThreshold => "at or above",
            ComparisonOperator::GreaterThanThreshold => "above",
            ComparisonOperator::LessThanThreshold => "below",
            ComparisonOperator::LessThanOrEqualToThreshold => "at or below",
        }
    }
}

/// An evaluation's outcome: the state and why, in words.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub state: AlarmState,
    pub reason: String,
}

/// The state the datapoints of the evaluation range (oldest first; None
/// is a missing one) give an alarm now in `current`.
pub fn evaluate(rule: &Rule, range: &[Option<f64>], current: AlarmState) -> Verdict {
    let n = rule.evaluation_periods as usize;
    let m = rule.datapoints_to_alarm as usize;
    let real: Vec<f64> = range.iter().flatten().copied().collect();
    let threshold = crate::numbers::plain(rule.threshold);
    if real.len() >= n {
        let latest = &real[real.len() - n..];
        let breaching = latest.iter().filter(|v| rule.breaches(**v)).count();
        let state = if breaching >= m {
            AlarmState::ALARM
        } else {
            AlarmState::OK
        };
        let reason = match latest {
            [value] => format!(
                "the latest datapoint ({}) is {}{} {threshold}",
                crate::numbers::plain(*value),
                if breaching == 1 { "" } else { "not " },
                rule.words(),
            ),
            _ => format!(
                "{breaching} of the latest {n} datapoints are {} {threshold} ({}); it takes {m} for ALARM",
                rule.words(),
                list(latest),
            ),
        };
        return Verdict { state, reason };
    }
    let missing = n - real.len();
    let breaching = real.iter().filter(|v| rule.breaches(**v)).count();
    let within = real.len() - breaching;
    let seen = match real.len() {
        0 => format!("no datapoint in the latest {} periods", range.len()),
        k => format!(
            "{k} datapoint{} in the latest {} periods ({}), {breaching} {} {threshold}",
            if k == 1 { "" } else { "s" },
            range.len(),
            list(&real),
            rule.words()
        ),
    };
    let (state, how) = match rule.treat_missing {
        TreatMissingData::Breaching => {
            let state = if breaching + missing >= m {
                AlarmState::ALARM
            } else {
                AlarmState::OK
            };
            (state, format!("{missing} missing counted as breaching"))
        }
        TreatMissingData::NotBreaching => {
            let state = if breaching >= m {
                AlarmState::ALARM
            } else {
                AlarmState::OK
            };
            (state, format!("{missing} missing counted as within"))
        }
        TreatMissingData::Missing | TreatMissingData::Ignore if breaching >= m => {
            (AlarmState::ALARM, "enough breaching datapoints".into())
        }
        TreatMissingData::Missing | TreatMissingData::Ignore if within > 0 => {
            (AlarmState::OK, "one within the threshold".into())
        }
        TreatMissingData::Ignore => (current, "missing data ignored: state kept".into()),
        TreatMissingData::Missing if range.first().is_some_and(Option::is_some) => (
            AlarmState::ALARM,
            "missing data not considered: the oldest period breached and none since is within"
                .into(),
        ),
        TreatMissingData::Missing => (
            AlarmState::InsufficientData,
            "missing data not considered".into(),
        ),
    };
    Verdict {
        state,
        reason: format!("{seen}; {how}"),
    }
}

fn list(values: &[f64]) -> String {
    let words: Vec<String> = values.iter().map(|v| crate::numbers::plain(*v)).collect();
    words.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use AlarmState::*;

    /// The guide's notation: 0 within, X breaching, - missing.
    fn range(text: &str) -> Vec<Option<f64>> {
        text.split_whitespace()
            .map(|c| match c {
                "0" => Some(0.0),
                "X" => Some(10.0),
                _ => None,
            })
            .collect()
    }

    fn rule(m: u32, n: u32, treat: TreatMissingData) -> Rule {
        Rule {
            threshold: 5.0,
            comparison: ComparisonOperator::GreaterThanThreshold,
            evaluation_periods: n,
            datapoints_to_alarm: m,
            treat_missing: treat,
        }
    }

    /// Each row: the datapoints, then the state for missing, ignore,
    /// breaching and notBreaching (None: the state is kept).
    fn check(m: u32, n: u32, rows: &[(&str, [Option<AlarmState>; 4])]) {
        use TreatMissingData::*;
        for (points, expected) in rows {
            for (treat, want) in [Missing, Ignore, Breaching, NotBreaching]
                .iter()
                .zip(expected)
            {
                for current in [OK, ALARM, InsufficientData] {
                    let got = evaluate(&rule(m, n, *treat), &range(points), current).state;
                    assert_eq!(
                        got,
                        want.unwrap_or(current),
                        "{points} {treat:?} from {current:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_3_of_3_alarm_with_missing_data_follows_the_guides_table() {
        check(
            3,
            3,
            &[
                ("0 - X - X", [Some(OK), Some(OK), Some(OK), Some(OK)]),
                ("0 - - - -", [Some(OK), Some(OK), Some(OK), Some(OK)]),
                (
                    "- - - - -",
                    [Some(InsufficientData), None, Some(ALARM), Some(OK)],
                ),
                (
                    "0 X X - X",
                    [Some(ALARM), Some(ALARM), Some(ALARM), Some(ALARM)],
                ),
                (
                    "- - - - X",
                    [Some(InsufficientData), None, Some(ALARM), Some(OK)],
                ),
                ("X - - - -", [Some(ALARM), None, Some(ALARM), Some(OK)]),
            ],
        );
    }

    #[test]
    fn a_2_of_3_alarm_with_missing_data_follows_the_guides_table() {
        check(
            2,
            3,
            &[
                (
                    "0 - X - X",
                    [Some(ALARM), Some(ALARM), Some(ALARM), Some(ALARM)],
                ),
                (
                    "0 0 X 0 X",
                    [Some(ALARM), Some(ALARM), Some(ALARM), Some(ALARM)],
                ),
                ("0 - X - -", [Some(OK), Some(OK), Some(ALARM), Some(OK)]),
                ("- - - - 0", [Some(OK), Some(OK), Some(ALARM), Some(OK)]),
                (
                    "- - - - X",
                    [Some(InsufficientData), None, Some(ALARM), Some(OK)],
                ),
            ],
        );
    }

    #[test]
    fn with_enough_datapoints_the_latest_n_decide_and_the_reason_lists_them() {
        let rule = Rule {
            threshold: 1000.0,
            ..rule(3, 3, TreatMissingData::Missing)
        };
        let verdict = evaluate(&rule, &range_of(&[900.0, 1204.0, 1311.0, 1420.0]), OK);
        assert_eq!(verdict.state, ALARM);
        assert_eq!(
            verdict.reason,
            "3 of the latest 3 datapoints are above 1000 (1204, 1311, 1420); it takes 3 for ALARM"
        );
    }

    fn range_of(values: &[f64]) -> Vec<Option<f64>> {
        values.iter().map(|v| Some(*v)).collect()
    }

    #[test]
    fn each_comparison_operator_compares_as_its_name_says() {
        use ComparisonOperator::*;
        let at = |comparison, value| {
            Rule {
                comparison,
                ..rule(1, 1, TreatMissingData::Missing)
            }
            .breaches(value)
        };
        assert!(at(GreaterThanOrEqualToThreshold, 5.0) && !at(GreaterThanOrEqualToThreshold, 4.9));
        assert!(at(GreaterThanThreshold, 5.1) && !at(GreaterThanThreshold, 5.0));
        assert!(at(LessThanThreshold, 4.9) && !at(LessThanThreshold, 5.0));
        assert!(at(LessThanOrEqualToThreshold, 5.0) && !at(LessThanOrEqualToThreshold, 5.1));
    }
}
