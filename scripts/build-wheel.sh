#!/usr/bin/env bash
# Builds the `queuelab` Python wheel (the server's binary, and the page it
# serves at /) into a folder: `pip install <wheel>` then `queuelab serve`.
#   scripts/build-wheel.sh [--dev] [OUT]   (OUT defaults to target/wheels)
# --dev builds the binary unoptimised, reusing the tests' build (quick);
# without it the `server` profile (optimised) is used, as pip would.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=(--profile server)
if [[ "${1:-}" == "--dev" ]]; then profile=(--profile dev); shift; fi
out=${1:-target/wheels}

# The page, when built, goes in the wheel's data: pip puts it under the
# environment's share/queuelab/web, where the server looks for it.
page=crates/server/wheel-data/data/share/queuelab/web
rm -rf "$page"
if [[ -f web/pkg/queuelab_bg.wasm && -f web/page/main.min.js ]]; then
  mkdir -p "$page"
  cp index.html "$page/"
  cp -r web "$page/web"
else
  echo "[wheel] the page is not built (scripts/build-wasm.sh, then node scripts/build-page.mjs): the wheel serves the endpoint only" >&2
fi
target/pyenv/bin/maturin build --quiet "${profile[@]}" --manifest-path crates/server/Cargo.toml -o "$out"
