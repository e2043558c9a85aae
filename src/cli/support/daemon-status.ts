/**
 * The running daemon's status endpoint, as `ledger-mm status` asks it: `GET
 * http://{metrics.host}:{metrics.port}/status`, with a short timeout. A JSON answer (whatever its
 * HTTP status: an unhealthy daemon still answers) means the daemon runs; no answer means it does
 * not (or cannot be reached); a non-JSON answer means something else listens on that port.
 */
import type { MetricsConfig } from '../../config/schema.js';
import { ATTENTION_STATES } from '../../orders/fsm/index.js';
import { errorText } from './operator-setup.js';

/** The default bound on the status request. */
export const STATUS_TIMEOUT_MS = 2_000;

/** What the probe found. */
export type DaemonProbe =
  | { readonly kind: 'running'; readonly url: string; readonly httpStatus: number; readonly status: unknown }
  | { readonly kind: 'not-running'; readonly url: string; readonly reason: string }
  | { readonly kind: 'not-a-daemon'; readonly url: string; readonly httpStatus: number };

/**
 * The status URL. A wildcard bind address (0.0.0.0, ::) is reached through loopback; an IPv6
 * address is bracketed.
 */
export function daemonStatusUrl(metrics: MetricsConfig): string {
  let host = metrics.host;
  if (host === '0.0.0.0' || host === '') host = '127.0.0.1';
  else if (host === '::' || host === '[::]') host = '::1';
  if (host.includes(':') && !host.startsWith('[')) host = `[${host}]`;
  return `http://${host}:${metrics.port}/status`;
}

/** Asks the daemon for its status; never rejects. */
export async function probeDaemon(
  metrics: MetricsConfig,
  timeoutMs = STATUS_TIMEOUT_MS,
): Promise<DaemonProbe> {
  const url = daemonStatusUrl(metrics);
  let res: Response;
  let text: string;
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    res = await fetch(url, { headers: { accept: 'application/json' }, signal });
    text = await res.text();
  } catch (err) {
    return { kind: 'not-running', url, reason: reasonOf(err, timeoutMs) };
  }
  try {
    return { kind: 'running', url, httpStatus: res.status, status: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'not-a-daemon', url, httpStatus: res.status };
  }
}

/** Why nothing answered, in a few words. */
function reasonOf(err: unknown, timeoutMs: number): string {
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const code = ((err as { cause?: { code?: unknown } } | null)?.cause?.code ?? null) as unknown;
  if (code === 'ECONNREFUSED') return 'connection refused';
  return typeof code === 'string' ? code : errorText(err);
}

/**
 * A JSON value as indented `key: value` lines, YAML-like, for people: objects nest by two spaces,
 * arrays of scalars stay on one line, other arrays list their items after `- `.
 */
export function renderTree(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return `${indent}[]\n`;
    return value
      .map((item) => {
        if (!isObject(item) && !Array.isArray(item)) return `${indent}- ${scalar(item)}\n`;
        // The item's first line goes on the dash; the rest keep the item's indentation.
        const body = renderTree(item, `${indent}  `);
        return `${indent}- ${body.slice(indent.length + 2)}`;
      })
      .join('');
  }
  if (!isObject(value)) return `${indent}${scalar(value)}\n`;
  const entries = Object.entries(value);
  if (entries.length === 0) return `${indent}{}\n`;
  let out = '';
  for (const [k, v] of entries) {
    if (Array.isArray(v) && v.every((x) => !isObject(x) && !Array.isArray(x))) {
      out += `${indent}${k}: ${v.length === 0 ? '[]' : v.map(scalar).join(', ')}\n`;
    } else if ((isObject(v) && Object.keys(v).length > 0) || Array.isArray(v)) {
      out += `${indent}${k}:\n${renderTree(v, `${indent}  `)}`;
    } else {
      out += `${indent}${k}: ${isObject(v) ? '{}' : scalar(v)}\n`;
    }
  }
  return out;
}

/**
 * Orders in UNKNOWN or STRANDED according to a daemon status document (its `orders` counts by
 * local state), for the highlight under it; empty when there are none or the shape differs.
 */
export function attentionCounts(status: unknown): [string, number][] {
  const orders = isObject(status) ? status['orders'] : undefined;
  if (!isObject(orders)) return [];
  const out: [string, number][] = [];
  for (const state of ATTENTION_STATES) {
    const n = orders[state];
    if (typeof n === 'number' && n > 0) out.push([state, n]);
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return '-';
  return typeof v === 'string' ? v : JSON.stringify(v);
}
