# Sourced by Tests/cluster/run.sh and Benchmarks/cluster/scale.sh: starts redis-server, layoutd
# replicas and nginx on 127.0.0.1, each tracked by PID in `pids` and killed by PID in
# `cluster_cleanup` (callers trap it on EXIT). Set `layoutd` (the binary) and `cluster_dir`
# (a temp directory) before calling.
pids=()
nginx_pid=""
declare -A port pid

cluster_cleanup() {
  # nginx's master stops its workers on TERM (on KILL they would be left running).
  if [ -n "$nginx_pid" ]; then kill -TERM "$nginx_pid" 2>/dev/null && sleep 0.5; fi
  for each in "${pids[@]}"; do kill -KILL "$each" 2>/dev/null || true; done
  for each in "${pids[@]}"; do wait "$each" 2>/dev/null || true; done
  pids=()
  nginx_pid=""
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

redis_port=""
redis_pid=""
start_redis() {  # on $redis_port (picked the first time), so that a restart comes back there
  [ -n "$redis_port" ] || redis_port=$(free_port)
  redis-server --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no --loglevel warning \
    --maxmemory 64mb --maxmemory-policy allkeys-lru >"$cluster_dir/redis.log" 2>&1 &
  redis_pid=$!
  pids+=("$redis_pid")
  for _ in $(seq 1 50); do
    [ "$(redis-cli -p "$redis_port" PING 2>/dev/null)" = PONG ] && return 0
    sleep 0.1
  done
  echo "cluster: redis-server did not start" >&2; cat "$cluster_dir/redis.log" >&2; return 1
}

# Replicas share a cache only under one cache key.
cluster_secret=00112233445566778899aabbccddeeff

start_replica() {  # start_replica NAME [serve options]: sets port[NAME], pid[NAME]
  local name=$1; shift
  local log="$cluster_dir/layoutd-$name.log"
  LAYOUTD_LOG_LEVEL=notice "$layoutd" serve --host 127.0.0.1 --port 0 \
    --shared-cache "redis://127.0.0.1:$redis_port" --cache-key-secret "$cluster_secret" "$@" 2>"$log" &
  pid[$name]=$!
  pids+=("${pid[$name]}")
  for _ in $(seq 1 100); do
    port[$name]=$(sed -n 's/.*msg=listening.* port=\([0-9]*\).*/\1/p' "$log" | head -n1)
    [ -n "${port[$name]}" ] && return 0
    sleep 0.1
  done
  echo "cluster: replica $name did not start" >&2; cat "$log" >&2; return 1
}

nginx_port=""
start_nginx() {  # start_nginx NAME...: nginx on $nginx_port in front of the named replicas
  nginx_port=$(free_port)
  local upstreams="" name
  for name in "$@"; do upstreams+="        server 127.0.0.1:${port[$name]} max_fails=1 fail_timeout=2s;"$'\n'; done
  mkdir -p "$cluster_dir/client_body" "$cluster_dir/proxy" "$cluster_dir/fastcgi" "$cluster_dir/uwsgi" "$cluster_dir/scgi"
  python3 - "$(dirname "${BASH_SOURCE[0]}")/nginx.conf.template" "$cluster_dir/nginx.conf" "$nginx_port" "$cluster_dir" \
    "$upstreams" <<'PY'
import sys
template, out, port, directory, upstreams = sys.argv[1:]
text = open(template).read().replace("@PORT@", port).replace("@DIR@", directory)
open(out, "w").write(text.replace("@UPSTREAMS@", upstreams.rstrip("\n")))
PY
  nginx -c "$cluster_dir/nginx.conf" -g 'daemon off;' >"$cluster_dir/nginx.out" 2>&1 &
  nginx_pid=$!
  pids+=("$nginx_pid")
  for _ in $(seq 1 50); do
    curl -sf -m 2 "http://127.0.0.1:$nginx_port/healthz" >/dev/null && return 0
    sleep 0.1
  done
  echo "cluster: nginx did not start" >&2; cat "$cluster_dir/error.log" >&2 2>/dev/null; return 1
}
