import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scriptable HTTP server on 127.0.0.1, port 0, for tests that exercise real sockets. It
 * records every request and answers from per-route scripts: JSON, raw text (an HTML 502 page),
 * a truncated body (Content-Length larger than what is sent, then the socket is destroyed), a
 * stalled body (the same, but the socket stays open), a dropped connection, a request that never
 * answers, each optionally delayed.
 */

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  /** The path exactly as sent, percent-encoding preserved, without the query. */
  path: string;
  /** The raw request target (path and query). */
  target: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The client's port, to tell connections apart (keep-alive). */
  remotePort: number | undefined;
}

interface Delayed {
  /** Wait this long (real time) before answering. */
  delayMs?: number;
}

/** One scripted answer. */
export type StubReply = Delayed &
  (
    | { status?: number; json: unknown; headers?: Record<string, string> }
    | { status?: number; body: string; contentType?: string; headers?: Record<string, string> }
    | { status?: number; truncate: { body: string; declaredLength: number } }
    | { status?: number; stall: { body: string; declaredLength: number } }
    | { destroy: true }
    | { hang: true }
  );

/** A reply, or a function of the request that returns one. */
export type Responder = StubReply | ((req: RecordedRequest) => StubReply);

/** `{ok: true, data}` with `status` (default 200). */
export function ok(data: unknown, status = 200): StubReply {
  return { status, json: { ok: true, data } };
}

/** `{ok: false, error: {code, message, ...extra}, meta: {requestId}}` with `status`. */
export function fail(
  status: number,
  code: string,
  extra: Record<string, unknown> = {},
  requestId = 'req-1',
): StubReply {
  return {
    status,
    json: { ok: false, error: { code, message: `stub ${code}`, ...extra }, meta: { requestId } },
  };
}

export class StubServer {
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[] = [];
  private readonly routes = new Map<string, Responder[]>();

  private constructor(private readonly server: http.Server) {}

  /** Starts a server on 127.0.0.1 with an ephemeral port. */
  static async start(): Promise<StubServer> {
    const server = http.createServer();
    const stub = new StubServer(server);
    server.on('request', (req, res) => stub.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return stub;
  }

  /** `http://127.0.0.1:<port>`. */
  get origin(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /**
   * Scripts the answers to `method path` (path as sent, e.g. `/v1/orderbook/BTC%2FUSDC`), in
   * order; the last one repeats. Replaces any earlier script for the route. Unscripted routes
   * answer 404 with code STUB_NO_ROUTE.
   */
  on(method: string, path: string, ...replies: Responder[]): this {
    if (replies.length === 0) throw new Error('at least one reply');
    this.routes.set(`${method} ${path}`, [...replies]);
    return this;
  }

  /** The requests received for `method path`. */
  requestsTo(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  /** Forgets scripts and recorded requests. */
  reset(): void {
    this.routes.clear();
    this.requests.length = 0;
  }

  /** Stops the server, dropping every open connection (including hanging requests). */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private next(key: string): Responder | undefined {
    const script = this.routes.get(key);
    if (!script) return undefined;
    return script.length > 1 ? script.shift() : script[0];
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = req.url ?? '/';
      const q = target.indexOf('?');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: q === -1 ? target : target.slice(0, q),
        target,
        query: Object.fromEntries(new URLSearchParams(q === -1 ? '' : target.slice(q + 1))),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        remotePort: req.socket.remotePort,
      };
      this.requests.push(recorded);
      const responder = this.next(`${recorded.method} ${recorded.path}`) ?? fail(404, 'STUB_NO_ROUTE');
      const reply = typeof responder === 'function' ? responder(recorded) : responder;
      if (reply.delayMs) setTimeout(() => this.reply(res, reply), reply.delayMs);
      else this.reply(res, reply);
    });
  }

  private reply(res: http.ServerResponse, reply: StubReply): void {
    if (res.destroyed) return;
    if ('hang' in reply) return;
    if ('destroy' in reply) {
      res.socket?.destroy();
      return;
    }
    if ('truncate' in reply || 'stall' in reply) {
      const part = 'truncate' in reply ? reply.truncate : reply.stall;
      res.writeHead(reply.status ?? 200, {
        'content-type': 'application/json',
        'content-length': String(part.declaredLength),
      });
      res.write(part.body, () => {
        if ('truncate' in reply) res.socket?.destroy();
      });
      return;
    }
    const [body, contentType] =
      'json' in reply
        ? [JSON.stringify(reply.json), 'application/json']
        : [reply.body, reply.contentType ?? 'text/plain'];
    res.writeHead(reply.status ?? 200, {
      'content-type': contentType,
      'content-length': String(Buffer.byteLength(body)),
      ...reply.headers,
    });
    res.end(body);
  }
}
