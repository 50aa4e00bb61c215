# syntax=docker/dockerfile:1
# layoutd: a static-stdlib release build on the official Swift image, run on slim Debian as a
# non-root user.
#   docker build -t layoutd .
#   docker run --rm -p 8080:8080 layoutd
# Settings come from LAYOUTD_* environment variables or options after the image name
# (e.g. `docker run layoutd --cache-bytes 256MiB`); see `layoutd serve --help`.

ARG SWIFT_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim
# Debian bookworm's zlib, pinned so builds are repeatable (bump with the base images).
# OpenSSL is not pinned: Debian replaces its version with each security update, and a pin
# would then break the build instead of picking up the fix.
ARG ZLIB_VERSION=1:1.2.13.dfsg-1

FROM ${SWIFT_IMAGE} AS build
ARG ZLIB_VERSION
# Headers for the system library targets: CZlib (gzip), COpenSSL (optional TLS), CCairo (PNG
# pictures), CHarfBuzz, CFreeType and CICU (text layout, found through pkg-config), and
# CHiredis (the shared cache in Redis).
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends "zlib1g-dev=${ZLIB_VERSION}" libssl-dev libcairo2-dev \
      libharfbuzz-dev libfreetype-dev libicu-dev pkg-config libhiredis-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve dependencies in their own layer, so source edits do not refetch them.
COPY Package.swift ./
RUN swift package resolve
# Everything the manifest names (sources, tests, benchmarks); .dockerignore drops build output.
COPY . .
# The bundled fonts are LayoutText's resource bundle, found beside the executable.
RUN swift build -c release --product layoutd --static-swift-stdlib \
 && install -D "$(swift build -c release --show-bin-path)/layoutd" /out/layoutd \
 && cp -R "$(swift build -c release --show-bin-path)/layout-service_LayoutText.resources" /out/

FROM ${RUNTIME_IMAGE}
ARG ZLIB_VERSION
# cairo for /render's PNGs, and a font for their wireframe labels.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends "zlib1g=${ZLIB_VERSION}" libssl3 libcairo2 fonts-dejavu-core \
      libharfbuzz0b libfreetype6 libicu72 libhiredis0.14 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --no-create-home --shell /usr/sbin/nologin layoutd
COPY --from=build /out/layoutd /usr/local/bin/layoutd
COPY --from=build /out/layout-service_LayoutText.resources /usr/local/bin/layout-service_LayoutText.resources
USER 10001:10001
ENV LAYOUTD_HOST=0.0.0.0 \
    LAYOUTD_PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["/usr/local/bin/layoutd", "healthcheck"]
# Exec form: layoutd is PID 1 and gets SIGTERM directly (it drains connections and exits).
ENTRYPOINT ["/usr/local/bin/layoutd", "serve"]
