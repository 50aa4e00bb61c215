#!/usr/bin/env bash
# Property-based API test: starts `layoutd serve` on 127.0.0.1 with a free port, points
# schemathesis at the server's own /openapi.yaml with every check, then stops the server.
#
#   Tests/Scripts/schemathesis.sh [path/to/layoutd]
#
# Needs `pip install schemathesis` (4.x). Bounded: ST_MAX_EXAMPLES examples per operation
# (default 60) and ST_MAX_TIME seconds overall (default 120). Exits non-zero when a check fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Scripts/lib/layoutd-server.sh

command -v st >/dev/null || { echo "schemathesis.sh: 'st' not found (pip install schemathesis)" >&2; exit 2; }
layoutd=$(find_layoutd "${1:-}")
report=$(mktemp -d)
trap 'stop_layoutd; rm -rf "$report"' EXIT
start_layoutd "$layoutd" --max-nodes 10000

status=0
st --config-file Tests/Scripts/schemathesis.toml run "$LAYOUTD_BASE/openapi.yaml" \
  --checks all \
  --max-examples "${ST_MAX_EXAMPLES:-60}" \
  --max-time "${ST_MAX_TIME:-120}" \
  --request-timeout 10 \
  --seed "${ST_SEED:-20261121}" \
  --no-color \
  --report junit --report-dir "$report" || status=$?

if ! kill -0 "$LAYOUTD_PID" 2>/dev/null; then
  echo "schemathesis.sh: the server died during the run" >&2
  status=1
fi
exit $status
