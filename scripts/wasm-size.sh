#!/usr/bin/env bash
# What the page's wasm is made of (docs/wasm-size.md): builds
# web/pkg, plus a copy optimised the same way that keeps function names
# (target/queuelab_bg.names.wasm; the shipped file has none), then prints
# the shipped file's size raw and gzipped and twiggy's largest items and
# monomorphisations of the named copy. Needs twiggy (`cargo install twiggy`).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v twiggy >/dev/null; then
  echo "wasm-size.sh needs twiggy: cargo install twiggy" >&2
  exit 1
fi
names=target/queuelab_bg.names.wasm
QUEUELAB_WASM_NAMES="$names" ./scripts/build-wasm.sh
wasm=web/pkg/queuelab_bg.wasm
gz=$(node -e 'const z=require("zlib"),fs=require("fs");console.log(z.gzipSync(fs.readFileSync(process.argv[1]),{level:9}).length)' "$wasm")
printf '\n%s: %s bytes, %s gzipped (level 9, as the page weight is measured)\n\n' "$wasm" "$(stat -c %s "$wasm")" "$gz"
# The named copy's sizes include its "function names" section (the first
# row), which the shipped file does not have.
twiggy top -n 25 "$names"
echo
# Generic code compiled once per type: the summary row of each family.
twiggy monos -n 12 "$names" | grep -v '^ *┊'
