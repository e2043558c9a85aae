import type { Transport, TransportRequest, TransportResponse } from '../../../src/venue/transport.js';

/**
 * Transports that sit between the venue client and the simulator to misbehave in ways the sim's
 * fault API does not offer: rewriting a response (a tampered prepare echo) or answering in the
 * venue's place (a read that says 404). The simulator still sees and records every request that
 * is passed through, so its ground truth stays the reference.
 */

/** Rewrites responses: `rewrite` returns a replacement, or undefined to pass the answer through. */
export function rewritingTransport(
  inner: Transport,
  rewrite: (req: TransportRequest, res: TransportResponse) => TransportResponse | undefined,
): Transport {
  return {
    request: async (req) => {
      const res = await inner.request(req);
      return rewrite(req, res) ?? res;
    },
    close: () => inner.close(),
  };
}

/** Answers some requests itself (without reaching the venue): `answer` returns the response. */
export function interceptingTransport(
  inner: Transport,
  answer: (req: TransportRequest) => TransportResponse | undefined,
): Transport {
  return {
    request: async (req) => answer(req) ?? inner.request(req),
    close: () => inner.close(),
  };
}

/** True for POST …/v1/orders (a placement prepare). */
export function isPlacementPrepare(req: TransportRequest): boolean {
  return req.method === 'POST' && /\/v1\/orders$/.test(req.url.pathname);
}

/** True for GET …/v1/orders/{orderId}. */
export function isOrderRead(req: TransportRequest): boolean {
  return req.method === 'GET' && /\/v1\/orders\/[^/]+$/.test(req.url.pathname);
}

/** A JSON response with the venue's envelope. */
export function jsonResponse(status: number, body: unknown): TransportResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** Parses a success envelope's `data`, applies `edit`, and re-serialises. */
export function editData(
  res: TransportResponse,
  edit: (data: Record<string, unknown>) => void,
): TransportResponse {
  const env = JSON.parse(res.body) as { ok: boolean; data: Record<string, unknown> };
  edit(env.data);
  return { ...res, body: JSON.stringify(env) };
}
