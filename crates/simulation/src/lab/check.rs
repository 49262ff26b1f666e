//! "Check my fix": a lab run with the learner's settings over a fixed set
//! of seeds, each to its end, and the goal judged on every one. The seeds
//! do not depend on the file's `seed` (that one is for the walkthrough
//! run), so watching the file's run is no proof. Realism is off (the
//! contract AWS documents); the page's realism options do not apply.

use queuelab_engine::Config;
use serde::Serialize;

use crate::document::Settings;
use crate::numbers::count;
use crate::scenario::{FieldError, Scenario};
use crate::work::MAX_WORK_WITHOUT_ASKING;
use crate::{thousands, Measures, Simulation};

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

/// The most work a whole check may take, in the units of the work
/// estimate (`Simulation::work_estimate`), over all its seeds: each seed's
/// run as heavy as one a page plays without asking. A check estimated past
/// it is refused before anything runs (a check of 12 runs of 10,000,000
/// units each took 65 s in a tab); one within it runs in slices
/// ([`LabCheck::step`]).
pub const CHECK_WORK_BUDGET: u64 = CHECK_SEEDS.len() as u64 * MAX_WORK_WITHOUT_ASKING;

/// How far a check has come.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CheckProgress {
    /// Seeds whose runs have ended.
    pub seeds_done: usize,
    /// Every seed the check runs (12).
    pub seeds: usize,
    /// The seed running now (once done, the last one).
    pub seed: u64,
    /// The running seed's virtual moment, and the moment its run ends.
    pub at_ms: u64,
    pub duration_ms: u64,
    /// Work done so far: the events the runs logged, at least one per
    /// moment run (the closest measure of the estimate's units).
    pub units: u64,
    /// The whole check's estimate, which the check's budget bounds
    /// (`CHECK_WORK_BUDGET`).
    pub estimated_units: u64,
    /// Every seed has run: the report is ready.
    pub done: bool,
}

/// Check my fix as a job a host runs a slice at a time: `step` runs the
/// seeds' runs (one at a time, each from a fresh `Simulation`) until about
/// `max_units` of work are done, so a page gives the browser its turn
/// between steps, shows `progress` and can drop the job to cancel it. The
/// verdict is the same however the steps are cut: a run advanced moment by
/// moment is the run advanced in one go.
pub struct LabCheck {
    /// The lab with the settings applied.
    scenario: Scenario,
    estimated_units: u64,
    /// Index in `CHECK_SEEDS` of the seed running (or next to run).
    next: usize,
    running: Option<Simulation>,
    units: u64,
    failures: Vec<CheckFailure>,
    worst: Measures,
    report: Option<CheckReport>,
}

impl LabCheck {
    /// A check of `lab` with `settings` (a partial map by knob id; the
    /// others keep the file's values), ready to step. `Err` is a setting
    /// refused at `settings.<id>`, a lab that cannot run, or a check
    /// estimated past [`CHECK_WORK_BUDGET`] (at `check`).
    pub fn new(lab: &Scenario, settings: &Settings) -> Result<LabCheck, FieldError> {
        let scenario = lab.with_settings(settings)?;
        if scenario.goal.is_none() {
            return Err(FieldError {
                path: "goal".into(),
                rule: "given: only a lab (a scenario with a goal) can be checked".into(),
                got: "none".into(),
            });
        }
        // The estimate reads the scenario's numbers, not its seed: the
        // first seed's run answers for every one, and is the run kept.
        let first = start_seed(&scenario, CHECK_SEEDS[0])?;
        let per_seed = first.work_estimate(scenario.duration_ms);
        let estimated_units = per_seed.saturating_mul(CHECK_SEEDS.len() as u64);
        if estimated_units > CHECK_WORK_BUDGET {
            return Err(FieldError {
                path: "check".into(),
                rule: format!(
                    "at most {} units of work (the check's budget: its {} seeds' runs together)",
                    thousands(CHECK_WORK_BUDGET),
                    CHECK_SEEDS.len()
                ),
                got: format!(
                    "about {} ({} seeds of about {}): poll less often (consumers' \
                     pollIntervalMs), send less (producers' rate), or shorten durationMs",
                    thousands(estimated_units),
                    CHECK_SEEDS.len(),
                    thousands(per_seed),
                ),
            });
        }
        Ok(LabCheck {
            scenario,
            estimated_units,
            next: 0,
            running: Some(first),
            units: 0,
            failures: Vec::new(),
            worst: Measures::default(),
            report: None,
        })
    }

    /// Runs moments of the seeds' runs until at least `max_units` of work
    /// are done (at least one moment; a moment is never cut, so a step may
    /// pass `max_units` by one moment's work) or the check ends. Returns
    /// whether it has ended; a finished check does nothing more.
    pub fn step(&mut self, max_units: u64) -> Result<bool, FieldError> {
        let end = self.scenario.duration_ms;
        let mut used = 0u64;
        while self.report.is_none() && (used == 0 || used < max_units) {
            let seed = CHECK_SEEDS[self.next];
            let sim = match &mut self.running {
                Some(sim) => sim,
                None => self.running.insert(start_seed(&self.scenario, seed)?),
            };
            // The next moment anything happens, or the end of the run.
            let to = sim.next_event_time().filter(|t| *t <= end).unwrap_or(end);
            let before = sim.next_event_seq();
            sim.advance(to - sim.now());
            let work = (sim.next_event_seq() - before).max(1);
            used = used.saturating_add(work);
            self.units = self.units.saturating_add(work);
            if sim.now() >= end {
                let sim = self.running.take().expect("running");
                self.end_seed(&sim, seed);
            }
        }
        Ok(self.report.is_some())
    }

    /// How far the check has come.
    pub fn progress(&self) -> CheckProgress {
        let seeds = CHECK_SEEDS.len();
        let done = self.report.is_some();
        CheckProgress {
            seeds_done: self.next,
            seeds,
            seed: CHECK_SEEDS[self.next.min(seeds - 1)],
            at_ms: match (&self.running, done) {
                (Some(sim), _) => sim.now(),
                (None, true) => self.scenario.duration_ms,
                (None, false) => 0,
            },
            duration_ms: self.scenario.duration_ms,
            units: self.units,
            estimated_units: self.estimated_units,
            done,
        }
    }

    /// The verdict, once every seed has run.
    pub fn report(&self) -> Option<&CheckReport> {
        self.report.as_ref()
    }

    /// A seed's run reached its end: its breach and measures are kept;
    /// after the last seed, the verdict.
    fn end_seed(&mut self, sim: &Simulation, seed: u64) {
        let (breach, measures) = judge(sim, seed);
        let worst = &mut self.worst;
        worst.requests = worst.requests.max(measures.requests);
        worst.cost_nano_usd = worst.cost_nano_usd.max(measures.cost_nano_usd);
        worst.empty_receives = worst.empty_receives.max(measures.empty_receives);
        worst.longest_wait_ms = worst.longest_wait_ms.max(measures.longest_wait_ms);
        worst.most_side_effects = worst.most_side_effects.max(measures.most_side_effects);
        worst.kms_requests = worst.kms_requests.max(measures.kms_requests);
        worst.alarm_at_ms = worst.alarm_at_ms.max(measures.alarm_at_ms);
        self.failures.extend(breach);
        self.next += 1;
        if self.next == CHECK_SEEDS.len() {
            self.report = Some(verdict(
                &self.scenario,
                std::mem::take(&mut self.failures),
                &self.worst,
            ));
        }
    }
}

/// Runs `lab` with `settings` (a partial map by knob id; the others keep
/// the file's values) over [`CHECK_SEEDS`], in one go. `Err` is a setting
/// refused at `settings.<id>`, a lab that cannot run, or a check past
/// [`CHECK_WORK_BUDGET`].
pub fn check_lab(lab: &Scenario, settings: &Settings) -> Result<CheckReport, FieldError> {
    let mut check = LabCheck::new(lab, settings)?;
    while !check.step(u64::MAX)? {}
    Ok(check.report.expect("a finished check has its report"))
}

/// The report over every seed, from each failing seed's first breach and
/// the worst figures of all.
fn verdict(scenario: &Scenario, failures: Vec<CheckFailure>, worst: &Measures) -> CheckReport {
    let seeds = CHECK_SEEDS.to_vec();
    let summary = match failures.first() {
        None => met_summary(scenario, worst),
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
    CheckReport {
        met: failures.is_empty(),
        seeds,
        failures,
        summary,
        moves_the_problem,
    }
}

/// A seed's run, made and ready at time 0.
fn start_seed(scenario: &Scenario, seed: u64) -> Result<Simulation, FieldError> {
    let mut run = scenario.clone();
    run.seed = seed;
    Simulation::new(run, Config::default()).map_err(|e| FieldError {
        path: "settings".into(),
        rule: "settings the lab can run with".into(),
        got: e.message,
    })
}

/// A finished run's first breach, and what it measured.
fn judge(simulation: &Simulation, seed: u64) -> (Option<CheckFailure>, Measures) {
    let failure = simulation.goal_breach().map(|b| CheckFailure {
        seed,
        condition: b.condition.to_string(),
        at_ms: b.at_ms,
        message_id: b.message_id.clone(),
        message: format!("with seed {seed}, {}", b.text),
    });
    let measures = simulation.goal_measures().cloned().unwrap_or_default();
    (failure, measures)
}

/// One seed's run to its end: its first breach, and what it measured.
pub fn run_seed(
    scenario: &Scenario,
    seed: u64,
) -> Result<(Option<CheckFailure>, Measures), FieldError> {
    let mut simulation = start_seed(scenario, seed)?;
    simulation.advance(scenario.duration_ms);
    Ok(judge(&simulation, seed))
}

/// "Met over 12 seeds: at most 1 side effect per message; longest wait
/// 1.9 s; at most 84 requests ($0.000034)."
fn met_summary(s: &Scenario, worst: &Measures) -> String {
    let goal = s.goal.as_ref().expect("checked");
    let mut parts = Vec::new();
    if goal.side_effects_at_most.is_some() || goal.side_effects_exactly.is_some() {
        let effect = super::goal::effect_word(s);
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
            crate::teach::explain::secs(worst.longest_wait_ms)
        ));
    }
    if goal.empty_receives_at_most.is_some() {
        parts.push(format!(
            "at most {}",
            count(worst.empty_receives, "empty receive", "empty receives")
        ));
    }
    if goal.requests_at_most.is_some() || goal.cost_at_most_micro_usd.is_some() {
        parts.push(format!(
            "at most {} ({})",
            count(worst.requests, "request", "requests"),
            super::goal::dollars(worst.cost_nano_usd)
        ));
    }
    if goal.kms_requests_at_most.is_some() {
        parts.push(format!(
            "at most {} to KMS",
            count(worst.kms_requests, "request", "requests")
        ));
    }
    if goal.alarm_fires.is_some() || goal.alarm_notifies.is_some() {
        parts.push(format!(
            "the alarm fired by t = {} at the latest",
            crate::teach::explain::secs(worst.alarm_at_ms)
        ));
    }
    let seeds = CHECK_SEEDS.len();
    match parts.is_empty() {
        true => format!("Met over {seeds} seeds."),
        false => format!("Met over {seeds} seeds: {}.", parts.join("; ")),
    }
}
