#!/usr/bin/env node
// The container contract, without Docker: the image's runtime stage reproduced from the
// Dockerfile and run the way a container runtime runs it.
//
//   node scripts/container-contract.mjs --tree DIR
//
// DIR is a built checkout whose node_modules were installed by `npm ci` under the Node that runs
// this script (.ci/run passes its Node 24 tree and runs this with Node 24, the Dockerfile's major).
// What it does, from the Dockerfile's last stage (its ENV, WORKDIR, USER, ENTRYPOINT, CMD,
// STOPSIGNAL and HEALTHCHECK lines, read here, not copied):
//
//  1. A clean root directory: /app with package.json, dist/, config/ and node_modules pruned to
//     production dependencies (`npm prune --omit=dev`, as the build stage does after `npm ci`);
//     /usr/local/bin/ledger-mm linked to dist/cli/main.js; /var/lib/ledger-mm owned by the node
//     user (uid 1000). Absolute paths of the image map under that root.
//  2. The simulated venue (`ledger-mm sim-venue`, fast latencies) on loopback.
//  3. The entrypoint and command as uid/gid 1000 with the Dockerfile's environment (the metrics
//     port moved to a free one: the machine is shared), until /readyz answers 200 and orders rest;
//     the HEALTHCHECK command passes.
//  4. A second daemon on the same store is refused (the store lock).
//  5. SIGKILL, the lock's note rewritten as if another host wrote it, and a restart under a new
//     hostname (`unshare --uts`, as a recreated container): it must start, restore its orders
//     from the journal and become ready.
//  6. The stop signal: the exit code must be 0 and the stop must end within shutdown.graceMs,
//     which the runtime's grace (compose, Kubernetes: graceMs + 15 s) covers.
//
// Root is needed for the user switch (setpriv) and the hostname (unshare --uts); CI runs as root.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: opts } = parseArgs({ options: { tree: { type: 'string' }, keep: { type: 'boolean' } } });
const tree = path.resolve(opts.tree ?? '.');
const UID = 1000;
const GID = 1000;
const t0 = Date.now();
const say = (msg) => console.log(`[contract +${((Date.now() - t0) / 1000).toFixed(1)} s] ${msg}`);
const fail = (msg) => {
  console.error(`container contract FAILED: ${msg}`);
  process.exitCode = 1;
  throw new Error(msg);
};
const check = (cond, msg) => {
  if (!cond) fail(msg);
  say(`ok: ${msg}`);
};

// -- The Dockerfile's runtime stage.
function runtimeStage(text) {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const args = new Map();
  for (const l of lines) {
    const m = /^ARG (\w+)(?:=(.*))?$/.exec(l);
    if (m) args.set(m[1], m[2] ?? '');
  }
  const stage = lines.slice(lines.findLastIndex((l) => l.startsWith('FROM ')));
  const of = (k) => stage.filter((l) => l.startsWith(`${k} `)).map((l) => l.slice(k.length + 1).trim());
  const expand = (v) => v.replace(/\$\{?(\w+)\}?/g, (_, n) => args.get(n) ?? env[n] ?? '');
  const env = {};
  for (const e of of('ENV')) {
    for (const m of e.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[m[1]] = expand(m[2].replace(/^"|"$/g, ''));
  }
  const json = (k) => {
    const v = of(k);
    if (v.length !== 1) fail(`the runtime stage needs exactly one ${k}`);
    return JSON.parse(v[0]);
  };
  const hc = of('HEALTHCHECK');
  return {
    image: expand(stage[0].slice(5).trim()),
    env,
    workdir: of('WORKDIR').at(-1),
    user: of('USER').at(-1),
    entrypoint: json('ENTRYPOINT'),
    cmd: json('CMD'),
    stopSignal: of('STOPSIGNAL').at(-1) ?? 'SIGTERM',
    healthcheck: hc.length === 1 ? JSON.parse(hc[0].slice(hc[0].indexOf('CMD ') + 4)) : null,
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** A bound for a race: its timer does not keep the process alive once the race is decided. */
const deadline = (ms) => new Promise((r) => setTimeout(r, ms).unref());

async function waitFor(what, fn, timeoutMs, everyMs = 250) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch {
      // not yet
    }
    if (Date.now() > until) fail(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** A process of the "container": its output kept, its exit awaited. */
function start(name, argv, { env, cwd, user = true, hostname = null }) {
  const asRoot = process.getuid?.() === 0;
  let cmd = argv;
  if (user && asRoot) cmd = ['setpriv', `--reuid=${UID}`, `--regid=${GID}`, '--clear-groups', ...cmd];
  if (hostname !== null)
    cmd = ['unshare', '--uts', 'sh', '-c', 'hostname "$0" && exec "$@"', hostname, ...cmd];
  const proc = spawn(cmd[0], cmd.slice(1), { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => proc.on('close', (code, signal) => resolve({ code, signal })));
  return { name, proc, exited, output: () => out };
}

const cleanups = [];
async function main() {
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  const dockerfile = runtimeStage(fs.readFileSync(path.join(tree, 'Dockerfile'), 'utf8'));
  const imageMajor = Number(/node:(\d+)/.exec(dockerfile.image)?.[1]);
  check(
    nodeMajor === imageMajor,
    `this Node (${process.versions.node}) is the image's major (${dockerfile.image})`,
  );
  check(dockerfile.user === 'node', `the image runs as the unprivileged user node (uid ${UID} here)`);

  // 1. The runtime stage's file system under a temporary root.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-contract-'));
  fs.chmodSync(root, 0o755);
  if (!opts.keep) cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const mapPath = (p) => (p.startsWith('/') ? path.join(root, p) : p);
  const app = mapPath(dockerfile.workdir);
  fs.mkdirSync(app, { recursive: true });
  for (const f of ['package.json', 'package-lock.json'])
    fs.copyFileSync(path.join(tree, f), path.join(app, f));
  for (const d of ['dist', 'config', 'node_modules'])
    fs.cpSync(path.join(tree, d), path.join(app, d), { recursive: true, verbatimSymlinks: true });
  const npmCli = process.env.NPM_CLI_JS ?? '/usr/lib/node_modules/npm/bin/npm-cli.js';
  const prune = spawnSync(process.execPath, [npmCli, 'prune', '--omit=dev', '--no-audit', '--no-fund'], {
    cwd: app,
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}` },
    encoding: 'utf8',
  });
  check(
    prune.status === 0,
    `npm prune --omit=dev in the image's /app (${(prune.stdout + prune.stderr).trim().split('\n').at(-1)})`,
  );
  fs.rmSync(path.join(app, 'package-lock.json'));
  for (const dev of ['vitest', 'typescript', 'eslint', 'kubernetes-models']) {
    check(
      !fs.existsSync(path.join(app, 'node_modules', dev)),
      `no dev dependency ${dev} in the image's node_modules`,
    );
  }
  const bin = path.join(root, 'usr/local/bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.chmodSync(path.join(app, 'dist/cli/main.js'), 0o755);
  fs.symlinkSync(path.join(app, 'dist/cli/main.js'), path.join(bin, dockerfile.entrypoint[0]));
  const home = path.join(root, 'home/node');
  const storeDir = mapPath(path.dirname(dockerfile.env.LEDGER_MM_STORE_PATH));
  for (const d of [home, storeDir, path.join(app, 'var')]) {
    fs.mkdirSync(d, { recursive: true });
    if (process.getuid?.() === 0) fs.chownSync(d, UID, GID);
  }

  // 2. The simulated venue.
  const simDir = path.join(root, 'sim');
  fs.mkdirSync(simDir);
  const basePath = `${bin}:${path.dirname(process.execPath)}:/usr/bin:/bin`;
  const sim = start(
    'sim-venue',
    [
      dockerfile.entrypoint[0],
      'sim-venue',
      '--port',
      '0',
      '--submit-port',
      '0',
      '--latency',
      'fast',
      '--key-out',
      path.join(simDir, 'sim.key'),
    ],
    {
      env: { PATH: basePath, HOME: home },
      cwd: simDir,
      user: false,
    },
  );
  cleanups.push(() => sim.proc.kill('SIGKILL'));
  const exports = await waitFor(
    'the sim venue to print its export lines',
    async () => {
      const env = {};
      for (const m of sim.output().matchAll(/^\s*export (LEDGER_MM_[A-Z_]+)=(\S+)$/gm)) env[m[1]] = m[2];
      return Object.keys(env).length >= 5 ? env : null;
    },
    30_000,
  );
  const keyFile = path.join(storeDir, '..', 'signing.key');
  fs.copyFileSync(exports.LEDGER_MM_SIGNING_KEY_FILE, keyFile);
  fs.chmodSync(keyFile, 0o600);
  if (process.getuid?.() === 0) fs.chownSync(keyFile, UID, GID);

  // 3. The container: the Dockerfile's ENV (paths under the root), the venue, a free metrics port.
  const metricsPort = await freePort();
  const env = {
    PATH: basePath,
    HOME: home,
    ...Object.fromEntries(
      Object.entries(dockerfile.env).map(([k, v]) => [k, k.endsWith('_PATH') ? mapPath(v) : v]),
    ),
    ...exports,
    LEDGER_MM_SIGNING_KEY_FILE: keyFile,
    LEDGER_MM_METRICS_PORT: String(metricsPort),
    LEDGER_MM_LOG_PRETTY: 'false',
  };
  const argv = [...dockerfile.entrypoint, ...dockerfile.cmd];
  const url = (p) => `http://127.0.0.1:${metricsPort}${p}`;
  const readyAndResting = async (daemon) => {
    await waitFor('/readyz 200', async () => (await fetch(url('/readyz'))).status === 200, 120_000, 500);
    // Orders rest on the venue: the journal has something to recover.
    await waitFor(
      'a resting order',
      async () => (daemon.output().match(/"msg":"placed (BUY|SELL)/g) ?? []).length >= 2,
      90_000,
      500,
    );
  };
  let daemon = start('daemon', argv, { env, cwd: app });
  cleanups.push(() => daemon.proc.kill('SIGKILL'));
  await readyAndResting(daemon).catch((err) =>
    fail(`${err.message}\n--- daemon ---\n${daemon.output().slice(-3000)}`),
  );
  check(true, `${argv.join(' ')} as uid ${UID} on Node ${process.versions.node}: ready, orders resting`);
  if (dockerfile.healthcheck !== null) {
    const [cmd0, ...rest] = dockerfile.healthcheck;
    const hc = spawnSync(cmd0 === 'node' ? process.execPath : cmd0, rest, { env, timeout: 10_000 });
    check(
      hc.status === 0,
      `the HEALTHCHECK command passes (${dockerfile.healthcheck.slice(0, 2).join(' ')} … /healthz)`,
    );
  }

  // 4. A second daemon on the same store is refused.
  const secondPort = await freePort();
  const second = start('second daemon', argv, {
    env: { ...env, LEDGER_MM_METRICS_PORT: String(secondPort) },
    cwd: app,
  });
  const secondExit = await Promise.race([second.exited, deadline(60_000).then(() => null)]);
  if (secondExit === null) second.proc.kill('SIGKILL');
  check(
    secondExit !== null && secondExit.code !== 0 && /is locked by pid \d+/.test(second.output()),
    `a second daemon on the same store is refused (exit ${secondExit?.code}: "${/store \S+ is locked by pid \d+ on \S+/.exec(second.output())?.[0] ?? second.output().slice(-300)}")`,
  );

  // 5. kill -9, the note made to look written elsewhere, a restart under a new hostname.
  daemon.proc.kill('SIGKILL');
  await daemon.exited;
  const note = `${env.LEDGER_MM_STORE_PATH}.lock`;
  const holder = JSON.parse(fs.readFileSync(note, 'utf8'));
  fs.writeFileSync(note, JSON.stringify({ ...holder, host: 'ledger-mm-old-7d4f9' }));
  const canUnshare = spawnSync('unshare', ['--uts', 'true']).status === 0;
  daemon = start('restarted daemon', argv, {
    env,
    cwd: app,
    hostname: canUnshare ? 'ledger-mm-new-2b8c1' : null,
  });
  await waitFor(
    '/readyz 200 after the restart',
    async () => (await fetch(url('/readyz'))).status === 200,
    120_000,
    500,
  ).catch((err) => fail(`${err.message}\n--- restarted daemon ---\n${daemon.output().slice(-3000)}`));
  const restored = Number(
    /recovery: (\d+) order\(s\) restored from the journal/.exec(daemon.output())?.[1] ?? -1,
  );
  check(
    restored >= 2,
    `after SIGKILL and a lock note from host ledger-mm-old-7d4f9, the daemon restarted${canUnshare ? ' as host ledger-mm-new-2b8c1' : ''} and restored ${restored} order(s) from the journal`,
  );
  const noteNow = JSON.parse(fs.readFileSync(note, 'utf8'));
  check(
    noteNow.host === (canUnshare ? 'ledger-mm-new-2b8c1' : os.hostname()),
    `the lock note now names the new holder (${noteNow.host}, pid ${noteNow.pid})`,
  );

  // 6. The stop signal.
  const graceMs = JSON.parse(fs.readFileSync(path.join(app, 'config/default.json'), 'utf8')).shutdown.graceMs;
  const stopAt = Date.now();
  daemon.proc.kill(dockerfile.stopSignal);
  const stopped = await Promise.race([daemon.exited, deadline(graceMs + 15_000).then(() => null)]);
  const stopS = (Date.now() - stopAt) / 1000;
  if (stopped === null) fail(`no exit ${stopS} s after ${dockerfile.stopSignal} (grace ${graceMs / 1000} s)`);
  check(
    stopped.code === 0 && stopS * 1000 <= graceMs,
    `${dockerfile.stopSignal}: exit ${stopped.code} in ${stopS.toFixed(1)} s (shutdown.graceMs ${graceMs / 1000} s; the runtime's grace is ${graceMs / 1000 + 15} s)`,
  );
  const last = daemon.output().trim().split('\n').at(-1) ?? '';
  say(`last line: ${last.slice(0, 300)}`);
  say(`container contract passed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

try {
  await main();
} catch (err) {
  if (process.exitCode !== 1) {
    console.error(`container contract FAILED: ${err instanceof Error ? err.stack : String(err)}`);
    process.exitCode = 1;
  }
} finally {
  for (const c of cleanups.reverse()) {
    try {
      c();
    } catch {
      // best effort
    }
  }
}
