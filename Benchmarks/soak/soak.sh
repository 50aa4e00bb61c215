#!/usr/bin/env bash
# Soak test: layoutd under wrk for DURATION seconds with a mix of cached, uncached (distinct
# trees), batch and bad requests (Benchmarks/soak/mix.lua), and beside it clients that vanish
# mid-request (Benchmarks/soak/vanish.py: half a head, half a body, a request whose answer is
# never read, a reset while the answer is sent, a stalled body). Passes when there are zero 5xx,
# zero socket errors, the server is alive at the end, the caches stay within their byte bounds,
# every good request got a 200 (4xx share ≈ the 15% of bad requests in the mix), the open fds
# come back to where they started once the load is gone, and RSS after the warm-up (the first
# WARMUP seconds: caches filling to their bounds, malloc's arenas and thread caches reaching
# their working size) grows less than MAX_GROWTH percent to its highest sample.
# Prints RSS and open fds (from /proc/PID) at the start, every SAMPLE seconds, and at the end.
#
#   Benchmarks/soak/soak.sh                      # 600 s, 128 connections
#   DURATION=1800 CONNECTIONS=256 Benchmarks/soak/soak.sh
#
# Environment: BINARY (default .build/release/layoutd; built with `swift build -c release`
# when missing), DURATION (600), CONNECTIONS (128; 64–256 intended), THREADS (2), PORT (free
# one), CACHE_BYTES (8M: small, so eviction runs), SAMPLE (30), WARMUP (300), MAX_GROWTH (5),
# VANISH_WORKERS (4; 0: none), VANISH_RATE (25 connections/s per worker), SERVER_ARGS (further
# `serve` options). Each sample also prints malloc's heaps from /metrics (in use against free:
# live data against fragmentation) and the load average. Needs wrk
# (apt-get install wrk) and python3.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/Benchmarks/soak"
BINARY="${BINARY:-$root/.build/release/layoutd}"
DURATION="${DURATION:-600}"
CONNECTIONS="${CONNECTIONS:-128}"
THREADS="${THREADS:-2}"
CACHE_BYTES="${CACHE_BYTES:-8M}"
SAMPLE="${SAMPLE:-30}"
WARMUP="${WARMUP:-300}"
MAX_GROWTH="${MAX_GROWTH:-5}"
VANISH_WORKERS="${VANISH_WORKERS:-4}"
VANISH_RATE="${VANISH_RATE:-25}"
PORT="${PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}"
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
if [[ ! -x "$BINARY" ]]; then
  (cd "$root" && swift build -c release --product layoutd)
fi

log="$(mktemp -t soak-layoutd.XXXXXX)"
# SERVER_ARGS: further serve options, split on spaces (e.g. "--retained-buffer-bytes 16k"; malloc's
# arenas are set in the environment: LAYOUTD_MALLOC_ARENA_MAX=2).
# shellcheck disable=SC2086
"$BINARY" serve --host 127.0.0.1 --port "$PORT" --cache-bytes "$CACHE_BYTES" --log-level warning ${SERVER_ARGS:-} >"$log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done

rss() { awk '/^VmRSS/ {print $2}' "/proc/$pid/status"; }
# RSS split: anonymous (heap, arenas, stacks) and file-backed (the binary's pages, fonts).
rss_split() { awk '/^RssAnon/ {a=$2} /^RssFile/ {f=$2} END {printf "anon %s KiB, file %s KiB", a, f}' "/proc/$pid/status"; }
fds() { ls "/proc/$pid/fd" | wc -l; }
metric() { curl -sf "http://127.0.0.1:$PORT/metrics" | awk -v n="$1" '$1 == n {print $2}'; }

# Warm up briefly so the start figures include the thread pool and allocator steady state.
wrk -t1 -c8 -d3s -s "$here/mix.lua" "http://127.0.0.1:$PORT" >/dev/null
rss0=$(rss); fds0=$(fds)
echo "soak: pid $pid, ${DURATION}s, $CONNECTIONS connections, $THREADS threads, cache $CACHE_BYTES"
echo "start: RSS ${rss0} KiB ($(rss_split)), open fds ${fds0}"

samples="$(mktemp -t soak-samples.XXXXXX)"
(
  t=0
  while sleep "$SAMPLE"; do
    t=$((t + SAMPLE))
    [[ -d /proc/$pid ]] || break
    r=$(rss)
    echo "$t $r" >>"$samples"
    echo "  t=${t}s RSS ${r} KiB ($(rss_split)), fds $(fds), cache $(metric layoutd_cache_bytes) B, answer cache $(metric layoutd_answer_cache_bytes) B, patch bases $(metric layoutd_patch_bases_bytes) B, connections $(metric layoutd_open_connections), buffered out/in $(metric layoutd_buffered_output_bytes)/$(metric layoutd_buffered_input_bytes) B, malloc arenas $(metric layoutd_malloc_arenas) heap/in use/free/mmapped $(metric layoutd_malloc_heap_bytes)/$(metric layoutd_malloc_in_use_bytes)/$(metric layoutd_malloc_free_bytes)/$(metric layoutd_malloc_mmapped_bytes) B, threads $(awk '/^Threads/ {print $2}' "/proc/$pid/status"), load $(cut -d' ' -f1 /proc/loadavg)"
  done
) &
sampler=$!

vanisher=""
vanish_out="$(mktemp -t soak-vanish.XXXXXX)"
if (( VANISH_WORKERS > 0 )); then
  python3 "$here/vanish.py" --port "$PORT" --seconds "$DURATION" --workers "$VANISH_WORKERS" --rate "$VANISH_RATE" >"$vanish_out" 2>&1 &
  vanisher=$!
fi
out="$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s --latency -s "$here/mix.lua" "http://127.0.0.1:$PORT")"
kill "$sampler" 2>/dev/null || true
[[ -n "$vanisher" ]] && wait "$vanisher" || true
cat "$vanish_out"
echo "$out" | grep -E "Requests/sec|requests in|Socket errors|Latency  " || true
echo "$out" | grep '^soak-'

alive=no; [[ -d /proc/$pid ]] && alive=yes
rss1=$(rss)
# Connections the vanishing clients left half-open end at the server's timeouts (header and
# body: 10 s and 30 s by default); the fds are compared once those have passed.
sleep 32
fds1=$(fds)
cache=$(metric layoutd_cache_bytes); capacity=$(metric layoutd_cache_capacity_bytes)
answers=$(metric layoutd_answer_cache_bytes); answers_capacity=$(metric layoutd_answer_cache_capacity_bytes)
evictions=$(metric layoutd_cache_evictions_total); hits=$(metric layoutd_cache_hits_total); misses=$(metric layoutd_cache_misses_total)
echo "end: RSS ${rss1} KiB ($(rss_split)), open fds ${fds1}, alive ${alive}"
# What the connections held shows as what malloc's in-use bytes lose once they are closed.
echo "after the load (connections closed): RSS $(rss) KiB, malloc heap/in use/free $(metric layoutd_malloc_heap_bytes)/$(metric layoutd_malloc_in_use_bytes)/$(metric layoutd_malloc_free_bytes) B, threads $(awk '/^Threads/ {print $2}' "/proc/$pid/status")"
echo "cache: ${cache} of ${capacity} bytes, hits ${hits}, misses ${misses}, evictions ${evictions}"
echo "answer cache: ${answers} of ${answers_capacity} bytes"
# RSS growth after the warm-up: from the first sample at or after WARMUP to the highest after it.
read -r warm_t warm_rss peak_rss < <(awk -v w="$WARMUP" '$1 >= w { if (!n++) { t = $1; r = $2 } if ($2 > p) p = $2 } END { print (n ? t : -1), (n ? r : 0), p + 0 }' "$samples")
growth=$(awk -v a="$warm_rss" -v b="$peak_rss" -v c="$rss1" 'BEGIN { if (a > 0) { if (c > b) b = c; printf "%.2f", 100 * (b - a) / a } else print "n/a" }')
echo "RSS after warm-up: ${warm_rss} KiB at t=${warm_t}s -> highest ${peak_rss} KiB, ${rss1} KiB at the end: growth ${growth}% (bound ${MAX_GROWTH}%)"

read -r ok c4 c5 other < <(echo "$out" | sed -n 's/^soak-status ok=\([0-9]*\) c4xx=\([0-9]*\) c5xx=\([0-9]*\) other=\([0-9]*\)/\1 \2 \3 \4/p')
read -r econn eread ewrite estatus etimeout < <(echo "$out" | sed -n 's/^soak-errors connect=\([0-9]*\) read=\([0-9]*\) write=\([0-9]*\) status=\([0-9]*\) timeout=\([0-9]*\)/\1 \2 \3 \4 \5/p')
total=$((ok + c4 + c5 + other))
share=$(awk -v a="$c4" -v t="$total" 'BEGIN { printf "%.2f", (t ? 100 * a / t : 0) }')
echo "requests: ${total} (200: ${ok}, 4xx: ${c4} = ${share}% [mix: 15%], 5xx: ${c5}, other: ${other})"

fail=0
[[ "$alive" == yes ]] || { echo "FAIL: the server died"; fail=1; }
(( c5 == 0 )) || { echo "FAIL: ${c5} 5xx answers"; fail=1; }
(( other == 0 )) || { echo "FAIL: ${other} answers neither 200 nor 4xx"; fail=1; }
(( econn + eread + ewrite + etimeout == 0 )) || { echo "FAIL: socket errors (connect $econn, read $eread, write $ewrite, timeout $etimeout)"; fail=1; }
(( cache <= capacity )) || { echo "FAIL: cache ${cache} over its bound ${capacity}"; fail=1; }
(( answers <= answers_capacity )) || { echo "FAIL: answer cache ${answers} over its bound ${answers_capacity}"; fail=1; }
(( fds1 <= fds0 + 2 )) || { echo "FAIL: open fds ${fds0} -> ${fds1} after the load (connections left behind?)"; fail=1; }
if [[ "$growth" == n/a ]]; then
  echo "FAIL: no RSS sample after the ${WARMUP} s warm-up (DURATION too short?)"; fail=1
else
  awk -v g="$growth" -v m="$MAX_GROWTH" 'BEGIN { exit !(g < m) }' || { echo "FAIL: RSS grew ${growth}% after the warm-up"; fail=1; }
fi
if [[ -n "$vanisher" ]]; then
  verrors=$(sed -n 's/^vanish-counts .*errors=\([0-9]*\).*/\1/p' "$vanish_out")
  (( ${verrors:-1} == 0 )) || { echo "FAIL: vanishing clients could not connect or were reset early (${verrors:-no report})"; fail=1; }
fi
awk -v s="$share" 'BEGIN { exit !(s >= 14 && s <= 16) }' || { echo "FAIL: 4xx share ${share}% is not the mix's 15% (good requests refused?)"; fail=1; }
if (( fail )); then echo "soak: FAIL"; tail -5 "$log"; else echo "soak: PASS"; fi
exit "$fail"
