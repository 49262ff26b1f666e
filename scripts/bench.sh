#!/usr/bin/env bash
# The benchmark: native figures (crates/bench), then the same cycle in wasm
# under Node. Pinned to one core where taskset exists. `--quick` runs a
# tenth of the work. Figures only; nothing here passes or fails.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
quick=${1:-}
count=1000000
[[ "$quick" == "--quick" ]] && count=100000
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)

cargo build --quiet -p queuelab-bench --profile bench-native
"${pin[@]}" ./target/bench-native/queuelab-bench $quick

echo
echo "queuelab benchmark (wasm in Node $(node --version), one core)"
./scripts/build-wasm.sh target/bench-pkg -- --features bench
"${pin[@]}" node scripts/bench-wasm.mjs "$PWD/target/bench-pkg" "$count"
