#!/usr/bin/env bash
# Container smoke test with podman (local only, not run in CI): builds the Dockerfile, runs
# the image, checks health, a layout, the non-root user and a clean SIGTERM stop.
#
#   Tests/docker/smoke.sh            # build + run
#   SMOKE_SKIP_BUILD=1 Tests/docker/smoke.sh
#   SMOKE_CONTEXT=worktree Tests/docker/smoke.sh   # build uncommitted files too (default: HEAD)
#
# On machines without registry access the base images are made locally:
#   - runtime base: debootstrap --variant=minbase bookworm, `podman import`ed as
#     localhost/debian:bookworm-slim;
#   - build base: the same plus the toolchain's build dependencies, imported as
#     localhost/swift:6.3-bookworm, with the host's Swift toolchain (/opt/swift) bind-mounted
#     at build time and SwiftPM packages read from /opt/swift-packages through git's url
#     rewriting (insteadOf rules copied from the host's git config).
# crun refuses this host's cgroups, so runc is used; containers.conf sets default_ulimits to
# this shell's open-file limits and 4096 processes (podman's defaults are higher than some
# hosts permit; so was this host's own nproc limit). --format docker keeps the HEALTHCHECK (OCI images drop it).
# Environment: PODMAN (default podman), SMOKE_RUNTIME (runc), SMOKE_STORAGE_DRIVER (vfs),
# SMOKE_IMAGE (localhost/layoutd:smoke), SWIFT_TOOLCHAIN (/opt/swift),
# SWIFT_PACKAGE_MIRROR (/opt/swift-packages), SMOKE_LOCAL_BASES (1: build bases locally).
set -euo pipefail
cd "$(dirname "$0")/../.."

podman_bin=${PODMAN:-podman}
runtime=${SMOKE_RUNTIME:-runc}
storage=${SMOKE_STORAGE_DRIVER:-vfs}
image=${SMOKE_IMAGE:-localhost/layoutd:smoke}
toolchain=${SWIFT_TOOLCHAIN:-/opt/swift}
mirror=${SWIFT_PACKAGE_MIRROR:-/opt/swift-packages}
local_bases=${SMOKE_LOCAL_BASES:-1}
swift_base=localhost/swift:6.3-bookworm
runtime_base=localhost/debian:bookworm-slim

work=$(mktemp -d)
container=""
cleanup() {
  if [ -n "$container" ]; then "${podman[@]}" rm -f "$container" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

cat >"$work/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$(ulimit -Sn):$(ulimit -Hn)", "nproc=4096:4096"]
[engine]
runtime = "$runtime"
CONF
export CONTAINERS_CONF="$work/containers.conf"
podman=("$podman_bin" --runtime "$runtime" --storage-driver "$storage")

have_image() { "${podman[@]}" image exists "$1"; }

# A Debian bookworm root filesystem as an image (debootstrap needs root and network to a mirror).
make_base() {
  local name=$1 packages=$2 rootfs="$work/rootfs-${1//[^a-z0-9]/_}"
  echo "== building base image $name"
  debootstrap --variant=minbase --include="$packages" bookworm "$rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log"; exit 1; }
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/archives/*.deb
  if [ "$name" = "$swift_base" ]; then
    # SwiftPM fetches from github.com: point it at the local mirror, as the host does.
    { git config --system -l 2>/dev/null || true; git config --global -l 2>/dev/null || true; } \
      | { grep -i 'insteadof' || true; } | while IFS='=' read -r key value; do
          git config --file "$rootfs/etc/gitconfig" --add "$key" "$value"
        done
    cat "$rootfs/etc/gitconfig" 2>/dev/null || echo "(no git url rewriting on this host)"
  fi
  tar -C "$rootfs" -c . | "${podman[@]}" import \
    --change "ENV PATH=$toolchain/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change 'CMD ["/bin/bash"]' - "$name" >/dev/null
  rm -rf "$rootfs"
}

if [ "$local_bases" = 1 ]; then
  have_image "$runtime_base" || make_base "$runtime_base" "ca-certificates"
  # The toolchain's own dependencies (Debian 12 list from swift.org) plus git for SwiftPM.
  have_image "$swift_base" || make_base "$swift_base" \
    "binutils,git,gnupg2,unzip,libc6-dev,libcurl4-openssl-dev,libedit2,libgcc-12-dev,libpython3-dev,libsqlite3-0,libstdc++-12-dev,libxml2-dev,libncurses-dev,libz3-dev,pkg-config,tzdata,zlib1g-dev,ca-certificates"
  build_args=(--build-arg "SWIFT_IMAGE=$swift_base" --build-arg "RUNTIME_IMAGE=$runtime_base"
              --volume "$toolchain:$toolchain:ro" --volume "$mirror:$mirror:ro")
else
  build_args=()
fi

if [ "${SMOKE_SKIP_BUILD:-0}" != 1 ]; then
  # The committed tree (HEAD) by default, so others' uncommitted edits cannot break the
  # build; SMOKE_CONTEXT=worktree builds the working tree as it is.
  context=.
  if [ "${SMOKE_CONTEXT:-head}" = head ]; then
    context="$work/context"
    mkdir -p "$context"
    git archive HEAD | tar -x -C "$context"
  fi
  echo "== podman build $image (context: $context)"
  "${podman[@]}" build --format docker --network host "${build_args[@]}" -t "$image" -f "$context/Dockerfile" "$context"
fi

echo "== run"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
container=$("${podman[@]}" run -d --network host -e LAYOUTD_PORT="$port" "$image")
ok=0
for _ in $(seq 1 50); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then ok=1; break; fi
  sleep 0.2
done
[ "$ok" = 1 ] || { echo "FAIL: /healthz never answered"; "${podman[@]}" logs "$container"; exit 1; }
echo "ok: /healthz"

"${podman[@]}" exec "$container" /usr/local/bin/layoutd healthcheck --port "$port" \
  && echo "ok: layoutd healthcheck (the image's HEALTHCHECK command)" \
  || { echo "FAIL: layoutd healthcheck"; exit 1; }

uid=$("${podman[@]}" exec "$container" id -u)
[ "$uid" != 0 ] && echo "ok: runs as uid $uid" || { echo "FAIL: runs as root"; exit 1; }

answer=$(curl -fsS "http://127.0.0.1:$port/compute" -H 'Content-Type: application/json' \
  -d '{"root":{"id":"bar","style":{"flexDirection":"row","width":300,"height":100,"padding":10},"children":[{"id":"icon","style":{"width":80}},{"id":"label","style":{"flexGrow":1,"marginLeft":10}}]}}')
expected='{"root":{"id":"bar","left":0,"top":0,"width":300,"height":100,"children":[{"id":"icon","left":10,"top":10,"width":80,"height":80},{"id":"label","left":100,"top":10,"width":190,"height":80}]}}'
[ "$answer" = "$expected" ] && echo "ok: /compute" || { echo "FAIL: /compute answered $answer"; exit 1; }

spec=$(curl -fsS "http://127.0.0.1:$port/openapi.yaml")
[ "${spec%%$'\n'*}" = "openapi: 3.1.0" ] && cmp -s <(printf '%s\n' "$spec") openapi.yaml \
  && echo "ok: /openapi.yaml served from the binary, equal to openapi.yaml" || { echo "FAIL: /openapi.yaml"; exit 1; }

echo "== stop (SIGTERM)"
start=$(date +%s)
"${podman[@]}" stop --time 15 "$container" >/dev/null
elapsed=$(( $(date +%s) - start ))
code=$("${podman[@]}" inspect --format '{{.State.ExitCode}}' "$container")
[ "$code" = 0 ] && [ "$elapsed" -lt 15 ] && echo "ok: stopped on SIGTERM in ${elapsed}s, exit 0" \
  || { echo "FAIL: exit code $code after ${elapsed}s"; "${podman[@]}" logs "$container" | tail -5; exit 1; }
echo "smoke test passed"
