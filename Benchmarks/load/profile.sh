#!/usr/bin/env bash
# Where layoutd spends its CPU under load: perf samples of the server (pinned to core 0) while
# wrk (core 1) drives one scenario of run.sh, then the top symbols (self and with callees) and
# the hottest source lines. Needs `perf stat -e instructions true` to work.
#
#   Benchmarks/load/profile.sh path/to/layoutd [cached|uncached|batch|close] [connections] [seconds]
#
# Defaults: cached, 64 connections, 10 s. TOP (25) lines per table; KEEP_PERF_DATA=FILE keeps
# the samples. Writes nothing else outside a temp dir; stops the server it starts by PID.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=$PWD/Benchmarks/load
layoutd=${1:?usage: profile.sh path/to/layoutd [scenario] [connections] [seconds]}
scenario=${2:-cached}
conns=${3:-64}
seconds=${4:-10}
top=${TOP:-25}

work=$(mktemp -d /tmp/layoutd-profile.XXXXXX)
. "$here/server.sh"

python3 "$here/make_requests.py" "$work"
taskset -c 0 "$layoutd" serve --host 127.0.0.1 --port 0 --log-level notice 2>"$work/layoutd.log" &
server_pid=$!
port=$(listening_port "$work/layoutd.log")
url=http://127.0.0.1:$port

case "$scenario" in
  cached) lua=post.lua; env_args=(LAYOUT_BODY="$here/request.json") ;;
  close) lua=post.lua; env_args=(LAYOUT_BODY="$here/request.json" LAYOUT_CLOSE=1) ;;
  batch) lua=post.lua; env_args=(LAYOUT_BODY="$work/batch.json" LAYOUT_PATH=/compute/batch) ;;
  uncached) lua=uncached.lua; env_args=(LAYOUT_TEMPLATE="$work/tree1000.template" LAYOUT_SEED=$((RANDOM * 1000))) ;;
  *) echo "unknown scenario $scenario" >&2; exit 2 ;;
esac

# Warm up (not sampled), then sample the whole process while wrk runs.
env "${env_args[@]}" taskset -c 1 timeout 30 wrk -t1 -c"$conns" -d2s -s "$here/$lua" "$url/compute" >/dev/null
perf record -q -F 1999 -g -p "$server_pid" -o "$work/perf.data" -- sleep "$seconds" 2>/dev/null &
perf_pid=$!
env "${env_args[@]}" taskset -c 1 timeout $((seconds + 60)) \
  wrk -t1 -c"$conns" -d"${seconds}s" --latency -s "$here/$lua" "$url/compute" | grep -E 'Requests/sec|99%'
wait "$perf_pid" || true
[ -n "${KEEP_PERF_DATA:-}" ] && cp "$work/perf.data" "$KEEP_PERF_DATA"

demangle() { if command -v swift-demangle >/dev/null; then swift-demangle --simplified; else cat; fi; }
report() { perf report -i "$work/perf.data" --stdio --percent-limit 0.5 "$@" 2>/dev/null | grep -v '^#' | grep -v '^$'; }

echo "## self time by symbol (top $top)"
report --no-children --sort dso,sym -g none | head -n "$top" | demangle
echo
echo "## time with callees by symbol (top $top)"
report --children --sort sym -g none | head -n "$top" | demangle
echo
echo "## self time by source line (top $top)"
report --no-children --sort srcline -g none | head -n "$top"
