#!/usr/bin/env bash
# The benchmark: native figures (crates/bench), then the same cycle in wasm
# under Node. Pinned to one core where taskset exists. `--quick` runs a
# tenth of the work. `--cycles` runs only the cycle rows (native typed and
# JSON, wasm typed and JS dispatch, a scenario's replay in wasm): the
# figures the wasm size work weighs against speed (docs/wasm-size.md). Figures only; nothing here passes or fails.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
mode=${1:-}
count=1000000
native=()
case "$mode" in
  --quick) count=100000; native=(--quick) ;;
  --cycles) count=300000; native=(--quick --cycles-only) ;;
esac
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)

cargo build --quiet -p queuelab-bench --profile bench-native
"${pin[@]}" ./target/bench-native/queuelab-bench "${native[@]}"

echo
echo "queuelab benchmark (wasm in Node $(node --version), one core)"
./scripts/build-wasm.sh target/bench-pkg -- --features bench
"${pin[@]}" node scripts/bench-wasm.mjs "$PWD/target/bench-pkg" "$count"
