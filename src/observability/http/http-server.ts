/**
 * The metrics, health and status HTTP server (node:http), on `metrics.host` (loopback by
 * default: `/status` shows balances and positions) and `metrics.port`.
 *
 * | route      | answer |
 * |------------|--------|
 * | `/metrics` | the Prometheus text exposition (`text/plain; version=0.0.4`) |
 * | `/healthz` | liveness: 200 while the event loop is alive and the heartbeat (when given) says the quote cycle runs; 503 otherwise, with the reasons |
 * | `/readyz`  | readiness: 200 when the provider says ready, else 503 with the reasons |
 * | `/status`  | a JSON summary for people (the status provider's document) |
 *
 * With a `control` endpoint, `/control`, `/control/pause` and `/control/resume` are served too
 * (authorised per request; see `control-route.ts`).
 *
 * GET and HEAD only (405 otherwise); any other path is 404. A provider that throws, rejects or
 * takes longer than `providerTimeoutMs` yields a 500 with a message; the server itself never
 * throws. JSON bodies: `/healthz` and `/readyz` answer `{status, reasons}`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { CONTROL_ROUTES, serveControl, type ControlEndpoint } from './control-route.js';
import type { Readiness } from './readiness.js';

/** What `/metrics` serves (a `Metrics` fits). */
export interface MetricsEndpoint {
  readonly contentType: string;
  scrape(): Promise<string>;
}

/** A provider may answer synchronously or not. */
export type Provider<T> = () => T | Promise<T>;

/** Options of {@link ObservabilityServer}. */
export interface ObservabilityServerOptions {
  /** `metrics.host`. */
  readonly host: string;
  /** `metrics.port`; 0 picks a free port (see {@link ObservabilityServer.address}). */
  readonly port: number;
  readonly metrics: MetricsEndpoint;
  readonly readiness: Provider<Readiness>;
  /** The `/status` document; any JSON-serialisable value (`Dec` values render as strings). */
  readonly status: Provider<unknown>;
  /** The current event-loop lag, seconds (an `EventLoopMonitor` fits). Absent: always alive. */
  readonly eventLoop?: { lagSeconds(): number };
  /**
   * The daemon's heartbeat (`DaemonHeartbeat.verdict`): `/healthz` fails while it says not alive
   * (the quote cycle stalled). Absent: only the event loop decides.
   */
  readonly heartbeat?: () => { readonly alive: boolean; readonly reasons: readonly string[] };
  /** `/healthz` fails above this lag, seconds. Default 1. */
  readonly maxEventLoopLagSeconds?: number;
  /** Bound on each provider call, ms. Default 5 000. */
  readonly providerTimeoutMs?: number;
  /** The control endpoint (pause, resume); absent: no control routes. */
  readonly control?: ControlEndpoint;
  /** Told about provider failures (for the log). Must not throw. */
  readonly onError?: (route: string, error: unknown) => void;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

/** The server. Lifecycle: `start()` → `close()`. */
export class ObservabilityServer {
  private readonly server: http.Server;
  private bound: { host: string; port: number } | null = null;
  private closing: Promise<void> | null = null;

  constructor(private readonly opts: ObservabilityServerOptions) {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => this.fail(res, '(server)', err));
    });
    this.server.requestTimeout = 15_000;
    this.server.headersTimeout = 10_000;
    this.server.keepAliveTimeout = 5_000;
  }

  /** The bound address once started, or null. */
  get address(): { host: string; port: number } | null {
    return this.bound;
  }

  /** Listens; resolves with the bound address, rejects on a bind error (EADDRINUSE…). */
  start(): Promise<{ host: string; port: number }> {
    if (this.bound !== null) return Promise.resolve(this.bound);
    return new Promise((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      this.server.once('error', onError);
      this.server.listen(this.opts.port, this.opts.host, () => {
        this.server.off('error', onError);
        const a = this.server.address() as AddressInfo;
        this.bound = { host: a.address, port: a.port };
        resolve(this.bound);
      });
    });
  }

  /** Stops listening and drops open connections. Idempotent. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      if (!this.server.listening) {
        resolve();
        return;
      }
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    return this.closing;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const control = this.opts.control;
    if (control !== undefined && CONTROL_ROUTES[path ?? ''] !== undefined) {
      await serveControl(req, path!, control, (status, body, headers = {}) => {
        for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
        sendJson(res, status, body);
      });
      return;
    }
    req.resume(); // no other route reads a body
    const route = ROUTES.has(path ?? '') ? (path as Route) : null;
    if (route === null) {
      send(res, 404, TEXT_TYPE, 'not found\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      send(res, 405, TEXT_TYPE, 'method not allowed\n');
      return;
    }
    switch (route) {
      case '/metrics': {
        const body = await this.call(route, res, () => this.opts.metrics.scrape());
        if (body !== FAILED) send(res, 200, this.opts.metrics.contentType, body);
        return;
      }
      case '/healthz': {
        const lag = this.opts.eventLoop?.lagSeconds() ?? 0;
        const max = this.opts.maxEventLoopLagSeconds ?? 1;
        const beat = this.opts.heartbeat?.();
        const reasons = [
          ...(lag > max ? [`event-loop lag ${lag.toFixed(3)} s is over ${max} s`] : []),
          ...(beat?.alive === false ? beat.reasons : []),
        ];
        const alive = reasons.length === 0;
        sendJson(res, alive ? 200 : 503, {
          status: alive ? 'ok' : 'unhealthy',
          reasons,
          eventLoopLagSeconds: lag,
          ...(beat === undefined ? {} : { heartbeat: beat }),
        });
        return;
      }
      case '/readyz': {
        const r = await this.call(route, res, this.opts.readiness);
        if (r === FAILED) return;
        const ready = r.ready === true;
        sendJson(res, ready ? 200 : 503, {
          status: ready ? 'ready' : 'not ready',
          reasons: [...(r.reasons ?? [])],
          ...(r.paused === undefined ? {} : { paused: [...r.paused] }),
        });
        return;
      }
      case '/status': {
        const s = await this.call(route, res, this.opts.status);
        if (s !== FAILED) sendJson(res, 200, s);
        return;
      }
    }
  }

  /** Runs a provider with a timeout; on failure answers 500 and returns FAILED. */
  private async call<T>(
    route: Route,
    res: http.ServerResponse,
    provider: Provider<T>,
  ): Promise<T | typeof FAILED> {
    const ms = this.opts.providerTimeoutMs ?? 5_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${route} provider timed out after ${ms} ms`)), ms);
      });
      return await Promise.race([Promise.resolve().then(provider), timeout]);
    } catch (err) {
      this.fail(res, route, err);
      return FAILED;
    } finally {
      clearTimeout(timer);
    }
  }

  private fail(res: http.ServerResponse, route: string, err: unknown): void {
    try {
      this.opts.onError?.(route, err);
    } catch {
      // The reporter must not break the answer.
    }
    const message = err instanceof Error ? err.message : String(err);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendJson(res, 500, { status: 'error', error: `${route}: ${message}` });
  }
}

const FAILED = Symbol('failed');
type Route = '/metrics' | '/healthz' | '/readyz' | '/status';
const ROUTES: ReadonlySet<string> = new Set<Route>(['/metrics', '/healthz', '/readyz', '/status']);

function send(res: http.ServerResponse, status: number, type: string, body: string): void {
  res.statusCode = status;
  res.setHeader('content-type', type);
  res.setHeader('cache-control', 'no-store');
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
}

/** Serialises `value` (bigint as a string; `Dec` has its own toJSON) and sends it. */
function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2);
  send(res, status, JSON_TYPE, `${body ?? 'null'}\n`);
}
