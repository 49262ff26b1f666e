//! The matrix played: each run (`play.rs`) weighed by the oracle
//! (`oracle.rs`), and what they came to, each kind of false sentence once
//! with a run that shows it.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::matrix::{self, Cell, SEEDS};
use super::{oracle, play};

/// A false sentence's kind: the oracle's tag ("[holder-done]") where its
/// reason has one, else what was shown ("narration", "recap").
fn class(what: &str, log_says: &str) -> String {
    match log_says.find('[').zip(log_says.find(']')) {
        Some((a, b)) if a < b => log_says[a..=b].to_string(),
        _ => format!("[{what}]"),
    }
}

/// A sentence with its labels and numbers blurred, so that one kind of
/// false sentence is listed once, not once per order and moment.
fn blurred(sentence: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    for c in sentence.chars() {
        match c {
            '“' => quoted = true,
            '”' => {
                quoted = false;
                out.push_str("“…”");
            }
            _ if quoted => {}
            '0'..='9' if out.ends_with('N') => {}
            '0'..='9' => out.push('N'),
            _ => out.push(c),
        }
    }
    out
}

/// One kind of false sentence: its first example and how many runs showed it.
pub struct Example {
    pub file: String,
    pub sentence: String,
    pub first: String,
    pub runs: usize,
}

/// What a matrix (or a sample of it) came to.
#[derive(Default)]
pub struct Report {
    pub cells: usize,
    pub refused: usize,
    pub runs: usize,
    /// Runs whose work estimate the simulation refused (the page asks first).
    pub too_big: usize,
    pub claims: u64,
    pub seconds: f64,
    /// False sentences by (class, file, kind, blurred words).
    pub findings: BTreeMap<(String, String, &'static str, String), Example>,
}

impl Report {
    pub fn summary(&self) -> String {
        format!(
            "{} cells ({} changes refused by validation), {} runs ({} refused as too big), {} claims evaluated, {:.1} s, {} kinds of false sentence",
            self.cells, self.refused, self.runs, self.too_big, self.claims, self.seconds, self.findings.len()
        )
    }

    /// The classes of false sentence found.
    pub fn classes(&self) -> Vec<String> {
        let mut all: Vec<String> = self.findings.keys().map(|k| k.0.clone()).collect();
        all.dedup();
        all
    }

    /// The findings whose class `keep` accepts, as text.
    pub fn text(&self, keep: impl Fn(&str) -> bool) -> String {
        let mut out = String::new();
        for ((class, _, what, _), e) in self.findings.iter().filter(|(k, _)| keep(&k.0)) {
            out.push_str(&format!(
                "- {class} {} [{what}] in {} runs, first {}:\n    {}\n",
                e.file, e.runs, e.first, e.sentence
            ));
        }
        out
    }

    fn merge(&mut self, other: Report) {
        self.runs += other.runs;
        self.too_big += other.too_big;
        self.claims += other.claims;
        for (k, e) in other.findings {
            match self.findings.get_mut(&k) {
                Some(mine) => mine.runs += e.runs,
                None => {
                    self.findings.insert(k, e);
                }
            }
        }
    }
}

/// Plays each (cell, seed, realism) that `pick` keeps and weighs its
/// sentences, on as many threads as the machine offers (at most 4).
pub fn run_matrix(pick: impl Fn(&Cell, usize, u64, bool) -> bool + Sync) -> Report {
    let started = Instant::now();
    let (cells, refused) = matrix::cells();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let mut report = Report {
        cells: cells.len(),
        refused,
        ..Report::default()
    };
    // Each thread takes the next run from one list, the longest runs
    // first: a static split left one thread with the heavy files while the
    // other sat idle.
    let mut runs: Vec<(&Cell, u64, bool)> = (cells.iter().enumerate())
        .flat_map(|(i, cell)| {
            SEEDS
                .into_iter()
                .flat_map(move |seed| [false, true].map(move |realism| (i, cell, seed, realism)))
        })
        .filter(|&(i, cell, seed, realism)| pick(cell, i, seed, realism))
        .map(|(_, cell, seed, realism)| (cell, seed, realism))
        .collect();
    runs.sort_by_key(|(cell, ..)| std::cmp::Reverse(cell.scenario.duration_ms));
    let next = AtomicUsize::new(0);
    let parts: Vec<Report> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (runs, next) = (&runs, &next);
                s.spawn(move || {
                    let mut part = Report::default();
                    while let Some(&(cell, seed, realism)) =
                        runs.get(next.fetch_add(1, Ordering::Relaxed))
                    {
                        run_one(cell, seed, realism, &mut part);
                    }
                    part
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for part in parts {
        report.merge(part);
    }
    report.seconds = started.elapsed().as_secs_f64();
    report
}

fn run_one(cell: &Cell, seed: u64, realism: bool, report: &mut Report) {
    report.runs += 1;
    let Ok(played) = play::play(&cell.scenario, seed, realism) else {
        report.too_big += 1;
        return;
    };
    let realism = if realism { "on" } else { "off" };
    // CLAIMS_DUMP="<file>|<change>|<seed>|<on/off>" prints that run's log.
    let me = format!("{}|{}|{seed}|{realism}", cell.file, cell.change);
    if std::env::var("CLAIMS_DUMP").is_ok_and(|d| d == me) {
        for e in &played.events {
            eprintln!("{} {} {:?}", e.seq, e.time_ms, e.kind);
        }
        eprintln!("whys: {:#?}", played.whys);
    }
    let verdict = oracle::judge(&played);
    report.claims += verdict.claims;
    for f in verdict.findings {
        let key = (
            class(f.what, &f.log_says),
            cell.file.clone(),
            f.what,
            blurred(&f.sentence),
        );
        let e = report.findings.entry(key).or_insert_with(|| Example {
            file: cell.file.clone(),
            sentence: f.sentence.clone(),
            first: format!(
                "{} (seed {seed}, realism {realism}) at {} ms; the log: {}",
                cell.change, f.at, f.log_says
            ),
            runs: 0,
        });
        e.runs += 1;
    }
}
