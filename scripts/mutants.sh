#!/usr/bin/env bash
# Mutation testing of the engine's core modules: cargo-mutants changes one
# thing at a time in the code (a `<` to `<=`, a function body to a default
# value, ...) and runs the engine's and protocol's tests; a mutant the tests
# do not catch is a behaviour nothing checks. Not part of ./scripts/test.sh:
# it builds and tests several hundred mutants and takes hours on two cores.
#
#   ./scripts/mutants.sh                 # every module below
#   ./scripts/mutants.sh --file crates/engine/src/dedup.rs   # narrow it
#   ./scripts/mutants.sh --shard 0/5 --sharding round-robin   # every 5th mutant
#
# Results go to target/mutants.out/ (caught.txt, missed.txt,
# timeout.txt, unviable.txt). The README records the score: caught /
# (caught + missed + timeout), over the viable mutants.
set -euo pipefail
cd "$(dirname "$0")/.."

MUTANTS_VERSION=27.1.0
if [[ "$(cargo mutants --version 2>/dev/null)" != "cargo-mutants $MUTANTS_VERSION" ]]; then
  cargo install --locked cargo-mutants --version "$MUTANTS_VERSION"
fi

# Unless the caller names files (--file/-f), the seven core modules.
files=()
if [[ " $* " != *" --file "* && " $* " != *" -f "* ]]; then
  for module in receive handles queue dedup send clock redrive; do
    files+=(--file "crates/engine/src/$module.rs")
  done
fi

# --test-package: the protocol's conformance tests and the simulation's
# scenario and worker tests exercise the engine too.
# --tests: unit and integration tests, not doctests (rustdoc builds each
# one again per mutant). The `mutants` profile drops debug info: linking a dozen test binaries per
# mutant is most of the time. A fixed, generous timeout: the machine is
# shared, and a busy moment must not pass for a hang (a mutant that really
# loops still times out, and counts as caught).
mkdir -p target
exec cargo mutants \
  --package queuelab-engine \
  --test-package queuelab-engine --test-package queuelab-simulation --test-package queuelab-protocol \
  --profile mutants \
  --output target \
  --timeout 120 \
  --cargo-test-arg=--tests \
  "${files[@]}" "$@"
