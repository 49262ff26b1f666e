#!/usr/bin/env bash
# Runs every check and test Queuelab has. Installs what is missing first
# (scripts/setup.sh), so it works on a fresh Debian machine with Rust.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "setup"
./scripts/setup.sh --browser

step "rustfmt"
cargo fmt --all -- --check

step "clippy (native)"
cargo clippy --quiet --workspace --all-targets -- -D warnings

step "clippy (wasm32)"
cargo clippy --quiet --workspace --all-targets --target wasm32-unknown-unknown -- -D warnings

step "engine and protocol tests (native)"
cargo test --quiet --workspace --exclude queuelab-wasm

step "build the wasm package (web/pkg)"
./scripts/build-wasm.sh

step "wasm contract in Node"
node --test tests/node/

step "wasm contract in headless Chromium"
CHROMEDRIVER=/usr/bin/chromedriver wasm-pack --log-level warn test --headless --chrome crates/wasm

printf '\nAll checks passed.\n'
