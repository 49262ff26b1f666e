#!/usr/bin/env bash
# Mutation testing of the engine's core modules: cargo-mutants changes one
# thing at a time in the code (a `<` to `<=`, a function body to a default
# value, ...) and runs the engine's and protocol's tests; a mutant the tests
# do not catch is a behaviour nothing checks. Not part of ./scripts/test.sh:
# it builds and tests several hundred mutants and takes hours on two cores.
#
#   ./scripts/mutants.sh                 # every module below
#   ./scripts/mutants.sh --file crates/engine/src/dedup.rs   # narrow it
#
# Results go to target/mutants/mutants.out/ (caught.txt, missed.txt,
# timeout.txt, unviable.txt). The README records the score: caught /
# (caught + missed + timeout), over the viable mutants.
set -euo pipefail
cd "$(dirname "$0")/.."

MUTANTS_VERSION=27.1.0
if [[ "$(cargo mutants --version 2>/dev/null)" != "cargo-mutants $MUTANTS_VERSION" ]]; then
  cargo install --locked cargo-mutants --version "$MUTANTS_VERSION"
fi

files=()
if [[ $# -eq 0 ]]; then
  for module in receive handles queue dedup send clock redrive; do
    files+=(--file "crates/engine/src/$module.rs")
  done
fi

# --test-package: the protocol's conformance tests exercise the engine too.
# The `mutants` profile drops debug info: linking a dozen test binaries per
# mutant is most of the time.
exec cargo mutants \
  --package queuelab-engine \
  --test-package queuelab-engine --test-package queuelab-protocol \
  --profile mutants \
  --output target/mutants \
  --timeout-multiplier 3 \
  "${files[@]}" "$@"
