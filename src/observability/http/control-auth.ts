/**
 * Who may use the control endpoint (pause and resume), decided per request. Pure.
 *
 * | token configured | request | answer |
 * |---|---|---|
 * | yes | `Authorization: Bearer <the token>`, from any address | allowed, as `token:<id> from <address>` |
 * | yes | no `Authorization` bearer header | 401 `missing-token` |
 * | yes | another token | 403 `wrong-token` |
 * | no | from a loopback address | allowed, as `loopback <address>` |
 * | no | from any other address | 403 `not-loopback` |
 *
 * The token id is the first 8 hex digits of its SHA-256: it names the token in logs without
 * revealing it. Tokens are compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** The endpoint's credential: the token and its id, or null (loopback callers only). */
export interface ControlCredential {
  readonly token: string;
  readonly id: string;
}

/** A refusal's machine-readable code. */
export type ControlAuthError = 'missing-token' | 'wrong-token' | 'not-loopback';

/** The decision. */
export type ControlAuth =
  | { readonly ok: true; readonly who: string }
  | {
      readonly ok: false;
      readonly status: 401 | 403;
      readonly error: ControlAuthError;
      readonly message: string;
    };

/** The id of a token: the first 8 hex digits of its SHA-256. */
export function tokenId(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 8);
}

/** True for an IPv4 127.0.0.0/8 address, `::1`, or an IPv4-mapped loopback (`::ffff:127.0.0.1`). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const a = address.toLowerCase();
  if (a === '::1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** Decides one request (see the module doc). */
export function authorizeControl(
  credential: ControlCredential | null,
  authorization: string | undefined,
  remoteAddress: string | undefined,
): ControlAuth {
  const from = remoteAddress ?? 'an unknown address';
  if (credential === null) {
    if (isLoopbackAddress(remoteAddress)) return { ok: true, who: `loopback ${from}` };
    return {
      ok: false,
      status: 403,
      error: 'not-loopback',
      message: `the control endpoint takes requests from loopback only while no token is set (control.tokenFile); this one came from ${from}`,
    };
  }
  const presented = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  if (presented === undefined) {
    return {
      ok: false,
      status: 401,
      error: 'missing-token',
      message:
        'the control endpoint needs "Authorization: Bearer <token>" (ledger-mm pause and resume send the token of control.tokenFile, LEDGER_MM_CONTROL_TOKEN_FILE, or --token-file)',
    };
  }
  if (!sameSecret(presented, credential.token)) {
    return {
      ok: false,
      status: 403,
      error: 'wrong-token',
      message: `the bearer token (id ${tokenId(presented)}) is not the daemon's control token`,
    };
  }
  return { ok: true, who: `token:${credential.id} from ${from}` };
}

function sameSecret(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y) && a.length === b.length;
}
