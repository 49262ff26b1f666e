#!/usr/bin/env bash
# Installs what building and testing Queuelab needs, skipping what is there:
# the wasm32 target, wasm-bindgen-cli (exactly the version the crate pins),
# wasm-pack, npm packages from the lockfile, and (with --browser) Debian's
# chromium and chromium-driver. Safe to run again; a second run is quick.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_PACK_VERSION=0.15.1
# The CLI must match the wasm-bindgen crate exactly; read the pin from Cargo.toml.
WASM_BINDGEN_VERSION=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' Cargo.toml)
browser=false
[[ "${1:-}" == "--browser" ]] && browser=true

say() { printf '[setup] %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    say "adding $component"
    rustup component add "$component"
  fi
done

# Prefer the tool's own lockfile; fall back to fresh resolution when a locked
# dependency is missing from the registry.
cargo_install() {
  local crate=$1 version=$2
  say "installing $crate $version"
  cargo install --quiet --locked "$crate" --version "$version" ||
    cargo install --quiet "$crate" --version "$version"
}

if [[ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]]; then
  cargo_install wasm-bindgen-cli "$WASM_BINDGEN_VERSION"
fi
if [[ "$(wasm-pack --version 2>/dev/null)" != "wasm-pack $WASM_PACK_VERSION" ]]; then
  cargo_install wasm-pack "$WASM_PACK_VERSION"
fi

if [[ ! -d node_modules ]] || [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
  say "installing npm packages from package-lock.json"
  npm ci --no-audit --no-fund --loglevel=error
fi

if $browser && { [[ ! -x /usr/bin/chromium ]] || [[ ! -x /usr/bin/chromedriver ]]; }; then
  say "installing chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi
