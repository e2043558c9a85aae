/**
 * The live transport under the venue client: {@link UndiciTransport} keeps one undici keep-alive
 * pool per allowed origin (the API host and the submission host), refuses any other origin,
 * reads each body in full (a body cut after the status is reported truncated rather than
 * rejected), and leaves every timeout to the client's injected clock.
 */
import { Pool } from 'undici';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

/** Options of {@link UndiciTransport}. */
export interface UndiciTransportOptions {
  /**
   * The origins this transport may talk to, e.g. the API origin and the submit origin. One
   * keep-alive Pool is created per origin; a request to any other origin is refused.
   */
  origins: readonly string[];
  /** Connections per origin. Default 16 (cancels may run concurrently). */
  connections?: number;
  /** Idle keep-alive per socket, ms. Default 30 000 (server keep-alive hints may shorten it). */
  keepAliveTimeout?: number;
  /** Connect timeout, ms. Default 10 000. */
  connectTimeout?: number;
  /** Largest response body accepted, bytes; a larger one is cut and reported truncated. Default 8 MiB. */
  maxResponseSize?: number;
}

/**
 * The live {@link Transport}: one undici `Pool` per origin with keep-alive. Reads every body
 * fully; if the body stream fails after the status arrived (socket reset, Content-Length not
 * honoured, our signal aborting mid-body), resolves with the partial body and `truncated: true`
 * rather than rejecting, so the client can still report the status.
 *
 * undici's own header and body timeouts are disabled: the client's timeout on its injected
 * clock is the only one, so a 130 s submit is never cut short by a transport default.
 */
export class UndiciTransport implements Transport {
  private readonly pools = new Map<string, Pool>();
  private closed = false;

  constructor(opts: UndiciTransportOptions) {
    for (const raw of opts.origins) {
      const origin = new URL(raw).origin;
      if (this.pools.has(origin)) continue;
      this.pools.set(
        origin,
        new Pool(origin, {
          connections: opts.connections ?? 16,
          keepAliveTimeout: opts.keepAliveTimeout ?? 30_000,
          connectTimeout: opts.connectTimeout ?? 10_000,
          maxResponseSize: opts.maxResponseSize ?? 8 * 1024 * 1024,
          headersTimeout: 0,
          bodyTimeout: 0,
        }),
      );
    }
  }

  /** Sends one request. Rejects only when no status line arrived. */
  async request(req: TransportRequest): Promise<TransportResponse> {
    if (this.closed) throw new Error('transport is closed');
    const pool = this.pools.get(req.url.origin);
    if (!pool) throw new Error(`transport has no pool for origin ${req.url.origin}`);
    const res = await pool.request({
      method: req.method,
      path: `${req.url.pathname}${req.url.search}`,
      headers: req.headers,
      body: req.body ?? null,
      signal: req.signal,
    });
    const chunks: Buffer[] = [];
    let truncated = false;
    try {
      for await (const chunk of res.body) chunks.push(chunk as Buffer);
    } catch {
      truncated = true;
    }
    return {
      status: res.statusCode,
      headers: res.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      ...(truncated ? { truncated } : {}),
    };
  }

  /** Closes every pool, letting in-flight requests finish. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.pools.values()].map((p) => p.close()));
  }
}
