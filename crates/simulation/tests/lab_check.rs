//! Check my fix as a resumable job (`LabCheck`): it runs the lab's seeds a
//! bounded amount of work at a time, so a page can give the browser its
//! turn between slices, show progress and cancel; and it holds the whole
//! check to a budget of work, refused before anything runs.

use std::path::PathBuf;

use queuelab_simulation::{
    check_lab, run_seed, CheckReport, LabCheck, Scenario, Settings, CHECK_SEEDS, CHECK_WORK_BUDGET,
    MAX_WORK_WITHOUT_ASKING,
};
use serde_json::json;

fn shipped(name: &str) -> Scenario {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/scenarios/labs")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The check run to its end in steps of at most `units`, with the
/// progress it reported after each step.
fn stepped(lab: &Scenario, settings: &Settings, units: u64) -> CheckReport {
    let mut check = LabCheck::new(lab, settings).expect("a check");
    let mut last = check.progress();
    assert_eq!(
        (last.seeds_done, last.seeds, last.units),
        (0, CHECK_SEEDS.len(), 0)
    );
    loop {
        let done = check.step(units).expect("runs");
        let now = check.progress();
        // Progress only moves forward, and every step makes some.
        assert!(now.units > last.units, "{last:?} -> {now:?}");
        assert!(now.seeds_done >= last.seeds_done && now.seeds_done <= now.seeds);
        assert!(now.at_ms <= now.duration_ms);
        assert_eq!(now.done, done);
        last = now;
        if done {
            break;
        }
        assert!(check.report().is_none(), "no verdict before the last seed");
    }
    assert_eq!(last.seeds_done, CHECK_SEEDS.len());
    check.report().cloned().expect("a verdict once done")
}

#[test]
fn a_check_stepped_in_slices_of_any_size_gives_the_report_of_one_go() {
    for name in ["01-duplicate-orders.json", "06-fifo-order.json"] {
        let lab = shipped(name);
        let explain = lab.explain.clone().unwrap();
        let cases = [Settings::new(), explain.fixes[0].settings.clone()]
            .into_iter()
            .chain([explain.non_fixes[0].settings.clone()]);
        for settings in cases {
            let whole = check_lab(&lab, &settings).expect("checked");
            // Each seed's run advanced in one call breaks the goal where
            // the check says it does.
            let made = lab.with_settings(&settings).unwrap();
            let one_advance: Vec<_> = (CHECK_SEEDS.iter())
                .filter_map(|seed| run_seed(&made, *seed).unwrap().0)
                .collect();
            assert_eq!(whole.failures, one_advance, "{name} {settings:?}");
            for units in [1, 7, 500, u64::MAX] {
                assert_eq!(
                    stepped(&lab, &settings, units),
                    whole,
                    "{name} {settings:?} in steps of {units}"
                );
            }
        }
    }
}

#[test]
fn a_check_reports_which_seed_it_is_running() {
    let lab = shipped("01-duplicate-orders.json");
    let mut check = LabCheck::new(&lab, &Settings::new()).expect("a check");
    let mut seeds_seen = Vec::new();
    // One moment a step: every seed is seen running.
    while !check.step(1).expect("runs") {
        let p = check.progress();
        if seeds_seen.last() != Some(&p.seed) {
            seeds_seen.push(p.seed);
        }
        assert_eq!(p.duration_ms, lab.duration_ms);
        assert_eq!(
            p.seeds_done,
            CHECK_SEEDS.iter().position(|s| *s == p.seed).unwrap()
        );
        assert!(p.estimated_units > 0 && p.estimated_units <= CHECK_WORK_BUDGET);
    }
    assert_eq!(seeds_seen, CHECK_SEEDS.to_vec());
    // Stepping a finished check does nothing more.
    let units = check.progress().units;
    assert!(check.step(1_000).unwrap());
    assert_eq!(check.progress().units, units);
}

/// One consumer short-polling every millisecond for `seconds`: about
/// 2,000 units of work a second.
fn busy_lab(seconds: u64) -> Scenario {
    serde_json::from_value(json!({
        "title": "A busy poller",
        "durationMs": seconds * 1000,
        "queues": [{ "name": "orders" }],
        "producers": [{ "name": "shop", "queue": "orders",
                        "sends": [{ "atMs": 0, "body": "order A-1001" }] }],
        "consumers": [{ "name": "worker", "queue": "orders", "pollIntervalMs": 1,
                        "processing": { "fixedMs": 10 } }],
        "goal": { "sideEffectsAtMost": 1 }
    }))
    .unwrap()
}

#[test]
fn a_check_past_its_work_budget_is_refused_naming_the_budget() {
    // Each seed's run is one a page plays without asking; twelve are not.
    assert_eq!(
        CHECK_WORK_BUDGET,
        CHECK_SEEDS.len() as u64 * MAX_WORK_WITHOUT_ASKING
    );
    let lab = busy_lab(2_000);
    let refused = LabCheck::new(&lab, &Settings::new())
        .err()
        .expect("refused before anything runs");
    let text = refused.to_string();
    assert_eq!(refused.path, "check");
    assert!(
        text.starts_with(
            "check must be at most 24,000,000 units of work (the check's budget: its 12 seeds' \
             runs together), got about "
        ),
        "{text}"
    );
    // The figure is the estimate's (it leans high by design): past the budget, whatever it is.
    let got: u64 = text
        ["check must be at most 24,000,000 units of work (the check's budget: its 12 \
                         seeds' runs together), got about "
            .len()..]
        .split(' ')
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap();
    assert!(got > CHECK_WORK_BUDGET, "{text}");
    assert!(
        text.ends_with(
            "poll less often (consumers' pollIntervalMs), send less (producers' rate), or \
             shorten durationMs"
        ),
        "{text}"
    );
    assert_eq!(check_lab(&lab, &Settings::new()).unwrap_err(), refused);
    // Within the budget, the same lab is checked.
    let short = busy_lab(20);
    assert!(LabCheck::new(&short, &Settings::new()).is_ok());
}
