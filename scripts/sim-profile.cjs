#!/usr/bin/env node
/*
 * Where a `simulate` run's time goes, by subsystem and by how often things run: a diagnostic
 * script for the speed work of issue 25 (docs/results/2026-11-29-simulation-speed-5.md), not a
 * test. It runs the daemon's strategy of one seed in THIS thread (no worker), from the build,
 * with config/paper.json, the default market config/sim.json and realistic latency, as
 * `simulate --seed S --hours H --jobs 1` does, and prints one of:
 *
 *   node scripts/sim-profile.cjs count   [--hours 3] [--seed 1]
 *     Events per simulated hour: fake timers set and fired, quote passes and freshness checks,
 *     poller runs by poller, venue requests by route (METHOD and path with ids taken out), the
 *     market model's reference steps, taker firings and background refreshes, journal writes,
 *     prom-client updates by kind. It counts by wrapping prototypes of the built classes, so it
 *     costs time of its own: never time a run in this mode.
 *
 *   node scripts/sim-profile.cjs profile [--hours 3] [--seed 1] [--out FILE.cpuprofile]
 *     A V8 CPU profile (node:inspector, 1 ms sampling) of the run, then the table below.
 *
 *   node scripts/sim-profile.cjs table FILE.cpuprofile [--hours H]
 *     The table of a profile taken before (also one of `node --cpu-prof`): for each subsystem
 *     its INCLUSIVE share (samples with a frame of it anywhere on the stack; these overlap) and
 *     its OWNER share (each sample given to the outermost subsystem frame on its stack, the
 *     plumbing frames of fake timers, pollers and promises passed through; these add up to 100 %).
 *
 * Run `npm run build` first. CommonJS on purpose, like scripts/bench.cjs: it loads only the
 * compiled ESM modules and stays outside the type-checked lint.
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const root = path.join(__dirname, '..');
const dist = (p) => pathToFileURL(path.join(root, 'dist', p)).href;

function args(argv) {
  const o = { mode: argv[0], hours: 3, seed: 1, out: null, file: argv[1] };
  for (let i = 1; i < argv.length; i++) {
    if (argv[i] === '--hours') o.hours = Number(argv[++i]);
    else if (argv[i] === '--seed') o.seed = argv[++i];
    else if (argv[i] === '--out') o.out = argv[++i];
  }
  return o;
}

async function runDaemon(hours, seed) {
  const { runStrategy } = await import(dist('lab/simulate/run/strategy-runner.js'));
  const started = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  const result = await runStrategy({
    input: {
      hours,
      seed: /^\d+$/.test(String(seed)) ? Number(seed) : seed,
      latency: 'realistic',
      configFiles: [],
      market: null,
      cwd: root,
      env: process.env,
    },
    strategy: 'daemon',
    withSeries: false,
  });
  const cpu = process.cpuUsage(cpu0);
  return {
    result,
    wallS: Number(process.hrtime.bigint() - started) / 1e9,
    cpuS: (cpu.user + cpu.system) / 1e6,
  };
}

/* ---------------------------------------------------------------- count */

function wrap(proto, name, onCall) {
  const orig = proto[name];
  if (typeof orig !== 'function') throw new Error(`no method ${name} to count`);
  proto[name] = function counted(...a) {
    onCall(this, a);
    return orig.apply(this, a);
  };
}

async function count(o) {
  const counts = new Map();
  const add = (k, n = 1) => counts.set(k, (counts.get(k) ?? 0) + n);

  // Fake timers: every clock the run makes comes from createClock.
  const FakeTimers = require('@sinonjs/fake-timers');
  const createClock = FakeTimers.createClock;
  FakeTimers.createClock = (...a) => {
    const clock = createClock(...a);
    const set = clock.setTimeout;
    clock.setTimeout = (fn, ms, ...rest) => {
      add('timers: set');
      return set(
        (...x) => {
          add('timers: fired');
          return fn(...x);
        },
        ms,
        ...rest,
      );
    };
    const tick = clock.tickAsync;
    clock.tickAsync = (...x) => {
      add('timers: tickAsync calls (rig steps)');
      return tick(...x);
    };
    return clock;
  };
  const prom = require('prom-client');
  for (const [cls, methods] of [
    ['Histogram', ['observeWithoutExemplar']],
    ['Gauge', ['set', 'inc', 'dec']],
    ['Counter', ['incWithoutExemplar']],
  ])
    for (const m of methods) wrap(prom[cls].prototype, m, () => add(`metrics: ${cls}.${m}`));

  const { QuoteCycle } = await import(dist('daemon/trading/quote-cycle.js'));
  wrap(QuoteCycle.prototype, 'run', () => add('daemon: quote passes'));
  wrap(QuoteCycle.prototype, 'isWanted', () => add('daemon: freshness checks (isWanted)'));
  const { Poller } = await import(dist('core/poller.js'));
  wrap(Poller.prototype, 'execute', (p) => add(`poller runs: ${p.name.replace(/:.*/, ':<pair>')}`));
  const { InProcessTransport } = await import(dist('sim/in-process-transport.js'));
  wrap(InProcessTransport.prototype, 'request', (_t, [req]) => {
    const route = req.url.pathname
      .replace(/\/(BTC|ETH)[-/%2FUSDC]+/gi, '/{pair}')
      .replace(/\/[0-9a-f-]{16,}/gi, '/{id}')
      .replace(/\/\d+/g, '/{n}');
    add(`venue requests: ${req.method} ${route}`);
  });
  const { MarketState } = await import(dist('market/market-state.js'));
  const lastSeq = new Map();
  wrap(MarketState.prototype, 'applyBook', (_s, [pair, book]) => {
    const same = lastSeq.get(pair) === book.asOf.sequence;
    lastSeq.set(pair, book.asOf.sequence);
    add(`book polls: ${same ? 'same sequence as the last poll of the pair' : 'new sequence'}`);
  });
  const { MarketModel } = await import(dist('sim/market/market-model.js'));
  for (const m of ['onStep', 'onArrivals', 'onRefresh'])
    if (typeof MarketModel.prototype[m] === 'function')
      wrap(MarketModel.prototype, m, () => add(`sim market: ${m}`));
  const { Journal } = await import(dist('orders/journal/journal.js'));
  wrap(Journal.prototype, 'recordTransition', (_j, [prev, next, event]) =>
    add(
      `journal: transition ${event?.type ?? (prev === null ? 'created' : 'state only')}${prev !== null && next !== null && prev.state === next.state ? ' (state unchanged)' : ''}`,
    ),
  );
  for (const m of ['recordIntent', 'recordFill', 'fillsAfter', 'lastSeq'])
    if (typeof Journal.prototype[m] === 'function') wrap(Journal.prototype, m, () => add(`journal: ${m}`));

  const run = await runDaemon(o.hours, o.seed);
  const rows = [...counts].sort((a, b) => a[0].localeCompare(b[0]));
  console.log(`count: seed ${o.seed}, ${o.hours} h simulated (${run.wallS.toFixed(1)} s wall, counting)`);
  console.log('| event | total | per simulated hour |');
  console.log('|---|---:|---:|');
  for (const [k, n] of rows) console.log(`| ${k} | ${n} | ${Math.round(n / o.hours)} |`);
}

/* -------------------------------------------------------------- profile */

/**
 * Subsystems, tried in order on a frame (the first whose test holds names it). `plumbing`
 * subsystems are passed through when finding a sample's owner: a sample is theirs only when no
 * other subsystem frame is on its stack.
 */
const SUBSYSTEMS = [
  { name: 'GC', test: (f) => f.functionName === '(garbage collector)' },
  { name: 'idle / program', test: (f) => f.functionName === '(idle)' || f.functionName === '(program)' },
  { name: 'decimal.js', test: (f) => /decimal\.js\/decimal\.m?js$/.test(f.url) },
  {
    name: 'metrics (prom-client + observability)',
    test: (f) => /prom-client|dist\/observability\//.test(f.url),
  },
  { name: 'journal (SQLite)', test: (f) => /dist\/orders\/journal\/|better-sqlite3/.test(f.url) },
  { name: 'logging (pino)', test: (f) => /node_modules\/pino|dist\/logging\//.test(f.url) },
  {
    name: 'pollers (market data, orders) with their venue round trip',
    test: (f) => /dist\/market\/market-pollers\.js|dist\/execution\/resolve\/orders-poller\.js/.test(f.url),
  },
  {
    name: 'σ, jumps and market data (market/, volatility)',
    test: (f) => /dist\/market\/|dist\/strategy\/(volatility|sampled-volatility|jump-memory)\.js/.test(f.url),
  },
  { name: 'reconciler', test: (f) => /dist\/strategy\/(reconciler|bps-estimate)/.test(f.url) },
  { name: 'strategy (computeQuotes)', test: (f) => /dist\/strategy\//.test(f.url) },
  { name: 'risk gate', test: (f) => /dist\/risk\//.test(f.url) },
  { name: 'portfolio', test: (f) => /dist\/portfolio\//.test(f.url) },
  { name: 'quote pass (daemon/trading)', test: (f) => /dist\/daemon\/trading\//.test(f.url) },
  { name: 'sim: market model (reference, makers, takers)', test: (f) => /dist\/sim\/market\//.test(f.url) },
  { name: 'sim: engine (matching, orders, reads)', test: (f) => /dist\/sim\/(engine|truth)\//.test(f.url) },
  {
    name: 'sim: router + in-process transport',
    test: (f) => /dist\/sim\/(router\/|in-process|latency|faults)/.test(f.url),
  },
  { name: 'venue client (decode, zod, retry)', test: (f) => /dist\/venue\/|node_modules\/zod/.test(f.url) },
  { name: 'signing', test: (f) => /dist\/signing\/|@noble/.test(f.url) },
  { name: 'execution (pipeline, cancels, fills)', test: (f) => /dist\/(execution|orders)\//.test(f.url) },
  { name: 'lab capture / figures', test: (f) => /dist\/lab\//.test(f.url) },
  { name: 'fake timers', plumbing: true, test: (f) => /fake-timers/.test(f.url) },
  {
    name: 'loops and pollers plumbing (core, daemon)',
    plumbing: true,
    test: (f) => /dist\/(core|daemon)\//.test(f.url),
  },
];

function table(profile, hours) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const subOf = new Map();
  for (const n of profile.nodes) subOf.set(n.id, SUBSYSTEMS.find((s) => s.test(n.callFrame)) ?? null);
  const memo = new Map();
  const classify = (id) => {
    if (memo.has(id)) return memo.get(id);
    const stack = [];
    for (let at = id; at !== undefined; at = parent.get(at)) stack.push(at);
    stack.reverse(); // root first
    const subs = stack.map((s) => subOf.get(s)).filter((s) => s !== null);
    const inclusive = new Set(subs.map((s) => s.name));
    const owner = subs.find((s) => !s.plumbing) ?? subs[0] ?? { name: 'other (node internals, promises)' };
    const out = { inclusive, owner: owner.name };
    memo.set(id, out);
    return out;
  };
  const incl = new Map();
  const own = new Map();
  let total = 0;
  const deltas = profile.timeDeltas ?? [];
  profile.samples.forEach((id, i) => {
    const dt = deltas[i] ?? 1;
    const c = classify(id);
    if (byId.get(id).callFrame.functionName === '(idle)') return;
    total += dt;
    for (const s of c.inclusive) incl.set(s, (incl.get(s) ?? 0) + dt);
    own.set(c.owner, (own.get(c.owner) ?? 0) + dt);
  });
  const names = [...new Set([...own.keys(), ...incl.keys()])].sort(
    (a, b) => (own.get(b) ?? 0) - (own.get(a) ?? 0),
  );
  const pct = (x) => `${((100 * (x ?? 0)) / total).toFixed(1)} %`;
  // Sampled µs per simulated hour, in ms (when the hours are known).
  const perHour = (x) => (hours > 0 ? ` (${((x ?? 0) / 1e3 / hours).toFixed(0)} ms/h)` : '');
  console.log(
    `profile: ${(total / 1e6).toFixed(1)} s of samples (idle left out)${hours > 0 ? `, ${((total / 1e6 / hours) * 1e3).toFixed(0)} ms per simulated hour` : ''}`,
  );
  console.log('| subsystem | owner (outermost, adds to 100 %) | inclusive (anywhere on the stack) |');
  console.log('|---|---:|---:|');
  for (const n of names)
    console.log(
      `| ${n} | ${pct(own.get(n))}${perHour(own.get(n))} | ${pct(incl.get(n))}${perHour(incl.get(n))} |`,
    );
}

async function profileRun(o) {
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (m, p) => new Promise((res, rej) => session.post(m, p, (e, r) => (e ? rej(e) : res(r))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 1000 });
  await post('Profiler.start');
  const run = await runDaemon(o.hours, o.seed);
  const { profile } = await post('Profiler.stop');
  const out = o.out ?? path.join(root, 'var', `sim-profile-${o.seed}-${o.hours}h.cpuprofile`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(profile));
  console.log(
    `profiled: seed ${o.seed}, ${o.hours} h, ${run.wallS.toFixed(1)} s wall, ${run.cpuS.toFixed(1)} s CPU; ${out}`,
  );
  table(profile, o.hours);
}

const o = args(process.argv.slice(2));
const main =
  o.mode === 'count'
    ? count(o)
    : o.mode === 'profile'
      ? profileRun(o)
      : o.mode === 'table' && o.file
        ? Promise.resolve(
            table(
              JSON.parse(fs.readFileSync(o.file, 'utf8')),
              process.argv.includes('--hours') ? o.hours : 0,
            ),
          )
        : Promise.reject(
            new Error('usage: sim-profile.cjs count|profile [--hours H] [--seed S] | table FILE'),
          );
main.catch((err) => {
  console.error(`sim-profile: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
