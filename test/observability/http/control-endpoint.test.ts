/**
 * The control endpoint's authentication over a real HTTP server on 127.0.0.1 (port 0): no token,
 * a wrong token, the right one, loopback without a token; the rule that refuses a non-loopback
 * server without a token at startup; and `ledger-mm pause`/`resume` against it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pauseCommand, resumeCommand } from '../../../src/cli/control.js';
import { ControlTokenError, controlCredential } from '../../../src/daemon/control/control-token.js';
import { DaemonControl } from '../../../src/daemon/control/daemon-control.js';
import type { ControlLogPort } from '../../../src/daemon/control/pause-book.js';
import { observabilityAttachment } from '../../../src/daemon/reporting/observability-wiring.js';
import { createLogger } from '../../../src/logging/logger.js';
import { authorizeControl, tokenId } from '../../../src/observability/http/control-auth.js';
import type { ControlEndpoint, ControlRequest } from '../../../src/observability/http/control-route.js';
import { ObservabilityServer } from '../../../src/observability/http/http-server.js';
import type { ControlChange, ControlChangeInput } from '../../../src/orders/journal/index.js';
import { runCaptured } from '../../support/captured-io.js';
import { tempDirPerTest } from '../../support/temp-dir.js';
import { testMetrics, type TestMetrics } from '../support/test-metrics.js';

const TOKEN = 'a'.repeat(24) + 'token';
const dir = tempDirPerTest('ledger-mm-control-');

let t: TestMetrics | null = null;
let server: ObservabilityServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  t?.close();
  t = null;
});

/** A server whose control endpoint records what reaches it. */
async function start(endpoint: ControlEndpoint): Promise<number> {
  t = testMetrics();
  server = new ObservabilityServer({
    host: '127.0.0.1',
    port: 0,
    metrics: t.metrics,
    readiness: () => ({ ready: true, reasons: [] }),
    status: () => ({}),
    control: endpoint,
  });
  return (await server.start()).port;
}

function recorder(credential: ControlEndpoint['credential']): ControlEndpoint & { seen: ControlRequest[] } {
  const seen: ControlRequest[] = [];
  return {
    credential,
    seen,
    handle: (r) => {
      seen.push(r);
      return { status: 200, body: { status: 'ok', who: r.who } };
    },
  };
}

async function post(
  port: number,
  route: string,
  body: unknown,
  authorization?: string,
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${port}${route}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

describe('the control endpoint over HTTP', () => {
  it.each<{ name: string; token: boolean; auth?: string; status: number; error?: string }>([
    {
      name: 'token set, no Authorization header: 401 missing-token',
      token: true,
      status: 401,
      error: 'missing-token',
    },
    {
      name: 'token set, a Basic header: 401 missing-token',
      token: true,
      auth: 'Basic Zm9vOmJhcg==',
      status: 401,
      error: 'missing-token',
    },
    {
      name: 'token set, a wrong token: 403 wrong-token',
      token: true,
      auth: 'Bearer not-the-token-at-all-0000',
      status: 403,
      error: 'wrong-token',
    },
    { name: 'token set, the token: allowed', token: true, auth: `Bearer ${TOKEN}`, status: 200 },
    { name: 'no token, from loopback: allowed', token: false, status: 200 },
    {
      name: 'no token, from loopback, any header: allowed',
      token: false,
      auth: 'Bearer whatever',
      status: 200,
    },
  ])('$name', async ({ token, auth, status, error }) => {
    const endpoint = recorder(token ? { token: TOKEN, id: tokenId(TOKEN) } : null);
    const port = await start(endpoint);
    const r = await post(port, '/control/pause', { pair: 'BTC/USDC' }, auth);
    expect(r.status).toBe(status);
    if (error === undefined) {
      expect(endpoint.seen).toEqual([
        {
          action: 'pause',
          body: { pair: 'BTC/USDC' },
          who: token ? `token:${tokenId(TOKEN)} from 127.0.0.1` : 'loopback 127.0.0.1',
        },
      ]);
    } else {
      expect(r.body).toMatchObject({ status: 'error', error });
      expect(String(r.body['message'])).toMatch(/token/);
      expect(r.headers.get('www-authenticate')).toBe(status === 401 ? 'Bearer' : null);
      expect(endpoint.seen).toEqual([]);
    }
  });

  it('a request from a non-loopback address without a token is refused (403 not-loopback)', () => {
    expect(authorizeControl(null, undefined, '10.0.0.7')).toMatchObject({
      ok: false,
      status: 403,
      error: 'not-loopback',
    });
    expect(authorizeControl(null, undefined, '::ffff:127.0.0.1')).toEqual({
      ok: true,
      who: 'loopback ::ffff:127.0.0.1',
    });
    expect(authorizeControl(null, undefined, '::1')).toEqual({ ok: true, who: 'loopback ::1' });
    // With a token, the address does not matter; the token does.
    const credential = { token: TOKEN, id: tokenId(TOKEN) };
    expect(authorizeControl(credential, `Bearer ${TOKEN}`, '10.0.0.7')).toEqual({
      ok: true,
      who: `token:${tokenId(TOKEN)} from 10.0.0.7`,
    });
  });

  it('answers 405 to a GET on a POST route, 400 to a body that is not JSON, and GET /control with the state', async () => {
    const endpoint = recorder(null);
    const port = await start(endpoint);
    expect((await fetch(`http://127.0.0.1:${port}/control/pause`)).status).toBe(405);
    const bad = await fetch(`http://127.0.0.1:${port}/control/resume`, { method: 'POST', body: '{nope' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('bad-request');
    const state = await fetch(`http://127.0.0.1:${port}/control`);
    expect(state.status).toBe(200);
    expect(endpoint.seen.map((r) => [r.action, r.body])).toEqual([['state', null]]);
  });
});

describe('where the control endpoint may listen', () => {
  it('a non-loopback metrics server without a token is a startup error; with a token it is not', async () => {
    const off = { enabled: true, tokenFile: '' };
    expect(() => controlCredential(off, '0.0.0.0')).toThrow(ControlTokenError);
    expect(() => controlCredential(off, '0.0.0.0')).toThrow(/without a token: set control.tokenFile/);
    expect(controlCredential(off, '127.0.0.1')).toBeNull();
    expect(controlCredential(off, '::1')).toBeNull();
    const file = path.join(dir(), 'token');
    fs.writeFileSync(file, `${TOKEN}\n`);
    expect(controlCredential({ enabled: true, tokenFile: file }, '0.0.0.0')).toEqual({
      token: TOKEN,
      id: tokenId(TOKEN),
    });
    fs.writeFileSync(file, 'short\n');
    expect(() => controlCredential({ enabled: true, tokenFile: file }, '0.0.0.0')).toThrow(
      /at least 16 characters/,
    );

    // The daemon's observability does not start: it never listens on 0.0.0.0 unprotected.
    const attachment = observabilityAttachment({
      config: { pairs: ['BTC/USDC'], metrics: { host: '0.0.0.0', port: 0 }, control: off },
    });
    const daemon = {
      phase: 'running',
      subscribe: () => () => undefined,
      readiness: () => ({ ready: true, reasons: [] }),
      stateView: () => {
        throw new Error('unused');
      },
      control: recorder(null),
    };
    await expect(async () => attachment.attach(daemon, createLogger({ level: 'silent' }))).rejects.toThrow(
      /would listen on 0\.0\.0\.0 \(metrics\.host\) without a token/,
    );
    attachment.metrics.close();
  });
});

/** A control log in memory (the journal's, in the daemon). */
function memoryLog(): ControlLogPort & { rows: ControlChange[] } {
  const rows: ControlChange[] = [];
  return {
    rows,
    record: (c: ControlChangeInput) => rows.push({ ...c, seq: rows.length + 1 }),
    changes: () => [...rows],
  };
}

describe('ledger-mm pause and resume against the endpoint', () => {
  it('pause a side, resume the pair; the token from --token-file; clear errors for a wrong or missing one', async () => {
    const log = memoryLog();
    const lines: string[] = [];
    const control = new DaemonControl({
      clock: { now: () => Date.parse('2026-11-28T09:00:00Z') } as never,
      logger: createLogger({ level: 'info', destination: { write: (l: string) => lines.push(l) } }),
      pairs: () => ['BTC/USDC', 'ETH/USDC'],
      killSwitch: () => ({ drawdown: null, profitLock: null, scope: 'daemon' }),
      log: () => log,
      credential: { token: TOKEN, id: tokenId(TOKEN) },
    });
    const port = await start(control);
    const url = `http://127.0.0.1:${port}/control`;
    const tokenFile = path.join(dir(), 'token');
    fs.writeFileSync(tokenFile, `${TOKEN}\n`);
    const env = { LEDGER_MM_PAIRS: 'BTC/USDC,ETH/USDC' };
    const cli = (cmd: typeof pauseCommand, args: string[]) =>
      runCaptured((io) => cmd.run(args, io), env, dir());

    const paused = await cli(pauseCommand, [
      '--pair',
      'ETH/USDC',
      '--side',
      'sell',
      '--url',
      url,
      '--token-file',
      tokenFile,
    ]);
    expect(paused.stderr).toBe('');
    expect(paused.code).toBe(0);
    expect(paused.stdout).toContain(`paused ETH/USDC SELL (as token:${tokenId(TOKEN)} from 127.0.0.1)`);
    expect(control.pauses().map((p) => [p.pair, p.side, p.reason])).toEqual([
      ['ETH/USDC', 'SELL', 'operator'],
    ]);
    expect(log.rows.map((r) => [r.action, r.pair, r.side, r.by])).toEqual([
      ['pause', 'ETH/USDC', 'SELL', `token:${tokenId(TOKEN)} from 127.0.0.1`],
    ]);
    // Every change is logged with who asked.
    expect(lines.some((l) => l.includes('paused ETH/USDC SELL (asked by token:'))).toBe(true);

    const missing = await cli(resumeCommand, ['--pair', 'ETH/USDC', '--url', url]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/refused by .*\(HTTP 401\): missing-token/);
    fs.writeFileSync(path.join(dir(), 'wrong'), 'b'.repeat(20));
    const wrong = await cli(resumeCommand, [
      '--pair',
      'ETH/USDC',
      '--url',
      url,
      '--token-file',
      path.join(dir(), 'wrong'),
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/\(HTTP 403\): wrong-token/);
    expect(control.pauses()).toHaveLength(1);

    const resumed = await cli(resumeCommand, [
      '--pair',
      'ETH/USDC',
      '--url',
      url,
      '--token-file',
      tokenFile,
      '--json',
    ]);
    expect(resumed.code).toBe(0);
    const answer = JSON.parse(resumed.stdout) as { lifted: { scope: string }[]; pauses: unknown[] };
    expect(answer.lifted.map((l) => l.scope)).toEqual(['ETH/USDC SELL']);
    expect(answer.pauses).toEqual([]);
    expect(control.pauses()).toEqual([]);

    // Without flags: the daemon found from the same environment as the daemon's.
    const fromEnv = await runCaptured(
      (io) => pauseCommand.run(['--side', 'BUY'], io),
      { ...env, LEDGER_MM_METRICS_PORT: String(port), LEDGER_MM_CONTROL_TOKEN_FILE: tokenFile },
      dir(),
    );
    expect(fromEnv.stderr).toBe('');
    expect(fromEnv.code).toBe(0);
    expect(control.pauses().map((p) => [p.pair, p.side])).toEqual([[null, 'BUY']]);

    const unknown = await cli(pauseCommand, ['--pair', 'XRP/USDC', '--url', url, '--token-file', tokenFile]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('XRP/USDC is not a configured pair');
  });

  it('a daemon not running: exit 1, nothing changed, and the address it tried', async () => {
    const port = await start(recorder(null));
    await server!.close();
    const r = await runCaptured(
      (io) => pauseCommand.run(['--url', `http://127.0.0.1:${port}/control`], io),
      {},
      dir(),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`could not be reached at http://127.0.0.1:${port}/control/pause`);
  });
});
