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

# The server's tests run real clients: boto3, the AWS CLI and maturin (to
# build the wheel) at the versions tests/server/requirements.txt pins, in
# a virtual environment of their own.
pyenv=target/pyenv
if ! cmp -s tests/server/requirements.txt "$pyenv/requirements.txt"; then
  say "installing boto3, the AWS CLI and maturin into $pyenv"
  rm -rf "$pyenv"
  python3 -m venv "$pyenv"
  "$pyenv/bin/pip" install --quiet --disable-pip-version-check -r tests/server/requirements.txt
  cp tests/server/requirements.txt "$pyenv/requirements.txt"
fi
# SQS's last query-protocol service model (botocore 1.34.89's): on
# botocore's data path it makes boto3 and the AWS CLI speak the query
# protocol, so both of the server's wires are tested with real clients.
model="$pyenv/query-model/sqs/2012-11-05/service-2.json"
if [[ ! -f "$model" ]]; then
  say "fetching SQS's query-protocol model (botocore 1.34.89)"
  "$pyenv/bin/pip" download --quiet --disable-pip-version-check --no-deps botocore==1.34.89 -d "$pyenv/download"
  "$pyenv/bin/python" - "$pyenv/download" "$model" <<'PY'
import gzip, pathlib, sys, zipfile
wheel = next(pathlib.Path(sys.argv[1]).glob("botocore-1.34.89-*.whl"))
data = zipfile.ZipFile(wheel).read("botocore/data/sqs/2012-11-05/service-2.json.gz")
out = pathlib.Path(sys.argv[2])
out.parent.mkdir(parents=True, exist_ok=True)
out.write_bytes(gzip.decompress(data))
PY
  rm -rf "$pyenv/download"
fi
