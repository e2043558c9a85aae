import type { SimErrorExtras } from '../engine/sim-error.js';
import type { SimResponse } from './types.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** `{ok: true, data}`. */
export function okResponse(status: number, data: unknown, requestId: string): SimResponse {
  return {
    status,
    headers: { ...JSON_HEADERS, 'x-request-id': requestId },
    body: JSON.stringify({ ok: true, data }),
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
