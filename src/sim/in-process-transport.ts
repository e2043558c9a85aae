/**
 * The simulated venue without sockets: {@link InProcessTransport} is a venue-client `Transport`
 * that hands each request straight to the router, routing by origin to the trade API, the
 * submission host or `/admin`, with an abort rejecting at once. It lets tests and the
 * accelerated simulations run the unchanged daemon against the same engine under fake timers.
 */
import { abortReason } from '../core/clock.js';
import type { Transport, TransportRequest, TransportResponse } from '../venue/transport.js';
import type { Router } from './router/router.js';
import type { SimHost, SimResponse } from './router/types.js';

/** Where the in-process venue pretends to live. */
export interface InProcessTransportOptions {
  router: Router;
  /** The base URL the client is configured with (ends in `/v1`). */
  baseUrl: string;
  /** The submit URL the venue puts in signing envelopes; requests to its origin reach the submit host. */
  submitUrl: string;
  /**
   * `values` (default): a JSON answer is handed over with its parsed value beside the text
   * (`TransportResponse.json`), so the client validates the value with its schemas without
   * parsing text (the text is written only if read). `text`: the body as text only, so the client
   * parses it exactly as it parses an HTTP body. `typed`: as `values`, marked
   * `TransportResponse.typed`, so the client takes the reads whose schemas return their input
   * (book, trades, orders) without validating them again: the venue wrote them from its typed
   * model (the `simulate` lab's mode; the other two keep the client's full decoding in tests).
   */
  answers?: 'values' | 'text' | 'typed';
}

/**
 * Default URLs of the in-process venue: the daemon's default venue URLs (loopback, so the
 * client's plain-http policy accepts them). No socket is ever opened for them.
 */
export const IN_PROCESS_BASE_URL = 'http://127.0.0.1:8710/v1';
export const IN_PROCESS_SUBMIT_URL = 'http://127.0.0.1:8711/submit';

/**
 * The venue client's {@link Transport} without sockets: each request goes straight to the
 * router, so tests and accelerated simulations drive the same engine under fake timers.
 *
 * Requests to the base URL's origin reach the trade API (and `/admin` the operator's
 * endpoints); requests to the submit URL's origin reach the submission host; anything else fails
 * like a refused connection. The request's AbortSignal rejects the call at once with its
 * reason (the venue, like a real server, carries on with work already started).
 */
export class InProcessTransport implements Transport {
  private closed = false;
  /** The parts routing reads on every request, taken once. */
  private readonly baseOrigin: string;
  private readonly basePath: string;
  private readonly submitOrigin: string;
  private readonly submitPath: string;

  constructor(private readonly options: InProcessTransportOptions) {
    const base = new URL(options.baseUrl);
    const submit = new URL(options.submitUrl);
    this.baseOrigin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.submitOrigin = submit.origin;
    this.submitPath = submit.pathname;
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  get submitUrl(): string {
    return this.options.submitUrl;
  }

  request(req: TransportRequest): Promise<TransportResponse> {
    if (this.closed) return Promise.reject(new Error('in-process transport is closed'));
    if (req.signal.aborted) return Promise.reject(abortReason(req.signal));
    const target = this.route(req.url);
    if (!target) {
      return Promise.reject(
        Object.assign(new Error(`connect ECONNREFUSED ${req.url.host}`), { code: 'ECONNREFUSED' }),
      );
    }
    const pending = this.options.router.handle({
      host: target.host,
      method: req.method,
      path: target.path,
      query: req.url.searchParams,
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      submitUrl: this.options.submitUrl,
    });
    return new Promise<TransportResponse>((resolve, reject) => {
      const onAbort = (): void => reject(abortReason(req.signal));
      req.signal.addEventListener('abort', onAbort, { once: true });
      void pending.then((res) => {
        req.signal.removeEventListener('abort', onAbort);
        resolve(this.answer(res));
      });
    });
  }

  private answer(res: SimResponse): TransportResponse {
    const headers = { ...res.headers };
    if (res.json === undefined || this.options.answers === 'text') {
      return { status: res.status, headers, body: res.body };
    }
    return withParsedValue(
      { status: res.status, headers, body: '' },
      res.json,
      () => res.body,
      this.options.answers === 'typed',
    );
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private route(url: URL): { host: SimHost; path: string } | null {
    // A URL's origin and pathname are computed on each read: read once.
    const origin = url.origin;
    const pathname = url.pathname;
    const submitPath = this.submitPath;
    if (origin === this.submitOrigin && (origin !== this.baseOrigin || pathname === submitPath)) {
      return { host: 'submit', path: pathname === submitPath ? '/submit' : pathname };
    }
    if (origin !== this.baseOrigin) return null;
    if (pathname === '/admin' || pathname.startsWith('/admin/')) return { host: 'admin', path: pathname };
    const basePath = this.basePath;
    if (pathname !== basePath && !pathname.startsWith(`${basePath}/`)) return { host: 'api', path: pathname };
    return { host: 'api', path: `/v1${pathname.slice(basePath.length)}` };
  }
}

/**
 * `out` carrying `json` as its parsed body, with `body` written by `text` when first read. The
 * value is not an own enumerable property and a write to `body` drops it, so a copy that replaces
 * the body (`{ ...res, body }`, as a test's rewriting transport makes) or a write to it leaves only
 * the text, which the decoder then parses: the value can never stand for a different body.
 */
function withParsedValue(
  out: TransportResponse,
  json: unknown,
  text: () => string,
  typed: boolean,
): TransportResponse {
  let body: string | undefined;
  let value: unknown = json;
  Object.defineProperty(out, 'body', {
    enumerable: true,
    get: (): string => (body ??= text()),
    set: (replaced: string) => {
      body = replaced;
      value = undefined;
    },
  });
  Object.defineProperty(out, 'json', { enumerable: false, get: (): unknown => value });
  if (typed)
    Object.defineProperty(out, 'typed', { enumerable: false, get: (): boolean => value !== undefined });
  return out;
}
