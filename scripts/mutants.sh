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
# caller may pick another seed with PROPTEST_RNG_SEED; the baseline below
# must pass with it.
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-1}"
# A blessing run rewrites golden files and fails by design: never here.
unset QUEUELAB_BLESS

# The tests every mutant runs: the engine's, and the protocol's conformance,
# model and golden-log tests and the simulation's scenario and worker tests,
# which exercise the engine too and kill most of its mutants (--tests: unit
# and integration tests, not doctests, which rustdoc builds again per
# mutant). The `mutants` profile drops debug info: linking a few dozen test
# binaries per mutant is most of the time.
packages=(queuelab-engine queuelab-simulation queuelab-protocol)
test_packages=()
test_args=(--profile mutants --tests)
for package in "${packages[@]}"; do
  test_packages+=(--test-package "$package")
  test_args+=(-p "$package")
done

# The baseline: cargo-mutants' own runs only the mutated package's tests
# (the engine's, 23 s here) while each mutant runs all three packages' (over
# two minutes), so a timeout derived from it would time out every mutant
# the engine's own tests miss, and count it as caught. So the script runs
# the baseline itself, on the same tests, and sets the timeout from it:
# three times its test time, at least 300 s (the machine is shared, and a
# busy moment must not pass for a hang; a mutant that really loops still
# times out, and counts as caught).
# A caller who has measured it may skip it: MUTANTS_TIMEOUT=<seconds>.
timeout_args=()
if [[ -n "${MUTANTS_TIMEOUT:-}" ]]; then
  timeout_args=(--baseline skip --timeout "$MUTANTS_TIMEOUT")
elif [[ " $* " != *" --list "* && " $* " != *" --list-files "* ]]; then
  mkdir -p target
  cargo test --no-run --quiet "${test_args[@]}"
  began=$(date +%s)
  if ! cargo test "${test_args[@]}" > target/mutants-baseline.log 2>&1; then
    echo "scripts/mutants.sh: the unmutated tests fail; see target/mutants-baseline.log" >&2
    exit 1
  fi
  took=$(( $(date +%s) - began ))
  timeout=$(( took * 3 > 300 ? took * 3 : 300 ))
  echo "baseline: the unmutated tests pass in ${took} s; each mutant's tests time out after ${timeout} s"
  timeout_args=(--baseline skip --timeout "$timeout")
fi

mkdir -p target
exec cargo mutants \
  --package queuelab-engine \
  "${test_packages[@]}" \
  --profile mutants \
  --output target \
  "${timeout_args[@]}" \
  --cargo-test-arg=--tests \
  "${excludes[@]}" "$@"
