#!/usr/bin/env bash
# Mutation testing of the engine's core: cargo-mutants changes one thing at
# a time in the code (a `<` to `<=`, a function body to a default value,
# ...) and runs the engine's, protocol's and simulation's tests; a mutant
# the tests do not catch is a behaviour nothing checks. Not part of
# ./scripts/test.sh: the engine gives well over a thousand mutants, days of
# work on two cores (docs/testing.md, "Mutation testing", says how to run it
# in shards).
#
#   ./scripts/mutants.sh                 # every module of the engine
#   ./scripts/mutants.sh --file crates/engine/src/dedup.rs   # narrow it
#   ./scripts/mutants.sh --shard 0/20 --sharding round-robin  # every 20th mutant
#   ./scripts/mutants.sh --list-files    # the modules it mutates
#
# Results go to target/mutants.out/ (caught.txt, missed.txt,
# timeout.txt, unviable.txt). docs/testing.md records the score: caught /
# (caught + missed + timeout), over the viable mutants.
set -euo pipefail
cd "$(dirname "$0")/.."

MUTANTS_VERSION=27.1.0
if [[ "$(cargo mutants --version 2>/dev/null)" != "cargo-mutants $MUTANTS_VERSION" ]]; then
  cargo install --locked cargo-mutants --version "$MUTANTS_VERSION"
fi

# Which modules: cargo-mutants finds every module crates/engine/src/lib.rs
# declares (folders too), so a new one (the gate's action.rs, principal.rs,
# policy.rs, time.rs, ...) is mutated as soon as it exists, and lib.rs
# itself (the budgets) is. No list of modules to go stale. Left out, each
# for its reason (the script stops if one of these files is gone, so the
# list cannot go stale either):
# - workload.rs: the benchmarks' reference workloads; a mutant changes what
#   the benchmark measures, not a behaviour of SQS.
excluded=(crates/engine/src/workload.rs)
excludes=()
for file in "${excluded[@]}"; do
  if [[ ! -f "$file" ]]; then
    echo "scripts/mutants.sh: $file is excluded but no longer exists; update 'excluded'" >&2
    exit 1
  fi
  excludes+=(--exclude "$file")
done

# The same mutant must be caught or missed every time: the property tests
# (proptest) draw from a fixed seed here rather than a random one. A
# caller may pick another seed with PROPTEST_RNG_SEED.
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-20261202}"
# A blessing run rewrites golden files and fails by design: never here.
unset QUEUELAB_BLESS

# --test-package: the protocol's conformance, model and golden-log tests and
# the simulation's scenario and worker tests exercise the engine too, and
# kill most of its mutants; all three run for every mutant (and for the
# baseline).
# --tests: unit and integration tests, not doctests (rustdoc builds each
# one again per mutant). The `mutants` profile drops debug info: linking a
# few dozen test binaries per mutant is most of the time.
# Timeout: three times the unmutated baseline's test time, at least 120 s,
# measured on the same shared machine under the same load, so a busy moment
# does not pass for a hang (a mutant that really loops still times out, and
# counts as caught).
mkdir -p target
exec cargo mutants \
  --package queuelab-engine \
  --test-package queuelab-engine --test-package queuelab-simulation --test-package queuelab-protocol \
  --profile mutants \
  --output target \
  --timeout-multiplier 3 --minimum-test-timeout 120 \
  --cargo-test-arg=--tests \
  "${excludes[@]}" "$@"
