#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and under ThreadSanitizer (separate scratch
# paths, so neither invalidates the other or the normal build) and summarises what they found.
#
#   Tests/Scripts/sanitizers.sh [address|thread|both] [swift test args, e.g. --filter HTTPServerTests]
#
# Environment: SCRATCH_PREFIX (default .build-san), PACKAGE (default: this checkout). Full
# logs go to $SCRATCH_PREFIX-<sanitizer>.log. Exit status 1 if a sanitizer reported anything
# or a test failed.
set -uo pipefail
root="${PACKAGE:-$(cd "$(dirname "$0")/../.." && pwd)}"
which="${1:-both}"; shift || true
prefix="${SCRATCH_PREFIX:-$root/.build-san}"
status=0

run() {
  local sanitizer="$1"; shift
  local log="$prefix-$sanitizer.log"
  echo "== swift test --sanitize=$sanitizer $* (log: $log)"
  local started=$SECONDS
  # Sanitizer reports must not be swallowed by Swift's own crash handler.
  SWIFT_BACKTRACE=enable=no \
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=0}" \
  TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1}" \
    swift test --package-path "$root" --sanitize="$sanitizer" --scratch-path "$prefix-$sanitizer" "$@" >"$log" 2>&1
  local rc=$?
  local reports
  reports=$(grep -cE "ERROR: AddressSanitizer|WARNING: ThreadSanitizer|ERROR: ThreadSanitizer|runtime error:" "$log")
  echo "   exit $rc after $((SECONDS - started)) s; sanitizer reports: $reports"
  grep -E "Test run with|Executed .* tests" "$log" | tail -2 | sed 's/^/   /'
  grep -E "✘ Test .* failed|error: " "$log" | head -10 | sed 's/^/   /'
  if (( reports > 0 )); then
    # One line per distinct report: its kind and the first frame in project code.
    awk '/(ERROR|WARNING): (Address|Thread)Sanitizer/ { kind=$0; getline; n=0 }
         kind != "" && /#[0-9]+ .* in .*(Sources|Tests)\// { if (n++ == 0) { sub(/^ +/, ""); print "   " kind "\n      at " $0; kind="" } }' "$log" \
      | sort | uniq -c | sort -rn | head -30
    grep -E "SUMMARY: (Address|Thread)Sanitizer" "$log" | sort | uniq -c | sort -rn | head -20 | sed 's/^/   /'
  fi
  (( rc == 0 && reports == 0 )) || status=1
}

case "$which" in
  address) run address "$@" ;;
  thread) run thread "$@" ;;
  both) run address "$@"; run thread "$@" ;;
  *) echo "usage: $0 [address|thread|both] [swift test args]" >&2; exit 2 ;;
esac
exit "$status"
