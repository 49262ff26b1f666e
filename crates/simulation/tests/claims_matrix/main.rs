//! The claims test: every shipped scenario and lab played over a matrix of
//! changed runs (tests/claims_matrix/matrix.rs: every setting the page offers at
//! its bounds and in between, each behaviour switched, each lab knob and
//! named fix, seeds 1 to 5, realism off and on), failing if any narration
//! line, checkpoint verdict, "Why:" or recap fact shown is false for its
//! run, as an oracle reading only the run's log judges it
//! (tests/claims_matrix/oracle.rs). The test command plays a fixed tenth of the
//! matrix; scripts/claims-matrix.sh plays all of it (the ignored test).
//! docs/testing.md gives their sizes and times.

mod conditions;
mod facts;
mod fate;
mod lines;
mod matrix;
mod oracle;
mod play;
mod report;
mod verdicts;
mod why;

use queuelab_simulation::{Kind, LogEvent, Scenario, SimEvent};

/// Kinds of false sentence the matrix finds and that are not fixed yet,
/// each with why (the test prints every example): (the oracle's tag, the
/// sentence and its cause). Empty: every kind it found is fixed. An entry
/// that no longer occurs fails the whole matrix, so the list only shrinks.
const KNOWN_FALSE: &[(&str, &str)] = &[];

/// The findings of `report`: none but the known kinds (and, over the whole
/// matrix, every known kind still found: a fixed one leaves the list).
fn assert_true(report: &report::Report, whole: bool) {
    eprintln!("{}", report.summary());
    assert!(
        report.claims > 0,
        "the matrix weighed nothing: {}",
        report.summary()
    );
    let known = |class: &str| KNOWN_FALSE.iter().any(|(k, _)| *k == class);
    eprintln!("known false sentences:\n{}", report.text(known));
    let new = report.text(|c| !known(c));
    assert!(
        new.is_empty(),
        "{}\nsentences false for their run:\n{new}",
        report.summary()
    );
    let found = report.classes();
    let gone: Vec<&str> = (KNOWN_FALSE.iter().map(|(k, _)| *k))
        .filter(|k| !found.iter().any(|f| f == k))
        .collect();
    assert!(
        !whole || gone.is_empty(),
        "no run shows these any more: remove them from KNOWN_FALSE: {gone:?}"
    );
}

#[test]
fn every_sentence_of_a_fixed_sample_of_changed_runs_is_true_for_its_run() {
    // Every cell once, its seed and realism taken in turn from its number:
    // a tenth of the matrix, every change of every file.
    let report = report::run_matrix(|i, seed, realism| {
        seed == (i as u64 % 5) + 1 && realism == (i % 2 == 1)
    });
    assert!(
        report.runs >= 1000,
        "the sample shrank: {}",
        report.summary()
    );
    assert_true(&report, false);
}

#[test]
#[ignore = "the whole matrix, ten times the sample: scripts/claims-matrix.sh"]
fn every_sentence_of_every_changed_run_of_every_shipped_scenario_and_lab_is_true_for_its_run() {
    let report = report::run_matrix(|_, _, _| true);
    assert!(
        report.runs >= 10_000,
        "the matrix shrank: {}",
        report.summary()
    );
    assert_true(&report, true);
}

/// Scenario 2 as shipped, played with seed 1, realism off.
fn slow_consumer() -> play::Played {
    let text = matrix::repo_file("web/scenarios/02-slow-consumer-duplicate.json");
    let scenario: Scenario = serde_json::from_str(&text).unwrap();
    play::play(&scenario, 1, false).unwrap()
}

#[test]
fn the_oracle_finds_each_kind_of_sentence_false_when_the_run_says_otherwise() {
    let run = slow_consumer();
    assert!(
        oracle::judge(&run).findings.is_empty(),
        "the file's own run is true"
    );
    let whats = |run: &play::Played| -> Vec<&'static str> {
        oracle::judge(run).findings.iter().map(|f| f.what).collect()
    };
    // An end line whose condition the run broke: the card was charged twice.
    let mut line = slow_consumer();
    let last = line.events.last().unwrap().clone();
    let text = line
        .scenario
        .narration
        .iter()
        .find(|l| l.at_end.is_some())
        .unwrap()
        .text
        .clone();
    line.events.push(LogEvent {
        seq: last.seq + 1,
        kind: Kind::Simulation(SimEvent::Narration { text }),
        ..last
    });
    assert_eq!(whats(&line), ["narration"]);
    // The other answer to the first checkpoint.
    let mut verdict = slow_consumer();
    for e in &mut verdict.events {
        if let Kind::Simulation(SimEvent::CheckpointAnswered { choice, .. }) = &mut e.kind {
            *choice = choice.map(|c| (c + 1) % 3);
            break;
        }
    }
    // (its `because`, the other choice's words, is false with it)
    assert_eq!(whats(&verdict), ["verdict", "because"]);
    // A question whose claims hold, logged as not asked.
    let mut question = slow_consumer();
    for e in &mut question.events {
        if let Kind::Simulation(SimEvent::CheckpointAsked { question, .. }) = &e.kind {
            let (text, reason) = (question.clone(), "planted".to_string());
            e.kind = Kind::Simulation(SimEvent::NarrationWithheld { text, reason });
            break;
        }
    }
    assert!(
        whats(&question).contains(&"withheld"),
        "{:?}",
        whats(&question)
    );
    // A line whose claims hold, shown in its `otherwise` words, or withheld.
    let text = matrix::repo_file("web/scenarios/05-poison-message.json");
    let poison: Scenario = serde_json::from_str(&text).unwrap();
    let run = play::play(&poison, 1, false).unwrap();
    assert!(
        oracle::judge(&run).findings.is_empty(),
        "the file's own run is true"
    );
    let line = poison
        .narration
        .iter()
        .find(|l| l.otherwise.is_some())
        .unwrap();
    let at = |run: &play::Played| {
        (run.events.iter()).position(|e| matches!(&e.kind, Kind::Simulation(SimEvent::Narration { text }) if oracle::fits(&line.text, text)))
    };
    let (mut otherwise, mut withheld) = (run.clone(), run.clone());
    let i = at(&run).expect("the line is shown in the file's run");
    let text = line.otherwise.clone().unwrap();
    otherwise.events[i].kind = Kind::Simulation(SimEvent::Narration { text });
    assert_eq!(whats(&otherwise), ["narration"]);
    let (text, reason) = (line.text.clone(), "planted".to_string());
    withheld.events[i].kind = Kind::Simulation(SimEvent::NarrationWithheld { text, reason });
    assert_eq!(whats(&withheld), ["withheld"]);
    // Numbers the log does not have, in each "Why:" of the retry-storm
    // lab's own run (a lab has no authored lines: every "Why:" is shown).
    let text = matrix::repo_file("web/scenarios/labs/07-retry-storm.json");
    let storm: Scenario = serde_json::from_str(&text).unwrap();
    let why = play::play(&storm, 1, false).unwrap();
    assert!(why.whys.len() > 10 && oracle::judge(&why).findings.is_empty());
    for (at, text) in &why.whys {
        let mut wrong = why.clone();
        wrong.whys = vec![(*at, numbers_changed(text))];
        assert_eq!(whats(&wrong), ["Why:"], "{}", wrong.whys[0].1);
    }
    // One duplicate delivery more than the log counts.
    let mut recap = slow_consumer();
    recap.outcome.duplicate_deliveries += 1;
    assert_eq!(whats(&recap), ["recap"]);
}

/// `text` with each number outside a quoted label made 7 more.
fn numbers_changed(text: &str) -> String {
    let (mut out, mut quoted, mut digits) = (String::new(), false, String::new());
    for c in text.chars().chain(['\0']) {
        if !quoted && c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            out.push_str(&(digits.parse::<u64>().unwrap() + 7).to_string());
            digits.clear();
        }
        quoted = match c {
            '“' => true,
            '”' => false,
            _ => quoted,
        };
        if c != '\0' {
            out.push(c);
        }
    }
    out
}
