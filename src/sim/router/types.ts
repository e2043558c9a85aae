/**
 * The router's types: a socket-free {@link SimRequest} and {@link SimResponse}, the three hosts,
 * and a {@link Route} with the {@link RouteContext} its handler sees (engine, faults, latency,
 * caller, call record, the faults that fired). Shared by the router, the API and admin routes
 * and the two faces.
 */
import type { Account } from '../engine/accounts.js';
import type { CallRecord, EndpointKind } from '../truth/ground-truth.js';
import type { Query } from '../engine/reads.js';
import type { VenueEngine } from '../engine/venue-engine.js';
import type { TamperKind } from '../engine/prepared-transaction.js';
import type { FaultInjector } from '../faults.js';
import type { LatencyKey, LatencyModel } from '../latency.js';

/** Which face of the venue a request reached. */
export type SimHost = 'api' | 'submit' | 'admin';

/** A request as the router takes it: no sockets, whole body as text. */
export interface SimRequest {
  host: SimHost;
  method: string;
  /** The path without the query string, e.g. `/v1/orders`, `/submit`, `/admin/truth/orders`. */
  path: string;
  query?: URLSearchParams | Record<string, string | string[] | undefined>;
  headers?: Record<string, string | string[] | undefined>;
  body?: string;
  /** The client went away (abort, disconnect). Only a hanging answer stops early on it. */
  signal?: AbortSignal;
  /** The absolute submit URL for signing envelopes; the router's default when absent. */
  submitUrl?: string;
}

/** The router's answer. `body` is '' for the submit host's 200. */
export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** What `JSON.parse(body)` gives, when the router built the body from a value (its own copy). */
  readonly json?: unknown;
}

/** What a route handler sees. */
export interface RouteContext {
  engine: VenueEngine;
  faults: FaultInjector;
  latency: LatencyModel;
  params: Record<string, string>;
  query: Query;
  body: unknown;
  /** The caller, for authenticated routes. */
  account: Account | null;
  call: CallRecord;
  submitUrl: string;
  /** The delay before this call answers (its sampled latency plus any spike). */
  answerDelayMs: number;
  /** A `no-commit` fault fired: a submit answers 200 but never reaches the ledger. */
  noCommit: boolean;
  /** A `tamper-prepared` fault fired: how the prepared transaction lies. */
  tamper: TamperKind | null;
}

/** A handler's answer: JSON `data` in the success envelope, or an empty body. */
export type RouteResult = { status: number; data: unknown } | { status: number; empty: true };

/** One route. */
export interface Route {
  host: SimHost;
  method: 'GET' | 'POST';
  /** Path segments; `:name` captures one, `*name` captures the rest (joined with `/`). */
  pattern: string;
  endpoint: EndpointKind;
  /** Requires an API key. */
  auth: boolean;
  /** The latency of a successful answer; null for none (admin). */
  latency: (ctx: Omit<RouteContext, 'answerDelayMs'>) => LatencyKey | null;
  handle: (ctx: RouteContext) => RouteResult | Promise<RouteResult>;
}
