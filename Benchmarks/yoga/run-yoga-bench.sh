#!/usr/bin/env bash
# Builds shared/reference/yoga_bench.c against the Yoga 3.2.1 that ships compiled inside the
# PyPI wheel pyyoga 0.1.0, and runs it. Arguments go to yoga_bench (--tree NAME,
# --iterations N, --rounds R). Output: one `tree<TAB>nodes<TAB>ns_per_layout<TAB>ns_per_node`
# line per tree, '#' lines are information.
#
#   run-yoga-bench.sh --cases FILE.json... [--tree NAME] [--rounds R] [--check-only]
# instead times any FORMAT.md case files with yoga_cases_bench.c (same method and output;
# the cases go through cases_to_ops.py).
#
# Environment (all optional):
#   YOGA_BENCH_C   the C source       (default /work/shared/reference/yoga_bench.c)
#   YOGA_WORK      venv + binary dir  (default <repo>/.build-bench/yoga; git-ignored)
#   BENCH_CPU      pin to this CPU with taskset (default 1; empty = no pinning)
#   CC             C compiler         (default cc)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SRC="${YOGA_BENCH_C:-/work/shared/reference/yoga_bench.c}"
WORK="${YOGA_WORK:-$ROOT/.build-bench/yoga}"
VENV="$WORK/venv"
BIN="$WORK/yoga_bench"
CPU="${BENCH_CPU-1}"

mkdir -p "$WORK"
if ! "$VENV/bin/python" -c 'import pyyoga' 2>/dev/null; then
    echo "# installing pyyoga 0.1.0 into $VENV" >&2
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --only-binary :all: pyyoga==0.1.0
fi
SO_DIR="$("$VENV/bin/python" -c 'import pyyoga,os;print(os.path.dirname(pyyoga.__file__))')"

# -rdynamic exports the inert Python data symbols yoga_bench.c defines, so the pybind11
# extension loads without libpython (see the header comment of yoga_bench.c).
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ ! -x "$BIN" || "$SRC" -nt "$BIN" ]]; then
    "${CC:-cc}" -O2 -rdynamic "$SRC" -o "$BIN" -ldl -lm
fi
if [[ ! -x "$WORK/yoga_cases_bench" || "$HERE/yoga_cases_bench.c" -nt "$WORK/yoga_cases_bench" ]]; then
    "${CC:-cc}" -O2 -rdynamic "$HERE/yoga_cases_bench.c" -o "$WORK/yoga_cases_bench" -ldl -lm
fi

PIN=()
if [[ -n "$CPU" ]] && command -v taskset >/dev/null; then PIN=(taskset -c "$CPU"); fi

if [[ "${1:-}" == "--cases" ]]; then
    shift
    files=()
    while [[ $# -gt 0 && "$1" == *.json ]]; do files+=("$1"); shift; done
    ops="$WORK/cases-$$.ops"
    trap 'rm -f "$ops"' EXIT
    python3 "$HERE/cases_to_ops.py" "${files[@]}" > "$ops"
    SO="$(ls "$SO_DIR"/_pyyoga*.so | head -1)"
    "${PIN[@]}" "$WORK/yoga_cases_bench" "$SO" "$ops" "$@"
    exit $?
fi
exec "${PIN[@]}" "$BIN" "$SO_DIR" "$@"
