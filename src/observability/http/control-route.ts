/**
 * The control routes of the metrics server, served when the daemon gives it a
 * {@link ControlEndpoint}:
 *
 * | route | answer |
 * |---|---|
 * | `GET /control` | the pauses in force and the kill switch's state |
 * | `POST /control/pause` | pauses a scope: JSON `{"pair"?: "BTC/USDC", "side"?: "BUY"}` (none: every pair, both sides) |
 * | `POST /control/resume` | lifts the pauses within a scope (same body) |
 *
 * Every request is authorised first (`control-auth.ts`): 401 or 403 with a JSON body
 * `{status: "error", error, message}` (a 401 with `WWW-Authenticate: Bearer`). A body that is not
 * JSON, or larger than 4 KiB, is a 400. What the endpoint answers is its own (status and JSON).
 */
import type http from 'node:http';
import { authorizeControl, type ControlCredential } from './control-auth.js';

/** An authorised request. */
export interface ControlRequest {
  readonly action: 'state' | 'pause' | 'resume';
  /** The parsed JSON body (`{}` when empty; null for `state`). */
  readonly body: unknown;
  /** Who asked (the token's id and the address, or the loopback address). */
  readonly who: string;
}

/** The endpoint's answer. */
export interface ControlAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** What the daemon plugs in. */
export interface ControlEndpoint {
  /** The token callers must present; null: loopback callers only. */
  readonly credential: ControlCredential | null;
  handle(request: ControlRequest): ControlAnswer | Promise<ControlAnswer>;
}

/** The paths, and the method each takes. */
export const CONTROL_ROUTES: Readonly<Record<string, { method: string; action: ControlRequest['action'] }>> =
  {
    '/control': { method: 'GET', action: 'state' },
    '/control/pause': { method: 'POST', action: 'pause' },
    '/control/resume': { method: 'POST', action: 'resume' },
  };

const MAX_BODY = 4_096;

/** Serves one control request; the answer is sent through `send`. */
export async function serveControl(
  req: http.IncomingMessage,
  path: string,
  endpoint: ControlEndpoint,
  send: (status: number, body: unknown, headers?: Record<string, string>) => void,
): Promise<void> {
  const route = CONTROL_ROUTES[path]!;
  if (req.method !== route.method) {
    req.resume();
    send(
      405,
      { status: 'error', error: 'method-not-allowed', message: `${path} takes ${route.method}` },
      {
        allow: route.method,
      },
    );
    return;
  }
  const auth = authorizeControl(endpoint.credential, req.headers.authorization, req.socket.remoteAddress);
  if (!auth.ok) {
    req.resume();
    const headers: Record<string, string> = auth.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
    send(auth.status, { status: 'error', error: auth.error, message: auth.message }, headers);
    return;
  }
  let body: unknown = null;
  if (route.action !== 'state') {
    const text = await readBody(req);
    if (text === null) {
      send(400, { status: 'error', error: 'bad-request', message: `the body is over ${MAX_BODY} bytes` });
      return;
    }
    try {
      body = text.trim() === '' ? {} : (JSON.parse(text) as unknown);
    } catch {
      send(400, { status: 'error', error: 'bad-request', message: 'the body is not JSON' });
      return;
    }
  } else req.resume();
  const answer = await endpoint.handle({ action: route.action, body, who: auth.who });
  send(answer.status, answer.body);
}

/** The body as text, or null when it is over {@link MAX_BODY} (read to its end either way). */
function readBody(req: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
