#!/usr/bin/env bash
# Builds the wasm package (queuelab.js + queuelab_bg.wasm) into web/pkg, or
# into the folder given as $1 with further arguments passed to cargo (the
# benchmark builds `-- --features bench` into target/bench-pkg). Optimises
# with binaryen's wasm-opt from npm: wasm-pack's own download of wasm-opt
# cannot work on these machines. With QUEUELAB_WASM_NAMES=<file>, also
# writes the same optimisation keeping function names there, for
# scripts/wasm-size.sh's twiggy report (the shipped file has no names).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-web/pkg}
shift || true
wasm-pack --log-level warn build crates/wasm --release --target web \
  --out-name queuelab --out-dir "$PWD/$out" --no-pack "$@"
# The features every browser the page supports has (and Rust's wasm32
# target already emits). The `producers` and `target_features` sections
# are only notes for tools: stripped.
opt=(node_modules/.bin/wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue)
if [[ -n "${QUEUELAB_WASM_NAMES:-}" ]]; then
  "${opt[@]}" -g "$out/queuelab_bg.wasm" -o "$QUEUELAB_WASM_NAMES"
fi
"${opt[@]}" --strip-producers --strip-target-features \
  "$out/queuelab_bg.wasm" -o "$out/queuelab_bg.wasm"
printf '[build] %s/queuelab_bg.wasm: %s bytes\n' "$out" "$(stat -c %s "$out/queuelab_bg.wasm")"
# wasm-pack writes a "*" .gitignore into the package; npm pack obeys it and
# would leave the engine out. The root .gitignore already keeps web/pkg out of git.
rm -f "$out/.gitignore"
