#!/usr/bin/env bash
# Builds dist/queuelab.js, the one file a course page drops in to get
# <queue-lab> (docs/embedding.md): the wasm package,
# the page's bundle, then the one file with the engine, styles and
# scenarios inside (scripts/build-dist.mjs, esbuild). Installs what is
# missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build-wasm.sh
node scripts/build-page.mjs
node scripts/build-dist.mjs
