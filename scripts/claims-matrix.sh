#!/usr/bin/env bash
# The whole claims matrix (docs/testing.md, "claims"): every shipped
# scenario and lab over every changed run, seeds 1 to 5, realism off and
# on, each sentence shown weighed against the run's log. The test command
# plays a fixed tenth of it; this plays all of it, optimised (about ten
# seconds of CPU; several minutes unoptimised). Prints the matrix's size,
# the claims evaluated and the time, and every false sentence with a run
# that shows it.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release -p queuelab-simulation --test claims_matrix -- \
  --ignored --nocapture every_sentence_of_every_changed_run "$@"
