/**
 * The simulated venue's socket-free request handler: {@link Router} matches a request to a route
 * of the contract's API, submit or admin host, authenticates it, asks the fault injector what
 * fires, runs the engine at arrival, waits out the sampled latency on the venue's clock and
 * answers in the venue's envelope, recording every call in the ground truth. Both faces, HTTP and
 * in-process, hand it their requests; it never rejects.
 */
import { sleep } from '../../core/clock.js';
import type { Account } from '../engine/accounts.js';
import type { CallRecord } from '../truth/ground-truth.js';
import type { Query } from '../engine/reads.js';
import { SimError } from '../engine/sim-error.js';
import { GENERIC_SUBMIT_FAILURE, SubmitRefused } from '../engine/submission.js';
import type { VenueEngine } from '../engine/venue-engine.js';
import type { FaultInjector, FiredFaults } from '../faults.js';
import type { LatencyKey, LatencyModel } from '../latency.js';
import { ADMIN_ROUTES } from './admin-routes.js';
import { API_ROUTES } from './api-routes.js';
import { emptyResponse, errorResponse, htmlErrorResponse, okResponse } from './envelope.js';
import type { Route, RouteContext, SimRequest, SimResponse } from './types.js';

/** The submit URL put in signing envelopes when no face supplies one (direct router use). */
export const DEFAULT_SUBMIT_URL = 'http://127.0.0.1:8711/submit';

/** What a {@link Router} needs. */
export interface RouterOptions {
  engine: VenueEngine;
  faults: FaultInjector;
  latency: LatencyModel;
  /** Default `signing.submitUrl`; a request's own `submitUrl` wins. */
  submitUrl?: string;
  /** Extra routes (tests); matched after the built-in ones. */
  routes?: Route[];
}

const NO_FAULTS: FiredFaults = { blocking: null, extraMs: 0, noCommit: false, staleBookMs: 0, tamper: null };

interface Outcome {
  response: SimResponse;
  code: string | null;
  delayMs: number;
}

/**
 * The socket-free request handler: every endpoint of the contract plus the admin ones, the
 * `{ok, data}` / `{ok: false, error, meta}` envelope, authentication, latency and faults. Both
 * faces (HTTP and in-process) call {@link Router.handle}; it never rejects.
 *
 * Timing: the engine acts when the request arrives (a prepare validates and caches its
 * transaction, a submit verifies and dispatches), then the answer waits out the latency. The
 * work goes on whether or not the client is still there; only a hanging answer (a fault) ends
 * early when the client goes away. Refusals made before any ledger work answer at `error`
 * latency; successes and ledger refusals at the endpoint's own.
 */
export class Router {
  submitUrl: string;
  private readonly routes: Route[];

  constructor(private readonly options: RouterOptions) {
    this.submitUrl = options.submitUrl ?? DEFAULT_SUBMIT_URL;
    this.routes = [...API_ROUTES, ...ADMIN_ROUTES, ...(options.routes ?? [])];
  }

  /** Handles one request. Never rejects: an unexpected error is a 500 INTERNAL_ERROR. */
  async handle(req: SimRequest): Promise<SimResponse> {
    const { engine } = this.options;
    const method = req.method.toUpperCase();
    const path = req.path.split('?')[0] ?? '';
    const found = this.match(req.host, method, path);
    const call = engine.core.truth.startCall({
      endpoint: found.route?.endpoint ?? 'unknown',
      host: req.host,
      method,
      path,
    });
    const requestId = engine.core.ids.requestId();
    let outcome: Outcome;
    try {
      outcome = found.route
        ? await this.run(found.route, found.params, req, call, requestId)
        : fail(found.error ?? new SimError(404, 'NOT_FOUND', `No route ${method} ${path}`), requestId, 0);
    } catch (err) {
      outcome = fail(
        new SimError(
          500,
          'INTERNAL_ERROR',
          `Internal error: ${err instanceof Error ? err.message : String(err)}`,
        ),
        requestId,
        0,
      );
    }
    if (req.signal?.aborted) call.clientAborted = true;
    engine.core.truth.endCall(call, outcome.response.status, outcome.code);
    return outcome.response;
  }

  private async run(
    route: Route,
    params: Record<string, string>,
    req: SimRequest,
    call: CallRecord,
    requestId: string,
  ): Promise<Outcome> {
    const { engine, faults, latency } = this.options;
    const clock = engine.core.clock;
    const fired = route.endpoint === 'admin' ? NO_FAULTS : faults.onCall(route.endpoint, call);
    if (fired.staleBookMs > 0) engine.core.projection.freeze(clock.now() + fired.staleBookMs);
    const blocking = fired.blocking;
    const sample = (key: LatencyKey | null): number =>
      key === null ? 0 : latency.sample(key) + fired.extraMs;

    let outcome: Outcome | null = null;
    let account: Account | null = null;
    if (blocking === null || (blocking.kind !== 'rate-limit' && blocking.effect)) {
      ({ outcome, account } = await this.execute(route, params, req, call, requestId, fired, sample));
    } else if (route.endpoint === 'submit') {
      call.verdict = 'not-processed';
    }
    const delayMs =
      outcome?.delayMs ??
      sample(
        blocking?.kind === 'rate-limit' ? 'error' : route.latency(this.context(params, req, call, null)),
      );
    call.latencyMs = delayMs;
    if (delayMs > 0) await sleep(clock, delayMs);

    if (blocking?.kind === 'hang') {
      // Never answers until the client goes away (or hangMs passes, for nobody).
      await sleep(clock, blocking.hangMs, req.signal).catch(() => undefined);
      return fail(new SimError(504, 'INTERNAL_ERROR', 'Gateway timeout'), requestId, 0);
    }
    if (blocking?.kind === 'rate-limit') {
      const limit = (account ?? this.quietAuth(req))?.ordersPerMinute ?? 60;
      return fail(new SimError(429, 'RATE_LIMITED', 'Too many requests', { limit }), requestId, 0);
    }
    if (blocking?.kind === 'error') {
      if (blocking.nonJson)
        return { response: htmlErrorResponse(blocking.status, requestId), code: null, delayMs: 0 };
      const message =
        route.endpoint !== 'submit'
          ? 'Internal server error'
          : blocking.status === 504
            ? 'No definite answer from the ledger'
            : GENERIC_SUBMIT_FAILURE;
      return fail(new SimError(blocking.status, 'INTERNAL_ERROR', message), requestId, 0);
    }
    return outcome!;
  }

  /**
   * Authenticates, runs the handler and picks the answer's latency. A handler's own async work
   * (sealing a prepared transaction) settles within the turn, so the clock has not moved.
   */
  private async execute(
    route: Route,
    params: Record<string, string>,
    req: SimRequest,
    call: CallRecord,
    requestId: string,
    fired: FiredFaults,
    sample: (key: LatencyKey | null) => number,
  ): Promise<{ outcome: Outcome; account: Account | null }> {
    const { engine } = this.options;
    let account: Account | null = null;
    try {
      if (route.auth) {
        account = engine.authenticate(normalizeHeaders(req.headers));
        call.accountSlug = account.slug;
        call.partyId = account.partyId;
      }
      const base = this.context(params, req, call, account);
      const delayMs = sample(route.latency(base));
      const result = await route.handle({
        ...base,
        body: parseBody(req.body),
        answerDelayMs: delayMs,
        noCommit: fired.noCommit,
        tamper: fired.tamper,
      });
      const response =
        'empty' in result
          ? emptyResponse(result.status, requestId)
          : okResponse(result.status, result.data, requestId);
      return { outcome: { response, code: null, delayMs }, account };
    } catch (err) {
      if (!(err instanceof SimError)) throw err;
      if (route.endpoint === 'submit' && !(err instanceof SubmitRefused)) call.verdict = 'malformed';
      if (err instanceof SubmitRefused) {
        call.verdict = err.verdict;
        if (err.command) {
          call.commandId = err.command.commandId;
          call.commandKind = err.command.kind;
          call.orderId = err.command.orderId;
          call.partyId = err.command.partyId;
        }
      }
      // Refusals after ledger work (the prepare step, the submission host) take the endpoint's time.
      const slow = err.slow || (err instanceof SubmitRefused && err.status !== 400);
      const key =
        route.endpoint === 'admin'
          ? null
          : slow
            ? route.latency(this.context(params, req, call, account))
            : 'error';
      return { outcome: fail(err, requestId, sample(key)), account };
    }
  }

  /** The caller if the request carries a valid key, without any refusal (for a fault's body). */
  private quietAuth(req: SimRequest): Account | null {
    try {
      return this.options.engine.authenticate(normalizeHeaders(req.headers));
    } catch {
      return null;
    }
  }

  private context(
    params: Record<string, string>,
    req: SimRequest,
    call: CallRecord,
    account: Account | null,
  ): Omit<RouteContext, 'answerDelayMs'> {
    const { engine, faults, latency } = this.options;
    return {
      engine,
      faults,
      latency,
      params,
      query: normalizeQuery(req.query),
      body: undefined,
      account,
      call,
      submitUrl: req.submitUrl ?? this.submitUrl,
      noCommit: false,
      tamper: null,
    };
  }

  private match(
    host: string,
    method: string,
    path: string,
  ): { route?: Route; params: Record<string, string>; error?: SimError } {
    const segments: string[] = [];
    try {
      // Only a segment with an escape needs decoding (decodeURIComponent leaves the rest as is).
      for (const s of path.split('/'))
        if (s !== '') segments.push(s.includes('%') ? decodeURIComponent(s) : s);
    } catch {
      return { params: {}, error: new SimError(400, 'VALIDATION_ERROR', 'Malformed path') };
    }
    let methodMismatch = false;
    for (const route of this.routes) {
      if (route.host !== host) continue;
      const params = matchPattern(route.pattern, segments);
      if (!params) continue;
      if (route.method !== method) {
        methodMismatch = true;
        continue;
      }
      return { route, params };
    }
    return {
      params: {},
      error: methodMismatch
        ? new SimError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`)
        : new SimError(404, 'NOT_FOUND', `No route ${method} ${path}`),
    };
  }
}

function fail(err: SimError, requestId: string, delayMs: number): Outcome {
  return {
    response: errorResponse(err.status, err.code, err.message, requestId, err.extras),
    code: err.code,
    delayMs,
  };
}

/** A route pattern split once (every request tries the routes in turn). */
interface PatternParts {
  readonly parts: readonly string[];
  /** The pattern has a `*rest` segment, so it may match more segments than it has. */
  readonly wildcard: boolean;
}

const patternParts = new Map<string, PatternParts>();

function partsOf(pattern: string): PatternParts {
  let parts = patternParts.get(pattern);
  if (parts === undefined) {
    const split = pattern.split('/').filter((s) => s !== '');
    parts = { parts: split, wildcard: split.some((p) => p.startsWith('*')) };
    patternParts.set(pattern, parts);
  }
  return parts;
}

function matchPattern(pattern: string, segments: string[]): Record<string, string> | null {
  const { parts, wildcard } = partsOf(pattern);
  // Without a wildcard only a pattern of as many segments can match: most routes fail here.
  if (!wildcard && parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.startsWith('*')) {
      if (i >= segments.length) return null;
      params[p.slice(1)] = segments.slice(i).join('/');
      return params;
    }
    const s = segments[i];
    if (s === undefined) return null;
    if (p.startsWith(':')) params[p.slice(1)] = s;
    else if (p !== s) return null;
  }
  return parts.length === segments.length ? params : null;
}

function parseBody(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SimError(400, 'VALIDATION_ERROR', 'Body is not valid JSON');
  }
}

/** Lower-cased header names, first value of repeated headers. */
export function normalizeHeaders(headers: SimRequest['headers']): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = Array.isArray(v) ? v[0] : v;
  return out;
}

/** First value of each query parameter. */
export function normalizeQuery(query: SimRequest['query']): Query {
  const out: Query = {};
  if (query instanceof URLSearchParams) {
    for (const [k, v] of query) if (!(k in out)) out[k] = v;
  } else {
    for (const [k, v] of Object.entries(query ?? {})) out[k] = Array.isArray(v) ? v[0] : v;
  }
  return out;
}
