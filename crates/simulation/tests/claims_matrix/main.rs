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

/// Shipped files whose runs move hundreds of messages (a Lambda backlog
/// that scales, the guide's backlog alarm over 1,000 messages, a 13-hour
/// job heartbeating every 30 s).
const HEAVY: [&str; 3] = [
    "22-lambda-scaling",
    "24-cloudwatch-alarms",
    "30-visibility-extender",
];

#[test]
fn every_sentence_of_a_fixed_sample_of_changed_runs_is_true_for_its_run() {
    // Every cell once, its seed and realism taken in turn from its number:
    // a tenth of the matrix, every change of every file.
    // A file with hundreds of messages plays only its own run here: each
    // of its changed runs costs as much as a whole small scenario's
    // matrix. The whole matrix plays all of them.
    let report = report::run_matrix(|cell, i, seed, realism| {
        let heavy = HEAVY.iter().any(|f| cell.file.contains(f));
        let picked = seed == (i as u64 % 5) + 1 && realism == (i % 2 == 1);
        picked && (!heavy || cell.change == "the file's run")
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
    let report = report::run_matrix(|_, _, _, _| true);
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
    // Each "Why:" naming a message by another message's name, or by its
    // whole body in quotes (not as people name it).
    let naming: Vec<_> = (why.whys.iter())
        .filter(|(_, text)| text.contains("order A-"))
        .collect();
    assert!(naming.len() > 10, "{}", naming.len());
    for (at, text) in naming {
        for wrong_name in [other_order(text), quoted_body(&why, text)] {
            let mut wrong = why.clone();
            wrong.whys = vec![(*at, wrong_name)];
            assert_eq!(whats(&wrong), ["Why:"], "{}", wrong.whys[0].1);
        }
    }
    // The operator's lines (purge, move task, a failed call), the
    // redriven messages' lines and a bucket's notifications' lines: true
    // in the files' runs, false once their trigger names another queue,
    // caller or count.
    OPERATOR_FILES
        .iter()
        .for_each(|f| operator_lines_are_checked(f));
    // One duplicate delivery more than the log counts.
    let mut recap = slow_consumer();
    recap.outcome.duplicate_deliveries += 1;
    assert_eq!(whats(&recap), ["recap"]);
}

/// The files whose operator's, redriven messages', bucket notifications',
/// Lambda's and alarms' lines the oracle is shown to check.
const OPERATOR_FILES: [&str; 10] = [
    "11-redrive-back",
    "13-attributes-and-size",
    "14-purge",
    "17-s3-notifications",
    "21-lambda-partial-batch",
    "22-lambda-scaling",
    "23-lambda-fifo",
    "24-cloudwatch-alarms",
    "26-request-response",
    "27-temporary-queues-cost",
];

/// Every line of `file` (web/scenarios/) whose trigger is one of the
/// operator's or a purge's events is true in the file's run, and each is
/// false (a "narration" finding) once its trigger asks for a queue, a
/// caller or a count the run does not have.
fn operator_lines_are_checked(file: &str) {
    use queuelab_simulation::{Count, TriggerEvent as T};
    let text = matrix::repo_file(&format!("web/scenarios/{file}.json"));
    let scenario: Scenario = serde_json::from_str(&text).unwrap();
    let run = play::play(&scenario, 1, false).unwrap();
    let found = oracle::judge(&run).findings;
    assert!(
        found.is_empty(),
        "{file}: the file's own run is true: {found:?}"
    );
    let new = [
        T::Redriven,
        T::MoveTaskCancelled,
        T::MoveTaskCompleted,
        T::QueuePurged,
        T::PurgedInFlight,
        T::PurgedProcessed,
        T::CallFailed,
        T::TopicFilteredOut,
        T::BucketObjectChanged,
        T::BucketNotified,
        T::PayloadResolved,
        T::PayloadMissing,
        T::LambdaReturned,
        T::LambdaThrottled,
        T::LambdaScaled,
        T::AlarmChanged,
        T::ReplyMatched,
        T::ReplyWaitEnded,
        T::ReplyLost,
    ];
    let mut checked = 0;
    for (i, line) in scenario.narration.iter().enumerate() {
        let Some(t) = line.when.as_ref().filter(|t| new.contains(&t.event)) else {
            continue;
        };
        let mut other = t.clone();
        if other.queue.is_some() {
            other.queue = Some("elsewhere".into());
        } else if other.consumer.is_some() {
            other.consumer = Some("nobody".into());
        } else {
            other.count = Some(Count::Number(999));
        }
        let mut wrong = run.clone();
        wrong.scenario.narration[i].when = Some(other);
        let whats: Vec<_> = (oracle::judge(&wrong).findings.iter())
            .map(|f| f.what)
            .collect();
        assert!(
            whats.contains(&"narration"),
            "{file}: {:?} with its trigger changed: {whats:?}",
            line.text
        );
        checked += 1;
    }
    assert!(checked > 0, "{file} has no operator's line");
}

/// `text` with its "order A-1001" made another order's ("order A-1002";
/// any other order, "order A-1001").
fn other_order(text: &str) -> String {
    let (head, rest) = text.split_once("order A-").unwrap();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let other = if digits == "1001" { "1002" } else { "1001" };
    format!("{head}order A-{other}{}", &rest[digits.len()..])
}

/// `text` with its message's name "order A-1001" said as its whole body
/// in quotes, as the story said it before names (“order A-1001: charge $25”).
fn quoted_body(run: &play::Played, text: &str) -> String {
    let label = (run.events.iter())
        .find_map(|e| match &e.kind {
            Kind::Sqs(queuelab_engine::EventKind::Sent { label, .. }) => {
                let name = label.split_once(':')?.0;
                text.contains(&format!("{name} "))
                    .then(|| (name.to_string(), label.clone()))
            }
            _ => None,
        })
        .unwrap();
    text.replacen(&label.0, &format!("“{}”", label.1), 1)
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

#[test]
fn the_oracle_reads_a_fifo_group_unlocked_by_a_purge_and_finds_a_stale_reason_false() {
    let scenario: Scenario = serde_json::from_value(serde_json::json!({
        "title": "t", "durationMs": 5_000,
        "queues": [{ "name": "jobs.fifo", "contentBasedDeduplication": true }],
        "producers": [{ "name": "p", "queue": "jobs.fifo", "sends": [
            { "atMs": 0, "body": "job 1", "groupId": "g" },
            { "atMs": 0, "body": "job 2", "groupId": "g" }
        ] }],
        "consumers": [{ "name": "w", "queue": "jobs.fifo", "waitTimeSeconds": 20, "processing": { "fixedMs": 3000 } }],
        "operators": [{ "name": "ops", "calls": [{ "atMs": 1000, "call": { "purgeQueue": { "queue": "jobs.fifo" } } }] }],
    }))
    .unwrap();
    let run = play::play(&scenario, 1, false).unwrap();
    let (at, said) = (run.whys.iter())
        .find(|(_, w)| w.starts_with("Group g unlocked: "))
        .cloned()
        .expect("the unlock is explained");
    assert!(said.contains("“job 1” was purged"), "{said}");
    assert!(oracle::judge(&run).findings.is_empty(), "the run is true");
    // The reason the story gave before it knew purges: the latest release.
    let mut stale = run.clone();
    stale.whys = vec![(
        at,
        said.replace("“job 1” was purged", "“job 1” was deleted"),
    )];
    let whats: Vec<_> = (oracle::judge(&stale).findings.iter())
        .map(|f| f.what)
        .collect();
    assert_eq!(whats, ["Why:"]);
}
