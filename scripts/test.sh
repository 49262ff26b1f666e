#!/usr/bin/env bash
# Runs every check and test Queuelab has. Installs what is missing first
# (scripts/setup.sh), so it works on a fresh Debian machine with Rust.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

# Keep a copy of everything for the closing tally.
mkdir -p target
log=target/test-output.log
exec > >(tee "$log") 2>&1

step "setup"
./scripts/setup.sh --browser

step "rustfmt"
cargo fmt --all -- --check

step "clippy (native)"
# No Rust function over 100 lines (clippy's too_many_lines, at its default
# of 100), tests included: with -D warnings it fails the run.
cargo clippy --quiet --workspace --all-targets -- -D warnings -W clippy::too_many_lines
# The engine's scan-count feature (and tests/scans.rs, which needs it).
cargo clippy --quiet -p queuelab-engine --all-targets --features scan-count -- -D warnings -W clippy::too_many_lines

step "clippy (wasm32)"
# The engine's, simulation's, protocol's, policy reader's and host layer's tests are native;
# on wasm32 lint their libraries, and the binding with its browser tests and
# bench feature.
cargo clippy --quiet --target wasm32-unknown-unknown -p queuelab-engine -p queuelab-simulation -p queuelab-protocol -p queuelab-host -p queuelab-policy --lib -- -D warnings -W clippy::too_many_lines
cargo clippy --quiet --target wasm32-unknown-unknown -p queuelab-wasm --all-targets --all-features -- -D warnings -W clippy::too_many_lines

step "engine, simulation, protocol and host tests (native)"
cargo test --quiet --workspace --exclude queuelab-wasm
# The receive-scan counter is a feature of its own, off in every other build.
cargo test --quiet -p queuelab-engine --features scan-count --test scans

step "generated files are fresh (TypeScript types, scenario schema)"
# Fails when crates/wasm/src/contract.d.ts or web/scenarios/scenario.schema.json
# differs from what the Rust types give. Regenerate with
# QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract
cargo test --quiet -p queuelab-wasm --features contract --test contract
# The contract feature's derives must stay lint-clean too.
cargo clippy --quiet -p queuelab-wasm --features contract --all-targets -- -D warnings -W clippy::too_many_lines

step "build the wasm package (web/pkg), the page's bundle and dist/queuelab.js"
./scripts/build-wasm.sh
node scripts/build-page.mjs
node scripts/build-dist.mjs

step "type-check web/ against the generated contract (tests/types/web.tsconfig.json)"
# The page's JavaScript, checked against web/pkg/queuelab.d.ts (so after the
# wasm build): an event kind without its case in a switch over kinds fails here.
node node_modules/typescript/bin/tsc -p tests/types/web.tsconfig.json

step "the wasm within its size budget (gzipped; docs/wasm-size.md)"
node --test tests/size/

step "the server with real clients (boto3, the AWS CLI, both wires; persistence; the wheel)"
# tests/server/harness.py starts target/debug/queuelab (built by the native
# tests above) as a user would; the clients are scripts/setup.sh's target/pyenv.
cargo build --quiet -p queuelab-server
(cd tests/server && ../../target/pyenv/bin/python -m unittest discover --pattern 'test_*.py' 2>&1)

step "wasm contract in Node"
node --test tests/node/

step "the page in headless Chromium (playwright-core)"
node --test --test-concurrency=1 tests/browser/

step "wasm contract in headless Chromium"
CHROMEDRIVER=/usr/bin/chromedriver wasm-pack --log-level warn test --headless --chrome crates/wasm

# One closing line over every runner: cargo's "test result" lines (native
# and wasm-bindgen-test) and node's "# pass"/"# fail".
sum() { grep -oE "$1" "$log" | grep -oE '[0-9]+' | awk '{ n += $1 } END { print n + 0 }'; }
passed=$(sum '(test result: ok\. [0-9]+ passed|^# pass [0-9]+|^Ran [0-9]+ tests?)')
failed=$(sum '(; [0-9]+ failed;|^# fail [0-9]+)')
printf '\nAll checks passed.\nSummary: %s passed, %s failed\n' "$passed" "$failed"
