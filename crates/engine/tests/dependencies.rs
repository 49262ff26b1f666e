//! ARCHITECTURE.md: "The engine knows nothing of its host ... Its only
//! dependencies are serde, the PRNG, uuid formatting, md-5, sha2 and
//! base64." This holds the engine's manifest to that list, so a new
//! dependency is a reviewed change to this test and to that sentence.

use std::collections::BTreeSet;

/// Every crate the engine may depend on, outside its tests (not
/// `queuelab-simulation`: the simulation depends on the engine, never the
/// reverse; nor libm, which only the simulation's drawn durations need).
/// ts-rs and schemars are optional, behind the `contract` feature that only
/// the binding's generated-contract test turns on: no build of the engine
/// links them (schemars: the schema of `UnlockCause`, which a scenario's
/// trigger names).
const ALLOWED: [&str; 9] = [
    "serde",
    "rand_core",
    "rand_pcg",
    "uuid",
    "md-5",
    "sha2",
    "base64",
    "ts-rs",
    "schemars",
];

/// The dependencies a `Cargo.toml` declares outside `[dev-dependencies]`:
/// those of `[dependencies]` and `[build-dependencies]` (a build script
/// runs on the host too), including their `[target.'cfg(..)'.…]` forms and
/// the `[dependencies.name]` table form.
fn declared_dependencies(manifest: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut in_dependencies = false;
    for line in manifest.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_start_matches('[').trim_end_matches(']');
            let header = header.split('#').next().unwrap_or("").trim();
            in_dependencies = false;
            match dependency_table(header) {
                Some(Table::Whole) => in_dependencies = true,
                Some(Table::One(name)) => {
                    found.insert(name);
                }
                None => {}
            }
            continue;
        }
        if in_dependencies {
            if let Some((name, _)) = line.split_once('=') {
                found.insert(name.trim().trim_matches('"').to_string());
            }
        }
    }
    found
}

enum Table {
    /// `[dependencies]`: one dependency per `name = …` line.
    Whole,
    /// `[dependencies.name]`: the header names the one dependency.
    One(String),
}

/// Whether a table header declares normal or build dependencies.
fn dependency_table(header: &str) -> Option<Table> {
    // `target.'cfg(..)'.dependencies` declares the same kind of dependency.
    let header = match header.strip_prefix("target.") {
        Some(rest) => [".dependencies", ".build-dependencies"]
            .iter()
            .find_map(|kind| rest.split_once(kind).map(|(_, after)| after))?,
        None => ["dependencies", "build-dependencies"]
            .iter()
            .find_map(|kind| header.strip_prefix(kind))?,
    };
    match header.strip_prefix('.') {
        None if header.is_empty() => Some(Table::Whole),
        Some(name) if !name.is_empty() => Some(Table::One(name.trim_matches('"').to_string())),
        _ => None,
    }
}

#[test]
fn the_engine_depends_only_on_the_allowed_crates() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let manifest = std::fs::read_to_string(path).expect("the engine's Cargo.toml");
    let declared = declared_dependencies(&manifest);
    assert!(declared.contains("serde"), "the parser found {declared:?}");
    let unexpected: Vec<&String> = declared
        .iter()
        .filter(|name| !ALLOWED.contains(&name.as_str()))
        .collect();
    assert!(
        unexpected.is_empty(),
        "crates/engine depends on {unexpected:?}, outside ARCHITECTURE.md's list {ALLOWED:?}"
    );
}

#[test]
fn the_manifest_reader_finds_every_form_of_dependency_and_skips_dev_dependencies() {
    let manifest = r#"
        [package]
        name = "x"

        [dependencies]
        serde = { workspace = true }
        "quoted" = "1"

        [dependencies.tabled]
        version = "1"

        [target.'cfg(target_arch = "wasm32")'.dependencies]
        js-sys = "0.3"

        [target.'cfg(unix)'.dependencies.libc]
        version = "0.2"

        [build-dependencies]
        cc = "1"

        [dev-dependencies]
        proptest = "1"

        [target.'cfg(unix)'.dev-dependencies]
        tempfile = "3"

        [features]
        extra = []
    "#;
    let names: Vec<String> = declared_dependencies(manifest).into_iter().collect();
    assert_eq!(names, ["cc", "js-sys", "libc", "quoted", "serde", "tabled"]);
}
