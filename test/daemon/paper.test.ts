import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runPaper } from '../../src/cli/paper.js';
import type { Daemon } from '../../src/daemon/daemon.js';
import type { PaperVenue } from '../../src/lab/rig/paper-venue.js';
import { FakeProcess } from './support/daemon-env.js';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * `ledger-mm paper` for real: the simulated venue on loopback over HTTP, the daemon against it
 * with undici, the real clock. Stops on SIGTERM once both pairs rest two-sided on the venue.
 */
it('paper: starts the venue and the daemon over HTTP, and quotes both pairs two-sided', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-paper-'));
  const proc = new FakeProcess();
  const out: string[] = [];
  const logs: string[] = [];
  let daemon: Daemon | undefined;
  let venue: PaperVenue | undefined;
  const started = Date.now();
  const twoSided = (pair: string): boolean => {
    const r = venue?.venue.truth.restingOrders(venue.partyId).filter((o) => o.pair === pair) ?? [];
    return r.some((o) => o.side === 'BUY') && r.some((o) => o.side === 'SELL');
  };
  let quotedAfterMs: number | null = null;
  const watch = setInterval(() => {
    if (quotedAfterMs === null && twoSided('BTC/USDC') && twoSided('ETH/USDC')) {
      quotedAfterMs = Date.now() - started;
      proc.emit('SIGTERM');
    }
  }, 50);
  // A bound: stop anyway after 10 s (the assertions below then fail on quotedAfterMs).
  const stop = setTimeout(() => quotedAfterMs === null && proc.emit('SIGTERM'), 10_000);
  let code: number;
  try {
    code = await runPaper(
      ['--latency', 'instant'],
      { stdout: (t) => out.push(t), stderr: (t) => out.push(t), env: {}, cwd: dir },
      {
        proc,
        attachments: [],
        logDestination: { write: (l: string) => logs.push(l) },
        onDaemon: (d, v) => {
          daemon = d;
          venue = v;
        },
      },
    );
  } finally {
    clearInterval(watch);
    clearTimeout(stop);
  }
  console.log(
    `paper over HTTP: two-sided on both pairs after ${quotedAfterMs} ms; stopped in ${Date.now() - started} ms`,
  );
  expect(out.join('')).toContain('ledger-mm paper: simulated venue on http://127.0.0.1:');
  expect(quotedAfterMs).not.toBeNull();
  expect(code).toBe(0);
  expect(proc.exits).toEqual([0]);
  expect(daemon?.phase).toBe('closed');
  // The journal and the throwaway key live under ./var/paper/ of the working directory.
  expect(fs.existsSync(path.join(dir, 'var/paper/ledger-mm.sqlite'))).toBe(true);
  expect((fs.statSync(path.join(dir, 'var/paper/paper-signing.key')).mode & 0o777).toString(8)).toBe('600');
  // Quotes were cancelled on the way out.
  expect(venue!.venue.truth.restingOrders(venue!.partyId)).toEqual([]);
  // No secret reached the log.
  expect(logs.join('')).not.toContain(venue!.apiKey.slice(venue!.apiKey.indexOf('.') + 1));
  expect(Date.now() - started).toBeLessThan(15_000);
}, 20_000);

it('paper: a taken metrics port is one FATAL line naming the port and what to do, no stack trace; exit 1', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-paper-port-'));
  const taken = net.createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  const port = (taken.address() as net.AddressInfo).port;
  const proc = new FakeProcess();
  const logs: string[] = [];
  const out: string[] = [];
  try {
    const code = await runPaper(
      ['--latency', 'instant'],
      {
        stdout: (t) => out.push(t),
        stderr: (t) => out.push(t),
        env: { LEDGER_MM_METRICS_PORT: String(port), LEDGER_MM_LOG_PRETTY: 'false' },
        cwd: dir,
      },
      { proc, logDestination: { write: (l: string) => logs.push(l) } },
    );
    expect(code).toBe(1);
  } finally {
    await new Promise((r) => taken.close(r));
  }
  const fatal = logs
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown; code?: string })
    .filter((l) => l.level >= 50);
  expect(fatal).toHaveLength(1);
  expect(fatal[0]!.msg).toBe(
    `ledger-mm paper cannot run: the metrics server cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}; another process listens there: stop it, or set metrics.port (LEDGER_MM_METRICS_PORT)`,
  );
  expect(fatal[0]!.err).toBeUndefined();
  expect(fatal[0]!.code).toBe('EADDRINUSE');
  const all = logs.join('') + out.join('');
  expect(all.match(/EADDRINUSE: address already in use/g)).toHaveLength(1);
  expect(all).not.toMatch(/\n\s+at /);
});

it('paper --parties 3: three parties quote as one; every party places, each has its journal and keys, all quotes cancelled at the stop', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-paper-'));
  const proc = new FakeProcess();
  const out: string[] = [];
  const logs: string[] = [];
  let venue: PaperVenue | undefined;
  const placedBy = (v: PaperVenue): Set<string> =>
    new Set(
      v.venue.truth
        .commits()
        .filter((c) => c.kind === 'place' && c.ok)
        .map((c) => c.partyId),
    );
  const watch = setInterval(() => {
    if (venue !== undefined && placedBy(venue).size === 3) proc.emit('SIGTERM');
  }, 50);
  const stop = setTimeout(() => proc.emit('SIGTERM'), 12_000);
  let code: number;
  try {
    code = await runPaper(
      ['--latency', 'instant', '--parties', '3'],
      { stdout: (t) => out.push(t), stderr: (t) => out.push(t), env: {}, cwd: dir },
      {
        proc,
        attachments: [],
        logDestination: { write: (l: string) => logs.push(l) },
        onDaemon: (_d, v) => (venue = v),
      },
    );
  } finally {
    clearInterval(watch);
    clearTimeout(stop);
  }
  expect(code).toBe(0);
  const v = venue!;
  expect(v.parties.map((p) => p.name)).toEqual(['p1', 'p2', 'p3']);
  expect(placedBy(v)).toEqual(new Set(v.parties.map((p) => p.partyId)));
  for (const name of ['ledger-mm.sqlite', 'ledger-mm.p2.sqlite', 'ledger-mm.p3.sqlite'])
    expect(fs.existsSync(path.join(dir, 'var/paper', name))).toBe(true);
  for (const p of v.parties) {
    expect((fs.statSync(p.apiKeyFile).mode & 0o777).toString(8)).toBe('600');
    expect(v.venue.truth.restingOrders(p.partyId)).toEqual([]);
    const key = fs.readFileSync(p.apiKeyFile, 'utf8').trim();
    expect(logs.join('')).not.toContain(key.slice(key.indexOf('.') + 1));
  }
  expect(out.join('')).toContain('party p3: account examplemm-p3');
}, 20_000);
