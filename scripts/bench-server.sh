#!/usr/bin/env bash
# boto3 against `queuelab serve` and against moto's server, in one run:
# cycles per second, long-poll wake-up latency, memory at 1M stored
# messages (scripts/bench_server.py; figures in docs/benchmarks.md).
#   scripts/bench-server.sh [--messages N] [--budget SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/bench-pyenv
if [[ ! -x "$venv/bin/moto_server" ]]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "moto[server]==5.2.5" boto3==1.44.8 botocore==1.44.8
fi
cargo build --quiet --profile server -p queuelab-server

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
qport=$(port)
mport=$(port)
RUST_LOG=warn target/server/queuelab serve --port "$qport" >/dev/null &
qpid=$!
"$venv/bin/moto_server" -p "$mport" >/dev/null 2>&1 &
mpid=$!
trap 'kill $qpid $mpid 2>/dev/null || true' EXIT
for p in "$qport" "$mport"; do
  until python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$p/_queuelab/status' if $p == $qport else 'http://127.0.0.1:$p/moto-api/')" 2>/dev/null; do sleep 0.2; done
done
printf 'cpu: %s, %s cores\n' "$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)" "$(nproc)"
"$venv/bin/python" scripts/bench_server.py "queuelab=http://127.0.0.1:$qport:$qpid" "moto=http://127.0.0.1:$mport:$mpid" "$@"
