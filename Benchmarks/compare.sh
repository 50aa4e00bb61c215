#!/usr/bin/env bash
# Times our engine (layout-bench, release) and Yoga 3.2.1 (pyyoga's compiled library, through
# yoga/run-yoga-bench.sh) on the same trees, one tree at a time, in the order Yoga, ours, ours,
# Yoga, so each tree's figures are taken within seconds of each other; each side keeps the
# lower of its two medians (load from other processes only ever slows a run down). Prints a
# table with the ratio ours / Yoga per tree (below 1 means we are faster).
#
#   Benchmarks/compare.sh [--rounds R] [--reference] [FILE.json...]
#
# Files default to the bench trees and the Android news feed of shared/conformance/yoga.
# --reference also runs shared/reference/yoga_bench.c on the five bench trees, as a check
# that the generic Yoga harness (yoga/yoga_cases_bench.c) times them the same way.
# Both runs are pinned with taskset to $BENCH_CPU (default 1). Figures from a busy machine
# move by up to 2x between runs: compare only the figures of one run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CONF="${CONFORMANCE_DIR:-/work/shared/conformance/yoga}"
ROUNDS=9
REFERENCE=0
FILES=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) ROUNDS="$2"; shift 2 ;;
        --reference) REFERENCE=1; shift ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) FILES+=("$1"); shift ;;
    esac
done
[[ ${#FILES[@]} -gt 0 ]] || FILES=("$CONF/bench-trees.json" "$CONF/android-news-feed.json")

CPU="${BENCH_CPU-1}"
PIN=()
if [[ -n "$CPU" ]] && command -v taskset >/dev/null; then PIN=(taskset -c "$CPU"); fi

echo "# building layout-bench (release, .build-bench)" >&2
(cd "$ROOT" && swift build -c release --scratch-path .build-bench --product layout-bench >&2)
OURS="$ROOT/.build-bench/release/layout-bench"
YOGA="$ROOT/Benchmarks/yoga/run-yoga-bench.sh"

OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

# Tree names, as both tools print them.
names=$(python3 "$ROOT/Benchmarks/yoga/cases_to_ops.py" "${FILES[@]}" 2>/dev/null | sed -n 's/^case //p')

for name in $names; do
    echo "# $name" >&2
    "$YOGA" --cases "${FILES[@]}" --tree "$name" --rounds "$ROUNDS" >> "$OUT/yoga" || true
    "${PIN[@]}" "$OURS" --tree "$name" --rounds "$ROUNDS" "${FILES[@]}" >> "$OUT/ours" || true
    "${PIN[@]}" "$OURS" --tree "$name" --rounds "$ROUNDS" "${FILES[@]}" >> "$OUT/ours" || true
    "$YOGA" --cases "${FILES[@]}" --tree "$name" --rounds "$ROUNDS" >> "$OUT/yoga" || true
    if [[ $REFERENCE == 1 ]]; then
        "$YOGA" --tree "$name" --rounds "$ROUNDS" >> "$OUT/reference" 2>/dev/null || true
    fi
done

grep -h "MISMATCH" "$OUT"/* >&2 || true
touch "$OUT/reference"
python3 - "$OUT" $names <<'PY'
import re, sys
out, names = sys.argv[1], sys.argv[2:]
def table(path):
    """tree -> (nodes, median ns, fastest round ns): the lowest of each over the runs."""
    rows, fastest = {}, {}
    for line in open(path):
        m = re.match(r"# (\S+): \d+ rounds x \d+ layouts, min (\d+) ", line)
        if m:
            fastest[m[1]] = min(fastest.get(m[1], float("inf")), float(m[2]))
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) == 4 and not line.startswith("#") and f[1].isdigit():
            row = (int(f[1]), float(f[2]))
            if f[0] not in rows or row[1] < rows[f[0]][1]:
                rows[f[0]] = row
    return {k: (v[0], v[1], fastest.get(k, float("nan"))) for k, v in rows.items()}
yoga, ours, ref = table(f"{out}/yoga"), table(f"{out}/ours"), table(f"{out}/reference")
cols = ["tree", "nodes", "Yoga ns (median)", "ours ns (median)", "ours/Yoga",
        "Yoga ns (fastest)", "ours ns (fastest)", "ours/Yoga fastest", "ours ns/node"]
if ref: cols.append("yoga_bench.c ns")
print("| " + " | ".join(cols) + " |")
print("|" + "|".join("---:" if i else "---" for i in range(len(cols))) + "|")
for n in names:
    y, o = yoga.get(n), ours.get(n)
    nodes = (y or o or (0,))[0]
    f = lambda r, i: f"{r[i]:,.0f}" if r else "-"
    ratio = lambda i: f"{o[i] / y[i]:.2f}" if y and o else "-"
    cells = [n, str(nodes), f(y, 1), f(o, 1), ratio(1), f(y, 2), f(o, 2), ratio(2),
             f"{o[1] / o[0]:,.1f}" if o else "-"]
    if ref: cells.append(f(ref.get(n), 1))
    print("| " + " | ".join(cells) + " |")
PY
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
