#!/usr/bin/env bash
# Builds the fuzzers (libFuzzer + AddressSanitizer, optimised) and runs one of them.
#
#   Fuzz/run.sh NAME [SECONDS] [extra libFuzzer flags...]
#   NAME: http-parser | http-connection | wire-decoder | models | engine | patch     SECONDS: default 60
#   Fuzz/run.sh smoke [SECONDS]     every fuzzer from the committed corpus only, a fixed seed and
#                                   number of runs, at most SECONDS each (default 30); fails on
#                                   the first finding (CI runs this)
#
# New inputs go to Fuzz/.work/<NAME>/corpus (FUZZ_WORK overrides Fuzz/.work) (the seeds in Fuzz/corpus/<NAME> are read only);
# crashes land in Fuzz/.work/<NAME>/crash-* and are listed at the end. Reproduce one with
#   .build-fuzz/release/<Harness> Fuzz/.work/<NAME>/crash-<hash>
# Build scratch: .build-fuzz at the package root (FUZZ_SCRATCH overrides). FUZZ_NO_BUILD=1
# skips the build; FUZZ_CONFIGURATION=debug builds unoptimised (about 10x slower to run).
# FUZZ_TRACE_CMP=0 builds without libFuzzer's comparison tracing (into .build-fuzz-notc): the
# engine fuzzer runs ~1.8x as many inputs per CPU-second, at the price of comparison-guided
# mutations (the long runs of the generator harnesses use it; see Fuzz/README.md).
# FUZZ_JOBS=N runs N workers in parallel (default 1; the machine is shared).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
name="${1:?usage: run.sh NAME [SECONDS] | run.sh smoke [SECONDS]}"
all_names="http-parser http-connection wire-decoder models engine patch"
configuration="${FUZZ_CONFIGURATION:-release}"
# The coverage -sanitize=fuzzer gives (with comparison tracing and indirect calls), spelled out:
# the code is compiled with coverage and AddressSanitizer only, and each harness links libFuzzer
# itself (Fuzz/Package.swift), so the root package's build tools (embed-text, run by its
# plugins to build LayoutServer) link as ordinary programs.
if [[ "${FUZZ_TRACE_CMP:-1}" == 0 ]]; then
  coverage=edge,inline-8bit-counters,pc-table
  scratch="${FUZZ_SCRATCH:-$here/../.build-fuzz-notc}"
else
  coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table
  scratch="${FUZZ_SCRATCH:-$here/../.build-fuzz}"
fi

build() {
  # -enable-testing: the HTTP harnesses reach the parser's and the connection's internals with
  # @testable, which an optimised build only allows with it. lld: gold fails on these links
  # ("internal error in format_file_lineno"). The log is shown only on failure.
  local log
  log="$(mktemp)"
  if (cd "$here" && swift build -c "$configuration" -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage="$coverage" \
        -Xswiftc -use-ld=lld -Xswiftc -enable-testing --scratch-path "$scratch" "$@" >"$log" 2>&1); then
    grep -E "^Build (of product|complete)" "$log" || true
    rm -f "$log"
  else
    grep -v "warning: Cannot export" "$log" | tail -40
    rm -f "$log"
    return 1
  fi
}

if [[ "$name" == smoke ]]; then
  seconds="${2:-30}"
  if [[ "${FUZZ_NO_BUILD:-0}" != 1 ]]; then
    for product in FuzzHTTPParser FuzzHTTPConnection FuzzWireDecoder FuzzModels FuzzEngine FuzzPatch; do build --product "$product"; done
  fi
  # A fresh work folder: the smoke starts from the committed seeds only. A fixed seed and a
  # fixed number of runs (about 15 s each on a quiet machine; SECONDS caps a slow one) make it
  # the same sequence of inputs every time: CI checks for regressions on known ground, and new
  # ground is for the long runs (a finding there becomes a regression test).
  smoke_work="$(mktemp -d)"
  declare -A smoke_runs=([http-parser]=200000 [http-connection]=40000 [wire-decoder]=150000 [models]=8000 [engine]=15000 [patch]=6000)
  for each in ${FUZZ_SMOKE_NAMES:-$all_names}; do
    echo "fuzz smoke: $each, ${smoke_runs[$each]} runs (seed 1, at most ${seconds}s) from Fuzz/corpus/$each"
    FUZZ_NO_BUILD=1 FUZZ_WORK="$smoke_work" "$0" "$each" "$seconds" -seed=1 -runs="${smoke_runs[$each]}"
  done
  rm -rf "$smoke_work"
  exit 0
fi

seconds="${2:-60}"
shift $(( $# >= 2 ? 2 : 1 ))
case "$name" in
  http-parser) product=FuzzHTTPParser; maxlen=4096 ;;
  http-connection) product=FuzzHTTPConnection; maxlen=4096 ;;
  wire-decoder) product=FuzzWireDecoder; maxlen=8192 ;;
  models) product=FuzzModels; maxlen=2048 ;;
  engine) product=FuzzEngine; maxlen=2048 ;;
  patch) product=FuzzPatch; maxlen=1024 ;;
  *) echo "unknown fuzzer '$name' ($all_names, smoke)" >&2; exit 2 ;;
esac
[[ "${FUZZ_NO_BUILD:-0}" == 1 ]] || build --product "$product"
binary="$scratch/$configuration/$product"
work="${FUZZ_WORK:-$here/.work}/$name"
mkdir -p "$work/corpus"
jobs="${FUZZ_JOBS:-1}"
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
# malloc_context_size=4: ASan records 4 frames per allocation instead of 30 (unwinding and
# storing them cost a tenth of each run); a report still names the allocating function.
# quarantine_size_mb=16 instead of 256: freed memory is reused sooner (a use after free is
# still caught within the last 16 MiB freed), so two fuzzers fit beside the other work on a
# shared machine (~90 MiB each instead of ~450). Reproduce a crash with
# ASAN_OPTIONS=detect_leaks=1 for full stacks.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:malloc_context_size=4:quarantine_size_mb=16}"
set +e
"$binary" "$work/corpus" "$here/corpus/$name" -max_total_time="$seconds" -max_len="$maxlen" \
  -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$work/" -print_final_stats=1 \
  $( ((jobs > 1)) && echo "-fork=$jobs" ) "$@" 2>&1 | tee "$work/last-run.log" | grep -E "^#|ERROR|Fatal|crash|SUMMARY|stat::|DONE" | tail -25
status=${PIPESTATUS[0]}
set -e
echo "exit status: $status"
ls -1 "$work" | grep -E '^(crash|leak|timeout|oom)-' | sed "s|^|artifact: $work/|" || true
exit "$status"
