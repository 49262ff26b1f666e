#!/usr/bin/env bash
# Builds the wasm package into web/pkg (queuelab.js + queuelab_bg.wasm) and
# optimises it with binaryen's wasm-opt from npm (wasm-pack's own download of
# wasm-opt cannot work on these machines).
set -euo pipefail
cd "$(dirname "$0")/.."
wasm-pack --log-level warn build crates/wasm --release --target web \
  --out-name queuelab --out-dir ../../web/pkg --no-pack
node_modules/.bin/wasm-opt -Os --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
  web/pkg/queuelab_bg.wasm -o web/pkg/queuelab_bg.wasm
printf '[build] web/pkg/queuelab_bg.wasm: %s bytes\n' "$(stat -c %s web/pkg/queuelab_bg.wasm)"
