/**
 * The simulated venue's response bodies: the success envelope `{ok: true, data}`, the submit
 * host's empty 200, the error envelope with its code, extras and request id (and `retry-after`
 * on a 429), and the HTML page a proxy sends when the upstream fails. The router builds every
 * answer from these.
 */
import type { SimErrorExtras } from '../engine/sim-error.js';
import { jsonValue } from './json-value.js';
import type { SimResponse } from './types.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/**
 * `{ok: true, data}`: its JSON value, copied now (`json-value.ts`), and its text, written from that
 * copy when first read (an in-process client that takes the value never needs it).
 */
export function okResponse(status: number, data: unknown, requestId: string): SimResponse {
  const json = jsonValue({ ok: true, data });
  let text: string | undefined;
  return {
    status,
    headers: { ...JSON_HEADERS, 'x-request-id': requestId },
    json,
    get body(): string {
      text ??= JSON.stringify(json);
      return text;
    },
  };
}

/** The submit host's 200: an empty body. */
export function emptyResponse(status: number, requestId: string): SimResponse {
  return { status, headers: { 'x-request-id': requestId }, body: '' };
}

/** `{ok: false, error: {code, message, ...extras}, meta: {requestId}}`. */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  requestId: string,
  extras: SimErrorExtras = {},
): SimResponse {
  const headers: Record<string, string> = { ...JSON_HEADERS, 'x-request-id': requestId };
  if (status === 429) headers['retry-after'] = '1';
  return {
    status,
    headers,
    body: JSON.stringify({ ok: false, error: { code, message, ...extras }, meta: { requestId } }),
  };
}

/** What a proxy in front of the venue sends when the upstream fails: HTML, not JSON. */
export function htmlErrorResponse(status: number, requestId: string): SimResponse {
  const title = `${status} ${status === 502 ? 'Bad Gateway' : status === 504 ? 'Gateway Time-out' : 'Server Error'}`;
  return {
    status,
    headers: { 'content-type': 'text/html', 'x-request-id': requestId },
    body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n</body>\r\n</html>\r\n`,
  };
}
