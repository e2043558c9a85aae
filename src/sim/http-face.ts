/**
 * The simulated venue over real HTTP: {@link HttpFace} serves the router on two node:http
 * servers, the trade API under `/v1` (with `/admin` for loopback clients only) and the
 * submission host at `/submit`, bound to 127.0.0.1 by default. Paper mode, `ledger-mm sim-venue`
 * and the tests that cross real HTTP reach it through the undici transport, as they would the
 * real venue's two hosts.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Router } from './router/router.js';
import type { SimHost } from './router/types.js';

/** Where the HTTP face listens. */
export interface HttpFaceOptions {
  router: Router;
  /** Interface to bind; 127.0.0.1 by default. */
  host?: string;
  /** Base API port (0: any free port). */
  port?: number;
  /** Submission host port (0: any free port). */
  submitPort?: number;
}

/** The URLs of a started face. */
export interface HttpFaceUrls {
  /** The trade API, ending in `/v1`. */
  baseUrl: string;
  /** The submission endpoint, `…/submit` on the second server. */
  submitUrl: string;
  /** The operator's endpoints (loopback clients only). */
  adminUrl: string;
}

const MAX_BODY_BYTES = 1 << 20;

/**
 * The venue over real HTTP: the trade API under `/v1` on one node:http server, the submission
 * host at `/submit` on a second one, and the operator's `/admin` endpoints on the first server
 * for loopback clients only (others get 404).
 */
export class HttpFace {
  private base: Server | null = null;
  private submit: Server | null = null;
  private urls: HttpFaceUrls | null = null;
  private readonly inflight = new Set<AbortController>();

  constructor(private readonly options: HttpFaceOptions) {}

  /** Listens on both ports; resolves to the URLs. */
  async start(): Promise<HttpFaceUrls> {
    if (this.urls) return this.urls;
    const host = this.options.host ?? '127.0.0.1';
    this.base = createServer((req, res) => void this.serve('base', req, res));
    this.submit = createServer((req, res) => void this.serve('submit', req, res));
    const basePort = await listen(this.base, host, this.options.port ?? 0);
    const submitPort = await listen(this.submit, host, this.options.submitPort ?? 0);
    const h = host.includes(':') ? `[${host}]` : host;
    this.urls = {
      baseUrl: `http://${h}:${basePort}/v1`,
      submitUrl: `http://${h}:${submitPort}/submit`,
      adminUrl: `http://${h}:${basePort}/admin`,
    };
    return this.urls;
  }

  /** Stops both servers, dropping open connections and in-flight (hanging) requests. */
  async close(): Promise<void> {
    for (const ac of this.inflight) ac.abort();
    this.inflight.clear();
    await Promise.all([this.base, this.submit].map((s) => (s ? closeServer(s) : Promise.resolve())));
    this.base = this.submit = null;
    this.urls = null;
  }

  private async serve(server: 'base' | 'submit', req: IncomingMessage, res: ServerResponse): Promise<void> {
    const ac = new AbortController();
    this.inflight.add(ac);
    res.on('close', () => {
      if (!res.writableFinished) ac.abort();
      this.inflight.delete(ac);
    });
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      let host: SimHost = server === 'submit' ? 'submit' : 'api';
      if (server === 'base' && (url.pathname === '/admin' || url.pathname.startsWith('/admin/'))) {
        if (!isLoopback(req.socket.remoteAddress))
          return send(res, 404, { 'content-type': 'text/plain' }, 'Not Found');
        host = 'admin';
      }
      const body = await readBody(req);
      if (body === null) return send(res, 413, { 'content-type': 'text/plain' }, 'Payload Too Large');
      const out = await this.options.router.handle({
        host,
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        signal: ac.signal,
        submitUrl: this.urls?.submitUrl,
      });
      if (ac.signal.aborted || res.destroyed) return;
      send(res, out.status, out.headers, out.body);
    } catch {
      if (!res.headersSent && !res.destroyed)
        send(res, 500, { 'content-type': 'text/plain' }, 'Internal Server Error');
    }
  }
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

/** True for a loopback peer address (IPv4 127/8, IPv6 ::1, IPv4-mapped 127/8). */
export function isLoopback(address: string | undefined): boolean {
  return (
    address !== undefined &&
    (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'))
  );
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
