#!/usr/bin/env bash
# Fuzzes the wasm contract for as long as asked: the same generator and
# invariants as tests/node/fuzz.test.mjs, in worker threads with a hang
# watchdog. New failures are written to tests/fuzz/corpus/.
#
#   scripts/fuzz.sh 10000000            # ten million inputs
#   scripts/fuzz.sh --minutes 30 --seed 7 --workers 2
#
# Needs web/pkg (./scripts/build-wasm.sh). Options: see tests/fuzz/cli.mjs.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -f web/pkg/queuelab_bg.wasm ]]; then
  echo "web/pkg is missing: run ./scripts/build-wasm.sh first" >&2
  exit 2
fi
exec node tests/fuzz/cli.mjs "$@"
