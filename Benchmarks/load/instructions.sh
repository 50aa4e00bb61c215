#!/usr/bin/env bash
# Instructions per uncached 1,000-node /compute in the whole server, over HTTP: layoutd's
# user-space work on a request (event loop, parser, routing, caches, the service path, the
# response), counted by valgrind (callgrind) on every thread, against the same tree's service
# path in process and the engine's build + layout (Benchmarks/wire-bench/instructions.sh).
# Unlike `run.sh` section 3, whose times move by up to 2x with this shared machine's speed,
# the counts repeat to a fraction of a percent, so issue 11's ratio (server / engine <= 1.4x)
# can be followed from build to build. They leave out the kernel (the socket's copies and
# system calls) and what instructions do not show (cache misses, page faults).
#
#   Benchmarks/load/instructions.sh [path/to/layoutd] [path/to/wire-bench]
#   SCENARIO=cached Benchmarks/load/instructions.sh [path/to/layoutd]
#
# SCENARIO=cached counts the cached request of run.sh (request.json, ~2 KB, an answer-cache
# hit) instead: 210 requests against 10, divided by 200; the server alone. The event loop's
# work depends on how the bytes arrive (reads per request, wake-ups), so on a busy machine the
# counts move too: the uncached one by ~0.2 %, the cached one by up to ~4 %. Compare builds on a
# quiet machine, one right after the other.
# Defaults: .build/release/{layoutd,wire-bench}. A request's count is the difference of a run
# that answers 12 requests and one that answers 2, divided by 10, so start-up, the first
# requests' warm-up and shutdown drop out. The client (uncached_client.py, one keep-alive
# connection, the same bytes in every run) is not counted. The server listens on 127.0.0.1
# and is stopped by its PID. Valgrind 3.19 cannot read the DWARF 5 that Swift writes, so the
# binaries are counted as copies without debug information (objcopy, binutils); their symbols
# stay. Needs valgrind and objcopy (Debian: valgrind binutils). Not run by CI.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=$PWD/Benchmarks/load
layoutd=${1:-.build/release/layoutd}
bench=${2:-.build/release/wire-bench}
for tool in valgrind objcopy python3; do
  command -v "$tool" >/dev/null || { echo "instructions.sh: needs $tool" >&2; exit 1; }
done
work=$(mktemp -d /tmp/layoutd-instructions.XXXXXX)
. "$here/server.sh"

python3 "$here/make_requests.py" "$work" >/dev/null
objcopy --strip-debug "$layoutd" "$work/layoutd"
objcopy --strip-debug "$bench" "$work/wire-bench"

# Run in this shell, not in $( ): a server it starts must be the one the exit trap stops.
serve() {  # serve REQUESTS BODY -> instructions of the whole server run
  local log=$work/layoutd.$1.log port
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$work/layoutd" serve --host 127.0.0.1 --port 0 --log-level notice 2>"$log" &
  server_pid=$!
  port=$(listening_port "$log")
  timeout 600 python3 "$here/uncached_client.py" "$port" "$1" "$2"
  stop_server
  awk '/Collected/ {gsub(",", "", $4); print $4}' "$log"
}
if [ "${SCENARIO:-uncached}" = cached ]; then
  serve 10 "$here/request.json" >"$work/low"
  serve 210 "$here/request.json" >"$work/high"
  echo "instructions per cached /compute (request.json): server over HTTP $(( ($(<"$work/high") - $(<"$work/low")) / 200 ))"
  exit 0
fi
serve 2 "$work/tree1000.template" >"$work/low"
serve 12 "$work/tree1000.template" >"$work/high"
server=$(( ($(<"$work/high") - $(<"$work/low")) / 10 ))

in_process() {  # in_process STAGE -> instructions per call (as wire-bench/instructions.sh counts)
  local counts=()
  for calls in 2 12; do
    counts+=("$(SWIFT_DETERMINISTIC_HASHING=1 WIRE_BENCH_STAGE=$1 WIRE_BENCH_COUNT=$calls \
      valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/wire-bench" --service "$work/tree1000.json" 2>&1 |
      awk '/Collected/ {gsub(",", "", $4); print $4}')")
  done
  echo $(( (counts[1] - counts[0]) / 10 ))
}
service=$(in_process service)
engine=$(in_process engine)

echo "instructions per uncached 1,000-node /compute (thousands):"
echo "  server over HTTP         $(( server / 1000 ))"
echo "  service path in process  $(( service / 1000 ))"
echo "  engine build + layout    $(( engine / 1000 ))"
awk -v s="$server" -v p="$service" -v e="$engine" 'BEGIN {
  printf "  server / engine          %.3f (issue 11: <= 1.4)\n", s / e
  printf "  service path / engine    %.3f\n", p / e
  printf "  server / service path    %.3f\n", s / p
}'
