#!/usr/bin/env bash
# Builds the wasm package, the page's bundle and dist/queuelab.js, and serves the playground on 127.0.0.1
# (PORT, default 8000). Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build-dist.sh
exec node scripts/serve.mjs . "${PORT:-8000}"
