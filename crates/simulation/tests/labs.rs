//! Every shipped lab (web/scenarios/labs/*.json), proved over the seeds of
//! Check my fix: the file's own settings fail the goal; each of
//! `explain.fixes` meets it on every seed; each of `explain.nonFixes`
//! fails it, with its stated condition the first failure of every seed
//! that fails. The fixes and non-fixes the explanation promises are the ones
//! this test checks, so a lab cannot promise what the engine does not do.

use std::path::PathBuf;

use queuelab_simulation::{check_lab, CheckReport, Scenario, Settings};

fn labs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web/scenarios/labs")
}

/// The labs the page lists (web/scenarios/labs/index.json), in order.
fn listed() -> Vec<String> {
    let index = std::fs::read_to_string(labs_dir().join("index.json")).expect("labs/index.json");
    serde_json::from_str(&index).expect("labs/index.json: a list of file names")
}

fn labs() -> Vec<(String, Scenario)> {
    listed()
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(labs_dir().join(&name)).unwrap();
            let lab: Scenario =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, lab)
        })
        .collect()
}

fn check(name: &str, lab: &Scenario, settings: &Settings) -> CheckReport {
    check_lab(lab, settings).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn the_labs_index_lists_every_lab_file_once() {
    let mut files: Vec<String> = std::fs::read_dir(labs_dir())
        .expect("web/scenarios/labs")
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|name| name.ends_with(".json") && name != "index.json")
        .collect();
    files.sort();
    let mut index = listed();
    index.sort();
    assert_eq!(index, files, "web/scenarios/labs/index.json");
}

#[test]
fn the_shipped_labs_are_valid_labs() {
    let labs = labs();
    assert_eq!(labs.len(), 19, "the labs shipped so far");
    for (name, lab) in &labs {
        lab.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            lab.goal.is_some() && lab.explain.is_some() && !lab.knobs.is_empty(),
            "{name}"
        );
    }
}

/// Each shipped lab's own settings and the goal conditions they break:
/// exactly these, on every seed that fails, each with the words of the
/// lab's `explain.cause` that name it. A lab, or a changed cause, is a row
/// here.
const OWN_SETTINGS_BREAK: &[(&str, &[(&str, &str)])] = &[
    (
        "01-duplicate-orders.json",
        &[("sideEffectsAtMost", "charges the card a second time")],
    ),
    (
        "02-poison-loop.json",
        &[("deadLetterQueue", "is received forever")],
    ),
    (
        "03-lost-batches.json",
        &[
            (
                "deadLetterQueue",
                "the good invoices in it with the corrupt one, moves to the dead-letter queue",
            ),
            ("sideEffectsAtMost", "they are emailed again"),
        ],
    ),
    (
        "13-timeout-trap.json",
        &[("sideEffectsAtMost", "the report is sent twice")],
    ),
    (
        "14-silent-alarm.json",
        &[("alarmFires", "stays in INSUFFICIENT_DATA")],
    ),
    (
        "15-unwatched-dlq.json",
        &[("alarmNotifies", "The dead-letter queue has no alarm")],
    ),
    (
        "16-lost-reply.json",
        &[("noReplyLost", "SQS answers QueueDoesNotExist")],
    ),
    (
        "18-early-reminder.json",
        &[("notHandledBefore", "reminded early, before their DeliverAt")],
    ),
    (
        "17-vanished-payload.json",
        &[
            ("sideEffectsExactly", "is never read"),
            ("deadLetterQueue", "lands in the dead-letter queue"),
        ],
    ),
    (
        "19-throttled-burst.json",
        &[("noCallThrottled", "SQS answers RequestThrottled")],
    ),
    (
        "04-empty-receive-bill.json",
        &[
            ("emptyReceivesAtMost", "empty receives a minute"),
            (
                "costAtMostMicroUsd",
                "every ReceiveMessage is a billed request",
            ),
        ],
    ),
    (
        "05-slow-consumer-trap.json",
        &[
            ("sideEffectsAtMost", "and shipped twice"),
            (
                "noDuplicateDelivery",
                "the same orders are now held by two workers",
            ),
        ],
    ),
    (
        "06-fifo-order.json",
        &[("orderKeptPer", "the faster one ships first")],
    ),
    // An order in the dead-letter queue is never charged, so late too.
    (
        "07-retry-storm.json",
        &[
            ("deadLetterQueue", "lands in the dead-letter queue"),
            ("sideEffectsExactly", "lands in the dead-letter queue"),
            ("processedByMs", "lands in the dead-letter queue"),
        ],
    ),
    (
        "08-latency-spike.json",
        &[
            ("oldestAge", "the oldest order's age climbs"),
            ("processedByMs", "A backlog forms"),
        ],
    ),
    (
        "09-dlq-of-good-orders.json",
        &[
            ("processedByMs", "not by 35 s"),
            ("sideEffectsExactly", "never charged"),
        ],
    ),
    (
        "10-lost-notifications.json",
        &[(
            "noDeliveryLost",
            "SQS refuses every delivery with AccessDenied",
        )],
    ),
    (
        "11-wrong-account.json",
        &[
            ("noAccessDenied", "SQS refuses every call with AccessDenied"),
            ("processedByMs", "No order is ever delivered"),
        ],
    ),
    (
        "12-kms-bill.json",
        &[("kmsRequestsAtMost", "each is a billed KMS request")],
    ),
];

#[test]
fn each_labs_own_settings_fail_for_the_reasons_its_explanation_names_and_no_other() {
    use queuelab_simulation::{Simulation, CHECK_SEEDS};
    for (name, lab) in labs() {
        let named = OWN_SETTINGS_BREAK
            .iter()
            .find(|(file, _)| *file == name)
            .unwrap_or_else(|| panic!("{name}: list the conditions its own settings break"))
            .1;
        let cause = &lab.explain.as_ref().unwrap().cause;
        for (condition, words) in named {
            assert!(
                cause.contains(words),
                "{name}: its cause names {condition} with \"{words}\": {cause}"
            );
        }
        let expected: Vec<&str> = named.iter().map(|(c, _)| *c).collect();
        let mut failed = 0;
        for seed in CHECK_SEEDS {
            let mut run = lab.clone();
            run.seed = seed;
            let mut sim = Simulation::new(run, queuelab_engine::Config::default()).unwrap();
            sim.advance(lab.duration_ms);
            let broken: Vec<&str> = sim.goal_breaches().iter().map(|b| b.condition).collect();
            if broken.is_empty() {
                continue;
            }
            failed += 1;
            let mut sorted = broken.clone();
            sorted.sort_unstable();
            let mut want = expected.clone();
            want.sort_unstable();
            assert_eq!(sorted, want, "{name}, seed {seed}: broke {broken:?}");
        }
        assert!(
            failed > 0,
            "{name}: its own settings meet the goal on every seed"
        );
    }
}

#[test]
fn each_documented_fix_meets_the_goal_on_every_seed() {
    for (name, lab) in labs() {
        for fix in &lab.explain.as_ref().unwrap().fixes {
            let report = check(&name, &lab, &fix.settings);
            assert!(
                report.met,
                "{name}, fix \"{}\": {}",
                fix.name, report.summary
            );
        }
    }
}

#[test]
fn each_non_fix_fails_the_condition_it_names() {
    for (name, lab) in labs() {
        for non_fix in &lab.explain.as_ref().unwrap().non_fixes {
            let report = check(&name, &lab, &non_fix.settings);
            assert!(
                !report.met,
                "{name}, non-fix \"{}\" meets the goal",
                non_fix.name
            );
            assert!(
                report.failures.iter().all(|f| f.condition == non_fix.fails),
                "{name}, non-fix \"{}\" should fail {} first on every seed it fails: {:?}",
                non_fix.name,
                non_fix.fails,
                report
                    .failures
                    .iter()
                    .map(|f| &f.message)
                    .collect::<Vec<_>>()
            );
            // The report says why this is also wrong, in the lab's words.
            let moved = report.moves_the_problem.as_ref();
            assert_eq!(
                moved.map(|m| (&m.name, &m.why)),
                Some((&non_fix.name, &non_fix.why)),
                "{name}, non-fix \"{}\"",
                non_fix.name
            );
        }
    }
}

#[test]
fn a_check_names_no_non_fix_for_settings_near_it_or_for_the_labs_own() {
    for (name, lab) in labs() {
        assert_eq!(
            check(&name, &lab, &Settings::new()).moves_the_problem,
            None,
            "{name}"
        );
    }
    // A long timeout, but not the non-fix's three minutes: its words
    // ("stays invisible for three minutes") would not be true.
    let (name, lab) = labs().remove(0);
    let near: Settings = serde_json::from_str(r#"{"visibility": 170}"#).unwrap();
    let report = check(&name, &lab, &near);
    assert!(!report.met, "{name}: {}", report.summary);
    assert_eq!(report.moves_the_problem, None);
}

/// A lab's cases by name: its own settings, each fix, each non-fix.
fn cases(lab: &Scenario) -> Vec<(String, Settings)> {
    let explain = lab.explain.as_ref().unwrap();
    let named = (explain.fixes.iter().map(|f| (&f.name, &f.settings)))
        .chain(explain.non_fixes.iter().map(|f| (&f.name, &f.settings)));
    let mut cases = vec![("own settings".to_string(), Settings::new())];
    cases.extend(named.map(|(name, settings)| (name.clone(), settings.clone())));
    cases
}

/// Every lab's reports (its own settings, each fix, each non-fix), as
/// tests/fixtures/labs/<file> holds them: the Node test checks that the
/// wasm `checkLab` answers these same reports, byte for byte. Regenerate
/// with `QUEUELAB_BLESS=1 cargo test -p queuelab-simulation --test labs`
/// (which then fails: run again without it).
#[test]
fn check_reports_match_their_fixtures() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/labs");
    let mut golden = queuelab_golden::Golden::from_env();
    for (name, lab) in labs() {
        let reports: Vec<serde_json::Value> = cases(&lab)
            .into_iter()
            .map(|(case, settings)| {
                let report = check(&name, &lab, &settings);
                serde_json::json!({ "case": case, "settings": settings, "report": report })
            })
            .collect();
        let fresh = serde_json::to_string_pretty(&reports).unwrap() + "\n";
        let path = dir.join(&name);
        if golden.bless(&path, &fresh) {
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == fresh,
            "{name}: tests/fixtures/labs is stale; rerun with QUEUELAB_BLESS=1"
        );
    }
    golden.finish();
}

/// Prints a lab's report while tuning its numbers:
/// `LAB=duplicate-orders SETTINGS='{"visibility":10}' cargo test -p
/// queuelab-simulation --test labs print_report -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_report() {
    let wanted = std::env::var("LAB").unwrap_or_default();
    let settings: Settings =
        serde_json::from_str(&std::env::var("SETTINGS").unwrap_or("{}".into())).unwrap();
    for (name, lab) in labs().into_iter().filter(|(n, _)| n.contains(&wanted)) {
        let start = std::time::Instant::now();
        let report = check(&name, &lab, &settings);
        println!("{name} ({:?}): {}", start.elapsed(), report.summary);
        for f in &report.failures {
            println!("  {} {} {}", f.condition, f.at_ms, f.message);
        }
    }
}

/// Prints every case of the labs matching LAB (own settings, fixes,
/// non-fixes) with each failing seed's first breach, while tuning a lab.
#[test]
#[ignore]
fn print_cases() {
    let wanted = std::env::var("LAB").unwrap_or_default();
    for (name, lab) in labs().into_iter().filter(|(n, _)| n.contains(&wanted)) {
        for (case, settings) in cases(&lab) {
            let report = check(&name, &lab, &settings);
            println!("{name} / {case}: {}", report.summary);
            for f in report.failures.iter().take(3) {
                println!("    {} {}", f.condition, f.message);
            }
        }
    }
}
