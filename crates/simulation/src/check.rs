//! "Check my fix": a lab run with the learner's settings over a fixed set
//! of seeds, each to its end, and the goal judged on every one. The seeds
//! do not depend on the file's `seed` (that one is for the walkthrough
//! run), so watching the file's run is no proof. Realism is off (the
//! contract AWS documents); the page's realism options do not apply.

use queuelab_engine::Config;
use serde::Serialize;

use crate::lab::Settings;
use crate::scenario::{FieldError, Scenario};
use crate::{Measures, Simulation};

/// The seeds every check runs, more than the 10 a proof needs.
pub const CHECK_SEEDS: [u64; 12] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/// A seed whose run broke the goal: its first breach.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CheckFailure {
    pub seed: u64,
    /// The condition's id ("sideEffectsAtMost").
    pub condition: String,
    /// The virtual moment it broke: open the run with this seed there.
    pub at_ms: u64,
    /// The message it is about, when it is about one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub message_id: Option<String>,
    /// "with seed 7, order A-1003 was charged twice at t = 12.4 s (by
    /// worker-1, then worker-2)".
    pub message: String,
}

/// The verdict over every seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CheckReport {
    /// Every condition held on every seed.
    pub met: bool,
    pub seeds: Vec<u64>,
    /// The first breach of each failing seed, in seed order.
    pub failures: Vec<CheckFailure>,
    /// One sentence: what held (with the worst figures), or how many
    /// seeds failed and the first failure.
    pub summary: String,
    /// When the settings are one of the lab's "moves the problem" non-fixes
    /// and a seed failed the condition it breaks: why that fix is also
    /// wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "contract", ts(optional))]
    pub moves_the_problem: Option<MovedProblem>,
}

/// A non-fix the learner chose: its name and why it is also wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
pub struct MovedProblem {
    pub name: String,
    pub why: String,
}

/// Runs `lab` with `settings` (a partial map by knob id; the others keep
/// the file's values) over [`CHECK_SEEDS`]. `Err` is a setting refused
/// at `settings.<id>`, or a lab that cannot run.
pub fn check_lab(lab: &Scenario, settings: &Settings) -> Result<CheckReport, FieldError> {
    let scenario = lab.with_settings(settings)?;
    if scenario.goal.is_none() {
        return Err(FieldError {
            path: "goal".into(),
            rule: "given: only a lab (a scenario with a goal) can be checked".into(),
            got: "none".into(),
        });
    }
    let mut failures = Vec::new();
    let mut worst = Measures::default();
    for seed in CHECK_SEEDS {
        let (breach, measures) = run_seed(&scenario, seed)?;
        worst.requests = worst.requests.max(measures.requests);
        worst.cost_nano_usd = worst.cost_nano_usd.max(measures.cost_nano_usd);
        worst.empty_receives = worst.empty_receives.max(measures.empty_receives);
        worst.longest_wait_ms = worst.longest_wait_ms.max(measures.longest_wait_ms);
        worst.most_side_effects = worst.most_side_effects.max(measures.most_side_effects);
        if let Some(failure) = breach {
            failures.push(failure);
        }
    }
    let seeds = CHECK_SEEDS.to_vec();
    let summary = match failures.first() {
        None => met_summary(&scenario, &worst),
        Some(first) => format!(
            "Not met on {} of {} seeds. First: {}.",
            failures.len(),
            seeds.len(),
            first.message
        ),
    };
    let effective = scenario.lab_settings();
    let moves_the_problem = scenario.explain.as_ref().and_then(|explain| {
        let n = failures
            .iter()
            .find_map(|f| explain.moved_problem(&effective, &f.condition))?;
        Some(MovedProblem {
            name: n.name.clone(),
            why: n.why.clone(),
        })
    });
    Ok(CheckReport {
        met: failures.is_empty(),
        seeds,
        failures,
        summary,
        moves_the_problem,
    })
}

/// One seed's run to its end: its first breach, and what it measured.
pub fn run_seed(
    scenario: &Scenario,
    seed: u64,
) -> Result<(Option<CheckFailure>, Measures), FieldError> {
    let mut run = scenario.clone();
    run.seed = seed;
    let mut simulation = Simulation::new(run, Config::default()).map_err(|e| FieldError {
        path: "settings".into(),
        rule: "settings the lab can run with".into(),
        got: e.message,
    })?;
    simulation.advance(scenario.duration_ms);
    let failure = simulation.goal_breach().map(|b| CheckFailure {
        seed,
        condition: b.condition.to_string(),
        at_ms: b.at_ms,
        message_id: b.message_id.clone(),
        message: format!("with seed {seed}, {}", b.text),
    });
    let measures = simulation.goal_measures().cloned().unwrap_or_default();
    Ok((failure, measures))
}

/// "Met over 12 seeds: at most 1 side effect per message; longest wait
/// 1.9 s; at most 84 requests ($0.000034)."
fn met_summary(s: &Scenario, worst: &Measures) -> String {
    let goal = s.goal.as_ref().expect("checked");
    let mut parts = Vec::new();
    if goal.side_effects_at_most.is_some() || goal.side_effects_exactly.is_some() {
        let effect = s
            .consumers
            .first()
            .map_or("processed", |c| c.side_effect.as_str());
        parts.push(format!(
            "no message {effect} more than {}",
            match worst.most_side_effects {
                0 | 1 => "once".to_string(),
                2 => "twice".to_string(),
                n => format!("{n} times"),
            }
        ));
    }
    if goal.oldest_age.is_some() {
        parts.push(format!(
            "longest wait {}",
            crate::explain::secs(worst.longest_wait_ms)
        ));
    }
    if goal.empty_receives_at_most.is_some() {
        parts.push(format!("at most {} empty receives", worst.empty_receives));
    }
    if goal.requests_at_most.is_some() || goal.cost_at_most_micro_usd.is_some() {
        parts.push(format!(
            "at most {} requests ({})",
            worst.requests,
            crate::goal::dollars(worst.cost_nano_usd)
        ));
    }
    let seeds = CHECK_SEEDS.len();
    match parts.is_empty() {
        true => format!("Met over {seeds} seeds."),
        false => format!("Met over {seeds} seeds: {}.", parts.join("; ")),
    }
}
