import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';

import { dec } from '../../../src/core/decimal.js';
import {
  ObservabilityServer,
  type ObservabilityServerOptions,
} from '../../../src/observability/http/http-server.js';
import type { Readiness } from '../../../src/observability/http/readiness.js';
import { parseExposition } from '../support/exposition.js';
import { testMetrics, type TestMetrics } from '../support/test-metrics.js';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(port: number, path: string, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function json<T>(body: string): T {
  return JSON.parse(body) as T;
}

let t: TestMetrics | null = null;
let server: ObservabilityServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  t?.close();
  t = null;
});

async function start(over: Partial<ObservabilityServerOptions> = {}): Promise<number> {
  t = testMetrics();
  server = new ObservabilityServer({
    host: '127.0.0.1',
    port: 0,
    metrics: t.metrics,
    readiness: () => ({ ready: true, reasons: [] }),
    status: () => ({ ok: true }),
    ...over,
  });
  const { port } = await server.start();
  expect(port).toBeGreaterThan(0);
  return port;
}

describe('ObservabilityServer', () => {
  it('serves /metrics as the Prometheus text format, query string ignored', async () => {
    const port = await start();
    const r = await request(port, '/metrics?x=1');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(parseExposition(r.body).has('ledger_mm_build_info')).toBe(true);
    const head = await request(port, '/metrics', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('/healthz is 200 while the event loop keeps up, 503 over the threshold', async () => {
    let lag = 0.05;
    const port = await start({ eventLoop: { lagSeconds: () => lag }, maxEventLoopLagSeconds: 0.5 });
    const ok = await request(port, '/healthz');
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(ok.body)).toMatchObject({ status: 'ok', reasons: [] });
    lag = 2;
    const bad = await request(port, '/healthz');
    expect(bad.status).toBe(503);
    expect(json<{ reasons: string[] }>(bad.body).reasons[0]).toMatch(
      /event-loop lag 2\.000 s is over 0\.5 s/,
    );
  });

  it('/readyz flips between 200 and 503 with the reasons as the provider changes', async () => {
    let readiness: Readiness = {
      ready: false,
      reasons: ['the account is SUSPENDED, not ACTIVE', 'book stale'],
    };
    const port = await start({ readiness: async () => readiness });
    const no = await request(port, '/readyz');
    expect(no.status).toBe(503);
    expect(JSON.parse(no.body)).toEqual({ status: 'not ready', reasons: readiness.reasons });
    readiness = { ready: true, reasons: [] };
    const yes = await request(port, '/readyz');
    expect(yes.status).toBe(200);
    expect(JSON.parse(yes.body)).toEqual({ status: 'ready', reasons: [] });
    readiness = { ready: false, reasons: ['preflight failed'] };
    expect((await request(port, '/readyz')).status).toBe(503);
  });

  it('/status is the provider document as JSON, decimals as strings', async () => {
    const port = await start({ status: () => ({ pair: 'BTC/USDC', inventory: dec('0.10'), n: 1n }) });
    const r = await request(port, '/status');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(r.body)).toEqual({ pair: 'BTC/USDC', inventory: '0.1', n: '1' });
  });

  it('answers 404 elsewhere and 405 to other methods', async () => {
    const port = await start();
    expect((await request(port, '/')).status).toBe(404);
    expect((await request(port, '/metrics/extra')).status).toBe(404);
    const post = await request(port, '/metrics', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  it('answers 500 with a message when a provider throws, rejects or hangs, and keeps serving', async () => {
    const errors: string[] = [];
    const port = await start({
      readiness: () => {
        throw new Error('state unavailable');
      },
      status: () => Promise.reject(new Error('boom')),
      providerTimeoutMs: 50,
      onError: (route) => errors.push(route),
    });
    const r = await request(port, '/readyz');
    expect(r.status).toBe(500);
    expect(JSON.parse(r.body)).toEqual({ status: 'error', error: '/readyz: state unavailable' });
    const s = await request(port, '/status');
    expect(s.status).toBe(500);
    expect(json<{ error: string }>(s.body).error).toBe('/status: boom');
    expect(errors).toEqual(['/readyz', '/status']);
    expect((await request(port, '/metrics')).status).toBe(200);
  });

  it('times out a provider that never answers', async () => {
    const port = await start({ status: () => new Promise<never>(() => {}), providerTimeoutMs: 50 });
    const r = await request(port, '/status');
    expect(r.status).toBe(500);
    expect(json<{ error: string }>(r.body).error).toMatch(/timed out after 50 ms/);
  });

  it('answers 500 when the scrape fails, and when the status cannot be serialised', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const port = await start({ status: () => circular });
    const broken = { contentType: 'text/plain', scrape: () => Promise.reject(new Error('registry broken')) };
    const other = new ObservabilityServer({
      host: '127.0.0.1',
      port: 0,
      metrics: broken,
      readiness: () => ({ ready: true, reasons: [] }),
      status: () => ({}),
    });
    try {
      const { port: p2 } = await other.start();
      const m = await request(p2, '/metrics');
      expect(m.status).toBe(500);
      expect(json<{ error: string }>(m.body).error).toBe('/metrics: registry broken');
    } finally {
      await other.close();
    }
    expect((await request(port, '/status')).status).toBe(500);
  });

  it('rejects start on a port in use, and close is idempotent', async () => {
    const port = await start();
    const clash = new ObservabilityServer({
      host: '127.0.0.1',
      port,
      metrics: t!.metrics,
      readiness: () => ({ ready: true, reasons: [] }),
      status: () => ({}),
    });
    await expect(clash.start()).rejects.toThrow(/EADDRINUSE/);
    await clash.close();
    await server!.close();
    await server!.close();
    await expect(request(port, '/healthz')).rejects.toThrow(/ECONNREFUSED/);
  });
});
