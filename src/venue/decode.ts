/**
 * Turns a transport response into typed data or a {@link VenueError}. Every body goes through
 * zod; nothing here throws anything but a VenueError, whatever the bytes.
 *
 * - 2xx with `{ok: true, data}` and `data` matching the endpoint schema → the parsed data;
 * - a body that is `{ok: false, error, meta?}` (any status) → the venue's code, or
 *   `CLIENT_UNKNOWN_CODE` with `venueCode` when the code is not in the enumeration;
 * - anything else (not JSON, truncated, wrong shape, an HTML 502 page) → `CLIENT_PROTOCOL`
 *   carrying the status and a short body excerpt.
 */
import { z } from 'zod';
import { VenueError, isVenueCode, type VenueErrorDetails } from './errors.js';
import { ErrorBody, OrderBook, OrderData, OrdersData, TradesData } from './schemas.js';
import type { TransportResponse } from './transport.js';

/** Maximum length of {@link VenueError.bodyExcerpt}. */
export const EXCERPT_MAX = 200;

/** The first {@link EXCERPT_MAX} characters of a body, for diagnostics. */
export function excerpt(body: string): string {
  return body.length <= EXCERPT_MAX ? body : body.slice(0, EXCERPT_MAX);
}

/** A `CLIENT_PROTOCOL` error for a response whose body could not be understood. */
export function protocolError(
  endpoint: string,
  resp: Pick<TransportResponse, 'status' | 'body'>,
  reason: string,
  cause?: unknown,
): VenueError {
  return new VenueError({
    code: 'CLIENT_PROTOCOL',
    message: `${endpoint}: ${resp.status} ${reason}`,
    status: resp.status,
    bodyExcerpt: excerpt(resp.body),
    endpoint,
    cause,
  });
}

type Json = { ok: true; value: unknown } | { ok: false; error: unknown };

/** True for an object whose `ok` is `false` (what {@link FailureMarker} requires, among others). */
function hasOkFalse(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}

function parseJson(text: string): Json {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The body's JSON value: the transport's parsed copy when it has one, else the body parsed. */
function bodyJson(resp: TransportResponse): Json {
  return resp.json === undefined ? parseJson(resp.body) : { ok: true, value: resp.json };
}

function firstIssue(err: z.ZodError, prefix: string): string {
  const issue = err.issues[0];
  if (!issue) return 'schema mismatch';
  const path = [prefix, ...issue.path.map(String)].filter((s) => s !== '').join('.');
  return `schema mismatch at ${path || '(root)'}: ${issue.message}`;
}

const OkAny = z.looseObject({ ok: z.literal(true), data: z.unknown() });

/**
 * The read schemas whose output is their input: loose objects of strings, numbers, booleans,
 * nulls and arrays, with no transform, default or coercion (only key order may differ). A
 * `typed` answer (see `TransportResponse.typed`) for one of them is taken as it is.
 */
const PASS_THROUGH: ReadonlySet<z.ZodType> = new Set<z.ZodType>([
  OrderBook,
  TradesData,
  OrdersData,
  OrderData,
]);

function isOkEnvelope(value: unknown): value is { ok: true; data: unknown } {
  return (
    typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === true && 'data' in value
  );
}
const FailureMarker = z.looseObject({ ok: z.literal(false) });

// Fallback when ErrorBody rejects an extra field: the code still decides, extras are kept only
// when each one is well-formed on its own.
const MinimalError = z.looseObject({
  ok: z.literal(false),
  error: z.looseObject({ code: z.string(), message: z.unknown().optional() }),
  meta: z.unknown().optional(),
});
const EXTRA_FIELDS = {
  expectedPrefix: z.string(),
  allowedPairs: z.array(z.string()),
  limit: z.number().int(),
  openOrders: z.number().int(),
  maxOpenOrders: z.number().int(),
  correlationId: z.string(),
} as const;

function pickExtras(error: Record<string, unknown>): VenueErrorDetails {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(EXTRA_FIELDS)) {
    const r = schema.safeParse(error[key]);
    if (r.success) out[key] = r.data;
  }
  return out;
}

function metaString(meta: unknown, key: string): string | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const v = (meta as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : undefined;
}

function venueError(endpoint: string, status: number, body: unknown): VenueError | undefined {
  let code: string;
  let message: string | undefined;
  let details: VenueErrorDetails;
  let meta: unknown;
  const strict = ErrorBody.safeParse(body);
  if (strict.success) {
    const { code: c, message: m, ...rest } = strict.data.error;
    code = c;
    message = m;
    details = pickExtras(rest);
    meta = strict.data.meta;
  } else {
    const loose = MinimalError.safeParse(body);
    if (!loose.success) return undefined;
    code = loose.data.error.code;
    message = typeof loose.data.error.message === 'string' ? loose.data.error.message : undefined;
    details = pickExtras(loose.data.error);
    meta = loose.data.meta;
  }
  const requestId = metaString(meta, 'requestId');
  const correlationId = details.correlationId ?? metaString(meta, 'correlationId');
  const venueCode = code;
  const known = isVenueCode(venueCode);
  return new VenueError({
    ...details,
    code: known ? venueCode : 'CLIENT_UNKNOWN_CODE',
    venueCode: known ? undefined : venueCode,
    // The venue's message is for humans only; it is carried, never parsed.
    message: `${endpoint}: ${status} ${code}${message ? ` (${message})` : ''}`,
    status,
    requestId,
    correlationId,
    endpoint,
  });
}

/** The error a failed response stands for: a venue code, an unknown code, or CLIENT_PROTOCOL. */
export function decodeFailure(endpoint: string, resp: TransportResponse): VenueError {
  if (resp.truncated) return protocolError(endpoint, resp, 'error body truncated');
  const json = bodyJson(resp);
  if (!json.ok) return protocolError(endpoint, resp, 'error body is not JSON', json.error);
  return (
    venueError(endpoint, resp.status, json.value) ?? protocolError(endpoint, resp, 'malformed error body')
  );
}

/** True for a 2xx status. */
export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status <= 299;
}

/**
 * Validates a response against `{ok: true, data}` with `data` matching `schema`, and returns
 * the parsed data. Throws the decoded {@link VenueError} otherwise.
 */
export function decodeData<S extends z.ZodType>(
  endpoint: string,
  resp: TransportResponse,
  schema: S,
): z.output<S> {
  if (!isSuccessStatus(resp.status)) throw decodeFailure(endpoint, resp);
  if (resp.truncated) throw protocolError(endpoint, resp, 'body truncated');
  const json = bodyJson(resp);
  if (!json.ok) throw protocolError(endpoint, resp, 'body is not JSON', json.error);
  // The marker needs `ok: false`; checking that first spares every success a failed parse.
  if (hasOkFalse(json.value) && FailureMarker.safeParse(json.value).success) {
    throw (
      venueError(endpoint, resp.status, json.value) ?? protocolError(endpoint, resp, 'malformed error body')
    );
  }
  if (resp.typed === true && PASS_THROUGH.has(schema) && isOkEnvelope(json.value)) {
    return json.value.data as z.output<S>;
  }
  const envelope = OkAny.safeParse(json.value);
  if (!envelope.success) throw protocolError(endpoint, resp, firstIssue(envelope.error, ''), envelope.error);
  const data = schema.safeParse(envelope.data.data);
  if (!data.success) throw protocolError(endpoint, resp, firstIssue(data.error, 'data'), data.error);
  return data.data;
}

/**
 * Validates a submission response. The venue answers 200 with an EMPTY body on success; a
 * `{ok: true}` JSON body is accepted too. Throws the decoded {@link VenueError} otherwise (a
 * 2xx with a body that is neither is CLIENT_PROTOCOL, which a submit classifies as ambiguous).
 */
export function decodeSubmit(endpoint: string, resp: TransportResponse): void {
  if (!isSuccessStatus(resp.status)) throw decodeFailure(endpoint, resp);
  if (resp.truncated) throw protocolError(endpoint, resp, 'body truncated');
  if (resp.body.trim() === '') return;
  const json = bodyJson(resp);
  if (!json.ok) throw protocolError(endpoint, resp, 'body is neither empty nor JSON', json.error);
  // The marker needs `ok: false`; checking that first spares every success a failed parse.
  if (hasOkFalse(json.value) && FailureMarker.safeParse(json.value).success) {
    throw (
      venueError(endpoint, resp.status, json.value) ?? protocolError(endpoint, resp, 'malformed error body')
    );
  }
  if (!z.looseObject({ ok: z.literal(true) }).safeParse(json.value).success) {
    throw protocolError(endpoint, resp, 'unexpected submit body');
  }
}
