#!/usr/bin/env bash
# Builds the fuzzers (libFuzzer + AddressSanitizer) and runs one of them.
#
#   Fuzz/run.sh NAME [SECONDS] [extra libFuzzer flags...]
#   NAME: http-parser | wire-decoder | engine        SECONDS: default 60
#
# New inputs go to Fuzz/.work/<NAME>/corpus (the seeds in Fuzz/corpus/<NAME> are read only);
# crashes land in Fuzz/.work/<NAME>/crash-* and are listed at the end. Reproduce one with
#   .build-fuzz/debug/<Harness> Fuzz/.work/<NAME>/crash-<hash>
# Build scratch: .build-fuzz at the package root (FUZZ_SCRATCH overrides). FUZZ_NO_BUILD=1
# skips the build. FUZZ_JOBS=N runs N workers in parallel (default 1; the machine is shared).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
name="${1:?usage: run.sh NAME [SECONDS]}"
seconds="${2:-60}"
shift $(( $# >= 2 ? 2 : 1 ))
case "$name" in
  http-parser) product=FuzzHTTPParser; maxlen=4096 ;;
  wire-decoder) product=FuzzWireDecoder; maxlen=8192 ;;
  engine) product=FuzzEngine; maxlen=2048 ;;
  *) echo "unknown fuzzer '$name' (http-parser, wire-decoder, engine)" >&2; exit 2 ;;
esac
scratch="${FUZZ_SCRATCH:-$here/../.build-fuzz}"
if [[ "${FUZZ_NO_BUILD:-0}" != 1 ]]; then
  (cd "$here" && swift build -c debug -Xswiftc -sanitize=fuzzer,address \
     --scratch-path "$scratch" --product "$product" 2>&1 | grep -v "warning: Cannot export" | tail -3)
fi
binary="$scratch/debug/$product"
work="$here/.work/$name"
mkdir -p "$work/corpus"
jobs="${FUZZ_JOBS:-1}"
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
set +e
"$binary" "$work/corpus" "$here/corpus/$name" -max_total_time="$seconds" -max_len="$maxlen" \
  -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$work/" -print_final_stats=1 \
  $( ((jobs > 1)) && echo "-fork=$jobs" ) "$@" 2>&1 | tee "$work/last-run.log" | grep -E "^#|ERROR|Fatal|crash|SUMMARY|stat::|DONE" | tail -25
status=${PIPESTATUS[0]}
set -e
echo "exit status: $status"
ls -1 "$work" | grep -E '^(crash|leak|timeout|oom)-' | sed "s|^|artifact: $work/|" || true
exit "$status"
