#!/usr/bin/env bash
# Server CPU of a patch against sending the patched tree whole (see bench.py for the cells).
#
#   Benchmarks/patch/run.sh [path/to/layoutd]     (without a path: a release build, .build-load)
#
# Environment: DURATION (6 s per cell), CONNECTIONS ("1 4"), PORT (0: any free port), SCRATCH (.build-load),
# CLIENT (python, or wrk: see bench.py), TREE and PATCH (bench.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch=${SCRATCH:-.build-load}
if [ -n "${1:-}" ]; then
  layoutd=$1
else
  echo "# building layoutd (release, $scratch)" >&2
  swift build -c release --scratch-path "$scratch" --product layoutd >&2
  layoutd=$(swift build -c release --scratch-path "$scratch" --show-bin-path)/layoutd
fi
exec python3 Benchmarks/patch/bench.py "$layoutd"
