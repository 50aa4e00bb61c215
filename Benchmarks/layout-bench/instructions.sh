#!/usr/bin/env bash
# Instructions per relayout of each tree, counted by valgrind (callgrind): the engine's
# relayout benchmark in a measure that does not move with the shared machine's speed, so two
# builds compare to a fraction of a percent. Each figure is the difference of a run with 102
# layouts and one with 2 (one round each, a fixed warm-up), divided by 100, so loading the
# trees and the check layouts drop out. The layouts alternate LTR and RTL, as the timed runs
# do. Not run by CI.
#
#   Benchmarks/layout-bench/instructions.sh [path/to/layout-bench] [FILE.json...]
#
# Files default to compare.sh's: the bench trees and the Android news feed of
# shared/conformance/yoga. Needs valgrind (Debian: valgrind) and python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=${1:-.build/release/layout-bench}
shift || true
conformance=${CONFORMANCE_DIR:-../shared/conformance/yoga}
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$conformance/bench-trees.json" "$conformance/android-news-feed.json")
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind" >&2; exit 1; }
count() {  # count FILE TREE LAYOUTS -> instructions of the whole run
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" --rounds 1 --iterations "$3" --tree "$2" "$1" 2>&1 \
    | awk '/Collected/ {gsub(",", "", $4); print $4}'
}
for file in "${files[@]}"; do
  # The names layout-bench checks the trees under.
  names=$("$bench" --rounds 1 --iterations 2 "$file" | awk -F'\t' '/^check / {print $2}')
  for name in $names; do
    low=$(count "$file" "$name" 2)
    high=$(count "$file" "$name" 102)
    echo "$name $(( (high - low) / 100 )) instructions per relayout"
  done
done
