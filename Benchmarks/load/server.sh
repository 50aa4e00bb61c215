# Sourced by profile.sh and instructions.sh: stopping the layoutd they start, and finding its
# port. The caller sets `work` (its temporary directory) before sourcing and `server_pid` when
# it starts a server; on exit the server is stopped by that PID and `work` removed.
server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=""
}
cleanup() {
  stop_server
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# listening_port LOG: the port the server at server_pid logs it listens on (waits up to 30 s;
# fails with the log if the server exits or never listens).
listening_port() {
  local port=""
  for _ in $(seq 1 300); do
    port=$(sed -n 's/.*msg=listening.* port=\([0-9]*\).*/\1/p' "$1" | head -n1)
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$port" ] || { cat "$1" >&2; return 1; }
  echo "$port"
}
