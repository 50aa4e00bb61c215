# Sourced by the test scripts: start_layoutd BINARY [serve options...] starts `layoutd serve`
# on 127.0.0.1 with a free port (the server picks it; we read it from its "listening" log
# line) and sets LAYOUTD_PID, LAYOUTD_PORT and LAYOUTD_BASE. stop_layoutd stops that PID only.
# Callers should `trap stop_layoutd EXIT`.

LAYOUTD_PID=""
LAYOUTD_PORT=""
LAYOUTD_BASE=""
LAYOUTD_LOG=""

start_layoutd() {
  local binary=$1; shift
  LAYOUTD_LOG=$(mktemp)
  LAYOUTD_LOG_LEVEL=${LAYOUTD_LOG_LEVEL:-notice} "$binary" serve --host 127.0.0.1 --port 0 "$@" 2>"$LAYOUTD_LOG" &
  LAYOUTD_PID=$!
  local _
  for _ in $(seq 1 100); do
    LAYOUTD_PORT=$(sed -n 's/.*msg=listening.* port=\([0-9]*\).*/\1/p' "$LAYOUTD_LOG" | head -n1)
    [ -n "$LAYOUTD_PORT" ] && break
    if ! kill -0 "$LAYOUTD_PID" 2>/dev/null; then
      echo "layoutd exited at start:" >&2; cat "$LAYOUTD_LOG" >&2; LAYOUTD_PID=""; return 1
    fi
    sleep 0.1
  done
  if [ -z "$LAYOUTD_PORT" ]; then
    echo "layoutd did not report its port:" >&2; cat "$LAYOUTD_LOG" >&2; return 1
  fi
  LAYOUTD_BASE="http://127.0.0.1:$LAYOUTD_PORT"
  echo "layoutd on $LAYOUTD_BASE (pid $LAYOUTD_PID)"
}

stop_layoutd() {
  if [ -n "$LAYOUTD_PID" ]; then
    kill "$LAYOUTD_PID" 2>/dev/null || true
    wait "$LAYOUTD_PID" 2>/dev/null || true
    LAYOUTD_PID=""
  fi
  [ -n "$LAYOUTD_LOG" ] && rm -f "$LAYOUTD_LOG"
  LAYOUTD_LOG=""
}

# The layoutd binary: $1 when given, else a debug build of this checkout.
find_layoutd() {
  if [ -n "${1:-}" ]; then echo "$1"; return; fi
  swift build --product layoutd >&2
  echo "$(swift build --show-bin-path)/layoutd"
}
