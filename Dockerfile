# syntax=docker/dockerfile:1
# ledger-mm: one container per market maker.
#
# Stop grace period: on SIGTERM the daemon stops placing, lets an in-flight submission finish
# (the venue requires a client timeout of at least 120 s on submit) and then cancels its
# resting orders. Give the container a grace period of at least 150 s, e.g.
#   docker run --stop-timeout 150 ...        docker compose: stop_grace_period: 150s
# A shorter grace period can kill the process mid-submission; the journal survives it and the
# next start resolves the order through the venue, but the order is left resting meanwhile.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# Toolchain for native modules that have no prebuilt binary for this platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
# The commit shown in ledger_mm_build_info: docker build --build-arg LEDGER_MM_COMMIT=$(git rev-parse HEAD)
ARG LEDGER_MM_COMMIT=unknown
ENV LEDGER_MM_COMMIT=$LEDGER_MM_COMMIT \
    NODE_ENV=production \
    LEDGER_MM_STORE_PATH=/var/lib/ledger-mm/ledger-mm.sqlite \
    LEDGER_MM_METRICS_HOST=0.0.0.0
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
ENTRYPOINT ["ledger-mm"]
CMD ["run"]
