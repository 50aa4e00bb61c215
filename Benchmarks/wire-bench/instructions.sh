#!/usr/bin/env bash
# Instructions per call of each stage of an uncached /compute, counted by valgrind (callgrind):
# unlike times, the counts do not move with the shared machine's speed, so two builds compare
# to a fraction of a percent. Each figure is the difference of a run with 12 calls and one with
# 2, divided by 10, so start-up and the first call's warm-up drop out. Not run by CI.
#
#   Benchmarks/wire-bench/instructions.sh [path/to/wire-bench] [stage...]
#
# Stages: engine (build + layout, as a Swift client), service (LayoutOnce: decode, hash,
# layout, encode), decode, hash, encode; patch and patch-changes (one leaf's width changed by
# `/compute/patch` on the last answer's ETag, whole answer or `changesOnly`, as
# Benchmarks/patch does, after 100 patches of warm-up); patch-child (a child added to one of
# the root's children, then removed by the next call: structural patches, made in place);
# chain-start and first-patch (a new tree's `/compute`, keeping its body as a base, alone and
# then with one leaf patch on its ETag: their difference is a chain's first patch), and
# chain-start-kept and first-patch-kept (the same with `--patch-keeps-computed-trees`);
# decode-folded, hash-folded, layout-folded, frames-folded, encode-folded (the stages of a
# request whose repeated siblings are decoded as instances, as the service decodes it). TREE:
# the request (default: Benchmarks/load's generated 1,000-node tree, made in a temporary
# directory). Needs valgrind
# (Debian: valgrind).
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=${1:-.build/release/wire-bench}
shift || true
stages=${*:-engine service decode hash encode}
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind" >&2; exit 1; }
work=$(mktemp -d /tmp/wire-instructions.XXXXXX)
trap 'rm -rf "$work"' EXIT
tree=${TREE:-}
if [ -z "$tree" ]; then
  python3 Benchmarks/load/make_requests.py "$work" >/dev/null
  tree=$work/tree1000.json
fi
count() {  # count STAGE CALLS -> instructions of the whole run
  SWIFT_DETERMINISTIC_HASHING=1 WIRE_BENCH_STAGE=$1 WIRE_BENCH_COUNT=$2 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$bench" --service "$tree" 2>&1 | awk '/Collected/ {gsub(",", "", $4); print $4}'
}
for stage in $stages; do
  low=$(count "$stage" 2)
  high=$(count "$stage" 12)
  echo "$stage $(( (high - low) / 10 / 1000 )) thousand instructions per call"
done
