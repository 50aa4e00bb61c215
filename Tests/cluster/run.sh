#!/usr/bin/env bash
# Cluster test on loopback: redis-server + 3 layoutd replicas (the debug build) + nginx in
# front, all on 127.0.0.1, every process started here tracked by PID and killed by PID on exit.
# Shows: a layout computed through replica A is a shared-cache hit on replica B; garbage values
# in Redis are ignored and counted, never served; killing Redis under load fails no request
# and keeps p99 under P99_BOUND_MS, restarting it brings hits back without restarting layoutd;
# SIGTERM to a replica under load fails no request (drain + nginx retry).
#   Tests/cluster/run.sh [LAYOUTD_BINARY]
# Needs redis-server, redis-cli, nginx, curl, python3. Bounded: about a minute.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=Tests/cluster
# Whole-run bound: under `timeout`, whose TERM runs the trap below (and so the cleanup).
if [ -z "${CLUSTER_UNDER_TIMEOUT:-}" ]; then
  CLUSTER_UNDER_TIMEOUT=1 exec timeout -k 10 "${CLUSTER_TIMEOUT:-300}" "$0" "$@"
fi
trap 'echo "cluster: timed out after ${CLUSTER_TIMEOUT:-300} s"; echo "0 passed, 1 failed"; exit 1' TERM

# p99 bound while Redis is killed under load. Generous: a debug build on a 2-core machine
# shared with builds; what it guards against is a request waiting on a dead Redis.
P99_BOUND_MS=${P99_BOUND_MS:-250}
LOAD_SECONDS=${LOAD_SECONDS:-8}

for tool in redis-server redis-cli nginx curl python3; do
  command -v "$tool" >/dev/null || { echo "cluster: $tool is not installed"; echo "0 passed, 1 failed"; exit 1; }
done
if [ -n "${1:-}" ]; then layoutd=$1; else
  swift build --product layoutd >&2
  layoutd="$(swift build --show-bin-path)/layoutd"
fi

cluster_dir=$(mktemp -d)
dir=$cluster_dir
# shellcheck source=Tests/cluster/lib.sh
source "$here/lib.sh"
cleanup() {
  cluster_cleanup
  rm -rf "$cluster_dir"
}
trap cleanup EXIT

passed=0 failed=0
check() {  # check NAME CONDITION-EXIT-STATUS DETAIL
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "ok   $1 ${3:-}"
  else failed=$((failed + 1)); echo "FAIL $1 ${3:-}"; fi
}

start_redis
for name in a b c; do
  start_replica "$name" --shared-cache-timeout 0.05 --shared-cache-backoff 0.5 --drain-delay 1 --shutdown-timeout 5
done
start_nginx a b c || { echo "0 passed, 1 failed"; exit 1; }
echo "cluster: redis :$redis_port, replicas a :${port[a]} b :${port[b]} c :${port[c]}, nginx :$nginx_port"

row() {  # row AVAILABLE-WIDTH ROOT-ID: the README's row, one structure per width
  printf '{"available":{"width":%s,"height":null},"root":{"id":"%s","style":{"flexDirection":"row","width":300,"height":100,"padding":10},"children":[{"id":"icon","style":{"width":80}},{"id":"label","style":{"flexGrow":1,"marginLeft":10}}]}}' "$1" "$2"
}
post() {  # post REPLICA BODY: headers and body to $dir/h and $dir/b
  curl -s -m 5 -D "$dir/h" -o "$dir/b" -H 'Content-Type: application/json' --data-binary "$2" \
    "http://127.0.0.1:${port[$1]}/compute"
}
header() { tr -d '\r' <"$dir/h" | sed -n "s/^$1: //Ip" | head -n1; }
metric() {  # metric REPLICA NAME
  curl -s -m 5 "http://127.0.0.1:${port[$1]}/metrics" | sed -n "s/^$2 //p"
}
# Polls until B answers a layout computed on A from the shared cache (the store is in the background).
shared_hit_on() {  # shared_hit_on REPLICA WIDTH
  for _ in $(seq 1 50); do
    post "$1" "$(row "$2" "other-$RANDOM")"
    [ "$(header X-Cache-Level)" = shared ] && return 0
    sleep 0.1
  done
  return 1
}

# 1. Computed through A, a shared hit on B (with B's ids).
post a "$(row 501 first)"
check "A computes a new layout (X-Cache: miss)" "$([ "$(header X-Cache)" = miss ]; echo $?)"
status=0; shared_hit_on b 501 || status=$?
check "B answers it from the shared cache (X-Cache: hit, X-Cache-Level: shared)" $status \
  "[X-Cache: $(header X-Cache), X-Cache-Level: $(header X-Cache-Level)]"
status=0; grep -q '"id":"other-' "$dir/b" || status=$?
check "B's answer carries B's request ids" $status

# 2. Garbage under the key the service uses (the ETag's first 32 hex digits are the structural
# hash): wrong format version, truncated, not a layout value at all. Each must be a miss on C,
# answered with the right frames, and counted.
invalid_before=$(metric c layoutd_shared_cache_invalid_total)
kind_number=0
for kind in wrong-version truncated text; do
  kind_number=$((kind_number + 1))
  width=$((600 + kind_number))
  post a "$(row "$width" garbage)"
  cp "$dir/b" "$dir/expected"
  hash=$(header ETag | tr -d '"' | cut -c1-32)
  key="layoutd:frames:v1:$hash"
  for _ in $(seq 1 50); do [ "$(redis-cli -p "$redis_port" EXISTS "$key")" = 1 ] && break; sleep 0.1; done
  python3 - "$redis_port" "$key" "$kind" <<'PY'
import subprocess, sys
port, key, kind = sys.argv[1:]
value = subprocess.run(["redis-cli", "-p", port, "--raw", "GET", key], capture_output=True, check=True).stdout[:-1]
if kind == "wrong-version":
    value = value[:3] + b"\x02" + value[4:]
elif kind == "truncated":
    value = value[:-5]
else:
    value = b"this is not a layout value"
subprocess.run(["redis-cli", "-p", port, "-x", "SET", key], input=value, capture_output=True, check=True)
stored = subprocess.run(["redis-cli", "-p", port, "STRLEN", key], capture_output=True, check=True).stdout.strip()
assert int(stored) == len(value), (stored, len(value))
PY
  post c "$(row "$width" garbage)"
  cache=$(header X-Cache)
  same=0; cmp -s "$dir/b" "$dir/expected" || same=$?
  check "garbage value ($kind) is not served: C computes it (X-Cache: $cache) and answers the right frames" \
    "$([ "$cache" = miss ] && [ $same -eq 0 ]; echo $?)"
done
invalid_after=$(metric c layoutd_shared_cache_invalid_total)
check "C counted the 3 garbage values (layoutd_shared_cache_invalid_total $invalid_before -> $invalid_after)" \
  "$([ $((invalid_after - invalid_before)) -eq 3 ]; echo $?)"

# 3. Load through nginx; Redis killed 2 s in.
# Many structures, so that misses and shared-cache lookups go on for the whole run.
python3 "$here/load.py" "http://127.0.0.1:$nginx_port" "$LOAD_SECONDS" 8 50000 >"$dir/load-redis.json" &
load=$!
pids+=("$load")
sleep 2
kill -KILL "$redis_pid"; wait "$redis_pid" 2>/dev/null || true
wait "$load" || true
summary=$(cat "$dir/load-redis.json")
echo "     load with Redis killed: $summary"
read -r requests failures p99 <<<"$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["requests"], d["failed"], d["p99_ms"])' <<<"$summary")"
check "Redis killed under load: zero failed requests ($failures of $requests)" "$([ "$failures" = 0 ] && [ "$requests" -gt 0 ]; echo $?)"
check "Redis killed under load: p99 ${p99} ms <= ${P99_BOUND_MS} ms" \
  "$(python3 -c "import sys; sys.exit(0 if $p99 <= $P99_BOUND_MS else 1)"; echo $?)"
for name in a b c; do
  code=$(curl -s -o /dev/null -w '%{http_code}' -m 5 "http://127.0.0.1:${port[$name]}/healthz")
  check "replica $name healthy with Redis down (/healthz $code)" "$([ "$code" = 200 ]; echo $?)"
done
errors=$(( $(metric a layoutd_shared_cache_errors_total) + $(metric b layoutd_shared_cache_errors_total) + $(metric c layoutd_shared_cache_errors_total) ))
check "the replicas counted Redis errors ($errors)" "$([ "$errors" -gt 0 ]; echo $?)"

# 4. Redis back on the same port: hits return without restarting layoutd.
# The breakers may still be open (stores then are dropped, lookups skipped): each try is a new
# structure through A, then B, until B's answer comes from Redis (within the back-off and a probe).
start_redis
status=1
for try in $(seq 1 50); do
  post a "$(row $((800 + try)) back)"
  sleep 0.1
  post b "$(row $((800 + try)) back-on-b)"
  if [ "$(header X-Cache-Level)" = shared ]; then status=0; break; fi
done
alive=0
for name in a b c; do kill -0 "${pid[$name]}" 2>/dev/null || alive=1; done
check "Redis restarted: shared hits are back, same layoutd processes" "$([ $status -eq 0 ] && [ $alive -eq 0 ]; echo $?)"

# 5. SIGTERM to replica C under load.
python3 "$here/load.py" "http://127.0.0.1:$nginx_port" "$LOAD_SECONDS" 8 400 >"$dir/load-term.json" &
load=$!
pids+=("$load")
sleep 2
kill -TERM "${pid[c]}"
sleep 0.3
ready=$(curl -s -o /dev/null -w '%{http_code}' -m 2 "http://127.0.0.1:${port[c]}/readyz" || true)
check "replica C drains: /readyz $ready while it still serves" "$([ "$ready" = 503 ]; echo $?)"
wait "$load" || true
summary=$(cat "$dir/load-term.json")
echo "     load with replica C stopped: $summary"
read -r requests failures p99 <<<"$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["requests"], d["failed"], d["p99_ms"])' <<<"$summary")"
check "SIGTERM to a replica under load: zero failed requests ($failures of $requests)" \
  "$([ "$failures" = 0 ] && [ "$requests" -gt 0 ]; echo $?)"
exited=1
for _ in $(seq 1 100); do kill -0 "${pid[c]}" 2>/dev/null || { exited=0; break; }; sleep 0.1; done
check "replica C exited after draining" $exited

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
