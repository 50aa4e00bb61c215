#!/usr/bin/env bash
# Runs every curl example of README.md against a live server: each ```sh block's commands that
# start with `curl` (backslash continuations joined), with http://localhost:8080 and
# http://127.0.0.1:8080 pointed at a `layoutd serve` on a free port. Fails on the first
# answer that is not 2xx.
#
#   Tests/Scripts/readme_examples.sh [path/to/layoutd] [README.md]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Scripts/lib/layoutd-server.sh

readme=${2:-README.md}
[ -f "$readme" ] || { echo "readme_examples.sh: no $readme" >&2; exit 2; }
layoutd=$(find_layoutd "${1:-}")
examples=$(mktemp)
body=$(mktemp)
trap 'stop_layoutd; rm -f "$examples" "$body"' EXIT

# One command per line: inside ```sh (or ```bash / ```shell) fences, lines starting with curl
# plus their continuation lines, NUL-separated.
python3 - "$readme" >"$examples" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
commands = []
for block in re.findall(r"^```(?:sh|bash|shell)[^\n]*\n(.*?)^```", text, flags=re.S | re.M):
    lines = block.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("curl "):
            command = line.strip()
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command = command[:-1].rstrip() + " " + lines[i].strip()
            commands.append(command)
        i += 1
sys.stdout.write("\0".join(commands))
PY
count=$(tr -cd '\0' <"$examples" | wc -c)
[ -s "$examples" ] || { echo "readme_examples.sh: no curl examples in $readme" >&2; exit 1; }
count=$((count + 1))

start_layoutd "$layoutd"

# `curl` inside the examples: the real curl, its body to a file, its status checked.
curl() {
  local code
  code=$(command curl -sS -o "$body" -w '%{http_code}' "$@") || { echo "curl failed" >&2; return 1; }
  head -c 600 "$body"; [ "$(wc -c <"$body")" -gt 600 ] && echo " ..."; echo
  case "$code" in
    2??) return 0 ;;
    *) echo "-> HTTP $code (not 2xx)" >&2; return 1 ;;
  esac
}

n=0
while IFS= read -r -d '' command || [ -n "$command" ]; do
  n=$((n + 1))
  command=${command//http:\/\/localhost:8080/$LAYOUTD_BASE}
  command=${command//http:\/\/127.0.0.1:8080/$LAYOUTD_BASE}
  command=${command//localhost:8080/127.0.0.1:$LAYOUTD_PORT}
  echo "[$n/$count] $command"
  if ! eval "$command"; then
    echo "readme_examples.sh: example $n failed" >&2
    exit 1
  fi
done <"$examples"
echo "readme_examples.sh: $n examples passed"
