#!/usr/bin/env bash
# Load through nginx with 1, 2 and 3 layoutd replicas sharing one Redis, and the latency of a
# shared-cache hit against a local hit. Everything on 127.0.0.1, started and killed by PID
# (Tests/cluster/lib.sh). Not run by CI: it prints figures (README, "Running more than one").
#   Benchmarks/cluster/scale.sh [LAYOUTD_BINARY]     (default: a release build)
# Needs redis-server, nginx, wrk, python3. About a minute.
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${DURATION:-5}
CONNECTIONS=${CONNECTIONS:-32}
if [ -n "${1:-}" ]; then layoutd=$1; else
  swift build -c release --product layoutd >&2
  layoutd="$(swift build -c release --show-bin-path)/layoutd"
fi
cluster_dir=$(mktemp -d)
# shellcheck source=Tests/cluster/lib.sh
source Tests/cluster/lib.sh
trap 'cluster_cleanup; rm -rf "$cluster_dir"' EXIT

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); wrk -t1 -c$CONNECTIONS -d${DURATION}s"
echo "| replicas | cached req/s | p50 ms | p99 ms | errors |"
echo "|---:|---:|---:|---:|---:|"
names=(a b c)
for count in 1 2 3; do
  start_redis
  for name in "${names[@]:0:$count}"; do start_replica "$name"; done
  start_nginx "${names[@]:0:$count}"
  LAYOUT_BODY=Benchmarks/load/request.json wrk -t1 -c"$CONNECTIONS" -d1s -s Benchmarks/load/post.lua \
    "http://127.0.0.1:$nginx_port" >/dev/null
  LAYOUT_BODY=Benchmarks/load/request.json wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency \
    -s Benchmarks/load/post.lua "http://127.0.0.1:$nginx_port" >"$cluster_dir/wrk.txt"
  rps=$(sed -n 's/^Requests\/sec: *//p' "$cluster_dir/wrk.txt")
  p50=$(awk '$1=="50.000%" || $1=="50%" {print $2}' "$cluster_dir/wrk.txt")
  p99=$(awk '$1=="99.000%" || $1=="99%" {print $2}' "$cluster_dir/wrk.txt")
  errors=$(sed -n 's/.*Non-2xx or 3xx responses: *//p; s/.*Socket errors: *//p' "$cluster_dir/wrk.txt" | tr '\n' ' ')
  echo "| $count | $rps | $p50 | $p99 | ${errors:-0} |"
  if [ "$count" -eq 2 ]; then
    python3 Benchmarks/cluster/hit_latency.py "${port[a]}" "${port[b]}" 300 >"$cluster_dir/hits.json"
  fi
  cluster_cleanup
done
echo "shared vs local hit (one at a time, direct to a replica): $(cat "$cluster_dir/hits.json")"
