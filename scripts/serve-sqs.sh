#!/usr/bin/env bash
# Builds and starts `queuelab serve`: a local SQS endpoint on
# http://127.0.0.1:9324 for boto3, the AWS CLI and every SDK, with the
# page at / watching it. Flags go to the server (`--help` lists them):
#   ./scripts/serve-sqs.sh --speed 10 --data /tmp/queues
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# The page it serves at / (skipped when already built).
[[ -f web/pkg/queuelab_bg.wasm && -f web/page/main.min.js ]] || ./scripts/build-dist.sh
cargo build --quiet --profile server -p queuelab-server
exec target/server/queuelab serve --web . "$@"
