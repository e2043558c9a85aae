/**
 * The client of the daemon's control endpoint, as `ledger-mm pause` and `resume` use it: it finds
 * the daemon where `status` does (`http://{metrics.host}:{metrics.port}`, from the same config
 * files and environment as the daemon, `LEDGER_MM_METRICS_PORT` included; `--url` overrides) and
 * sends the token of `control.tokenFile` (`LEDGER_MM_CONTROL_TOKEN_FILE`; `--token-file`
 * overrides) as a bearer token. It never rejects: every outcome is a {@link ControlCall}.
 */
import type { MetricsConfig } from '../../config/schema.js';
import { daemonStatusUrl } from './daemon-status.js';
import { errorText } from './operator-setup.js';

/** The default bound on one control request. */
export const CONTROL_TIMEOUT_MS = 5_000;

/** What a call came to. */
export type ControlCall =
  | { readonly kind: 'answered'; readonly url: string; readonly httpStatus: number; readonly body: unknown }
  | { readonly kind: 'unreachable'; readonly url: string; readonly reason: string };

/** The control endpoint's base URL (`…/control`) of a daemon listening per `metrics`. */
export function controlUrl(metrics: MetricsConfig): string {
  return daemonStatusUrl(metrics).replace(/\/status$/, '/control');
}

/** POSTs `body` to `<base>/<action>` (or GETs `<base>` for `state`) with the token, if any. */
export async function callControl(
  base: string,
  action: 'pause' | 'resume' | 'state',
  body: Record<string, unknown>,
  token: string | null,
  timeoutMs = CONTROL_TIMEOUT_MS,
): Promise<ControlCall> {
  const url = action === 'state' ? base : `${base.replace(/\/$/, '')}/${action}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  if (action !== 'state') headers['content-type'] = 'application/json';
  try {
    const res = await fetch(url, {
      method: action === 'state' ? 'GET' : 'POST',
      headers,
      ...(action === 'state' ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      // not JSON: kept as text (something else listens there)
    }
    return { kind: 'answered', url, httpStatus: res.status, body: parsed };
  } catch (err) {
    const name = (err as { name?: unknown }).name;
    const code = (err as { cause?: { code?: unknown } }).cause?.code;
    const reason =
      name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : typeof code === 'string'
          ? code
          : errorText(err);
    return { kind: 'unreachable', url, reason };
  }
}
