//! Golden files for the tests of every crate: a test compares what it
//! produced with a file checked in under `tests/fixtures/`, or, with
//! `QUEUELAB_BLESS` set, rewrites the file. A blessing run always FAILS
//! after it has written every file, naming them: one stray variable in a
//! shell or a CI job must not turn every golden test green without
//! checking anything. Review the diff, then run again without it.
//!
//! ```no_run
//! let mut golden = queuelab_golden::Golden::from_env();
//! # let (path, actual) = (std::path::Path::new("x"), "");
//! if !golden.bless(path, actual) {
//!     // compare `actual` with the file, as the test sees fit
//! }
//! golden.finish(); // panics after a blessing run
//! ```

use std::path::{Path, PathBuf};

/// The variable that turns a golden test into the writer of its files.
pub const BLESS_VAR: &str = "QUEUELAB_BLESS";

/// One test's golden files: checked, or written and then failed.
#[must_use = "call finish(), which fails a blessing run"]
pub struct Golden {
    blessing: bool,
    changed: Vec<PathBuf>,
    unchanged: Vec<PathBuf>,
}

impl Golden {
    /// Blessing when `QUEUELAB_BLESS` is set (to anything).
    pub fn from_env() -> Self {
        Self::new(std::env::var_os(BLESS_VAR).is_some())
    }

    /// A checking (`false`) or blessing (`true`) run, whatever the
    /// environment says: for tests of this crate.
    pub fn new(blessing: bool) -> Self {
        Golden {
            blessing,
            changed: Vec::new(),
            unchanged: Vec::new(),
        }
    }

    /// When blessing, writes `actual` to `path` (creating its folder) and
    /// returns `true`: the caller skips its comparison. Otherwise returns
    /// `false` and writes nothing.
    pub fn bless(&mut self, path: &Path, actual: &str) -> bool {
        if !self.blessing {
            return false;
        }
        if std::fs::read_to_string(path).is_ok_and(|old| old == actual) {
            self.unchanged.push(path.to_path_buf());
            return true;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("creating {dir:?}: {e}"));
        }
        std::fs::write(path, actual).unwrap_or_else(|e| panic!("writing {path:?}: {e}"));
        self.changed.push(path.to_path_buf());
        true
    }

    /// Checks `actual` against the text of `path` byte for byte (or
    /// blesses it), failing at the first line that differs.
    pub fn check_text(&mut self, path: &Path, actual: &str) {
        if self.bless(path, actual) {
            return;
        }
        let expected = std::fs::read_to_string(path).unwrap_or_else(|e| {
            panic!("{path:?}: {e}; run with {BLESS_VAR}=1 to write it, then review it")
        });
        if let Some(difference) = first_difference(&expected, actual) {
            panic!("{path:?} {difference}\n({BLESS_VAR}=1 rewrites it after an intended change)");
        }
    }

    /// Ends the test: a checking run passes, a blessing run fails naming
    /// what it wrote.
    pub fn finish(self) {
        if let Some(report) = self.report() {
            panic!("{report}");
        }
    }

    /// What a blessing run says when it fails; `None` for a checking run.
    pub fn report(&self) -> Option<String> {
        if !self.blessing {
            return None;
        }
        let list = |files: &[PathBuf]| {
            files
                .iter()
                .map(|f| format!("\n  {}", f.display()))
                .collect::<String>()
        };
        Some(format!(
            "{BLESS_VAR} is set, so this run wrote its golden files instead of checking them, \
             and fails on purpose: review the diff (git diff tests/fixtures), then run again \
             without {BLESS_VAR}.\nrewritten ({}):{}\nalready up to date ({}):{}",
            self.changed.len(),
            list(&self.changed),
            self.unchanged.len(),
            list(&self.unchanged),
        ))
    }
}

/// Where two texts first differ, in words (`None` when they are equal).
pub fn first_difference(expected: &str, actual: &str) -> Option<String> {
    if expected == actual {
        return None;
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(e, a)| e != a)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    Some(format!(
        "differs from line {}:\n  expected: {}\n  actual:   {}\n({} lines expected, {} actual)",
        line + 1,
        expected.lines().nth(line).unwrap_or("<end of file>"),
        actual.lines().nth(line).unwrap_or("<end of file>"),
        expected.lines().count(),
        actual.lines().count(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("queuelab-golden-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn panic_message(result: std::thread::Result<()>) -> Option<String> {
        let payload = result.err()?;
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
    }

    #[test]
    fn a_blessing_run_writes_every_file_and_then_fails_naming_them() {
        let dir = temp_dir("bless");
        let (old, new, same) = (
            dir.join("a/old.txt"),
            dir.join("new.txt"),
            dir.join("same.txt"),
        );
        std::fs::create_dir_all(old.parent().unwrap()).unwrap();
        std::fs::write(&old, "before\n").unwrap();
        std::fs::write(&same, "kept\n").unwrap();

        let mut golden = Golden::new(true);
        golden.check_text(&old, "after\n");
        assert!(golden.bless(&new, "fresh\n"));
        golden.check_text(&same, "kept\n");
        let failure = panic_message(std::panic::catch_unwind(move || golden.finish()))
            .expect("a blessing run fails");

        assert_eq!(std::fs::read_to_string(&old).unwrap(), "after\n");
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "fresh\n");
        assert!(failure.contains("QUEUELAB_BLESS is set"), "{failure}");
        assert!(failure.contains("rewritten (2)"), "{failure}");
        assert!(failure.contains(&old.display().to_string()), "{failure}");
        assert!(failure.contains(&new.display().to_string()), "{failure}");
        assert!(failure.contains("already up to date (1)"), "{failure}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_checking_run_writes_nothing_and_passes_when_the_files_match() {
        let dir = temp_dir("check");
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("log.txt");
        std::fs::write(&file, "one\ntwo\n").unwrap();
        let mut golden = Golden::new(false);
        assert!(!golden.bless(&file, "changed\n"));
        golden.check_text(&file, "one\ntwo\n");
        golden.finish();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "one\ntwo\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_checking_run_fails_at_the_first_line_that_differs() {
        let dir = temp_dir("differs");
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("log.txt");
        std::fs::write(&file, "one\ntwo\nthree\n").unwrap();
        let check = || Golden::new(false).check_text(&file, "one\n2\nthree\n");
        let failure = panic_message(std::panic::catch_unwind(check)).expect("a difference fails");
        assert!(failure.contains("differs from line 2"), "{failure}");
        assert!(failure.contains("expected: two"), "{failure}");
        assert!(failure.contains("actual:   2"), "{failure}");
        let missing = || Golden::new(false).check_text(&dir.join("none.txt"), "x");
        let failure =
            panic_message(std::panic::catch_unwind(missing)).expect("a missing file fails");
        assert!(
            failure.contains("QUEUELAB_BLESS=1 to write it"),
            "{failure}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
